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
import re

import numpy as np
import pytest

from radcc.driver.llc import kernel_args
from radcc.emu.api import load
from radcc.ir.parser import parse_program
from radcc.ir.printer import print_program
from radcc.passes.emit_program import emit_code_object, emit_program
from radcc.passes.live_var_analysis import live_var_analysis
from radcc.passes.manager import run_pipeline
from radcc.passes.options import DebugOptions
from radcc.passes.spill import SpillError, spill

VALIDATE = DebugOptions.parse("validateir,validatera")
ARGS = kernel_args(["out:buffer", "in:buffer"])
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
        assert p.config.spilled_vgprs > 0 and "scratch_store_b32" in r.asm
        assert p.config.scratch_bytes_per_lane == 4 * p.config.spilled_vgprs
    if ns > 106:
        assert p.config.spilled_sgprs > 0 and "v_writelane_b32" in r.asm
    if nv < 256 and ns < 100:
        assert p.config.spilled_vgprs == 0 and p.config.spilled_sgprs == 0  # fits


def test_fitting_program_unchanged():
    text = straight_line(32, 200, 90)
    p = parse_program(text)
    live_var_analysis(p)
    before = print_program(p)
    spill(p)
    assert print_program(p) == before


def if_else(wave: int, nv: int, ns: int) -> str:
    """vs (and ss) live across a divergent if/else on x odd; then-side folds vs in order,
    else-side in reverse; after the merge a phi, vs[::3] folded in again, plus the SGPR
    fold."""
    g = Gen(wave)
    x, addr, obase = g.entry()
    vs = g.vvals(x, range(nv))
    ss = g.svals("%2", range(ns)) if ns else []
    t, c = g.t(), g.t()
    g.emit(f"v1: {t} = v_and_b32 1, {x}")
    g.emit(f"{g.lm}: {c} = v_cmp_eq_u32_e64 {t}, 1")
    g.emit("p_logical_end")
    g.emit(f"p_cbranch_z {c} BB2, BB1")
    g.lines[1] = g.lines[1].replace("top-level,", "top-level, branch,")
    g.block(1, [0], [0], "uniform")
    g.emit("p_logical_start")
    r1 = g.vfold(None, vs)
    g.emit("p_logical_end")
    g.emit("p_branch BB3")
    g.block(2, [], [0], "uniform")
    g.emit("p_branch BB3")
    g.block(3, [], [1, 2], "invert")
    g.emit("p_branch BB4")
    g.block(4, [0], [3], "uniform")
    g.emit("p_logical_start")
    r2 = g.vfold(None, vs[::-1])
    g.emit("p_logical_end")
    g.emit("p_branch BB6")
    g.block(5, [], [3], "uniform")
    g.emit("p_branch BB6")
    g.block(6, [1, 4], [4, 5], "top-level, merge")
    r = g.t()
    g.emit(f"v1: {r} = p_phi {r1}, {r2}")
    g.emit("p_logical_start")
    acc = g.vfold(r, vs[::3])
    if ns:
        sacc = g.sfold(ss)
        a2 = g.t()
        g.emit(f"v1: {a2} = v_add_nc_u32 {sacc}, {acc}")
        acc = a2
    g.emit(f"global_store_b32 {addr}, {acc}, {obase}")
    g.emit("p_logical_end")
    g.emit("s_endpgm")
    return g.text()


def expect_if_else(x: np.ndarray, nv: int, ns: int, block: int) -> np.ndarray:
    vals = np_vals(x, range(nv))
    r = np.where(x & 1 == 1, np_fold(None, vals), np_fold(None, vals[::-1]))
    want = np_fold(r, vals[::3])
    if ns:
        wg = np.arange(len(x)) // block
        want = (want + np.array([s_fold(int(w), range(ns)) for w in wg], np.uint64)) & M32
    return want.astype(np.uint32)


