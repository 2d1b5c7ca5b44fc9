"""The lane-mask fast path (32-bit carry ops, integer v_cmp/v_cmpx, v_cndmask_b32 with
EXEC all ones) against the general path, i.e. the VALU semantics library: the same
instruction run with EXEC all ones (fast) and, on an identical wave, with one lane off
(the general path), must agree on every other lane, on VCC/SGPR/EXEC results, and the
carry/compare results must match a Python reference of the ISA pseudocode (16.8)."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.emu.state import EXEC_LO, Wave
from radcc.emu.vop import _fast_mask_handler, bind_valu
from tests.emu.test_valu_fast_path import inst, wave_state

CARRY = ["v_add_co_u32", "v_sub_co_u32", "v_subrev_co_u32"]
CARRY_CI = ["v_add_co_ci_u32", "v_sub_co_ci_u32", "v_subrev_co_ci_u32"]
CONDS = ["f", "lt", "eq", "le", "gt", "ne", "ge", "t"]
SRC0 = ["v3", "s5", "-7", "63", "0x80000000", "vcc_lo"]
M = 0xFFFFFFFF


def _ref_carry(name: str, a: int, b: int, c: int = 0) -> tuple[int, int]:
    """(result, carry/borrow) of the ISA pseudocode on unbounded integers."""
    if "subrev" in name:
        a, b = b, a
    if "add" in name:
        t = a + b + c
        return t & M, int(t > M)
    t = a - b - c
    return t & M, int(t < 0)


def _s32(x: int) -> int:
    return x - (1 << 32) if x >> 31 else x


def _ref_cmp(cond: str, typ: str, a: int, b: int) -> bool:
    if typ == "i32":
        a, b = _s32(a), _s32(b)
    return {"f": False, "lt": a < b, "eq": a == b, "le": a <= b, "gt": a > b, "ne": a != b,
            "ge": a >= b, "t": True}[cond]


def _lanes(w: Wave, code: int) -> list[int]:
    m = w.read_mask(code)
    return [m >> k & 1 for k in range(w.size)]


def _run_both(text: str, wave: int) -> tuple[Wave, Wave, Wave]:
    """(initial state, fast run, general run with lane 0 off) of one instruction (wave32
    assembly syntax; decoded for `wave`, where an SGPR lane mask is a pair)."""
    i = inst(text, wave)
    w0, wf, wg = wave_state(wave, 3), wave_state(wave, 3), wave_state(wave, 3)
    for w in (w0, wf, wg):
        w.s[106] = 0x5A5A5A5A
        w.s[107] = 0xC3C3C3C3
        w.s[8] = 0x0F0F0F0F
        w.s[9] = 0x12345678
    with np.errstate(all="ignore"):
        h = bind_valu(i)
        h(wf, i)
        wg.s[EXEC_LO] ^= 1
        slow = getattr(h, "slow", h)  # the general path (the library) of a fast handler
        slow(wg, i)
        wp = wave_state(wave, 3)  # the fast handler with lane 0 off equals the library
        wp.s[106], wp.s[107], wp.s[8], wp.s[9] = 0x5A5A5A5A, 0xC3C3C3C3, 0x0F0F0F0F, 0x12345678
        wp.s[EXEC_LO] ^= 1
        h(wp, i)
        np.testing.assert_array_equal(wp.v, wg.v, err_msg=text)
        assert wp.s == wg.s, text
    return w0, wf, wg


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("src0", SRC0)
@pytest.mark.parametrize("op", CARRY + CARRY_CI)
def test_carry_ops(op: str, src0: str, wave: int) -> None:
    ci = op in CARRY_CI
    # wave32 syntax: the same encoding reads s[10:11] / s[8:9] in wave64
    text = f"{op} v7, s10, {src0}, v4" + (", s8" if ci else "")
    w0, wf, wg = _run_both(text, wave)
    a = w0.v[3] if src0 == "v3" else None
    cin = _lanes(w0, 8) if ci else [0] * wave
    for k in range(1, wave):
        x = int(a[k]) if a is not None else None
        if x is None:  # a scalar or constant source: what the general path read
            x = {"s5": w0.s[5], "-7": M - 6, "63": 63, "0x80000000": 0x80000000,
                 "vcc_lo": 0x5A5A5A5A}[src0]
        want, carry = _ref_carry(op, x, int(w0.v[4, k]), cin[k])
        assert int(wf.v[7, k]) == want == int(wg.v[7, k]), (text, k)
        assert _lanes(wf, 10)[k] == carry == _lanes(wg, 10)[k], (text, k)


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("typ", ["u32", "i32"])
@pytest.mark.parametrize("cond", CONDS)
@pytest.mark.parametrize("form", ["e32", "e64", "cmpx_e32", "cmpx_e64"])
def test_integer_compares(cond: str, typ: str, form: str, wave: int) -> None:
    x = form.startswith("cmpx")
    name = f"v_cmp{'x' if x else ''}_{cond}_{typ}"
    if form.endswith("e32"):
        text = f"{name}_e32 {'' if x else 'vcc_lo, '}s5, v4"
    else:
        dst = "" if x else "s10, "
        text = f"{name}_e64 {dst}v4, 0x80000000"
    w0, wf, wg = _run_both(text, wave)
    code = 126 if x else (106 if form.endswith("e32") else 10)
    for k in range(1, wave):
        a, b = (w0.s[5], int(w0.v[4, k])) if form.endswith("e32") else (int(w0.v[4, k]),
                                                                           0x80000000)
        want = int(_ref_cmp(cond, typ, a, b))
        assert _lanes(wf, code)[k] == want == _lanes(wg, code)[k], (text, k)


# v_cndmask_b32 forms: (text, sources as ("v", VGPR) / ("s", SGPR) / ("k", constant),
# mask SGPR); the fast handler (`_fast_cndmask_handler`) reads VGPR rows and scalars
Src = tuple[str, int]
CNDMASK: list[tuple[str, tuple[Src, Src], int]] = [
    ("v_cndmask_b32_e32 v7, s5, v4, vcc_lo", (("s", 5), ("v", 4)), 106),
    ("v_cndmask_b32_e64 v7, v3, -1, s8", (("v", 3), ("k", M)), 8),
    ("v_cndmask_b32_e64 v7, v3, v4, vcc_lo", (("v", 3), ("v", 4)), 106),
    ("v_cndmask_b32_e64 v7, s5, 7, s8", (("s", 5), ("k", 7)), 8),
    ("v_cndmask_b32_e32 v7, 0x12345678, v7, vcc_lo", (("k", 0x12345678), ("v", 7)), 106),
    ("v_cndmask_b32_e64 v4, v4, 1.0, s8", (("v", 4), ("k", 0x3F800000)), 8),
    ("v_cndmask_b32_e64 v7, 0, 0.5, s8", (("k", 0), ("k", 0x3F000000)), 8),
]


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("case", CNDMASK, ids=[c[0] for c in CNDMASK])
def test_cndmask(case: tuple[str, tuple[Src, Src], int], wave: int) -> None:
    text, srcs, sel = case
    w0, wf, wg = _run_both(text, wave)
    lanes = _lanes(w0, sel)
    dst = int(text.split()[1].strip("v,"))

    def value(src: Src, k: int) -> int:
        kind, n = src
        return int(w0.v[n, k]) if kind == "v" else w0.s[n] if kind == "s" else n

    for k in range(1, wave):
        want = value(srcs[1], k) if lanes[k] else value(srcs[0], k)
        assert int(wf.v[dst, k]) == want == int(wg.v[dst, k]), (text, k)


def test_cndmask_fast_handler_used() -> None:
    """The forms above take the fast handler (or the test compares the library twice)."""
    from radcc.emu.vop import _fast_cndmask_handler
    for text, _, _ in CNDMASK:
        i = inst(text, 32)
        assert _fast_cndmask_handler(i, i.name, lambda w, i: None) is not None, text
        assert getattr(bind_valu(i), "slow", None) is not None, text


@pytest.mark.parametrize("text", [
    "v_add_co_u32 v7, s10, v3, v4 clamp",  # a modifier: the general path
    "v_cndmask_b32_e64 v7, -v3, v4, s8",
    "v_cmp_gt_u16_e32 vcc_lo, v3, v4",  # not a 32-bit compare
    "v_cmp_gt_f32_e32 vcc_lo, v3, v4",
])
def test_not_fast(text: str) -> None:
    i = inst(text, 32)
    from radcc.emu.vop import _readers
    assert _fast_mask_handler(i, i.name, _readers(i, 0), 7, 10, lambda w, i: None) is None
    from radcc.emu.vop import _fast_cndmask_handler
    assert _fast_cndmask_handler(i, i.name, lambda w, i: None) is None


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("text", [
    "v_mad_u64_u32 v[7:8], s10, v3, v4, v[5:6]",
    "v_mad_u64_u32 v[7:8], null, s5, v4, s[8:9]",
    "v_mad_u64_u32 v[7:8], s10, v3, 0xfffffff0, -1",
    "v_lshlrev_b64 v[7:8], v3, v[4:5]",
    "v_lshlrev_b64 v[7:8], 2, v[4:5]",
    "v_lshlrev_b64 v[7:8], v3, 0x12345",
])
def test_64bit_results(text: str, wave: int) -> None:
    """v_mad_u64_u32 (with its carry-out) and v_lshlrev_b64 against Python integers."""
    w0, wf, wg = _run_both(text, wave)
    mask64 = (1 << 64) - 1

    def val(tok: str, k: int, pair: bool) -> int:
        tok = tok.strip()
        if tok.startswith("v["):
            r = int(tok[2:tok.index(":")])
            return int(w0.v[r, k]) | (int(w0.v[r + 1, k]) << 32)
        if tok.startswith("s["):
            r = int(tok[2:tok.index(":")])
            return w0.s[r] | w0.s[r + 1] << 32
        if tok.startswith("v"):
            return int(w0.v[int(tok[1:]), k])
        if tok.startswith("s"):
            return w0.s[int(tok[1:])]
        x = int(tok, 0)
        return x & (mask64 if pair else M)

    ops = [t for t in text.split(" ", 1)[1].split(", ")]
    for k in range(1, wave):
        d = int(wf.v[7, k]) | (int(wf.v[8, k]) << 32)
        g = int(wg.v[7, k]) | (int(wg.v[8, k]) << 32)
        if text.startswith("v_mad"):
            t = val(ops[2], k, False) * val(ops[3], k, False) + val(ops[4], k, True)
            assert d == t & mask64 == g, (text, k)
            if ops[1] == "s10":
                assert _lanes(wf, 10)[k] == int(t > mask64) == _lanes(wg, 10)[k], (text, k)
        else:
            t = val(ops[2], k, True) << (val(ops[1], k, False) & 63)
            assert d == t & mask64 == g, (text, k)
