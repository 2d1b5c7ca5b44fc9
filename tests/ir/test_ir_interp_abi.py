"""tests/support/ir_interp.run_kernel starts a wave with the registers the program's
shader arguments (radcc.abi, through radcc.passes.kernel_abi.program_args) put where:
GFX11 packs the work-item ids into v0, GFX10/10.3 has x, y and z in v0, v1, v2; the
workgroup ids follow the kernarg pointer in the SGPRs the p_startpgm enables. Checked
against NumPy's enumeration of the grid (the dispatch order docs/abi.md states)."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.ir.parser import parse_program
from tests.support.ir_interp import run_kernel

_TOP = "BB0\n/* logical preds: / linear preds: / kind: top-level, */\n"
# out[flat] = x | y << 8 | z << 16 | wg.x << 24, flat = the invocation's index in the grid
_GFX10 = """program gfx1030 {wave} compute name:k
""" + _TOP + """\
   s2: %1:s[0-1], s1: %2:s[2], s1: %3:s[3], v1: %4:v[0], v1: %5:v[1], v1: %6:v[2] = p_startpgm workitem_id:2
   p_logical_start
   s2: %7 = s_load_b64 %1, 0
   v1: %8 = v_lshlrev_b32 8, %5
   v1: %9 = v_or_b32 %4, %8
   v1: %10 = v_lshlrev_b32 16, %6
   v1: %11 = v_or_b32 %9, %10
   s1: %12, s1: %13:scc = s_lshl_b32 %2, 24
   v1: %14 = v_or_b32 %12, %11
   v1: %15 = v_mad_u32_u24 %5, 4, %4
   v1: %16 = v_mad_u32_u24 %6, 8, %15
   s1: %17, s1: %18:scc = s_lshl_b32 %2, 4
   s1: %19, s1: %20:scc = s_lshl_b32 %3, 5
   s1: %21, s1: %22:scc = s_add_u32 %17, %19
   v1: %25 = v_add_nc_u32 %21, %16
   v1: %26 = v_lshlrev_b32 2, %25
   global_store_b32 %26, %14, %7
   p_logical_end
   s_endpgm
"""


def _packed(src: str) -> str:
    """The GFX11 form: x, y, z unpacked from v0 (x | y << 10 | z << 20)."""
    src = src.replace("program gfx1030", "program gfx1100").replace(
        ", v1: %5:v[1], v1: %6:v[2] = p_startpgm workitem_id:2",
        " = p_startpgm workitem_id:2")
    return src.replace("   p_logical_start\n", "   p_logical_start\n"
                       "   v1: %5 = v_bfe_u32 %4, 10, 10\n   v1: %6 = v_bfe_u32 %4, 20, 10\n"
                       "   v1: %30 = v_and_b32 0x3ff, %4\n", 1).replace(
        "v_or_b32 %4, %8", "v_or_b32 %30, %8").replace("v_mad_u32_u24 %5, 4, %4",
                                                      "v_mad_u32_u24 %5, 4, %30")


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("packed", [False, True], ids=["gfx1030", "gfx1100"])
def test_entry_registers_follow_the_abi(packed: bool, wave: int) -> None:
    src = _GFX10.format(wave=f"wave{wave}")
    program = parse_program(_packed(src) if packed else src)
    groups, block = (2, 2, 1), (4, 2, 2)  # 16 invocations a group, 4 groups
    res = run_kernel(program, {"out": np.zeros(64, np.uint32)}, groups=groups, block=block)
    want = np.zeros(64, np.uint32)
    for gy in range(2):
        for gx in range(2):
            for z in range(2):
                for y in range(2):
                    for x in range(4):
                        flat = (gx + 2 * gy) * 16 + z * 8 + y * 4 + x
                        want[flat] = x | y << 8 | z << 16 | gx << 24
    np.testing.assert_array_equal(res.buffers["out"], want)
