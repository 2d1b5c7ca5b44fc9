"""optimizer_postra: ACO's post-RA combinations, IR in -> expected IR out.

Each pattern has positive cases and negative ones derived from its rule (a
register overwritten in between, a reader that cannot be inverted, a width
that does not match, modifiers, wave64 ...). Every result is also checked by:

- validate_ra (every operand's temp still in its register, with the
  validator's own liveness: a clobbered SCC/SGPR would be reported);
- the IR interpreter (`tests.support.ir_interp`, semantics from the emulator's
  libraries) on the program before and after, over a range of inputs: the
  same path and `p_unit_test` values;
- live_var_analysis on the result: the definition kill flags the pass left are
  the ones a liveness analysis computes (the pass recomputes them without one;
  the input's flags are live_var_analysis's too, as in the pipeline).

The set of SALU opcodes whose SCC is "result != 0" is checked against the
RDNA3 ISA guide's pseudocode (chapter 16).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from radcc.ir.matcher import assert_ir_matches
from radcc.ir.parser import parse_program
from radcc.ir.printer import print_program
from radcc.ir.program import Program
from radcc.ir.validate import validate_ra
from radcc.passes.live_var_analysis import live_var_analysis
from radcc.passes.optimizer_postra import SCC_IS_RESULT_NONZERO, optimize_postra
from tests.support.ir_interp import interpret

GUIDE = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "rdna3-isa.reflowed.txt"
HEAD32 = "program gfx1100 wave32 compute\n"
HEAD64 = "program gfx1100 wave64 compute\n"
INPUTS = [0, 1, 2, 3, 5, 6, 8, 0x80000000, 0xFFFFFFFF]


def _branchy(body: str, branch: str = "p_cbranch_z %c:scc BB2, BB1", head: str = HEAD32) -> str:
    """BB0 computes `body` (s[2] is the input) and branches; BB1 records, BB2 records."""
    return head + f"""BB0
/* logical preds: / linear preds: / kind: top-level, */
   s2: %1:s[0-1], s1: %2:s[2], v1: %20:v[0] = p_startpgm
{body}
   {branch}
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   p_unit_test 1
   p_branch BB2
BB2
/* logical preds: BB0, BB1, / linear preds: BB0, BB1, / kind: top-level, */
   p_unit_test 2
   s_endpgm
"""


def _straight(body: str) -> str:
    """BB0 runs `body` (s[2] is the input) and falls into BB1, which ends."""
    return HEAD32 + f"""BB0
/* logical preds: / linear preds: / kind: top-level, */
   s2: %1:s[0-1], s1: %2:s[2], v1: %20:v[0] = p_startpgm
{body}
   p_branch BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: top-level, */
   s_endpgm
"""


def _observe(text: str, inputs: list[int] | None = None) -> list[tuple]:
    out = []
    for x in inputs or INPUTS:
        p = parse_program(text, "<t>")
        r = interpret(p, inputs={"s[2]": x, "s[0-1]": 0, "v[0]": list(range(p.wave_size))})
        out.append((tuple(r.blocks), tuple(repr(u) for u in r.unit_tests)))
    return out


def run(text: str, inputs: list[int] | None = None) -> str:
    """optimize_postra on `text`; validate_ra and the interpreter agree; the new text."""
    p = parse_program(text, "<t>")
    live_var_analysis(p)  # the input's kill flags as the pipeline has them
    validate_ra(p, "input")
    optimize_postra(p)
    validate_ra(p, "optimizer_postra")
    out = print_program(p)
    assert _observe(text, inputs) == _observe(out, inputs)
    kills = _definition_kills(p)
    live_var_analysis(p)
    assert _definition_kills(p) == kills
    return _plain(out)


def _definition_kills(p: Program) -> list[tuple[int, bool]]:
    return [(d.temp.id, d.is_kill) for b in p.blocks for i in b.instructions
            for d in i.definitions if d.temp is not None]


def _plain(text: str) -> str:
    """The text without kill annotations (patterns here are about instructions)."""
    return re.sub(r"\((first|late)?kill\)", "", text)


# -- SCC without a compare (ACO's try_optimize_scc_nocompare) -----------------------------


def test_cmp_lg_of_and_reads_the_and_scc():
    out = run(_branchy("""   s1: %3:s[3], s1: %4:scc = s_and_b32 %2:s[2], 6
   s1: %c:scc = s_cmp_lg_u32 %3:s[3], 0""".replace("%c", "%5"), "p_cbranch_z %5:scc BB2, BB1"))
    assert "s_cmp" not in out
    assert_ir_matches(out, """s1: %x:s[3], s1: %s:scc = s_and_b32 %i:s[2], 6
