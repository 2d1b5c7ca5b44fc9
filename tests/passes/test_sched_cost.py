"""sched_cost: the one-pass pricing of region orders against a step-by-step
reference.

The reference (`_reference` below) takes the s_delay_alu that insert_delay_alu's
own emission inserts into the run plus tail (`DelaySim.run`: the pass's
per-instruction state updates and merging), counts s_clause as
form_hard_clauses' `clause_type` / `should_form_clause` group them, and
issues the emitted instructions in order with statistics.instr_costs (the
generation's cycle model). `RegionCoster.costs` must give
the same four figures for random straight-line post-RA programs (VALU,
transcendental, SALU/SCC, VCC, global/LDS/SMEM loads, stores, va_vdst waits;
VOPD pairs), from random start states (the pass's `DelaySim` state, and the
same reached by `RegionCoster.catch_up` steps), in wave32/wave64, with and
without the ``delay_alu`` feature (gfx1100 / gfx1030).
"""

from __future__ import annotations

import random
import re

import pytest
from sched_check import random_body
from waitcnt_util import TOP, depctr

from radcc.ir.parser import parse_program
from radcc.ir.program import Instruction, Program
from radcc.isa.cycle_model import InstrClass, cycle_model
from radcc.passes import insert_delay_alu, sched_cost
from radcc.passes.access import AccessCache
from radcc.passes.form_hard_clauses import clause_type, should_form_clause
from radcc.passes.insert_delay_alu import DelaySim, DelayState
from radcc.passes.sched_cost import Clock, Cost, DelayCursor, RegionCoster
from radcc.passes.schedule_vopd import pair_greedily
from radcc.passes.statistics import instr_costs
from radcc.target import GfxLevel

EXTRA = [
    "s1: s[8] = s_load_b32 s2: s[6-7] offset:0x0",
    "s1: s[9] = s_load_b32 s2: s[6-7] offset:0x4",
    "v1: v[3] = v_sqrt_f32 v1: v[2]",
    "v1: v[4] = v_log_f32 v1: v[4]",
    "s1: s[2], s1: scc = s_add_u32 s1: s[1], s1: s[5]",
    depctr(va_vdst=0),
    "v1: v[5] = global_load_b32 v1: v[1], s2: s[6-7] offset:0x10",
]


