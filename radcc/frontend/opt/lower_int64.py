"""lower_int64: 64-bit integer operations GFX11 has no instruction for, in 32-bit pieces.

GFX11 has, for 64-bit integers: shifts (``v_lshlrev_b64``, ``v_lshrrev_b64``,
``v_ashrrev_i64``, ``s_lshl_b64`` ...), all compares on the VALU
(``v_cmp_{eq,ne,lt,le,gt,ge}_{i,u}64``; the SALU only ``s_cmp_eq/lg_u64``), bitwise
ops on the SALU (``s_and_b64`` ...), add/subtract as 32-bit carry pairs
(``v_add_co_u32`` + ``v_add_co_ci_u32``, ``s_add_u32`` + ``s_addc_u32``) and the
32x32->64 multiply-add ``v_mad_u64_u32``/``v_mad_i64_i32``, but no 64-bit multiply,
divide, min/max, bit count, find-msb or conversion to or from floats.

After this pass the only operations on 64-bit integers isel sees are ``iadd``,
``isub``, ``iand``, ``ior``, ``ixor``, ``inot``, ``ishl``, ``ishr``, ``ushr`` (32-bit
count), ``ieq``, ``ine``, ``ilt``, ``ige``, ``ult``, ``uge``, ``bcsel``,
``pack_64_2x32_split`` and ``unpack_64_2x32_split_x/y``, besides ``load_const``,
``undef``, phis, memory, atomics and subgroup intrinsics. 64-bit float
arithmetic (f64) is untouched. Lowered:

* ``imul`` (lo*lo full product plus the cross terms), ``umul_high``/``imul_high``
  (schoolbook 32x32 products, Hacker's Delight ``mulhu``/``mulhs``);
* ``imin/imax/umin/umax`` (compare + select), ``ineg`` (``0 - x``), ``iabs``,
  ``isign``; ``bit_count``, ``ufind_msb``, ``ifind_msb``, ``find_lsb``,
  ``bitfield_reverse`` on the halves; bitfield extract/insert with 64-bit shifts;
* conversions: ``i2i64``/``u2u64``/``b2i64`` build the high half, truncations take
  the low half; ``u2f64``/``i2f64`` = ``hi * 2^32 + lo`` (one rounding);
  ``u2f32``/``i2f32`` of 64 bits stay for isel (normalised to the top 32 bits with a
  sticky bit, correctly rounded: ``radcc.isel.alu._i64_to_f32``); to f16 through them
  (rounded twice); ``f2u64``/``f2i64`` through
  f64 (``t`` truncated): ``hi = floor(t * 2^-32)``, ``lo = t - hi * 2^32`` (one
  fma, exact), ``lo`` converted unsigned and ``hi`` signed for ``f2i64`` (ACO's
  sequence: exact two's complement for every t in range; NaN gives 0). ``f2u64``
  saturates like the interpreter (negative t -> 0); ``f2i64`` of a value out of
  range (undefined in SPIR-V) only saturates the high word.

Division and remainder are ``lower_idiv``'s (run it first).
"""

from __future__ import annotations

from ..mir import Instr, MirShader, Value
from ..mir_ops import ALU_OPS, CONVERSION
from .lower_util import Emit, rewrite_instrs

LOWERED = frozenset("imul umul_high imul_high imin imax umin umax ineg iabs isign bit_count "
                    "ufind_msb ifind_msb find_lsb bitfield_reverse ubitfield_extract "
                    "ibitfield_extract bitfield_insert".split())


def _is64(ins: Instr) -> bool:
    d = ins.dest
    if d is not None and d.bit_size == 64:
        return True
    return any(s.bit_size == 64 for s in ins.srcs[:1])


def _m32(e: Emit, x: Value, y: Value) -> Value:
    """The full 64-bit product of two 32-bit values (v_mad_u64_u32 with 0)."""
    return e.pack(e.alu("imul", 32, x, y), e.alu("umul_high", 32, x, y))


def _u64(e: Emit, x: Value) -> Value:
    return e.pack(x, e.const(32, 0))


def mulhu64(e: Emit, a: Value, b: Value) -> Value:
    al, ah, bl, bh = e.lo(a), e.hi(a), e.lo(b), e.hi(b)
    mask32 = e.const(64, 0xFFFFFFFF)
    t = e.alu("iadd", 64, _u64(e, e.alu("umul_high", 32, al, bl)), _m32(e, ah, bl))
    w1 = e.alu("iadd", 64, e.alu("iand", 64, t, mask32), _m32(e, al, bh))
    w2 = e.alu("ushr", 64, t, e.const(32, 32))
    hi = e.alu("iadd", 64, _m32(e, ah, bh), w2)
    return e.alu("iadd", 64, hi, e.alu("ushr", 64, w1, e.const(32, 32)))


