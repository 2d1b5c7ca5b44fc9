"""Which SPIR-V capabilities radcc accepts: what a Vulkan compute, vertex or fragment shader
can use on RDNA3.

This is policy, not grammar: every name below is checked against the grammar
table at import. Anything else (graphics stages, OpenCL kernels, vendor
extensions RDNA3 lacks, NVIDIA's cooperative matrices) is rejected
by the reader as an unsupported capability, naming it and the reason.
"""

from __future__ import annotations

from . import grammar

SUPPORTED: frozenset[str] = frozenset(
    {
        # core compute
        "Shader", "Matrix",
        # 8/16/64-bit arithmetic and storage
        "Float16", "Float64", "Int8", "Int16", "Int64", "Int64Atomics",
        "StorageBuffer16BitAccess", "UniformAndStorageBuffer16BitAccess", "StoragePushConstant16",
        "StorageBuffer8BitAccess", "UniformAndStorageBuffer8BitAccess", "StoragePushConstant8",
        "WorkgroupMemoryExplicitLayoutKHR", "WorkgroupMemoryExplicitLayout8BitAccessKHR",
        "WorkgroupMemoryExplicitLayout16BitAccessKHR",
        # memory model, addressing, descriptors
        "VulkanMemoryModel", "VulkanMemoryModelDeviceScope", "PhysicalStorageBufferAddresses",
        "VariablePointers", "VariablePointersStorageBuffer",
        "ShaderNonUniform", "RuntimeDescriptorArray",
        "UniformBufferArrayDynamicIndexing", "StorageBufferArrayDynamicIndexing",
        "UniformBufferArrayNonUniformIndexing", "StorageBufferArrayNonUniformIndexing",
        # subgroups
        "GroupNonUniform", "GroupNonUniformVote", "GroupNonUniformArithmetic",
        "GroupNonUniformBallot", "GroupNonUniformShuffle", "GroupNonUniformShuffleRelative",
        "GroupNonUniformClustered", "GroupNonUniformQuad", "GroupNonUniformRotateKHR",
        "SubgroupBallotKHR", "SubgroupVoteKHR",
        # atomics, float controls, misc ALU features RDNA3 has
        "AtomicFloat32AddEXT", "AtomicFloat32MinMaxEXT", "AtomicFloat16MinMaxEXT",
        "AtomicFloat64MinMaxEXT", "AtomicFloat64AddEXT",  # (f64 add: opt.lower_atomics)
        "DenormPreserve", "DenormFlushToZero", "SignedZeroInfNanPreserve",
        "RoundingModeRTE", "RoundingModeRTZ",
        "DotProductInputAll", "DotProductInput4x8Bit", "DotProductInput4x8BitPacked", "DotProduct",
        "DotProductFloat16AccFloat32VALVE", "DotProductFloat16AccFloat16VALVE",
        "ShaderClockKHR", "DeviceGroup", "BitInstructions",
        # SPV_KHR_cooperative_matrix on GFX11 WMMA (sizes and types: spirv_to_mir/coopmat.py)
        "CooperativeMatrixKHR",
        # SPV_KHR_bfloat16: conversions, memory and cooperative matrices (WMMA bf16)
        "BFloat16TypeKHR", "BFloat16CooperativeMatrixKHR",
        # compute shaders' derivatives and implicit LOD (SPV_KHR_compute_shader_derivatives;
        # the NV spellings are the same capabilities: `unsupported_reason`)
        "ComputeDerivativeGroupQuadsKHR", "ComputeDerivativeGroupLinearKHR",
        # fragment shaders
        "DerivativeControl", "DemoteToHelperInvocation", "SampleRateShading",
        "InputAttachment",
        # images and texel buffers in compute (the reader accepts; later layers may not yet)
        "ImageQuery", "Sampled1D", "Image1D", "SampledBuffer", "ImageBuffer",
        "StorageImageExtendedFormats", "StorageImageReadWithoutFormat",
        "StorageImageWriteWithoutFormat", "ImageGatherExtended", "MinLod", "SampledCubeArray",
        "ImageCubeArray", "ImageMSArray", "StorageImageMultisample", "Int64ImageEXT",
        "SampledImageArrayDynamicIndexing", "StorageImageArrayDynamicIndexing",
        "UniformTexelBufferArrayDynamicIndexing", "StorageTexelBufferArrayDynamicIndexing",
        "SampledImageArrayNonUniformIndexing", "StorageImageArrayNonUniformIndexing",
        "UniformTexelBufferArrayNonUniformIndexing", "StorageTexelBufferArrayNonUniformIndexing",
        # vertex shaders (radcc/frontend/spirv_to_mir/stage_io.py); 16-bit stage inputs
        # and outputs (stage_io.py, fragment_io.py)
        "ClipDistance", "CullDistance", "DrawParameters", "StorageInputOutput16",
    }
)  # fmt: skip

_REASONS: tuple[tuple[str, str], ...] = (
    ("CooperativeMatrixNV", "NVIDIA's cooperative matrices: use SPV_KHR_cooperative_matrix"),
    ("BFloat16DotProduct", "bfloat16 dot products (OpDot on bfloat16) are not supported yet"),
    ("Geometry", "geometry shaders are not supported yet"),
    ("Tessellation", "tessellation shaders are not supported yet"),
    ("Kernel", "OpenCL kernels are not Vulkan compute shaders"),
    ("Addresses", "physical addressing is an OpenCL (Kernel) feature"),
    ("Linkage", "radcc does not link modules"),
    ("RayTracing", "ray tracing is not supported"),
    ("RayQuery", "ray queries are not supported"),
    ("MeshShading", "mesh and task shaders are not supported yet"),
    ("INTEL", "Intel-only feature"),
    ("NV", "NVIDIA-only feature"),
)

for _name in SUPPORTED:
    grammar.enum_value("Capability", _name)  # KeyError if a name is misspelt

# The capabilities of SPV_KHR_16bit_storage / _8bit_storage: 16- and 8-bit types in
# memory (and, for 16 bits, a shader's FPRoundingMode decoration)
STORAGE16 = ("StorageBuffer16BitAccess", "UniformAndStorageBuffer16BitAccess",
             "StoragePushConstant16", "StorageInputOutput16")
STORAGE8 = ("StorageBuffer8BitAccess", "UniformAndStorageBuffer8BitAccess",
            "StoragePushConstant8")


def unsupported_reason(name: str) -> str | None:
    """None if radcc accepts the capability under any of its spellings (a promoted NV
    capability's NV name is its KHR one's alias), else why not; a vendor's reason only if
    every spelling is that vendor's."""
    try:
        names = grammar.enum_aliases("Capability", grammar.enum_value("Capability", name))
    except KeyError:
        names = [name]
    if any(n in SUPPORTED for n in names):
        return None
    for key, reason in _REASONS:
        if all(key in n for n in names):
            return reason
    return "not supported by radcc (compute, vertex and fragment shaders on RDNA)"


def implied(names: list[str]) -> set[str]:
    """The declared capabilities and all they implicitly declare (grammar's depends-on)."""
    out: set[str] = set()
    todo = list(names)
    while todo:
        n = todo.pop()
        if n in out:
            continue
        out.add(n)
        try:
            value = grammar.enum_value("Capability", n)
            e = grammar.enumerant("Capability", value)
        except KeyError:
            continue
        # the capability's other spellings (DemoteToHelperInvocationEXT ...): the grammar
        # names either in instructions' requirements
        todo.extend(a for a in grammar.enum_aliases("Capability", value) if a not in out)
        if e:
            todo.extend(e.capabilities)
    return out
