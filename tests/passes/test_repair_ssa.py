"""repair_ssa: linear temporaries whose definition dominates their uses logically but
not linearly get p_linear_phis (undef on the linear paths that skip the definition).

The programs are the shapes of docs/ir.md "Control flow as isel produces it" in which
ACO's README.md ("Repair SSA") says the linear CFG differs from the logical one. Expected
phis are derived by hand from the linear CFG: the value is the SGPR on paths through
its definition and undefined on the others; where those paths join, a phi.
"""

from __future__ import annotations

import pytest

from radcc.ir.matcher import assert_ir_matches
from radcc.ir.parser import parse_program
from radcc.ir.printer import print_program
from radcc.ir.validate import ValidationError, validate_ir
from radcc.passes.live_var_analysis import compute_live_sets
from radcc.passes.repair_ssa import repair_ssa

# loop { if (tid < i) { s = i * 3 } else { break }  use s  i += 1 }
# (an SGPR defined on the then side of a divergent if whose else side breaks: the
# merge has one logical predecessor, the then side, but is reached linearly through
# the invert block from the skipped then side too)
IF_BREAK = """program gfx1100 {wave} compute
BB0
/* logical preds: / linear preds: / kind: top-level, loop-preheader, uniform, */
   v1: %1:v[0] = p_startpgm
   p_logical_start
   p_logical_end
   p_branch BB1
BB1
/* logical preds: BB0, BB9, / linear preds: BB0, BB9, / kind: loop-header, branch, loop depth: 1, */
   s1: %2 = p_linear_phi 0, %20
   p_logical_start
   {lm}: %3 = v_cmp_lt_u32_e64 %1, %2
   p_logical_end
   p_cbranch_z %3 BB3, BB2
BB2
/* logical preds: BB1, / linear preds: BB1, / kind: uniform, loop depth: 1, */
   p_logical_start
   s1: %4 = s_mul_i32 3, %2
   p_logical_end
   p_branch BB4
BB3
/* logical preds: / linear preds: BB1, / kind: uniform, loop depth: 1, */
   p_branch BB4
BB4
/* logical preds: / linear preds: BB2, BB3, / kind: invert, loop depth: 1, */
   p_branch BB5
BB5
/* logical preds: BB1, / linear preds: BB4, / kind: break, loop depth: 1, */
   p_logical_start
   p_logical_end
   p_branch BB6
BB6
/* logical preds: / linear preds: BB5, / kind: uniform, loop depth: 1, */
   p_branch BB10
BB7
/* logical preds: / linear preds: BB5, / kind: uniform, loop depth: 1, */
   p_logical_start
   p_logical_end
   p_branch BB9
BB8
/* logical preds: / linear preds: BB4, / kind: uniform, loop depth: 1, */
   p_branch BB9
BB9
/* logical preds: BB2, / linear preds: BB7, BB8, / kind: merge, continue, uniform, loop depth: 1, */
   p_logical_start
   v1: %6 = v_add_nc_u32 %4, %1
   s1: %20, s1: %21:scc = s_add_u32 %2, 1
   p_unit_test %6
   p_logical_end
   p_branch BB1
BB10
/* logical preds: BB5, / linear preds: BB6, / kind: top-level, loop-exit, */
   p_logical_start
   p_unit_test %2
   p_logical_end
"""

# if (tid < 5) { ... } then an empty-exec skip around code that defines s (uniform),
# and s used after the skip's endif: the skip's else block reaches the endif linearly
EXEC_SKIP = """program gfx1100 {wave} compute
BB0
/* logical preds: / linear preds: / kind: top-level, uniform, */
   v1: %1:v[0] = p_startpgm
   s1: %2:s[2] = p_parallelcopy s1: undef
   p_logical_start
   p_logical_end
   p_cbranch_z s1: exec BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   p_logical_start
   s1: %3 = s_mul_i32 7, %2
   p_logical_end
   p_branch BB3
BB2
/* logical preds: / linear preds: BB0, / kind: uniform, */
   p_branch BB3
BB3
/* logical preds: BB1, / linear preds: BB1, BB2, / kind: top-level, */
   p_logical_start
   v1: %4 = v_add_nc_u32 %3, %1
   s1: %5 = s_add_u32 %3, 1
   p_unit_test %4, %5
   p_logical_end
"""

