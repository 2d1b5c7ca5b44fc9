"""dead_branch: fold ``if`` nodes whose condition is a constant and remove ``if`` and
``loop`` nodes that do nothing observable (NIR's opt_dead_cf).

The taken side replaces the ``If`` in its control-flow list: its first block
merges into the block before the if, its last block absorbs the block after
it (whose phis, now of one predecessor, become their single source). Phi
entries whose predecessor was in the dropped side disappear. When the taken
side ends in ``break``/``continue``, the rest of the list is unreachable and
dropped with it (unless a value defined there is still used elsewhere, then the
if is left alone).

A node is dead (NIR's node_is_dead / loop_is_dead) when no instruction inside it
has a side effect (stores, atomics, barriers, any non-eliminable intrinsic; a
``break``/``continue`` counts unless it belongs to a loop inside the node), no value
it defines is used outside it, and the block after it has no phis (which would
merge values from inside); a dead loop, and every loop inside a dead node, must
also have a ``break`` of its own (a loop without one never ends: it is kept, and so
is what holds it). The node is removed and the blocks
around it merge.

A loop whose body ends ``if (c) {X; continue} else {break}`` followed by an
unreachable block (spirv-opt's shape when the header branches straight to a continue
target holding the body: ``lower_continue_constructs`` inlines the continue construct
into the jump to it and leaves the construct itself behind the if, reachable from
nowhere) becomes ``if (c) {} else {break}; X``, the last block falling through to the
header (the other side mirrored likewise). The unreachable block's instructions are
dropped (only the header phis' entries on its edge read them; they go too), and X's
block takes its place, so its entries in the header phis now come from the body's end.
Why it is sound: ``continue`` as the last action of a loop body's last node is the
fall-through to the header, and nothing reachable followed the if. This is the shape
`loop_unroll` counts trips of (NIR: opt_dead_cf's unreachable code after a jump, and
the trip count analysis that sees through the ``continue``).
"""

from __future__ import annotations

from ..mir import (
    Block,
    CFNode,
    If,
    Loop,
    MirShader,
    Value,
    cf_structure,
    const_of,
    iter_phis,
    rewrite_uses,
)
from .dce import dce, has_side_effect


def merge_into(shader: MirShader, a: Block, b: Block) -> None:
    """Append block ``b`` (phis of one entry are resolved first) to block ``a``."""
    mapping: dict[Value, Value] = {}
    phis = b.phis
    for phi in phis:
        assert len(phi.srcs) == 1 and phi.dest is not None, phi
        mapping[phi.dest] = phi.srcs[0]
    for ins in b.instrs[len(phis):]:
        a.append(ins)
    b.instrs = []
    for ins in iter_phis(shader.structure()[0]):
        if b in ins.preds:
            ins.preds = [a if p is b else p for p in ins.preds]
    rewrite_uses(shader, mapping)


def drop_phi_entries(shader: MirShader, dead: set[Block]) -> None:
    for ins in iter_phis(shader.structure()[0]):
        if not any(p in dead for p in ins.preds):
            continue
        keep = [(p, s) for p, s in zip(ins.preds, ins.srcs, strict=True) if p not in dead]
        ins.preds = [p for p, _ in keep]
        ins.srcs = [s for _, s in keep]


class _Folds:
    """The folds of one walk of the shader (`_fold_walk`), their shader-wide effects
    deferred to one pass at its end (`finish`) instead of a pass per fold: the values
    merged blocks' phis stood for (`mapping`), the blocks merged into others (`moved`),
    and the blocks of the dropped sides (`dead`)."""

    def __init__(self) -> None:
        self.mapping: dict[Value, Value] = {}
        self.moved: dict[Block, Block] = {}
        self.dead: set[Block] = set()

    def block(self, b: Block) -> Block:
        while b in self.moved:
            b = self.moved[b]
        return b

    def value(self, v: Value) -> Value:
        seen = 0
        while v in self.mapping and seen < 1000:
            v = self.mapping[v]
            seen += 1
        return v

    def merge(self, a: Block, b: Block) -> None:
        """`merge_into(a, b)` with the phi sources and predecessors rewritten later: of
        b's phis, the entry whose predecessor is not dead is the value."""
        phis = b.phis
        for phi in phis:
            live = [s for p, s in zip(phi.preds, phi.srcs, strict=True)
                    if self.block(p) not in self.dead]
            assert len(live) == 1 and phi.dest is not None, phi
            self.mapping[phi.dest] = live[0]
        for ins in b.instrs[len(phis):]:
            a.append(ins)
        b.instrs = []
        self.moved[b] = a

    def finish(self, shader: MirShader) -> None:
        """Every phi's predecessors renamed and the dead ones' entries dropped, every
        source rewritten through `mapping`."""
        if self.moved or self.dead:
            for ins in iter_phis(shader.structure()[0]):
                keep = [(self.block(p), src) for p, src in
                        zip(ins.preds, ins.srcs, strict=True)
                        if self.block(p) not in self.dead]
                ins.preds = [p for p, _ in keep]
                ins.srcs = [src for _, src in keep]
        rewrite_uses(shader, self.mapping)


