"""insert_nops: the GFX10 hazards of ACO's README-ISA.md "RDNA / GFX10 hazards",
each triggered (the mitigation is inserted), already mitigated (nothing is
inserted, for each listed mitigation), absent on a target without the hazard
(gfx1030, gfx1100), across a branch/merge and around a loop, and idempotent.

Expected mitigations are the seed's and ACO's: ``s_waitcnt_depctr 0xffe3``
(VMEMtoScalarWrite), ``0xfffe`` (VcmpxExecWAR), ``s_mov_b32 null, 0``
(SMEMtoVectorWrite), ``s_waitcnt_vscnt null, 0x0`` (LdsBranchVmemWAR),
``s_waitcnt lgkmcnt(0)`` (SMEM store then load) whose GFX10 SIMM16 is asked of
llvm-mc-19 -mcpu=gfx1010; a v_mov_b32 of the permlane source (VcmpxPermlane).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

import pytest
from waitcnt_util import assert_listing, listing

from radcc.ir.parser import parse_program
from radcc.ir.program import Program
from radcc.passes.hazards_gfx10 import HazardError
from radcc.passes.insert_nops import insert_nops

DEPCTR_VM = "s_waitcnt_depctr simm16:65507"  # 0xffe3: vm_vsrc(0), the seed/ACO value
DEPCTR_SA = "s_waitcnt_depctr simm16:65534"  # 0xfffe: sa_sdst(0)
SMOV = "s1: null = s_mov_b32 0"
VSCNT0 = "s_waitcnt_vscnt s1: null simm16:0"
TOP = "logical preds: / linear preds: / kind: top-level,"


@cache
def llvm_simm16(text: str, mcpu: str = "gfx1010") -> int:
    """The SIMM16 llvm-mc-19 encodes for a SOPP line (the low half of its word)."""
    if shutil.which("llvm-mc-19") is None:
        pytest.skip("llvm-mc-19 not installed")
    out = subprocess.run(["llvm-mc-19", "-triple=amdgcn", f"-mcpu={mcpu}", "-show-encoding"],
                         input=text + "\n", capture_output=True, text=True, check=True).stdout
    enc = out.split("encoding: [")[1].split("]")[0].split(",")
    return int(enc[0], 16) | int(enc[1], 16) << 8


def waitcnt(text: str) -> str:
    return f"s_waitcnt simm16:{llvm_simm16('s_waitcnt ' + text)}"


def prog(*blocks: tuple[str, str], cpu: str = "gfx1010", wave: int = 32) -> Program:
    text = f"program {cpu} wave{wave} compute\n"
    for i, (hdr, body) in enumerate(blocks):
        text += f"BB{i}\n/* {hdr} */\n" + body
    return parse_program(text)


def run(p: Program) -> Program:
    insert_nops(p)
    return p


def single(body: str, cpu: str = "gfx1010", wave: int = 32) -> Program:
    return run(prog((TOP, body), cpu=cpu, wave=wave))


def unchanged(body: str, cpu: str = "gfx1010", wave: int = 32) -> None:
    assert_listing(single(body, cpu, wave), "BB0\n" + body)


END = "   s_endpgm\n"
IF_ELSE = [
    "logical preds: / linear preds: / kind: top-level, branch,",
    "logical preds: BB0, / linear preds: BB0, / kind: uniform,",
    "logical preds: BB0, / linear preds: BB0, / kind: uniform,",
    "logical preds: BB1, BB2, / linear preds: BB1, BB2, / kind: top-level, merge,",
]
LOOP = [
    "logical preds: / linear preds: / kind: top-level,",
    "logical preds: BB0, BB2, / linear preds: BB0, BB2, / kind: loop-header, loop depth: 1,",
    "logical preds: BB1, / linear preds: BB1, / kind: uniform, loop depth: 1,",
    "logical preds: BB2, / linear preds: BB2, / kind: top-level, loop-exit,",
]


# --- VMEMtoScalarWriteHazard ----------------------------------------------------------

GLOAD = "   v1: v[0] = global_load_b32 v2: v[2-3], s2: s[4-5]\n"
GSTORE = "   global_store_b32 v2: v[2-3], v1: v[1], s2: s[4-5]\n"
SWRITE = "   s2: s[4-5] = s_mov_b64 s2: s[8-9]\n"


def test_vmem_sgpr_then_salu_write_gets_depctr():
    p = single(GLOAD + SWRITE + END)
    assert_listing(p, f"BB0\n{GLOAD}   {DEPCTR_VM}\n{SWRITE}{END}")


def test_vmem_sgpr_then_smem_write_gets_depctr():
    load = "   v1: v[0] = buffer_load_b32 v1: v[1], s4: s[0-3], s1: s[8]\n"
    smem = "   s1: s[8] = s_load_b32 s2: s[10-11], 0\n"
    p = single(load + smem + END)
    assert_listing(p, f"BB0\n{load}   {DEPCTR_VM}\n{smem}{END}")


def test_ds_then_exec_write_gets_depctr():
    # every vector memory access reads EXEC
    ds = "   ds_store_b32 v1: v[1], v1: v[2]\n"
    ew = "   s1: exec = s_mov_b32 s1: s[8]\n"
    p = single(ds + ew + END)
    assert_listing(p, f"BB0\n{ds}   {DEPCTR_VM}\n{ew}{END}")


@pytest.mark.parametrize("between", [
    "   v1: v[9] = v_mov_b32 0\n",  # any VALU
    "   s_waitcnt_depctr simm16:65507\n",  # already mitigated
    "vmcnt(0)",  # the load finished
], ids=["valu", "depctr", "vmcnt"])
def test_vmem_to_scalar_already_mitigated(between):
    if between == "vmcnt(0)":
        between = f"   {waitcnt('vmcnt(0)')}\n"
    unchanged(GLOAD + between + SWRITE + END)


def test_store_needs_vscnt_not_vmcnt():
    vm0 = f"   {waitcnt('vmcnt(0)')}\n"
    p = single(GSTORE + vm0 + SWRITE + END)
    assert f"{vm0}   {DEPCTR_VM}\n{SWRITE}" in listing(p)
    unchanged(GSTORE + f"   {VSCNT0}\n" + SWRITE + END)


def test_ds_needs_lgkmcnt():
    ds = "   ds_store_b32 v1: v[1], v1: v[2]\n"
    ew = "   s1: exec = s_mov_b32 s1: s[8]\n"
    unchanged(ds + f"   {waitcnt('lgkmcnt(0)')}\n" + ew + END)


def test_v_nop_does_not_mitigate_vmem_to_scalar():
    p = single(GLOAD + "   v_nop\n" + SWRITE + END)
    assert f"   v_nop\n   {DEPCTR_VM}\n{SWRITE}" in listing(p)


def test_other_sgpr_written_is_fine():
    unchanged(GLOAD + "   s2: s[6-7] = s_mov_b64 s2: s[8-9]\n" + END)


@pytest.mark.parametrize("cpu", ["gfx1030", "gfx1100"])
def test_vmem_to_scalar_not_on_other_targets(cpu):
    load = GLOAD
    unchanged(load + SWRITE + END, cpu=cpu)


def test_vmem_to_scalar_across_a_merge():
    p = run(prog(
        (IF_ELSE[0], "   s_cbranch_scc0 BB2\n"),
        (IF_ELSE[1], GLOAD + "   s_branch BB3\n"),
        (IF_ELSE[2], "   v1: v[9] = v_mov_b32 0\n"),
        (IF_ELSE[3], SWRITE + END)))
    assert f"BB3\n   {DEPCTR_VM}\n{SWRITE}" in listing(p)


def test_vmem_to_scalar_around_a_loop():
    # the latch reads s[4-5] with a load, the header overwrites them
    p = run(prog(
        (LOOP[0], "   s_nop simm16:0\n"),
        (LOOP[1], SWRITE),
        (LOOP[2], GLOAD + "   s_cbranch_scc0 BB1\n"),
        (LOOP[3], END)))
    assert_listing(p, f"""