def _lt0(e: Emit, a: Value) -> Value:
    return e.alu("ilt", 1, a, e.const(64, 0))


def _ufind_msb64(e: Emit, a: Value) -> Value:
    lo, hi = e.lo(a), e.hi(a)
    mh = e.alu("ufind_msb", 32, hi)
    ml = e.alu("ufind_msb", 32, lo)
    return e.bcsel(e.alu("ine", 1, hi, e.const(32, 0)),
                   e.alu("iadd", 32, mh, e.const(32, 32)), ml)


def _f2u64(e: Emit, x: Value) -> Value:
    """A float of f64 to u64, truncating and saturating."""
    t = e.alu("fmax", 64, e.alu("ftrunc", 64, x), e.fconst(64, 0.0))
    hf = e.alu("ffloor", 64, e.alu("fmul", 64, t, e.fconst(64, 2.0 ** -32)))
    lf = e.alu("ffma", 64, hf, e.fconst(64, -(2.0 ** 32)), t)
    return e.pack(e.alu("f2u32", 32, lf), e.alu("f2u32", 32, hf))


def _convert(ins: Instr, e: Emit, frm: str, to: str, db: int) -> Value | None:
    s = ins.srcs[0]
    sb = s.bit_size
    if frm in "iu" and to in "iu":
        if sb == 64 and db < 64:
            lo = e.lo(s)
            return lo if db == 32 else e.alu(f"u2u{db}", db, lo)
        if db == 64 and sb < 64:
            x = s if sb == 32 else e.alu(f"{frm}2{frm}32", 32, s)
            hi = e.alu("ishr", 32, x, e.const(32, 31)) if frm == "i" else e.const(32, 0)
            return e.pack(x, hi)
        return None
    if frm == "b" and db == 64 and to in "iu":
        return e.pack(e.alu("b2i32", 32, s), e.const(32, 0))
    if frm in "iu" and to == "f" and sb == 64:
        if db == 64:
            hi = e.alu("i2f64" if frm == "i" else "u2f64", 64, e.hi(s))
            return e.alu("fadd", 64, e.alu("fmul", 64, hi, e.fconst(64, 2.0 ** 32)),
                         e.alu("u2f64", 64, e.lo(s)))
        if db == 32:
            return None  # isel: normalised word + sticky bit, v_cvt_f32, v_ldexp_f32
        return e.alu(f"f2f{db}", db, e.alu(f"{frm}2f32", 32, s))
    if frm == "f" and to in "iu" and db == 64:
        x = s if sb == 64 else e.alu("f2f64", 64, s)
        if to == "u":
            return _f2u64(e, x)
        # ACO's sequence: hi = floor(t * 2^-32) as a signed word, lo = t - hi * 2^32 in
        # [0, 2^32) as an unsigned one (two's complement for negative t too)
        t = e.alu("ftrunc", 64, x)
        hf = e.alu("ffloor", 64, e.alu("fmul", 64, t, e.fconst(64, 2.0 ** -32)))
        lf = e.alu("ffma", 64, hf, e.fconst(64, -(2.0 ** 32)), t)
        return e.pack(e.alu("f2u32", 32, lf), e.alu("f2i32", 32, hf))
    return None


# the shifts whose 64-bit shift amount `_lower` narrows (whatever the shifted width)
_SHIFTS = frozenset({"ishl", "ishr", "ushr"})


