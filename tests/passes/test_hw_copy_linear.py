"""Copies of linear VGPRs (ACO's README.md "Register Allocation": a linear VGPR
holds a value in every lane, whatever EXEC is): `hw_copy.sequentialize`
copies a unit whose destination is a linear VGPR in all lanes (under EXEC,
then under ~EXEC) and every other unit under EXEC only; checked with a small
per-lane model of the emitted instructions, on hand-made and random mixed
parallel copies, and through `lower_to_hw` on IR text."""

from __future__ import annotations

import random

import pytest

from radcc.ir.matcher import assert_ir_matches
from radcc.ir.parser import parse_program
from radcc.ir.program import Instruction
from radcc.ir.regclass import EXEC, SCC, VGPR_BASE
from radcc.passes.hw_copy import LoweringError, Unit, sequentialize
from radcc.passes.lower_to_hw import lower_to_hw

LANES = 4
V = VGPR_BASE


def simulate(seq: list[Instruction], vregs: dict[int, list[int]], exec_: int,
             sregs: dict[int, int]) -> int:
    """Run `seq` on per-lane VGPRs and scalar registers; returns the final EXEC."""
    def val(o, lane: int) -> int:
        if o.const is not None:
            return o.const
        r = o.phys.reg
        return vregs[r][lane] if r >= V else sregs[r]

    for ins in seq:
        op = ins.opcode
        if op == "v_mov_b32":
            d = ins.definitions[0].phys.reg
            new = [val(ins.operands[0], k) for k in range(LANES)]
            vregs[d] = [new[k] if exec_ >> k & 1 else vregs[d][k] for k in range(LANES)]
        elif op == "v_swap_b32":
            a, b = (x.phys.reg for x in ins.definitions)
            for k in range(LANES):
                if exec_ >> k & 1:
                    vregs[a][k], vregs[b][k] = vregs[b][k], vregs[a][k]
        elif op in ("s_not_b32", "s_not_b64"):
            exec_ = ~exec_ & ((1 << LANES) - 1)
            sregs[SCC] = int(exec_ != 0)
        elif op == "s_cselect_b32":
            sregs[ins.definitions[0].phys.reg] = 1 if sregs[SCC] else 0
        elif op == "s_cmp_lg_u32":
            sregs[SCC] = int(val(ins.operands[0], 0) != 0)
        else:
            raise AssertionError(op)
    return exec_


def check(units: list[Unit], exec_: int = 0b0101, **kw) -> list[Instruction]:
    regs = {u.dst for u in units} | {u.src for u in units if u.src is not None}
    before = {r: [r * 100 + k for k in range(LANES)] for r in regs}
    vregs = {r: list(v) for r, v in before.items()}
    sregs = {SCC: 1, 10: 77}
    seq = sequentialize(units, **kw)
    assert simulate(seq, vregs, exec_, sregs) == exec_
    if kw.get("scc_live"):
        assert sregs[SCC] == 1  # kept through the scratch SGPR
    # registers no lane keeps an ordinary value in: sources/destinations of linear units
    free = {u.dst for u in units if u.linear} | {u.src for u in units if u.linear}
    for u in units:
        for k in range(LANES):
            want = u.const if u.const is not None else before[u.src][k]
            if exec_ >> k & 1 or u.linear:
                assert vregs[u.dst][k] == want, (u, k, seq)
            elif u.dst not in free:
                assert vregs[u.dst][k] == before[u.dst][k], (u, k)
    return seq


def test_linear_move_runs_in_all_lanes_ordinary_one_under_exec():
    seq = check([Unit(V + 4, src=V + 2, linear=True), Unit(V + 2, src=V + 1)])
    assert [i.opcode for i in seq] == ["v_mov_b32", "s_not_b32", "v_mov_b32", "s_not_b32",
                                       "v_mov_b32"]


def test_linear_constant_in_wave64_keeps_live_scc_in_the_scratch_sgpr():
    seq = check([Unit(V + 1, const=5, linear=True)], scc_live=True, scratch_sgpr=10,
                wave64=True)
    assert [i.opcode for i in seq] == ["s_cselect_b32", "v_mov_b32", "s_not_b64", "v_mov_b32",
                                       "s_not_b64", "s_cmp_lg_u32"]


def test_live_scc_without_scratch_sgpr_is_refused():
    with pytest.raises(LoweringError, match="linear VGPR"):
        sequentialize([Unit(V + 1, src=V + 2, linear=True)], scc_live=True)


@pytest.mark.parametrize("linear", [(True, False, False), (False, True, False),
                                    (False, False, True), (True, True, False),
                                    (True, True, True), (False, False, False)])
def test_three_cycle_mixing_linear_and_ordinary_units(linear):
    regs = [V + 1, V + 2, V + 3]
    units = [Unit(regs[i], src=regs[(i + 1) % 3], linear=linear[i]) for i in range(3)]
    check(units)


@pytest.mark.parametrize("seed", range(60))
def test_random_mixed_parallel_copies(seed: int):
    r = random.Random(seed)
    regs = [V + i for i in range(8)]
    dsts = r.sample(regs, r.randrange(1, 8))
    units = [Unit(d, src=r.choice(regs), linear=r.random() < 0.4) for d in dsts]
    if r.random() < 0.5:  # a permutation: cycles
        perm = r.sample(dsts, len(dsts))
        units = [Unit(d, src=s, linear=r.random() < 0.4) for d, s in zip(dsts, perm, strict=True)]
    check(units, exec_=r.randrange(1 << LANES))


def test_lower_to_hw_marks_copies_of_linear_vgprs():
    p = parse_program("""program gfx1100 wave64 compute
BB0
/* logical preds: / linear preds: / kind: top-level, */
   v1: %1:v[0] = p_startpgm
   lv1: %4:v[2] = p_start_linear_vgpr
   lv1: %2:v[4], v1: %3:v[2] = p_parallelcopy %4:v[2], %1:v[0]
   p_unit_test %2:v[4], %3:v[2]
   s_endpgm
""")
    lower_to_hw(p)
    assert_ir_matches(p, """
        v1: v[4] = v_mov_b32 v1: v[2]
        >> s2: exec, s1: scc = s_not_b64 s2: exec
        >> v1: v[4] = v_mov_b32 v1: v[2]
        >> s2: exec, s1: scc = s_not_b64 s2: exec
        >> v1: v[2] = v_mov_b32 v1: v[0]
    """)
    assert EXEC  # the mask register the pattern names
