"""The second half of spilling (`radcc.passes.spill`): SSA repair after the
reloads, spill slots, linear VGPRs and the scratch area.

`apply_plan(program, plan)` (`SpillPlan`: what `spill` decided) guarantees, on a program where `spill` inserted
``p_spill``/``p_reload`` with placeholder slots:

- SSA form: every use of a value that has reloads reads the nearest definition
  (the original or a reload); where several reach a block entry a
  ``p_phi`` (VGPRs, over logical predecessors) or ``p_linear_phi`` (linear
  temps, over linear predecessors) is created (Braun et al., "Simple and
  Efficient Construction of Static Single Assignment Form", with the CFG
  complete: a placeholder phi breaks cycles, trivial phis are removed);
- slots: spilled values whose slots are never live at once share one
  (`slot_interference`: a slot is live from its stores to the reloads they reach,
  over the logical CFG for VGPRs, the linear CFG for SGPR lanes; `_coalesce` gives
  a spilled phi the slot of an operand spilled elsewhere when they do not
  interfere, dropping the slot-to-slot copy; `assign_slots`: first fit). A VGPR
  value of n dwords gets n dwords of private memory after the
  scratch isel already uses (``config.scratch_bytes_per_lane`` grows); a slot the
  scratch instruction's immediate offset does not reach (4 KiB, GFX10 2 KiB), and every
  slot without flat scratch ST mode (GFX10.1), gets an SGPR base next to its access
  (`_far_scratch_offsets`); an SGPR value of n dwords gets
  n lanes of one linear VGPR (``lv1``; ``p_start_linear_vgpr`` after
  ``p_startpgm``, ``p_end_linear_vgpr`` in every reachable block that ends the program);
- ``config.spilled_sgprs``/``config.spilled_vgprs``: the lanes / dwords of
  slots used (after sharing); ``config.spilled_phis``: the phis spilled.
"""

from __future__ import annotations

from functools import reduce
from itertools import compress
from operator import or_
from typing import Protocol

from radcc.ir.program import Block, Definition, Instruction, Operand, Program
from radcc.ir.regclass import RegClass, Temp, lv1, s1
from radcc.isa.table import get_table
from radcc.passes.kernel_abi import scratch_offset_range, scratch_st_mode
from radcc.passes.live_var_analysis import is_linear
from radcc.passes.spill_lower import scratch_opcode


class SpillError(Exception):
    """Spilling cannot bring the demand within the register file; names the block
    and the instruction."""


class SpillPlan(Protocol):
    """What `radcc.passes.spill` decided, as `apply_plan` reads it."""

    reload_of: dict[int, int]  # reload (or rematerialised) temp -> original temp
    slot_ops: dict[int, list[Operand]]  # original temp -> its slot constants
    rc_of: dict[int, RegClass]  # temp -> register class
    lv_ops: list[tuple[int, Operand]]  # (original temp, linear VGPR operand) of SGPR slots
    phi_spilled: set[int]  # phi definitions kept in a slot, not a register
    n_remat: int  # rematerialised reloads
    # (block, reload, spill, operand, phi) slot-to-slot copies a spilled phi's operand
    # spilled elsewhere needs; dropped when the slots coalesce
    slot_copies: list[tuple[int, Instruction, Instruction, int, int]]

_END_OPS = frozenset({"s_endpgm", "p_end_with_regs"})


