"""Spilling (ACO's README.md "Spilling"; the algorithm of ACO's aco_spill.cpp, after
Braun & Hack, "Register Spilling and Live-Range Splitting for SSA-Form Programs",
written anew).

`spill(program)` runs after live_var_analysis and lower_to_cssa. When the
program's maximum register demand fits the target (SGPRs: `Target.
addressable_sgprs`; VGPRs: the wave size's addressable VGPRs) it changes
nothing. Otherwise it guarantees afterwards, for the program as it is then:

- the register demand (live_var_analysis, recomputed) is at most the spill
  target in each file: SGPRs ``addressable_sgprs - SGPR_RESERVE``, VGPRs
  ``addressable_vgprs - VGPR_RESERVE - (linear VGPRs holding SGPR slots)``; the
  reserves leave the register allocator room for tuple alignment, fixed
  registers, the scratch SGPR of linear-VGPR copies and a long-jump pair;
- values are evicted by next-use distance (rematerialisable values first, below):
  before an instruction whose demand
  exceeds the target, the value in a register (not read or written by it) whose
  next use is furthest is spilled (``p_spill %v, slot`` if its slot does not
  already hold it on every path: an SSA value never changes, so one store
  serves every later reload) and reloaded right before its next use
  (``%v' = p_reload slot``); next-use distances are global (per block end, the
  minimum over successors along the value's CFG: linear for SGPRs and linear
  VGPRs, logical for VGPRs), an edge leaving a loop adding `LOOP_EXIT_DISTANCE`;
- block entry: a block with processed predecessors keeps in registers the
  live-in values in registers at the end of all of them, then those in some,
  nearest next use first, as many as the target allows beside the phis; a loop
  header first spills values live through the loop and not used in it (furthest
  next use first) while the loop's demand exceeds the target, then takes the
  values used in the loop (reloading them at the end of the preheader if need
  be) and those in registers at the end of the preheader, nearest next use first;
- coupling code on edges (ACO's "spilled on all / some predecessors"): a value
  the block expects in a register but a predecessor left spilled is reloaded at
  the end of that predecessor, a value the block expects spilled is stored there
  when its slot does not hold it yet (VGPRs before ``p_logical_end``, linear temps
  before the branch); back edges get theirs when the loop's last block is done.
  Phi operands are next uses at the end of their predecessor (kept in registers
  while near), not operands needing a register at once;
- phis (ACO's spilled phis): a phi whose operands are spilled at the end of every
  processed predecessor is spilled, then, while the phis and the unspillable
  live-ins of a file exceed the target, those whose next use is furthest. A spilled
  phi is removed; each predecessor stores its operand into the phi's slot (``p_spill
  %op, slot(phi)``; an operand itself spilled is copied slot to slot through a
  register, a reload/store pair dropped when spill_ssa gives both the same slot);
  its uses reload it like any spilled value. A kept phi's operands are reloaded at
  the end of a predecessor that left them spilled;
- SSA form: a reload defines a new temp; uses are renamed to the nearest
  definition, with new ``p_phi``/``p_linear_phi`` where several reach a block
  (Braun et al.'s SSA construction; trivial phis are removed);
- slots: spilled values whose slots are never live at once share one (spill_ssa:
  slot liveness from stores to reloads, first-fit colouring, a spilled phi
  coalesced with its spilled operands). SGPR slots are lanes of
  linear VGPRs (``lv1: %lv = p_start_linear_vgpr`` in the first block,
  ``p_end_linear_vgpr`` where the program ends): ``p_spill %s, lane, %lv`` /
  ``p_reload lane, %lv``. VGPR slots are dword offsets in the private segment
  after any scratch isel uses (``program.config.scratch_bytes_per_lane`` grows so
  `kernel_abi` enables it): ``p_spill %v, offset`` / ``p_reload offset``.
  `radcc.passes.spill_lower` turns them into ``v_writelane_b32`` /
  ``v_readlane_b32`` and ``scratch_store_b*`` / ``scratch_load_b*`` in
  lower_to_hw; ``program.config.spilled_sgprs``/``spilled_vgprs`` count the slots.

Values that cannot be spilled: temps defined in SCC/VCC/EXEC/M0, linear VGPRs,
sub-dword VGPRs. An instruction needing more registers at once than the target
(its operands and definitions, with what cannot be spilled) raises `SpillError`
naming the block and the instruction. Slots beyond what the scratch immediate offset
reaches, and every slot on a target without flat scratch ST mode (GFX10.1), are
addressed from an SGPR base (`radcc.passes.spill_ssa`).

A block with spilled phis keeps room (the largest spilled phi's size, below the
target) for a slot-to-slot copy that does not coalesce: it passes through one
register at the end of a predecessor, where at most the block's entry registers and
its kept phis' operands are live.

Rematerialisation (ACO): a value an instruction computes from constants alone
(opcode table: SALU/VALU, no implicit writes, implicit reads at most EXEC) is
evicted first among values not read by the instruction at hand; "spilling" it
stores nothing and each reload is a copy of its defining instruction
(``config.rematerialized`` counts them).

Not done: ACO's occupancy-driven target (only the register file limit triggers
spilling).
"""

