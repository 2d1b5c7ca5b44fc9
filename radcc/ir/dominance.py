"""Dominator trees of the logical and the linear CFG.

Source: ACO's README.md (Mesa src/amd/compiler) "Control flow" (two CFGs) and "Value Numbering" (which
walks the dominator tree); ACO's aco_dominance.cpp computes the same facts.

`dominator_tree(program)` guarantees, for every block B:

- ``B.logical_idom``: the immediate dominator of B in the logical CFG
  (from block 0 along logical successor edges), ``B.linear_idom`` the same
  in the linear CFG; the entry block is its own idom (0, as in ACO); blocks
  not reachable from block 0 in that CFG get -1.

The algorithm is Cooper, Harvey and Kennedy's "A Simple, Fast Dominance
Algorithm": blocks in reverse postorder, idoms refined by intersecting the
predecessors' dominator chains until nothing changes (one or two sweeps
for the reducible CFGs ACO builds). `graph_reverse_postorder` and `graph_idoms` are
that algorithm on any graph of numbered nodes, the one implementation: the MIR's CFG
(radcc/frontend/mir_cfg.py) and the SPIR-V validator's structure checks use it too.

The idoms are an analysis kept on the program (radcc/ir/analyses.py):
`dominator_tree` marks them current, `require_dominance` computes them only
when they are not (the pass manager invalidates them after every phase that
does not declare dominance preserved, i.e. that may change the CFG).
`dominance_is_exact` checks such a declaration (``validateir``).

`DominatorTree` answers "does A dominate B" in O(1) from those fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from radcc.ir.program import Program


def _succs(program: Program, linear: bool) -> list[list[int]]:
    return [b.linear_succs if linear else b.logical_succs for b in program.blocks]


def _preds(program: Program, linear: bool) -> list[list[int]]:
    return [b.linear_preds if linear else b.logical_preds for b in program.blocks]


def graph_reverse_postorder(succs: Sequence[Sequence[int]], entry: int = 0) -> list[int]:
    """The nodes of a graph (node i's successors: ``succs[i]``) reachable from `entry`,
    in reverse postorder of a depth-first search that takes successors in list order."""
    n = len(succs)
    seen = [False] * n
    pos = [0] * n  # per node: the next successor to look at
    post: list[int] = []
    stack = [entry]
    seen[entry] = True
    while stack:  # no allocation per node or edge (nothing for the cyclic GC to count)
        b = stack[-1]
        ss = succs[b]
        i = pos[b]
        if i < len(ss):
            pos[b] = i + 1
            s = ss[i]
            if not seen[s]:
                seen[s] = True
                stack.append(s)
        else:
            stack.pop()
            post.append(b)
    post.reverse()
    return post


def graph_idoms(rpo: Sequence[int], preds: Sequence[Sequence[int]]) -> list[int]:
    """Immediate dominators of a graph's nodes (node i's predecessors: ``preds[i]``) given
    its reverse postorder `rpo` from the entry ``rpo[0]`` (`graph_reverse_postorder`): the
    entry is its own idom, a node not in `rpo` (unreachable) gets -1. Cooper, Harvey and
    Kennedy's iteration (module docstring); the one implementation, also used by the MIR's
    CFG (radcc/frontend/mir_cfg.py) and the SPIR-V validator.

    Linear in practice: each sweep visits every edge once plus the dominator-chain steps
    of the intersections (about 1.4 per block on generated 10k-100k-instruction programs),
    and ACO's CFGs need two sweeps. On large programs the time is memory traffic (the
    blocks' scattered lists), not the algorithm."""
    n = len(preds)
    idom = [-1] * n
    if not rpo:
        return idom
    order = [-1] * n
    for i, b in enumerate(rpo):
        order[b] = i
    idom[rpo[0]] = rpo[0]
    changed = True
    while changed:
        changed = False
        for b in rpo[1:]:
            new = -1
            for p in preds[b]:
                if idom[p] == -1:
                    continue  # not processed yet, or unreachable
                if new == -1:
                    new = p
                    continue
                a, c = p, new
                while a != c:
                    while order[a] > order[c]:
                        a = idom[a]
                    while order[c] > order[a]:
                        c = idom[c]
                new = a
            if new != idom[b]:
                idom[b] = new
                changed = True
    return idom


def reverse_postorder(program: Program, linear: bool) -> list[int]:
    """Blocks reachable from block 0, in reverse postorder of a DFS."""
    if not program.blocks:
        return []
    return graph_reverse_postorder(_succs(program, linear))


def compute_idoms(program: Program, linear: bool) -> list[int]:
    """Immediate dominators (entry: 0, unreachable: -1) of one CFG (`graph_idoms`)."""
    return graph_idoms(reverse_postorder(program, linear), _preds(program, linear))


def dominator_tree(program: Program) -> None:
    """Fill Block.logical_idom and Block.linear_idom now (see module docstring)."""
    logical = compute_idoms(program, linear=False)
    linear = compute_idoms(program, linear=True)
    for b in program.blocks:
        b.logical_idom = logical[b.index]
        b.linear_idom = linear[b.index]
    program.analyses.dominance = True


def require_dominance(program: Program) -> None:
    """Make Block.logical_idom / linear_idom current (computed only if they are not)."""
    if not program.analyses.dominance:
        dominator_tree(program)


def dominance_is_exact(program: Program) -> bool:
    """Are the blocks' idoms, if marked current, those of the CFG as it is now?"""
    if not program.analyses.dominance:
        return True
    logical = compute_idoms(program, linear=False)
    linear = compute_idoms(program, linear=True)
    return all(b.logical_idom == logical[b.index] and b.linear_idom == linear[b.index]
               for b in program.blocks)


class DominatorTree:
    """O(1) dominance queries on one CFG, from a list of immediate dominators
    (entry = its own idom, unreachable = -1) as `compute_idoms` returns."""

    @staticmethod
    def of_program(program: Program, linear: bool) -> DominatorTree:
        """From the idoms `dominator_tree(program)` stored in the blocks."""
        return DominatorTree([b.linear_idom if linear else b.logical_idom
                              for b in program.blocks])

    def __init__(self, idom: list[int]) -> None:
        n = len(idom)
        self.idom = idom
        # children as first-child / next-sibling links (no list per block)
        first = [-1] * n
        nxt = [-1] * n
        for b in range(n - 1, -1, -1):
            d = idom[b]
            if d != -1 and d != b:
                nxt[b] = first[d]
                first[d] = b
        pre = [-1] * n
        post = [-1] * n
        if n and idom[0] == 0:
            pre[0] = 0
            counter = 1
            b = 0
            while b != -1:  # iterative DFS over the links
                c = first[b]
                if c != -1:  # enter the first child
                    pre[c] = counter
                    counter += 1
                    b = c
                    continue
                while True:  # leave b, then its ancestors until one has a next sibling
                    post[b] = counter
                    counter += 1
                    if b == 0:
                        b = -1
                        break
                    s = nxt[b]
                    if s != -1:
                        pre[s] = counter
                        counter += 1
                        b = s
                        break
                    b = idom[b]
        self.pre = pre
        self.post = post

    def reachable(self, b: int) -> bool:
        return self.pre[b] != -1

    def dominates(self, a: int, b: int) -> bool:
        """True if every path from the entry to `b` passes through `a` (a == b too)."""
        pa = self.pre[a]
        pb = self.pre[b]
        if pa < 0 or pb < 0:
            return False
        return pa <= pb and self.post[b] <= self.post[a]
