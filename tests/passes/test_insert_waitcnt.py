"""insert_waitcnt: s_waitcnt placement on hardware IR with physical registers.

Expectations come from the ISA guide (5.6 "Data Dependency Resolution":
VMcnt for loads/samples/atomics-with-return, VScnt for stores, LGKMcnt for
SMEM (out of order), LDS (in order), FLAT (also VMcnt; "the only sensible
value is zero"), messages; EXPcnt for exports and LDS direct loads; 10.8: store
data needs no wait; 16: S_ENDPGM waits itself) worked out by hand per case,
with the SIMM16 layout of S_WAITCNT (see waitcnt_util).
"""

from __future__ import annotations

import pytest
from waitcnt_util import assert_listing, listing, program, single, vs, wc

from radcc.passes.insert_waitcnt import insert_waitcnt

G = "s2: undef"  # no saddr


def run(p):
    insert_waitcnt(p)
    return p


# --- straight-line code ------------------------------------------------------------

def test_loads_then_uses_wait_for_as_few_as_possible():
    p = run(single(f"""\
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   v1: v[4] = global_load_b32 v2: v[2-3], {G} offset:4
   v1: v[5] = global_load_b32 v2: v[2-3], {G} offset:8
   v1: v[6] = v_add_f32 v1: v[1], v1: v[1]
   v1: v[7] = v_add_f32 v1: v[5], v1: v[4]
   s_endpgm
"""))
    # v1 is the oldest of three in-order loads: two may still be outstanding;
    # v5 is the youngest: all must be done (ISA 5.6's example).
    assert_listing(p, f"""
BB0
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   v1: v[4] = global_load_b32 v2: v[2-3], {G} offset:4
   v1: v[5] = global_load_b32 v2: v[2-3], {G} offset:8
   {wc(vm=2)}
   v1: v[6] = v_add_f32 v1: v[1], v1: v[1]
   {wc(vm=0)}
   v1: v[7] = v_add_f32 v1: v[5], v1: v[4]
   s_endpgm
""")


def test_no_wait_when_nothing_is_loaded_or_result_unused():
    body = f"""\
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   v1: v[4] = v_add_f32 v1: v[5], v1: v[6]
   s_endpgm
"""
    p = run(single(body))
    assert_listing(p, "BB0\n" + body)  # S_ENDPGM waits by itself


def test_smem_is_out_of_order_so_any_use_waits_for_lgkmcnt_zero():
    p = run(single("""\
   s1: s[4] = s_load_b32 s2: s[0-1], 0
   s1: s[5] = s_load_b32 s2: s[0-1], 4
   s1: s[6] = s_load_b32 s2: s[0-1], 8
   s1: s[7], s1: scc = s_add_u32 s1: s[4], 1
   s_endpgm
"""))
    assert_listing(p, f"""
BB0
   s1: s[4] = s_load_b32 s2: s[0-1], 0
   s1: s[5] = s_load_b32 s2: s[0-1], 4
   s1: s[6] = s_load_b32 s2: s[0-1], 8
   {wc(lgkm=0)}
   s1: s[7], s1: scc = s_add_u32 s1: s[4], 1
   s_endpgm
""")


def test_mixed_ds_and_smem_counts_only_later_ds():
    # LGKMcnt counts both; DS returns in order among DS, SMEM in any order.
    # Waiting for the first DS load: one later DS may be outstanding, but the
    # SMEM load may complete before it, so it does not count: lgkmcnt(1).
    p = run(single("""\
   v1: v[1] = ds_load_b32 v1: v[0]
   s1: s[4] = s_load_b32 s2: s[0-1], 0
   v1: v[2] = ds_load_b32 v1: v[0] offset:4
   v1: v[3] = v_mov_b32 v1: v[1]
   v1: v[5] = v_mov_b32 s1: s[4]
   s_endpgm
"""))
    assert_listing(p, f"""
BB0
   v1: v[1] = ds_load_b32 v1: v[0]
   s1: s[4] = s_load_b32 s2: s[0-1], 0
   v1: v[2] = ds_load_b32 v1: v[0] offset:4
   {wc(lgkm=1)}
   v1: v[3] = v_mov_b32 v1: v[1]
   {wc(lgkm=0)}
   v1: v[5] = v_mov_b32 s1: s[4]
   s_endpgm
""")