from __future__ import annotations

import bisect
import copy
import heapq
from collections.abc import Iterable
from dataclasses import dataclass

from radcc.ir.printer import instruction_text
from radcc.ir.program import Block, Definition, Instruction, Operand, Program, RegisterDemand
from radcc.ir.regclass import VGPR_BASE, RegClass, Temp, lv1
from radcc.passes.live_var_analysis import get_live_vars, is_linear, live_var_analysis
from radcc.passes.ra_support import branch_index, logical_end_index
from radcc.passes.spill_ssa import SpillError, apply_plan

SGPR_RESERVE = 4
VGPR_RESERVE = 2
LOOP_EXIT_DISTANCE = 0xFFFF
INF = 1 << 60


@dataclass(frozen=True)
class SpillLimits:
    sgpr: int
    vgpr: int


def file_limits(program: Program) -> RegisterDemand:
    """What the target allows before spilling is needed."""
    return RegisterDemand(program.target.addressable_sgprs,
                          program.target.regfile(program.wave_size).addressable_vgprs)


def _kind(rc: RegClass) -> int:
    """0: SGPR, 1: VGPR."""
    return 0 if rc.is_sgpr else 1


class _Spiller:
    def __init__(self, program: Program, limit: tuple[int, int]) -> None:
        self.p = program
        self.limit = limit
        live = get_live_vars(program)
        self.live_in = live.live_in
        self.live_out = live.live_out
        self.demand = live.register_demand
        rc_of: dict[int, RegClass] = {}
        self.spillable: set[int] = set()
        top = program.target.addressable_sgprs
        for b in program.blocks:
            for ins in b.instructions:
                for d in ins.definitions:
                    t = d.temp
                    if t is None:
                        continue
                    rc_of[t.id] = t.rc
                    rc = t.rc
                    ok = not rc.linear and not rc.subdword
                    if d.phys is not None and rc.is_sgpr and d.phys.reg + rc.size > top:
                        ok = False
                    if ok:
                        self.spillable.add(t.id)
        self.rc_of = rc_of
        # the register file (`_kind`) of each spillable value
        self.spillable_kind = {t: _kind(rc_of[t]) for t in self.spillable}
        self.remat = _rematerialisable(program, self.spillable)
        self.n_remat = 0
        self._ends: dict[int, tuple[int, int]] = {}
        n = len(program.blocks)
        # per block: uses (position -> temps), incl. successor phi operands
        self.uses: list[dict[int, list[int]]] = []
        self.use_pos: list[dict[int, list[int]]] = []
        self.phi_uses: list[dict[int, list[int]]] = []  # position -> successor phi operands
        self.phis: list[list[Instruction]] = [b.instructions[:b.phi_end()]
                                              for b in program.blocks]
        for b in program.blocks:
            self._collect_uses(b)
        self.nu_end: list[dict[int, int]] = [{} for _ in range(n)]
        self._global_next_uses()
        # results of the walk
        self.regs_out: list[dict[int, int] | None] = [None] * n
        self.stored_out: list[set[int] | None] = [None] * n
        self.regs_in: list[set[int]] = [set() for _ in range(n)]
        self.spilled_in: list[set[int]] = [set() for _ in range(n)]
        self.inserts: list[dict[int, list[Instruction]]] = [{} for _ in range(n)]
        self.reload_of: dict[int, int] = {}
        self.slot_ops: dict[int, list[Operand]] = {}  # orig temp -> slot constants
        self.lv_ops: list[tuple[int, Operand]] = []  # (orig temp, lv operand) of SGPR slots
        self.spilled: set[int] = set()
        self.phi_spilled: set[int] = set()  # phi definitions kept in a slot, not a register
        self.reserve: list[list[int]] = [[0, 0] for _ in program.blocks]
        # (block, reload, spill, operand, phi) slot-to-slot copies a spilled phi's
        # operand spilled elsewhere needs; spill_ssa drops them when the slots coalesce
        self.slot_copies: list[tuple[int, Instruction, Instruction, int, int]] = []

    # -- analyses --------------------------------------------------------------
    def _collect_uses(self, b: Block) -> None:
        uses: dict[int, list[int]] = {}
        phi_uses: dict[int, list[int]] = {}  # successor phi operands: next uses only
        ins = b.instructions
        for i, instr in enumerate(ins):
            if instr.is_phi:
                continue
            ts = [o.temp.id for o in instr.operands if o.temp is not None]
            if ts:
                uses[i] = list(dict.fromkeys(ts))
        lend = logical_end_index(b)
        bend = branch_index(b)
        for s in sorted(set(b.linear_succs) | set(b.logical_succs)):
            succ = self.p.blocks[s]
            for phi in self.phis[s]:
                logical = phi.opcode == "p_phi"
                preds = succ.logical_preds if logical else succ.linear_preds
                for k, pr in enumerate(preds):
                    if pr != b.index or k >= len(phi.operands):
                        continue
                    t = phi.operands[k].temp
                    if t is None:
                        continue
                    pos = lend if logical and lend >= 0 else bend
                    lst = phi_uses.setdefault(pos, [])
                    if t.id not in lst:
                        lst.append(t.id)
        self.uses.append(uses)
        self.phi_uses.append(phi_uses)
        pos_of: dict[int, list[int]] = {}
        for i in sorted(set(uses) | set(phi_uses)):
            for t in dict.fromkeys(uses.get(i, []) + phi_uses.get(i, [])):
                pos_of.setdefault(t, []).append(i)
        self.use_pos.append(pos_of)

    def _global_next_uses(self) -> None:
        """nu_end[b][t]: instructions from the end of b to the next use of live-out t
        (a worklist in reverse block order: a block is revisited when the distances at
        the end of one of its successors fell)."""
        import heapq

        blocks = self.p.blocks
        lin = {t: is_linear(rc) for t, rc in self.rc_of.items()}
        work = [-b.index for b in blocks]
        heapq.heapify(work)
        queued = set(range(len(blocks)))
        while work:
            bi = -heapq.heappop(work)
            queued.discard(bi)
            b = blocks[bi]
            out = self.nu_end[bi]
            changed = False
            for t in self.live_out[bi]:
                linear = lin.get(t)
                if linear is None:
                    continue
                best = INF
                for s in (b.linear_succs if linear else b.logical_succs):
                    d = self._nu_start(s, t)
                    if d >= INF:
                        continue
                    if blocks[s].loop_nest_depth < b.loop_nest_depth:
                        d += LOOP_EXIT_DISTANCE
                    if d < best:
                        best = d
                if best < out.get(t, INF):
                    out[t] = best
                    changed = True
            if changed:
                for q in set(b.linear_preds) | set(b.logical_preds):
                    if q not in queued:
                        queued.add(q)
                        heapq.heappush(work, -q)

    def _nu_start(self, s: int, t: int) -> int:
        pos = self.use_pos[s].get(t)
        if pos:
            return pos[0]
        if t in self.live_out[s] and t in self.live_in[s]:
            return len(self.p.blocks[s].instructions) + self.nu_end[s].get(t, INF)
        return INF

    def next_use(self, b: int, t: int, i: int) -> int:
        """Distance from position i of block b to the next use of t at or after i."""
        pos = self.use_pos[b].get(t)
        if pos:
            k = bisect.bisect_left(pos, i)
            if k < len(pos):
                return pos[k] - i
        if t in self.live_out[b]:
            return len(self.p.blocks[b].instructions) - i + self.nu_end[b].get(t, INF)
        return INF

    # -- helpers ------------------------------------------------------------------
    def size(self, t: int) -> int:
        return self.rc_of[t].size

    def preds_of(self, b: Block, t: int) -> list[int]:
        return b.linear_preds if is_linear(self.rc_of[t]) else b.logical_preds

    def end_pos(self, b: Block, t: int) -> int:
        """Where end-of-block code for t goes: before p_logical_end (VGPRs), else
        before the branch (positions in the block as it was before spilling)."""
        ends = self._ends.get(b.index)
        if ends is None:
            ends = self._ends[b.index] = (logical_end_index(b), branch_index(b))
        if ends[0] >= 0 and not is_linear(self.rc_of[t]):
            return ends[0]
        return ends[1]

    def make_spill(self, t: int, src: Temp | None = None) -> Instruction | None:
        """Store t (or `src`, a value of the same class: a spilled phi's operand)
        into t's slot; None for a value rematerialised instead."""
        if src is None and t in self.remat:
            return None
        self.spilled.add(t)
        slot = Operand.c32(0)
        self.slot_ops.setdefault(t, []).append(slot)
        ops = [Operand(src or Temp(t, self.rc_of[t])), slot]
        if self.rc_of[t].is_sgpr:
            lv = Operand(rc=lv1)
            self.lv_ops.append((t, lv))
            ops.append(lv)
        return Instruction("p_spill", "PSEUDO", ops, [])

    def make_reload(self, t: int, rename: bool = True) -> Instruction:
        """Reload t from its slot into a new temp (one the SSA repair renames t's
        uses to unless `rename` is False); a rematerialisable t is computed again."""
        if t in self.remat:
            d = self.remat[t]
            new = self.p.allocate_temp(self.rc_of[t])
            if rename:
                self.reload_of[new.id] = t
            self.n_remat += 1
            return Instruction(d.opcode, d.format, [copy.copy(o) for o in d.operands],
                               [Definition(new)], dict(d.fields))
        slot = Operand.c32(0)
        self.slot_ops.setdefault(t, []).append(slot)
        new = self.p.allocate_temp(self.rc_of[t])
        if rename:
            self.reload_of[new.id] = t
        ops = [slot]
        if self.rc_of[t].is_sgpr:
            lv = Operand(rc=lv1)
            self.lv_ops.append((t, lv))
            ops.append(lv)
        return Instruction("p_reload", "PSEUDO", ops, [Definition(new)])

    def error(self, b: Block, i: int, msg: str) -> SpillError:
        ins = b.instructions
        what = f"'{instruction_text(self.p, ins[i])}': " if i < len(ins) else "end: "
        return SpillError(f"spill: BB{b.index}: {what}{msg}")

    # -- the walk -----------------------------------------------------------------
    def run(self) -> None:
        blocks = self.p.blocks
        for b in blocks:
            regs, stored = self.entry(b)
            self.process(b, regs, stored)
            for s in sorted(set(b.linear_succs) | set(b.logical_succs)):
                if s <= b.index:
                    self.couple(blocks[s], b.index)

    def entry(self, b: Block) -> tuple[dict[int, int], set[int]]:
        li = self.live_in[b.index]
        kept = self.choose_phis(b)
        phi_dem = [0, 0]
        for t in kept:
            phi_dem[_kind(self.rc_of[t])] += self.size(t)
        regs: dict[int, int] = {}
        stored: set[int] = set()
        header = any(p >= b.index for p in set(b.linear_preds) | set(b.logical_preds))
        for k in (0, 1):
            cap = self.limit[k] - phi_dem[k] - self.reserve[b.index][k]
            cands = [t for t in li if _kind(self.rc_of[t]) == k]
            forced = [t for t in cands if t not in self.spillable]
            free = [t for t in cands if t in self.spillable]
            used = sum(self.size(t) for t in forced)
            for t in forced:
                regs[t] = self.size(t)

            def in_regs(t: int, p: int) -> bool:
                ro = self.regs_out[p]
                return ro is not None and t in ro

            def done_preds(t: int) -> list[int]:
                return [p for p in self.preds_of(b, t) if p < b.index]

            if header:
                nu = {t: self.next_use(b.index, t, 0) for t in free}
                loop_dem = self.loop_demand(b, k)
                excess = loop_dem - self.limit[k]
                keep: list[int] = []
                for t in sorted(free, key=lambda t: -nu[t]):
                    if excess > 0 and nu[t] >= LOOP_EXIT_DISTANCE:
                        excess -= self.size(t)
                        continue
                    keep.append(t)
                # values used in the loop enter it in registers (reloaded once at the end
                # of the preheader if need be), nearest next use first; the others only
                # if they are in registers already
                order = sorted((t for t in keep if nu[t] < LOOP_EXIT_DISTANCE
                                or all(in_regs(t, p) for p in done_preds(t))),
                               key=lambda t: nu[t])
            else:
                nu = {t: self.next_use(b.index, t, 0) for t in free}
                all_ = [t for t in free if done_preds(t)
                        and all(in_regs(t, p) for p in done_preds(t))]
                some = [t for t in free if t not in all_
                        and any(in_regs(t, p) for p in done_preds(t))]
                order = sorted(all_, key=lambda t: nu[t]) + sorted(some, key=lambda t: nu[t])
            for t in order:
                if used + self.size(t) <= cap:
                    regs[t] = self.size(t)
                    used += self.size(t)
        for t in li:
            preds = [p for p in self.preds_of(b, t) if p < b.index]
            so = [self.stored_out[p] for p in preds]
            if so and all(s is not None and t in s for s in so):
                stored.add(t)
        self.regs_in[b.index] = set(regs)
        self.spilled_in[b.index] = set(li) - set(regs)
        stored |= self.spilled_in[b.index]
        for p in sorted(set(b.linear_preds) | set(b.logical_preds)):
            if p < b.index:
                self.couple(b, p)
        for ins in self.phis[b.index]:
            for d in ins.definitions:
                if d.temp is None:
                    continue
                if d.temp.id in kept:
                    regs[d.temp.id] = d.temp.rc.size
                else:
                    stored.add(d.temp.id)
        return regs, stored

    def phi_preds(self, b: Block, phi: Instruction) -> list[int]:
        return b.logical_preds if phi.opcode == "p_phi" else b.linear_preds

    def choose_phis(self, b: Block) -> set[int]:
        """The phi definitions of b kept in registers; the others are spilled (ACO:
        a phi whose operands are spilled at the end of every processed predecessor,
        then, while the phis and the unspillable live-ins exceed the target, those
        whose next use is furthest). A spilled phi gets no register: its operands are
        stored into its slot at the end of the predecessors (`couple`)."""
        kept: set[int] = set()
        li = self.live_in[b.index]
        for k in (0, 1):
            dem = sum(self.size(t) for t in li
                      if _kind(self.rc_of[t]) == k and t not in self.spillable)
            cands: list[int] = []
            for phi in self.phis[b.index]:
                d = phi.definitions[0].temp if phi.definitions else None
                if d is None or _kind(d.rc) != k:
                    continue
                if d.id not in self.spillable or any(o.temp is None and not o.is_undef
                                                     for o in phi.operands):
                    kept.add(d.id)
                    dem += d.rc.size
                    continue
                done = [(j, p) for j, p in enumerate(self.phi_preds(b, phi))
                        if p < b.index and j < len(phi.operands)]
                ro = self.regs_out
                if done and all(phi.operands[j].temp is None
                                or phi.operands[j].temp.id not in (ro[p] or {})
                                for j, p in done):
                    self.phi_spilled.add(d.id)
                else:
                    cands.append(d.id)
            order = sorted(cands, key=lambda t: (self.next_use(b.index, t, 0), t))
            for t in order:
                if dem + self.size(t) <= self.limit[k]:
                    kept.add(t)
                    dem += self.size(t)
                else:
                    self.phi_spilled.add(t)
            # room for a slot-to-slot copy of a spilled phi's operand at the end of a
            # predecessor (one value through a register, `couple`)
            reserve = max((self.size(t) for t in self._block_phis(b, k)
                           if t in self.phi_spilled), default=0)
            for t in reversed(order):
                if dem <= self.limit[k] - reserve:
                    break
                if t in kept:
                    kept.discard(t)
                    self.phi_spilled.add(t)
                    dem -= self.size(t)
                    reserve = max(reserve, self.size(t))
            self.reserve[b.index][k] = reserve
        return kept

    def _block_phis(self, b: Block, k: int) -> list[int]:
        return [phi.definitions[0].temp.id for phi in self.phis[b.index]
                if phi.definitions and phi.definitions[0].temp is not None
                and _kind(phi.definitions[0].temp.rc) == k]

    def loop_demand(self, h: Block, k: int) -> int:
        """Max demand of kind k over the loop headed by h (contiguous blocks up to
        its last back edge)."""
        end = max(p for p in set(h.linear_preds) | set(h.logical_preds))
        best = 0
        for bi in range(h.index, end + 1):
            d = self.p.blocks[bi].register_demand
            best = max(best, d.sgpr if k == 0 else d.vgpr)
        return best

    def couple(self, b: Block, p: int) -> None:
        """Coupling code on the edge p -> b (p processed, b's entry decided)."""
        pred = self.p.blocks[p]
        ro = self.regs_out[p]
        so = self.stored_out[p]
        assert ro is not None and so is not None
        spills: list[tuple[int, Instruction]] = []
        reloads: list[tuple[int, Instruction]] = []
        for t in sorted(self.live_in[b.index]):
            if p not in self.preds_of(b, t):
                continue
            if t in self.regs_in[b.index]:
                if t not in ro:
                    reloads.append((self.end_pos(pred, t), self.make_reload(t)))
                    ro[t] = self.size(t)
            elif t not in so:
                if t not in ro:
                    raise self.error(pred, len(pred.instructions),
                                     f"%{t} is neither in a register nor spilled")
                st = self.make_spill(t)
                if st is not None:
                    spills.append((self.end_pos(pred, t), st))
                so.add(t)
        copies: list[tuple[int, Instruction]] = []
        for phi in self.phis[b.index]:
            d = phi.definitions[0].temp if phi.definitions else None
            if d is None:
                continue
            for j, pr in enumerate(self.phi_preds(b, phi)):
                if pr != p or j >= len(phi.operands):
                    continue
                o = phi.operands[j].temp
                if o is None:
                    continue
                pos = self.end_pos(pred, d.id)
                if d.id not in self.phi_spilled:
                    if o.id not in ro:
                        if o.id not in so:
                            raise self.error(pred, len(pred.instructions),
                                             f"%{o.id} is neither in a register nor spilled")
                        reloads.append((pos, self.make_reload(o.id)))
                        ro[o.id] = o.rc.size
                elif o.id in ro:
                    spills.append((pos, self.make_spill(d.id, src=o)))  # type: ignore[arg-type]
                elif o.id in so:  # slot to slot, through a register unless they coalesce
                    r = self.make_reload(o.id, rename=False)
                    w = self.make_spill(d.id, src=r.definitions[0].temp)
                    assert w is not None
                    copies += [(pos, r), (pos, w)]
                    self.slot_copies.append((p, r, w, o.id, d.id))
                else:
                    raise self.error(pred, len(pred.instructions),
                                     f"%{o.id} is neither in a register nor spilled")
        for pos, ins in spills + copies + reloads:
            self.inserts[p].setdefault(pos, []).append(ins)

    def process(self, b: Block, regs: dict[int, int], stored: set[int]) -> None:
        bi = b.index
        ins = b.instructions
        dem = [0, 0]
        for t, n in regs.items():
            dem[_kind(self.rc_of[t])] += n
        uses = self.uses[bi]
        phi_uses = self.phi_uses[bi]
        # the spill candidates by next use, made at the first instruction over the limit
        victims: _Victims | None = None
        for i in range(len(ins) + 1):
            instr = ins[i] if i < len(ins) else None
            if instr is not None and instr.is_phi:
                continue
            ops = uses.get(i, [])
            if victims is not None:  # the values used here have their next use further on
                victims.passed(ops, i)
                victims.passed(phi_uses.get(i, ()), i)
            defs = [d.temp for d in instr.definitions if d.temp is not None] if instr else []
            late = {o.temp.id for o in instr.operands if o.temp is not None
                    and o.is_late_kill} if instr else set()
            reload = [t for t in ops if t not in regs]
            dying = [t for t in ops if self.next_use(bi, t, i + 1) >= INF]
            before = list(dem)
            for t in reload:
                before[_kind(self.rc_of[t])] += self.size(t)
            during = list(before)
            for t in dying:
                if t not in late:
                    during[_kind(self.rc_of[t])] -= self.size(t)
            for d in defs:
                during[_kind(d.rc)] += d.rc.size
            pre: list[Instruction] = []
            opset = set(ops)
            for k in (0, 1):
                need = max(before[k], during[k])
                if need <= self.limit[k]:
                    continue
                if victims is None:
                    victims = _Victims(self, bi, regs, i)
                while need > self.limit[k]:
                    # furthest next use, a rematerialisable value first (ACO)
                    best = victims.furthest(k, i, opset)
                    if best < 0:
                        kind = "SGPRs" if k == 0 else "VGPRs"
                        raise self.error(b, i, f"needs {need} {kind} at once, more than the "
                                               f"{self.limit[k]} spilling can leave")
                    n = regs.pop(best)
                    dem[k] -= n
                    need -= n
                    if best not in stored:
                        st = self.make_spill(best)
                        if st is not None:
                            pre.append(st)
                        stored.add(best)
                victims.restore(k)
            for t in reload:
                pre.append(self.make_reload(t))
                regs[t] = self.size(t)
                dem[_kind(self.rc_of[t])] += self.size(t)
                if victims is not None:
                    victims.add(t, i + 1)
            if pre:
                self.inserts[bi].setdefault(i, []).extend(pre)
            for t in dying:
                if t in regs:
                    dem[_kind(self.rc_of[t])] -= regs.pop(t)
            for d in defs:
                if self.next_use(bi, d.id, i + 1) < INF:
                    regs[d.id] = d.rc.size
                    dem[_kind(d.rc)] += d.rc.size
                    if victims is not None:
                        victims.add(d.id, i + 1)
        self.regs_out[bi] = regs
        self.stored_out[bi] = stored

    # -- applying the plan -------------------------------------------------------
    def apply(self) -> None:
        for b in self.p.blocks:
            ins_at = self.inserts[b.index]
            gone = {id(phi) for phi in self.phis[b.index]
                    if phi.definitions and phi.definitions[0].temp is not None
                    and phi.definitions[0].temp.id in self.phi_spilled}
            if not ins_at and not gone:
                continue
            out: list[Instruction] = []
            old = b.instructions
            for i in range(len(old) + 1):
                out.extend(ins_at.get(i, ()))
                if i < len(old) and id(old[i]) not in gone:
                    out.append(old[i])
            b.instructions = out


