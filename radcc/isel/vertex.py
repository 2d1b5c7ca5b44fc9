"""Vertex shaders on NGG (GFX11): the vertex fetch, the system values and the NGG work
(ACO's visit_load_input / visit_store_output / the export code of
aco_instruction_selection.cpp after ac_nir_lower_ngg; docs/abi.md "Vertex shaders").

What is selected (the registers are `radcc.abi.graphics.vertex_args`; the program starts
with ``s_setprio 3`` as ACO's NGG shaders do, `radcc.isel.select`):

- ``load_input`` (location L, index): the V# L of the vertex-buffer table (``s_load_b128``
  from the 32-bit ``vertex_buffers`` address, the upper half `ADDRESS32_HI`), then
  ``buffer_load_format_{x,xy,xyz,xyzw} idxen`` at the index: the descriptor's format,
  stride and dst_sel convert the data (missing components read as 0, 0, 0, 1), so the
  binary does not depend on the attribute formats;
- the system values: ``gl_VertexIndex`` = vertex_id + base_vertex, ``gl_InstanceIndex``
  = instance_id + start_instance (``v_add_nc_u32``), the wave info SGPRs, the packed
  primitive in ``v0``;
- ``is_subgroup_invocation_lt`` (the vertex and primitive lanes): ``s_bfm_b64``;
- ``sendmsg_gs_alloc_req``: M0 = primitives << 12 | vertices, ``s_sendmsg
  sendmsg(MSG_GS_ALLOC_REQ)`` (ACO: before any export);
- ``export_primitive``: ``exp prim vN, off, off, off done``;
- ``store_output`` records the value of each output (an undefined value: the output is
  not written); ``export_vertex`` then waits for the shader's own stores when it made
  any (``s_waitcnt_vscnt null, 0``: the "early rasterization" rule of ACO's README-ISA,
  a position export with done may start the pixel shaders), exports the position
  (``pos0``; (0, 0, 0, 1) when not written), then the point size (``pos1``, x only) and
  the clip and cull distances (four per export, clip first), each to the next position
  target, done on the last; and then, as ACO orders them, stores the varyings to the
  attribute ring (one ``buffer_store_b128 idxen`` per parameter: index = the thread's
  index in the workgroup, soffset = (gs_attr_offset & 0x7fff) << 9, offset = 16 x
  parameter, the ring's V# from the ring table with its stride set to 16 x parameters
  as RADV's lower_abi does; with parameters the hardware waits for the wave's end); a
  16-bit varying's components zero-extended to their dwords (``v_and_b32 0xffff``).
The vertex settings of the code object (`radcc.codeobj.graphics.VertexStage`) come from
what was recorded (`vertex_stage`).
"""

from __future__ import annotations

from radcc.abi.args import ArgKind
from radcc.abi.graphics import ADDRESS32_HI, ATTR_RING_DESC_OFFSET
from radcc.codeobj.graphics import ComponentType, VertexInput, VertexOutput, VertexStage
from radcc.frontend.mir import Instr
from radcc.ir.program import Definition, Operand
from radcc.ir.regclass import M0, NULL, PhysReg, RegClass, Temp, s1, s2, v1

from .context import Comp, Const, IselContext, VertexOutputs, unsupported
from .memory import sgpr_rc

EXP_POS0 = 12  # export targets (ISA guide "Export": pos0-4 12-16, prim 20)
EXP_PRIM = 20
_FORMAT_LOADS = {1: "x", 2: "xy", 3: "xyz", 4: "xyzw"}
_VMEM_STORES = ("global_store", "global_atomic", "buffer_store", "buffer_atomic",
                "image_store", "image_atomic", "scratch_store")


def _arg(ctx: IselContext, kind: ArgKind) -> Temp:
    return ctx.arg_temps[kind]


def select_vertex_system_value(ctx: IselContext, ins: Instr) -> None:
    d = ins.dest
    assert d is not None
    op = ins.op
    direct = {
        "load_vertex_id_zero_base": ArgKind.VERTEX_ID,
        "load_instance_id": ArgKind.INSTANCE_ID,
        "load_base_vertex": ArgKind.BASE_VERTEX,
        "load_base_instance": ArgKind.START_INSTANCE,
        "load_merged_wave_info": ArgKind.MERGED_WAVE_INFO,
        "load_gs_tg_info": ArgKind.GS_TG_INFO,
        "load_packed_passthrough_primitive": ArgKind.GS_VTX_OFFSET0,
    }
    if op in direct:
        t = _arg(ctx, direct[op])
        ctx.set(d, [ctx.to_class(t, ctx.rc(d))])
    elif op in ("load_vertex_index", "load_instance_index"):
        idx, base = ((ArgKind.VERTEX_ID, ArgKind.BASE_VERTEX) if op == "load_vertex_index"
                     else (ArgKind.INSTANCE_ID, ArgKind.START_INSTANCE))
        t = ctx.valu("v_add_nc_u32", v1, _arg(ctx, base), _arg(ctx, idx))
        ctx.set(d, [t])
    else:
        raise unsupported(ins)


