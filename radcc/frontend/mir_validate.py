"""validate(shader): MIR's invariants, checked between passes.

* control-flow lists start and end with a block and never hold two adjacent
  blocks; a jump is only the last instruction of a block, and only inside a loop;
* every value has exactly one definition, whose ``dest.parent`` is it;
* every source is defined, and its definition dominates the use (a phi's
  source dominates the end of the matching predecessor); unreachable blocks are
  not checked for dominance;
* phis come first in a block and name each CFG predecessor exactly once;
* ALU instructions: source counts, component counts (per-component opcodes
  take sources of the destination's size; ``mov`` swizzles in range; ``vecN``
  takes N scalars), 1-bit booleans where a boolean is read or written;
  intrinsics: source counts and destinations as ``mir_ops.INTRINSICS`` says.
"""

from __future__ import annotations

from .mir import Block, CFNode, If, Instr, Loop, MirShader, Value
from .mir_cfg import build_cfg
from .mir_ops import ALU_OPS, CONVERSION, INTRINSICS


class MirValidationError(Exception):
    pass


def validate(shader: MirShader) -> None:
    errors: list[str] = []

    def err(msg: str, ins: Instr | None = None) -> None:
        errors.append(f"{msg}" + (f": {ins!r}" if ins is not None else ""))

    def shape(cf: list[CFNode], in_loop: bool, where: str) -> None:
        if not cf or not isinstance(cf[0], Block) or not isinstance(cf[-1], Block):
            err(f"{where}: a control-flow list must start and end with a block")
        for a, b in zip(cf, cf[1:], strict=False):
            if isinstance(a, Block) == isinstance(b, Block):
                err(f"{where}: two adjacent {'blocks' if isinstance(a, Block) else 'nodes'}")
        for n in cf:
            if isinstance(n, Block):
                for k, ins in enumerate(n.instrs):
                    if ins.is_jump and k != len(n.instrs) - 1:
                        err(f"b{n.index}: a jump must end its block", ins)
                    if ins.is_jump and not in_loop:
                        err(f"b{n.index}: {ins.op} outside a loop", ins)
                    if ins.block is not n:
                        err(f"b{n.index}: instruction's block field is wrong", ins)
            elif isinstance(n, If):
                shape(n.then_list, in_loop, where + "/then")
                shape(n.else_list, in_loop, where + "/else")
            elif isinstance(n, Loop):
                shape(n.body, True, where + "/loop")
                if n.cont:
                    shape(n.cont, True, where + "/continue")

    shape(shader.function.body, False, "function")
    if errors:
        raise MirValidationError("\n".join(errors))

    cfg = build_cfg(shader)
    defs: dict[Value, Instr] = {}
    pos: dict[Instr, int] = {}
    for b in cfg.blocks:
        for k, ins in enumerate(b.instrs):
            pos[ins] = k
            if ins.dest is not None:
                if ins.dest in defs:
                    err(f"{ins.dest} defined twice", ins)
                defs[ins.dest] = ins
                if ins.dest.parent is not ins:
                    err(f"{ins.dest}.parent is not its definition", ins)

    def dominated(v: Value, use_block: Block, use_pos: int, ins: Instr | None) -> None:
        d = defs.get(v)
        if d is None:
            err(f"{v} is used but not defined", ins)
            return
        db = d.block
        assert db is not None
        if not cfg.reachable(use_block) or not cfg.reachable(db):
            return
        if db is use_block:
            if pos[d] >= use_pos:
                err(f"{v} is used before its definition", ins)
        elif not cfg.dominates(db, use_block):
            err(f"the definition of {v} (b{db.index}) does not dominate its use in "
                f"b{use_block.index}", ins)

    for b in cfg.blocks:
        in_phis = True
        for k, ins in enumerate(b.instrs):
            if ins.op == "phi":
                if not in_phis:
                    err(f"b{b.index}: phi after other instructions", ins)
                if cfg.reachable(b):
                    want = [p for p in cfg.preds[b]]
                    if sorted(p.index for p in ins.preds) != sorted(p.index for p in want):
                        err(f"b{b.index}: phi predecessors {[p.index for p in ins.preds]} "
                            f"are not the block's {[p.index for p in want]}", ins)
                for p, s in zip(ins.preds, ins.srcs, strict=True):
                    dominated(s, p, len(p.instrs) + 1, ins)
                    _same_size(ins, s, err)
                continue
            in_phis = False
            for s in ins.srcs:
                dominated(s, b, k, ins)
            _check_instr(ins, err)
    for n in _ifs(shader.function.body):
        if n.cond.bit_size != 1 or n.cond.num_components != 1:
            err(f"if condition {n.cond} is not a 1-bit scalar")
    if errors:
        raise MirValidationError("\n".join(errors[:20]))