>> p_cbranch_z %s:scc BB2, BB1""")


def test_cmp_eq_of_and_inverts_the_branch():
    out = run(_branchy("""   s1: %3:s[3], s1: %4:scc = s_and_b32 %2:s[2], 6
   s1: %5:scc = s_cmp_eq_u32 0, %3:s[3]""", "p_cbranch_z %5:scc BB2, BB1"))
    assert "s_cmp" not in out
    assert_ir_matches(out, """s1: %x:s[3], s1: %s:scc = s_and_b32 %i:s[2], 6
>> p_cbranch_nz %s:scc BB2, BB1""")


def test_cmp_eq_inverts_a_cselect_reader():
    out = run(_straight("""   s1: %3:s[3], s1: %4:scc = s_or_b32 %2:s[2], 0
   s1: %5:scc = s_cmp_eq_u32 %3:s[3], 0
   s1: %6:s[4] = s_cselect_b32 7, 9, %5:scc
   p_unit_test %6:s[4]"""))
    assert "s_cmp" not in out
    assert_ir_matches(out, "s1: %y:s[4] = s_cselect_b32 9, 7, %s:scc")


def test_cselect_bool_round_trip_is_removed():
    """s_cmp_lg(s_cselect(1, 0, scc), 0) is the SCC the cselect read: both go."""
    out = run(_branchy("""   s1: %3:scc = s_cmp_lt_u32 %2:s[2], 5
   s1: %4:s[3] = s_cselect_b32 1, 0, %3:scc
   s1: %5:scc = s_cmp_lg_u32 %4:s[3], 0""", "p_cbranch_z %5:scc BB2, BB1"))
    assert "s_cselect" not in out and "s_cmp_lg" not in out
    assert_ir_matches(out, """s1: %c:scc = s_cmp_lt_u32 %i:s[2], 5
