"""lower_continue_constructs: move each loop's continue construct into its body.

After this pass every ``Loop`` has an empty ``cont`` (what isel receives, as
after NIR's ``nir_lower_continue_constructs``). A copy of the construct is
placed at each point that reaches it: the end of the body (when it falls
through) and every ``continue`` of this loop (the copy runs, then the
``continue`` jumps straight to the loop header; a ``continue`` that ends the body
itself is dropped). Phis that named a block of
the construct as predecessor (loop-header phis, phis after a loop the construct
breaks out of) get one entry per copy, the copies in reverse program order (an
order of the program's, the same in every process); the phis at the construct's entry and
values of the construct used directly outside it are demoted to variables and
SSA rebuilt by ``vars_to_ssa``. A ``for`` loop's increment thus ends each path
of the body, the shape ``loop_unroll`` recognises.
"""

from __future__ import annotations

from ..mir import Block, CFNode, If, Instr, Loop, MirShader, Value, iter_blocks, iter_nodes
from .lower_util import clone_cf, demote_to_vars
from .vars_to_ssa import vars_to_ssa


def _loops_post_order(cf: list[CFNode]) -> list[tuple[Loop, list[CFNode]]]:
    """Every loop, inner ones first, with the list holding it."""
    out: list[tuple[Loop, list[CFNode]]] = []
    for n in cf:
        if isinstance(n, If):
            out += _loops_post_order(n.then_list) + _loops_post_order(n.else_list)
        elif isinstance(n, Loop):
            out += _loops_post_order(n.body) + _loops_post_order(n.cont)
            out.append((n, cf))
    return out


def _block_after(loop: Loop, cf: list[CFNode]) -> Block:
    for i, n in enumerate(cf):
        if n is loop:
            nxt = cf[i + 1]
            assert isinstance(nxt, Block)
            return nxt
    raise AssertionError("loop not in its list")


def _continue_points(cf: list[CFNode], out: list[tuple[list[CFNode], int]]) -> None:
    """(list, index) of every block of this loop level ending in ``continue``."""
    for i, n in enumerate(cf):
        if isinstance(n, Block):
            j = n.jump
            if j is not None and j.op == "continue":
                out.append((cf, i))
        elif isinstance(n, If):
            _continue_points(n.then_list, out)
            _continue_points(n.else_list, out)


class _Uses:
    """The shader's non-phi uses (value -> (block, instruction)) and if conditions
    (value -> ifs), built once per pass run so each loop asks about its continue
    construct's values instead of rescanning the shader.

    Lowering a loop changes no use of another loop's construct values outside that
    construct: it rewrites the uses of its own demoted values, and its copies read
    values of its own construct or of code dominating it (a construct's values reach
    the loop body only through header phis). The copies are new and inside any
    enclosing construct; the blocks and ifs of a lowered construct leave the shader
    (`gone`), and a recorded use is checked against the instruction's current
    sources."""

    def __init__(self, shader: MirShader) -> None:
        self.instrs: dict[Value, list[tuple[Block, Instr]]] = {}
        self.conds: dict[Value, list[If]] = {}
        self.gone_blocks: set[Block] = set()
        self.gone_ifs: set[int] = set()
        for b in shader.blocks():
            for ins in b.instrs:
                if ins.op == "phi":
                    continue
                for s in set(ins.srcs):
                    self.instrs.setdefault(s, []).append((b, ins))
        for n in iter_nodes(shader.function.body):
            if isinstance(n, If):
                self.conds.setdefault(n.cond, []).append(n)

    def used_outside(self, v: Value, blocks: set[Block], ifs: set[int]) -> tuple[bool, bool]:
        """(read by a non-phi instruction outside `blocks`, the condition of an if
        outside `ifs`), both in the shader now."""
        by_instr = any(b not in blocks and b not in self.gone_blocks and v in ins.srcs
                       for b, ins in self.instrs.get(v, ()))
        by_if = any(n.cond is v and id(n) not in ifs and id(n) not in self.gone_ifs
                    for n in self.conds.get(v, ()))
        return by_instr, by_if


