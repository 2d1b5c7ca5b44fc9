"""Images (Mesa's src/compiler/spirv/vtn_variables.c for the variables and
``vtn_handle_image`` for the instructions): image variables (``UniformConstant``
``OpTypeImage``) become `ImageVar` handles recorded in ``MirShader.images``; loading one
gives the handle itself (an image is not a MIR value: isel reads its descriptor from
the binding), and ``OpImageRead``/``OpImageFetch``/``OpImageWrite`` become the MIR
``image_load`` (``image_load_lod`` for a fetch at a level not known to be 0) /
``image_store`` intrinsics, the queries ``image_size``/``image_levels`` (attrs
``binding``, ``dim``; docs/mir.md "Images").
Arrays of descriptors (``UniformConstant`` arrays of images, samplers or combined image
samplers, Vulkan's descriptorCount > 1) are `DescriptorArray`s: an access chain picks an
element, whose index (a constant or dynamically uniform value) an image intrinsic takes
as a trailing source, named by ``attrs["desc_index"]`` (``("image",)``, ``("sampler",)``
or both, in that order; RADV's ``radv_nir_apply_pipeline_layout`` turns the same deref
into the descriptor's address). An intrinsic whose index is ``NonUniform`` (GLSL's
``nonuniformEXT``) has ``attrs["nonuniform"]``: `radcc.frontend.opt.lower_non_uniform`
puts it in the waterfall loop Mesa's ``nir_lower_non_uniform_access`` builds.
Which image types are supported is `radcc.frontend.spirv.images.unsupported`'s
decision (the validator has refused the others by name).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..mir import ImageBinding, Value
from ..spirv.binary import Instruction
from ..spirv.images import (
    TEXEL_OFFSET_MASK,
    TEXEL_OFFSET_STRIDE,
    ImageType,
    image_type,
    unsupported,
)
from ..spirv.types import TypeArray, TypeOther, TypeRuntimeArray
from .context import TranslationContext, err, fold_value
from .fragment_io import NO_DERIVATIVES, has_derivatives
from .types_consts import array_length, get_tv, get_value


@dataclass(frozen=True)
class ImageVar:
    """An image variable (and the value of loading it): its binding and type."""

    binding: tuple[int, int]
    type: ImageType
    index: Value | None = None  # the element of a descriptor array (None: not an array)
    nonuniform: bool = False  # the index is NonUniform (a waterfall loop: module doc)


@dataclass(frozen=True)
class TexelPointer:
    """OpImageTexelPointer's result: a texel of a storage image, only an atomic's pointer."""

    image: ImageVar
    coord: Value


@dataclass(frozen=True)
class SamplerVar:
    """A sampler variable (and its value): its binding."""

    binding: tuple[int, int]
    index: Value | None = None  # the element of a descriptor array (None: not an array)
    nonuniform: bool = False  # the index is NonUniform


@dataclass(frozen=True)
class SampledImage:
    """A sampled image (OpSampledImage's result, a combined image sampler's value)."""

    image: ImageVar
    sampler: tuple[int, int]
    sampler_index: Value | None = None  # the sampler's element of a descriptor array
    sampler_nonuniform: bool = False  # that index is NonUniform


@dataclass(frozen=True)
class DescriptorArray:
    """An array of `count` image, sampler or combined image sampler descriptors at one
    binding (`element`: what each element is, without its index); `count` 0: a
    runtime-sized array (descriptor indexing: as many as the dispatch binds)."""

    element: ImageVar | SamplerVar | SampledImage
    count: int

    def at(self, index: Value, nonuniform: bool = False
           ) -> ImageVar | SamplerVar | SampledImage:
        """The element at `index` (a MIR value: constant, dynamically uniform, or
        `nonuniform`)."""
        e = self.element
        if isinstance(e, SampledImage):
            return SampledImage(replace(e.image, index=index, nonuniform=nonuniform),
                                e.sampler, index, nonuniform)
        return replace(e, index=index, nonuniform=nonuniform)


def image_intr(ctx: TranslationContext, name: str, srcs: list[Value],
               dest: tuple[int, int] | None, img: ImageVar,
               sampler_index: Value | None = None, sampler_nonuniform: bool = False,
               **attrs: Any) -> Value | None:
    """The MIR image intrinsic `name` on `img`: attrs ``binding`` and ``dim``, and the
    descriptor-array indices (the image's, then the sampler's) as trailing sources named
    by ``desc_index`` (``nonuniform`` if one is NonUniform)."""
    if img.nonuniform or sampler_nonuniform:
        attrs["nonuniform"] = True
    kinds = []
    if img.index is not None:
        srcs, kinds = [*srcs, img.index], ["image"]
    if sampler_index is not None:
        srcs, kinds = [*srcs, sampler_index], [*kinds, "sampler"]
    if kinds:
        attrs["desc_index"] = tuple(kinds)
    return ctx.b.intrinsic(name, srcs, dest, binding=img.binding, dim=img.type.mir_dim,
                           **attrs)


def _intr(ctx: TranslationContext, name: str, srcs: list[Value], bits: int, comps: int,
          img: ImageVar, sampler_index: Value | None = None, sampler_nonuniform: bool = False,
          **attrs: Any) -> Value:
    v = image_intr(ctx, name, srcs, (bits, comps), img, sampler_index, sampler_nonuniform,
                   **attrs)
    assert v is not None
    return v


def descriptor_element(ctx: TranslationContext, ins: Instruction, arr: DescriptorArray,
                       idx: Value | int, idx_id: int) -> ImageVar | SamplerVar | SampledImage:
    """OpAccessChain into a descriptor array: the element at `idx` (a constant in range,
    or a value: dynamically uniform, or NonUniform when the index or the chain is
    decorated so)."""
    if isinstance(idx, int):
        if idx < 0 or arr.count and idx >= arr.count:
            raise err(f"descriptor index {idx} outside the array of {arr.count}", ins)
        return arr.at(ctx.b.imm(idx, 32))
    nonuniform = ctx.m.has_decoration(idx_id, "NonUniform") or (
        ins.result_id is not None and ctx.m.has_decoration(ins.result_id, "NonUniform"))
    return arr.at(idx, nonuniform)


_KIND_NAMES = {"storage": "a storage buffer", "uniform": "a uniform buffer",
               "image": "an image or sampler"}


def claim_binding(ctx: TranslationContext, key: tuple[int, int], kind: str,
                  count: int | None) -> None:
    """Refuse a resource variable (`ctx.ins`) at descriptor binding `key` that another one
    already declares as a different descriptor type (`kind`: "storage" or "uniform"
    buffer, or "image" for images and samplers, which a combined image sampler binding
    serves together; Vulkan: the variable must match its binding's descriptor type,
    VUID-VkComputePipelineCreateInfo-layout-07990), or with another descriptor count
    (`count`: an array's, 0 runtime-sized, None a single descriptor: radcc addresses a
    binding either way, not both)."""
    if key in ctx.shader.bindings:
        prev = ctx.shader.bindings[key].kind
    elif key in ctx.shader.images or key in ctx.shader.samplers:
        prev = "image"
    else:
        return
    where = f"set {key[0]} binding {key[1]}"
    if prev != kind:
        raise err(f"{where} is {_KIND_NAMES[kind]} here and {_KIND_NAMES[prev]} in "
                  "another variable: a descriptor binding has one type (VUID-VkCompute"
                  "PipelineCreateInfo-layout-07990, VkGraphicsPipelineCreateInfo's too)",
                  ctx.ins)
    if ctx.shader.descriptor_counts.get(key) != count:
        raise err(f"{where} is declared with two descriptor counts (an array and a single "
                  "descriptor, or arrays of two sizes): not supported", ctx.ins)


def declare_image(ctx: TranslationContext, vid: int, pointee: int) -> None:
    """A ``UniformConstant`` variable of image, sampler or sampled-image type `pointee`
    (`ctx.ins` is its OpVariable)."""
    t = ctx.ty(pointee)
    key = ctx.m.binding(vid)
    if key is None:
        raise err(f"image or sampler variable %{vid} has no Binding", ctx.ins)
    array = isinstance(t, TypeArray | TypeRuntimeArray)
    count = 0  # an array's element count; 0: runtime-sized (descriptor indexing)
    if array:
        count = array_length(ctx, t) if isinstance(t, TypeArray) else 0
        t = ctx.ty(t.element)
        if isinstance(t, TypeArray | TypeRuntimeArray):
            raise err("arrays of arrays of descriptors are not supported", ctx.ins)
    claim_binding(ctx, key, "image", count if array else None)
    if array:
        ctx.shader.descriptor_counts[key] = count
    elem = _declare_element(ctx, vid, t, key)
    ctx.globals[vid] = DescriptorArray(elem, count) if array else elem


def _declare_element(ctx: TranslationContext, vid: int, t: object, key: tuple[int, int]
                     ) -> ImageVar | SamplerVar | SampledImage:
    if isinstance(t, TypeOther) and t.opname == "OpTypeSampler":
        ctx.shader.samplers[key] = "separate"
        return SamplerVar(key)
    combined = isinstance(t, TypeOther) and t.opname == "OpTypeSampledImage"
    if combined:
        t = ctx.ty(int(t.operands[0].value))  # type: ignore[arg-type]
    if not isinstance(t, TypeOther) or t.opname != "OpTypeImage":
        raise err(f"UniformConstant variable %{vid}: only images and samplers are supported",
                  ctx.ins)
    img = image_type(t)
    why = unsupported(img)
    if why is not None:
        raise err(why, ctx.ins)
    sampled, _ = ctx.scalar(img.sampled_type)
    ctx.shader.images[key] = ImageBinding(
        key[0], key[1], img.mir_dim, img.format, sampled, img.storage,
        readonly=ctx.m.has_decoration(vid, "NonWritable"),
        writeonly=ctx.m.has_decoration(vid, "NonReadable"))
    var = ImageVar(key, img)
    if combined:
        if not img.texel_buffer:  # a samplerBuffer is a uniform texel buffer: no S#
            ctx.shader.samplers[key] = "combined"
        return SampledImage(var, key)
    return var


def _image(ctx: TranslationContext, ins: Instruction) -> ImageVar:
    x = get_tv(ctx, ins.id(0))
    if isinstance(x, SampledImage):
        x = x.image  # texelFetch / textureSize of a combined image sampler
    if not isinstance(x, ImageVar):
        raise err("the image operand is not an image variable's value", ins)
    return x


# image operands without an effect on 32-bit texels of storage images: SignExtend,
# ZeroExtend (the texel's signedness), NonPrivateTexel (memory model), Nontemporal (a hint)
_HARMLESS_OPERANDS = 0x1000 | 0x2000 | 0x400 | 0x4000


_SAMPLE = 0x40  # the Sample image operand


def _no_image_operands(ins: Instruction, k: int) -> None:
    """Refuse image operands (Lod, Sample, ...) at operand `k`, but the harmless ones."""
    if len(ins.operands) > k:
        mask = int(ins.operands[k].value)  # type: ignore[arg-type]
        if mask & ~_HARMLESS_OPERANDS:
            raise err(f"image operands {ins.operands[k].name} are not supported", ins)


def _sampled_coord(ctx: TranslationContext, ins: Instruction, img: ImageVar, coord: Value,
                   k: int, allowed: int = 0) -> Value:
    """The address of a load, store or fetch whose image operands are at operand `k`
    (only `allowed` and the harmless ones besides Sample): `coord`, with the Sample
    operand's sample index appended for a multisampled image (its last address
    component: x, y[, layer], sample, the ISA guide's MSAA address order; MIR dims
    ``2DMS``/``2DMSArray``), which must have one."""
    mask = int(ins.operands[k].value) if len(ins.operands) > k else 0  # type: ignore[arg-type]
    if mask & ~(_HARMLESS_OPERANDS | allowed | (_SAMPLE if img.type.multisampled else 0)):
        raise err(f"image operands {ins.operands[k].name} are not supported", ins)
    if not img.type.multisampled:
        return coord
    if not mask & _SAMPLE:
        raise err("an access to a multisampled image without a Sample operand", ins)
    # the Sample id is the last parameter of the ones before it in bit order (only the
    # allowed Lod can precede it)
    sample = get_value(ctx, int(ins.operands[k].params[-1].value))  # type: ignore[arg-type]
    if sample.bit_size != 32 or sample.num_components != 1:
        raise err("a Sample operand that is not a 32-bit integer", ins)
    return ctx.b.vec([*ctx.b.channels(coord), sample])


def op_image_read(ctx: TranslationContext, ins: Instruction) -> None:
    assert ins.result_type is not None
    img = _image(ctx, ins)
    coord = _sampled_coord(ctx, ins, img, get_value(ctx, ins.id(1)), 2)
    n = ctx.comps(ins.result_type)
    r = _intr(ctx, "image_load", [coord], 32, n, img)
    ctx.set(ins, r)


def _fetch_offset(ctx: TranslationContext, ins: Instruction, img: ImageVar,
                  coord: Value) -> Value:
    """`coord` plus a fetch's ConstOffset/Offset operand (texelFetchOffset), added to the
    texel coordinates (not an array's layer): the MIMG loads take no offset, so it is
    added as NIR's nir_lower_tex lowers a txf's offset for RADV (lower_txf_offset)."""
    mask = int(ins.operands[2].value) if len(ins.operands) > 2 else 0  # type: ignore[arg-type]
    if not mask & 0x18:
        return coord
    if mask & 0x18 == 0x18:
        raise err("image operands ConstOffset and Offset together", ins)
    off = get_value(ctx, int(ins.operands[2].params[1 if mask & 0x2 else 0].value))  # type: ignore[arg-type]
    xs, os = ctx.b.channels(coord), ctx.b.channels(off)
    if off.bit_size != 32 or len(os) > len(xs):
        raise err("a texel offset that does not fit the coordinate", ins)
    out = [ctx.b.alu("iadd", 32, 1, x, os[k]) if k < len(os) else x for k, x in enumerate(xs)]
    return out[0] if len(out) == 1 else ctx.b.vec(out)


def op_image_fetch(ctx: TranslationContext, ins: Instruction) -> None:
    """OpImageFetch (texelFetch): image_load at Lod 0 (or without a Lod operand), else
    image_load_lod with the level as a second source; a ConstOffset/Offset operand
    (texelFetchOffset) is added to the coordinates (`_fetch_offset`)."""
    assert ins.result_type is not None
    img = _image(ctx, ins)
    coord = _fetch_offset(ctx, ins, img, get_value(ctx, ins.id(1)))
    coord = _sampled_coord(ctx, ins, img, coord, 2, allowed=0x2 | 0x18)
    n = ctx.comps(ins.result_type)
    lod = None
    if len(ins.operands) > 2:
        mask = int(ins.operands[2].value)  # type: ignore[arg-type]
        if mask & 0x2:  # Lod: its id is the mask's first parameter
            lod = get_value(ctx, int(ins.operands[2].params[0].value))  # type: ignore[arg-type]
    k = fold_value(lod) if lod is not None else (0,)
    if k is not None and k[0] == 0:
        r = _intr(ctx, "image_load", [coord], 32, n, img)
    else:
        assert lod is not None
        r = _intr(ctx, "image_load_lod", [coord, lod], 32, n, img)
    ctx.set(ins, r)


def op_image_query(ctx: TranslationContext, ins: Instruction) -> None:
    """OpImageQuerySize(Lod) -> image_size lod (a level's width, height, depth);
    OpImageQueryLevels -> image_levels (the descriptor's level count);
    OpImageQuerySamples -> image_samples (a multisampled image's sample count)."""
    assert ins.result_type is not None
    img = _image(ctx, ins)
    n = ctx.comps(ins.result_type)
    if ins.opname == "OpImageQuerySamples":
        r = _intr(ctx, "image_samples", [], 32, 1, img)
    elif ins.opname == "OpImageQueryLevels":
        r = _intr(ctx, "image_levels", [], 32, 1, img)
    else:
        lod = get_value(ctx, ins.id(1)) if ins.opname == "OpImageQuerySizeLod" else \
            ctx.b.imm(0, 32)
        r = _intr(ctx, "image_size", [lod], 32, n, img)
        if img.type.mir_dim == "CubeArray" and n == 3:
            # the unit returns the faces, 6 x the cubes (ISA 10.1 IMAGE_GET_RESINFO): the
            # cubes are a division (NIR's lower_txs_cube_array, as RADV asks)
            xs = ctx.b.channels(r)
            r = ctx.b.vec([xs[0], xs[1], ctx.b.alu("udiv", 32, 1, xs[2], ctx.b.imm(6))])
    ctx.set(ins, r)


def op_sampled_image(ctx: TranslationContext, ins: Instruction) -> None:
    img = get_tv(ctx, ins.id(0))
    smp = get_tv(ctx, ins.id(1))
    if not isinstance(img, ImageVar) or not isinstance(smp, SamplerVar):
        raise err("OpSampledImage of something that is not an image and a sampler variable's "
                  "value", ins)
    ctx.set(ins, SampledImage(img, smp.binding, smp.index, smp.nonuniform))


def op_image(ctx: TranslationContext, ins: Instruction) -> None:
    x = get_tv(ctx, ins.id(0))
    if not isinstance(x, SampledImage):
        raise err("OpImage of something that is not a sampled image", ins)
    ctx.set(ins, x.image)


# ImageOperands bits (SPIR-V 3.14)
_BIAS, _LOD, _GRAD, _CONST_OFFSET, _OFFSET, _CONST_OFFSETS = 0x1, 0x2, 0x4, 0x8, 0x10, 0x20


def _const_offset(ctx: TranslationContext, ins: Instruction, vid: int) -> tuple[int, ...]:
    return _const_offset_value(ctx, ins, get_value(ctx, vid))


def _const_offset_value(ctx: TranslationContext, ins: Instruction, v: Any) -> tuple[int, ...]:
    k = fold_value(v) if isinstance(v, Value) else None
    if k is None:
        raise err("ConstOffset is not a constant", ins)
    offset = tuple((v ^ 0x80000000) - 0x80000000 for v in k)
    if any(not -32 <= v <= 31 for v in offset):
        raise err(f"texel offset {offset} outside -32..31 (6-bit hardware offsets)", ins)
    return offset


# the dimensions sampled (and gathered): a layer (arrays) is the coordinate's last component
_SAMPLED_DIMS = ("1D", "2D", "3D", "1DArray", "2DArray", "Cube", "CubeArray")
# the sampling instructions: (explicit level, depth compare, gather)
_SAMPLING = {
    "OpImageSampleExplicitLod": (True, False, False),
    "OpImageSampleImplicitLod": (False, False, False),
    "OpImageSampleDrefExplicitLod": (True, True, False),
    "OpImageSampleDrefImplicitLod": (False, True, False),
    "OpImageGather": (False, False, True),
    "OpImageDrefGather": (False, True, True),
}


def op_image_sample(ctx: TranslationContext, ins: Instruction) -> None:
    """The sampling instructions (`_SAMPLING`) as MIR ``image_sample``: sources the
    coordinate, the depth reference (``attrs["compare"]``, Dref forms), then the level
    (Lod), the gradients (``attrs["grad"]``) or the bias (``attrs["bias"]``); attrs
    ``binding``, ``sampler``, ``dim``, ``offset`` (a constant texel offset or None; a
    gather's run-time Offset is a last source, packed by `_packed_offset`, with
    ``dyn_offset``; a gather's ConstOffsets four gathers, the w of each),
    ``gather`` (the component OpImageGather returns of each of the 4 texels; 0 for
    OpImageDrefGather; None when sampling) and ``implicit`` (the level from the quad's
    derivatives: a fragment shader's texture(), or a compute shader's with derivative
    groups; an implicit-level gather where there are no derivatives reads level 0,
    Vulkan's rule for non-fragment stages)."""
    assert ins.result_type is not None
    explicit, compare, gather = _SAMPLING[ins.opname]
    fragment = has_derivatives(ctx)
    if not explicit and not gather and not fragment:
        raise err(f"implicit-LOD sampling {NO_DERIVATIVES}", ins)
    x = get_tv(ctx, ins.id(0))
    if not isinstance(x, SampledImage):
        raise err("the sampled image operand is not a sampled image", ins)
    srcs = [get_value(ctx, ins.id(1))]
    k = 2
    component = None
    if compare:
        srcs.append(get_value(ctx, ins.id(2)))
        k = 3
        component = 0 if gather else None
    elif gather:
        c = fold_value(get_value(ctx, ins.id(2)))
        if c is None or not 0 <= c[0] <= 3:
            raise err("the gathered component is not a constant 0..3", ins)
        component = c[0]
        k = 3
    mask, params = 0, []
    if len(ins.operands) > k:
        op = ins.operands[k]
        mask = int(op.value)  # type: ignore[arg-type]
        params = [int(p.value) for p in op.params]  # type: ignore[arg-type]
        allowed = _CONST_OFFSET | _HARMLESS_OPERANDS | (
            (_LOD | _GRAD) if explicit else _CONST_OFFSETS | _OFFSET if gather else _BIAS)
        if mask & ~allowed:
            raise err(f"image operands {op.name} are not supported", ins)
    if explicit and not mask & (_LOD | _GRAD):
        raise err(f"{ins.opname} needs a Lod or Grad operand", ins)
    grad = bool(mask & _GRAD)
    bias = bool(mask & _BIAS)
    if mask & (_BIAS | _LOD):
        srcs.append(get_value(ctx, params.pop(0)))
    elif grad:
        srcs += [get_value(ctx, params.pop(0)), get_value(ctx, params.pop(0))]
    offset = _const_offset(ctx, ins, params.pop(0)) if mask & _CONST_OFFSET else None
    if mask & _OFFSET:  # a gather's offset that is not constant (Vulkan: gathers only)
        if mask & (_CONST_OFFSET | _CONST_OFFSETS):
            raise err("image operands Offset with ConstOffset(s)", ins)
        srcs.append(_packed_offset(ctx, ins, get_value(ctx, params.pop(0))))
    n = ctx.comps(ins.result_type)
    img = x.image
    if img.type.mir_dim not in _SAMPLED_DIMS:
        raise err(f"sampling image dimension {img.type.dim_name} is not supported", ins)

    def sample(offset: tuple[int, ...] | None) -> Value:
        return _intr(ctx, "image_sample", srcs, 32, n, img, x.sampler_index,
                     x.sampler_nonuniform, sampler=x.sampler, grad=grad, offset=offset,
                     implicit=not explicit and (fragment or not gather), bias=bias,
                     compare=compare, gather=component,
                     **({"dyn_offset": True} if mask & _OFFSET else {}))
    if mask & _CONST_OFFSETS:
        # textureGatherOffsets: texel i is the i0j0 texel (the gather's w) of the footprint
        # at offset i (SPIR-V ConstOffsets; NIR's lower_tg4_offsets, as RADV asks): four
        # gathers, one a constant offset each
        if mask & _CONST_OFFSET:
            raise err("image operands ConstOffset and ConstOffsets together", ins)
        offs = get_tv(ctx, params.pop(0))
        if not isinstance(offs, list) or len(offs) != 4 or n != 4:
            raise err("ConstOffsets is not an array of four offsets", ins)
        ctx.set(ins, ctx.b.vec([ctx.b.channels(sample(_const_offset_value(ctx, ins, o)))[3]
                                for o in offs]))
        return
    ctx.set(ins, sample(offset))


def _packed_offset(ctx: TranslationContext, ins: Instruction, off: Value) -> Value:
    """A texel offset computed at run time as the MIMG ``_o`` forms take it (the word's
    layout: `radcc.frontend.spirv.images.TEXEL_OFFSET_MASK`): the hardware's offsets are
    6-bit, so each component is wrapped to -32..31 (Vulkan's minTexelGatherOffset/max... are -32/31
    on RADV; outside them the result is undefined)."""
    os = ctx.b.channels(off)
    if off.bit_size != 32 or not 1 <= len(os) <= 3:
        raise err("a texel offset that is not a vector of 32-bit integers", ins)
    word: Value | None = None
    for k, o in enumerate(os):
        f = ctx.b.alu("iand", 32, 1, o, ctx.b.imm(TEXEL_OFFSET_MASK, 32))
        if k:
            f = ctx.b.alu("ishl", 32, 1, f, ctx.b.imm(TEXEL_OFFSET_STRIDE * k, 32))
        word = f if word is None else ctx.b.alu("ior", 32, 1, word, f)
    assert word is not None
    return word


def op_image_write(ctx: TranslationContext, ins: Instruction) -> None:
    img = _image(ctx, ins)
    coord = _sampled_coord(ctx, ins, img, get_value(ctx, ins.id(1)), 3)
    texel = get_value(ctx, ins.id(2))
    image_intr(ctx, "image_store", [coord, texel], None, img)


def op_image_texel_pointer(ctx: TranslationContext, ins: Instruction) -> None:
    """OpImageTexelPointer (imageAtomic*): the image and the coordinates, for the atomic
    that uses it (`radcc.frontend.spirv_to_mir.atomics`: MIR ``image_atomic``), on
    storage images (1D, 2D, 3D, 1D/2D arrays) and storage texel buffers (the element
    index) of the 32-bit formats R32ui, R32i and R32f (exchange only: the atomics'
    module). The image operand is a pointer to an image variable; Sample must be the
    constant 0."""
    x = get_tv(ctx, ins.id(0))
    if not isinstance(x, ImageVar):
        raise err("OpImageTexelPointer of something that is not a storage image variable",
                  ins)
    if x.type.mir_dim not in ("1D", "2D", "3D", "1DArray", "2DArray", "Buffer", "2DMS",
                              "2DMSArray"):
        raise err(f"image atomics on image dimension {x.type.dim_name} are not supported",
                  ins)
    if x.type.format not in ("R32ui", "R32i", "R32f"):
        raise err(f"image atomics on storage image format {x.type.format} are not "
                  "supported (only R32ui, R32i and R32f)", ins)
    coord = get_value(ctx, ins.id(1))
    if x.type.multisampled:  # the sample index: the address's last component
        coord = ctx.b.vec([*ctx.b.channels(coord), get_value(ctx, ins.id(2))])
    elif fold_value(get_value(ctx, ins.id(2))) != (0,):
        raise err("a non-zero Sample of OpImageTexelPointer on an image that is not "
                  "multisampled", ins)
    ctx.set(ins, TexelPointer(x, coord))
