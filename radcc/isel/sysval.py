"""System values from the kernel ABI (docs/abi.md): workgroup ids in SGPRs s2-s4,
local ids packed in v0 (x: bits 0-9, y: 10-19, z: 20-29), global id = wg id *
size + local id, the number of workgroups from the kernarg segment's hidden
block counts; subgroup size, id and invocation (``v_mbcnt``)."""

from __future__ import annotations

from radcc.abi.kernarg import ValueKind
from radcc.frontend.mir import Instr
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
        idx = _local_index(ctx)
        sh = ctx.valu("v_lshrrev_b32", v1, Const(32, ctx.wave.bit_length() - 1),
                      ctx.vgpr(idx))
        ctx.set(d, [ctx.uniform_result(sh, not d.divergent)])
    else:
        raise unsupported(ins)


def _local_ids(ctx: IselContext) -> list[Comp]:
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


def _local_index(ctx: IselContext) -> Comp:
    ws = ctx.workgroup_size
    x, y, z = _local_ids(ctx)
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
