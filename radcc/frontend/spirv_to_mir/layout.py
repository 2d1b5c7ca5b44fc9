"""Memory layouts of types: explicit (the Offset/ArrayStride/MatrixStride
decorations, std430/std140 as the SPIR-V says) and natural (std430-like, for
Workgroup variables without decorations).
"""

from __future__ import annotations

from ..spirv.types import (
    TypeArray,
    TypeMatrix,
    TypePointer,
    TypeRuntimeArray,
    TypeStruct,
)
from .context import TranslationContext, err
from .types_consts import array_length


def has_explicit_layout(ctx: TranslationContext, tid: int) -> bool:
    t = ctx.ty(tid)
    if isinstance(t, TypeStruct):
        return ctx.m.has_decoration(tid, "Offset", 0) if t.members else False
    if isinstance(t, TypeArray | TypeRuntimeArray):
        return ctx.m.has_decoration(tid, "ArrayStride")
    return False


def natural_layout(ctx: TranslationContext, tid: int) -> tuple[int, int]:
    """(size, alignment) of a Workgroup type without explicit layout (std430-like)."""
    t = ctx.ty(tid)
    if ctx.is_leaf(tid):
        base, bits = ctx.scalar(tid)
        sz = 4 if base == "bool" else bits // 8
        n = ctx.comps(tid)
        return sz * n, sz * (4 if n == 3 else n)
    if isinstance(t, TypeArray | TypeMatrix):
        et = t.element if isinstance(t, TypeArray) else t.column
        es, ea = natural_layout(ctx, et)
        stride = (es + ea - 1) // ea * ea
        n = array_length(ctx, t) if isinstance(t, TypeArray) else t.columns
        return stride * n, ea
    if isinstance(t, TypeStruct):
        off, al = 0, 1
        for mt in t.members:
            s, a = natural_layout(ctx, mt)
            off = (off + a - 1) // a * a + s
            al = max(al, a)
        return (off + al - 1) // al * al, al
    raise err(f"type %{tid} has no layout", ctx.ins)


def member_offset(ctx: TranslationContext, tid: int, index: int, explicit: bool) -> int:
    if explicit:
        o = ctx.m.decoration(tid, "Offset", index)
        if o is None:
            raise err(f"member {index} of struct %{tid} has no Offset", ctx.ins)
        return int(o[0])
    t = ctx.ty(tid)
    off = 0
    for k, mt in enumerate(t.members):
        s, a = natural_layout(ctx, mt)
        off = (off + a - 1) // a * a
        if k == index:
            return off
        off += s
    raise AssertionError


def array_stride(ctx: TranslationContext, tid: int, explicit: bool) -> int:
    if explicit:
        s = ctx.m.decoration(tid, "ArrayStride")
        if s is None:
            raise err(f"array type %{tid} has no ArrayStride", ctx.ins)
        return int(s[0])
    t = ctx.ty(tid)
    es, ea = natural_layout(ctx, t.element)
    return (es + ea - 1) // ea * ea


def explicit_size(ctx: TranslationContext, tid: int, mstride: int = 0,
                  row_major: bool = False) -> int:
    t = ctx.ty(tid)
    if isinstance(t, TypePointer):  # a buffer device address
        return 8
    if ctx.is_leaf(tid):
        base, bits = ctx.scalar(tid)
        return (4 if base == "bool" else bits // 8) * ctx.comps(tid)
    if isinstance(t, TypeRuntimeArray):
        return 0
    if isinstance(t, TypeArray):
        return array_stride(ctx, tid, True) * array_length(ctx, t)
    if isinstance(t, TypeMatrix):
        rows = ctx.comps(t.column)
        return (mstride or 16) * (rows if row_major else t.columns)
    if isinstance(t, TypeStruct):
        end = 0
        for i, mt in enumerate(t.members):
            ms = ctx.m.decoration(tid, "MatrixStride", i)
            rm = ctx.m.has_decoration(tid, "RowMajor", i)
            end = max(end, member_offset(ctx, tid, i, True) +
                      explicit_size(ctx, mt, int(ms[0]) if ms else 0, rm))
        return end
    raise err(f"type %{tid} has no layout", ctx.ins)