>> p_cbranch_z %c:scc BB2, BB1""")


def test_cselect_zero_first_inverts():
    out = run(_branchy("""   s1: %3:scc = s_cmp_lt_u32 %2:s[2], 5
   s1: %4:s[3] = s_cselect_b32 0, -1, %3:scc
   s1: %5:scc = s_cmp_lg_u32 %4:s[3], 0""", "p_cbranch_nz %5:scc BB2, BB1"))
    assert "s_cselect" not in out
    assert_ir_matches(out, "p_cbranch_z %c:scc BB2, BB1")


def test_cselect_kept_when_its_value_is_read_elsewhere():
    out = run(_branchy("""   s1: %3:scc = s_cmp_lt_u32 %2:s[2], 5
   s1: %4:s[3] = s_cselect_b32 1, 0, %3:scc
   s1: %5:scc = s_cmp_lg_u32 %4:s[3], 0
   p_unit_test %4:s[3]""", "p_cbranch_z %5:scc BB2, BB1"))
    assert "s_cmp_lg" not in out
    assert_ir_matches(out, "s1: %v:s[3] = s_cselect_b32 1, 0, %c:scc")


def test_not_when_scc_overwritten_after_cselect():
    text = _branchy("""   s1: %3:scc = s_cmp_lt_u32 %2:s[2], 5
   s1: %4:s[3] = s_cselect_b32 1, 0, %3:scc
   s1: %6:s[4], s1: %7:scc = s_add_u32 %2:s[2], 1
   p_unit_test %6:s[4]
   s1: %5:scc = s_cmp_lg_u32 %4:s[3], 0""", "p_cbranch_z %5:scc BB2, BB1")
    out = run(text)
    assert "s_cmp_lg_u32" in out and "s_cselect_b32" in out


def test_not_for_a_nonzero_constant_or_an_unlisted_writer():
    text = _branchy("""   s1: %3:s[3], s1: %4:scc = s_and_b32 %2:s[2], 6
   s1: %5:scc = s_cmp_lg_u32 %3:s[3], 2""", "p_cbranch_z %5:scc BB2, BB1")
    assert "s_cmp_lg_u32" in run(text)
    # s_add_u32's SCC is the carry, not "result != 0"
    text = _branchy("""   s1: %3:s[3], s1: %4:scc = s_add_u32 %2:s[2], 6
   s1: %5:scc = s_cmp_lg_u32 %3:s[3], 0""", "p_cbranch_z %5:scc BB2, BB1")
    assert "s_cmp_lg_u32" in run(text)


def test_eq_not_when_a_reader_cannot_be_inverted():
    text = _straight("""   s1: %3:s[3], s1: %4:scc = s_and_b32 %2:s[2], 6
   s1: %5:scc = s_cmp_eq_u32 %3:s[3], 0
   s1: %6:s[4], s1: %7:scc = s_addc_u32 %2:s[2], 0, %5:scc
   p_unit_test %6:s[4]""")
    assert "s_cmp_eq_u32" in run(text)


def test_rematerialize_when_scc_was_overwritten():
    """ACO: the writer is re-executed at the compare when x and its SCC are read nowhere else."""
    out = run(_branchy("""   s1: %3:s[3], s1: %4:scc = s_and_b32 %2:s[2], 6
   s1: %6:s[4], s1: %7:scc = s_add_u32 %2:s[2], 1
   p_unit_test %6:s[4]
   s1: %5:scc = s_cmp_lg_u32 %3:s[3], 0""", "p_cbranch_z %5:scc BB2, BB1"))
    assert "s_cmp" not in out
    assert_ir_matches(out, """s1: %a:s[4], s1: %b:scc = s_add_u32 %i:s[2], 1
>> p_unit_test %a:s[4]
>> s1: %x:s[3], s1: %s:scc = s_and_b32 %i:s[2], 6
>> p_cbranch_z %s:scc BB2, BB1""")


def test_no_rematerialize_when_an_operand_changed():
    text = _branchy("""   s1: %3:s[3], s1: %4:scc = s_and_b32 %2:s[2], 6
   s1: %6:s[2], s1: %7:scc = s_add_u32 %2:s[2], 1
   p_unit_test %6:s[2]
   s1: %5:scc = s_cmp_lg_u32 %3:s[3], 0""", "p_cbranch_z %5:scc BB2, BB1")
    assert "s_cmp_lg_u32" in run(text)


def test_no_rematerialize_for_eq_or_a_second_reader():
    text = _branchy("""   s1: %3:s[3], s1: %4:scc = s_and_b32 %2:s[2], 6
   s1: %6:s[4], s1: %7:scc = s_add_u32 %2:s[2], 1
   p_unit_test %6:s[4]
   s1: %5:scc = s_cmp_eq_u32 %3:s[3], 0""", "p_cbranch_z %5:scc BB2, BB1")
    assert "s_cmp_eq_u32" in run(text)
    text = _branchy("""   s1: %3:s[3], s1: %4:scc = s_and_b32 %2:s[2], 6
   s1: %6:s[4], s1: %7:scc = s_add_u32 %2:s[2], 1
   p_unit_test %6:s[4], %3:s[3]
   s1: %5:scc = s_cmp_lg_u32 %3:s[3], 0""", "p_cbranch_z %5:scc BB2, BB1")
    assert "s_cmp_lg_u32" in run(text)


def test_width_must_match():
    """s_cmp_lg_u64 of a 64-bit and result: fine; the 32-bit compare of s_and_b64: no."""
    body = """   s2: %3:s[4-5], s1: %4:scc = s_and_b64 %1:s[0-1], 6
   s1: %5:scc = s_cmp_lg_u64 %3:s[4-5], 0"""
    out = run(_branchy(body, "p_cbranch_z %5:scc BB2, BB1", HEAD64), [0])
    assert "s_cmp" not in out


def test_scc_across_blocks_not_from_an_untracked_merge():
    """At a merge with two writers of s[3] nothing is known: the compare stays."""
    text = HEAD32 + """BB0
