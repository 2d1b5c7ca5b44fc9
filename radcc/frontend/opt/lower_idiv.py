"""lower_idiv: integer division and remainder without a division instruction.

GFX11 has no integer divide. After this pass isel never sees ``udiv``,
``idiv``, ``umod``, ``irem`` or ``imod``:

* **by a constant** (any bit size; 8/16-bit operands widen to 32 with the constant
  extended as the operation reads it, so the 32-bit constant rules apply): a multiply by a
  magic number (Granlund & Montgomery, "Division by invariant integers using
  multiplication", 1994): ``q = umul_high(n, m) >> s`` when a magic number of N bits
  exists, else the N+1-bit form ``t = umul_high(n, m'); q = (t + ((n - t) >> 1)) >>
  (l - 1)``; signed: ``q = (n + imul_high(n, m)) >> (l - 1)`` minus the sign of
  ``n``, negated for a negative divisor; powers of two become shifts (signed: with
  the rounding bias ``(n >> (N-1)) >>> (N-k)``). Remainders are ``n - q * d``;
  ``imod`` (GLSL's sign-of-divisor modulo) adds ``d`` to a non-zero remainder whose
  sign differs from ``d``'s. ``imod`` by a positive power of two is an ``iand`` with
  ``d - 1`` (NIR's opt_algebraic rule: the floor modulo of a two's-complement value
  is its low bits), and so is ``irem`` of a value whose sign bit cannot matter
  (``iabs(y)``, a non-negative ``iand``/``ushr``).
* **32-bit by a variable** (as NIR's ``nir_lower_idiv`` and LLVM's AMDGPU
  backend): an estimate of ``2^32 / d`` from the float reciprocal
  (``frcp(u2f32(d)) * 0x4f7ffffe``), one Newton step in integers
  (``rcp += umul_high(rcp, -d * rcp)``), ``q = umul_high(n, rcp)`` and two
  correction steps (``r >= d``: ``q += 1, r -= d``, both computed before the compare
  so one uniform compare feeds both selects). Signed: on absolute values, then the
  signs (32-bit absolute values as ``iabs``; the quotient negated when ``n ^ d < 0``,
  the remainder when ``n < 0``, each tested right before its select).
* **8/16-bit by a variable** (NIR's ``nir_lower_idiv`` small-size path, which ACO
  receives): in f32, ``q = f2i32(i2f32(n) * (frcp(i2f32(d)) + 1 ulp))`` (``+ 1 ulp`` is
  an integer add on the float's bits), truncated to the size; remainders ``n - d*q``;
  ``imod`` adds ``d`` to a non-zero remainder when ``n`` and ``d`` differ in sign.
  Exact for |n|, |d| < 2^16 whenever the reciprocal is within 1 ulp below 1/d: the
  adjusted reciprocal is then in [1/d, 1/d + 2 ulp], so n*rcp >= n/d before rounding
  (a representable integer quotient is never rounded below) and exceeds it by at
  most 2^16/d * 2^-22 < 1/d, less than the distance to the next integer.
* **64-bit by a variable**: restoring binary long division, 64 unrolled steps of
  64-bit shifts, compares and selects (later split into 32-bit halves by
  ``lower_int64``).

Division by zero (undefined in GLSL/SPIR-V) gives whatever these sequences give
(not the interpreter's 0).
"""

from __future__ import annotations

from ..mir import Instr, MirShader, Value, mask
from .lower_util import Emit, const_int, rewrite_instrs, signed

DIV_OPS = ("udiv", "idiv", "umod", "irem", "imod")
_OPS = frozenset(DIV_OPS)  # (what `_lower` replaces)


