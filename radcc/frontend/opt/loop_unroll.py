"""loop_unroll: loops with a small constant trip count become straight-line copies.

A loop qualifies (after ``lower_continue_constructs``) when its body is
``[B0, if (c) {break} else {}, B1 ... Bn]`` (or the break on the else side): the
exit test is the loop's trip-count-limiting ``break``, there is no ``continue`` at the
loop's level (other ``break``s inside ifs — early exits — are allowed),
Bn falls through to the header, and the header phis (in B0) have one entry from
before the loop and one from Bn. The trip count comes from running B0..Bn's
unconditional ALU instructions on the constant initial values of the header
phis (``mir_fold.fold``: the interpreter's semantics, ``mir_eval``, computed without
NumPy where plain Python can) until the exit test says break. Ifs inside the body are
copied along; a loop holding another loop is not unrolled (inner loops first: once
they are gone the outer one may be).

Limits: at most ``UNROLL_MAX_TRIPS`` (32) iterations and ``UNROLL_MAX_INSTRS``
(512) instructions in the unrolled code (``trips`` bodies and B0 once more: a loop
whose exit test holds on entry costs its B0 alone, however large its body). The copies: iteration ``i`` reads the
header values of iteration ``i - 1``'s end; the last copy runs B0 once more
and leaves. ``dead_branch`` then removes the exit tests; the one-iteration loop
holding the copies is dissolved. With early exits the copies stay inside that
loop, which now runs once (its body ends in ``break``): each copy's early
``break`` leaves it, phis after the loop take every copy's break block, and a
header value used after the loop becomes a phi of its copies. Early-exit loops
are unrolled only up to ``UNROLL_EARLY_EXIT_MAX_INSTRS`` (96): every copy keeps a
divergent break, whose exec-mask bookkeeping made larger ones lose on the GLSL
suite (cf_return 155 -> 932 machine instructions at 512).
"""

from __future__ import annotations

from ..mir import (
    Block,
    CFNode,
    If,
    Instr,
    Loop,
    MirShader,
    Value,
    iter_blocks,
    iter_nodes,
    rewrite_uses,
)
from ..mir_fold import fold
from ..mir_ops import ALU_OPS
from .dead_branch import dead_branch, merge_into
from .lower_util import clone_cf

Bits = tuple[int, ...]  # a value's raw bits, one int per component (one lane)

UNROLL_MAX_TRIPS = 32
UNROLL_MAX_INSTRS = 512
# loops with early exits: every copy keeps a divergent break (exec-mask bookkeeping in
# machine code), so only small ones pay; measured on the GLSL suite (docs/aco-comparison.md)
UNROLL_EARLY_EXIT_MAX_INSTRS = 96


def _loops(cf: list[CFNode], out: list[tuple[list[CFNode], int, Loop]] | None = None
           ) -> list[tuple[list[CFNode], int, Loop]]:
    """(list, index, loop), inner loops first (appended to `out`, which is returned)."""
    if out is None:
        out = []
    for i, n in enumerate(cf):
        if isinstance(n, If):
            _loops(n.then_list, out)
            _loops(n.else_list, out)
        elif isinstance(n, Loop):
            _loops(n.body, out)
            out.append((cf, i, n))
    return out


def _jumps(cf: list[CFNode]) -> list[Instr]:
    """Jumps of this loop level (through ifs, not into nested loops)."""
    out: list[Instr] = []
    for n in cf:
        if isinstance(n, Block):
            if n.jump is not None:
                out.append(n.jump)
        elif isinstance(n, If):
            out += _jumps(n.then_list) + _jumps(n.else_list)
    return out


def _is_break_block(cf: list[CFNode]) -> bool:
    return len(cf) == 1 and isinstance(cf[0], Block) and len(cf[0].instrs) == 1 and \
        cf[0].instrs[0].op == "break"


def _is_empty(cf: list[CFNode]) -> bool:
    return len(cf) == 1 and isinstance(cf[0], Block) and not cf[0].instrs


