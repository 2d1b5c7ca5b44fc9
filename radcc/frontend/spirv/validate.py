"""radcc's own validation of a read SpirvModule: what the translation to MIR relies on.

``validate_module(module, entry=None)`` raises ``SpirvError`` at the word offset of the
first instruction that breaks one of these rules (the reader, ``reader.py`` and
``functions.py``, has already checked the binary form, ids, types and block shapes).
They hold for every valid Vulkan module, so they never reject what ``spirv-val`` accepts;
they exist so that an install without spirv-tools (``spirv_val.py``) never crashes or
miscompiles on an invalid module:

* **operand types** of every instruction the translator handles: arithmetic, bit,
  logical and comparison instructions on the right scalar kind with matching component
  counts and widths, conversions, ``OpSelect``, loads and stores against the pointee,
  access chains (integer indices, constant in-range struct indices, the result pointer),
  composite extract/insert/construct (indices in range, constituent counts),
  vector shuffles, ``OpPhi``, calls, atomics, group operations and GLSL.std.450;
* **SSA dominance**: every use of a result is dominated by its definition (an
  ``OpPhi`` operand by the definition reaching the end of its parent block, which
  must be a predecessor), in blocks reachable from the entry;
* **structured control flow**: every back edge targets a loop header (a block with
  ``OpLoopMerge``; so a block branching to itself is one), a loop header is the target
  of one back edge, a conditional branch or switch without a merge instruction
  leaves to a merge block or continue target, the back-edge block post-dominates the
  continue construct (a continue target that is the header is the back-edge block);
* **decorations**: each on the kind of id it applies to (``Block`` on structs,
  ``ArrayStride`` on arrays and pointers, ``MatrixStride``/``RowMajor``/``ColMajor``
  on members (``Offset`` on members, or any id as transform feedback's and spirv-val
  allow), ``DescriptorSet``/``Binding`` on variables, ``SpecId`` on scalar spec
  constants, ``Location`` on Input/Output variables, ``NoSignedWrap``/``NoUnsignedWrap``
  on integer arithmetic, ``FPRoundingMode`` on stored 16-bit conversions), decorations
  with id operands by ``OpDecorateId`` (those operands defined before the target) and
  no other by it, not repeated, not exclusive pairs (``Restrict``/``Aliased``,
  ``RowMajor``/``ColMajor``), no ``GLSLShared``/``GLSLPacked``, no explicit layout on
  Function, Private, UniformConstant or (without the explicit-layout capability)
  Workgroup variables' types, Input/Output variables holding a bool only as built-ins,
  one object per storage class with BuiltIn members per entry-point function, and the
  resource rules: StorageBuffer/Uniform/PushConstant variables of ``Block`` (or
  ``BufferBlock``) structs, buffers with ``DescriptorSet`` and ``Binding``; explicit
  layouts complete (an ``Offset`` on every member, an ``ArrayStride`` on every
  array) and aligned: offsets and strides multiples of the scalar alignment, strides
  at least the element's size, members not overlapping (the scalar block layout rules,
  the most permissive RDNA3 drivers offer; ``spirv_val`` passes ``--scalar-block-layout``);
* **scopes** (Vulkan): barrier execution scope Workgroup or Subgroup, no CrossDevice
  memory scope, Subgroup scope for group operations, scopes and memory semantics
  32-bit integer constants.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from radcc.ir.dominance import graph_idoms, graph_reverse_postorder

from . import grammar
from .binary import Instruction, Operand
from .capabilities import STORAGE8, STORAGE16
from .errors import SpirvError, SpirvWarning
from .images import ImageType, image_type, unsupported
from .module import SpirvModule
from .spirv_val import SAME_TYPE_CONVERT, storage_only_self_convert
from .types import (
    Block,
    EntryPoint,
    Function,
    Type,
    TypeArray,
    TypeBool,
    TypeCooperativeMatrix,
    TypeFloat,
    TypeFunction,
    TypeInt,
    TypeMatrix,
    TypeOther,
    TypePointer,
    TypeRuntimeArray,
    TypeStruct,
    TypeVector,
    TypeVoid,
    Variable,
)


def validate_module(module: SpirvModule, entry: str | None = None) -> list[SpirvWarning]:
    """Check `module` (module docstring); `entry` is unused (every function is checked).
    Returns the warnings: rules radcc does not enforce because toolchains break them
    (storage-class memory semantics without an order, VUID-...-MemorySemantics-10871; a
    pointer in PhysicalStorageBuffer memory accessed with Aligned 4, -06314)."""
    c = _Checker(module)
    c.run()
    return c.warnings


def _fail(msg: str, ins: Instruction) -> SpirvError:
    return SpirvError(msg, ins.offset, ins.opname)


# opcode -> whether its grammar has a MemoryAccess operand (or another grammar's operands:
# OpExtInst), filled as met
_MEMORY_ACCESS: dict[int, bool] = {}


def _takes_memory_access(opcode: int) -> bool:
    r = _MEMORY_ACCESS.get(opcode)
    if r is None:
        info = grammar.instruction(opcode)
        r = _MEMORY_ACCESS[opcode] = info is None or any(
            o.kind in ("MemoryAccess", "LiteralExtInstInteger", "LiteralSpecConstantOpInteger")
            for o in info.operands)
    return r


# Loop Control's exclusive pairs (SPIR-V spec 3.23 "Loop Control": DontUnroll with the
# controls that ask for unrolling; as spirv-val's loop merge check).
_LOOP_CONTROL_CONFLICTS = ((0x1, 0x2, "Unroll", "DontUnroll"),
                           (0x80, 0x2, "PeelCount", "DontUnroll"),
                           (0x100, 0x2, "PartialCount", "DontUnroll"))


def _loop_control(mi: Instruction) -> None:
    """An OpLoopMerge's Loop Control sets no two exclusive controls, and its
    IterationMultiple is above zero (spirv-val's loop control checks)."""
    control = mi.literal(2)
    assert isinstance(control, int)
    for a, b, na, nb in _LOOP_CONTROL_CONFLICTS:
        if control & a and control & b:
            raise _fail(f"the loop controls {na} and {nb} must not both be set", mi)
    if control & 0x40:
        # the parameters in bit order: DependencyLength 0x8, MinIterations 0x10,
        # MaxIterations 0x20, then IterationMultiple's
        k = sum(1 for bit in (0x8, 0x10, 0x20) if control & bit)
        params = mi.operands[2].params
        if k < len(params) and params[k].value == 0:
            raise _fail("the loop control IterationMultiple 0: it must be above zero", mi)


# ---------------------------------------------------------------- instruction classes

_FLOAT_ARITH = frozenset({"OpFAdd", "OpFSub", "OpFMul", "OpFDiv", "OpFRem", "OpFMod",
                          "OpFNegate"})
_INT_ARITH = frozenset({"OpIAdd", "OpISub", "OpIMul", "OpSDiv", "OpUDiv", "OpSRem", "OpSMod",
                        "OpUMod", "OpSNegate", "OpNot", "OpBitwiseAnd", "OpBitwiseOr",
                        "OpBitwiseXor", "OpBitReverse"})
_SHIFTS = frozenset({"OpShiftLeftLogical", "OpShiftRightLogical", "OpShiftRightArithmetic"})
_LOGICAL = frozenset({"OpLogicalAnd", "OpLogicalOr", "OpLogicalEqual", "OpLogicalNotEqual",
                      "OpLogicalNot"})
_INT_CMP = frozenset({"OpIEqual", "OpINotEqual", "OpSLessThan", "OpSGreaterThan",
                      "OpSLessThanEqual", "OpSGreaterThanEqual", "OpULessThan",
                      "OpUGreaterThan", "OpULessThanEqual", "OpUGreaterThanEqual"})
_FLOAT_CMP = frozenset({"OpFOrdEqual", "OpFUnordNotEqual", "OpFOrdLessThan",
                        "OpFOrdGreaterThan", "OpFOrdLessThanEqual", "OpFOrdGreaterThanEqual",
                        "OpFOrdNotEqual", "OpFUnordEqual", "OpFUnordLessThan",
                        "OpFUnordGreaterThan", "OpFUnordLessThanEqual",
                        "OpFUnordGreaterThanEqual"})
_FLOAT_TEST = frozenset({"OpIsNan", "OpIsInf"})
_CONVERT = {  # opname -> (operand kind, result kind)
    "OpConvertFToU": ("float", "int"), "OpConvertFToS": ("float", "int"),
    "OpConvertSToF": ("int", "float"), "OpConvertUToF": ("int", "float"),
    "OpUConvert": ("int", "int"), "OpSConvert": ("int", "int"),
    "OpFConvert": ("float", "float"),
}
# conversions whose result is unsigned (SPIR-V spec 3.52.11: "Result Type must be a scalar or
# vector of integer type, whose Signedness operand is 0")
_UNSIGNED_RESULT = frozenset({"OpConvertFToU", "OpUConvert"})
_ACCESS_CHAINS = frozenset({"OpAccessChain", "OpInBoundsAccessChain"})
# instructions whose result is a pointer (their result type is checked to be one)
_POINTER_RESULTS = _ACCESS_CHAINS | {"OpPtrAccessChain", "OpInBoundsPtrAccessChain",
                                     "OpImageTexelPointer"}
_ATOMIC_RMW = frozenset({"OpAtomicExchange", "OpAtomicIAdd", "OpAtomicISub", "OpAtomicSMin",
                         "OpAtomicUMin", "OpAtomicSMax", "OpAtomicUMax", "OpAtomicAnd",
                         "OpAtomicOr", "OpAtomicXor", "OpAtomicFAddEXT", "OpAtomicFMinEXT",
                         "OpAtomicFMaxEXT"})
_ATOMIC_FLOAT = frozenset({"OpAtomicFAddEXT", "OpAtomicFMinEXT", "OpAtomicFMaxEXT"})
_GROUP_INT = frozenset({"OpGroupNonUniformIAdd", "OpGroupNonUniformIMul",
                        "OpGroupNonUniformSMin", "OpGroupNonUniformUMin",
                        "OpGroupNonUniformSMax", "OpGroupNonUniformUMax",
                        "OpGroupNonUniformBitwiseAnd", "OpGroupNonUniformBitwiseOr",
                        "OpGroupNonUniformBitwiseXor"})
_GROUP_FLOAT = frozenset({"OpGroupNonUniformFAdd", "OpGroupNonUniformFMul",
                          "OpGroupNonUniformFMin", "OpGroupNonUniformFMax"})
_GROUP_BOOL = frozenset({"OpGroupNonUniformLogicalAnd", "OpGroupNonUniformLogicalOr",
                         "OpGroupNonUniformLogicalXor"})

# GLSL.std.450: component-wise instructions whose operands all have the result's type
_STD_FLOAT = frozenset({"Round", "RoundEven", "Trunc", "FAbs", "FSign", "Floor", "Ceil",
                        "Fract", "Radians", "Degrees", "Sin", "Cos", "Tan", "Asin", "Acos",
                        "Atan", "Sinh", "Cosh", "Tanh", "Asinh", "Acosh", "Atanh", "Atan2",
                        "Pow", "Exp", "Log", "Exp2", "Log2", "Sqrt", "InverseSqrt", "FMin",
                        "FMax", "FClamp", "FMix", "Fma", "NMin", "NMax", "NClamp", "Step",
                        "SmoothStep"})
_STD_INT = frozenset({"SAbs", "SSign", "UMin", "SMin", "UMax", "SMax", "UClamp", "SClamp"})

# Vulkan scopes (SPIR-V Scope values)
_CROSS_DEVICE, _DEVICE, _WORKGROUP, _SUBGROUP = 0, 1, 2, 3
_SCOPE_NAMES = {0: "CrossDevice", 1: "Device", 2: "Workgroup", 3: "Subgroup", 4: "Invocation",
                5: "QueueFamily", 6: "ShaderCallKHR"}

# UniformMemory, WorkgroupMemory, ImageMemory, OutputMemory: the storage classes of the memory
# semantics Vulkan supports (VUID-StandaloneSpirv-MemorySemantics-10870)
_VULKAN_STORAGE_SEMANTICS = 0x40 | 0x100 | 0x800 | 0x1000
_ACQUIRE, _RELEASE, _ACQUIRE_RELEASE = 0x2, 0x4, 0x8
_OUTPUT_MEMORY, _MAKE_AVAILABLE, _MAKE_VISIBLE, _VOLATILE = 0x1000, 0x2000, 0x4000, 0x8000
_VULKAN_MODEL_SEMANTICS = _MAKE_AVAILABLE | _MAKE_VISIBLE | _VOLATILE
_MODEL_BIT_NAMES = ((_OUTPUT_MEMORY, "OutputMemory"), (_MAKE_AVAILABLE, "MakeAvailable"),
                    (_MAKE_VISIBLE, "MakeVisible"), (_VOLATILE, "Volatile"))
_QUEUE_FAMILY, _INVOCATION, _SHADER_CALL = 5, 4, 6
_RAY_TRACING_MODELS = frozenset({"RayGenerationKHR", "IntersectionKHR", "AnyHitKHR",
                                 "ClosestHitKHR", "MissKHR", "CallableKHR"})
_WORKGROUP_MODELS = frozenset({"GLCompute", "TessellationControl", "TaskEXT", "MeshEXT",
                               "TaskNV", "MeshNV"})
_SEQUENTIALLY_CONSISTENT = 0x10
# the uses of a value holding an 8/16-bit type declared by a storage capability alone
# (SPV_KHR_8bit_storage, SPV_KHR_16bit_storage; spirv-val's ValidateSmallTypeUses)
_SMALL_USES = frozenset({"OpCopyObject", "OpStore", "OpFConvert", "OpUConvert", "OpSConvert"})
# Memory Operands (SPIR-V spec 3.26) and the storage classes NonPrivatePointer allows
_MAKE_POINTER_AVAILABLE, _MAKE_POINTER_VISIBLE, _NON_PRIVATE_POINTER = 0x8, 0x10, 0x20
_NON_PRIVATE_CLASSES = frozenset({"Uniform", "Workgroup", "CrossWorkgroup", "Generic", "Image",
                                  "StorageBuffer", "PhysicalStorageBuffer"})
# Image Operands (SPIR-V spec 3.14) that take ids, in bit order: (bit, name, ids); those
# that take none (NonPrivateTexel, VolatileTexel, SignExtend, ZeroExtend, Nontemporal)
# are not listed, MakeTexelAvailable/Visible's scope ids are checked as scopes
_IMAGE_OPERAND_IDS = ((0x1, "Bias", 1), (0x2, "Lod", 1), (0x4, "Grad", 2),
                      (0x8, "ConstOffset", 1), (0x10, "Offset", 1), (0x20, "ConstOffsets", 1),
                      (0x40, "Sample", 1), (0x80, "MinLod", 1), (0x100, "MakeTexelAvailable", 1),
                      (0x200, "MakeTexelVisible", 1), (0x10000, "Offsets", 1))

# the storage classes whose types may carry explicit layout (Offset, ArrayStride,
# MatrixStride): VUID-StandaloneSpirv-None-10684 (Workgroup: with
# VK_KHR_workgroup_memory_explicit_layout)
_EXPLICIT_LAYOUT = frozenset({"StorageBuffer", "Uniform", "PushConstant",
                              "PhysicalStorageBuffer", "Workgroup"})

# decorations and the kinds of target they may be on
_MATRIX_OPS = frozenset({"OpMatrixTimesVector", "OpVectorTimesMatrix", "OpMatrixTimesMatrix",
                         "OpMatrixTimesScalar", "OpTranspose", "OpOuterProduct"})
# (Offset is also a transform-feedback variable's: spirv-val takes OpDecorate Offset on
# any id; radcc reads only members' offsets)
_MEMBER_ONLY = frozenset({"MatrixStride", "RowMajor", "ColMajor"})
# (Dim, cube arrayed) -> the capability reading or writing such a storage image needs
# (SPIR-V spec 3.9 "Dim": spirv-val's image read/write checks)
_STORAGE_DIM_CAPS = {("1D", False): "Image1D", ("Rect", False): "ImageRect",
                     ("Buffer", False): "ImageBuffer", ("Cube", True): "ImageCubeArray"}
# decorations of variables in the Input/Output storage classes only (Vulkan's VUIDs)
_INTERFACE_ONLY = {"Invariant": "VUID-StandaloneSpirv-Invariant-04677",
                   **{d: "VUID-StandaloneSpirv-Flat-04670"
                      for d in ("Flat", "NoPerspective", "Centroid", "Sample")}}
# decorations that never apply to a structure member (SPIR-V spec 3.20 "Decoration": those
# that apply to types, objects or instructions; spirv-val's IsNotMemberDecoration)
_NOT_MEMBER = frozenset({
    "SpecId", "Block", "BufferBlock", "ArrayStride", "GLSLShared", "GLSLPacked", "CPacked",
    "Aliased", "Constant", "Uniform", "UniformId", "SaturatedConversion", "Index", "Binding",
    "DescriptorSet", "FuncParamAttr", "FPRoundingMode", "FPFastMathMode",
    "LinkageAttributes", "NoContraction", "InputAttachmentIndex", "Alignment",
    "MaxByteOffset", "AlignmentId", "MaxByteOffsetId", "NoSignedWrap", "NoUnsignedWrap",
    "NonUniform", "RestrictPointer", "AliasedPointer", "CounterBuffer",
    "HlslCounterBufferGOOGLE"})
# execution models whose Input/Output variables have locations (the Vulkan spec's
# "Location Assignment"), and the limit of the locations checked (spirv-val's 4096)
_LOCATION_MODELS = frozenset({"Vertex", "TessellationControl", "TessellationEvaluation",
                              "Geometry", "Fragment"})
_LOCATION_SLOTS = 4096 * 4
_STRUCT_ONLY = frozenset({"Block", "BufferBlock", "GLSLShared", "GLSLPacked"})
_VARIABLE_ONLY = frozenset({"DescriptorSet", "Binding"})
_MEMORY_OBJECT = frozenset({"NonWritable", "NonReadable", "Restrict", "Aliased", "Coherent",
                            "Volatile", "RestrictPointer", "AliasedPointer", "Flat",
                            "NoPerspective", "Centroid", "Sample"})
# vertex attributes, parameter exports and fragment inputs: 32 of each (RADV's
# maxVertexInputAttributes 32, maxVertexOutputComponents and maxFragmentInputComponents 128)
_MAX_LOCATIONS = 32
_MAX_ID_BOUND = 0x3FFFFF  # spirv-val's default limit (universal limits: 4,194,303 ids)
# built-in -> (kind, width, components, an array of them) (Vulkan's "Built-In Variables")
_BUILTIN_SHAPES: dict[str, tuple[str, int, int, bool]] = {
    **{b: ("int", 32, 1, False) for b in (
        "LocalInvocationIndex", "VertexIndex", "InstanceIndex", "SubgroupSize",
        "SubgroupLocalInvocationId", "NumSubgroups", "SubgroupId", "PrimitiveId", "SampleId",
        "BaseVertex", "BaseInstance", "DrawIndex", "ViewIndex", "DeviceIndex")},
    **{b: ("int", 32, 3, False) for b in (
        "LocalInvocationId", "GlobalInvocationId", "WorkgroupId", "NumWorkgroups",
        "WorkgroupSize")},
    **{b: ("int", 32, 4, False) for b in (
        "SubgroupEqMask", "SubgroupGeMask", "SubgroupGtMask", "SubgroupLeMask",
        "SubgroupLtMask")},
    "Position": ("float", 32, 4, False), "FragCoord": ("float", 32, 4, False),
    "PointSize": ("float", 32, 1, False), "FragDepth": ("float", 32, 1, False),
    "PointCoord": ("float", 32, 2, False), "SamplePosition": ("float", 32, 2, False),
    "ClipDistance": ("float", 32, 1, True), "CullDistance": ("float", 32, 1, True),
    "SampleMask": ("int", 32, 1, True),
    "FrontFacing": ("bool", 1, 1, False), "HelperInvocation": ("bool", 1, 1, False),
}
# built-ins and the execution models Vulkan allows them in (the Vulkan spec's "Built-In
# Variables": VUID-VertexIndex-VertexIndex-04398, VUID-FragCoord-FragCoord-04210,
# VUID-LocalInvocationId-LocalInvocationId-04281 and the like)
_COMPUTE_MODELS = frozenset({"GLCompute", "TaskEXT", "MeshEXT", "TaskNV", "MeshNV"})
_BUILTIN_MODELS: dict[str, frozenset[str]] = {
    **{b: frozenset({"Vertex"}) for b in ("VertexIndex", "InstanceIndex", "BaseVertex",
                                          "BaseInstance", "DrawIndex")},
    **{b: _COMPUTE_MODELS for b in ("LocalInvocationId", "GlobalInvocationId", "WorkgroupId",
                                    "NumWorkgroups", "LocalInvocationIndex")},
    **{b: frozenset({"Fragment"}) for b in ("FragCoord", "FrontFacing", "HelperInvocation",
                                            "PointCoord", "SampleId", "SamplePosition",
                                            "FragDepth", "SampleMask")},
}
_DERIVATIVES = frozenset({"OpDPdx", "OpDPdy", "OpFwidth", "OpDPdxFine", "OpDPdyFine",
                          "OpFwidthFine", "OpDPdxCoarse", "OpDPdyCoarse", "OpFwidthCoarse"})
# decorations that exclude each other on one id or member (spirv-val's
# CheckDecorationsCompatibility)
_EXCLUSIVE = {"Restrict": "Aliased", "Aliased": "Restrict", "RowMajor": "ColMajor",
              "ColMajor": "RowMajor"}
# the instructions NoSignedWrap / NoUnsignedWrap may decorate (SPIR-V spec 3.20)
_WRAP_OPS = frozenset({"OpIAdd", "OpISub", "OpIMul", "OpShiftLeftLogical", "OpSNegate",
                       "OpExtInst"})
_REPEATABLE = frozenset({"UserSemantic", "UserTypeGOOGLE", "HlslSemanticGOOGLE"})
_BUFFER_CLASSES = frozenset({"StorageBuffer", "Uniform", "PushConstant"})
# (type record, width) -> capabilities, any of which allows the type (the first is named)
# Type declarations that may repeat (aggregates and pointers: spirv-val's ValidateUniqueness,
# source/val/validate_type.cpp); every other type is declared once.
_MAY_REPEAT = frozenset({"OpTypeStruct", "OpTypeArray", "OpTypeRuntimeArray", "OpTypePointer",
                         "OpTypeForwardPointer", "OpTypeUntypedPointerKHR"})
_WIDTH_CAPS: dict[tuple[str, int], tuple[str, ...]] = {
    ("TypeInt", 64): ("Int64", "Int64Atomics"),
    ("TypeFloat", 64): ("Float64",),
    ("TypeInt", 16): ("Int16", *STORAGE16),
    ("TypeFloat", 16): ("Float16", "Float16Buffer", *STORAGE16),
    ("TypeInt", 8): ("Int8", *STORAGE8),
}


# the storage classes of read-only memory (OpStore through them is an error)
_READ_ONLY = ("Input", "PushConstant", "UniformConstant")


class _Checker:
    def __init__(self, m: SpirvModule) -> None:
        self.m = m
        # (target, member or None, decoration) -> the instruction that applies it
        self.dec_at: dict[tuple[int, int | None, str], Instruction] = {}
        self.warnings: list[SpirvWarning] = []
        # 8/16-bit types declared by storage capabilities only -> the full capability
        self.small: dict[int, str] = {}
        self._limited_cache: dict[int, bool] = {}

    def run(self) -> None:
        if self.m.header.bound > _MAX_ID_BOUND:
            raise SpirvError(f"the id bound {self.m.header.bound} is larger than "
                             f"{_MAX_ID_BOUND} (the universal limit)", 3)
        self.owner = {ins.result_id: fn.id for fn in self.m.functions for b in fn.blocks
                      for ins in b.instructions if ins.result_id is not None}
        self.owner.update({p.id: fn.id for fn in self.m.functions for p in fn.params})
        self.models = self._execution_models()
        self.fn_models: set[str] = set()
        self.module_declarations()
        self.types()
        self.small_names()
        self.interfaces()
        self.decorations()
        self.rounding_modes()
        self.resources()
        self.spec_constant_ops()
        for fn in self.m.functions:
            if fn.blocks:
                self.function(fn)

    def _entry_offset(self, ep: EntryPoint) -> int:
        ins = next((i for i in self.m.instructions if i.opname == "OpEntryPoint"
                    and i.id(1) == ep.function), None)
        return 0 if ins is None else ins.offset

    def _execution_models(self) -> dict[int, set[str]]:
        """The execution models of the entry points whose call graph holds each function."""
        calls = {fn.id: {ins.id(0) for b in fn.blocks for ins in b.instructions
                         if ins.opname == "OpFunctionCall" and ins.operands}
                 for fn in self.m.functions}
        out: dict[int, set[str]] = {}
        for ep in self.m.entry_points:
            todo = [ep.function]
            while todo:
                f = todo.pop()
                if ep.execution_model in out.setdefault(f, set()):
                    continue
                out[f].add(ep.execution_model)
                todo.extend(calls.get(f, ()))
        return out

    def module_declarations(self) -> None:
        """The VulkanMemoryModel capability comes with the Vulkan memory model (spirv-val's
        memory model checks; a capability's own version/extension requirement is the
        reader's, from the grammar's ENUM_REQUIREMENTS); no opcode or enumerant a
        later SPIR-V version than the module's removed (the grammar's LAST_VERSIONS:
        BufferBlock after 1.3)."""
        m = self.m
        for ep in m.entry_points:
            if ep.execution_model != "Fragment":
                continue
            for mode, vuid in (("OriginLowerLeft", "OriginLowerLeft-04653"),
                               ("PixelCenterInteger", "PixelCenterInteger-04654")):
                if ep.mode(mode) is not None:
                    raise SpirvError(f"fragment entry point {ep.name!r}: Vulkan does not allow "
                                     f"the {mode} execution mode (VUID-StandaloneSpirv-{vuid})",
                                     self._entry_offset(ep))
            if ep.mode("OriginUpperLeft") is None:
                raise SpirvError(f"fragment entry point {ep.name!r} has no OriginUpperLeft "
                                 "execution mode (VUID-StandaloneSpirv-OriginLowerLeft-04653)",
                                 self._entry_offset(ep))
        vulkan = m.memory_model in ("Vulkan", "VulkanKHR")
        if not vulkan and {"VulkanMemoryModel", "VulkanMemoryModelKHR"} & set(m.capabilities):
            for ins in m.instructions:  # (nothing a later version removed can precede it)
                if ins.opname == "OpMemoryModel":
                    raise _fail("the VulkanMemoryModel capability is declared but the memory "
                                f"model is {m.memory_model}, not Vulkan", ins)
        removal = grammar.earliest_removal()
        if removal is None or m.version <= removal:
            return  # (a module no later than every removal: the walk would find nothing)
        last = grammar.last_versions()
        opcodes = last.get("Opcode", {})
        kinds = last.keys() - {"Opcode"}
        for ins in m.instructions:
            if ins.opcode in opcodes:
                self._removed(ins, "Opcode", ins.opcode, ins.opname)
            for o in ins.operands:
                if o.kind in kinds:
                    self._removed(ins, o.kind, int(o.value), o.name)  # type: ignore[arg-type]

    def _removed(self, ins: Instruction, kind: str, value: int, what: str) -> None:
        """`module_declarations`' check of an opcode or enumerant a later version removed."""
        m = self.m
        end = grammar.last_version(kind, value)
        if end is not None and m.version > end:
            raise _fail(f"{what} was removed after SPIR-V {end[0]}.{end[1]}; the "
                        f"module is SPIR-V {m.version[0]}.{m.version[1]}", ins)

    def spec_constant_ops(self) -> None:
        """OpSpecConstantOp: its operands are constants (no variable, no pointer: spirv-val
        "Instruction may not have a logical pointer operand"), and the instruction it
        names is checked as that instruction."""
        m = self.m
        for sc in m.spec_constants.values():
            if sc.opname != "OpSpecConstantOp":
                continue
            ins = m.defs[sc.id]
            fake = Instruction(grammar.opcode(sc.op), sc.op, sc.type, sc.id, tuple(sc.op_operands),
                               ins.offset)
            for v in fake.ids():
                if not m.is_constant(v) and v not in m.undefs:
                    raise _fail(f"OpSpecConstantOp {fake.opname}: the operand %{v} is not a "
                                "constant", ins)
            self.instruction(fake)

    # ================================================================ type helpers
    def t(self, tid: int | None) -> Type | None:
        return None if tid is None else self.m.types.get(tid)

    def vtype(self, vid: int) -> int | None:
        ins = self.m.defs.get(vid)
        return None if ins is None else ins.result_type

    def shape(self, tid: int | None) -> tuple[str, int, int] | None:
        """(kind, width, count) of a scalar or vector type: kind int/float/bool."""
        types = self.m.types
        t = None if tid is None else types.get(tid)
        n = 1
        if isinstance(t, TypeVector):
            n, t = t.count, types.get(t.component)
        if isinstance(t, TypeBool):
            return ("bool", 1, n)
        if isinstance(t, TypeInt):
            return ("int", t.width, n)
        if isinstance(t, TypeFloat):
            return ("float", t.width, n)
        return None

    def _bfloat(self, tid: int | None) -> bool:
        """Is the (component) type of `tid` bfloat16?"""
        t = self.t(tid)
        t = self.t(t.component) if isinstance(t, TypeVector) else t
        return isinstance(t, TypeFloat) and t.bfloat16

    def type_name(self, tid: int | None) -> str:
        if tid is None:
            return "no type"
        s = self.shape(tid)
        if s is not None:
            kind, w, n = s
            base = {"int": f"{self._sign(tid)}int{w}", "float": f"float{w}", "bool": "bool"}[kind]
            return f"%{tid} ({base}{'' if n == 1 else f'x{n}'})"
        t = self.t(tid)
        return f"%{tid} ({type(t).__name__.removeprefix('Type').lower() if t else 'not a type'})"

    def _sign(self, tid: int | None) -> str:
        t = self.t(tid)
        if isinstance(t, TypeVector):
            t = self.t(t.component)
        return "" if isinstance(t, TypeInt) and t.signed else "u"

    def need_shape(self, ins: Instruction, tid: int | None, kind: str, what: str) -> \
            tuple[str, int, int]:
        s = self.shape(tid)
        if s is None or s[0] != kind:
            noun = {"int": "an integer", "float": "a floating-point", "bool": "a boolean"}[kind]
            raise _fail(f"{what} must be {noun} scalar or vector, not {self.type_name(tid)}",
                        ins)
        return s

    def operand_type(self, ins: Instruction, vid: int, k: int) -> int | None:
        tid = self.vtype(vid)
        if tid is None:
            raise _fail(f"operand {k} (%{vid}) is not a value", ins)
        return tid

    def same(self, ins: Instruction, want: int | None, got: int | None, what: str) -> None:
        if want != got:
            raise _fail(f"{what} has type {self.type_name(got)}, expected "
                        f"{self.type_name(want)}", ins)

    def logically_match(self, a: int | None, b: int | None) -> bool:
        """SPIR-V's "logically match" (OpCopyLogical): arrays of the same length id and
        structs of as many members whose element types are the same or logically match
        (decorations aside); no other types. Iterative: type nesting has no bound here."""
        work = [(a, b)]
        while work:
            x, y = work.pop()
            if x == y and x is not None:
                continue
            tx, ty = self.t(x), self.t(y)
            if isinstance(tx, TypeArray) and isinstance(ty, TypeArray):
                if tx.length != ty.length:
                    return False
                work.append((tx.element, ty.element))
            elif isinstance(tx, TypeStruct) and isinstance(ty, TypeStruct):
                if len(tx.members) != len(ty.members):
                    return False
                work.extend(zip(tx.members, ty.members, strict=True))
            else:
                return False
        return True

    def const_int(self, vid: int) -> int | None:
        c = self.m.constants.get(vid)
        if c is None or isinstance(c.value, bool) or not isinstance(c.value, int):
            return 0 if c is not None and c.null and isinstance(self.t(c.type), TypeInt) \
                else None
        return c.value

    # ================================================================ instructions
    def instruction(self, ins: Instruction) -> None:
        op = ins.opname
        ids = ins.id_list
        if ids is None:
            ids = ins.id_tuple()
        rt = ins.result_type
        if self.small and op not in _SMALL_USES:
            for v in ids:
                if self._limited(self.vtype(v)):
                    raise _fail(f"%{v} ({self.type_name(self.vtype(v))}) holds a type declared "
                                "by a storage capability alone: it may only be stored, copied "
                                "or converted by width (OpUConvert, OpSConvert, OpFConvert)",
                                ins)
        mem = _MEMORY_ACCESS.get(ins.opcode)
        if mem is None:
            mem = _takes_memory_access(ins.opcode)
        if mem:
            for o in ins.operands:  # MakePointerAvailable/Visible's scope ids
                if o.kind == "MemoryAccess":
                    for q in o.params:
                        if q.is_id:
                            self.scope(ins, int(q.value), "memory")
        cm = None if rt is None else self.m.types.get(rt)
        if isinstance(cm, TypeFunction):
            raise _fail(f"the result type %{rt} is a function type", ins)
        if isinstance(cm, TypeCooperativeMatrix) and op not in _POINTER_RESULTS \
                and op != "OpLoad":
            kind = "int" if op in _INT_ARITH else "float" if op in _FLOAT_ARITH else None
            comp = self.shape(cm.component)
            if kind is not None and (comp is None or comp[0] != kind):
                raise _fail(f"{op} of a cooperative matrix of {self.type_name(cm.component)}",
                            ins)
            if op == "OpCooperativeMatrixLoadKHR":
                self.memory_access(ins, int(ids[0]))
                self._coop_pointer(ins, int(ids[0]))
            self._coop_operands(ins, rt, cm, ids)
            return  # element-wise on cooperative matrices: spirv_to_mir/coopmat.py checks
        check = _CHECKS.get(op)  # (one lookup: no chain of comparisons per instruction)
        if check is not None:
            check(self, ins, op, rt, ids)
        elif op.startswith("OpGroupNonUniform"):
            self.group(ins, rt, [int(v) for v in ids])
        elif op.startswith("OpImage"):
            raise _fail(f"{op} is not supported yet", ins)

    def _typed_as(self, ids: tuple[int, ...], tid: int | None) -> bool:
        """Is every id a value of type `tid`? (The common case of the checks of
        arithmetic: they then pass without saying what is wrong with an operand.)"""
        defs = self.m.defs
        for v in ids:
            d = defs.get(v)
            if d is None or d.result_type != tid:
                return False
        return True

    def _i_float_arith(self, ins: Instruction, op: str, rt: int | None,
                       ids: tuple[int, ...]) -> None:
        s = self.shape(rt)
        if s is not None and s[0] == "float" and self._typed_as(ids, rt):
            return
        self.need_shape(ins, rt, "float", "the result type")
        for k, v in enumerate(ids):
            self.same(ins, rt, self.operand_type(ins, int(v), k), f"operand {k}")

    def _i_quantize(self, ins: Instruction, op: str, rt: int | None,
                    ids: tuple[int, ...]) -> None:
        if self.need_shape(ins, rt, "float", "the result type")[1] != 32:
            raise _fail(f"OpQuantizeToF16 gives 32-bit floats, not "
                        f"{self.type_name(rt)}", ins)
        self.same(ins, rt, self.operand_type(ins, int(ids[0]), 0), "the operand")

    def _i_int_arith(self, ins: Instruction, op: str, rt: int | None,
                     ids: tuple[int, ...]) -> None:
        s = self.shape(rt)
        if s is not None and s[0] == "int" and op != "OpUDiv" and op != "OpUMod" and \
                self._typed_as(ids, rt):
            return
        _, w, n = self.need_shape(ins, rt, "int", "the result type")
        if op in ("OpUDiv", "OpUMod"):
            rtt = self.t(rt)
            ctype = self.t(rtt.component) if isinstance(rtt, TypeVector) else rtt
            if isinstance(ctype, TypeInt) and ctype.signed:
                raise _fail(f"{op} of {self.type_name(rt)}: the result type is an "
                            "unsigned integer scalar or vector", ins)
        for k, v in enumerate(ids):
            s = self.need_shape(ins, self.operand_type(ins, int(v), k), "int", f"operand {k}")
            if s[2] != n or (s[1] != w and not (op in _SHIFTS and k == 1)) or (
                    op in ("OpUDiv", "OpUMod") and self.vtype(int(v)) != rt):
                raise _fail(f"operand {k} has type {self.type_name(self.vtype(int(v)))}, "
                            f"the result {self.type_name(rt)}", ins)

    def _i_bit_count(self, ins: Instruction, op: str, rt: int | None,
                     ids: tuple[int, ...]) -> None:
        _, _, n = self.need_shape(ins, rt, "int", "the result type")
        s = self.need_shape(ins, self.operand_type(ins, int(ids[0]), 0), "int", "operand 0")
        if s[2] != n:
            raise _fail("operand 0 and the result have different component counts", ins)

    def _i_bit_field(self, ins: Instruction, op: str, rt: int | None,
                     ids: tuple[int, ...]) -> None:
        self.need_shape(ins, rt, "int", "the result type")
        nbase = 2 if op == "OpBitFieldInsert" else 1
        for k, v in enumerate(ids):
            tid = self.operand_type(ins, int(v), k)
            if k < nbase:
                self.same(ins, rt, tid, f"operand {k}")
            elif self.need_shape(ins, tid, "int", f"operand {k}")[2] != 1:
                raise _fail(f"operand {k} (offset/count) must be an integer scalar", ins)

    def _i_logical(self, ins: Instruction, op: str, rt: int | None,
                   ids: tuple[int, ...]) -> None:
        self.need_shape(ins, rt, "bool", "the result type")
        for k, v in enumerate(ids):
            self.same(ins, rt, self.operand_type(ins, int(v), k), f"operand {k}")

    def _i_compare(self, ins: Instruction, op: str, rt: int | None,
                   ids: tuple[int, ...]) -> None:
        _, _, n = self.need_shape(ins, rt, "bool", "the result type")
        kind = "int" if op in _INT_CMP else "float"
        first = self.operand_type(ins, int(ids[0]), 0)
        s = self.need_shape(ins, first, kind, "operand 0")
        if s[2] != n:
            raise _fail("the operands and the result have different component counts", ins)
        for k, v in enumerate(ids[1:], 1):
            t2 = self.operand_type(ins, int(v), k)
            s2 = self.need_shape(ins, t2, kind, f"operand {k}")
            if s2[1:] != s[1:] or (kind == "float" and t2 != first):
                raise _fail(f"operand {k} has type {self.type_name(t2)}, operand 0 "
                            f"{self.type_name(first)}", ins)

    def _i_convert(self, ins: Instruction, op: str, rt: int | None,
                   ids: tuple[int, ...]) -> None:
        src_kind, dst_kind = _CONVERT[op]
        _, _, n = self.need_shape(ins, rt, dst_kind, "the result type")
        s = self.need_shape(ins, self.operand_type(ins, int(ids[0]), 0), src_kind,
                            "operand 0")
        if s[2] != n:
            raise _fail("the operand and the result have different component counts", ins)
        src = self.operand_type(ins, int(ids[0]), 0)
        if op == "OpFConvert" and self.shape(rt) == self.shape(src) and \
                self._bfloat(rt) == self._bfloat(src):
            # SPIR-V spec 3.52.11 OpFConvert: "The component width cannot equal the
            # component width in Result Type" (bfloat16 <-> float16 differ in encoding);
            # glslang emits it (spirv_val's docstring): a warning, translated as a copy
            if not storage_only_self_convert(self.m, ins):
                raise _fail(f"OpFConvert from {self.type_name(src)} to the same component "
                            "type", ins)
            self.warnings.append(SpirvWarning(
                f"{SAME_TYPE_CONVERT} {self.type_name(src)}, which SPIR-V does not "
                "allow (glslang's float16_t(x) with only 16-bit storage): a copy",
                ins.offset, ins.opname))
        if op in _UNSIGNED_RESULT and self._sign(rt) != "u":
            raise _fail(f"the result type must be an unsigned integer scalar or vector, "
                        f"not {self.type_name(rt)}", ins)
        if op in ("OpUConvert", "OpSConvert") and self.shape(rt) == self.shape(src):
            # SPIR-V spec 3.52.11 OpUConvert/OpSConvert: "The component width cannot
            # equal the component width in Result Type"
            raise _fail(f"{op} from {self.type_name(src)} to the same component width",
                        ins)

    def _i_all_any(self, ins: Instruction, op: str, rt: int | None,
                   ids: tuple[int, ...]) -> None:
        if self.shape(rt) != ("bool", 1, 1):
            raise _fail(f"the result type {self.type_name(rt)} is not a boolean scalar", ins)
        s2 = self.need_shape(ins, self.operand_type(ins, int(ids[0]), 0), "bool", "the vector")
        if s2[2] < 2:
            raise _fail("the operand must be a boolean vector", ins)

    def _i_bitcast(self, ins: Instruction, op: str, rt: int | None,
                   ids: tuple[int, ...]) -> None:
        self.bitcast(ins, rt, int(ids[0]))

    def _i_pointer_conversion(self, ins: Instruction, op: str, rt: int | None,
                              ids: tuple[int, ...]) -> None:
        self.pointer_conversion(ins, rt, int(ids[0]))

    def _i_select(self, ins: Instruction, op: str, rt: int | None,
                  ids: tuple[int, ...]) -> None:
        self.select(ins, rt, [int(v) for v in ids])

    def _i_derivative(self, ins: Instruction, op: str, rt: int | None,
                      ids: tuple[int, ...]) -> None:
        self.need_shape(ins, rt, "float", "the result type")
        if self.shape(rt)[1] != 32:  # type: ignore[index]
            raise _fail(f"{op} of {self.type_name(rt)}: 32-bit floats only", ins)
        self.same(ins, rt, self.operand_type(ins, int(ids[0]), 0), "the operand")

    def _plain_access(self, ins: Instruction, ptr: int, operands: int) -> TypePointer | None:
        """The type of the pointer `ptr` of a load or store that `memory_access` has
        nothing to check (no memory operands after its `operands`, not through a
        PhysicalStorageBuffer pointer: most of them); None otherwise."""
        pt = self.t(self.vtype(ptr))
        if len(ins.operands) != operands or not isinstance(pt, TypePointer) or \
                pt.storage_class == "PhysicalStorageBuffer":
            return None
        return pt

    def _i_load(self, ins: Instruction, op: str, rt: int | None,
                ids: tuple[int, ...]) -> None:
        pt = self._plain_access(ins, ids[0], 1)
        if pt is not None and pt.pointee == rt:
            return
        self.memory_access(ins, int(ids[0]))
        self.same(ins, self.pointee(ins, int(ids[0]), "the pointer"), rt, "the result")

    def _i_coop_length(self, ins: Instruction, op: str, rt: int | None,
                       ids: tuple[int, ...]) -> None:
        r = self.t(rt)
        if not isinstance(r, TypeInt) or r.width != 32 or r.signed:
            raise _fail(f"the result type {self.type_name(rt)} of {op} is not a 32-bit "
                        "unsigned integer (SPV_KHR_cooperative_matrix)", ins)
        if not isinstance(self.t(int(ids[0])), TypeCooperativeMatrix):
            raise _fail(f"%{ids[0]} is not a cooperative matrix type", ins)

    def _i_coop_store(self, ins: Instruction, op: str, rt: int | None,
                      ids: tuple[int, ...]) -> None:
        self.memory_access(ins, int(ids[0]))
        self._coop_pointer(ins, int(ids[0]))

    def _i_store(self, ins: Instruction, op: str, rt: int | None,
                 ids: tuple[int, ...]) -> None:
        pt = self._plain_access(ins, ids[0], 2)
        if pt is not None and pt.storage_class not in _READ_ONLY and \
                self.vtype(ids[1]) == pt.pointee:
            return
        self.memory_access(ins, int(ids[0]))
        spt = self.t(self.vtype(int(ids[0])))
        if isinstance(spt, TypePointer) and spt.storage_class in _READ_ONLY:
            raise _fail(f"a store through a {spt.storage_class} pointer (read-only memory)",
                        ins)
        want = self.pointee(ins, int(ids[0]), "the pointer")
        self.same(ins, want, self.operand_type(ins, int(ids[1]), 1), "the stored object")

    def _i_copy_memory(self, ins: Instruction, op: str, rt: int | None,
                       ids: tuple[int, ...]) -> None:
        a: int | None = self.pointee(ins, int(ids[0]), "the target")
        self.same(ins, a, self.pointee(ins, int(ids[1]), "the source"), "the source pointee")

    def _i_copy_object(self, ins: Instruction, op: str, rt: int | None,
                       ids: tuple[int, ...]) -> None:
        self.same(ins, rt, self.operand_type(ins, int(ids[0]), 0), "the operand")

    def _i_copy_logical(self, ins: Instruction, op: str, rt: int | None,
                        ids: tuple[int, ...]) -> None:
        src = self.operand_type(ins, int(ids[0]), 0)
        if rt == src:
            raise _fail("the result type is the operand's (OpCopyLogical copies between "
                        "distinct types: OpCopyObject copies within one)", ins)
        if not self.logically_match(src, rt):
            raise _fail(f"the result type {self.type_name(rt)} does not logically match "
                        f"the operand's {self.type_name(src)}", ins)

    def _i_access_chain(self, ins: Instruction, op: str, rt: int | None,
                        ids: tuple[int, ...]) -> None:
        self.access_chain(ins, rt, [int(v) for v in ids])

    def _i_ptr_access_chain(self, ins: Instruction, op: str, rt: int | None,
                            ids: tuple[int, ...]) -> None:
        base = self.t(self.vtype(int(ids[0])))
        if not isinstance(base, TypePointer) or base.storage_class not in (
                "StorageBuffer", "PhysicalStorageBuffer", "Workgroup"):
            raise _fail(f"{op} on a pointer that is not to StorageBuffer, "
                        "PhysicalStorageBuffer or Workgroup memory is not supported", ins)
        es = self.shape(self.vtype(int(ids[1])))
        if es is None or es[0] != "int" or es[2] != 1:
            raise _fail(f"the Element (%{ids[1]}) is not an integer scalar", ins)
        self.access_chain(ins, rt, [int(ids[0])] + [int(v) for v in ids[2:]])

    def _i_variable_pointers(self, ins: Instruction, op: str, rt: int | None,
                             ids: tuple[int, ...]) -> None:
        raise _fail(f"variable pointers ({op}) are not supported", ins)

    def _i_composite_extract(self, ins: Instruction, op: str, rt: int | None,
                             ids: tuple[int, ...]) -> None:
        tid = self.walk_literal(ins, self.operand_type(ins, int(ids[0]), 0),
                                [int(o.value) for o in ins.operands[1:]])
        self.same(ins, rt, tid, "the extracted element (the result type)")

    def _i_composite_insert(self, ins: Instruction, op: str, rt: int | None,
                            ids: tuple[int, ...]) -> None:
        ctid = self.operand_type(ins, int(ids[1]), 1)
        self.same(ins, rt, ctid, "the composite")
        tid = self.walk_literal(ins, ctid, [int(o.value) for o in ins.operands[2:]])
        self.same(ins, tid, self.operand_type(ins, int(ids[0]), 0), "the object")

    def _i_composite_construct(self, ins: Instruction, op: str, rt: int | None,
                               ids: tuple[int, ...]) -> None:
        self.construct(ins, rt, [int(v) for v in ids])

    def _i_shuffle(self, ins: Instruction, op: str, rt: int | None,
                   ids: tuple[int, ...]) -> None:
        self.shuffle(ins, rt)

    def _i_vector_dynamic(self, ins: Instruction, op: str, rt: int | None,
                          ids: tuple[int, ...]) -> None:
        self.vector_dynamic(ins, rt, [int(v) for v in ids])

    def _i_dot(self, ins: Instruction, op: str, rt: int | None,
               ids: tuple[int, ...]) -> None:
        self.need_shape(ins, rt, "float", "the result type")
        a = self.operand_type(ins, int(ids[0]), 0)
        s = self.need_shape(ins, a, "float", "operand 0")
        self.same(ins, a, self.operand_type(ins, int(ids[1]), 1), "operand 1")
        if s[2] < 2 or self.shape(rt) != (s[0], s[1], 1):
            raise _fail("OpDot takes two float vectors and gives their component type",
                        ins)

    def _i_vector_times_scalar(self, ins: Instruction, op: str, rt: int | None,
                               ids: tuple[int, ...]) -> None:
        _, w, n = self.need_shape(ins, rt, "float", "the result type")
        self.same(ins, rt, self.operand_type(ins, int(ids[0]), 0), "the vector")
        if self.shape(self.operand_type(ins, int(ids[1]), 1)) != ("float", w, 1) or n < 2:
            raise _fail("the scalar is not the vector's component type", ins)

    def _i_phi(self, ins: Instruction, op: str, rt: int | None,
               ids: tuple[int, ...]) -> None:
        t = self.t(rt)
        if isinstance(t, TypePointer) and t.storage_class != "PhysicalStorageBuffer":
            raise _fail("variable pointers (OpPhi of pointers) are not supported", ins)
        for k in range(0, len(ids), 2):
            self.same(ins, rt, self.operand_type(ins, int(ids[k]), k), f"operand {k}")

    def _i_function_call(self, ins: Instruction, op: str, rt: int | None,
                         ids: tuple[int, ...]) -> None:
        self.call(ins, rt, [int(v) for v in ids])

    def _i_variable_init(self, ins: Instruction, op: str, rt: int | None,
                         ids: tuple[int, ...]) -> None:
        pt = self.t(rt)  # a Function variable's initializer, if any
        if ids and isinstance(pt, TypePointer) and self.vtype(int(ids[0])) != pt.pointee:
            raise _fail(f"the initializer %{ids[0]} is not of the variable's type "
                        f"{self.type_name(pt.pointee)}", ins)

    def _i_matrix(self, ins: Instruction, op: str, rt: int | None,
                  ids: tuple[int, ...]) -> None:
        self.matrix(ins, rt, [int(v) for v in ids])

    def _i_switch(self, ins: Instruction, op: str, rt: int | None,
                  ids: tuple[int, ...]) -> None:
        self.need_shape(ins, self.operand_type(ins, int(ids[0]), 0), "int", "the selector")

    def _i_branch_conditional(self, ins: Instruction, op: str, rt: int | None,
                              ids: tuple[int, ...]) -> None:
        if len(ins.operands) not in (3, 5):
            raise _fail("takes no branch weights or two (spirv-val: 3 or 5 operands)", ins)
        if ids[1] == ids[2] and self.m.version >= (1, 6):
            raise _fail("the true and false labels must differ (SPIR-V 1.6)", ins)

    def _i_atomic(self, ins: Instruction, op: str, rt: int | None,
                  ids: tuple[int, ...]) -> None:
        self.atomic(ins, rt, [int(v) for v in ids])

    def _i_control_barrier(self, ins: Instruction, op: str, rt: int | None,
                           ids: tuple[int, ...]) -> None:
        self.scope(ins, int(ids[0]), "execution", execution=True)
        self.scope(ins, int(ids[1]), "memory")
        self.semantics(ins, int(ids[2]), int(ids[1]))

    def _i_memory_barrier(self, ins: Instruction, op: str, rt: int | None,
                          ids: tuple[int, ...]) -> None:
        self.scope(ins, int(ids[0]), "memory")
        self.semantics(ins, int(ids[1]), int(ids[0]))


    def _i_ext_inst(self, ins: Instruction, op: str, rt: int | None,
                    ids: tuple[int, ...]) -> None:
        self.ext_inst(ins, rt)

    def _i_image_access(self, ins: Instruction, op: str, rt: int | None,
                        ids: tuple[int, ...]) -> None:
        self.image_operands(ins, self.image_access(ins, rt, [int(v) for v in ids]))

    def _i_image_query(self, ins: Instruction, op: str, rt: int | None,
                       ids: tuple[int, ...]) -> None:
        self.image_query(ins, rt, [int(v) for v in ids])

    def _i_image_texel_pointer(self, ins: Instruction, op: str, rt: int | None,
                               ids: tuple[int, ...]) -> None:
        r = self.t(rt)
        if not isinstance(r, TypePointer) or r.storage_class != "Image":
            raise _fail(f"the result type %{rt} is not a pointer in the Image storage "
                        "class (SPIR-V spec 3.52.10, OpImageTexelPointer)", ins)
        img = self._image_of(self.pointee(ins, int(ids[0]), "the image operand"))
        if img is not None and img.sampled_type != r.pointee:
            raise _fail(f"the texel pointer points to {self.type_name(r.pointee)}, the "
                        f"image's Sampled Type is {self.type_name(img.sampled_type)} "
                        "(SPIR-V spec 3.52.10, OpImageTexelPointer)", ins)

    def _i_image_sample(self, ins: Instruction, op: str, rt: int | None,
                        ids: tuple[int, ...]) -> None:
        # the result: a 4-component vector, a depth comparison's sample a scalar (SPIR-V
        # spec 3.52.10); the rest is checked by the translation (spirv_to_mir/images.py)
        rs = self.shape(rt)
        n = 1 if "Dref" in op and "Gather" not in op else 4
        if rs is None or rs[0] == "bool" or rs[2] != n:
            raise _fail(f"the result type {self.type_name(rt)} is not an integer or float "
                        f"{'scalar' if n == 1 else '4-component vector'}", ins)
        sit = self.t(self.operand_type(ins, int(ids[0]), 0))
        img = self._image_of(sit.operands[0].value if isinstance(sit, TypeOther) and
                             sit.opname == "OpTypeSampledImage" else None)
        if img is None:
            raise _fail(f"the sampled image operand has type "
                        f"{self.type_name(self.vtype(int(ids[0])))}, not a sampled image "
                        "type", ins)
        coord = self.shape(self.operand_type(ins, int(ids[1]), 1)) if len(ids) > 1 else None
        explicit = op in ("OpImageSampleExplicitLod", "OpImageSampleDrefExplicitLod")
        if coord is None or coord[0] != "float" and not (explicit and coord[0] == "int"):
            raise _fail(f"the coordinate is not a {'float or integer' if explicit else 'float'}"
                        " scalar or vector (spirv-val's image checks)", ins)
        if "Dref" in op and len(ids) > 2 and \
                self.shape(self.operand_type(ins, int(ids[2]), 2)) != ("float", 32, 1):
            raise _fail("the Dref operand is not a 32-bit float scalar", ins)
        if op == "OpImageGather" and len(ids) > 2 and (
                self.shape(self.operand_type(ins, int(ids[2]), 2)) != ("int", 32, 1)
                or not self.m.is_constant(int(ids[2]))):
            raise _fail("the Component operand is not a 32-bit integer constant "
                        "(VUID-StandaloneSpirv-OpImageGather-04664)", ins)
        rcomp = rt if n == 1 else getattr(self.t(rt), "component", None)
        if rcomp != img.sampled_type:
            raise _fail(f"the result's components are {self.type_name(rcomp)}, the image's "
                        f"Sampled Type is {self.type_name(img.sampled_type)} (SPIR-V spec "
                        "3.52.10: the same type)", ins)
        self.image_operands(ins, img)

    def _i_sampled_image(self, ins: Instruction, op: str, rt: int | None,
                         ids: tuple[int, ...]) -> None:
        r = self.t(rt)
        if not isinstance(r, TypeOther) or r.opname != "OpTypeSampledImage":
            raise _fail(f"the result type {self.type_name(rt)} is not an "
                        "OpTypeSampledImage", ins)
        if self.vtype(int(ids[0])) != r.operands[0].value:
            raise _fail(f"the image operand has type {self.type_name(self.vtype(int(ids[0])))}"
                        f", not the sampled image's image type "
                        f"{self.type_name(int(r.operands[0].value))}", ins)
        st = self.t(self.vtype(int(ids[1])))
        if not isinstance(st, TypeOther) or st.opname != "OpTypeSampler":
            raise _fail(f"the sampler operand has type "
                        f"{self.type_name(self.vtype(int(ids[1])))}, not OpTypeSampler", ins)

    def _i_image(self, ins: Instruction, op: str, rt: int | None,
                 ids: tuple[int, ...]) -> None:
        # the image of a sampled image: its OpTypeSampledImage's image
        si = self.t(self.vtype(int(ids[0])))
        if not isinstance(si, TypeOther) or si.opname != "OpTypeSampledImage":
            raise _fail(f"the operand has type {self.type_name(self.vtype(int(ids[0])))}, "
                        "not an OpTypeSampledImage", ins)
        if rt != si.operands[0].value:
            raise _fail(f"the result type {self.type_name(rt)} is not the sampled image's "
                        f"image type {self.type_name(int(si.operands[0].value))}", ins)

    def _coop_pointer(self, ins: Instruction, ptr: int) -> None:
        """A cooperative-matrix load or store addresses Workgroup, StorageBuffer or
        PhysicalStorageBuffer memory (VUID-StandaloneSpirv-OpCooperativeMatrixLoadKHR-08973)
        through a pointer to a numeric scalar or vector (the element), not an array or
        structure; its MemoryLayout is an integer constant, its Stride an integer scalar,
        which RowMajorKHR and ColumnMajorKHR need (spirv-val's cooperative-matrix
        load/store checks)."""
        pt = self.pointee(ins, ptr, "the pointer")
        sh = self.shape(pt)
        if sh is None or sh[0] == "bool":
            raise _fail(f"the pointer %{ptr} points to {self.type_name(pt)}: a cooperative "
                        "matrix is loaded and stored through a pointer to a numeric scalar "
                        "or vector", ins)
        ptt = self.t(self.vtype(ptr))
        if isinstance(ptt, TypePointer) and ptt.storage_class not in (
                "Workgroup", "StorageBuffer", "PhysicalStorageBuffer"):
            raise _fail(f"a cooperative matrix in {ptt.storage_class} memory: only "
                        "Workgroup, StorageBuffer and PhysicalStorageBuffer (VUID-Standalone"
                        "Spirv-OpCooperativeMatrixLoadKHR-08973)", ins)
        k = 1 if ins.opname == "OpCooperativeMatrixLoadKHR" else 2
        ops = ins.operands
        layout = ops[k].value if len(ops) > k and ops[k].kind == "IdRef" else None
        lsh = self.shape(self.vtype(layout)) if isinstance(layout, int) else None
        if not isinstance(layout, int) or not self.m.is_constant(layout) or lsh is None or \
                lsh[0] != "int" or lsh[2] != 1:
            raise _fail("the MemoryLayout operand is not an integer scalar constant", ins)
        stride = ops[k + 1].value if len(ops) > k + 1 and ops[k + 1].kind == "IdRef" \
            else None
        if stride is not None:
            st = self.shape(self.vtype(int(stride)))
            if st is None or st[0] != "int" or st[2] != 1:
                raise _fail(f"the Stride operand %{stride} is not an integer scalar", ins)
        elif layout in self.m.constants and self.m.constant_value(layout) in (0, 1):
            raise _fail("a RowMajorKHR or ColumnMajorKHR MemoryLayout needs a Stride", ins)

    def _coop_shapes_differ(self, a: TypeCooperativeMatrix, b: TypeCooperativeMatrix) -> bool:
        """Whether two cooperative-matrix types have another scope, rows, columns or use:
        constants of other values (a specialization constant matches any)."""
        for x, y in ((a.scope, b.scope), (a.rows, b.rows), (a.columns, b.columns),
                     (a.use, b.use)):
            vx, vy = self.const_int(x), self.const_int(y)
            if x != y and vx is not None and vy is not None and vx != vy:
                return True
        return False

    def _coop_operands(self, ins: Instruction, rt: int | None, cm: TypeCooperativeMatrix,
                       ids: Sequence[int]) -> None:
        """Operands of arithmetic on cooperative matrices (SPV_KHR_cooperative_matrix): of
        the result type, but OpMatrixTimesScalar's scalar (of its component type) and a
        conversion's source (a matrix of the same scope, rows, columns and use: the same
        constant values, as spirv-val compares them; a specialization constant matches
        any)."""
        op = ins.opname
        if op == "OpCooperativeMatrixMulAddKHR":
            self._coop_muladd(ins, cm, ids)
            return
        for k, v in enumerate(ids):
            got = self.operand_type(ins, v, k)
            if op == "OpMatrixTimesScalar" and k == 1:
                self.same(ins, cm.component, got, "the scalar operand")
            elif ins.opname.startswith("OpConvert") or op in ("OpUConvert", "OpSConvert",
                                                                "OpFConvert"):
                src = self.t(got)
                if not isinstance(src, TypeCooperativeMatrix) or self._coop_shapes_differ(src, cm):
                    raise _fail(f"operand {k} ({self.type_name(got)}) is not a cooperative "
                                f"matrix of the result's scope, shape and use", ins)
            elif op in _FLOAT_ARITH or op in _INT_ARITH or op == "OpMatrixTimesScalar":
                self.same(ins, rt, got, f"operand {k}")

    def _coop_muladd(self, ins: Instruction, cm: TypeCooperativeMatrix,
                     ids: Sequence[int]) -> None:
        """OpCooperativeMatrixMulAddKHR (SPV_KHR_cooperative_matrix): A, B and C of uses
        MatrixA, MatrixB and MatrixAccumulator, the result an accumulator, one scope; M x K
        times K x N plus M x N gives M x N, checked where both sizes are constants (as
        spirv-val does: specialization constants are checked by the translation,
        spirv_to_mir/coopmat.py)."""
        mats = []
        for k, (v, use) in enumerate(zip(ids[:3], ("MatrixA", "MatrixB", "MatrixAccumulator"),
                                         strict=True)):
            t = self.t(self.operand_type(ins, v, k))
            if not isinstance(t, TypeCooperativeMatrix) or self.const_int(t.use) not in \
                    (None, k):
                raise _fail(f"operand {k} of OpCooperativeMatrixMulAddKHR is not a "
                            f"cooperative matrix of use {use}", ins)
            mats.append(t)
        if self.const_int(cm.use) not in (None, 2):
            raise _fail("the result of OpCooperativeMatrixMulAddKHR is not a cooperative "
                        "matrix of use MatrixAccumulator", ins)
        a, b, c = mats
        for what, x, y in (("M", a.rows, cm.rows), ("M", c.rows, cm.rows),
                           ("N", b.columns, cm.columns), ("N", c.columns, cm.columns),
                           ("K", a.columns, b.rows), ("scope", a.scope, cm.scope),
                           ("scope", b.scope, cm.scope), ("scope", c.scope, cm.scope)):
            vx, vy = self.const_int(x), self.const_int(y)
            if vx is not None and vy is not None and vx != vy:
                raise _fail(f"OpCooperativeMatrixMulAddKHR: the matrices' {what} do not "
                            f"agree ({vx} and {vy}: A is M x K, B K x N, C and the result "
                            "M x N)", ins)

    def image_access(self, ins: Instruction, rt: int | None, ids: Sequence[int]) -> ImageType:
        """OpImageRead (result, image, coordinate) / OpImageWrite (image, coordinate,
        texel): an image operand, integer coordinates of the image's dimension, texels
        of its sampled type (4 components read or fetched, 4 or fewer written)."""
        img_t = self.t(self.operand_type(ins, ids[0], 0))
        if not isinstance(img_t, TypeOther) or img_t.opname != "OpTypeImage":
            raise _fail(f"the image operand has type {self.type_name(self.vtype(ids[0]))}, "
                        "not an image type", ins)
        img = image_type(img_t)
        if ins.opname == "OpImageFetch" and img.sampled != 1:
            raise _fail("OpImageFetch needs a sampled image (Sampled 1), not a storage image",
                        ins)
        if ins.opname != "OpImageFetch" and img.sampled == 1:
            raise _fail(f"{ins.opname} needs a storage image (Sampled 2 or 0)", ins)
        if ins.opname != "OpImageFetch" and img.format == "Unknown" and \
                img.dim != "SubpassData":
            cap = "StorageImageReadWithoutFormat" if ins.opname == "OpImageRead" else \
                "StorageImageWriteWithoutFormat"
            if cap not in self.m.capabilities:
                raise _fail(f"{ins.opname} of a storage image of Unknown format needs the "
                            f"{cap} capability", ins)
        if ins.opname != "OpImageFetch":
            dim_cap = _STORAGE_DIM_CAPS.get((img.dim, img.arrayed and img.dim == "Cube"))
            if dim_cap is not None and dim_cap not in self.m.capabilities:
                raise _fail(f"a {img.dim_name} storage image needs the {dim_cap} capability",
                            ins)
        c = self.need_shape(ins, self.operand_type(ins, ids[1], 1), "int", "the coordinate")
        # (a cube array's face and cube are one coordinate: face + 6 x cube)
        want = img.coordinate_dims + int(img.arrayed and img.dim != "Cube")
        if c[2] != want:
            raise _fail(f"the coordinate of a {img.dim_name} image has {c[2]} components, "
                        f"expected {want}", ins)
        if ins.opname in ("OpImageRead", "OpImageFetch"):
            texel = rt
            sh = self.shape(rt)
            if sh is not None and sh[2] != 4:
                # (a fetch's always; a read's in Vulkan: VUID-StandaloneSpirv-Result-04780)
                raise _fail(f"the result type {self.type_name(rt)} of {ins.opname} is not a "
                            "4-component vector", ins)
        else:
            texel = self.operand_type(ins, ids[2], 2)
        ts = self.shape(texel)
        st = self.shape(img.sampled_type)
        tt = self.t(texel)
        comp = tt.component if isinstance(tt, TypeVector) else texel
        if ts is None or st is None or ts[0] != st[0] or ts[1] != st[1] or \
                (ts[1] == 32 and comp != img.sampled_type):
            raise _fail(f"the texel has type {self.type_name(texel)}, expected a scalar or "
                        f"vector of the image's sampled type {self.type_name(img.sampled_type)}",
                        ins)
        if ts[1] != 32:
            raise _fail("16-bit texels (d16) are not supported yet", ins)
        return img

    def image_operands(self, ins: Instruction, img: ImageType) -> None:
        """The Image Operands' ids (SPIR-V spec 3.14, in bit order) of the types their
        operands need: Bias, MinLod and a sample's Lod float scalars (Bias only with implicit
        LOD, Lod only without; a fetch's, read's or write's Lod an integer scalar), Grad float,
        ConstOffset, Offset and ConstOffsets integers (ConstOffset(s) constants), Sample an
        integer scalar; Grad and the offsets have a component per dimension of `img`
        (offsets not on a cube), as spirv-val checks."""
        dims = img.coordinate_dims
        ops = [o for o in ins.operands if o.kind == "ImageOperands"]
        if not ops:
            return
        mask, params = int(ops[0].value), list(ops[0].params)
        implicit = "ImplicitLod" in ins.opname
        access = ins.opname in ("OpImageFetch", "OpImageRead", "OpImageWrite")
        for bit, name, n in _IMAGE_OPERAND_IDS:
            if not mask & bit:
                continue
            if len(params) < n:
                raise _fail(f"the image operand {name} has no operand", ins)
            taken, params = params[:n], params[n:]
            if not all(q.is_id for q in taken):
                continue  # the reader's grammar decoding gave these kinds already
            if name == "Lod" and implicit:
                raise _fail("the image operand Lod with implicit LOD", ins)
            if name == "Bias" and not implicit:
                raise _fail("the image operand Bias without implicit LOD", ins)
            for q in taken:
                v = int(q.value)
                vt = self.vtype(v)
                if name in ("Lod", "Bias", "MinLod", "Sample"):
                    kind = "int" if name == "Sample" or (name == "Lod" and access) else "float"
                    if self.need_shape(ins, vt, kind, f"the image operand {name}")[2] != 1:
                        raise _fail(f"the image operand {name} is not a scalar", ins)
                elif name == "Grad":
                    if self.need_shape(ins, vt, "float", "the image operand Grad")[2] != dims:
                        raise _fail(f"the image operand Grad has not {dims} components (a "
                                    f"{img.dim_name} image)", ins)
                elif name in ("ConstOffset", "Offset"):
                    if self.need_shape(ins, vt, "int", f"the image operand {name}")[2] != dims \
                            or img.dim == "Cube":
                        raise _fail(f"the image operand {name} has not {dims} components or "
                                    f"is on a cube (a {img.dim_name} image)", ins)
                    if name == "ConstOffset" and not self.m.is_constant(v):
                        raise _fail("the image operand ConstOffset is not a constant", ins)
                elif name == "ConstOffsets" and not self.m.is_constant(v):
                    raise _fail("the image operand ConstOffsets is not a constant", ins)

    def _image_of(self, tid: object) -> ImageType | None:
        """The image type `tid` names (None if it is no OpTypeImage)."""
        t = self.t(tid) if isinstance(tid, int) else None
        return image_type(t) if isinstance(t, TypeOther) and t.opname == "OpTypeImage" \
            else None

    def image_query(self, ins: Instruction, rt: int | None, ids: Sequence[int]) -> None:
        """OpImageQuerySize(Lod)/QueryLevels/QuerySamples: an image operand, an integer
        result (a vector of one component per dimension for sizes), an integer Lod."""
        img_t = self.t(self.operand_type(ins, ids[0], 0))
        if not isinstance(img_t, TypeOther) or img_t.opname != "OpTypeImage":
            raise _fail(f"the image operand has type {self.type_name(self.vtype(ids[0]))}, "
                        "not an image type", ins)
        img = image_type(img_t)
        r = self.need_shape(ins, rt, "int", "the result")
        if r[1] != 32:
            raise _fail("the result must be 32-bit", ins)
        op = ins.opname
        mipmapped = img.dim in ("1D", "2D", "3D", "Cube")
        # the images each query reads (spirv-val's ValidateImageQuery*): levels and a
        # size at a Lod of sampled (VUID-StandaloneSpirv-OpImageQuerySizeLod-04659),
        # single-sampled mipmapped images; samples of a multisampled 2D image; the size
        # without a Lod of a buffer, rectangle, multisampled or storage image
        if op in ("OpImageQueryLevels", "OpImageQuerySizeLod") and (
                not mipmapped or img.sampled != 1 or img.multisampled):
            kind = "storage " if img.sampled == 2 else ""
            raise _fail(f"{op} of a {kind}{img.dim_name} image: only sampled, single-sampled 1D, "
                        "2D, 3D and cube images have levels (VUID-StandaloneSpirv-"
                        "OpImageQuerySizeLod-04659)", ins)
        if op == "OpImageQuerySamples" and (img.dim != "2D" or not img.multisampled):
            raise _fail(f"OpImageQuerySamples of a {img.dim_name} image: only multisampled "
                        "2D images", ins)
        if op == "OpImageQuerySize" and (img.dim == "SubpassData" or mipmapped and not (
                img.multisampled or img.sampled in (0, 2))):
            raise _fail(f"OpImageQuerySize of a {img.dim_name} image: a sampled image's size "
                        "is queried at a Lod (OpImageQuerySizeLod)", ins)
        if op in ("OpImageQueryLevels", "OpImageQuerySamples"):
            if r[2] != 1:
                raise _fail(f"{op} gives a scalar", ins)
            return
        want = {"1D": 1, "2D": 2, "3D": 3, "Cube": 2, "Rect": 2, "Buffer": 1}.get(img.dim, 2)
        if r[2] != want + int(img.arrayed):
            raise _fail(f"the size of a {img.dim_name} image has {want + int(img.arrayed)} "
                        f"components, not {r[2]}", ins)
        if ins.opname == "OpImageQuerySizeLod":
            self.need_shape(ins, self.operand_type(ins, ids[1], 1), "int", "the Lod")

    def mat_shape(self, tid: int | None) -> tuple[int, int, int] | None:
        """(rows, columns, component width) of a float matrix type."""
        t = self.t(tid)
        if not isinstance(t, TypeMatrix):
            return None
        s = self.shape(t.column)
        return None if s is None or s[0] != "float" else (s[2], t.columns, s[1])

    def matrix(self, ins: Instruction, rt: int | None, ids: Sequence[int]) -> None:
        """Matrix arithmetic: float matrices and vectors of agreeing sizes (rows x columns)."""
        op = ins.opname
        a, b = (self.operand_type(ins, v, k) for k, v in enumerate((list(ids) * 2)[:2]))

        def vec(tid: int | None) -> tuple[int, int] | None:
            s = self.shape(tid)
            return None if s is None or s[0] != "float" or s[2] < 2 else (s[2], s[1])

        x: tuple[int, ...] | None
        y: tuple[int, ...] | None
        r: tuple[int, ...] | None
        if op == "OpMatrixTimesVector":
            m, v, r = self.mat_shape(a), vec(b), vec(rt)
            ok = m is not None and v == (m[1], m[2]) and r == (m[0], m[2])
        elif op == "OpVectorTimesMatrix":
            v, m, r = vec(a), self.mat_shape(b), vec(rt)
            ok = m is not None and v == (m[0], m[2]) and r == (m[1], m[2])
        elif op == "OpMatrixTimesMatrix":
            x, y, r = self.mat_shape(a), self.mat_shape(b), self.mat_shape(rt)
            ok = x is not None and y is not None and x[1] == y[0] and x[2] == y[2] and \
                r == (x[0], y[1], x[2])
        elif op == "OpMatrixTimesScalar":
            m, s = self.mat_shape(a), self.shape(b)
            ok = m is not None and a == rt and s == ("float", m[2], 1)
        elif op == "OpTranspose":
            m, r = self.mat_shape(a), self.mat_shape(rt)
            ok = m is not None and r == (m[1], m[0], m[2])
        else:  # OpOuterProduct
            x, y, r = vec(a), vec(b), self.mat_shape(rt)
            ok = x is not None and y is not None and x[1] == y[1] and r == (x[0], y[0], x[1])
        if not ok:
            raise _fail(f"operand types {self.type_name(a)}, {self.type_name(b)} and result "
                        f"{self.type_name(rt)} do not agree", ins)

    def bitcast(self, ins: Instruction, rt: int | None, vid: int) -> None:
        a, b = self.shape(rt), self.shape(self.vtype(vid))
        if a is None or b is None or "bool" in (a[0], b[0]):
            if isinstance(self.t(rt), TypePointer) or isinstance(self.t(self.vtype(vid)),
                                                                 TypePointer):
                raise _fail("OpBitcast of pointers (variable pointers, buffer device "
                            "address) is not supported", ins)
            raise _fail(f"OpBitcast of {self.type_name(self.vtype(vid))} to "
                        f"{self.type_name(rt)}: both must be numeric scalars or vectors", ins)
        if a[1] * a[2] != b[1] * b[2]:
            raise _fail(f"OpBitcast changes the size: {self.type_name(self.vtype(vid))} to "
                        f"{self.type_name(rt)}", ins)

    def select(self, ins: Instruction, rt: int | None, ids: Sequence[int]) -> None:
        t = self.t(rt)
        if isinstance(t, TypePointer):
            if t.storage_class != "PhysicalStorageBuffer":
                raise _fail("variable pointers (OpSelect of pointers) are not supported", ins)
            self.need_shape(ins, self.operand_type(ins, ids[0], 0), "bool", "the condition")
            for k in (1, 2):
                self.same(ins, rt, self.operand_type(ins, ids[k], k), f"operand {k}")
            return
        cond = self.operand_type(ins, ids[0], 0)
        s = self.need_shape(ins, cond, "bool", "the condition")
        rs = self.shape(rt)
        if s[2] != 1 and (rs is None or rs[2] != s[2]):
            raise _fail("a vector condition needs a result with as many components", ins)
        if rs is None and s[2] == 1 and self.m.version < (1, 4):
            raise _fail(f"OpSelect of {self.type_name(rt)} needs SPIR-V 1.4", ins)
        for k in (1, 2):
            self.same(ins, rt, self.operand_type(ins, ids[k], k), f"operand {k}")

    def pointee(self, ins: Instruction, vid: int, what: str) -> int:
        t = self.t(self.vtype(vid))
        if not isinstance(t, TypePointer):
            raise _fail(f"{what} %{vid} is not a pointer", ins)
        return t.pointee

    def access_chain(self, ins: Instruction, rt: int | None, ids: Sequence[int]) -> None:
        base = self.t(self.vtype(ids[0]))
        if not isinstance(base, TypePointer):
            raise _fail(f"the base %{ids[0]} is not a pointer", ins)
        tid = base.pointee
        for k, idx in enumerate(ids[1:], 1):
            s = self.shape(self.vtype(idx))
            if s is None or s[0] != "int" or s[2] != 1:
                raise _fail(f"index {k} (%{idx}) is not an integer scalar", ins)
            t = self.t(tid)
            if isinstance(t, TypeStruct):
                v = self.const_int(idx)
                if v is None:
                    raise _fail(f"index {k} into struct %{tid} is not an OpConstant", ins)
                if not 0 <= v < len(t.members):
                    raise _fail(f"index {k} ({v}) is out of range for struct %{tid} "
                                f"({len(t.members)} members)", ins)
                tid = t.members[v]
            elif isinstance(t, TypeArray | TypeRuntimeArray):
                self._not_negative(ins, k, idx)
                tid = t.element
            elif isinstance(t, TypeMatrix):
                self._not_negative(ins, k, idx)
                tid = t.column
            elif isinstance(t, TypeVector | TypeCooperativeMatrix):
                self._not_negative(ins, k, idx)
                tid = t.component
            else:
                raise _fail(f"index {k} indexes into {self.type_name(tid)}, not a composite",
                            ins)
        r = self.t(rt)
        if not isinstance(r, TypePointer) or r.pointee != tid or \
                r.storage_class != base.storage_class:
            raise _fail(f"the result type %{rt} is not a {base.storage_class} pointer to "
                        f"{self.type_name(tid)}", ins)

    def _not_negative(self, ins: Instruction, k: int, idx: int) -> None:
        """A constant signed index of an access chain is not negative (spirv-val)."""
        v = self.const_int(idx)
        it = self.t(self.vtype(idx))
        if v is not None and isinstance(it, TypeInt) and it.signed and (
                v < 0 or v >= 1 << (it.width - 1)):
            raise _fail(f"index {k} (%{idx}) is a negative constant", ins)

    def length(self, t: TypeArray) -> int | None:
        return self.const_int(t.length)

    def walk_literal(self, ins: Instruction, tid: int | None, idx: list[int]) -> int | None:
        for k, i in enumerate(idx):
            t = self.t(tid)
            n: int | None
            if isinstance(t, TypeStruct):
                n, nxt = len(t.members), (t.members[i] if i < len(t.members) else None)
            elif isinstance(t, TypeArray):
                n, nxt = self.length(t), t.element
            elif isinstance(t, TypeMatrix):
                n, nxt = t.columns, t.column
            elif isinstance(t, TypeVector):
                n, nxt = t.count, t.component
            else:
                raise _fail(f"index {k} indexes into {self.type_name(tid)}, not a composite",
                            ins)
            if n is not None and not 0 <= i < n:
                raise _fail(f"index {k} ({i}) is out of range for {self.type_name(tid)} "
                            f"({n} elements)", ins)
            if n is None:
                raise _fail("indexing an array whose length is a specialization constant "
                            "is not supported", ins)
            tid = nxt
        return tid

    def construct(self, ins: Instruction, rt: int | None, ids: Sequence[int]) -> None:
        t = self.t(rt)
        types = [self.operand_type(ins, v, k) for k, v in enumerate(ids)]
        if isinstance(t, TypeVector):
            total = 0
            for k, ct in enumerate(types):
                s = self.shape(ct)
                cv = self.t(ct)
                scalar = cv.component if isinstance(cv, TypeVector) else ct
                if s is None or scalar != t.component:  # the same type (signedness too)
                    raise _fail(f"constituent {k} has type {self.type_name(ct)}, not "
                                f"{self.type_name(t.component)} or a vector of it", ins)
                total += s[2]
            if total != t.count or len(ids) < 2:
                raise _fail(f"the constituents give {total} components, the result "
                            f"{self.type_name(rt)} has {t.count}", ins)
            return
        if isinstance(t, TypeStruct):
            want = list(t.members)
        elif isinstance(t, TypeMatrix):
            want = [t.column] * t.columns
        elif isinstance(t, TypeCooperativeMatrix):  # one value for every element
            want = [t.component]
        elif isinstance(t, TypeArray):
            n = self.length(t)
            if n is None:
                raise _fail("constructing an array whose length is a specialization "
                            "constant is not supported", ins)
            want = [t.element] * n
        else:
            raise _fail(f"the result type {self.type_name(rt)} is not a composite", ins)
        if len(want) != len(types):
            raise _fail(f"{len(types)} constituents for {self.type_name(rt)}, which has "
                        f"{len(want)}", ins)
        for k, (w, g) in enumerate(zip(want, types, strict=True)):
            self.same(ins, w, g, f"constituent {k}")

    def pointer_conversion(self, ins: Instruction, rt: int | None, vid: int) -> None:
        """OpConvertPtrToU / OpConvertUToPtr (SPIR-V 3.42.11): between a physical pointer
        (PhysicalStorageBuffer in Vulkan) and an integer scalar; OpConvertPtrToU's result
        is unsigned; the integer is 64-bit under PhysicalStorageBuffer64 addressing
        (VUID-StandaloneSpirv-PhysicalStorageBuffer64-04710)."""
        to_int = ins.opname == "OpConvertPtrToU"
        ptr, num = (self.vtype(vid), rt) if to_int else (rt, self.vtype(vid))
        pt = self.t(ptr)
        if not isinstance(pt, TypePointer) or pt.storage_class != "PhysicalStorageBuffer":
            raise _fail(f"{self.type_name(ptr)} is not a PhysicalStorageBuffer "
                        "pointer", ins)
        it = self.t(num)
        if not isinstance(it, TypeInt) or (to_int and it.signed):
            raise _fail(f"{self.type_name(num)} is not an "
                        f"{'unsigned ' if to_int else ''}integer scalar", ins)
        if it.width != 64:
            raise _fail(f"{self.type_name(num)} is not 64-bit, as "
                        "PhysicalStorageBuffer64 addressing needs "
                        "(VUID-StandaloneSpirv-PhysicalStorageBuffer64-04710)", ins)

    def shuffle(self, ins: Instruction, rt: int | None) -> None:
        a, b = (self.vtype(int(ins.operands[k].value)) for k in (0, 1))
        sr, sa, sb = self.shape(rt), self.shape(a), self.shape(b)
        if not (isinstance(self.t(rt), TypeVector) and isinstance(self.t(a), TypeVector)
                and isinstance(self.t(b), TypeVector)) or sr is None or sa is None \
                or sb is None or not sr[:2] == sa[:2] == sb[:2] or not \
                self._component(rt) == self._component(a) == self._component(b):
            raise _fail("OpVectorShuffle takes two vectors of the result's component type",
                        ins)
        comps = [int(o.value) for o in ins.operands[2:]]
        if len(comps) != sr[2]:
            raise _fail(f"{len(comps)} components for a result of {sr[2]}", ins)
        for c in comps:
            if c != 0xFFFFFFFF and c >= sa[2] + sb[2]:
                raise _fail(f"component {c} is out of range ({sa[2] + sb[2]} components)", ins)

    def _component(self, tid: int | None) -> int | None:
        t = self.t(tid)
        return t.component if isinstance(t, TypeVector) else None

    def vector_dynamic(self, ins: Instruction, rt: int | None, ids: Sequence[int]) -> None:
        vec = self.operand_type(ins, ids[0], 0)
        t = self.t(vec)
        if not isinstance(t, TypeVector):
            raise _fail(f"operand 0 has type {self.type_name(vec)}, not a vector", ins)
        idx = ids[-1]
        s = self.shape(self.vtype(idx))
        if s is None or s[0] != "int" or s[2] != 1:
            raise _fail(f"the index %{idx} is not an integer scalar", ins)
        if ins.opname == "OpVectorExtractDynamic":
            self.same(ins, t.component, rt, "the result")
        else:
            self.same(ins, vec, rt, "the result")
            self.same(ins, t.component, self.operand_type(ins, ids[1], 1), "the component")

    def call(self, ins: Instruction, rt: int | None, ids: Sequence[int]) -> None:
        fn = next((f for f in self.m.functions if f.id == ids[0]), None)
        if fn is None:
            raise _fail(f"%{ids[0]} is not a function", ins)
        self.same(ins, fn.result_type, rt, "the result")
        ft = self.t(fn.type)
        params = list(ft.params) if isinstance(ft, TypeFunction) else []
        if len(params) != len(ids) - 1:
            raise _fail(f"{len(ids) - 1} arguments for a function of {len(params)} "
                        f"parameters", ins)
        for k, (p, a) in enumerate(zip(params, ids[1:], strict=True)):
            self.same(ins, p, self.operand_type(ins, a, k + 1), f"argument {k}")

    def atomic(self, ins: Instruction, rt: int | None, ids: Sequence[int]) -> None:
        op = ins.opname
        pt = self.pointee(ins, ids[0], "the pointer")
        kind = "float" if op in _ATOMIC_FLOAT else "int"
        if op == "OpAtomicExchange" or op == "OpAtomicLoad" or op == "OpAtomicStore":
            s = self.shape(pt)
            kind = s[0] if s is not None and s[0] in ("int", "float") else "int"
        s = self.need_shape(ins, pt, kind, "the pointee")
        if s[2] != 1:
            raise _fail("atomics operate on scalars", ins)
        self.scope(ins, ids[1], "memory")
        nsem = 2 if op == "OpAtomicCompareExchange" else 1
        for k in range(nsem):
            self.semantics(ins, ids[2 + k], ids[1], equal=ids[2] if k else None)
        values = ids[2 + nsem:]
        if op != "OpAtomicStore":
            self.same(ins, pt, rt, "the result")
        for k, v in enumerate(values):
            self.same(ins, pt, self.operand_type(ins, v, 2 + nsem + k), "the value")

    def memory_access(self, ins: Instruction, ptr: int) -> None:
        """Aligned is a power of two, and given for every PhysicalStorageBuffer access
        (VUID-StandaloneSpirv-PhysicalStorageBuffer64-04708), at least the size of the
        largest scalar accessed (-06314: a warning when only a pointer in memory is larger,
        since glslang 12 gives 8-byte pointer loads and stores Aligned 4; the hardware needs
        4 for them); MakePointerAvailable not on a load,
        MakePointerVisible not on a store, both with NonPrivatePointer, which needs a
        pointer to shared memory (SPIR-V spec 3.26 "Memory Operands")."""
        mask = 0
        align: list[int] = []
        for o in ins.operands:  # (the first MemoryAccess: OpCopyMemory's target's)
            if o.kind == "MemoryAccess":
                mask = int(o.value)
                if mask & 2:
                    align = [int(q.value) for q in o.params]
                break
        if align and (align[0] <= 0 or align[0] & (align[0] - 1)):
            raise _fail(f"Aligned {align[0]} is not a power of two", ins)
        pt = self.t(self.vtype(ptr))
        psb = isinstance(pt, TypePointer) and pt.storage_class == "PhysicalStorageBuffer"
        if not mask and not psb:  # (most accesses: nothing below applies)
            return
        if psb:
            assert isinstance(pt, TypePointer)
            if not align:
                raise _fail("a PhysicalStorageBuffer access must give Aligned", ins)
            big = self._largest_scalar(pt.pointee, set())
            scalar = self._largest_scalar(pt.pointee, set(), pointer=0)
            if align[0] < scalar:
                raise _fail(f"Aligned {align[0]} is less than the {big} bytes of the largest "
                            "scalar accessed (VUID-StandaloneSpirv-PhysicalStorageBuffer64-"
                            "06314)", ins)
            if align[0] < big:
                self.warnings.append(SpirvWarning(
                    f"Aligned {align[0]} is less than the 8 bytes of a pointer accessed "
                    "(VUID-StandaloneSpirv-PhysicalStorageBuffer64-06314): treated as "
                    f"aligned to {align[0]}", ins.offset, ins.opname))
        if mask & _MAKE_POINTER_AVAILABLE and ins.opname == "OpLoad":
            raise _fail("MakePointerAvailable cannot be used with OpLoad", ins)
        if mask & _MAKE_POINTER_VISIBLE and ins.opname == "OpStore":
            raise _fail("MakePointerVisible cannot be used with OpStore", ins)
        if mask & (_MAKE_POINTER_AVAILABLE | _MAKE_POINTER_VISIBLE) and \
                not mask & _NON_PRIVATE_POINTER:
            raise _fail("MakePointerAvailable and MakePointerVisible need NonPrivatePointer",
                        ins)
        if mask & _NON_PRIVATE_POINTER and (not isinstance(pt, TypePointer)
                                            or pt.storage_class not in _NON_PRIVATE_CLASSES):
            sc = pt.storage_class if isinstance(pt, TypePointer) else "no"
            raise _fail(f"NonPrivatePointer on a {sc} pointer: only Uniform, Workgroup, "
                        "CrossWorkgroup, Generic, Image, StorageBuffer or "
                        "PhysicalStorageBuffer memory", ins)

    def _largest_scalar(self, tid: int, seen: set[int], pointer: int = 8) -> int:
        """Bytes of the largest scalar in type `tid`, a pointer in memory counted as
        `pointer` bytes."""
        t = self.t(tid)
        s = self.shape(tid)
        if s is not None:
            return 4 if s[0] == "bool" else max(s[1] // 8, 1)
        if tid in seen:
            return 0
        seen.add(tid)
        if isinstance(t, TypeArray | TypeRuntimeArray):
            return self._largest_scalar(t.element, seen, pointer)
        if isinstance(t, TypeMatrix):
            return self._largest_scalar(t.column, seen, pointer)
        if isinstance(t, TypeStruct):
            return max((self._largest_scalar(m, seen, pointer) for m in t.members), default=0)
        if isinstance(t, TypePointer):
            return pointer
        return 0

    def scope(self, ins: Instruction, vid: int, what: str, execution: bool = False) -> None:
        s = self.shape(self.vtype(vid))
        v = self.const_int(vid)
        if s != ("int", 32, 1) or v is None:
            raise _fail(f"the {what} scope %{vid} is not a 32-bit integer constant", ins)
        name = _SCOPE_NAMES.get(v, str(v))
        if execution and v not in (_WORKGROUP, _SUBGROUP):
            raise _fail(f"{what} scope {name}: Vulkan allows only Workgroup or Subgroup", ins)
        if v == _CROSS_DEVICE or v not in _SCOPE_NAMES:
            raise _fail(f"{what} scope {name} is not allowed in Vulkan", ins)
        if v == _WORKGROUP and self.fn_models - _WORKGROUP_MODELS:
            raise _fail(f"{what} scope Workgroup in a {min(self.fn_models - _WORKGROUP_MODELS)} "
                        "shader: only compute, task, mesh and tessellation control shaders "
                        "(VUID-StandaloneSpirv-None-04637, -07321)", ins)
        if v == _SHADER_CALL and self.fn_models - _RAY_TRACING_MODELS:
            raise _fail(f"{what} scope ShaderCallKHR in a {min(self.fn_models - _RAY_TRACING_MODELS)}"
                        " shader: only ray tracing shaders (VUID-StandaloneSpirv-None-04640)", ins)
        if v == _QUEUE_FAMILY and not self._vulkan_memory_model_capability():
            raise _fail(f"{what} scope QueueFamily needs the VulkanMemoryModel capability", ins)
        if v == _DEVICE and self.m.memory_model in ("Vulkan", "VulkanKHR") and not {
                "VulkanMemoryModelDeviceScope", "VulkanMemoryModelDeviceScopeKHR"} & set(
                    self.m.capabilities):
            raise _fail("Device scope with the Vulkan memory model needs the "
                        "VulkanMemoryModelDeviceScope capability", ins)

    def semantics(self, ins: Instruction, vid: int, scope: int,
                  equal: int | None = None) -> None:
        """Vulkan's memory-semantics rules (the Vulkan spec's "Standalone SPIR-V
        Validation", VUID-StandaloneSpirv-MemorySemantics-10865 to -10879); `scope` is the
        instruction's memory scope, `equal` the Equal semantics when `vid` is an
        OpAtomicCompareExchange's Unequal semantics. Storage-class bits without an order
        (-10871) are a warning: glslang emits them for GLSL's relaxed atomics with
        storage semantics (``atomicAdd(..., gl_ScopeDevice, gl_StorageSemanticsBuffer,
        gl_SemanticsRelaxed)``); the operation is Relaxed."""
        s = self.shape(self.vtype(vid))
        v = self.const_int(vid)
        if s != ("int", 32, 1) or v is None:
            raise _fail(f"the memory semantics %{vid} is not a 32-bit integer constant", ins)
        order = v & 0x1E  # Acquire, Release, AcquireRelease, SequentiallyConsistent
        op = ins.opname
        if order & (order - 1):
            raise _fail(f"memory semantics 0x{v:x}: at most one of Acquire, Release, "
                        "AcquireRelease and SequentiallyConsistent "
                        "(VUID-StandaloneSpirv-MemorySemantics-10865)", ins)
        if order & _SEQUENTIALLY_CONSISTENT:
            raise _fail(f"memory semantics 0x{v:x}: SequentiallyConsistent is not allowed in "
                        "Vulkan (VUID-StandaloneSpirv-MemorySemantics-10866)", ins)
        if op == "OpAtomicStore" and order & (_ACQUIRE | _ACQUIRE_RELEASE):
            raise _fail(f"memory semantics 0x{v:x}: OpAtomicStore cannot be Acquire or "
                        "AcquireRelease (VUID-StandaloneSpirv-MemorySemantics-10867)", ins)
        if op == "OpAtomicLoad" and order & (_RELEASE | _ACQUIRE_RELEASE):
            raise _fail(f"memory semantics 0x{v:x}: OpAtomicLoad cannot be Release or "
                        "AcquireRelease (VUID-StandaloneSpirv-MemorySemantics-10868)", ins)
        if op == "OpMemoryBarrier" and not order:
            raise _fail("OpMemoryBarrier needs Acquire, Release or AcquireRelease semantics "
                        "(VUID-StandaloneSpirv-MemorySemantics-10869)", ins)
        if order and not v & _VULKAN_STORAGE_SEMANTICS:
            raise _fail(f"memory semantics 0x{v:x}: Acquire, Release or AcquireRelease needs "
                        "UniformMemory, WorkgroupMemory, ImageMemory or OutputMemory "
                        "(VUID-StandaloneSpirv-MemorySemantics-10870)", ins)
        if v & _MAKE_AVAILABLE and not order & (_RELEASE | _ACQUIRE_RELEASE):
            raise _fail(f"memory semantics 0x{v:x}: MakeAvailable needs Release or "
                        "AcquireRelease (VUID-StandaloneSpirv-MemorySemantics-10872)", ins)
        if v & _MAKE_VISIBLE and not order & (_ACQUIRE | _ACQUIRE_RELEASE):
            raise _fail(f"memory semantics 0x{v:x}: MakeVisible needs Acquire or "
                        "AcquireRelease (VUID-StandaloneSpirv-MemorySemantics-10873)", ins)
        if v & _VOLATILE and op in ("OpControlBarrier", "OpMemoryBarrier"):
            raise _fail(f"memory semantics 0x{v:x}: Volatile on a barrier "
                        "(VUID-StandaloneSpirv-MemorySemantics-10874)", ins)
        if order and self.const_int(scope) == _INVOCATION:
            raise _fail(f"memory semantics 0x{v:x} with Invocation memory scope: only Relaxed "
                        "(VUID-StandaloneSpirv-None-04641)", ins)
        model_bits = v & (_VULKAN_MODEL_SEMANTICS | _OUTPUT_MEMORY)
        if model_bits and not self._vulkan_memory_model_capability():
            names = "|".join(n for b, n in _MODEL_BIT_NAMES if model_bits & b)
            raise _fail(f"memory semantics 0x{v:x}: {names} needs the VulkanMemoryModel "
                        "capability", ins)
        if equal is not None:
            self._unequal_semantics(ins, v, self.const_int(equal))
        if v & _VULKAN_STORAGE_SEMANTICS and not order:
            self.warnings.append(SpirvWarning(
                f"memory semantics 0x{v:x}: UniformMemory, WorkgroupMemory, ImageMemory or "
                "OutputMemory without Acquire, Release or AcquireRelease "
                "(VUID-StandaloneSpirv-MemorySemantics-10871): treated as Relaxed",
                ins.offset, ins.opname))

    def _unequal_semantics(self, ins: Instruction, v: int, eq: int | None) -> None:
        """OpAtomicCompareExchange's Unequal semantics against its Equal ones
        (VUID-StandaloneSpirv-UnequalMemorySemantics-10875 to -10879)."""
        e = eq or 0
        if v & (_RELEASE | _ACQUIRE_RELEASE):
            raise _fail(f"Unequal memory semantics 0x{v:x}: not Release or AcquireRelease "
                        "(VUID-StandaloneSpirv-UnequalMemorySemantics-10875)", ins)
        if v & _ACQUIRE and not e & (_ACQUIRE | _ACQUIRE_RELEASE):
            raise _fail(f"Unequal memory semantics 0x{v:x}: a stronger order than the Equal "
                        f"semantics 0x{e:x} (VUID-StandaloneSpirv-UnequalMemorySemantics-10876)",
                        ins)
        if v & _VULKAN_STORAGE_SEMANTICS & ~e:
            raise _fail(f"Unequal memory semantics 0x{v:x}: a storage class the Equal semantics "
                        f"0x{e:x} lack (VUID-StandaloneSpirv-UnequalMemorySemantics-10877)", ins)
        if v & _MAKE_VISIBLE & ~e:
            raise _fail(f"Unequal memory semantics 0x{v:x}: MakeVisible without it in the Equal "
                        f"semantics 0x{e:x} (VUID-StandaloneSpirv-UnequalMemorySemantics-10878)",
                        ins)
        if (v ^ e) & _VOLATILE:
            raise _fail(f"Unequal memory semantics 0x{v:x}: Volatile must match the Equal "
                        f"semantics 0x{e:x} (VUID-StandaloneSpirv-UnequalMemorySemantics-10879)",
                        ins)

    def _vulkan_memory_model_capability(self) -> bool:
        return bool({"VulkanMemoryModel", "VulkanMemoryModelKHR"} & set(self.m.capabilities))

    def group(self, ins: Instruction, rt: int | None, ids: Sequence[int]) -> None:
        if not ids:
            return
        s = self.shape(self.vtype(ids[0]))
        v = self.const_int(ids[0])
        if s != ("int", 32, 1) or v is None:
            raise _fail(f"the execution scope %{ids[0]} is not a 32-bit integer constant", ins)
        if v != _SUBGROUP:
            raise _fail(f"execution scope {_SCOPE_NAMES.get(v, v)}: Vulkan group operations "
                        "take Subgroup", ins)
        op = ins.opname
        if op in _GROUP_INT or op in _GROUP_FLOAT or op in _GROUP_BOOL:
            kind = "int" if op in _GROUP_INT else "float" if op in _GROUP_FLOAT else "bool"
            self.need_shape(ins, rt, kind, "the result type")
            self.same(ins, rt, self.operand_type(ins, ids[1], 1), "the value")
        elif op in ("OpGroupNonUniformBroadcast", "OpGroupNonUniformBroadcastFirst",
                    "OpGroupNonUniformShuffle", "OpGroupNonUniformShuffleXor",
                    "OpGroupNonUniformShuffleUp", "OpGroupNonUniformShuffleDown",
                    "OpGroupNonUniformQuadBroadcast", "OpGroupNonUniformQuadSwap"):
            self.same(ins, rt, self.operand_type(ins, ids[1], 1), "the value")
            if self.shape(rt) is None:
                raise _fail(f"{op} of {self.type_name(rt)} (not a scalar or vector)", ins)

    def ext_inst(self, ins: Instruction, rt: int | None) -> None:
        set_id = int(ins.operands[0].value)
        name = self.m.ext_imports.get(set_id, "")
        if name.startswith("NonSemantic.DebugPrintf"):
            raise _fail("debugPrintfEXT (NonSemantic.DebugPrintf) is not supported", ins)
        if name != "GLSL.std.450":
            return
        from . import grammar

        info = grammar.ext_instruction(name, int(ins.operands[1].value))
        inst = info[0] if info else ""
        args = [int(o.value) for o in ins.operands[2:] if o.is_id]
        if inst in _STD_FLOAT or inst in _STD_INT:
            kind = "float" if inst in _STD_FLOAT else "int"
            _, w, n = self.need_shape(ins, rt, kind, "the result type")
            for k, a in enumerate(args):
                at = self.operand_type(ins, a, k)
                s = self.need_shape(ins, at, kind, f"operand {k}")
                if (kind == "float" and at != rt) or s[1:] != (w, n):
                    raise _fail(f"{inst}: operand {k} has type {self.type_name(at)}, the "
                                f"result {self.type_name(rt)}", ins)
        elif inst in ("FindILsb", "FindSMsb", "FindUMsb"):
            _, _, n = self.need_shape(ins, rt, "int", "the result type")
            s = self.need_shape(ins, self.operand_type(ins, args[0], 0), "int", "operand 0")
            if s[2] != n:
                raise _fail(f"{inst}: operand and result have different component counts",
                            ins)
        elif inst == "Ldexp":
            self.need_shape(ins, rt, "float", "the result type")
            self.same(ins, rt, self.operand_type(ins, args[0], 0), "operand 0")
            self.need_shape(ins, self.operand_type(ins, args[1], 1), "int", "the exponent")
        elif inst in ("Length", "Distance", "Normalize", "Cross", "Reflect", "FaceForward"):
            _, w, n = self.need_shape(ins, rt, "float", "the result type")
            first = self.operand_type(ins, args[0], 0) if args else None
            for k, a in enumerate(args):
                at = self.operand_type(ins, a, k)
                s = self.need_shape(ins, at, "float", f"operand {k}")
                if inst in ("Length", "Distance"):  # a scalar of the operands' component
                    if n != 1 or s[1] != w or at != first:
                        raise _fail(f"{inst}: operand {k} has type {self.type_name(at)}, "
                                    f"operand 0 {self.type_name(first)}, the result "
                                    f"{self.type_name(rt)}", ins)
                elif at != rt:
                    raise _fail(f"{inst}: operand {k} has type {self.type_name(at)}, the "
                                f"result {self.type_name(rt)}", ins)
            if inst == "Cross" and n != 3:
                raise _fail(f"Cross of {self.type_name(rt)}: 3-component vectors only", ins)

    # ================================================================ functions: CFG
    def function(self, fn: Function) -> None:
        blocks = {b.label: b for b in fn.blocks}
        succ = {b.label: [s for s in b.successors if s in blocks] for b in fn.blocks}
        order = _reverse_postorder(fn.blocks[0].label, succ)
        idom = _DomTree(_dominators(order, succ))
        reach = set(order)
        preds: dict[int, list[int]] = {b.label: [] for b in fn.blocks}
        for b in order:
            for s in succ[b]:
                preds[s].append(b)
        for blk in fn.blocks:
            term = blk.terminator
            if term.opname == "OpReturnValue":
                self.same(term, fn.result_type, self.operand_type(term, term.id(0), 0),
                          "the returned value (the function's return type)")
            elif term.opname == "OpReturn" and not isinstance(self.t(fn.result_type), TypeVoid):
                raise _fail("OpReturn in a function that returns a value", term)
        pos = {b.label: k for k, b in enumerate(fn.blocks)}
        for b in order:  # (spirv-val: a block appears in the binary after its dominators)
            d = idom.idom.get(b, b)
            if pos[d] > pos[b]:
                raise _fail(f"block %{b} appears before its dominator %{d}",
                            blocks[b].instructions[0])
        self.structure(fn, blocks, succ, order, idom, preds)
        self.dominance(fn, blocks, idom, reach, preds)
        self.fn_models = self.models.get(fn.id, set())
        for blk in fn.blocks:
            for ins in blk.instructions:
                self.instruction(ins)

    def structure(self, fn: Function, blocks: dict[int, Block], succ: dict[int, list[int]],
                  order: list[int], idom: _DomTree, preds: dict[int, list[int]]) -> None:
        exits: set[int] = set()
        merge_of: dict[int, int] = {}
        for b in fn.blocks:
            mi = b.merge
            if mi is not None:
                if merge_of.setdefault(mi.id(0), b.label) != b.label:
                    raise _fail(f"%{mi.id(0)} is already the merge block of header "
                                f"%{merge_of[mi.id(0)]}", mi)
                exits.add(mi.id(0))
                if mi.opname == "OpLoopMerge":
                    exits.add(mi.id(1))
                    if mi.id(0) == b.label:
                        raise _fail("a loop header cannot be its own merge block", mi)
                    if mi.id(0) == mi.id(1):
                        raise _fail("the merge block and the continue target must differ", mi)
                    _loop_control(mi)
                elif mi.id(0) == b.label:
                    raise _fail("a selection header cannot be its own merge block", mi)
        back: dict[int, int] = {}
        for u in order:
            for h in succ[u]:
                if idom.dominates(h, u):
                    hb = blocks[h]
                    term = blocks[u].terminator
                    if hb.merge is None or hb.merge.opname != "OpLoopMerge":
                        raise _fail(f"block %{u} branches back to %{h}, which is not a loop "
                                    "header (no OpLoopMerge)", term)
                    back[h] = back.get(h, 0) + 1
                    if back[h] > 1:
                        raise _fail(f"loop header %{h} is the target of more than one back "
                                    "edge", term)
                    self._continue_construct(blocks[h], u, blocks, succ)
        structural = {b: list(ss) for b, ss in succ.items()}
        for b in fn.blocks:  # merge blocks and continue targets are edges too (spirv-val)
            if b.merge is not None:
                structural[b.label] += [t for t in _label_operands(b.merge) if t in blocks]
        for u, h in _dfs_back_edges([b.label for b in fn.blocks], structural):
            hb = blocks[h]
            if hb.merge is None or hb.merge.opname != "OpLoopMerge":
                where = blocks[u].merge if h not in succ[u] else None
                raise _fail(f"block %{u} leads back to %{h}, which is not a loop header "
                            "(a cycle through branches, merge blocks and continue targets)",
                            where or blocks[u].terminator)
        self._one_back_edge(fn, blocks, succ, structural)
        self._construct_exits(fn, blocks, succ, order, idom)
        named_by: dict[int, list[int]] = {}  # block -> the headers naming it merge/continue
        for b2 in fn.blocks:
            if (m2 := b2.merge) is not None:
                for t in _label_operands(m2):
                    named_by.setdefault(t, []).append(b2.label)
        for u in order:
            b = blocks[u]
            term = b.terminator
            if term.opname == "OpSwitch" and b.merge is not None:
                self._fall_through(b, succ, order, idom)
                self._case_exits(b, blocks, succ, idom, named_by)
            targets = set(b.successors)
            if term.opname in ("OpBranchConditional", "OpSwitch") and len(targets) > 1 \
                    and b.merge is None and not targets & exits:
                raise _fail("a conditional branch without a merge instruction must leave "
                            "to a merge block or continue target (unstructured control flow)",
                            term)

    def _one_back_edge(self, fn: Function, blocks: dict[int, Block], succ: dict[int, list[int]],
                       structural: dict[int, list[int]]) -> None:
        """Every loop header the entry reaches through branches, merge blocks and continue
        targets is the target of exactly one back edge (a branch, not a merge or continue
        edge) of the depth-first walk over those edges from the entry: the continue
        construct must branch back (spirv-val's StructuredControlFlowChecks; the back edge
        may come from a block that only the continue target's edge reaches)."""
        entry = fn.blocks[0].label
        latches: dict[int, int] = {}
        # (distinct edges: a single-block loop's continue edge is its back edge too)
        for u, h in dict.fromkeys(_dfs_back_edges([entry], structural)):
            if h in succ[u]:
                latches[h] = latches.get(h, 0) + 1
        todo, seen = [entry], {entry}
        while todo:
            x = todo.pop()
            mi = blocks[x].merge
            if mi is not None and mi.opname == "OpLoopMerge" and latches.get(x, 0) != 1:
                raise _fail(f"loop header %{x} is the target of {latches.get(x, 0)} back "
                            "edges; a loop header must be the target of exactly one", mi)
            for y in structural[x]:
                if y not in seen:
                    seen.add(y)
                    todo.append(y)

    def _continue_construct(self, header: Block, back_edge: int, blocks: dict[int, Block],
                            succ: dict[int, list[int]]) -> None:
        """The back-edge block post-dominates the continue construct: no other block of
        it (the blocks reached from the continue target short of the header and the merge
        block) branches to the loop's merge block or returns; a continue target that is
        the header is the back-edge block (spirv-val's structural
        post-dominance check)."""
        assert header.merge is not None
        merge, cont = header.merge.id(0), header.merge.id(1)
        if cont == header.label and back_edge != cont:
            # the header's structural edge to the merge block bypasses any other block
            raise _fail(f"the continue target of loop %{cont} is its header, which is then "
                        f"its back-edge block, not %{back_edge}", header.merge)
        todo, seen = [cont], {header.label, merge}
        while todo:
            x = todo.pop()
            if x in seen or x not in blocks:
                continue
            seen.add(x)
            term = blocks[x].terminator
            if x != back_edge and (merge in succ[x] or term.opname in (
                    "OpReturn", "OpReturnValue")):
                raise _fail(f"the continue construct of loop %{header.label} (continue target "
                            f"%{cont}) leaves from %{x}, not only from its back-edge block "
                            f"%{back_edge}", term)
            todo.extend(succ[x])

    def _fall_through(self, b: Block, succ: dict[int, list[int]], order: list[int],
                      idom: _DomTree) -> None:
        """A case construct (the blocks its target dominates, short of the merge block)
        branches to at most one other case, which no other case branches to and which
        follows it in the OpSwitch's list (spirv-val's StructuredSwitchChecks; a fall
        through into the default is not ordered here)."""
        assert b.merge is not None
        term, merge = b.terminator, b.merge.id(0)
        targets = b.successors  # the default first, then the cases in the list's order
        into: dict[int, int] = {}
        falls: dict[int, int] = {}
        cases_t = [t for t in dict.fromkeys(targets) if t != merge and t in idom]
        # the other cases each case construct branches to, from one walk of the blocks:
        # only blocks branching to a case target are asked which constructs hold them
        # (was a walk of the function per case: quadratic in a big switch)
        tset = set(targets)
        branches: dict[int, set[int]] = {t: set() for t in cases_t}
        for u in order:
            ss = [s for s in succ[u] if s in tset and s != merge]
            if not ss or (merge in idom and idom.dominates(merge, u)):
                continue
            for t in cases_t:
                if idom.dominates(t, u):
                    branches[t].update(s for s in ss if s != t)
        for t in cases_t:
            hits = branches[t]
            if len(hits) > 1:
                raise _fail(f"the case construct of %{t} branches to more than one other "
                            f"case construct", term)
            if hits:
                f = hits.pop()
                if f in into:
                    raise _fail(f"the case constructs of %{into[f]} and %{t} both branch to "
                                f"the case construct of %{f}", term)
                into[f], falls[t] = t, f
        cases = targets[1:]
        for k, t in enumerate(cases):
            ft = falls.get(t)
            if ft is None or ft == targets[0] or (k + 1 < len(cases) and cases[k + 1] == t):
                continue
            if k + 1 >= len(cases) or cases[k + 1] != ft:
                raise _fail(f"the case construct of %{t} branches to the case construct of "
                            f"%{ft}, which does not follow it in the target list", term)

    def _case_exits(self, b: Block, blocks: dict[int, Block], succ: dict[int, list[int]],
                    idom: _DomTree, named_by: dict[int, list[int]]) -> None:
        """A case construct (the blocks its target dominates, short of the switch's merge)
        leaves only to another case target, the switch's merge, or the merge block or
        continue target of a construct enclosing the switch (spirv-val's
        StructuredSwitchChecks: "not another case construct, corresponding merge, outer
        loop merge or outer loop continue"). Each block belongs to one case construct of
        a switch, so the walks together visit the switch's blocks once."""
        assert b.merge is not None
        merge = b.merge.id(0)
        targets = set(b.successors)
        for t in dict.fromkeys(b.successors):
            if t == merge or t not in idom or not idom.dominates(b.label, t):
                continue
            todo, seen = [t], {t}
            while todo:
                x = todo.pop()
                for y in succ[x]:
                    if y in seen or y == merge or y in targets:
                        continue
                    if idom.dominates(t, y):
                        seen.add(y)
                        todo.append(y)
                    elif not any(h != b.label and h in idom and idom.dominates(h, b.label)
                                 for h in named_by.get(y, ())):
                        raise _fail(f"block %{x} of the case construct of %{t} branches to "
                                    f"%{y}, which is no case target, merge block of the switch "
                                    f"or exit of an enclosing construct",
                                    blocks[x].terminator)

    def _construct_exits(self, fn: Function, blocks: dict[int, Block],
                         succ: dict[int, list[int]], order: list[int], idom: _DomTree) -> None:
        """No block after a header's merge block (dominated by it) branches back into the
        header's construct (a block the header dominates and the merge does not), unless
        the target is an exit of a construct that encloses the header (an enclosing loop's
        continue target or merge may be dominated by the header without being in its
        construct; the merge of a construct after the header's does not count). The first
        offence in (header, block, successor) order is reported.

        Per edge p -> b, the merge blocks m that dominate p and not b are p's dominator
        chain up to the first block that dominates b (the blocks whose dominance frontier
        holds b), so the work is the size of the dominance frontiers, not headers x
        blocks."""
        headers_of: dict[int, list[int]] = {}
        for h in order:
            mi = blocks[h].merge
            if mi is not None and mi.id(0) in idom:
                headers_of.setdefault(mi.id(0), []).append(h)
        if not headers_of:
            return
        # the headers whose merge instruction names each block (merge block, continue target)
        named_by: dict[int, list[int]] = {}
        for b2 in fn.blocks:
            if (m2 := b2.merge) is not None:
                for t in _label_operands(m2):
                    named_by.setdefault(t, []).append(b2.label)
        index = {b: k for k, b in enumerate(order)}
        first: tuple[int, int, int] | None = None
        for p in order:
            for k, b in enumerate(succ[p]):
                m = p
                while not idom.dominates(m, b):
                    for h in headers_of.get(m, ()):
                        other_exit = any(h2 != h and h2 in idom and idom.dominates(h2, h)
                                         for h2 in named_by.get(b, ()))
                        if not other_exit and idom.dominates(h, b):
                            key = (index[h], index[p], k)
                            if first is None or key < first:
                                first = key
                    m = idom.idom[m]
        if first is not None:
            h, p = order[first[0]], order[first[1]]
            merge = blocks[h].merge.id(0)  # type: ignore[union-attr]
            raise _fail(f"block %{p}, after merge block %{merge}, branches back "
                        f"into the construct of header %{h}", blocks[p].terminator)

    def dominance(self, fn: Function, blocks: dict[int, Block], idom: _DomTree,
                  reach: set[int], preds: dict[int, list[int]]) -> None:
        where: dict[int, tuple[int, int]] = {}
        for b in fn.blocks:
            where[b.label] = (b.label, -1)
            for k, ins in enumerate(b.instructions):
                if ins.result_id is not None:
                    where[ins.result_id] = (b.label, k)
        for b in fn.blocks:
            label = b.label
            if label not in reach:
                continue
            for k, ins in enumerate(b.instructions):
                if ins.opname == "OpPhi":
                    self.phi(ins, label, where, idom, reach, preds)
                    continue
                ids = ins.id_list
                for v in ids if ids is not None else ins.id_tuple():
                    if v in blocks:  # a label (branch target, merge block)
                        continue
                    if v not in where:
                        if self.owner.get(v, fn.id) != fn.id:
                            raise _fail(f"%{v} is defined in another function", ins)
                        continue
                    db, dk = where[v]
                    if db not in reach:
                        raise _fail(f"%{v} is defined in unreachable block %{db}", ins)
                    # in the same block: defined before; else in a dominating block (most
                    # uses are in their definition's block: no dominance query for them)
                    if dk >= k if db == label else not idom.dominates(db, label):
                        raise _fail(f"%{v} defined in block %{db} does not dominate its use "
                                    f"in block %{label}", ins)

    def phi(self, ins: Instruction, label: int, where: dict[int, tuple[int, int]],
            idom: _DomTree, reach: set[int], preds: dict[int, list[int]]) -> None:
        ops = ins.ids()
        parents = ops[1::2]
        if len(set(parents)) != len(parents):
            raise _fail("an OpPhi names a parent block twice", ins)
        if set(preds[label]) - set(parents):
            missing = sorted(set(preds[label]) - set(parents))
            raise _fail(f"the OpPhi has no value for predecessor %{missing[0]}", ins)
        for v, p in zip(ops[0::2], parents, strict=True):
            if p not in preds[label]:
                if p in reach or p not in where:
                    raise _fail(f"%{p} is not a predecessor of block %{label}", ins)
                continue
            if v in where:
                db, _ = where[v]
                if db not in reach or not idom.dominates(db, p):
                    raise _fail(f"%{v} defined in block %{db} does not dominate the end of "
                                f"parent block %{p}", ins)

    # ================================================================ types
    def types(self) -> None:
        m = self.m
        seen: dict[tuple[str, tuple[Operand, ...]], int] = {}
        small = self.small
        for tid, t in m.types.items():
            ins = m.defs[tid]
            if ins.opname not in _MAY_REPEAT:  # spirv-val: ValidateUniqueness
                first = seen.setdefault((ins.opname, ins.operands), tid)
                if first != tid:
                    raise _fail(f"type %{tid} repeats %{first} (only structs, arrays and "
                                f"pointers may be declared twice)", ins)
            bf16 = isinstance(t, TypeFloat) and t.bfloat16
            need = ("BFloat16TypeKHR",) if bf16 else \
                _WIDTH_CAPS.get((type(t).__name__, getattr(t, "width", 0)))
            if need is not None and not set(need) & set(m.capabilities):
                kind = "integer" if isinstance(t, TypeInt) else "bfloat16" if bf16 else "float"
                raise _fail(f"a {getattr(t, 'width', 0)}-bit {kind} type needs "
                            f"the {need[0]} capability", ins)
            if isinstance(t, TypeCooperativeMatrix):
                for what, v in (("Scope", t.scope), ("Rows", t.rows), ("Columns", t.columns),
                                ("Use", t.use)):
                    if not m.is_constant(v) or not isinstance(self.t(self.vtype(v)), TypeInt):
                        raise _fail(f"the cooperative matrix's {what} %{v} is not a constant "
                                    "of an integer type", ins)
            comp = self.t(t.component) if isinstance(t, TypeCooperativeMatrix) else None
            if isinstance(comp, TypeFloat) and comp.bfloat16 and \
                    "BFloat16CooperativeMatrixKHR" not in m.capabilities:
                raise _fail("a cooperative matrix of bfloat16 needs the "
                            "BFloat16CooperativeMatrixKHR capability (SPV_KHR_bfloat16)", ins)
            if isinstance(t, TypeInt | TypeFloat) and t.width in (8, 16) and not bf16:
                full = "Int8" if t.width == 8 else "Int16" if isinstance(t, TypeInt) else \
                    "Float16"
                if full not in m.capabilities:
                    small[tid] = full
            name = ins.opname
            if isinstance(t, TypeStruct) and any(isinstance(self.t(x), TypeRuntimeArray)
                                                 for x in t.members) and \
                    m.decoration(tid, "Block") is None and \
                    m.decoration(tid, "BufferBlock") is None:
                raise _fail("a struct with a runtime array must be decorated Block or "
                            "BufferBlock (VUID-StandaloneSpirv-OpTypeRuntimeArray-04680)", ins)
            if name == "OpTypeImage" and isinstance(t, TypeOther):
                for k, what, low, top in ((2, "Depth", 0, 2), (3, "Arrayed", 0, 1),
                                          (4, "MS", 0, 1), (5, "Sampled", 1, 2)):
                    ov = t.operands[k].value if len(t.operands) > k else None
                    if not isinstance(ov, int) or not low <= ov <= top:
                        raise _fail(f"OpTypeImage {what} {ov} (must be {low} to {top}; Sampled: "
                                    "VUID-StandaloneSpirv-OpTypeImage-04657)", ins)
                st = self.shape(image_type(t).sampled_type)
                if st is None or st[2] != 1 or st[0] == "bool" or (st[0], st[1]) not in (
                        ("int", 32), ("int", 64), ("float", 32)):
                    raise _fail(f"OpTypeImage Sampled Type "
                                f"{self.type_name(image_type(t).sampled_type)}: Vulkan allows a "
                                "32-bit int, 64-bit int or 32-bit float scalar "
                                "(VUID-StandaloneSpirv-OpTypeImage-04656)", ins)
                if t.operands[4].value == 1 and t.operands[5].value == 2 and \
                        "StorageImageMultisample" not in m.capabilities:
                    raise _fail("a multisampled storage image (MS 1, Sampled 2) needs the "
                                "StorageImageMultisample capability", ins)
                why = unsupported(image_type(t))
                if why is not None:
                    raise _fail(why, ins)
            if name == "OpTypeSampledImage" and isinstance(t, TypeOther):
                inner = m.types.get(int(t.operands[0].value))  # type: ignore[arg-type]
                if isinstance(inner, TypeOther) and inner.opname == "OpTypeImage" \
                        and image_type(inner).storage:
                    raise _fail("a sampled image of a storage image (Sampled 2)", ins)
        for ins in m.instructions:
            if ins.opname not in ("OpConstantComposite", "OpSpecConstantComposite"):
                continue  # (one test per instruction: most are in function bodies)
            ct = self.t(ins.result_type)
            if (isinstance(ct, TypeVector | TypeStruct | TypeMatrix | TypeCooperativeMatrix)
                    or (
                        isinstance(ct, TypeArray) and self.length(ct) is not None)):
                self.construct(ins, ins.result_type, [int(v) for v in ins.ids()])
        for ins in m.instructions:  # spirv-val: no constants of storage-only small types
            if ins.opname in ("OpConstant", "OpSpecConstant") and ins.result_type in small:
                raise _fail(f"a constant of {self.type_name(ins.result_type)} needs the "
                            f"{small[ins.result_type]} capability (the storage capabilities "
                            f"allow loads, stores and conversions only)", ins)
            elif ins.opname == "OpVariable":
                if small:
                    self._small_variable(ins, small)
                self._no_explicit_layout(ins)

    def _limited(self, tid: int | None) -> bool:
        """Does a value of type `tid` (not a pointer) hold an 8/16-bit type that only a
        storage capability declares (`self.small`)? Cached per type."""
        if tid is None:
            return False
        r = self._limited_cache.get(tid)
        if r is None:
            self._limited_cache[tid] = False  # (no recursion through a type being checked)
            t = self.t(tid)
            if isinstance(t, TypeVector):
                r = self._limited(t.component)
            elif isinstance(t, TypeMatrix):
                r = self._limited(t.column)
            elif isinstance(t, TypeArray | TypeRuntimeArray):
                r = self._limited(t.element)
            elif isinstance(t, TypeStruct):
                r = any(self._limited(x) for x in t.members)
            else:
                r = tid in self.small
            self._limited_cache[tid] = r
        return r

    def small_names(self) -> None:
        """A value of an 8/16-bit type declared by a storage capability alone is not named
        by OpName either (spirv-val's ValidateSmallTypeUses allows only decorations and
        the uses in ``_SMALL_USES``)."""
        if not self.small:
            return
        for ins in self.m.instructions:
            if ins.opname != "OpName":
                continue
            tdef = self.m.defs.get(ins.id(0))
            if tdef is not None and tdef.opname != "OpVariable" and \
                    self._limited(tdef.result_type):
                raise _fail(f"OpName of %{ins.id(0)} ({self.type_name(tdef.result_type)}), "
                            "a value of a type declared by a storage capability alone: only "
                            "stored, copied or converted by width", ins)

    def _small_variable(self, ins: Instruction, small: dict[int, str]) -> None:
        """A Function, Private, Workgroup, Input or Output variable holding an 8/16-bit
        type declared by a storage capability alone needs the full capability (Workgroup:
        or the explicit layout one; Input/Output: or StorageInputOutput16), as
        spirv-val's variable checks."""
        pt = self.t(ins.result_type)
        if not isinstance(pt, TypePointer) or pt.storage_class not in (
                "Function", "Private", "Workgroup", "Input", "Output"):
            return
        for tid, t in self._type_tree(pt.pointee):
            if tid in small:
                width = getattr(t, "width", 0)
                layout = f"WorkgroupMemoryExplicitLayout{width}BitAccessKHR"
                if pt.storage_class == "Workgroup" and layout in self.m.capabilities:
                    continue
                if pt.storage_class in ("Input", "Output") and width == 16 and \
                        "StorageInputOutput16" in self.m.capabilities:
                    continue
                raise _fail(f"a {pt.storage_class} variable holding {self.type_name(tid)} "
                            f"needs the {small[tid]} capability", ins)

    def _type_tree(self, root: int) -> Iterator[tuple[int, Type | None]]:
        """Each type of `root`'s tree once, with its id: components, columns, elements
        and members, not through pointers."""
        todo, seen = [root], set()
        while todo:
            tid = todo.pop()
            if tid in seen:
                continue
            seen.add(tid)
            t = self.t(tid)
            yield tid, t
            if isinstance(t, TypeVector | TypeCooperativeMatrix):
                todo.append(t.component)
            elif isinstance(t, TypeMatrix):
                todo.append(t.column)
            elif isinstance(t, TypeArray | TypeRuntimeArray):
                todo.append(t.element)
            elif isinstance(t, TypeStruct):
                todo.extend(t.members)

    def _no_explicit_layout(self, ins: Instruction) -> None:
        """A Function, Private, UniformConstant or Workgroup variable's type carries no
        explicit layout: no ArrayStride (on its pointer type either), Offset, MatrixStride,
        Block or BufferBlock anywhere in it (Workgroup:
        unless WorkgroupMemoryExplicitLayoutKHR; VUID-StandaloneSpirv-None-10684, which
        spirv-val checks at the variable)."""
        pt = self.t(ins.result_type)
        if not isinstance(pt, TypePointer) or pt.storage_class not in (
                "Function", "Private", "UniformConstant", "Workgroup") or (
                pt.storage_class == "Workgroup"
                and "WorkgroupMemoryExplicitLayoutKHR" in self.m.capabilities):
            return
        m = self.m
        ptid = ins.result_type
        assert ptid is not None  # (pt is its type)
        for tid, t in [(ptid, pt), *self._type_tree(pt.pointee)]:
            found = None
            if isinstance(t, TypeArray | TypeRuntimeArray | TypePointer):
                found = "ArrayStride" if m.has_decoration(tid, "ArrayStride") else None
            elif isinstance(t, TypeStruct):
                found = next((d for d in ("Block", "BufferBlock") if m.has_decoration(tid, d)),
                             None) or next((d for k in range(len(t.members))
                                            for d in ("Offset", "MatrixStride")
                                            if m.has_decoration(tid, d, k)), None)
            if found == "ArrayStride" and isinstance(t, TypeArray) and \
                    pt.storage_class in ("Function", "Private"):
                # glslang gives a local copy of a buffer's 16-bit array the buffer's
                # array type (llama.cpp's iq1_m shaders); spirv-val before 2025 and the
                # drivers accept it, and a stride means nothing in registers: a warning
                self.warnings.append(SpirvWarning(
                    f"a {pt.storage_class} variable's type {self.type_name(tid)} has an "
                    f"explicit layout (ArrayStride), which only buffer, push-constant and "
                    "physical storage classes allow (VUID-StandaloneSpirv-None-10684): "
                    "ignored", ins.offset, ins.opname))
                continue
            if found is not None:
                raise _fail(f"a {pt.storage_class} variable's type {self.type_name(tid)} has an "
                            f"explicit layout ({found}), which only buffer, push-constant and "
                            "physical storage classes allow (VUID-StandaloneSpirv-None-10684)",
                            ins)

    # ================================================================ entry points
    def interfaces(self) -> None:
        """The global variables an entry point's functions use are in its interface (all
        of them from SPIR-V 1.4, the Input/Output ones before, when it holds no other);
        at most one object per storage class holding a struct with BuiltIn members per
        entry-point function, over every OpEntryPoint naming it (spirv-val's reading of
        VUID-StandaloneSpirv-OpEntryPoint-09658/-09659)."""
        m = self.m
        gvars = m.global_variables
        fns = {f.id: f for f in m.functions}
        blocks: dict[tuple[int, str], int] = {}
        for ins in m.instructions:
            if ins.opname != "OpEntryPoint":
                continue
            for v in ins.id_tuple()[1:]:
                var = m.global_variables.get(v)
                if var is None or m.builtin(v) is not None or not self._builtins_of(v, var):
                    continue
                key = (ins.id(1), var.storage_class)
                if key in blocks:
                    who = f"%{v} holds" if blocks[key] == v else f"%{blocks[key]} and %{v} hold"
                    raise _fail(f"{who} {var.storage_class} built-in members twice for the "
                                f"entry-point function %{ins.id(1)}: "
                                "at most one object per storage class "
                                "(VUID-StandaloneSpirv-OpEntryPoint-09658/-09659)", ins)
                blocks[key] = v
        for ep in m.entry_points:
            builtins: dict[tuple[str, str], int] = {}
            for v in ep.interface:  # VUID-StandaloneSpirv-OpEntryPoint-09658/-09659
                var = m.global_variables.get(v)
                if var is None:
                    continue
                if m.version < (1, 4) and var.storage_class not in ("Input", "Output"):
                    raise SpirvError(f"OpEntryPoint: %{v} ({var.storage_class}) is in the "
                                     f"interface of entry point {ep.name!r}: before SPIR-V "
                                     "1.4 an interface holds Input and Output variables only",
                                     self._entry_offset(ep))
                self._interpolation(ep, v, var)
                for b in self._builtins_of(v, var):
                    other = builtins.get((var.storage_class, b))
                    if other is not None:
                        who = f"%{v} holds" if other == v else f"%{other} and %{v} hold"
                        raise _fail(f"{who} the {var.storage_class} built-in {b} of entry "
                                    f"point {ep.name!r} twice "
                                    "(VUID-StandaloneSpirv-OpEntryPoint-09658/-09659)",
                                    m.defs[v])
                    builtins[(var.storage_class, b)] = v
            if ep.execution_model in _LOCATION_MODELS:
                self.locations(ep)
            seen, todo = set(), [ep.function]
            while todo:
                fid = todo.pop()
                if fid in seen or fid not in fns:
                    continue
                seen.add(fid)
                for fblk in fns[fid].blocks:
                    for ins in fblk.instructions:
                        if ins.opname == "OpFunctionCall":
                            todo.append(ins.id(0))
                        ids = ins.id_list
                        if ids is None:
                            ids = ins.id_tuple()
                        if gvars.keys().isdisjoint(ids):  # (most: no variable, no built-in)
                            continue
                        for v in ids:
                            var = gvars.get(v)
                            if var is None:
                                continue
                            bi = m.builtin(v)
                            if bi == "FragDepth" and ep.execution_model == "Fragment" and \
                                    ep.mode("DepthReplacing") is None:
                                raise _fail(f"FragDepth (%{v}) is used by the fragment entry "
                                            f"point {ep.name!r}, which does not declare the "
                                            "DepthReplacing execution mode "
                                            "(VUID-FragDepth-FragDepth-04216)", ins)
                            if bi in _BUILTIN_MODELS and \
                                    ep.execution_model not in _BUILTIN_MODELS[bi]:
                                raise _fail(f"the built-in {bi} (%{v}) is used by the "
                                            f"{ep.execution_model} entry point {ep.name!r}: "
                                            "Vulkan allows it only in "
                                            f"{', '.join(sorted(_BUILTIN_MODELS[bi]))}", ins)
                            if v in ep.interface:
                                continue
                            if m.version >= (1, 4) or var.storage_class in ("Input",
                                                                            "Output"):
                                raise _fail(f"%{v} ({var.storage_class}) is used by entry "
                                            f"point {ep.name!r} but is not in its interface",
                                            ins)

    def _struct_members(self, var: Variable) -> tuple[int | None, range]:
        """The struct a variable holds (through arrays: gl_PerVertex, an array of blocks)
        and its member indices; (None, empty) when it holds no struct."""
        ptr = self.t(var.type)
        sid = ptr.pointee if isinstance(ptr, TypePointer) else None
        st = self.t(sid)
        while isinstance(st, TypeArray | TypeRuntimeArray):
            sid = st.element
            st = self.t(sid)
        return (sid, range(len(st.members))) if isinstance(st, TypeStruct) else (None, range(0))

    def _builtins_of(self, v: int, var: Variable) -> list[str]:
        """The built-ins a global variable holds: its own BuiltIn decoration, or those of
        the members of its (array of) Block struct (gl_PerVertex)."""
        m = self.m
        own = m.builtin(v)
        if own is not None:
            return [own]
        sid, members = self._struct_members(var)
        return [b for k in members if (b := m.builtin(sid, k)) is not None] \
            if sid is not None else []

    def _interpolation(self, ep: EntryPoint, v: int, var: Variable) -> None:
        """No Flat/NoPerspective/Centroid/Sample on a vertex shader's inputs
        (VUID-StandaloneSpirv-Flat-06202) or a fragment shader's outputs (-06201), on the
        variable or the members of its struct."""
        bad = {("Vertex", "Input"): "06202", ("Fragment", "Output"): "06201"}.get(
            (ep.execution_model, var.storage_class))
        if bad is None:
            return
        m = self.m
        sid, members = self._struct_members(var)
        for name in ("Flat", "NoPerspective", "Centroid", "Sample"):
            if m.has_decoration(v, name) or any(
                    sid is not None and m.has_decoration(sid, name, k) for k in members):
                raise _fail(f"{name} on the {var.storage_class} variable %{v} of the "
                            f"{ep.execution_model} entry point {ep.name!r} "
                            f"(VUID-StandaloneSpirv-Flat-{bad})", m.defs[v])

    def locations(self, ep: EntryPoint) -> None:
        """No two Input (Output of one Index) variables of an entry point share a location
        component (VUID-StandaloneSpirv-OpEntryPoint-08721/-08722; the Vulkan spec's
        "Location Assignment": a 64-bit component takes two, a 3- or 4-component 64-bit
        vector two locations, an array one location per element, a matrix per column, a
        struct its members in turn), as spirv-val counts them (a struct or matrix takes
        its locations whole; a Block's member array of small elements the same
        components of each location)."""
        m = self.m
        used: dict[tuple[str, int], dict[int, int]] = {}
        for v in dict.fromkeys(ep.interface):
            var = m.global_variables.get(v)
            if var is None or var.storage_class not in ("Input", "Output") or \
                    m.has_decoration(v, "BuiltIn"):
                continue
            pt = self.t(var.type)
            if not isinstance(pt, TypePointer):
                continue
            tid, out = pt.pointee, var.storage_class == "Output"
            patch = m.has_decoration(v, "Patch")
            model = ep.execution_model
            arrayed = (model == "TessellationControl" and not patch) or (
                model == "TessellationEvaluation" and not out and not patch) or (
                model == "Geometry" and not out) or (
                model == "Fragment" and not out and m.has_decoration(v, "PerVertexKHR"))
            t = self.t(tid)
            if arrayed and isinstance(t, TypeArray | TypeRuntimeArray):
                tid, t = t.element, self.t(t.element)
            if isinstance(t, TypeStruct) and any(m.builtin(tid, k) for k in
                                                 range(len(t.members))):
                continue
            index = m.decoration(v, "Index")
            slots = used.setdefault((var.storage_class, int(index[0]) if index else 0), {})
            loc = m.decoration(v, "Location")
            comp_d = m.decoration(v, "Component")
            comp = int(comp_d[0]) if comp_d else 0
            if loc is not None:
                sub, n = tid, 1
                if isinstance(t, TypeArray):
                    sub, n = t.element, self.length(t) or 1
                nl, nc = self._num_locations(sub), self._num_components(sub)
                for k in range(n):
                    base = int(loc[0]) + nl * k
                    if base * 4 >= _LOCATION_SLOTS:
                        break
                    span = range(base * 4 + comp, base * 4 + comp + nc) if nc else \
                        range(base * 4, (base + nl) * 4)
                    self._take(ep, v, slots, span)
            elif isinstance(t, TypeStruct) and m.has_decoration(tid, "Block"):
                for k, mt in enumerate(t.members):
                    ml = m.decoration(tid, "Location", k)
                    if ml is None:
                        raise _fail(f"member {k} of the {var.storage_class} block %{tid} has no "
                                    "Location (VUID-StandaloneSpirv-Location-04919)",
                                    m.defs[v])
                    mc_d = m.decoration(tid, "Component", k)
                    mc, base = int(mc_d[0]) if mc_d else 0, int(ml[0])
                    nl, nc = self._num_locations(mt), self._num_components(mt)
                    if base * 4 >= _LOCATION_SLOTS:
                        continue
                    if isinstance(self.t(mt), TypeArray) and 1 <= nc < 4:
                        cells = [4 * lo + c for lo in range(base, min(base + nl, 4096))
                                 for c in range(mc, mc + nc)]
                        self._take(ep, v, slots, cells)
                    else:
                        self._take(ep, v, slots, range(base * 4 + mc, base * 4 + mc + nc) if nc
                                   else range(base * 4, (base + nl) * 4))
            else:
                raise _fail(f"the {var.storage_class} variable %{v} has no Location "
                            "(VUID-StandaloneSpirv-Location-04916/-04917)", m.defs[v])

    def _take(self, ep: EntryPoint, v: int, slots: dict[int, int], span: Iterable[int]) -> None:
        for i in span:
            if i >= _LOCATION_SLOTS:
                return
            other = slots.setdefault(i, v)
            if other != v:
                sc = self.m.global_variables[v].storage_class
                raise SpirvError(f"entry point {ep.name!r}: {sc} location {i // 4}, component "
                                 f"{i % 4} is assigned to both %{other} and %{v} "
                                 "(VUID-StandaloneSpirv-OpEntryPoint-08721/-08722)",
                                 self._entry_offset(ep), "OpEntryPoint")

    def _num_locations(self, tid: int) -> int:
        """The locations an interface value of type `tid` takes (`locations`)."""
        t = self.t(tid)
        if isinstance(t, TypeInt | TypeFloat):
            return 1
        if isinstance(t, TypeVector):
            s = self.shape(tid)
            return 2 if s is not None and s[1] == 64 and t.count > 2 else 1
        if isinstance(t, TypeMatrix):
            return self._num_locations(t.column) * t.columns
        if isinstance(t, TypeArray):
            n = self.length(t)
            return self._num_locations(t.element) * (n if n is not None else 1)
        if isinstance(t, TypeStruct):
            return sum(self._num_locations(x) for x in t.members)
        return 0

    def _num_components(self, tid: int) -> int:
        """The components of a location a scalar, vector or array of them takes (0: the
        type takes whole locations)."""
        t = self.t(tid)
        if isinstance(t, TypeInt | TypeFloat):
            return 2 if t.width == 64 else 1
        if isinstance(t, TypeVector):
            return self._num_components(t.component) * t.count
        if isinstance(t, TypeArray):
            return self._num_components(t.element)
        return 0

    # ================================================================ decorations
    def rounding_modes(self) -> None:
        """FPRoundingMode in a shader (SPV_KHR_16bit_storage's validation rules, as
        spirv-val's CheckFPRoundingModeForShaders has them): on an OpFConvert, RTE or RTZ
        in Vulkan (VUID-StandaloneSpirv-FPRoundingMode-04675), whose uses are other
        conversions or the object of an OpStore of 16-bit floats to StorageBuffer,
        PhysicalStorageBuffer, Uniform, PushConstant, Input or Output memory."""
        m = self.m
        # (the decorations' instructions as `decorations` recorded them)
        targets = {tid: dec for (tid, member, name), dec in self.dec_at.items()
                   if name == "FPRoundingMode" and member is None}
        if not targets:
            return
        for target, dec in targets.items():
            tdef = m.defs.get(target)
            if tdef is None or tdef.opname != "OpFConvert":
                raise _fail(f"FPRoundingMode applies to an OpFConvert, not %{target}", dec)
            mode = dec.operands[1].params[0].name
            if mode not in ("RTE", "RTZ"):
                raise _fail(f"FPRoundingMode {mode}: Vulkan allows RTE and RTZ only "
                            "(VUID-StandaloneSpirv-FPRoundingMode-04675)", dec)
        for fn in m.functions:
            for b in fn.blocks:
                for ins in b.instructions:
                    if ins.opname == "OpFConvert":
                        continue
                    ids = [i for i in ins.ids() if i in targets]
                    if not ids:
                        continue
                    if ins.opname != "OpStore" or ins.id(0) in targets or \
                            ids != [ins.id(1)]:
                        raise _fail(f"%{ids[0]} is decorated FPRoundingMode: its uses are "
                                    "conversions and the object of an OpStore", ins)
                    spt = self.t(self.vtype(ins.id(0)))
                    sh = self.shape(spt.pointee) if isinstance(spt, TypePointer) else None
                    if sh is None or sh[:2] != ("float", 16):
                        raise _fail(f"%{ids[0]} is decorated FPRoundingMode: it is stored "
                                    "only as 16-bit floats", ins)
                    assert isinstance(spt, TypePointer)
                    if spt.storage_class not in ("StorageBuffer", "PhysicalStorageBuffer",
                                                 "Uniform", "PushConstant", "Input",
                                                 "Output"):
                        raise _fail(f"%{ids[0]} is decorated FPRoundingMode: it is stored "
                                    "only to StorageBuffer, PhysicalStorageBuffer, Uniform "
                                    "or Output memory", ins)

    def decorations(self) -> None:
        m = self.m
        seen: set[tuple[int, int | None, str]] = set()
        for ins in m.instructions:
            if ins.opname in ("OpDecorateString", "OpMemberDecorateString"):
                # a decoration with only Literal String operands (SPV_GOOGLE_decorate_string,
                # the SPIR-V spec since 1.4; spirv-val applies no other given this way, so
                # an Offset in OpMemberDecorateString lays nothing out)
                sdec = ins.operands[2 if ins.opname == "OpMemberDecorateString" else 1]
                if not sdec.params or any(q.kind != "LiteralString" for q in sdec.params):
                    raise _fail(f"{sdec.name} takes no string: "
                                f"{ins.opname.removesuffix('String')}, not {ins.opname}", ins)
                continue
            if ins.opname not in ("OpDecorate", "OpMemberDecorate", "OpDecorateId"):
                continue
            target = ins.id(0)
            member = int(ins.operands[1].value) if ins.opname == "OpMemberDecorate" else None
            dec = ins.operands[2 if member is not None else 1]
            name = dec.name
            key = (target, member, name)
            if key in seen and name not in _REPEATABLE:
                raise _fail(f"%{target}{'' if member is None else f' member {member}'} is "
                            f"decorated {name} twice", ins)
            seen.add(key)
            self.dec_at[key] = ins
            t = m.types.get(target)
            tdef = m.defs.get(target)
            if name in ("GLSLShared", "GLSLPacked"):
                raise _fail(f"{name} is not allowed in Vulkan "
                            "(VUID-StandaloneSpirv-GLSLShared-04669)", ins)
            if name in ("NoSignedWrap", "NoUnsignedWrap") and (
                    tdef is None or tdef.opname not in _WRAP_OPS):
                raise _fail(f"{name} applies to OpIAdd, OpISub, OpIMul, "
                            f"OpShiftLeftLogical, OpSNegate and OpExtInst, not %{target}", ins)
            if name in ("Uniform", "UniformId") and member is None and t is None and (
                    tdef is None or tdef.result_type is None
                    or isinstance(m.types.get(tdef.result_type), TypeVoid)):
                raise _fail(f"{name} applies to objects (a value of a non-void type), "
                            f"not %{target}", ins)
            if name in _NOT_MEMBER and member is not None:
                raise _fail(f"{name} cannot be applied to structure members", ins)
            if name in _MEMBER_ONLY and member is None:
                raise _fail(f"{name} applies to structure members (OpMemberDecorate)", ins)
            other = _EXCLUSIVE.get(name)
            if other is not None and m.has_decoration(target, other, member):
                what = f"%{target}" if member is None else f"member {member} of %{target}"
                raise _fail(f"{what} is decorated both {name} and {other}", ins)
            if name in _STRUCT_ONLY and (member is not None or not isinstance(t, TypeStruct)):
                raise _fail(f"{name} applies to structure types, not %{target}", ins)
            if name == "ArrayStride" and not isinstance(t, TypeArray | TypeRuntimeArray
                                                        | TypePointer):
                raise _fail(f"ArrayStride applies to array and pointer types, not %{target}",
                            ins)
            if name == "ArrayStride" and isinstance(t, TypePointer) and \
                    t.storage_class not in _EXPLICIT_LAYOUT:
                raise _fail(f"ArrayStride on a pointer to {t.storage_class}, a storage class "
                            "without explicit layout (VUID-StandaloneSpirv-None-10684)", ins)
            if name == "ArrayStride" and int(dec.params[0].value) == 0:
                raise _fail("ArrayStride 0", ins)
            if name in _VARIABLE_ONLY and target not in m.global_variables:
                raise _fail(f"{name} applies to variables, not %{target}", ins)
            if name == "SpecId" and (tdef is None or tdef.opname not in (
                    "OpSpecConstant", "OpSpecConstantTrue", "OpSpecConstantFalse")):
                raise _fail(f"SpecId applies to scalar specialization constants, not "
                            f"%{target}", ins)
            if name in ("Location", "Component"):
                var = m.global_variables.get(target)
                ok = (var is not None and var.storage_class in ("Input", "Output")) or \
                    (member is not None and isinstance(t, TypeStruct))
                if not ok:
                    raise _fail(f"{name} applies to Input/Output variables, not %{target}", ins)
                if name == "Component":
                    self._component_type(target, member, var, ins)
                elif int(dec.params[0].value) >= _MAX_LOCATIONS:
                    raise _fail(f"Location {dec.params[0].value} is beyond the "
                                f"{_MAX_LOCATIONS} interface locations of RDNA (its "
                                "attribute fetches and parameter exports)", ins)
            if name == "BuiltIn" and member is None and target not in m.global_variables \
                    and (not m.is_constant(target)
                         or str(dec.params[0].name) != "WorkgroupSize"):
                raise _fail(f"BuiltIn {dec.params[0].name} applies to variables and members "
                            f"(a constant only for WorkgroupSize), not %{target}", ins)
            if ins.opname == "OpDecorateId" and not any(q.is_id for q in dec.params):
                raise _fail(f"{name} takes no id: OpDecorate, not OpDecorateId", ins)
            if ins.opname != "OpDecorateId" and any(q.is_id for q in dec.params):
                raise _fail(f"{name} takes an id: OpDecorateId, not {ins.opname}", ins)
            if ins.opname == "OpDecorateId" and tdef is not None:
                for q in dec.params:
                    qdef = m.defs.get(int(q.value)) if q.is_id else None
                    if qdef is not None and qdef.offset > tdef.offset:
                        raise _fail(f"{name}'s operand %{q.value} is defined after its "
                                    f"target %{target} (spirv-val: a parameter must appear "
                                    "earlier than the target)", ins)
            if name == "Uniform" and member is not None:
                raise _fail("Uniform applies to objects, not structure members", ins)
            if name == "BuiltIn" and str(dec.params[0].name) == "WorkgroupSize" and \
                    member is None and not m.is_constant(target):
                raise _fail(f"BuiltIn WorkgroupSize applies to a constant, not %{target}", ins)
            if name == "BuiltIn":
                self._builtin_type(str(dec.params[0].name), target, member, ins)
            if name in ("RelaxedPrecision", "NoContraction", "NonUniform", "Uniform",
                        "UniformId") and member is None and t is not None:
                raise _fail(f"{name} applies to values and variables, not the type %{target}",
                            ins)
            if name == "Invariant" and member is None and (tdef is None
                                                          or tdef.opname != "OpVariable"):
                raise _fail(f"Invariant applies to variables and members, not %{target}", ins)
            vpt = self.t(tdef.result_type) if member is None and tdef is not None and \
                tdef.opname == "OpVariable" else None
            vsc = vpt.storage_class if isinstance(vpt, TypePointer) else None
            if name in _INTERFACE_ONLY and vsc is not None and vsc not in ("Input", "Output"):
                raise _fail(f"{name} on the {vsc} variable %{target}: only Input "
                            f"and Output variables ({_INTERFACE_ONLY[name]})", ins)
            if name in _VARIABLE_ONLY and vsc is not None and vsc not in (
                    "StorageBuffer", "Uniform", "UniformConstant"):
                raise _fail(f"{name} on the {vsc} variable %{target}: only StorageBuffer, "
                            "Uniform and UniformConstant variables "
                            "(VUID-StandaloneSpirv-DescriptorSet-06491)", ins)
            if name == "Index" and (vsc != "Output" or any(
                    target in ep.interface and ep.execution_model != "Fragment"
                    for ep in m.entry_points)):
                raise _fail(f"Index applies to Fragment output variables, not %{target}", ins)
            if name in ("Location", "Component") and member is None and (
                    m.has_decoration(target, "BuiltIn") or (
                        target in m.global_variables
                        and self._builtins_of(target, m.global_variables[target]))):
                raise _fail(f"{name} on the built-in variable %{target} "
                            "(VUID-StandaloneSpirv-Location-04915)", ins)
            if name in ("Coherent", "Volatile") and m.memory_model in ("Vulkan", "VulkanKHR"):
                raise _fail(f"{name} is not allowed with the Vulkan memory model (its memory "
                            "operands and semantics say it instead)", ins)
            if name in _MEMORY_OBJECT and member is None and (
                    tdef is None or tdef.opname not in ("OpVariable", "OpFunctionParameter")):
                raise _fail(f"{name} applies to memory objects (variables, parameters) and "
                            f"members, not %{target}", ins)
            if name in ("NonReadable", "NonWritable") and member is None and tdef is not None \
                    and tdef.opname == "OpVariable":
                self._access_qualifier(name, tdef, ins)

    def _access_qualifier(self, name: str, var: Instruction, ins: Instruction) -> None:
        """NonReadable/NonWritable on a variable: a storage image, a uniform block or a
        storage buffer (NonWritable also a Function or Private variable from SPIR-V 1.4),
        as spirv-val's decoration checks."""
        pt = self.t(var.result_type)
        sc = pt.storage_class if isinstance(pt, TypePointer) else ""
        if sc == "UniformConstant" and isinstance(pt, TypePointer):
            inner = self.t(pt.pointee)
            while isinstance(inner, TypeArray | TypeRuntimeArray):
                inner = self.t(inner.element)
            if not isinstance(inner, TypeOther) or inner.opname != "OpTypeImage" or \
                    image_type(inner).sampled == 1:
                raise _fail(f"{name} on the UniformConstant variable %{var.result_id}, which "
                            "is no storage image (Sampled 0 or 2)", ins)
        ok = sc in ("UniformConstant", "Uniform", "StorageBuffer") or (
            name == "NonWritable" and sc in ("Function", "Private")
            and self.m.version >= (1, 4))
        if not ok:
            raise _fail(f"{name} applies to storage images, uniform blocks and storage "
                        f"buffers{' (and Function/Private variables)' if name == 'NonWritable' else ''}"
                        f", not the {sc} variable %{var.result_id}", ins)

    def _builtin_type(self, builtin: str, target: int, member: int | None,
                      ins: Instruction) -> None:
        """A built-in's object has the type Vulkan gives it (`_BUILTIN_SHAPES`; the Vulkan
        spec's "Built-In Variables" chapter, e.g. VUID-LocalInvocationIndex-04286)."""
        want = _BUILTIN_SHAPES.get(builtin)
        if want is None:
            return
        m = self.m
        tid: int | None
        if member is not None:
            st = m.types.get(target)
            tid = st.members[member] if isinstance(st, TypeStruct) and \
                member < len(st.members) else None
        elif target in m.global_variables:
            ptr = m.types.get(m.global_variables[target].type)
            tid = ptr.pointee if isinstance(ptr, TypePointer) else None
        else:
            tid = m.defs[target].result_type if target in m.defs else None
        t = self.t(tid)
        array = isinstance(t, TypeArray)
        if array:
            assert isinstance(t, TypeArray)
            n = self.length(t)
            if builtin in ("ClipDistance", "CullDistance") and n is not None and n > 8:
                raise _fail(f"a {builtin} array of {n} elements: RDNA's Vulkan drivers offer 8 "
                            f"(maxClipDistances, maxCullDistances)", ins)
            tid = t.element
        kind, width, count, is_array = want
        if array != is_array or self.shape(tid) != (kind, width, count):
            what = f"{'an array of ' if is_array else ''}{kind}{width}" + \
                ("" if count == 1 else f"x{count}")
            raise _fail(f"BuiltIn {builtin} must be {what}, not {self.type_name(tid)}"
                        f"{' (an array)' if array else ''}", ins)

    def _component_type(self, target: int, member: int | None, var: Variable | None,
                        ins: Instruction) -> None:
        """Component applies to a scalar or vector, or an array of them (Vulkan's
        VUID-StandaloneSpirv-Component-04924)."""
        m = self.m
        if member is not None:
            st = m.types.get(target)
            tid = st.members[member] if isinstance(st, TypeStruct) and \
                member < len(st.members) else None
        else:
            ptr = m.types.get(var.type) if var is not None else None
            tid = ptr.pointee if isinstance(ptr, TypePointer) else None
        t = m.types.get(tid) if tid is not None else None
        while isinstance(t, TypeArray):
            t = m.types.get(t.element)
        if not isinstance(t, TypeInt | TypeFloat | TypeBool | TypeVector):
            where = f"member {member} of %{target}" if member is not None else f"%{target}"
            raise _fail(f"Component applies to scalars and vectors (or arrays of them), not "
                        f"{where}", ins)

    def resources(self) -> None:
        m = self.m
        layouts: dict[int, Instruction] = {}
        for vid, var in m.global_variables.items():
            ins = m.defs[vid]
            pt = self.t(var.type)
            assert isinstance(pt, TypePointer)
            sc = var.storage_class
            if sc == "UniformConstant":
                pointee = self.t(pt.pointee)
                if isinstance(pointee, TypeArray | TypeRuntimeArray):  # descriptor array
                    pointee = self.t(pointee.element)
                    if isinstance(pointee, TypeArray | TypeRuntimeArray):
                        raise _fail("arrays of arrays of descriptors are not supported", ins)
                if not isinstance(pointee, TypeOther) or pointee.opname not in (
                        "OpTypeImage", "OpTypeSampler", "OpTypeSampledImage"):
                    raise _fail("UniformConstant variable of type "
                                f"{self.type_name(pt.pointee)}: only images and samplers are "
                                "supported", ins)
                for d in ("DescriptorSet", "Binding"):
                    if not m.has_decoration(vid, d):
                        raise _fail(f"image or sampler variable %{vid} has no {d} decoration "
                                    "(VUID-StandaloneSpirv-UniformConstant-06677)", ins)
                continue
            if sc in ("Input", "Output"):
                self._interface_block(vid, pt.pointee, ins)
                sid, members = self._struct_members(var)
                if m.builtin(vid) is None and any(
                        isinstance(t, TypeBool) for _, t in self._type_tree(pt.pointee)) and (
                        sid is None or all(m.builtin(sid, k) is None for k in members)):
                    raise _fail(f"{sc} variable %{vid} holds a bool but is no built-in "
                                "(VUID-StandaloneSpirv-Input-07290)", ins)
            else:
                self._invariant_members(vid, pt.pointee, ins)
            if sc == "PhysicalStorageBuffer":
                raise _fail("a PhysicalStorageBuffer variable (buffer device addresses are "
                            "pointer values, not variables)", ins)
            if sc not in _BUFFER_CLASSES:
                continue
            tid = pt.pointee
            t = self.t(tid)
            if isinstance(t, TypeArray | TypeRuntimeArray):
                tid, t = t.element, self.t(t.element)
            if not isinstance(t, TypeStruct):
                raise _fail(f"{sc} variable %{vid} must point to a Block structure", ins)
            block = m.has_decoration(tid, "Block")
            if not (block or (sc == "Uniform" and m.has_decoration(tid, "BufferBlock"))):
                raise _fail(f"{sc} variable %{vid}: its structure %{tid} is not decorated "
                            f"{'Block or BufferBlock' if sc == 'Uniform' else 'Block'}", ins)
            if sc == "StorageBuffer" and m.has_decoration(tid, "BufferBlock"):
                raise _fail(f"StorageBuffer variable %{vid}: BufferBlock is for the Uniform "
                            "storage class", ins)
            if sc != "PushConstant":
                for d in ("DescriptorSet", "Binding"):
                    if not m.has_decoration(vid, d):
                        raise _fail(f"{sc} variable %{vid} has no {d} decoration", ins)
            layouts.setdefault(tid, ins)
        for tid, t in m.types.items():  # buffer device addresses' blocks
            if isinstance(t, TypePointer) and t.storage_class == "PhysicalStorageBuffer" and \
                    isinstance(self.t(t.pointee), TypeStruct) and \
                    m.has_decoration(t.pointee, "Block"):
                layouts.setdefault(t.pointee, m.defs[tid])
        for tid, ins in layouts.items():
            self.layout(tid, ins, set())

    def _invariant_members(self, vid: int, tid: int, ins: Instruction) -> None:
        """A struct with Invariant members is only the type of Input/Output variables
        (VUID-StandaloneSpirv-Invariant-04677)."""
        t = self.t(tid)
        while isinstance(t, TypeArray | TypeRuntimeArray):
            tid, t = t.element, self.t(t.element)
        if isinstance(t, TypeStruct) and any((tid, k, "Invariant") in self.dec_at
                                             for k in range(len(t.members))):
            raise _fail(f"variable %{vid}: its structure %{tid} has Invariant members, which "
                        "only Input and Output variables may have "
                        "(VUID-StandaloneSpirv-Invariant-04677)", ins)

    def _interface_block(self, vid: int, tid: int, ins: Instruction) -> None:
        """An Input/Output struct with BuiltIn members is a Block
        (VUID-StandaloneSpirv-Location-04919)."""
        t = self.t(tid)
        while isinstance(t, TypeArray | TypeRuntimeArray):
            tid, t = t.element, self.t(t.element)
        if isinstance(t, TypeStruct) and not self.m.has_decoration(tid, "Block") and any(
                self.m.builtin(tid, k) for k in range(len(t.members))):
            raise _fail(f"variable %{vid}: its structure %{tid} has BuiltIn members but is "
                        "not decorated Block", ins)

    def layout(self, tid: int, ins: Instruction, done: set[int],
               mat: tuple[int, bool] | None = None) -> tuple[int, int]:
        """(size, scalar alignment) of an explicitly laid out type; checks its decorations.
        `mat`: the MatrixStride and RowMajor of the member a matrix (or an array of them)
        is, which give the matrix's size."""
        m = self.m
        t = self.t(tid)
        s = self.shape(tid)
        if s is not None:
            w = 4 if s[0] == "bool" else s[1] // 8
            return w * s[2], w
        if isinstance(t, TypeArray | TypeRuntimeArray):
            st = m.decoration(tid, "ArrayStride")
            if st is None:
                raise _fail(f"array type %{tid} in a buffer has no ArrayStride", ins)
            es, ea = self.layout(t.element, ins, done, mat)
            stride = int(st[0])
            if stride % ea or stride < es:
                raise _fail(f"array type %{tid}: ArrayStride {stride} is not a multiple of "
                            f"its element's alignment {ea} or less than its size {es}",
                            self.dec_at.get((tid, None, "ArrayStride"), ins))
            if isinstance(t, TypeRuntimeArray):
                return 0, ea
            n = self.length(t)
            return stride * (n if n is not None else 1), ea
        if isinstance(t, TypeMatrix):
            vs, ca = self.layout(t.column, ins, done)
            if mat is None:
                return vs * t.columns, ca
            ms, row_major = mat  # its vectors strided by MatrixStride, as spirv-val sizes it
            return (ms * (vs // ca - 1) + ca * t.columns if row_major else ms * t.columns), ca
        if isinstance(t, TypeStruct):
            end, align = 0, 1
            spans: list[tuple[int, int, int]] = []
            for k, mt in enumerate(t.members):
                off = m.decoration(tid, "Offset", k)
                if off is None:
                    raise _fail(f"member {k} of struct %{tid} in a buffer has no Offset", ins)
                mtt = self.t(mt)
                if isinstance(mtt, TypeMatrix) or (
                        isinstance(mtt, TypeArray | TypeRuntimeArray)
                        and isinstance(self.t(mtt.element), TypeMatrix)):
                    if not (m.has_decoration(tid, "RowMajor", k)
                            or m.has_decoration(tid, "ColMajor", k)):
                        raise _fail(f"matrix member {k} of struct %{tid} has neither RowMajor "
                                    "nor ColMajor", ins)
                    mstride = m.decoration(tid, "MatrixStride", k)
                    if mstride is None:
                        raise _fail(f"matrix member {k} of struct %{tid} has no MatrixStride",
                                    ins)
                    mtype = mtt if isinstance(mtt, TypeMatrix) else self.t(mtt.element)
                    assert isinstance(mtype, TypeMatrix)
                    ca = self.layout(mtype.column, ins, done)[1]
                    if int(mstride[0]) % ca or int(mstride[0]) == 0:
                        raise _fail(f"member {k} of struct %{tid}: MatrixStride {mstride[0]} is not "
                                    f"a positive multiple of the component size {ca}",
                                    self.dec_at.get((tid, k, "MatrixStride"), ins))
                if isinstance(mtt, TypeRuntimeArray) and k != len(t.members) - 1:
                    raise _fail(f"runtime array member {k} of struct %{tid} is not the last",
                                ins)
                msd = m.decoration(tid, "MatrixStride", k)
                size, a = self.layout(mt, ins, done, None if msd is None else (
                    int(msd[0]), m.has_decoration(tid, "RowMajor", k)))
                o = int(off[0])
                if o + max(size, 1) > 0xFFFFFFFF:
                    raise _fail(f"member {k} of struct %{tid}: Offset {o} puts it past the "
                                "32-bit offset range",
                                self.dec_at.get((tid, k, "Offset"), ins))
                if o % a:
                    raise _fail(f"member {k} of struct %{tid}: Offset {o} is not a multiple of "
                                f"its alignment {a}", self.dec_at.get((tid, k, "Offset"), ins))
                spans.append((o, o + size, k))
                end, align = max(end, o + size), max(align, a)
            spans.sort()
            for (_a0, a1, ka), (b0, _b1, kb) in zip(spans, spans[1:], strict=False):
                if b0 < a1:
                    raise _fail(f"members {ka} and {kb} of struct %{tid} overlap",
                                self.dec_at.get((tid, kb, "Offset"), ins))
            return end, align
        if isinstance(t, TypePointer) and t.storage_class == "PhysicalStorageBuffer":
            return 8, 8  # a buffer device address: a 64-bit integer's size and alignment
        if isinstance(t, TypePointer):
            raise _fail(f"a {t.storage_class} pointer cannot be in a buffer", ins)
        raise _fail(f"type %{tid} cannot be in a buffer", ins)


# ---------------------------------------------------------------- graph helpers


def _label_operands(ins: Instruction) -> Iterable[int]:
    return [int(o.value) for o in ins.operands if o.kind == "IdRef"]


def _reverse_postorder(entry: int, succ: dict[int, list[int]]) -> list[int]:
    """Blocks reachable from `entry`, in reverse postorder (radcc.ir.dominance)."""
    labels = list(succ)
    number = {b: i for i, b in enumerate(labels)}
    order = graph_reverse_postorder([[number[s] for s in succ[b]] for b in labels],
                                    number[entry])
    return [labels[i] for i in order]


def _dfs_back_edges(roots: Iterable[int], succ: dict[int, list[int]]) -> list[tuple[int, int]]:
    """The edges (u, h) whose target is on the stack of depth-first walks from each of
    `roots` not yet reached, in order (the entry block first, then every block: an
    unreachable block's cycles count too, as in spirv-val's augmented CFG; iterative: no
    recursion on deep graphs)."""
    on_stack: set[int] = set()
    seen: set[int] = set()
    back: list[tuple[int, int]] = []
    for root in roots:
        if root in seen:
            continue
        seen.add(root)
        on_stack.add(root)
        stack: list[tuple[int, Iterator[int]]] = [(root, iter(succ[root]))]
        while stack:
            u, it = stack[-1]
            v = next(it, None)
            if v is None:
                stack.pop()
                on_stack.discard(u)
            elif v in on_stack:
                back.append((u, v))
            elif v not in seen:
                seen.add(v)
                on_stack.add(v)
                stack.append((v, iter(succ[v])))
    return back


def _dominators(order: list[int], succ: dict[int, list[int]]) -> dict[int, int]:
    """Immediate dominators of the blocks in `order` (a reverse postorder from the entry,
    its first block): Cooper, Harvey and Kennedy's algorithm (radcc.ir.dominance); the
    entry is its own."""
    number = {b: i for i, b in enumerate(order)}
    preds: list[list[int]] = [[] for _ in order]
    for b in order:
        for s in succ[b]:
            if s in number:
                preds[number[s]].append(number[b])
    idoms = graph_idoms(range(len(order)), preds)
    return {b: order[idoms[i]] for i, b in enumerate(order)}


# `_Checker.instruction`'s check of each opcode by name (the opnames starting
# OpGroupNonUniform or OpImage that are not here: `instruction`); an opcode named twice
# is checked by its first entry
_Check = Callable[[_Checker, Instruction, str, int | None, tuple[int, ...]], None]
_CHECK_GROUPS: tuple[tuple[Iterable[str], _Check], ...] = (
    (_FLOAT_ARITH, _Checker._i_float_arith),
    (("OpQuantizeToF16",), _Checker._i_quantize),
    (_INT_ARITH | _SHIFTS, _Checker._i_int_arith),
    (("OpBitCount",), _Checker._i_bit_count),
    (("OpBitFieldInsert", "OpBitFieldSExtract", "OpBitFieldUExtract"), _Checker._i_bit_field),
    (_LOGICAL, _Checker._i_logical),
    (_INT_CMP | _FLOAT_CMP | _FLOAT_TEST, _Checker._i_compare),
    (_CONVERT, _Checker._i_convert),
    (("OpAll", "OpAny"), _Checker._i_all_any),
    (("OpBitcast",), _Checker._i_bitcast),
    (("OpConvertPtrToU", "OpConvertUToPtr"), _Checker._i_pointer_conversion),
    (("OpSelect",), _Checker._i_select),
    (_DERIVATIVES, _Checker._i_derivative),
    (("OpLoad",), _Checker._i_load),
    (("OpCooperativeMatrixLengthKHR",), _Checker._i_coop_length),
    (("OpCooperativeMatrixStoreKHR",), _Checker._i_coop_store),
    (("OpStore",), _Checker._i_store),
    (("OpCopyMemory",), _Checker._i_copy_memory),
    (("OpCopyObject",), _Checker._i_copy_object),
    (("OpCopyLogical",), _Checker._i_copy_logical),
    (_ACCESS_CHAINS, _Checker._i_access_chain),
    (("OpPtrAccessChain", "OpInBoundsPtrAccessChain"), _Checker._i_ptr_access_chain),
    (("OpPtrEqual", "OpPtrNotEqual", "OpPtrDiff"), _Checker._i_variable_pointers),
    (("OpCompositeExtract",), _Checker._i_composite_extract),
    (("OpCompositeInsert",), _Checker._i_composite_insert),
    (("OpCompositeConstruct",), _Checker._i_composite_construct),
    (("OpVectorShuffle",), _Checker._i_shuffle),
    (("OpVectorExtractDynamic", "OpVectorInsertDynamic"), _Checker._i_vector_dynamic),
    (("OpDot",), _Checker._i_dot),
    (("OpVectorTimesScalar",), _Checker._i_vector_times_scalar),
    (("OpPhi",), _Checker._i_phi),
    (("OpFunctionCall",), _Checker._i_function_call),
    (("OpVariable",), _Checker._i_variable_init),
    (_MATRIX_OPS, _Checker._i_matrix),
    (("OpSwitch",), _Checker._i_switch),
    (("OpBranchConditional",), _Checker._i_branch_conditional),
    (_ATOMIC_RMW | {"OpAtomicLoad", "OpAtomicStore", "OpAtomicCompareExchange",
                    "OpAtomicIIncrement", "OpAtomicIDecrement"}, _Checker._i_atomic),
    (("OpControlBarrier",), _Checker._i_control_barrier),
    (("OpMemoryBarrier",), _Checker._i_memory_barrier),
    (("OpExtInst",), _Checker._i_ext_inst),
    (("OpImageRead", "OpImageWrite", "OpImageFetch"), _Checker._i_image_access),
    (("OpImageQuerySize", "OpImageQuerySizeLod", "OpImageQueryLevels", "OpImageQuerySamples"),
     _Checker._i_image_query),
    (("OpImageTexelPointer",), _Checker._i_image_texel_pointer),
    (("OpImageSampleExplicitLod", "OpImageSampleImplicitLod", "OpImageSampleDrefExplicitLod",
      "OpImageSampleDrefImplicitLod", "OpImageGather", "OpImageDrefGather"),
     _Checker._i_image_sample),
    (("OpSampledImage",), _Checker._i_sampled_image),
    (("OpImage",), _Checker._i_image),
)
_CHECKS: dict[str, _Check] = {}
for _ops, _check in _CHECK_GROUPS:
    for _op in _ops:
        _CHECKS.setdefault(_op, _check)


class _DomTree:
    """The dominator tree of the reachable blocks (`idom`, as `_dominators` gives it) with
    O(1) dominance queries: pre- and post-order numbers of a walk of the tree."""

    def __init__(self, idom: dict[int, int]) -> None:
        self.idom = idom
        children: dict[int, list[int]] = {}
        roots = []
        for b, p in idom.items():
            if b == p:
                roots.append(b)
            else:
                children.setdefault(p, []).append(b)
        self.pre: dict[int, int] = {}
        self.post: dict[int, int] = {}
        clock = 0
        for r in roots:
            stack = [(r, False)]
            while stack:
                b, done = stack.pop()
                if done:
                    self.post[b] = clock
                    clock += 1
                    continue
                self.pre[b] = clock
                clock += 1
                stack.append((b, True))
                stack.extend((c, False) for c in children.get(b, ()))

    def __contains__(self, b: int) -> bool:
        return b in self.idom

    def dominates(self, a: int, b: int) -> bool:
        """Does block `a` dominate block `b` (false when either is unreachable, unless
        they are the same block)?"""
        if a == b:
            return True
        pa = self.pre.get(a)
        pb = self.pre.get(b)
        if pa is None or pb is None:
            return False
        return pa <= pb and self.post[b] <= self.post[a]
