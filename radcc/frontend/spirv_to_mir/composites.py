"""Composites (Mesa's ``vtn_handle_composite``): construct, extract, insert,
vector shuffles, dynamic component access, copies.
"""

from __future__ import annotations

from ..mir import (
    Value,
)
from ..spirv.binary import Instruction
from .context import TV, TranslationContext
from .types_consts import composite, get_tv, get_value
from .variables import dyn_extract, dyn_insert


def op_composite_construct(ctx: TranslationContext, ins: Instruction) -> None:
    assert ins.result_type is not None
    ctx.set(ins, composite(ctx, ins.result_type, [get_tv(ctx, x) for x in ins.ids()]))


def _extract(ctx: TranslationContext, v: TV, idx: list[int]) -> TV:
    for i in idx:
        if isinstance(v, list):
            v = v[i]
        else:
            assert isinstance(v, Value)
            v = ctx.b.channel(v, i)
    return v


def op_composite_extract(ctx: TranslationContext, ins: Instruction) -> None:
    idx = [int(o.value) for o in ins.operands[1:]]
    ctx.set(ins, _extract(ctx, get_tv(ctx, ins.id(0)), idx))


def _insert(ctx: TranslationContext, v: TV, idx: list[int], x: TV) -> TV:
    if not idx:
        return x
    if isinstance(v, list):
        out = list(v)
        out[idx[0]] = _insert(ctx, v[idx[0]], idx[1:], x)
        return out
    assert isinstance(v, Value) and len(idx) == 1
    return dyn_insert(ctx, v, idx[0], x)


def op_composite_insert(ctx: TranslationContext, ins: Instruction) -> None:
    idx = [int(o.value) for o in ins.operands[2:]]
    ctx.set(ins, _insert(ctx, get_tv(ctx, ins.id(1)), idx, get_tv(ctx, ins.id(0))))


def op_copy_object(ctx: TranslationContext, ins: Instruction) -> None:
    ctx.set(ins, get_tv(ctx, ins.id(0)))


def op_vector_shuffle(ctx: TranslationContext, ins: Instruction) -> None:
    a, b_ = get_value(ctx, ins.id(0)), get_value(ctx, ins.id(1))
    parts = ctx.b.channels(a) + ctx.b.channels(b_)
    sel = [int(o.value) for o in ins.operands[2:]]
    out = [parts[k] if k != 0xFFFFFFFF else ctx.b.undef(a.bit_size) for k in sel]
    ctx.set(ins, ctx.b.vec(out))


def op_vector_extract_dynamic(ctx: TranslationContext, ins: Instruction) -> None:
    ctx.set(ins, dyn_extract(ctx, get_value(ctx, ins.id(0)), get_value(ctx, ins.id(1))))


def op_vector_insert_dynamic(ctx: TranslationContext, ins: Instruction) -> None:
    ctx.set(ins, dyn_insert(ctx, get_value(ctx, ins.id(0)), get_value(ctx, ins.id(2)),
                            get_value(ctx, ins.id(1))))