def _fold_walk(shader: MirShader, cf: list[CFNode], folds: _Folds) -> bool:
    """Fold every ``if`` of `cf` and below whose condition is a constant (as the walk
    found it: a condition that becomes one through this walk's folds waits for the next
    walk); the taken side's nodes are walked after it is spliced in."""
    changed = False
    i = 0
    while i < len(cf):
        n = cf[i]
        if isinstance(n, If):
            c = const_of(n.cond)
            if c is not None and _fold(shader, cf, i, n, bool(c[0]), folds):
                changed = True
                continue  # cf[i] is now the taken side's next node (or past the end)
            changed |= _fold_walk(shader, n.then_list, folds)
            changed |= _fold_walk(shader, n.else_list, folds)
        elif isinstance(n, Loop):
            changed |= _fold_walk(shader, n.body, folds)
            changed |= _fold_walk(shader, n.cont, folds)
        i += 1
    return changed


def _reads_outside(shader: MirShader, defined: set[Value], skip: set[Block],
                   folds: _Folds) -> bool:
    """Whether an instruction but a phi in a block not in `skip` reads a value of
    `defined` (through the walk's pending `folds.mapping`)."""
    mapping = folds.mapping
    for b in shader.structure()[0]:
        if b in skip:
            continue
        for x in b.instrs:
            if x.op == "phi":
                continue
            for s in x.srcs:
                if (folds.value(s) if s in mapping else s) in defined:
                    return True
    return False


def _fold(shader: MirShader, cf: list[CFNode], i: int, n: If, cond: bool,
          folds: _Folds) -> bool:
    taken, other = (n.then_list, n.else_list) if cond else (n.else_list, n.then_list)
    prev, nxt = cf[i - 1], cf[i + 1]
    assert isinstance(prev, Block) and isinstance(nxt, Block)
    t_last = taken[-1]
    assert isinstance(t_last, Block)
    dead = set(cf_structure(other)[0])
    tail: list[CFNode] = []
    if t_last.jump is not None:
        tail = cf[i + 1:]
        tail_blocks = set(cf_structure(tail)[0])
        defined = {x.dest for b in tail_blocks for x in b.instrs if x.dest is not None}
        if defined and _reads_outside(shader, defined, tail_blocks | dead | folds.dead,
                                      folds):
            return False
        dead |= tail_blocks
    folds.dead |= dead
    first = taken[0]
    assert isinstance(first, Block)
    folds.merge(prev, first)
    middle = taken[1:]
    if tail:
        cf[i:] = middle
        return True
    last = prev if not middle else middle[-1]
    assert isinstance(last, Block)
    folds.merge(last, nxt)
    cf[i:i + 2] = middle
    return True


def _effects(n: If | Loop, memo: dict[If | Loop, tuple[bool, bool]]) -> tuple[bool, bool]:
    """What in node `n` is seen from outside it: (an instruction with a side effect that
    is not a jump, or a loop without a ``break`` of its own (it never ends: kept); a
    jump of the loop around `n`). A loop's own jumps are not seen outside it. Each node
    inside `n` is summarized once for one search (`memo`)."""
    got = memo.get(n)
    if got is not None:
        return got
    effect = jump = False
    for part in (n.then_list, n.else_list) if isinstance(n, If) else (n.body, n.cont):
        for m in part:
            if isinstance(m, Block):
                for ins in m.instrs:
                    if has_side_effect(ins):
                        if ins.is_jump:
                            jump = True
                        else:
                            effect = True
            else:
                e, j = _effects(m, memo)
                effect = effect or e
                jump = jump or j
    if isinstance(n, Loop):
        effect = effect or not _has_own_break(n.body + n.cont)
        jump = False
    memo[n] = (effect, jump)
    return effect, jump


def _has_own_break(cf: list[CFNode]) -> bool:
    for n in cf:
        if isinstance(n, Block):
            if n.jump is not None and n.jump.op == "break":
                return True
        elif isinstance(n, If):
            if _has_own_break(n.then_list) or _has_own_break(n.else_list):
                return True
    return False


class _Users:
    """Where each value is used, built on first demand for one walk of the shader (the
    walk stops at its first change): the blocks holding an instruction that reads it,
    and the ifs it is the condition of. `_node_is_dead` asks it per defined value
    instead of rescanning the shader per node."""

    def __init__(self, shader: MirShader) -> None:
        self.shader = shader
        self._blocks: dict[Value, list[Block]] | None = None
        self._ifs: dict[Value, list[If]] = {}

    def _build(self) -> dict[Value, list[Block]]:
        blocks: dict[Value, list[Block]] = {}
        all_blocks, ifs = self.shader.structure()
        for b in all_blocks:
            for x in b.instrs:
                for s in x.srcs:
                    at = blocks.setdefault(s, [])
                    if not at or at[-1] is not b:
                        at.append(b)
        for m in ifs:
            self._ifs.setdefault(m.cond, []).append(m)
        self._blocks = blocks
        return blocks

    def used_outside(self, defined: set[Value], inside: set[Block],
                     inner_ifs: set[int]) -> bool:
        """Does an instruction outside `inside`, or an if not in `inner_ifs` (ids),
        read a value of `defined`?"""
        blocks = self._blocks if self._blocks is not None else self._build()
        for v in defined:
            if any(b not in inside for b in blocks.get(v, ())):
                return True
            if any(id(m) not in inner_ifs for m in self._ifs.get(v, ())):
                return True
        return False


