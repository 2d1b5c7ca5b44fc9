"""ILP scheduling: post-RA list scheduling inside blocks (ACO's README.md "ILP Scheduling").

`schedule_ilp(program)` runs after lower_to_hw (and schedule_vopd), before the
wait-state passes. It works on physical registers, not SSA values, and moves
instructions only inside *regions*: maximal runs of reorderable instructions
of one block. What it guarantees:

- **Reorderable** instructions (`sched_regions.classify`: ALU instructions and
  memory loads; everything else is fixed: no instruction moves across it).
- **Dependencies kept**: for every pair in a region that touches a common
  register dword (`access.Access`: operands, definitions, implicit
  registers such as SCC/VCC) with at least one write (RAW, WAR, WAW), the
  order is kept; memory loads also keep their order among themselves (so the
  in-order VM/LGKM counters insert_waitcnt relies on see the same sequence).
  So every register any instruction reads holds the same value as before.
- **Heuristic** (ACO's scheduler_ilp: a forward list scheduler over a window
  of 16 nodes): the candidates are the first `WINDOW` unscheduled
  instructions of the region in program order; among those whose
  predecessors are all scheduled, pick the one that can start earliest
  (register results become ready after the producer's latency), then the
  one with the longest latency path to the region's end, then program
  order. Latencies and issue costs are `statistics.instr_costs`'s, from the
  generation's `radcc.isa.cycle_model` (ACO's get_perf_info and memory
  latencies: VALU 5, 64-bit 6, quarter-rate 8, transcendental 10, SALU 2,
  SMEM 30/200, LDS 20, VMEM 320 cycles; vector issue doubles in wave64 unless
  the instruction dual-issues) — so the separation is by each producer's
  latency, as the hardware would otherwise stall for it.

The pass is target-neutral (GFX10 and GFX11); `nosched` / `nosched-ilp`
skip it, `nosched-vopd` makes the pass manager call it with ``vopd=False``
(radcc/passes/manager.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from radcc.ir.program import Block, Instruction, Program
from radcc.isa.table import OpInfo
from radcc.passes.access import Access, AccessCache
from radcc.passes.sched_cost import Clock, Cost, DelayCursor, RegionCoster
from radcc.passes.sched_regions import LOAD, classify, regions
from radcc.passes.schedule_vopd import (
    Half,
    pair_greedily,
    pair_of,
    split_vopd,
    vopd_allowed,
)
from radcc.passes.statistics import instr_costs

__all__ = ["WINDOW", "Node", "build_nodes", "schedule_region", "schedule_ilp"]

WINDOW = 16  # candidates considered at a time (ACO's partial DAG of 16 nodes)


@dataclass(slots=True)
class Node:
    """One instruction of a region: DAG edges and cost-model numbers."""

    instr: Instruction
    acc: Access
    kind: int
    issue: int  # cycles the issue port is busy
    latency: int  # cycles until its results are ready
    preds: list[tuple[int, bool]]  # (node, true dependency i.e. RAW)
    succs: list[tuple[int, bool]]
    height: int = 0  # longest latency path to the region's end


CostFn = Callable[[Instruction, OpInfo | None], tuple[int, int]]


def build_nodes(program: Program, instrs: list[Instruction], accs: list[Access],
                kinds: list[int], costs: CostFn | None = None,
                issue_lat: list[tuple[int, int]] | None = None) -> list[Node]:
    """The dependency DAG of one region (see "Dependencies kept"). `costs`:
    `statistics.instr_costs` of an instruction (a `RegionCoster`'s, computed
    once per instruction), by default computed here; `issue_lat`: those of
    `instrs` if known."""
    if issue_lat is None:
        issue_lat = [costs(ins, acc.info) if costs is not None
                     else instr_costs(program, ins, acc.info)
                     for ins, acc in zip(instrs, accs, strict=True)]
    nodes = [Node(ins, acc, k, issue if issue > 1 else 1, lat if lat > 1 else 1, [], [])
             for ins, acc, k, (issue, lat) in zip(instrs, accs, kinds, issue_lat, strict=True)]
    last_write: dict[int, int] = {}
    readers: dict[int, list[int]] = {}
    last_load = -1
    for i, n in enumerate(nodes):
        deps: dict[int, bool] = {}
        reads, writes = n.acc.reads, n.acc.writes
        for r in reads:
            w = last_write.get(r)
            if w is not None:
                deps[w] = True
        for r in writes:
            w = last_write.get(r)
            if w is not None and w not in deps:
                deps[w] = False
            rds = readers.get(r)
            if rds:
                for rd in rds:
                    if rd not in deps:
                        deps[rd] = False
        if n.kind == LOAD:
            if last_load >= 0 and last_load not in deps:
                deps[last_load] = False
            last_load = i
        for r in reads:
            rds = readers.get(r)
            if rds is None:
                readers[r] = [i]
            else:
                rds.append(i)
        for r in writes:
            last_write[r] = i
            readers[r] = []
        preds = sorted(deps.items()) if len(deps) > 1 else list(deps.items())
        n.preds = preds
        for p, true_dep in preds:
            nodes[p].succs.append((i, true_dep))
    for n in reversed(nodes):
        h = n.issue
        for s, true_dep in n.succs:
            x = (n.latency if true_dep else n.issue) + nodes[s].height
            if x > h:
                h = x
        n.height = h
    return nodes


def schedule_region(nodes: list[Node], window: int = WINDOW, variant: int = 0) -> list[int]:
    """The new order (node indices) of a region: forward list scheduling."""
    return _list_schedule(nodes, window, variant, None, None, None)[0]


# Candidate orders (`variant`): the priority among the ready candidates
LATENCY, STALL_IN_ORDER, IN_ORDER = 0, 1, 2
VARIANTS = (LATENCY, STALL_IN_ORDER, IN_ORDER)


PairFn = Callable[[int, int], Instruction | None]
_NO_KEY = 1 << 256  # above every candidate key


class _Dag:
    """What the list scheduler reads of a region's nodes, derived once for all
    its runs: predecessor counts, issue cycles, heights, successors with the
    cycles after a node's start at which they may start, and the priority
    `(-height, i)` as an int (heights < 2**40, regions < 2**24 nodes)."""

    __slots__ = ("n", "npred", "issue", "height", "hkey", "succ_d")

    def __init__(self, nodes: list[Node]) -> None:
        self.n = len(nodes)
        self.npred = [len(x.preds) for x in nodes]
        self.issue = [x.issue for x in nodes]
        self.height = [x.height for x in nodes]
        top_h = max(self.height, default=0) + 1
        self.hkey = [((top_h - h) << 24) + i for i, h in enumerate(self.height)]
        self.succ_d = [[(s_, x.latency if true_dep else x.issue) for s_, true_dep in x.succs]
                       for x in nodes]


def _list_schedule(nodes: list[Node], window: int, variant: int,
                   pairable: list[bool] | None, pair: PairFn | None,
                   ext: list[int] | None, prep: _Dag | None = None
                   ) -> tuple[list[int], dict[int, Instruction]]:
    """Forward list scheduling: the nodes in their new order; with `pair`, a
    chosen VOPD-able node takes a ready partner (no later start than one cycle
    after it) into one VOPD instruction, which the second result maps the
    node's position in the order to (the partner is not in the order).
    `ext[i]`: the cycle node i's registers from before the region are ready."""
    dag = prep if prep is not None else _Dag(nodes)
    n = dag.n
    npred = list(dag.npred)
    issue = dag.issue
    height = dag.height
    hkey = dag.hkey
    succ_d = dag.succ_d
    rdy = list(ext) if ext is not None else [0] * n  # max(ext, preds' ready cycles)
    order: list[int] = []
    paired: dict[int, Instruction] = {}
    t = 0
    scheduled = 0
    pairing = pair is not None and pairable is not None
    stalled = 1 << 64
    # the candidates are the first `window` unscheduled nodes in program order: the
    # unscheduled nodes below `nxt` (= min(n, window + scheduled)); `ready` holds
    # those of them whose predecessors are all scheduled, in no particular order
    nxt = min(window, n)
    ready = [i for i in range(nxt) if npred[i] == 0]
    while scheduled < n:
        best = -1
        best_key = _NO_KEY
        if variant == LATENCY:  # earliest start, then the longest path
            for i in ready:
                est = rdy[i]  # when its operands are ready
                key = ((est if est > t else t) << 64) + hkey[i]
                if key < best_key:
                    best, best_key = i, key
        elif variant == STALL_IN_ORDER:  # no stall: longest path; else in order
            for i in ready:
                key = hkey[i] if rdy[i] <= t else stalled + i
                if key < best_key:
                    best, best_key = i, key
        else:  # IN_ORDER: program order (pairs still formed)
            for i in ready:
                if i < best_key:
                    best, best_key = i, i
        assert best >= 0, "dependency cycle in a region"
        best_est = rdy[best] if rdy[best] > t else t
        partner = -1
        vopd = None
        at = best_est
        if pairing and pairable[best]:  # type: ignore[index]
            top = -1
            for j in sorted(ready):  # program order: the first of equal heights
                if j == best or not pairable[j]:  # type: ignore[index]
                    continue
                est_j = rdy[j] if rdy[j] > t else t
                if est_j > best_est + 1 or height[j] <= top:
                    continue
                v = pair(best, j)  # type: ignore[misc]
                if v is not None:
                    partner, vopd, top = j, v, height[j]
            if partner >= 0 and rdy[partner] > at:
                at = rdy[partner]
        old_nxt = nxt
        ready.remove(best)
        scheduled += 1
        for s_, d in succ_d[best]:
            npred[s_] -= 1
            if at + d > rdy[s_]:
                rdy[s_] = at + d
            if npred[s_] == 0 and s_ < old_nxt:
                ready.append(s_)
        if partner >= 0:
            ready.remove(partner)
            scheduled += 1
            for s_, d in succ_d[partner]:
                npred[s_] -= 1
                if at + d > rdy[s_]:
                    rdy[s_] = at + d
                if npred[s_] == 0 and s_ < old_nxt:
                    ready.append(s_)
        top_nxt = window + scheduled if window + scheduled < n else n
        while nxt < top_nxt:
            if npred[nxt] == 0:
                ready.append(nxt)
            nxt += 1
        t = at + issue[best]
        if vopd is not None:
            paired[len(order)] = vopd
        order.append(best)
    return order, paired


