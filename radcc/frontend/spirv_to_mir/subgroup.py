"""Subgroup operations (Mesa's src/compiler/spirv/vtn_subgroup.c):
``OpGroupNonUniform*`` at Subgroup scope to the MIR subgroup intrinsics.
"""

from __future__ import annotations

from typing import Any

from ..mir import (
    Value,
)
from ..spirv.binary import Instruction
from .context import SCOPES, TranslationContext, err
from .types_consts import get_value, host_int

GROUP_ARITH: dict[str, str] = {
    "OpGroupNonUniformIAdd": "iadd", "OpGroupNonUniformFAdd": "fadd",
    "OpGroupNonUniformIMul": "imul", "OpGroupNonUniformFMul": "fmul",
    "OpGroupNonUniformSMin": "imin", "OpGroupNonUniformUMin": "umin",
    "OpGroupNonUniformFMin": "fmin", "OpGroupNonUniformSMax": "imax",
    "OpGroupNonUniformUMax": "umax", "OpGroupNonUniformFMax": "fmax",
    "OpGroupNonUniformBitwiseAnd": "iand", "OpGroupNonUniformBitwiseOr": "ior",
    "OpGroupNonUniformBitwiseXor": "ixor", "OpGroupNonUniformLogicalAnd": "iand",
    "OpGroupNonUniformLogicalOr": "ior", "OpGroupNonUniformLogicalXor": "ixor",
}


GROUP_OPERATION = {"Reduce": "reduce", "InclusiveScan": "inclusive_scan",
                   "ExclusiveScan": "exclusive_scan", "ClusteredReduce": "reduce"}


def translate_group(ctx: TranslationContext, ins: Instruction) -> None:
    op = ins.opname[len("OpGroupNonUniform"):]
    scope = host_int(ctx, ins.id(0))
    if scope != 3:
        raise err(f"group operation with scope {SCOPES.get(scope, scope)} (only Subgroup)",
                  ins)
    rt = ins.result_type
    ops = ins.operands

    def val(k: int) -> Value:
        return get_value(ctx, int(ops[k].value))

    def intr(name: str, srcs: list[Value], **attrs: Any) -> Value:
        assert rt is not None
        return ctx.b.intr(name, srcs, ctx.bits(rt), ctx.comps(rt), **attrs)

    if op == "Elect":
        r = intr("elect", [])
    elif op in ("All", "Any"):
        r = intr("vote_" + op.lower(), [val(1)])
    elif op == "AllEqual":
        x = val(1)
        isf = ctx.scalar(ctx.m.type_id_of(int(ops[1].value)))[0] == "float"
        r = intr("vote_feq" if isf else "vote_ieq", [x])
    elif op == "Broadcast":
        r = intr("read_invocation", [val(1), val(2)])
    elif op == "BroadcastFirst":
        r = intr("read_first_invocation", [val(1)])
    elif op == "Ballot":
        r = intr("ballot", [val(1)])
    elif op == "InverseBallot":
        r = intr("inverse_ballot", [val(1)])
    elif op == "BallotBitExtract":
        r = intr("ballot_bitfield_extract", [val(1), val(2)])
    elif op == "BallotBitCount":
        kind = {"Reduce": "reduce", "InclusiveScan": "inclusive",
                "ExclusiveScan": "exclusive"}[ops[1].name]
        r = intr("ballot_bit_count_" + kind, [val(2)])
    elif op in ("BallotFindLSB", "BallotFindMSB"):
        r = intr("ballot_find_" + op[-3:].lower(), [val(1)])
    elif op in ("Shuffle", "ShuffleXor", "ShuffleUp", "ShuffleDown"):
        name = {"Shuffle": "shuffle", "ShuffleXor": "shuffle_xor", "ShuffleUp": "shuffle_up",
                "ShuffleDown": "shuffle_down"}[op]
        r = intr(name, [val(1), val(2)])
    elif op == "QuadBroadcast":
        r = intr("quad_broadcast", [val(1), val(2)])
    elif op == "QuadSwap":
        d = host_int(ctx, int(ops[2].value))
        r = intr(["quad_swap_horizontal", "quad_swap_vertical", "quad_swap_diagonal"][d],
                 [val(1)])
    elif ins.opname in GROUP_ARITH:
        gop = ops[1].name
        if gop not in GROUP_OPERATION:
            raise err(f"unsupported group operation {gop}", ins)
        cluster = host_int(ctx, int(ops[3].value)) if gop == "ClusteredReduce" else 0
        r = intr(GROUP_OPERATION[gop], [val(2)], reduction_op=GROUP_ARITH[ins.opname],
                 cluster_size=cluster)
    else:
        raise err("unsupported subgroup operation", ins)
    ctx.set(ins, r)
