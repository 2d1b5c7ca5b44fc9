"""insert_nops: the GFX11 hazards of ACO's README-ISA.md, each triggered (the
mitigation is inserted) and already mitigated (nothing is inserted), in
straight-line code, across block joins and around loops.

Expected mitigations are the seed's: a non-v_nop VALU (VcmpxPermlane), the
LDSDIR's wait_vdst (LdsDirectVALU), s_waitcnt_depctr with vm_vsrc=0
(LdsDirectVMEM), va_vdst=0 (VALUTransUse, VALUPartialForwarding), sa_sdst=0
(VALUMaskWrite); distances as the seed states them.
"""

from __future__ import annotations

import pytest
from waitcnt_util import assert_listing, depctr, listing, program, single

from radcc.passes.insert_nops import insert_nops

VA_VDST0 = depctr(va_vdst=0)
VM_VSRC0 = depctr(vm_vsrc=0)
SA_SDST0 = depctr(sa_sdst=0)


def run(p):
    insert_nops(p)
    return p


def unchanged(body: str, wave: int = 32) -> None:
    p = run(single(body, wave))
    assert_listing(p, "BB0\n" + body)


def filler(n: int, first: int = 40) -> str:
    """n independent VALUs that touch none of the registers the tests use."""
    return "".join(f"   v1: v[{first + i}] = v_mov_b32 {i}\n" for i in range(n))


# --- VcmpxPermlaneHazard -----------------------------------------------------------

CMPX = "   v_cmpx_eq_u32 v1: v[0], v1: v[1]\n"
PERM = "   v1: v[2] = v_permlane16_b32 v1: v[3], s1: s[0], s1: s[1]\n"
MOV3 = "   v1: v[3] = v_mov_b32 v1: v[3]\n"


def test_vcmpx_then_permlane_gets_a_valu_between():
    p = run(single(CMPX + PERM + "   s_endpgm\n"))
    assert_listing(p, "BB0\n" + CMPX + MOV3 + PERM + "   s_endpgm\n")


def test_vcmpx_permlane_already_separated_by_a_valu():
    unchanged(CMPX + "   v1: v[9] = v_mov_b32 0\n" + PERM + "   s_endpgm\n")


def test_v_nop_does_not_separate_vcmpx_and_permlane():
    p = run(single(CMPX + "   v_nop\n" + PERM + "   s_endpgm\n"))
    assert_listing(p, "BB0\n" + CMPX + "   v_nop\n" + MOV3 + PERM + "   s_endpgm\n")


def test_vop3_compare_writing_exec_counts_as_vcmpx():
    cmp = "   s1: exec = v_cmp_eq_u32_e64 v1: v[0], v1: v[1]\n"
    p = run(single(cmp + PERM + "   s_endpgm\n"))
    assert_listing(p, "BB0\n" + cmp + MOV3 + PERM + "   s_endpgm\n")


def test_compare_writing_vcc_is_no_vcmpx():
    unchanged("   s1: vcc = v_cmp_eq_u32 v1: v[0], v1: v[1]\n" + PERM + "   s_endpgm\n")


IF_ELSE = [
    "logical preds: / linear preds: / kind: top-level, branch,",
    "logical preds: BB0, / linear preds: BB0, / kind: uniform,",
    "logical preds: BB0, / linear preds: BB0, / kind: uniform,",
    "logical preds: BB1, BB2, / linear preds: BB1, BB2, / kind: top-level, merge,",
]


def test_vcmpx_on_one_path_reaches_the_permlane_after_the_join():
    p = run(program(
        (IF_ELSE[0], "   s_cbranch_scc0 BB2\n"),
        (IF_ELSE[1], CMPX + "   s_branch BB3\n"),
        (IF_ELSE[2], "   v1: v[9] = v_mov_b32 0\n"),
        (IF_ELSE[3], PERM + "   s_endpgm\n")))
    assert f"BB3\n{MOV3}{PERM}" in listing(p)


