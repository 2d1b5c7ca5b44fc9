"""lower_to_cssa's guarantee on generated programs: after it, the values of each phi
congruence class (a phi's definition and its temp operands, joined across phis) do
not interfere pair by pair (the pass's own interference test), although its
dominance-forest merge (`_Forest`) tests each value only against its nearest
dominating member and the members it becomes the nearest dominator of. The
program's output being unchanged by the forest is tools/check_backend_output's."""

from __future__ import annotations

import io
import random

import pytest

from radcc.ir.program import Program
from radcc.passes.live_var_analysis import live_var_analysis
from radcc.passes.lower_to_cssa import _Ctx
from radcc.passes.manager import run_pipeline
from radcc.passes.options import DebugOptions
from radcc.target import get_target
from tests.support.randprog import GenConfig, generate, lower


def _classes(p: Program) -> list[list]:
    parent: dict[int, int] = {}
    temp = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for b in p.blocks:
        for i in b.instructions:
            if not i.is_phi or i.definitions[0].temp is None:
                continue
            d = i.definitions[0].temp
            temp[d.id] = d
            for o in i.operands:
                if o.temp is not None:
                    temp[o.temp.id] = o.temp
                    parent[find(o.temp.id)] = find(d.id)
    out: dict[int, list] = {}
    for t in temp:
        out.setdefault(find(t), []).append(temp[t])
    return list(out.values())


def _program(seed: int, size: int, wave: int) -> Program:
    rng = random.Random(seed)
    cfg = GenConfig(max_stmts=max(10, size // 5), max_depth=3, lanes=wave)
    p = lower(generate(rng.randint, cfg), get_target("gfx1100"), wave)
    run_pipeline(p, DebugOptions.parse(""), stop_after="lower_to_cssa", stream=io.StringIO())
    return p


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("wave", [32, 64])
def test_classes_are_interference_free(seed: int, wave: int):
    p = _program(seed * 7 + 1, 600, wave)
    live_var_analysis(p)
    ctx = _Ctx(p)
    phis = sum(1 for b in p.blocks for i in b.instructions if i.is_phi)
    classes = _classes(p)
    assert phis and classes
    for members in classes:
        for k, a in enumerate(members):
            for b in members[k + 1:]:
                assert not ctx.interfere(a, b), (a, b)


LOOP = """program gfx1100 {wave} compute
BB0
/* logical preds: / linear preds: / kind: top-level, loop-preheader, uniform, */
   s2: %1:s[0-1], v1: %2:v[0] = p_startpgm
   p_logical_start
   s2: %3 = s_load_b64 %1, 0
   v1: %4 = v_mov_b32 0
   v1: %5 = v_mov_b32 0x3f800000
   p_logical_end
   p_branch BB1
BB1
/* logical preds: BB0, BB1, / linear preds: BB0, BB1, / kind: loop-header, uniform, loop depth: 1, */
   v1: %6 = p_phi %4, %9
   v1: %7 = p_phi %4, %10
   v1: %8 = p_phi %5, %11
   p_logical_start
   v1: %9 = v_add_f32 %6, %2
   v1: %10 = v_mul_f32 %7, %2
   v1: %11 = v_add_nc_u32 %8, %9
   s1: %12 = v_cmp_lt_u32_e64 %9, 10
   p_logical_end
   p_cbranch_nz %12 BB1, BB2
BB2
/* logical preds: BB1, / linear preds: BB1, / kind: top-level, loop-exit, */
   p_logical_start
   global_store_b32 %2, %9, %3 offset:0
   global_store_b32 %2, %10, %3 offset:4
   global_store_b32 %2, %11, %3 offset:8
   p_logical_end
   s_endpgm
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_copy_of_a_constant_for_a_phi_is_the_constant(wave: int):
    # two loop accumulators start from one zero (value numbering joins their
    # v_mov_b32 0): the phi that cannot share %4's register gets a copy in the
    # preheader, of the constant 0 rather than of %4 (ACO's phis take constant
    # operands, get_phi_operand; its lower_to_cssa copies them). %5 joins its phi's
    # class (no copy) and stays a v_mov_b32.
    from radcc.ir.dominance import dominator_tree
    from radcc.ir.parser import parse_program
    from radcc.passes.lower_to_cssa import lower_to_cssa

    p = parse_program(LOOP.format(wave=f"wave{wave}"))
    dominator_tree(p)
    lower_to_cssa(p)
    pre = p.blocks[0].instructions
    copies = [i for i in pre if i.opcode == "p_parallelcopy"]
    assert len(copies) == 1 and len(copies[0].operands) == 1
    c = copies[0]
    assert c.operands[0].temp is None and c.operands[0].const == 0
    assert c.operands[0].const_bytes == 4
    phis = p.blocks[1].instructions[:3]
    assert phis[0].operands[0].temp.id == 4  # the first phi keeps %4 (no clash)
    assert phis[1].operands[0].temp.id == c.definitions[0].temp.id
    assert phis[2].operands[0].temp.id == 5
    assert [i.opcode for i in pre].count("v_mov_b32") == 2  # %4 and %5 stay


def test_constant_read_after_the_loop_is_copied_for_both_phis():
    # %4 is also stored after the loop, so it is live through it and clashes with
    # both phis: each gets a copy of the constant (one parallel copy of 0, 0), and
    # the move stays for the store
    from radcc.ir.dominance import dominator_tree
    from radcc.ir.parser import parse_program
    from radcc.ir.printer import print_program
    from radcc.passes.lower_to_cssa import lower_to_cssa

    text = LOOP.format(wave="wave64").replace(
        "   global_store_b32 %2, %11, %3 offset:8\n",
        "   global_store_b32 %2, %11, %3 offset:8\n   global_store_b32 %2, %4, %3 offset:12\n")
    p = parse_program(text)
    dominator_tree(p)
    lower_to_cssa(p)
    out = print_program(p)
    assert out.count("= p_parallelcopy 0, 0") == 1 and "v1: %4 = v_mov_b32 0" in out
