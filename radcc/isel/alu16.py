"""8/16-bit ALU selection: integer and f16 arithmetic, comparisons, conversions.

Register classes (docs/isel.md "8/16-bit values"): an 8/16-bit value lives in a
full 32-bit register, ``s1`` when uniform and ``v1`` when divergent, in the low
bits; **the bits above its size are undefined**. The register allocator has no
sub-dword classes (``v2b``/``v1b``) yet, and GFX11's 16-bit VALU results keep the
other half of their VGPR, so nothing may assume the high bits:

- results whose low bits do not depend on the high bits of the sources (add,
  sub, mul, and/or/xor/not, neg, shl, select) are computed by the 32-bit
  instructions directly;
- divergent 16-bit min/max/abs and shifts are ACO's native 16-bit VALU forms
  (``v_min_i16``, ``v_max_u16``, ``v_sub_nc_u16`` + ``v_max_i16``, ``v_ashrrev_i16``,
  ``v_lshrrev_b16``, ``v_lshlrev_b16``): they read only the low halves;
- everything else extends first (``s_sext_i32_i8/i16``, ``s_and_b32``,
  ``v_bfe_i32``, ``v_and_b32``): uniform and 8-bit right shifts and min/max/abs,
  uniform integer comparisons, conversions to wider integers and to floats;
- divergent 16-bit integer comparisons use ``v_cmp_*_{i,u}16`` (they read only
  the low half).

f16 arithmetic is VALU only (gfx1100 has no SALU float ops): ``v_add_f16``,
``v_fma_f16``, ``v_cmp_*_f16``, ``v_sqrt_f16`` ...; a uniform result is read back
with ``p_as_uniform``. ``fdiv`` divides in f32 (the exact f32 sequence) and
rounds to f16 once more: with 24 ≥ 2·11+2 significand bits the double rounding
is innocuous. f64 → f16 rounds to f32 *to odd* first for the same reason.
Float → 8/16-bit integer converts to a 32-bit integer (saturating) and clamps to
the narrow range, matching MIR's saturating conversions; f16 → 16-bit integer is
one ``v_cvt_i16_f16``/``v_cvt_u16_f16`` (truncating, saturating: ISA guide).

A 16x2 operation of ``vectorize_alu16`` (``PACKED_VOP3P``) is one VOP3P
``v_pk_*_f16``/``v_pk_*_{u,i}16`` (a uniform integer one stays SALU per half) reading its sources' halves through ``pack16.packed_operand``; its
result is a packed vector (component 0's register is the whole dword).
"""

from __future__ import annotations

from typing import Any

from radcc.frontend.mir import Instr, Value
from radcc.frontend.mir_ops import CONVERSION
from radcc.frontend.opt.vectorize_alu16 import PACKED_FLOAT, PACKED_INT
from radcc.ir.program import Operand
from radcc.ir.regclass import Temp, s1, s2, v1, v2

from . import alu
from .alu import F32_ONE, F64_ONE, bcsel, fdiv32, scc_to_bool
from .context import SMALL, Comp, Const, IselContext, unsupported
from .pack16 import PackedOperand, pack_halves, packed_operand

F16_ONE = 0x3C00
# f16 VALU: binary (opcode, reversed opcode or None), unary, ternary
VALU16_FLOAT = {"fadd": ("v_add_f16", None), "fsub": ("v_sub_f16", "v_subrev_f16"),
                "fmul": ("v_mul_f16", None), "fmin": ("v_min_f16", None),
                "fmax": ("v_max_f16", None)}
VALU16_UNARY = {"ffloor": "v_floor_f16", "fceil": "v_ceil_f16", "ftrunc": "v_trunc_f16",
                "fround_even": "v_rndne_f16", "ffract": "v_fract_f16", "fsqrt": "v_sqrt_f16",
                "frsq": "v_rsq_f16", "frcp": "v_rcp_f16", "fexp2": "v_exp_f16",
                "flog2": "v_log_f16", "fsin_amd": "v_sin_f16", "fcos_amd": "v_cos_f16",
                "ffrexp_sig": "v_frexp_mant_f16"}
