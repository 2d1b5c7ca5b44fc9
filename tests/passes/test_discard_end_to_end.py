"""Discards end to end: kernels with p_discard_if / p_demote_to_helper
compiled by the whole pipeline and run in the strict emulator (zero
violations), wave32 and wave64.

Two kinds of oracle, both independent of the compiler:

- hand-written IR kernels compiled with `radcc llc` (the command), whose
  memory is compared with a NumPy reference of the semantics (docs/ir.md
  "Discards": a discarded lane's later stores never happen, its earlier
  ones stay; none / some / all lanes discarded);
- cf_gen statement trees with discards, demotes and stores inside ifs,
  loops and uniform branches, compared with the per-lane reading of the
  source (`cf_interp.run_logical`; a discarded lane stops, so out[gid] is
  the hash of its last store), through `test_cf_end_to_end.check` (which
  also checks `tests.support.ir_interp` on the kernel before the pipeline).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from radcc.cli.llc import main as llc_main

sys.path.insert(0, str(Path(__file__).parent))
from cf_gen import random_tree  # noqa: E402
from test_cf_end_to_end import NB, NS, NV, check, expected, kernel_args  # noqa: E402

HEAD = """program gfx1100 wave{w} compute
BB0
/* logical preds: / linear preds: / kind: top-level{kind}, */
   s2: %1:s[0-1], s1: %2:s[2], v1: %3:v[0] = p_startpgm
   p_logical_start
   s2: %4 = s_load_b64 %1, 0
   s2: %5 = s_load_b64 %1, 8
   s2: %40 = s_load_b64 %1, 16
   s1: %6 = s_load_b32 %1, 24
   v1: %7 = v_mad_u32_u24 %2, {lanes}, %3
   v1: %8 = v_lshlrev_b32 2, %7
   v1: %9 = global_load_b32 %8, %5
"""

# out[gid] = x + 1000; discard the lanes with x < k; out[gid] = x * 7
STRAIGHT = HEAD + """   v1: %10 = v_add_nc_u32 1000, %9
   global_store_b32 %8, %10, %4
   {lm}: %11 = v_cmp_lt_u32_e64 %9, %6
   {op} %11
   v1: %12 = v_mul_lo_u32 %9, 7
   global_store_b32 %8, %12, %4
   p_logical_end
   s_endpgm
"""

# if (x odd) { out = x + 1000; discard x < k; out = x * 7 } else { out = x + 2 }
# out2 = x * 3
IF_ELSE = HEAD + """   v1: %13 = v_and_b32 1, %9
   {lm}: %14 = v_cmp_ne_u32_e64 0, %13
   {lm}: %11 = v_cmp_lt_u32_e64 %9, %6
   p_logical_end
   p_cbranch_z %14 BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   p_logical_start
   v1: %10 = v_add_nc_u32 1000, %9
   global_store_b32 %8, %10, %4
   {op} %11
   v1: %12 = v_mul_lo_u32 %9, 7
   global_store_b32 %8, %12, %4
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
   v1: %15 = v_add_nc_u32 2, %9
   global_store_b32 %8, %15, %4
   p_logical_end
   p_branch BB6
BB5
/* logical preds: / linear preds: BB3, / kind: uniform, */
   p_branch BB6
BB6
/* logical preds: BB1, BB4, / linear preds: BB4, BB5, / kind: top-level, merge, */
   p_logical_start
   v1: %16 = v_mul_lo_u32 %9, 3
   global_store_b32 %8, %16, %40
   p_logical_end
   s_endpgm
