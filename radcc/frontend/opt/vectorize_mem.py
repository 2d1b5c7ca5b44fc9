"""vectorize_mem: adjacent loads/stores become one wide access (the idea of NIR's
nir_opt_load_store_vectorize, which ACO relies on for ``*_load_b128`` and friends).

Within one block, accesses of the same kind (``op``, ``binding``, the same address
value, equal other attributes) with 32- or 64-bit components whose byte ranges
``[offset, offset + size)`` follow one another are merged into one access of 64,
96 or 128 bits (what isel selects as b64/b96/b128, SMEM ``s_load_b64/b128`` for
uniform loads), when

- the merged access is aligned as the hardware needs: the start's known alignment
  (``lower_vectors.access_align``) is at least 4 for SSBO/UBO/push constant/scratch
  (global, scratch and SMEM accesses need dwords only); DS (shared memory) needs the
  access size (b64: 8, b96/b128: 16), else it stays as is;
- its offset still fits the space's range (the start's offset, already in range);
- no instruction in between forbids moving the accesses together: a merged load sits
  at its first member, so no member may move above a barrier, an atomic of its
  space, or a store to its space that may write its bytes (not for loads of
  read-only data: UBO, push constants, ``access=readonly`` SSBO); a merged store
  sits at its last member, so no member may move below a barrier, an atomic of its
  space, or another load or store of its space that may touch its bytes. Two
  accesses may touch the same bytes unless they use the same binding and address
  value with disjoint ranges (different bindings may alias, as without ``restrict``).

A merged load's old results become ``mov %v.k`` extractions (an old vector result
whose uses are all such extractions has them renumbered; other old vector loads are
not merged); a merged store's data is a ``vecN`` of the members' components.
Runs after ``fold_offsets`` and ``cse`` (members share their address value); the
old address computations are left to DCE.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from dataclasses import dataclass
from heapq import heappop, heappush
from typing import Any

from ..mir import Block, If, Instr, MirShader, Value, iter_nodes
from .isel_form import MEMORY
from .lower_util import const_int
from .lower_vectors import access_align

LOADS = frozenset({"load_ssbo", "load_ubo", "load_push_constant", "load_shared",
                   "load_scratch", "load_constant"})
STORES = frozenset({"store_ssbo", "store_shared", "store_scratch"})
_ACCESSES = LOADS | STORES
MAX_BYTES = 16
# component sizes of stores merged: a b128 store of two 64-bit values costs the register
# allocator up to four v_mov to gather the pairs (measured on the GLSL suite: more
# instructions than the b64 stores saved), so 64-bit stores stay as they are
STORE_BITS = frozenset({32})
_IGNORED_ATTRS = ("offset", "align")


@dataclass
class _Acc:
    """One candidate access at position ``pos`` of its block."""

    ins: Instr
    pos: int
    space: str
    base: Any  # identity of the address: ("c", value) for a constant, else the Value
    off: int
    size: int
    bits: int
    comps: int
    store: bool
    align: int = -1  # access_align(ins), computed when first asked (`_aligned`)

    @property
    def end(self) -> int:
        return self.off + self.size


def _base_key(v: Value) -> Any:
    c = const_int(v)
    return ("c", v.bit_size, c) if c is not None else v


def _readonly(ins: Instr) -> bool:
    return ins.op in ("load_ubo", "load_push_constant", "load_constant") or (
        ins.op == "load_ssbo" and ins.attrs.get("access") == "readonly")


class _Uses:
    """Each value's users (instructions reading it, ifs it is the condition of), with
    how often; kept exact by `_merge`. Removing a user is O(1): the address values
    of a shader's many accesses have long use lists."""

    def __init__(self, shader: MirShader) -> None:
        self.of: dict[Value, dict[int, list[Any]]] = {}
        for b in shader.blocks():
            for ins in b.instrs:
                for s in ins.srcs:
                    self.add(s, ins)
        for n in iter_nodes(shader.function.body):
            if isinstance(n, If):
                self.add(n.cond, n)

    def add(self, v: Value, u: Instr | If) -> None:
        e = self.of.setdefault(v, {}).setdefault(id(u), [u, 0])
        e[1] += 1

    def remove(self, v: Value, u: Instr) -> None:
        d = self.of[v]
        e = d[id(u)]
        e[1] -= 1
        if not e[1]:
            del d[id(u)]

    def users(self, v: Value) -> list[Instr | If]:
        return [e[0] for e in self.of.get(v, {}).values()]