# integer ops whose low bits ignore the sources' high bits: 32-bit (SALU, VALU) opcodes
LOW_BITS_OPS = {"iadd": ("s_add_u32", "v_add_nc_u32"), "isub": ("s_sub_u32", "v_sub_nc_u32"),
                "imul": ("s_mul_i32", "v_mul_lo_u32"), "iand": ("s_and_b32", "v_and_b32"),
                "ior": ("s_or_b32", "v_or_b32"), "ixor": ("s_xor_b32", "v_xor_b32")}
# ops on extended sources: (signed extension?, SALU opcode, VALU opcode)
EXTENDED_OPS = {"imin": (True, "s_min_i32", "v_min_i32"), "imax": (True, "s_max_i32", "v_max_i32"),
                "umin": (False, "s_min_u32", "v_min_u32"),
                "umax": (False, "s_max_u32", "v_max_u32")}
INT_CMP = {"ieq": (False, "eq", "s_cmp_eq_u32", "u"), "ine": (False, "ne", "s_cmp_lg_u32", "u"),
           "ilt": (True, "lt", "s_cmp_lt_i32", "i"), "ige": (True, "ge", "s_cmp_ge_i32", "i"),
           "ult": (False, "lt", "s_cmp_lt_u32", "u"), "uge": (False, "ge", "s_cmp_ge_u32", "u")}
# vectorize_alu16's packed operations (its PACKED_OPS): VOP3P opcode, and whether the
# second source is negated (fsub is an add of its negation)
PACKED_VOP3P = {"fadd": ("v_pk_add_f16", False), "fsub": ("v_pk_add_f16", True),
                "fmul": ("v_pk_mul_f16", False), "ffma": ("v_pk_fma_f16", False),
                "fmin": ("v_pk_min_f16", False), "fmax": ("v_pk_max_f16", False),
                "iadd": ("v_pk_add_u16", False), "isub": ("v_pk_sub_u16", False),
                "imul": ("v_pk_mul_lo_u16", False), "imin": ("v_pk_min_i16", False),
                "imax": ("v_pk_max_i16", False), "umin": ("v_pk_min_u16", False),
                "umax": ("v_pk_max_u16", False)}
F16_CMP = {"feq": "eq", "fneu": "neq", "flt": "lt", "fge": "ge", "fequ": "nlg", "fneo": "lg",
           "fltu": "nge", "fgeu": "nlt"}


def is_small(v: Value) -> bool:
    return v.bit_size in SMALL


def small_const(bits: int, value: int) -> Const:
    """An 8/16-bit constant (the value's low bits, zero-extended)."""
    return Const(bits, value & ((1 << bits) - 1))


def select_alu(ctx: IselContext, ins: Instr) -> None:
    d = ins.dest
    assert d is not None
    if d.bit_size not in SMALL and not [s for s in ins.srcs if s.bit_size in SMALL]:  # is_small
        alu.select_alu(ctx, ins)
        return
    op = ins.op
    if op in ("mov", "bitcast") or op.startswith("vec"):
        if op == "bitcast" and d.bit_size != ins.srcs[0].bit_size:
            raise unsupported(ins, "bitcast between different sizes")
        if op == "bitcast":
            ctx.set(d, list(ctx.get(ins.srcs[0])))
        else:
            alu.select_alu(ctx, ins)
        return
    if op in PACKED_VOP3P and d.bit_size == 16 and d.num_components == 2 and (
            op in PACKED_FLOAT or d.divergent):  # uniform integer pairs: SALU per half
        _packed(ctx, ins, d)
        return
    out: list[Comp] = []
    for i in range(d.num_components):
        srcs = [ctx.comp(s, i) for s in ins.srcs]
        out.append(_small_comp(ctx, ins, d, srcs))
    ctx.set(d, out)


