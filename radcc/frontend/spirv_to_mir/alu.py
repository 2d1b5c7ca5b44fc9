"""ALU (Mesa's src/compiler/spirv/vtn_alu.c): the one-to-one opcodes (`SIMPLE`),
conversions, bitcasts, selects, ``OpAny``/``OpAll``, vector and matrix
arithmetic, extended (carry, high-half) arithmetic.
"""

from __future__ import annotations

from ..mir import (
    Value,
)
from ..mir_ops import ALU_OPS, DOT_4X8
from ..spirv.binary import Instruction
from . import bfloat16
from .context import TV, MemPtr, TranslationContext, err
from .types_consts import get_tv, get_value
from .variables import global_address

# simple one-to-one opcodes: SPIR-V name -> (MIR op, swap sources)
SIMPLE: dict[str, tuple[str, bool]] = {
    "OpIAdd": ("iadd", False), "OpISub": ("isub", False), "OpIMul": ("imul", False),
    "OpSDiv": ("idiv", False), "OpUDiv": ("udiv", False), "OpSRem": ("irem", False),
    "OpSMod": ("imod", False), "OpUMod": ("umod", False), "OpSNegate": ("ineg", False),
    "OpFAdd": ("fadd", False), "OpFSub": ("fsub", False), "OpFMul": ("fmul", False),
    "OpFDiv": ("fdiv", False), "OpFRem": ("frem", False), "OpFMod": ("fmod", False),
    "OpFNegate": ("fneg", False),
    "OpShiftLeftLogical": ("ishl", False), "OpShiftRightLogical": ("ushr", False),
    "OpShiftRightArithmetic": ("ishr", False),
    "OpBitwiseAnd": ("iand", False), "OpBitwiseOr": ("ior", False),
    "OpBitwiseXor": ("ixor", False), "OpNot": ("inot", False),
    "OpLogicalAnd": ("iand", False), "OpLogicalOr": ("ior", False),
    "OpLogicalNot": ("inot", False), "OpLogicalEqual": ("ieq", False),
    "OpLogicalNotEqual": ("ine", False),
    "OpIEqual": ("ieq", False), "OpINotEqual": ("ine", False),
    "OpSLessThan": ("ilt", False), "OpSGreaterThan": ("ilt", True),
    "OpSLessThanEqual": ("ige", True), "OpSGreaterThanEqual": ("ige", False),
    "OpULessThan": ("ult", False), "OpUGreaterThan": ("ult", True),
    "OpULessThanEqual": ("uge", True), "OpUGreaterThanEqual": ("uge", False),
    "OpFOrdEqual": ("feq", False), "OpFUnordNotEqual": ("fneu", False),
    "OpFOrdLessThan": ("flt", False), "OpFOrdGreaterThan": ("flt", True),
    "OpFOrdLessThanEqual": ("fge", True), "OpFOrdGreaterThanEqual": ("fge", False),
    "OpFOrdNotEqual": ("fneo", False), "OpFUnordEqual": ("fequ", False),
    "OpFUnordLessThan": ("fltu", False), "OpFUnordGreaterThan": ("fltu", True),
    "OpFUnordLessThanEqual": ("fgeu", True), "OpFUnordGreaterThanEqual": ("fgeu", False),
    "OpIsInf": ("fisinf", False),
    "OpBitFieldInsert": ("bitfield_insert", False),
    "OpBitFieldSExtract": ("ibitfield_extract", False),
    "OpBitFieldUExtract": ("ubitfield_extract", False),
    "OpBitReverse": ("bitfield_reverse", False), "OpBitCount": ("bit_count", False),
}


# MIR integer ops that OpLogical* instructions use on booleans
_BOOL_LOGIC = frozenset({"iand", "ior", "ixor", "inot", "ieq", "ine"})


def emit_alu(ctx: TranslationContext, op: str, rtid: int | None, srcs: list[Value]) -> Value:
    assert rtid is not None
    bits, n = ctx.shape(rtid)
    info = ALU_OPS[op]
    if (bits == 1) != (info.dest == "bool") and not (bits == 1 and op in _BOOL_LOGIC):
        raise err(f"result type %{rtid} {'is' if bits == 1 else 'is not'} a boolean type",
                  ctx.ins)
    if info.per_component:
        srcs = [ctx.b.splat(s, n) if s.num_components == 1 and n > 1 else s for s in srcs]
    return ctx.b.alu(op, bits, n, *srcs)


def op_select(ctx: TranslationContext, ins: Instruction) -> None:
    c = get_value(ctx, ins.id(0))
    a, b_ = get_tv(ctx, ins.id(1)), get_tv(ctx, ins.id(2))
    ctx.set(ins, _select(ctx, ins, c, a, b_))