class _Victims:
    """The spill candidates of one block's walk (`_Spiller.process`), ranked as ACO
    ranks them: the greatest (rematerialisable, next-use distance, temp id) among the
    spillable values of a file in registers and not used by the instruction at hand.

    At position i the distance of t is ``a - (i + 1)`` for its next use's absolute
    position a (its first use at or after i + 1 in the block, else ``len(block) +
    nu_end[t]`` when t is live out), so the order by distance is the order by a, which
    stays put while i advances until t's next use is passed. A max-heap per file holds
    (rematerialisable, a, t) for every candidate: an entry is made when t enters the
    registers and again when the walk reaches one of t's uses (`passed`), before the
    search there; an entry whose t has left the registers or whose in-block a lies
    behind the search is dropped when it comes to the top (a later entry of t, as large
    or larger, stands for it). Values neither used again in the block nor live out (the
    distance ``INF`` whatever i is) are kept aside and compared directly. Each search
    then costs a few heap operations, not a scan of the live values: the spills a block
    needs grow with the values it keeps live, and so would the scan."""

    __slots__ = ("regs", "use_pos", "live_out", "nu_end", "n_ins", "kind_of",
                 "remat", "heaps", "dead", "held")

    def __init__(self, sp: _Spiller, bi: int, regs: dict[int, int], i: int) -> None:
        self.regs = regs
        self.use_pos = sp.use_pos[bi]
        self.live_out = sp.live_out[bi]
        self.nu_end = sp.nu_end[bi]
        self.n_ins = len(sp.p.blocks[bi].instructions)
        self.kind_of = sp.spillable_kind
        self.remat = sp.remat
        # entries (-rematerialisable, -a, -t, in_block): heapq's least is the greatest
        self.heaps: tuple[list[tuple[int, int, int, bool]], list[tuple[int, int, int, bool]]] = ([], [])
        self.dead: tuple[set[int], set[int]] = (set(), set())
        self.held: list[tuple[int, int, int, bool]] = []  # popped for being used at i
        for t in regs:
            self.add(t, i + 1)

    def add(self, t: int, lo: int) -> None:
        """Enter t (now in a register) with its next use at or after position lo."""
        k = self.kind_of.get(t)
        if k is None:
            return
        pos = self.use_pos.get(t)
        if pos:
            j = bisect.bisect_left(pos, lo)
            if j < len(pos):
                heapq.heappush(self.heaps[k], (-(t in self.remat), -pos[j], -t, True))
                return
        if t in self.live_out:
            heapq.heappush(self.heaps[k], (-(t in self.remat),
                                           -(self.n_ins + self.nu_end.get(t, INF)), -t, False))
        else:
            self.dead[k].add(t)

    def passed(self, ts: Iterable[int], i: int) -> None:
        """The walk is at position i, where `ts` are used: their next uses move on."""
        regs = self.regs
        for t in ts:
            if t in regs:
                self.add(t, i + 1)

    def furthest(self, k: int, i: int, opset: set[int]) -> int:
        """Remove and return the candidate of file k to spill at position i (-1: none);
        the ones `opset` holds are skipped (`restore` puts them back)."""
        heap, regs, i1 = self.heaps[k], self.regs, i + 1
        best, bd = -1, (-1, -1)
        while heap:
            top = heap[0]
            t = -top[2]
            if t not in regs or (top[3] and -top[1] < i1):
                heapq.heappop(heap)  # gone, or a used entry (a later one stands for t)
                continue
            if t in opset:
                self.held.append(heapq.heappop(heap))
                continue
            best, bd = t, (-top[0], -top[1] - i1)
            break
        dead = self.dead[k]
        if dead:
            for t in list(dead):
                if t not in regs:
                    dead.discard(t)
                    continue
                if t in opset:
                    continue
                d = (int(t in self.remat), INF)
                if d > bd or (d == bd and t > best):
                    best, bd = t, d
        if best >= 0:
            if best in dead:
                dead.discard(best)
            else:
                heapq.heappop(heap)
        return best

    def restore(self, k: int) -> None:
        """Put back the entries `furthest` skipped for being used at the instruction."""
        heap = self.heaps[k]
        for e in self.held:
            heapq.heappush(heap, e)
        self.held.clear()