def loop(wave: int, nv: int, ns: int, iters: int = 3, step: int = 5) -> str:
    """vs (and ss) defined before a uniform loop; the loop carries acc (phi) and the
    counter (linear phi) and folds vs[::step] into acc each iteration (the other values
    live through the loop unused); after it acc folds all of vs, plus the SGPR fold."""
    g = Gen(wave)
    x, addr, obase = g.entry()
    vs = g.vvals(x, range(nv))
    ss = g.svals("%2", range(ns)) if ns else []
    g.emit("p_logical_end")
    g.emit("p_branch BB1")
    g.lines[1] = g.lines[1].replace("top-level,", "top-level, loop-preheader, uniform,")
    acc, i = g.t(), g.t()
    g.block(1, [0, 1], [0, 1], "uniform, loop-header", depth=1)
    acc2_at = len(g.lines)
    g.emit("")  # phis, filled below
    g.emit("")
    g.emit("p_logical_start")
    acc2 = g.vfold(acc, vs[::step])
    i2, sc, cc = g.t(), g.t(), g.t()
    g.emit(f"s1: {i2}, s1: {sc}:scc = s_add_u32 {i}, 1")
    g.emit(f"s1: {cc}:scc = s_cmp_lt_u32 {i2}, {iters}")
    g.emit("p_logical_end")
    g.emit(f"p_cbranch_nz {cc}:scc BB1, BB2")
    g.lines[acc2_at] = f"   v1: {acc} = p_phi {x}, {acc2}"
    g.lines[acc2_at + 1] = f"   s1: {i} = p_linear_phi 0, {i2}"
    g.block(2, [1], [1], "top-level, loop-exit")
    g.emit("p_logical_start")
    out = g.vfold(acc2, vs)
    if ns:
        sacc = g.sfold(ss)
        a2 = g.t()
        g.emit(f"v1: {a2} = v_add_nc_u32 {sacc}, {out}")
        out = a2
    g.emit(f"global_store_b32 {addr}, {out}, {obase}")
    g.emit("p_logical_end")
    g.emit("s_endpgm")
    return g.text()


def expect_loop(x: np.ndarray, nv: int, ns: int, block: int, iters: int = 3,
                step: int = 5) -> np.ndarray:
    vals = np_vals(x, range(nv))
    acc = x.astype(np.uint64)
    for _ in range(iters):
        acc = np_fold(acc, vals[::step])
    want = np_fold(acc, vals)
    if ns:
        wg = np.arange(len(x)) // block
        want = (want + np.array([s_fold(int(w), range(ns)) for w in wg], np.uint64)) & M32
    return want.astype(np.uint32)


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("nv,ns", [(300, 0), (60, 120), (280, 112)])
def test_if_else_pressure(wave, nv, ns):
    rng = np.random.default_rng(nv + ns + wave + 1)
    block = 64
    x = rng.integers(0, 1 << 32, 2 * block, dtype=np.uint32)
    got, p, _ = compile_run(if_else(wave, nv, ns), x, wave, 2, block)
    assert np.array_equal(got, expect_if_else(x, nv, ns, block))
    assert p.config.spilled_vgprs + p.config.spilled_sgprs > 0


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("nv,ns,step", [(300, 0, 5), (60, 120, 5), (280, 112, 5),
                                         (300, 0, 2), (330, 0, 1)])
def test_loop_pressure(wave, nv, ns, step):
    rng = np.random.default_rng(nv + ns + wave + 2)
    block = 64
    x = rng.integers(0, 1 << 32, 2 * block, dtype=np.uint32)
    got, p, _ = compile_run(loop(wave, nv, ns, step=step), x, wave, 2, block)
    assert np.array_equal(got, expect_loop(x, nv, ns, block, step=step))
    assert p.config.spilled_vgprs + p.config.spilled_sgprs > 0


def _spilled_program(text: str):
    from radcc.passes.spill import spill_limits

    p = parse_program(text)
    run_pipeline(p, VALIDATE, stop_after="lower_to_cssa", stream=io.StringIO())
    spill(p)
    return p, spill_limits(p)


