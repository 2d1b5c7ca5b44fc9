"""System values from the kernel ABI (docs/abi.md): workgroup ids in SGPRs s2-s4,
local ids packed in v0 (x: bits 0-9, y: 10-19, z: 20-29), global id = wg id *
size + local id, the number of workgroups from the kernarg segment's hidden
block counts; subgroup size, id and invocation (``v_mbcnt``).

A compute shader with DerivativeGroupQuadsKHR (`radcc.frontend.mir.DerivativeGroup`) gets
its local ids laid out so that each 2x2 block (2m+{0,1}, 2n+{0,1}) is 4 consecutive lanes,
the quad the hardware's derivatives and implicit LOD difference over (lanes 0 1 / 2 3 of
a quad: x + 1 and y + 1), as RADV does for AMD hardware (nir_lower_compute_system_values'
quad shuffle): with L the hardware's index in the workgroup's xy plane (x + y * width;
the width and height are even, so planes and waves start on whole quads), q = L / 4 and
h = width / 2, the lane gets x = 2 (q mod h) + L bit 0, y = 2 (q div h) + L bit 1, z as
given. LocalInvocationIndex and GlobalInvocationId are computed from these ids (the
spec's formulas); the subgroup id stays the hardware's (its wave)."""

from __future__ import annotations

from radcc.abi.kernarg import ValueKind
from radcc.frontend.mir import DerivativeGroup, Instr
from radcc.ir.program import Operand
from radcc.ir.regclass import Temp, s1, v1

from .context import Comp, Const, IselContext, unsupported
from .memory import sgpr_rc


def select_system_value(ctx: IselContext, ins: Instr) -> None:
    d = ins.dest
    assert d is not None
    op = ins.op
    ws = ctx.workgroup_size
    if op == "load_workgroup_id":
        ctx.set(d, list(ctx.wg_ids))
    elif op == "load_workgroup_size":
        ctx.set(d, [Const(32, x) for x in ws])
    elif op == "load_local_invocation_id":
        ctx.set(d, _local_ids(ctx))
    elif op == "load_global_invocation_id":
        loc = _local_ids(ctx)
        out: list[Comp] = []
        for i in range(3):
            if ws[i] == 1 and isinstance(loc[i], Const):
                out.append(ctx.vgpr(ctx.wg_ids[i]))
            else:
                out.append(ctx.valu("v_mad_u32_u24", v1, ctx.wg_ids[i],
                                    Const(32, ws[i]), loc[i]))
        ctx.set(d, out)
    elif op == "load_local_invocation_index":
        ctx.set(d, [_local_index(ctx)])
    elif op == "load_num_workgroups":
        t = ctx.b.inst("s_load_b128", [sgpr_rc(4)],
                       [ctx.kernarg, Operand.c32(ctx.kernargs.kind_offset(ValueKind.HIDDEN_BLOCK_COUNT_X))]).temp
        parts = ctx.b.split_vector(t, s1, s1, s1, s1).temps
        ctx.set(d, [ctx.to_class(x, ctx.rc(d)) for x in parts[:3]])
    elif op == "load_subgroup_size":
        ctx.set(d, [Const(32, ctx.wave)])
    elif op == "load_num_subgroups":
        n = ws[0] * ws[1] * ws[2]
        ctx.set(d, [Const(32, -(-n // ctx.wave))])
    elif op == "load_subgroup_invocation":
        ctx.set(d, [_mbcnt(ctx)])
    elif op == "load_subgroup_id":
        idx = _local_index(ctx, _hw_local_ids(ctx))
        sh = ctx.valu("v_lshrrev_b32", v1, Const(32, ctx.wave.bit_length() - 1),
                      ctx.vgpr(idx))
        ctx.set(d, [ctx.uniform_result(sh, not d.divergent)])
    else:
        raise unsupported(ins)


def _local_ids(ctx: IselContext) -> list[Comp]:
    ids = _hw_local_ids(ctx)
    if ctx.derivative_group is DerivativeGroup.QUADS:
        return _quad_ids(ctx, ids)
    return ids


def _quad_ids(ctx: IselContext, ids: list[Comp]) -> list[Comp]:
    """The local ids of DerivativeGroupQuadsKHR from the hardware's (module docstring)."""
    sx, sy = ctx.workgroup_size[:2]
    x, y, z = ids
    lin = ctx.valu("v_mad_u32_u24", v1, y, Const(32, sx), x)  # (sx, sy even: both > 1)
    bit0 = ctx.valu("v_and_b32", v1, Const(32, 1), lin)
    bit1 = ctx.valu("v_bfe_u32", v1, lin, Const(32, 1), Const(32, 1))
    h = sx // 2
    if h & (h - 1) == 0:  # q mod h, q div h as masks and shifts
        qx = ctx.valu("v_and_b32", v1, Const(32, sx - 2),
                      ctx.valu("v_lshrrev_b32", v1, Const(32, 1), lin))
        qy = ctx.valu("v_lshrrev_b32", v1, Const(32, h.bit_length() + 1), lin)
    else:  # q div h as the high half of q * ceil(2^32 / h): exact as q * (the ceiling's
        # excess, < h) < 2^32 (q < 256)
        q = ctx.valu("v_lshrrev_b32", v1, Const(32, 2), lin)
        qy = ctx.valu("v_mul_hi_u32", v1, q, Const(32, -(-(1 << 32) // h)))
        rem = ctx.valu("v_sub_nc_u32", v1, q, ctx.valu("v_mul_u32_u24", v1, qy, Const(32, h)))
        qx = ctx.valu("v_lshlrev_b32", v1, Const(32, 1), rem)
    nx = ctx.valu("v_or_b32", v1, bit0, qx)
    ny = ctx.valu("v_lshl_or_b32", v1, qy, Const(32, 1), bit1)
    return [nx, ny, z]


def _hw_local_ids(ctx: IselContext) -> list[Comp]:
    ws = ctx.workgroup_size
    if not ctx.args.packed_local_ids:  # GFX10: x, y, z in v0, v1, v2 (docs/abi.md)
        return [ctx.local_ids[i] if ws[i] > 1 else Const(32, 0) for i in range(3)]
    v0 = ctx.local_ids[0]
    out: list[Comp] = [ctx.valu("v_and_b32", v1, Const(32, 0x3FF), v0) if ws[0] > 1
                       else Const(32, 0)]
    for i in (1, 2):
        out.append(ctx.valu("v_bfe_u32", v1, v0, Const(32, 10 * i), Const(32, 10))
                   if ws[i] > 1 else Const(32, 0))
    return out


def _local_index(ctx: IselContext, ids: list[Comp] | None = None) -> Comp:
    ws = ctx.workgroup_size
    x, y, z = ids if ids is not None else _local_ids(ctx)
    idx = x
    if ws[1] > 1:
        idx = ctx.valu("v_mad_u32_u24", v1, y, Const(32, ws[0]), idx)
    if ws[2] > 1:
        idx = ctx.valu("v_mad_u32_u24", v1, z, Const(32, ws[0] * ws[1]), idx)
    return idx


def _mbcnt(ctx: IselContext) -> Temp:
    t = ctx.valu("v_mbcnt_lo_u32_b32", v1, Const(32, 0xFFFFFFFF), Const(32, 0))
    if ctx.wave == 64:
        t = ctx.valu("v_mbcnt_hi_u32_b32", v1, Const(32, 0xFFFFFFFF), t)
    return t
