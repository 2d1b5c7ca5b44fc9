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
    blocks, ifs = shader.structure()
    for n in ifs:
        c = n.cond
        if c not in live:
            live.add(c)
            work.append(c)
    effects: set[Instr] = set()  # the instructions with side effects, kept
    effect_of = _EFFECT
    for b in blocks:
        for ins in b.instrs:
            effect = effect_of.get(ins.op)
            if effect is None:
                effect = has_side_effect(ins)
            if effect:
                effects.add(ins)
                for s in ins.srcs:
                    if s not in live:
                        live.add(s)
                        work.append(s)
    while work:
        p = work.pop().parent
        if p is not None:
            for s in p.srcs:
                if s not in live:
                    live.add(s)
                    work.append(s)
    changed = False
    locals_ = shader.function.locals
    used: set[LocalVar] = set()  # the variables the kept deref_ instructions name
    for b in blocks:
        instrs = b.instrs
        keep = [i for i in instrs if i in effects or (i.dest is not None and
                                                       i.dest in live)]
        if len(keep) != len(instrs):
            for i in instrs:
                d = i.dest
                if d is not None and d not in live and i not in effects and d.parent is i:
                    # nothing reads it: unlink it from its instruction (a reference
                    # cycle otherwise, freed only by the cyclic collector)
                    d.parent = None
            b.instrs = keep
            changed = True
        if locals_:
            for i in keep:
                if i.op.startswith("deref_"):
                    used.add(i.attrs["var"])
    if locals_:
        locs = [v for v in locals_ if v in used]
        if len(locs) != len(locals_):
            shader.function.locals = locs
            changed = True
    return changed