/* logical preds: / linear preds: / kind: top-level, */
   s2: %1:s[0-1], s1: %2:s[2], v1: %20:v[0] = p_startpgm
   s1: %3:scc = s_cmp_lt_u32 %2:s[2], 5
   p_cbranch_z %3:scc BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   s1: %4:s[3], s1: %5:scc = s_and_b32 %2:s[2], 6
   p_branch BB3
BB2
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   s1: %6:s[3], s1: %7:scc = s_or_b32 %2:s[2], 6
   p_branch BB3
BB3
/* logical preds: BB1, BB2, / linear preds: BB1, BB2, / kind: top-level, */
   s1: %8:s[3] = p_linear_phi %4:s[3], %6:s[3]
   s1: %9:scc = s_cmp_lg_u32 %8:s[3], 0
   s1: %10:s[4] = s_cselect_b32 1, 2, %9:scc
   p_unit_test %10:s[4]
   s_endpgm
"""
    assert "s_cmp_lg_u32" in run(text)


# -- v_fma_f32 -> v_fmaak/fmamk_f32 (wave32, GFX11) ------------------------------------------


def _fma(instr: str, head: str = HEAD32) -> str:
    return head + f"""BB0
/* logical preds: / linear preds: / kind: top-level, */
   s2: %1:s[0-1], s1: %2:s[2], v1: %3:v[0], v1: %4:v[1] = p_startpgm
   p_logical_start
   {instr}
   p_unit_test %5:v[2]
   p_logical_end
   s_endpgm
