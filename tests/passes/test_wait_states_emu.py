"""insert_waitcnt, insert_nops (and insert_delay_alu) end to end: lowered IR is assembled, run in
the emulator's strict mode (radcc.emu.strict: memory results arrive as late as
the hardware allows; the GFX11 hazards are checked) and compared with NumPy.
With the passes the run has zero violations; without them strict mode reports
the missing waits and each hazard the kernel contains.
"""

from __future__ import annotations

import numpy as np
import pytest

from radcc.driver.llc import kernel_args
from radcc.emu.api import load
from radcc.ir.parser import parse_program
from radcc.passes.emit_program import emit_code_object, emit_program
from radcc.passes.insert_delay_alu import insert_delay_alu
from radcc.passes.insert_nops import insert_nops
from radcc.passes.insert_waitcnt import insert_waitcnt
from radcc.passes.lower_to_hw import lower_to_hw

ARGS = kernel_args(["inp:buffer", "out:buffer"])


def hdr(kind: str, preds: str = "") -> str:
    return f"/* logical preds: {preds}/ linear preds: {preds}/ kind: {kind} */\n"


# A loop whose loads cross the back edge, SMEM results used as VMEM bases, an
# LDS round trip: out[i] = 3 * (in[i] + in[i+32] + in[i+64] + in[i+96]).
LOOP_KERNEL = ("program gfx1100 wave32 compute name:loopsum\nBB0\n" + hdr("top-level,") + """\
   s2: s[0-1], v1: v[0] = p_startpgm
   s4: s[4-7] = s_load_b128 s2: s[0-1], 0
   v1: v[1] = v_lshlrev_b32 2, v1: v[0]
   v1: v[7] = v_mov_b32 0
   s1: s[8] = s_mov_b32 0
   v1: v[2] = global_load_b32 v1: v[1], s2: s[4-5]
BB1
""" + hdr("loop-header, loop depth: 1,", "BB0, BB2, ") + """\
   v1: v[7] = v_add_nc_u32 v1: v[7], v1: v[2]
   v1: v[1] = v_add_nc_u32 0x80, v1: v[1]
BB2
""" + hdr("uniform, loop depth: 1,", "BB1, ") + """\
   v1: v[2] = global_load_b32 v1: v[1], s2: s[4-5]
   s1: s[8], s1: scc = s_add_u32 s1: s[8], 1
   s1: scc = s_cmp_lt_u32 s1: s[8], 4
   p_cbranch_nz s1: scc BB1, BB3
BB3
""" + hdr("top-level, loop-exit,", "BB2, ") + """\
   v1: v[3] = v_lshlrev_b32 2, v1: v[0]
   ds_store_b32 v1: v[3], v1: v[7]
   v1: v[4] = ds_load_b32 v1: v[3]
   v1: v[5] = v_mul_lo_u32 v1: v[4], 3
   global_store_b32 v1: v[3], v1: v[5], s2: s[6-7]
   s_endpgm
""")