# -- helpers -----------------------------------------------------------------------
def ext32(ctx: IselContext, x: Comp, bits: int, signed: bool) -> Comp:
    """`x` (an 8/16/32-bit value) as a clean 32-bit integer, in its register file."""
    if bits >= 32:
        return x
    if isinstance(x, Const):
        v = x.value & ((1 << bits) - 1)
        if signed and v >> (bits - 1):
            v -= 1 << bits
        return Const(32, v & 0xFFFFFFFF)
    if x.rc.is_sgpr:
        if signed:
            return ctx.salu(f"s_sext_i32_i{bits}", s1, x)
        return ctx.salu("s_and_b32", s1, x, Const(32, (1 << bits) - 1))
    if signed:
        return ctx.valu("v_bfe_i32", v1, x, Const(32, 0), Const(32, bits))
    return ctx.valu("v_and_b32", v1, Const(32, (1 << bits) - 1), x)


def _lowbits(ctx: IselContext, x: Comp) -> Comp:
    """A 32/64-bit source's low dword (the bits an 8/16-bit truncation keeps)."""
    if isinstance(x, Const):
        return Const(32, x.value & 0xFFFFFFFF)
    if x.rc.size == 2:
        lo, _ = ctx.halves(x)
        return lo
    return x


def _result(ctx: IselContext, t: Comp, uniform: bool) -> Comp:
    return ctx.uniform_result(t, uniform) if isinstance(t, Temp) else t


# -- one component --------------------------------------------------------------------
def _small_comp(ctx: IselContext, ins: Instr, d: Value, srcs: list[Comp]) -> Comp:
    op = ins.op
    if CONVERSION.match(op):
        return _small_convert(ctx, ins, d, srcs[0])
    if op == "bcsel":
        return bcsel(ctx, ins, d, srcs)
    sbits = ins.srcs[0].bit_size
    if d.bit_size == 1:
        return _small_compare(ctx, ins, d, srcs, sbits)
    if op[0] == "f" or op in ("fsin_amd", "fcos_amd"):
        if d.bit_size != 16 and op != "ffrexp_exp":
            raise unsupported(ins)
        return _f16_op(ctx, ins, d, srcs)
    return _small_int(ctx, ins, d, srcs)


def _small_int(ctx: IselContext, ins: Instr, d: Value, srcs: list[Comp]) -> Comp:
    op = ins.op
    bits = d.bit_size
    uniform = not d.divergent
    if op in LOW_BITS_OPS:
        sop, vop = LOW_BITS_OPS[op]
        if uniform:
            return ctx.salu(sop, s1, *srcs)
        return ctx.valu(vop, v1, srcs[0], srcs[1], commutative=op != "isub",
                        rev="v_subrev_nc_u32" if op == "isub" else None)
    if op == "inot":
        return ctx.salu("s_not_b32", s1, srcs[0]) if uniform else \
            ctx.valu("v_not_b32", v1, srcs[0])
    if op == "ineg":
        return ctx.salu("s_sub_i32", s1, Const(32, 0), srcs[0]) if uniform else \
            ctx.valu("v_sub_nc_u32", v1, Const(32, 0), srcs[0])
    if op in ("ishl", "ishr", "ushr"):
        return _small_shift(ctx, op, bits, uniform, srcs[0], srcs[1], ins.srcs[1].bit_size)
    if op in EXTENDED_OPS:
        signed, sop, vop = EXTENDED_OPS[op]
        if not uniform and bits == 16:  # v_min_i16 ...: read the low halves only
            return ctx.valu(vop.replace("32", "16"), v1, srcs[0], srcs[1],
                            commutative=True)
        a, b = (ext32(ctx, s, bits, signed) for s in srcs)
        if uniform:
            return ctx.salu(sop, s1, a, b)
        return ctx.valu(vop, v1, a, b, commutative=True)
    if op == "iabs":
        if not uniform and bits == 16:
            n = ctx.valu("v_sub_nc_u16", v1, Const(32, 0), srcs[0])
            return ctx.valu("v_max_i16", v1, srcs[0], n, commutative=True)
        x = ext32(ctx, srcs[0], bits, True)
        if uniform:
            return ctx.salu("s_abs_i32", s1, x)
        n = ctx.valu("v_sub_nc_u32", v1, Const(32, 0), x)
        return ctx.valu("v_max_i32", v1, x, n, commutative=True)
    if op in ("imul_high", "umul_high"):
        signed = op == "imul_high"
        a, b = (ext32(ctx, s, bits, signed) for s in srcs)
        if uniform:
            p = ctx.salu("s_mul_i32", s1, a, b)
            return ctx.salu("s_ashr_i32" if signed else "s_lshr_b32", s1, p, Const(32, bits))
        p = ctx.valu("v_mul_lo_u32", v1, a, b)
        return ctx.valu("v_ashrrev_i32" if signed else "v_lshrrev_b32", v1,
                        Const(32, bits), p)
    raise unsupported(ins)