def _candidate(ins: Instr, pos: int, uses: _Uses) -> _Acc | None:
    store = ins.op in STORES
    if not store and ins.op not in LOADS:
        return None
    v = ins.srcs[0] if store else ins.dest
    if v is None or v.bit_size not in (32, 64) or (store and v.bit_size not in STORE_BITS):
        return None
    if not store and v.num_components > 1:
        # an old vector result is only renumbered when every use extracts one component
        for u in uses.users(v):
            if not (isinstance(u, Instr) and u.op == "mov" and u.dest is not None
                    and u.dest.num_components == 1):
                return None
    size = v.bit_size // 8 * v.num_components
    if size >= MAX_BYTES:
        return None
    return _Acc(ins, pos, MEMORY[ins.op], _base_key(ins.srcs[-1]),
                int(ins.attrs.get("offset", 0)), size, v.bit_size, v.num_components, store)


def _may_touch(a: _Acc, x: Instr) -> bool:
    """May instruction ``x`` read or write the bytes access ``a`` reads or writes, in a
    way that forbids moving ``a`` across it?"""
    op = x.op
    if op == "barrier":
        return True
    space = MEMORY.get(op)
    if space is None or space != a.space:
        return False
    if op not in LOADS and op not in STORES:
        return True  # an atomic of the space
    if op in LOADS and not a.store:
        return False  # two loads commute
    if not a.store and _readonly(a.ins):
        return False  # read-only data: no store writes it
    if a.store and op in LOADS and _readonly(x):
        return False
    if x.attrs.get("binding") != a.ins.attrs.get("binding") or \
            _base_key(x.srcs[-1]) != a.base:
        return True
    v = x.srcs[0] if op in STORES else x.dest
    assert v is not None
    lo = int(x.attrs.get("offset", 0))
    hi = lo + v.bit_size // 8 * v.num_components
    return lo < a.end and a.off < hi


class _Crossings:
    """The block's instructions that `_may_touch` can forbid crossing, by position:
    ``memory`` (barriers, loads, stores, atomics: what a store cannot cross) and
    ``fences`` (those but the loads: what a load cannot cross), sorted, and ``at``,
    the instruction now at each. Positions are the instructions' indices when the
    block was first scanned: a merged access takes the position of the member it
    replaces and the others' leave, so the order of what remains is the block's."""

    def __init__(self, block: Block) -> None:
        instrs = block.instrs
        self.memory = [p for p, i in enumerate(instrs) if i.op == "barrier" or i.op in MEMORY]
        self.fences = [p for p in self.memory if instrs[p].op not in LOADS]
        self.at: dict[int, Instr] = {p: instrs[p] for p in self.memory}

    def drop(self, p: int, store: bool) -> None:
        del self.memory[bisect_left(self.memory, p)]
        del self.at[p]
        if store:
            del self.fences[bisect_left(self.fences, p)]


def _can_move(m: _Acc, to: int, members: set[int], cross: _Crossings) -> bool:
    """Can member ``m`` move to position ``to`` (past everything between)?"""
    lo, hi = (m.pos + 1, to) if to > m.pos else (to + 1, m.pos)
    at = cross.memory if m.store else cross.fences
    instrs = cross.at
    for k in range(bisect_left(at, lo), len(at)):
        p = at[k]
        if p >= hi:
            break
        if p in members:
            continue
        if _may_touch(m, instrs[p]):
            return False
    return True


