"""Images: MIR ``image_load``/``image_store`` to MIMG ``image_load``/``image_store``
(ACO's ``visit_image_load``/``visit_image_store`` in aco_instruction_selection.cpp).

The image descriptor (T#, 8 SGPRs) of every image binding is loaded once at entry
(`load_descriptors`): the kernarg segment holds its address (docs/abi.md, "Images").
An access takes the coordinates (s, t for 2D: the ISA guide's "Image Opcodes with No
Sampler" table) in consecutive VGPRs, or on GFX11 with 2 to 5 address dwords as one
operand each (NSA, `_address`: the register allocator places them anywhere, so no copies
gather them; `radcc.ir.opinfo.mimg_address_operands` counts them for the phases that
read operands by slot, and `radcc.passes.asm_text` prints a range where they happen to be
consecutive, else the NSA list; GFX10 keeps the range: its NSA bugs are not handled), ``dmask`` = the texel's components (loads:
the components the shader reads, `radcc.frontend.opt.shrink_image_reads`'s
``attrs["dmask"]``, returned to consecutive VGPRs; stores: the components given,
the texture unit writes zero to the format's others), ``dim`` from the image type and
``unorm`` (integer coordinates). Loads count on VMcnt, stores on VScnt
(`radcc.passes.insert_waitcnt`). A cube map's loads, stores and size queries address its
faces as a 2-D array (ACO's ``ac_get_image_dim``); its sampling transforms the direction
(`_cube_coords`), and sampling an array rounds its layer to nearest even (docs/abi.md).
Texel buffers (``Dim Buffer``: ``samplerBuffer``/``textureBuffer``, ``imageBuffer``) have
a 16-byte buffer resource (V#) instead, loaded with ``s_load_b128``; an access is
``buffer_load_format_*``/``buffer_store_format_*`` with ``idxen`` (the element index in one
VGPR, the format conversion done by the V#'s format: ACO's ``visit_image_load``/
``visit_image_store`` for GLSL_SAMPLER_DIM_BUF), and the size query reads num_records,
the V#'s dword 2 (ACO's ``get_buffer_size`` on GFX10+, where num_records counts elements).
Atomics on a texel (``image_atomic_*``, ACO's ``visit_image_atomic``) return the old
value (``glc``, VMcnt) when the MIR result is used, else they have no definition and no
glc (VScnt): the data VGPRs (new value, then the compare value of ``cmpswap``, dmask
0x1/0x3) are tied to the result (`radcc.ir.opinfo.tied_operands`), whose first dword is
the old texel.
An element of an array of descriptors (``attrs["desc_index"]``: the index sources) is
loaded where it is used, from the address of the array's first element (loaded at entry
from the kernarg segment) plus index x stride (RADV's descriptor sizes,
`radcc.abi.kernarg.descriptor_stride`): the constant offset of a constant index, else
``s_mul_i32`` of the index (``v_readfirstlane_b32`` first if it is in VGPRs, as ACO reads a
divergent value it needs in SGPRs) as the SMEM offset SGPR, as RADV's
``radv_nir_apply_pipeline_layout`` + ACO's ``get_sampler_desc``/``get_image_desc`` do.
"""

from __future__ import annotations

from radcc.abi.kernarg import KernargEntry, Role
from radcc.frontend.mir import Instr
from radcc.frontend.opt.fold_16bit_image import A16_SAMPLE_DIMS
from radcc.frontend.spirv.images import format_channels, packed_texel_offset
from radcc.ir.program import Operand
from radcc.ir.regclass import RegClass, RegType, Temp, s1, s2, s4, s8
from radcc.target import Feature, GfxLevel

from .context import Const, IselContext, unsupported

# the MIR's image dim (SPIR-V Dim, "Array" if arrayed) -> MIMG dim and the number of
# address components (the layer after the texel coordinates, ISA 10.4 "VGPR Usage")
# (a cube without a sampler is the 2-D array of its faces, face + 6 x cube: ACO's
# ac_get_image_dim; ISA 10.2 "For cubemaps, face_id = slice * 6 + face")
DIMS: dict[str, tuple[str, int]] = {
    "1D": ("SQ_RSRC_IMG_1D", 1), "2D": ("SQ_RSRC_IMG_2D", 2), "3D": ("SQ_RSRC_IMG_3D", 3),
    "1DArray": ("SQ_RSRC_IMG_1D_ARRAY", 2), "2DArray": ("SQ_RSRC_IMG_2D_ARRAY", 3),
    "Cube": ("SQ_RSRC_IMG_2D_ARRAY", 3), "CubeArray": ("SQ_RSRC_IMG_2D_ARRAY", 3),
    # multisampled: the sample index (fragid) after x, y[, layer] (ISA 10.2)
    "2DMS": ("SQ_RSRC_IMG_2D_MSAA", 3), "2DMSArray": ("SQ_RSRC_IMG_2D_MSAA_ARRAY", 4)}