def test_vcmpx_resolved_on_both_paths_before_the_join():
    p = program(
        (IF_ELSE[0], CMPX + "   s_cbranch_scc0 BB2\n"),
        (IF_ELSE[1], "   v1: v[8] = v_mov_b32 0\n   s_branch BB3\n"),
        (IF_ELSE[2], "   v1: v[9] = v_mov_b32 0\n"),
        (IF_ELSE[3], PERM + "   s_endpgm\n"))
    before = listing(p)
    assert listing(run(p)) == before


# --- LdsDirectVALUHazard ------------------------------------------------------------

def test_lds_direct_lowers_wait_vdst_to_the_valu_distance():
    p = run(single("   v1: v[5] = v_add_f32 v1: v[1], v1: v[2]\n" + filler(2)
                   + "   v1: v[1] = lds_direct_load wait_vdst:15\n   s_endpgm\n"))
    assert "v1: v[1] = lds_direct_load wait_vdst:2\n" in listing(p)


def test_lds_direct_right_after_the_valu_waits_for_all():
    p = run(single("   v1: v[5] = v_add_f32 v1: v[1], v1: v[2]\n"
                   "   v1: v[1] = lds_direct_load wait_vdst:15\n   s_endpgm\n"))
    assert "v1: v[1] = lds_direct_load wait_vdst:0\n" in listing(p)


def test_lds_direct_after_a_transcendental_waits_for_all():
    p = run(single("   v1: v[5] = v_add_f32 v1: v[1], v1: v[2]\n"
                   "   v1: v[6] = v_rcp_f32 v1: v[7]\n" + filler(3)
                   + "   v1: v[1] = lds_direct_load wait_vdst:15\n   s_endpgm\n"))
    assert "v1: v[1] = lds_direct_load wait_vdst:0\n" in listing(p)


@pytest.mark.parametrize("body", [
    # the field already low enough
    "   v1: v[5] = v_add_f32 v1: v[1], v1: v[2]\n" + filler(3)
    + "   v1: v[1] = lds_direct_load wait_vdst:2\n   s_endpgm\n",
    # the default field (0) waits for everything
    "   v1: v[5] = v_add_f32 v1: v[1], v1: v[2]\n   v1: v[1] = lds_direct_load\n   s_endpgm\n",
    # 15 VALUs in between: wait_vdst:15 is safe
    "   v1: v[5] = v_add_f32 v1: v[1], v1: v[2]\n" + filler(15)
    + "   v1: v[1] = lds_direct_load wait_vdst:15\n   s_endpgm\n",
    # a va_vdst(0) wait in between
    "   v1: v[5] = v_add_f32 v1: v[1], v1: v[2]\n   " + VA_VDST0 + "\n"
    + "   v1: v[1] = lds_direct_load wait_vdst:15\n   s_endpgm\n",
], ids=["field", "default", "far", "depctr"])
def test_lds_direct_valu_already_mitigated(body):
    unchanged(body)


def test_lds_direct_valu_hazard_across_a_join():
    p = run(program(
        (IF_ELSE[0], "   s_cbranch_scc0 BB2\n"),
        (IF_ELSE[1], "   v1: v[5] = v_add_f32 v1: v[1], v1: v[2]\n   s_branch BB3\n"),
        (IF_ELSE[2], filler(4)),
        (IF_ELSE[3], "   v1: v[1] = lds_direct_load wait_vdst:15\n   s_endpgm\n")))
    # through BB1 the reader is 0 VALUs away (the branch is no VALU)
    assert "v1: v[1] = lds_direct_load wait_vdst:0\n" in listing(p)


# --- LdsDirectVMEMHazard ------------------------------------------------------------

STORE = "   global_store_b32 v2: v[2-3], v1: v[1], s2: undef\n"
LDSDIR1 = "   v1: v[1] = lds_direct_load\n"


def test_lds_direct_after_vmem_source_gets_vm_vsrc_wait():
    p = run(single(STORE + LDSDIR1 + "   s_endpgm\n"))
    assert_listing(p, f"BB0\n{STORE}   {VM_VSRC0}\n{LDSDIR1}   s_endpgm\n")