"""


def _fma_observe(text: str) -> list:
    p = parse_program(text, "<t>")
    lanes = [0x3F800000, 0x40490FDB, 0xC0000000, 0x7F800000, 0x00000001, 0xFF7FFFFF]
    r = interpret(p, inputs={"s[2]": 0, "s[0-1]": 0, "v[0]": lanes * 5 + [0, 0],
                             "v[1]": list(reversed(lanes * 5 + [0x3E800000, 1]))})
    return [repr(u) for u in r.unit_tests]


@pytest.mark.parametrize(("instr", "expect"), [
    ("v1: %5:v[2] = v_fma_f32 %3:v[0], %4:v[1], 0x3f000000",
     "v1: %d:v[2] = v_fmaak_f32 %a:v[0], %b:v[1] k:1056964608"),
    ("v1: %5:v[2] = v_fma_f32 %3:v[0], 0xc0800000, %4:v[1]",
     "v1: %d:v[2] = v_fmamk_f32 %a:v[0], %b:v[1] k:3229614080"),
    ("v1: %5:v[2] = v_fma_f32 0x40000000, %3:v[0], %4:v[1]",
     "v1: %d:v[2] = v_fmamk_f32 %a:v[0], %b:v[1] k:1073741824"),
    ("v1: %5:v[2] = v_fma_f32 %3:v[0], %4:v[1], 3",
     "v1: %d:v[2] = v_fmaak_f32 %a:v[0], %b:v[1] k:3"),
])
def test_fma_with_inline_constant_becomes_vop2(instr: str, expect: str) -> None:
    text = _fma(instr)
    p = parse_program(text, "<t>")
    optimize_postra(p)
    validate_ra(p, "optimizer_postra")
    out = print_program(p)
    assert_ir_matches(_plain(out), expect)
    assert _fma_observe(text) == _fma_observe(out)


@pytest.mark.parametrize("instr", [
    "v1: %5:v[2] = v_fma_f32 %3:v[0], %4:v[1], 0x3f000000 neg:[1,0,0]",  # modifiers
    "v1: %5:v[2] = v_fma_f32 %3:v[0], %4:v[1], 0x3f000000 clamp",
    "v1: %5:v[2] = v_fma_f32 %3:v[0], %4:v[1], 0x3fc00001",  # a literal already
    "v1: %5:v[2] = v_fma_f32 %3:v[0], %2:s[2], 0x3f000000",  # an SGPR
    "v1: %5:v[2] = v_fma_f32 %3:v[0], 0x40000000, 0x3f000000",  # two constants
    "v1: %5:v[2] = v_fma_f32 %3:v[0], %4:v[1], %4:v[1]",  # no constant
])
def test_fma_kept(instr: str) -> None:
    p = parse_program(_fma(instr), "<t>")
    before = print_program(p)
    optimize_postra(p)
    assert print_program(p) == before


def test_fma_kept_in_wave64():
    p = parse_program(_fma("v1: %5:v[2] = v_fma_f32 %3:v[0], %4:v[1], 0x3f000000", HEAD64), "<t>")
    optimize_postra(p)
    assert "v_fma_f32" in print_program(p)


# -- redundant SGPR copies ---------------------------------------------------------------------


def test_exec_restore_of_an_unchanged_save_is_dropped():
    out = run(_straight("""   s1: %3:s[3] = p_parallelcopy s1: exec
   s1: %4:s[4], s1: %5:scc = s_add_u32 %2:s[2], 1
   s1: exec = p_parallelcopy %3:s[3]
   p_unit_test %4:s[4]"""))
    assert "exec = p_parallelcopy" not in out
    assert "p_parallelcopy s1: exec" in out


def test_exec_restore_kept_after_an_exec_write():
    out = run(_straight("""   s1: %3:s[3] = p_parallelcopy s1: exec
   s1: exec, s1: %5:scc = s_and_b32 %2:s[2], s1: exec
   s1: exec = p_parallelcopy %3:s[3]
   s1: %6:s[5] = p_parallelcopy s1: exec
   p_unit_test %6:s[5]"""))
    assert "s1: exec = p_parallelcopy" in out


def test_copy_back_renames_the_readers():
    """s[4] = s[3]; s[3] = s[4] (s[3] unchanged): the second copy's temp is s[3]'s."""
    out = run(_straight("""   s1: %3:s[3], s1: %9:scc = s_add_u32 %2:s[2], 7
   s1: %4:s[4] = p_parallelcopy %3:s[3]
   s1: %5:s[3] = p_parallelcopy %4:s[4]
   p_unit_test %5:s[3], %4:s[4]"""))
    assert_ir_matches(out, """s1: %a:s[3], s1: %c:scc = s_add_u32 %i:s[2], 7
>> s1: %b:s[4] = p_parallelcopy %a:s[3]
>> p_unit_test %a:s[3], %b:s[4]""")


# -- the opcode facts ---------------------------------------------------------------------------


@pytest.mark.skipif(not GUIDE.is_file(), reason="shared/seeds is not beside the checkout")
def test_scc_result_nonzero_set_follows_the_guide():
    text = GUIDE.read_text()
    sec = text[text.index("16.1. SOP2 Instructions"):text.index("16.5. SOPP Instructions")]
    parts = re.split(r"\n(S_[A-Z0-9_]+) (\d+)\n", sec)
    desc = {parts[i].lower(): parts[i + 2] for i in range(1, len(parts), 3)}
    guide = set()
    for name, d in desc.items():
        m = re.search(r"SCC = D0\.(u|i|u64|i64) != 0", d)
        if not m:
            continue
        wide = m.group(1).endswith("64")
        # the compare's width must be the destination's: 64-bit formulas on 64-bit results
        if wide == name.endswith("64") or (not wide and not name.endswith("_b64")):
            guide.add(name)
    gfx11 = {n for n in SCC_IS_RESULT_NONZERO if n in desc}
    assert gfx11 <= guide, gfx11 - guide
    assert guide - gfx11 <= {"s_bcnt0_i32_b64", "s_bcnt1_i32_b64", "s_quadmask_b64"}
    assert len(gfx11) >= 30