# One instance of each GFX11 hazard (wave64 for the two LLVM and ACO apply to
# wave64 only); out[8*i + k] holds the k-th result of lane i.
HAZARD_KERNEL = ("program gfx1100 wave64 compute name:hazards\nBB0\n" + hdr("top-level,") + """\
   s2: s[0-1], v1: v[0] = p_startpgm
   s4: s[4-7] = s_load_b128 s2: s[0-1], 0
   v1: v[1] = v_lshlrev_b32 2, v1: v[0]
   v1: v[20] = v_lshlrev_b32 5, v1: v[0]
   v1: v[2] = global_load_b32 v1: v[1], s2: s[4-5]
   v1: v[3] = v_rcp_f32 v1: v[2]
   v1: v[4] = v_mul_f32 v1: v[3], v1: v[2]
   s2: s[10-11] = v_cmp_gt_u32_e64 v1: v[0], 31
   v1: v[5] = v_cndmask_b32_e64 0, 1, s2: s[10-11]
   s2: s[10-11], s1: scc = s_not_b64 s2: s[10-11]
   v1: v[6] = v_cndmask_b32_e64 0, 2, s2: s[10-11]
   s1: s[14] = s_mov_b32 0
   s1: s[15] = s_mov_b32 0
   s2: s[12-13] = s_mov_b64 s2: exec
   v_cmpx_le_u32 0, v1: v[0]
   v1: v[7] = v_permlane16_b32 v1: v[0], s1: s[14], s1: s[15]
   s2: exec = s_mov_b64 s2: s[12-13]
   v1: v[8] = v_add_nc_u32 1, v1: v[0]
   s2: exec = s_mov_b64 s2: s[12-13]
   v1: v[9] = v_add_nc_u32 2, v1: v[0]
   v1: v[10] = v_add_nc_u32 v1: v[8], v1: v[9]
   v1: v[16] = v_add_nc_u32 100, v1: v[0]
   ds_store_b32 v1: v[1], v1: v[16]
   s_waitcnt simm16:64519
   s1: m0 = s_mov_b32 0
   v1: v[12] = v_add_nc_u32 1, v1: v[10]
   v1: v[15] = v_mov_b32 v1: v[12]
   global_store_b32 v1: v[20], v1: v[12], s2: s[6-7] offset:20
   v1: v[12] = lds_direct_load wait_vdst:15
   global_store_b32 v1: v[20], v1: v[4], s2: s[6-7]
   global_store_b32 v1: v[20], v1: v[5], s2: s[6-7] offset:4
   global_store_b32 v1: v[20], v1: v[6], s2: s[6-7] offset:8
   global_store_b32 v1: v[20], v1: v[7], s2: s[6-7] offset:12
   global_store_b32 v1: v[20], v1: v[10], s2: s[6-7] offset:16
   global_store_b32 v1: v[20], v1: v[12], s2: s[6-7] offset:24
   s_endpgm
""")
HAZARDS = {"VALUTransUseHazard", "VALUMaskWriteHazard", "VcmpxPermlaneHazard",
           "VALUPartialForwardingHazard", "LdsDirectVALUHazard", "LdsDirectVMEMHazard"}


def build(text: str, waits: bool, nops: bool):
    p = parse_program(text)
    p.config.lds_size = 512
    lower_to_hw(p)
    if waits:
        insert_waitcnt(p)
    if nops:
        insert_nops(p)
        insert_delay_alu(p)
    return load(emit_code_object(p, emit_program(p), ARGS))


def run_loop(waits: bool):
    inp = (np.arange(160, dtype=np.uint32) * 7 + 1)
    res = build(LOOP_KERNEL, waits, True).run(
        "loopsum", groups=1, block=32, args={"inp": inp, "out": np.zeros(32, np.uint32)})
    i = np.arange(32)
    want = 3 * (inp[i] + inp[i + 32] + inp[i + 64] + inp[i + 96])
    return res, want


def test_loop_kernel_has_no_violations_and_right_results():
    res, want = run_loop(True)
    assert not res.violations, [str(v) for v in res.violations]
    assert (res.buffers["out"] == want).all()


def test_loop_kernel_without_waits_is_reported():
    res, _ = run_loop(False)
    kinds = {v.kind for v in res.violations}
    assert kinds == {"waitcnt"}
    text = "\n".join(v.message for v in res.violations)
    assert "s_load_b128" in text and "global_load_b32" in text and "ds_load_b32" in text


def run_hazards(nops: bool):
    x = np.linspace(0.5, 8.0, 64).astype(np.float32)
    res = build(HAZARD_KERNEL, True, nops).run(
        "hazards", groups=1, block=64,
        args={"inp": x, "out": np.zeros(64 * 8, np.uint32)})
    return res, x


def test_hazard_kernel_has_no_violations_and_right_results():
    res, x = run_hazards(True)
    assert not res.violations, [str(v) for v in res.violations]
    out = res.buffers["out"].reshape(64, 8)
    i = np.arange(64, dtype=np.uint32)
    np.testing.assert_allclose(out[:, 0].view(np.float32), 1.0, rtol=1e-6)
    assert (out[:, 1] == (i > 31)).all()
    assert (out[:, 2] == 2 * (i <= 31)).all()
    assert (out[:, 3] == (i & ~np.uint32(15))).all()
    assert (out[:, 4] == 2 * i + 3).all()
    assert (out[:, 5] == 2 * i + 4).all()
    assert (out[:, 6] == 100).all()


@pytest.mark.parametrize("hazard", sorted(HAZARDS))
def test_each_hazard_is_reported_without_insert_nops(hazard):
    res, _ = run_hazards(False)
    kinds = {v.kind for v in res.violations}
    assert hazard in kinds, sorted(kinds)
    assert "waitcnt" not in kinds