def _select(ctx: TranslationContext, ins: Instruction, c: Value, x: TV, y: TV) -> TV:
    """OpSelect of `x` and `y` by `c`, member by member (a module-level function: a
    recursive closure is a reference cycle holding the context until the cyclic
    collector runs)."""
    if isinstance(x, list):
        return [_select(ctx, ins, c, p, q) for p, q in zip(x, y, strict=True)]
    if isinstance(x, MemPtr):  # buffer device addresses: select the address
        if not isinstance(y, MemPtr) or x.space != "global" or y.space != "global":
            raise err("OpSelect of pointers that are not buffer device addresses", ins)
        a = ctx.b.alu("bcsel", 64, 1, c, global_address(ctx, x), global_address(ctx, y))
        return MemPtr("global", None, None, 0, x.tid, True, base=a)
    cc = c if c.num_components == x.num_components else ctx.b.splat(c, x.num_components)
    return ctx.b.alu("bcsel", x.bit_size, x.num_components, cc, x, y)


def _conv(ctx: TranslationContext, ins: Instruction, frm: str, to: str) -> None:
    assert ins.result_type is not None
    src = get_value(ctx, ins.id(0))
    bits = ctx.bits(ins.result_type)
    if ctx.has_bf16 and "f" in (frm, to) and (
            bfloat16.is_bf16(ctx, ins.result_type) or
            bfloat16.is_bf16(ctx, ctx.m.defs[ins.id(0)].result_type)):
        ctx.set(ins, bfloat16.convert(ctx, ins, src, frm, to, bits))
        return
    if frm == to and src.bit_size == bits:
        # (an OpFConvert to its operand's type, which validation warns about, is a copy)
        ctx.set(ins, src)
        return
    ctx.set(ins, ctx.b.alu(f"{frm}2{to}{bits}", bits, src.num_components, src))


def op_convert_f_to_u(ctx: TranslationContext, ins: Instruction) -> None:
    _conv(ctx, ins, "f", "u")


def op_convert_f_to_s(ctx: TranslationContext, ins: Instruction) -> None:
    _conv(ctx, ins, "f", "i")


def op_convert_s_to_f(ctx: TranslationContext, ins: Instruction) -> None:
    _conv(ctx, ins, "i", "f")


def op_convert_u_to_f(ctx: TranslationContext, ins: Instruction) -> None:
    _conv(ctx, ins, "u", "f")


def op_u_convert(ctx: TranslationContext, ins: Instruction) -> None:
    _conv(ctx, ins, "u", "u")


def op_s_convert(ctx: TranslationContext, ins: Instruction) -> None:
    _conv(ctx, ins, "i", "i")


def op_f_convert(ctx: TranslationContext, ins: Instruction) -> None:
    mode = ctx.m.decoration(ins.result_id or 0, "FPRoundingMode")
    if mode and mode[0] != "RTE":
        # the conversions round to nearest even (the mode register radcc's ABI sets)
        raise err(f"FPRoundingMode {mode[0]} is not supported (only RTE, the default "
                  "rounding)", ins)
    _conv(ctx, ins, "f", "f")


def op_quantize_to_f16(ctx: TranslationContext, ins: Instruction) -> None:
    src = get_value(ctx, ins.id(0))
    h = ctx.b.alu("f2f16", 16, src.num_components, src)
    ctx.set(ins, ctx.b.alu("f2f32", 32, src.num_components, h))


def op_bitcast(ctx: TranslationContext, ins: Instruction) -> None:
    assert ins.result_type is not None
    src = get_value(ctx, ins.id(0))
    bits, n = ctx.bits(ins.result_type), ctx.comps(ins.result_type)
    if bits == src.bit_size and n == src.num_components:
        ctx.set(ins, src)
    else:
        ctx.set(ins, ctx.b.alu("bitcast", bits, n, src))


def op_is_nan(ctx: TranslationContext, ins: Instruction) -> None:
    x = get_value(ctx, ins.id(0))
    ctx.set(ins, ctx.b.alu("fneu", 1, x.num_components, x, x))


def op_any(ctx: TranslationContext, ins: Instruction) -> None:
    _reduce_bool(ctx, ins, "ior")


def op_all(ctx: TranslationContext, ins: Instruction) -> None:
    _reduce_bool(ctx, ins, "iand")


def _reduce_bool(ctx: TranslationContext, ins: Instruction, op: str) -> None:
    parts = ctx.b.channels(get_value(ctx, ins.id(0)))
    acc = parts[0]
    for p in parts[1:]:
        acc = ctx.b.alu(op, 1, 1, acc, p)
    ctx.set(ins, acc)


def dot(ctx: TranslationContext, a: Value, b_: Value) -> Value:
    pa, pb = ctx.b.channels(a), ctx.b.channels(b_)
    acc = ctx.b.alu("fmul", a.bit_size, 1, pa[0], pb[0])
    for x, y in zip(pa[1:], pb[1:], strict=True):
        acc = ctx.b.alu("ffma", a.bit_size, 1, x, y, acc)
    return acc


