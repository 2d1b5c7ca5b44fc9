"""Cooperative matrices (SPV_KHR_cooperative_matrix) on GFX11 WMMA, as RADV lowers them
(Mesa's radv_nir_lower_cooperative_matrix.c) before ACO sees them.

A cooperative matrix value is the invocation's part of it: a list of scalar leaves of
its component type (the translation's aggregate form, so local variables, phis,
composite construct/extract/insert and function calls handle it as an array). For
16x16 tiles its length depends on the wave size W:

- MatrixA / MatrixB (16 x 16): 16 elements. Lane l holds row l % 16 of A and column
  l % 16 of B, element k being column / row k; lanes 16-63 hold copies (WMMA reads
  replicated A and B, ISA guide 7.9).
- MatrixAccumulator (16 x 16): 256 / W elements (8 in wave32, 4 in wave64); element j
  of lane l is (row j * W/16 + l / 16, column l % 16).

Supported (RADV's GFX11 set of component types): A/B of float16 (accumulators float16
or float32), bfloat16 (accumulators bfloat16 or float32; `bfloat16.py`) or 8-bit
integers (accumulators 32-bit integers), subgroup scope, in one of two layouts chosen
by the type:

- tiled, when rows and columns are multiples of 16 (up to `types_consts.MAX_CMAT`
  elements): 16x16 tiles as above, the elements of tile (i, j) after those of the
  tiles before it in row-major order; OpCooperativeMatrixMulAddKHR is one WMMA per
  tile of D and step of K (with saturating accumulation, each step saturates);
- flexible, every other size (VK_NV_cooperative_matrix2's
  cooperativeMatrixFlexibleDimensions, which RADV does not offer: RADV lists 16x16x16
  only, so llama.cpp's 4x2 accumulators and ncnn's 1x1 matrices at their default
  specialization constants cannot run there): every invocation holds the whole matrix,
  element (r, c) at index r * columns + c, replicated in every lane as A and B are in
  lanes 16-63 of a tile. OpCooperativeMatrixMulAddKHR is per-lane arithmetic, M*N*K
  multiply-adds: floats as float32 (``ffma``; a product of two float16 or bfloat16 is
  exact there), rounded once to the result's type; 8-bit integers sign- or
  zero-extended (the Matrix*SignedComponents operands), the K products summed exactly
  in 32 bits (K <= 256) and added to C, wrapping or, with SaturatingAccumulation,
  saturating (signed when any operand is signed, else unsigned). Loads read every
  element (the addresses do not depend on the lane: uniform where the pointer is);
  stores write the same values from every lane. Up to `types_consts.MAX_FLEX` (256)
  elements: 256 32-bit elements fill a lane's 256 VGPRs; larger matrices are refused
  naming the type, its element count and its declaration's word offset. The corpus of
  issue 9 needs at most 8 (ggml's 4x2, ncnn's 1x1), so a layout partitioned across
  lanes (element e in lane e % W) is not needed yet.

A MulAdd mixing the two (e.g. 16x8 times 8x16 into 16x16 tiles) is refused by name;
other types are refused naming the type and the word offset of its declaration.

The instructions on tiles (the flexible layout's are above):

- ``OpCooperativeMatrixLoadKHR``/``StoreKHR``: one scalar access per element; the
  element at (major m, minor n) of the layout is at Pointer + m * Stride (in units of
  the pointer's pointee type) + n (in units of the component type), A's layout
  transposed (its lanes hold rows). Any invocation may store: the copies in lanes
  16-63 store the same values to the same addresses.
- ``OpCooperativeMatrixMulAddKHR``: the MIR intrinsic ``cmat_muladd_amd`` (NIR's
  name) with the 16 + 16 + 256/W leaves as sources and ``attrs`` ``ab``/``cd`` (the
  element types: ``f16``/``bf16``/``iu8``, ``f16``/``bf16``/``f32``/``i32``), ``a_signed``,
  ``b_signed``, ``saturate``; bfloat16 into float16 accumulators (no WMMA has it) widens
  the accumulator to float32 around ``v_wmma_f32_16x16x16_bf16``. The result is a
  vector of 256/W components.
- ``OpCooperativeMatrixLengthKHR``: 16 or 256/W per tile; rows x columns when flexible.
- Element-wise arithmetic (negation, add, sub, mul, div, ``OpMatrixTimesScalar``) and
  conversions between matrices of the same use: per element (bfloat16 conversions as
  `bfloat16.py`; bfloat16 arithmetic is refused).
"""

from __future__ import annotations