def _vgpr_ids(text: str) -> list[int]:
    """Temp ids of the v_mul_lo_u32 values in order of definition."""
    return [int(line.split("%")[1].split()[0]) for line in text.splitlines()
            if "v_mul_lo_u32" in line]


def test_next_use_decides_what_is_spilled():
    """260 values defined, then folded in order of definition. Live VGPRs before
    defining value k: x, the address, values 0..k-1 (k + 2), during it k + 3. Once
    that exceeds the VGPR target L (k = L-2), the value to evict is the live one whose
    next use is furthest: first the address (read by the final store), then each time
    the latest defined value, k-1; the last definition (k = 259) is x's last use, which
    frees its register. So exactly the address and values L-2 .. 257 are spilled (each
    once), and each is reloaded right before its one use."""
    n = 260
    text = straight_line(32, n, 0)
    ids = _vgpr_ids(text)
    p, (_, lim_v) = _spilled_program(text)
    spills = [(b.index, ins) for b in p.blocks for ins in b.instructions
              if ins.opcode == "p_spill"]
    got = sorted(ins.operands[0].temp.id for _, ins in spills)
    assert got == sorted([5] + ids[lim_v - 2:n - 2])  # %5: the address (Gen.entry)
    instrs = p.blocks[0].instructions
    reloads = [k for k, ins in enumerate(instrs) if ins.opcode == "p_reload"]
    assert len(reloads) == len(got)
    for k in reloads:
        d = instrs[k].definitions[0].temp
        assert any(o.temp == d for o in instrs[k + 1].operands)
    assert p.max_reg_demand.vgpr <= lim_v
    assert p.config.scratch_bytes_per_lane == 4 * len(got)


def test_loop_spills_values_unused_in_the_loop_before_it():
    """Values live through the loop but not used in it are the furthest (the loop-exit
    distance): they are spilled in the preheader, and the loop itself neither spills
    nor reloads any of them."""
    text = loop(32, 300, 0)
    ids = _vgpr_ids(text)
    used_in_loop = set(ids[::5])
    p, _ = _spilled_program(text)
    slot_of = {}
    for b in p.blocks:
        for ins in b.instructions:
            if ins.opcode == "p_spill":
                slot_of[ins.operands[1].const] = ins.operands[0].temp.id
    pre = [slot_of[i.operands[1].const] for i in p.blocks[0].instructions
           if i.opcode == "p_spill"]
    assert pre and not set(pre) & used_in_loop
    for ins in p.blocks[1].instructions:
        if ins.opcode == "p_spill":
            assert ins.operands[0].temp.id in used_in_loop
        if ins.opcode == "p_reload":
            assert slot_of[ins.operands[0].const] in used_in_loop


def test_instruction_needing_more_than_the_file_is_refused():
    g = Gen(32)
    x, addr, obase = g.entry()
    vs = g.vvals(x, range(300))
    vec = g.t()
    g.emit(f"v300: {vec} = p_create_vector " + ", ".join(vs))
    g.emit(f"p_unit_test {vec}")
    g.emit("p_logical_end")
    g.emit("s_endpgm")
    p = parse_program(g.text())
    run_pipeline(p, stop_after="lower_to_cssa", stream=io.StringIO())
    with pytest.raises(SpillError, match=r"spill: BB0: 'v300: %\d+ = p_create_vector .*needs"
                                         r" \d+ VGPRs at once"):
        spill(p)


# --- spilled phis ---------------------------------------------------------------------------
def _sweep(kind: str, n: int, op: str, step: int):
    """Ops updating each of n variables in place from its neighbour (randprog AST)."""
    from tests.support.randprog import Op, Src

    return [Op(i, op, [Src(kind, (i + step) % n), Src(kind, i)], kind) for i in range(n)]


