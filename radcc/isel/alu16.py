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
"""

from __future__ import annotations

from radcc.frontend.mir import Instr, Value
from radcc.frontend.mir_ops import CONVERSION
from radcc.ir.program import Operand
from radcc.ir.regclass import RegClass, Temp, s1, s2, v1, v2

from .alu import F32_ONE, F64_ONE, AluMixin
from .context import Comp, Const, unsupported

SMALL = (8, 16)
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
F16_CMP = {"feq": "eq", "fneu": "neq", "flt": "lt", "fge": "ge", "fequ": "nlg", "fneo": "lg",
           "fltu": "nge", "fgeu": "nlt"}


def is_small(v: Value) -> bool:
    return v.bit_size in SMALL


def small_const(bits: int, value: int) -> Const:
    """An 8/16-bit constant (the value's low bits, zero-extended)."""
    return Const(bits, value & ((1 << bits) - 1))


class Alu16Mixin(AluMixin):
    """Selection of ALU instructions with 8/16-bit sources or results."""

    def rc(self, v: Value) -> RegClass:
        if v.bit_size in SMALL:
            return v1 if v.divergent else s1
        return super().rc(v)

    def select_alu(self, ins: Instr) -> None:
        d = ins.dest
        assert d is not None
        if not (is_small(d) or any(is_small(s) for s in ins.srcs)):
            super().select_alu(ins)
            return
        op = ins.op
        if op in ("mov", "bitcast") or op.startswith("vec"):
            if op == "bitcast" and d.bit_size != ins.srcs[0].bit_size:
                raise unsupported(ins, "bitcast between different sizes")
            if op == "bitcast":
                self.set(d, list(self.get(ins.srcs[0])))
            else:
                super().select_alu(ins)
            return
        out: list[Comp] = []
        for i in range(d.num_components):
            srcs = [self.comp(s, i) for s in ins.srcs]
            out.append(self._small_comp(ins, d, srcs))
        self.set(d, out)

    # -- helpers -----------------------------------------------------------------------
    def ext32(self, x: Comp, bits: int, signed: bool) -> Comp:
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
                return self.salu(f"s_sext_i32_i{bits}", s1, x)
            return self.salu("s_and_b32", s1, x, Const(32, (1 << bits) - 1))
        if signed:
            return self.valu("v_bfe_i32", v1, x, Const(32, 0), Const(32, bits))
        return self.valu("v_and_b32", v1, Const(32, (1 << bits) - 1), x)

    def _lowbits(self, x: Comp) -> Comp:
        """A 32/64-bit source's low dword (the bits an 8/16-bit truncation keeps)."""
        if isinstance(x, Const):
            return Const(32, x.value & 0xFFFFFFFF)
        if x.rc.size == 2:
            lo, _ = self.halves(x)
            return lo
        return x

    def _result(self, t: Comp, uniform: bool) -> Comp:
        return self.uniform_result(t, uniform) if isinstance(t, Temp) else t

    # -- one component --------------------------------------------------------------------
    def _small_comp(self, ins: Instr, d: Value, srcs: list[Comp]) -> Comp:
        op = ins.op
        if CONVERSION.match(op):
            return self._small_convert(ins, d, srcs[0])
        if op == "bcsel":
            return self._bcsel(ins, d, srcs)
        sbits = ins.srcs[0].bit_size
        if d.bit_size == 1:
            return self._small_compare(ins, d, srcs, sbits)
        if op[0] == "f" or op in ("fsin_amd", "fcos_amd"):
            if d.bit_size != 16 and op != "ffrexp_exp":
                raise unsupported(ins)
            return self._f16_op(ins, d, srcs)
        return self._small_int(ins, d, srcs)

    def _small_int(self, ins: Instr, d: Value, srcs: list[Comp]) -> Comp:
        op = ins.op
        bits = d.bit_size
        uniform = not d.divergent
        if op in LOW_BITS_OPS:
            sop, vop = LOW_BITS_OPS[op]
            if uniform:
                return self.salu(sop, s1, *srcs)
            return self.valu(vop, v1, srcs[0], srcs[1], commutative=op != "isub",
                             rev="v_subrev_nc_u32" if op == "isub" else None)
        if op == "inot":
            return self.salu("s_not_b32", s1, srcs[0]) if uniform else \
                self.valu("v_not_b32", v1, srcs[0])
        if op == "ineg":
            return self.salu("s_sub_i32", s1, Const(32, 0), srcs[0]) if uniform else \
                self.valu("v_sub_nc_u32", v1, Const(32, 0), srcs[0])
        if op in ("ishl", "ishr", "ushr"):
            return self._small_shift(op, bits, uniform, srcs[0], srcs[1], ins.srcs[1].bit_size)
        if op in EXTENDED_OPS:
            signed, sop, vop = EXTENDED_OPS[op]
            if not uniform and bits == 16:  # v_min_i16 ...: read the low halves only
                return self.valu(vop.replace("32", "16"), v1, srcs[0], srcs[1],
                                 commutative=True)
            a, b = (self.ext32(s, bits, signed) for s in srcs)
            if uniform:
                return self.salu(sop, s1, a, b)
            return self.valu(vop, v1, a, b, commutative=True)
        if op == "iabs":
            if not uniform and bits == 16:
                n = self.valu("v_sub_nc_u16", v1, Const(32, 0), srcs[0])
                return self.valu("v_max_i16", v1, srcs[0], n, commutative=True)
            x = self.ext32(srcs[0], bits, True)
            if uniform:
                return self.salu("s_abs_i32", s1, x)
            n = self.valu("v_sub_nc_u32", v1, Const(32, 0), x)
            return self.valu("v_max_i32", v1, x, n, commutative=True)
        if op in ("imul_high", "umul_high"):
            signed = op == "imul_high"
            a, b = (self.ext32(s, bits, signed) for s in srcs)
            if uniform:
                p = self.salu("s_mul_i32", s1, a, b)
                return self.salu("s_ashr_i32" if signed else "s_lshr_b32", s1, p, Const(32, bits))
            p = self.valu("v_mul_lo_u32", v1, a, b)
            return self.valu("v_ashrrev_i32" if signed else "v_lshrrev_b32", v1,
                             Const(32, bits), p)
        raise unsupported(ins)

    def _small_shift(self, op: str, bits: int, uniform: bool, x: Comp, n: Comp,
                     nbits: int) -> Comp:
        """NIR shifts: the count modulo the bit size. Divergent 16-bit shifts are
        ``v_lshlrev_b16``/``v_lshrrev_b16``/``v_ashrrev_i16``: they read the low half
        of the value and the count's bits [3:0] (ISA guide V_LSHRREV_B16), which is
        the count modulo 16 already."""
        if bits == 16 and not uniform:
            cnt16 = Const(32, n.value & 15) if isinstance(n, Const) else self._lowbits(n)
            opc = {"ishl": "v_lshlrev_b16", "ishr": "v_ashrrev_i16",
                   "ushr": "v_lshrrev_b16"}[op]
            return self.valu(opc, v1, cnt16, x)
        if isinstance(n, Const):
            cnt: Comp = Const(32, n.value & (bits - 1))
        elif uniform:
            cnt = self.salu("s_and_b32", s1, self._lowbits(n), Const(32, bits - 1))
        else:
            cnt = self.valu("v_and_b32", v1, Const(32, bits - 1), self._lowbits(n))
        if op != "ishl":
            x = self.ext32(x, bits, op == "ishr")
        if uniform:
            opc = {"ishl": "s_lshl_b32", "ishr": "s_ashr_i32", "ushr": "s_lshr_b32"}[op]
            return self.salu(opc, s1, x, cnt)
        opc = {"ishl": "v_lshlrev_b32", "ishr": "v_ashrrev_i32", "ushr": "v_lshrrev_b32"}[op]
        return self.valu(opc, v1, cnt, x)

    def _small_compare(self, ins: Instr, d: Value, srcs: list[Comp], bits: int) -> Comp:
        op = ins.op
        if op in F16_CMP:
            t = self.new_lane_mask(self.valu(f"v_cmp_{F16_CMP[op]}_f16", self.lm, *srcs))
            return t if d.divergent else self.ubool(t)
        if op == "fisinf":
            t = self.new_lane_mask(self.valu("v_cmp_class_f16", self.lm, srcs[0],
                                             Const(32, 0x204)))
            return t if d.divergent else self.ubool(t)
        if op not in INT_CMP:
            raise unsupported(ins)
        signed, rel, salu, kind = INT_CMP[op]
        if not d.divergent:
            a, b = (self.ext32(s, bits, signed) for s in srcs)
            scc = self.salu(salu, None, a, b)
            return self._scc_to_bool(scc)
        if bits == 16:
            return self.new_lane_mask(self.valu(f"v_cmp_{rel}_{kind}16", self.lm, *srcs))
        a, b = (self.ext32(s, bits, signed) for s in srcs)
        return self.new_lane_mask(self.valu(f"v_cmp_{rel}_{kind}32", self.lm, a, b))

    # -- f16 ---------------------------------------------------------------------------------
    def _f16_op(self, ins: Instr, d: Value, srcs: list[Comp]) -> Comp:
        op = ins.op
        uniform = not d.divergent
        x = srcs[0]
        if op in ("fneg", "fabs"):
            opc, k = ("xor_b32", 0x8000) if op == "fneg" else ("and_b32", 0x7FFF)
            if uniform:
                return self.salu(f"s_{opc}", s1, x, Const(32, k))
            return self.valu(f"v_{opc}", v1, Const(32, k), x)
        t: Temp
        if op in VALU16_FLOAT:
            opc, rev = VALU16_FLOAT[op]
            t = self.valu(opc, v1, srcs[0], srcs[1], commutative=rev is None, rev=rev)
        elif op in VALU16_UNARY:
            t = self.valu(VALU16_UNARY[op], v1, x)
        elif op == "ffma":
            t = self.valu("v_fma_f16", v1, *srcs)
        elif op == "fsat":
            t = self.valu("v_med3_f16", v1, x, Const(32, 0), Const(32, F16_ONE))
        elif op == "fdiv":
            a = self.valu("v_cvt_f32_f16", v1, srcs[0])
            b = self.valu("v_cvt_f32_f16", v1, srcs[1])
            t = self.valu("v_cvt_f16_f32", v1, self._fdiv32(a, b))
        elif op == "fldexp":
            e = srcs[1]
            e = Const(32, max(-32768, min(32767, _signed32(e.value)))) \
                if isinstance(e, Const) else \
                self.valu("v_med3_i32", v1, e, Const(32, 0xFFFF8000), Const(32, 0x7FFF))
            t = self.valu("v_ldexp_f16", v1, x, e)
        elif op == "ffrexp_exp":
            e = self.valu("v_frexp_exp_i16_f16", v1, x)
            t = self.valu("v_bfe_i32", v1, e, Const(32, 0), Const(32, 16))
        else:
            raise unsupported(ins)
        return self.uniform_result(t, uniform)

    # -- conversions --------------------------------------------------------------------------
    def _small_convert(self, ins: Instr, d: Value, x: Comp) -> Comp:
        m = CONVERSION.match(ins.op)
        assert m is not None
        frm, to, dbits = m.group(1), m.group(2), int(m.group(3))
        sbits = ins.srcs[0].bit_size
        uniform = not d.divergent
        if frm == "b":
            return self._from_bool(to, dbits, x, uniform)
        if frm in "iu" and to in "iu":
            return self._int_to_int(frm == "i", sbits, dbits, x, uniform)
        if frm == "f" and to == "f":
            return self._float_to_float(sbits, dbits, x, uniform)
        if frm in "iu" and to == "f":
            return self._int_to_float(frm == "i", sbits, dbits, x, uniform, ins)
        if frm == "f" and to in "iu":
            return self._float_to_int(to == "i", sbits, dbits, x, uniform, ins)
        raise unsupported(ins)

    def _from_bool(self, to: str, dbits: int, x: Comp, uniform: bool) -> Comp:
        one = (F16_ONE if dbits == 16 else F32_ONE if dbits == 32 else F64_ONE) \
            if to == "f" else 1
        if isinstance(x, Const):
            return Const(dbits, one if x.value else 0)
        if uniform:
            scc = self.to_scc(self.ubool(x))
            return self.b.sop2("s_cselect_b32", s1, Operand.c32(one), Operand.c32(0),
                               self.scc_op(scc), scc=False).temp
        return self.valu("v_cndmask_b32", v1, Const(32, 0), Const(32, one), self.lanemask(x))

    def _int_to_int(self, signed: bool, sbits: int, dbits: int, x: Comp,
                    uniform: bool) -> Comp:
        if isinstance(x, Const):
            v = x.value & ((1 << sbits) - 1)
            if signed and v >> (sbits - 1):
                v -= 1 << sbits
            return Const(dbits, v & ((1 << dbits) - 1))
        if dbits <= sbits:  # truncation: the low bits, the rest undefined
            return self._result(self._lowbits(x), uniform)
        w = self.ext32(x, sbits, signed)
        if dbits <= 32:
            return self._result(w, uniform)
        if uniform:
            hi = self.salu("s_ashr_i32", s1, w, Const(32, 31)) if signed else \
                self.sgpr(Const(32, 0))
            return self.b.create_vector(s2, self.sgpr(w), hi).temp
        hi = self.valu("v_ashrrev_i32", v1, Const(32, 31), w) if signed else \
            self.vgpr(Const(32, 0))
        return self.b.create_vector(v2, self.vgpr(w), hi).temp

    def _float_to_float(self, sbits: int, dbits: int, x: Comp, uniform: bool) -> Comp:
        if sbits == dbits:
            return x
        t: Temp
        if sbits == 16:
            t = self.valu("v_cvt_f32_f16", v1, x)
            if dbits == 64:
                t = self.valu("v_cvt_f64_f32", v2, t)
        elif sbits == 32:
            t = self.valu("v_cvt_f16_f32", v1, x)
        else:
            t = self.valu("v_cvt_f16_f32", v1, self._f64_to_f32_odd(x))
        return self.uniform_result(t, uniform)

    def _f64_to_f32_odd(self, x: Comp) -> Temp:
        """f64 -> f32 rounded to odd (an inexact result gets an odd significand), so
        that rounding it to f16 again equals rounding the f64 once."""
        r = self.valu("v_cvt_f32_f64", v1, x, wide=(True,))
        back = self.valu("v_cvt_f64_f32", v2, r)
        inexact = self.valu("v_cmp_neq_f64", self.lm, back, x, wide=(True, True))
        bigger = self.valu("v_cmp_gt_f64", self.lm, x, back, wide=(True, True),
                           abs=[True, True])
        even = self.valu("v_cmp_eq_u32", self.lm, Const(32, 0),
                         self.valu("v_and_b32", v1, Const(32, 1), r))
        fix = self.b.sop2(self.lm_op("and"), self.lm, inexact, even).temp
        step = self.valu("v_cndmask_b32", v1, Const(32, 0xFFFFFFFF), Const(32, 1), bigger)
        adj = self.valu("v_add_nc_u32", v1, r, step, commutative=True)
        return self.valu("v_cndmask_b32", v1, r, adj, fix)

    def _int_to_float(self, signed: bool, sbits: int, dbits: int, x: Comp, uniform: bool,
                      ins: Instr) -> Comp:
        if sbits == 64:
            raise unsupported(ins, "64-bit integer to f16 (lower_int64 lowers it)")
        t: Temp
        if dbits == 16:
            if sbits == 16:
                t = self.valu("v_cvt_f16_i16" if signed else "v_cvt_f16_u16", v1, x)
            elif sbits == 8:
                w = self.ext32(x, 8, signed)
                t = self.valu("v_cvt_f16_i16" if signed else "v_cvt_f16_u16", v1, w)
            else:  # exact in f32 below 2^24; above, f16 overflows either way
                f = self.valu("v_cvt_f32_i32" if signed else "v_cvt_f32_u32", v1, x)
                t = self.valu("v_cvt_f16_f32", v1, f)
            return self.uniform_result(t, uniform)
        w = self.ext32(x, sbits, signed)
        opc = f"v_cvt_f{dbits}_{'i' if signed else 'u'}32"
        t = self.valu(opc, v2 if dbits == 64 else v1, w)
        return self.uniform_result(t, uniform)

    def _float_to_int(self, signed: bool, sbits: int, dbits: int, x: Comp, uniform: bool,
                      ins: Instr) -> Comp:
        if dbits == 64:
            raise unsupported(ins, "float to 64-bit integer from f16 (lowered)")
        src: Comp = x
        if sbits == 16 and dbits == 16:  # v_cvt_{i,u}16_f16 truncate and saturate (ISA)
            t = self.valu(f"v_cvt_{'i' if signed else 'u'}16_f16", v1, x)
            return self.uniform_result(t, uniform)
        if sbits == 16:
            src = self.valu("v_cvt_f32_f16", v1, x)
            sbits = 32
        opc = f"v_cvt_{'i' if signed else 'u'}32_f{sbits}"
        t = self.valu(opc, v1, src, wide=(sbits == 64,))
        if dbits < 32:  # saturate to the narrow range
            if signed:
                lo, hi = -(1 << (dbits - 1)), (1 << (dbits - 1)) - 1
                t = self.valu("v_med3_i32", v1, t, Const(32, lo & 0xFFFFFFFF), Const(32, hi))
            else:
                t = self.valu("v_min_u32", v1, t, Const(32, (1 << dbits) - 1),
                              commutative=True)
        return self.uniform_result(t, uniform)


def _signed32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v