def _aligned(first: _Acc, size: int) -> bool:
    if first.align < 0:
        first.align = access_align(first.ins)
    al = first.align
    if first.space == "shared":
        return al >= (16 if size == 12 else size)
    return al >= 4


def _key(a: _Acc) -> tuple[Any, ...]:
    attrs = tuple(sorted((k, repr(v)) for k, v in a.ins.attrs.items()
                         if k not in _IGNORED_ATTRS))
    return (a.ins.op, a.base, a.bits, a.store, attrs)


def _legal(chain: list[_Acc], size: int, cross: _Crossings) -> bool:
    if size == 12 and chain[0].bits == 64:
        return False
    if not _aligned(chain[0], size):
        return False
    members = {c.pos for c in chain}
    to = max(members) if chain[0].store else min(members)
    return all(_can_move(m, to, members, cross) for m in chain)


class _Group:
    """The candidate accesses of one key (`_key`) in (offset, position) order, and
    which of them start no chain (``failed``, kept until a merge may change that) or
    are still to try (``pending``); `first_chain` tries the pending ones in order."""

    def __init__(self, store: bool) -> None:
        self.store = store
        self.order: list[tuple[int, int]] = []  # (offset, position), sorted
        self.by_pos: dict[int, _Acc] = {}
        self.pending: list[tuple[int, int]] = []
        self.failed: list[tuple[int, int]] = []
        self.low: list[int] = []  # heaps of the positions (lazy: dropped ones stay)
        self.high: list[int] = []
        self.chain: list[_Acc] | None = None

    def add(self, a: _Acc) -> None:
        k = (a.off, a.pos)
        insort(self.order, k)
        insort(self.pending, k)
        self.by_pos[a.pos] = a
        heappush(self.low, a.pos)
        heappush(self.high, -a.pos)

    def drop(self, a: _Acc) -> None:
        k = (a.off, a.pos)
        del self.order[bisect_left(self.order, k)]
        for lst in (self.pending, self.failed):
            i = bisect_left(lst, k)
            if i < len(lst) and lst[i] == k:
                del lst[i]
        del self.by_pos[a.pos]

    def first_pos(self) -> int:
        while self.low[0] not in self.by_pos:
            heappop(self.low)
        return self.low[0]

    def span(self) -> tuple[int, int]:
        while -self.high[0] not in self.by_pos:
            heappop(self.high)
        return self.first_pos(), -self.high[0]

    def retry(self, lo: tuple[int, int] | None = None, hi: tuple[int, int] | None = None) -> None:
        """Move the failed starts in [lo, hi) (all: None) back to pending."""
        i = 0 if lo is None else bisect_left(self.failed, lo)
        j = len(self.failed) if hi is None else bisect_left(self.failed, hi)
        for k in self.failed[i:j]:
            insort(self.pending, k)
        del self.failed[i:j]

    def first_chain(self, cross: _Crossings) -> list[_Acc] | None:
        """The chain `_chains` of the whole group would find first: greedy from each
        start in (offset, position) order, extending with the access that starts
        where the chain ends while the merged access stays legal."""
        order, by_pos = self.order, self.by_pos
        while self.pending:
            k = self.pending[0]
            a = by_pos[k[1]]
            chain = [a]
            end, size = a.end, a.size
            j = bisect_left(order, (end, -1))
            while j < len(order):
                b = by_pos[order[j][1]]
                if b.off > end or size + b.size > MAX_BYTES:
                    break
                trial = [*chain, b]
                if not _legal(trial, size + b.size, cross):
                    break
                chain, end, size = trial, b.end, size + b.size
                j = bisect_left(order, (end, -1), j)
            if len(chain) > 1 and size in (8, 12, 16):
                return chain
            del self.pending[0]
            insort(self.failed, k)
        return None