def _phi_program(shape: str, nv: int, ns: int):
    """All nv VGPR / ns SGPR variables updated inside a uniform loop or both sides of
    a divergent if: that many phis at the loop header / merge (more than the file)."""
    from tests.support.randprog import Cond, If, Loop, Prog, Src, Store

    body = (_sweep("s", ns, "s_add_u32", 1) if ns else []) + _sweep("v", nv, "v_add_nc_u32", 1)
    if shape == "loop":
        stmts = [Loop(3, body, False)]
    else:
        other = _sweep("v", nv, "v_xor_b32", 3)
        stmts = [If(Cond("lt", Src("v", 0), Src("k", 0x1234)), body if not ns else
                    _sweep("v", nv, "v_add_nc_u32", 1), other)]
    stores = [Store(i, Src("v", i)) for i in range(nv)]
    stores += [Store(nv + i, Src("s", i)) for i in range(ns)]
    return Prog(nv, max(ns, 2), 0, stmts + stores, nv + ns, 64)


@pytest.mark.parametrize("shape,nv,ns,wave", [("loop", 300, 0, 32), ("loop", 300, 0, 64),
                                               ("loop", 4, 120, 64), ("loop", 270, 115, 32),
                                               ("if", 290, 0, 64)])
def test_phis_beyond_the_file_are_spilled(shape, nv, ns, wave):
    """More phis than registers (refused before phi spilling): the spilled phis'
    operands go to their slots at the predecessor ends; the program computes the
    per-lane Python reference of randprog in the strict emulator."""
    from radcc.emu.api import load as emu_load
    from radcc.target import get_target
    from tests.support.ir_interp import kernel_arg_metadata
    from tests.support.randprog import kernel_inputs, lower, reference

    prog = _phi_program(shape, nv, ns)
    args = kernel_inputs(prog, 29)
    want = reference(prog, args["inp"], args["k"])
    p = lower(prog, get_target("gfx1100"), wave)
    run_pipeline(p, VALIDATE, stream=io.StringIO())
    r = emit_program(p)
    res = emu_load(emit_code_object(p, r, kernel_arg_metadata(args))).run(
        p.name, 1, prog.lanes, dict(args), wave_size=wave, strict=True)
    assert not res.violations, res.violations[:3]
    assert np.array_equal(res.buffers["out"], want)
    assert p.config.spilled_phis > 0


# --- slot sharing -----------------------------------------------------------------------------
def two_phases(wave: int, n: int) -> str:
    """Phase A: n values of x folded into a; phase B: n values of a folded into b;
    each phase alone exceeds the VGPR file, and A's values are dead before B's exist."""
    g = Gen(wave)
    x, addr, obase = g.entry()
    a = g.vfold(None, g.vvals(x, range(n)))
    g.emit("p_unit_test 0")  # marks the phase boundary in the spilled IR
    b = g.vfold(a, g.vvals(a, range(n, 2 * n)))
    g.emit(f"global_store_b32 {addr}, {b}, {obase}")
    g.emit("p_logical_end")
    g.emit("s_endpgm")
    return g.text()


@pytest.mark.parametrize("wave", [32, 64])
def test_slots_shared_between_values_not_live_at_once(wave):
    """Values spilled in phase A are all reloaded before phase B spills: B reuses
    A's slots, so the private segment holds max(A, B + the address, spilled in A and
    reloaded at the end) dwords instead of A + B; the result equals NumPy's."""
    n = 290
    text = two_phases(wave, n)
    p, _ = _spilled_program(text)
    ins = p.blocks[0].instructions
    cut = next(k for k, i in enumerate(ins) if i.opcode == "p_unit_test")
    n_a = sum(1 for i in ins[:cut] if i.opcode == "p_spill")
    n_b = sum(1 for i in ins[cut:] if i.opcode == "p_spill")
    assert n_a > 0 and n_b > 0
    assert p.config.scratch_bytes_per_lane <= 4 * (max(n_a, n_b) + 1) < 4 * (n_a + n_b)
    rng = np.random.default_rng(wave)
    x = rng.integers(0, 1 << 32, 128, dtype=np.uint32)
    got, p2, _ = compile_run(text, x, wave, 2, 64)
    acc_a = np_fold(None, np_vals(x, range(n)))
    want = np_fold(acc_a, np_vals(acc_a.astype(np.uint32), range(n, 2 * n))).astype(np.uint32)
    assert np.array_equal(got, want)
    assert p2.config.scratch_bytes_per_lane < 4 * (n_a + n_b)


