"""Types and constants (Mesa's src/compiler/spirv/spirv_to_nir.c, ``vtn_handle_type``
and ``vtn_handle_constant``): MIR types of SPIR-V types, aggregate shapes,
constants, specialization constants (``spec[SpecId]`` else the default;
``OpSpecConstantOp`` translated as ordinary instructions on constants in the
constant block), null and undef values, composites; and the value lookup.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from ..mir import (
    ArrayType,
    MType,
    StructType,
    ValType,
    Value,
    mask,
)
from ..mir_builder import float_bits
from ..spirv import grammar as g
from ..spirv.binary import Instruction
from ..spirv.types import (
    TypeArray,
    TypeBool,
    TypeCooperativeMatrix,
    TypeFloat,
    TypeMatrix,
    TypePointer,
    TypeRuntimeArray,
    TypeStruct,
    TypeVector,
)
from . import bfloat16
from .context import TV, SpecValue, TranslationContext, err, fold_value

# --- cooperative matrices (SPV_KHR_cooperative_matrix; the translation: coopmat.py) ---
USE_A, USE_B, USE_ACC = 0, 1, 2
USES = {USE_A: "MatrixA", USE_B: "MatrixB", USE_ACC: "MatrixAccumulator"}
SUBGROUP = 3  # Scope
N_CMAT = 16  # M = N = K of one WMMA: larger matrices are tiles of it
MAX_CMAT = 64 * 64  # elements of the largest tiled matrix (16 tiles: 256 per lane of A or B)
# elements of the largest matrix held whole in every invocation (coopmat.py's flexible
# layout): 256 32-bit elements fill a lane's 256 VGPRs, so a larger one could never be in
# registers at once (and a MulAdd holds A, B and C together)
MAX_FLEX = 256


@dataclass(frozen=True)
class CmatDesc:
    """A cooperative matrix type with its constants resolved."""

    component: int  # type id
    base: str  # "float", "bfloat" (bfloat16), "int", "uint"
    bits: int
    rows: int
    columns: int
    use: int

    @property
    def tiled(self) -> bool:
        """Held as 16x16 WMMA tiles (rows and columns multiples of 16); otherwise the
        flexible layout: the whole matrix in every invocation (coopmat.py)."""
        return self.rows % N_CMAT == 0 and self.columns % N_CMAT == 0

    def spelling(self) -> str:
        return (f"{self.base}{self.bits} {self.rows}x{self.columns} "
                f"{USES.get(self.use, f'use {self.use}')}")


def cmat_desc(ctx: TranslationContext, tid: int) -> CmatDesc:
    """The checked description of cooperative matrix type `tid` (spirv_to_mir/coopmat.py:
    RADV's GFX11 WMMA component types, subgroup scope; 16x16 tiles up to `MAX_CMAT`
    elements, any other size up to `MAX_FLEX`)."""
    t = ctx.m.types.get(tid)
    if not isinstance(t, TypeCooperativeMatrix):
        raise err(f"%{tid} is not a cooperative matrix type", ctx.ins)
    c = ctx.ty(t.component)
    base = ("bfloat" if c.bfloat16 else "float") if isinstance(c, TypeFloat) else \
        "int" if c.signed else "uint"
    c_width = c.width
    ok_types = {("float", 16), ("bfloat", 16), ("int", 8), ("uint", 8)} \
        if host_int(ctx, t.use) != USE_ACC \
        else {("float", 16), ("bfloat", 16), ("float", 32), ("int", 32), ("uint", 32)}
    d = CmatDesc(t.component, base, c_width, host_int(ctx, t.rows), host_int(ctx, t.columns),
                 host_int(ctx, t.use))
    decl = ctx.m.defs.get(tid)
    if host_int(ctx, t.scope) != SUBGROUP:
        raise err(f"cooperative matrix of type {d.spelling()}: only subgroup scope is "
                  "supported (RADV lists subgroup scope only; Vulkan's "
                  "VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10163)", decl)
    if d.use not in USES or (base, c_width) not in ok_types:
        raise err(f"cooperative matrix of type {d.spelling()} is not supported (A and B "
                  "float16, bfloat16 or 8-bit integers, accumulators float16, bfloat16, "
                  "float32 or 32-bit integers, as GFX11 WMMA's)", decl)
    n = d.rows * d.columns
    if d.tiled and not 0 < n <= MAX_CMAT:
        raise err(f"cooperative matrix of type {d.spelling()} is not supported: {n} "
                  f"elements, above the {MAX_CMAT} radcc holds as 16x16 tiles", decl)
    if not d.tiled and not 0 < n <= MAX_FLEX:
        raise err(f"cooperative matrix of type {d.spelling()} is not supported: {n} "
                  f"elements, above the {MAX_FLEX} radcc holds in every invocation when "
                  "the rows or columns are not multiples of 16 (a lane's 256 VGPRs)", decl)
    if ctx.wave_size is None:
        raise err("cooperative matrices need the target's wave size", decl)
    return d


def cmat_tile_length(ctx: TranslationContext, d: CmatDesc) -> int:
    """Elements per invocation of one 16x16 tile of a tiled matrix: 16 for A and B,
    256 / wave size for accumulators."""
    assert ctx.wave_size is not None and d.tiled
    return N_CMAT if d.use != USE_ACC else N_CMAT * N_CMAT // ctx.wave_size


def cmat_tiles(d: CmatDesc) -> tuple[int, int]:
    """The 16x16 tiles of a matrix: rows and columns of tiles."""
    return d.rows // N_CMAT, d.columns // N_CMAT


def cmat_length(ctx: TranslationContext, d: CmatDesc) -> int:
    """Elements per invocation: those of each tile, tile after tile in row-major order;
    rows x columns in the flexible layout."""
    if not d.tiled:
        return d.rows * d.columns
    tr, tc = cmat_tiles(d)
    return tr * tc * cmat_tile_length(ctx, d)



def mtype(ctx: TranslationContext, tid: int) -> MType:
    t = ctx.ty(tid)
    if ctx.is_leaf(tid):
        base, bits = ctx.scalar(tid)
        return ValType(base, bits, ctx.comps(tid))
    if isinstance(t, TypeArray):
        return ArrayType(mtype(ctx, t.element), array_length(ctx, t))
    if isinstance(t, TypeMatrix):
        return ArrayType(mtype(ctx, t.column), t.columns)
    if isinstance(t, TypeStruct):
        return StructType(tuple(mtype(ctx, x) for x in t.members))
    if isinstance(t, TypePointer) and t.storage_class == "PhysicalStorageBuffer":
        return ValType("uint", 64, 1)  # a buffer device address is held as its address
    if isinstance(t, TypeCooperativeMatrix):
        return ArrayType(mtype(ctx, t.component), agg_len(ctx, tid))
    if isinstance(t, TypePointer):
        raise err(f"pointer values ({t.storage_class} pointers) are not supported", ctx.ins)
    raise err(f"type %{tid} ({type(t).__name__}) cannot be a local variable", ctx.ins)


def array_length(ctx: TranslationContext, t: TypeArray) -> int:
    n = host_const(ctx, t.length)
    return int(n[0])


def elem_tid(ctx: TranslationContext, tid: int, index: int) -> int:
    t = ctx.ty(tid)
    if isinstance(t, TypeStruct):
        return t.members[index]
    if isinstance(t, TypeArray | TypeRuntimeArray):
        return t.element
    if isinstance(t, TypeMatrix):
        return t.column
    if isinstance(t, TypeVector | TypeCooperativeMatrix):
        return t.component
    raise err(f"cannot index into type %{tid}", ctx.ins)


def agg_len(ctx: TranslationContext, tid: int) -> int:
    t = ctx.ty(tid)
    if isinstance(t, TypeStruct):
        return len(t.members)
    if isinstance(t, TypeArray):
        return array_length(ctx, t)
    if isinstance(t, TypeMatrix):
        return t.columns
    if isinstance(t, TypeCooperativeMatrix):
        return cmat_length(ctx, cmat_desc(ctx, tid))
    raise err(f"type %{tid} is not an aggregate", ctx.ins)


def host_const(ctx: TranslationContext, cid: int) -> tuple[int, ...]:
    """Raw bits of a (spec) constant, folded at translation time."""
    v = const_tv(ctx, cid)
    if not isinstance(v, Value):
        raise err(f"%{cid} is not a scalar or vector constant", ctx.ins)
    bits = fold_value(v)
    if bits is None:
        raise err(f"%{cid} is not a constant", ctx.ins)
    return bits


def host_int(ctx: TranslationContext, cid: int) -> int:
    return host_const(ctx, cid)[0]


def _raw(ctx: TranslationContext, value: SpecValue, tid: int) -> int:
    base, bits = ctx.scalar(tid)
    if base == "float":
        if ctx.has_bf16 and bfloat16.is_bf16(ctx, tid):
            return bfloat16.bf16_bits(float(value))
        return float_bits(float(value), bits)
    return int(value) & mask(bits)


def const_tv(ctx: TranslationContext, cid: int) -> TV:
    if cid in ctx.consts:
        return ctx.consts[cid]
    saved, ctx.b = ctx.b, ctx.cb
    try:
        v = _make_const(ctx, cid)
    finally:
        ctx.b = saved
    ctx.consts[cid] = v
    return v


def _make_const(ctx: TranslationContext, cid: int) -> TV:
    m = ctx.m
    c = m.constants.get(cid)
    sc = m.spec_constants.get(cid)
    if cid in m.undefs:
        return undef_tv(ctx, m.undefs[cid])
    if c is not None:
        tid = c.type
        if c.null:
            return null_tv(ctx, tid)
        if c.constituents:
            return composite(ctx, tid, [const_tv(ctx, x) for x in c.constituents])
        raw = c.bits if not isinstance(ctx.ty(tid), TypeBool) else int(bool(c.value))
        return ctx.cb.const(ctx.bits(tid), [raw])
    if sc is not None:
        tid = sc.type
        if sc.opname == "OpSpecConstantOp":
            info = g.opcode(sc.op)
            fake = Instruction(info, sc.op, sc.type, sc.id, tuple(sc.op_operands),
                               m.defs[cid].offset)
            saved, saved_in = ctx.ins, ctx.in_spec_op
            ctx.in_spec_op = True
            try:
                ctx.translate(ctx, fake)
            finally:
                ctx.ins, ctx.in_spec_op = saved, saved_in
            return ctx.spec_result.pop(cid)
        if sc.constituents:
            return composite(ctx, tid, [const_tv(ctx, x) for x in sc.constituents])
        if sc.spec_id is not None and sc.spec_id in ctx.spec:
            raw = _raw(ctx, ctx.spec[sc.spec_id], tid)
        elif isinstance(ctx.ty(tid), TypeBool):
            raw = int(bool(sc.value))
        else:
            raw = sc.bits
        return ctx.cb.const(ctx.bits(tid), [raw])
    raise err(f"%{cid} is not a constant", ctx.ins)


def null_tv(ctx: TranslationContext, tid: int) -> TV:
    if ctx.is_leaf(tid):
        return ctx.b.const(ctx.bits(tid), [0] * ctx.comps(tid))
    return [null_tv(ctx, elem_tid(ctx, tid, i)) for i in range(agg_len(ctx, tid))]


def undef_tv(ctx: TranslationContext, tid: int) -> TV:
    if ctx.is_leaf(tid):
        return ctx.b.undef(ctx.bits(tid), ctx.comps(tid))
    return [undef_tv(ctx, elem_tid(ctx, tid, i)) for i in range(agg_len(ctx, tid))]


def composite(ctx: TranslationContext, tid: int, parts: list[TV]) -> TV:
    """A value of type tid from its constituents (vectors may take vector parts)."""
    if ctx.is_leaf(tid):
        scal: list[Value] = []
        for p in parts:
            scal += ctx.b.channels(p)
        consts = [fold_value(s) for s in scal]
        if all(c is not None for c in consts) and ctx.b is ctx.cb:
            return ctx.b.const(ctx.bits(tid), [cast(tuple, c)[0] for c in consts])
        return ctx.b.vec(scal)
    if isinstance(ctx.ty(tid), TypeCooperativeMatrix) and len(parts) == 1:
        # a cooperative matrix's OpCompositeConstruct: every element the one constituent
        return [parts[0]] * cmat_length(ctx, cmat_desc(ctx, tid))
    return list(parts)


def get_tv(ctx: TranslationContext, vid: int) -> TV:
    fc = ctx.fctx
    if fc is not None and vid in fc.vals:
        return fc.vals[vid]
    consts = ctx.consts  # (`const_tv`'s, made once: constants are no globals)
    if vid in consts:
        return consts[vid]
    if vid in ctx.globals:
        return ctx.globals[vid]
    if ctx.m.is_constant(vid) or vid in ctx.m.undefs:
        return const_tv(ctx, vid)
    raise err(f"%{vid} is used before it is defined (or is not a value)", ctx.ins)


def get_value(ctx: TranslationContext, vid: int) -> Value:
    x = get_tv(ctx, vid)
    if not isinstance(x, Value):
        raise err(f"%{vid} is not a scalar or vector value", ctx.ins)
    return x


def op_undef(ctx: TranslationContext, ins: Instruction) -> None:
    assert ins.result_type is not None
    ctx.set(ins, undef_tv(ctx, ins.result_type))