def _components(shader: MirShader, v: Value, new: list[Instr]) -> list[Value]:
    if v.num_components == 1:
        return [v]
    p = v.parent
    if p is not None and p.op == f"vec{v.num_components}":
        return list(p.srcs)
    out = []
    for k in range(v.num_components):
        c = shader.new_value(v.bit_size, 1)
        new.append(Instr("mov", c, [v], {"comps": (k,)}))
        out.append(c)
    return out


def _merge(shader: MirShader, block: Block, chain: list[_Acc], uses: _Uses,
           changed: set[Value]) -> tuple[Instr, list[Instr]]:
    """The merged access of `chain` and the instructions that replace the member at
    its place (the merged access among them); `changed` receives the values whose
    users changed."""
    first = chain[0]
    comps = sum(c.comps for c in chain)
    attrs = dict(first.ins.attrs)
    attrs["offset"] = first.off
    attrs["align"] = access_align(first.ins)
    new: list[Instr] = []
    if first.store:
        anchor = max(chain, key=lambda c: c.pos).ins
        data_c: list[Value] = []
        for c in chain:
            data_c += _components(shader, c.ins.srcs[0], new)
        data = shader.new_value(first.bits, comps)
        new.append(Instr(f"vec{comps}", data, data_c))
        merged = Instr(first.ins.op, None, [data, anchor.srcs[-1]], attrs)
        new.append(merged)
    else:
        anchor = min(chain, key=lambda c: c.pos).ins
        dest = shader.new_value(first.bits, comps)
        merged = Instr(first.ins.op, dest, [anchor.srcs[-1]], attrs)
        new.append(merged)
        k = 0
        for c in chain:
            old = c.ins.dest
            assert old is not None
            if c.comps == 1:
                new.append(Instr("mov", old, [dest], {"comps": (k,)}))
            else:
                moved = uses.of.pop(old, {})
                changed.add(old)
                for u, _n in moved.values():
                    assert isinstance(u, Instr)
                    u.srcs = [dest if s is old else s for s in u.srcs]
                    u.attrs["comps"] = tuple(k + j for j in u.attrs["comps"])
                uses.of.setdefault(dest, {}).update(moved)
            k += c.comps
    for ins in new:
        ins.block = block
    # the use lists as a rebuild would give them: the members' uses go, the new
    # instructions' come (a merged load's extractions were moved above)
    for c in chain:
        for x in c.ins.srcs:
            uses.remove(x, c.ins)
            changed.add(x)
    for ins in new:
        for x in ins.srcs:
            uses.add(x, ins)
            changed.add(x)
    return merged, new