def test_ds_followed_only_by_smem_needs_lgkmcnt_zero():
    p = run(single("""\
   v1: v[1] = ds_load_b32 v1: v[0]
   s1: s[4] = s_load_b32 s2: s[0-1], 0
   v1: v[3] = v_mov_b32 v1: v[1]
   s_endpgm
"""))
    assert_listing(p, f"""
BB0
   v1: v[1] = ds_load_b32 v1: v[0]
   s1: s[4] = s_load_b32 s2: s[0-1], 0
   {wc(lgkm=0)}
   v1: v[3] = v_mov_b32 v1: v[1]
   s_endpgm
""")


def test_vmem_and_smem_in_one_wait():
    p = run(single(f"""\
   s2: s[4-5] = s_load_b64 s2: s[0-1], 0
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   v1: v[4] = v_add_f32 s1: s[4], v1: v[1]
   s_endpgm
"""))
    assert_listing(p, f"""
BB0
   s2: s[4-5] = s_load_b64 s2: s[0-1], 0
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   {wc(vm=0, lgkm=0)}
   v1: v[4] = v_add_f32 s1: s[4], v1: v[1]
   s_endpgm
""")


def test_smem_result_used_as_vmem_address_base():
    p = run(single("""\
   s2: s[4-5] = s_load_b64 s2: s[0-1], 0
   v1: v[1] = global_load_b32 v1: v[0], s2: s[4-5]
   s_endpgm
"""))
    assert_listing(p, f"""
BB0
   s2: s[4-5] = s_load_b64 s2: s[0-1], 0
   {wc(lgkm=0)}
   v1: v[1] = global_load_b32 v1: v[0], s2: s[4-5]
   s_endpgm
""")


def test_stores_use_vscnt_and_their_data_needs_no_wait():
    # ISA 10.8: a writer of store data is stalled by the hardware; stores count
    # on VScnt, which only the barrier's release waits for.
    p = run(single(f"""\
   global_store_b32 v2: v[2-3], v1: v[1], {G}
   v1: v[1] = v_mov_b32 0
   s_waitcnt simm16:0
   s_waitcnt_vscnt s1: null simm16:0
   s_barrier
   s_endpgm
"""))
    # the barrier's s_waitcnt 0 has nothing outstanding on vm/lgkm/exp to wait for
    assert_listing(p, f"""
BB0
   global_store_b32 v2: v[2-3], v1: v[1], {G}
   v1: v[1] = v_mov_b32 0
   {vs(0)}
   s_barrier
   s_endpgm
""")


def test_atomic_with_return_uses_vmcnt_without_return_vscnt():
    p = run(single(f"""\
   global_atomic_add_u32 v2: v[2-3], v1: v[1], {G}
   v1: v[4] = global_atomic_add_u32 v2: v[2-3], v1: v[1], {G} glc
   v1: v[5] = v_mov_b32 v1: v[4]
   s_waitcnt_vscnt s1: null simm16:0
   s_endpgm
"""))
    assert_listing(p, f"""
BB0
   global_atomic_add_u32 v2: v[2-3], v1: v[1], {G}
   v1: v[4] = global_atomic_add_u32 v2: v[2-3], v1: v[1], {G} glc
   {wc(vm=0)}
   v1: v[5] = v_mov_b32 v1: v[4]
   {vs(0)}
   s_endpgm
""")