def test_lds_direct_after_ds_address_gets_vm_vsrc_wait():
    ds = "   ds_store_b32 v1: v[1], v1: v[4]\n"
    p = run(single(ds + LDSDIR1 + "   s_endpgm\n"))
    assert_listing(p, f"BB0\n{ds}   {VM_VSRC0}\n{LDSDIR1}   s_endpgm\n")


def test_vmcnt_wait_does_not_cover_a_store():
    body = STORE + "   s_waitcnt simm16:1015\n" + LDSDIR1 + "   s_endpgm\n"
    p = run(single(body))
    assert f"   {VM_VSRC0}\n{LDSDIR1}" in listing(p)


@pytest.mark.parametrize("between", [
    "   v1: v[9] = v_mov_b32 0\n",  # any VALU
    "   exp v1: v[8], v1: v[8], v1: v[8], v1: v[8] target:12\n",  # an export
    "   s_waitcnt_vscnt s1: null simm16:0\n",  # the store finished
    f"   {VM_VSRC0}\n",  # already mitigated
], ids=["valu", "export", "vscnt", "depctr"])
def test_lds_direct_vmem_already_mitigated(between):
    unchanged(STORE + between + LDSDIR1 + "   s_endpgm\n")


def test_lds_direct_unrelated_vgpr_is_fine():
    unchanged(STORE + "   v1: v[7] = lds_direct_load\n   s_endpgm\n")


# --- VALUTransUseHazard ---------------------------------------------------------------

RCP = "   v1: v[1] = v_rcp_f32 v1: v[0]\n"
USE = "   v1: v[2] = v_add_f32 v1: v[1], v1: v[3]\n"


@pytest.mark.parametrize("n", [0, 1, 5])
def test_trans_result_used_within_six_valus_waits(n):
    p = run(single(RCP + filler(n) + USE + "   s_endpgm\n"))
    assert_listing(p, "BB0\n" + RCP + filler(n) + f"   {VA_VDST0}\n" + USE + "   s_endpgm\n")


@pytest.mark.parametrize("between", [
    filler(6),  # six VALUs
    "   v1: v[30] = v_rcp_f32 v1: v[0]\n   v1: v[31] = v_sqrt_f32 v1: v[0]\n",  # two trans
    f"   {VA_VDST0}\n",  # already mitigated
], ids=["six-valu", "two-trans", "depctr"])
def test_trans_use_already_mitigated(between):
    unchanged(RCP + between + USE + "   s_endpgm\n")


def test_one_trans_in_between_is_not_enough():
    body = RCP + "   v1: v[30] = v_rcp_f32 v1: v[0]\n"
    p = run(single(body + USE + "   s_endpgm\n"))
    assert f"   {VA_VDST0}\n{USE}" in listing(p)


def test_trans_non_vgpr_reader_and_other_registers_are_fine():
    unchanged(RCP + "   v1: v[2] = v_add_f32 v1: v[4], v1: v[3]\n"
              "   global_store_b32 v2: v[2-3], v1: v[1], s2: undef\n   s_endpgm\n")


LOOP = [
    "logical preds: / linear preds: / kind: top-level,",
    "logical preds: BB0, BB2, / linear preds: BB0, BB2, / kind: loop-header, loop depth: 1,",
    "logical preds: BB1, / linear preds: BB1, / kind: uniform, loop depth: 1,",
    "logical preds: BB2, / linear preds: BB2, / kind: top-level, loop-exit,",
]


def test_trans_use_across_the_loop_back_edge():
    p = run(program(
        (LOOP[0], "   v1: v[1] = v_mov_b32 0\n"),
        (LOOP[1], USE),
        (LOOP[2], RCP + "   s_cbranch_scc0 BB1\n"),
        (LOOP[3], "   s_endpgm\n")))
    assert_listing(p, f"""
BB0
   v1: v[1] = v_mov_b32 0
BB1
   {VA_VDST0}
{USE}BB2
{RCP}   s_cbranch_scc0 BB1
BB3
   s_endpgm
""")