def _rematerialisable(program: Program, spillable: set[int]) -> dict[int, Instruction]:
    """Values an instruction in a logical region computes from constants alone,
    without side effects or implicit writes (opcode table: SALU/VALU class, implicit
    reads at most EXEC, scalar/vector source operands): spilling them stores nothing
    and a reload computes them again (ACO's rematerialisation, which takes VOP1/SOP1/
    s_movk). A VALU result must be a VGPR: an SGPR one (a v_cmp lane mask) depends on
    EXEC where it is computed. Linear VGPRs and sub-dword values are not spillable
    anyway; a VGPR constant is the same in every lane that reads it."""
    from radcc.isa.table import get_table

    table = get_table(program.gfx_level).by_canon
    out: dict[int, Instruction] = {}
    for b in program.blocks:
        logical = False
        for ins in b.instructions:
            if ins.opcode in ("p_logical_start", "p_logical_end"):
                logical = ins.opcode == "p_logical_start"
                continue
            if not logical or len(ins.definitions) != 1 or ins.is_pseudo or not ins.operands:
                continue
            d = ins.definitions[0]
            if d.temp is None or d.phys is not None or d.temp.id not in spillable:
                continue
            if any(o.temp is not None or o.is_undef or o.phys is not None or o.const is None
                   for o in ins.operands):
                continue
            infos = table.get(ins.opcode)
            if not infos or not all(
                    (i.cls in ("salu", "salu64") or (i.cls == "valu" and d.temp.rc.is_vgpr))
                    and not i.implicit_writes
                    and set(i.implicit_reads) <= {"exec"}
                    and all(s.kind in ("ssrc", "vsrc", "vcsrc", "imm") for s in i.srcs)
                    for i in infos):
                continue
            out[d.temp.id] = ins
    return out


