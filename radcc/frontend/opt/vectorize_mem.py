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

from bisect import bisect_left
from dataclasses import dataclass
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


def _uses(shader: MirShader) -> dict[Value, list[Instr | If]]:
    out: dict[Value, list[Instr | If]] = {}
    for b in shader.blocks():
        for ins in b.instrs:
            for s in ins.srcs:
                out.setdefault(s, []).append(ins)
    for n in iter_nodes(shader.function.body):
        if isinstance(n, If):
            out.setdefault(n.cond, []).append(n)
    return out


def _candidate(ins: Instr, pos: int, uses: dict[Value, list[Instr | If]]) -> _Acc | None:
    store = ins.op in STORES
    if not store and ins.op not in LOADS:
        return None
    v = ins.srcs[0] if store else ins.dest
    if v is None or v.bit_size not in (32, 64) or (store and v.bit_size not in STORE_BITS):
        return None
    if not store and v.num_components > 1:
        # an old vector result is only renumbered when every use extracts one component
        for u in uses.get(v, []):
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
    """The positions of one block's instructions that `_may_touch` can forbid crossing:
    ``fences`` (barriers, stores and atomics; what a load cannot cross) and ``memory``
    (those and the loads; what a store cannot cross). Other instructions never touch
    memory, so `_can_move` looks at these positions only."""

    def __init__(self, block: Block, memory: list[int]) -> None:
        """`memory`: the positions of the block's barriers and memory instructions."""
        instrs = block.instrs
        self.memory = memory
        self.fences = [p for p in memory if instrs[p].op not in LOADS]


def _can_move(block: Block, m: _Acc, to: int, members: set[int], cross: _Crossings) -> bool:
    """Can member ``m`` move to position ``to`` (past everything between)?"""
    lo, hi = (m.pos + 1, to) if to > m.pos else (to + 1, m.pos)
    at = cross.memory if m.store else cross.fences
    instrs = block.instrs
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


def _chains(block: Block, accs: list[_Acc], cross: _Crossings) -> list[list[_Acc]]:
    """Greedy: from each access in offset order, extend with the access that starts
    where the chain ends while the merged access stays legal."""
    groups: dict[tuple[Any, ...], list[_Acc]] = {}
    for a in accs:
        groups.setdefault(_key(a), []).append(a)
    out: list[list[_Acc]] = []
    for g in groups.values():
        g.sort(key=lambda a: (a.off, a.pos))
        used: set[int] = set()
        for i, a in enumerate(g):
            if a.pos in used:
                continue
            chain = [a]
            end, size = a.end, a.size
            for j in range(i + 1, len(g)):  # (no copy of the group's tail per start)
                b = g[j]
                if b.pos in used or b.off < end:
                    continue
                if b.off > end or size + b.size > MAX_BYTES:
                    break
                trial = [*chain, b]
                if not _legal(block, trial, size + b.size, cross):
                    break
                chain, end, size = trial, b.end, size + b.size
            if len(chain) > 1 and size in (8, 12, 16):
                out.append(chain)
                used |= {c.pos for c in chain}
    return out


def _legal(block: Block, chain: list[_Acc], size: int, cross: _Crossings) -> bool:
    if size == 12 and chain[0].bits == 64:
        return False
    if not _aligned(chain[0], size):
        return False
    members = {c.pos for c in chain}
    to = max(members) if chain[0].store else min(members)
    return all(_can_move(block, m, to, members, cross) for m in chain)


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


def _merge(shader: MirShader, block: Block, chain: list[_Acc],
           uses: dict[Value, list[Instr | If]]) -> None:
    first = chain[0]
    comps = sum(c.comps for c in chain)
    attrs = dict(first.ins.attrs)
    attrs["offset"] = first.off
    attrs["align"] = access_align(first.ins)
    new: list[Instr] = []
    if first.store:
        at = max(c.pos for c in chain)
        data_c: list[Value] = []
        for c in chain:
            data_c += _components(shader, c.ins.srcs[0], new)
        data = shader.new_value(first.bits, comps)
        new.append(Instr(f"vec{comps}", data, data_c))
        new.append(Instr(first.ins.op, None, [data, block.instrs[at].srcs[-1]], attrs))
        block.instrs[at:at + 1] = []
        pos = at
    else:
        at = min(c.pos for c in chain)
        dest = shader.new_value(first.bits, comps)
        new.append(Instr(first.ins.op, dest, [block.instrs[at].srcs[-1]], attrs))
        k = 0
        for c in chain:
            old = c.ins.dest
            assert old is not None
            if c.comps == 1:
                new.append(Instr("mov", old, [dest], {"comps": (k,)}))
            else:
                moved = uses.pop(old, [])
                for u in moved:
                    assert isinstance(u, Instr)
                    u.srcs = [dest if s is old else s for s in u.srcs]
                    u.attrs["comps"] = tuple(k + j for j in u.attrs["comps"])
                uses.setdefault(dest, []).extend(moved)
            k += c.comps
        block.instrs[at:at + 1] = []
        pos = at
    for ins in reversed(new):
        block.insert(pos, ins)
    # the use lists as `_uses` would rebuild them: the members' uses go, the new
    # instructions' come (a merged load's extractions were moved above)
    for c in chain:
        for x in c.ins.srcs:
            uses[x].remove(c.ins)
    for ins in new:
        for x in ins.srcs:
            uses.setdefault(x, []).append(ins)
    dead = {id(c.ins) for c in chain}
    block.instrs = [i for i in block.instrs if id(i) not in dead]


def _block(shader: MirShader, block: Block,
           uses: dict[Value, list[Instr | If]] | None) -> tuple[bool, dict | None]:
    """Merge the first chain of `block`: (whether it merged, the shader's use lists,
    kept exact by `_merge`; `uses` None: not built yet)."""
    instrs = block.instrs
    memory = [p for p, i in enumerate(instrs) if i.op == "barrier" or i.op in MEMORY]
    at = [p for p in memory if instrs[p].op in _ACCESSES]
    if len(at) < 2:
        return False, uses  # nothing to merge (and no need for the shader's uses)
    if uses is None:
        uses = _uses(shader)
    accs = [a for p in at if (a := _candidate(instrs[p], p, uses)) is not None]
    if len(accs) < 2:
        return False, uses
    chains = _chains(block, accs, _Crossings(block, memory))
    if not chains:
        return False, uses
    # one chain at a time (positions shift): the first found, then look again
    _merge(shader, block, chains[0], uses)
    return True, uses


def vectorize_mem(shader: MirShader) -> bool:
    """Merge adjacent memory accesses (see the module docstring)."""
    changed = False
    uses: dict[Value, list[Instr | If]] | None = None  # built once, kept up to date
    for block in list(shader.blocks()):
        while True:
            merged, uses = _block(shader, block, uses)
            if not merged:
                break
            changed = True
    return changed
