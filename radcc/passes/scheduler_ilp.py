"""ILP scheduling: post-RA list scheduling inside blocks (seeds/001 "ILP Scheduling").

`schedule_ilp(program)` runs after lower_to_hw (and schedule_vopd), before the
wait-state passes. It works on physical registers, not SSA values, and moves
instructions only inside *regions*: maximal runs of reorderable instructions
of one block. What it guarantees:

- **Reorderable** instructions (`classify`): ALU instructions (the table's
  VALU classes valu/valu64/trans/dot/wmma, VOPD pairs, and SALU classes
  salu/salu64 that define a register and have only register/``imm`` operand
  slots) and memory *loads* (smem/vmem/flat/ds entries that define a
  register, are not atomics, stores, GDS or LDS-DMA). Everything else (pseudo
  instructions, branches, stores, atomics, barriers, messages, waits, nops,
  hwreg/mode accesses, interpolation, anything writing EXEC) is fixed: no
  instruction moves across it.
- **Dependencies kept**: for every pair in a region that touches a common
  register dword (`instr_class.Access`: operands, definitions, implicit
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
  order. Latencies and issue costs are `statistics.CYCLE_MODEL`'s (VALU 5,
  transcendental 10, SALU 2, SMEM 64, VMEM 320, LDS 40 cycles; VALU issue
  doubles in wave64) — so the separation is by each producer's latency, as
  insert_delay_alu (which follows) would otherwise stall for it.

The pass is target-neutral (GFX10 and GFX11); `nosched` / `nosched-ilp`
skip it (pipeline.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from radcc.ir.opinfo import REG_KINDS
from radcc.ir.program import Instruction, Program
from radcc.ir.regclass import EXEC, EXEC_HI
from radcc.isa.table import OpInfo
from radcc.passes.instr_class import VALU_CLASSES, Access, AccessCache, is_gds, is_nop
from radcc.passes.statistics import CYCLE_MODEL

__all__ = ["WINDOW", "Node", "classify", "regions", "build_nodes", "schedule_region",
           "schedule_ilp"]

WINDOW = 16  # candidates considered at a time (ACO's partial DAG of 16 nodes)

FIXED, ALU, LOAD = 0, 1, 2
_MEM_CLASSES = frozenset({"smem", "vmem", "flat", "ds"})
_STORE_SLOTS = ("vdata", "data", "sdata")
_SALU_OK_KINDS = REG_KINDS | {"imm"}


def _writes_exec(acc: Access) -> bool:
    return EXEC in acc.writes or EXEC_HI in acc.writes


def classify(instr: Instruction, acc: Access) -> int:
    """FIXED, ALU or LOAD (see the module docstring)."""
    info: OpInfo | None = acc.info
    if info is None or instr.is_pseudo or _writes_exec(acc):
        return FIXED
    if instr.format.startswith("VOPD"):
        return ALU
    cls = info.cls
    if cls in VALU_CLASSES:
        return FIXED if is_nop(info) else ALU
    if cls in ("salu", "salu64"):
        if not instr.definitions or not info.srcs:
            return FIXED
        if any(s.kind not in _SALU_OK_KINDS for s in info.operands):
            return FIXED
        return ALU
    if cls in _MEM_CLASSES:
        if not instr.definitions or info.extra.get("rtn_bits") or is_gds(instr, info):
            return FIXED
        if instr.fields.get("lds"):
            return FIXED
        if any(not s.is_def and s.name.startswith(_STORE_SLOTS) for s in info.operands):
            return FIXED
        return LOAD
    return FIXED


def regions(kinds: list[int]) -> list[tuple[int, int]]:
    """[start, end) ranges of consecutive non-FIXED instructions (length >= 2)."""
    out = []
    start = -1
    for i, k in enumerate([*kinds, FIXED]):
        if k != FIXED and start < 0:
            start = i
        elif k == FIXED and start >= 0:
            if i - start >= 2:
                out.append((start, i))
            start = -1
    return out


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


def _costs(program: Program, instr: Instruction, info: OpInfo | None) -> tuple[int, int]:
    cls = "valu" if instr.format.startswith("VOPD") else (info.cls if info else "salu")
    unit, issue, lat = CYCLE_MODEL.get(cls, ("salu", 1, 1))
    if program.wave_size == 64 and unit in ("valu", "trans"):
        issue *= 2
    return issue, lat


def build_nodes(program: Program, instrs: list[Instruction], accs: list[Access],
                kinds: list[int]) -> list[Node]:
    """The dependency DAG of one region (see "Dependencies kept")."""
    nodes = []
    for ins, acc, k in zip(instrs, accs, kinds, strict=True):
        issue, lat = _costs(program, ins, acc.info)
        nodes.append(Node(ins, acc, k, issue, lat, [], []))
    last_write: dict[int, int] = {}
    readers: dict[int, list[int]] = {}
    last_load = -1
    for i, n in enumerate(nodes):
        deps: dict[int, bool] = {}
        for r in n.acc.reads:
            w = last_write.get(r)
            if w is not None:
                deps[w] = True
        for r in n.acc.writes:
            w = last_write.get(r)
            if w is not None and w not in deps:
                deps[w] = False
            for rd in readers.get(r, ()):
                if rd != i and rd not in deps:
                    deps[rd] = False
        if n.kind == LOAD:
            if last_load >= 0 and last_load not in deps:
                deps[last_load] = False
            last_load = i
        for r in n.acc.reads:
            readers.setdefault(r, []).append(i)
        for r in n.acc.writes:
            last_write[r] = i
            readers[r] = []
        n.preds = sorted(deps.items())
        for p, true_dep in n.preds:
            nodes[p].succs.append((i, true_dep))
    for n in reversed(nodes):
        h = n.issue
        for s, true_dep in n.succs:
            h = max(h, (n.latency if true_dep else n.issue) + nodes[s].height)
        n.height = h
    return nodes


def schedule_region(nodes: list[Node], window: int = WINDOW) -> list[int]:
    """The new order (node indices) of a region: forward list scheduling."""
    n = len(nodes)
    npred = [len(x.preds) for x in nodes]
    start = [0] * n
    done = [False] * n
    order: list[int] = []
    t = 0
    first = 0  # first unscheduled node in program order
    while len(order) < n:
        best = -1
        best_key: tuple[int, int, int] | None = None
        seen = 0
        i = first
        while i < n and seen < window:
            if not done[i]:
                seen += 1
                if npred[i] == 0:
                    est = t
                    for p, true_dep in nodes[i].preds:
                        ready = start[p] + (nodes[p].latency if true_dep else nodes[p].issue)
                        if ready > est:
                            est = ready
                    key = (est, -nodes[i].height, i)
                    if best_key is None or key < best_key:
                        best, best_key = i, key
            i += 1
        assert best >= 0 and best_key is not None, "dependency cycle in a region"
        done[best] = True
        start[best] = best_key[0]
        t = best_key[0] + nodes[best].issue
        order.append(best)
        for s, _ in nodes[best].succs:
            npred[s] -= 1
        while first < n and done[first]:
            first += 1
    return order


def schedule_ilp(program: Program) -> None:
    """Reorder the reorderable instructions of every block (module docstring)."""
    access = AccessCache(program)
    for block in program.blocks:
        instrs = block.instructions
        if len(instrs) < 3:
            continue
        accs = [access(i) for i in instrs]
        kinds = [classify(i, a) for i, a in zip(instrs, accs, strict=True)]
        new = list(instrs)
        for lo, hi in regions(kinds):
            nodes = build_nodes(program, instrs[lo:hi], accs[lo:hi], kinds[lo:hi])
            order = schedule_region(nodes)
            new[lo:hi] = [nodes[k].instr for k in order]
        block.instructions = new
