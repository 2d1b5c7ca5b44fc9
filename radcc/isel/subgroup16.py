"""8/16-bit subgroup operations by widening to 32 bits (docs/isel.md "8/16-bit values").

`select_subgroup` runs the 32-bit selection of
`radcc.isel.subgroup` on widened copies of 8/16-bit data sources:

- moves (``read_invocation``, ``read_first_invocation``, ``shuffle*``,
  ``quad_*``) and ``vote_ieq``: zero-extended (any extension moves the low bits);
- reductions and scans: ``iadd imul iand ior ixor umin umax`` zero-extended,
  ``imin imax`` sign-extended (the low bits of the 32-bit result are the 8/16-bit
  result); f16 ``fmin fmax`` and ``vote_feq`` in f32 (exact both ways);
- f16 ``fadd``/``fmul`` reductions and scans are not widened (an f32 sum rounded once
  is not the f16 operation): `subgroup.reduce_f16` runs them in ``v_add_f16`` /
  ``v_mul_f16`` on the low halves (ACO's fadd16/fmul16).

An 8/16-bit result is the low bits of the 32-bit one (f16: ``v_cvt_f16_f32``).
"""

from __future__ import annotations

from radcc.frontend.mir import Instr, Value
from radcc.ir.regclass import Temp, v1

from . import subgroup
from .alu16 import ext32
from .context import Comp, Const, IselContext, unsupported

_INT_SIGNED = {"imin": True, "imax": True}
_INT_ANY = frozenset("iadd imul iand ior ixor umin umax".split())
_SCANS = frozenset({"reduce", "inclusive_scan", "exclusive_scan"})


def select_subgroup(ctx: IselContext, ins: Instr) -> None:
    d = ins.dest
    data = [i for i, s in enumerate(ins.srcs) if s.bit_size in (8, 16)]
    if d is None or (not data and d.bit_size not in (8, 16)):
        subgroup.select_subgroup(ctx, ins)
        return
    if ins.op in _SCANS and ins.attrs["reduction_op"] in ("fadd", "fmul") \
            and ins.srcs[0].bit_size == 16:
        comps = [ctx.vgpr(c) for c in ctx.get(ins.srcs[0])]
        ctx.set(d, subgroup.reduce_f16(ctx, ins, comps))
        return
    mode = _sg16_mode(ctx, ins)
    srcs = list(ins.srcs)
    for i in data:
        srcs[i] = _sg16_widen(ctx, ins.srcs[i], mode)
    if d.bit_size in (8, 16):
        wide = Value(-1, 32, d.num_components)
        wide.divergent = d.divergent
    else:
        wide = d
    proxy = Instr(ins.op, wide, srcs, ins.attrs)
    subgroup.select_subgroup(ctx, proxy)
    for i in data:
        del ctx.vmap[srcs[i]]
    if wide is not d:
        res = ctx.get(wide)
        if mode == "float":
            res = [_sg16_narrow_f(ctx, c, d.divergent) for c in res]
        ctx.set(d, list(res))
        del ctx.vmap[wide]
    d.parent = ins


def _sg16_mode(ctx: IselContext, ins: Instr) -> str:
    """How to widen: 'zero', 'sign' or 'float'."""
    op = ins.op
    if op == "vote_feq":
        return "float"
    if op in _SCANS:
        rop = str(ins.attrs["reduction_op"])
        if rop in _INT_SIGNED:
            return "sign"
        if rop in _INT_ANY:
            return "zero"
        if rop in ("fmin", "fmax") and ins.srcs[0].bit_size == 16:
            return "float"
        raise unsupported(ins, f"8/16-bit {rop} reductions")
    return "zero"


def _sg16_widen(ctx: IselContext, v: Value, mode: str) -> Value:
    w = Value(-1, 32, v.num_components)
    w.divergent = v.divergent
    comps: list[Comp] = []
    for c in ctx.get(v):
        if mode == "float":
            if isinstance(c, Const):
                c = ctx.vgpr(c)
            t = ctx.valu("v_cvt_f32_f16", v1, c)
            comps.append(ctx.uniform_result(t, not v.divergent))
        else:
            comps.append(ext32(ctx, c, v.bit_size, mode == "sign"))
    ctx.set(w, comps)
    return w


def _sg16_narrow_f(ctx: IselContext, c: Comp, divergent: bool) -> Comp:
    if isinstance(c, Const):
        c = ctx.vgpr(c)
    t: Temp = ctx.valu("v_cvt_f16_f32", v1, c)
    return ctx.uniform_result(t, not divergent)