W_INSTR = 2  # cycles an instruction is worth when comparing orders
MIN_GAIN = 16  # cycles of latency an extra instruction must buy
TAIL = 8  # instructions after a region whose s_delay_alu its order decides


def _score(c: Cost, k: int) -> tuple[int, int, int, int]:
    """How good candidate `k` of cost `c` is (lower is better; ties go to the
    earlier candidate)."""
    return (c.latency + W_INSTR * c.instructions, c.instructions, c.bytes, k)


def _feasible(c: Cost, base: Cost) -> bool:
    return (c.instructions <= base.instructions and c.bytes <= base.bytes
            and c.clause_members >= base.clause_members)


def _run(nodes: list[Node], variant: int, pairable: list[bool], pair: PairFn | None,
         ext: list[int], dag: _Dag) -> list[Instruction]:
    """`_list_schedule`'s order as instructions (a pair as its VOPD)."""
    order, paired = _list_schedule(nodes, WINDOW, variant, pairable, pair, ext, dag)
    out = [nodes[i].instr for i in order]
    for k, vopd in paired.items():
        out[k] = vopd
    return out


class _Pairs:
    """The VOPD pairs of one region's `halves` (`dual_half` of each node): one
    VOPD object per pair (X-first order as `pair_of` tries it), so that
    candidates pairing alike are the same list and are priced once."""

    __slots__ = ("halves", "memo")

    def __init__(self, halves: list[Half | None]) -> None:
        self.halves = halves
        self.memo: dict[tuple[int, int], Instruction | None] = {}

    def of_halves(self, ha: Half, hb: Half) -> Instruction | None:
        key = (id(ha.instr), id(hb.instr))
        memo = self.memo
        if key in memo:
            return memo[key]
        v = memo[key] = pair_of(ha, hb)
        return v

    def of_nodes(self, a: int, b: int) -> Instruction | None:
        ha, hb = self.halves[a], self.halves[b]
        assert ha is not None and hb is not None
        if (ha.dst ^ hb.dst) & 1 == 0:
            return None  # `can_pair`'s first rule, either way round
        return self.of_halves(ha, hb)


