"""dce: remove instructions whose results are unused and that have no side effect
(ALU, constants, undefs, phis, eliminable intrinsics), and local variables that
nothing refers to any more."""

from __future__ import annotations

from ..mir import If, Instr, MirShader, Value, iter_nodes
from ..mir_ops import ALU_OPS, INTRINSICS


def _has_side_effect(ins: Instr) -> bool:
    if ins.op in ALU_OPS or ins.op in ("load_const", "undef", "phi"):
        return False
    if ins.is_jump:
        return True
    info = INTRINSICS.get(ins.op)
    return info is None or not info.eliminable


def dce(shader: MirShader) -> bool:
    live: set[Value] = set()
    work: list[Value] = []

    def mark(v: Value) -> None:
        if v not in live:
            live.add(v)
            work.append(v)

    for n in iter_nodes(shader.function.body):
        if isinstance(n, If):
            mark(n.cond)
    instrs = list(shader.instrs())
    for ins in instrs:
        if _has_side_effect(ins):
            for s in ins.srcs:
                mark(s)
    while work:
        v = work.pop()
        p = v.parent
        if p is not None:
            for s in p.srcs:
                mark(s)
    changed = False
    for b in shader.blocks():
        keep = [i for i in b.instrs if _has_side_effect(i) or (i.dest is not None and
                                                                 i.dest in live)]
        if len(keep) != len(b.instrs):
            b.instrs = keep
            changed = True
    used = {i.attrs["var"] for i in shader.instrs() if i.op.startswith("deref_")}
    locs = [v for v in shader.function.locals if v in used]
    if len(locs) != len(shader.function.locals):
        shader.function.locals = locs
        changed = True
    return changed