def _slots_of(text: str):
    """Parse IR with p_spill/p_reload whose slot constant names the spilled value
    (slot k = value k) and return slot_interference's graph for VGPR slots."""
    from radcc.passes.spill_ssa import slot_interference

    p = parse_program(text)
    owner = {}
    for b in p.blocks:
        for ins in b.instructions:
            if ins.opcode == "p_spill":
                owner[id(ins.operands[1])] = ins.operands[1].const
            elif ins.opcode == "p_reload":
                owner[id(ins.operands[0])] = ins.operands[0].const
    nodes = sorted(set(owner.values()))
    g = slot_interference(p, owner, nodes, sgpr=False)
    return nodes, g, {t: g.neighbours(t) for t in nodes}


def test_slot_interference_straight_line():
    """a stored, b stored, a reloaded (a's slot dead), c stored, b and c reloaded:
    b interferes with a and c, a and c do not; first fit gives c a's slot."""
    from radcc.passes.spill_ssa import SlotGraph, assign_slots

    text = """program gfx1100 wave32 compute name:slots
BB0
/* logical preds: / linear preds: / kind: top-level, */
   v1: %1:v[0] = p_startpgm
   p_logical_start
   v1: %2 = v_mov_b32 1
   v1: %3 = v_mov_b32 2
   v1: %4 = v_mov_b32 3
   p_spill %2, 0
   p_spill %3, 1
   v1: %5 = p_reload 0
   p_spill %4, 2
   v1: %6 = p_reload 1
   v1: %7 = p_reload 2
   p_unit_test %5, %6, %7
   p_logical_end
   s_endpgm
"""
    nodes, g, adj = _slots_of(text)
    assert adj == {0: {1}, 1: {0, 2}, 2: {1}}
    at = assign_slots(nodes, g, {t: t for t in nodes}, {t: 1 for t in nodes}, 0)
    assert at == {0: 0, 1: 1, 2: 0}
    # two-dword values: b (2 dwords) between them
    at = assign_slots(nodes, g, {t: t for t in nodes}, {0: 1, 1: 2, 2: 1}, 0)
    assert at == {0: 0, 1: 1, 2: 0}
    # lanes of a linear VGPR: a slot never straddles two (wave 4 for the check)
    at = assign_slots([0, 1], SlotGraph.from_sets([0, 1], {0: {1}, 1: {0}}), {0: 0, 1: 1},
                      {0: 3, 1: 2}, 4)
    assert at == {0: 0, 1: 4}