BB0
   s_nop simm16:0
BB1
   {DEPCTR_VM}
{SWRITE}BB2
{GLOAD}   s_cbranch_scc0 BB1
BB3
{END}""")


# --- SMEMtoVectorWriteHazard -------------------------------------------------------------

SLOAD = "   s1: s[20] = s_load_b32 s2: s[0-1], 0\n"
VWRITE = "   s1: s[0] = v_readfirstlane_b32 v1: v[0]\n"


def test_smem_sgpr_then_valu_write_gets_s_mov_null():
    p = single(SLOAD + VWRITE + END)
    assert_listing(p, f"BB0\n{SLOAD}   {SMOV}\n{VWRITE}{END}")


def test_vopc_writing_smem_offset_sgpr():
    load = "   s1: s[20] = s_buffer_load_b32 s4: s[4-7], s1: s[8]\n"
    cmp = "   s1: s[8] = v_cmp_eq_u32_e64 v1: v[0], v1: v[1]\n"
    p = single(load + cmp + END)
    assert f"{load}   {SMOV}\n{cmp}" in listing(p)


@pytest.mark.parametrize("between", [
    "   s1: s[30] = s_mov_b32 0\n",  # a non-SOPP SALU
    "lgkmcnt(0)",
    f"   {SMOV}\n",  # already mitigated
], ids=["salu", "lgkmcnt", "s_mov_null"])
def test_smem_to_vector_already_mitigated(between):
    if between == "lgkmcnt(0)":
        between = f"   {waitcnt('lgkmcnt(0)')}\n"
    unchanged(SLOAD + between + VWRITE + END)


@pytest.mark.parametrize("between", [
    "   s_nop simm16:0\n",  # SOPP
    "vmcnt(0)",  # a non-lgkmcnt s_waitcnt
    "   s_version simm16:0\n",  # the seed's exception
    "   v1: v[9] = v_mov_b32 0\n",  # a VALU is no mitigation
], ids=["s_nop", "vmcnt", "s_version", "valu"])
def test_smem_to_vector_not_mitigated_by(between):
    if between == "vmcnt(0)":
        between = f"   {waitcnt('vmcnt(0)')}\n"
    p = single(SLOAD + between + VWRITE + END)
    assert f"   {SMOV}\n{VWRITE}" in listing(p)


def test_valu_writing_other_sgpr_is_fine():
    unchanged(SLOAD + "   s1: s[3] = v_readfirstlane_b32 v1: v[0]\n" + END)


def test_smem_to_vector_not_on_gfx1030():
    unchanged(SLOAD + VWRITE + END, cpu="gfx1030")


# --- VcmpxExecWARHazard ---------------------------------------------------------------

EXEC_RD = "   s1: s[6] = s_mov_b32 s1: exec\n"
CMPX = "   v_cmpx_eq_u32 v1: v[0], v1: v[1]\n"


def test_exec_read_then_vcmpx_gets_depctr():
    p = single(EXEC_RD + CMPX + END)
    assert_listing(p, f"BB0\n{EXEC_RD}   {DEPCTR_SA}\n{CMPX}{END}")


def test_exec_read_by_cbranch_then_vcmpx_in_the_successor():
    p = run(prog(
        (IF_ELSE[0], "   s_cbranch_execz BB2\n"),
        (IF_ELSE[1], CMPX),
        ("logical preds: BB1, / linear preds: BB1, BB0, / kind: top-level, merge,", END)))
    assert f"BB1\n   {DEPCTR_SA}\n{CMPX}" in listing(p)


@pytest.mark.parametrize("between", [
    "   s1: vcc = v_cmp_eq_u32 v1: v[0], v1: v[1]\n",  # a VALU writing an SGPR
    f"   {DEPCTR_SA}\n",
], ids=["valu-sgpr", "depctr"])
def test_exec_war_already_mitigated(between):
    unchanged(EXEC_RD + between + CMPX + END)


def test_valu_without_sgpr_write_does_not_mitigate_exec_war():
    p = single(EXEC_RD + "   v1: v[9] = v_mov_b32 0\n" + CMPX + END)
    assert f"   {DEPCTR_SA}\n{CMPX}" in listing(p)


def test_exec_war_not_on_gfx1030():
    unchanged(EXEC_RD + CMPX + END, cpu="gfx1030")


# --- VcmpxPermlaneHazard (GFX10) ---------------------------------------------------------

PERM = "   v1: v[2] = v_permlane16_b32 v1: v[3], s1: s[0], s1: s[1]\n"


def test_vcmpx_then_permlane_on_gfx1010():
    p = single(CMPX + PERM + END)
    assert_listing(p, f"BB0\n{CMPX}   v1: v[3] = v_mov_b32 v1: v[3]\n{PERM}{END}")
    unchanged(CMPX + "   v1: v[9] = v_mov_b32 0\n" + PERM + END)
    unchanged(CMPX + PERM + END, cpu="gfx1030")


# --- LdsBranchVmemWARHazard --------------------------------------------------------------

DSR = "   v1: v[5] = ds_load_b32 v1: v[6]\n"
BSTORE = "   buffer_store_b32 v1: v[1], v1: v[2], s4: s[0-3], 0\n"
BRANCH = [
    "logical preds: / linear preds: / kind: top-level,",
    "logical preds: BB0, / linear preds: BB0, / kind: top-level,",
]


def test_vmem_branch_ds_gets_vscnt():
    p = run(prog((BRANCH[0], GLOAD + "   s_branch BB1\n"), (BRANCH[1], DSR + END)))
    assert_listing(p, f"BB0\n{GLOAD}   s_branch BB1\nBB1\n   {VSCNT0}\n{DSR}{END}")


def test_ds_branch_vmem_gets_vscnt():
    ds = "   ds_store_b32 v1: v[1], v1: v[2]\n"
    p = run(prog((BRANCH[0], ds + "   s_branch BB1\n"), (BRANCH[1], BSTORE + END)))
    assert_listing(p, f"BB0\n{ds}   s_branch BB1\nBB1\n   {VSCNT0}\n{BSTORE}{END}")


@pytest.mark.parametrize("name,first,second", [
    ("vscnt", GLOAD + "   s_branch BB1\n", f"   {VSCNT0}\n" + DSR),
    ("no-branch", GLOAD, DSR),  # falls through: no branch in between
    ("same-kind-after-branch", GLOAD + "   s_branch BB1\n", GLOAD + DSR),
    ("ds-before-branch", GLOAD + DSR + "   s_branch BB1\n", DSR),
])
def test_lds_branch_vmem_not_triggered(name, first, second):
    p = prog((BRANCH[0], first), (BRANCH[1], second + END))
    before = listing(p)
    assert listing(run(p)) == before


def test_vscnt_nonzero_does_not_mitigate():
    p = run(prog((BRANCH[0], GLOAD + "   s_branch BB1\n"),
                 (BRANCH[1], "   s_waitcnt_vscnt s1: null simm16:1\n" + DSR + END)))
    assert f"   {VSCNT0}\n{DSR}" in listing(p)


def test_lds_branch_vmem_around_a_loop():
    # DS in the body, a VMEM at the top of the header: the back edge is the branch
    p = run(prog(
        (LOOP[0], "   s_nop simm16:0\n"),
        (LOOP[1], BSTORE),
        (LOOP[2], DSR + "   s_cbranch_scc0 BB1\n"),
        (LOOP[3], END)))
    assert f"BB1\n   {VSCNT0}\n{BSTORE}" in listing(p)


def test_lds_branch_vmem_not_on_gfx1030():
    p = prog((BRANCH[0], GLOAD + "   s_branch BB1\n"), (BRANCH[1], DSR + END), cpu="gfx1030")
    before = listing(p)
    assert listing(run(p)) == before


# --- SMEM store then load --------------------------------------------------------------------

SSTORE = "   s_store_dword s1: s[10], s2: s[2-3], 0\n"
SLOAD2 = "   s1: s[11] = s_load_b32 s2: s[2-3], 0\n"


def test_smem_store_then_load_waits_lgkmcnt0():
    p = single(SSTORE + SLOAD2 + END)
    assert_listing(p, f"BB0\n{SSTORE}   {waitcnt('lgkmcnt(0)')}\n{SLOAD2}{END}")


def test_smem_store_load_already_waited():
    unchanged(SSTORE + f"   {waitcnt('lgkmcnt(0)')}\n" + SLOAD2 + END)


def test_smem_store_load_nop_is_no_mitigation():
    # the seed: an s_nop does not help
    p = single(SSTORE + "   s_nop simm16:0\n" + SLOAD2 + END)
    assert f"   s_nop simm16:0\n   {waitcnt('lgkmcnt(0)')}\n{SLOAD2}" in listing(p)


# --- bugs rejected with a clear error -----------------------------------------------------

@pytest.mark.parametrize("hazard,body,needle", [
    ("InstFwdPrefetchBug", "   s_inst_prefetch simm16:1\n", "s_inst_prefetch"),
    ("FlatSegmentOffsetBug", "   v1: v[0] = flat_load_b32 v2: v[2-3] offset:16\n",
     "flat_load_b32"),
])
def test_unmitigable_bugs_are_rejected(hazard, body, needle):
    with pytest.raises(HazardError) as e:
        single("   s_nop simm16:0\n" + body + END)
    msg = str(e.value)
    assert hazard in msg and "BB0" in msg and needle in msg and "instruction 1" in msg


def _sample(addrs: list[int]) -> str:
    a = ", ".join(f"v1: v[{r}]" for r in addrs)
    return f"   v1: v[0] = image_sample {a}, s8: s[0-7], s4: s[8-11] dmask:1 dim:1\n"


NSA3 = _sample([2, 5, 7])  # non-sequential addresses: NSA
NSA6 = _sample([2, 5, 7, 9, 11, 13])


def test_nsa_in_a_hard_clause_is_rejected():
    with pytest.raises(HazardError) as e:
        single("   s_clause simm16:1\n" + NSA3 + _sample([20]) + END)
    assert "NSAClauseBug" in str(e.value) and "BB0 instruction 1 'image_sample'" in str(e.value)


def test_nsa_beyond_five_addresses_is_rejected():
    with pytest.raises(HazardError) as e:
        single(NSA6 + END)
    assert "NSAMaxSize5" in str(e.value) and "has 6" in str(e.value)


@pytest.mark.parametrize("body", [
    NSA3,  # NSA, 5 or fewer addresses, no clause
    "   s_clause simm16:1\n" + _sample([2, 3, 4]) + _sample([20]),  # sequential: not NSA
    "   s_clause simm16:0\n" + _sample([20]) + "   s_nop simm16:0\n" + NSA3,  # after it
], ids=["nsa-3", "sequential-in-clause", "after-clause"])
def test_nsa_allowed(body):
    unchanged(body + END)


def test_nsa_bugs_not_on_gfx1030():
    unchanged("   s_clause simm16:1\n" + NSA6 + _sample([20]) + END, cpu="gfx1030")


@pytest.mark.parametrize("body", [
    "   s_set_inst_prefetch_distance simm16:1\n",
    "   v1: v[0] = flat_load_b32 v2: v[2-3] offset:16\n",
    "   v2: v[0-1] = flat_load_b64 v2: v[2-3]\n",
])
def test_gfx1030_has_none_of_those_bugs(body):
    unchanged(body + END, cpu="gfx1030")


def test_multi_dword_flat_is_left_to_cu_mode():
    # LdsMisalignedBug is mitigated by the kernel's CU mode (kernel_abi.kernel_fields,
    # tests/passes/test_gfx10_cumode.py), not by insert_nops
    unchanged("   v2: v[0-1] = flat_load_b64 v2: v[2-3]\n"
              "   flat_store_b128 v2: v[2-3], v4: v[4-7]\n" + END)


def test_flat_single_dword_without_offset_is_fine():
    unchanged("   v1: v[0] = flat_load_b32 v2: v[2-3]\n   v1: v[9] = v_mov_b32 0\n" + END)


# --- properties ----------------------------------------------------------------------------

def test_program_end_without_endpgm_resolves_everything():
    hdr = "logical preds: / linear preds: / kind: top-level, end-with-regs,"
    p = run(prog((hdr, EXEC_RD + SLOAD + GLOAD + SSTORE + "   s_branch BB1\n"),
                 ("logical preds: BB0, / linear preds: BB0, / kind: top-level, end-with-regs,",
                  "   s_nop simm16:0\n")))
    tail = listing(p).split("\nBB1\n")[1]
    # SGPRs read by the load and the SMEM, EXEC read, VMEM before a branch, store pending
    assert "s_waitcnt_depctr simm16:65506\n" in tail  # 0xffe3 & 0xfffe
    assert SMOV in tail and VSCNT0 in tail and waitcnt("lgkmcnt(0)") in tail


def test_running_twice_changes_nothing():
    body = (GLOAD + SWRITE + SLOAD + VWRITE + EXEC_RD + CMPX + PERM + SSTORE + SLOAD2
            + "   s_branch BB1\n")
    p = prog((BRANCH[0], body), (BRANCH[1], DSR + END))
    run(p)
    once = listing(p)
    run(p)
    assert listing(p) == once
    assert once.count("s_waitcnt_depctr") == 2 and SMOV in once and VSCNT0 in once


# --- Offset3fBug (emit_program) --------------------------------------------------------------

def _nops(n: int) -> str:
    return "   s_nop simm16:0\n" * n


def _branch_prog(cpu: str, blocks: list[tuple[str, str]]) -> Program:
    return prog(*blocks, cpu=cpu)


def _llvm_bytes(asm: str, mcpu: str) -> bytes:
    """The .text llvm-mc-19 assembles from radcc's assembly text (labels resolved by
    llvm-mc; for gfx1010 its own Offset3fBug relaxation would also apply)."""
    if shutil.which("llvm-mc-19") is None or shutil.which("llvm-objcopy-19") is None:
        pytest.skip("llvm-mc-19/llvm-objcopy-19 not installed")
    with tempfile.TemporaryDirectory() as d:
        obj, raw = Path(d) / "a.o", Path(d) / "a.bin"
        subprocess.run(["llvm-mc-19", "-triple=amdgcn", f"-mcpu={mcpu}", "--filetype=obj",
                        "-o", str(obj)], input=asm, text=True, check=True)
        subprocess.run(["llvm-objcopy-19", "-O", "binary", "--only-section=.text", str(obj),
                        str(raw)], check=True)
        return raw.read_bytes()


def _simm16(code: bytes, word: int) -> int:
    return int.from_bytes(code[4 * word:4 * word + 2], "little")


ONE_BRANCH = [
    ("logical preds: / linear preds: / kind: top-level, branch,", "   s_cbranch_scc0 BB2\n"),
    ("logical preds: BB0, / linear preds: BB0, / kind: uniform,", _nops(63)),
    ("logical preds: BB0, BB1, / linear preds: BB0, BB1, / kind: top-level, merge,", END),
]


def test_branch_with_offset_3f_gets_a_nop_after_it_on_gfx1010():
    from radcc.passes.emit_program import emit_program

    r = emit_program(_branch_prog("gfx1010", ONE_BRANCH))
    code = r.code[:r.code_size]
    # 63 nops between the branch and its target: SIMM16 would be 0x3f; with one
    # s_nop 0 (0xbf800000) right after the branch it is 0x40
    assert r.offset3f_nops == 1
    assert _simm16(code, 0) == 0x40
    assert code[4:8] == (0xBF800000).to_bytes(4, "little")
    assert r.asm.split("\n")[1:3] == ["\ts_cbranch_scc0 BB2", "\ts_nop 0"]
    assert r.code_size == 4 * (1 + 1 + 63 + 1)
    assert _llvm_bytes(r.asm, "gfx1010") == code


@pytest.mark.parametrize("cpu", ["gfx1030", "gfx1100"])
def test_offset_3f_is_left_alone_without_the_bug(cpu):
    from radcc.passes.emit_program import emit_program

    r = emit_program(_branch_prog(cpu, ONE_BRANCH))
    assert r.offset3f_nops == 0 and _simm16(r.code, 0) == 0x3F
    assert _llvm_bytes(r.asm, cpu) == r.code[:r.code_size]


def test_offset_3f_padding_iterates_to_a_fixed_point():
    """A (word 0) jumps to word 63 (SIMM16 62), B (word 1) to word 65 (SIMM16 63):
    the nop after B moves A's target, making A's SIMM16 63 in turn; both end at
    0x40 with a nop after each."""
    from radcc.passes.emit_program import emit_program

    blocks = [
        ("logical preds: / linear preds: / kind: top-level, branch,", "   s_cbranch_scc0 BB3\n"),
        ("logical preds: BB0, / linear preds: BB0, / kind: uniform, branch,",
         "   s_cbranch_scc1 BB4\n"),
        # B's fall-through path: a block of its own (nothing follows a branch in its block)
        ("logical preds: BB1, / linear preds: BB1, / kind: uniform,", _nops(61)),
        ("logical preds: BB0, BB2, / linear preds: BB0, BB2, / kind: uniform,", _nops(2)),
        ("logical preds: BB1, BB3, / linear preds: BB1, BB3, / kind: top-level, merge,", END),
    ]
    r = emit_program(_branch_prog("gfx1010", blocks))
    code = r.code[:r.code_size]
    assert r.offset3f_nops == 2
    words = [int.from_bytes(code[i:i + 4], "little") for i in range(0, len(code), 4)]
    assert _simm16(code, 0) == 0x40 and words[1] == 0xBF800000
    assert _simm16(code, 2) == 0x40 and words[3] == 0xBF800000
    assert _llvm_bytes(r.asm, "gfx1010") == code


# --- end to end: radcc llc --mcpu=gfx1010 -S, checked by llvm-mc-19 -mcpu=gfx1010 ----------

HAZARD_PROGRAM = """\
program gfx1010 wave32 compute name:haz
BB0
/* logical preds: / linear preds: / kind: top-level, */
   s2: %1:s[0-1], s1: %2:s[2], v1: %3:v[0] = p_startpgm
   p_logical_start
   s2: %4:s[4-5] = s_load_b64 %1:s[0-1], 0
   s1: %5:s[0] = v_readfirstlane_b32 %3:v[0]
   v1: %6:v[1] = v_lshlrev_b32 2, %3:v[0]
   v1: %7:v[2] = global_load_b32 %6:v[1], %4:s[4-5]
   s2: %8:s[4-5] = s_mov_b64 0
   s1: %9:s[7] = s_mov_b32 s1: exec
   v_cmpx_eq_u32 %6:v[1], %6:v[1]
   v1: %10:v[3] = v_permlane16_b32 %7:v[2], %5:s[0], %5:s[0]
   p_logical_end
   s_endpgm
