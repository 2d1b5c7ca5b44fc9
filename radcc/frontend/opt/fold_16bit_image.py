"""fold_16bit_image: float texel reads converted to 16 bits become 16-bit reads (d16).

As NIR's ``nir_fold_16bit_tex_image`` folds the destination conversions RADV asks it
to (ACO then selects the MIMG ``d16`` forms): an ``image_load``/``image_load_lod``/
``image_sample`` of a float-sampled image (not a depth compare) whose every use is a
one-component ``mov`` whose every use is ``f2f16`` gets a 16-bit result; each ``f2f16``
becomes the ``mov`` of that component and the 32-bit ``mov``s are removed.

Why it is sound: the texture unit converts the texel to 16-bit float itself (ISA guide
10.4.1, "If D16==1": 16-bit float for every format but UINT/SINT), the value the
shader converted. Only the rounding of values not exact in half precision may differ
(SPIR-V's OpFConvert without a rounding-mode decoration leaves it to the
implementation, as NIR's fold does with an undefined rounding mode). Integer images
are not folded (the guide does not say how the unit narrows 32-bit integers).
"""

from __future__ import annotations

from ..mir import If, Instr, MirShader, iter_nodes

_READS = ("image_load", "image_load_lod", "image_sample")


def fold_16bit_image(shader: MirShader) -> bool:
    uses: dict[int, list[Instr]] = {}
    for ins in shader.instrs():
        for s in ins.srcs:
            uses.setdefault(s.index, []).append(ins)
    for n in iter_nodes(shader.function.body):  # a branch condition is a use too
        if isinstance(n, If):
            uses.setdefault(n.cond.index, []).append(Instr("if", None))
    changed = False
    for ins in list(shader.instrs()):
        d = ins.dest
        if ins.op not in _READS or d is None or d.bit_size != 32 or ins.attrs.get("compare"):
            continue
        img = shader.images.get(tuple(ins.attrs["binding"]))  # type: ignore[arg-type]
        if img is None or img.sampled_type != "float":
            continue
        movs = uses.get(d.index, [])
        if not movs or any(m.op != "mov" or m.dest is None or m.dest.num_components != 1
                           or len(m.srcs) != 1 for m in movs):
            continue
        convs = [c for m in movs for c in uses.get(m.dest.index, [])]  # type: ignore[union-attr]
        if not convs or any(c.op != "f2f16" or c.attrs for c in convs):
            continue
        for c in convs:
            m = c.srcs[0].parent
            assert m is not None
            c.op = "mov"
            c.srcs = [d]
            c.attrs = {"comps": tuple(m.attrs.get("comps", (0,)))}
        d.bit_size = 16
        for m in movs:
            assert m.block is not None
            m.block.instrs.remove(m)
        changed = True
    return changed

