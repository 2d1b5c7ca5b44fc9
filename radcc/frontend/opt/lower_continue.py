"""lower_continue_constructs: move each loop's continue construct into its body.

After this pass every ``Loop`` has an empty ``cont`` (what isel receives, as
after NIR's ``nir_lower_continue_constructs``). A copy of the construct is
placed at each point that reaches it: the end of the body (when it falls
through) and every ``continue`` of this loop (the copy runs, then the
``continue`` jumps straight to the loop header; a ``continue`` that ends the body
itself is dropped). Phis that named a block of
the construct as predecessor (loop-header phis, phis after a loop the construct
breaks out of) get one entry per copy; the phis at the construct's entry and
values of the construct used directly outside it are demoted to variables and
SSA rebuilt by ``vars_to_ssa``. A ``for`` loop's increment thus ends each path
of the body, the shape ``loop_unroll`` recognises.
"""

from __future__ import annotations

from ..mir import Block, CFNode, If, Instr, Loop, MirShader, Value, iter_blocks, iter_nodes
from .lower_util import clone_cf, demote_to_vars
from .vars_to_ssa import vars_to_ssa


def _loops_post_order(cf: list[CFNode]) -> list[Loop]:
    out: list[Loop] = []
    for n in cf:
        if isinstance(n, If):
            out += _loops_post_order(n.then_list) + _loops_post_order(n.else_list)
        elif isinstance(n, Loop):
            out += _loops_post_order(n.body) + _loops_post_order(n.cont)
            out.append(n)
    return out


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


def _lower_loop(shader: MirShader, loop: Loop) -> bool:
    cont_blocks = set(iter_blocks(loop.cont))
    head = loop.cont[0]
    assert isinstance(head, Block)
    defined_in_cont = {i.dest for b in cont_blocks for i in b.instrs if i.dest is not None}
    demote: set[Value] = {p.dest for p in head.phis if p.dest is not None}
    for b in shader.blocks():
        if b in cont_blocks:
            continue
        for ins in b.instrs:
            if ins.op != "phi" and not defined_in_cont.isdisjoint(ins.srcs):
                demote.update(s for s in ins.srcs if s in defined_in_cont)
    for n in iter_nodes(shader.function.body):
        if isinstance(n, If) and n.cond in defined_in_cont and not any(
                n is x for x in iter_nodes(loop.cont)):
            demote.add(n.cond)
    demote_to_vars(shader, demote)

    points: list[tuple[list[CFNode], int]] = []
    _continue_points(loop.body, points)
    last = loop.body[-1]
    assert isinstance(last, Block)
    if last.jump is None:
        points.append((loop.body, len(loop.body) - 1))
    copies: list[tuple[dict[Block, Block], dict[Value, Value]]] = []
    # insert from the back so earlier (list, index) pairs stay valid
    for cf, i in sorted(points, key=lambda p: (id(p[0]), -p[1])):
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
    # phis naming a block of the construct: one entry per copy
    for b in list(shader.blocks()):
        for phi in b.instrs:
            if phi.op != "phi":
                break  # phis come first (b.phis without building the list)
            if cont_blocks.isdisjoint(phi.preds):
                continue
            srcs: list[Value] = []
            preds: list[Block] = []
            for p, s in zip(phi.preds, phi.srcs, strict=True):
                if p not in cont_blocks:
                    srcs.append(s)
                    preds.append(p)
                    continue
                for bmap, vmap in copies:
                    srcs.append(vmap.get(s, s))
                    preds.append(bmap[p])
            phi.srcs, phi.preds = srcs, preds
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
    loops = [lp for lp in all_loops if lp.cont]
    if not loops:
        return _drop_trailing_continue(all_loops)
    demoted = False
    for lp in loops:
        demoted |= _lower_loop(shader, lp)
    if demoted:
        vars_to_ssa(shader)
    _drop_trailing_continue(all_loops)
    return True