def test_barrier_release_keeps_the_counters_with_outstanding_work():
    p = run(single(f"""\
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   ds_store_b32 v1: v[0], v1: v[4]
   s_waitcnt simm16:0
   s_waitcnt_vscnt s1: null simm16:0
   s_barrier
   s_endpgm
"""))
    assert_listing(p, f"""
BB0
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   ds_store_b32 v1: v[0], v1: v[4]
   {wc(vm=0, lgkm=0)}
   s_barrier
   s_endpgm
""")


def test_existing_wait_is_merged_with_the_needed_one():
    p = run(single(f"""\
   s1: s[4] = s_load_b32 s2: s[0-1], 0
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   v1: v[5] = global_load_b32 v2: v[2-3], {G}
   s_waitcnt_vmcnt s1: null simm16:1
   v1: v[4] = v_mov_b32 s1: s[4]
   v1: v[6] = v_mov_b32 v1: v[1]
   s_endpgm
"""))
    # the explicit vmcnt(1) already covers v[1]; the read of s[4] adds lgkmcnt(0)
    assert_listing(p, f"""
BB0
   s1: s[4] = s_load_b32 s2: s[0-1], 0
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   v1: v[5] = global_load_b32 v2: v[2-3], {G}
   {wc(vm=1, lgkm=0)}
   v1: v[4] = v_mov_b32 s1: s[4]
   v1: v[6] = v_mov_b32 v1: v[1]
   s_endpgm
""")


def test_waw_same_kind_in_order_other_kind_waits():
    p = run(single(f"""\
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   v1: v[1] = global_load_b32 v2: v[2-3], {G} offset:4
   v1: v[1] = ds_load_b32 v1: v[0]
   v1: v[1] = v_mov_b32 0
   s_endpgm
"""))
    # two global loads write v[1] in issue order: no wait. A DS load may
    # complete before them: vmcnt(0). The VALU write must follow the DS: lgkmcnt(0).
    assert_listing(p, f"""
BB0
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   v1: v[1] = global_load_b32 v2: v[2-3], {G} offset:4
   {wc(vm=0)}
   v1: v[1] = ds_load_b32 v1: v[0]
   {wc(lgkm=0)}
   v1: v[1] = v_mov_b32 0
   s_endpgm
""")


def test_load_overwriting_its_own_address_needs_no_wait_but_its_user_does():
    p = run(single(f"""\
   v2: v[2-3] = global_load_b64 v2: v[2-3], {G}
   v1: v[4] = v_mov_b32 v1: v[3]
   s_endpgm
"""))
    assert_listing(p, f"""
BB0
   v2: v[2-3] = global_load_b64 v2: v[2-3], {G}
   {wc(vm=0)}
   v1: v[4] = v_mov_b32 v1: v[3]
   s_endpgm
""")


def test_flat_waits_for_both_counters_at_zero():
    p = run(single(f"""\
   v1: v[1] = flat_load_b32 v2: v[2-3]
   v1: v[4] = global_load_b32 v2: v[2-3], {G}
   v1: v[5] = v_mov_b32 v1: v[1]
   s_endpgm
"""))
    assert_listing(p, f"""
BB0
   v1: v[1] = flat_load_b32 v2: v[2-3]
   v1: v[4] = global_load_b32 v2: v[2-3], {G}
   {wc(vm=0, lgkm=0)}
   v1: v[5] = v_mov_b32 v1: v[1]
   s_endpgm
""")


