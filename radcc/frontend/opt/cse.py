"""cse: dominator-tree value numbering (NIR's opt_cse / ACO's value numbering).

Two instructions are the same value when they have the same opcode, sources,
attributes and destination size, and the instruction is pure: ALU opcodes,
constants, the reorderable intrinsics (system values, uniform-buffer and
push-constant loads, derefs) and loads of read-only storage buffers. The later
one is replaced when the earlier one dominates it. Subgroup operations and
other loads are never merged (their results depend on the active lanes or on
stores in between)."""

from __future__ import annotations

from typing import Any

from ..mir import Block, Instr, MirShader, Value
from ..mir_cfg import dominator_children, first_block
from ..mir_ops import ALU_OPS, INTRINSICS

_ATOMS = frozenset({int, str, float, bool, type(None)})


def _hashable(x: Any) -> Any:
    t = type(x)
    if (t is tuple or t is list) and _ATOMS.issuperset(map(type, x)):
        return x if t is tuple else tuple(x)  # the same value as the general case
    if isinstance(x, list | tuple):
        return tuple(_hashable(y) for y in x)
    if isinstance(x, dict):
        items = [(k, v if type(v) in _ATOMS else _hashable(v)) for k, v in x.items()]
        if len(items) > 1:
            items.sort()  # keys are unique: ordered by key alone
        return tuple(items)
    return x


def _pure_op(op: str) -> bool:
    if op in ALU_OPS or op == "load_const":
        return True
    info = INTRINSICS.get(op)
    return info is not None and info.reorderable


_PURE: dict[str, bool] = {}  # per opcode: _pure_op (the tables are constant)


def _key(ins: Instr) -> Any | None:
    """The value-numbering key of `ins` (None: not numbered). The sources by identity
    (a tuple of the `Value` objects: they compare and hash by identity), a load_const's
    value tuple as it is (`_hashable` would give an equal tuple: its numbers are atoms)."""
    d = ins.dest
    if d is None:
        return None
    op = ins.op
    pure = _PURE.get(op)
    if pure is None:
        pure = _PURE[op] = _pure_op(op)
    attrs = ins.attrs
    if not pure and not (op == "load_ssbo" and attrs.get("access") == "readonly"):
        return None
    if not attrs:
        return (op, tuple(ins.srcs), (), d.bit_size, d.num_components)
    if len(attrs) == 1:
        if op == "load_const":
            value = attrs.get("value")
            if type(value) is tuple:
                return (op, (), (("value", value),), d.bit_size, d.num_components)
        # one attribute (a mov's comps, a deref's index ...): an atom or a tuple of
        # atoms is its own `_hashable` value
        for name, value in attrs.items():
            t = type(value)
            if t in _ATOMS or (t is tuple and _ATOMS.issuperset(map(type, value))):
                return (op, tuple(ins.srcs), ((name, value),), d.bit_size,
                        d.num_components)
    return (op, tuple(ins.srcs), _hashable(attrs), d.bit_size, d.num_components)


def cse(shader: MirShader) -> bool:
    children = dominator_children(shader)
    table: dict[Any, Value] = {}
    mapping: dict[Value, Value] = {}

    def look(v: Value) -> Value:
        while v in mapping:
            v = mapping[v]
        return v

    pure = _PURE  # (filled by `_key` per opcode)

    def enter(b: Block) -> list[Any]:
        """Number `b`'s instructions; the keys it added (dropped when its subtree is done)."""
        added: list[Any] = []
        keep: list[Instr] = []
        for ins in b.instrs:
            # (no Instr shares its srcs list with another; most keep theirs)
            if mapping and not mapping.keys().isdisjoint(ins.srcs):
                ins.srcs = [look(s) if s in mapping else s for s in ins.srcs]
            d = ins.dest
            if d is None:
                keep.append(ins)
                continue
            # `_key` inline for the common cases (a pure opcode without attributes, an
            # opcode that is not numbered)
            op = ins.op
            p = pure.get(op)
            if p is False and op != "load_ssbo":
                keep.append(ins)
                continue
            if p and not ins.attrs:
                k: Any = (op, tuple(ins.srcs), (), d.bit_size, d.num_components)
            else:
                k = _key(ins)
            if k is not None:
                prev = table.get(k)
                if prev is not None:
                    assert ins.dest is not None
                    mapping[ins.dest] = prev
                    continue
                assert ins.dest is not None
                table[k] = ins.dest
                added.append(k)
            keep.append(ins)
        b.instrs = keep
        return added

    # the dominator tree depth-first, children in order, with an explicit stack (a chain
    # of sequential ifs is a tree as deep as the shader is long)
    work: list[tuple[Block, list[Any] | None]] = [(first_block(shader.function.body), None)]
    while work:
        b, added = work.pop()
        if added is not None:
            for k in added:
                del table[k]
            continue
        work.append((b, enter(b)))
        kids = children.get(b)
        if kids:
            work.extend([(c, None) for c in reversed(kids)])
    if not mapping:
        return False
    # The walk rewrote the sources of every instruction of the blocks it entered (the
    # reachable ones, `children`) but phis: a source's definition dominates its reader,
    # so it was numbered first, and a value it maps to is never mapped itself. Left:
    # the phis, the unreachable blocks and the If conditions (`rewrite_uses` on them).
    blocks, ifs = shader.structure()
    keys = mapping.keys()
    for b in blocks:
        entered = b in children
        for ins in b.instrs:
            if entered and ins.op != "phi":
                break  # (phis lead their block)
            srcs = ins.srcs
            if not keys.isdisjoint(srcs):
                ins.srcs = [look(s) if s in mapping else s for s in srcs]
    for n in ifs:
        if n.cond in mapping:
            n.cond = look(n.cond)
    return True