def _node_is_dead(users: _Users, n: If | Loop, nxt: Block,
                  effects: dict[If | Loop, tuple[bool, bool]]) -> bool:
    if nxt.instrs and nxt.instrs[0].op == "phi":  # (phis lead their block)
        return False
    effect, jump = _effects(n, effects)
    if effect or jump:
        return False
    parts = [n.then_list, n.else_list] if isinstance(n, If) else [n.body, n.cont]
    inside: set[Block] = set()
    inner_ifs: set[int] = set()
    for p in parts:
        blocks, ifs = cf_structure(p)
        inside.update(blocks)
        inner_ifs.update(id(m) for m in ifs)
    defined = {x.dest for b in inside for x in b.instrs if x.dest is not None}
    if not defined:
        return True
    return not users.used_outside(defined, inside, inner_ifs)


def _remove_dead_one(shader: MirShader, cf: list[CFNode], users: _Users,
                     effects: dict[If | Loop, tuple[bool, bool]]) -> bool:
    """Remove the first dead node of `cf` in pre-order; whether there was one. `users`
    and `effects` (`_effects`' memo) hold for one search: it stops at its change."""
    for i, n in enumerate(cf):
        if isinstance(n, If | Loop):
            nxt = cf[i + 1]
            prev = cf[i - 1]
            assert isinstance(nxt, Block) and isinstance(prev, Block)
            if _node_is_dead(users, n, nxt, effects):
                merge_into(shader, prev, nxt)
                del cf[i:i + 2]
                return True
            inner = [n.then_list, n.else_list] if isinstance(n, If) else [n.body, n.cont]
            for p in inner:
                if _remove_dead_one(shader, p, users, effects):
                    return True
    return False


def _only_break(cf: list[CFNode]) -> bool:
    return len(cf) == 1 and isinstance(cf[0], Block) and \
        [i.op for i in cf[0].instrs] == ["break"]


def _loops(cf: list[CFNode]) -> list[Loop]:
    """Every Loop node of `cf`, pre-order (as `iter_nodes` finds them, in one walk)."""
    out: list[Loop] = []
    stack: list[CFNode] = cf[::-1]
    while stack:
        n = stack.pop()
        if isinstance(n, If):
            stack += n.else_list[::-1]
            stack += n.then_list[::-1]
        elif isinstance(n, Loop):
            out.append(n)
            stack += n.cont[::-1]
            stack += n.body[::-1]
    return out


def _loop_last_continue(shader: MirShader) -> bool:
    changed = False
    for loop in _loops(shader.function.body):
        body = loop.body
        if len(body) < 3 or loop.cont:
            continue
        n, tail = body[-2], body[-1]
        if not isinstance(n, If) or not isinstance(tail, Block) or tail.phis or \
                tail.jump is not None:
            continue
        side: list[CFNode] | None = None
        for a, b in ((n.then_list, n.else_list), (n.else_list, n.then_list)):
            if len(a) == 1 and isinstance(a[0], Block) and a[0].jump is not None and \
                    a[0].jump.op == "continue" and not a[0].phis and _only_break(b):
                side = a
        if side is None:
            continue
        blk = side[0]
        assert isinstance(blk, Block)
        defined = {ins.dest for ins in tail.instrs if ins.dest is not None}
        read_elsewhere = False
        for other in shader.blocks():
            for ins in other.instrs:
                for k, src in enumerate(ins.srcs):
                    if src in defined and not (ins.op == "phi" and ins.preds[k] is tail) \
                            and other is not tail:
                        read_elsewhere = True
        if read_elsewhere:
            continue
        drop_phi_entries(shader, {tail})
        tail.instrs = []
        for ins in blk.instrs[:-1]:
            tail.append(ins)
        blk.instrs = []
        for ins in iter_phis(shader.blocks()):
            ins.preds = [tail if p is blk else p for p in ins.preds]
        changed = True
    return changed


def dead_branch(shader: MirShader) -> bool:
    changed = _loop_last_continue(shader)
    while True:
        folds = _Folds()
        walked = _fold_walk(shader, shader.function.body, folds)
        folds.finish(shader)
        if not walked:
            break
        changed = True
    if not changed and len(shader.function.body) == 1:
        return False  # a body of one block that was one already holds no node
    # Dead values (phis) only the nodes after them read may keep a node alive: dce
    # first, then remove the dead nodes, then dce what a removed node read, until a
    # search finds no dead node (dce, which removes every dead instruction at once,
    # would find nothing again). Neither removal makes anything the other removes
    # live again, so the order gives the same shader as any other.
    while True:
        if dce(shader):
            changed = True
        removed = False
        while _remove_dead_one(shader, shader.function.body, _Users(shader), {}):
            removed = True
        if not removed:
            return changed
        changed = True