import dataclasses

from ..mir import Value
from ..spirv.binary import Instruction
from ..spirv.types import TypeCooperativeMatrix
from . import bfloat16
from .alu import SIMPLE, emit_alu
from .context import TV, MemPtr, TranslationContext, err
from .layout import explicit_size, natural_layout
from .types_consts import N_CMAT as N
from .types_consts import (
    USE_A,
    USE_ACC,
    USE_B,
    CmatDesc,
    cmat_desc,
    cmat_length,
    cmat_tile_length,
    cmat_tiles,
    get_tv,
    host_int,
)
from .variables import load_mem, store_mem

ROW_MAJOR, COLUMN_MAJOR = 0, 1


def is_cmat(ctx: TranslationContext, tid: int | None) -> bool:
    return tid is not None and isinstance(ctx.m.types.get(tid), TypeCooperativeMatrix)


def _addresses(ctx: TranslationContext, ptr: TV, d: CmatDesc, layout_id: int,
               stride_id: int | None) -> list[MemPtr]:
    """One pointer per element (module docstring)."""
    if not isinstance(ptr, MemPtr):
        raise err("cooperative matrix load/store through a pointer that is not to buffer "
                  "or workgroup memory", ctx.ins)
    layout = host_int(ctx, layout_id)
    if layout not in (ROW_MAJOR, COLUMN_MAJOR):
        raise err(f"cooperative matrix layout {layout} is not supported", ctx.ins)
    if d.use == USE_A:  # A's lanes hold rows: its register layout is the transpose
        layout = ROW_MAJOR + COLUMN_MAJOR - layout
    b = ctx.b
    if stride_id is None:
        raise err("cooperative matrix load/store without a Stride", ctx.ins)
    stride = get_tv(ctx, stride_id)
    if not isinstance(stride, Value) or stride.num_components != 1:
        raise err("the Stride of a cooperative matrix load/store must be an integer scalar",
                  ctx.ins)
    if stride.bit_size != 32:
        stride = b.alu("u2u32", 32, 1, stride)
    pointee = explicit_size(ctx, ptr.tid) if ptr.explicit else natural_layout(ctx, ptr.tid)[0]
    esize = d.bits // 8
    major_bytes = b.alu("imul", 32, 1, stride, b.imm(pointee))
    if not d.tiled:
        return _flexible_addresses(ctx, ptr, d, host_int(ctx, layout_id), major_bytes)
    lane = b.intr("load_subgroup_invocation", [], 32, 1)
    inner = b.alu("iand", 32, 1, lane, b.imm(N - 1))
    assert ctx.wave_size is not None
    per = ctx.wave_size // N if d.use == USE_ACC else 1
    base_row = b.alu("ushr", 32, 1, lane, b.imm(4)) if d.use == USE_ACC else None
    offs = []
    for i in range(cmat_tile_length(ctx, d)):
        row = b.imm(i * per) if base_row is None else b.iadd_imm(base_row, i * per)
        col = inner
        if layout == ROW_MAJOR:
            row, col = col, row
        # col indexes the major dimension (times Stride), row the minor one
        offs.append(b.alu("iadd", 32, 1, b.alu("imul", 32, 1, col, major_bytes),
                          b.alu("imul", 32, 1, row, b.imm(esize))))
    tr, tc = cmat_tiles(d)
    out = []
    for t in range(tr * tc):
        # tile (i, j) starts at element (16 i, 16 j): the major index in the matrix's
        # own layout (rows for RowMajor) times Stride, the minor one times the element
        i, j = divmod(t, tc)
        major, minor = (i, j) if host_int(ctx, layout_id) == ROW_MAJOR else (j, i)
        base = None
        if major:
            base = b.alu("imul", 32, 1, major_bytes, b.imm(N * major))
        if minor:
            base = b.imm(N * minor * esize) if base is None else \
                b.iadd_imm(base, N * minor * esize)
        for off in offs:
            if base is not None:
                off = b.alu("iadd", 32, 1, off, base)
            dyn = off if ptr.dyn is None else b.alu("iadd", 32, 1, ptr.dyn, off)
            out.append(dataclasses.replace(ptr, dyn=dyn, tid=d.component, comp_stride=0,
                                           matrix_stride=0, row_major=False))
    return out