def select_invocation_lt(ctx: IselContext, ins: Instr) -> None:
    """lane < (n & 127) as a lane mask (ACO: ``s_bfm_b64 n, 0`` reads n's bits 0-5, its
    low half in wave32 (a count of 32 gives all of it); in wave64 a count of 64 wraps to
    0, so ``s_bitcmp1_b32 n, 6`` selects all lanes)."""
    d = ins.dest
    assert d is not None
    n = ctx.sgpr(ctx.comp(ins.srcs[0], 0))
    m = ctx.salu("s_bfm_b64", s2, n, Const(32, 0))
    if ctx.wave == 32:
        m = ctx.b.extract_vector(s1, m, 0).temp
    else:
        scc = ctx.salu("s_bitcmp1_b32", None, n, Const(32, 6))
        m = ctx.b.sop2("s_cselect_b64", s2, Operand.c64(0xFFFFFFFFFFFFFFFF), m,
                       ctx.scc_op(scc), scc=False).temp
    ctx.set(d, [ctx.new_lane_mask(m)])


def select_load_input(ctx: IselContext, ins: Instr) -> None:
    d = ins.dest
    assert d is not None
    n = d.num_components
    if d.bit_size != 32 or n not in _FORMAT_LOADS:
        raise unsupported(ins, "vertex inputs are 32-bit scalars or vectors")
    loc = int(ins.attrs["location"])
    b = ctx.b
    table = b.create_vector(s2, _arg(ctx, ArgKind.VERTEX_BUFFERS),
                            Operand.c32(ADDRESS32_HI)).temp
    desc = b.inst("s_load_b128", [sgpr_rc(4)], [table, Operand.c32(16 * loc)]).temp
    index = ctx.vgpr(ctx.comp(ins.srcs[0], 0))
    rc = RegClass.parse(f"v{n}")
    data = b.inst(f"buffer_load_format_{_FORMAT_LOADS[n]}", [rc],
                  [index, desc, Operand.c32(0)], "MUBUF", idxen=True).temp
    if n == 1:
        comps: list[Comp] = [data]
    else:
        comps = list(b.split_vector(data, *([v1] * n)).temps)
    if not d.divergent:
        comps = [ctx.uniform_result(c, True) for c in comps]  # type: ignore[arg-type]
    ctx.set(d, comps)


def _outputs(ctx: IselContext) -> VertexOutputs:
    if ctx.vs_outputs is None:
        ctx.vs_outputs = VertexOutputs()
    return ctx.vs_outputs


def select_store_output(ctx: IselContext, ins: Instr) -> None:
    src = ins.srcs[0]
    if src.parent is not None and src.parent.op == "undef":
        return  # not written
    outs = _outputs(ctx)
    if outs.exported:
        raise unsupported(ins, "an output stored after the vertex export")
    if src.bit_size not in (32, 16):
        raise unsupported(ins, "vertex outputs are 32- or 16-bit")
    comps = list(ctx.get(src))
    if src.bit_size == 16:  # zero-extended to the dword (ac_nir's export of 16-bit values)
        comps = [ctx.valu("v_and_b32", v1, Const(32, 0xFFFF), c) for c in comps]
    slot = ins.attrs["slot"]
    loc = int(ins.attrs["location"])
    if slot == "position":
        outs.position = comps
    elif slot == "point_size":
        outs.point_size = comps[0]
    elif slot == "clip_distance":
        outs.clip[loc] = comps[0]
    elif slot == "cull_distance":
        outs.cull[loc] = comps[0]
    elif slot == "param":
        outs.params[loc] = comps
    else:
        raise unsupported(ins, f"output slot {slot}")


def select_gs_alloc_req(ctx: IselContext, ins: Instr) -> None:
    b = ctx.b
    vtx = ctx.sgpr(ctx.comp(ins.srcs[0], 0))
    prim = ctx.sgpr(ctx.comp(ins.srcs[1], 0))
    sh = b.sop2("s_lshl_b32", s1, prim, Operand.c32(12)).temp
    m0 = b.tmp(s1)
    b.sop2("s_or_b32", Definition(m0, phys=PhysReg.of(M0)), sh, vtx)
    # MSG_GS_ALLOC_REQ (9), M0 read implicitly (ISA guide "S_SENDMSG")
    instr = b.sopp("s_sendmsg", simm16=9).instr
    instr.operands.append(Operand(m0, phys=PhysReg.of(M0)))


def select_export_primitive(ctx: IselContext, ins: Instr) -> None:
    arg = ctx.vgpr(ctx.comp(ins.srcs[0], 0))
    _export(ctx, EXP_PRIM, [arg, None, None, None], done=True)


def _export(ctx: IselContext, target: int, comps: list[Temp | None], *, done: bool) -> None:
    ops = [Operand(c) if c is not None else Operand(rc=v1, undef=True) for c in comps]
    en = sum(1 << i for i, c in enumerate(comps) if c is not None)
    ctx.b.inst("exp", [], ops, "EXP", target=target, en=en, done=done)