def unsigned_magic(d: int, bits: int) -> tuple[int, int, bool]:
    """(m, s, add): q = umul_high(n, m) >> s when not add; else the N+1-bit form with
    m' = m and l = s + 1 (q = (t + ((n - t) >> 1)) >> s, t = umul_high(n, m))."""
    assert 1 < d < (1 << bits) and d & (d - 1)
    ell = (d - 1).bit_length()  # ceil(log2 d)
    for s in range(ell + 1):
        m = -(-(1 << (bits + s)) // d)  # ceil(2^(N+s) / d)
        if m < (1 << bits) and m * d - (1 << (bits + s)) <= (1 << s):
            return m, s, False
    m = ((1 << bits) * ((1 << ell) - d)) // d + 1
    return m, ell - 1, True


def signed_magic(d: int, bits: int) -> tuple[int, int]:
    """(m, sh) for |d| not a power of two: q0 = (n + imul_high(n, m)) >> sh -
    (n >> (N-1)), q = q0 or -q0 (m as an N-bit signed value)."""
    ad = abs(d)
    ell = max((ad - 1).bit_length(), 1)
    m = 1 + ((1 << (bits + ell - 1)) // ad) - (1 << bits)
    return m, ell - 1


class _Div:
    def __init__(self, e: Emit, bits: int) -> None:
        self.e = e
        self.bits = bits

    def c(self, x: int) -> Value:
        return self.e.const(self.bits, x)

    def sh(self, x: int) -> Value:
        return self.e.const(32, x)

    def op(self, name: str, *s: Value) -> Value:
        return self.e.alu(name, self.bits, *s)

    # ----- by constants -----
    def udiv_const(self, n: Value, d: int) -> Value:
        if d == 1:
            return n
        if d & (d - 1) == 0:
            return self.op("ushr", n, self.sh(d.bit_length() - 1))
        if d > mask(self.bits) >> 1:
            # the quotient is 0 or 1
            return self.e.alu(f"b2i{self.bits}", self.bits, self.e.alu("uge", 1, n, self.c(d)))
        m, s, add = unsigned_magic(d, self.bits)
        t = self.op("umul_high", n, self.c(m))
        if not add:
            return self.op("ushr", t, self.sh(s)) if s else t
        q = self.op("iadd", t, self.op("ushr", self.op("isub", n, t), self.sh(1)))
        return self.op("ushr", q, self.sh(s)) if s else q

    def idiv_const(self, n: Value, d: int) -> Value:
        bits = self.bits
        if d == 1:
            return n
        if d == -1:
            return self.op("ineg", n)
        ad = abs(d)
        if ad & (ad - 1) == 0:
            k = ad.bit_length() - 1
            sign = self.op("ishr", n, self.sh(bits - 1))
            bias = self.op("ushr", sign, self.sh(bits - k))
            q = self.op("ishr", self.op("iadd", n, bias), self.sh(k))
        else:
            m, s = signed_magic(d, bits)
            t = self.op("iadd", self.op("imul_high", n, self.c(m)), n)
            q = self.op("ishr", t, self.sh(s)) if s else t
            q = self.op("isub", q, self.op("ishr", n, self.sh(bits - 1)))
        return self.op("ineg", q) if d < 0 else q

    # ----- by variables -----
    def udiv32(self, n: Value, d: Value) -> tuple[Value, Value]:
        e = self.e
        f = e.alu("frcp", 32, e.alu("u2f32", 32, d))
        f = e.alu("fmul", 32, f, e.const(32, 0x4F7FFFFE))
        rcp = e.alu("f2u32", 32, f)
        neg = e.alu("imul", 32, e.alu("ineg", 32, d), rcp)
        rcp = e.alu("iadd", 32, rcp, e.alu("umul_high", 32, rcp, neg))
        q = e.alu("umul_high", 32, n, rcp)
        r = e.alu("isub", 32, n, e.alu("imul", 32, q, d))
        one = e.const(32, 1)
        for _ in range(2):
            # both candidates before the compare, which both selects then read: in
            # SGPRs one s_cmp feeds two s_cselect (SCC is not clobbered in between);
            # an unread remainder (the last step of a division) is dead code
            q1 = e.alu("iadd", 32, q, one)
            r1 = e.alu("isub", 32, r, d)
            ge = e.alu("uge", 1, r, d)
            q = e.bcsel(ge, q1, q)
            r = e.bcsel(ge, r1, r)
        return q, r

    def udiv64(self, n: Value, d: Value) -> tuple[Value, Value]:
        """Restoring long division, one quotient bit per step (most significant first)."""
        e = self.e
        q = e.const(64, 0)
        r = e.const(64, 0)
        one = e.const(64, 1)
        for i in range(63, -1, -1):
            bit = e.alu("iand", 64, e.alu("ushr", 64, n, e.const(32, i)), one)
            r = e.alu("ior", 64, e.alu("ishl", 64, r, e.const(32, 1)), bit)
            ge = e.alu("uge", 1, r, d)
            r = e.bcsel(ge, e.alu("isub", 64, r, d), r)
            q = e.bcsel(ge, e.alu("ior", 64, q, e.const(64, 1 << i)), q)
        return q, r

    def udivmod(self, n: Value, d: Value) -> tuple[Value, Value]:
        return self.udiv64(n, d) if self.bits == 64 else self.udiv32(n, d)


def _lower(ins: Instr, e: Emit) -> Value | None:
    if ins.op not in DIV_OPS:
        return None
    dst = ins.dest
    assert dst is not None
    bits = dst.bit_size
    n, d = ins.srcs
    dc = const_int(d)
    if bits < 32:
        unsigned = ins.op in ("udiv", "umod")
        if dc is None or dc == 0:
            return _small_by_variable(e, ins.op, n, d, bits)
        n32 = e.alu("u2u32" if unsigned else "i2i32", 32, n)
        d32 = e.const(32, dc if unsigned else signed(dc, bits))
        r = e.alu(ins.op, 32, n32, d32)
        return e.alu(f"u2u{bits}", bits, r)
    k = _Div(e, bits)
    if dc is not None and dc != 0:
        sd = signed(dc, bits)
        if ins.op in ("irem", "imod") and sd > 0 and sd & (sd - 1) == 0 and \
                (ins.op == "imod" or _sign_clear_mod_pow2(n)):
            return k.op("iand", n, k.c(sd - 1))
        return _by_const(k, ins.op, n, d, dc, bits)
    unsigned = ins.op in ("udiv", "umod")
    if unsigned:
        q, r = k.udivmod(n, d)
        return q if ins.op == "udiv" else r
    zero = k.c(0)
    if bits == 32:  # as NIR: |x| is imax(x, -x) (v_sub + v_max_i32, s_abs_i32)
        an, ad = k.op("iabs", n), k.op("iabs", d)
    else:
        nneg = e.alu("ilt", 1, n, zero)
        dneg = e.alu("ilt", 1, d, zero)
        an = e.bcsel(nneg, k.op("ineg", n), n)
        ad = e.bcsel(dneg, k.op("ineg", d), d)
    q, r = k.udivmod(an, ad)
    # the signs are tested right before the select that reads them (the negation
    # first), so a uniform test stays in SCC instead of a 0/1 kept across the division
    if ins.op == "idiv":
        nq = k.op("ineg", q)
        if bits == 32:  # n and d differ in sign <=> the sign bit of n ^ d is set
            differ = e.alu("ilt", 1, k.op("ixor", n, d), zero)
        else:
            differ = e.alu("ine", 1, nneg, dneg)
        return e.bcsel(differ, nq, q)
    nr = k.op("ineg", r)
    r = e.bcsel(e.alu("ilt", 1, n, zero) if bits == 32 else nneg, nr, r)
    if ins.op == "irem":
        return r
    return _fix_mod(k, r, d)


def _sign_clear_mod_pow2(n: Value) -> bool:
    """Is n's remainder by any power of two the same as its low bits? True when n is
    non-negative (``iand`` with a constant whose top bit is clear, ``ushr`` by a
    non-zero constant) or ``iabs(y)``: non-negative except abs(INT_MIN) = INT_MIN,
    which every power of two divides (remainder 0 = its low bits)."""
    p = n.parent
    if p is None or not p.srcs:
        return False
    if p.op == "iabs":
        return True
    top = 1 << (n.bit_size - 1)
    if p.op == "iand":
        return any((c := const_int(x)) is not None and not c & top for x in p.srcs)
    if p.op == "ushr":
        c = const_int(p.srcs[1])
        return c is not None and c % n.bit_size != 0
    return False


def _small_by_variable(e: Emit, op: str, n: Value, d: Value, bits: int) -> Value:
    """8/16-bit division by a variable through the f32 reciprocal (module docstring)."""
    unsigned = op in ("udiv", "umod")
    to_f, to_i = ("u2f32", "f2u32") if unsigned else ("i2f32", "f2i32")
    rcp = e.alu("iadd", 32, e.alu("frcp", 32, e.alu(to_f, 32, d)), e.const(32, 1))
    q = e.alu(to_i, 32, e.alu("fmul", 32, e.alu(to_f, 32, n), rcp))
    q = e.alu(f"u2u{bits}", bits, q)
    if op in ("udiv", "idiv"):
        return q
    r = e.alu("isub", bits, n, e.alu("imul", bits, d, q))
    if op != "imod":
        return r
    zero = e.const(bits, 0)
    differ = e.alu("ine", 1, e.alu("ige", 1, n, zero), e.alu("ige", 1, d, zero))
    fix = e.alu("iand", 1, differ, e.alu("ine", 1, r, zero))
    return e.alu("iadd", bits, r, e.bcsel(fix, d, zero))


def _fix_mod(k: _Div, r: Value, d: Value) -> Value:
    e = k.e
    zero = k.c(0)
    differ = e.alu("ilt", 1, k.op("ixor", r, d), zero)
    fix = e.alu("iand", 1, differ, e.alu("ine", 1, r, zero))
    return e.bcsel(fix, k.op("iadd", r, d), r)


def _by_const(k: _Div, op: str, n: Value, d: Value, dc: int, bits: int) -> Value:
    if op in ("udiv", "umod"):
        q = k.udiv_const(n, dc)
        if op == "udiv":
            return q
        if dc & (dc - 1) == 0:
            return k.op("iand", n, k.c(dc - 1))
        return k.op("isub", n, k.op("imul", q, d))
    sd = signed(dc, bits)
    q = k.idiv_const(n, sd)
    if op == "idiv":
        return q
    r = k.op("isub", n, k.op("imul", q, d))
    if op == "irem":
        return r
    return _fix_mod(k, r, d)


def lower_idiv(shader: MirShader) -> bool:
    return rewrite_instrs(shader, _lower, ops=_OPS)