# sampling: the MIMG dim and the coordinate components the MIR gives (the layer last;
# a cube's direction, then its cube index: transformed to s, t, face by `_cube_coords`)
_SAMPLE_DIMS: dict[str, tuple[str, int]] = {
    "1D": ("SQ_RSRC_IMG_1D", 1), "2D": ("SQ_RSRC_IMG_2D", 2), "3D": ("SQ_RSRC_IMG_3D", 3),
    "1DArray": ("SQ_RSRC_IMG_1D_ARRAY", 2), "2DArray": ("SQ_RSRC_IMG_2D_ARRAY", 3),
    "Cube": ("SQ_RSRC_IMG_CUBE", 3), "CubeArray": ("SQ_RSRC_IMG_CUBE", 4)}
# image_get_resinfo returns width, height, depth or layers, levels: the components an
# imageSize of each dimension takes (a 1-D array's layers are the third; a cube's third
# is 6 x its cubes)
_SIZE_DMASK = {"1D": 0x1, "2D": 0x3, "3D": 0x7, "1DArray": 0x5, "2DArray": 0x7,
               "Cube": 0x3, "CubeArray": 0x7, "2DMS": 0x3, "2DMSArray": 0x7}
_F32_1_5, _F32_8 = 0x3FC00000, 0x41000000
# GFX11 MIMG NSA: ADDR0 in the first dword and ADDR1..4 in the third (ISA 15.8 "MIMG"):
# up to 5 address VGPRs (LLVM's getNSAMaxSize for GFX11)
NSA_MAX = 5


def load_descriptors(ctx: IselContext) -> None:
    """At entry: every image binding's T# (``s_load_b64`` of its address from the
    kernarg segment, then ``s_load_b256``); only the address for an array of
    descriptors."""
    ctx.image_desc, ctx.image_array = {}, {}
    for key in sorted(ctx.shader.images):
        ptr = ctx.b.inst("s_load_b64", [s2], [ctx.kernarg, Operand.c32(
            ctx.kernargs.offset(Role.IMAGE, key))]).temp
        if key in ctx.shader.descriptor_counts:
            ctx.image_array[key] = ptr
            continue
        if ctx.shader.images[key].texel_buffer:  # a V#
            ctx.image_desc[key] = ctx.b.inst("s_load_b128", [s4], [ptr, Operand.c32(0)]).temp
            continue
        ctx.image_desc[key] = ctx.b.inst("s_load_b256", [s8], [ptr, Operand.c32(0)]).temp
    ctx.sampler_desc, ctx.sampler_array = {}, {}
    for key in sorted(ctx.shader.samplers):
        ptr = ctx.b.inst("s_load_b64", [s2], [ctx.kernarg, Operand.c32(
            ctx.kernargs.offset(Role.SAMPLER, key))]).temp
        if key in ctx.shader.descriptor_counts:
            ctx.sampler_array[key] = ptr
            continue
        ctx.sampler_desc[key] = ctx.b.inst("s_load_b128", [s4], [ptr, Operand.c32(0)]).temp


def _desc_sources(ins: Instr) -> int:
    """How many trailing sources are descriptor-array indices."""
    return len(ins.attrs.get("desc_index", ()))  # type: ignore[arg-type]


def _descriptor(ctx: IselContext, ins: Instr, sampler: bool = False) -> Temp:
    """The T#/V# (or with `sampler` the S#) `ins` uses: loaded at entry, or the element
    of an array of descriptors its index source picks."""
    key = tuple(ins.attrs["sampler" if sampler else "binding"])  # type: ignore[arg-type]
    kinds = tuple(ins.attrs.get("desc_index", ()))  # type: ignore[arg-type]
    which = "sampler" if sampler else "image"
    if which not in kinds:
        return (ctx.sampler_desc if sampler else ctx.image_desc)[key]  # type: ignore[index]
    src = ins.srcs[len(ins.srcs) - len(kinds) + kinds.index(which)]
    entry = ctx.kernargs.find(Role.SAMPLER if sampler else Role.IMAGE, key)  # type: ignore[arg-type]
    assert isinstance(entry, KernargEntry)
    base = (ctx.sampler_array if sampler else ctx.image_array)[key]  # type: ignore[index]
    k = ctx.comp(src, 0)
    if isinstance(k, Const):
        off = Operand.c32(k.value * entry.stride)
    else:
        off = Operand(ctx.salu("s_mul_i32", s1, ctx.sgpr(k), Const(32, entry.stride),
                               scc=False))
    size = 4 if sampler or ctx.shader.images[key].texel_buffer else 8  # type: ignore[index]
    return ctx.b.inst("s_load_b128" if size == 4 else "s_load_b256", [s4 if size == 4 else s8],
                      [base, off]).temp


