"""Live-variable analysis: live-in sets, kill flags, register demand.

Source: ACO's README.md (Mesa src/amd/compiler) "Live-Variable Analysis" ("used to calculate the register
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

The result is kept on the program (`Program.analyses`, radcc/ir/analyses.py):
`get_live_vars(program)` returns it, computing it first when it is not current.
`live_var_analysis(program)` always computes it. Whoever changes what it reads
(temps, instructions, the CFG, the target) invalidates it: the pass manager
after each phase not declaring liveness preserved; a phase that changes the
program and reads liveness again calls `live_var_analysis` itself.
`liveness_is_exact` is the check of such declarations (``validateir``).
`liveness_after_reorder` makes it current without a new analysis after a phase that
only reordered instructions inside blocks and tracked their demands (the pre-RA
scheduler).

Cost: one forward walk gathers the temps' classes and each block's gen/kill sets,
a worklist fixed point over blocks (highest index first, so loops converge in few
rounds; the temps successors' phis read on each edge gathered once), then one final
backward walk per block to set flags and demand.
"""

from __future__ import annotations

import heapq

from radcc.ir.analyses import Liveness
from radcc.ir.program import PHI_OPCODES, Block, Instruction, Program, RegisterDemand
from radcc.ir.regclass import RegClass


def get_live_vars(program: Program) -> Liveness:
    """The program's current liveness (computed first if it is not current). Its
    users must not modify it."""
    live = program.analyses.liveness
    if live is None:
        _analyse(program)
        live = program.analyses.liveness
        assert live is not None
    return live


def is_linear(rc: RegClass) -> bool:
    """Lives in the linear CFG (SGPRs and linear VGPRs)."""
    return rc.is_sgpr or rc.linear


def _demand(rc: RegClass) -> RegisterDemand:
    return RegisterDemand(rc.size, 0) if rc.is_sgpr else RegisterDemand(0, rc.size)


def _phi_uses(block: Block) -> list[Instruction]:
    """The block's phis: they lead it (validate_ir), so the walk stops at the first
    instruction that is not one."""
    ins = block.instructions
    k = 0
    n = len(ins)
    while k < n and ins[k].opcode in PHI_OPCODES:
        k += 1
    return ins[:k]




class _Facts:
    """What the fixed point needs of the program, gathered in one walk: the class
    of every temp, the linear ones, per block its gen set (temps read before any
    definition in it; phi operands are not reads of the phi's block) and kill set
    (temps it defines), and the temps its successors' phis read on the edges from
    it."""

    __slots__ = ("rc_of", "linear", "sgpr_dwords", "vgpr_dwords", "phi_out", "gen_kill")

    def __init__(self, program: Program) -> None:
        rc_of: dict[int, RegClass] = {}
        gen_kill: list[tuple[set[int], set[int]]] = []
        for b in program.blocks:
            gen: set[int] = set()
            kill: set[int] = set()
            for instr in b.instructions:
                # an instruction reads its operands before it writes its definitions
                is_phi = instr.opcode in PHI_OPCODES
                for o in instr.operands:
                    t = o.temp
                    if t is not None:
                        tid = t.id
                        if tid not in rc_of:
                            rc_of[tid] = t.rc
                        if not is_phi and tid not in kill:
                            gen.add(tid)
                for d in instr.definitions:
                    t = d.temp
                    if t is not None:
                        rc_of[t.id] = t.rc
                        kill.add(t.id)
            gen_kill.append((gen, kill))
        self.rc_of = rc_of
        self.gen_kill = gen_kill
        linear: set[int] = set()
        # per temp: the dwords it takes in each register file (0 in the other one);
        # `is_linear` inlined (a temp is linear when it is an SGPR or a linear VGPR)
        sgpr_dwords: dict[int, int] = {}
        vgpr_dwords: dict[int, int] = {}
        for tid, rc in rc_of.items():
            if rc.is_sgpr:
                linear.add(tid)
                sgpr_dwords[tid] = rc.size
                vgpr_dwords[tid] = 0
            else:
                if rc.linear:
                    linear.add(tid)
                sgpr_dwords[tid] = 0
                vgpr_dwords[tid] = rc.size
        self.linear = linear
        self.sgpr_dwords = sgpr_dwords
        self.vgpr_dwords = vgpr_dwords
        self.phi_out: list[set[int]] = [set() for _ in program.blocks]
        blocks = program.blocks
        n = len(blocks)
        for j, succ in enumerate(blocks):
            for phi in _phi_uses(succ):
                preds = succ.logical_preds if phi.opcode == "p_phi" else succ.linear_preds
                ops = phi.operands
                for k, p in enumerate(preds):
                    if k < len(ops) and 0 <= p < n and ops[k].temp is not None and (
                            j in blocks[p].linear_succs or j in blocks[p].logical_succs):
                        self.phi_out[p].add(ops[k].temp.id)  # type: ignore[union-attr]

    def live_out(self, program: Program, b: Block, live_in: list[set[int]],
                 with_phis: bool = True) -> set[int]:
        out: set[int] = set()
        linear = self.linear
        for s in b.linear_succs:
            out |= live_in[s] & linear
        for s in b.logical_succs:
            out |= live_in[s] - linear
        if with_phis:
            out |= self.phi_out[b.index]
        return out