class _Scheduler:
    def __init__(self, program: Program, vopd: bool) -> None:
        self.program = program
        self.access = AccessCache(program)
        self.saved_instrs = 0  # instructions the chosen orders saved so far
        self.saved_bytes = 0
        self.upgrades: list[_Upgrade] = []
        self.pairing = vopd and vopd_allowed(program)
        # without pairing every order of a region has the same instructions: their
        # bytes are the same in all, only those of s_delay_alu / s_clause compare
        self.coster = RegionCoster(program, self.access, instr_bytes=self.pairing)

    def candidates(self, region: list[Instruction], clock: Clock,
                   region_accs: list[Access] | None = None,
                   region_kinds: list[int] | None = None) -> list[list[Instruction]]:
        """Orders of a region to choose from; the region as it is first (then,
        if it has VOPD, the region with them split). `region_accs`/`region_kinds`:
        the region's `Access` and `classify` if known."""

        p = self.program
        access = self.access
        if region_accs is None:
            region_accs = [access(i) for i in region]
        if region_kinds is None:
            region_kinds = [classify(i, a) for i, a in zip(region, region_accs, strict=True)]
        base: list[Instruction] = []
        accs: list[Access] = []  # base's
        kinds: list[int] = []
        for ins, a, kind in zip(region, region_accs, region_kinds, strict=True):
            split = split_vopd(p, ins) if ins.format == "VOPD" and self.pairing else None
            if split is None:
                base.append(ins)
                accs.append(a)
                kinds.append(kind)
                continue
            # both halves read before either writes (ISA 7.6): in sequence, a half
            # reading the other's result goes first; if each reads the other's, keep it
            x, y = access(split[0]), access(split[1])
            x_reads_y, y_reads_x = bool(x.reads & y.writes), bool(y.reads & x.writes)
            if x_reads_y and y_reads_x:
                base.append(ins)
                accs.append(a)
                kinds.append(kind)
                continue
            first, second = (split[1], split[0]) if y_reads_x else split
            a1, a2 = (y, x) if y_reads_x else (x, y)
            base += (first, second)
            accs += (a1, a2)
            kinds += (classify(first, a1), classify(second, a2))
        out = [region]
        if len(base) != len(region):
            out.append(base)
        nodes = build_nodes(p, base, accs, kinds, issue_lat=self.coster.issue_latency(base))
        # cycles after the region starts at which each node's registers from before
        # the region are ready (0: already)
        ext = []
        written: set[int] = set()
        ready, t0 = clock.ready, clock.t
        for a in accs:
            m = 0
            for r in a.reads:
                if r not in written:
                    dt = ready.get(r, 0) - t0
                    if dt > m:
                        m = dt
            ext.append(m)
            written.update(a.writes)
        halves = self.coster.halves(base) if self.pairing else []
        pairable = [h is not None for h in halves]
        # without two VOPD-able instructions, pairing changes no order
        can_pair = sum(pairable) >= 2
        pairs = _Pairs(halves)
        dag = _Dag(nodes)
        for variant in VARIANTS:
            if not (self.pairing and can_pair):
                if variant == IN_ORDER:  # program order: the first unscheduled is ready
                    if self.pairing:
                        out.append(base)
                    continue
                plain = _run(nodes, variant, pairable, None, ext, dag)
                out.append(plain)
                if self.pairing:
                    out.append(plain)  # pairing finds no pair: the same order
                continue
            # the same choices are made with and without pairing until a pair forms:
            # without any pair, the order without pairing is this one
            paired = _run(nodes, variant, pairable, pairs.of_nodes, ext, dag)
            if variant != IN_ORDER:
                out.append(paired if len(paired) == len(nodes)
                           else _run(nodes, variant, pairable, None, ext, dag))
            out.append(paired)
        if self.pairing:
            plain = out[-1 - len(VARIANTS) * 2 + 1]  # LATENCY order without pairs
            out.append(pair_greedily(p, plain, [access(i) for i in plain],
                                     self.coster.halves(plain), pairs.of_halves))
        return out

    def _chain(self, instrs: list[Instruction], accs: list[Access], kinds: list[int],
               lo: int, hi: int) -> bool:
        """Whether each instruction of the region reads or overwrites what the one
        before it writes (or both are loads, which keep their order), with no
        VOPD to split: then the list scheduler has one ready instruction at a
        time (no pairs) and greedy pairing finds no independent neighbour
        (and none further: it could not move past the instruction in between)."""
        for k in range(lo + 1, hi):
            a, b = accs[k - 1], accs[k]
            if not (a.writes & b.reads or a.writes & b.writes
                    or (kinds[k - 1] == LOAD and kinds[k] == LOAD)):
                return False
        return not self.pairing or all(instrs[k].format != "VOPD" for k in range(lo, hi))

    def block(self, block: Block) -> None:
        instrs = block.instructions
        access = self.access
        accs = [access(i) for i in instrs]
        kinds = [classify(i, a) for i, a in zip(instrs, accs, strict=True)]
        new: list[Instruction] = []
        state = DelayCursor()
        clock = Clock()
        coster = self.coster
        pos = 0
        pending: list[Instruction] = []  # issued since `state` and `clock`
        spans = regions(kinds)
        last = spans[-1][0] if spans else -1  # after it, nothing reads `clock` or `state`
        for lo, hi in spans:
            if lo > pos:
                new.extend(instrs[pos:lo])
                pending.extend(instrs[pos:lo])
                clock = coster.advance(clock, instrs[pos:lo], in_place=True)
            if self._chain(instrs, accs, kinds, lo, hi):
                cands = [instrs[lo:hi]]  # every candidate would be the region itself
            else:
                cands = self.candidates(instrs[lo:hi], clock, accs[lo:hi], kinds[lo:hi])
            if cands.count(cands[0]) == len(cands):  # (instructions compare by identity)
                # one order: nothing to choose (and no upgrade: no gain)
                new.extend(cands[0])
                if lo != last:
                    pending.extend(cands[0])
                    clock = coster.advance(clock, cands[0], in_place=True)
                pos = hi
                continue
            if pending:
                coster.catch_up(state, pending)
                pending = []
            tail = instrs[hi:hi + TAIL]
            costs = coster.costs(state, clock, cands, tail)
            ref = costs[1] if len(cands[1]) > len(cands[0]) else costs[0]  # without pairs
            scores = [_score(c, k) for k, c in enumerate(costs)]
            # the best-scoring order that adds nothing (`pick`), and the best that
            # loses no clause member (`alt`)
            pick = min([sc for sc, c in zip(scores, costs, strict=True)
                        if _feasible(c, ref)])[3]
            self.saved_instrs += ref.instructions - costs[pick].instructions
            self.saved_bytes += ref.bytes - costs[pick].bytes
            alt = min([sc for sc, c in zip(scores, costs, strict=True)
                       if c.clause_members >= ref.clause_members])[3]
            gain = (scores[pick][0] - scores[alt][0]) * 4 ** block.loop_nest_depth
            extra = (costs[alt].instructions - costs[pick].instructions,
                     costs[alt].bytes - costs[pick].bytes)
            if gain >= MIN_GAIN * max(extra[0], 1):
                self.upgrades.append(_Upgrade(gain, extra[0], extra[1], block, len(new),
                                              len(cands[pick]), cands[alt]))
            new.extend(cands[pick])
            if lo != last:
                pending.extend(cands[pick])
                clock = coster.advance(clock, cands[pick], in_place=True)
            pos = hi
        new.extend(instrs[pos:])
        block.instructions = new


