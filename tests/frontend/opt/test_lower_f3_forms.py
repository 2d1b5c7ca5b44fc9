"""Lowerings that give ACO's forms for small integer division (round F3).

8/16-bit division by a variable goes through the f32 reciprocal plus one ulp
(NIR's ``nir_lower_idiv`` small path); by a constant through the 32-bit magic
numbers. Oracles: Python integer division (``//``, C-style truncation for the
signed forms, GLSL ``mod``), exact rationals for the reciprocal bounds.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from radcc.frontend.mir import Binding, MirFunction, MirShader
from radcc.frontend.mir_builder import MirBuilder
from radcc.frontend.mir_validate import validate
from radcc.frontend.opt import lower_idiv, lower_math, optimize
from radcc.frontend.opt.isel_form import check_isel_form
from radcc.target import get_target
from tests.support import mir_interp

GFX11 = get_target("gfx1100").mir_options  # the isel options of the GFX11 target

DT = {8: np.uint8, 16: np.uint16}


def _critical_pairs(bits: int) -> tuple[np.ndarray, np.ndarray]:
    """Every divisor d with the numerators k*d - 1 and k*d (the quotients nearest
    to rounding up into the next integer, and the exact ones) for all k."""
    top = 1 << bits
    ns, ds = [], []
    for d in range(1, top):
        ks = np.arange(1, (top - 1) // d + 1, dtype=np.int64)
        ns += [ks * d - 1, ks * d]
        ds += [np.full(2 * len(ks), d, np.int64)]
    return np.concatenate(ns), np.concatenate(ds)


def _rcp_bounds(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The f32 values just below/above 1/d (both within 1 ulp: the ISA guide's v_rcp_f32
    accuracy), exact by rationals."""
    uniq = np.unique(d)
    lo, hi = np.empty(len(uniq), np.float32), np.empty(len(uniq), np.float32)
    for i, x in enumerate(uniq.tolist()):
        r = np.float32(1.0 / x)
        fr, exact = Fraction(float(r)), Fraction(1, x)
        lo[i] = r if fr <= exact else np.nextafter(r, np.float32(0))
        hi[i] = r if fr >= exact else np.nextafter(r, np.float32(np.inf))
    idx = np.searchsorted(uniq, d)
    return lo[idx], hi[idx]