class _Renamer:
    def __init__(self, program: Program, reload_of: dict[int, int]) -> None:
        self.p = program
        self.reload_of = reload_of
        self.R = set(reload_of.values())
        self.last_def: list[dict[int, Temp]] = []
        for b in program.blocks:
            ld: dict[int, Temp] = {}
            for ins in b.instructions:
                for d in ins.definitions:
                    t = d.temp
                    if t is None:
                        continue
                    o = reload_of.get(t.id, t.id)
                    if o in self.R:
                        ld[o] = t
            self.last_def.append(ld)
        self.entry: dict[tuple[int, int], Temp] = {}
        self.subst: dict[int, Temp] = {}
        self.created: list[tuple[Block, Instruction]] = []

    def preds(self, b: Block, t: Temp) -> list[int]:
        return b.linear_preds if is_linear(t.rc) else b.logical_preds

    def read_end(self, bi: int, t: Temp) -> Temp:
        while True:
            d = self.last_def[bi].get(t.id)
            if d is not None:
                return d
            key = (bi, t.id)
            if key in self.entry:
                return self.entry[key]
            b = self.p.blocks[bi]
            preds = self.preds(b, t)
            if len(preds) != 1:
                return self.read_entry(bi, t)
            bi = preds[0]

    def read_entry(self, bi: int, t: Temp) -> Temp:
        key = (bi, t.id)
        got = self.entry.get(key)
        if got is not None:
            return got
        b = self.p.blocks[bi]
        preds = self.preds(b, t)
        if not preds:
            raise SpillError(f"spill: BB{bi}: %{t.id} is read but not defined on every path")
        if len(preds) == 1:
            v = self.read_end(preds[0], t)
            self.entry[key] = v
            return v
        new = self.p.allocate_temp(t.rc)
        self.entry[key] = new
        ops = [self.read_end(p, t) for p in preds]
        others = {o.id for o in ops if o.id != new.id}
        if len(others) == 1:
            x = next(o for o in ops if o.id != new.id)
            self.entry[key] = x
            self.subst[new.id] = x
            return x
        phi = Instruction("p_linear_phi" if is_linear(t.rc) else "p_phi", "PSEUDO",
                          [Operand(o) for o in ops], [Definition(new)])
        self.created.append((b, phi))
        return new

    def resolve(self, t: Temp) -> Temp:
        while t.id in self.subst:
            t = self.subst[t.id]
        return t

    def run(self) -> None:
        if not self.R:
            return
        blocks = self.p.blocks
        for b in blocks:
            cur: dict[int, Temp] = {}
            for ins in b.instructions:
                if not ins.is_phi:
                    for o in ins.operands:
                        t = o.temp
                        if t is None or t.id not in self.R:
                            continue
                        v = cur.get(t.id)
                        if v is None:
                            v = self.read_entry(b.index, t)
                            cur[t.id] = v
                        o.temp = v
                for d in ins.definitions:
                    t = d.temp
                    if t is None:
                        continue
                    orig = self.reload_of.get(t.id, t.id)
                    if orig in self.R:
                        cur[orig] = t
        for b in blocks:
            for ins in b.instructions:
                if not ins.is_phi:
                    continue
                preds = b.logical_preds if ins.opcode == "p_phi" else b.linear_preds
                for p, o in zip(preds, ins.operands, strict=False):
                    if o.temp is not None and o.temp.id in self.R:
                        o.temp = self.read_end(p, o.temp)
        # trivial phis made so by later placeholders: remove until none is left
        live = list(self.created)
        changed = True
        while changed:
            changed = False
            keep = []
            for b, phi in live:
                me = phi.definitions[0].temp
                assert me is not None
                vals = {self.resolve(o.temp).id: self.resolve(o.temp)
                        for o in phi.operands if o.temp is not None}
                vals.pop(me.id, None)
                if len(vals) == 1:
                    self.subst[me.id] = next(iter(vals.values()))
                    changed = True
                else:
                    keep.append((b, phi))
            live = keep
        for b, phi in reversed(live):
            b.instructions.insert(0, phi)
        if self.subst:
            for b in blocks:
                for ins in b.instructions:
                    for o in ins.operands:
                        if o.temp is not None and o.temp.id in self.subst:
                            o.temp = self.resolve(o.temp)
                            o.rc = o.temp.rc


