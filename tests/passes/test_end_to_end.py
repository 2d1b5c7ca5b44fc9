"""End to end: un-allocated IR → live_var_analysis → register_allocation →
ssa_elimination → lower_to_hw → emit_program → code object → radcc.emu,
compared with NumPy.

The passes are called explicitly (not through the pass manager) so that these
tests exercise the back end's own chain; `tests/test_llc.py` covers the CLI.
"""

from __future__ import annotations

import numpy as np
import pytest

from radcc.driver.llc import kernel_args
from radcc.emu.api import load
from radcc.ir.parser import parse_program
from radcc.passes.emit_program import emit_code_object, emit_program
from radcc.passes.live_var_analysis import live_var_analysis
from radcc.passes.lower_to_hw import lower_to_hw

# the register allocator and SSA elimination are another engineer's modules
register_allocation = pytest.importorskip("radcc.passes.register_allocation").register_allocation
ssa_elimination = pytest.importorskip("radcc.passes.ssa_elimination").ssa_elimination

ARGS = kernel_args(["out:buffer", "in:buffer"])

# x = in[gid]; for k in 0..4: x = 2x + k; out[gid] = x
LOOP = """\
program gfx1100 {wave} compute name:loop
BB0
/* logical preds: / linear preds: / kind: top-level, */
   s2: %1:s[0-1], s1: %2:s[2], v1: %3:v[0] = p_startpgm
   p_logical_start
   s4: %4 = s_load_b128 %1, 0
   s1: %7, s1: %8:scc = s_lshl_b32 %2, 6
   v1: %9 = v_add_nc_u32 %7, %3
   v1: %5 = v_lshlrev_b32 2, %9
   s_waitcnt simm16:0
   s2: %40, s2: %41 = p_split_vector %4
   v1: %10 = global_load_b32 %5, %41
   s_waitcnt simm16:0
   p_logical_end
   p_branch BB1
BB1
/* logical preds: BB0, BB1, / linear preds: BB0, BB1, / kind: uniform, loop-header, loop depth: 1, */
   v1: %20 = p_phi %10, %22
   s1: %21 = p_linear_phi 0, %23
   p_logical_start
   v1: %25 = v_lshlrev_b32 1, %20
   v1: %22 = v_add_nc_u32 %21, %25
   s1: %23, s1: %26:scc = s_add_u32 %21, 1
   s1: %27:scc = s_cmp_lt_u32 %23, 5
   p_logical_end
   p_cbranch_nz %27:scc BB1, BB2
BB2
/* logical preds: BB1, / linear preds: BB1, / kind: top-level, loop-exit, */
   p_logical_start
   global_store_b32 %5, %22, %40
   p_logical_end
   s_endpgm
"""


def compile_and_run(text: str, args: dict, groups: int, block: int):
    p = parse_program(text)
    live_var_analysis(p)
    register_allocation(p)
    ssa_elimination(p)
    lower_to_hw(p)
    r = emit_program(p)
    return load(emit_code_object(p, r, ARGS)).run(p.name, groups=groups, block=block,
                                                   args=args), r


@pytest.mark.parametrize("wave", ["wave32", "wave64"])
def test_uniform_loop_with_phis(wave):
    rng = np.random.default_rng(7)
    x = rng.integers(0, 1 << 20, 128, dtype=np.uint32)
    res, r = compile_and_run(LOOP.format(wave=wave), {"out": np.zeros(128, np.uint32),
                                                      "in": x}, groups=2, block=64)
    want = x.copy()
    for k in range(5):
        want = want * np.uint32(2) + np.uint32(k)
    assert np.array_equal(res.buffers["out"], want)
    assert not res.violations
    assert "s_cbranch_scc1" in r.asm