@dataclass(slots=True)
class _Upgrade:
    """A region order with more instructions or bytes than the chosen one but
    a lower latency, taken while the program's savings pay for it."""

    gain: int  # score cycles saved, weighted by 4**loop depth
    instrs: int
    bytes: int
    block: Block
    at: int  # where the chosen order starts in the block
    length: int
    order: list[Instruction]


def _rate(u: _Upgrade) -> float:
    """Sort key: the upgrades that gain the most per instruction or dword first."""
    return -u.gain / max(u.instrs, u.bytes // 4, 1)


def _at_desc(u: _Upgrade) -> int:
    return -u.at


def schedule_ilp(program: Program, *, vopd: bool = True) -> None:
    """Reorder the reorderable instructions of every block (module docstring);
    `vopd=False` (``nosched-vopd``) pairs no VOPD."""
    sched = _Scheduler(program, vopd)
    for block in program.blocks:
        if len(block.instructions) >= 2:
            sched.block(block)
    saved_i, saved_b = sched.saved_instrs, sched.saved_bytes
    take: list[_Upgrade] = []
    for u in sorted(sched.upgrades, key=_rate):
        if u.instrs <= saved_i and u.bytes <= saved_b:
            saved_i -= u.instrs
            saved_b -= u.bytes
            take.append(u)
    for u in sorted(take, key=_at_desc):  # later first: earlier offsets stay valid
        u.block.instructions[u.at:u.at + u.length] = u.order
