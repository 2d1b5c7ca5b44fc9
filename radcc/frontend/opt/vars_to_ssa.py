"""vars_to_ssa: promote local variables to SSA values (NIR's lower_vars_to_ssa).

A variable is promoted when every deref of it has constant indices and is only
loaded, stored or further dereferenced; each scalar/vector leaf of it (a
struct member, an array element at a constant index) becomes its own SSA
variable. Phis are placed on the iterated dominance frontier of the stores
(Cytron et al.), only in the blocks the variable is live into (pruned SSA: a
load may read it before a store), and the loads renamed in a dominator-tree
walk; a load with no store before it reads an ``undef``. Variables indexed with
a non-constant index stay in memory as local arrays (``load_deref``/``store_deref``)
for a later lowering to registers or scratch. Phis whose values end up unused (the
loads reading them dead) are left to dead code elimination.
"""

from __future__ import annotations

from ..mir import (
    ArrayType,
    Block,
    Instr,
    LocalVar,
    MirShader,
    StructType,
    Value,
    const_of,
    leaf_count,
    member_leaf_offset,
    rewrite_uses,
)
from ..mir_cfg import build_cfg

Slot = tuple[LocalVar, int]


def _leaf_of(d: Value, memo: dict[Value, int | None]) -> int | None:
    """Constant leaf index of a deref chain, None when an index is not constant."""
    if d in memo:
        return memo[d]
    p = d.parent
    assert p is not None
    r: int | None
    if p.op == "deref_var":
        r = 0
    elif p.op == "deref_struct":
        base = _leaf_of(p.srcs[0], memo)
        st = p.srcs[0].parent.attrs["type"] if p.srcs[0].parent else None
        assert isinstance(st, StructType)
        r = None if base is None else base + member_leaf_offset(st, p.attrs["index"])
    elif p.op == "deref_array":
        base = _leaf_of(p.srcs[0], memo)
        c = const_of(p.srcs[1])
        at = p.srcs[0].parent.attrs["type"] if p.srcs[0].parent else None
        assert isinstance(at, ArrayType)
        if base is None or c is None:
            r = None
        else:
            idx = c[0]
            if idx >= at.length:
                r = None  # out of bounds: keep it in memory (undefined either way)
            else:
                r = base + idx * leaf_count(at.element)
    else:
        r = None
    memo[d] = r
    return r


def _live_in(exposed: list[Block], defs: set[Block],
             preds: dict[Block, list[Block]]) -> set[Block]:
    """The blocks a slot is live into: those reading it before storing it (`exposed`)
    and, backwards from them, every predecessor that does not store it (`defs`)."""
    live = set(exposed)
    work = list(exposed)
    while work:
        for p in preds[work.pop()]:
            if p not in live and p not in defs:
                live.add(p)
                work.append(p)
    return live


def _block_index(b: Block) -> int:
    return b.index


_DEREFS = frozenset({"deref_var", "deref_array", "deref_struct"})
_ACCESS = frozenset({"load_deref", "store_deref"})