# --- VALUPartialForwardingHazard (wave64) ----------------------------------------------

WA = "   v1: v[0] = v_mov_b32 1\n"
EXECW = "   s2: exec = s_mov_b64 s2: s[4-5]\n"
WB = "   v1: v[1] = v_mov_b32 2\n"
RD = "   v1: v[2] = v_add_f32 v1: v[0], v1: v[1]\n"


@pytest.mark.parametrize("gap", [0, 2])
def test_partial_forwarding_around_an_exec_write(gap):
    body = WA + filler(gap) + EXECW + WB + RD + "   s_endpgm\n"
    p = run(single(body, wave=64))
    assert f"{WB}   {VA_VDST0}\n{RD}" in listing(p)


@pytest.mark.parametrize("name,body", [
    ("wave32", None),
    ("three-valu-gap", WA + filler(3) + EXECW + WB + RD),
    ("no-exec-write", WA + WB + RD),
    ("read-far", WA + EXECW + WB + filler(5) + RD),
    ("depctr", WA + EXECW + WB + f"   {VA_VDST0}\n" + RD),
])
def test_partial_forwarding_not_triggered(name, body):
    if body is None:
        unchanged(WA + EXECW.replace("s2: exec = s_mov_b64 s2: s[4-5]",
                                     "s1: exec = s_mov_b32 s1: s[4]") + WB + RD + "   s_endpgm\n")
    else:
        unchanged(body + "   s_endpgm\n", wave=64)


def test_partial_forwarding_across_blocks():
    p = run(program(
        (IF_ELSE[0], WA + "   s_cbranch_scc0 BB2\n"),
        (IF_ELSE[1], EXECW + "   s_branch BB3\n"),
        (IF_ELSE[2], "   s_nop simm16:0\n"),
        (IF_ELSE[3], WB + RD + "   s_endpgm\n"), wave=64))
    assert f"BB3\n{WB}   {VA_VDST0}\n{RD}" in listing(p)


def test_partial_forwarding_once_around_a_loop():
    """A (v0) is written before the loop, the latch writes EXEC then B (v1), the exit
    reads both: on the path BB0 BB1 BB2 BB1 BB3 A and B are adjacent VALUs with an
    SALU EXEC write between them and B is the last VALU before the read, so the read
    needs va_vdst(0). The backward search from BB3 reaches the loop header BB1 first
    on the direct path; it must still search BB1 again coming from the latch."""
    p = run(program(
        (LOOP[0], WA),
        (LOOP[1], "   s_cbranch_scc1 BB3\n"),
        (LOOP[2], EXECW + WB + "   s_branch BB1\n"),
        ("logical preds: BB1, / linear preds: BB1, / kind: top-level, loop-exit,",
         RD + "   s_endpgm\n"), wave=64))
    assert_listing(p, f"""
BB0
{WA}BB1
   s_cbranch_scc1 BB3
BB2
{EXECW}{WB}   s_branch BB1
BB3
   {VA_VDST0}
{RD}   s_endpgm
""")


def test_partial_forwarding_loop_without_exec_write_is_fine():
    unchanged_loop = program(
        (LOOP[0], WA),
        (LOOP[1], "   s_cbranch_scc1 BB3\n"),
        (LOOP[2], WB + "   s_branch BB1\n"),
        ("logical preds: BB1, / linear preds: BB1, / kind: top-level, loop-exit,",
         RD + "   s_endpgm\n"), wave=64)
    before = listing(unchanged_loop)
    assert listing(run(unchanged_loop)) == before


# --- VALUMaskWriteHazard (wave64) ---------------------------------------------------------

MASKUSE = "   v1: v[1] = v_cndmask_b32_e64 v1: v[2], v1: v[3], s2: s[4-5]\n"
SALUW = "   s2: s[4-5] = s_mov_b64 s2: s[8-9]\n"
SALUR = "   s2: s[6-7], s1: scc = s_and_b64 s2: s[4-5], s2: s[10-11]\n"


