"""Just enough SPIR-V reflection for the lavapipe oracle.

Finds what a compute pipeline's layout must say about a shader: its descriptor
bindings and their types (uniform or storage buffer), the size of its push
constant block, the types of its specialization constants, its entry points and
their workgroup sizes; for graphics, each entry point's user inputs and outputs
(`IOVar`: location, component type and count, interpolation; built-ins left out). Independent of radcc's own SPIR-V front end on purpose:
the oracle must not share code with what it checks.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

MAGIC = 0x07230203

# opcodes
OP_ENTRY_POINT = 15
OP_EXECUTION_MODE = 16
OP_EXECUTION_MODE_ID = 331
OP_TYPE_BOOL = 20
OP_TYPE_INT = 21
OP_TYPE_FLOAT = 22
OP_TYPE_VECTOR = 23
OP_TYPE_MATRIX = 24
OP_TYPE_IMAGE = 25
OP_TYPE_SAMPLER = 26
OP_TYPE_SAMPLED_IMAGE = 27
OP_TYPE_ARRAY = 28
OP_TYPE_RUNTIME_ARRAY = 29
OP_TYPE_STRUCT = 30
OP_TYPE_POINTER = 32
OP_CONSTANT = 43
OP_SPEC_CONSTANT_TRUE = 48
OP_SPEC_CONSTANT_FALSE = 49
OP_SPEC_CONSTANT = 50
OP_SPEC_CONSTANT_OP = 52
OP_VARIABLE = 59
OP_ACCESS_CHAIN = 65
OP_IN_BOUNDS_ACCESS_CHAIN = 66
OP_DECORATE = 71
OP_MEMBER_DECORATE = 72

# decorations
DEC_SPEC_ID = 1
DEC_BLOCK = 2
DEC_BUFFER_BLOCK = 3
DEC_ROW_MAJOR = 4
DEC_ARRAY_STRIDE = 6
DEC_MATRIX_STRIDE = 7
DEC_BINDING = 33
DEC_DESCRIPTOR_SET = 34
DEC_OFFSET = 35
DEC_NO_PERSPECTIVE = 13
DEC_FLAT = 14
DEC_BUILTIN = 11
DEC_LOCATION = 30
DEC_COMPONENT = 31
DEC_INDEX = 32
DEC_NON_UNIFORM = 5300

# storage classes
SC_UNIFORM_CONSTANT = 0
SC_INPUT = 1
SC_OUTPUT = 3
SC_UNIFORM = 2
SC_PUSH_CONSTANT = 9
SC_STORAGE_BUFFER = 12

EXEC_MODEL_VERTEX = 0
EXEC_MODEL_TESS_CONTROL = 1
EXEC_MODEL_TESS_EVALUATION = 2
EXEC_MODEL_GEOMETRY = 3
EXEC_MODEL_FRAGMENT = 4
EXEC_MODEL_GL_COMPUTE = 5
# execution model -> the stage's name in messages
STAGE_NAMES = {0: "vertex", 1: "tessellation control", 2: "tessellation evaluation",
               3: "geometry", 4: "fragment", 5: "compute"}
EXEC_MODE_LOCAL_SIZE = 17
EXEC_MODE_LOCAL_SIZE_ID = 38


class SpirvError(ValueError):
    """The module is not SPIR-V, or uses something the oracle cannot bind."""


@dataclass(frozen=True)
class Binding:
    set: int
    binding: int
    # "uniform" | "storage" (buffers), "storage_image" | "sampled_image" (OpTypeImage,
    # Sampled 2 / 1), "sampler", "combined" (OpTypeSampledImage), "other"
    kind: str
    count: int  # array size of the descriptor (1 for a plain block)
    min_size: int  # bytes of the block without its runtime array
    image_dim: int = -1  # images: the SPIR-V Dim (0 1D, 1 2D, 2 3D, 3 Cube, 5 Buffer ...)
    image_arrayed: bool = False
    # an array of descriptors indexed by other than a constant (OpConstant or a
    # specialization constant) / by an index or element decorated NonUniform
    dynamic_index: bool = False
    nonuniform_index: bool = False
    image_format: int = 0  # images: the SPIR-V Image Format operand (0 Unknown)

    @property
    def feature_prefix(self) -> str:
        """The Vulkan feature names' stem for arrays of this descriptor type
        (``shaderSampledImage`` for ``shaderSampledImageArrayDynamicIndexing`` ...)."""
        texel = self.image_dim == 5
        return {"uniform": "shaderUniformBuffer", "storage": "shaderStorageBuffer",
                "storage_image": "shaderStorageTexelBuffer" if texel else "shaderStorageImage",
                "sampled_image": "shaderUniformTexelBuffer" if texel else "shaderSampledImage",
                "combined": "shaderUniformTexelBuffer" if texel else "shaderSampledImage",
                "sampler": "shaderSampledImage",
                }.get(self.kind, "")

    def features_needed(self) -> list[tuple[str, str]]:
        """The device features (VkPhysicalDeviceFeatures / Vulkan12Features names) the
        shader's use of this binding needs, each with what needs it: a dynamic index into
        an array of descriptors needs ``...ArrayDynamicIndexing``, a NonUniform one
        ``...ArrayNonUniformIndexing``, a runtime-sized array ``runtimeDescriptorArray``
        (VkPhysicalDeviceFeatures: without them arrays "must be indexed only by constant
        integral expressions")."""
        out: list[tuple[str, str]] = []
        pre = self.feature_prefix
        if self.count == 0:
            out.append(("runtimeDescriptorArray", "a runtime-sized array"))
        if pre and self.dynamic_index:
            out.append((pre + "ArrayDynamicIndexing", "a dynamic array index"))
        if pre and self.nonuniform_index:
            out.append((pre + "ArrayNonUniformIndexing", "a non-uniform array index"))
        return out


@dataclass(frozen=True)
class SpecConstant:
    spec_id: int
    kind: str  # "bool" | "int" | "uint" | "float"
    width: int  # bits (bool: 32, as VkBool32)


@dataclass(frozen=True)
class IOVar:
    """A user (non-built-in) input or output of an entry point, one per location block:
    a struct's members (an I/O block) each count as one."""

    location: int
    kind: str  # component type: "float" | "int" | "uint" | "bool"
    width: int  # bits of one component
    components: int  # of a scalar/vector (of one column or element of a matrix/array)
    locations: int = 1  # locations taken (array elements x matrix columns)
    array: bool = False
    matrix: bool = False
    flat: bool = False
    noperspective: bool = False
    index: int | None = None  # the Index decoration (dual-source blending)
    component: int = 0  # the Component decoration

    @property
    def type_name(self) -> str:
        """GLSL's name of the type (`vec4`, `uint`, `f16vec2`, `dvec3` ...)."""
        prefix = {("float", 32): "", ("float", 64): "d", ("float", 16): "f16",
                  ("int", 32): "i", ("uint", 32): "u", ("bool", 32): "b"}.get(
                      (self.kind, self.width), f"{self.kind}{self.width}_")
        scalar = {("float", 32): "float", ("float", 64): "double", ("int", 32): "int",
                  ("uint", 32): "uint", ("bool", 32): "bool", ("float", 16): "float16_t"}.get(
                      (self.kind, self.width), f"{self.kind}{self.width}_t")
        name = scalar if self.components == 1 else f"{prefix}vec{self.components}"
        if self.matrix:
            name = f"{prefix}mat{self.locations}x{self.components}"
        elif self.array:
            name += f"[{self.locations}]"
        return name


@dataclass
class Reflection:
    entry_points: dict[str, int] = field(default_factory=dict)  # name -> execution model
    # workgroup size per entry point (LocalSize, or LocalSizeId's default values)
    local_size: dict[str, tuple[int, int, int] | None] = field(default_factory=dict)
    bindings: dict[tuple[int, int], Binding] = field(default_factory=dict)
    push_constant_size: int = 0
    spec_constants: dict[int, SpecConstant] = field(default_factory=dict)
    # per entry point: its user inputs and outputs (sorted by location)
    inputs: dict[str, list[IOVar]] = field(default_factory=dict)
    outputs: dict[str, list[IOVar]] = field(default_factory=dict)


def _string(words: list[int]) -> tuple[str, int]:
    """Decode a literal string; return it and the number of words it used."""
    raw = struct.pack(f"<{len(words)}I", *words)
    end = raw.index(b"\0")
    return raw[:end].decode(errors="replace"), end // 4 + 1


def reflect(spirv: bytes) -> Reflection:
    if len(spirv) < 20 or len(spirv) % 4:
        raise SpirvError("not a SPIR-V module (size is not a multiple of 4 or too small)")
    (magic,) = struct.unpack_from("<I", spirv)
    fmt = "<" if magic == MAGIC else ">"
    if struct.unpack_from(fmt + "I", spirv)[0] != MAGIC:
        raise SpirvError(f"not a SPIR-V module (magic {magic:#010x})")
    words = list(struct.unpack(f"{fmt}{len(spirv) // 4}I", spirv))

    types: dict[int, tuple[int, list[int]]] = {}  # id -> (opcode, operands after id)
    constants: dict[int, int] = {}
    variables: list[tuple[int, int, int]] = []  # (pointer type, id, storage class)
    spec_types: dict[int, tuple[int, bool]] = {}  # id -> (type id, is-bool)
    decorations: dict[int, dict[int, list[int]]] = {}
    member_decs: dict[tuple[int, int], dict[int, list[int]]] = {}
    entries: dict[int, str] = {}
    interfaces: dict[str, list[int]] = {}  # entry point name -> its interface ids
    local_size_ids: dict[str, tuple[int, int, int]] = {}
    spec_ops: set[int] = set()  # OpSpecConstantOp results (constant array indices too)
    chains: list[tuple[int, int, int]] = []  # access chains: (result, base, first index)
    out = Reflection()

    i = 5
    while i < len(words):
        wc, op = words[i] >> 16, words[i] & 0xFFFF
        if wc == 0 or i + wc > len(words):
            raise SpirvError(f"malformed instruction at word {i}")
        ops = words[i + 1 : i + wc]
        if op == OP_ENTRY_POINT:
            name, used = _string(ops[2:])
            out.entry_points[name] = ops[0]
            out.local_size.setdefault(name, None)
            entries[ops[1]] = name
            interfaces[name] = ops[2 + used:]
        elif op == OP_EXECUTION_MODE and ops[1] == EXEC_MODE_LOCAL_SIZE:
            if ops[0] in entries:
                out.local_size[entries[ops[0]]] = (ops[2], ops[3], ops[4])
        elif op == OP_EXECUTION_MODE_ID and ops[1] == EXEC_MODE_LOCAL_SIZE_ID:
            if ops[0] in entries:
                local_size_ids[entries[ops[0]]] = (ops[2], ops[3], ops[4])
        elif op in (OP_TYPE_BOOL, OP_TYPE_INT, OP_TYPE_FLOAT, OP_TYPE_VECTOR, OP_TYPE_MATRIX,
                    OP_TYPE_IMAGE, OP_TYPE_SAMPLER, OP_TYPE_SAMPLED_IMAGE, OP_TYPE_ARRAY,
                    OP_TYPE_RUNTIME_ARRAY, OP_TYPE_STRUCT, OP_TYPE_POINTER):
            types[ops[0]] = (op, ops[1:])
        elif op == OP_CONSTANT:
            constants[ops[1]] = ops[2]
        elif op in (OP_SPEC_CONSTANT_TRUE, OP_SPEC_CONSTANT_FALSE):
            spec_types[ops[1]] = (ops[0], True)
        elif op == OP_SPEC_CONSTANT:
            spec_types[ops[1]] = (ops[0], False)
            constants[ops[1]] = ops[2]  # default value (array lengths may use it)
        elif op == OP_SPEC_CONSTANT_OP:
            spec_ops.add(ops[1])
        elif op == OP_VARIABLE:
            variables.append((ops[0], ops[1], ops[2]))
        elif op in (OP_ACCESS_CHAIN, OP_IN_BOUNDS_ACCESS_CHAIN) and len(ops) > 3:
            chains.append((ops[1], ops[2], ops[3]))
        elif op == OP_DECORATE:
            decorations.setdefault(ops[0], {})[ops[1]] = ops[2:]
        elif op == OP_MEMBER_DECORATE:
            member_decs.setdefault((ops[0], ops[1]), {})[ops[2]] = ops[3:]
        i += wc

    for name, ids in local_size_ids.items():  # default values (specialization may change them)
        x, y, z = (constants.get(i, 0) for i in ids)
        out.local_size[name] = (x, y, z)

    def size_of(tid: int, matrix_stride: int = 0, row_major: bool = False) -> int:
        op, a = types[tid]
        if op in (OP_TYPE_INT, OP_TYPE_FLOAT):
            return a[0] // 8
        if op == OP_TYPE_BOOL:
            return 4
        if op == OP_TYPE_VECTOR:
            return a[1] * size_of(a[0])
        if op == OP_TYPE_MATRIX:
            cols = a[1]
            rows = types[a[0]][1][1]
            if matrix_stride:
                return (rows if row_major else cols) * matrix_stride
            return cols * size_of(a[0])
        if op == OP_TYPE_ARRAY:
            stride = decorations.get(tid, {}).get(DEC_ARRAY_STRIDE, [0])[0]
            n = constants.get(a[1], 0)
            return n * (stride or size_of(a[0], matrix_stride, row_major))
        if op == OP_TYPE_RUNTIME_ARRAY:
            return 0
        if op == OP_TYPE_STRUCT:
            end = 0
            for m, mt in enumerate(a):
                md = member_decs.get((tid, m), {})
                off = md.get(DEC_OFFSET, [end])[0]
                ms = md.get(DEC_MATRIX_STRIDE, [0])[0]
                end = max(end, off + size_of(mt, ms, DEC_ROW_MAJOR in md))
            return end
        return 0

    # the variables indexed (as arrays of descriptors) by a non-constant / NonUniform index
    dynamic: set[int] = set()
    nonuniform: set[int] = set()
    for res, base, index in chains:
        if index not in constants and index not in spec_ops:
            dynamic.add(base)
        if DEC_NON_UNIFORM in decorations.get(index, {}) or \
                DEC_NON_UNIFORM in decorations.get(res, {}):
            nonuniform.add(base)

    for ptr_type, vid, sc in variables:
        pointee = types[ptr_type][1][1]
        if sc == SC_PUSH_CONSTANT:
            out.push_constant_size = max(out.push_constant_size, size_of(pointee))
            continue
        if sc not in (SC_UNIFORM, SC_STORAGE_BUFFER, SC_UNIFORM_CONSTANT):
            continue
        dec = decorations.get(vid, {})
        if DEC_BINDING not in dec:
            continue
        key = (dec.get(DEC_DESCRIPTOR_SET, [0])[0], dec[DEC_BINDING][0])
        count = 1
        block = pointee
        if block not in types:  # a type the oracles do not bind (acceleration structure ...)
            out.bindings[key] = Binding(key[0], key[1], "other", 1, 0)
            continue
        if types[block][0] == OP_TYPE_ARRAY:
            count = constants.get(types[block][1][1], 1)
            block = types[block][1][0]
        elif types[block][0] == OP_TYPE_RUNTIME_ARRAY:
            count = 0
            block = types[block][1][0]
        bdec = decorations.get(block, {})
        if sc == SC_STORAGE_BUFFER or (sc == SC_UNIFORM and DEC_BUFFER_BLOCK in bdec):
            kind = "storage"
        elif sc == SC_UNIFORM:
            kind = "uniform"
        else:
            kind = "other"
        dim, arrayed, fmt = -1, False, 0
        t_op, t_args = types[block]
        if t_op == OP_TYPE_SAMPLED_IMAGE:
            kind = "combined"
            t_op, t_args = types[t_args[0]]
        if t_op == OP_TYPE_IMAGE:
            # OpTypeImage sampled-type Dim Depth Arrayed MS Sampled Format
            dim, arrayed, fmt = t_args[1], bool(t_args[3]), t_args[6]
            if kind != "combined":
                kind = "storage_image" if t_args[5] == 2 else "sampled_image"
        elif t_op == OP_TYPE_SAMPLER:
            kind = "sampler"
        min_size = size_of(block) if kind in ("uniform", "storage") else 0
        is_array = types[pointee][0] in (OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY)
        out.bindings[key] = Binding(key[0], key[1], kind, count, min_size, dim, arrayed,
                                    is_array and vid in dynamic, is_array and vid in nonuniform,
                                    fmt)

    for sid, (tid, is_bool) in spec_types.items():
        dec = decorations.get(sid, {})
        if DEC_SPEC_ID not in dec:
            continue
        spec_id = dec[DEC_SPEC_ID][0]
        op, a = types[tid]
        if is_bool or op == OP_TYPE_BOOL:
            sc_kind, width = "bool", 32
        elif op == OP_TYPE_FLOAT:
            sc_kind, width = "float", a[0]
        else:
            sc_kind, width = ("int" if a[1] else "uint"), a[0]
        out.spec_constants[spec_id] = SpecConstant(spec_id, sc_kind, width)

    var_sc = {vid: (ptr, sc) for ptr, vid, sc in variables}
    for name, ids in interfaces.items():
        ins: list[IOVar] = []
        outs: list[IOVar] = []
        for vid in ids:
            if vid not in var_sc:
                continue
            ptr, sc = var_sc[vid]
            if sc not in (SC_INPUT, SC_OUTPUT):
                continue
            vars_ = _io_vars(vid, types[ptr][1][1], types, constants, decorations, member_decs)
            (ins if sc == SC_INPUT else outs).extend(vars_)
        out.inputs[name] = sorted(ins, key=lambda v: v.location)
        out.outputs[name] = sorted(outs, key=lambda v: v.location)
    return out


def _io_vars(vid: int, tid: int, types: dict[int, tuple[int, list[int]]],
             constants: dict[int, int], decorations: dict[int, dict[int, list[int]]],
             member_decs: dict[tuple[int, int], dict[int, list[int]]]) -> list[IOVar]:
    """The user locations of one Input/Output variable (none for a built-in)."""
    dec = decorations.get(vid, {})
    if DEC_BUILTIN in dec:
        return []
    op, a = types[tid]
    if op == OP_TYPE_STRUCT:  # an I/O block: each member at its own location
        if any(DEC_BUILTIN in member_decs.get((tid, m), {}) for m in range(len(a))):
            return []
        loc = dec.get(DEC_LOCATION, [0])[0]
        res = []
        for m, mt in enumerate(a):
            md = member_decs.get((tid, m), {})
            loc = md.get(DEC_LOCATION, [loc])[0]
            merged = {**dec, **md, DEC_LOCATION: [loc]}
            v = _io_var(merged, mt, types, constants)
            res.append(v)
            loc += v.locations
        return res
    if DEC_LOCATION not in dec:
        return []
    return [_io_var(dec, tid, types, constants)]


def _io_var(dec: dict[int, list[int]], tid: int, types: dict[int, tuple[int, list[int]]],
            constants: dict[int, int]) -> IOVar:
    locations, array, matrix = 1, False, False
    op, a = types[tid]
    while op == OP_TYPE_ARRAY:
        locations *= constants.get(a[1], 1)
        array = True
        op, a = types[a[0]]
    if op == OP_TYPE_MATRIX:
        locations *= a[1]
        matrix = True
        op, a = types[a[0]]
    components = 1
    if op == OP_TYPE_VECTOR:
        components = a[1]
        op, a = types[a[0]]
    if op == OP_TYPE_FLOAT:
        kind, width = "float", a[0]
    elif op == OP_TYPE_INT:
        kind, width = ("int" if a[1] else "uint"), a[0]
    elif op == OP_TYPE_BOOL:
        kind, width = "bool", 32
    else:
        kind, width = "other", 0
    if width == 64 and components > 2:
        locations *= 2
    return IOVar(dec[DEC_LOCATION][0], kind, width, components, locations, array, matrix,
                 DEC_FLAT in dec, DEC_NO_PERSPECTIVE in dec,
                 dec[DEC_INDEX][0] if DEC_INDEX in dec else None,
                 dec.get(DEC_COMPONENT, [0])[0])
