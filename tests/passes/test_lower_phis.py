"""lower_phis: divergent boolean phis become lane-mask merge code.

Expectations are derived from the meaning of a boolean phi (each lane keeps
the bit of the logical predecessor it came through) and the merge rule
``V' = (V & ~exec) | (b & exec)`` placed before the predecessor's
``p_logical_end``; the semantic tests run the program before and after
(with insert_exec_mask) on random lanes in two independent interpreters.
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


def lowered(text: str):
    p = parse_program(text)
    validate_ir(p, "input")
    lower_phis(p)
    validate_ir(p, "lower_phis")
    return p


@pytest.mark.parametrize("wave", [32, 64])
def test_if_else_boolean_phi(wave: int) -> None:
    lm = "s1" if wave == 32 else "s2"
    andn2, and_, or_ = (f"s_and_not1_b{wave}", f"s_and_b{wave}", f"s_or_b{wave}")
    p = lowered(fmt(IF_ELSE, wave))
    # then side (first write): V is undefined before, so a copy;
    # else side: V = (V & ~exec) | (b & exec) with b = 0, i.e. V & ~exec;
    # the invert block joins "then ran" and "then skipped" (V undefined);
    # the phi reads V along the merge block's linear predecessors.
    assert_ir_matches(p, f"""
        BB1
        p_logical_start
        v1: %3 = v_add_nc_u32 1, %1
        {lm}: %w1 = p_parallelcopy %10
        >> p_logical_end
        BB3
        >> /* logical preds: / linear preds: BB1, BB2, / kind: invert, */
        >> {lm}: %j = p_linear_phi %w1, {lm}: undef
        >> p_branch BB4
        BB4
        v1: %4 = v_add_nc_u32 2, %1
        >> {lm}: %w4, s1: $_:scc = {andn2} %j, {lm}: exec
        >> p_logical_end
        BB6
        v1: %5 = p_phi %3, %4
        >> {lm}: %6 = p_linear_phi %w4, %j
        """)
    text = print_program(p)
    assert and_ not in text and or_ not in text
    assert "boolean" not in text


@pytest.mark.parametrize("wave", [32, 64])
def test_general_merge_code(wave: int) -> None:
    """A non-constant operand after a defined V: and-not, and, or."""
    lm = "s1" if wave == 32 else "s2"
    text = fmt(IF_ELSE, wave).replace("p_phi %10, 0_b64 boolean", "p_phi %10, %2 boolean") \
        .replace("p_phi %10, 0 boolean", "p_phi %10, %2 boolean")
    p = lowered(text)
    assert_ir_matches(p, f"""
        BB4
        v1: %4 = v_add_nc_u32 2, %1
        >> {lm}: %a, s1: $_:scc = s_and_not1_b{wave} %j, {lm}: exec
        >> {lm}: %b, s1: $_:scc = s_and_b{wave} %2, {lm}: exec
        >> {lm}: %w, s1: $_:scc = s_or_b{wave} %a, %b
        >> p_logical_end
        BB6
        v1: %5 = p_phi %3, %4
        >> {lm}: %6 = p_linear_phi %w, %j
        """)


def test_true_constant_is_or_exec() -> None:
    text = fmt(IF_ELSE, 32).replace("p_phi %10, 0 boolean", "p_phi %10, -1 boolean")
    p = lowered(text)
    assert_ir_matches(p, """
        BB4
        v1: %4 = v_add_nc_u32 2, %1
        >> s1: %w, s1: $_:scc = s_or_b32 %j, s1: exec
        >> p_logical_end
        """)


def test_uniform_predecessors_give_a_linear_phi() -> None:
    """A uniform if (logical = linear predecessors, all uniform, no merge
    kind): the whole wave comes from one side, so the phi is linear."""
    p = lowered("""program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, uniform, */
   v1: %1:v[0], s1: %2:s[0] = p_startpgm
   p_logical_start
   s1: %3 = v_cmp_lt_u32_e64 %1, 5
   s1: %4 = v_cmp_lt_u32_e64 %1, 7
   s1: %5:scc = s_cmp_lg_u32 %2, 0
   p_logical_end
   p_cbranch_z %5:scc BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   p_logical_start
   p_logical_end
   p_branch BB3
BB2
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   p_logical_start
   p_logical_end
   p_branch BB3