def _vgprs(n: int) -> RegClass:
    return RegClass(RegType.VGPR, 4 * n)


def _dim(ins: Instr) -> tuple[str, int]:
    dim = str(ins.attrs["dim"])
    if dim not in DIMS:
        raise unsupported(ins, f"image dimension {dim} is not selected")
    return DIMS[dim]


def _pack16(ctx: IselContext, regs: list[Temp]) -> list[Temp]:
    """16-bit values (each in the low half of a VGPR) two per VGPR, low half first
    (``v_perm_b32``; a last odd one stays alone)."""
    return [regs[k] if k + 1 == len(regs) else ctx.b.inst(
        "v_perm_b32", [_vgprs(1)], [regs[k + 1], regs[k], Operand.c32(0x05040100)]).temp
        for k in range(0, len(regs), 2)]


def _flags(a16: bool, d16: bool) -> dict[str, bool]:
    """The MIMG a16/d16 flags set, in the assembly's order (a16 before d16)."""
    return {k: True for k, v in (("a16", a16), ("d16", d16)) if v}


def _address(ctx: IselContext, regs: list[Temp]) -> list[Temp]:
    """The address operands of dwords `regs`: one VGPR range (``p_create_vector``), or on
    GFX11 with 2 to `NSA_MAX` dwords each its own operand (NSA, ISA 10.1: the address
    VGPRs need not be contiguous, so the allocator places them anywhere and no copies
    gather them; `radcc.passes.asm_text` prints one range when they happen to be
    consecutive, as ACO's ``emit_mimg`` and assembler do)."""
    target = ctx.p.target
    if 2 <= len(regs) <= NSA_MAX and target.gfx_level >= GfxLevel.GFX11 and \
            target.has(Feature.NSAEncoding):
        return regs
    return [regs[0] if len(regs) == 1 else ctx.b.create_vector(_vgprs(len(regs)), *regs).temp]


def _coords(ctx: IselContext, ins: Instr, lod: bool = False) -> tuple[list[Temp], str, bool]:
    """The address VGPRs: the coordinates (and the level of image_load_mip), and whether
    they are 16-bit (`radcc.frontend.opt.fold_16bit_image`: MIMG ``a16``, two per VGPR)."""
    mdim, n = _dim(ins)
    c = ins.srcs[0]
    a16 = c.bit_size == 16 and not lod
    if c.num_components != n or c.bit_size != (16 if a16 else 32):
        raise unsupported(ins, f"{c.bit_size}-bit x{c.num_components} coordinates of a "
                               f"{mdim} image")
    regs = [ctx.vgpr(x, c.bit_size) for x in ctx.get(c)]
    if lod:
        regs.append(ctx.vgpr(ctx.comp(ins.srcs[1], 0)))
    if a16:
        regs = _pack16(ctx, regs)
    return _address(ctx, regs), mdim, a16