def _small_shift(ctx: IselContext, op: str, bits: int, uniform: bool, x: Comp, n: Comp,
                 nbits: int) -> Comp:
    """NIR shifts: the count modulo the bit size. Divergent 16-bit shifts are
    ``v_lshlrev_b16``/``v_lshrrev_b16``/``v_ashrrev_i16``: they read the low half
    of the value and the count's bits [3:0] (ISA guide V_LSHRREV_B16), which is
    the count modulo 16 already."""
    if bits == 16 and not uniform:
        cnt16 = Const(32, n.value & 15) if isinstance(n, Const) else _lowbits(ctx, n)
        opc = {"ishl": "v_lshlrev_b16", "ishr": "v_ashrrev_i16",
               "ushr": "v_lshrrev_b16"}[op]
        return ctx.valu(opc, v1, cnt16, x)
    if isinstance(n, Const):
        cnt: Comp = Const(32, n.value & (bits - 1))
    elif uniform:
        cnt = ctx.salu("s_and_b32", s1, _lowbits(ctx, n), Const(32, bits - 1))
    else:
        cnt = ctx.valu("v_and_b32", v1, Const(32, bits - 1), _lowbits(ctx, n))
    if op != "ishl":
        x = ext32(ctx, x, bits, op == "ishr")
    if uniform:
        opc = {"ishl": "s_lshl_b32", "ishr": "s_ashr_i32", "ushr": "s_lshr_b32"}[op]
        return ctx.salu(opc, s1, x, cnt)
    opc = {"ishl": "v_lshlrev_b32", "ishr": "v_ashrrev_i32", "ushr": "v_lshrrev_b32"}[op]
    return ctx.valu(opc, v1, cnt, x)


def _small_compare(ctx: IselContext, ins: Instr, d: Value, srcs: list[Comp], bits: int) -> Comp:
    op = ins.op
    if op in F16_CMP:
        t = ctx.new_lane_mask(ctx.valu(f"v_cmp_{F16_CMP[op]}_f16", ctx.lm, *srcs))
        return t if d.divergent else ctx.ubool(t)
    if op == "fisinf":
        t = ctx.new_lane_mask(ctx.valu("v_cmp_class_f16", ctx.lm, srcs[0],
                                       Const(32, 0x204)))
        return t if d.divergent else ctx.ubool(t)
    if op not in INT_CMP:
        raise unsupported(ins)
    signed, rel, salu, kind = INT_CMP[op]
    if not d.divergent:
        a, b = (ext32(ctx, s, bits, signed) for s in srcs)
        scc = ctx.salu(salu, None, a, b)
        return scc_to_bool(ctx, scc)
    if bits == 16:
        return ctx.new_lane_mask(ctx.valu(f"v_cmp_{rel}_{kind}16", ctx.lm, *srcs))
    a, b = (ext32(ctx, s, bits, signed) for s in srcs)
    return ctx.new_lane_mask(ctx.valu(f"v_cmp_{rel}_{kind}32", ctx.lm, a, b))


