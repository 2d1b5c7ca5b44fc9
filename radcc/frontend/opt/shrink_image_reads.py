"""shrink_image_reads: an image read returns only the texel components the shader reads.

As ACO applies a dmask to an image read (``visit_image_load``/``visit_tex`` take
``nir_def_components_read`` of the result as MIMG ``dmask`` and expand the returned
components back), an ``image_load``/``image_load_lod``/``image_sample`` (not a gather:
it returns 4 texels of one component) whose every use is a ``mov`` of some of its
components gets ``attrs["dmask"]`` (bit k: component k of the texel is returned) and a
result of only those components, in component order: the texture unit returns the
DMASK's enabled components to consecutive VGPRs (ISA guide 10.2 "Image Instructions":
DMASK; radcc.emu.texture does so), so the read needs fewer destination VGPRs. The
``mov``s are renumbered to the packed components (a one-component result: the ``mov``s
are replaced by the result itself, isel's form having no ``mov`` of a scalar).

A texel buffer's ``buffer_load_format_x/xy/xyz/xyzw`` returns a prefix of the
components, so its dmask is the prefix up to the last component read (ACO's rule for
GLSL_SAMPLER_DIM_BUF).

Guarantees: after the pass an image read with ``attrs["dmask"]`` has as many result
components as dmask has bits, and the value of every component a use reads is the one it
read before. A read with an unused result, or a use other than ``mov`` (a phi, a vector
operand), is left alone. A shader without image bindings (``MirShader.images``: every
image and texel-buffer read names one) is not walked at all.
"""

from __future__ import annotations

from ..mir import MirShader, Value, rewrite_uses, users

_READS = ("image_load", "image_load_lod", "image_sample")


def shrink_image_reads(shader: MirShader) -> bool:
    if not shader.images:  # no image variable, so no image read (spirv_to_mir.images)
        return False
    uses = users(shader)
    changed = False
    mapping: dict[Value, Value] = {}
    for ins in list(shader.instrs()):
        d = ins.dest
        if ins.op not in _READS or d is None or d.num_components == 1 or \
                ins.attrs.get("gather") is not None or "dmask" in ins.attrs:
            continue
        movs = uses.get(d.index, [])
        if not movs or any(m.op != "mov" or m.dest is None or len(m.srcs) != 1
                           for m in movs):
            continue
        read = 0
        for m in movs:
            for c in m.attrs.get("comps", range(m.dest.num_components)):  # type: ignore
                read |= 1 << int(c)
        if ins.attrs["dim"] == "Buffer":  # a prefix of the components (x, xy, xyz)
            read = (1 << read.bit_length()) - 1
        n = bin(read).count("1")
        if n == d.num_components:
            continue
        ins.attrs["dmask"] = read
        d.num_components = n
        for m in movs:
            assert m.dest is not None and m.block is not None
            comps = tuple(bin(read & ((1 << int(c)) - 1)).count("1")
                          for c in m.attrs.get("comps", range(m.dest.num_components)))
            if n == 1:  # the result is the component: no mov of a scalar
                mapping[m.dest] = d
                m.block.instrs.remove(m)
            else:
                m.attrs["comps"] = comps
        changed = True
    rewrite_uses(shader, mapping)
    return changed
