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

from radcc.ir.dominance import graph_idoms, graph_reverse_postorder

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
    pending: list[tuple[Block, If]] = []
    _walk(cfg, pending, body, None, None, None, None)
    for b, n in pending:
        _edge(cfg, b, first_block(n.then_list))
        _edge(cfg, b, first_block(n.else_list))
    # keep successor/predecessor lists in textual order of discovery, but make
    # the block -> if edges come first for each head (order does not matter)
    _dominators(cfg)
    return cfg


def dominator_children(shader: MirShader) -> dict[Block, list[Block]]:
    """`build_cfg(shader).children()`: the dominator tree (of the reachable blocks; the
    entry is the body's first block), computed once while the structure is fixed
    (`MirShader.fixed`)."""
    fixed = shader.fixed
    if fixed is not None and fixed.dom_children is not None:
        return fixed.dom_children
    children = build_cfg(shader).children()
    if fixed is not None:
        fixed.dom_children = children
    return children


def _edge(cfg: Cfg, a: Block, b: Block | None) -> None:
    if b is not None:
        cfg.succs.setdefault(a, []).append(b)
        cfg.preds.setdefault(b, []).append(a)


def _walk(cfg: Cfg, pending: list[tuple[Block, If]], cf: list[CFNode], after: Block | None,
          brk: Block | None, cont: Block | None, loop: Loop | None) -> None:
    """`build_cfg`'s walk of one control-flow list (a module-level function: a recursive
    closure is a reference cycle, freed only by the cyclic collector); the edges from
    a block to the If after it wait in `pending`."""
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
                _edge(cfg, n, brk if j.op == "break" else cont)
            elif nxt is None:
                _edge(cfg, n, after)
            elif isinstance(nxt, If):
                pending.append((n, nxt))
            elif isinstance(nxt, Loop):
                pass  # edge added when the loop is walked (needs its first block)
        elif isinstance(n, If):
            assert isinstance(nxt, Block)
            _walk(cfg, pending, n.then_list, nxt, brk, cont, loop)
            _walk(cfg, pending, n.else_list, nxt, brk, cont, loop)
        elif isinstance(n, Loop):
            assert isinstance(nxt, Block)
            head = n.body[0]
            assert isinstance(head, Block)
            target = n.cont[0] if n.cont else head
            assert isinstance(target, Block)
            _walk(cfg, pending, n.body, target, nxt, target, n)
            if n.cont:
                _walk(cfg, pending, n.cont, head, nxt, target, n)
            prev = cf[i - 1]
            assert isinstance(prev, Block)
            if prev.jump is None:
                _edge(cfg, prev, head)


def _dominators(cfg: Cfg) -> None:
    """cfg.rpo and cfg.idom (radcc.ir.dominance's Cooper-Harvey-Kennedy on block numbers;
    ``cfg.blocks[0]`` is the entry)."""
    blocks = cfg.blocks
    number = {b: i for i, b in enumerate(blocks)}
    succs = [[number[s] for s in cfg.succs[b]] for b in blocks]
    preds = [[number[p] for p in cfg.preds[b]] for b in blocks]
    order = graph_reverse_postorder(succs, number[cfg.entry])
    idoms = graph_idoms(order, preds)
    rpo = [blocks[i] for i in order]
    idom: dict[Block, Block | None] = {blocks[i]: blocks[idoms[i]] for i in order}
    idom[cfg.entry] = None
    cfg.idom = idom
    cfg.rpo = rpo
