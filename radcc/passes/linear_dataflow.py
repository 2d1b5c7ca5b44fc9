"""Forward dataflow over the linear CFG, to a fixed point (ACO's wait-state
passes' block iteration: the in-state of a block is the join of its linear
predecessors' out-states; loops are processed again until the state at the
loop header stops changing).

Blocks are visited from a worklist ordered by layout index, which for ACO's
programs is a reverse postorder, so a program without loops is visited
once and a loop body once more per nesting level in practice.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import TypeVar

from radcc.ir.program import Block, Program

S = TypeVar("S")

MAX_VISITS_PER_BLOCK = 64


class DataflowError(Exception):
    """The analysis did not converge (a bug in a transfer function)."""


def forward_fixpoint(program: Program, entry: S, join: Callable[[list[S]], S],
                     transfer: Callable[[Block, S], S]) -> list[S]:
    """In-states of every block once the out-states are stable.

    `entry` is the state at program start; `join` merges two or more
    predecessor out-states (a block with one has that state itself as its
    in-state, shared); `transfer` returns a block's out-state from its in-state
    and must not modify its argument (nor may anything modify a state it returned
    or one of the in-states returned). States are compared with ``==``.
    """
    n = len(program.blocks)
    outs: list[S | None] = [None] * n
    ins: list[S] = [entry] * n
    visits = [0] * n
    work = list(range(n))
    queued = [True] * n
    heapq.heapify(work)
    while work:
        b = heapq.heappop(work)
        queued[b] = False
        block = program.blocks[b]
        pred_outs = [o for p in block.linear_preds if (o := outs[p]) is not None]
        if b == 0:
            pred_outs.append(entry)
        if len(pred_outs) == 1:
            state = pred_outs[0]
        else:
            state = join(pred_outs) if pred_outs else entry
        ins[b] = state
        out = transfer(block, state)
        visits[b] += 1
        if visits[b] > MAX_VISITS_PER_BLOCK:
            raise DataflowError(f"no fixed point after {visits[b]} visits of BB{b}")
        if outs[b] is not None and outs[b] == out:
            continue
        outs[b] = out
        for s in block.linear_succs:
            if not queued[s]:
                queued[s] = True
                heapq.heappush(work, s)
    return ins


__all__ = ["DataflowError", "forward_fixpoint"]