def op_dot(ctx: TranslationContext, ins: Instruction) -> None:
    ctx.set(ins, dot(ctx, get_value(ctx, ins.id(0)), get_value(ctx, ins.id(1))))


# OpSDot / OpUDot / OpSUDot (and their AccSat forms): the signedness of the two
# operands' components
INT_DOTS = {"OpSDot": (True, True), "OpUDot": (False, False), "OpSUDot": (True, False),
            "OpSDotAccSat": (True, True), "OpUDotAccSat": (False, False),
            "OpSUDotAccSat": (True, False)}


def op_int_dot(ctx: TranslationContext, ins: Instruction) -> None:
    """SPV_KHR_integer_dot_product's integer dot products (core in 1.6): the components
    (of vectors, or the four bytes of 32-bit scalars with PackedVectorFormat4x8Bit)
    sign- or zero-extended to the result's width, multiplied and summed with wrapping
    (exact for 8-bit components into 32 bits). The ``AccSat`` forms add the Accumulator
    with saturation: signed unless both operands are unsigned (`sat_add`)."""
    assert ins.result_type is not None
    sa, sb = INT_DOTS[ins.opname]
    acc_sat = ins.opname.endswith("AccSat")
    n_vec = 3 if acc_sat else 2  # operands before the optional PackedVectorFormat
    bits = ctx.bits(ins.result_type)
    a, b = get_value(ctx, ins.id(0)), get_value(ctx, ins.id(1))
    if len(ins.operands) > n_vec and bits == 32:
        # four packed bytes into 32 bits: NIR's [s|u|su]dot_4x8_[iu]add with a zero
        # accumulator (lower_math expands it where the target has no v_dot4)
        op = next(k for k, v in DOT_4X8.items() if v == (sa, sb))
        r = ctx.b.alu(op, 32, 1, a, b, ctx.b.imm(0))
        if acc_sat:
            r = sat_add(ctx, r, get_value(ctx, ins.id(2)), signed=sa or sb)
        ctx.set(ins, r)
        return

    def comps(v: Value, signed: bool) -> list[Value]:
        if len(ins.operands) > n_vec:  # PackedVectorFormat4x8Bit: four bytes of a scalar
            ext = "ibfe" if signed else "ubfe"
            parts = [ctx.b.alu(ext, 32, 1, v, ctx.b.imm(8 * k), ctx.b.imm(8))
                     for k in range(4)]
            src_bits = 32
        else:
            parts, src_bits = ctx.b.channels(v), v.bit_size
        if src_bits == bits:
            return parts
        conv = f"{'i' if signed else 'u'}2{'i' if signed else 'u'}{bits}"
        return [ctx.b.alu(conv, bits, 1, x) for x in parts]

    acc: Value | None = None
    for x, y in zip(comps(a, sa), comps(b, sb), strict=True):
        prod = ctx.b.alu("imul", bits, 1, x, y)
        acc = prod if acc is None else ctx.b.alu("iadd", bits, 1, acc, prod)
    assert acc is not None
    if acc_sat:
        acc = sat_add(ctx, acc, get_value(ctx, ins.id(2)), signed=sa or sb)
    ctx.set(ins, acc)


def sat_add(ctx: TranslationContext, x: Value, y: Value, signed: bool) -> Value:
    """x + y saturated to the range of their (common) width: unsigned, the maximum where
    the sum wrapped below x; signed, the minimum or maximum (by y's sign) where x and y
    have one sign and the sum the other."""
    b, bits = ctx.b, x.bit_size
    mask = (1 << bits) - 1
    s = b.alu("iadd", bits, 1, x, y)
    if not signed:
        return b.alu("bcsel", bits, 1, b.alu("ult", 1, 1, s, x), b.imm(mask, bits), s)
    zero = b.imm(0, bits)
    over = b.alu("ilt", 1, 1, b.alu("iand", bits, 1, b.alu("ixor", bits, 1, s, x),
                                    b.alu("ixor", bits, 1, s, y)), zero)
    lim = b.alu("bcsel", bits, 1, b.alu("ilt", 1, 1, y, zero),
                b.imm(1 << (bits - 1), bits), b.imm(mask >> 1, bits))
    return b.alu("bcsel", bits, 1, over, lim, s)


