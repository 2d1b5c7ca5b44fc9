"""Live-variable analysis: live-in sets, kill flags, register demand.

Seed: seeds/001 "Live-Variable Analysis" ("used to calculate the register
need of the shader ... for spilling and scheduling before register
allocation"); ACO's aco_live_var_analysis.cpp computes the same facts.

Liveness follows the CFG a value lives in, as in ACO: a *linear* temp
(SGPR, or linear VGPR) is live along linear edges, an ordinary VGPR along
logical edges. A phi's operand i is live at the end of predecessor i
(logical predecessors for ``p_phi``, linear ones for ``p_linear_phi``), not in
the phi's block; phi definitions are not live-in.

`live_var_analysis(program)` guarantees, for the program as it is now:

- `Liveness.live_in[b]` / `live_out[b]`: temp ids live at entry / exit of
  block b (live_out includes the operands of the successors' phis);
- kill flags: ``Operand.is_kill`` on every use after which the temp is dead
  (all operands of an instruction that read it), ``is_first_kill`` on the
  first of them; on phi operands, kill means "dead at the end of that
  predecessor apart from this phi"; ``Definition.is_kill`` on definitions
  never used. ``is_late_kill`` is an instruction property and is kept.
- register demand in dwords (sub-dword temps round up), counting temps only
  (not exec/vcc/scc read as fixed registers): `Liveness.register_demand[b][i]`
  is the demand *during* instruction i of block b: the temps live after it,
  plus all its definitions (dead ones too), plus late-kill operands that die
  there; ``Block.live_in_demand`` is the demand of live_in; ``Block.
  register_demand`` the maximum over the block; ``Program.max_reg_demand``
  the maximum over blocks;
- `Liveness.waves_per_simd`: `Target.waves_per_simd` of the maximum demand.

The result is kept for later passes: `get_live_vars(program)`.

Cost: gen/kill sets per block in one backward walk, a worklist fixed point
over blocks (highest index first, so loops converge in few rounds), then
one final backward walk per block to set flags and demand.
"""

from __future__ import annotations

import heapq
import weakref
from dataclasses import dataclass, field

from radcc.ir.program import Block, Instruction, Program, RegisterDemand
from radcc.ir.regclass import RegClass


@dataclass
class Liveness:
    live_in: list[set[int]] = field(default_factory=list)
    live_out: list[set[int]] = field(default_factory=list)
    register_demand: list[list[RegisterDemand]] = field(default_factory=list)
    max_demand: RegisterDemand = RegisterDemand()
    waves_per_simd: int = 0


_RESULTS: weakref.WeakKeyDictionary[Program, Liveness] = weakref.WeakKeyDictionary()


def get_live_vars(program: Program) -> Liveness:
    """The result of the last `live_var_analysis(program)`."""
    try:
        return _RESULTS[program]
    except KeyError:
        raise ValueError("live_var_analysis has not run on this program") from None


def is_linear(rc: RegClass) -> bool:
    """Lives in the linear CFG (SGPRs and linear VGPRs)."""
    return rc.is_sgpr or rc.linear


def _demand(rc: RegClass) -> RegisterDemand:
    return RegisterDemand(rc.size, 0) if rc.is_sgpr else RegisterDemand(0, rc.size)


class _Demand:
    """Running dword counts of a set of temps."""

    __slots__ = ("s", "v")

    def __init__(self) -> None:
        self.s = 0
        self.v = 0

    def add(self, rc: RegClass, sign: int = 1) -> None:
        if rc.is_sgpr:
            self.s += sign * rc.size
        else:
            self.v += sign * rc.size

    def get(self) -> RegisterDemand:
        return RegisterDemand(self.s, self.v)


def _phi_uses(block: Block) -> list[Instruction]:
    return [i for i in block.instructions if i.is_phi]


def _gen_kill(block: Block) -> tuple[set[int], set[int]]:
    gen: set[int] = set()
    kill: set[int] = set()
    for instr in reversed(block.instructions):
        for d in instr.definitions:
            if d.temp is not None:
                kill.add(d.temp.id)
                gen.discard(d.temp.id)
        if instr.is_phi:
            continue
        for o in instr.operands:
            if o.temp is not None:
                gen.add(o.temp.id)
    return gen, kill


def _live_out(program: Program, b: Block, live_in: list[set[int]],
              rc_of: dict[int, RegClass], with_phis: bool = True) -> set[int]:
    out: set[int] = set()
    for s in b.linear_succs:
        out.update(t for t in live_in[s] if is_linear(rc_of[t]))
    for s in b.logical_succs:
        out.update(t for t in live_in[s] if not is_linear(rc_of[t]))
    if with_phis:
        for s in set(b.linear_succs) | set(b.logical_succs):
            succ = program.blocks[s]
            for phi in _phi_uses(succ):
                preds = succ.logical_preds if phi.opcode == "p_phi" else succ.linear_preds
                for k, p in enumerate(preds):
                    if p == b.index and k < len(phi.operands):
                        o = phi.operands[k]
                        if o.temp is not None:
                            out.add(o.temp.id)
    return out