# a divergent loop whose only logical exit is a break after the SGPR's definition,
# plus the linear-only edge of "the loop may have no active lanes left": the value
# defined in the loop body is used after the loop
LOOP_EXIT = """program gfx1100 {wave} compute
BB0
/* logical preds: / linear preds: / kind: top-level, loop-preheader, uniform, */
   v1: %1:v[0] = p_startpgm
   p_logical_start
   p_logical_end
   p_branch BB1
BB1
/* logical preds: BB0, BB7, / linear preds: BB0, BB7, / kind: loop-header, loop depth: 1, */
   s1: %2 = p_linear_phi 0, %20
   p_logical_start
   p_logical_end
   p_cbranch_z s1: exec BB3, BB2
BB2
/* logical preds: BB1, / linear preds: BB1, / kind: uniform, branch, loop depth: 1, */
   p_logical_start
   s1: %4 = s_mul_i32 5, %2
   {lm}: %5 = v_cmp_lt_u32_e64 %1, %4
   s1: %20, s1: %21:scc = s_add_u32 %2, 1
   p_logical_end
   p_cbranch_z %5 BB6, BB4
BB3
/* logical preds: / linear preds: BB1, / kind: uniform, loop depth: 1, */
   p_branch BB8
BB4
/* logical preds: BB2, / linear preds: BB2, / kind: break, loop depth: 1, */
   p_logical_start
   p_logical_end
   p_branch BB5
BB5
/* logical preds: / linear preds: BB4, / kind: uniform, loop depth: 1, */
   p_branch BB8
BB6
/* logical preds: / linear preds: BB2, / kind: uniform, loop depth: 1, */
   p_branch BB7
BB7
/* logical preds: BB2, / linear preds: BB6, / kind: continue, uniform, loop depth: 1, */
   p_logical_start
   p_logical_end
   p_branch BB1
BB8
/* logical preds: BB4, / linear preds: BB3, BB5, / kind: top-level, loop-exit, */
   p_logical_start
   v1: %7 = v_mov_b32 %4
   p_unit_test %7
   p_logical_end
"""


def _fmt(text: str, wave: int) -> str:
    return text.format(wave=f"wave{wave}", lm="s1" if wave == 32 else "s2")


def _repaired(text: str):  # type: ignore[no-untyped-def]
    p = parse_program(text)
    validate_ir(p, "input", check_dominance=False)
    with pytest.raises(ValidationError, match="does not dominate"):
        validate_ir(p, "input")  # the premise: a linear use is not dominated
    repair_ssa(p)
    validate_ir(p, "repair_ssa")  # with dominance
    return p


@pytest.mark.parametrize("wave", [32, 64])
def test_sgpr_defined_in_then_side_of_if_whose_else_breaks(wave: int) -> None:
    p = _repaired(_fmt(IF_BREAK, wave))
    # the then side (BB2) and the skipped then side (BB3) join in the invert block:
    # one phi there; the merge (BB9) reads it through BB5/BB7 and BB8
    assert_ir_matches(p, """
        BB4
        >> /* logical preds: / linear preds: BB2, BB3, / kind: invert, loop depth: 1, */
        >> s1: %r = p_linear_phi %4, s1: undef
        >> p_branch BB5
        BB9
        >> /* $_ */
        >> p_logical_start
        >> v1: %6 = v_add_nc_u32 %r, %1
        """.replace("/* $_ */", "/* logical preds: BB2, / linear preds: BB7, BB8, / kind: "
                    "uniform, continue, merge, loop depth: 1, */"))
    assert print_program(p).count("p_linear_phi") == 2  # the loop's own and the new one


@pytest.mark.parametrize("wave", [32, 64])
def test_empty_exec_skip(wave: int) -> None:
    p = _repaired(_fmt(EXEC_SKIP, wave))
    assert_ir_matches(p, """
        BB3
        >> /* logical preds: BB1, / linear preds: BB1, BB2, / kind: top-level, */
        >> s1: %r = p_linear_phi %3, s1: undef
        >> p_logical_start
        >> v1: %4 = v_add_nc_u32 %r, %1
        >> s1: %5 = s_add_u32 %r, 1
        """)


