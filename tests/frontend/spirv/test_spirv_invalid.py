"""Malformed and unsupported modules made with spirv-as are rejected at the right word.

Each case is assembly text with one line marked ``; <-- ERROR``. The expected word
offset is that instruction's offset as ``spirv-dis --offsets`` reports it, the
expected opname is the marked line's. Cases in ``INVALID`` are also rejected by
spirv-val (the oracle says they are malformed); cases in ``UNSUPPORTED`` pass spirv-val
(2023.1) but radcc refuses them: graphics stages, OpenCL, NVIDIA cooperative matrices, and
two checks spirv-val lacks (missing OpFunctionParameters, LocalSize 0).
"""

from __future__ import annotations

import re

import pytest

from radcc.frontend.spirv import SpirvError, read_spirv
from radcc.oracle import spirv_tools

HEAD = """\
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
"""
TYPES = """\
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%int_0 = OpConstant %int 0
%int_1 = OpConstant %int 1
%true = OpConstantTrue %bool
%pint = OpTypePointer Function %int
"""
MAIN = """\
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
"""


def body(blocks: str) -> str:
    return f"%main = OpFunction %void None %fn\n%entry = OpLabel\n{blocks}OpFunctionEnd\n"


M = "; <-- ERROR"

INVALID: dict[str, tuple[str, str]] = {
    "missing_terminator": (
        HEAD + TYPES + f"%main = OpFunction %void None %fn\n%entry = OpLabel\nOpFunctionEnd {M}\n",
        "not ended by a terminator",
    ),
    "names_after_decorations": (
        HEAD + f'OpDecorate %int RelaxedPrecision\nOpName %main "main" {M}\n' + TYPES + MAIN,
        "out of order",
    ),
    "types_before_decorations": (
        HEAD + TYPES + f"OpDecorate %int_1 SpecId 3 {M}\n" + MAIN,
        "out of order",
    ),
    "vector_of_5": (
        HEAD + TYPES + f"%v5 = OpTypeVector %float 5 {M}\n" + MAIN,
        "component count 5",
    ),
    "vector_of_vector": (
        HEAD + TYPES + f"%v2 = OpTypeVector %float 2\n%vv = OpTypeVector %v2 2 {M}\n" + MAIN,
        "must be a scalar",
    ),
    "undefined_id": (
        HEAD + TYPES + body(f"%x = OpIAdd %int %int_1 %nowhere {M}\nOpReturn\n"),
        "never defined",
    ),
    "use_before_definition": (
        HEAD
        + TYPES
        + body(f"%a = OpIAdd %int %b %int_1 {M}\n%b = OpIAdd %int %int_1 %int_1\nOpReturn\n"),
        "before its definition",
    ),
    "result_type_not_a_type": (
        HEAD + TYPES + body(f"%a = OpIAdd %int_1 %int_1 %int_1 {M}\nOpReturn\n"),
        "is not a type",
    ),
    "phi_not_first": (
        HEAD
        + TYPES
        + body(
            f"OpBranch %b\n%b = OpLabel\n%x = OpIAdd %int %int_1 %int_1\n%p = OpPhi %int %int_0 %entry {M}\nOpReturn\n"
        ),
        "OpPhi must be at the start",
    ),
    "phi_after_phi_and_value": (  # (the phis before are known; the value after them not)
        HEAD
        + TYPES
        + body(
            "OpBranch %b\n%b = OpLabel\n%p = OpPhi %int %int_0 %entry\n"
            f"%x = OpIAdd %int %int_1 %int_1\n%q = OpPhi %int %int_1 %entry {M}\nOpReturn\n"
        ),
        "OpPhi must be at the start",
    ),
    "local_variable_late": (
        HEAD
        + TYPES
        + body(f"%x = OpIAdd %int %int_1 %int_1\n%v = OpVariable %pint Function {M}\nOpReturn\n"),
        "start of the first block",
    ),
    "local_variable_at_global_scope": (
        HEAD + TYPES + f"%v = OpVariable %pint Function {M}\n" + MAIN,
        "must be inside a function",
    ),
    "instruction_at_global_scope": (
        HEAD + TYPES + f"%x = OpIAdd %int %int_1 %int_1 {M}\n" + MAIN,
        "must be inside a function",
    ),
    "selection_merge_then_branch": (
        HEAD + TYPES + body(f"OpSelectionMerge %m None\nOpBranch %m {M}\n%m = OpLabel\nOpReturn\n"),
        "must be followed by",
    ),
    "merge_not_before_terminator": (
        HEAD
        + TYPES
        + body(
            f"OpSelectionMerge %m None\n%x = OpIAdd %int %int_1 %int_1 {M}\nOpBranchConditional %true %m %m\n%m = OpLabel\nOpReturn\n"
        ),
        "immediately precede",
    ),
    "branch_to_non_label": (
        HEAD + TYPES + body(f"OpBranch %int_1 {M}\n"),
        "not a block of this function",
    ),
    "branch_to_entry": (
        HEAD + TYPES + body(f"OpBranch %b\n%b = OpLabel\nOpBranch %entry {M}\n"),
        "entry block",
    ),
    "return_value_in_void": (HEAD + TYPES + body(f"OpReturnValue %int_1 {M}\n"), "void function"),
    "instruction_after_terminator": (
        HEAD + TYPES + body(f"OpReturn\n%x = OpIAdd %int %int_1 %int_1 {M}\nOpReturn\n"),
        "outside a block",
    ),
    "member_decoration_out_of_range": (
        HEAD
        + f"OpMemberDecorate %s 2 Offset 0 {M}\n"
        + TYPES
        + "%s = OpTypeStruct %int %int\n"
        + MAIN,
        "member 2 is out of range",
    ),
    "member_name_out_of_range": (
        HEAD + f'OpMemberName %s 1 "x" {M}\n' + TYPES + "%s = OpTypeStruct %int\n" + MAIN,
        "member 1 is out of range",
    ),
    "missing_capability": (
        HEAD
        + TYPES
        + body(f"%e = OpGroupNonUniformElect %bool %uint_3 {M}\nOpReturn\n").replace(
            "%pint =", "%uint_3 = OpConstant %uint 3\n%pint ="
        ),
        "requires capability GroupNonUniform",
    ),
    "enumerant_needs_capability": (
        HEAD.replace("OpExecutionMode", f"OpDecorate %v Patch {M}\nOpExecutionMode")
        + TYPES
        + "%pin = OpTypePointer Input %int\n%v = OpVariable %pin Input\n"
        + MAIN,
        "requires capability Tessellation",
    ),
    # an opcode's enumerants are checked on every instruction of it, not only on the
    # first (which has none here: the reader skips instructions of too few operands)
    "later_load_enumerant_needs_capability": (
        HEAD
        + TYPES.replace("%pint =", "%uint_1 = OpConstant %uint 1\n%pint =")
        + body("%v = OpVariable %pint Function\n%a = OpLoad %int %v\n"
               f"%b = OpLoad %int %v MakePointerVisible|NonPrivatePointer %uint_1 {M}\n"
               "OpReturn\n"),
        "MakePointerVisible requires capability VulkanMemoryModel",
    ),
    "array_length_not_constant": (
        HEAD + TYPES + f"%arr = OpTypeArray %int %float {M}\n" + MAIN,
        "not an integer constant",
    ),
    "composite_count": (
        HEAD
        + TYPES
        + f"%v2 = OpTypeVector %int 2\n%c = OpConstantComposite %v2 %int_1 {M}\n"
        + MAIN,
        "constituents",
    ),
    "bool_constant_of_int": (
        HEAD + TYPES + f"%t = OpConstantTrue %int {M}\n" + MAIN,
        "is not bool",
    ),
    "variable_storage_mismatch": (
        HEAD
        + TYPES
        + f"%pw = OpTypePointer Workgroup %int\n%v = OpVariable %pw Private {M}\n"
        + MAIN,
        "differs from the pointer",
    ),
    "function_type_mismatch": (
        HEAD
        + TYPES
        + f"%g = OpFunction %int None %fn {M}\n%gl = OpLabel\nOpReturnValue %int_1\nOpFunctionEnd\n"
        + MAIN,
        "differs from the function type",
    ),
    "entry_point_with_parameters": (
        HEAD.replace('%main "main"', f'%main "main" {M}')
        + TYPES
        + "%fi = OpTypeFunction %void %int\n%main = OpFunction %void None %fi\n%p = OpFunctionParameter %int\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n",
        "without parameters",
    ),
    "execution_mode_not_entry": (
        HEAD
        + f"OpExecutionMode %g LocalSize 2 1 1 {M}\n"
        + TYPES
        + "%g = OpFunction %void None %fn\n%gl = OpLabel\nOpReturn\nOpFunctionEnd\n"
        + MAIN,
        "not an entry point",
    ),
    "two_memory_models": (
        HEAD + f"OpMemoryModel Logical GLSL450 {M}\n" + TYPES + MAIN,
        "out of order",
    ),
    "missing_memory_model": (
        HEAD.replace("OpMemoryModel Logical GLSL450\n", "").replace('"main"\n', f'"main" {M}\n')
        + TYPES
        + MAIN,
        "OpMemoryModel is missing",
    ),
    "too_many_parameters": (
        HEAD
        + TYPES
        + "%fi = OpTypeFunction %void %int\n%g = OpFunction %void None %fi\n"
        + f"%p = OpFunctionParameter %int\n%q = OpFunctionParameter %int {M}\n"
        + "%gl = OpLabel\nOpReturn\nOpFunctionEnd\n"
        + MAIN,
        "more parameters",
    ),
    "int_width_7": (HEAD + f"%i7 = OpTypeInt 7 0 {M}\n" + TYPES + MAIN, "unsupported integer type"),
}

