"""Atomics on storage buffers, buffer device addresses and shared memory (Mesa's
``vtn_handle_atomics``): ``OpAtomic*`` to the MIR ``ssbo_atomic*``/``global_atomic*``/
``shared_atomic*`` intrinsics (the global ones take the 64-bit address first).
"""

from __future__ import annotations

from typing import Any

from ..spirv.binary import Instruction
from .context import MemPtr, TranslationContext, err
from .images import TexelPointer, image_intr
from .types_consts import get_tv, get_value
from .variables import global_address, load_mem, mem_offset, store_mem

ATOMICS: dict[str, str] = {
    "OpAtomicExchange": "xchg", "OpAtomicIAdd": "iadd", "OpAtomicSMin": "imin",
    "OpAtomicUMin": "umin", "OpAtomicSMax": "imax", "OpAtomicUMax": "umax",
    "OpAtomicAnd": "iand", "OpAtomicOr": "ior", "OpAtomicXor": "ixor",
    "OpAtomicFAddEXT": "fadd", "OpAtomicFMinEXT": "fmin", "OpAtomicFMaxEXT": "fmax",
}


def translate_atomic(ctx: TranslationContext, ins: Instruction) -> None:
    op = ins.opname
    p = get_tv(ctx, ins.id(0))
    if isinstance(p, TexelPointer):
        _image_atomic(ctx, ins, p)
        return
    if not isinstance(p, MemPtr) or p.space not in ("ssbo", "shared", "global"):
        raise err("atomic on something that is not a storage buffer or shared memory", ins)
    if op == "OpAtomicLoad":
        ctx.set(ins, load_mem(ctx, p))
        return
    if op == "OpAtomicStore":
        store_mem(ctx, p, get_value(ctx, ins.id(3)))
        return
    assert ins.result_type is not None
    bits = ctx.bits(ins.result_type)
    prefix = {"ssbo": "ssbo_atomic", "shared": "shared_atomic",
              "global": "global_atomic"}[p.space]
    attrs: dict[str, Any] = {}
    if p.binding is not None:
        attrs["binding"] = p.binding
    off = global_address(ctx, p) if p.space == "global" else mem_offset(ctx, p)
    if op == "OpAtomicCompareExchange":
        val, cmp = get_value(ctx, ins.id(4)), get_value(ctx, ins.id(5))
        r = ctx.b.intr(prefix + "_swap", [off, cmp, val], bits, 1, atomic_op="cmpxchg",
                       **attrs)
    elif op in ("OpAtomicIIncrement", "OpAtomicIDecrement"):
        one = ctx.b.imm(1 if op == "OpAtomicIIncrement" else -1, bits)
        r = ctx.b.intr(prefix, [off, one], bits, 1, atomic_op="iadd", **attrs)
    elif op == "OpAtomicISub":
        neg = ctx.b.alu("ineg", bits, 1, get_value(ctx, ins.id(3)))
        r = ctx.b.intr(prefix, [off, neg], bits, 1, atomic_op="iadd", **attrs)
    elif op in ATOMICS:
        r = ctx.b.intr(prefix, [off, get_value(ctx, ins.id(3))], bits, 1, atomic_op=ATOMICS[op],
                       **attrs)
    else:
        raise err("unsupported atomic", ins)
    ctx.set(ins, r)


def _image_atomic(ctx: TranslationContext, ins: Instruction, p: TexelPointer) -> None:
    """An atomic on an image texel (imageAtomic*): MIR ``image_atomic`` coord, data
    (``image_atomic_swap`` coord, compare, new for a compare-exchange; attrs binding,
    dim, atomic_op), the texel's old value as the result."""
    op = ins.opname
    if op in ("OpAtomicLoad", "OpAtomicStore") or ins.result_type is None:
        raise err(f"{op} on an image texel is not supported", ins)
    bits = ctx.bits(ins.result_type)
    if p.image.type.format == "R32f" and op != "OpAtomicExchange":
        # Vulkan's shaderImageFloat32Atomics is load, store and exchange; GFX11's MIMG and
        # typed-buffer atomics have no float add/min/max (RADV leaves the
        # shaderImageFloat32AtomicAdd/MinMax features off there)
        raise err(f"{op} on a storage image of format R32f is not supported (float image "
                  "atomics: only exchange)", ins)
    if op == "OpAtomicCompareExchange":
        val, cmp = get_value(ctx, ins.id(4)), get_value(ctx, ins.id(5))
        name, srcs, aop = "image_atomic_swap", [p.coord, cmp, val], "cmpxchg"
    elif op in ("OpAtomicIIncrement", "OpAtomicIDecrement"):
        one = ctx.b.imm(1 if op == "OpAtomicIIncrement" else -1, bits)
        name, srcs, aop = "image_atomic", [p.coord, one], "iadd"
    elif op == "OpAtomicISub":
        neg = ctx.b.alu("ineg", bits, 1, get_value(ctx, ins.id(3)))
        name, srcs, aop = "image_atomic", [p.coord, neg], "iadd"
    elif op in ATOMICS and ATOMICS[op] not in ("fadd", "fmin", "fmax"):
        name, srcs, aop = "image_atomic", [p.coord, get_value(ctx, ins.id(3))], ATOMICS[op]
    else:
        raise err(f"{op} on an image texel is not supported", ins)
    r = image_intr(ctx, name, srcs, (bits, 1), p.image, atomic_op=aop)
    assert r is not None
    ctx.set(ins, r)
