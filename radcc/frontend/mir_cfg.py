"""The CFG implied by MIR's structured control flow, and its dominator tree.

Successors follow NIR's rules: a block followed by an ``If`` goes to the first
block of each side; the last block of a side goes to the block after the if;
the last block of a loop body goes to the continue construct (or the body's
first block), the last block of the continue construct to the body's first
block; ``break`` goes to the block after the loop, ``continue`` to the
continue construct (or the body's first block).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .mir import Block, CFNode, If, Loop, MirShader


def first_block(cf: list[CFNode]) -> Block:
    b = cf[0]
    assert isinstance(b, Block)
    return b


@dataclass
class Cfg:
    entry: Block
    blocks: list[Block]  # textual order
    succs: dict[Block, list[Block]] = field(default_factory=dict)
    preds: dict[Block, list[Block]] = field(default_factory=dict)
    idom: dict[Block, Block | None] = field(default_factory=dict)
    rpo: list[Block] = field(default_factory=list)  # reachable blocks, reverse post-order
    loop_of: dict[Block, Loop | None] = field(default_factory=dict)  # innermost loop

    def reachable(self, b: Block) -> bool:
        return b in self.idom

    def dominates(self, a: Block, b: Block) -> bool:
        x: Block | None = b
        while x is not None:
            if x is a:
                return True
            x = self.idom.get(x)
        return False

    def children(self) -> dict[Block, list[Block]]:
        out: dict[Block, list[Block]] = {b: [] for b in self.rpo}
        for b in self.rpo:
            p = self.idom[b]
            if p is not None:
                out[p].append(b)
        return out

    def frontiers(self) -> dict[Block, set[Block]]:
        df: dict[Block, set[Block]] = {b: set() for b in self.rpo}
        for b in self.rpo:
            ps = [p for p in self.preds[b] if self.reachable(p)]
            if len(ps) < 2:
                continue
            for p in ps:
                r: Block | None = p
                while r is not None and r is not self.idom[b]:
                    df[r].add(b)
                    r = self.idom[r]
        return df


def build_cfg(shader: MirShader) -> Cfg:
    body = shader.function.body
    cfg = Cfg(first_block(body), [])

    def edge(a: Block, b: Block | None) -> None:
        if b is not None:
            cfg.succs.setdefault(a, []).append(b)
            cfg.preds.setdefault(b, []).append(a)

    def walk(cf: list[CFNode], after: Block | None, brk: Block | None, cont: Block | None,
             loop: Loop | None) -> None:
        for n in cf:
            if isinstance(n, Block):
                cfg.blocks.append(n)
                cfg.succs.setdefault(n, [])
                cfg.preds.setdefault(n, [])
                cfg.loop_of[n] = loop
        for i, n in enumerate(cf):
            nxt = cf[i + 1] if i + 1 < len(cf) else None
            if isinstance(n, Block):
                j = n.jump
                if j is not None:
                    edge(n, brk if j.op == "break" else cont)
                elif nxt is None:
                    edge(n, after)
                elif isinstance(nxt, If):
                    walk_if_heads(n, nxt)
                elif isinstance(nxt, Loop):
                    pass  # edge added when the loop is walked (needs its first block)
            elif isinstance(n, If):
                assert isinstance(nxt, Block)
                walk(n.then_list, nxt, brk, cont, loop)
                walk(n.else_list, nxt, brk, cont, loop)
            elif isinstance(n, Loop):
                assert isinstance(nxt, Block)
                head = n.body[0]
                assert isinstance(head, Block)
                target = n.cont[0] if n.cont else head
                assert isinstance(target, Block)
                walk(n.body, target, nxt, target, n)
                if n.cont:
                    walk(n.cont, head, nxt, target, n)
                prev = cf[i - 1]
                assert isinstance(prev, Block)
                if prev.jump is None:
                    edge(prev, head)

    def walk_if_heads(b: Block, n: If) -> None:
        pending.append((b, n))

    pending: list[tuple[Block, If]] = []
    walk(body, None, None, None, None)
    for b, n in pending:
        edge(b, first_block(n.then_list))
        edge(b, first_block(n.else_list))
    # keep successor/predecessor lists in textual order of discovery, but make
    # the block -> if edges come first for each head (order does not matter)
    _dominators(cfg)
    return cfg


def _dominators(cfg: Cfg) -> None:
    """Cooper, Harvey and Kennedy's iterative algorithm."""
    order: list[Block] = []
    seen: set[Block] = set()
    stack: list[tuple[Block, int]] = [(cfg.entry, 0)]
    seen.add(cfg.entry)
    while stack:
        b, k = stack.pop()
        succ = cfg.succs[b]
        if k < len(succ):
            stack.append((b, k + 1))
            s = succ[k]
            if s not in seen:
                seen.add(s)
                stack.append((s, 0))
        else:
            order.append(b)
    rpo = list(reversed(order))
    index = {b: i for i, b in enumerate(rpo)}
    idom: dict[Block, Block | None] = {cfg.entry: cfg.entry}
    changed = True
    while changed:
        changed = False
        for b in rpo[1:]:
            new: Block | None = None
            for p in cfg.preds[b]:
                if p not in idom:
                    continue
                if new is None:
                    new = p
                    continue
                x, y = p, new
                while x is not y:
                    while index[x] > index[y]:
                        x = idom[x]  # type: ignore[assignment]
                    while index[y] > index[x]:
                        y = idom[y]  # type: ignore[assignment]
                new = x
            if new is not None and idom.get(b) is not new:
                idom[b] = new
                changed = True
    idom[cfg.entry] = None
    cfg.idom = idom
    cfg.rpo = rpo
