"""Validation before translation: spirv-val (run by `radcc compile`) and radcc's own
checks (`radcc.frontend.spirv.validate`, alone with ``--no-validate``).

Each invalid module is a textual edit of a valid shader's disassembly (glslang's
output for ``validate/base.comp``, disassembled by spirv-dis), assembled by spirv-as;
spirv-val must reject it (the oracle), and radcc must reject it with and without
spirv-val, at a word offset: without spirv-val, the offset of the edited instruction as
``spirv-dis --offsets`` gives it; with spirv-val, the offset of the instruction
spirv-val names (its ``line N``, the N-th instruction of spirv-dis's listing).
"""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from radcc import cli
from radcc.driver.run import run_compute
from radcc.frontend.spirv import read_spirv
from radcc.frontend.spirv.spirv_val import ENV_BY_VERSION, target_env
from radcc.oracle import spirv_tools

HERE = Path(__file__).parent
BASE = HERE / "validate" / "base.comp"


@pytest.fixture(scope="module")
def base_asm() -> str:
    spirv_tools.require()
    r = spirv_tools.compile_glsl(BASE, "vulkan1.3")
    assert r.ok, r.text
    p = subprocess.run(["spirv-dis", "--no-header", "-"], input=r.data, capture_output=True,
                       check=True)
    return p.stdout.decode()


def _assemble(text: str) -> bytes:
    return spirv_tools.assemble(text, "vulkan1.3")