def spill_limits(program: Program, sgpr_slots: int = 0) -> tuple[int, int]:
    """The spill target (SGPRs, VGPRs) with `sgpr_slots` SGPR slots in linear VGPRs."""
    f = file_limits(program)
    lvs = -(-sgpr_slots // program.wave_size)
    return f.sgpr - SGPR_RESERVE, f.vgpr - VGPR_RESERVE - lvs


def spill(program: Program) -> None:
    """Spill values so the register demand fits the target (module docstring)."""
    get_live_vars(program)  # current liveness: kill flags and demand
    fits = file_limits(program)
    if not program.max_reg_demand.exceeds(fits):
        return
    lvs_guess = 1 if program.max_reg_demand.sgpr > fits.sgpr else 0
    snapshot = [list(b.instructions) for b in program.blocks]
    n_temps = len(program.temp_rc)
    while True:
        limit = spill_limits(program, lvs_guess * program.wave_size)
        sp = _Spiller(program, limit)
        sp.run()
        sgpr_slots = sum(sp.rc_of[t].size for t in sp.spilled if sp.rc_of[t].is_sgpr)
        need_lvs = -(-sgpr_slots // program.wave_size)
        if need_lvs <= lvs_guess:
            break
        lvs_guess = need_lvs
        for b, ins in zip(program.blocks, snapshot, strict=True):
            b.instructions = list(ins)
        del program.temp_rc[n_temps:]
    sp.apply()
    apply_plan(program, sp)  # the SSA repair and slot assignment
    live_var_analysis(program)
    lim = RegisterDemand(limit[0], fits.vgpr - VGPR_RESERVE)  # the linear VGPRs included
    if program.max_reg_demand.exceeds(lim):
        live = get_live_vars(program)
        for b in program.blocks:
            for i, d in enumerate(live.register_demand[b.index]):
                if d.exceeds(lim):
                    raise SpillError(
                        f"spill: BB{b.index}: '{instruction_text(program, b.instructions[i])}'"
                        f": demand {d.sgpr} SGPRs / {d.vgpr} VGPRs still exceeds "
                        f"{lim.sgpr} / {lim.vgpr} after spilling")
        raise SpillError(f"spill: demand {program.max_reg_demand} still exceeds {lim}")


__all__ = ["SpillError", "spill", "spill_limits", "file_limits", "VGPR_BASE"]
