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
implementation, as NIR's fold does with an undefined rounding mode).

Integer texels (an ``image_load`` of a uint/int storage image) are folded the same way
when every use is ``u2u16``/``i2i16`` and the image's declared format has channels of at
most 16 bits (`NARROW_INT_FORMATS`: Rgba8ui, R16ui, R16i, Rgba16ui, Rgba16i ...): the
texel then fits 16 bits, so the unit's 16-bit integer (ISA 10.4.1: "ushort or sshort")
is the truncation the shader asked for. (ACO as Mesa 22.3's RADV folds every integer
image read so; RADV since folds float destinations only, ``fold_image_dest_types =
nir_type_float`` in radv_shader.c, and the guide does not say how the unit narrows a
32-bit integer: radcc folds only where any narrowing is exact.)

Stores (``image_store``, not texel buffers): 16-bit texel data widened to 32 bits as the
image's sampled type is stored as it was (`_fold_store_data`: MIMG ``d16``); integer
coordinates of ``image_load``/``image_store`` extended from 16 bits are taken as 16-bit
(`_fold_image_coords`: MIMG ``a16``).

Coordinates (A16): an ``image_sample`` of a 1-D, 2-D or 3-D image or a 1-D/2-D array
(`A16_SAMPLE_DIMS`; the layer is a 16-bit float too) at an explicit level (``_lz``/``_l``, no
gradients or bias) whose coordinate is a ``vecN`` of ``f2f32`` of 16-bit floats and
whose level is the constant 0 or the ``f2f32`` of a 16-bit float takes those 16-bit
values (``attrs["a16"]``: isel's MIMG ``a16``, the address components packed two per
VGPR; ISA 10.1 "A16"). Exact: f16 -> f32 is exact and the unit widens the 16-bit
float coordinates itself.