def test_mask_sgpr_rewritten_by_salu_then_read_waits_sa_sdst():
    p = run(single(MASKUSE + SALUW + SALUR + "   s_endpgm\n", wave=64))
    assert_listing(p, "BB0\n" + MASKUSE + SALUW + f"   {SA_SDST0}\n" + SALUR + "   s_endpgm\n")


def test_mask_write_read_by_valu_also_waits():
    rd = "   v1: v[6] = v_cndmask_b32_e64 v1: v[2], v1: v[3], s2: s[4-5]\n"
    p = run(single(MASKUSE + SALUW + rd + "   s_endpgm\n", wave=64))
    assert f"{SALUW}   {SA_SDST0}\n{rd}" in listing(p)


def test_mask_rewritten_by_valu_waits_va_sdst_or_va_vcc():
    vw = "   s2: s[4-5] = v_cmp_eq_u32_e64 v1: v[0], v1: v[1]\n"
    p = run(single(MASKUSE + vw + SALUR + "   s_endpgm\n", wave=64))
    assert f"{vw}   {depctr(va_sdst=0)}\n{SALUR}" in listing(p)
    use_vcc = "   v1: v[1] = v_cndmask_b32 v1: v[2], v1: v[3], s2: vcc\n"
    vccw = "   s2: vcc = v_cmp_eq_u32 v1: v[0], v1: v[1]\n"
    rd = "   s2: s[6-7], s1: scc = s_and_b64 s2: vcc, s2: s[10-11]\n"
    p = run(single(use_vcc + vccw + rd + "   s_endpgm\n", wave=64))
    assert f"{vccw}   {depctr(va_vcc=0)}\n{rd}" in listing(p)


@pytest.mark.parametrize("name,body,wave", [
    ("wave32", "   v1: v[1] = v_cndmask_b32_e64 v1: v[2], v1: v[3], s1: s[4]\n"
     "   s1: s[4] = s_mov_b32 s1: s[8]\n"
     "   s1: s[6], s1: scc = s_and_b32 s1: s[4], s1: s[10]\n", 32),
    ("valu-reads-other-sgpr", MASKUSE + "   v1: v[9] = v_add_f32 s1: s[20], v1: v[0]\n"
     + SALUW + SALUR, 64),
    ("depctr", MASKUSE + SALUW + f"   {SA_SDST0}\n" + SALUR, 64),
    ("other-sgpr-written", MASKUSE + "   s2: s[12-13] = s_mov_b64 s2: s[8-9]\n"
     + "   s2: s[6-7], s1: scc = s_and_b64 s2: s[12-13], s2: s[10-11]\n", 64),
])
def test_mask_write_not_triggered(name, body, wave):
    unchanged(body + "   s_endpgm\n", wave=wave)


# --- combinations and properties -----------------------------------------------------------

def test_depctr_goes_before_the_permlane_mov():
    # the permlane's source was written by a transcendental: the v_mov that
    # separates it from the vcmpx must itself come after the va_vdst wait
    rcp3 = "   v1: v[3] = v_rcp_f32 v1: v[0]\n"
    p = run(single(rcp3 + CMPX + PERM + "   s_endpgm\n"))
    assert_listing(p, "BB0\n" + rcp3 + CMPX + f"   {VA_VDST0}\n" + MOV3 + PERM
                   + "   s_endpgm\n")


def test_several_fields_share_one_depctr():
    # wave64: an LDSDIR writes a VGPR a store still reads, and it reads nothing:
    # vm_vsrc; a VALU both reading a trans result and a rewritten mask: two fields
    body = (MASKUSE + SALUW + RCP
            + "   v1: v[2] = v_cndmask_b32_e64 v1: v[1], v1: v[3], s2: s[4-5]\n   s_endpgm\n")
    p = run(single(body, wave=64))
    assert depctr(va_vdst=0, sa_sdst=0) in listing(p)
    assert listing(p).count("s_waitcnt_depctr") == 1