def _body(rng: random.Random, n: int) -> str:
    lines = random_body(rng, n).splitlines(keepends=True)
    for _ in range(n // 6):
        lines.insert(rng.randrange(len(lines) + 1), f"   {rng.choice(EXTRA)}\n")
    return "".join(lines)


GFX10_NAMES = {"s_load_b32": "s_load_dword", "global_load_b32": "global_load_dword",
               "ds_load_b32": "ds_read_b32", "global_store_b32": "global_store_dword"}


def _program(body: str, cpu: str, wave: int) -> Program:
    if cpu == "gfx1030":
        body = re.sub(r"\b(\w+)\b", lambda m: GFX10_NAMES.get(m[1], m[1]), body)
    return parse_program(f"program {cpu} wave{wave} compute\nBB0\n/* {TOP} */\n"
                         + body + "   s_endpgm\n")


def _reference(program: Program, state: DelayState, clock: Clock,
               instrs: list[Instruction], tail: list[Instruction]) -> Cost:
    acc = AccessCache(program)
    emitted, _ = DelaySim(program).run(state, instrs + tail)
    n_delay = sum(i.opcode == "s_delay_alu" for i in emitted)
    clauses = members = run = 0
    prev: Instruction | None = None
    for ins in emitted:
        info = acc(ins).info if ins.opcode != "s_delay_alu" else None
        ctype = clause_type(program, ins, info) if info is not None else None
        if prev is not None and ctype is not None and \
                ctype == clause_type(program, prev, acc(prev).info) and \
                should_form_clause(prev, acc(prev).info, ins, info):  # type: ignore[arg-type]
            run += 1
            prev = ins
            continue
        if run >= 2:
            clauses, members = clauses + 1, members + run
        run, prev = (1, ins) if ctype is not None else (0, None)
    if run >= 2:
        clauses, members = clauses + 1, members + run
    t = end = clock.t
    ready = dict(clock.ready)
    for ins in emitted:
        a = acc(ins)
        if a.info is None:
            continue
        issue, lat = instr_costs(program, ins, a.info)
        start = max([t] + [ready.get(r, 0) for r in a.reads])
        t = start + issue
        for r in a.writes:
            ready[r] = start + lat
        end = max(end, start + lat)
    coster = RegionCoster(program)
    size = sum(coster._size(i) for i in instrs) + 4 * (n_delay + clauses)
    return Cost(len(instrs) + n_delay + clauses, size, max(t, end) - clock.t + clauses,
                members)


# Longer ALU latencies than the hardware's (both sides read the generation's cycle
# model): VALU/trans producers then expire by count (VALU_MAX / TRANS_MAX) before
# their cycles, and several SALU results are pending at once. Patched in the cached
# model's table itself (restored after the test), not by replacing a module's
# `cycle_model`: insert_delay_alu may be compiled (radcc.compiled), and a compiled
# module calls the function it imported directly.
def _slow_cycles(monkeypatch: pytest.MonkeyPatch) -> None:
    for gfx in (GfxLevel.GFX10, GfxLevel.GFX10_3, GfxLevel.GFX11):
        table = cycle_model(gfx).delay_alu
        for c, n in list(table.items()):
            monkeypatch.setitem(table, c, n + (6 if c is InstrClass.VALU_TRANSCENDENTAL32
                                                else 4))


@pytest.mark.parametrize("slow", [False, True])
@pytest.mark.parametrize("cpu,wave", [("gfx1100", 32), ("gfx1100", 64), ("gfx1030", 32)])
@pytest.mark.parametrize("seed", range(8))
def test_costs_match_the_step_by_step_reference(cpu: str, wave: int, seed: int, slow: bool,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    if slow:
        _slow_cycles(monkeypatch)
    rng = random.Random(seed * 7 + wave)
    p = _program(_body(rng, 60), cpu, wave)
    instrs = p.blocks[0].instructions[:-1]
    coster = RegionCoster(p)
    for _ in range(6):
        k = rng.randrange(len(instrs) - 10)
        m = rng.randrange(k + 2, min(len(instrs), k + 30))
        prefix, region, tail = instrs[:k], instrs[k:m], instrs[m:m + 8]
        state = DelaySim(p).run(DelayState(), prefix)[1]
        clock = coster.advance(Clock(), prefix)
        orders = [region, rng.sample(region, len(region)), list(region)]
        if wave == 32 and cpu == "gfx1100":
            acc = AccessCache(p)
            orders.append(pair_greedily(p, region, [acc(i) for i in region]))
        got = coster.costs(state, clock, orders, tail)
        for order, cost in zip(orders, got, strict=True):
            assert cost == _reference(p, state, clock, order, tail)
        assert got[0] is got[2]  # the same instructions: priced once
        # the same state reached by DelayCursor steps (dropping expired registers
        # early on odd seeds)
        monkeypatch.setattr(sched_cost, "_PRUNE", 2 if seed % 2 else 48)
        cur = DelayCursor()
        cut = rng.randrange(k + 1)
        coster.catch_up(cur, prefix[:cut])
        coster.catch_up(cur, prefix[cut:])
        assert coster.costs(cur, clock, orders, tail) == got


def test_a_wait_for_a_recent_valu_is_counted() -> None:
    # v_exp (trans) then its consumer: TRANS32_DEP_1, one s_delay_alu, 4 bytes
    p = _program("   v1: v[1] = v_exp_f32 v1: v[0]\n"
                 "   v1: v[2] = v_mul_f32 v1: v[1], v1: v[1]\n", "gfx1100", 32)
    region = p.blocks[0].instructions[:2]
    c = RegionCoster(p).cost(DelayState(), Clock(), region, [])
    assert c.instructions == 3
    assert c.bytes == 4 + 4  # the VOP2 v_mul (v_dual_mul_f32 exists), the s_delay_alu
    # exp issues at 0 (ready at 10), s_delay_alu at 1, mul waits: 10 + 5
    assert c.latency == 15


def _inserted(p: Program) -> int:
    """s_delay_alu the insert_delay_alu pass itself puts into the block."""
    insert_delay_alu.insert_delay_alu(p)
    return sum(i.opcode == "s_delay_alu" for i in p.blocks[0].instructions)


def test_a_transcendental_three_back_is_the_last_one_named() -> None:
    # TRANS32_DEP_1..3: a consumer of the 4th most recent transcendental gets no
    # s_delay_alu (its 10 cycles are not over, but the field cannot name it)
    exps = "".join(f"   v1: v[{r}] = v_exp_f32 v1: v[0]\n" for r in (1, 2, 3, 4))
    use = "   v1: v[5] = v_mul_f32 v1: v[{}], v1: v[{}]\n"
    for r, delays in ((1, 0), (2, 1)):
        body = exps + use.format(r, r)
        p = _program(body, "gfx1100", 32)
        region = p.blocks[0].instructions[:-1]
        c = RegionCoster(p).cost(DelayState(), Clock(), region, [])
        assert c.instructions == 5 + delays
        assert _inserted(_program(body, "gfx1100", 32)) == delays


def test_a_salu_wait_covers_the_older_salu_results(monkeypatch: pytest.MonkeyPatch) -> None:
    # with 4 SALU cycles pending: s_cselect waits for scc (and the v_cmp result:
    # two fields, nothing to merge into); s[1], written with scc, is covered too
    _slow_cycles(monkeypatch)
    body = ("   s1: s[1], s1: scc = s_add_u32 s1: s[2], s1: s[3]\n"
            "   s1: s[4] = v_cmp_lt_f32_e64 v1: v[0], v1: v[1]\n"
            "   s1: s[5] = s_cselect_b32 s1: s[4], s1: s[2], s1: scc\n"
            "   s1: s[6], s1: scc = s_add_u32 s1: s[1], s1: s[2]\n")
    p = _program(body, "gfx1100", 32)
    region = p.blocks[0].instructions[:-1]
    c = RegionCoster(p).cost(DelayState(), Clock(), region, [])
    assert _inserted(_program(body, "gfx1100", 32)) == 1
    assert c.instructions == 4 + 1


@pytest.mark.parametrize("prune", [0, 48])
def test_a_pending_salu_result_survives_catch_up(prune: int,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # s_add's result read by the next SALU: SALU_CYCLE_1 (one cycle of two left),
    # also when the cursor stopped between them and dropped expired registers
    monkeypatch.setattr(sched_cost, "_PRUNE", prune)
    body = ("   s1: s[1], s1: scc = s_add_u32 s1: s[2], s1: s[3]\n"
            "   s1: s[4], s1: scc = s_add_u32 s1: s[1], s1: s[2]\n")
    p = _program(body, "gfx1100", 32)
    first, second = p.blocks[0].instructions[:2]
    coster = RegionCoster(p)
    cur = DelayCursor()
    coster.catch_up(cur, [first])
    clock = coster.advance(Clock(), [first])
    assert _inserted(_program(body, "gfx1100", 32)) == 1
    assert coster.cost(cur, clock, [second], []).instructions == 2