A shader without image bindings (``MirShader.images``: every image instruction names
one) is not walked at all.
"""

from __future__ import annotations

import re

from ..mir import ImageBinding, Instr, MirShader, Value, users

_READS = ("image_load", "image_load_lod", "image_sample")
# the sampled dims whose coordinates may be 16-bit (an array's layer too: isel rounds it
# as a 16-bit float); not cubes: their direction becomes the face's coordinates in 32-bit
# arithmetic first (RADV's fold options leave out GLSL_SAMPLER_DIM_CUBE as well)
A16_SAMPLE_DIMS = ("1D", "2D", "3D", "1DArray", "2DArray")
# SPIR-V integer storage formats whose channels all have at most 16 bits
NARROW_INT_FORMATS = re.compile(r"(R|Rg|Rgba)(8|16)u?i")


def _narrowing(ins: Instr, img: ImageBinding) -> tuple[str, ...]:
    """The conversions to 16 bits a read's every use may be for a d16 result: ``f2f16``
    of a float image's texels, ``u2u16``/``i2i16`` of a narrow integer format's loads
    (none: the read is not folded)."""
    if img.sampled_type == "float":
        return ("f2f16",)
    if ins.op == "image_load" and img.storage and NARROW_INT_FORMATS.fullmatch(img.format):
        return ("u2u16", "i2i16")
    return ()


def fold_16bit_image(shader: MirShader) -> bool:
    if not shader.images:  # no image variable, so no image instruction (spirv_to_mir.images)
        return False
    uses = users(shader)
    changed = False
    for ins in list(shader.instrs()):
        d = ins.dest
        if ins.op not in _READS or d is None or d.bit_size != 32 or ins.attrs.get("compare"):
            continue
        img = shader.images.get(tuple(ins.attrs["binding"]))  # type: ignore[arg-type]
        narrow = () if img is None else _narrowing(ins, img)
        if not narrow:
            continue
        movs = uses.get(d.index, [])
        if not movs or any(m.op != "mov" or m.dest is None or m.dest.num_components != 1
                           or len(m.srcs) != 1 for m in movs):
            continue
        convs = [c for m in movs for c in uses.get(m.dest.index, [])]  # type: ignore[union-attr]
        if not convs or any(c.op not in narrow or c.attrs for c in convs):
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
    for ins in list(shader.instrs()):
        if ins.op == "image_sample" and not ins.attrs.get("a16"):
            changed |= _fold_a16(shader, ins)
        elif ins.op in ("image_load", "image_store") and ins.attrs["dim"] != "Buffer":
            if ins.op == "image_store":
                changed |= _fold_store_data(shader, ins)
            changed |= _fold_image_coords(shader, ins)
    return changed


# the widening of a 16-bit value to 32 bits an image's sampled type folds
_WIDEN = {"float": ("f2f32",), "uint": ("u2u32",), "int": ("i2i32",)}


def _narrow_sources(v: Value, ops: tuple[str, ...]) -> list[Value] | None:
    """The 16-bit scalars `v` (a scalar or a ``vecN`` of scalars) widens with one of
    `ops` (None: it is not such a value)."""
    p = v.parent
    if p is None:
        return None
    comps = p.srcs if p.op.startswith("vec") and p.op[3:].isdigit() else [v]
    out = []
    for c in comps:
        q = c.parent
        if q is None or q.op not in ops or q.attrs or c.num_components != 1 or \
                q.srcs[0].bit_size != 16 or q.srcs[0].num_components != 1:
            return None
        out.append(q.srcs[0])
    return out


def _vec16(shader: MirShader, ins: Instr, comps: list[Value]) -> Value:
    """A 16-bit ``vecN`` of `comps` inserted before `ins` (the scalar itself if one)."""
    if len(comps) == 1:
        return comps[0]
    assert ins.block is not None
    v = shader.new_value(16, len(comps))
    vec = Instr(f"vec{len(comps)}", v, comps)
    vec.block = ins.block
    ins.block.instrs.insert(ins.block.instrs.index(ins), vec)
    return v


def _fold_store_data(shader: MirShader, ins: Instr) -> bool:
    """An ``image_store`` whose texel is 16-bit values widened as the image's sampled type
    (float ``f2f32``, uint ``u2u32``, int ``i2i32``: NIR's fold_image_store_data, as RADV
    asks) stores the 16-bit values (isel's MIMG ``d16``; the unit converts them to the
    format: exact, the widening being exact)."""
    img = shader.images.get(tuple(ins.attrs["binding"]))  # type: ignore[arg-type]
    texel = ins.srcs[1]
    if img is None or texel.bit_size != 32:
        return False
    comps = _narrow_sources(texel, _WIDEN.get(img.sampled_type, ()))
    if comps is None:
        return False
    ins.srcs[1] = _vec16(shader, ins, comps)
    return True


def _fold_image_coords(shader: MirShader, ins: Instr) -> bool:
    """An ``image_load``/``image_store`` whose integer coordinates are 16-bit values
    sign- or zero-extended (``i2i32``/``u2u32``; NIR's fold_image_srcs, as RADV asks
    when ACO compiles) takes the 16-bit values (isel's MIMG ``a16``: 16-bit uint
    address components two per VGPR, ISA 10.1 "A16"). Exact: the T#'s extents are at
    most 16384, so a 16-bit value below it addresses the same texel either way and any
    other (a negative one too: 0x8000..0xFFFF as 16-bit uint, 2^31.. as 32-bit) is out
    of range either way."""
    c = ins.srcs[0]
    if c.bit_size != 32:
        return False
    comps = _narrow_sources(c, ("i2i32", "u2u32"))
    if comps is None:
        return False
    ins.srcs[0] = _vec16(shader, ins, comps)
    return True


def _half_source(v: Value) -> Value | None:
    """The 16-bit float `v` is the exact f2f32 of (None: it is not one)."""
    p = v.parent
    if p is not None and p.op == "f2f32" and not p.attrs and p.srcs[0].bit_size == 16 and \
            p.srcs[0].num_components == 1 and v.num_components == 1:
        return p.srcs[0]
    return None


def _fold_a16(shader: MirShader, ins: Instr) -> bool:
    if ins.attrs.get("grad") or ins.attrs.get("implicit") or ins.attrs.get("bias") or \
            ins.attrs.get("dyn_offset") or \
            ins.attrs["dim"] not in A16_SAMPLE_DIMS:
        return False
    coord = ins.srcs[0]
    cp = coord.parent
    if cp is None or not (cp.op.startswith("vec") and cp.op[3:].isdigit()) or \
            cp.srcs[0].bit_size != 32:
        return False
    halves = [_half_source(c) for c in cp.srcs]
    ndesc = len(ins.attrs.get("desc_index", ()))  # type: ignore[arg-type]
    rest = ins.srcs[1 + int(bool(ins.attrs.get("compare"))):len(ins.srcs) - ndesc]
    lod16: list[Value] = []
    if rest:
        lp = rest[0].parent
        if lp is not None and lp.op == "load_const" and tuple(lp.attrs["value"]) == (0,):
            pass  # the constant level 0 (``_lz``): no address component
        else:
            h = _half_source(rest[0])
            if h is None:
                return False
            lod16 = [h]
    if any(h is None for h in halves):
        return False
    assert ins.block is not None
    v = shader.new_value(16, len(halves))
    vec = Instr(f"vec{len(halves)}", v, [h for h in halves if h is not None])
    vec.block = ins.block
    ins.block.instrs.insert(ins.block.instrs.index(ins), vec)
    ins.srcs[0] = v
    if lod16:
        ins.srcs[len(ins.srcs) - ndesc - 1] = lod16[0]
    ins.attrs["a16"] = True
    return True