class _Shape:
    def __init__(self, loop: Loop) -> None:
        self.ok = False
        body = loop.body
        if loop.cont or len(body) < 3 or not isinstance(body[1], If):
            return
        test = body[1]
        if _is_break_block(test.then_list) and _is_empty(test.else_list):
            self.exit_when = True
            self.break_block = test.then_list[0]
        elif _is_break_block(test.else_list) and _is_empty(test.then_list):
            self.exit_when = False
            self.break_block = test.else_list[0]
        else:
            return
        jumps = _jumps(body)
        if any(j.op != "break" for j in jumps) or \
                any(isinstance(n, Loop) for n in iter_nodes(body)):
            return
        # other breaks (early exits inside ifs) stay runtime breaks of the copies
        self.break_blocks = {j.block for j in jumps if j.block is not None}
        self.extra_exits = len(jumps) > 1
        b0, last = body[0], body[-1]
        assert isinstance(b0, Block) and isinstance(last, Block)
        self.b0, self.last, self.test = b0, last, test
        self.phis = b0.phis
        self.init: dict[Value, Value] = {}
        self.back: dict[Value, Value] = {}
        for p in self.phis:
            if len(p.preds) != 2 or last not in p.preds:
                return
            assert p.dest is not None
            k = p.preds.index(last)
            self.back[p.dest] = p.srcs[k]
            self.init[p.dest] = p.srcs[1 - k]
        self.top = [n for n in body if isinstance(n, Block)]
        self.body = list(body)
        self.ok = True


def _trip_count(s: _Shape) -> int | None:
    top = set(s.top)
    env: dict[Value, Bits | None] = {}
    for d, v in s.init.items():
        p = v.parent
        env[d] = tuple(p.attrs["value"]) if p is not None and p.op == "load_const" else None
    for i in range(UNROLL_MAX_TRIPS + 1):
        cache: dict[Value, Bits | None] = {}
        c = _ev(s.test.cond, env, cache, top)
        if c is None:
            return None
        if bool(c[0]) == s.exit_when:
            return i
        env = {d: _ev(b, env, cache, top) for d, b in s.back.items()}
    return None


def _ev(v: Value, env: dict[Value, Bits | None], cache: dict[Value, Bits | None],
        top: set[Block]) -> Bits | None:
    """`_trip_count`'s value of `v` in one iteration (`env`: the loop's phis; a
    module-level function: a recursive closure is a reference cycle)."""
    if v in env:
        return env[v]
    if v in cache:
        return cache[v]
    p = v.parent
    r: Bits | None = None
    if p is not None and p.op == "load_const":
        r = tuple(p.attrs["value"])
    elif p is not None and p.op in ALU_OPS and p.block in top:
        cache[v] = None  # cycles
        srcs = [_ev(x, env, cache, top) for x in p.srcs]
        if all(x is not None for x in srcs):
            r = fold(p.op, v.bit_size, v.num_components, srcs,  # type: ignore[arg-type]
                     [x.bit_size for x in p.srcs], p.attrs)
    cache[v] = r
    return r


def _size(cf: list[CFNode]) -> int:
    return sum(len(b.instrs) for b in iter_blocks(cf))