def _flexible_addresses(ctx: TranslationContext, ptr: MemPtr, d: CmatDesc, layout: int,
                        major_bytes: Value) -> list[MemPtr]:
    """The flexible layout's pointers: element (r, c) at index r * columns + c, at
    Pointer + r * Stride + c (RowMajor) or + c * Stride + r (ColumnMajor); nothing
    depends on the lane, so the addresses are uniform where the pointer is."""
    b = ctx.b
    esize = d.bits // 8
    out = []
    for r in range(d.rows):
        for c in range(d.columns):
            major, minor = (r, c) if layout == ROW_MAJOR else (c, r)
            off = b.imm(minor * esize)
            if major:
                off = b.alu("iadd", 32, 1, b.alu("imul", 32, 1, major_bytes, b.imm(major)),
                            off)
            dyn = off if ptr.dyn is None else b.alu("iadd", 32, 1, ptr.dyn, off)
            out.append(dataclasses.replace(ptr, dyn=dyn, tid=d.component, comp_stride=0,
                                           matrix_stride=0, row_major=False))
    return out


def op_load(ctx: TranslationContext, ins: Instruction) -> None:
    assert ins.result_type is not None
    d = cmat_desc(ctx, ins.result_type)
    ptrs = _addresses(ctx, get_tv(ctx, ins.id(0)), d, ins.id(1),
                      ins.id(2) if len(ins.operands) > 2 and ins.operands[2].kind == "IdRef"
                      else None)
    ctx.set(ins, [load_mem(ctx, p) for p in ptrs])


def op_store(ctx: TranslationContext, ins: Instruction) -> None:
    obj = get_tv(ctx, ins.id(1))
    d = cmat_desc(ctx, _type_of(ctx, ins.id(1)))
    ptr = get_tv(ctx, ins.id(0))
    if isinstance(ptr, MemPtr) and ptr.space in ("ubo", "push"):
        raise err("store to read-only memory", ins)
    ptrs = _addresses(ctx, ptr, d, ins.id(2),
                      ins.id(3) if len(ins.operands) > 3 and ins.operands[3].kind == "IdRef"
                      else None)
    if not isinstance(obj, list) or len(obj) != len(ptrs):
        raise err("OpCooperativeMatrixStoreKHR of a value that is not the matrix", ins)
    for p, v in zip(ptrs, obj, strict=True):
        store_mem(ctx, p, v)


def _type_of(ctx: TranslationContext, vid: int) -> int:
    ins = ctx.m.defs.get(vid)
    if ins is None or ins.result_type is None:
        raise err(f"%{vid} has no type", ctx.ins)
    return ins.result_type


def op_length(ctx: TranslationContext, ins: Instruction) -> None:
    ctx.set(ins, ctx.b.imm(cmat_length(ctx, cmat_desc(ctx, ins.id(0)))))


# the A/B and C/D element types of GFX11's WMMA instructions (`radcc.isa.wmma`)
_WMMA_TYPES = frozenset({("f16", "f32"), ("f16", "f16"), ("bf16", "f32"), ("bf16", "bf16"),
                         ("iu8", "i32")})


def _wmma_type(d: CmatDesc) -> str:
    """The WMMA element type name of a matrix's components (signedness aside)."""
    if d.base in ("int", "uint"):
        return "iu8" if d.bits == 8 else f"i{d.bits}"
    return "bf16" if d.base == "bfloat" else f"f{d.bits}"


_OPERANDS = {"MatrixASignedComponentsKHR": 1, "MatrixBSignedComponentsKHR": 2,
             "MatrixCSignedComponentsKHR": 4, "MatrixResultSignedComponentsKHR": 8,
             "SaturatingAccumulationKHR": 16}


