"""Hand-written structured programs (docs/ir.md "Control flow as isel
produces it") shared by the lower_phis and insert_exec_mask tests."""

from __future__ import annotations

IF_ELSE = """program gfx1100 {wave} compute
BB0
/* logical preds: / linear preds: / kind: top-level, branch, */
   v1: %1:v[0] = p_startpgm
   p_logical_start
   {lm}: %2 = v_cmp_lt_u32_e64 %1, 5
   {lm}: %10 = v_cmp_lt_u32_e64 %1, 3
   p_logical_end
   p_cbranch_z %2 BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   p_logical_start
   v1: %3 = v_add_nc_u32 1, %1
   p_logical_end
   p_branch BB3
BB2
/* logical preds: / linear preds: BB0, / kind: uniform, */
   p_branch BB3
BB3
/* logical preds: / linear preds: BB1, BB2, / kind: invert, */
   p_branch BB4
BB4
/* logical preds: BB0, / linear preds: BB3, / kind: uniform, */
   p_logical_start
   v1: %4 = v_add_nc_u32 2, %1
   p_logical_end
   p_branch BB6
BB5
/* logical preds: / linear preds: BB3, / kind: uniform, */
   p_branch BB6
BB6
/* logical preds: BB1, BB4, / linear preds: BB4, BB5, / kind: top-level, merge, */
   v1: %5 = p_phi %3, %4
   {lm}: %6 = p_phi %10, {zero} boolean
   p_logical_start
   v1: %7 = v_cndmask_b32_e64 0, 1, %6
   p_unit_test %5, %7
   p_logical_end
"""

# loop { if (i >= 10) break;  i += 3;  if (i & 1) continue;  i += 1 }
# with a boolean f = (tid < 4) flipped at every iteration, observed after the loop
LOOP = """program gfx1100 {wave} compute
BB0
/* logical preds: / linear preds: / kind: top-level, loop-preheader, uniform, */
   v1: %1:v[0] = p_startpgm
   p_logical_start
   {lm}: %40 = v_cmp_lt_u32_e64 %1, 4
   p_logical_end
   p_branch BB1
BB1
/* logical preds: BB0, BB10, BB17, / linear preds: BB0, BB11, BB17, / kind: loop-header, branch, loop depth: 1, */
   v1: %2 = p_phi %1, %5, %7
   {lm}: %41 = p_phi %40, %43, %44 boolean
   p_logical_start
   {lm}: %3 = v_cmp_ge_u32_e64 %2, 10
   p_logical_end
   p_cbranch_z %3 BB5, BB2
BB2
/* logical preds: BB1, / linear preds: BB1, / kind: break, loop depth: 1, */
   p_logical_start
   p_logical_end
   p_branch BB3
BB3
/* logical preds: / linear preds: BB2, / kind: uniform, loop depth: 1, */
   p_branch BB18
BB4
/* logical preds: / linear preds: BB2, / kind: uniform, loop depth: 1, */
   p_logical_start
   p_logical_end
   p_branch BB6
BB5
/* logical preds: / linear preds: BB1, / kind: uniform, loop depth: 1, */
   p_branch BB6
BB6
/* logical preds: / linear preds: BB4, BB5, / kind: invert, loop depth: 1, */
   p_branch BB7
BB7
/* logical preds: BB1, / linear preds: BB6, / kind: uniform, loop depth: 1, */
   p_logical_start
   p_logical_end
   p_branch BB9
BB8
/* logical preds: / linear preds: BB6, / kind: uniform, loop depth: 1, */
   p_branch BB9
BB9
/* logical preds: BB7, / linear preds: BB7, BB8, / kind: merge, branch, loop depth: 1, */
   p_logical_start
   v1: %5 = v_add_nc_u32 3, %2
   v1: %6 = v_and_b32 1, %5
   {lm}: %4 = v_cmp_ne_u32_e64 %6, 0
   {lm}: %43, s1: %42:scc = s_not_b{w} %41
   p_logical_end
   p_cbranch_z %4 BB13, BB10
BB10
/* logical preds: BB9, / linear preds: BB9, / kind: continue, loop depth: 1, */
   p_logical_start
   p_logical_end
   p_branch BB11
BB11
/* logical preds: / linear preds: BB10, / kind: uniform, loop depth: 1, */
   p_branch BB1
BB12
/* logical preds: / linear preds: BB10, / kind: uniform, loop depth: 1, */
   p_logical_start
   p_logical_end
   p_branch BB14
BB13
/* logical preds: / linear preds: BB9, / kind: uniform, loop depth: 1, */
   p_branch BB14
BB14
/* logical preds: / linear preds: BB12, BB13, / kind: invert, loop depth: 1, */
   p_branch BB15
BB15
/* logical preds: BB9, / linear preds: BB14, / kind: uniform, loop depth: 1, */
   p_logical_start
   p_logical_end
   p_branch BB17
BB16
/* logical preds: / linear preds: BB14, / kind: uniform, loop depth: 1, */
   p_branch BB17
BB17
/* logical preds: BB15, / linear preds: BB15, BB16, / kind: merge, continue, uniform, loop depth: 1, */
   p_logical_start
   v1: %7 = v_add_nc_u32 1, %5
   {lm}: %44 = v_cmp_lt_u32_e64 %7, 12
   p_logical_end
   p_branch BB1
BB18
/* logical preds: BB2, / linear preds: BB3, / kind: top-level, loop-exit, */
   v1: %8 = p_phi %2
   {lm}: %45 = p_phi %41 boolean
   p_logical_start
   v1: %46 = v_cndmask_b32_e64 0, 1, %45
   p_unit_test %8, %46
   p_logical_end
"""


def fmt(text: str, wave: int) -> str:
    lm = "s1" if wave == 32 else "s2"
    zero = "0" if wave == 32 else "0_b64"
    return text.format(wave=f"wave{wave}", lm=lm, w=wave, zero=zero)
