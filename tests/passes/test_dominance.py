"""Dominator trees on hand-drawn CFGs; the idoms were worked out by hand."""

from __future__ import annotations

from radcc.ir.parser import parse_program
from radcc.passes.dominance import DominatorTree, compute_idoms, dominator_tree


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