def _ifs(cf: list[CFNode]) -> list[If]:
    out: list[If] = []
    for n in cf:
        if isinstance(n, If):
            out.append(n)
            out += _ifs(n.then_list) + _ifs(n.else_list)
        elif isinstance(n, Loop):
            out += _ifs(n.body) + _ifs(n.cont)
    return out


def _same_size(ins: Instr, s: Value, err: object) -> None:
    d = ins.dest
    assert d is not None
    if (s.bit_size, s.num_components) != (d.bit_size, d.num_components):
        err(f"source {s} has size {s.bit_size}x{s.num_components}", ins)  # type: ignore


def _check_instr(ins: Instr, err: object) -> None:
    e = err  # type: ignore[assignment]
    op = ins.op
    d = ins.dest
    if op in ("load_const", "undef"):
        if d is None:
            e("no destination", ins)  # type: ignore[operator]
        elif op == "load_const" and len(ins.attrs.get("value", ())) != d.num_components:
            e("constant component count", ins)  # type: ignore[operator]
        return
    if op in ("break", "continue"):
        return
    if op in ALU_OPS:
        info = ALU_OPS[op]
        if d is None:
            e("ALU instruction without destination", ins)  # type: ignore[operator]
            return
        if len(ins.srcs) != len(info.srcs):
            e(f"{op} takes {len(info.srcs)} sources", ins)  # type: ignore[operator]
            return
        if op == "mov":
            comps = ins.attrs.get("comps", tuple(range(d.num_components)))
            if len(comps) != d.num_components or any(
                    c >= ins.srcs[0].num_components for c in comps):
                e("bad swizzle", ins)  # type: ignore[operator]
            if ins.srcs[0].bit_size != d.bit_size:
                e("mov changes the bit size", ins)  # type: ignore[operator]
            return
        if op.startswith("vec"):
            if any(s.num_components != 1 or s.bit_size != d.bit_size for s in ins.srcs):
                e(f"{op} takes scalars of the destination's bit size", ins)  # type: ignore
            return
        if info.per_component:
            for k, s in enumerate(ins.srcs):
                if s.num_components != d.num_components:
                    e(f"source {k} has {s.num_components} components, not "
                      f"{d.num_components}", ins)  # type: ignore[operator]
                if info.srcs[k] == "bool" and s.bit_size != 1:
                    e(f"source {k} must be a 1-bit boolean", ins)  # type: ignore[operator]
            if info.dest == "bool" and d.bit_size != 1:
                e("a comparison gives a 1-bit boolean", ins)  # type: ignore[operator]
            m = CONVERSION.match(op)
            if m and int(m.group(3)) != d.bit_size:
                e("conversion destination size", ins)  # type: ignore[operator]
            if op == "bcsel" and not (ins.srcs[1].bit_size == ins.srcs[2].bit_size == d.bit_size):
                e("bcsel operand sizes", ins)  # type: ignore[operator]
        return
    info2 = INTRINSICS.get(op)
    if info2 is None:
        e(f"unknown opcode {op}", ins)  # type: ignore[operator]
        return
    # an image intrinsic on an element of a descriptor array takes the element's index
    # (and its sampler's) as trailing sources (attrs["desc_index"], docs/mir.md "Images")
    nsrcs = info2.srcs + len(ins.attrs.get("desc_index", ()))  # type: ignore[arg-type]
    if info2.srcs >= 0 and len(ins.srcs) != nsrcs:
        e(f"@{op} takes {nsrcs} sources", ins)  # type: ignore[operator]
    if info2.dest != (d is not None):
        e(f"@{op} {'needs' if info2.dest else 'has no'} destination", ins)  # type: ignore