def test_lds_direct_load_uses_expcnt_and_vinterp_waits_itself():
    p = run(single("""\
   v1: v[1] = lds_direct_load wait_vdst:15
   v1: v[2] = v_interp_p10_f32 v1: v[1], v1: v[3], v1: v[1]
   v1: v[4] = lds_direct_load wait_vdst:15
   v1: v[5] = v_interp_p10_f32 v1: v[4], v1: v[3], v1: v[4] wait_exp:7
   v1: v[6] = lds_direct_load wait_vdst:15
   v1: v[7] = v_add_f32 v1: v[6], v1: v[6]
   s_endpgm
"""))
    # wait_exp:0 (the default) is an expcnt(0) of its own; wait_exp:7 waits for nothing
    assert_listing(p, f"""
BB0
   v1: v[1] = lds_direct_load wait_vdst:15
   v1: v[2] = v_interp_p10_f32 v1: v[1], v1: v[3], v1: v[1]
   v1: v[4] = lds_direct_load wait_vdst:15
   {wc(exp=0)}
   v1: v[5] = v_interp_p10_f32 v1: v[4], v1: v[3], v1: v[4] wait_exp:7
   v1: v[6] = lds_direct_load wait_vdst:15
   {wc(exp=0)}
   v1: v[7] = v_add_f32 v1: v[6], v1: v[6]
   s_endpgm
""")


def test_export_sources_and_exec_are_locked_until_expcnt():
    p = run(single("""\
   exp v1: v[0], v1: v[1], v1: v[2], v1: v[3] target:12
   exp v1: v[4], v1: v[5], v1: v[6], v1: v[7] target:13
   v1: v[8] = v_mov_b32 v1: v[0]
   v1: v[0] = v_mov_b32 0
   s1: exec, s1: scc = s_and_b32 s1: exec, s1: s[4]
   s_endpgm
"""))
    # reading an export source is fine; overwriting v[0] waits for the older of
    # two in-order position exports: expcnt(1); exec is read by both: expcnt(0)
    assert_listing(p, f"""
BB0
   exp v1: v[0], v1: v[1], v1: v[2], v1: v[3] target:12
   exp v1: v[4], v1: v[5], v1: v[6], v1: v[7] target:13
   v1: v[8] = v_mov_b32 v1: v[0]
   {wc(exp=1)}
   v1: v[0] = v_mov_b32 0
   {wc(exp=0)}
   s1: exec, s1: scc = s_and_b32 s1: exec, s1: s[4]
   s_endpgm
""")


def test_sendmsg_rtn_result_waits_lgkmcnt():
    p = run(single("""\
   s1: s[4] = s_sendmsg_rtn_b32 ssrc0:128
   s1: s[5], s1: scc = s_add_u32 s1: s[4], 1
   s_endpgm
"""))
    assert_listing(p, f"""
BB0
   s1: s[4] = s_sendmsg_rtn_b32 ssrc0:128
   {wc(lgkm=0)}
   s1: s[5], s1: scc = s_add_u32 s1: s[4], 1
   s_endpgm
""")


def test_vmcnt_saturates_below_the_field_maximum():
    loads = "".join(f"   v1: v[{10 + i}] = global_load_b32 v2: v[2-3], {G}\n"
                    for i in range(70))
    p = run(single(loads + "   v1: v[1] = v_mov_b32 v1: v[10]\n   s_endpgm\n"))
    # 69 later loads, but the 6-bit counter cannot express more than 63 and 63
    # means "no wait": the wait is the largest kept value, 62
    assert wc(vm=62) in listing(p)


def test_indirect_branch_waits_for_everything():
    p = run(single(f"""\
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   s1: s[4] = s_load_b32 s2: s[0-1], 0
   s_setpc_b64 s2: s[8-9]
"""))
    assert_listing(p, f"""
BB0
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   s1: s[4] = s_load_b32 s2: s[0-1], 0
   {wc(vm=0, lgkm=0)}
   s_setpc_b64 s2: s[8-9]
""")


# --- control flow -----------------------------------------------------------------------

IF_ELSE = [
    "logical preds: / linear preds: / kind: top-level, branch,",
    "logical preds: BB0, / linear preds: BB0, / kind: uniform,",
    "logical preds: BB0, / linear preds: BB0, / kind: uniform,",
    "logical preds: BB1, BB2, / linear preds: BB1, BB2, / kind: top-level, merge,",
]


