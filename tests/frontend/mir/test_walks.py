"""iter_blocks / iter_nodes (explicit-stack walks) against the recursive definition:
pre-order, an If's then_list before its else_list, a Loop's body before its cont, and a
list read when the walk reaches it (a pass may replace an else_list while walking)."""

from __future__ import annotations

import random

from radcc.frontend.mir import Block, CFNode, If, Loop, Value, iter_blocks, iter_nodes


def _ref_nodes(cf: list[CFNode]) -> list[CFNode]:
    out: list[CFNode] = []
    for n in cf:
        out.append(n)
        if isinstance(n, If):
            out += _ref_nodes(n.then_list) + _ref_nodes(n.else_list)
        elif isinstance(n, Loop):
            out += _ref_nodes(n.body) + _ref_nodes(n.cont)
    return out


def _random_cf(rng: random.Random, depth: int, counter: list[int]) -> list[CFNode]:
    out: list[CFNode] = []
    for _ in range(rng.randint(0, 4)):
        r = rng.random()
        if depth > 0 and r < 0.25:
            out.append(If(Value(0, 1, 1), _random_cf(rng, depth - 1, counter),
                          _random_cf(rng, depth - 1, counter)))
        elif depth > 0 and r < 0.45:
            out.append(Loop(_random_cf(rng, depth - 1, counter),
                            _random_cf(rng, depth - 1, counter)))
        else:
            counter[0] += 1
            out.append(Block(counter[0]))
    return out


def test_walks_equal_the_recursive_order():
    rng = random.Random(7)
    for _ in range(300):
        cf = _random_cf(rng, 4, [0])
        ref = _ref_nodes(cf)
        assert list(iter_nodes(cf)) == ref
        assert list(iter_blocks(cf)) == [n for n in ref if isinstance(n, Block)]


def test_the_second_list_is_read_when_reached():
    b = [Block(k) for k in range(5)]
    n = If(Value(0, 1, 1), [b[1]], [b[2]])
    seen = []
    for blk in iter_blocks([b[0], n, b[3]]):
        seen.append(blk.index)
        if blk is b[1]:
            n.else_list = [b[4]]  # replaced while the then side is walked
    assert seen == [0, 1, 4, 3]
