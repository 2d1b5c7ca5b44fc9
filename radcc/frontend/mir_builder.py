"""MirBuilder: appends instructions and structured control flow to a MIR function.

The cursor is a control-flow list and its last block. ``push_if``/``push_loop``
append a node followed by a fresh block; ``into(list)`` moves the cursor inside
one of the node's lists for the duration of a ``with`` block.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

from .mir import Block, CFNode, If, Instr, Loop, MirShader, Value, mask


def float_bits(x: float, bit_size: int) -> int:
    if bit_size == 16:
        return struct.unpack("<H", struct.pack("<e", x))[0]
    if bit_size == 32:
        return struct.unpack("<I", struct.pack("<f", x))[0]
    return struct.unpack("<Q", struct.pack("<d", x))[0]


class MirBuilder:
    def __init__(self, shader: MirShader, cf: list[CFNode] | None = None) -> None:
        self.shader = shader
        if cf is None:
            cf = shader.function.body
        if not cf:
            cf.append(shader.new_block())
        self.list = cf
        last = cf[-1]
        assert isinstance(last, Block)
        self.block: Block = last
        self.line = 0  # the source line `emit` gives instructions (0: none)
        # the control-flow lists the cursor is inside, outermost first, ``list`` last
        # (`into` pushes and pops): a block of one of them dominates what is appended
        # after it to that list, directly or nested
        self.lists: list[list[CFNode]] = [cf]

    # ----- cursor -----
    def into(self, cf: list[CFNode]) -> _Into:
        """A context manager: the cursor at the end of ``cf`` inside, back where it was
        after."""
        return _Into(self, cf)

    def _after(self, node: CFNode) -> None:
        self.list.append(node)
        b = self.shader.new_block()
        self.list.append(b)
        self.block = b

    def push_if(self, cond: Value) -> If:
        assert cond.bit_size == 1 and cond.num_components == 1, cond
        n = If(cond, [self.shader.new_block()], [self.shader.new_block()])
        self._after(n)
        return n

    def push_loop(self) -> Loop:
        n = Loop([self.shader.new_block()], [])
        self._after(n)
        return n

    @property
    def ended(self) -> bool:
        """The current block ends in a jump: nothing more may be added to this list."""
        return self.block.jump is not None

    # ----- instructions -----
    def emit(self, ins: Instr) -> Instr:
        block = self.block
        instrs = block.instrs  # (`ended` and `Block.append`, inline: one call per instruction)
        assert not (instrs and instrs[-1].op in ("break", "continue")), \
            "instruction after a jump"
        if not ins.line:
            ins.line = self.line
        ins.block = block
        instrs.append(ins)
        return ins

    def alu(self, op: str, bit_size: int, num_components: int, *srcs: Value, **attrs: Any) -> Value:
        v = self.shader.new_value(bit_size, num_components)
        self.emit(Instr(op, v, list(srcs), attrs))
        return v

    def intrinsic(
        self,
        name: str,
        srcs: Sequence[Value] = (),
        dest: tuple[int, int] | None = None,
        **attrs: Any,
    ) -> Value | None:
        v = self.shader.new_value(*dest) if dest else None
        self.emit(Instr(name, v, list(srcs), attrs))
        return v

    def intr(self, name: str, srcs: Sequence[Value], bits: int, comps: int, **attrs: Any) -> Value:
        v = self.shader.new_value(bits, comps)
        self.emit(Instr(name, v, list(srcs), attrs))
        return v

    def jump(self, kind: str) -> None:
        assert kind in ("break", "continue")
        if not self.ended:
            self.block.append(Instr(kind, None))

    # ----- constants -----
    def const(self, bit_size: int, values: Sequence[int]) -> Value:
        v = self.shader.new_value(bit_size, len(values))
        m = mask(bit_size)
        self.emit(Instr("load_const", v, [], {"value": tuple([x & m for x in values])}))
        return v

    def imm(self, value: int, bit_size: int = 32) -> Value:
        return self.const(bit_size, [value])

    def fimm(self, value: float, bit_size: int = 32) -> Value:
        return self.const(bit_size, [float_bits(value, bit_size)])

    def true(self) -> Value:
        return self.const(1, [1])

    def false(self) -> Value:
        return self.const(1, [0])

    def undef(self, bit_size: int, num_components: int = 1) -> Value:
        v = self.shader.new_value(bit_size, num_components)
        self.emit(Instr("undef", v))
        return v

    # ----- vectors -----
    def vec(self, comps: Sequence[Value]) -> Value:
        if len(comps) == 1:
            return comps[0]
        bs = comps[0].bit_size
        assert all(c.bit_size == bs and c.num_components == 1 for c in comps), comps
        return self.alu(f"vec{len(comps)}", bs, len(comps), *comps)

    def swizzle(self, v: Value, comps: Sequence[int]) -> Value:
        if list(comps) == list(range(v.num_components)):
            return v
        return self.alu("mov", v.bit_size, len(comps), v, comps=tuple(comps))

    def channel(self, v: Value, c: int) -> Value:
        if v.num_components == 1:
            assert c == 0
            return v
        return self.swizzle(v, [c])

    def channels(self, v: Value) -> list[Value]:
        return [self.channel(v, c) for c in range(v.num_components)]

    def splat(self, v: Value, n: int) -> Value:
        if v.num_components == n:
            return v
        assert v.num_components == 1
        return self.swizzle(v, [0] * n)

    # ----- helpers for common arithmetic -----
    def iadd_imm(self, v: Value, imm: int) -> Value:
        if imm == 0:
            return v
        return self.alu("iadd", v.bit_size, v.num_components, v, self.splat_imm(imm, v))

    def imul_imm(self, v: Value, imm: int) -> Value:
        if imm == 1:
            return v
        return self.alu("imul", v.bit_size, v.num_components, v, self.splat_imm(imm, v))

    def splat_imm(self, imm: int, like: Value) -> Value:
        return self.const(like.bit_size, [imm] * like.num_components)

    def fsplat(self, x: float, like: Value) -> Value:
        return self.const(like.bit_size, [float_bits(x, like.bit_size)] * like.num_components)


class _Into:
    """`MirBuilder.into`'s context manager (a class: one call to enter and one to leave,
    where a generator-based one costs several; the builder translates every construct
    through it)."""

    __slots__ = ("b", "cf", "saved_list", "saved_block")

    def __init__(self, b: MirBuilder, cf: list[CFNode]) -> None:
        self.b = b
        self.cf = cf
        self.saved_list = b.list
        self.saved_block = b.block

    def __enter__(self) -> None:
        b, cf = self.b, self.cf
        if not cf:
            cf.append(b.shader.new_block())
        b.list = cf
        b.lists.append(cf)
        last = cf[-1]
        assert isinstance(last, Block)
        b.block = last

    def __exit__(self, *exc: object) -> None:
        b = self.b
        b.list, b.block = self.saved_list, self.saved_block
        b.lists.pop()


def block_of(cf: list[CFNode], first: bool) -> Block:
    b = cf[0] if first else cf[-1]
    assert isinstance(b, Block)
    return b


def new_if_else(b: MirBuilder, cond: Value) -> tuple[If, list[CFNode], list[CFNode]]:
    n = b.push_if(cond)
    return n, n.then_list, n.else_list


__all__ = ["MirBuilder", "float_bits", "Loop", "If"]