def _offsets(data: bytes) -> list[tuple[int, str]]:
    """(word offset, disassembly line) of every instruction (spirv-dis, friendly names)."""
    p = subprocess.run(["spirv-dis", "--offsets", "--no-header", "--no-color", "-"],
                       input=data, capture_output=True, check=True)
    out = []
    for line in p.stdout.decode().splitlines():
        if ";" in line:
            text, off = line.rsplit(";", 1)
            out.append((int(off, 16) // 4, text.strip()))
    return out


def _word_of(text: str, data: bytes, needle: str, last: bool = False) -> int:
    """Word offset of the (first or last) instruction of assembly `text` containing
    `needle`: spirv-as keeps the order of instructions, one a line."""
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith(";")]
    hits = [k for k, ln in enumerate(lines) if needle in ln]
    assert hits, needle
    offsets = _offsets(data)
    assert len(offsets) == len(lines)
    return offsets[hits[-1] if last else hits[0]][0]


def _compile(tmp_path: Path, data: bytes, *flags: str) -> tuple[int, str]:
    """``radcc compile`` in this process: (exit status, stderr)."""
    f = tmp_path / "k.spv"
    f.write_bytes(data)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = cli.main(["compile", str(f), "-S", "-o", str(tmp_path / "k.s"), *flags])
    text = err.getvalue()
    assert "Traceback" not in text and "internal error" not in text, text
    return status, text


# (name, old text, new text, needle of the instruction radcc's own checks report, the
#  last occurrence?, words of the message)
CASES = [
    ("fadd_on_uint", "%48 = OpIAdd %uint %47 %46", "%48 = OpFAdd %uint %47 %46",
     "OpFAdd %uint", False, "floating-point"),
    ("iadd_on_float", "%69 = OpFAdd %float %65 %68", "%69 = OpIAdd %float %65 %68",
     "OpIAdd %float", False, "integer"),
    ("ford_on_uint", "%36 = OpULessThan %bool %25 %34", "%36 = OpFOrdGreaterThan %bool %25 %34",
     "OpFOrdGreaterThan", False, "floating-point"),
    ("store_not_pointee", "OpStore %71 %69", "OpStore %71 %57", "OpStore %71 %57", False,
     "stored object"),
    # the loads, stores and arithmetic that validate.py's common-case paths (every
    # operand of the expected type) let by must still be refused
    ("store_to_input", "OpStore %i %17", "OpStore %16 %17", "OpStore %16 %17", False,
     "a store through a Input pointer (read-only memory)"),
    ("load_not_pointee", "%65 = OpLoad %float %64", "%65 = OpLoad %uint %64",
     "OpLoad %uint %64", False, "the result has type"),
    ("fadd_operand_uint", "%69 = OpFAdd %float %65 %68", "%69 = OpFAdd %float %65 %57",
     "OpFAdd %float %65 %57", False, "operand 1 has type"),
    ("imul_operand_float", "%46 = OpIMul %uint %44 %uint_3", "%46 = OpIMul %uint %44 %float_1",
     "OpIMul %uint %44 %float_1", False, "operand 1 must be an integer"),
    ("float_index", "%71 = OpAccessChain %_ptr_Workgroup_float %tmp %57",
     "%71 = OpAccessChain %_ptr_Workgroup_float %tmp %65", "%tmp %65", False,
     "not an integer scalar"),
    ("dominance", "%89 = OpISub %uint %uint_63 %88", "%89 = OpISub %uint %83 %88",
     "OpISub %uint %83", False, "does not dominate"),
    ("self_branch", "OpStore %84 %83\n               OpBranch %80",
     "OpStore %84 %83\n               OpBranch %79", "OpBranch %79", False,
     "not a loop header"),
    ("barrier_device_scope", "OpControlBarrier %uint_2 %uint_2 %uint_264",
     "OpControlBarrier %uint_1 %uint_2 %uint_264", "OpControlBarrier", False,
     "execution scope Device"),
    ("missing_block", "OpDecorate %U Block\n", "", "%U = OpTypeStruct", False,
     "must be decorated Block"),  # (a struct with a runtime array: VUID-...-04680)
    ("push_constant_missing_block", "OpDecorate %P Block\n", "", "%_ = OpVariable", False,
     "is not decorated Block"),  # (VUID-StandaloneSpirv-PushConstant-06675)
    ("missing_descriptor_set", "OpDecorate %__1 DescriptorSet 0\n", "",
     "%__1 = OpVariable", False, "no DescriptorSet"),
    ("duplicate_offset", "OpMemberDecorate %P 1 Offset 4\n",
     "OpMemberDecorate %P 1 Offset 4\nOpMemberDecorate %P 1 Offset 4\n",
     "OpMemberDecorate %P 1 Offset 4", True, "twice"),
    ("duplicate_array_stride", "OpDecorate %_runtimearr_float ArrayStride 4\n",
     "OpDecorate %_runtimearr_float ArrayStride 4\nOpDecorate %_runtimearr_float ArrayStride 4\n",
     "OpDecorate %_runtimearr_float ArrayStride 4", True, "twice"),
    ("binding_on_type", "OpDecorate %__1 Binding 1", "OpDecorate %F Binding 1",
     "OpDecorate %F Binding 1", False, "applies to variables"),
    ("block_on_variable", "OpDecorate %P Block", "OpDecorate %_ Block", "OpDecorate %_ Block",
     False, "applies to structure types"),
    ("array_stride_34", "OpDecorate %_runtimearr_uint ArrayStride 4",
     "OpDecorate %_runtimearr_uint ArrayStride 34", "ArrayStride 34", False,
     "not a multiple of"),
    ("composite_extract_out_of_range", "%89 = OpISub %uint %uint_63 %88",
     "%89 = OpCompositeExtract %uint %95 7", "OpCompositeExtract", False, "out of range"),
    ("composite_construct_count", "%89 = OpISub %uint %uint_63 %88",
     "%89 = OpCompositeConstruct %v3uint %88 %88", "OpCompositeConstruct", False,
     "2 components"),
    ("unroll_and_dont_unroll", "OpLoopMerge %22 %23 None", "OpLoopMerge %22 %23 Unroll|DontUnroll",
     "OpLoopMerge", False, "Unroll and DontUnroll"),
    ("peel_count_and_dont_unroll", "OpLoopMerge %22 %23 None",
     "OpLoopMerge %22 %23 DontUnroll|PeelCount 2", "OpLoopMerge", False,
     "PeelCount and DontUnroll"),
    ("iteration_multiple_zero", "OpLoopMerge %22 %23 None",
     "OpLoopMerge %22 %23 MinIterations|IterationMultiple 1 0", "OpLoopMerge", False,
     "IterationMultiple 0"),
    ("partial_count_and_dont_unroll", "OpLoopMerge %22 %23 None",
     "OpLoopMerge %22 %23 DontUnroll|PartialCount 2", "OpLoopMerge", False,
     "PartialCount and DontUnroll"),
    ("uconvert_to_signed", "%89 = OpISub %uint %uint_63 %88",
     "%89 = OpUConvert %int %88", "OpUConvert", False, "must be an unsigned integer"),
    ("sconvert_same_width", "%89 = OpISub %uint %uint_63 %88",
     "%89 = OpSConvert %uint %88", "OpSConvert", False, "same component width"),
    ("convert_f_to_u_signed", "%89 = OpISub %uint %uint_63 %88",
     "%89 = OpConvertFToU %int %65", "OpConvertFToU", False, "must be an unsigned integer"),
    # decoration rules of spirv-val's validate_decorations.cpp radcc lacked (probed)
    ("restrict_and_aliased", "OpDecorate %P Block",
     "OpDecorate %P Block\nOpDecorate %__0 Restrict\nOpDecorate %__0 Aliased",
     "OpDecorate %__0 Restrict", False, "both Restrict and Aliased"),
    ("no_signed_wrap_on_fadd", "OpDecorate %P Block",
     "OpDecorate %P Block\nOpDecorate %69 NoSignedWrap", "NoSignedWrap", False,
     "NoSignedWrap applies to OpIAdd"),
    ("no_unsigned_wrap_on_load", "OpDecorate %P Block",
     "OpDecorate %P Block\nOpDecorate %47 NoUnsignedWrap", "NoUnsignedWrap", False,
     "NoUnsignedWrap applies to OpIAdd"),
    ("uniform_on_void_function", "OpDecorate %P Block",
     "OpDecorate %P Block\nOpDecorate %main Uniform", "Uniform", False,
     "a value of a non-void type"),
    ("glsl_shared", "OpDecorate %P Block", "OpDecorate %P Block\nOpDecorate %U GLSLShared",
     "GLSLShared", False, "VUID-StandaloneSpirv-GLSLShared-04669"),
    # probe17's systematic probe (enumerant operator: CounterBuffer, an id decoration, by
    # OpDecorate)
    ("input_bool_not_builtin", "%bool = OpTypeBool",
     "%bool = OpTypeBool\n%_ptr_Input_bool = OpTypePointer Input %bool\n"
     "%bv = OpVariable %_ptr_Input_bool Input", "%bv = OpVariable", False,
     "holds a bool but is no built-in (VUID-StandaloneSpirv-Input-07290)"),
    ("id_decoration_by_opdecorate", "OpDecorate %P Block",
     "OpDecorate %P Block\nOpDecorate %__0 UniformId %uint_3", "UniformId", False,
     "UniformId takes an id: OpDecorateId, not OpDecorate"),
]


@pytest.mark.parametrize(("name", "old", "new", "needle", "last", "words"), CASES,
                         ids=[c[0] for c in CASES])
def test_invalid_module(name: str, old: str, new: str, needle: str, last: bool, words: str,
                        base_asm: str, tmp_path: Path) -> None:
    assert old in base_asm
    text = base_asm.replace(old, new, 1)
    data = _assemble(text)
    val = spirv_tools.validate(data, "vulkan1.3")
    assert not val.ok, f"spirv-val accepts {name}"
    status, err = _compile(tmp_path, data, "--no-validate")
    assert status == 1, err
    want = _word_of(text, data, needle, last)
    assert re.search(rf"word {want}: .*{re.escape(words)}", err), (want, err)
    status, err = _compile(tmp_path, data)
    assert status == 1 and "spirv-val" in err, err
    m = re.match(r"error: line (\d+):", val.text)
    assert m, val.text
    word = _offsets(data)[int(m.group(1)) - 1][0]
    assert f"word {word}: " in err, (word, err)


def test_capability_without_its_extension(base_asm: str, tmp_path: Path) -> None:
    """A capability only an extension provides (not core in the module's version) needs
    its OpExtension; the reader refuses it before spirv-val runs, at the OpCapability."""
    text = base_asm.replace("OpCapability Shader\n",
                            "OpCapability Shader\nOpCapability ShaderClockKHR\n", 1)
    data = _assemble(text)
    assert not spirv_tools.validate(data, "vulkan1.3").ok
    want = _word_of(text, data, "OpCapability ShaderClockKHR")
    for flags in (("--no-validate",), ()):
        status, err = _compile(tmp_path, data, *flags)
        assert status == 1, err
        assert f"word {want}: OpCapability: capability ShaderClockKHR requires extension " \
            "SPV_KHR_shader_clock" in err, err
    declared = text.replace("OpCapability ShaderClockKHR\n",
                            'OpCapability ShaderClockKHR\nOpExtension "SPV_KHR_shader_clock"\n')
    status, err = _compile(tmp_path, _assemble(declared), "--no-validate")
    assert status == 0, err


@pytest.mark.parametrize(("old", "new", "needle", "extension"), [
    ("OpSource GLSL 450", "OpExecutionMode %main SubgroupUniformControlFlowKHR\nOpSource GLSL 450",
     "ExecutionMode SubgroupUniformControlFlowKHR", "SPV_KHR_subgroup_uniform_control_flow"),
    ("OpMemberDecorate %P 1 Offset 4",
     'OpMemberDecorate %P 1 Offset 4\nOpMemberDecorateString %P 1 UserTypeGOOGLE "t"',
     "Decoration UserTypeGOOGLE", "SPV_GOOGLE_user_type"),
], ids=["execution_mode", "decoration"])
def test_enumerant_without_its_extension(old: str, new: str, needle: str, extension: str,
                                         base_asm: str, tmp_path: Path) -> None:
    """An enumerant operand that only an extension provides (the systematic probe's
    enumerant operator: every other value of each enum operand) needs the extension's
    OpExtension, as spirv-val's operand version/extension check; the reader refuses it at
    its instruction, with and without spirv-val, and takes it with the extension."""
    text = base_asm.replace(old, new, 1)
    data = _assemble(text)
    assert not spirv_tools.validate(data, "vulkan1.3").ok
    want = _word_of(text, data, needle.split()[1])
    for flags in (("--no-validate",), ()):
        status, err = _compile(tmp_path, data, *flags)
        assert status == 1, err
        assert re.search(rf"word {want}: Op\w+: {needle} requires extension {extension}",
                         err), err
    declared = text.replace("OpCapability Shader\n",
                            f'OpCapability Shader\nOpExtension "{extension}"\n', 1)
    data = _assemble(declared)
    assert spirv_tools.validate(data, "vulkan1.3").ok
    status, err = _compile(tmp_path, data, "--no-validate")
    assert status == 0, err


def test_nop_outside_a_block(base_asm: str, tmp_path: Path) -> None:
    """OpNop among the module's declarations: spirv-val's "Nop must appear in a block";
    the reader refuses it at the OpNop, with and without spirv-val (probe17, by hand)."""
    text = base_asm.replace("OpDecorate %P Block\n", "OpDecorate %P Block\nOpNop\n", 1)
    data = _assemble(text)
    assert not spirv_tools.validate(data, "vulkan1.3").ok
    want = _word_of(text, data, "OpNop")
    for flags in (("--no-validate",), ()):
        status, err = _compile(tmp_path, data, *flags)
        assert status == 1 and f"word {want}: OpNop: OpNop must appear in a block" in err, err


def test_decorate_id_operand_before_its_target(base_asm: str, tmp_path: Path) -> None:
    """OpDecorateId's id operands are defined before its target (SPIRV-Tools 2025.5:
    "Parameter <ID> ... must appear earlier in the binary than the target"; Debian's
    2023.1 does not check it, so the expectation is the newer validator's, recorded in
    the corpus finding 2e6ce52599f2 that test_fuzz_regressions runs against it): %uint_3
    comes after %__0 and before %__1 in glslang's order."""
    text = base_asm.replace("OpDecorate %P Block\n",
                            "OpDecorate %P Block\nOpDecorateId %__0 UniformId %uint_3\n", 1)
    data = _assemble(text)
    want = _word_of(text, data, "OpDecorateId %__0")
    status, err = _compile(tmp_path, data, "--no-validate")
    assert status == 1 and re.search(rf"word {want}: OpDecorateId: UniformId's operand %\d+ "
                                     "is defined after its target", err), err
    valid = text.replace("OpDecorateId %__0", "OpDecorateId %__1")
    data = _assemble(valid)
    assert spirv_tools.validate(data, "vulkan1.3").ok
    status, err = _compile(tmp_path, data, "--no-validate")
    assert status == 0, err


def test_two_entry_points_of_one_function_share_builtin_blocks(tmp_path: Path) -> None:
    """Two OpEntryPoints of one vertex function, each listing gl_PerVertex: spirv-val
    counts the objects with BuiltIn members per entry-point function over both ("at most
    one object per Storage Class ... consumed per entry-point"); radcc refuses the second
    OpEntryPoint (probe17's entry-point operator, corpus fbfa97b74eaf)."""
    f = tmp_path / "v.vert"
    f.write_text("#version 450\nlayout(location = 0) in vec4 p;\n"
                 "void main() { gl_Position = p; }\n")
    r = spirv_tools.compile_glsl(f, "vulkan1.3")
    assert r.ok, r.text
    text = _dis(r.data)
    ep = next(ln for ln in text.splitlines() if "OpEntryPoint" in ln)
    text = text.replace(ep, ep + "\n" + ep.replace('"main"', '"other"'), 1)
    data = _assemble(text)
    assert not spirv_tools.validate(data, "vulkan1.3").ok
    want = _word_of(text, data, '"other"')
    status, err = _compile(tmp_path, data, "--no-validate")
    assert status == 1 and re.search(rf"word {want}: OpEntryPoint: %\d+ holds Output built-in "
                                     "members twice", err), err
    status, err = _compile(tmp_path, data)
    assert status == 1 and "spirv-val" in err, err


def test_cooperative_matrix_shapes_compared_by_value(tmp_path: Path) -> None:
    """A conversion between cooperative matrices whose types name the same shape through
    two constant ids of one value (the systematic probe's duplicated declarations: a
    uint 32 constant declared twice): SPIRV-Tools 2025.5 accepts the module (it compares
    the constants' values; Debian's 2023.1 predates SPV_KHR_cooperative_matrix), radcc
    had refused it as another shape."""
    data = (HERE / "validate" / "coopmat_shape_constants_duplicated.spv").read_bytes()
    status, err = _compile(tmp_path, data, "--no-validate")
    assert status == 0, err


def test_multisampled_storage_image_needs_its_capability(tmp_path: Path) -> None:
    """A multisampled storage image (MS 1, Sampled 2) without StorageImageMultisample
    (probe17's literal operator: img_atomics' MS 0 made 1; corpus 526088d38a0d): spirv-val
    rejects it; radcc refuses it at the OpTypeImage, and takes it with the capability."""
    data = _glsl(tmp_path, "#version 450\nlayout(local_size_x = 1) in;\n"
                 "layout(r32ui, binding = 0) uniform uimage2DMS img;\n"
                 "void main() { imageAtomicAdd(img, ivec2(0), 0, 1u); }\n")
    text = _dis(data)
    assert "OpCapability StorageImageMultisample\n" in text
    bad = text.replace("OpCapability StorageImageMultisample\n", "", 1)
    data = _assemble(bad)
    assert not spirv_tools.validate(data, "vulkan1.3").ok
    want = _word_of(bad, data, "OpTypeImage")
    status, err = _compile(tmp_path, data, "--no-validate")
    assert status == 1 and f"word {want}: OpTypeImage: a multisampled storage image" in err, err
    status, err = _compile(tmp_path, data)
    assert status == 1 and "spirv-val" in err, err
    status, err = _compile(tmp_path, _assemble(text), "--no-validate")
    assert "StorageImageMultisample" not in err, err


def test_builtin_decoration_without_capability(base_asm: str, tmp_path: Path) -> None:
    """OpDecorate BuiltIn of a built-in whose capability is not declared (fuzz finding
    b1ef92da7e13): spirv-val rejects it; the reader refuses it at the decoration, with and
    without spirv-val (the reader's capability checks come first)."""
    text = base_asm.replace("BuiltIn LocalInvocationId", "BuiltIn SubgroupLocalInvocationId")
    data = _assemble(text)
    assert not spirv_tools.validate(data, "vulkan1.3").ok
    want = _word_of(text, data, "SubgroupLocalInvocationId")
    for flags in (["--no-validate"], []):
        status, err = _compile(tmp_path, data, *flags)
        assert status == 1 and re.search(rf"word {want}: OpDecorate: BuiltIn "
                                         "SubgroupLocalInvocationId requires capability", err), err


def test_base_is_valid_and_compiles(base_asm: str, tmp_path: Path) -> None:
    data = _assemble(base_asm)
    assert spirv_tools.validate(data, "vulkan1.3").ok
    for flags in ((), ("--no-validate",)):
        status, err = _compile(tmp_path, data, *flags)
        assert status == 0, err


def test_variable_pointers_refused_by_name(base_asm: str, tmp_path: Path) -> None:
    """An OpSelect of two pointers (variable pointers) leaked an AttributeError."""
    old = "%91 = OpLoad %float %90"
    text = base_asm.replace(old, "%sel = OpSelect %_ptr_Workgroup_float %78 %90 %71\n"
                                 "%91 = OpLoad %float %sel", 1)
    data = _assemble(text)
    assert not spirv_tools.validate(data, "vulkan1.3").ok  # no VariablePointers capability
    status, err = _compile(tmp_path, data, "--no-validate")
    want = _word_of(text, data, "= OpSelect ")
    assert status == 1 and f"word {want}: OpSelect: variable pointers" in err, err


def test_image_type_refused_by_name(base_asm: str, tmp_path: Path) -> None:
    """A (valid) image type radcc does not handle: refused by name at its word offset."""
    text = base_asm.replace("%float = OpTypeFloat 32",
                            "%float = OpTypeFloat 32\n%u64 = OpTypeInt 64 0\n"
                            "%img = OpTypeImage %u64 2D 0 0 0 2 R64ui", 1).replace(
        "OpCapability Shader", "OpCapability Shader\nOpCapability Int64\n"
        "OpCapability Int64ImageEXT\nOpExtension \"SPV_EXT_shader_image_int64\"", 1)
    data = _assemble(text)
    assert spirv_tools.validate(data, "vulkan1.3").ok
    status, err = _compile(tmp_path, data)
    want = _word_of(text, data, "OpTypeImage")
    assert status == 1 and f"word {want}: OpTypeImage: storage image format R64ui is not " \
        "supported" in err, err


def _dis(data: bytes) -> str:
    return subprocess.run(["spirv-dis", "--no-header", "--no-color", "-"], input=data,
                          capture_output=True, check=True).stdout.decode()


def _glsl(tmp_path: Path, src: str) -> bytes:
    f = tmp_path / "s.comp"
    f.write_text(src)
    r = spirv_tools.compile_glsl(f, "vulkan1.3")
    assert r.ok, r.text
    return r.data


def test_buffer_device_address_compiles(tmp_path: Path) -> None:
    """A PhysicalStorageBuffer pointer in the push constants (run in the emulator by
    tests/isel/test_realworld_shapes.py::test_buffer_device_address)."""
    data = _glsl(tmp_path, """#version 450
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 1) in;
layout(buffer_reference) buffer R { uint v; };
layout(push_constant) uniform P { R r; };
void main() { r.v = 1u; }
""")
    status, err = _compile(tmp_path, data)
    assert status == 0, err
    assert "global_store_b32" in (tmp_path / "k.s").read_text()


def test_pointer_arithmetic(tmp_path: Path) -> None:
    """OpPtrAccessChain on a buffer device address compiles (Element 0: the same
    store; tests/isel/test_realworld_shapes runs it); on a Function pointer it is
    refused with its name and word offset, exit 1."""
    data = _glsl(tmp_path, """#version 450
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 1) in;
layout(buffer_reference) buffer R { uint v[]; };
layout(push_constant) uniform P { R r; uint i; };
void main() { uint a[4] = uint[4](1u, 2u, 3u, 4u); a[i & 3u] = 7u; r.v[3] = a[1]; }
""")
    text = _dis(data)
    chain = next(ln for ln in text.splitlines()
                 if "= OpAccessChain %_ptr_PhysicalStorageBuffer" in ln)
    lhs, rhs = chain.split("= OpAccessChain ")
    ty, base, *idx = rhs.split()
    text = text.replace(chain, f"{lhs}= OpPtrAccessChain {ty} {base} %int_0 {' '.join(idx)}")
    status, err = _compile(tmp_path, _assemble(text), "--no-validate")
    assert status == 0, err
    assert "global_store_b32" in (tmp_path / "k.s").read_text()
    chain = next(ln for ln in text.splitlines() if "OpAccessChain" in ln and
                 "_ptr_Function_uint" in ln)
    lhs, rhs = chain.split("= OpAccessChain ")
    ty, base, *idx = rhs.split()
    text = text.replace(chain, f"{lhs}= OpPtrAccessChain {ty} {base} %int_0 {' '.join(idx)}")
    data = _assemble(text)
    status, err = _compile(tmp_path, data, "--no-validate")
    want = _word_of(text, data, "OpPtrAccessChain %_ptr_Function")
    assert status == 1 and f"word {want}:" in err and "OpPtrAccessChain" in err, err
    assert "Traceback" not in err


def test_debug_printf_refused(tmp_path: Path) -> None:
    """debugPrintfEXT was dropped without a word."""
    data = _glsl(tmp_path, """#version 450
#extension GL_EXT_debug_printf : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint b[]; };
void main() { debugPrintfEXT("x=%u", b[0]); b[0] = 1u; }
""")
    assert spirv_tools.validate(data, "vulkan1.3").ok
    status, err = _compile(tmp_path, data)
    want = _word_of(_dis(data), data, "OpExtInst ")  # the only OpExtInst: the printf
    assert status == 1 and f"word {want}: OpExtInst: debugPrintfEXT" in err, err


@pytest.mark.parametrize(("env", "version"), [("vulkan1.0", (1, 0)), ("vulkan1.1", (1, 3)),
                                              ("vulkan1.2", (1, 5)), ("vulkan1.3", (1, 6))])
def test_target_env_from_version(env: str, version: tuple[int, int], tmp_path: Path) -> None:
    """glslang's --target-env gives the SPIR-V version; spirv-val gets the same env back
    (and accepts the module in it)."""
    r = spirv_tools.compile_glsl(BASE, env)
    assert r.ok
    m = read_spirv(r.data)
    assert m.version == version and target_env(m) == env == ENV_BY_VERSION[version]
    assert spirv_tools.validate(r.data, env).ok


def test_no_spirv_val_installed(base_asm: str, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Without spirv-tools radcc's own checks still reject (and valid input compiles)."""
    from radcc.frontend.spirv import spirv_val

    monkeypatch.setattr(spirv_val, "find_spirv_val", lambda: None)
    good = _assemble(base_asm)
    bad = _assemble(base_asm.replace("%48 = OpIAdd %uint %47 %46",
                                     "%48 = OpFAdd %uint %47 %46", 1))
    assert _compile(tmp_path, good)[0] == 0
    status, err = _compile(tmp_path, bad)
    assert status == 1 and "spirv-val" not in err and "floating-point" in err, err


def test_image_operands_of_every_kind_accepted(tmp_path: Path) -> None:
    """radcc's own image-operand checks (spirv-val skipped: --no-validate) accept what
    glslang emits for each kind: Bias on implicit LOD (a fragment shader), Lod, Grad,
    ConstOffset, an integer Lod on a fetch, and a gather's ConstOffset; spirv-val accepts
    the same module."""
    f = tmp_path / "s.frag"
    f.write_text("""#version 450
layout(set = 0, binding = 0) uniform sampler2D s;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
    o = texture(s, uv, 0.5) + textureLod(s, uv, 1.0) + textureGrad(s, uv, vec2(0.1), vec2(0.2))
      + textureOffset(s, uv, ivec2(1, -1)) + texelFetch(s, ivec2(uv * 8.0), 1)
      + textureGatherOffset(s, uv, ivec2(1, 0));
}
""")
    r = spirv_tools.compile_glsl(f, "vulkan1.3")
    assert r.ok, r.text
    text = _dis(r.data)
    for operand in ("Bias", "Lod", "Grad", "ConstOffset"):
        assert f" {operand} " in text, operand
    status, err = _compile(tmp_path, r.data, "--no-validate")
    assert status == 0, err
    status, err = _compile(tmp_path, r.data)
    assert status == 0, err


_F16_STORE = """#version 450
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer F { float f[]; };
layout(set = 0, binding = 1) buffer H { float16_t h[]; };
void main() { uint i = gl_GlobalInvocationID.x; h[i] = float16_t(f[i] * 3.0); }
"""


@pytest.mark.parametrize(("mode", "target", "valid", "words"), [
    ("RTE", "convert", True, None),
    ("RTZ", "convert", True, "FPRoundingMode RTZ is not supported"),
    ("RTE", "multiply", False, "applies to an OpFConvert"),
], ids=["rte", "rtz_refused", "on_fmul"])
def test_fp_rounding_mode(mode: str, target: str, valid: bool, words: str | None,
                          tmp_path: Path) -> None:
    """FPRoundingMode (SPV_KHR_16bit_storage's rule: an OpFConvert to 16-bit floats that
    is only stored; spirv-val checks it): RTE, the rounding radcc's conversions do,
    compiles; the other modes are refused by name (they are not silently rounded to
    nearest), and the decoration on another instruction is invalid (spirv-val agrees)."""
    text = _dis(_glsl(tmp_path, _F16_STORE))
    conv = re.search(r"(%\w+) = OpFConvert", text)
    mul = re.search(r"(%\w+) = OpFMul", text)
    assert conv and mul, text
    tid = (conv if target == "convert" else mul).group(1)
    text = text.replace("OpDecorate ", f"OpDecorate {tid} FPRoundingMode {mode}\nOpDecorate ",
                        1)
    data = _assemble(text)
    assert spirv_tools.validate(data, "vulkan1.3").ok == valid
    status, err = _compile(tmp_path, data, "--no-validate")
    if words is None:
        assert status == 0, err
        return
    needle = f"{tid} = OpFConvert" if valid else "FPRoundingMode"
    want = _word_of(text, data, needle)
    assert status == 1 and re.search(rf"word {want}: .*{re.escape(words)}", err), (want, err)


def test_fp_rounding_mode_needs_16bit_storage(base_asm: str, tmp_path: Path) -> None:
    """A shader's FPRoundingMode needs a 16-bit storage capability (campaign seed 85's
    finding 297488046b14: the decoration on a 32-bit variable without one)."""
    text = base_asm.replace("OpDecorate %P Block",
                            "OpDecorate %P Block\nOpDecorate %69 FPRoundingMode RTZ", 1)
    data = _assemble(text)
    assert not spirv_tools.validate(data, "vulkan1.3").ok
    want = _word_of(text, data, "FPRoundingMode")
    status, err = _compile(tmp_path, data, "--no-validate")
    assert status == 1 and f"word {want}: OpDecorate: FPRoundingMode in a shader requires " \
        "capability StorageBuffer16BitAccess" in err, err


_WORKGROUP_STRUCT = """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer U { uint u[]; };
struct S { uint a; float b; };
shared S sh[4];
void main() {
    uint i = gl_LocalInvocationID.x;
    if (i < 4u) { sh[i].a = i; sh[i].b = float(i); }
    barrier();
    u[i] = sh[i & 3u].a + uint(sh[i & 3u].b);
}
"""


@pytest.mark.parametrize(("decoration", "needle"), [
    ("OpDecorate %S Block", "%sh = OpVariable"),
    ("OpDecorate %_ptr_Workgroup__arr_S_uint_4 ArrayStride 8", "%sh = OpVariable"),
], ids=["block", "pointer_array_stride"])
def test_workgroup_variable_without_layout(decoration: str, needle: str,
                                           tmp_path: Path) -> None:
    """A Workgroup variable's type carries no explicit layout (VUID-StandaloneSpirv-
    None-10684), Block and its own pointer type's ArrayStride included (campaign seed 85's
    finding 5ac610e74f1f): SPIRV-Tools 2025.5 rejects both at the variable; Debian's
    spirv-val 2023.1 predates the VUID (the finding is in VALID_FOR_SPIRV_VAL_2023 of
    tests/fuzz/test_fuzz_regressions.py), so the oracle here is the VUID's text: "any
    [Workgroup] variable ... must not have ... ArrayStride ... Block"."""
    text = _dis(_glsl(tmp_path, _WORKGROUP_STRUCT))
    assert spirv_tools.validate(_assemble(text), "vulkan1.3").ok
    text = text.replace("OpDecorate %U Block", f"OpDecorate %U Block\n{decoration}", 1)
    data = _assemble(text)
    status, err = _compile(tmp_path, data, "--no-validate")
    want = _word_of(text, data, needle)
    assert status == 1 and re.search(rf"word {want}: .*VUID-StandaloneSpirv-None-10684", err), \
        (want, err)


def test_image_read_of_three_components(tmp_path: Path) -> None:
    """OpImageRead's result is a 4-component vector in Vulkan (VUID-StandaloneSpirv-
    Result-04780; campaign seed 85's finding d1a514e0e06f): spirv-val rejects a uvec3."""
    text = _dis(_glsl(tmp_path, """#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D img;
layout(set = 0, binding = 1) buffer U { uint u[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    u[p.y * 8 + p.x] = imageLoad(img, p).x;
}
"""))
    m = re.search(r"(%\w+) = OpImageRead %v4uint", text)
    assert m, text
    text = text.replace(f"{m.group(1)} = OpImageRead %v4uint", f"{m.group(1)} = OpImageRead "
                        "%v3uint", 1)
    assert "%v3uint = OpTypeVector" in text
    data = _assemble(text)
    assert not spirv_tools.validate(data, "vulkan1.3").ok
    status, err = _compile(tmp_path, data, "--no-validate")
    want = _word_of(text, data, "= OpImageRead")
    assert status == 1 and f"word {want}: OpImageRead: the result type" in err and \
        "not a 4-component vector" in err, (want, err)


_SELF_CONTINUE = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %arr ArrayStride 4
OpMemberDecorate %B 0 Offset 0
OpDecorate %B Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%arr = OpTypeRuntimeArray %uint
%B = OpTypeStruct %arr
%pB = OpTypePointer StorageBuffer %B
%pu = OpTypePointer StorageBuffer %uint
%buf = OpVariable %pB StorageBuffer
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
%p0 = OpAccessChain %pu %buf %u0 %u0
%n = OpLoad %uint %p0
OpBranch %loop
%loop = OpLabel
%i = OpPhi %uint %u0 %entry %next LATCH
%next = OpIAdd %uint %i %u1
%c = OpULessThan %bool %next %n
OpLoopMerge %exit %loop None
HEADER_TERM
%exit = OpLabel
%p1 = OpAccessChain %pu %buf %u0 %u1
OpStore %p1 %next
OpReturn
OpFunctionEnd
"""


@pytest.mark.parametrize("two_blocks", [False, True], ids=["one_block", "two_blocks"])
def test_continue_target_is_the_header(two_blocks: bool, tmp_path: Path) -> None:
    """A loop whose continue target is its header: the header is then the back-edge
    block (spirv-val's structural post-dominance, the header's edge to the merge block
    counted; finding 92851bb91769 branched back from another block). The one-block loop
    runs: it counts to the bound it loads."""
    text = _SELF_CONTINUE.replace("LATCH", "%latch" if two_blocks else "%loop").replace(
        "HEADER_TERM", "OpBranch %latch\n%latch = OpLabel\nOpBranchConditional %c %loop %exit"
        if two_blocks else "OpBranchConditional %c %loop %exit")
    data = _assemble(text)
    assert spirv_tools.validate(data, "vulkan1.3").ok != two_blocks
    status, err = _compile(tmp_path, data, "--no-validate")
    if not two_blocks:
        assert status == 0, err
        for wave in (32, 64):
            out = run_compute(data, buffers={(0, 0): np.array([7, 0], np.uint32)},
                              wave_size=wave)
            assert np.frombuffer(out[(0, 0)], np.uint32).tolist() == [7, 7]
        return
    want = _word_of(text, data, "OpLoopMerge")
    assert status == 1 and f"word {want}: OpLoopMerge: the continue target of loop" in err, \
        (want, err)


@pytest.mark.parametrize("wave", [32, 64])
def test_quantize_to_f16_runs(wave: int, tmp_path: Path) -> None:
    """OpQuantizeToF16 (validated as spirv-val does since campaign seed 86's finding
    4168d2dbedc1, a uint operand) rounds through float16: NumPy's float16 the reference
    (finite values in float16's normal range)."""
    text = _dis(_glsl(tmp_path, """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer F { vec2 f[]; };
void main() { uint i = gl_GlobalInvocationID.x; f[i] = -f[i]; }
"""))
    assert text.count("OpFNegate") == 1  # (GLSL has no quantizeToF16: the SPIR-V's edit)
    data = _assemble(text.replace("OpFNegate", "OpQuantizeToF16"))
    assert spirv_tools.validate(data, "vulkan1.3").ok
    x = np.random.default_rng(86).uniform(-1000, 1000, 128).astype(np.float32)
    out = run_compute(data, buffers={(0, 0): x}, wave_size=wave)
    want = x.astype(np.float16).astype(np.float32)
    assert np.frombuffer(out[(0, 0)], np.float32).tolist() == want.tolist()


def test_decoration_groups_refused_by_name(base_asm: str, tmp_path: Path) -> None:
    """Decoration groups (valid, deprecated) are refused by name rather than their
    decorations dropped; campaign seed 87's 4f649b2af60a had a variable as the group."""
    text = base_asm.replace("OpDecorate %__1 DescriptorSet 0\n",
                            "OpDecorate %grp DescriptorSet 0\n%grp = OpDecorationGroup\n"
                            "OpGroupDecorate %grp %__1\n", 1)
    data = _assemble(text)
    assert spirv_tools.validate(data, "vulkan1.3").ok
    want = _word_of(text, data, "OpDecorationGroup")
    status, err = _compile(tmp_path, data)
    assert status == 1 and f"word {want}: OpDecorationGroup: decoration groups" in err, \
        (want, err)


COPY_LOGICAL = """#version 450
layout(local_size_x = 4) in;
struct S { uint a; float b[2]; };
layout(std430, binding = 0) buffer B { S s[4]; uint outv[4]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    S t = s[i];  // glslang: OpCopyLogical from the laid-out struct to the plain one
    outv[i] = t.a + uint(t.b[0] * 2.0 + t.b[1]);
}
"""


@pytest.mark.parametrize("edit", ["none", "mismatch", "same_type"])
def test_copy_logical(tmp_path: Path, edit: str) -> None:
    """OpCopyLogical copies between types that logically match (arrays of one length,
    structs of as many members, elements the same or logically matching) and differ;
    campaign seed 88's 3630dc8d02ff copied an image pointer into an image type. The
    valid copy runs (NumPy's sums); the edits are refused as spirv-val refuses them."""
    data = _glsl(tmp_path, COPY_LOGICAL)
    text = _dis(data)
    assert "%37 = OpCopyLogical %S %36" in text
    if edit == "none":
        s = np.zeros(12, np.uint32)
        a = np.array([5, 6, 7, 8], np.uint32)
        b = np.array([[1.5, 2.0], [0.25, 3.0], [4.0, 0.5], [10.0, 1.0]], np.float32)
        for k in range(4):
            s[3 * k] = a[k]
            s[3 * k + 1:3 * k + 3] = b[k].view(np.uint32)
        want = (a + (b[:, 0] * 2 + b[:, 1]).astype(np.uint32)).tolist()
        for wave in (32, 64):
            out = run_compute(data, buffers={(0, 0): np.concatenate([s, np.zeros(4, np.uint32)])},
                              wave_size=wave)
            assert np.frombuffer(out[(0, 0)], np.uint32)[12:].tolist() == want
        return
    new = {"mismatch": "%37 = OpCopyLogical %_arr_float_uint_2 %36",
           "same_type": "%37 = OpCopyLogical %S_0 %36"}[edit]
    text = text.replace("%37 = OpCopyLogical %S %36", new, 1)
    if edit == "mismatch":  # its uses need a struct: store the copy nowhere
        text = text.replace("OpStore %t %37\n", "", 1)
    bad = _assemble(text)
    r = spirv_tools.validate(bad, "vulkan1.3")
    assert not r.ok and ("logically match" in r.text if edit == "mismatch"
                         else "must not equal" in r.text), r.text
    want = _word_of(text, bad, "OpCopyLogical")
    words = {"mismatch": "does not logically match", "same_type": "is the operand's"}[edit]
    status, err = _compile(tmp_path, bad, "--no-validate")
    assert status == 1 and f"word {want}: OpCopyLogical: the result type" in err \
        and words in err, (want, err)


def test_local_size_id_needs_spirv_1_6(base_asm: str, tmp_path: Path) -> None:
    """LocalSizeId is Vulkan 1.3's (or VK_KHR_maintenance4's): a SPIR-V 1.4 module, for
    vulkan1.1spv1.4, may not use it (campaign seed 88's 4cca3a0f6fe5); SPIR-V 1.6 may."""
    text = base_asm  # glslang targets SPIR-V 1.6 with LocalSizeId
    assert "OpExecutionModeId %main LocalSizeId" in text
    ok16 = _assemble(text)
    assert spirv_tools.validate(ok16, "vulkan1.3").ok
    assert _compile(tmp_path, ok16, "--no-validate")[0] == 0
    old = spirv_tools.assemble(text, "vulkan1.1spv1.4")
    assert int.from_bytes(old[4:8], "little") == 0x10400  # SPIR-V 1.4: vulkan1.1spv1.4
    assert ENV_BY_VERSION[(1, 4)] == "vulkan1.1spv1.4"
    r = spirv_tools.validate(old, "vulkan1.1spv1.4")
    assert not r.ok and "LocalSizeId" in r.text, r.text
    want = _word_of(text, old, "LocalSizeId")
    status, err = _compile(tmp_path, old, "--no-validate")
    assert status == 1 and f"word {want}: OpExecutionModeId: LocalSizeId needs Vulkan 1.3" \
        in err, (want, err)


def test_every_opname_the_checker_dispatches_on_is_an_opcode() -> None:
    """`validate._CHECKS` is keyed by opname: a misspelt one would leave its opcode
    unchecked, silently (the grammar table is the oracle for the spellings)."""
    from radcc.frontend.spirv import grammar
    from radcc.frontend.spirv.validate import _CHECKS

    assert len(_CHECKS) >= 150
    for name in _CHECKS:
        grammar.opcode(name)  # KeyError if not an opname