def op_fdot2_mix(ctx: TranslationContext, ins: Instruction) -> None:
    """SPV_VALVE_mixed_float_dot_product's OpFDot2MixAcc32VALVE / OpFDot2MixAcc16VALVE
    (RDNA3's v_dot2_f32_f16 / v_dot2_f16_f16): C + A.x*B.x + A.y*B.y of 2-component f16
    A and B, in f32 (the products of f16 values are exact in f32), rounded to the
    result's type (f32, or f16 for the Acc16 form)."""
    assert ins.result_type is not None
    a, b = get_value(ctx, ins.id(0)), get_value(ctx, ins.id(1))
    acc = get_value(ctx, ins.id(2))
    if a.bit_size != 16 or b.bit_size != 16:
        raise err(f"{ins.opname} of {a.bit_size}-bit operands (f16 only)", ins)

    def f32(v: Value) -> Value:
        return v if v.bit_size == 32 else ctx.b.alu("f2f32", 32, 1, v)

    r = f32(acc)
    for k in range(2):
        r = ctx.b.alu("ffma", 32, 1, f32(ctx.b.channel(a, k)), f32(ctx.b.channel(b, k)), r)
    bits = ctx.bits(ins.result_type)
    ctx.set(ins, r if bits == 32 else ctx.b.alu(f"f2f{bits}", bits, 1, r))


def op_vector_times_scalar(ctx: TranslationContext, ins: Instruction) -> None:
    v, s = get_value(ctx, ins.id(0)), get_value(ctx, ins.id(1))
    ctx.set(ins, ctx.b.alu("fmul", v.bit_size, v.num_components, v,
                           ctx.b.splat(s, v.num_components)))


def op_matrix_times_scalar(ctx: TranslationContext, ins: Instruction) -> None:
    mat = get_tv(ctx, ins.id(0))
    s = get_value(ctx, ins.id(1))
    ctx.set(ins, [ctx.b.alu("fmul", c.bit_size, c.num_components, c,
                            ctx.b.splat(s, c.num_components)) for c in mat])


def op_matrix_times_vector(ctx: TranslationContext, ins: Instruction) -> None:
    mat, vec = get_tv(ctx, ins.id(0)), get_value(ctx, ins.id(1))
    ctx.set(ins, _mat_vec(ctx, mat, vec))


def _mat_vec(ctx: TranslationContext, mat: list[Value], vec: Value) -> Value:
    comps = ctx.b.channels(vec)
    acc = ctx.b.alu("fmul", vec.bit_size, mat[0].num_components, mat[0],
                    ctx.b.splat(comps[0], mat[0].num_components))
    for col, c in zip(mat[1:], comps[1:], strict=True):
        acc = ctx.b.alu("ffma", vec.bit_size, col.num_components, col,
                        ctx.b.splat(c, col.num_components), acc)
    return acc


def op_vector_times_matrix(ctx: TranslationContext, ins: Instruction) -> None:
    vec, mat = get_value(ctx, ins.id(0)), get_tv(ctx, ins.id(1))
    ctx.set(ins, ctx.b.vec([dot(ctx, vec, col) for col in mat]))


def op_matrix_times_matrix(ctx: TranslationContext, ins: Instruction) -> None:
    a, bm = get_tv(ctx, ins.id(0)), get_tv(ctx, ins.id(1))
    ctx.set(ins, [_mat_vec(ctx, a, col) for col in bm])


def op_transpose(ctx: TranslationContext, ins: Instruction) -> None:
    mat = get_tv(ctx, ins.id(0))
    cols = [ctx.b.channels(c) for c in mat]
    rows = len(cols[0])
    ctx.set(ins, [ctx.b.vec([cols[j][i] for j in range(len(cols))]) for i in range(rows)])


def op_outer_product(ctx: TranslationContext, ins: Instruction) -> None:
    a, bv = get_value(ctx, ins.id(0)), get_value(ctx, ins.id(1))
    ctx.set(ins, [ctx.b.alu("fmul", a.bit_size, a.num_components, a,
                            ctx.b.splat(c, a.num_components))
                  for c in ctx.b.channels(bv)])


def _carry_like(ctx: TranslationContext, ins: Instruction, lo_op: str, hi_op: str) -> None:
    a, b_ = get_value(ctx, ins.id(0)), get_value(ctx, ins.id(1))
    n = a.num_components
    ctx.set(ins, [ctx.b.alu(lo_op, a.bit_size, n, a, b_),
                  ctx.b.alu(hi_op, a.bit_size, n, a, b_)])


def op_i_add_carry(ctx: TranslationContext, ins: Instruction) -> None:
    _carry_like(ctx, ins, "iadd", "uadd_carry")


def op_i_sub_borrow(ctx: TranslationContext, ins: Instruction) -> None:
    _carry_like(ctx, ins, "isub", "usub_borrow")


def op_u_mul_extended(ctx: TranslationContext, ins: Instruction) -> None:
    _carry_like(ctx, ins, "imul", "umul_high")


def op_s_mul_extended(ctx: TranslationContext, ins: Instruction) -> None:
    _carry_like(ctx, ins, "imul", "imul_high")