@pytest.mark.parametrize("wave", [32, 64])
def test_loop_exit_with_the_empty_exec_break(wave: int) -> None:
    p = _repaired(_fmt(LOOP_EXIT, wave))
    # BB3 (exec empty at the header) leaves before the definition: undef from it
    assert_ir_matches(p, """
        BB8
        >> /* logical preds: BB4, / linear preds: BB3, BB5, / kind: top-level, loop-exit, */
        >> s1: %r = p_linear_phi s1: undef, %4
        >> p_logical_start
        >> v1: %7 = v_mov_b32 %r
        """)


def test_phi_operand_use_is_at_the_end_of_the_predecessor() -> None:
    """A p_linear_phi operand is read at the end of its linear predecessor: in IF_BREAK
    the loop header's back-edge operand %20 is defined in BB9 itself (dominated), so
    only the merge's use needs a phi; reading %4 in the header instead needs one
    at the invert block as before."""
    text = _fmt(IF_BREAK, 32).replace("p_linear_phi 0, %20", "p_linear_phi 0, %4")
    p = _repaired(text)
    assert_ir_matches(p, """
        BB1
        >> /* $_ */
        >> s1: %2 = p_linear_phi 0, %r
        BB4
        >> /* logical preds: / linear preds: BB2, BB3, / kind: invert, loop depth: 1, */
        >> s1: %r = p_linear_phi %4, s1: undef
        """.replace("/* $_ */", "/* logical preds: BB0, BB9, / linear preds: BB0, BB9, / "
                    "kind: loop-header, branch, loop depth: 1, */"))


def test_boolean_phi_operand_is_repaired() -> None:
    """A lane-mask operand of a boolean p_phi is read at the end of its logical
    predecessor (lower_phis merges it there): the loop header's back-edge operand,
    defined on the then side (BB2), is read at the end of the merge BB9."""
    text = _fmt(IF_BREAK, 64).replace(
        "   s1: %2 = p_linear_phi 0, %20\n",
        "   s1: %2 = p_linear_phi 0, %20\n   s2: %30 = p_phi 0_b64, %31 boolean\n")
    text = text.replace("   s1: %4 = s_mul_i32 3, %2\n",
                        "   s1: %4 = s_mul_i32 3, %2\n   s2: %31 = v_cmp_lt_u32_e64 %1, %4\n")
    p = _repaired(text)
    assert_ir_matches(p, """
        BB1
        >> /* $_ */
        >> s1: %2 = p_linear_phi 0, %20
        >> s2: %30 = p_phi 0_b64, %b boolean
        BB4
        >> /* logical preds: / linear preds: BB2, BB3, / kind: invert, loop depth: 1, */
        >> s2: %x = p_linear_phi %31, s2: undef
        BB9
        >> /* logical preds: BB2, / linear preds: BB7, BB8, / kind: uniform, continue, merge, loop depth: 1, */
        >> s2: %b = p_linear_phi %x, %x
        """.replace("/* $_ */", "/* logical preds: BB0, BB9, / linear preds: BB0, BB9, / "
                    "kind: loop-header, branch, loop depth: 1, */"))


@pytest.mark.parametrize("text", [IF_BREAK, EXEC_SKIP, LOOP_EXIT])
def test_idempotent(text: str) -> None:
    p = _repaired(_fmt(text, 32))
    before = print_program(p)
    repair_ssa(p)
    assert print_program(p) == before


@pytest.mark.parametrize("text", [IF_BREAK, EXEC_SKIP, LOOP_EXIT])
def test_no_value_live_into_the_entry(text: str) -> None:
    """What register allocation needs (the cf_break_continue symptom "%N is live into
    BB0, which has no predecessor for it"): before the repair an SGPR is live into the
    entry block; after it, nothing is."""
    p = parse_program(_fmt(text, 64))
    live_in, _ = compute_live_sets(p)
    assert live_in[0]
    repair_ssa(p)
    live_in, _ = compute_live_sets(p)
    assert not live_in[0]


def test_dominated_uses_are_untouched() -> None:
    text = _fmt(EXEC_SKIP, 32).replace("v1: %4 = v_add_nc_u32 %3, %1",
                                       "v1: %4 = v_add_nc_u32 %2, %1").replace(
        "s1: %5 = s_add_u32 %3, 1", "s1: %5 = s_add_u32 %2, 1")
    p = parse_program(text)
    before = print_program(p)
    repair_ssa(p)
    assert print_program(p) == before