UNSUPPORTED: dict[str, tuple[str, str]] = {
    "geometry": (
        f"OpCapability Geometry {M}\n" + HEAD + TYPES + MAIN,
        "unsupported capability Geometry: geometry",
    ),
    "local_size_zero": (
        HEAD.replace("LocalSize 1 1 1", f"LocalSize 0 1 1 {M}") + TYPES + MAIN,
        "at least 1",
    ),
    "missing_parameter": (
        HEAD
        + TYPES
        + f"%fi = OpTypeFunction %void %int\n%g = OpFunction %void None %fi\n%gl = OpLabel {M}\nOpReturn\nOpFunctionEnd\n"
        + MAIN,
        "has 0 parameters",
    ),
    "tessellation": (
        f"OpCapability Tessellation {M}\n" + HEAD + TYPES + MAIN,
        "unsupported capability Tessellation",
    ),
    "kernel": (
        f"OpCapability Kernel {M}\nOpCapability Addresses\nOpMemoryModel Physical64 OpenCL\n"
        + TYPES.replace("%pint = OpTypePointer Function %int\n", "")
        + MAIN,
        "unsupported capability Kernel: OpenCL",
    ),
    "cooperative_matrix": (
        f'OpCapability CooperativeMatrixNV {M}\nOpExtension "SPV_NV_cooperative_matrix"\n'
        + HEAD
        + TYPES
        + MAIN,
        "use SPV_KHR_cooperative_matrix",
    ),
    "linkage": (f"OpCapability Linkage {M}\n" + HEAD + TYPES + MAIN, "does not link"),
    "geometry_shader": (  # a stage radcc does not compile yet, refused by name
        f"OpCapability Geometry {M}\n"
        + HEAD.replace(
            'OpEntryPoint GLCompute %main "main"', 'OpEntryPoint Geometry %main "main"'
        ).replace("OpExecutionMode %main LocalSize 1 1 1\n", "")
        + TYPES
        + MAIN,
        "unsupported capability Geometry: geometry shaders are not supported yet",
    ),
}