def _set_result(ctx: IselContext, ins: Instr, t: Temp, n: int) -> None:
    """The MIR result from the instruction's VGPRs: one per component, or with d16 (a
    16-bit result, `radcc.frontend.opt.fold_16bit_image`) two per VGPR, low half first;
    each 16-bit component in the low half of a VGPR of its own (docs/isel.md "8/16-bit
    values": the high half undefined), the odd ones shifted down."""
    d = ins.dest
    assert d is not None
    if d.bit_size == 16:
        nv = (n + 1) // 2
        regs = [t] if nv == 1 else list(ctx.b.split_vector(t, *([_vgprs(1)] * nv)).temps)
        comps = []
        for k in range(n):
            r = regs[k // 2]
            comps.append(r if k % 2 == 0 else ctx.b.inst(
                "v_lshrrev_b32", [_vgprs(1)], [Operand.c32(16), r]).temp)
        ctx.set(d, comps)
        return
    ctx.set(d, [t] if n == 1 else list(ctx.b.split_vector(t, *([_vgprs(1)] * n)).temps))


def _dmask(ins: Instr, n: int) -> int:
    """The components a read of `n` result components returns: ``attrs["dmask"]``
    (`radcc.frontend.opt.shrink_image_reads`: those the shader reads) or the first `n`."""
    dmask = int(ins.attrs.get("dmask", (1 << n) - 1))
    assert bin(dmask).count("1") == n and dmask < 16, (dmask, n)
    return dmask


def _data_vgprs(ins: Instr, n: int) -> int:
    """VGPRs of `n` result components (d16: two per VGPR)."""
    assert ins.dest is not None
    return (n + 1) // 2 if ins.dest.bit_size == 16 else n


_FORMAT_SUFFIX = {1: "x", 2: "xy", 3: "xyz", 4: "xyzw"}


def _texel_buffer(ins: Instr) -> bool:
    return ins.attrs["dim"] == "Buffer"


def _element_index(ctx: IselContext, ins: Instr) -> Temp:
    c = ins.srcs[0]
    if c.num_components != 1 or c.bit_size != 32:
        raise unsupported(ins, f"{c.bit_size}-bit x{c.num_components} texel buffer index")
    return ctx.vgpr(ctx.comp(c, 0))


def _select_texel_load(ctx: IselContext, ins: Instr, n: int) -> None:
    """texelFetch / imageLoad of a texel buffer: ``buffer_load_format_<n components>
    idxen``, soffset 0 (a dmask of a texel buffer read is the prefix of `n`)."""
    _dmask(ins, n)
    t = ctx.b.inst(f"buffer_load_format_{_FORMAT_SUFFIX[n]}", [_vgprs(n)],
                   [_element_index(ctx, ins), _descriptor(ctx, ins),
                    Operand.c32(0)], "MUBUF", idxen=True).temp
    _set_result(ctx, ins, t, n)


def select_image_load(ctx: IselContext, ins: Instr) -> None:
    d = ins.dest
    assert d is not None
    if _texel_buffer(ins):
        n = d.num_components
        if d.bit_size != 32 or not 1 <= n <= 4 or ins.op != "image_load":
            raise unsupported(ins, f"{d.bit_size}-bit x{n} {ins.op} of a texel buffer")
        _select_texel_load(ctx, ins, n)
        return
    mip = ins.op == "image_load_lod"
    addr, mdim, a16 = _coords(ctx, ins, lod=mip)
    n = d.num_components
    if d.bit_size not in (16, 32) or not 1 <= n <= 4:
        raise unsupported(ins, f"{d.bit_size}-bit x{n} image loads are not selected")
    flags = _flags(a16, d.bit_size == 16)
    t = ctx.b.inst("image_load_mip" if mip else "image_load", [_vgprs(_data_vgprs(ins, n))],
                   [*addr, _descriptor(ctx, ins)],
                   dmask=_dmask(ins, n), dim=mdim, unorm=True, **flags).temp
    _set_result(ctx, ins, t, n)


def select_image_query(ctx: IselContext, ins: Instr) -> None:
    """image_size lod / image_levels: ``image_get_resinfo`` (ISA 10.2: the level in the
    address VGPR; returns width, height, depth, level count: dmask picks them)."""
    d = ins.dest
    assert d is not None
    if _texel_buffer(ins):
        if ins.op != "image_size" or d.num_components != 1:
            raise unsupported(ins, f"{ins.op} of a texel buffer")
        num = ctx.b.extract_vector(s1, _descriptor(ctx, ins), 2).temp
        ctx.set(d, [ctx.uniform_result(num, not d.divergent)])
        return
    mdim, _ = _dim(ins)
    n = d.num_components
    if ins.op == "image_levels":
        lod, dmask = ctx.vgpr(Const(32, 0)), 0x8
    else:
        dmask = _SIZE_DMASK.get(str(ins.attrs["dim"]), 0)
        if bin(dmask).count("1") != n:
            dmask = (1 << n) - 1
        lod = ctx.vgpr(ctx.comp(ins.srcs[0], 0))
    t = ctx.b.inst("image_get_resinfo", [_vgprs(n)], [lod, _descriptor(ctx, ins)],
                   dmask=dmask, dim=mdim, unorm=True).temp
    _set_result(ctx, ins, t, n)


def select_image_store(ctx: IselContext, ins: Instr) -> None:
    key = tuple(ins.attrs["binding"])
    texel = ins.srcs[1]
    n = texel.num_components
    d16 = texel.bit_size == 16 and not _texel_buffer(ins)
    if texel.bit_size != (16 if d16 else 32) or not 1 <= n <= 4:
        raise unsupported(ins, f"{texel.bit_size}-bit x{n} image stores are not selected")
    regs = [ctx.vgpr(x, texel.bit_size) for x in ctx.get(texel)]
    if _texel_buffer(ins):
        # only the declared format's channels (NIR's nir_opt_shrink_stores, as RADV runs it)
        k = format_channels(ctx.shader.images[key].format)  # type: ignore[index]
        if k is not None and k < n:
            regs, n = regs[:k], k
    if d16:  # two 16-bit components per VGPR, low half first (ISA 10.4 "D16")
        regs = _pack16(ctx, regs)
    data = regs[0] if len(regs) == 1 else ctx.b.create_vector(_vgprs(len(regs)), *regs).temp
    if _texel_buffer(ins):  # buffer_store_format_<n> idxen
        ctx.b.inst(f"buffer_store_format_{_FORMAT_SUFFIX[n]}", [],
                   [data, _element_index(ctx, ins), _descriptor(ctx, ins),
                    Operand.c32(0)], "MUBUF", idxen=True)
        return
    addr, mdim, a16 = _coords(ctx, ins)
    flags = _flags(a16, d16)
    ctx.b.inst("image_store", [], [data, *addr, _descriptor(ctx, ins)],
               dmask=(1 << n) - 1, dim=mdim, unorm=True, **flags)


def select_image_sample(ctx: IselContext, ins: Instr) -> None:
    """image_sample (ACO's ``visit_tex``): ``image_sample`` + ``_c`` (depth compare: the
    reference after the offset and bias, ISA 10.4) + the level's suffix: ``_lz`` (the
    constant level 0), ``_l`` (a level after the body), ``_d`` (gradients before the
    body), ``_b`` (a bias) or none (implicit level, a fragment shader's texture(): the
    result is ``p_wqm``, so the program runs in whole-quad mode and the quad's
    coordinates exist for the hardware's derivatives) + ``_o`` for a texel
    offset (or a gather's run-time offset, ``attrs["dyn_offset"]``: the packed word, the
    last source); the address VGPRs are { offset } { bias } { z-compare } { derivatives }
    { body } as ISA 10.4 orders them (body: s, t[, r], then the level for ``_l``).
    With ``attrs["a16"]`` (`radcc.frontend.opt.fold_16bit_image`: 1-D, 2-D, 3-D, 1-D and
    2-D arrays) the body's 16-bit components (an array's layer rounded by ``v_rndne_f16``)
    are packed two per VGPR (``v_perm_b32``) and the instruction has ``a16``.
    A gather (``attrs["gather"]``: the component) is ``image_gather4`` with the same
    suffixes (``_lz`` outside fragment shaders) and dmask = that component: it returns
    the component of the 4 texels the bilinear footprint covers (4 VGPRs)."""
    d = ins.dest
    assert d is not None
    dim = str(ins.attrs["dim"])
    if dim not in _SAMPLE_DIMS:
        raise unsupported(ins, f"sampling image dimension {dim} is not selected")
    mdim, nc = _SAMPLE_DIMS[dim]
    c = ins.srcs[0]
    a16 = bool(ins.attrs.get("a16"))
    if c.num_components < nc or c.bit_size != (16 if a16 else 32) or (
            a16 and dim not in A16_SAMPLE_DIMS):
        raise unsupported(ins, f"{c.bit_size}-bit x{c.num_components} coordinates")
    # (SPIR-V lets a coordinate have more components than the image: the shadow
    # sampler's vec3 of textureLod holds the reference in z; they are ignored)
    body = [ctx.vgpr(x) for x in ctx.get(c)[:nc]]
    rest = list(ins.srcs[1:len(ins.srcs) - _desc_sources(ins)])
    cube_grads: list[Temp] | None = None
    if dim.startswith("Cube"):
        direction = body[:3]
        body = _cube_coords(ctx, body)
        if ins.attrs.get("grad"):  # the gradients transformed to the face (_cube_grads)
            k = int(bool(ins.attrs.get("compare")))
            cube_grads = _cube_grads(ctx, direction, [[ctx.vgpr(x) for x in ctx.get(g)][:3]
                                                      for g in rest[k:k + 2]])
    elif dim.endswith("Array"):  # the layer rounded to nearest even (Vulkan's RNE; a16:
        # as the 16-bit float it is, in the low half: the high half is packed over)
        body[-1] = ctx.valu("v_rndne_f16" if a16 else "v_rndne_f32", _vgprs(1), body[-1])
    pre: list[Temp] = []
    offset = ins.attrs.get("offset")
    if offset is not None:
        pre.append(ctx.vgpr(Const(32, packed_texel_offset(offset))))
    elif ins.attrs.get("dyn_offset"):  # a gather's packed offset word, the last source
        offset = ()
        pre.append(ctx.vgpr(ctx.comp(rest.pop(), 0)))
    compare = bool(ins.attrs.get("compare"))
    gather = ins.attrs.get("gather")
    dref = ctx.vgpr(ctx.comp(rest.pop(0), 0)) if compare else None
    if ins.attrs.get("implicit"):  # the level from the quad's derivatives: whole-quad mode
        level = ""
        if ins.attrs.get("bias"):
            level = "_b"
            pre.append(ctx.vgpr(ctx.comp(rest.pop(0), 0)))
    elif ins.attrs.get("grad"):
        level = "_d"
        if dref is not None:
            pre.append(dref)
            dref = None
        if cube_grads is not None:
            pre += cube_grads
        else:
            for g in rest[:2]:
                pre += [ctx.vgpr(x) for x in ctx.get(g)]
    elif not rest:  # a gather outside a fragment shader: level 0
        level = "_lz"
    else:
        k = ctx.comp(rest[0], 0)
        if isinstance(k, Const) and k.value == 0:
            level = "_lz"
        else:
            level = "_l"
            body.append(ctx.vgpr(k))
    if dref is not None:
        pre.append(dref)
    if a16:  # the body's 16-bit components two per VGPR, low half first (ISA 10.1)
        if level not in ("_lz", "_l"):
            raise unsupported(ins, "16-bit coordinates with gradients or a bias")
        body = _pack16(ctx, body)
    op = ("image_gather4" if gather is not None else "image_sample") + \
        ("_c" if compare else "") + level + ("_o" if offset is not None else "")
    if not ctx.b.table.has(op):
        raise unsupported(ins, f"{op} does not exist on this target")
    regs = pre + body
    addr = _address(ctx, regs)
    n = d.num_components
    nret = 4 if gather is not None else n
    dmask = 1 << int(gather) if gather is not None else _dmask(ins, n)
    if d.bit_size not in (16, 32) or (nret != n and d.bit_size == 16):
        raise unsupported(ins, f"{d.bit_size}-bit x{n} sampling")
    d16 = {"d16": True} if d.bit_size == 16 else {}
    nv = _data_vgprs(ins, nret)
    t = ctx.b.inst(op, [_vgprs(nv)], [*addr, _descriptor(ctx, ins),
                                      _descriptor(ctx, ins, sampler=True)],
                   dmask=dmask, dim=mdim, **_flags(a16, bool(d16))).temp
    if ins.attrs.get("implicit"):
        t = ctx.b.pseudo("p_wqm", [_vgprs(nv)], [t]).temp
    if nret != n:
        t = ctx.b.split_vector(t, *([_vgprs(1)] * nret)).temps[0]
    _set_result(ctx, ins, t, n)


def _cube_coords(ctx: IselContext, coord: list[Temp]) -> list[Temp]:
    """A cube's direction (x, y, z[, cube]) as the texture unit's s, t, face (ACO's cube
    lowering, ac_nir_lower_tex.c ``prepare_cube_coords``): ``v_cubesc/tc/ma/id_f32``
    select the face (ISA 16 "VOP3": sc, tc, 2 x the major axis, the face id), s = sc /
    |ma| + 1.5 and t = tc / |ma| + 1.5 lie in [1, 2] across the face, and a cube array's
    face is cube x 8 + face (ISA 10.3 "face_id = slice * 8 + face"), the cube index rounded
    to nearest even first (ac_nir_lower_tex rounds a cube array's layer always)."""
    v1 = _vgprs(1)
    x, y, z = coord[:3]
    sc = ctx.valu("v_cubesc_f32", v1, x, y, z)
    tc = ctx.valu("v_cubetc_f32", v1, x, y, z)
    ma = ctx.valu("v_cubema_f32", v1, x, y, z)
    face = ctx.valu("v_cubeid_f32", v1, x, y, z)
    invma = ctx.valu("v_rcp_f32", v1, ma, abs=[True])
    s = ctx.valu("v_fma_f32", v1, sc, invma, Const(32, _F32_1_5))
    t = ctx.valu("v_fma_f32", v1, tc, invma, Const(32, _F32_1_5))
    if len(coord) > 3:
        cube = ctx.valu("v_rndne_f32", v1, coord[3])
        face = ctx.valu("v_fma_f32", v1, cube, Const(32, _F32_8), face)
    return [s, t, face]


_F32_NEG1, _F32_1, _F32_2, _F32_4 = 0xBF800000, 0x3F800000, 0x40000000, 0x40800000


def _cube_grads(ctx: IselContext, d: list[Temp], grads: list[list[Temp]]) -> list[Temp]:
    """textureGrad's derivatives of a cube's direction (dP/dx, dP/dy: x, y, z each) as the
    derivatives of the face coordinates s, t (`_cube_coords`) the unit takes (dsdx, dtdx,
    dsdy, dtdy), as ac_nir_lower_tex's cube lowering transforms them (the LLVM-era
    ac_prepare_cube_coords' derivation): with the face of the direction (v_cubeid_f32),
    sc' and tc' the derivative's components the face's sc, tc pick (signs as
    V_CUBESC/TC_F32's table, ISA 16 "VOP3") and ma' = 2 x sign(ma) x the derivative's
    major-axis component, s' = (sc' - s0 x ma') / |2 ma| with s0 = sc / |2 ma| (the
    quotient rule of s = sc / |2 ma| + 1.5), the same for t."""
    v1, lm = _vgprs(1), ctx.lm
    x, y, z = d
    face = ctx.valu("v_cubeid_f32", v1, x, y, z)
    ma = ctx.valu("v_cubema_f32", v1, x, y, z)
    invma = ctx.valu("v_rcp_f32", v1, ma, abs=[True])
    s0 = ctx.valu("v_mul_f32", v1, ctx.valu("v_cubesc_f32", v1, x, y, z), invma)
    t0 = ctx.valu("v_mul_f32", v1, ctx.valu("v_cubetc_f32", v1, x, y, z), invma)
    ge2 = ctx.valu("v_cmp_le_f32", lm, Const(32, _F32_2), face)  # a y or z face
    ge4 = ctx.valu("v_cmp_le_f32", lm, Const(32, _F32_4), face)  # z face
    pos = ctx.valu("v_cmp_le_f32", lm, Const(32, 0), ma)
    sgn = ctx.valu("v_cndmask_b32", v1, Const(32, _F32_NEG1), Const(32, _F32_1), pos)
    nsgn = ctx.valu("v_xor_b32", v1, Const(32, 0x80000000), sgn)
    # sc's sign: x faces -sign(ma), y faces +1, z faces sign(ma); tc's: y faces sign(ma),
    # the others -1
    sgn_sc = ctx.valu("v_cndmask_b32", v1,
                      ctx.valu("v_cndmask_b32", v1, nsgn, Const(32, _F32_1), ge2), sgn, ge4)
    sgn_tc = ctx.valu("v_cndmask_b32", v1,
                      ctx.valu("v_cndmask_b32", v1, Const(32, _F32_NEG1), sgn, ge2),
                      Const(32, _F32_NEG1), ge4)
    two_sgn = ctx.valu("v_mul_f32", v1, Const(32, _F32_2), sgn)
    out: list[Temp] = []
    for gx, gy, gz in grads:
        sc = ctx.valu("v_cndmask_b32", v1, gz, gx, ge2)  # x faces: z; others: x
        tc = ctx.valu("v_cndmask_b32", v1,
                      ctx.valu("v_cndmask_b32", v1, gy, gz, ge2), gy, ge4)  # y faces: z
        m = ctx.valu("v_cndmask_b32", v1,
                     ctx.valu("v_cndmask_b32", v1, gx, gy, ge2), gz, ge4)
        dma = ctx.valu("v_mul_f32", v1, m, two_sgn)
        for c0, comp, sg in ((s0, sc, sgn_sc), (t0, tc, sgn_tc)):
            dc = ctx.valu("v_mul_f32", v1, comp, sg)
            num = ctx.valu("v_fma_f32", v1, ctx.valu("v_xor_b32", v1, Const(32, 0x80000000),
                                                     c0), dma, dc)
            out.append(ctx.valu("v_mul_f32", v1, num, invma))
    return out


# MIR atomic_op -> the MIMG opcode's suffix
_IMAGE_ATOMIC = {"iadd": "add", "imin": "smin", "umin": "umin", "imax": "smax",
                 "umax": "umax", "iand": "and", "ior": "or", "ixor": "xor", "xchg": "swap",
                 "cmpxchg": "cmpswap"}


def select_image_atomic(ctx: IselContext, ins: Instr) -> None:
    """image_atomic / image_atomic_swap: ``image_atomic_<op>``, operands vdata (tied to
    the result if it is used: then glc), vaddr, T#."""
    d = ins.dest
    assert d is not None
    aop = str(ins.attrs["atomic_op"])
    if d.bit_size != 32 or aop not in _IMAGE_ATOMIC:
        raise unsupported(ins, f"{d.bit_size}-bit image atomic {aop}")
    if _texel_buffer(ins):
        _select_texel_atomic(ctx, ins, aop)
        return
    addr, mdim, a16 = _coords(ctx, ins)
    if a16:  # (fold_16bit_image folds only loads' and stores' coordinates)
        raise unsupported(ins, "16-bit coordinates of an image atomic")
    if aop == "cmpxchg":
        cmp_, new = (ctx.vgpr(ctx.comp(s, 0)) for s in ins.srcs[1:])
        data = ctx.b.create_vector(_vgprs(2), new, cmp_).temp
    else:
        data = ctx.vgpr(ctx.comp(ins.srcs[1], 0))
    n = 2 if aop == "cmpxchg" else 1
    opc = f"image_atomic_{_IMAGE_ATOMIC[aop]}"
    ops = [data, *addr, _descriptor(ctx, ins)]
    if d not in ctx.value_uses():  # the old value is not needed: nothing returns
        ctx.b.inst(opc, [], ops, dmask=(1 << n) - 1, dim=mdim, unorm=True)
        return
    t = ctx.b.inst(opc, [_vgprs(n)], ops, dmask=(1 << n) - 1, dim=mdim, unorm=True,
                   glc=True).temp
    if n == 2:
        t = ctx.b.split_vector(t, _vgprs(1), _vgprs(1)).temps[0]
    ctx.set(d, [ctx.uniform_result(t, not d.divergent)])


# MIR atomic_op -> the MUBUF atomic's name (GFX11's canonical spelling)
_BUFFER_ATOMIC = {"iadd": "add_u32", "imin": "min_i32", "umin": "min_u32", "imax": "max_i32",
                  "umax": "max_u32", "iand": "and_b32", "ior": "or_b32", "ixor": "xor_b32",
                  "xchg": "swap_b32", "cmpxchg": "cmpswap_b32"}


def _select_texel_atomic(ctx: IselContext, ins: Instr, aop: str) -> None:
    """An atomic on a storage texel buffer's element: ``buffer_atomic_<op> idxen`` (the
    element index in one VGPR, soffset 0) through the V#, as ACO's ``visit_image_atomic``
    selects it for GLSL_SAMPLER_DIM_BUF; the data VGPRs (cmpswap: new value, then the
    compare value) are tied to the result when it is used (``glc``: the old value)."""
    d = ins.dest
    assert d is not None
    if aop == "cmpxchg":
        cmp_, new = (ctx.vgpr(ctx.comp(s, 0)) for s in ins.srcs[1:3])
        data = ctx.b.create_vector(_vgprs(2), new, cmp_).temp
    else:
        data = ctx.vgpr(ctx.comp(ins.srcs[1], 0))
    opc = f"buffer_atomic_{_BUFFER_ATOMIC[aop]}"
    ops = [data, _element_index(ctx, ins), _descriptor(ctx, ins), Operand.c32(0)]
    if d not in ctx.value_uses():  # the old value is not needed: nothing returns
        ctx.b.inst(opc, [], ops, "MUBUF", idxen=True)
        return
    n = 2 if aop == "cmpxchg" else 1
    t = ctx.b.inst(opc, [_vgprs(n)], ops, "MUBUF", idxen=True, glc=True).temp
    if n == 2:
        t = ctx.b.split_vector(t, _vgprs(1), _vgprs(1)).temps[0]
    ctx.set(d, [ctx.uniform_result(t, not d.divergent)])


def select_image_samples(ctx: IselContext, ins: Instr) -> None:
    """image_samples (textureSamples/imageSamples), as ACO's ``visit_image_samples``
    reads it from the T#: 1 << last_level (bits 115:112, dword 3 [19:16]: log2 of the
    samples for an MSAA resource, ISA Table 50) when the type (dword 3 [31:28]) is 2D
    MSAA (14) or 2D MSAA array (15), else 1. Scalar: the T# is in SGPRs."""
    d = ins.dest
    assert d is not None
    dword3 = ctx.b.extract_vector(s1, _descriptor(ctx, ins), 3).temp
    log2 = ctx.salu("s_bfe_u32", s1, dword3, Const(32, 16 | 4 << 16))
    samples = ctx.salu("s_lshl_b32", s1, Const(32, 1), log2)
    typ = ctx.salu("s_bfe_u32", s1, dword3, Const(32, 28 | 4 << 16))
    msaa = ctx.salu("s_cmp_ge_u32", None, typ, Const(32, 14))
    r = ctx.b.sop2("s_cselect_b32", s1, Operand(samples), Operand.c32(1),
                   ctx.scc_op(msaa), scc=False).temp
    ctx.set(d, [ctx.uniform_result(r, True) if not d.divergent else ctx.vgpr(r)])
