"""dce: remove instructions whose results are unused and that have no side effect
(ALU, constants, undefs, phis, eliminable intrinsics), and local variables that
nothing refers to any more. A removed instruction's result is unlinked from it
(``parent`` None): nothing in the shader reads it."""

from __future__ import annotations

from ..mir import Instr, LocalVar, MirShader, Value
from ..mir_ops import ALU_OPS, INTRINSICS


def has_side_effect(ins: Instr) -> bool:
    """Whether `ins` must stay though its result is unused (jumps included)."""
    op = ins.op
    effect = _EFFECT.get(op)
    if effect is None:
        effect = _effect_of(op)
        _EFFECT[op] = effect
    return effect


def _effect_of(op: str) -> bool:
    if op in ALU_OPS or op in ("load_const", "undef", "phi"):
        return False
    if op in ("break", "continue"):  # Instr.is_jump
        return True
    info = INTRINSICS.get(op)
    return info is None or not info.eliminable


_EFFECT: dict[str, bool] = {}  # per opcode: _effect_of (the tables are constant)


def dce(shader: MirShader) -> bool:
    live: set[Value] = set()
    work: list[Value] = []

    def mark(v: Value) -> None:
        if v not in live:
            live.add(v)
            work.append(v)

    for n in shader.ifs():
        mark(n.cond)
    effects: set[Instr] = set()  # the instructions with side effects, kept
    for b in shader.blocks():
        for ins in b.instrs:
            if has_side_effect(ins):
                effects.add(ins)
                for s in ins.srcs:
                    mark(s)
    while work:
        v = work.pop()
        p = v.parent
        if p is not None:
            for s in p.srcs:
                mark(s)
    changed = False
    used: set[LocalVar] = set()  # the variables the kept deref_ instructions name
    for b in shader.blocks():
        keep = [i for i in b.instrs if i in effects or (i.dest is not None and
                                                         i.dest in live)]
        if len(keep) != len(b.instrs):
            for i in b.instrs:
                d = i.dest
                if d is not None and d not in live and i not in effects and d.parent is i:
                    # nothing reads it: unlink it from its instruction (a reference
                    # cycle otherwise, freed only by the cyclic collector)
                    d.parent = None
            b.instrs = keep
            changed = True
        for i in keep:
            if i.op.startswith("deref_"):
                used.add(i.attrs["var"])
    locs = [v for v in shader.function.locals if v in used]
    if len(locs) != len(shader.function.locals):
        shader.function.locals = locs
        changed = True
    return changed
