"""value numbering's O(1) dominance query (`vn_impl._Chains`) against ACO's walk
up the dominator chain (`_walk_dominates`, the loop of aco_opt_value_numbering's
dominates()), on random dominator forests: ordered ones (idom before its block, as
ACO lays blocks out), unreachable blocks, roots other than block 0, and idoms after
their blocks (which the index must hand to the walk)."""

from __future__ import annotations

import random

import pytest

from radcc.passes.vn_impl import _Chains, _walk_dominates


def _forest(rng: random.Random, n: int, unordered: bool) -> tuple[list[int], list[int]]:
    """Two idom lists: trees (no cycles, as a dominator tree) rooted at block 0, some
    blocks unreachable (-1) or their own root; `unordered`: placed in a random order,
    so idoms may follow their blocks."""
    idoms = []
    for _ in range(2):
        order = list(range(1, n))
        if unordered:
            rng.shuffle(order)
        placed = [0]
        idom = [0] * n
        for c in order:
            r = rng.random()
            if r < 0.05:
                idom[c] = -1  # unreachable
            elif r < 0.08:
                idom[c] = c  # its own root
            else:  # mostly the last placed block or a near one: deep chains
                idom[c] = placed[max(0, len(placed) - 1 - int(rng.expovariate(0.5)))]
            placed.append(c)
        idoms.append(idom)
    return idoms[0], idoms[1]


@pytest.mark.parametrize("seed", range(40))
def test_chains_match_walk(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randrange(1, 80)
    log, lin = _forest(rng, n, unordered=seed % 4 == 3)
    depths = [rng.choice((0, 0, 1, 1, 2, 3)) for _ in range(n)]
    chains = _Chains(log, lin, depths)
    for parent in range(n):
        for child in range(n):
            for linear in (False, True):
                assert chains.dominates(parent, child, linear) == _walk_dominates(
                    log, lin, depths, parent, child, linear), (parent, child, linear)


def test_loop_level_stops_the_walk() -> None:
    # 0 -> 1 (loop header, depth 1) -> 2 (exit, depth 0) -> 3 (next loop, depth 1)
    log = [0, 0, 1, 2]
    depths = [0, 1, 0, 1]
    chains = _Chains(log, log, depths)
    assert not chains.dominates(1, 3, False)  # the chain passes block 2 at depth 0
    assert chains.dominates(0, 3, True)
    assert chains.dominates(2, 3, False)
    assert chains.dominates(1, 2, False) is False  # block 2 is outside 1's loop