# -- f16 ---------------------------------------------------------------------------------
def _f16_op(ctx: IselContext, ins: Instr, d: Value, srcs: list[Comp]) -> Comp:
    op = ins.op
    uniform = not d.divergent
    x = srcs[0]
    if op in ("fneg", "fabs"):
        opc, k = ("xor_b32", 0x8000) if op == "fneg" else ("and_b32", 0x7FFF)
        if uniform:
            return ctx.salu(f"s_{opc}", s1, x, Const(32, k))
        return ctx.valu(f"v_{opc}", v1, Const(32, k), x)
    t: Temp
    if op in VALU16_FLOAT:
        opc, rev = VALU16_FLOAT[op]
        t = ctx.valu(opc, v1, srcs[0], srcs[1], commutative=rev is None, rev=rev)
    elif op in VALU16_UNARY:
        t = ctx.valu(VALU16_UNARY[op], v1, x)
    elif op == "ffma":
        t = ctx.valu("v_fma_f16", v1, *srcs)
    elif op == "fsat":
        t = ctx.valu("v_med3_f16", v1, x, Const(32, 0), Const(32, F16_ONE))
    elif op == "fdiv":
        a = ctx.valu("v_cvt_f32_f16", v1, srcs[0])
        b = ctx.valu("v_cvt_f32_f16", v1, srcs[1])
        t = ctx.valu("v_cvt_f16_f32", v1, fdiv32(ctx, a, b))
    elif op == "fldexp":
        e = srcs[1]
        e = Const(32, max(-32768, min(32767, _signed32(e.value)))) \
            if isinstance(e, Const) else \
            ctx.valu("v_med3_i32", v1, e, Const(32, 0xFFFF8000), Const(32, 0x7FFF))
        t = ctx.valu("v_ldexp_f16", v1, x, e)
    elif op == "ffrexp_exp":
        e = ctx.valu("v_frexp_exp_i16_f16", v1, x)
        t = ctx.valu("v_bfe_i32", v1, e, Const(32, 0), Const(32, 16))
    else:
        raise unsupported(ins)
    return ctx.uniform_result(t, uniform)


# -- packed f16 (VOP3P) ----------------------------------------------------------------
def _packed(ctx: IselContext, ins: Instr, d: Value) -> None:
    """A 16x2 operation (``vectorize_alu16``) as one VOP3P instruction; each
    source is a ``vec2`` of the two halves' scalars. The result's components are the
    dword (the low half) and the dword shifted down (dead unless a scalar use needs
    it), so `d` is a packed vector for later packed operations and stores."""
    opc, neg_second = PACKED_VOP3P[ins.op]
    integer = ins.op in PACKED_INT
    ops: list[PackedOperand] = []
    for s in ins.srcs:
        p = s.parent
        if p is not None and p.op == "vec2":
            ops.append(packed_operand(ctx, p.srcs[0], p.srcs[1], integer))
        else:
            ops.append(PackedOperand(pack_halves(ctx, ctx.comp(s, 0), ctx.comp(s, 1)),
                                     (0, 1), (False, False)))
    if neg_second:
        o = ops[1]
        ops[1] = PackedOperand(o.value, o.sel, (not o.neg[0], not o.neg[1]))
    for k, o in enumerate(ops):  # a negated constant is the constant negated
        if isinstance(o.value, Const) and any(o.neg):
            lo, hi = (o.value.value & 0xFFFF ^ (0x8000 if n else 0) for n in o.neg)
            ops[k] = PackedOperand(Const(32, lo), (0, 0), (False, False)) if lo == hi else \
                PackedOperand(ctx.sgpr(Const(32, lo | hi << 16)), (0, 1), (False, False))
    fields: dict[str, Any] = {
        "op_sel": [o.sel[0] for o in ops], "op_sel_hi": [o.sel[1] for o in ops]}
    if any(o.neg[0] for o in ops):
        fields["neg_lo"] = [int(o.neg[0]) for o in ops]
    if any(o.neg[1] for o in ops):
        fields["neg_hi"] = [int(o.neg[1]) for o in ops]
    t = ctx.valu(opc, v1, *(o.value for o in ops), **fields)
    if d.divergent:
        ctx.set(d, [t, ctx.valu("v_lshrrev_b32", v1, Const(32, 16), t)])
        return
    u = ctx.uniform_result(t, True)
    ctx.set(d, [u, ctx.salu("s_lshr_b32", s1, u, Const(32, 16))])