def _lower_loop(shader: MirShader, loop: Loop, exit_block: Block, uses: _Uses) -> bool:
    """`exit_block`: the block after `loop` in its list (where its breaks go)."""
    cont_blocks = set(iter_blocks(loop.cont))
    cont_ifs = {id(n) for n in iter_nodes(loop.cont) if isinstance(n, If)}
    head = loop.cont[0]
    assert isinstance(head, Block)
    defined_in_cont = {i.dest for b in cont_blocks for i in b.instrs if i.dest is not None}
    demote: set[Value] = {p.dest for p in head.phis if p.dest is not None}
    for v in defined_in_cont:
        if any(uses.used_outside(v, cont_blocks, cont_ifs)):
            demote.add(v)
    demote_to_vars(shader, demote)

    points: list[tuple[list[CFNode], int]] = []
    _continue_points(loop.body, points)
    last = loop.body[-1]
    assert isinstance(last, Block)
    if last.jump is None:
        points.append((loop.body, len(loop.body) - 1))
    copies: list[tuple[dict[Block, Block], dict[Value, Value]]] = []
    # insert from the back so earlier (list, index) pairs stay valid: `points` is in
    # program order (a list's points by increasing index), so reversed it is by
    # decreasing index within each list (an order of the program's, not of where the
    # lists are in memory: the copies' order is the phis' operand order)
    for cf, i in reversed(points):
        b = cf[i]
        assert isinstance(b, Block)
        bmap: dict[Block, Block] = {}
        vmap: dict[Value, Value] = {}
        copy = clone_cf(shader, loop.cont, vmap, bmap)
        jump = b.jump
        if jump is not None:
            b.instrs.pop()
        first = copy[0]
        assert isinstance(first, Block)
        for ins in first.instrs:
            b.append(ins)
        bmap[head] = b
        # the copy's first block is new: only the instructions just moved into b can
        # name it (the rest of the copy is not in the shader yet)
        for p in b.instrs:
            if p.op == "phi":
                p.preds = [b if x is first else x for x in p.preds]
        end = copy[-1] if len(copy) > 1 else b
        assert isinstance(end, Block)
        if jump is not None and end.jump is None:
            end.append(Instr("continue", None))
        cf[i + 1:i + 1] = copy[1:]
        copies.append((bmap, vmap))
    # phis naming a block of the construct: one entry per copy. The construct's blocks
    # lead to each other, to the loop header and to the exit only; the copies' phis
    # name the copies' blocks (clone_cf)
    header = loop.body[0]
    assert isinstance(header, Block)
    for b in (header, exit_block):
        for phi in b.instrs:
            if phi.op != "phi":
                break  # phis come first (b.phis without building the list)
            if cont_blocks.isdisjoint(phi.preds):
                continue
            srcs: list[Value] = []
            preds: list[Block] = []
            for pred, s in zip(phi.preds, phi.srcs, strict=True):
                if pred not in cont_blocks:
                    srcs.append(s)
                    preds.append(pred)
                    continue
                for bmap, vmap in copies:
                    srcs.append(vmap.get(s, s))
                    preds.append(bmap[pred])
            phi.srcs, phi.preds = srcs, preds
    uses.gone_blocks |= cont_blocks
    uses.gone_ifs |= cont_ifs
    loop.cont = []
    return bool(demote)


def _drop_trailing_continue(loops: list[Loop]) -> bool:
    """A ``continue`` ending the body itself is the fall-through: remove it."""
    changed = False
    for lp in loops:
        last = lp.body[-1]
        if isinstance(last, Block) and last.jump is not None and last.jump.op == "continue":
            last.instrs.pop()
            changed = True
    return changed


def lower_continue_constructs(shader: MirShader) -> bool:
    all_loops = _loops_post_order(shader.function.body)
    loops = [(lp, cf) for lp, cf in all_loops if lp.cont]
    if not loops:
        return _drop_trailing_continue([lp for lp, _ in all_loops])
    demoted = False
    uses = _Uses(shader)
    for lp, cf in loops:
        demoted |= _lower_loop(shader, lp, _block_after(lp, cf), uses)
    if demoted:
        vars_to_ssa(shader)
    _drop_trailing_continue([lp for lp, _ in all_loops])
    return True