def test_running_twice_changes_nothing():
    p = single(RCP + USE + CMPX + PERM + STORE + LDSDIR1 + MASKUSE + SALUW + SALUR
               + "   v1: v[5] = v_add_f32 v1: v[1], v1: v[2]\n"
               "   v1: v[1] = lds_direct_load wait_vdst:15\n   s_endpgm\n", wave=64)
    run(p)
    once = listing(p)
    run(p)
    assert listing(p) == once


def test_depctr_only_round_is_final():
    """Only s_waitcnt_depctr inserted and no backward search (wave32, a
    transcendental result read around a loop): the pass stops after one round
    (`_Round.settled`), right when running it again finds nothing more. The read
    at the header follows the latch's v_rcp on the back edge with no VALU between."""
    p = run(program(
        (LOOP[0], "   v1: v[3] = v_mov_b32 0\n"),
        (LOOP[1], USE + "   s_cbranch_scc1 BB3\n"),
        (LOOP[2], RCP + "   s_branch BB1\n"),
        ("logical preds: BB1, / linear preds: BB1, / kind: top-level, loop-exit,",
         "   s_endpgm\n")))
    once = listing(p)
    assert once == f"""BB0
   v1: v[3] = v_mov_b32 0
BB1
   {VA_VDST0}
{USE}   s_cbranch_scc1 BB3
BB2
{RCP}   s_branch BB1
BB3
   s_endpgm
"""
    run(p)
    assert listing(p) == once


END = "logical preds: / linear preds: / kind: top-level, end-with-regs,"


def test_program_end_without_endpgm_resolves_everything():
    # the code that follows is unknown: pending trans results, VMEM sources and
    # a vcmpx are all resolved
    p = run(program((END, RCP + STORE)))
    assert_listing(p, f"BB0\n{RCP}{STORE}   {depctr(va_vdst=0, vm_vsrc=0)}\n")
    p = run(program((END, CMPX)))
    assert_listing(p, f"BB0\n{CMPX}   v1: v[0] = v_mov_b32 v1: v[0]\n")


# --- WMMAHazard (ISA guide 7.9; LLVM's fixWMMAHazards) ------------------------------------

WMMA1 = "   v8: v[16-23] = v_wmma_f32_16x16x16_f16 v8: v[0-7], v8: v[8-15], v8: v[16-23]\n"


def _wmma2(a: str, b: str, c: str) -> str:
    return f"   v8: v[24-31] = v_wmma_f32_16x16x16_f16 v8: v[{a}], v8: v[{b}], v8: v[{c}]\n"


@pytest.mark.parametrize("a,b", [("16-23", "8-15"), ("0-7", "16-23"), ("12-19", "0-7")])
def test_wmma_d_read_as_a_or_b_gets_a_v_nop(a: str, b: str):
    second = _wmma2(a, b, "24-31")
    p = run(single(WMMA1 + second + "   s_endpgm\n"))
    assert_listing(p, "BB0\n" + WMMA1 + "   v_nop\n" + second + "   s_endpgm\n")


def test_wmma_d_read_as_c_needs_nothing():
    unchanged(WMMA1 + _wmma2("0-7", "8-15", "16-23") + "   s_endpgm\n")


@pytest.mark.parametrize("between", ["   v_nop\n", "   v1: v[40] = v_mov_b32 0\n"])
def test_wmma_hazard_already_separated(between: str):
    unchanged(WMMA1 + between + _wmma2("16-23", "8-15", "24-31") + "   s_endpgm\n")


def test_wmma_hazard_wave64():
    first = "   v4: v[16-19] = v_wmma_f32_16x16x16_f16 v8: v[0-7], v8: v[8-15], v4: v[16-19]\n"
    second = "   v4: v[24-27] = v_wmma_f32_16x16x16_f16 v8: v[12-19], v8: v[0-7], v4: v[24-27]\n"
    p = run(single(first + second + "   s_endpgm\n", 64))
    assert_listing(p, "BB0\n" + first + "   v_nop\n" + second + "   s_endpgm\n")