"""


def test_llc_gfx1010_output_is_accepted_by_llvm_mc(tmp_path):
    if shutil.which("llvm-mc-19") is None:
        pytest.skip("llvm-mc-19 not installed")
    src = tmp_path / "haz.ir"
    src.write_text(HAZARD_PROGRAM)
    out = tmp_path / "haz.s"
    subprocess.run([sys.executable, "-m", "radcc", "llc", "--mcpu=gfx1010", "-S", str(src),
                    "-o", str(out)], check=True, capture_output=True, text=True)
    text = out.read_text()
    code = text[text.index("haz:\n") + 5:text.index(".Lfunc_end0:")]
    lines = [ln.strip() for ln in code.splitlines() if ln.strip() and not ln.strip().endswith(":")]
    # the mitigations, in the order the hazards appear (seed/ACO spellings)
    order = [i for i, ln in enumerate(lines) if ln in (
        "s_mov_b32 null, 0", "s_waitcnt_depctr 0xffe3", "s_waitcnt_depctr 0xfffe",
        "v_mov_b32_e32 v2, v2")]
    assert [lines[i] for i in order] == ["s_mov_b32 null, 0", "s_waitcnt_depctr 0xffe3",
                                         "s_waitcnt_depctr 0xfffe", "v_mov_b32_e32 v2, v2"]
    assert lines[order[0] + 1].startswith("v_readfirstlane_b32 s0")
    assert lines[order[1] + 1] == "s_mov_b64 s[4:5], 0"
    assert lines[order[2] + 1].startswith("v_cmpx_eq_u32")
    assert lines[order[3] + 1].startswith("v_permlane16_b32")
    # llvm-mc accepts every instruction line for gfx1010 and prints it back the same
    res = subprocess.run(["llvm-mc-19", "-triple=amdgcn", "-mcpu=gfx1010"], input=code,
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    printed = [ln.strip() for ln in res.stdout.splitlines()
               if ln.strip() and not ln.strip().startswith(".") and not ln.strip().endswith(":")]
    assert printed == lines
