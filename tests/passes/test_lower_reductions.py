"""Reductions and scans lowered to DPP sequences, run in radcc.emu against NumPy.

Each case is machine IR (tests/passes/reduction_programs.py): a divergent if on
a random per-lane mask (random EXEC inside the then-side; every third seed all
lanes) around one ``p_reduce`` / ``p_inclusive_scan`` / ``p_exclusive_scan``,
compiled by the whole pipeline (validateir, validatera; setup_reduce_temp gives
the linear VGPRs, register allocation, lower_to_hw emits the DPP code), run in
strict mode; the stored lanes must equal the NumPy per-lane reading bit for bit
(float inputs are chosen so that every evaluation order is exact).
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from radcc.driver.llc import kernel_args
from radcc.emu.api import load
from radcc.ir.matcher import assert_ir_matches
from radcc.ir.parser import parse_program
from radcc.ir.printer import print_program
from radcc.passes.emit_program import emit_code_object, emit_program
from radcc.passes.lower_reductions import identity_dwords, reduce_op_info
from radcc.passes.manager import run_pipeline
from radcc.passes.options import DebugOptions
from radcc.passes.reduce_assign import setup_reduce_temp
from tests.passes.reduction_programs import BLOCK, GROUPS, OPS, N, expected, inputs, program_text


def _cases() -> list[tuple[str, str, int, int, int]]:
    out = []
    for wave in (32, 64):
        for bits in (32, 64):
            for op in OPS:
                for c in (1, 2, 4, 8, 16, 32, 64):
                    if c <= wave:
                        out.append(("p_reduce", op, bits, c, wave))
                out.append(("p_inclusive_scan", op, bits, wave, wave))
                out.append(("p_exclusive_scan", op, bits, wave, wave))
    return out


CASES = _cases()


def compile_and_run(kind: str, op: str, bits: int, cluster: int, wave: int,
                    seed: int) -> tuple[np.ndarray, np.ndarray]:
    p = parse_program(program_text(kind, op, bits, cluster, wave), "red.ir")
    run_pipeline(p, DebugOptions.parse("validateir,validatera"), stream=io.StringIO())
    obj = emit_code_object(p, emit_program(p),
                           kernel_args(["out:buffer", "x:buffer", "act:buffer"]))
    rng = np.random.default_rng(seed)
    x = inputs(op, bits, rng)
    act = (rng.random(N) < 0.6).astype(np.uint32)
    if seed % 3 == 0:
        act[:] = 1
    out = np.zeros(N, x.dtype)
    res = load(obj).run("red", groups=GROUPS, block=BLOCK,
                        args={"out": out, "x": x, "act": act}, wave_size=wave, strict=True)
    assert not res.violations, [str(v) for v in res.violations]
    got = res.buffers["out"].view(x.dtype)
    return got, expected(kind, op, bits, cluster, wave, x, act)


@pytest.mark.parametrize(("kind", "op", "bits", "cluster", "wave"), CASES,
                         ids=[f"{k[2:]}-{o}{b}-c{c}-w{w}" for k, o, b, c, w in CASES])
def test_reduction_in_emulator(kind: str, op: str, bits: int, cluster: int, wave: int) -> None:
    seed = CASES.index((kind, op, bits, cluster, wave))
    got, want = compile_and_run(kind, op, bits, cluster, wave, seed)
    bad = np.flatnonzero(
        (got.view(np.uint8).reshape(N, -1) != want.view(np.uint8).reshape(N, -1)).any(1))
    assert bad.size == 0, f"lanes {bad[:8].tolist()}: got {got[bad[:8]]}, want {want[bad[:8]]}"


def test_identities() -> None:
    assert identity_dwords(reduce_op_info("fmin32")) == [0x7F800000]
    assert identity_dwords(reduce_op_info("imax64")) == [0, 0x80000000]
    assert identity_dwords(reduce_op_info("fadd32")) == [0x80000000]  # -0.0
    assert identity_dwords(reduce_op_info("imul64")) == [1, 0]
    with pytest.raises(KeyError):
        reduce_op_info("imul16")


def test_setup_reduce_temp_places_linear_vgprs_in_top_level_blocks() -> None:
    p = parse_program(program_text("p_inclusive_scan", "iadd", 32, 32, 32), "red.ir")
    setup_reduce_temp(p)
    text = print_program(p)
    b0 = text.split("\nBB1\n")[0]
    assert b0.count("p_start_linear_vgpr") == 2  # tmp and vtmp, before BB0's branch
    assert b0.rstrip().splitlines()[-1].strip().startswith("p_cbranch_z")
    last = text.split("\nBB6\n")[1]
    assert last.count("p_end_linear_vgpr") == 2
    red = next(i for _, i in p.instructions() if i.opcode == "p_inclusive_scan")
    assert all(o.rc is not None and o.rc.linear and not o.is_undef for o in red.operands[1:])


def test_small_cluster_needs_no_vtmp() -> None:
    p = parse_program(program_text("p_reduce", "iadd", 32, 4, 32), "red.ir")
    setup_reduce_temp(p)
    red = next(i for _, i in p.instructions() if i.opcode == "p_reduce")
    assert not red.operands[1].is_undef and red.operands[2].is_undef


def test_wave64_exclusive_scan_sequence() -> None:
    """The shape of the lowering (ACO's): WWM, identity fill, shift by one lane with the
    row and half boundaries patched, row_shr steps, row 1/3 and upper-half fix-ups."""
    p = parse_program(program_text("p_exclusive_scan", "iadd", 32, 64, 64), "red.ir")
    run_pipeline(p, DebugOptions.parse("validateir,validatera"), stop_after="lower_to_hw",
                 stream=io.StringIO())
    assert_ir_matches(p, """
        s2: s[#sv-#sv1], s1: scc, s2: exec = s_or_saveexec_b64 -1_b64, s2: exec
        >> v1: v[#t] = v_cndmask_b32_e64 0, v1: v[#src], s2: s[#sv-#sv1]
        >> v1: v[#vt] = v_mov_b32 v1: v[#t] row_shr:1 row_mask:15 bank_mask:15 bound_ctrl:1
        >> s1: exec = s_mov_b32 0x10000
        >> s1: s[127] = s_mov_b32 0x10000
        >> v1: v[#vt] = v_permlanex16_b32 v1: v[#t], -1, -1, v1: v[#vt] op_sel:[1,0]
        >> s2: exec = s_mov_b64 -1_b64
        >> s1: s[#si] = v_readlane_b32 v1: v[#t], 31
        >> v1: v[#vt] = v_writelane_b32 s1: s[#si], 32, v1: v[#vt]
        >> v1: v[#vt] = v_add_nc_u32 v1: v[#vt], v1: v[#vt] row_shr:1 row_mask:15 bank_mask:15
        v1: v[#vt] = v_add_nc_u32 v1: v[#vt], v1: v[#vt] row_shr:8 row_mask:15 bank_mask:15
        >> s1: exec = s_mov_b32 0xffff0000
        >> s1: s[127] = s_mov_b32 0xffff0000
        >> v1: v[#t] = v_permlanex16_b32 v1: v[#vt], -1, -1, v1: v[#t] op_sel:[1,0]
        >> v1: v[#vt] = v_add_nc_u32 v1: v[#t], v1: v[#vt]
        >> s1: exec = s_mov_b32 0
        >> s1: s[127] = s_mov_b32 -1
        >> s1: s[#si] = v_readlane_b32 v1: v[#vt], 31
        >> v1: v[#vt] = v_add_nc_u32 s1: s[#si], v1: v[#vt]
        >> s2: exec = s_mov_b64 s2: s[#sv-#sv1]
        >> v1: v[#dst] = v_mov_b32 v1: v[#vt]
    """)


def test_wave32_whole_reduce_reads_the_last_lane() -> None:
    p = parse_program(program_text("p_reduce", "fmax", 32, 32, 32), "red.ir")
    run_pipeline(p, DebugOptions.parse("validateir,validatera"), stop_after="lower_to_hw",
                 stream=io.StringIO())
    assert_ir_matches(p, """
        s1: s[#sv], s1: scc, s1: exec = s_or_saveexec_b32 -1, s1: exec
        >> v1: v[#t] = v_cndmask_b32_e64 0xff800000, v1: v[#src], s1: s[#sv]
        >> v1: v[#t] = v_max_f32 v1: v[#t], v1: v[#t] quad_perm:[1,0,3,2] row_mask:15 bank_mask:15
        >> v1: v[#t] = v_max_f32 v1: v[#t], v1: v[#t] quad_perm:[2,3,0,1] row_mask:15 bank_mask:15
        >> v1: v[#t] = v_max_f32 v1: v[#t], v1: v[#t] row_half_mirror row_mask:15 bank_mask:15
        >> v1: v[#t] = v_max_f32 v1: v[#t], v1: v[#t] row_mirror row_mask:15 bank_mask:15
        >> v1: v[#vt] = v_permlanex16_b32 v1: v[#t], 0, 0, v1: v[#vt]
        >> v1: v[#t] = v_max_f32 v1: v[#vt], v1: v[#t]
        >> s1: exec = s_mov_b32 s1: s[#sv]
        >> s1: s[#d] = v_readlane_b32 v1: v[#t], 31
    """)


REGRESSIONS = Path(__file__).parent / "reductions"


def test_linear_vgpr_not_moved_over_values_of_other_lanes() -> None:
    text = (REGRESSIONS / "ra_linear_vgpr_moved_over_else_value.ir").read_text()
    p = parse_program(text, "ra_lv.ir")
    run_pipeline(p, DebugOptions.parse("validateir,validatera"), stream=io.StringIO())
    obj = emit_code_object(p, emit_program(p),
                           kernel_args(["out:buffer", "x:buffer", "act:buffer"]))
    rng = np.random.default_rng(1)
    x = rng.integers(0, 1000, N).astype(np.uint32)
    act = (rng.random(N) < 0.5).astype(np.uint32)
    res = load(obj).run("red", groups=GROUPS, block=BLOCK,
                        args={"out": np.zeros(N, np.uint32), "x": x, "act": act},
                        wave_size=32, strict=True)
    els = act == 0
    np.testing.assert_array_equal(res.buffers["out"][els], x[els] + 0x1000)