def test_if_else_join_takes_the_stricter_path():
    p = run(program(
        (IF_ELSE[0], f"""\
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   v1: v[4] = global_load_b32 v2: v[2-3], {G}
   s1: s[4] = s_load_b32 s2: s[0-1], 0
   s_cbranch_scc0 BB2
"""),
        (IF_ELSE[1], """\
   v1: v[5] = v_mov_b32 v1: v[4]
   s_branch BB3
"""),
        (IF_ELSE[2], f"""\
   v1: v[6] = global_load_b32 v2: v[2-3], {G}
"""),
        (IF_ELSE[3], """\
   v1: v[7] = v_mov_b32 v1: v[1]
   v1: v[8] = v_mov_b32 s1: s[4]
   s_endpgm
""")))
    # BB1 waits for everything it needs (vmcnt(0)); through BB2 two later
    # loads (v4, v6) may be outstanding when v1 arrives: vmcnt(2) at the merge
    assert_listing(p, f"""
BB0
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   v1: v[4] = global_load_b32 v2: v[2-3], {G}
   s1: s[4] = s_load_b32 s2: s[0-1], 0
   s_cbranch_scc0 BB2
BB1
   {wc(vm=0)}
   v1: v[5] = v_mov_b32 v1: v[4]
   s_branch BB3
BB2
   v1: v[6] = global_load_b32 v2: v[2-3], {G}
BB3
   {wc(vm=2)}
   v1: v[7] = v_mov_b32 v1: v[1]
   {wc(lgkm=0)}
   v1: v[8] = v_mov_b32 s1: s[4]
   s_endpgm
""")


def test_join_of_different_strictness_takes_minimum():
    # BB1 issues one more load after v1's: v1 needs vmcnt(1) through BB1 but
    # vmcnt(0) through BB2
    p = run(program(
        (IF_ELSE[0], f"""\
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   s_cbranch_scc0 BB2
"""),
        (IF_ELSE[1], f"""\
   v1: v[6] = global_load_b32 v2: v[2-3], {G}
   s_branch BB3
"""),
        (IF_ELSE[2], "   s_nop simm16:0\n"),
        (IF_ELSE[3], """\
   v1: v[7] = v_mov_b32 v1: v[1]
   s_endpgm
""")))
    assert f"BB3\n   {wc(vm=0)}\n   v1: v[7]" in listing(p)


LOOP = [
    "logical preds: / linear preds: / kind: top-level,",
    "logical preds: BB0, BB2, / linear preds: BB0, BB2, / kind: loop-header, loop depth: 1,",
    "logical preds: BB1, / linear preds: BB1, / kind: uniform, loop depth: 1,",
    "logical preds: BB2, / linear preds: BB2, / kind: top-level, loop-exit,",
]


def test_loop_back_edge_carries_pending_loads():
    p = run(program(
        (LOOP[0], """\
   v1: v[1] = v_mov_b32 0
"""),
        (LOOP[1], """\
   v1: v[4] = v_add_f32 v1: v[1], v1: v[4]
"""),
        (LOOP[2], f"""\
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   s1: s[4], s1: scc = s_add_u32 s1: s[4], 1
   s_cbranch_scc0 BB1
"""),
        (LOOP[3], """\
   v1: v[5] = v_mov_b32 v1: v[1]
   s_endpgm
""")))
    # the first iteration has nothing outstanding, the next ones have the load
    # of the previous iteration: the wait goes at the top of the header
    assert_listing(p, f"""
BB0
   v1: v[1] = v_mov_b32 0
BB1
   {wc(vm=0)}
   v1: v[4] = v_add_f32 v1: v[1], v1: v[4]
BB2
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   s1: s[4], s1: scc = s_add_u32 s1: s[4], 1
   s_cbranch_scc0 BB1
BB3
   {wc(vm=0)}
   v1: v[5] = v_mov_b32 v1: v[1]
   s_endpgm
""")