def test_slot_interference_follows_the_logical_cfg():
    """Value 0 stored before a divergent if and reloaded only in the else-side, value 1
    stored and reloaded in the then-side: no lane runs the then-side and then reloads
    value 0, so their slots do not interfere (VGPR slots live over the logical CFG;
    over the linear CFG, which runs the then-side before the else-side, they would).
    Value 2, stored before the if and reloaded after the merge, interferes with both."""
    text = """program gfx1100 wave32 compute name:slots
BB0
/* logical preds: / linear preds: / kind: top-level, branch, */
   v1: %1:v[0] = p_startpgm
   p_logical_start
   v1: %2 = v_mov_b32 1
   v1: %8 = v_mov_b32 4
   p_spill %2, 0
   p_spill %8, 2
   s1: %9 = v_cmp_eq_u32_e64 %1, 0
   p_logical_end
   p_cbranch_z %9 BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   p_logical_start
   v1: %3 = v_mov_b32 2
   p_spill %3, 1
   v1: %4 = p_reload 1
   p_unit_test %4
   p_logical_end
   p_branch BB3
BB2
/* logical preds: / linear preds: BB0, / kind: uniform, */
   p_branch BB3
BB3
/* logical preds: / linear preds: BB1, BB2, / kind: invert, */
   p_branch BB4
BB4
/* logical preds: BB0, / linear preds: BB3, / kind: uniform, */
   p_logical_start
   v1: %6 = p_reload 0
   p_unit_test %6
   p_logical_end
   p_branch BB6
BB5
/* logical preds: / linear preds: BB3, / kind: uniform, */
   p_branch BB6
BB6
/* logical preds: BB1, BB4, / linear preds: BB4, BB5, / kind: top-level, merge, */
   p_logical_start
   v1: %7 = p_reload 2
   p_unit_test %7
   p_logical_end
   s_endpgm
"""
    _, _, adj = _slots_of(text)
    assert adj == {0: {2}, 1: {2}, 2: {0, 1}}


def test_slot_copies_coalesce_unless_the_slots_interfere():
    """Spilled-phi copies (reload o; store into d's slot): 0 -> 1 is kept because value
    0 is reloaded again after the copy (its slot still live while 1's is written);
    2 -> 3 is dropped, 3 taking 2's slot (2 dead after the copy)."""
    from types import SimpleNamespace

    from radcc.passes.spill_ssa import _coalesce

    text = """program gfx1100 wave32 compute name:slots
BB0
/* logical preds: / linear preds: / kind: top-level, */
   v1: %1:v[0] = p_startpgm
   p_logical_start
   v1: %2 = v_mov_b32 1
   v1: %3 = v_mov_b32 2
   p_spill %2, 0
   p_spill %3, 2
   v1: %10 = p_reload 0
   p_spill %10, 1
   v1: %11 = p_reload 2
   p_spill %11, 3
   v1: %12 = p_reload 1
   v1: %13 = p_reload 0
   v1: %14 = p_reload 3
   p_unit_test %12, %13, %14
   p_logical_end
   s_endpgm
"""
    from radcc.passes.spill_ssa import slot_interference

    p = parse_program(text)
    ins = p.blocks[0].instructions
    owner = {}
    for i in ins:
        if i.opcode == "p_spill":
            owner[id(i.operands[1])] = i.operands[1].const
        elif i.opcode == "p_reload":
            owner[id(i.operands[0])] = i.operands[0].const
    g = slot_interference(p, owner, [0, 1, 2, 3], sgpr=False)
    assert {t: g.neighbours(t) for t in range(4)} == {0: {1, 2, 3}, 1: {0, 2, 3},
                                                      2: {0, 1}, 3: {0, 1}}
    k = [n for n, i in enumerate(ins) if i.opcode in ("p_spill", "p_reload")]
    copies = [(0, ins[k[2]], ins[k[3]], 0, 1), (0, ins[k[4]], ins[k[5]], 2, 3)]
    rep = _coalesce(p, SimpleNamespace(slot_copies=copies), g, False)
    assert rep == {0: 0, 1: 1, 2: 2, 3: 2}
    left = [(i.opcode, i.operands[-1].const) for i in p.blocks[0].instructions
            if i.opcode in ("p_spill", "p_reload")]
    assert left == [("p_spill", 0), ("p_spill", 2), ("p_reload", 0), ("p_spill", 1),
                    ("p_reload", 1), ("p_reload", 0), ("p_reload", 3)]


