"""bfloat16 (SPV_KHR_bfloat16): ``OpTypeFloat 16 BFloat16KHR`` values are 16-bit MIR
values holding the bfloat16 bits (the high half of a float32). The extension allows
them in memory, composites, conversions and cooperative matrices, not in arithmetic;
GFX11 has no bfloat16 conversion instruction (WMMA is its only bfloat16 arithmetic), so
the conversions are integer sequences, as Mesa lowers them for chips without one:

- bfloat16 -> float32: the bits shifted into the high half (exact);
- float32 -> bfloat16: round to nearest even on the bits (``(x + 0x7fff + bit 16 of x)
  >> 16``: denormals, overflow to infinity and infinities come out right), a NaN keeps
  its sign and top payload bits and is made quiet (bit 6 set);
- other float widths and integers go through float32 (a float64 or an integer beyond
  2^24 is rounded twice).

Any other instruction on bfloat16 operands is refused by name (`check_arithmetic`).
"""

from __future__ import annotations

from ..mir import Value
from ..mir_builder import MirBuilder
from ..spirv.binary import Instruction
from ..spirv.types import TypeCooperativeMatrix, TypeFloat, TypeVector
from .context import TranslationContext, err

# instructions that only move bfloat16 bits (or convert them): everything else that has
# a bfloat16 operand or result is arithmetic SPV_KHR_bfloat16 does not allow
_MOVES = frozenset({
    "OpLoad", "OpStore", "OpVariable", "OpAccessChain", "OpInBoundsAccessChain",
    "OpPtrAccessChain", "OpInBoundsPtrAccessChain", "OpCopyMemory", "OpCopyObject",
    "OpCopyLogical", "OpCompositeConstruct", "OpCompositeExtract", "OpCompositeInsert",
    "OpVectorShuffle", "OpVectorExtractDynamic", "OpVectorInsertDynamic", "OpSelect",
    "OpPhi", "OpUndef", "OpBitcast", "OpFunctionCall", "OpReturnValue", "OpFConvert",
    "OpConvertFToU", "OpConvertFToS", "OpConvertSToF", "OpConvertUToF",
    "OpCooperativeMatrixLoadKHR", "OpCooperativeMatrixStoreKHR",
    "OpCooperativeMatrixMulAddKHR", "OpCooperativeMatrixLengthKHR",
    "OpGroupNonUniformBroadcast", "OpGroupNonUniformBroadcastFirst",
    "OpGroupNonUniformShuffle", "OpGroupNonUniformShuffleXor", "OpGroupNonUniformShuffleUp",
    "OpGroupNonUniformShuffleDown", "OpSubgroupReadInvocationKHR",
})


def is_bf16(ctx: TranslationContext, tid: int | None) -> bool:
    """Whether type `tid` is bfloat16, a vector of it or a cooperative matrix of it."""
    t = None if tid is None else ctx.m.types.get(tid)
    if isinstance(t, TypeVector | TypeCooperativeMatrix):
        t = ctx.m.types.get(t.component)
    return isinstance(t, TypeFloat) and t.bfloat16


def _type_of(ctx: TranslationContext, vid: int) -> int | None:
    d = ctx.m.defs.get(vid)
    return None if d is None else d.result_type


def check_arithmetic(ctx: TranslationContext, ins: Instruction) -> None:
    """Refuse `ins` if it computes on bfloat16 values (module docstring)."""
    if ins.opname in _MOVES:
        return
    if is_bf16(ctx, ins.result_type) or any(
            is_bf16(ctx, _type_of(ctx, x)) for x in ins.ids()):
        raise err(f"{ins.opname} on bfloat16: SPV_KHR_bfloat16 allows only conversions, "
                  "memory and cooperative matrix operations (bfloat16 arithmetic is not "
                  "supported)", ins)


def to_f32(b: MirBuilder, v: Value) -> Value:
    """float32 of bfloat16 bits `v` (16-bit)."""
    n = v.num_components
    wide = b.alu("u2u32", 32, n, v)
    return b.alu("ishl", 32, n, wide, b.splat_imm(16, wide))


def from_f32(b: MirBuilder, x: Value) -> Value:
    """bfloat16 bits (16-bit) of float32 `x`, rounded to nearest even (module docstring)."""
    n = x.num_components
    odd = b.alu("iand", 32, n, b.alu("ushr", 32, n, x, b.splat_imm(16, x)), b.splat_imm(1, x))
    up = b.alu("iadd", 32, n, b.alu("iadd", 32, n, x, b.splat_imm(0x7FFF, x)), odd)
    rounded = b.alu("ushr", 32, n, up, b.splat_imm(16, x))
    quiet = b.alu("ior", 32, n, b.alu("ushr", 32, n, x, b.splat_imm(16, x)),
                  b.splat_imm(0x40, x))
    nan = b.alu("fneu", 1, n, x, x)
    return b.alu("u2u16", 16, n, b.alu("bcsel", 32, n, nan, quiet, rounded))


def convert(ctx: TranslationContext, ins: Instruction, src: Value, frm: str, to: str,
            bits: int) -> Value:
    """OpFConvert/OpConvert*ToF/OpConvertFTo* with a bfloat16 side: `frm`/`to` are the
    conversion's kinds ("f", "i", "u"), `bits` the result's width."""
    b = ctx.b
    n = src.num_components
    src_bf = is_bf16(ctx, _type_of(ctx, ins.id(0)))
    dst_bf = is_bf16(ctx, ins.result_type)
    return convert_value(b, src, frm, to, bits, src_bf, dst_bf, n)


def convert_value(b: MirBuilder, src: Value, frm: str, to: str, bits: int, src_bf: bool,
                  dst_bf: bool, n: int) -> Value:
    """`convert` on values: `src_bf`/`dst_bf` say which side is bfloat16."""
    x = to_f32(b, src) if src_bf else src
    if dst_bf:
        if frm != "f":
            x = b.alu(f"{frm}2f32", 32, n, x)
        elif x.bit_size != 32:
            x = b.alu("f2f32", 32, n, x)
        return from_f32(b, x)
    if to == "f":
        return x if bits == 32 else b.alu(f"f2f{bits}", bits, n, x)
    return b.alu(f"f2{to}{bits}", bits, n, x)


def bf16_bits(value: float) -> int:
    """The bfloat16 bits of a float (round to nearest even through float32)."""
    import struct

    x = struct.unpack("<I", struct.pack("<f", value))[0]
    if value != value:
        return (x >> 16) | 0x40
    return ((x + 0x7FFF + (x >> 16 & 1)) >> 16) & 0xFFFF


__all__ = ["bf16_bits", "check_arithmetic", "convert", "convert_value", "from_f32",
           "is_bf16", "to_f32"]
