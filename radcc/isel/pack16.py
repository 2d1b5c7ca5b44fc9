"""Packed 16-bit operands (docs/isel.md "8/16-bit values"): two 16-bit values in the
halves of one dword, as VOP3P instructions read them and dword stores write them.

A 16-bit scalar lives in the low half of its own register (the high bits undefined);
a *packed vector* (``vectorize_alu16.packed_vector``: a 16-bit vector load, a packed
operation's result) is held as whole dwords, component 2k's register being dword k
itself and component 2k+1 its high half. `packed_operand` finds, for a pair of 16-bit
scalars, the one 32-bit operand and the OPSEL/OPSEL_HI/NEG_LO/NEG_HI bits that read
them without an instruction where it can (a splat, the halves of one dword, equal
constants); otherwise the pair is packed first (`pack_halves`).
"""

from __future__ import annotations

from dataclasses import dataclass

from radcc.frontend.mir import Value
from radcc.frontend.opt.vectorize_alu16 import half_source
from radcc.ir.regclass import Temp, s1, v1

from .context import Comp, Const, IselContext


@dataclass
class PackedOperand:
    """One VOP3P source: the 32-bit operand, which half each result half reads
    (OPSEL, OPSEL_HI) and whether it is negated (NEG_LO, NEG_HI)."""

    value: Comp
    sel: tuple[int, int]
    neg: tuple[bool, bool]


def _half(ctx: IselContext, v: Value, negate: bool = True) -> tuple[Comp, int, bool]:
    """(register or constant, half, negated) of a 16-bit scalar: a packed vector's
    component 2k+h is half h of dword k, the register of its component 2k
    (``vectorize_alu16.packed_vector``); any other value is the low half of its own."""
    base, c, neg = half_source(v, negate)
    if base.num_components > 1:
        return ctx.comp(base, c & ~1), c & 1, neg
    return ctx.comp(base, 0), 0, neg


def _const_half(c: Const, half: int, neg: bool) -> int:
    return ((c.value >> 16 * half) & 0xFFFF) ^ (0x8000 if neg else 0)


def packed_operand(ctx: IselContext, lo: Value, hi: Value,
                   integer: bool = False) -> PackedOperand:
    """The VOP3P source reading `lo` in its low and `hi` in its high half. A splat
    or the halves of one dword read one register with OPSEL/OPSEL_HI; two constants
    are an inline constant or a literal when equal (OPSEL and OPSEL_HI zero, as the
    ISA guide requires for constants: the value is the low 16 bits), else their packed
    dword in an SGPR; anything else is packed first (``pack_halves``). For an
    `integer` operation ``fneg`` is not looked through, and an equal constant is
    sign-extended (an integer inline constant, -16..64, is a 32-bit integer)."""
    ra, ha, na = _half(ctx, lo, not integer)
    rb, hb, nb = _half(ctx, hi, not integer)
    if isinstance(ra, Const) and isinstance(rb, Const):
        a = _const_half(ra, ha, na)
        b = _const_half(rb, hb, nb)
        if a == b:
            if integer and a >> 15:
                a |= 0xFFFF0000
            return PackedOperand(Const(32, a), (0, 0), (False, False))
        return PackedOperand(ctx.sgpr(Const(32, a | b << 16)), (0, 1), (False, False))
    if isinstance(ra, Temp) and isinstance(rb, Temp) and ra.id == rb.id:
        return PackedOperand(ra, (ha, hb), (na, nb))
    return PackedOperand(pack_halves(ctx, ctx.comp(lo, 0), ctx.comp(hi, 0)), (0, 1),
                         (False, False))



def dword_of_pair(ctx: IselContext, lo: Value, hi: Value) -> Comp:
    """One dword holding `lo` in bits 0..15 and `hi` in 16..31: the register both
    already occupy in that order, a constant, else `pack_halves`."""
    ra, ha, na = _half(ctx, lo)
    rb, hb, nb = _half(ctx, hi)
    if isinstance(ra, Const) and isinstance(rb, Const):
        return Const(32, _const_half(ra, ha, na) | _const_half(rb, hb, nb) << 16)
    o = packed_operand(ctx, lo, hi)
    if o.neg == (False, False) and o.sel == (0, 1):
        return o.value
    return pack_halves(ctx, ctx.comp(lo, 0), ctx.comp(hi, 0))


def pack_halves(ctx: IselContext, lo: Comp, hi: Comp) -> Comp:
    """One dword of two 16-bit values (each in the low half of its register, the high
    bits undefined): `lo` in bits 0..15, `hi` in 16..31. Constants fold; two uniform
    values are ``s_pack_ll_b32_b16``; else ``v_perm_b32 hi, lo, 0x05040100`` (ISA
    V_PERM_B32: selector bytes 0-3 pick src1's bytes, 4-7 src0's; LLVM's build_vector
    of v2i16/v2f16 on GFX11)."""
    if isinstance(lo, Const) and isinstance(hi, Const):
        return Const(32, (lo.value & 0xFFFF) | (hi.value & 0xFFFF) << 16)
    if not any(isinstance(x, Temp) and x.rc.is_vgpr for x in (lo, hi)):
        return ctx.salu("s_pack_ll_b32_b16", s1, lo, hi)
    return ctx.valu("v_perm_b32", v1, hi, lo, Const(32, 0x05040100))