def _case(text: str, env: str = "vulkan1.3") -> tuple[bytes, str, int]:
    data = spirv_tools.assemble(text, env)
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith(";")]
    k = next(i for i, ln in enumerate(lines) if M in ln)
    opname = re.search(r"\b(Op\w+)", lines[k])
    assert opname
    return data, opname[1], spirv_tools.instruction_offsets(data)[k]


def _rejects(data: bytes, opname: str, offset: int, message: str) -> SpirvError:
    with pytest.raises(SpirvError) as info:
        read_spirv(data)
    e = info.value
    assert (e.opname, e.word_offset) == (opname, offset), str(e)
    assert message in e.message
    assert e.render("x.spv").startswith(f"x.spv: word {offset}: error: {opname}: ")
    return e


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_module_rejected(name: str) -> None:
    text, message = INVALID[name]
    data, opname, offset = _case(text)
    assert not spirv_tools.validate(data).ok, "the oracle accepts this module"
    _rejects(data, opname, offset, message)


@pytest.mark.parametrize("name", sorted(UNSUPPORTED))
def test_unsupported_module_rejected(name: str) -> None:
    text, message = UNSUPPORTED[name]
    data, opname, offset = _case(text)
    _rejects(data, opname, offset, message)


def test_valid_base_accepted() -> None:
    data, _, _ = _case(HEAD + f'OpName %int "x" {M}\n' + TYPES + MAIN)
    assert spirv_tools.validate(data).ok
    m = read_spirv(data)
    assert m.memory_model == "GLSL450" and m.entry_point().name == "main"


def test_instruction_newer_than_module_version() -> None:
    """OpExecutionModeId is SPIR-V 1.2; a 1.0 module may not use it. (LocalSizeId
    itself is Vulkan 1.3's: a 1.2 module, for Vulkan 1.1, may not either, see
    test_spirv_validate::test_local_size_id_needs_spirv_1_6.)"""
    text = HEAD.replace(
        "OpExecutionMode %main LocalSize 1 1 1",
        f"OpExecutionModeId %main LocalSizeId %u1 %u1 %u1 {M}",
    )
    text += TYPES + "%u1 = OpConstant %uint 1\n" + MAIN
    data, opname, offset = _case(text, "spv1.2")
    with pytest.raises(SpirvError, match="LocalSizeId needs Vulkan 1.3"):
        read_spirv(data)
    v10 = data[:4] + (0x00010000).to_bytes(4, "little") + data[8:]  # spirv-as refuses to
    assert not spirv_tools.validate(v10, "spv1.0").ok
    _rejects(v10, opname, offset, "requires SPIR-V 1.2")
