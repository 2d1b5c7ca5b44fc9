"""insert_exec_mask: p_discard_if / p_demote_to_helper in compute programs.

Semantics (docs/ir.md "Discards"): the active lanes whose condition bit is
set end for the rest of the program; they never come back at a merge or a
loop exit; the wave ends when no lane is left. Expected code derived from
that rule and the exec stack of ACO's README.md "Insert exec mask": the lanes
leave EXEC and every mask saved on the stack (innermost first, the
program's mask last); the SCC of that last AND-NOT says whether a lane is
left (``p_exit_early_if_not``); a loop containing a discard gives every mask
below its active lanes a ``p_linear_phi`` at the header. Semantic tests run
the structured program lane by lane (`cf_interp.run_logical`: a discarded
lane stops) against the wave executing the linear CFG under EXEC
(`cf_interp.run_linear`), on random inputs and random initial EXEC.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from radcc.ir.matcher import assert_ir_matches
from radcc.ir.parser import parse_program
from radcc.ir.printer import print_program
from radcc.passes.insert_exec_mask import insert_exec_mask

sys.path.insert(0, str(Path(__file__).parent))
from cf_gen import build, random_tree  # noqa: E402
from cf_programs import IF_ELSE, fmt  # noqa: E402
from test_insert_exec_mask import check, run  # noqa: E402

TOP = """program gfx1100 wave{w} compute
BB0
/* logical preds: / linear preds: / kind: top-level, */
   v1: %1:v[0] = p_startpgm
   p_logical_start
   {lm}: %2 = v_cmp_lt_u32_e64 %1, 5
   p_discard_if {cond}
   v1: %3 = v_add_nc_u32 1, %1
   p_unit_test %3
   p_logical_end