def vars_to_ssa(shader: MirShader) -> bool:
    if not shader.function.locals:
        # every deref names one of the function's locals (dce drops a local only when
        # no deref is left that names it): nothing to promote
        return False
    memo: dict[Value, int | None] = {}
    promotable: dict[LocalVar, bool] = {}
    accesses: list[tuple[Instr, Slot]] = []
    instrs = list(shader.instrs())
    # the values of the deref instructions: another instruction reading one (but a load
    # or store through it) keeps its variable in memory
    derefs = {ins.dest for ins in instrs if ins.op in _DEREFS}
    for ins in instrs:
        op = ins.op
        if op not in _DEREFS and op not in _ACCESS:
            if not derefs.isdisjoint(ins.srcs):
                for s in ins.srcs:
                    if s in derefs:
                        assert s.parent is not None
                        promotable[s.parent.attrs["var"]] = False
            continue
        if op in _DEREFS:
            var = ins.attrs["var"]
            promotable.setdefault(var, True)
            assert ins.dest is not None
            if _leaf_of(ins.dest, memo) is None:
                promotable[var] = False
        elif ins.op in ("load_deref", "store_deref"):
            d = ins.srcs[0]
            assert d.parent is not None
            var = d.parent.attrs["var"]
            leaf = _leaf_of(d, memo)
            if leaf is None:
                promotable[var] = False
            else:
                accesses.append((ins, (var, leaf)))
            if ins.op == "store_deref" and ins.srcs[1].parent is not None and \
                    ins.srcs[1].parent.op in _DEREFS:
                promotable[var] = False
    accesses = [(i, s) for i, s in accesses if promotable.get(s[0], False)]
    if not accesses:
        return False
    cfg = build_cfg(shader)
    slot_type: dict[Slot, tuple[int, int]] = {}
    def_blocks: dict[Slot, set[Block]] = {}
    by_instr: dict[Instr, Slot] = {}
    # per slot, the blocks whose first access of it is a load (upward-exposed uses)
    exposed: dict[Slot, list[Block]] = {}
    for ins, slot in accesses:
        by_instr[ins] = slot
        if ins.op == "store_deref":
            v = ins.srcs[1]
            slot_type[slot] = (v.bit_size, v.num_components)
            assert ins.block is not None
            def_blocks.setdefault(slot, set()).add(ins.block)
        else:
            assert ins.dest is not None
            slot_type.setdefault(slot, (ins.dest.bit_size, ins.dest.num_components))
            assert ins.block is not None
            b = ins.block
            if b not in def_blocks.get(slot, ()):  # (no store before it in its block)
                ue = exposed.setdefault(slot, [])
                if not ue or ue[-1] is not b:
                    ue.append(b)
    # phi placement
    # each frontier by block number (a set's order follows where its blocks are in
    # memory: the phis' value numbers follow this order)
    df = {b: sorted(f, key=_block_index) for b, f in cfg.frontiers().items() if f}
    phi_slot: dict[Instr, Slot] = {}
    for slot, def_set in def_blocks.items():
        # (by block number, not the set's order, which follows where the blocks are in
        # memory: the phis' value numbers follow this order)
        phi_work = sorted((b for b in def_set if cfg.reachable(b)), key=_block_index)
        placed: set[Block] = set()
        live: set[Block] | None = None  # the blocks the slot is live into
        while phi_work:
            b = phi_work.pop()
            for f in df.get(b, ()):
                if f in placed:
                    continue
                placed.add(f)
                if f not in def_set:
                    phi_work.append(f)
                if live is None:
                    live = _live_in(exposed.get(slot, []), def_set, cfg.preds)
                if f not in live:
                    continue  # (pruned SSA: no load reads the slot's value there)
                bits, n = slot_type[slot]
                phi = Instr("phi", shader.new_value(bits, n))
                f.insert(0, phi)
                phi_slot[phi] = slot
    # renaming
    entry = cfg.entry
    undefs: dict[Slot, Value] = {}

    def undef(slot: Slot) -> Value:
        if slot not in undefs:
            bits, n = slot_type[slot]
            v = shader.new_value(bits, n)
            entry.insert(0, Instr("undef", v))
            undefs[slot] = v
        return undefs[slot]

    mapping: dict[Value, Value] = {}
    children = cfg.children()
    fixed = shader.fixed
    if fixed is not None and fixed.dom_children is None:
        # (the structure stays as it is: `mir_cfg.dominator_children` reads it from here)
        fixed.dom_children = children
    dead: list[Instr] = []
    stacks: dict[Slot, list[Value]] = {}

    def look(v: Value) -> Value:
        while v in mapping:
            v = mapping[v]
        return v

    def enter(b: Block) -> list[Slot]:
        """Rename `b`'s accesses and fill its successors' phis; the slots it pushed."""
        pushed: list[Slot] = []
        # (`undef` inserts into the entry block)
        for ins in list(b.instrs) if b is entry else b.instrs:
            if ins.op == "phi" and ins in phi_slot:
                slot = phi_slot[ins]
                assert ins.dest is not None
                stacks.setdefault(slot, []).append(ins.dest)
                pushed.append(slot)
            elif ins in by_instr:
                slot = by_instr[ins]
                if ins.op == "load_deref":
                    st = stacks.get(slot)
                    cur = st[-1] if st else undef(slot)
                    assert ins.dest is not None
                    mapping[ins.dest] = cur
                else:
                    stacks.setdefault(slot, []).append(look(ins.srcs[1]))
                    pushed.append(slot)
                dead.append(ins)
        for s in cfg.succs[b]:
            for phi in s.instrs:
                if phi.op != "phi":
                    break  # (phis lead their block)
                if phi in phi_slot:
                    slot = phi_slot[phi]
                    st = stacks.get(slot)
                    phi.srcs.append(st[-1] if st else undef(slot))
                    phi.preds.append(b)
        return pushed

    # the dominator tree depth-first, children in order, with an explicit stack (a chain
    # of sequential ifs is a tree as deep as the shader is long)
    work: list[tuple[Block, list[Slot] | None]] = [(entry, None)]
    while work:
        b, pushed = work.pop()
        if pushed is not None:
            for slot in pushed:
                stacks[slot].pop()
            continue
        work.append((b, enter(b)))
        work.extend((c, None) for c in reversed(children.get(b, [])))
    # phis in unreachable blocks / with unreachable preds: drop the phi entirely
    for phi in phi_slot:
        assert phi.block is not None
        if not cfg.reachable(phi.block):
            dead.append(phi)
    # accesses in unreachable blocks were not renamed: loads read undef
    for ins, slot in accesses:
        if ins.op == "load_deref" and ins.dest is not None and ins.dest not in mapping:
            mapping[ins.dest] = undef(slot)
    # every access goes, renamed or not; one pass over each block they were in
    gone: set[Instr] = set(dead)
    gone.update(ins for ins, _ in accesses)
    touched: dict[Block, None] = {}
    for ins in gone:
        if ins.block is not None:
            touched[ins.block] = None
    for blk in touched:
        blk.instrs = [i for i in blk.instrs if i not in gone]
    rewrite_uses(shader, mapping)
    return True
