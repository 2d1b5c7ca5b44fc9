"""insert_exec_mask: EXEC through divergent if/else, loops, break, continue.

Expected code derived from the rules (ACO's README.md "Insert exec mask", the
block kinds of docs/ir.md): a divergent branch saves EXEC and ANDs in the
condition, the invert block takes the saved lanes not in EXEC, the merge
restores the saved mask; breaks/continues remove EXEC from the masks down
to the loop's active lanes. Semantic tests compare the structured meaning
(per-lane interpreter over the logical CFG) with the wave executing the
linear CFG under EXEC, on random inputs and random initial EXEC.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from radcc.ir.matcher import assert_ir_matches
from radcc.ir.parser import parse_program
from radcc.ir.printer import print_program
from radcc.ir.validate import validate_ir
from radcc.passes.insert_exec_mask import insert_exec_mask
from radcc.passes.lower_phis import lower_phis

sys.path.insert(0, str(Path(__file__).parent))
from cf_gen import build, inputs_for, random_tree  # noqa: E402
from cf_interp import run_linear, run_logical  # noqa: E402
from cf_programs import IF_ELSE, LOOP, fmt  # noqa: E402


def run(text: str):
    p = parse_program(text)
    validate_ir(p, "input")
    lower_phis(p)
    insert_exec_mask(p)
    validate_ir(p, "insert_exec_mask")
    return p


@pytest.mark.parametrize("wave", [32, 64])
def test_if_else(wave: int) -> None:
    lm = "s1" if wave == 32 else "s2"
    p = run(fmt(IF_ELSE, wave))
    assert_ir_matches(p, f"""
        BB0
        p_logical_end
        >> {lm}: %saved, s1: $_:scc, {lm}: exec = s_and_saveexec_b{wave} %2, {lm}: exec
        >> p_cbranch_z {lm}: exec BB2, BB1
        BB1
        p_logical_end
        >> p_branch BB3
        BB2
        >> /* logical preds: / linear preds: BB0, / kind: uniform, */
        >> p_branch BB3
        BB3
        {lm}: exec, s1: $_:scc = s_and_not1_b{wave} %saved, {lm}: exec
        >> p_cbranch_z {lm}: exec BB5, BB4
        BB4
        p_logical_end
        >> p_branch BB6
        BB6
        v1: %5 = p_phi %3, %4
        >> {lm}: %6 = p_linear_phi $_, $_
        >> {lm}: exec = p_parallelcopy %saved
        >> p_logical_start
        """)


@pytest.mark.parametrize("wave", [32, 64])
def test_loop_with_break_and_continue(wave: int) -> None:
    lm = "s1" if wave == 32 else "s2"
    andn2 = f"s_and_not1_b{wave}"
    p = run(fmt(LOOP, wave))
    assert_ir_matches(p, f"""
        BB0
        p_logical_end
        >> {lm}: %restore = p_parallelcopy {lm}: exec
        >> p_branch BB1
        BB1
        {lm}: %active = p_linear_phi %restore, %a, %a
        >> {lm}: exec = p_parallelcopy %active
        >> p_logical_start
        p_logical_end
        >> {lm}: %s1, s1: $_:scc, {lm}: exec = s_and_saveexec_b{wave} %3, {lm}: exec
        >> p_cbranch_z {lm}: exec BB5, BB2
        BB2
        p_logical_end
        >> {lm}: %s1b, s1: $_:scc = {andn2} %s1, {lm}: exec
        >> {lm}: %activeb, s1: %c:scc = {andn2} %active, {lm}: exec
        >> p_cbranch_nz %c:scc BB4, BB3
        BB3
        p_branch BB18
        BB6
        {lm}: %a = p_linear_phi %activeb, %active
        >> {lm}: %s1j = p_linear_phi %s1b, %s1
        >> {lm}: exec, s1: $_:scc = {andn2} %s1j, {lm}: exec
        >> p_cbranch_z {lm}: exec BB8, BB7
        BB9
        {lm}: exec = p_parallelcopy %s1j
        p_logical_end
        >> {lm}: %s2, s1: $_:scc, {lm}: exec = s_and_saveexec_b{wave} %4, {lm}: exec
        >> p_cbranch_z {lm}: exec BB13, BB10
        BB10
        p_logical_end
        >> {lm}: %s2b, s1: %c2:scc = {andn2} %s2, {lm}: exec
        >> p_cbranch_nz %c2:scc BB12, BB11
        BB11
        p_branch BB1
        BB14
        {lm}: %s2j = p_linear_phi %s2b, %s2
        >> {lm}: exec, s1: $_:scc = {andn2} %s2j, {lm}: exec
        BB17
        {lm}: exec = p_parallelcopy %s2j
        p_logical_end
        >> p_branch BB1
        BB18
        v1: %8 = p_phi %2
        >> {lm}: %45 = p_linear_phi $_
        >> {lm}: exec = p_parallelcopy %restore
        >> p_logical_start
        """)


UNIFORM_IN_DIVERGENT = [("if", "div", "b0", [
    ("vop", "v1", "v1", "add", 1),
    ("if", "uni", ("s0", "lt", 6), [("vop", "v1", "v1", "xor", 5), ("obs", 1)],
     [("obs", 2)]),
    ("obs", 3)], [("obs", 4)]), ("obs", 5)]


def test_uniform_if_inside_divergent_if_keeps_its_branch() -> None:
    p = run(print_program(build(UNIFORM_IN_DIVERGENT)))
    text = print_program(p)
    assert text.count("s_and_saveexec_b32") == 1
    assert_ir_matches(p, """
        s1: %c:scc = s_cmp_lt_u32 $_, 6
        p_logical_end
        >> p_cbranch_z %c:scc BB#t, BB#f
        """)


NESTED_LOOPS = [("loop", "v0", [
    ("vop", "v1", "v1", "add", 3),
    ("if", "div", "b0", [("bnot", "b1", "b1"), ("obs", 1), ("continue",)], [("obs", 2)]),
    ("loop", "v1", [("obs", 3), ("if", "div", "b1", [("obs", 4), ("break",)], []),
                    ("vop", "v0", "v0", "add", 1)]),
    ("obs", 5)]), ("obs", 6)]

# a divergent break inside a uniform if inside a divergent if: the lanes that
# broke must not run the rest of the uniform construct (EXEC cleared)
BREAK_IN_UNIFORM_IF = [("loop", "v0", [
    ("if", "div", "b0", [
        ("if", "uni", ("s0", "lt", 6), [("obs", 1), ("break",)], [("obs", 2)]),
        ("obs", 3), ("vop", "v1", "v1", "add", 1)], [("obs", 4)]),
    ("obs", 5)]), ("obs", 6)]

NESTED_IFS = [("if", "div", "b0", [
    ("if", "div", "b1", [("vop", "v0", "v0", "add", 2), ("bcmp", "b0", "v0", "lt", 9)],
     [("bnot", "b1", "b1")]),
    ("obs", 1)], [("if", "div", "b1", [("obs", 2)], [("vop", "v1", "v0", "mul", 3)])]),
    ("obs", 3)]


def test_break_in_uniform_if_clears_exec() -> None:
    p = run(print_program(build(BREAK_IN_UNIFORM_IF)))
    assert_ir_matches(p, """
        s1: $_, s1: %c:scc = s_and_not1_b32 $_, s1: exec
        >> s1: exec = p_parallelcopy 0
        >> p_cbranch_nz %c:scc BB#t, BB#f
        """)


def test_nested_ifs_restore_in_order() -> None:
    p = run(print_program(build(NESTED_IFS)))
    # the inner merge restores the inner saved mask, the outer merge the outer one
    assert_ir_matches(p, """
        s1: %outer, s1: $_:scc, s1: exec = s_and_saveexec_b32 $_, s1: exec
        s1: %inner, s1: $_:scc, s1: exec = s_and_saveexec_b32 $_, s1: exec
        s1: exec = p_parallelcopy %inner
        s1: exec = p_parallelcopy %outer
        """)


# a divergent continue after an inner loop that has only uniform jumps: the
# inner loop's active lanes replaced the outer mask while it ran; at its exit
# that mask is the outer loop's plain mask again (not a loop mask), so the
# continue removes its lanes from the masks down to the OUTER loop's active
# lanes (regressions/exec_mask_continue_after_inner_loop.ir, randprog seed 13)
CONTINUE_AFTER_INNER_LOOP = [("loop", "v0", [
    ("vop", "v1", "v1", "add", 3),
    ("uloop", 2, [("obs", 1), ("vop", "v0", "v0", "add", 1)]),
    ("if", "div", "b0", [("obs", 2), ("continue",)], [("obs", 3)]),
    ("obs", 4)]), ("obs", 5)]


@pytest.mark.parametrize("wave", [32, 64])
def test_continue_after_inner_uniform_loop(wave: int) -> None:
    lm = "s1" if wave == 32 else "s2"
    p = run(print_program(build(CONTINUE_AFTER_INNER_LOOP, wave=wave)))
    assert_ir_matches(p, f"""
        {lm}: %active = p_linear_phi %restore, $_, $_
        >> {lm}: exec = p_parallelcopy %active
        s1: %uc, s1: $_:scc = s_add_u32 $_, 1
        s1: %g:scc = s_cmp_gt_u32 %uc, 2
        p_logical_end
        >> p_cbranch_z %g:scc BB#stay, BB#brk
        p_logical_end
        >> {lm}: %saved, s1: $_:scc, {lm}: exec = s_and_saveexec_b{wave} $_, {lm}: exec
        >> p_cbranch_z {lm}: exec BB#skip, BB#cont
        BB#cont
        p_logical_end
        >> {lm}: %left, s1: %c:scc = s_and_not1_b{wave} %saved, {lm}: exec
        >> p_cbranch_nz %c:scc BB#more, BB#helper
        BB#helper
        p_branch BB#header
        """)
    # the uniform inner loop neither saves nor restores EXEC: one restore
    # mask (the outer loop's divergent break), one active-lanes phi
    text = print_program(p)
    assert text.count(f"{lm}: exec = p_parallelcopy %") == 1 + 3  # header + 3 merges


# -- semantics ------------------------------------------------------------------------------
def check(text: str, nv: int = 2, ns: int = 1, trials: int = 10, seed: int = 0) -> None:
    src = parse_program(text)
    p = run(text)
    rng = random.Random(seed)
    w = p.wave_size
    for t in range(trials):
        inputs = inputs_for(p, rng, nv, ns)
        ex = (1 << w) - 1 if t % 2 == 0 else rng.getrandbits(w) | 1
        want = run_logical(src, inputs, ex, seed=t)
        got = run_linear(p, inputs, ex, seed=t)
        assert got == want, f"trial {t}, exec {ex:#x}, inputs {inputs}"


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("tree", [UNIFORM_IN_DIVERGENT, NESTED_LOOPS, BREAK_IN_UNIFORM_IF,
                                  NESTED_IFS, CONTINUE_AFTER_INNER_LOOP],
                         ids=["uniform_in_divergent", "nested_loops", "break_in_uniform_if",
                              "nested_ifs", "continue_after_inner_loop"])
def test_semantics_named(tree: list, wave: int) -> None:
    check(print_program(build(tree, wave=wave)))


@pytest.mark.parametrize("wave", [32, 64])
def test_semantics_hand_written(wave: int) -> None:
    check(fmt(LOOP, wave), nv=1, ns=0)
    check(fmt(IF_ELSE, wave), nv=1, ns=0)


@pytest.mark.parametrize("seed", range(150))
def test_semantics_random_programs(seed: int) -> None:
    rng = random.Random(seed)
    wave = rng.choice([32, 64])
    tree = random_tree(rng, size=14, max_depth=3)
    check(print_program(build(tree, wave=wave)), trials=6, seed=seed)


@pytest.mark.parametrize("seed", range(150))
def test_semantics_random_programs_uniform_loops(seed: int) -> None:
    """Loops with only the body's divergent jumps (a uniform guard), nested
    in and around divergent loops: the exec stack across loop exits (seeds
    46, 148 failed before the loop exit gave the outer mask its kind back)."""
    rng = random.Random(1000 + seed)
    wave = rng.choice([32, 64])
    tree = random_tree(rng, size=24, max_depth=3, uniform_loops=True)
    check(print_program(build(tree, wave=wave)), trials=6, seed=seed)


# -- the rest of the pipeline accepts the result ----------------------------------------------
@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("seed", range(4))
def test_pipeline_validates(seed: int, wave: int) -> None:
    """validate_ir after every phase and validate_ra after allocation (up to
    jump threading: the generated programs' inputs are not the kernel ABI's)."""
    from radcc.passes.manager import run_pipeline
    from radcc.passes.options import DebugOptions

    text = print_program(build(random_tree(random.Random(seed)), wave=wave)) if seed else \
        fmt(LOOP, wave)
    p = parse_program(text)
    r = run_pipeline(p, DebugOptions.parse("validateir,validatera"), stop_after="jump_threading")
    assert "insert_exec_mask" in r.ran and "lower_phis" in r.ran
