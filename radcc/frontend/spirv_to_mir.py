"""SPIR-V (a checked ``SpirvModule``) to MIR.

``spirv_to_mir(module_or_bytes, entry=None, spec=None) -> MirShader``

What it does, in the order data meets it:

* **Constants** become ``load_const`` in the entry block (raw bits; bools are
  1-bit); specialization constants take ``spec[SpecId]`` else their default;
  ``OpSpecConstantOp`` is translated as ordinary instructions on constants (the
  constant folder folds them). The workgroup size comes from the
  ``WorkgroupSize`` builtin constant, ``LocalSizeId`` or ``LocalSize``, folded.
* **Interface variables**: BuiltIn inputs load system values
  (``@load_global_invocation_id`` ...); StorageBuffer/Uniform blocks are
  (set, binding) buffers addressed in bytes from the Offset/ArrayStride/
  MatrixStride decorations (std430/std140 as the SPIR-V says; RowMajor
  matrices load/store their contiguous rows and transpose, and a column of one
  is a vector with strided components);
  PushConstant blocks likewise; Workgroup variables get a shared-memory layout
  (natural std430-like alignment, or the explicit decorations when present).
  Access chains become byte-offset arithmetic (``@load_ssbo``, ``@store_shared``
  ...); ``OpArrayLength`` divides ``@get_ssbo_size`` minus the runtime array's
  offset by its stride. Booleans in memory are 32-bit.
* **Function variables** become ``LocalVar``s with deref chains (promoted by
  ``opt.vars_to_ssa``); aggregate loads/stores are split into leaves, so MIR
  values are only scalars and vectors. ``OpPhi`` becomes a local variable
  stored at the end of each predecessor and loaded at the phi (what
  vars_to_ssa turns back into phis of the structured CFG).
* **Structured control flow**: OpSelectionMerge headers become ``If`` nodes,
  OpLoopMerge headers ``Loop`` nodes (the continue construct in ``Loop.cont``),
  a switch becomes a one-iteration ``Loop`` holding an if chain with a
  fall-through flag (case breaks are loop breaks), and a jump that leaves more
  than the innermost MIR loop (``return`` inside a loop, ``continue`` inside a
  switch ...) sets a flag, breaks, and is re-issued after that loop. Each
  function body sits in a one-iteration loop for early returns; loops that
  turn out to have no early exit are dissolved again.
* **Calls** are inlined (recursion is an error).

Anything else raises ``SpirvError`` naming the instruction and its word offset.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from .mir import (
    ArrayType,
    Binding,
    Block,
    CFNode,
    If,
    LocalVar,
    Loop,
    MirFunction,
    MirShader,
    MType,
    StructType,
    ValType,
    Value,
    mask,
)
from .mir_builder import MirBuilder, float_bits
from .mir_ops import ALU_OPS, eval_alu, raw_dtype
from .spirv import SpirvError, read_spirv
from .spirv import grammar as g
from .spirv.binary import Instruction
from .spirv.module import SpirvModule
from .spirv.types import (
    Block as SBlock,
)
from .spirv.types import (
    Function,
    TypeArray,
    TypeBool,
    TypeFloat,
    TypeInt,
    TypeMatrix,
    TypePointer,
    TypeRuntimeArray,
    TypeStruct,
    TypeVector,
    TypeVoid,
)

SpecValue = int | float | bool

# ---------------------------------------------------------------- pointer kinds


@dataclass
class LocalPtr:
    deref: Value
    tid: int  # pointee type id
    comp: Value | int | None = None  # a component of a vector variable


@dataclass
class MemPtr:
    space: str  # "ssbo", "ubo", "push", "shared"
    binding: tuple[int, int] | None
    dyn: Value | None
    const: int
    tid: int
    explicit: bool
    matrix_stride: int = 0
    row_major: bool = False
    readonly: bool = False
    comp_stride: int = 0  # a vector whose components are this far apart (a row-major column)


@dataclass
class BuiltinPtr:
    name: str
    comp: int | Value | None = None


TV = Any  # Value | list[TV] | LocalPtr | MemPtr | BuiltinPtr

BUILTINS: dict[str, tuple[str, int, int]] = {
    "GlobalInvocationId": ("load_global_invocation_id", 32, 3),
    "LocalInvocationId": ("load_local_invocation_id", 32, 3),
    "LocalInvocationIndex": ("load_local_invocation_index", 32, 1),
    "WorkgroupId": ("load_workgroup_id", 32, 3),
    "NumWorkgroups": ("load_num_workgroups", 32, 3),
    "WorkgroupSize": ("load_workgroup_size", 32, 3),
    "SubgroupSize": ("load_subgroup_size", 32, 1),
    "SubgroupLocalInvocationId": ("load_subgroup_invocation", 32, 1),
    "SubgroupId": ("load_subgroup_id", 32, 1),
    "NumSubgroups": ("load_num_subgroups", 32, 1),
    "SubgroupEqMask": ("load_subgroup_eq_mask", 32, 4),
    "SubgroupGeMask": ("load_subgroup_ge_mask", 32, 4),
    "SubgroupGtMask": ("load_subgroup_gt_mask", 32, 4),
    "SubgroupLeMask": ("load_subgroup_le_mask", 32, 4),
    "SubgroupLtMask": ("load_subgroup_lt_mask", 32, 4),
}

SCOPES = {0: "CrossDevice", 1: "Device", 2: "Workgroup", 3: "Subgroup", 4: "Invocation",
          5: "QueueFamily", 6: "ShaderCallKHR"}

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

# GLSL.std.450 instructions that are one MIR op on every operand
GLSL_SIMPLE: dict[str, str] = {
    "Round": "fround_even", "RoundEven": "fround_even", "Trunc": "ftrunc", "FAbs": "fabs",
    "SAbs": "iabs", "FSign": "fsign", "SSign": "isign", "Floor": "ffloor", "Ceil": "fceil",
    "Fract": "ffract", "Sin": "fsin", "Cos": "fcos", "Tan": "ftan", "Asin": "fasin",
    "Acos": "facos", "Atan": "fatan", "Sinh": "fsinh", "Cosh": "fcosh", "Tanh": "ftanh",
    "Asinh": "fasinh", "Acosh": "facosh", "Atanh": "fatanh", "Atan2": "fatan2",
    "Pow": "fpow", "Exp2": "fexp2", "Log2": "flog2", "Sqrt": "fsqrt", "InverseSqrt": "frsq",
    "FMin": "fmin", "UMin": "umin", "SMin": "imin", "FMax": "fmax", "UMax": "umax",
    "SMax": "imax", "NMin": "fmin", "NMax": "fmax", "Fma": "ffma", "Ldexp": "fldexp",
    "FindILsb": "find_lsb", "FindSMsb": "ifind_msb", "FindUMsb": "ufind_msb",
    "PackSnorm4x8": "pack_snorm_4x8", "PackUnorm4x8": "pack_unorm_4x8",
    "PackSnorm2x16": "pack_snorm_2x16", "PackUnorm2x16": "pack_unorm_2x16",
    "PackHalf2x16": "pack_half_2x16", "UnpackSnorm4x8": "unpack_snorm_4x8",
    "UnpackUnorm4x8": "unpack_unorm_4x8", "UnpackSnorm2x16": "unpack_snorm_2x16",
    "UnpackUnorm2x16": "unpack_unorm_2x16", "UnpackHalf2x16": "unpack_half_2x16",
    "Step": "fstep",
}

ATOMICS: dict[str, str] = {
    "OpAtomicExchange": "xchg", "OpAtomicIAdd": "iadd", "OpAtomicSMin": "imin",
    "OpAtomicUMin": "umin", "OpAtomicSMax": "imax", "OpAtomicUMax": "umax",
    "OpAtomicAnd": "iand", "OpAtomicOr": "ior", "OpAtomicXor": "ixor",
    "OpAtomicFAddEXT": "fadd", "OpAtomicFMinEXT": "fmin", "OpAtomicFMaxEXT": "fmax",
}

GROUP_ARITH: dict[str, str] = {
    "OpGroupNonUniformIAdd": "iadd", "OpGroupNonUniformFAdd": "fadd",
    "OpGroupNonUniformIMul": "imul", "OpGroupNonUniformFMul": "fmul",
    "OpGroupNonUniformSMin": "imin", "OpGroupNonUniformUMin": "umin",
    "OpGroupNonUniformFMin": "fmin", "OpGroupNonUniformSMax": "imax",
    "OpGroupNonUniformUMax": "umax", "OpGroupNonUniformFMax": "fmax",
    "OpGroupNonUniformBitwiseAnd": "iand", "OpGroupNonUniformBitwiseOr": "ior",
    "OpGroupNonUniformBitwiseXor": "ixor", "OpGroupNonUniformLogicalAnd": "iand",
    "OpGroupNonUniformLogicalOr": "ior", "OpGroupNonUniformLogicalXor": "ixor",
}
GROUP_OPERATION = {"Reduce": "reduce", "InclusiveScan": "inclusive_scan",
                   "ExclusiveScan": "exclusive_scan", "ClusteredReduce": "reduce"}

IGNORED = frozenset({"OpLine", "OpNoLine", "OpNop", "OpSelectionMerge", "OpLoopMerge",
                     "OpName", "OpMemberName", "OpSource", "OpString"})


# ---------------------------------------------------------------- constructs


@dataclass(eq=False)
class Construct:
    """A SPIR-V construct that owns a MIR loop: a loop, a switch, or a function body."""

    kind: str  # "loop", "switch", "func"
    merge: int | None = None
    cont: int | None = None
    in_cont: bool = False
    flags: dict[tuple[str, int], LocalVar] = field(default_factory=dict)
    pending: list[tuple[LocalVar, tuple[str, Construct]]] = field(default_factory=list)


@dataclass(eq=False)
class FuncCtx:
    fn: Function
    vals: dict[int, TV]
    constructs: list[Construct]
    ret_var: LocalVar | None = None
    ret_tid: int = 0
    phi_vars: dict[int, LocalVar] = field(default_factory=dict)
    block_index: dict[int, int] = field(default_factory=dict)


def spirv_to_mir(
    module: SpirvModule | bytes,
    entry: str | None = None,
    spec: dict[int, SpecValue] | None = None,
) -> MirShader:
    """Translate entry point ``entry`` (or the only one) with spec constant overrides."""
    if not isinstance(module, SpirvModule):
        module = read_spirv(module)
    return Translator(module, entry, spec or {}).run()


# MIR integer ops that OpLogical* instructions use on booleans
_BOOL_LOGIC = frozenset({"iand", "ior", "ixor", "inot", "ieq", "ine"})


def _err(msg: str, ins: Instruction | None) -> SpirvError:
    if ins is None:
        return SpirvError(msg, 0, "")
    return SpirvError(msg, ins.offset, ins.opname)


class Translator:
    def __init__(self, m: SpirvModule, entry: str | None, spec: dict[int, SpecValue]) -> None:
        self.m = m
        self.spec = spec
        try:
            self.ep = m.entry_point(entry)
        except KeyError:
            names = [e.name for e in m.entry_points]
            raise _err(f"no entry point {entry!r} (the module has {names})", None) from None
        fn = MirFunction(self.ep.name, [])
        self.shader = MirShader(self.ep.name, (1, 1, 1), fn, spec=dict(spec))
        self.const_block = self.shader.new_block()
        self.cb = MirBuilder(self.shader, [self.const_block])
        self.b = MirBuilder(self.shader)
        self.consts: dict[int, TV] = {}
        self.globals: dict[int, TV] = {}
        self.shared_offset = 0
        self.flag_vars: list[LocalVar] = []
        self.call_depth = 0
        self.ins: Instruction | None = None
        self.fctx: FuncCtx | None = None
        self.in_spec_op = False
        self._spec_result: dict[int, TV] = {}

    # ================================================================ driver
    def run(self) -> MirShader:
        self.shader.workgroup_size = self._workgroup_size()
        self._globals()
        fn = self.m.function(self.ep.function)
        self._inline(fn, [], None)
        # constants and flag initialisations first
        first = self.shader.function.body[0]
        assert isinstance(first, Block)
        init = MirBuilder(self.shader, [self.const_block])
        for var in self.flag_vars:
            d = init.intr("deref_var", [], 32, 1, var=var, type=var.type)
            init.intrinsic("store_deref", [d, init.false()])
        for ins in self.const_block.instrs:
            ins.block = first
        first.instrs[:0] = self.const_block.instrs
        self.shader.function.body = _unwrap_trivial_loops(self.shader.function.body)
        return self.shader

    # ================================================================ types
    def ty(self, tid: int) -> Any:
        return self.m.types[tid]

    def scalar(self, tid: int) -> tuple[str, int]:
        t = self.ty(tid)
        if isinstance(t, TypeVector):
            t = self.ty(t.component)
        if isinstance(t, TypeBool):
            return "bool", 1
        if isinstance(t, TypeInt):
            return ("int" if t.signed else "uint"), t.width
        if isinstance(t, TypeFloat):
            return "float", t.width
        raise _err(f"type %{tid} is not a scalar or vector", self.ins)

    def comps(self, tid: int) -> int:
        t = self.ty(tid)
        return t.count if isinstance(t, TypeVector) else 1

    def bits(self, tid: int) -> int:
        return self.scalar(tid)[1]

    def is_leaf(self, tid: int) -> bool:
        return isinstance(self.ty(tid), TypeBool | TypeInt | TypeFloat | TypeVector)

    def mtype(self, tid: int) -> MType:
        t = self.ty(tid)
        if self.is_leaf(tid):
            base, bits = self.scalar(tid)
            return ValType(base, bits, self.comps(tid))
        if isinstance(t, TypeArray):
            return ArrayType(self.mtype(t.element), self.array_length(t))
        if isinstance(t, TypeMatrix):
            return ArrayType(self.mtype(t.column), t.columns)
        if isinstance(t, TypeStruct):
            return StructType(tuple(self.mtype(x) for x in t.members))
        if isinstance(t, TypePointer):
            raise _err(f"pointer values ({t.storage_class} pointers, e.g. buffer_reference) "
                       "are not supported", self.ins)
        raise _err(f"type %{tid} ({type(t).__name__}) cannot be a local variable", self.ins)

    def array_length(self, t: TypeArray) -> int:
        n = self.host_const(t.length)
        return int(n[0])

    def elem_tid(self, tid: int, index: int) -> int:
        t = self.ty(tid)
        if isinstance(t, TypeStruct):
            return t.members[index]
        if isinstance(t, TypeArray | TypeRuntimeArray):
            return t.element
        if isinstance(t, TypeMatrix):
            return t.column
        if isinstance(t, TypeVector):
            return t.component
        raise _err(f"cannot index into type %{tid}", self.ins)

    def agg_len(self, tid: int) -> int:
        t = self.ty(tid)
        if isinstance(t, TypeStruct):
            return len(t.members)
        if isinstance(t, TypeArray):
            return self.array_length(t)
        if isinstance(t, TypeMatrix):
            return t.columns
        raise _err(f"type %{tid} is not an aggregate", self.ins)

    # ================================================================ constants
    def host_const(self, cid: int) -> tuple[int, ...]:
        """Raw bits of a (spec) constant, folded at translation time."""
        v = self.const_tv(cid)
        if not isinstance(v, Value):
            raise _err(f"%{cid} is not a scalar or vector constant", self.ins)
        bits = fold_value(v)
        if bits is None:
            raise _err(f"%{cid} is not a constant", self.ins)
        return bits

    def host_int(self, cid: int) -> int:
        return self.host_const(cid)[0]

    def _raw(self, value: SpecValue, tid: int) -> int:
        base, bits = self.scalar(tid)
        if base == "float":
            return float_bits(float(value), bits)
        return int(value) & mask(bits)

    def const_tv(self, cid: int) -> TV:
        if cid in self.consts:
            return self.consts[cid]
        saved, self.b = self.b, self.cb
        try:
            v = self._make_const(cid)
        finally:
            self.b = saved
        self.consts[cid] = v
        return v

    def _make_const(self, cid: int) -> TV:
        m = self.m
        c = m.constants.get(cid)
        sc = m.spec_constants.get(cid)
        if cid in m.undefs:
            return self.undef_tv(m.undefs[cid])
        if c is not None:
            tid = c.type
            if c.null:
                return self.null_tv(tid)
            if c.constituents:
                return self.composite(tid, [self.const_tv(x) for x in c.constituents])
            raw = c.bits if not isinstance(self.ty(tid), TypeBool) else int(bool(c.value))
            return self.cb.const(self.bits(tid), [raw])
        if sc is not None:
            tid = sc.type
            if sc.opname == "OpSpecConstantOp":
                info = g.opcode(sc.op)
                fake = Instruction(info, sc.op, sc.type, sc.id, tuple(sc.op_operands),
                                   m.defs[cid].offset)
                saved, saved_in = self.ins, self.in_spec_op
                self.in_spec_op = True
                try:
                    self._translate(fake)
                finally:
                    self.ins, self.in_spec_op = saved, saved_in
                return self._spec_result.pop(cid)
            if sc.constituents:
                return self.composite(tid, [self.const_tv(x) for x in sc.constituents])
            if sc.spec_id is not None and sc.spec_id in self.spec:
                raw = self._raw(self.spec[sc.spec_id], tid)
            elif isinstance(self.ty(tid), TypeBool):
                raw = int(bool(sc.value))
            else:
                raw = sc.bits
            return self.cb.const(self.bits(tid), [raw])
        raise _err(f"%{cid} is not a constant", self.ins)

    def null_tv(self, tid: int) -> TV:
        if self.is_leaf(tid):
            return self.b.const(self.bits(tid), [0] * self.comps(tid))
        return [self.null_tv(self.elem_tid(tid, i)) for i in range(self.agg_len(tid))]

    def undef_tv(self, tid: int) -> TV:
        if self.is_leaf(tid):
            return self.b.undef(self.bits(tid), self.comps(tid))
        return [self.undef_tv(self.elem_tid(tid, i)) for i in range(self.agg_len(tid))]

    def composite(self, tid: int, parts: list[TV]) -> TV:
        """A value of type tid from its constituents (vectors may take vector parts)."""
        if self.is_leaf(tid):
            scal: list[Value] = []
            for p in parts:
                scal += self.b.channels(p)
            consts = [fold_value(s) for s in scal]
            if all(c is not None for c in consts) and self.b is self.cb:
                return self.b.const(self.bits(tid), [cast(tuple, c)[0] for c in consts])
            return self.b.vec(scal)
        return list(parts)

    # ================================================================ values
    def val(self, vid: int) -> TV:
        ctx = self.fctx
        if ctx is not None and vid in ctx.vals:
            return ctx.vals[vid]
        if vid in self.globals:
            return self.globals[vid]
        if self.m.is_constant(vid) or vid in self.m.undefs:
            return self.const_tv(vid)
        raise _err(f"%{vid} is used before it is defined (or is not a value)", self.ins)

    def v(self, vid: int) -> Value:
        x = self.val(vid)
        if not isinstance(x, Value):
            raise _err(f"%{vid} is not a scalar or vector value", self.ins)
        return x

    def set(self, ins: Instruction, value: TV) -> None:
        assert ins.result_id is not None
        if self.fctx is None or self.in_spec_op:
            self._spec_result[ins.result_id] = value
        else:
            self.fctx.vals[ins.result_id] = value

    # ================================================================ workgroup size, globals
    def _workgroup_size(self) -> tuple[int, int, int]:
        m = self.m
        for cid in list(m.constants) + list(m.spec_constants):
            if m.builtin(cid) == "WorkgroupSize":
                v = self.const_tv(cid)
                bits = fold_value(v) if isinstance(v, Value) else None
                if bits is None or len(bits) != 3:
                    raise _err("the WorkgroupSize constant does not fold", m.defs[cid])
                return (bits[0], bits[1], bits[2])
        mode = self.ep.mode("LocalSize")
        if mode:
            return (mode.args[0], mode.args[1], mode.args[2])
        mode = self.ep.mode("LocalSizeId")
        if mode:
            x = [self.host_int(a) for a in mode.args]
            return (x[0], x[1], x[2])
        raise _err(f"entry point {self.ep.name!r} has no LocalSize", None)

    def _globals(self) -> None:
        m = self.m
        for vid, var in m.global_variables.items():
            self.ins = m.defs[vid]
            ptr = self.ty(var.type)
            assert isinstance(ptr, TypePointer)
            sc = var.storage_class
            bi = m.builtin(vid)
            if bi is not None:
                if bi not in BUILTINS:
                    raise _err(f"unsupported built-in {bi}", self.ins)
                self.globals[vid] = BuiltinPtr(bi)
                continue
            pointee = ptr.pointee
            if sc in ("StorageBuffer", "Uniform", "PushConstant"):
                t = self.ty(pointee)
                if not isinstance(t, TypeStruct):
                    raise _err(f"{sc} variable %{vid} is not a block (arrays of descriptors are "
                               "not supported)", self.ins)
                if sc == "PushConstant":
                    self.globals[vid] = MemPtr("push", None, None, 0, pointee, True,
                                               readonly=True)
                    self.shader.push_constant_size = max(self.shader.push_constant_size,
                                                         self.explicit_size(pointee))
                    continue
                bind = m.binding(vid)
                if bind is None:
                    raise _err(f"buffer variable %{vid} has no Binding", self.ins)
                storage = sc == "StorageBuffer" or m.has_decoration(pointee, "BufferBlock")
                readonly = m.has_decoration(vid, "NonWritable") or all(
                    m.has_decoration(pointee, "NonWritable", i) for i in range(len(t.members))
                ) or not storage
                kind = "storage" if storage else "uniform"
                self.shader.bindings[bind] = Binding(bind[0], bind[1], kind, readonly,
                                                     self.explicit_size(pointee))
                self.globals[vid] = MemPtr("ssbo" if storage else "ubo", bind, None, 0, pointee,
                                           True, readonly=readonly)
            elif sc == "Workgroup":
                explicit = self._has_explicit_layout(pointee)
                size, align = (self.explicit_size(pointee), 16) if explicit else \
                    self.natural_layout(pointee)
                off = (self.shared_offset + align - 1) // align * align
                self.shared_offset = off + size
                self.shader.shared_size = self.shared_offset
                self.globals[vid] = MemPtr("shared", None, None, off, pointee, explicit)
                if var.initializer is not None:
                    raise _err("initialised Workgroup variables are not supported", self.ins)
            elif sc == "Private":
                # a module-scope variable: one LocalVar (initialised at the start)
                lv = self.shader.new_local(m.name(vid) or f"g{vid}", self.mtype(pointee))
                d = self.cb.intr("deref_var", [], 32, 1, var=lv, type=lv.type)
                self.globals[vid] = LocalPtr(d, pointee)
                if var.initializer is not None:
                    saved, self.b = self.b, self.cb
                    self.store_local(LocalPtr(d, pointee), self.const_tv(var.initializer))
                    self.b = saved
            elif sc == "Input":
                raise _err(f"Input variable %{vid} is not a supported built-in", self.ins)
            else:
                raise _err(f"unsupported storage class {sc} of %{vid}", self.ins)
        self.ins = None

    def _has_explicit_layout(self, tid: int) -> bool:
        t = self.ty(tid)
        if isinstance(t, TypeStruct):
            return self.m.has_decoration(tid, "Offset", 0) if t.members else False
        if isinstance(t, TypeArray | TypeRuntimeArray):
            return self.m.has_decoration(tid, "ArrayStride")
        return False

    # ================================================================ layouts
    def natural_layout(self, tid: int) -> tuple[int, int]:
        """(size, alignment) of a Workgroup type without explicit layout (std430-like)."""
        t = self.ty(tid)
        if self.is_leaf(tid):
            base, bits = self.scalar(tid)
            sz = 4 if base == "bool" else bits // 8
            n = self.comps(tid)
            return sz * n, sz * (4 if n == 3 else n)
        if isinstance(t, TypeArray | TypeMatrix):
            et = t.element if isinstance(t, TypeArray) else t.column
            es, ea = self.natural_layout(et)
            stride = (es + ea - 1) // ea * ea
            n = self.array_length(t) if isinstance(t, TypeArray) else t.columns
            return stride * n, ea
        if isinstance(t, TypeStruct):
            off, al = 0, 1
            for mt in t.members:
                s, a = self.natural_layout(mt)
                off = (off + a - 1) // a * a + s
                al = max(al, a)
            return (off + al - 1) // al * al, al
        raise _err(f"type %{tid} has no layout", self.ins)

    def member_offset(self, tid: int, index: int, explicit: bool) -> int:
        if explicit:
            o = self.m.decoration(tid, "Offset", index)
            if o is None:
                raise _err(f"member {index} of struct %{tid} has no Offset", self.ins)
            return int(o[0])
        t = self.ty(tid)
        off = 0
        for k, mt in enumerate(t.members):
            s, a = self.natural_layout(mt)
            off = (off + a - 1) // a * a
            if k == index:
                return off
            off += s
        raise AssertionError

    def array_stride(self, tid: int, explicit: bool) -> int:
        if explicit:
            s = self.m.decoration(tid, "ArrayStride")
            if s is None:
                raise _err(f"array type %{tid} has no ArrayStride", self.ins)
            return int(s[0])
        t = self.ty(tid)
        es, ea = self.natural_layout(t.element)
        return (es + ea - 1) // ea * ea

    def explicit_size(self, tid: int, mstride: int = 0, row_major: bool = False) -> int:
        t = self.ty(tid)
        if self.is_leaf(tid):
            base, bits = self.scalar(tid)
            return (4 if base == "bool" else bits // 8) * self.comps(tid)
        if isinstance(t, TypeRuntimeArray):
            return 0
        if isinstance(t, TypeArray):
            return self.array_stride(tid, True) * self.array_length(t)
        if isinstance(t, TypeMatrix):
            rows = self.comps(t.column)
            return (mstride or 16) * (rows if row_major else t.columns)
        if isinstance(t, TypeStruct):
            end = 0
            for i, mt in enumerate(t.members):
                ms = self.m.decoration(tid, "MatrixStride", i)
                rm = self.m.has_decoration(tid, "RowMajor", i)
                end = max(end, self.member_offset(tid, i, True) +
                          self.explicit_size(mt, int(ms[0]) if ms else 0, rm))
            return end
        raise _err(f"type %{tid} has no layout", self.ins)

    # ================================================================ functions and CF
    def _inline(self, fn: Function, args: list[TV], ret_tid: int | None) -> TV:
        if self.call_depth > 64:
            raise _err("recursive function calls are not supported", self.ins)
        self.call_depth += 1
        ctx = FuncCtx(fn, {}, [Construct("func")])
        for p, a in zip(fn.params, args, strict=True):
            ctx.vals[p.id] = a
        ctx.block_index = {blk.label: k for k, blk in enumerate(fn.blocks)}
        if ret_tid is not None:
            ctx.ret_tid = ret_tid
            ctx.ret_var = self.shader.new_local(f"ret{fn.id}", self.mtype(ret_tid))
        saved = self.fctx
        self.fctx = ctx
        # Function variables first (in the entry block)
        loop = self.b.push_loop()
        with self.b.into(loop.body):
            r = self.region(fn.blocks[0].label, frozenset())
            assert r is None
            self.b.jump("break")
        self.finish_loop(ctx.constructs[0])
        self.fctx = saved
        self.call_depth -= 1
        if ctx.ret_var is not None:
            return self.load_local(self._var_ptr(ctx.ret_var, ctx.ret_tid))
        return None

    def _var_ptr(self, var: LocalVar, tid: int) -> LocalPtr:
        d = self.b.intr("deref_var", [], 32, 1, var=var, type=var.type)
        return LocalPtr(d, tid)

    def block(self, label: int) -> SBlock:
        ctx = self.fctx
        assert ctx is not None
        return ctx.fn.blocks[ctx.block_index[label]]

    def jump_for(self, label: int) -> tuple[str, Construct] | None:
        ctx = self.fctx
        assert ctx is not None
        for c in reversed(ctx.constructs):
            if c.kind == "loop":
                if label == c.merge:
                    return ("break", c)
                if label == c.cont and not c.in_cont:
                    return ("continue", c)
            elif c.kind == "switch" and label == c.merge:
                return ("break", c)
        return None

    def emit_jump(self, req: tuple[str, Construct]) -> None:
        ctx = self.fctx
        assert ctx is not None
        inner = ctx.constructs[-1]
        kind, target = req
        if target is inner:
            self.b.jump("continue" if kind == "continue" else "break")
            return
        key = (kind, id(target))
        flag = inner.flags.get(key)
        if flag is None:
            flag = self.shader.new_local(f"esc_{kind}", ValType("bool", 1))
            inner.flags[key] = flag
            inner.pending.append((flag, req))
            self.flag_vars.append(flag)
        self.store_var(flag, self.b.true())
        self.b.jump("break")

    def finish_loop(self, con: Construct) -> None:
        """After the MIR loop of ``con``: re-issue the jumps that escaped through it."""
        for flag, req in con.pending:
            c = self.load_var(flag)
            n = self.b.push_if(c)
            with self.b.into(n.then_list):
                self.store_var(flag, self.b.false())
                self.emit_jump(req)

    def store_var(self, var: LocalVar, v: Value) -> None:
        d = self.b.intr("deref_var", [], 32, 1, var=var, type=var.type)
        self.b.intrinsic("store_deref", [d, v])

    def load_var(self, var: LocalVar) -> Value:
        d = self.b.intr("deref_var", [], 32, 1, var=var, type=var.type)
        t = var.type
        assert isinstance(t, ValType)
        return self.b.intr("load_deref", [d], t.bit_size, t.num_components)

    def region(self, label: int, stop: frozenset[int]) -> int | None:
        """Emit blocks from ``label`` until a label in ``stop`` (returned) or a jump (None)."""
        cur: int | None = label
        while cur is not None:
            if cur in stop:
                return cur
            if self.b.ended:
                return None
            j = self.jump_for(cur)
            if j is not None:
                self.emit_jump(j)
                return None
            cur = self.emit_block(cur, stop)
        return None

    def emit_block(self, label: int, stop: frozenset[int]) -> int | None:
        blk = self.block(label)
        merge = blk.merge
        if merge is not None and merge.opname == "OpLoopMerge":
            return self.emit_loop(blk)
        self.emit_body(blk)
        return self.emit_terminator(blk, stop)

    def emit_body(self, blk: SBlock) -> None:
        ctx = self.fctx
        assert ctx is not None
        for phi in blk.phis:
            self.ins = phi
            var = self._phi_var(phi)
            assert phi.result_id is not None and phi.result_type is not None
            ctx.vals[phi.result_id] = self.load_local(self._var_ptr(var, phi.result_type))
        for ins in blk.body:
            try:
                self._translate(ins)
            except (AssertionError, AttributeError, IndexError, KeyError, StopIteration,
                    TypeError) as e:  # operands whose types this instruction cannot take
                raise _err(f"invalid operand types ({type(e).__name__}: {e})", ins) from None
        # values of the successors' phis
        for s in blk.successors:
            for phi in self.block(s).phis:
                ids = phi.ids()
                for k in range(0, len(ids), 2):
                    if ids[k + 1] == blk.label:
                        self.ins = phi
                        assert phi.result_type is not None
                        var = self._phi_var(phi)
                        self.store_local(self._var_ptr(var, phi.result_type), self.val(ids[k]))

    def _phi_var(self, phi: Instruction) -> LocalVar:
        ctx = self.fctx
        assert ctx is not None and phi.result_id is not None and phi.result_type is not None
        var = ctx.phi_vars.get(phi.result_id)
        if var is None:
            var = self.shader.new_local(f"phi{phi.result_id}", self.mtype(phi.result_type))
            ctx.phi_vars[phi.result_id] = var
        return var

    def emit_loop(self, blk: SBlock) -> int | None:
        ctx = self.fctx
        assert ctx is not None and blk.merge is not None
        merge_label, cont_label = blk.merge.ids()[:2]
        con = Construct("loop", merge_label, cont_label)
        ctx.constructs.append(con)
        loop = self.b.push_loop()
        with self.b.into(loop.body):
            self.emit_body(blk)
            nxt = self.emit_terminator(blk, frozenset())
            if nxt is not None:
                self.region(nxt, frozenset())
        if cont_label != blk.label:
            con.in_cont = True
            with self.b.into(loop.cont):
                self.region(cont_label, frozenset({blk.label}))
        ctx.constructs.pop()
        self.finish_loop(con)
        return merge_label

    def _kind(self, label: int, stop: frozenset[int]) -> str:
        if label in stop:
            return "stop"
        if self.jump_for(label) is not None:
            return "jump"
        return "normal"

    def emit_terminator(self, blk: SBlock, stop: frozenset[int]) -> int | None:
        t = blk.terminator
        self.ins = t
        op = t.opname
        merge = blk.merge
        if op == "OpBranch":
            return t.id(0)
        if op in ("OpReturn", "OpReturnValue"):
            ctx = self.fctx
            assert ctx is not None
            if op == "OpReturnValue":
                assert ctx.ret_var is not None
                self.store_local(self._var_ptr(ctx.ret_var, ctx.ret_tid), self.val(t.id(0)))
            self.emit_jump(("return", ctx.constructs[0]))
            return None
        if op in ("OpUnreachable", "OpKill", "OpTerminateInvocation"):
            if op != "OpUnreachable":
                raise _err("not allowed in a compute shader", t)
            return None
        if op == "OpSwitch":
            if merge is None or merge.opname != "OpSelectionMerge":
                raise _err("OpSwitch without OpSelectionMerge is not structured", t)
            return self.emit_switch(blk, merge.id(0))
        if op != "OpBranchConditional":
            raise _err("unsupported terminator", t)
        cond = self.v(t.id(0))
        if cond.bit_size != 1 or cond.num_components != 1:
            raise _err(f"condition %{t.id(0)} is not a boolean scalar", t)
        tl, fl = t.id(1), t.id(2)
        if merge is not None and merge.opname == "OpSelectionMerge":
            m = merge.id(0)
            n = self.b.push_if(cond)
            with self.b.into(n.then_list):
                self.region(tl, frozenset({m}))
            with self.b.into(n.else_list):
                self.region(fl, frozenset({m}))
            return m
        kt, kf = self._kind(tl, stop), self._kind(fl, stop)
        if tl == fl:
            return tl
        if kt == "normal" and kf == "normal":
            raise _err("conditional branch without a merge to two ordinary blocks "
                       "(unstructured control flow)", t)
        n = self.b.push_if(cond)
        for side, lab, kind in ((n.then_list, tl, kt), (n.else_list, fl, kf)):
            if kind == "jump":
                with self.b.into(side):
                    j = self.jump_for(lab)
                    assert j is not None
                    self.emit_jump(j)
        if "normal" in (kt, kf):
            normal = tl if kt == "normal" else fl
            other = kf if kt == "normal" else kt
            if other == "stop":
                with self.b.into(n.then_list if kt == "normal" else n.else_list):
                    r = self.region(normal, stop)
                    return r if r is not None else (fl if kt == "normal" else tl)
            return normal
        if kt == "stop":
            return tl
        if kf == "stop":
            return fl
        return None

    def emit_switch(self, blk: SBlock, merge_label: int) -> int | None:
        ctx = self.fctx
        assert ctx is not None
        t = blk.terminator
        sel = self.v(t.id(0))
        default = t.id(1)
        cases: list[tuple[int, int]] = []
        for p in t.operands[2:]:
            lit, lab = p.params[0], p.params[1]
            cases.append((int(lit.bits) & mask(sel.bit_size), int(lab.value)))
        con = Construct("switch", merge_label)
        ctx.constructs.append(con)
        loop = self.b.push_loop()
        with self.b.into(loop.body):
            fall = self.shader.new_local("fallthrough", ValType("bool", 1))
            self.store_var(fall, self.b.false())
            targets = self._case_order({lab for _, lab in cases} | {default} - {merge_label},
                                       merge_label)
            for tgt in targets:
                self.ins = t
                conds = [self.b.alu("ieq", 1, 1, sel, self.b.imm(lit, sel.bit_size))
                         for lit, lab in cases if lab == tgt]
                if tgt == default:
                    others = [self.b.alu("ine", 1, 1, sel, self.b.imm(lit, sel.bit_size))
                              for lit, lab in cases if lab != default]
                    c = self.b.true()
                    for o in others:
                        c = self.b.alu("iand", 1, 1, c, o)
                    conds.append(c)
                c = self.load_var(fall)
                for x in conds:
                    c = self.b.alu("ior", 1, 1, c, x)
                n = self.b.push_if(c)
                with self.b.into(n.then_list):
                    r = self.region(tgt, frozenset(targets) - {tgt})
                    if r is not None:
                        self.store_var(fall, self.b.true())
            self.b.jump("break")
        ctx.constructs.pop()
        self.finish_loop(con)
        return merge_label

    def _case_order(self, targets: set[int], merge_label: int) -> list[int]:
        """Case targets in block order, moved so that a case precedes the one it falls into."""
        ctx = self.fctx
        assert ctx is not None
        order = sorted(targets, key=lambda x: ctx.block_index[x])
        falls: dict[int, int] = {}
        for t in order:
            seen = {t}
            work = [t]
            while work:
                lab = work.pop()
                for s in self.block(lab).successors:
                    if s == merge_label or s in seen:
                        continue
                    if s in targets:
                        falls[t] = s
                        continue
                    seen.add(s)
                    work.append(s)
        out: list[int] = []
        heads = [t for t in order if t not in falls.values()]
        for h in heads:
            x: int | None = h
            while x is not None and x not in out:
                out.append(x)
                x = falls.get(x)
        out += [t for t in order if t not in out]
        return out

    # ================================================================ loads and stores
    def load(self, ptr: TV, tid: int) -> TV:
        if isinstance(ptr, LocalPtr):
            return self.load_local(ptr)
        if isinstance(ptr, MemPtr):
            return self.load_mem(ptr)
        if isinstance(ptr, BuiltinPtr):
            intr, bits, comps = BUILTINS[ptr.name]
            if ptr.name == "WorkgroupSize":
                wg = self.shader.workgroup_size
                v = self.b.const(32, list(wg))
            else:
                v = self.b.intr(intr, [], bits, comps)
            if ptr.comp is None:
                return v
            return self.dyn_extract(v, ptr.comp)
        raise _err("load through something that is not a pointer", self.ins)

    def store(self, ptr: TV, value: TV) -> None:
        if isinstance(ptr, LocalPtr):
            self.store_local(ptr, value)
        elif isinstance(ptr, MemPtr):
            if ptr.space in ("ubo", "push"):
                raise _err("store to read-only memory", self.ins)
            self.store_mem(ptr, value)
        else:
            raise _err("store to a built-in input", self.ins)

    def dyn_extract(self, v: Value, comp: Value | int) -> Value:
        if isinstance(comp, int):
            return self.b.channel(v, comp)
        k = fold_value(comp)
        if k is not None:
            return self.b.channel(v, k[0] % v.num_components)
        out = self.b.channel(v, 0)
        for i in range(1, v.num_components):
            c = self.b.alu("ieq", 1, 1, comp, self.b.imm(i, comp.bit_size))
            out = self.b.alu("bcsel", v.bit_size, 1, c, self.b.channel(v, i), out)
        return out

    def dyn_insert(self, v: Value, comp: Value | int, x: Value) -> Value:
        if not isinstance(comp, int):
            k = fold_value(comp)
            if k is not None:
                comp = k[0]
        parts = self.b.channels(v)
        if isinstance(comp, int):
            parts[comp] = x
        else:
            for i in range(len(parts)):
                c = self.b.alu("ieq", 1, 1, comp, self.b.imm(i, comp.bit_size))
                parts[i] = self.b.alu("bcsel", v.bit_size, 1, c, x, parts[i])
        return self.b.vec(parts)

    def load_local(self, ptr: LocalPtr) -> TV:
        tid = ptr.tid
        if ptr.comp is not None:
            whole = self._load_deref(ptr.deref)
            return self.dyn_extract(whole, ptr.comp)
        if self.is_leaf(tid):
            return self._load_deref(ptr.deref)
        out = []
        t = self.ty(tid)
        for i in range(self.agg_len(tid)):
            out.append(self.load_local(self._sub_local(ptr, i, t)))
        return out

    def _load_deref(self, d: Value) -> Value:
        t = d.parent.attrs["type"] if d.parent else None
        assert isinstance(t, ValType), t
        return self.b.intr("load_deref", [d], t.bit_size, t.num_components)

    def _sub_local(self, ptr: LocalPtr, i: int, t: Any) -> LocalPtr:
        et = self.elem_tid(ptr.tid, i)
        var = ptr.deref.parent.attrs["var"] if ptr.deref.parent else None
        if isinstance(t, TypeStruct):
            d = self.b.intr("deref_struct", [ptr.deref], 32, 1, index=i, type=self.mtype(et),
                            var=var)
        else:
            d = self.b.intr("deref_array", [ptr.deref, self.b.imm(i)], 32, 1,
                            type=self.mtype(et), var=var)
        return LocalPtr(d, et)

    def store_local(self, ptr: LocalPtr, value: TV) -> None:
        tid = ptr.tid
        if ptr.comp is not None:
            whole = self._load_deref(ptr.deref)
            self.b.intrinsic("store_deref", [ptr.deref, self.dyn_insert(whole, ptr.comp, value)])
            return
        if self.is_leaf(tid):
            assert isinstance(value, Value), value
            self.b.intrinsic("store_deref", [ptr.deref, value])
            return
        t = self.ty(tid)
        assert isinstance(value, list), value
        for i in range(self.agg_len(tid)):
            self.store_local(self._sub_local(ptr, i, t), value[i])

    # ----- memory -----
    def _offset(self, p: MemPtr) -> Value:
        if p.dyn is None:
            return self.b.imm(p.const)
        return self.b.iadd_imm(p.dyn, p.const)

    def _mem_intr(self, p: MemPtr, store: bool) -> tuple[str, dict[str, Any]]:
        attrs: dict[str, Any] = {}
        if p.binding is not None:
            attrs["binding"] = p.binding
        if p.space == "ssbo":
            if p.readonly:
                attrs["access"] = "readonly"
            return ("store_ssbo" if store else "load_ssbo"), attrs
        if p.space == "shared":
            return ("store_shared" if store else "load_shared"), attrs
        if p.space == "ubo":
            return "load_ubo", attrs
        return "load_push_constant", attrs

    def _at(self, p: MemPtr, tid: int, off: int, mstride: int | None = None,
            row_major: bool | None = None, comp_stride: int | None = None) -> MemPtr:
        """p moved by off bytes to a tid; comp_stride kept only when given (or tid is p's)."""
        if comp_stride is None:
            comp_stride = p.comp_stride if tid == p.tid else 0
        return MemPtr(p.space, p.binding, p.dyn, p.const + off, tid, p.explicit,
                      p.matrix_stride if mstride is None else mstride,
                      p.row_major if row_major is None else row_major, p.readonly, comp_stride)

    def _col_stride(self, p: MemPtr, t: TypeMatrix) -> int:
        if p.explicit:
            if not p.matrix_stride:
                raise _err("matrix without MatrixStride", self.ins)
            return p.matrix_stride
        return self.natural_layout(p.tid)[0] // t.columns

    def _load_raw(self, p: MemPtr, off: int, bits: int, n: int) -> Value:
        """n contiguous components of `bits` at p's address + off."""
        name, attrs = self._mem_intr(p, False)
        q = self._at(p, p.tid, off)
        return self.b.intr(name, [self._offset(q)], bits, n, align=bits // 8, **attrs)

    def _store_raw(self, p: MemPtr, off: int, value: Value) -> None:
        name, attrs = self._mem_intr(p, True)
        attrs.pop("access", None)
        q = self._at(p, p.tid, off)
        self.b.intrinsic(name, [value, self._offset(q)], align=value.bit_size // 8, **attrs)

    def _row_stride(self, p: MemPtr) -> int:
        """The distance between the rows of the row-major matrix p points at."""
        if not p.matrix_stride:
            raise _err("row-major matrix without MatrixStride", self.ins)
        return p.matrix_stride

    def load_mem(self, p: MemPtr) -> TV:
        tid = p.tid
        t = self.ty(tid)
        if self.is_leaf(tid):
            base, bits = self.scalar(tid)
            n = self.comps(tid)
            mb = 32 if base == "bool" else bits
            if p.comp_stride and n > 1:  # a column of a row-major matrix: strided components
                v = self.b.vec([self._load_raw(p, i * p.comp_stride, mb, 1) for i in range(n)])
            else:
                v = self._load_raw(p, 0, mb, n)
            if base == "bool":
                v = self.b.alu("ine", 1, n, v, self.b.const(32, [0] * n))
            return v
        if isinstance(t, TypeMatrix):
            if p.row_major:  # load the rows (contiguous), then transpose into columns
                rs, bits = self._row_stride(p), self.bits(t.column)
                rows = [self._load_raw(p, r * rs, bits, t.columns)
                        for r in range(self.comps(t.column))]
                return [self.b.vec([self.b.channel(row, c) for row in rows])
                        for c in range(t.columns)]
            cs = self._col_stride(p, t)
            return [self.load_mem(self._at(p, t.column, i * cs)) for i in range(t.columns)]
        if isinstance(t, TypeArray):
            s = self.array_stride(tid, p.explicit)
            return [self.load_mem(self._at(p, t.element, i * s))
                    for i in range(self.array_length(t))]
        if isinstance(t, TypeStruct):
            out = []
            for i, mt in enumerate(t.members):
                ms = self.m.decoration(tid, "MatrixStride", i)
                rm = self.m.has_decoration(tid, "RowMajor", i)
                out.append(self.load_mem(self._at(p, mt, self.member_offset(tid, i, p.explicit),
                                                  int(ms[0]) if ms else None, rm)))
            return out
        raise _err(f"cannot load type %{tid} from memory", self.ins)

    def store_mem(self, p: MemPtr, value: TV) -> None:
        tid = p.tid
        t = self.ty(tid)
        if self.is_leaf(tid):
            base, bits = self.scalar(tid)
            assert isinstance(value, Value)
            if base == "bool":
                value = self.b.alu("b2i32", 32, value.num_components, value)
            if p.comp_stride and value.num_components > 1:
                for i, x in enumerate(self.b.channels(value)):
                    self._store_raw(p, i * p.comp_stride, x)
            else:
                self._store_raw(p, 0, value)
            return
        assert isinstance(value, list)
        if isinstance(t, TypeMatrix):
            if p.row_major:  # transpose the columns into rows, store each row contiguously
                rs = self._row_stride(p)
                for r in range(self.comps(t.column)):
                    row = self.b.vec([self.b.channel(col, r) for col in value])
                    self._store_raw(p, r * rs, row)
                return
            cs = self._col_stride(p, t)
            for i in range(t.columns):
                self.store_mem(self._at(p, t.column, i * cs), value[i])
        elif isinstance(t, TypeArray):
            s = self.array_stride(tid, p.explicit)
            for i in range(self.array_length(t)):
                self.store_mem(self._at(p, t.element, i * s), value[i])
        elif isinstance(t, TypeStruct):
            for i, mt in enumerate(t.members):
                ms = self.m.decoration(tid, "MatrixStride", i)
                rm = self.m.has_decoration(tid, "RowMajor", i)
                self.store_mem(self._at(p, mt, self.member_offset(tid, i, p.explicit),
                                        int(ms[0]) if ms else None, rm), value[i])
        else:
            raise _err(f"cannot store type %{tid} to memory", self.ins)

    def _index32(self, vid: int) -> Value | int:
        v = self.v(vid)
        k = fold_value(v)
        if k is not None:
            raw = k[0]
            if v.bit_size < 64 and self.scalar(self.m.type_id_of(vid))[0] == "int" and \
                    raw >> (v.bit_size - 1):
                raw -= 1 << v.bit_size
            return raw
        if v.bit_size != 32:
            signed = self.scalar(self.m.type_id_of(vid))[0] == "int"
            v = self.b.alu(("i2i32" if signed else "u2u32"), 32, 1, v)
        return v

    def _check_index(self, p: TV, idx: Any) -> None:
        """Refuse a constant index outside the vector/struct it selects from (undefined
        behaviour in SPIR-V; spirv-val rejects the struct case) and a struct index that is
        not a constant."""
        if isinstance(p, BuiltinPtr):
            n, what = BUILTINS[p.name][2], "component"
        elif isinstance(p, LocalPtr | MemPtr):
            t = self.ty(p.tid)
            if isinstance(t, TypeStruct):
                if not isinstance(idx, int):
                    raise _err("a struct index must be a constant", self.ins)
                n, what = len(t.members), "member"
            elif isinstance(t, TypeVector):
                n, what = t.count, "component"
            else:
                return
        else:
            return
        if isinstance(idx, int) and not 0 <= idx < n:
            raise _err(f"constant index {idx} is out of range ({n} {what}s)", self.ins)

    def access_chain(self, base: TV, idx_ids: Sequence[int]) -> TV:
        p = base
        for vid in idx_ids:
            idx = self._index32(vid)
            self._check_index(p, idx)
            if isinstance(p, BuiltinPtr):
                p = BuiltinPtr(p.name, idx)
            elif isinstance(p, LocalPtr):
                t = self.ty(p.tid)
                et = self.elem_tid(p.tid, idx if isinstance(idx, int) else 0)
                var = p.deref.parent.attrs["var"] if p.deref.parent else None
                if isinstance(t, TypeVector):
                    p = LocalPtr(p.deref, et, idx)
                elif isinstance(t, TypeStruct):
                    assert isinstance(idx, int)
                    d = self.b.intr("deref_struct", [p.deref], 32, 1, index=idx,
                                    type=self.mtype(et), var=var)
                    p = LocalPtr(d, et)
                else:
                    iv = self.b.imm(idx) if isinstance(idx, int) else idx
                    d = self.b.intr("deref_array", [p.deref, iv], 32, 1, type=self.mtype(et),
                                    var=var)
                    p = LocalPtr(d, et)
            elif isinstance(p, MemPtr):
                t = self.ty(p.tid)
                if isinstance(t, TypeStruct):
                    assert isinstance(idx, int)
                    ms = self.m.decoration(p.tid, "MatrixStride", idx)
                    rm = self.m.has_decoration(p.tid, "RowMajor", idx)
                    p = self._at(p, t.members[idx], self.member_offset(p.tid, idx, p.explicit),
                                 int(ms[0]) if ms else None, rm)
                    continue
                cstride = 0  # component stride of the element (a row-major column)
                if isinstance(t, TypeArray | TypeRuntimeArray):
                    stride, et = self.array_stride(p.tid, p.explicit), t.element
                elif isinstance(t, TypeMatrix):
                    et = t.column
                    if p.row_major:  # column c starts c components in; its rows are strided
                        stride = self.explicit_size(self.ty(et).component)
                        cstride = self._row_stride(p)
                    else:
                        stride = self._col_stride(p, t)
                elif isinstance(t, TypeVector):
                    stride = p.comp_stride or self.explicit_size(t.component)
                    et = t.component
                else:
                    raise _err(f"cannot index type %{p.tid}", self.ins)
                if isinstance(idx, int):
                    p = self._at(p, et, idx * stride, comp_stride=cstride)
                else:
                    scaled = self.b.imul_imm(idx, stride)
                    dyn = scaled if p.dyn is None else self.b.alu("iadd", 32, 1, p.dyn, scaled)
                    p = MemPtr(p.space, p.binding, dyn, p.const, et, p.explicit,
                               p.matrix_stride, p.row_major, p.readonly, cstride)
            else:
                raise _err("access chain on something that is not a pointer", self.ins)
        return p

    # ================================================================ instructions
    def _translate(self, ins: Instruction) -> None:
        self.ins = ins
        op = ins.opname
        if op in IGNORED:
            return
        h = getattr(self, "_op_" + op[2:], None)
        if h is not None:
            h(ins)
            return
        if op in SIMPLE:
            mop, swap = SIMPLE[op]
            srcs = [self.v(x) for x in ins.ids()]
            if swap:
                srcs.reverse()
            r = self.alu(mop, ins.result_type, srcs)
            if mop in ("fadd", "fsub", "fmul") and r.parent is not None and \
                    self.m.has_decoration(ins.result_id or 0, "NoContraction"):
                r.parent.attrs["exact"] = True  # GLSL precise: never fused into an fma
            self.set(ins, r)
            return
        if op in ATOMICS or op.startswith("OpAtomic"):
            self._atomic(ins)
            return
        if op.startswith("OpGroupNonUniform"):
            self._group(ins)
            return
        raise _err("unsupported instruction", ins)

    def alu(self, op: str, rtid: int | None, srcs: list[Value]) -> Value:
        assert rtid is not None
        bits, n = self.bits(rtid), self.comps(rtid)
        info = ALU_OPS[op]
        if (bits == 1) != (info.dest == "bool") and not (bits == 1 and op in _BOOL_LOGIC):
            raise _err(f"result type %{rtid} {'is' if bits == 1 else 'is not'} a boolean type",
                       self.ins)
        if info.per_component:
            srcs = [self.b.splat(s, n) if s.num_components == 1 and n > 1 else s for s in srcs]
        return self.b.alu(op, bits, n, *srcs)

    # ----- memory and variables -----
    def _op_Variable(self, ins: Instruction) -> None:
        assert ins.result_type is not None
        ptr = self.ty(ins.result_type)
        assert isinstance(ptr, TypePointer)
        if ptr.storage_class != "Function":
            raise _err("only Function variables inside functions", ins)
        name = self.m.name(ins.result_id or 0) or f"v{ins.result_id}"
        var = self.shader.new_local(name, self.mtype(ptr.pointee))
        p = self._var_ptr(var, ptr.pointee)
        if len(ins.operands) > 1:
            self.store_local(p, self.val(ins.id(1)))
        self.set(ins, p)

    def _op_Load(self, ins: Instruction) -> None:
        assert ins.result_type is not None
        self.set(ins, self.load(self.val(ins.id(0)), ins.result_type))

    def _op_Store(self, ins: Instruction) -> None:
        self.store(self.val(ins.id(0)), self.val(ins.id(1)))

    def _op_CopyMemory(self, ins: Instruction) -> None:
        src = self.val(ins.id(1))
        tid = src.tid if isinstance(src, LocalPtr | MemPtr) else 0
        self.store(self.val(ins.id(0)), self.load(src, tid))

    def _op_AccessChain(self, ins: Instruction) -> None:
        ids = [o.value for o in ins.operands]
        self.set(ins, self.access_chain(self.val(int(ids[0])), [int(x) for x in ids[1:]]))

    _op_InBoundsAccessChain = _op_AccessChain

    def _op_ArrayLength(self, ins: Instruction) -> None:
        p = self.val(ins.id(0))
        member = int(ins.literal(1))
        if not isinstance(p, MemPtr) or p.space != "ssbo":
            raise _err("OpArrayLength of something that is not a storage buffer", ins)
        off = p.const + self.member_offset(p.tid, member, True)
        arr = self.ty(p.tid).members[member]
        stride = self.array_stride(arr, True)
        size = self.b.intr("get_ssbo_size", [], 32, 1, binding=p.binding)
        rem = self.b.alu("isub", 32, 1, size, self.b.imm(off))
        self.set(ins, self.b.alu("udiv", 32, 1, rem, self.b.imm(stride)))

    def _op_FunctionCall(self, ins: Instruction) -> None:
        fid = ins.id(0)
        fn = self.m.function(fid)
        args = [self.val(x) for x in ins.ids()[1:]]
        void = isinstance(self.ty(fn.result_type), TypeVoid)
        r = self._inline(fn, args, None if void else fn.result_type)
        self.ins = ins
        if not void:
            self.set(ins, r)

    def _op_Undef(self, ins: Instruction) -> None:
        assert ins.result_type is not None
        self.set(ins, self.undef_tv(ins.result_type))

    def _op_ExtInst(self, ins: Instruction) -> None:
        set_name = self.m.ext_imports.get(ins.id(0), "")
        if set_name.startswith("NonSemantic."):
            return
        if set_name != "GLSL.std.450":
            raise _err(f"unsupported extended instruction set {set_name}", ins)
        num = int(ins.literal(1))
        info = g.ext_instruction(set_name, num)
        name = info[0] if info else str(num)
        args = [o.value for o in ins.operands[2:]]
        self._glsl(ins, name, [int(a) for a in args])

    # ----- composites -----
    def _op_CompositeConstruct(self, ins: Instruction) -> None:
        assert ins.result_type is not None
        self.set(ins, self.composite(ins.result_type, [self.val(x) for x in ins.ids()]))

    def _extract(self, v: TV, idx: list[int]) -> TV:
        for i in idx:
            if isinstance(v, list):
                v = v[i]
            else:
                assert isinstance(v, Value)
                v = self.b.channel(v, i)
        return v

    def _op_CompositeExtract(self, ins: Instruction) -> None:
        idx = [int(o.value) for o in ins.operands[1:]]
        self.set(ins, self._extract(self.val(ins.id(0)), idx))

    def _insert(self, v: TV, idx: list[int], x: TV) -> TV:
        if not idx:
            return x
        if isinstance(v, list):
            out = list(v)
            out[idx[0]] = self._insert(v[idx[0]], idx[1:], x)
            return out
        assert isinstance(v, Value) and len(idx) == 1
        return self.dyn_insert(v, idx[0], x)

    def _op_CompositeInsert(self, ins: Instruction) -> None:
        idx = [int(o.value) for o in ins.operands[2:]]
        self.set(ins, self._insert(self.val(ins.id(1)), idx, self.val(ins.id(0))))

    def _op_CopyObject(self, ins: Instruction) -> None:
        self.set(ins, self.val(ins.id(0)))

    _op_CopyLogical = _op_CopyObject

    def _op_VectorShuffle(self, ins: Instruction) -> None:
        a, b_ = self.v(ins.id(0)), self.v(ins.id(1))
        parts = self.b.channels(a) + self.b.channels(b_)
        sel = [int(o.value) for o in ins.operands[2:]]
        out = [parts[k] if k != 0xFFFFFFFF else self.b.undef(a.bit_size) for k in sel]
        self.set(ins, self.b.vec(out))

    def _op_VectorExtractDynamic(self, ins: Instruction) -> None:
        self.set(ins, self.dyn_extract(self.v(ins.id(0)), self.v(ins.id(1))))

    def _op_VectorInsertDynamic(self, ins: Instruction) -> None:
        self.set(ins, self.dyn_insert(self.v(ins.id(0)), self.v(ins.id(2)), self.v(ins.id(1))))

    def _op_Select(self, ins: Instruction) -> None:
        c = self.v(ins.id(0))
        a, b_ = self.val(ins.id(1)), self.val(ins.id(2))

        def sel(x: TV, y: TV) -> TV:
            if isinstance(x, list):
                return [sel(p, q) for p, q in zip(x, y, strict=True)]
            cc = c if c.num_components == x.num_components else self.b.splat(c, x.num_components)
            return self.b.alu("bcsel", x.bit_size, x.num_components, cc, x, y)

        self.set(ins, sel(a, b_))

    # ----- conversions -----
    def _conv(self, ins: Instruction, frm: str, to: str) -> None:
        assert ins.result_type is not None
        src = self.v(ins.id(0))
        bits = self.bits(ins.result_type)
        if frm == to and frm in "iu" and src.bit_size == bits:
            self.set(ins, src)
            return
        self.set(ins, self.b.alu(f"{frm}2{to}{bits}", bits, src.num_components, src))

    def _op_ConvertFToU(self, ins: Instruction) -> None:
        self._conv(ins, "f", "u")

    def _op_ConvertFToS(self, ins: Instruction) -> None:
        self._conv(ins, "f", "i")

    def _op_ConvertSToF(self, ins: Instruction) -> None:
        self._conv(ins, "i", "f")

    def _op_ConvertUToF(self, ins: Instruction) -> None:
        self._conv(ins, "u", "f")

    def _op_UConvert(self, ins: Instruction) -> None:
        self._conv(ins, "u", "u")

    def _op_SConvert(self, ins: Instruction) -> None:
        self._conv(ins, "i", "i")

    def _op_FConvert(self, ins: Instruction) -> None:
        self._conv(ins, "f", "f")

    def _op_QuantizeToF16(self, ins: Instruction) -> None:
        src = self.v(ins.id(0))
        h = self.b.alu("f2f16", 16, src.num_components, src)
        self.set(ins, self.b.alu("f2f32", 32, src.num_components, h))

    def _op_Bitcast(self, ins: Instruction) -> None:
        assert ins.result_type is not None
        src = self.v(ins.id(0))
        bits, n = self.bits(ins.result_type), self.comps(ins.result_type)
        if bits == src.bit_size and n == src.num_components:
            self.set(ins, src)
        else:
            self.set(ins, self.b.alu("bitcast", bits, n, src))

    def _op_IsNan(self, ins: Instruction) -> None:
        x = self.v(ins.id(0))
        self.set(ins, self.b.alu("fneu", 1, x.num_components, x, x))

    def _op_Any(self, ins: Instruction) -> None:
        self._reduce_bool(ins, "ior")

    def _op_All(self, ins: Instruction) -> None:
        self._reduce_bool(ins, "iand")

    def _reduce_bool(self, ins: Instruction, op: str) -> None:
        parts = self.b.channels(self.v(ins.id(0)))
        acc = parts[0]
        for p in parts[1:]:
            acc = self.b.alu(op, 1, 1, acc, p)
        self.set(ins, acc)

    def dot(self, a: Value, b_: Value) -> Value:
        pa, pb = self.b.channels(a), self.b.channels(b_)
        acc = self.b.alu("fmul", a.bit_size, 1, pa[0], pb[0])
        for x, y in zip(pa[1:], pb[1:], strict=True):
            acc = self.b.alu("ffma", a.bit_size, 1, x, y, acc)
        return acc

    def _op_Dot(self, ins: Instruction) -> None:
        self.set(ins, self.dot(self.v(ins.id(0)), self.v(ins.id(1))))

    def _op_VectorTimesScalar(self, ins: Instruction) -> None:
        v, s = self.v(ins.id(0)), self.v(ins.id(1))
        self.set(ins, self.b.alu("fmul", v.bit_size, v.num_components, v,
                                 self.b.splat(s, v.num_components)))

    def _op_MatrixTimesScalar(self, ins: Instruction) -> None:
        mat = self.val(ins.id(0))
        s = self.v(ins.id(1))
        self.set(ins, [self.b.alu("fmul", c.bit_size, c.num_components, c,
                                  self.b.splat(s, c.num_components)) for c in mat])

    def _op_MatrixTimesVector(self, ins: Instruction) -> None:
        mat, vec = self.val(ins.id(0)), self.v(ins.id(1))
        self.set(ins, self._mat_vec(mat, vec))

    def _mat_vec(self, mat: list[Value], vec: Value) -> Value:
        comps = self.b.channels(vec)
        acc = self.b.alu("fmul", vec.bit_size, mat[0].num_components, mat[0],
                         self.b.splat(comps[0], mat[0].num_components))
        for col, c in zip(mat[1:], comps[1:], strict=True):
            acc = self.b.alu("ffma", vec.bit_size, col.num_components, col,
                             self.b.splat(c, col.num_components), acc)
        return acc

    def _op_VectorTimesMatrix(self, ins: Instruction) -> None:
        vec, mat = self.v(ins.id(0)), self.val(ins.id(1))
        self.set(ins, self.b.vec([self.dot(vec, col) for col in mat]))

    def _op_MatrixTimesMatrix(self, ins: Instruction) -> None:
        a, bm = self.val(ins.id(0)), self.val(ins.id(1))
        self.set(ins, [self._mat_vec(a, col) for col in bm])

    def _op_Transpose(self, ins: Instruction) -> None:
        mat = self.val(ins.id(0))
        cols = [self.b.channels(c) for c in mat]
        rows = len(cols[0])
        self.set(ins, [self.b.vec([cols[j][i] for j in range(len(cols))]) for i in range(rows)])

    def _op_OuterProduct(self, ins: Instruction) -> None:
        a, bv = self.v(ins.id(0)), self.v(ins.id(1))
        self.set(ins, [self.b.alu("fmul", a.bit_size, a.num_components, a,
                                  self.b.splat(c, a.num_components))
                       for c in self.b.channels(bv)])

    def _carry_like(self, ins: Instruction, lo_op: str, hi_op: str) -> None:
        a, b_ = self.v(ins.id(0)), self.v(ins.id(1))
        n = a.num_components
        self.set(ins, [self.b.alu(lo_op, a.bit_size, n, a, b_),
                       self.b.alu(hi_op, a.bit_size, n, a, b_)])

    def _op_IAddCarry(self, ins: Instruction) -> None:
        self._carry_like(ins, "iadd", "uadd_carry")

    def _op_ISubBorrow(self, ins: Instruction) -> None:
        self._carry_like(ins, "isub", "usub_borrow")

    def _op_UMulExtended(self, ins: Instruction) -> None:
        self._carry_like(ins, "imul", "umul_high")

    def _op_SMulExtended(self, ins: Instruction) -> None:
        self._carry_like(ins, "imul", "imul_high")

    # ----- barriers -----
    def _op_ControlBarrier(self, ins: Instruction) -> None:
        self.b.intrinsic("barrier", [], execution_scope=SCOPES.get(self.host_int(ins.id(0))),
                         memory_scope=SCOPES.get(self.host_int(ins.id(1))),
                         semantics=self.host_int(ins.id(2)))

    def _op_MemoryBarrier(self, ins: Instruction) -> None:
        self.b.intrinsic("barrier", [], execution_scope="None",
                         memory_scope=SCOPES.get(self.host_int(ins.id(0))),
                         semantics=self.host_int(ins.id(1)))

    # ----- atomics -----
    def _atomic(self, ins: Instruction) -> None:
        op = ins.opname
        p = self.val(ins.id(0))
        if not isinstance(p, MemPtr) or p.space not in ("ssbo", "shared"):
            raise _err("atomic on something that is not a storage buffer or shared memory", ins)
        if op == "OpAtomicLoad":
            self.set(ins, self.load_mem(p))
            return
        if op == "OpAtomicStore":
            self.store_mem(p, self.v(ins.id(3)))
            return
        assert ins.result_type is not None
        bits = self.bits(ins.result_type)
        prefix = "ssbo_atomic" if p.space == "ssbo" else "shared_atomic"
        attrs: dict[str, Any] = {}
        if p.binding is not None:
            attrs["binding"] = p.binding
        off = self._offset(p)
        if op == "OpAtomicCompareExchange":
            val, cmp = self.v(ins.id(4)), self.v(ins.id(5))
            r = self.b.intr(prefix + "_swap", [off, cmp, val], bits, 1, atomic_op="cmpxchg",
                            **attrs)
        elif op in ("OpAtomicIIncrement", "OpAtomicIDecrement"):
            one = self.b.imm(1 if op == "OpAtomicIIncrement" else -1, bits)
            r = self.b.intr(prefix, [off, one], bits, 1, atomic_op="iadd", **attrs)
        elif op == "OpAtomicISub":
            neg = self.b.alu("ineg", bits, 1, self.v(ins.id(3)))
            r = self.b.intr(prefix, [off, neg], bits, 1, atomic_op="iadd", **attrs)
        elif op in ATOMICS:
            r = self.b.intr(prefix, [off, self.v(ins.id(3))], bits, 1, atomic_op=ATOMICS[op],
                            **attrs)
        else:
            raise _err("unsupported atomic", ins)
        self.set(ins, r)

    # ----- subgroups -----
    def _group(self, ins: Instruction) -> None:
        op = ins.opname[len("OpGroupNonUniform"):]
        scope = self.host_int(ins.id(0))
        if scope != 3:
            raise _err(f"group operation with scope {SCOPES.get(scope, scope)} (only Subgroup)",
                       ins)
        rt = ins.result_type
        ops = ins.operands

        def val(k: int) -> Value:
            return self.v(int(ops[k].value))

        def intr(name: str, srcs: list[Value], **attrs: Any) -> Value:
            assert rt is not None
            return self.b.intr(name, srcs, self.bits(rt), self.comps(rt), **attrs)

        if op == "Elect":
            r = intr("elect", [])
        elif op in ("All", "Any"):
            r = intr("vote_" + op.lower(), [val(1)])
        elif op == "AllEqual":
            x = val(1)
            isf = self.scalar(self.m.type_id_of(int(ops[1].value)))[0] == "float"
            r = intr("vote_feq" if isf else "vote_ieq", [x])
        elif op == "Broadcast":
            r = intr("read_invocation", [val(1), val(2)])
        elif op == "BroadcastFirst":
            r = intr("read_first_invocation", [val(1)])
        elif op == "Ballot":
            r = intr("ballot", [val(1)])
        elif op == "InverseBallot":
            r = intr("inverse_ballot", [val(1)])
        elif op == "BallotBitExtract":
            r = intr("ballot_bitfield_extract", [val(1), val(2)])
        elif op == "BallotBitCount":
            kind = {"Reduce": "reduce", "InclusiveScan": "inclusive",
                    "ExclusiveScan": "exclusive"}[ops[1].name]
            r = intr("ballot_bit_count_" + kind, [val(2)])
        elif op in ("BallotFindLSB", "BallotFindMSB"):
            r = intr("ballot_find_" + op[-3:].lower(), [val(1)])
        elif op in ("Shuffle", "ShuffleXor", "ShuffleUp", "ShuffleDown"):
            name = {"Shuffle": "shuffle", "ShuffleXor": "shuffle_xor", "ShuffleUp": "shuffle_up",
                    "ShuffleDown": "shuffle_down"}[op]
            r = intr(name, [val(1), val(2)])
        elif op == "QuadBroadcast":
            r = intr("quad_broadcast", [val(1), val(2)])
        elif op == "QuadSwap":
            d = self.host_int(int(ops[2].value))
            r = intr(["quad_swap_horizontal", "quad_swap_vertical", "quad_swap_diagonal"][d],
                     [val(1)])
        elif ins.opname in GROUP_ARITH:
            gop = ops[1].name
            if gop not in GROUP_OPERATION:
                raise _err(f"unsupported group operation {gop}", ins)
            cluster = self.host_int(int(ops[3].value)) if gop == "ClusteredReduce" else 0
            r = intr(GROUP_OPERATION[gop], [val(2)], reduction_op=GROUP_ARITH[ins.opname],
                     cluster_size=cluster)
        else:
            raise _err("unsupported subgroup operation", ins)
        self.set(ins, r)

    # ----- GLSL.std.450 matrices (cofactor expansion; m[column][row] scalars) -----
    def _det(self, m: list[list[Value]], cols: list[int], rows: list[int]) -> Value:
        """The determinant of the submatrix of `m` on `cols` x `rows` (Laplace
        expansion along the first column)."""
        b = self.b
        if len(cols) == 1:
            return m[cols[0]][rows[0]]
        if len(cols) == 2:
            (c0, c1), (r0, r1) = cols, rows
            x = m[c0][r0]
            return b.alu("fsub", x.bit_size, 1, b.alu("fmul", x.bit_size, 1, x, m[c1][r1]),
                         b.alu("fmul", x.bit_size, 1, m[c1][r0], m[c0][r1]))
        acc: Value | None = None
        for i, r in enumerate(rows):
            x = m[cols[0]][r]
            t = b.alu("fmul", x.bit_size, 1, x,
                      self._det(m, cols[1:], rows[:i] + rows[i + 1:]))
            acc = t if acc is None else b.alu("fsub" if i % 2 else "fadd", x.bit_size, 1,
                                              acc, t)
        assert acc is not None
        return acc

    def _inverse(self, m: list[list[Value]]) -> list[Value]:
        """adj(m) / det(m): inverse[c][r] = (-1)^(r+c) det(m without column r, row c) / det."""
        b = self.b
        n = len(m)
        idx = list(range(n))
        det = self._det(m, idx, idx)
        bits = det.bit_size
        rdet = b.alu("fdiv", bits, 1, b.fsplat(1.0, det), det)
        out = []
        for c in range(n):
            col = []
            for r in range(n):
                if n == 1:
                    minor = b.fsplat(1.0, det)
                else:
                    minor = self._det(m, [k for k in idx if k != r], [k for k in idx if k != c])
                if (r + c) % 2:
                    minor = b.alu("fneg", bits, 1, minor)
                col.append(b.alu("fmul", bits, 1, minor, rdet))
            out.append(b.vec(col))
        return out

    # ----- GLSL.std.450 -----
    def _glsl(self, ins: Instruction, name: str, args: list[int]) -> None:
        rt = ins.result_type
        assert rt is not None
        b = self.b
        if name in GLSL_SIMPLE:
            self.set(ins, self.alu(GLSL_SIMPLE[name], rt, [self.v(a) for a in args]))
            return
        xs = [self.val(a) for a in args]
        x = xs[0]
        fs = b.fsplat

        def f(op: str, *s: Value) -> Value:
            return b.alu(op, s[0].bit_size if ALU_OPS[op].dest != "bool" else 1,
                         max(v.num_components for v in s),
                         *[b.splat(v, max(w.num_components for w in s)) for v in s])

        if name == "Radians":
            r = f("fmul", x, fs(math.pi / 180, x))
        elif name == "Degrees":
            r = f("fmul", x, fs(180 / math.pi, x))
        elif name == "Exp":
            r = f("fexp2", f("fmul", x, fs(1 / math.log(2), x)))
        elif name == "Log":
            r = f("fmul", f("flog2", x), fs(math.log(2), x))
        elif name in ("FClamp", "NClamp"):
            r = f("fmin", f("fmax", x, xs[1]), xs[2])
        elif name == "UClamp":
            r = f("umin", f("umax", x, xs[1]), xs[2])
        elif name == "SClamp":
            r = f("imin", f("imax", x, xs[1]), xs[2])
        elif name == "FMix":
            r = f("flrp", x, xs[1], xs[2])
        elif name == "SmoothStep":
            e0, e1, v = xs
            t = f("fdiv", f("fsub", v, e0), f("fsub", e1, e0))
            t = f("fsat", t)
            r = f("fmul", f("fmul", t, t), f("fsub", fs(3.0, t), f("fmul", fs(2.0, t), t)))
        elif name == "Modf":
            whole = f("ftrunc", x)
            self.store(xs[1], whole)
            r = f("fsub", x, whole)
        elif name == "ModfStruct":
            whole = f("ftrunc", x)
            self.set(ins, [f("fsub", x, whole), whole])
            return
        elif name == "Frexp":
            self.store(xs[1], b.alu("ffrexp_exp", 32, x.num_components, x))
            r = f("ffrexp_sig", x)
        elif name == "FrexpStruct":
            self.set(ins, [f("ffrexp_sig", x), b.alu("ffrexp_exp", 32, x.num_components, x)])
            return
        elif name == "Determinant":
            r = self._det([b.channels(c) for c in x], list(range(len(x))), list(range(len(x))))
        elif name == "MatrixInverse":
            self.set(ins, self._inverse([b.channels(c) for c in x]))
            return
        elif name in ("PackDouble2x32", "UnpackDouble2x32"):
            r = b.alu("bitcast", self.bits(rt), self.comps(rt), x)
        elif name == "Length":
            r = f("fsqrt", self.dot(x, x)) if x.num_components > 1 else f("fabs", x)
        elif name == "Distance":
            d = f("fsub", x, xs[1])
            r = f("fsqrt", self.dot(d, d)) if d.num_components > 1 else f("fabs", d)
        elif name == "Normalize":
            if x.num_components == 1:
                r = f("fsign", x)
            else:
                r = f("fmul", x, b.splat(f("frsq", self.dot(x, x)), x.num_components))
        elif name == "Cross":
            a, c = b.channels(x), b.channels(xs[1])

            def cr(i: int, j: int) -> Value:
                return f("fsub", f("fmul", a[i], c[j]), f("fmul", a[j], c[i]))

            r = b.vec([cr(1, 2), cr(2, 0), cr(0, 1)])
        elif name == "FaceForward":
            n_, i_, nref = xs
            neg = f("flt", self.dot(nref, i_) if nref.num_components > 1 else
                    f("fmul", nref, i_), fs(0.0, b.channel(n_, 0)))
            r = b.alu("bcsel", n_.bit_size, n_.num_components, b.splat(neg, n_.num_components),
                      n_, f("fneg", n_))
        elif name == "Reflect":
            i_, n_ = xs
            d = self.dot(n_, i_) if n_.num_components > 1 else f("fmul", n_, i_)
            r = f("fsub", i_, f("fmul", n_, b.splat(f("fmul", d, fs(2.0, d)), n_.num_components)))
        elif name == "Refract":
            i_, n_, eta = xs
            d = self.dot(n_, i_) if n_.num_components > 1 else f("fmul", n_, i_)
            one = fs(1.0, d)
            k = f("fsub", one, f("fmul", f("fmul", eta, eta), f("fsub", one, f("fmul", d, d))))
            nn = n_.num_components
            t = f("fadd", f("fmul", eta, d), f("fsqrt", k))
            rr = f("fsub", f("fmul", i_, b.splat(eta, nn)), f("fmul", n_, b.splat(t, nn)))
            neg = f("flt", k, fs(0.0, k))
            r = b.alu("bcsel", rr.bit_size, nn, b.splat(neg, nn), fs(0.0, rr), rr)
        else:
            raise _err(f"unsupported GLSL.std.450 instruction {name}", ins)
        self.set(ins, r)


# ---------------------------------------------------------------- helpers


def fold_value(v: Value, depth: int = 0) -> tuple[int, ...] | None:
    """Raw bits of ``v`` if it is computed from constants by ALU ops only."""
    p = v.parent
    if p is None or depth > 64:
        return None
    if p.op == "load_const":
        return tuple(p.attrs["value"])
    if p.op not in ALU_OPS:
        return None
    srcs = []
    for s in p.srcs:
        k = fold_value(s, depth + 1)
        if k is None:
            return None
        srcs.append(np.array(k, dtype=raw_dtype(s.bit_size)).reshape(-1, 1))
    r = eval_alu(p.op, v.bit_size, v.num_components, srcs, [s.bit_size for s in p.srcs], p.attrs)
    return tuple(int(x) for x in np.asarray(r).reshape(-1))


def _jumps_to(cf: list[CFNode]) -> int:
    """Jumps in ``cf`` that target the loop owning it (not those of inner loops)."""
    n = 0
    for node in cf:
        if isinstance(node, Block):
            n += sum(1 for i in node.instrs if i.is_jump)
        elif isinstance(node, If):
            n += _jumps_to(node.then_list) + _jumps_to(node.else_list)
    return n


def _append(out: list[CFNode], node: CFNode) -> None:
    if isinstance(node, Block) and out and isinstance(out[-1], Block):
        prev = out[-1]
        for i in node.instrs:
            i.block = prev
        prev.instrs.extend(node.instrs)
        return
    out.append(node)


def _unwrap_trivial_loops(cf: list[CFNode]) -> list[CFNode]:
    """Dissolve one-iteration loops (function bodies, switches) that no jump leaves early."""
    out: list[CFNode] = []
    for n in cf:
        if isinstance(n, If):
            n.then_list = _unwrap_trivial_loops(n.then_list)
            n.else_list = _unwrap_trivial_loops(n.else_list)
        elif isinstance(n, Loop):
            n.body = _unwrap_trivial_loops(n.body)
            n.cont = _unwrap_trivial_loops(n.cont)
            last = n.body[-1]
            if (not n.cont and isinstance(last, Block) and last.jump is not None
                    and last.jump.op == "break" and _jumps_to(n.body) == 1):
                last.instrs.pop()
                for x in n.body:
                    _append(out, x)
                continue
        _append(out, n)
    return out