def op_muladd(ctx: TranslationContext, ins: Instruction) -> None:
    assert ins.result_type is not None
    da, db = cmat_desc(ctx, _type_of(ctx, ins.id(0))), cmat_desc(ctx, _type_of(ctx, ins.id(1)))
    dc, dr = cmat_desc(ctx, _type_of(ctx, ins.id(2))), cmat_desc(ctx, ins.result_type)
    if (da.use, db.use, dc.use, dr.use) != (USE_A, USE_B, USE_ACC, USE_ACC):
        raise err("OpCooperativeMatrixMulAddKHR needs matrices A, B and two accumulators",
                  ins)
    if da.columns != db.rows or (da.rows, db.columns) != (dc.rows, dc.columns) or \
            (dc.rows, dc.columns) != (dr.rows, dr.columns):
        raise err(f"OpCooperativeMatrixMulAddKHR of {da.spelling()}, {db.spelling()}, "
                  f"{dc.spelling()} -> {dr.spelling()}: the sizes do not match", ins)
    flags = 0
    if len(ins.operands) > 3:
        o = ins.operands[3]
        flags = int(o.value) if isinstance(o.value, int) else sum(
            _OPERANDS.get(n, 0) for n in str(o.value).split("|"))
    tiled = [x.tiled for x in (da, db, dc)]
    if not any(tiled):
        _flexible_muladd(ctx, ins, da, db, dr, flags)
        return
    if not all(tiled):
        raise err(f"OpCooperativeMatrixMulAddKHR of {da.spelling()}, {db.spelling()}, "
                  f"{dc.spelling()} -> {dr.spelling()} mixes 16x16 tiles with the flexible "
                  "layout (a side of 16x16 tiles and a side that is not) is not supported",
                  ins)
    ab, cd = _wmma_type(da), _wmma_type(dr)
    # bfloat16 into float16 (llama.cpp's bf16 _f16acc variants): no WMMA does it; the
    # float16 accumulator is widened, multiplied on the float32 WMMA and rounded back
    widen = (ab, cd) == ("bf16", "f16")
    if widen:
        cd = "f32"
    if _wmma_type(db) != ab or _wmma_type(dc) != _wmma_type(dr) or \
            (ab, cd) not in _WMMA_TYPES:
        raise err(f"OpCooperativeMatrixMulAddKHR of {da.spelling()}, {db.spelling()}, "
                  f"{dc.spelling()} -> {dr.spelling()} is not a WMMA", ins)
    a, b_, c = (get_tv(ctx, ins.id(k)) for k in range(3))
    if not (isinstance(a, list) and isinstance(b_, list) and isinstance(c, list)):
        raise err("OpCooperativeMatrixMulAddKHR of values that are not matrices", ins)
    # tiles: D(i, j) = C(i, j) + sum over k of A(i, k) B(k, j), one WMMA per k in order
    tm, tk = cmat_tiles(da)
    tn = cmat_tiles(db)[1]
    la, lc = cmat_tile_length(ctx, da), cmat_tile_length(ctx, dc)
    out: list[TV] = []
    for i in range(tm):
        for j in range(tn):
            acc = c[(i * tn + j) * lc:(i * tn + j + 1) * lc]
            if widen:
                acc = [ctx.b.alu("f2f32", 32, 1, x) for x in acc]  # type: ignore[arg-type]
            for k in range(tk):
                ta = a[(i * tk + k) * la:(i * tk + k + 1) * la]
                tb = b_[(k * tn + j) * la:(k * tn + j + 1) * la]
                v = ctx.b.intr("cmat_muladd_amd", [*ta, *tb, *acc], 32 if widen else dr.bits,
                               lc, ab=ab, cd=cd, a_signed=bool(flags & 1),
                               b_signed=bool(flags & 2), saturate=bool(flags & 16))
                acc = [ctx.b.channel(v, x) for x in range(lc)]
            if widen:
                acc = [ctx.b.alu("f2f16", 16, 1, x) for x in acc]  # type: ignore[arg-type]
            out += acc
    ctx.set(ins, out)


def _widen(ctx: TranslationContext, d: CmatDesc, v: Value, signed: bool) -> Value:
    """An element as the flexible MulAdd computes with it: floats as float32, integers
    as 32-bit integers, sign- or zero-extended."""
    b = ctx.b
    if d.base == "bfloat":
        return bfloat16.to_f32(b, v)
    if d.base == "float":
        return v if d.bits == 32 else b.alu("f2f32", 32, 1, v)
    return v if d.bits == 32 else b.alu("i2i32" if signed else "u2u32", 32, 1, v)


def _add_sat(ctx: TranslationContext, c: Value, p: Value, signed: bool) -> Value:
    """c + p saturated to 32-bit integers: signed (the sum overflows when c and p have
    one sign and the sum the other) or unsigned (the sum wraps below c)."""
    b = ctx.b
    s = b.alu("iadd", 32, 1, c, p)
    if signed:
        over = b.alu("ilt", 1, 1, b.alu("iand", 32, 1, b.alu("ixor", 32, 1, c, s),
                                        b.alu("ixor", 32, 1, p, s)), b.imm(0))
        limit = b.alu("bcsel", 32, 1, b.alu("ilt", 1, 1, c, b.imm(0)), b.imm(1 << 31),
                      b.imm((1 << 31) - 1))
        return b.alu("bcsel", 32, 1, over, limit, s)
    return b.alu("bcsel", 32, 1, b.alu("ult", 1, 1, s, c), b.imm(0xFFFFFFFF), s)