def apply_plan(program: Program, sp: SpillPlan) -> None:
    """SSA repair, slots, linear VGPRs, scratch size (module docstring)."""
    _Renamer(program, sp.reload_of).run()
    wave = program.wave_size
    base = -(-program.config.scratch_bytes_per_lane // 4) * 4
    owner = {id(o): t for t, ops in sp.slot_ops.items() for o in ops}
    slot_of: dict[int, tuple[int, int]] = {}  # orig -> (slot constant, lv index)
    voff = base
    lane = 0
    for sgpr in (True, False):
        nodes = sorted(t for t in sp.slot_ops if sp.rc_of[t].is_sgpr == sgpr)
        if not nodes:
            continue
        graph = slot_interference(program, owner, nodes, sgpr)
        rep = _coalesce(program, sp, graph, sgpr)
        units = assign_slots(nodes, graph, rep, {t: sp.rc_of[t].size for t in nodes},
                             wave if sgpr else 0)
        for t, u in units.items():
            if sgpr:
                slot_of[t] = (u % wave, u // wave)
                lane = max(lane, u + sp.rc_of[t].size)
            else:
                slot_of[t] = (base + 4 * u, -1)
                voff = max(voff, base + 4 * (u + sp.rc_of[t].size))
    if voff > base:
        ops = get_table(program.gfx_level).by_canon
        if not all(scratch_opcode(program, k, 1) in ops for k in ("store", "load")):
            raise SpillError(f"spill: VGPR spilling lowers to scratch_store/scratch_load, "
                             f"which {program.target.name} does not have")
        program.config.scratch_bytes_per_lane = voff
    for t, ops in sp.slot_ops.items():
        for o in ops:
            o.const = slot_of[t][0]
    if voff > base:
        _far_scratch_offsets(program)
    n_lv = -(-lane // wave)
    lvs = [program.allocate_temp(lv1) for _ in range(n_lv)]
    for t, o in sp.lv_ops:
        o.temp = lvs[slot_of[t][1]]
        o.rc = lv1
    if lvs:
        entry = program.blocks[0]
        at = next((i + 1 for i, ins in enumerate(entry.instructions)
                   if ins.opcode == "p_startpgm"), 0)
        for lv in reversed(lvs):
            entry.instructions.insert(at, Instruction("p_start_linear_vgpr", "PSEUDO", [],
                                                      [Definition(lv)]))
        for b in program.blocks:
            if b.linear_succs or (b.index and not b.linear_preds):
                # a block nothing enters (isel's endif of a uniform if whose sides both
                # jumped) ends nothing: as ACO's end_unused_spill_vgprs (aco_spill.cpp)
                continue
            ins = b.instructions
            at = len(ins) - 1 if ins and ins[-1].opcode in _END_OPS else len(ins)
            for lv in lvs:
                ins.insert(at, Instruction("p_end_linear_vgpr", "PSEUDO", [Operand(lv)], []))
    program.config.spilled_sgprs = lane
    program.config.spilled_phis = len(sp.phi_spilled)
    program.config.rematerialized = sp.n_remat
    program.config.spilled_vgprs = (voff - base) // 4


def _far_scratch_offsets(program: Program) -> None:
    """Give each VGPR ``p_spill``/``p_reload`` whose slot the scratch instruction's
    immediate offset cannot reach (`kernel_abi.scratch_offset_range`), and every one on
    a target without flat scratch ST mode (GFX10.1: `kernel_abi.scratch_st_mode`), an
    SGPR base: ``s_mov_b32 %b, slot`` right before it and ``%b`` as its last operand
    (the slot constant becomes the immediate offset from it, 0). As ACO's
    setup_vgpr_spill_reload (aco_spill.cpp) when the slots overflow the offset range:
    the SGPR is defined next to each access, so it adds one SGPR for one instruction
    and nothing across the program."""
    hi = scratch_offset_range(program.target)[1]
    st_mode = scratch_st_mode(program.target)
    for b in program.blocks:
        out: list[Instruction] = []
        for ins in b.instructions:
            if ins.opcode == "p_spill" and ins.operands[0].rc is not None \
                    and not ins.operands[0].rc.is_sgpr:
                slot, size = ins.operands[1], ins.operands[0].rc.size
            elif ins.opcode == "p_reload" and ins.definitions[0].rc is not None \
                    and not ins.definitions[0].rc.is_sgpr:
                slot, size = ins.operands[0], ins.definitions[0].rc.size
            else:
                out.append(ins)
                continue
            assert slot.const is not None
            if st_mode and slot.const + 4 * size - 4 <= hi:
                out.append(ins)
                continue
            t = program.allocate_temp(s1)
            out.append(Instruction("s_mov_b32", "SOP1", [Operand.c32(slot.const)],
                                   [Definition(t)]))
            slot.const = 0
            ins.operands.append(Operand(t))
            out.append(ins)
        b.instructions = out


def _slot_events(program: Program, owner: dict[int, int], b: Block,
                 nodes: set[int]) -> list[tuple[bool, int]]:
    """(is store, value) of the block's p_spill/p_reload of the given slots, in order."""
    out = []
    for ins in b.instructions:
        if ins.opcode == "p_spill":
            t = owner.get(id(ins.operands[1]))
            if t in nodes:
                out.append((True, t))
        elif ins.opcode == "p_reload":
            t = owner.get(id(ins.operands[0]))
            if t in nodes:
                out.append((False, t))
    return out


class SlotGraph:
    """Which spilled values' slots are live at once: one row of bits per value (bit k:
    value ``nodes[k]``), symmetric. Bit rows instead of adjacency sets keep the big
    switch's dense graph (every hoisted constant spilled, all live across the loop:
    N²/2 edges) at N²/8 bytes, and the passes over it at C speed."""

    def __init__(self, nodes: list[int], rows: list[int]) -> None:
        self.nodes = nodes
        self.index = {t: k for k, t in enumerate(nodes)}
        self.rows = rows

    @classmethod
    def from_sets(cls, nodes: list[int], adj: dict[int, set[int]]) -> SlotGraph:
        index = {t: k for k, t in enumerate(nodes)}
        rows = [0] * len(nodes)
        for t, us in adj.items():
            for u in us:
                rows[index[t]] |= 1 << index[u]
                rows[index[u]] |= 1 << index[t]
        return cls(nodes, rows)

    def neighbours(self, t: int) -> set[int]:
        return {self.nodes[k] for k in _bits(self.rows[self.index[t]])}


_ONE_BYTES = bytes.maketrans(b"01", b"\x00\x01")
_ONE_CHARS = bytes.maketrans(b"\x00\x01", b"01")


def _spread(x: int, n: int) -> bytes:
    """The low `n` bits of `x` as `n` bytes of 0/1 (byte k = bit k)."""
    s = bin(x)[:1:-1].encode().translate(_ONE_BYTES)
    return s + bytes(n - len(s)) if len(s) < n else s[:n]


def _pack(b: bytes) -> int:
    """Inverse of `_spread`."""
    return int(b.translate(_ONE_CHARS)[::-1], 2) if b else 0


def _bits(x: int) -> list[int]:
    """Indices of the set bits of `x`, ascending."""
    return list(compress(range(x.bit_length()), _spread(x, x.bit_length())))


def _gather(units: list[int], sel: int, n: int) -> int:
    """The OR of ``units[k]`` over the set bits k of `sel` (below `n`): bit by bit when
    they are few (each step a few operations on `sel`), else at C speed over all `n`
    entries (a selector as long as the graph: quadratic over a dense graph's classes,
    whose few assigned non-neighbours are the common case)."""
    if sel.bit_count() <= 32:
        out = 0
        while sel:
            low = sel & -sel
            out |= units[low.bit_length() - 1]
            sel ^= low
        return out
    return reduce(or_, compress(units, _spread(sel, n)), 0)


def _transpose(rows: list[int]) -> list[int]:
    """Columns of the square bit matrix `rows`, through byte matrices of bounded size
    (a column is a strided slice of one): C-speed work, N²/8 bytes of result."""
    n = len(rows)
    cols = [0] * n
    width = max(64, (1 << 23) // max(n, 1))
    for c0 in range(0, n, width):
        w = min(width, n - c0)
        mask = (1 << w) - 1
        zero = bytes(w)
        m = b"".join(_spread(r >> c0 & mask, w) if r >> c0 & mask else zero for r in rows)
        for c in range(w):
            cols[c0 + c] = _pack(m[c::w])
    return cols


def slot_interference(program: Program, owner: dict[int, int], nodes: list[int],
                      sgpr: bool) -> SlotGraph:
    """Which spilled values' slots are live at once. A slot is live from a store
    (``p_spill``) to the reloads it reaches (backward liveness; VGPR slots over the
    logical CFG, whose paths each lane follows, as only the active lanes store and
    load; SGPR lanes over the linear CFG, v_writelane/v_readlane ignoring EXEC); a
    store interferes with every slot live after it (Chaitin). Live sets are bit sets
    over `nodes`; the rows a store adds to are then made symmetric by one transpose."""
    blocks = program.blocks
    g = SlotGraph(nodes, [])
    index = g.index
    ns = set(nodes)
    ev = [[(st, 1 << index[t], index[t]) for st, t in _slot_events(program, owner, b, ns)]
          for b in blocks]
    gen: list[int] = []
    kill: list[int] = []
    for e in ev:
        gb = kb = 0
        for store, bit, _ in reversed(e):
            if store:
                gb &= ~bit
                kb |= bit
            else:
                gb |= bit
        gen.append(gb)
        kill.append(kb)
    succs = [b.linear_succs if sgpr else b.logical_succs for b in blocks]
    live_in = list(gen)
    live_out = [0] * len(blocks)
    changed = True
    while changed:
        changed = False
        for b in reversed(blocks):
            i = b.index
            out = 0
            for s in succs[i]:
                out |= live_in[s]
            if out != live_out[i]:
                live_out[i] = out
                new = gen[i] | (out & ~kill[i])
                if new != live_in[i]:
                    live_in[i] = new
                    changed = True
    rows = [0] * len(nodes)
    for b in blocks:
        live = live_out[b.index]
        for store, bit, k in reversed(ev[b.index]):
            if store:
                live &= ~bit
                rows[k] |= live
            else:
                live |= bit
    g.rows = [r | c for r, c in zip(rows, _transpose(rows), strict=True)]
    return g


def _coalesce(program: Program, sp: SpillPlan, g: SlotGraph,
              sgpr: bool) -> dict[int, int]:
    """Give a spilled phi the slot of an operand spilled elsewhere when their slots do
    not interfere, dropping the reload/store pair between them; returns each value's
    representative (a class interferes with another when any members do)."""
    rep = {t: t for t in g.nodes}
    row = {t: g.rows[k] for t, k in g.index.items()}  # a class's neighbours
    members = {t: 1 << k for t, k in g.index.items()}

    def find(t: int) -> int:
        while rep[t] != t:
            rep[t] = rep[rep[t]]
            t = rep[t]
        return t

    drop: dict[int, set[int]] = {}
    for bi, r, w, o, d in sp.slot_copies:
        if o not in rep or d not in rep:
            continue
        a, c = find(o), find(d)
        if a == c:
            drop.setdefault(bi, set()).update((id(r), id(w)))
            continue
        if row[a] & members[c]:
            continue
        rep[c] = a
        row[a] |= row.pop(c)
        members[a] |= members.pop(c)
        drop.setdefault(bi, set()).update((id(r), id(w)))
    for bi, ids in drop.items():
        b = program.blocks[bi]
        b.instructions = [i for i in b.instructions if id(i) not in ids]
    return {t: find(t) for t in rep}


def _first_fit(busy: int, n: int, lanes_per_vgpr: int) -> int:
    """The lowest position of `n` units free in the bit set `busy` that, with
    `lanes_per_vgpr`, does not straddle two linear VGPRs (from the start of one when
    `n` exceeds a VGPR)."""
    free = ~busy
    starts = free
    for k in range(1, n):
        starts &= free >> k
    if lanes_per_vgpr:
        per = lanes_per_vgpr
        pattern = (1 << (per - n + 1)) - 1 if n <= per else 1
        reps = busy.bit_length() // per + 2
        starts &= pattern * (((1 << (per * reps)) - 1) // ((1 << per) - 1))
    return (starts & -starts).bit_length() - 1


def assign_slots(nodes: list[int], g: SlotGraph, rep: dict[int, int],
                 size: dict[int, int], lanes_per_vgpr: int) -> dict[int, int]:
    """First-fit slot numbers (dwords / lanes) so that interfering slots do not
    overlap; values coalesced share their representative's slot. With
    `lanes_per_vgpr`, a slot never straddles two linear VGPRs.

    The units a class may not take (those its assigned neighbours hold) are one bit
    set, gathered at C speed from whichever is fewer, the assigned neighbours or the
    assigned non-neighbours: the units some assigned value holds, less those only
    non-neighbours hold (`holders`: per unit, the values holding it). A dense graph
    (the big switch's hoisted constants, all live across its loop) then costs each
    class the few values it does not interfere with, not all those it does (each an
    OR of a bit set as wide as the slots so far: cubic in the spilled values)."""
    index = g.index
    n_nodes = len(g.nodes)
    row: dict[int, int] = {}
    members: dict[int, list[int]] = {}
    for t in nodes:
        r = rep[t]
        row[r] = row.get(r, 0) | g.rows[index[t]]
        members.setdefault(r, []).append(index[t])
    units = [0] * n_nodes  # a node's units once its class has a slot
    holders: list[int] = []  # per unit: the nodes (bits) whose slot holds it
    assigned = 0
    held = 0  # the units some assigned node holds
    at: dict[int, int] = {}
    for t in nodes:
        r = rep[t]
        if r in at:
            continue
        n = size[r]
        nb = row[r] & assigned
        busy = 0
        if nb:
            others = assigned & ~nb
            if others.bit_count() < nb.bit_count():
                # the units held only by assigned non-neighbours are the free ones
                maybe = _gather(units, others, n_nodes)
                busy = held & ~maybe
                for u in _bits(maybe):
                    if holders[u] & nb:
                        busy |= 1 << u
            else:
                busy = _gather(units, nb, n_nodes)
        pos = _first_fit(busy, n, lanes_per_vgpr)
        at[r] = pos
        b = ((1 << n) - 1) << pos
        mk = 0
        for k in members[r]:
            units[k] = b
            mk |= 1 << k
        assigned |= mk
        held |= b
        if len(holders) < pos + n:
            holders.extend([0] * (pos + n - len(holders)))
        for u in range(pos, pos + n):
            holders[u] |= mk
    return {t: at[rep[t]] for t in nodes}