@pytest.mark.parametrize("bits", [8, 16])
def test_reciprocal_plus_one_ulp_quotient_is_exact(bits: int) -> None:
    """q = trunc(n * (rcp(d) + 1 ulp)) equals n // d for every divisor and the critical
    numerators, with any reciprocal within 1 ulp (both neighbours of 1/d), in f32."""
    n, d = _critical_pairs(bits)
    for rcp in _rcp_bounds(d):
        adj = (rcp.view(np.uint32) + np.uint32(1)).view(np.float32)
        q = np.trunc(n.astype(np.float32) * adj).astype(np.int64)
        np.testing.assert_array_equal(q, n // d)
        # signed: |n| up to 2^(bits-1), negative numerators truncate toward zero
        neg = np.trunc((-n).astype(np.float32) * adj).astype(np.int64)
        np.testing.assert_array_equal(neg, -(n // d))


def _div_shader(op: str, bits: int) -> MirShader:
    s = MirShader("main", (64, 1, 1), MirFunction("main", []), options=GFX11)
    for k in range(3):
        s.bindings[(0, k)] = Binding(0, k, "storage")
    b = MirBuilder(s)
    gid = b.channel(b.intr("load_global_invocation_id", [], 32, 3), 0)
    addr = b.alu("ishl", 32, 1, gid, b.imm(bits // 16))
    n = b.intr("load_ssbo", [addr], bits, 1, binding=(0, 0))
    d = b.intr("load_ssbo", [addr], bits, 1, binding=(0, 1))
    b.intrinsic("store_ssbo", [b.alu(op, bits, 1, n, d), addr], binding=(0, 2))
    return s


def _ref(op: str, bits: int, n: list[int], d: list[int]) -> list[int]:
    m = 1 << bits
    out = []
    for x, y in zip(n, d, strict=True):
        if op in ("udiv", "umod"):
            out.append((x // y if op == "udiv" else x % y) % m)
            continue
        sx = x - m if x >> (bits - 1) else x
        sy = y - m if y >> (bits - 1) else y
        q = abs(sx) // abs(sy) * (1 if (sx < 0) == (sy < 0) else -1)
        out.append({"idiv": q, "irem": sx - q * sy, "imod": sx % sy}[op] % m)
    return out


@pytest.mark.parametrize("bits", [8, 16])
@pytest.mark.parametrize("op", ["udiv", "umod", "idiv", "irem", "imod"])
def test_small_division_by_variable_uses_the_f32_reciprocal(op: str, bits: int) -> None:
    """Shape: one frcp, no 32-bit integer division sequence (no umul_high); values
    through the MIR interpreter vs Python on extreme and random operands."""
    s = _div_shader(op, bits)
    lower_idiv(s)
    optimize(s)
    validate(s)
    check_isel_form(s)
    ops = [ins.op for blk in s.blocks() for ins in blk.instrs]
    assert ops.count("frcp") == 1 and "umul_high" not in ops, ops
    assert not {"udiv", "idiv", "umod", "irem", "imod"} & set(ops), ops
    m = 1 << bits
    rng = np.random.default_rng(bits)
    n = rng.integers(0, m, 64)
    d = rng.integers(1, m, 64)
    edge = [(m - 1, 1), (m // 2, m - 1), (m // 2, 1), (m - 1, m - 1), (m // 2 - 1, 3),
            (7, m - 7), (m - 7, 7), (m // 2 + 5, m // 2 - 1), (0, 5), (m - 1, 2)]
    for i, (x, y) in enumerate(edge):
        n[i], d[i] = x, y
    got = mir_interp.run(s, (1, 1, 1), {(0, 0): n.astype(DT[bits]), (0, 1): d.astype(DT[bits]),
                                         (0, 2): 64 * bits // 8}, subgroup_size=32)[(0, 2)]
    want = _ref(op, bits, n.tolist(), d.tolist())
    assert np.frombuffer(got, DT[bits]).tolist() == want


@pytest.mark.parametrize("op,d", [("idiv", 7), ("idiv", -3), ("irem", 7), ("imod", -5),
                                  ("udiv", 7), ("umod", 10)])
def test_small_division_by_constant_takes_the_magic_number(op: str, d: int) -> None:
    """x / 7 on 16 bits: a multiply-high by the magic number (no reciprocal, no
    correction steps); values vs Python for every 16-bit numerator."""
    s = MirShader("main", (64, 1, 1), MirFunction("main", []), options=GFX11)
    for k in range(2):
        s.bindings[(0, k)] = Binding(0, k, "storage")
    b = MirBuilder(s)
    gid = b.channel(b.intr("load_global_invocation_id", [], 32, 3), 0)
    addr = b.alu("ishl", 32, 1, gid, b.imm(1))
    n = b.intr("load_ssbo", [addr], 16, 1, binding=(0, 0))
    b.intrinsic("store_ssbo", [b.alu(op, 16, 1, n, b.imm(d & 0xFFFF, 16)), addr],
                binding=(0, 1))
    lower_idiv(s)
    optimize(s)
    ops = [ins.op for blk in s.blocks() for ins in blk.instrs]
    assert "frcp" not in ops and ops.count("umul_high") + ops.count("imul_high") == 1, ops
    assert "uge" not in ops and "bcsel" not in ops or op == "imod", ops
    xs = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    got = mir_interp.run(s, (1024, 1, 1), {(0, 0): xs, (0, 1): 2 << 16},
                         subgroup_size=32)[(0, 1)]
    want = _ref(op, 16, xs.tolist(), [d & 0xFFFF] * len(xs))
    assert np.frombuffer(got, np.uint16).tolist() == want


@pytest.mark.parametrize("form,op,d", [("iabs", "irem", 8), ("iabs", "imod", 4),
                                       ("iand", "irem", 16), ("ushr", "imod", 2),
                                       ("none", "irem", 8), ("iabs", "irem", 12)])
def test_remainder_of_a_sign_clear_value_by_a_power_of_two_is_a_mask(form: str, op: str,
                                                                       d: int) -> None:
    """abs(x) % 8 (GLSL's % of an abs()), (x & 0x7fffffff) % 16, mod(x >> 1, 2): one iand
    with d - 1, no division sequence; x % 8 of any x and abs(x) % 12 keep theirs. Values
    vs Python (C remainder / floored mod) incl. INT_MIN, whose abs is INT_MIN."""
    s = MirShader("main", (64, 1, 1), MirFunction("main", []), options=GFX11)
    for k in range(2):
        s.bindings[(0, k)] = Binding(0, k, "storage")
    b = MirBuilder(s)
    gid = b.channel(b.intr("load_global_invocation_id", [], 32, 3), 0)
    addr = b.alu("ishl", 32, 1, gid, b.imm(2))
    x = b.intr("load_ssbo", [addr], 32, 1, binding=(0, 0))
    n = {"iabs": lambda: b.alu("iabs", 32, 1, x),
         "iand": lambda: b.alu("iand", 32, 1, x, b.imm(0x7FFFFFFF)),
         "ushr": lambda: b.alu("ushr", 32, 1, x, b.imm(1)),
         "none": lambda: x}[form]()
    b.intrinsic("store_ssbo", [b.alu(op, 32, 1, n, b.imm(d)), addr], binding=(0, 1))
    lower_idiv(s)
    optimize(s)
    ops = [ins.op for blk in s.blocks() for ins in blk.instrs]
    masked = form != "none" and d & (d - 1) == 0
    assert (ops.count("iand") == (2 if form == "iand" else 1)) == masked, ops
    assert ("ishr" in ops or "umul_high" in ops or "imul_high" in ops) != masked, ops
    rng = np.random.default_rng(d)
    xs = rng.integers(0, 1 << 32, 64, dtype=np.uint64).astype(np.uint32)
    xs[:6] = [0x80000000, 0xFFFFFFFF, 0x80000001, 0, 7, 0x7FFFFFFF]
    got = mir_interp.run(s, (1, 1, 1), {(0, 0): xs, (0, 1): 256}, subgroup_size=32)[(0, 1)]
    want = []
    for v in xs.tolist():
        sv = v - (1 << 32) if v >> 31 else v
        nv = {"iabs": abs(sv) if sv != -(2**31) else sv, "iand": v & 0x7FFFFFFF,
              "ushr": v >> 1, "none": sv}[form]
        r = (abs(nv) % d) * (1 if nv >= 0 else -1) if op == "irem" else nv % d
        want.append(r & 0xFFFFFFFF)
    assert np.frombuffer(got, np.uint32).tolist() == want


def test_f16_sign_is_the_clamped_bits_of_x_plus_zero() -> None:
    """sign(float16_t) as ACO: fadd(x, 0.0) (-0.0 -> +0.0), its bits clamped to [-1, 1]
    as int16 (one v_med3_i16), converted back; vs NumPy's sign on normals, denormals,
    infinities and both zeros (no compare/select left)."""
    s = MirShader("main", (64, 1, 1), MirFunction("main", []), options=GFX11)
    for k in range(2):
        s.bindings[(0, k)] = Binding(0, k, "storage")
    b = MirBuilder(s)
    gid = b.channel(b.intr("load_global_invocation_id", [], 32, 3), 0)
    addr = b.alu("ishl", 32, 1, gid, b.imm(1))
    x = b.intr("load_ssbo", [addr], 16, 1, binding=(0, 0))
    b.intrinsic("store_ssbo", [b.alu("fsign", 16, 1, x), addr], binding=(0, 1))
    lower_math(s)
    optimize(s)
    ops = [ins.op for blk in s.blocks() for ins in blk.instrs]
    assert {"fadd", "imin", "imax", "i2f16"} <= set(ops), ops
    assert "bcsel" not in ops and "flt" not in ops, ops
    xs = np.random.default_rng(3).uniform(-100, 100, 64).astype(np.float16)
    xs[:8] = [0.0, -0.0, np.inf, -np.inf, 6e-8, -6e-8, 65504, -1.0]
    got = mir_interp.run(s, (1, 1, 1), {(0, 0): xs, (0, 1): 128}, subgroup_size=32)[(0, 1)]
    np.testing.assert_array_equal(np.frombuffer(got, np.float16), np.sign(xs))