def _flexible_muladd(ctx: TranslationContext, ins: Instruction, da: CmatDesc, db: CmatDesc,
                     dr: CmatDesc, flags: int) -> None:
    """D = A x B + C in the flexible layout (module docstring): per invocation, M*N*K
    multiply-adds."""
    b = ctx.b
    a, b_, c = (get_tv(ctx, ins.id(k)) for k in range(3))
    if not (isinstance(a, list) and isinstance(b_, list) and isinstance(c, list)) or \
            not all(isinstance(x, Value) for x in (*a, *b_, *c)):
        raise err("OpCooperativeMatrixMulAddKHR of values that are not matrices", ins)
    m, k, n = da.rows, da.columns, db.columns
    dc = cmat_desc(ctx, _type_of(ctx, ins.id(2)))
    wa = [_widen(ctx, da, x, bool(flags & 1)) for x in a]  # type: ignore[arg-type]
    wb = [_widen(ctx, db, x, bool(flags & 2)) for x in b_]  # type: ignore[arg-type]
    wc = [_widen(ctx, dc, x, bool(flags & 4)) for x in c]  # type: ignore[arg-type]
    out: list[TV] = []
    for i in range(m):
        for j in range(n):
            if dr.base in ("float", "bfloat"):
                acc = wc[i * n + j]
                for q in range(k):
                    acc = b.alu("ffma", 32, 1, wa[i * k + q], wb[q * n + j], acc)
                out.append(acc if dr.base == "float" and dr.bits == 32 else
                           bfloat16.from_f32(b, acc) if dr.base == "bfloat" else
                           b.alu(f"f2f{dr.bits}", dr.bits, 1, acc))
                continue
            prod = b.alu("imul", 32, 1, wa[i * k], wb[j])
            for q in range(1, k):
                prod = b.alu("iadd", 32, 1, prod,
                             b.alu("imul", 32, 1, wa[i * k + q], wb[q * n + j]))
            if flags & 16:
                out.append(_add_sat(ctx, wc[i * n + j], prod, bool(flags & 0xF)))
            else:
                out.append(b.alu("iadd", 32, 1, wc[i * n + j], prod))
    ctx.set(ins, out)


_CONV = {"OpConvertFToU": ("f", "u"), "OpConvertFToS": ("f", "i"),
         "OpConvertSToF": ("i", "f"), "OpConvertUToF": ("u", "f"),
         "OpUConvert": ("u", "u"), "OpSConvert": ("i", "i"), "OpFConvert": ("f", "f")}
ELEMENTWISE = frozenset({"OpSNegate", "OpFNegate", "OpIAdd", "OpFAdd", "OpISub", "OpFSub",
                         "OpIMul", "OpFMul", "OpSDiv", "OpUDiv", "OpFDiv",
                         "OpMatrixTimesScalar", *_CONV})


def op_elementwise(ctx: TranslationContext, ins: Instruction) -> None:
    """An arithmetic or conversion instruction whose result is a cooperative matrix."""
    assert ins.result_type is not None
    d = cmat_desc(ctx, ins.result_type)
    srcs = [get_tv(ctx, x) for x in ins.ids()]
    op = ins.opname
    src_bf = op in _CONV and bfloat16.is_bf16(ctx, _type_of(ctx, ins.id(0)))
    out: list[TV] = []
    for i in range(cmat_length(ctx, d)):
        args = [s[i] if isinstance(s, list) else s for s in srcs]
        if not all(isinstance(x, Value) for x in args):
            raise err(f"{op} on cooperative matrices of different lengths", ins)
        if op in _CONV:
            frm, to = _CONV[op]
            x = args[0]
            assert isinstance(x, Value)
            if src_bf or d.base == "bfloat":
                out.append(bfloat16.convert_value(ctx.b, x, frm, to, d.bits, src_bf,
                                                  d.base == "bfloat", 1))
                continue
            out.append(x if frm == to and frm in "iu" and x.bit_size == d.bits
                       else ctx.b.alu(f"{frm}2{to}{d.bits}", d.bits, 1, x))
        elif op == "OpMatrixTimesScalar":
            out.append(emit_alu(ctx, "fmul" if d.base == "float" else "imul", d.component,
                                args))  # type: ignore[arg-type]
        else:
            mop, swap = SIMPLE[op]
            if swap:
                args.reverse()
            out.append(emit_alu(ctx, mop, d.component, args))  # type: ignore[arg-type]
    ctx.set(ins, out)


__all__ = ["ELEMENTWISE", "CmatDesc", "is_cmat", "op_elementwise", "op_length", "op_load",
           "op_muladd", "op_store"]