def _live_sets(program: Program, facts: _Facts) -> tuple[list[set[int]], list[set[int]]]:
    n = len(program.blocks)
    blocks = program.blocks
    gk = facts.gen_kill
    live_in: list[set[int]] = [set() for _ in range(n)]
    heap = [-i for i in range(n)]
    heapq.heapify(heap)
    queued = [True] * n
    # each block's live-out as last computed: every block is visited at least once, and
    # a block whose live-in changes queues its predecessors again (the CFG's
    # predecessor and successor lists agree, validate_ir), so at the fixed point each
    # holds the live-out of the final live-in sets
    live_out: list[set[int]] = [set() for _ in range(n)]
    while heap:
        i = -heapq.heappop(heap)
        queued[i] = False
        b = blocks[i]
        gen, kill = gk[i]
        out = live_out[i] = facts.live_out(program, b, live_in)
        new = gen | (out - kill)
        if new != live_in[i]:
            live_in[i] = new
            for p in set(b.linear_preds) | set(b.logical_preds):
                if not queued[p]:
                    queued[p] = True
                    heapq.heappush(heap, -p)
    return live_in, live_out


def compute_live_sets(program: Program) -> tuple[list[set[int]], list[set[int]]]:
    """(live_in, live_out) per block, without touching the program."""
    return _live_sets(program, _Facts(program))


def _walk_block(b: Block, live_out: set[int], facts: _Facts,
                made: dict[tuple[int, int], RegisterDemand]
                ) -> tuple[list[RegisterDemand], set[int], int, int]:
    """Kill flags and the demand during each instruction of `b`, walking back from
    `live_out`: (the demands, live-in without the phi definitions' effect, the
    maximum SGPR and VGPR demand of its instructions). `made` holds the demands made
    so far by (sgpr, vgpr): an equal one is shared (they are frozen)."""
    live = set(live_out)
    cur_s = sum(map(facts.sgpr_dwords.__getitem__, live))
    cur_v = sum(map(facts.vgpr_dwords.__getitem__, live))
    max_s = max_v = 0
    instrs = b.instructions
    demands: list[RegisterDemand] = [RegisterDemand()] * len(instrs)
    for idx in range(len(instrs) - 1, -1, -1):
        instr = instrs[idx]
        ds, dv = cur_s, cur_v  # the demand during the instruction
        for d in instr.definitions:
            t = d.temp
            if t is None:
                continue
            rc = t.rc
            tid = t.id
            if tid in live:
                live.discard(tid)
                if rc.is_sgpr:
                    cur_s -= rc.size
                else:
                    cur_v -= rc.size
                d.is_kill = False
            else:
                d.is_kill = True
                if rc.is_sgpr:  # a dead definition still takes registers
                    ds += rc.size
                else:
                    dv += rc.size
        if instr.opcode not in PHI_OPCODES:
            # one walk over the operands: the first read of a temp not live after the
            # instruction kills it (first kill), its other reads here kill it too; a
            # temp with a late-kill read among them takes its registers during the
            # instruction (counted once)
            killed: list[int] | None = None  # the temps killed here
            late: list[int] | None = None  # those of them counted as late kills
            for o in instr.operands:
                t = o.temp
                if t is None:
                    continue
                tid = t.id
                if tid not in live:
                    live.add(tid)
                    if killed is None:
                        killed = [tid]
                    else:
                        killed.append(tid)
                    o.is_kill = o.is_first_kill = True
                    rc = t.rc
                    if rc.is_sgpr:
                        cur_s += rc.size
                    else:
                        cur_v += rc.size
                elif killed is not None and tid in killed:
                    o.is_kill = True
                    o.is_first_kill = False
                else:
                    o.is_kill = o.is_first_kill = False
                    continue
                if o.is_late_kill and (late is None or tid not in late):
                    if late is None:
                        late = [tid]
                    else:
                        late.append(tid)
                    rc = t.rc
                    if rc.is_sgpr:
                        ds += rc.size
                    else:
                        dv += rc.size
        key = (ds, dv)
        dem = made.get(key)
        if dem is None:
            dem = made[key] = RegisterDemand(ds, dv)
        demands[idx] = dem
        if ds > max_s:
            max_s = ds
        if dv > max_v:
            max_v = dv
    return demands, live, max_s, max_v


def _set_phi_operand_kills(program: Program, b: Block, live_in: list[set[int]],
                           facts: _Facts) -> None:
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
                base[p] = facts.live_out(program, program.blocks[p], live_in, with_phis=False)
            o.is_kill = o.temp.id not in base[p]
            killed = killed_on_edge.setdefault(p, set())
            o.is_first_kill = o.is_kill and o.temp.id not in killed
            if o.is_kill:
                killed.add(o.temp.id)