class _BlockMerger:
    """Merges the chains of one block one at a time, as looking again after each
    merge would: the first chain of the group whose first access comes first. Only
    what a merge can change is looked at again: its group's starts whose offsets
    reach the merged bytes, the groups whose span holds a moved member when the
    fences (a store merge) or the loads a store cannot cross (a load merge) change,
    and the accesses whose result's users changed. The block's instruction list is
    rewritten once at the end."""

    def __init__(self, shader: MirShader, block: Block, uses: _Uses) -> None:
        self.shader, self.block, self.uses = shader, block, uses
        self.cross = _Crossings(block)
        self.groups: dict[tuple[Any, ...], _Group] = {}
        self.group_of: dict[int, tuple[Any, ...]] = {}  # position -> its group's key
        self.loads: dict[Value, int] = {}  # a load's result -> its position
        self.ready: list[tuple[int, int, tuple[Any, ...]]] = []
        self.serial = 0
        self.replaced: dict[int, list[Instr]] = {}  # id(member) -> what stands there
        self.dirty: set[tuple[Any, ...]] = set()
        for p in self.cross.memory:
            self._enter(self.cross.at[p], p)

    def _enter(self, ins: Instr, p: int) -> None:
        if ins.op in LOADS and ins.dest is not None:
            self.loads[ins.dest] = p
        a = _candidate(ins, p, self.uses)
        if a is None:
            return
        key = _key(a)
        g = self.groups.get(key)
        if g is None:
            g = self.groups[key] = _Group(a.store)
        g.add(a)
        self.group_of[p] = key
        self.dirty.add(key)

    def _leave(self, p: int) -> None:
        key = self.group_of.pop(p, None)
        if key is not None:
            g = self.groups[key]
            g.drop(g.by_pos[p])
            self.dirty.add(key)

    def _settle(self) -> None:
        for key in self.dirty:
            g = self.groups[key]
            g.chain = g.first_chain(self.cross) if g.by_pos else None
            if g.chain is not None:
                self.serial += 1
                heappush(self.ready, (g.first_pos(), self.serial, key))
        self.dirty.clear()

    def _next(self) -> list[_Acc] | None:
        while self.ready:
            pos, _s, key = self.ready[0]
            g = self.groups[key]
            if g.chain is not None and g.by_pos and g.first_pos() == pos:
                return g.chain
            heappop(self.ready)
        return None

    def run(self) -> bool:
        self._settle()
        merged_any = False
        while (chain := self._next()) is not None:
            merged_any = True
            self._merge(chain)
            self._settle()
        if merged_any:
            out: list[Instr] = []
            self._expand(self.block.instrs, out)
            self.block.instrs = out
        return merged_any

    def _expand(self, instrs: list[Instr], out: list[Instr]) -> None:
        for ins in instrs:
            r = self.replaced.get(id(ins))
            if r is None:
                out.append(ins)
            else:
                self._expand(r, out)

    def _merge(self, chain: list[_Acc]) -> None:
        first = chain[0]
        store = first.store
        changed: set[Value] = set()
        merged, new = _merge(self.shader, self.block, chain, self.uses, changed)
        anchor = max(c.pos for c in chain) if store else min(c.pos for c in chain)
        key = self.group_of[anchor]
        g = self.groups[key]
        for c in chain:
            self.replaced[id(c.ins)] = new if c.pos == anchor else []
            self._leave(c.pos)
            if c.ins.dest is not None:
                self.loads.pop(c.ins.dest, None)
            if c.pos != anchor:
                self.cross.drop(c.pos, store)
        self.cross.at[anchor] = merged
        size = sum(c.size for c in chain)
        g.retry((first.off - MAX_BYTES, -1), (first.off + size + 1, -1))
        # what a member's move past the others could cross changed at the members'
        # positions: for a store merge every access's, for a load merge the stores'
        moved = sorted(c.pos for c in chain)
        for k, h in self.groups.items():
            if not h.by_pos or (not store and not h.store):
                continue
            lo, hi = h.span()
            i = bisect_left(moved, lo)
            if i < len(moved) and moved[i] <= hi:
                h.retry()
                self.dirty.add(k)
        self._enter(merged, anchor)
        # accesses whose result's users changed may start or stop being candidates
        for v in changed:
            p = self.loads.get(v)
            if p is None or p == anchor:
                continue
            ins = self.cross.at[p]
            was = p in self.group_of
            now = _candidate(ins, p, self.uses) is not None
            if was != now:
                self._leave(p)
                self._enter(ins, p)
                k2 = self.group_of.get(p)
                for kk in (k2, key):
                    if kk is not None:
                        self.groups[kk].retry()
                        self.dirty.add(kk)
        self.dirty.add(key)


def vectorize_mem(shader: MirShader) -> bool:
    """Merge adjacent memory accesses (see the module docstring)."""
    changed = False
    uses: _Uses | None = None  # built once, kept up to date
    for block in shader.structure()[0]:
        instrs = block.instrs
        if sum(1 for i in instrs if i.op in _ACCESSES) < 2:
            continue  # nothing to merge (and no need for the shader's uses)
        if uses is None:
            uses = _Uses(shader)
        if _BlockMerger(shader, block, uses).run():
            changed = True
    return changed