"""


def top(wave: int, cond: str = "%2", op: str = "p_discard_if", stage: str = "compute") -> str:
    lm = "s1" if wave == 32 else "s2"
    text = TOP.format(w=wave, lm=lm, cond=cond).replace("compute", stage)
    return text.replace("p_discard_if", op)


@pytest.mark.parametrize("op", ["p_discard_if", "p_demote_to_helper"])
@pytest.mark.parametrize("wave", [32, 64])
def test_top_level(wave: int, op: str) -> None:
    # one mask on the stack (the program's, in EXEC): its AND-NOT's SCC is the exit test
    lm = "s1" if wave == 32 else "s2"
    p = run(top(wave, op=op))
    assert_ir_matches(p, f"""
        {lm}: %2 = v_cmp_lt_u32_e64 %1, 5
        >> {lm}: exec, s1: %c:scc = s_and_not1_b{wave} {lm}: exec, %2
        >> p_exit_early_if_not %c:scc
        >> v1: %3 = v_add_nc_u32 1, %1
        """)
    assert op not in print_program(p)


@pytest.mark.parametrize("wave", [32, 64])
def test_unconditional(wave: int) -> None:
    # every active lane: the old EXEC is the condition, EXEC and SCC become 0
    lm = "s1" if wave == 32 else "s2"
    zero = "0" if wave == 32 else "0_b64"
    for cond in ("-1", f"{lm}: exec"):
        p = run(top(wave, cond=cond))
        assert_ir_matches(p, f"""
            {lm}: %2 = v_cmp_lt_u32_e64 %1, 5
            >> {lm}: $_, s1: %c:scc, {lm}: exec = s_and_saveexec_b{wave} {zero}, {lm}: exec
            >> p_exit_early_if_not %c:scc
            """)


def test_constant_zero_discards_nothing() -> None:
    p = run(top(32, cond="0"))
    text = print_program(p)
    assert "exec" not in text and "p_discard_if" not in text and "p_exit_early" not in text


@pytest.mark.parametrize("wave", [32, 64])
def test_inside_then_side(wave: int) -> None:
    """The lanes (condition AND EXEC: only active lanes) leave EXEC and the
    saved mask; the invert block and the merge read the updated mask (a phi
    where the then side may be skipped)."""
    lm = "s1" if wave == 32 else "s2"
    text = fmt(IF_ELSE, wave).replace("   v1: %3 = v_add_nc_u32 1, %1\n",
                                      "   v1: %3 = v_add_nc_u32 1, %1\n   p_discard_if %10\n")
    p = run(text)
    assert_ir_matches(p, f"""
        {lm}: %saved, s1: $_:scc, {lm}: exec = s_and_saveexec_b{wave} %2, {lm}: exec
        BB1
        v1: %3 = v_add_nc_u32 1, %1
        >> {lm}: %d, s1: $_:scc = s_and_b{wave} %10, {lm}: exec
        >> {lm}: exec, s1: $_:scc = s_and_not1_b{wave} {lm}: exec, %d
        >> {lm}: %saved2, s1: %c:scc = s_and_not1_b{wave} %saved, %d
        >> p_exit_early_if_not %c:scc
        BB3
        {lm}: %j = p_linear_phi %saved2, %saved
        >> {lm}: exec, s1: $_:scc = s_and_not1_b{wave} %j, {lm}: exec
        BB6
        {lm}: exec = p_parallelcopy %j
        """)


LOOP_DISCARD = [("loop", "v0", [
    ("vop", "v1", "v1", "add", 1),
    ("if", "div", "b0", [("discard", "b1"), ("obs", 1)], [("obs", 2)]),
    ("obs", 3)]), ("obs", 4)]


@pytest.mark.parametrize("wave", [32, 64])
def test_loop_phis_outer_masks(wave: int) -> None:
    """A discard in a loop with a divergent break: the program mask (also
    the restore mask) gets a header phi, filled from the back edge with
    the mask the discard rewrote; the latch (continue-or-break: the lanes
    may all be gone) tests the loop's lanes; the exit restores the program
    mask from both ways out."""
    lm = "s1" if wave == 32 else "s2"
    p = run(print_program(build(LOOP_DISCARD, wave=wave)))
    assert_ir_matches(p, f"""
        {lm}: %restore = p_parallelcopy {lm}: exec
        >> p_branch BB1
        BB1
        {lm}: %outer = p_linear_phi %restore, %outer_back
        {lm}: %d, s1: $_:scc = s_and_b{wave} $_, {lm}: exec
        >> {lm}: exec, s1: $_:scc = s_and_not1_b{wave} {lm}: exec, %d
        >> {lm}: %saved2, s1: $_:scc = s_and_not1_b{wave} %saved, %d
        >> {lm}: %outer2, s1: %c:scc = s_and_not1_b{wave} %outer, %d
        >> p_exit_early_if_not %c:scc
        {lm}: %outer_back = p_linear_phi %outer2, %outer
        >> {lm}: %saved_j = p_linear_phi %saved2, %saved
        {lm}: exec = p_parallelcopy %saved_j
        p_cbranch_nz {lm}: exec BB#cont, BB#brk
        BB#exit
        /* logical preds: BB#b, / linear preds: BB#h1, BB#h2, / kind: top-level, loop-exit, */
        {lm}: %r = p_linear_phi %outer, %outer_back
        >> {lm}: exec = p_parallelcopy %r
        """)
    text = print_program(p)
    assert text.count("p_exit_early_if_not") == 1


def test_errors() -> None:
    with pytest.raises(ValueError, match=r"BB0: p_discard_if in a vertex_ngg program: only "
                       r"compute and fragment programs discard: p_discard_if %2"):
        insert_exec_mask(parse_program(top(32, stage="vertex_ngg")))
    with pytest.raises(ValueError, match="BB0: a constant discard condition must be 0 or -1"):
        insert_exec_mask(parse_program(top(32, cond="5")))
    with pytest.raises(ValueError, match="BB0: p_discard_if needs a lane-mask temp"):
        insert_exec_mask(parse_program(top(32, cond="%1")))


# -- semantics ------------------------------------------------------------------------------
NESTED = [("if", "div", "b0", [
    ("if", "div", "b1", [("vop", "v0", "v0", "add", 2), ("discard", "b0"), ("obs", 1)],
     [("bnot", "b1", "b1"), ("demote", "b1")]),
    ("obs", 2)], [("discard", "all"), ("obs", 9)]), ("obs", 3)]

# discards in nested loops, after a continue, in a uniform loop
NESTED_LOOPS = [("loop", "v0", [
    ("vop", "v1", "v1", "add", 3),
    ("if", "div", "b0", [("bnot", "b1", "b1"), ("obs", 1), ("continue",)], [("obs", 2)]),
    ("loop", "v1", [("obs", 3), ("if", "div", "b1", [("obs", 4), ("break",)],
                                 [("discard", "b0")]),
                    ("vop", "v0", "v0", "add", 1)]),
    ("uloop", 2, [("bcmp", "b0", "v0", "gt", 7), ("discard", "b0"), ("obs", 6)]),
    ("obs", 5)]), ("obs", 6)]

UNIFORM = [("if", "uni", ("s0", "lt", 6), [("discard", "b0"), ("obs", 1)], [("obs", 2)]),
           ("if", "div", "b1", [("if", "uni", ("s0", "lt", 4), [("discard", "all")],
                                 [("obs", 3)])], []),
           ("obs", 4)]

NAMED = {"loop": LOOP_DISCARD, "nested": NESTED, "nested_loops": NESTED_LOOPS,
         "uniform": UNIFORM}


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", list(NAMED))
def test_semantics_named(name: str, wave: int) -> None:
    check(print_program(build(NAMED[name], wave=wave)), trials=12)


@pytest.mark.parametrize("seed", range(120))
def test_semantics_random(seed: int) -> None:
    rng = random.Random(7000 + seed)
    wave = rng.choice([32, 64])
    tree = random_tree(rng, size=20, max_depth=3, uniform_loops=seed % 2 == 0, discards=0.15)
    check(print_program(build(tree, wave=wave)), trials=6, seed=seed)


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", list(NAMED))
def test_pipeline_validates(name: str, wave: int) -> None:
    """validate_ir after every phase and validate_ra after allocation."""
    from radcc.passes.manager import run_pipeline
    from radcc.passes.options import DebugOptions

    p = build(NAMED[name], wave=wave)
    r = run_pipeline(p, DebugOptions.parse("validateir,validatera"),
                     stop_after="jump_threading")
    assert "insert_exec_mask" in r.ran


def test_lower_to_hw_exit_early_if_not() -> None:
    """p_exit_early_if_not (SCC clear: no lane left) is s_cbranch_scc0 to an
    appended block that only ends the program."""
    from radcc.passes.lower_to_hw import lower_to_hw

    p = parse_program("program gfx1100 wave32 compute\nBB0\n"
                      "/* logical preds: / linear preds: / kind: top-level, */\n"
                      "   p_exit_early_if_not s1: %1:scc\n"
                      "   v1: %2:v[0] = v_mov_b32 1\n   s_endpgm\n")
    lower_to_hw(p)
    assert [i.opcode for i in p.blocks[0].instructions] == ["s_cbranch_scc0", "v_mov_b32",
                                                            "s_endpgm"]
    exit_b = p.blocks[0].instructions[0].fields["targets"][0]
    assert exit_b != 0 and exit_b in p.blocks[0].linear_succs
    assert [i.opcode for i in p.blocks[exit_b].instructions] == ["s_endpgm"]
