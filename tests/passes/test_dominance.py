"""Dominator trees on hand-drawn CFGs; the idoms were worked out by hand."""

from __future__ import annotations

from radcc.ir.dominance import (
    DominatorTree,
    compute_idoms,
    dominator_tree,
    graph_idoms,
    graph_reverse_postorder,
)
from radcc.ir.parser import parse_program


def cfg(logical: dict[int, list[int]], linear: dict[int, list[int]] | None, n: int) -> str:
    """IR text of n empty blocks with these predecessor lists."""
    linear = logical if linear is None else linear
    lines = ["program gfx1100 wave32 compute"]
    for b in range(n):
        lp = "".join(f"BB{p}, " for p in logical.get(b, []))
        np = "".join(f"BB{p}, " for p in linear.get(b, []))
        lines += [f"BB{b}", f"/* logical preds: {lp}/ linear preds: {np}/ kind: */"]
    return "\n".join(lines) + "\n"


def idoms(text: str) -> tuple[list[int], list[int]]:
    p = parse_program(text)
    dominator_tree(p)
    return [b.logical_idom for b in p.blocks], [b.linear_idom for b in p.blocks]


def test_diamond():
    #   0
    #  / \
    # 1   2
    #  \ /
    #   3
    log, lin = idoms(cfg({1: [0], 2: [0], 3: [1, 2]}, None, 4))
    assert log == [0, 0, 0, 0] and lin == [0, 0, 0, 0]


def test_divergent_if_with_linear_only_invert_block():
    # logical: 0->1 (then), 0->3 (else), 1->4, 3->4; BB2 is linear-only.
    # linear:  0->1, 0->2, 1->2, 2->3, 2->4, 3->4
    log, lin = idoms(cfg({1: [0], 3: [0], 4: [1, 3]},
                         {1: [0], 2: [0, 1], 3: [2], 4: [2, 3]}, 5))
    assert log == [0, 0, -1, 0, 0]  # BB2 is not in the logical CFG
    assert lin == [0, 0, 0, 2, 2]   # every linear path to 3 and 4 passes the invert block


def test_nested_loops():
    # 0 -> 1 (outer header) -> 2 (inner header) -> 3 (inner body) -> 2
    #                                2 -> 4 (outer latch) -> 1;  1 -> 5 (exit)
    log, lin = idoms(cfg({1: [0, 4], 2: [1, 3], 3: [2], 4: [2], 5: [1]}, None, 6))
    assert log == [0, 0, 1, 2, 2, 1] and lin == log


def test_irreducible_and_out_of_order_blocks():
    # 0 -> 3; 3 -> 1; 3 -> 2; 1 <-> 2 (a loop with two entries); blocks not in RPO order
    log, _ = idoms(cfg({3: [0], 1: [2, 3], 2: [1, 3]}, None, 4))
    assert log == [0, 3, 3, 0]


def test_unreachable_block_and_queries():
    # 0 -> 1 -> 3, 0 -> 2 -> 3 (diamond) and an unreachable BB4 -> 3
    text = cfg({1: [0], 2: [0], 3: [1, 2, 4]}, None, 5)
    p = parse_program(text)
    dominator_tree(p)
    assert [b.logical_idom for b in p.blocks] == [0, 0, 0, 0, -1]
    t = DominatorTree.of_program(p, linear=False)
    assert t.dominates(0, 3) and t.dominates(3, 3) and t.dominates(0, 0)
    assert not t.dominates(1, 3) and not t.dominates(3, 0) and not t.dominates(1, 2)
    assert not t.dominates(4, 3) and not t.dominates(0, 4) and not t.reachable(4)
    assert DominatorTree(compute_idoms(p, linear=True)).dominates(2, 2)


def test_deep_chain_is_fast():
    n = 3000
    text = cfg({b: [b - 1] for b in range(1, n)}, None, n)
    log, _ = idoms(text)
    assert log == [0] + list(range(n - 1))


def _dominators_by_definition(n: int, preds: dict[int, list[int]]) -> list[set[int]]:
    """Dom(b) = {b} | intersection of Dom(p) over reachable preds, iterated to a fixed
    point from 'everything' (the textbook data-flow definition); unreachable: empty."""
    succs: dict[int, list[int]] = {}
    for b, ps in preds.items():
        for p in ps:
            succs.setdefault(p, []).append(b)
    reach, stack = {0}, [0]
    while stack:
        for s in succs.get(stack.pop(), []):
            if s not in reach:
                reach.add(s)
                stack.append(s)
    dom = [set(reach) if b in reach else set() for b in range(n)]
    dom[0] = {0}
    changed = True
    while changed:
        changed = False
        for b in range(1, n):
            if b not in reach:
                continue
            new = set(reach)
            for p in preds.get(b, []):
                if p in reach:
                    new &= dom[p]
            new.add(b)
            if new != dom[b]:
                dom[b] = new
                changed = True
    return dom


def test_random_cfgs_match_the_definition():
    import random

    rng = random.Random(7)
    for _ in range(150):
        n = rng.randint(1, 14)
        preds: dict[int, list[int]] = {}
        for b in range(1, n):  # mostly forward edges, some back edges, some unreachable
            ps = {rng.randrange(0, b)} if rng.random() < 0.9 else set()
            for _ in range(rng.randint(0, 2)):
                ps.add(rng.randrange(0, n))
            preds[b] = sorted(ps)
        if rng.random() < 0.3:
            preds[0] = [rng.randrange(0, n)]  # a loop back to the entry
        p = parse_program(cfg(preds, None, n))
        idom = compute_idoms(p, linear=False)
        dom = _dominators_by_definition(n, preds)
        tree = DominatorTree(idom)
        for b in range(n):
            if not dom[b]:
                assert idom[b] == -1 and not tree.reachable(b)
                continue
            strict = dom[b] - {b}
            want = 0 if b == 0 else max(strict, key=lambda d: len(dom[d]))
            assert idom[b] == want, (preds, b)
            for a in range(n):
                assert tree.dominates(a, b) == (a in dom[b]), (preds, a, b)


def test_graph_functions_on_any_numbering():
    """graph_reverse_postorder / graph_idoms (used by the MIR CFG and the SPIR-V validator
    too) on graphs whose entry is not node 0: the same dominators as the definition."""
    import random

    rng = random.Random(11)
    for _ in range(100):
        n = rng.randint(1, 12)
        preds: dict[int, list[int]] = {}
        for b in range(1, n):
            ps = {rng.randrange(0, b)} if rng.random() < 0.9 else set()
            for _ in range(rng.randint(0, 2)):
                ps.add(rng.randrange(0, n))
            preds[b] = sorted(ps)
        dom = _dominators_by_definition(n, preds)
        perm = list(range(n))
        rng.shuffle(perm)  # node b of the definition is perm[b] here; the entry perm[0]
        g_preds: list[list[int]] = [[] for _ in range(n)]
        g_succs: list[list[int]] = [[] for _ in range(n)]
        for b, ps in preds.items():
            for p in ps:
                g_preds[perm[b]].append(perm[p])
                g_succs[perm[p]].append(perm[b])
        rpo = graph_reverse_postorder(g_succs, perm[0])
        assert sorted(rpo) == sorted(perm[b] for b in range(n) if dom[b])
        assert rpo[0] == perm[0]
        idom = graph_idoms(rpo, g_preds)
        for b in range(n):
            if not dom[b]:
                assert idom[perm[b]] == -1
                continue
            want = 0 if b == 0 else max(dom[b] - {b}, key=lambda d: len(dom[d]))
            assert idom[perm[b]] == perm[want], (preds, perm, b)