@pytest.mark.parametrize("wave", [32, 64])
def test_phis_spilled_on_gfx1030(wave, tmp_path):
    """The 300-phi loop on GFX10.3 (scratch_*_dword with vaddr and saddr off after
    the flat scratch init): llvm-mc-19 assembles radcc's text to the same bytes and
    kernel descriptor (test_gfx10_pipeline._check_program); the slots lie inside the
    private segment."""
    import shutil

    if shutil.which("llvm-mc-19") is None:
        pytest.fail("llvm-mc-19 missing")
    from test_gfx10_pipeline import _check_program, disasm, kd_fields

    from radcc.target import get_target
    from tests.support.randprog import lower

    text = print_program(lower(_phi_program("loop", 300, 0), get_target("gfx1100"), wave))
    for a, b in (("gfx1100", "gfx1030"), ("s_load_b64", "s_load_dwordx2"),
                 ("s_load_b32", "s_load_dword"), ("global_load_b32", "global_load_dword"),
                 ("global_store_b32", "global_store_dword")):
        text = text.replace(a, b)
    ours, _asm = _check_program(text, "gfx1030", tmp_path)
    kd = kd_fields(ours, "gfx1030")
    size = int(kd["private_segment_fixed_size"])
    spills = [ln for ln in disasm(ours, "gfx1030", wave == 64)
              if ln.startswith(("scratch_store_dword", "scratch_load_dword"))]
    assert len(spills) >= 2 * 40 and all(", off" in ln for ln in spills)
    offsets = [int(ln.split("offset:")[1]) if "offset:" in ln else 0 for ln in spills]
    assert max(offsets) + 4 <= size <= 2048


# --- rematerialisation ----------------------------------------------------------------------
NOOPT = DebugOptions.parse("validateir,validatera,noopt")


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("nv,ns", [(300, 0), (0, 120)])
def test_constants_are_rematerialised_not_spilled(wave, nv, ns):
    """300 VGPR (v_mov_b32) / 120 SGPR (s_mov_b32) literals live at once, folded in
    reverse order into x (the optimizer off, so they stay instructions): spilling
    computes them again instead of storing them (no scratch, no v_writelane), and the
    result equals NumPy's fold of the same constants."""
    g = Gen(wave)
    x, addr, obase = g.entry()
    cs = []
    for i in range(nv or ns):
        t = g.t()
        g.emit(f"{'v1' if nv else 's1'}: {t} = {'v_mov_b32' if nv else 's_mov_b32'} "
               f"0x{_k(i):x}")
        cs.append(t)
    if nv:
        acc = g.vfold(x, cs[::-1])
    else:
        s = g.sfold(cs[::-1])
        acc = g.t()
        g.emit(f"v1: {acc} = v_add_nc_u32 {s}, {x}")
    g.emit(f"global_store_b32 {addr}, {acc}, {obase}")
    g.emit("p_logical_end")
    g.emit("s_endpgm")
    p = parse_program(g.text())
    run_pipeline(p, NOOPT, stream=io.StringIO())
    r = emit_program(p)
    rng = np.random.default_rng(nv + ns + wave)
    xs = rng.integers(0, 1 << 32, 128, dtype=np.uint32)
    out = np.zeros(128, np.uint32)
    res = load(emit_code_object(p, r, ARGS)).run(p.name, groups=2, block=64,
                                                 args={"out": out, "in": xs},
                                                 wave_size=wave, strict=True)
    assert not res.violations, res.violations[:3]
    ks = [np.uint64(_k(i)) for i in range(nv or ns)][::-1]
    if nv:
        want = np_fold(xs.astype(np.uint64), ks)
    else:
        want = (np_fold(None, ks) + xs.astype(np.uint64)) & M32
    assert np.array_equal(res.buffers["out"], want.astype(np.uint32))
    assert p.config.rematerialized > 0
    assert p.config.spilled_vgprs == 0 and p.config.spilled_sgprs == 0
    assert "scratch_" not in r.asm and "v_writelane" not in r.asm