def _signature(program: Program) -> list[object]:
    """Everything the analysis reads or writes, flattened: the target and wave
    size, the CFG, every instruction's opcode, temps and late-kill flags, the kill
    flags and demands. Equal signatures before and after an analysis mean the
    result it replaced was exact."""
    sig: list[object] = [program.target, program.wave_size, program.max_reg_demand]
    app = sig.append
    for b in program.blocks:
        app(b.index)
        app(tuple(b.linear_preds))
        app(tuple(b.logical_preds))
        app(tuple(b.linear_succs))
        app(tuple(b.logical_succs))
        app(b.live_in_demand)
        app(b.register_demand)
        app(len(b.instructions))
        for instr in b.instructions:
            app(instr.opcode)
            ops = instr.operands
            app(len(ops))
            for o in ops:
                t = o.temp
                app(t)
                if t is not None:
                    app(o.is_kill + 2 * o.is_first_kill + 4 * o.is_late_kill)
            defs = instr.definitions
            app(len(defs))
            for d in defs:
                t = d.temp
                app(t)
                if t is not None:
                    app(d.is_kill)
    return sig


def live_var_analysis(program: Program) -> None:
    """Compute liveness, kill flags and register demand now (see module docstring)."""
    _analyse(program)


def liveness_after_reorder(program: Program, before: Liveness,
                           demands: list[list[RegisterDemand]]) -> None:
    """Make the liveness current after instructions were only reordered inside their
    blocks, with their kill flags still true: `before` is the liveness of the
    program before the reordering (exact then) and `demands[b][i]` the demand during
    instruction i of block b as the reordering computed it (what live_var_analysis
    would compute now).

    A reordering inside a block moves no definition below a use of it (the block
    still reads its values after they are defined, and its phis stay first), so it
    changes no block's live-in or live-out set, nor a temp's class, nor
    ``Block.live_in_demand``; only the per-instruction demands and the maxima taken
    over them change (radcc/passes/scheduler.py, which tracks both and refuses moves
    that would change a kill flag, saves a second analysis with this). The result
    is the one `live_var_analysis` gives (``validateir`` checks it: the scheduler
    declares liveness preserved)."""
    prog_s = prog_v = 0
    for b, dems in zip(program.blocks, demands, strict=True):
        lid = b.live_in_demand
        max_s, max_v = lid.sgpr, lid.vgpr
        for d in dems:
            if d.sgpr > max_s:
                max_s = d.sgpr
            if d.vgpr > max_v:
                max_v = d.vgpr
        b.register_demand = RegisterDemand(max_s, max_v)
        if max_s > prog_s:
            prog_s = max_s
        if max_v > prog_v:
            prog_v = max_v
    max_demand = RegisterDemand(prog_s, prog_v)
    program.max_reg_demand = max_demand
    program.analyses.liveness = Liveness(
        live_in=before.live_in, live_out=before.live_out, register_demand=demands,
        max_demand=max_demand,
        waves_per_simd=program.target.waves_per_simd(max_demand.vgpr, max_demand.sgpr,
                                                     program.wave_size))


def liveness_is_exact(program: Program) -> bool:
    """Is the program's current liveness what a new analysis computes (kill flags and
    demands included)? Recomputes it (the check of a phase's declaration that it
    preserves liveness, radcc/passes/manager.py)."""
    if program.analyses.liveness is None:
        return True
    before = _signature(program)
    _analyse(program)
    return before == _signature(program)


def _analyse(program: Program) -> None:
    facts = _Facts(program)
    sgpr_dwords = facts.sgpr_dwords.__getitem__
    vgpr_dwords = facts.vgpr_dwords.__getitem__
    live_in, live_out = _live_sets(program, facts)
    result = Liveness(live_in=live_in, live_out=live_out)
    prog_s = prog_v = 0  # the program's maximum demand
    made: dict[tuple[int, int], RegisterDemand] = {}
    for b in program.blocks:
        demands, _, max_s, max_v = _walk_block(b, live_out[b.index], facts, made)
        _set_phi_operand_kills(program, b, live_in, facts)
        block_in = live_in[b.index]
        in_s = sum(map(sgpr_dwords, block_in))
        in_v = sum(map(vgpr_dwords, block_in))
        if in_s > max_s:
            max_s = in_s
        if in_v > max_v:
            max_v = in_v
        b.live_in_demand = RegisterDemand(in_s, in_v)
        b.register_demand = RegisterDemand(max_s, max_v)
        if max_s > prog_s:
            prog_s = max_s
        if max_v > prog_v:
            prog_v = max_v
        result.register_demand.append(demands)
    max_demand = RegisterDemand(prog_s, prog_v)
    program.max_reg_demand = max_demand
    result.max_demand = max_demand
    result.waves_per_simd = program.target.waves_per_simd(max_demand.vgpr, max_demand.sgpr,
                                                          program.wave_size)
    program.analyses.liveness = result