def test_loop_counts_later_loads_across_the_back_edge():
    # a load before the loop is followed by one load per iteration, and the
    # loop runs at least once: at the use after the loop at least one later
    # load of the same kind was issued (the header's join keeps the smallest
    # count over the entry and the back edge: 0, then +1 in the body)
    p = run(program(
        (LOOP[0], f"""\
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
"""),
        (LOOP[1], "   s_nop simm16:0\n"),
        (LOOP[2], f"""\
   v1: v[6] = global_load_b32 v2: v[2-3], {G}
   s_cbranch_scc0 BB1
"""),
        (LOOP[3], """\
   v1: v[5] = v_mov_b32 v1: v[1]
   s_endpgm
""")))
    assert f"BB3\n   {wc(vm=1)}\n   v1: v[5]" in listing(p)
    # and the back edge does not force a wait in the loop (v6 is never read there)
    assert "BB1\n   s_nop" in listing(p)


def test_end_with_regs_block_waits_for_everything():
    p = program(("logical preds: / linear preds: / kind: top-level, end-with-regs,", f"""\
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   global_store_b32 v2: v[2-3], v1: v[4], {G}
"""))
    run(p)
    assert_listing(p, f"""
BB0
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   global_store_b32 v2: v[2-3], v1: v[4], {G}
   {wc(vm=0)}
   {vs(0)}
""")


# --- force-waitcnt and idempotence ---------------------------------------------------------

def test_force_waitcnt_waits_after_every_memory_instruction():
    p = single(f"""\
   s1: s[4] = s_load_b32 s2: s[0-1], 0
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   global_store_b32 v2: v[2-3], v1: v[4], {G}
   v1: v[5] = v_mov_b32 0
   s_endpgm
""")
    insert_waitcnt(p, force_waitcnt=True)
    assert_listing(p, f"""
BB0
   s1: s[4] = s_load_b32 s2: s[0-1], 0
   {wc(lgkm=0)}
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   {wc(vm=0)}
   global_store_b32 v2: v[2-3], v1: v[4], {G}
   {vs(0)}
   v1: v[5] = v_mov_b32 0
   s_endpgm
""")


@pytest.mark.parametrize("name", ["straight", "loop"])
def test_running_twice_changes_nothing(name):
    if name == "straight":
        p = single(f"""\
   s1: s[4] = s_load_b32 s2: s[0-1], 0
   v1: v[1] = global_load_b32 v2: v[2-3], {G}
   v1: v[6] = ds_load_b32 v1: v[0]
   v1: v[5] = v_add_f32 s1: s[4], v1: v[1]
   v1: v[7] = v_add_f32 v1: v[6], v1: v[1]
   s_endpgm
""")
    else:
        p = program((LOOP[0], "   v1: v[1] = v_mov_b32 0\n"),
                    (LOOP[1], "   v1: v[4] = v_add_f32 v1: v[1], v1: v[4]\n"),
                    (LOOP[2], f"   v1: v[1] = global_load_b32 v2: v[2-3], {G}\n"
                              "   s_cbranch_scc0 BB1\n"),
                    (LOOP[3], "   s_endpgm\n"))
    run(p)
    once = listing(p)
    run(p)
    assert listing(p) == once


def test_event_classes_cover_every_memory_instruction():
    """insert_waitcnt only looks for counter events in EVENT_CLASSES."""
    from radcc.isa.table import get_table
    from radcc.passes.access import (
        is_ds,
        is_exp,
        is_flat,
        is_ldsdir,
        is_message,
        is_smem,
        is_vmem,
    )
    from radcc.passes.insert_waitcnt import EVENT_CLASSES
    from radcc.target import GfxLevel

    preds = (is_smem, is_vmem, is_flat, is_ds, is_exp, is_ldsdir, is_message)
    for entries in get_table(GfxLevel.GFX11).by_name.values():
        for info in entries:
            if any(f(info) for f in preds):
                assert info.cls in EVENT_CLASSES, info.name