# --- slots beyond the scratch immediate offset's reach ---------------------------------------
@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("below", [4000, 8192])
def test_slots_beyond_the_immediate_offset_use_an_sgpr_base(wave, below):
    """300 values spilled after `below` bytes of private segment (as after a large local
    array): slots whose last dword the 13-bit immediate offset (ISA "Scratch" addressing,
    at most 4095) reaches keep saddr ``off``; the others get ``s_mov_b32 s, slot`` and
    saddr ``s`` with offset 0 (ACO's setup_vgpr_spill_reload when the slots overflow the
    range). Strict emulator vs NumPy."""
    p = parse_program(straight_line(wave, 300, 0))
    p.config.scratch_bytes_per_lane = below
    run_pipeline(p, VALIDATE, stream=io.StringIO())
    r = emit_program(p)
    near = re.findall(r"scratch_(?:store|load)_b32 (?:off, v\d+|v\d+, off), off offset:(\d+)",
                      r.asm)
    far = re.findall(r"scratch_(?:store|load)_b32 (?:off, v\d+|v\d+, off), s\d+\n", r.asm)
    movs = re.findall(r"s_mov_b32 s\d+, (0x[0-9a-f]+|\d+)", r.asm)
    assert far and p.config.spilled_vgprs > 0
    assert p.config.scratch_bytes_per_lane == below + 4 * p.config.spilled_vgprs
    assert all(below <= int(o) <= 4092 for o in near)
    assert (len(near) > 0) == (below < 4096)
    assert sum(1 for m in movs if int(m, 0) >= 4096) >= len(far)
    rng = np.random.default_rng(wave + below)
    x = rng.integers(0, 1 << 32, 128, dtype=np.uint32)
    out = np.zeros(128, np.uint32)
    res = load(emit_code_object(p, r, ARGS)).run(p.name, groups=2, block=64,
                                                 args={"out": out, "in": x},
                                                 wave_size=wave, strict=True)
    assert not res.violations, res.violations[:3]
    assert np.array_equal(res.buffers["out"], expect_straight(x, 300, 0, wave, 64))


def unreachable_block(wave: int, nv: int, ns: int) -> str:
    """Values spilled across a block nothing enters and nothing leaves (isel's endif of a
    uniform if whose sides both jump: a loop body ``if (i < n) continue; else break;``,
    llama.cpp's matmul_id_subgroup_q2_k_q8_1): BB0 computes, BB1 has no predecessor and
    no successor, BB2 folds and stores."""
    g = Gen(wave)
    x, addr, obase = g.entry()
    vs = g.vvals(x, range(nv))
    ss = g.svals("%2", range(ns))
    g.emit("p_logical_end")
    g.emit("p_branch BB2")
    g.lines[1] = g.lines[1].replace("top-level,", "top-level, uniform,")
    g.lines.append("BB1\n/* logical preds: / linear preds: / kind: */")
    g.emit("p_logical_start")
    g.emit("p_logical_end")
    g.block(2, [0], [0], "top-level")
    g.emit("p_logical_start")
    acc = g.vfold(None, vs)
    sacc = g.sfold(ss)
    a2 = g.t()
    g.emit(f"v1: {a2} = v_add_nc_u32 {sacc}, {acc}")
    g.emit(f"global_store_b32 {addr}, {a2}, {obase}")
    g.emit("p_logical_end")
    g.emit("s_endpgm")
    return g.text()


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("nv,ns", [(40, 120), (290, 115)])
def test_block_without_predecessors_ends_no_linear_vgpr(wave, nv, ns):
    """The linear VGPRs holding spilled SGPRs end where the program ends, not in a block
    that no path reaches (as ACO's end_unused_spill_vgprs, aco_spill.cpp, skips blocks
    without linear predecessors): such a use made RA report '%N is live into BB1, which
    has no predecessor for it'."""
    rng = np.random.default_rng(nv + ns + wave + 7)
    block = 64
    x = rng.integers(0, 1 << 32, 2 * block, dtype=np.uint32)
    got, p, _ = compile_run(unreachable_block(wave, nv, ns), x, wave, 2, block)
    assert np.array_equal(got, expect_straight(x, nv, ns, wave, block))
    assert p.config.spilled_sgprs > 0