BB3
/* logical preds: BB1, BB2, / linear preds: BB1, BB2, / kind: top-level, */
   s1: %6 = p_phi %3, %4 boolean
   p_logical_start
   p_logical_end
""")
    assert_ir_matches(p, """
        BB3
        s1: %6 = p_linear_phi %3, %4
        >> p_logical_start
        """)


def test_other_phis_untouched() -> None:
    text = fmt(IF_ELSE, 32).replace(" boolean", "")
    p = lowered(text)
    assert_ir_matches(p, "s1: %6 = p_phi %10, 0")
    assert "exec" not in print_program(p)


def test_boolean_phi_of_wrong_class() -> None:
    text = fmt(IF_ELSE, 64).replace("s2: %6 = p_phi %10, 0_b64 boolean",
                                    "s1: %6 = p_phi %11, 0 boolean").replace(
        "s2: %10 = v_cmp_lt_u32_e64 %1, 3", "s2: %10 = v_cmp_lt_u32_e64 %1, 3\n   s1: %11 = "
        "p_parallelcopy 1")
    with pytest.raises(ValueError, match="boolean phi of class s1"):
        lower_phis(parse_program(text))


@pytest.mark.parametrize("wave", [32, 64])
def test_loop_header_and_exit_phis(wave: int) -> None:
    lm = "s1" if wave == 32 else "s2"
    p = lowered(fmt(LOOP, wave))
    # header phi: the preheader's write is a copy; each back edge's write
    # merges into the header's own value (the lowered phi itself).
    # exit phi: V lives through the loop, carried by a header linear phi
    # that starts undefined; the break block merges into it, the invert
    # block joins "some lanes broke" with "none did" and that value goes
    # around both back edges (nothing else writes V in the iteration).
    assert_ir_matches(p, f"""
        BB0
        {lm}: %w0 = p_parallelcopy %40
        >> p_logical_end
        BB1
        v1: %2 = p_phi %1, %5, %7
        >> {lm}: %41 = p_linear_phi %w0, %w10, %w17
        >> {lm}: %x = p_linear_phi {lm}: undef, %xj, %xj
        BB2
        p_logical_start
        >> {lm}: %a, s1: $_:scc = s_and_not1_b{wave} %x, {lm}: exec
        >> {lm}: %b, s1: $_:scc = s_and_b{wave} %41, {lm}: exec
        >> {lm}: %xb, s1: $_:scc = s_or_b{wave} %a, %b
        >> p_logical_end
        BB6
        {lm}: %xj = p_linear_phi %xb, %x
        BB10
        p_logical_start
        >> {lm}: %c, s1: $_:scc = s_and_not1_b{wave} %41, {lm}: exec
        >> {lm}: %d, s1: $_:scc = s_and_b{wave} %43, {lm}: exec
        >> {lm}: %w10, s1: $_:scc = s_or_b{wave} %c, %d
        >> p_logical_end
        BB18
        v1: %8 = p_phi %2
        >> {lm}: %45 = p_linear_phi %xb
        """)


# -- semantics ------------------------------------------------------------------------------
def _check_semantics(text: str, nv: int, ns: int, trials: int = 12, seed: int = 0) -> None:
    src = parse_program(text)
    p = parse_program(text)
    lower_phis(p)
    validate_ir(p, "lower_phis")
    insert_exec_mask(p)
    validate_ir(p, "insert_exec_mask")
    rng = random.Random(seed)
    w = p.wave_size
    for t in range(trials):
        inputs = inputs_for(p, rng, nv, ns)
        ex = (1 << w) - 1 if t % 2 == 0 else rng.getrandbits(w) | 1
        want = run_logical(src, inputs, ex, seed=t)
        got = run_linear(p, inputs, ex, seed=t)
        assert got == want, f"trial {t}, exec {ex:#x}"


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("prog", [IF_ELSE, LOOP], ids=["if_else", "loop"])
def test_semantics_hand_written(prog: str, wave: int) -> None:
    _check_semantics(fmt(prog, wave), 1, 0)


@pytest.mark.parametrize("seed", range(60))
def test_semantics_random_programs(seed: int) -> None:
    rng = random.Random(1000 + seed)
    tree = random_tree(rng)
    _check_semantics(print_program(build(tree, wave=rng.choice([32, 64]))), 2, 1, 6, seed)