# -- conversions --------------------------------------------------------------------------
def _small_convert(ctx: IselContext, ins: Instr, d: Value, x: Comp) -> Comp:
    m = CONVERSION.match(ins.op)
    assert m is not None
    frm, to, dbits = m.group(1), m.group(2), int(m.group(3))
    sbits = ins.srcs[0].bit_size
    uniform = not d.divergent
    if frm == "b":
        return _from_bool(ctx, to, dbits, x, uniform)
    if frm in "iu" and to in "iu":
        return _int_to_int(ctx, frm == "i", sbits, dbits, x, uniform)
    if frm == "f" and to == "f":
        return _float_to_float(ctx, sbits, dbits, x, uniform)
    if frm in "iu" and to == "f":
        return _int_to_float(ctx, frm == "i", sbits, dbits, x, uniform, ins)
    if frm == "f" and to in "iu":
        return _float_to_int(ctx, to == "i", sbits, dbits, x, uniform, ins)
    raise unsupported(ins)


def _from_bool(ctx: IselContext, to: str, dbits: int, x: Comp, uniform: bool) -> Comp:
    one = (F16_ONE if dbits == 16 else F32_ONE if dbits == 32 else F64_ONE) \
        if to == "f" else 1
    if isinstance(x, Const):
        return Const(dbits, one if x.value else 0)
    if uniform:
        scc = ctx.to_scc(ctx.ubool(x))
        return ctx.b.sop2("s_cselect_b32", s1, Operand.c32(one), Operand.c32(0),
                          ctx.scc_op(scc), scc=False).temp
    return ctx.valu("v_cndmask_b32", v1, Const(32, 0), Const(32, one), ctx.lanemask(x))


def _int_to_int(ctx: IselContext, signed: bool, sbits: int, dbits: int, x: Comp,
                uniform: bool) -> Comp:
    if isinstance(x, Const):
        v = x.value & ((1 << sbits) - 1)
        if signed and v >> (sbits - 1):
            v -= 1 << sbits
        return Const(dbits, v & ((1 << dbits) - 1))
    if dbits <= sbits:  # truncation: the low bits, the rest undefined
        return _result(ctx, _lowbits(ctx, x), uniform)
    w = ext32(ctx, x, sbits, signed)
    if dbits <= 32:
        return _result(ctx, w, uniform)
    if uniform:
        hi = ctx.salu("s_ashr_i32", s1, w, Const(32, 31)) if signed else \
            ctx.sgpr(Const(32, 0))
        return ctx.b.create_vector(s2, ctx.sgpr(w), hi).temp
    hi = ctx.valu("v_ashrrev_i32", v1, Const(32, 31), w) if signed else \
        ctx.vgpr(Const(32, 0))
    return ctx.b.create_vector(v2, ctx.vgpr(w), hi).temp


def _float_to_float(ctx: IselContext, sbits: int, dbits: int, x: Comp, uniform: bool) -> Comp:
    if sbits == dbits:
        return x
    t: Temp
    if sbits == 16:
        t = ctx.valu("v_cvt_f32_f16", v1, x)
        if dbits == 64:
            t = ctx.valu("v_cvt_f64_f32", v2, t)
    elif sbits == 32:
        t = ctx.valu("v_cvt_f16_f32", v1, x)
    else:
        t = ctx.valu("v_cvt_f16_f32", v1, _f64_to_f32_odd(ctx, x))
    return ctx.uniform_result(t, uniform)