"""


def run_llc(tmp_path: Path, text: str, wave: int, lanes: int, groups: int, x: np.ndarray,
            k: int) -> tuple[np.ndarray, np.ndarray]:
    from radcc.emu.api import load

    src = tmp_path / "k.ir"
    src.write_text(text)
    obj = tmp_path / "k.o"
    rc = llc_main([str(src), "-o", str(obj), "--arg", "out:buffer", "--arg", "inp:buffer",
                   "--arg", "out2:buffer", "--arg", "k:u32"])
    assert rc == 0
    n = lanes * groups
    args = {"out": np.zeros(n, np.uint32), "inp": x, "out2": np.zeros(n, np.uint32), "k": k}
    r = load(obj.read_bytes()).run("main", groups, lanes, args, wave_size=wave, strict=True)
    assert not r.violations, "\n".join(str(v) for v in r.violations[:5])
    return r.buffers["out"], r.buffers["out2"]


def kernel_text(template: str, wave: int, lanes: int, op: str) -> str:
    lm = "s1" if wave == 32 else "s2"
    kind = ", uses-discard" if template is STRAIGHT else ", branch"
    return template.format(w=wave, lanes=lanes, lm=lm, op=op, kind=kind)


@pytest.mark.parametrize("op", ["p_discard_if", "p_demote_to_helper"])
@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("k", [0, 6, 100], ids=["none", "some", "all"])
def test_straight_line(tmp_path: Path, wave: int, k: int, op: str) -> None:
    lanes, groups = 64, 2
    x = np.random.default_rng(k + wave).integers(0, 12, lanes * groups).astype(np.uint32)
    out, _ = run_llc(tmp_path, kernel_text(STRAIGHT, wave, lanes, op), wave, lanes, groups,
                     x, k)
    want = np.where(x < k, x + 1000, x * 7).astype(np.uint32)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("k", [0, 6, 100], ids=["none", "some", "all"])
def test_if_else(tmp_path: Path, wave: int, k: int) -> None:
    lanes, groups = 48, 2  # wave64: partial waves
    x = np.random.default_rng(7 * k + wave).integers(0, 12, lanes * groups).astype(np.uint32)
    out, out2 = run_llc(tmp_path, kernel_text(IF_ELSE, wave, lanes, "p_discard_if"), wave,
                        lanes, groups, x, k)
    odd = (x & 1) == 1
    gone = odd & (x < k)
    want = np.where(odd, np.where(x < k, x + 1000, x * 7), x + 2).astype(np.uint32)
    want2 = np.where(gone, 0, x * 3).astype(np.uint32)
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(out2, want2)


def test_llc_rejects_fragment_discard(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """A fragment program in machine IR is refused (llc compiles compute programs only: a
    pixel shader's arguments come from the SPIR-V front end), with a located error."""
    text = kernel_text(STRAIGHT, 32, 64, "p_discard_if").replace("compute", "fragment")
    src = tmp_path / "k.ir"
    src.write_text(text)
    rc = llc_main([str(src), "-o", str(tmp_path / "k.o")])
    err = capsys.readouterr().err
    assert rc != 0
    assert f"{src}: error: " in err
    assert "a fragment_fs program without its shader arguments: only compute programs" in err
    assert "Traceback" not in err


# -- statement trees ------------------------------------------------------------------------
TREES = {
    "top_level": [("store",), ("discard", "b0"), ("obs", 1)],
    "in_then": [("if", "div", "b1", [("vop", "v0", "v0", "add", 3), ("store",),
                                     ("discard", "b0"), ("obs", 1)], [("obs", 2)]),
                ("obs", 3)],
    "in_else_demote": [("if", "div", "b1", [("obs", 1)],
                        [("store",), ("demote", "b0"), ("obs", 2)]), ("obs", 3)],
    "both_sides_all": [("if", "div", "b0", [("discard", "all")], [("discard", "all")]),
                       ("obs", 1)],
    "in_loop": [("loop", "v0", [
        ("vop", "v1", "v1", "add", 1),
        ("if", "div", "b0", [("obs", 1), ("discard", "b1"), ("bnot", "b0", "b0")],
         [("store",)]),
        ("obs", 2)]), ("obs", 3)],
    "loop_break_continue": [("loop", "v0", [
        ("vop", "v1", "v1", "add", 1),
        ("if", "div", "b0", [("obs", 1), ("bnot", "b0", "b0"), ("continue",)], []),
        ("bcmp", "b1", "v1", "gt", 7), ("discard", "b1"),
        ("if", "div", "b1", [("obs", 2), ("break",)], [("bcmp", "b1", "v1", "gt", 9)]),
        ("store",), ("obs", 3)]), ("obs", 4)],
    "nested_loops": [("loop", "v0", [
        ("vop", "v1", "v1", "add", 3),
        ("loop", "v1", [("obs", 3), ("if", "div", "b1", [("obs", 4), ("break",)],
                                     [("discard", "b0")]),
                        ("vop", "v0", "v0", "add", 1)]),
        ("obs", 5)]), ("obs", 6)],
    "uniform_if_and_loop": [
        ("if", "uni", ("s0", "lt", 6), [("discard", "b0"), ("obs", 1)], [("obs", 2)]),
        ("uloop", 2, [("bcmp", "b1", "v0", "gt", 9), ("discard", "b1"), ("store",),
                      ("obs", 3)]),
        ("obs", 4)],
    "all_in_loop": [("loop", "v0", [("store",), ("discard", "all")]), ("obs", 1)],
}


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", list(TREES))
def test_tree(name: str, wave: int) -> None:
    lanes = 64 if wave == 32 else 48
    check(TREES[name], lanes, 1, wave, seed=list(TREES).index(name))


@pytest.mark.parametrize("s0", [2, 9])
def test_uniform_branch_both_ways(s0: int) -> None:
    check(TREES["uniform_if_and_loop"], 32, 2, 32, seed=s0, s0=s0)
    check(TREES["uniform_if_and_loop"], 64, 1, 64, seed=s0, s0=s0)


@pytest.mark.parametrize("seed", range(24))
def test_generated(seed: int) -> None:
    rng = random.Random(9000 + seed)
    wave = 32 if seed % 2 == 0 else 64
    for _ in range(200):
        tree = random_tree(rng, NV, NB, NS, size=20, max_depth=3,
                           uniform_loops=seed % 3 != 0, discards=0.15)
        t = repr(tree)
        if ("'discard'" in t or "'demote'" in t) and t.count("'div'") >= 1:
            break
    lanes = rng.choice([wave, 48, 64])
    check(tree, lanes, 1, wave, seed)


# tests.support.ir_interp with explicit EXEC right after insert_exec_mask, on every
# discard tree and on test_cf_end_to_end's named shapes (no discard; before
# the interpreter skipped the empty logical region of the helper block after
# a divergent continue/break, it disagreed on loop_break_continue,
# nested_loops and break_in_uniform_if)
def _interp_cases() -> list:
    from test_cf_end_to_end import NAMED

    return [(n, TREES[n], True) for n in TREES] + [(f"cf_{n}", t, False)
                                                    for n, t in NAMED.items()]


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("case", _interp_cases(), ids=lambda c: c[0])
def test_interp_after_insert_exec_mask(case: tuple, wave: int) -> None:
    """tests.support.ir_interp on the kernel with explicit EXEC (p_exit_early_if_not
    ends the wave on a clear SCC) agrees with the per-lane reading."""
    import io

    from cf_gen import build_kernel

    from radcc.passes.manager import run_pipeline
    from radcc.passes.options import DebugOptions
    from tests.support.ir_interp import run_kernel

    _, tree, discards = case
    lanes = 64 if wave == 32 else 48
    args = kernel_args(lanes, 1, seed=11)
    want = expected(tree, args, lanes, 1, wave)
    k = build_kernel(tree, lanes, NV, NB, NS, wave)
    run_pipeline(k, DebugOptions.parse("validateir"), stop_after="insert_exec_mask",
                 stream=io.StringIO())
    ops = {i.opcode for b in k.blocks for i in b.instructions}
    assert ("p_exit_early_if_not" in ops) == discards
    got = run_kernel(k, args, 1, lanes, wave_size=wave).buffers["out"]
    np.testing.assert_array_equal(got, want)