def _lower(ins: Instr, e: Emit) -> Value | None:
    op = ins.op
    d = ins.dest
    if d is None:
        return None
    m = CONVERSION.match(op)
    if m:
        if d.bit_size == 64 or ins.srcs[0].bit_size == 64:
            return _convert(ins, e, m.group(1), m.group(2), d.bit_size)
        return None
    if op in _SHIFTS and ins.srcs[1].bit_size == 64:
        return e.alu(op, d.bit_size, ins.srcs[0], e.lo(ins.srcs[1]))
    if op not in LOWERED or not _is64(ins):
        return None
    s = ins.srcs
    if op == "imul":
        a, b = s
        al, bl = e.lo(a), e.lo(b)
        lo = e.alu("imul", 32, al, bl)
        hi = e.alu("umul_high", 32, al, bl)
        hi = e.alu("iadd", 32, hi, e.alu("imul", 32, al, e.hi(b)))
        hi = e.alu("iadd", 32, hi, e.alu("imul", 32, e.hi(a), bl))
        return e.pack(lo, hi)
    if op == "umul_high":
        return mulhu64(e, s[0], s[1])
    if op == "imul_high":
        a, b = s
        h = mulhu64(e, a, b)
        zero = e.const(64, 0)
        h = e.alu("isub", 64, h, e.bcsel(_lt0(e, a), b, zero))
        return e.alu("isub", 64, h, e.bcsel(_lt0(e, b), a, zero))
    if op in ("imin", "imax", "umin", "umax"):
        lt = e.alu("ilt" if op[0] == "i" else "ult", 1, s[0], s[1])
        return e.bcsel(lt, s[0], s[1]) if op.endswith("min") else e.bcsel(lt, s[1], s[0])
    if op == "ineg":
        return e.alu("isub", 64, e.const(64, 0), s[0])
    if op == "iabs":
        return e.bcsel(_lt0(e, s[0]), e.alu("isub", 64, e.const(64, 0), s[0]), s[0])
    if op == "isign":
        nz = e.pack(e.alu("b2i32", 32, e.alu("ine", 1, s[0], e.const(64, 0))), e.const(32, 0))
        return e.alu("ior", 64, e.alu("ishr", 64, s[0], e.const(32, 63)), nz)
    return _bits(ins, e, d.bit_size)


def _resize(e: Emit, v: Value, bits: int) -> Value:
    if bits == 32:
        return v
    if bits == 64:
        return e.pack(v, e.alu("ishr", 32, v, e.const(32, 31)))
    return e.alu(f"u2u{bits}", bits, v)


def _bits(ins: Instr, e: Emit, db: int) -> Value | None:
    op = ins.op
    s = ins.srcs
    if op == "bit_count":
        c = e.alu("iadd", 32, e.alu("bit_count", 32, e.lo(s[0])),
                  e.alu("bit_count", 32, e.hi(s[0])))
        return _resize(e, c, db)
    if op == "ufind_msb":
        return _resize(e, _ufind_msb64(e, s[0]), db)
    if op == "ifind_msb":
        x = e.bcsel(_lt0(e, s[0]), e.alu("inot", 64, s[0]), s[0])
        return _resize(e, _ufind_msb64(e, x), db)
    if op == "find_lsb":
        lo, hi = e.lo(s[0]), e.hi(s[0])
        fl = e.alu("find_lsb", 32, lo)
        fh = e.alu("find_lsb", 32, hi)
        zero = e.const(32, 0)
        r = e.bcsel(e.alu("ine", 1, hi, zero), e.alu("iadd", 32, fh, e.const(32, 32)),
                    e.const(32, 0xFFFFFFFF))
        return _resize(e, e.bcsel(e.alu("ine", 1, lo, zero), fl, r), db)
    if op == "bitfield_reverse":
        return e.pack(e.alu("bitfield_reverse", 32, e.hi(s[0])),
                      e.alu("bitfield_reverse", 32, e.lo(s[0])))
    if op in ("ubitfield_extract", "ibitfield_extract"):
        x, off, cnt = s
        off, cnt = _count(e, off), _count(e, cnt)
        c64 = e.const(32, 64)
        left = e.alu("isub", 32, e.alu("isub", 32, c64, off), cnt)
        y = e.alu("ishl", 64, x, left)
        y = e.alu("ushr" if op[0] == "u" else "ishr", 64, y, e.alu("isub", 32, c64, cnt))
        return e.bcsel(e.alu("ieq", 1, cnt, e.const(32, 0)), e.const(64, 0), y)
    if op == "bitfield_insert":
        base, ins_v, off, cnt = s
        off, cnt = _count(e, off), _count(e, cnt)
        ones = e.const(64, (1 << 64) - 1)
        m = e.alu("isub", 64, e.alu("ishl", 64, e.const(64, 1), cnt), e.const(64, 1))
        m = e.bcsel(e.alu("uge", 1, cnt, e.const(32, 64)), ones, m)
        m = e.alu("ishl", 64, m, off)
        keep = e.alu("iand", 64, base, e.alu("inot", 64, m))
        return e.alu("ior", 64, keep, e.alu("iand", 64, e.alu("ishl", 64, ins_v, off), m))
    raise NotImplementedError(f"lower_int64: {op} on 64-bit integers")


def _count(e: Emit, v: Value) -> Value:
    if v.bit_size == 64:
        return e.lo(v)
    if v.bit_size < 32:
        return e.alu("u2u32", 32, v)
    return v


# the opcodes `_lower` may replace: the conversions, the shifts and LOWERED
_OPS = LOWERED | _SHIFTS | {op for op in ALU_OPS if CONVERSION.match(op)}


def lower_int64(shader: MirShader) -> bool:
    return rewrite_instrs(shader, _lower, ops=_OPS)
