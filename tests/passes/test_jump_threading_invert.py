"""jump_threading drops the EXEC write of a divergent if's invert block when
the else side is empty (ACO's try_remove_invert_block: the merge block
restores the saved mask, so the else lanes' EXEC is never seen).

Oracles: the IR patterns are read off the rule (ACO's README.md "Jump Threading",
docs/ir.md "Control flow as isel produces it"); the semantics of the
threaded program are checked with `tests.support.ir_interp` (explicit EXEC) against
values derived by hand, and end to end (cf_gen kernels with empty else
sides, strict emulator) against the per-lane reading of the source.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from radcc.ir.parser import parse_program
from radcc.ir.printer import print_program
from radcc.ir.program import BlockKind
from radcc.ir.regclass import EXEC
from radcc.passes.jump_threading import jump_threading
from tests.support.ir_interp import interpret

sys.path.insert(0, str(Path(__file__).parent))
from cf_gen import build_kernel  # noqa: E402
from test_cf_end_to_end import NB, NS, NV, check  # noqa: E402

# if (v0 < 4) v1 = v0 + 1; (no else) -- after register allocation and SSA
# elimination; the merge observes EXEC and v1
EMPTY_ELSE = """program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, branch, */
   v1: %2:v[0] = p_startpgm
   p_logical_start
   v1: %10:v[1] = v_mov_b32 0
   s1: %3:s[1] = v_cmp_lt_u32_e64 %2:v[0], 4
   p_logical_end
   s1: %4:s[2], s1: %5:scc, s1: exec = s_and_saveexec_b32 %3:s[1], s1: exec
   p_cbranch_z s1: exec BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   p_logical_start
   v1: %6:v[1] = v_add_nc_u32 1, %2:v[0]
   p_logical_end
   p_branch BB3
BB2
/* logical preds: / linear preds: BB0, / kind: uniform, */
   p_branch BB3
BB3
/* logical preds: / linear preds: BB1, BB2, / kind: invert, */
   s1: exec, s1: %7:scc = s_and_not1_b32 %4:s[2], s1: exec
   p_cbranch_z s1: exec BB5, BB4
BB4
/* logical preds: BB0, / linear preds: BB3, / kind: uniform, */
   p_logical_start
   {else}
   p_logical_end
   p_branch BB6
BB5
/* logical preds: / linear preds: BB3, / kind: uniform, */
   p_branch BB6
BB6
/* logical preds: BB1, BB4, / linear preds: BB4, BB5, / kind: top-level, merge, */
   {merge_first}
   s1: exec = p_parallelcopy %4:s[2]
   p_logical_start
   {merge}
   s1: %8:s[3] = s_mov_b32 s1: exec
   p_unit_test 1, %8:s[3], %6:v[1]
   p_logical_end
   s_endpgm
"""


def _text(els: str = "", merge_first: str = "", merge: str = "") -> str:
    return EMPTY_ELSE.replace("{else}", els).replace("{merge_first}", merge_first) \
        .replace("{merge}", merge)


def _observe(text: str, threaded: bool) -> list:
    p = parse_program(text)
    if threaded:
        jump_threading(p)
    lanes = list(range(32))
    r = interpret(p, inputs={"v[0]": lanes}, wave_size=32)
    return [(int(vals[0]), int(vals[1]), [int(x) for x in vals[2][0]])
            for _t, vals in r.unit_tests], p


def _invert_writes(p) -> list[str]:  # type: ignore[no-untyped-def]
    return [i.opcode for b in p.blocks if b.kind & BlockKind.INVERT
            for i in b.instructions if any(d.phys is not None and d.phys.reg == EXEC
                                           for d in i.definitions)]


def test_empty_else_invert_block_is_removed() -> None:
    obs, p = _observe(_text(), threaded=True)
    text = print_program(p)
    assert "s_and_not1_b32" not in text
    # BB0 skips straight to the merge, BB1 falls through to it
    assert "p_cbranch_z s1: exec BB6, BB1" in text
    blocks = {b.index: b for b in p.blocks}
    assert blocks[3].instructions == [] and blocks[3].linear_preds == []
    assert blocks[6].linear_preds == [0, 1]
    # by hand: EXEC is every lane again at the merge; v1 = v0 + 1 for v0 < 4, else 0
    want = [(1, 0xFFFFFFFF, [v + 1 if v < 4 else 0 for v in range(32)])]
    assert obs == want
    assert _observe(_text(), threaded=False)[0] == want


def test_non_empty_else_keeps_the_invert() -> None:
    obs, p = _observe(_text(els="v1: %9:v[2] = v_mov_b32 7"), threaded=True)
    text = print_program(p)
    assert "s1: exec, s1: %7:scc = s_and_not1_b32 %4:s[2], s1: exec" in text
    assert obs == [(1, 0xFFFFFFFF, [v + 1 if v < 4 else 0 for v in range(32)])]


def test_merge_reading_incoming_exec_keeps_the_invert() -> None:
    # the merge reads EXEC before restoring it: the invert's value is seen
    first = "s1: %11:s[4] = s_mov_b32 s1: exec"
    _obs, p = _observe(_text(merge_first=first), threaded=True)
    assert "s_and_not1_b32" in print_program(p)


def test_read_scc_keeps_the_invert() -> None:
    # the invert's SCC is read after the merge restored EXEC
    merge = "s1: %12:s[5] = s_cselect_b32 1, 0, %7:scc"
    _obs, p = _observe(_text(merge=merge), threaded=True)
    assert "s_and_not1_b32" in print_program(p)


# -- the pipeline: isel's shapes (cf_gen) --------------------------------------------------
THEN_ONLY = [("if", "div", "b0", [("vop", "v0", "v0", "add", 5), ("obs", 1)], []),
             ("obs", 2)]
NESTED_THEN_ONLY = [("if", "div", "b0", [
    ("if", "div", "b1", [("vop", "v1", "v1", "xor", 3), ("obs", 1)], []),
    ("obs", 2)], [("obs", 3)]), ("obs", 4)]
LOOP_THEN_ONLY = [("loop", "v0", [("vop", "v1", "v1", "add", 1),
                                  ("if", "div", "b0", [("obs", 1)], []), ("obs", 2)]),
                  ("obs", 3)]
TREES = {"then_only": THEN_ONLY, "nested_then_only": NESTED_THEN_ONLY,
         "loop_then_only": LOOP_THEN_ONLY}


def _after_jump_threading(tree: list, wave: int):  # type: ignore[no-untyped-def]
    from radcc.passes.manager import run_pipeline
    from radcc.passes.options import DebugOptions

    k = build_kernel(tree, 64, NV, NB, NS, wave)
    run_pipeline(k, DebugOptions.parse("validateir,validatera"), stop_after="jump_threading",
                 stream=io.StringIO())
    return k


@pytest.mark.parametrize("wave", [32, 64])
def test_pipeline_drops_only_empty_else_inverts(wave: int) -> None:
    # THEN_ONLY: its one invert is gone; NESTED_THEN_ONLY: the inner if's
    # invert goes, the outer one (else side: obs 3) stays
    k = _after_jump_threading(THEN_ONLY, wave)
    assert _invert_writes(k) == []
    k = _after_jump_threading(NESTED_THEN_ONLY, wave)
    assert _invert_writes(k) == [f"s_and_not1_b{wave}"]


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", list(TREES))
def test_empty_else_end_to_end(name: str, wave: int) -> None:
    lanes = 64 if wave == 32 else 48
    check(TREES[name], lanes, 1, wave, seed=list(TREES).index(name) + 40)
