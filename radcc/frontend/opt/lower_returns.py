"""lower_returns: an early exit of a one-iteration loop becomes an if/else (NIR's
nir_lower_returns, for the loops an early ``return`` of a function body, or a
``break`` out of a switch, left behind).

A loop qualifies when it runs once and is left by exactly two jumps: its body has
no ``continue`` of its own and no continue construct, its top-level list ends in a
block ending in ``break``, and the only other jump of its own is a ``break`` ending
one side of an ``If`` of that top-level list. Then the rest of the body after that
``If`` moves to the end of its other side, the two breaks go, and the loop
dissolves into the list around it: ``loop { A; if c { T; break } else { E }; R;
break }`` becomes ``A; if c { T } else { E; R }``. The phis after the loop (their
predecessors: the blocks that broke, the last blocks of the two sides) are the
phis after the if; the phis of the block after the if (one source: the side that
did not break) resolve to it. When the then side is left empty and the condition
is an integer compare, or a 1-bit and/or of such compares, used by the if alone, the
compares are negated in place and the sides swapped (``if !c { E; R }``, as NIR's
nir_opt_if flips an empty then side). Inner loops first; nothing else changes.
"""

from __future__ import annotations

from ..mir import Block, CFNode, If, Loop, MirShader, Value, iter_blocks, iter_nodes
from .dead_branch import merge_into


def _own_jumps(cf: list[CFNode]) -> list[Block]:
    """The blocks of `cf` ending in a jump of the loop `cf` belongs to (not in inner
    loops)."""
    out: list[Block] = []
    for n in cf:
        if isinstance(n, Block):
            if n.jump is not None:
                out.append(n)
        elif isinstance(n, If):
            out += _own_jumps(n.then_list) + _own_jumps(n.else_list)
    return out


def _ends_in_break(cf: list[CFNode]) -> bool:
    last = cf[-1]
    return isinstance(last, Block) and last.jump is not None and last.jump.op == "break"


def _lower_one(shader: MirShader, parent: list[CFNode], idx: int, loop: Loop) -> bool:
    body = loop.body
    if loop.cont or not _ends_in_break(body):
        return False
    jumps = _own_jumps(body)
    if len(jumps) != 2 or any(b.jump is None or b.jump.op != "break" for b in jumps):
        return False
    first = body[0]
    if not isinstance(first, Block) or any(len(p.srcs) != 1 for p in first.phis):
        return False
    for i, n in enumerate(body):  # noqa: B007 - i is used after the loop
        if not isinstance(n, If):
            continue
        if _ends_in_break(n.then_list):
            side, other = n.then_list, n.else_list
        elif _ends_in_break(n.else_list):
            side, other = n.else_list, n.then_list
        else:
            continue
        # (identity: Block has no __eq__; `in` on the generator fails compiled: mypyc calls
        # its __contains__)
        if all(b is not jumps[0] for b in iter_blocks(side)):
            return False
        break
    else:
        return False
    prev, after = parent[idx - 1], parent[idx + 1]
    assert isinstance(prev, Block) and isinstance(after, Block)
    side_last, body_last = side[-1], body[-1]
    assert isinstance(side_last, Block) and isinstance(body_last, Block)
    side_last.instrs.pop()
    body_last.instrs.pop()
    rest = body[i + 1:]
    merge_block, other_last = rest[0], other[-1]
    assert isinstance(merge_block, Block) and isinstance(other_last, Block)
    merge_into(shader, other_last, merge_block)  # its phis have one source: `other`
    other.extend(rest[1:])
    del body[i + 1:]
    # dissolve the loop: its body joins `prev`, the block after it follows the if
    merge_into(shader, prev, first)
    parent[idx:idx + 1] = body[1:]
    _flip_empty_then(shader, n)
    return True


# integer compares and their negations; 1-bit and/or swap under De Morgan
_NEGATED = {"ieq": "ine", "ine": "ieq", "ult": "uge", "uge": "ult", "ilt": "ige", "ige": "ilt",
            "ior": "iand", "iand": "ior"}


def _uses(shader: MirShader) -> dict[Value, int]:
    n: dict[Value, int] = {}
    for ins in shader.instrs():
        for x in ins.srcs:
            n[x] = n.get(x, 0) + 1
    for node in iter_nodes(shader.function.body):
        if isinstance(node, If):
            n[node.cond] = n.get(node.cond, 0) + 1
    return n


def _negatable(v: Value, uses: dict[Value, int]) -> bool:
    p = v.parent
    if p is None or uses.get(v, 0) != 1 or p.op not in _NEGATED:
        return False
    if p.op in ("ior", "iand"):
        return v.bit_size == 1 and all(_negatable(x, uses) for x in p.srcs)
    return True


def _negate(v: Value) -> None:
    p = v.parent
    assert p is not None
    p.op = _NEGATED[p.op]
    if p.op in ("ior", "iand"):
        for x in p.srcs:
            _negate(x)


def _flip_empty_then(shader: MirShader, n: If) -> None:
    """``if c {} else {E}`` -> ``if !c {E}`` when c is a compare (or and/or of
    compares) used only here: the compares are negated in place, as NIR's nir_opt_if
    flips an empty then-side."""
    t = n.then_list
    if len(t) != 1 or not isinstance(t[0], Block) or t[0].instrs:
        return
    if len(n.else_list) == 1 and isinstance(n.else_list[0], Block) and \
            not n.else_list[0].instrs:
        return
    if not _negatable(n.cond, _uses(shader)):
        return
    _negate(n.cond)
    n.then_list, n.else_list = n.else_list, n.then_list


def _walk(shader: MirShader, cf: list[CFNode]) -> bool:
    for i, n in enumerate(cf):
        if isinstance(n, If):
            if _walk(shader, n.then_list) or _walk(shader, n.else_list):
                return True
        elif isinstance(n, Loop):
            if _walk(shader, n.body) or _walk(shader, n.cont):
                return True
            if _lower_one(shader, cf, i, n):
                return True
    return False


def lower_returns(shader: MirShader) -> bool:
    changed = False
    while _walk(shader, shader.function.body):
        changed = True
    return changed