def _f64_to_f32_odd(ctx: IselContext, x: Comp) -> Temp:
    """f64 -> f32 rounded to odd (an inexact result gets an odd significand), so
    that rounding it to f16 again equals rounding the f64 once."""
    r = ctx.valu("v_cvt_f32_f64", v1, x, wide=(True,))
    back = ctx.valu("v_cvt_f64_f32", v2, r)
    inexact = ctx.valu("v_cmp_neq_f64", ctx.lm, back, x, wide=(True, True))
    bigger = ctx.valu("v_cmp_gt_f64", ctx.lm, x, back, wide=(True, True),
                      abs=[True, True])
    even = ctx.valu("v_cmp_eq_u32", ctx.lm, Const(32, 0),
                    ctx.valu("v_and_b32", v1, Const(32, 1), r))
    fix = ctx.b.sop2(ctx.lm_op("and"), ctx.lm, inexact, even).temp
    step = ctx.valu("v_cndmask_b32", v1, Const(32, 0xFFFFFFFF), Const(32, 1), bigger)
    adj = ctx.valu("v_add_nc_u32", v1, r, step, commutative=True)
    return ctx.valu("v_cndmask_b32", v1, r, adj, fix)


def _int_to_float(ctx: IselContext, signed: bool, sbits: int, dbits: int, x: Comp, uniform: bool,
                  ins: Instr) -> Comp:
    if sbits == 64:
        raise unsupported(ins, "64-bit integer to f16 (lower_int64 lowers it)")
    t: Temp
    if dbits == 16:
        if sbits == 16:
            t = ctx.valu("v_cvt_f16_i16" if signed else "v_cvt_f16_u16", v1, x)
        elif sbits == 8:
            w = ext32(ctx, x, 8, signed)
            t = ctx.valu("v_cvt_f16_i16" if signed else "v_cvt_f16_u16", v1, w)
        else:  # exact in f32 below 2^24; above, f16 overflows either way
            f = ctx.valu("v_cvt_f32_i32" if signed else "v_cvt_f32_u32", v1, x)
            t = ctx.valu("v_cvt_f16_f32", v1, f)
        return ctx.uniform_result(t, uniform)
    w = ext32(ctx, x, sbits, signed)
    opc = f"v_cvt_f{dbits}_{'i' if signed else 'u'}32"
    t = ctx.valu(opc, v2 if dbits == 64 else v1, w)
    return ctx.uniform_result(t, uniform)


def _float_to_int(ctx: IselContext, signed: bool, sbits: int, dbits: int, x: Comp, uniform: bool,
                  ins: Instr) -> Comp:
    if dbits == 64:
        raise unsupported(ins, "float to 64-bit integer from f16 (lowered)")
    src: Comp = x
    if sbits == 16 and dbits == 16:  # v_cvt_{i,u}16_f16 truncate and saturate (ISA)
        t = ctx.valu(f"v_cvt_{'i' if signed else 'u'}16_f16", v1, x)
        return ctx.uniform_result(t, uniform)
    if sbits == 16:
        src = ctx.valu("v_cvt_f32_f16", v1, x)
        sbits = 32
    opc = f"v_cvt_{'i' if signed else 'u'}32_f{sbits}"
    t = ctx.valu(opc, v1, src, wide=(sbits == 64,))
    if dbits < 32:  # saturate to the narrow range
        if signed:
            lo, hi = -(1 << (dbits - 1)), (1 << (dbits - 1)) - 1
            t = ctx.valu("v_med3_i32", v1, t, Const(32, lo & 0xFFFFFFFF), Const(32, hi))
        else:
            t = ctx.valu("v_min_u32", v1, t, Const(32, (1 << dbits) - 1),
                         commutative=True)
    return ctx.uniform_result(t, uniform)


def _signed32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v