def _has_vmem_stores(ctx: IselContext) -> bool:
    return any(i.opcode.startswith(_VMEM_STORES) for _b, i in ctx.p.instructions())


def select_export_vertex(ctx: IselContext, ins: Instr) -> None:
    outs = _outputs(ctx)
    if outs.exported:
        raise unsupported(ins, "two vertex exports")
    outs.exported = True
    b = ctx.b
    if _has_vmem_stores(ctx):  # README-ISA "RDNA early rasterization"
        b.sopk("s_waitcnt_vscnt", None, 0, Operand.fixed(PhysReg.of(NULL), s1), scc=False)
    exports: list[list[Temp | None]] = []
    pos = outs.position
    if pos is None:
        pos = [Const(32, 0), Const(32, 0), Const(32, 0), Const(32, 0x3F800000)]
    exports.append([ctx.vgpr(c) for c in pos])
    if outs.point_size is not None:
        exports.append([ctx.vgpr(outs.point_size), None, None, None])
    ncc = outs.clip_cull_count()
    if ncc:
        nclip = max(outs.clip, default=-1) + 1
        flat: list[Temp | None] = []
        for i in range(ncc):
            c = outs.clip.get(i) if i < nclip else outs.cull.get(i - nclip)
            flat.append(ctx.vgpr(c if c is not None else Const(32, 0)))
        flat += [None] * (-len(flat) % 4)
        exports += [flat[i:i + 4] for i in range(0, len(flat), 4)]
    for i, comps in enumerate(exports):
        _export(ctx, EXP_POS0 + i, comps, done=i == len(exports) - 1)
    params = outs.param_order()
    if params:
        ring_tab = _arg(ctx, ArgKind.RING_OFFSETS)
        desc = b.inst("s_load_b128", [sgpr_rc(4)],
                      [ring_tab, Operand.c32(ATTR_RING_DESC_OFFSET)]).temp
        w = b.split_vector(desc, s1, s1, s1, s1).temps
        # RADV's lower_abi: the stride field (dword 1, bits 16-29) = 16 x parameters
        w1 = b.sop2("s_or_b32", s1, w[1], Operand.c32((16 * len(params)) << 16)).temp
        ring = b.create_vector(sgpr_rc(4), w[0], w1, w[2], w[3]).temp
        attr = b.sop2("s_and_b32", s1, _arg(ctx, ArgKind.GS_ATTR_OFFSET),
                      Operand.c32(0x7FFF)).temp
        soff = b.sop2("s_lshl_b32", s1, attr, Operand.c32(9)).temp
        # the thread's index in the workgroup: wave index x wave size + lane
        wave = b.sop2("s_bfe_u32", s1, _arg(ctx, ArgKind.MERGED_WAVE_INFO),
                      Operand.c32((4 << 16) | 24)).temp
        first = b.sop2("s_lshl_b32", s1, wave, Operand.c32(ctx.wave.bit_length() - 1)).temp
        lane = ctx.valu("v_mbcnt_lo_u32_b32", v1, Const(32, 0xFFFFFFFF), first)
        if ctx.wave == 64:
            lane = ctx.valu("v_mbcnt_hi_u32_b32", v1, Const(32, 0xFFFFFFFF), lane)
        for p, loc in enumerate(params):
            comps = outs.params[loc]
            vals = [ctx.vgpr(c) for c in comps] + \
                [ctx.vgpr(Const(32, 0)) for _ in range(4 - len(comps))]
            data = b.create_vector(RegClass.parse("v4"), *vals).temp
            b.inst("buffer_store_b128", [], [data, lane, ring, soff], "MUBUF", idxen=True,
                   offset=16 * p)


MAX_SUBGROUP = 128  # vertices and primitives one NGG workgroup may carry (radcc's choice)


def vertex_stage(ctx: IselContext) -> VertexStage:
    """The code object's vertex settings from what the shader fetched and exported."""
    outs = ctx.vs_outputs or VertexOutputs()
    by_loc = {o.location: o for o in ctx.shader.outputs}
    params = tuple(VertexOutput(loc, by_loc[loc].components, ComponentType(by_loc[loc].type), p,
                                by_loc[loc].bits)
                   for p, loc in enumerate(outs.param_order()))
    inputs = tuple(VertexInput(v.location, v.components, ComponentType(v.type), v.bits,
                               v.per_instance)
                   for v in sorted(ctx.shader.inputs, key=lambda v: v.location))
    return VertexStage(inputs=inputs, outputs=params, pos_exports=outs.pos_exports(),
                       writes_point_size=outs.point_size is not None,
                       clip_distances=max(outs.clip, default=-1) + 1,
                       cull_distances=max(outs.cull, default=-1) + 1,
                       max_vertices=MAX_SUBGROUP, max_primitives=MAX_SUBGROUP)