def _temp_classes(program: Program) -> dict[int, RegClass]:
    rc_of: dict[int, RegClass] = {}
    for b in program.blocks:
        for instr in b.instructions:
            for d in instr.definitions:
                if d.temp is not None:
                    rc_of[d.temp.id] = d.temp.rc
            for o in instr.operands:
                if o.temp is not None:
                    rc_of.setdefault(o.temp.id, o.temp.rc)
    return rc_of


def compute_live_sets(program: Program) -> tuple[list[set[int]], list[set[int]]]:
    """(live_in, live_out) per block, without touching the program."""
    n = len(program.blocks)
    rc_of = _temp_classes(program)
    gk = [_gen_kill(b) for b in program.blocks]
    live_in: list[set[int]] = [set() for _ in range(n)]
    heap = [-i for i in range(n)]
    heapq.heapify(heap)
    queued = [True] * n
    while heap:
        i = -heapq.heappop(heap)
        queued[i] = False
        b = program.blocks[i]
        gen, kill = gk[i]
        new = gen | (_live_out(program, b, live_in, rc_of) - kill)
        if new != live_in[i]:
            live_in[i] = new
            for p in set(b.linear_preds) | set(b.logical_preds):
                if not queued[p]:
                    queued[p] = True
                    heapq.heappush(heap, -p)
    live_out = [_live_out(program, b, live_in, rc_of) for b in program.blocks]
    return live_in, live_out


def _walk_block(program: Program, b: Block, live_out: set[int],
                rc_of: dict[int, RegClass]) -> tuple[list[RegisterDemand], set[int]]:
    live = set(live_out)
    cur = _Demand()
    for t in live:
        cur.add(rc_of[t])
    demands: list[RegisterDemand] = [RegisterDemand()] * len(b.instructions)
    for idx in range(len(b.instructions) - 1, -1, -1):
        instr = b.instructions[idx]
        during = _Demand()
        during.s, during.v = cur.s, cur.v
        for d in instr.definitions:
            if d.temp is None:
                continue
            if d.temp.id in live:
                live.discard(d.temp.id)
                cur.add(d.temp.rc, -1)
                d.is_kill = False
            else:
                d.is_kill = True
                during.add(d.temp.rc)  # a dead definition still takes registers
        if instr.is_phi:
            demands[idx] = during.get()
            continue
        ops = instr.operands
        for o in ops:
            if o.temp is not None:
                o.is_kill = False
                o.is_first_kill = False
        for k, o in enumerate(ops):
            if o.temp is None or o.is_kill:
                continue
            t = o.temp.id
            if t not in live:
                live.add(t)
                cur.add(o.temp.rc)
                o.is_kill = o.is_first_kill = True
                late = o.is_late_kill
                for o2 in ops[k + 1:]:
                    if o2.temp is not None and o2.temp.id == t:
                        o2.is_kill = True
                        late = late or o2.is_late_kill
                if late:
                    during.add(o.temp.rc)
        demands[idx] = during.get()
    return demands, live


def _set_phi_operand_kills(program: Program, b: Block, live_in: list[set[int]],
                           rc_of: dict[int, RegClass]) -> None:
    """Kill flags of the phi operands of block b, per incoming edge."""
    phis = _phi_uses(b)
    if not phis:
        return
    base: dict[int, set[int]] = {}
    killed_on_edge: dict[int, set[int]] = {}
    for phi in phis:
        preds = b.logical_preds if phi.opcode == "p_phi" else b.linear_preds
        for p, o in zip(preds, phi.operands, strict=False):
            if o.temp is None:
                continue
            if p not in base:
                base[p] = _live_out(program, program.blocks[p], live_in, rc_of, with_phis=False)
            o.is_kill = o.temp.id not in base[p]
            killed = killed_on_edge.setdefault(p, set())
            o.is_first_kill = o.is_kill and o.temp.id not in killed
            if o.is_kill:
                killed.add(o.temp.id)


def live_var_analysis(program: Program) -> None:
    """Compute liveness, kill flags and register demand (see module docstring)."""
    rc_of = _temp_classes(program)
    live_in, live_out = compute_live_sets(program)
    result = Liveness(live_in=live_in, live_out=live_out)
    max_demand = RegisterDemand()
    for b in program.blocks:
        demands, _ = _walk_block(program, b, live_out[b.index], rc_of)
        _set_phi_operand_kills(program, b, live_in, rc_of)
        li = RegisterDemand()
        for t in live_in[b.index]:
            li = li + _demand(rc_of[t])
        block_max = li
        for d in demands:
            block_max = block_max.max(d)
        b.live_in_demand = li
        b.register_demand = block_max
        max_demand = max_demand.max(block_max)
        result.register_demand.append(demands)
    program.max_reg_demand = max_demand
    result.max_demand = max_demand
    result.waves_per_simd = program.target.waves_per_simd(max_demand.vgpr, max_demand.sgpr,
                                                          program.wave_size)
    _RESULTS[program] = result