def _unroll(shader: MirShader, parent: list[CFNode], idx: int, loop: Loop, s: _Shape,
            trips: int) -> None:
    after = parent[idx + 1]
    assert isinstance(after, Block)
    s.b0.instrs = s.b0.instrs[len(s.phis):]
    body: list[CFNode] = []
    prev_map: dict[Value, Value] = {}
    maps: list[tuple[dict[Block, Block], dict[Value, Value]]] = []
    for i in range(trips + 1):
        vmap: dict[Value, Value] = {}
        for d in s.init:
            vmap[d] = s.init[d] if i == 0 else prev_map.get(s.back[d], s.back[d])
        bmap: dict[Block, Block] = {}
        copy = clone_cf(shader, loop.body, vmap, bmap)
        first, test = copy[0], copy[1]
        assert isinstance(first, Block) and isinstance(test, If)
        c = shader.new_value(1, 1)
        exit_now = i == trips
        first.append(Instr("load_const", c, [], {"value": (int(exit_now == s.exit_when),)}))
        test.cond = c
        if body:
            tail = body[-1]
            assert isinstance(tail, Block)
            for ins in first.instrs:
                tail.append(ins)
            first.instrs = []
            bmap[s.b0] = tail
            body += copy[1:]
        else:
            body += copy
        maps.append((bmap, vmap))
        prev_map = vmap
    # phis after the loop: one entry per copy's break block
    for phi in after.phis:
        srcs, preds = [], []
        for p, v in zip(phi.preds, phi.srcs, strict=True):
            if p in s.break_blocks:
                for bmap, vmap in maps:
                    preds.append(bmap[p])
                    srcs.append(vmap.get(v, v))
            else:
                preds.append(p)
                srcs.append(v)
        phi.srcs, phi.preds = srcs, preds
    loop.body = body
    last_map = maps[-1][1]
    header = list(s.init) + [i.dest for i in s.b0.instrs if i.dest is not None]
    if not s.extra_exits:
        rewrite_uses(shader, {v: last_map[v] for v in header if v in last_map})
        return
    # several exits: a header value used after the loop (it dominated every break)
    # becomes a phi of its copies at each copy's break blocks
    used = _used_outside(shader, set(header), body)
    exits = [b for b in iter_blocks(s.body) if b in s.break_blocks]
    mapping: dict[Value, Value] = {}
    for v in header:
        if v not in used:
            continue
        d = shader.new_value(v.bit_size, v.num_components)
        phi = Instr("phi", d, [])
        for bmap, vmap in maps:
            for bb in exits:
                phi.preds.append(bmap[bb])
                phi.srcs.append(vmap.get(v, v))
        after.insert(len(after.phis), phi)
        mapping[v] = d
    rewrite_uses(shader, mapping)


def _used_outside(shader: MirShader, values: set[Value], body: list[CFNode]) -> set[Value]:
    inside = set(iter_blocks(body))
    used: set[Value] = set()
    for b in shader.blocks():
        if b in inside:
            continue
        for ins in b.instrs:
            used.update(x for x in ins.srcs if x in values)
    for n in iter_nodes(shader.function.body):
        if isinstance(n, If) and n.cond in values:
            used.add(n.cond)
    return used


def _dissolve(shader: MirShader, parent: list[CFNode], idx: int, loop: Loop) -> bool:
    """Remove a loop whose body runs once: it ends in its only jump, a break."""
    last = loop.body[-1]
    if not isinstance(last, Block) or last.jump is None or last.jump.op != "break" or \
            len(_jumps(loop.body)) != 1:
        return False
    last.instrs.pop()
    prev, after = parent[idx - 1], parent[idx + 1]
    assert isinstance(prev, Block) and isinstance(after, Block)
    first = loop.body[0]
    assert isinstance(first, Block) and not first.phis
    merge_into(shader, prev, first)
    end = prev if len(loop.body) == 1 else loop.body[-1]
    assert isinstance(end, Block)
    merge_into(shader, end, after)
    parent[idx:idx + 2] = loop.body[1:]
    return True


def loop_unroll(shader: MirShader) -> bool:
    changed = False
    progress = True
    while progress:
        progress = False
        for parent, idx, loop in _loops(shader.function.body):
            s = _Shape(loop)
            if not s.ok:
                continue
            trips = _trip_count(s)
            limit = UNROLL_EARLY_EXIT_MAX_INSTRS if s.extra_exits else UNROLL_MAX_INSTRS
            # the copies: ``trips`` whole bodies, then B0 once more (the exit test leaves)
            if trips is None or trips * _size(loop.body) + len(s.b0.instrs) > limit:
                continue
            _unroll(shader, parent, idx, loop, s, trips)
            dead_branch(shader)
            for p2, i2, lp in _loops(shader.function.body):
                if lp is loop:
                    _dissolve(shader, p2, i2, lp)
            changed = progress = True
            break
    return changed
