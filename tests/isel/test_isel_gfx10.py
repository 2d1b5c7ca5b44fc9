"""Instruction selection for GFX10.3 and GFX10.1 through the internal API (`radcc compile`
still refuses them: running their code is the RDNA2 issue's).

isel names instructions canonically and the Builder asks the target's opcode table, so
selecting a shader of the GLSL suite (tests/e2e/glsl) for gfx1030 / gfx1010 gives only
instructions that generation has; the back end then prints each in the generation's
spelling, and llvm-mc-19 for that chip accepts the kernel. An instruction the chip lacks
is refused naming it and the chip.
"""

from __future__ import annotations

import dataclasses
import subprocess

import pytest

from radcc.driver.llc import kernel_asm
from radcc.frontend.divergence import divergence_analysis
from radcc.frontend.opt import lower_for_isel
from radcc.frontend.spirv_to_mir import spirv_to_mir
from radcc.isa.table import get_table
from radcc.isel import UnsupportedError, select_program
from radcc.isel.select import IselResult
from radcc.oracle import llvm_mc
from radcc.passes.emit_program import emit_program
from radcc.passes.manager import run_pipeline
from radcc.target import get_target
from tests.e2e.glsl.cases import CASES
from tests.e2e.glsl_harness import compile_case

BY_NAME = {c.name: c for c in CASES}
# a sample across the suite's categories (ALU, memory and LDS, atomics, control flow,
# subgroups, spilling)
SAMPLE = ["arith_i64", "arith_f16", "std450_pack", "bitops_small", "layout_std140_ubo",
          "push_constants_16bit", "shared_transpose", "atomic_shared", "cf_nested_divergent",
          "local_arrays", "sg_reduce", "sg_shuffle", "spill_vgpr"]
# (wave64 p_bpermute, which crosses the halves with GFX11's v_permlane64_b32, swaps them
# lane by lane on GFX10: tests/passes/test_bpermute_gfx10.py; VGPR spilling on GFX10.1,
# which has no flat scratch ST mode, addresses its slots from an SGPR base)


def _select(name: str, mcpu: str, wave: int) -> IselResult:
    case = BY_NAME[name]
    target = get_target(mcpu)
    shader = spirv_to_mir(compile_case(case), spec=case.spec or None)
    lower_for_isel(shader, target.mir_options, wave)
    divergence_analysis(shader)
    return select_program(shader, target, wave, shader.entry or "main")


@pytest.mark.parametrize("mcpu,wave", [("gfx1030", 32), ("gfx1030", 64), ("gfx1010", 32)])
@pytest.mark.parametrize("name", SAMPLE)
def test_isel_for_gfx10_assembles_with_llvm_mc(name: str, mcpu: str, wave: int):
    llvm_mc.require()
    res = _select(name, mcpu, wave)
    p = res.program
    table = get_table(p.gfx_level)
    ops = {i.opcode for b in p.blocks for i in b.instructions if not i.is_pseudo}
    assert ops and all(table.has(op) for op in ops), sorted(o for o in ops if not table.has(o))
    run_pipeline(p)
    asm = kernel_asm(p, emit_program(p), None)
    attrs = ["-mattr=+wavefrontsize64"] if wave == 64 else []
    r = subprocess.run([llvm_mc.LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}", *attrs,
                        "-o", "/dev/null"], input=asm, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[:2000]


def test_ds_cmpst_before_gfx11():
    """LDS compare-exchange: GFX11's ds_cmpstore_rtn_b32 takes (new, compare), GFX10's
    ds_cmpst_rtn_b32 (compare, new) (RDNA2/RDNA3 ISA guides)."""
    def cmpxchg(mcpu: str):
        p = _select("atomic_shared", mcpu, 32).program
        return [i for b in p.blocks for i in b.instructions if i.opcode.startswith("ds_cmpst")]

    new, old = cmpxchg("gfx1100"), cmpxchg("gfx1030")
    assert new and old and len(new) == len(old)
    for a, b in zip(new, old, strict=True):
        assert a.opcode == "ds_cmpstore_rtn_b32" and b.opcode == "ds_cmpst_rtn_b32"
        # the same two values, swapped (temp numbers differ by an offset: GFX10 defines a
        # VGPR per local id dimension at entry, docs/abi.md; compare their distance)
        (a1, a2), (b1, b2) = ([o.temp.id for o in x.operands[1:]] for x in (a, b))
        assert a1 - a2 == b2 - b1 != 0


def test_instruction_the_chip_lacks_is_refused():
    """GFX10.3 has no global_atomic_add_f32 (RDNA2 ISA guide: FLAT atomics; LLVM's
    FeatureAtomicFaddNoRtnInsts is GFX90A+/GFX11): lower_atomics makes the add a
    compare-and-swap loop; given the add anyway (options without cas_atomics), isel refuses
    it naming the instruction and the chip."""
    p = _select("atomic_float", "gfx1030", 32).program
    ops = {i.opcode for b in p.blocks for i in b.instructions}
    assert "global_atomic_cmpswap_b32" in ops and "global_atomic_add_f32" not in ops
    case = BY_NAME["atomic_float"]
    target = get_target("gfx1030")
    shader = spirv_to_mir(compile_case(case), spec=case.spec or None)
    lower_for_isel(shader, dataclasses.replace(target.mir_options, cas_atomics=frozenset()), 32)
    divergence_analysis(shader)
    with pytest.raises(UnsupportedError, match=r"global_atomic_add_f32 does not exist on "
                                                 r"gfx1030"):
        select_program(shader, target, 32, shader.entry or "main")
