"""Shapes from real-world compute shaders (issue 9: llama.cpp's Vulkan matmul and
mat-vec kernels) that isel got wrong, reduced to shaders of our own; each compiles
with the IR and register-allocation validators on and runs right in the strict
emulator (reference: the same loops in Python)."""

from __future__ import annotations

import re
import struct
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

from radcc.abi.kernarg import binding_name
from radcc.driver.compile import compile_spirv
from radcc.driver.run import run_compiled, run_compute
from radcc.frontend.divergence import divergence_analysis
from radcc.frontend.opt import lower_for_isel
from radcc.frontend.spirv_to_mir import spirv_to_mir
from radcc.ir.program import BlockKind
from radcc.isel import select_program
from radcc.oracle import spirv_tools
from radcc.passes.manager import DebugOptions
from radcc.target import DEFAULT_MCPU, get_target
from tests.frontend.mir.conftest import glsl_to_spirv

CHECKED = DebugOptions.parse("validateir,validatera")

# An inner loop whose header is a uniform if with a jump on both sides (what
# spirv-opt makes of `[[unroll]] for (k = 0; k < 1; k++)` in mul_mat_vec): the
# endif after it is logically unreachable and must still be closed with
# p_logical_end (was: "p_logical_start without p_logical_end" after isel).
BOTH_JUMP = """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
layout(push_constant) uniform P { uint n; uint m; } p;
void main() {
    uint t = gl_LocalInvocationID.x;
    uint s = 0u;
    for (uint i = 0u; i < p.n; i++) {
        uint k = 0u;
        while (true) {
            if (k < p.m) { s += a[(i + k + t) % 64u] * (k + 1u); k++; continue; }
            else { break; }
        }
        if (t % 3u == 0u) {
            uint j = 0u;
            while (true) {
                if (j < i) { s ^= j << 3; j++; continue; } else { break; }
            }
        }
    }
    o[t] = s;
}
"""


def _both_jump_ref(a: list[int], n: int, m: int) -> list[int]:
    out = []
    for t in range(64):
        s = 0
        for i in range(n):
            for k in range(m):
                s = (s + a[(i + k + t) % 64] * (k + 1)) & 0xFFFFFFFF
            if t % 3 == 0:
                for j in range(i):
                    s ^= (j << 3) & 0xFFFFFFFF
        out.append(s)
    return out


@pytest.mark.parametrize("wave", [32, 64])
def test_uniform_if_jumping_on_both_sides_in_a_loop(wave: int) -> None:
    spv = glsl_to_spirv(BOTH_JUMP)
    a = np.random.default_rng(9).integers(0, 1 << 20, 64, dtype=np.uint32)
    n, m = 5, 3
    out = run_compute(spv, buffers={(0, 0): a, (0, 1): 64 * 4},
                      push_constants=struct.pack("<II", n, m), wave_size=wave,
                      debug_options=CHECKED)
    got = np.frombuffer(out[(0, 1)], np.uint32)
    assert got.tolist() == _both_jump_ref([int(x) for x in a], n, m)


# Loops that never end (no break): llama.cpp's matmul_id_subgroup_* at the default of
# their specialization constants (`local_size_x_id = 0` is 1 by default, so
# `l += gl_WorkGroupSize.x * 2 / BK` adds 0). Their exit block had no predecessor while
# the code after it was still live into it ("%N is live into BBk, which has no
# predecessor for it" from the register allocator). Each such loop here is never entered
# at run time (uniform and divergent ifs, an outer loop of zero trips), so the rest of
# the shader runs and is checked.
NO_BREAK = """#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint STRIDE = 0u;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
layout(push_constant) uniform P { uint n; uint big; uint zero; } p;
void main() {
    uint t = gl_LocalInvocationID.x;
    uint s = 0u;
    for (uint i = 0u; i < p.n; i++) {
        if (p.big > 1000u) {
            for (uint l = 0u; l < 64u; l += STRIDE) { s += a[(l + t) % 64u]; }
        }
        if (a[t] == 0xffffffffu) {
            for (;;) { s += a[(s + t) % 64u]; o[t] = s; }
        }
        s = s * 3u + a[(i + t) % 64u];
    }
    for (uint i = 0u; i < p.zero; i++) {
        for (uint l = 0u; l < 64u; l += STRIDE) { s += a[(l + t) % 64u]; }
        s += i;
    }
    o[t] = s;
}
"""


def _no_break_ref(a: list[int], n: int) -> list[int]:
    out = []
    for t in range(64):
        s = 0
        for i in range(n):
            s = (s * 3 + a[(i + t) % 64]) & 0xFFFFFFFF
        out.append(s)
    return out


@pytest.mark.parametrize("wave", [32, 64])
def test_loops_without_break(wave: int) -> None:
    spv = glsl_to_spirv(NO_BREAK)
    a = np.random.default_rng(10).integers(0, 1 << 20, 64, dtype=np.uint32)
    n = 6
    out = run_compute(spv, buffers={(0, 0): a, (0, 1): 64 * 4},
                      push_constants=struct.pack("<III", n, 5, 0), wave_size=wave,
                      debug_options=CHECKED)
    got = np.frombuffer(out[(0, 1)], np.uint32)
    assert got.tolist() == _no_break_ref([int(x) for x in a], n)


def test_loop_without_break_exit_has_a_predecessor() -> None:
    """After isel every loop's exit block is entered (here: from the guard taken on
    an empty EXEC, `cf._exit_guard`), and no block but the first lacks predecessors."""
    shader = spirv_to_mir(glsl_to_spirv(NO_BREAK))
    target = get_target(DEFAULT_MCPU)
    lower_for_isel(shader, target.mir_options, 64)
    divergence_analysis(shader)
    prog = select_program(shader, target, 64).program
    exits = [b for b in prog.blocks if b.kind & BlockKind.LOOP_EXIT]
    assert len(exits) >= 4
    assert all(b.linear_preds and b.logical_preds for b in exits)
    guards = [b for b in prog.blocks
              if b.instructions and b.instructions[-1].opcode == "p_cbranch_nz"
              and b.kind & BlockKind.LOOP_HEADER]
    assert len(guards) >= 3


# 16-bit float reductions and scans (ncnn's reduction_fp16: subgroupAdd on float16_t),
# run in v_add_f16 / v_mul_f16 (ACO's fadd16 / fmul16). Inputs are small integers for
# the sums and +-1, +-2, +-0.5 for the products, so every order of evaluation gives the
# exact result NumPy computes in float16; the if makes the active lanes sparse.
F16_REDUCE = """#version 450
#extension GL_KHR_shader_subgroup_arithmetic : enable
#extension GL_KHR_shader_subgroup_clustered : enable
#extension GL_EXT_shader_subgroup_extended_types_float16 : enable
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : enable
#extension GL_EXT_shader_16bit_storage : enable
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(set = 0, binding = 1) readonly buffer M { f16vec2 m[]; };
layout(set = 0, binding = 2) buffer O { float16_t o[]; };
void main() {
    uint t = gl_LocalInvocationID.x;
    float16_t x = a[t];
    o[8u * t] = subgroupAdd(x);
    o[8u * t + 1u] = subgroupInclusiveAdd(x);
    o[8u * t + 2u] = subgroupExclusiveAdd(x);
    o[8u * t + 3u] = subgroupClusteredAdd(x, 4u);
    f16vec2 p = subgroupMul(m[t]);
    o[8u * t + 4u] = p.x;
    o[8u * t + 5u] = p.y;
    if (x > float16_t(5.0)) {
        o[8u * t + 6u] = subgroupAdd(x);
        o[8u * t + 7u] = subgroupInclusiveMul(m[t].x);
    }
}
"""


def _f16_reduce_ref(a: np.ndarray, m: np.ndarray, wave: int) -> np.ndarray:
    o = np.zeros(64 * 8, np.float16)
    for base in range(0, 64, wave):
        lanes = range(base, base + wave)
        act = [t for t in lanes if a[t] > 5]
        for t in lanes:
            below = [u for u in lanes if u < t]
            o[8 * t] = sum(a[u] for u in lanes)
            o[8 * t + 1] = sum(a[u] for u in below) + a[t]
            o[8 * t + 2] = sum(a[u] for u in below)
            c = t - t % 4
            o[8 * t + 3] = sum(a[u] for u in range(c, c + 4))
            o[8 * t + 4] = np.prod([m[u, 0] for u in lanes])
            o[8 * t + 5] = np.prod([m[u, 1] for u in lanes])
            if t in act:
                o[8 * t + 6] = sum(a[u] for u in act)
                o[8 * t + 7] = np.prod([m[u, 0] for u in act if u <= t])
    return o


@pytest.mark.parametrize("wave", [32, 64])
def test_f16_reductions_and_scans(wave: int) -> None:
    rng = np.random.default_rng(11)
    a = rng.integers(0, 12, 64).astype(np.float16)
    m = rng.choice(np.array([1, -1, 1, -1, 1, -1, 2, 0.5], np.float16), (64, 2))
    out = run_compute(glsl_to_spirv(F16_REDUCE), buffers={(0, 0): a, (0, 1): m,
                                                          (0, 2): 64 * 8 * 2},
                      wave_size=wave, debug_options=CHECKED)
    got = np.frombuffer(out[(0, 2)], np.float16)
    want = _f16_reduce_ref(a, m, wave)
    assert np.isfinite(want).all()
    assert got.tolist() == want.tolist()


# Buffer device address (llama.cpp's *_bda shaders: `D_ptr(addr).d = v`): pointers from
# 64-bit push constants, a divergent address, a pointer loaded from memory, a 64-bit
# load, an atomic, an f16 store and OpPtrAccessChain. The emulator maps the buffers the
# same way for the same kernel and arguments: a first run (mode 0, no pointers used)
# gives their addresses, the second passes them in the push constants.
BDA = """#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Floats { float v[]; };
layout(buffer_reference, std430, buffer_reference_align = 2) buffer Halfs { float16_t v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Node {
    uint64_t big; Floats data; uint count; uint pad; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Vec4s { vec4 v; };
layout(set = 0, binding = 0) buffer B0 { float x[]; };
layout(set = 0, binding = 1) buffer B1 { float y[]; };
layout(set = 0, binding = 2) buffer B2 { uint64_t node_words[]; };
layout(set = 0, binding = 3) buffer B3 { float16_t h[]; };
layout(push_constant) uniform P { uint64_t b0; uint64_t b1; Node node; uint64_t b3; uint mode; } p;
void main() {
    uint t = gl_LocalInvocationID.x;
    if (p.mode == 0u) {
        y[t] = x[t] + float(node_words[0]);
        h[t] = float16_t(1.0);
        return;
    }
    Floats xs = Floats(p.b0);
    Floats ys = Floats(p.b1);
    float v = xs.v[t];
    ys.v[t] = v * 2.0 + 1.0;
    Floats per = Floats(p.b0 + uint64_t(4u * (63u - t)));
    ys.v[64u + t] = per.v[0];
    Node n = p.node;
    ys.v[128u + t] = n.data.v[t] + float(uint(n.big >> 32));
    uint old = atomicAdd(n.count, 1u);
    ys.v[192u + t] = old < 64u ? 1.0 : 0.0;
    Halfs hs = Halfs(p.b3);
    hs.v[t] = float16_t(v);
    Vec4s q = Vec4s(p.b1);
    if (t == 5u) q[64].v.w = 7.0;
    Floats pick = (t & 1u) == 0u ? xs : per;
    ys.v[260u + t] = pick.v[t & 7u];
    Floats w = xs;
    for (uint k = 0u; k < (t & 3u); ++k) w = Floats(uint64_t(w) + 4ul);
    ys.v[324u + t] = w.v[t & 31u];
}
"""


def _optimized(spv: bytes) -> bytes:
    """spirv-opt -O (as llama.cpp builds its shaders): pointers become OpPhi/OpSelect."""
    with tempfile.TemporaryDirectory() as d:
        src, dst = Path(d) / "a.spv", Path(d) / "b.spv"
        src.write_bytes(spv)
        subprocess.run(["spirv-opt", "-O", str(src), "-o", str(dst)], check=True)
        return dst.read_bytes()


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("opt", [False, True], ids=["glslang", "spirv-opt"])
def test_buffer_device_address(wave: int, opt: bool) -> None:
    spv = glsl_to_spirv(BDA, "vulkan1.2")
    res = compile_spirv(_optimized(spv) if opt else spv, wave_size=wave,
                        debug_options=CHECKED)
    x = np.arange(64, dtype=np.float32) * 0.5
    bufs = {(0, 0): x, (0, 1): np.zeros(388, np.float32), (0, 2): np.zeros(3, np.uint64),
            (0, 3): np.zeros(64, np.float16)}
    push0 = bytes(40)
    _, first = run_compiled(res, (1, 1, 1), bufs, push0)
    addr = {k: first.addresses[binding_name(k)] for k in bufs}
    node = np.array([5 << 32, addr[(0, 0)], 0], np.uint64)
    bufs[(0, 2)] = node
    push = struct.pack("<QQQQI", addr[(0, 0)], addr[(0, 1)], addr[(0, 2)], addr[(0, 3)], 1)
    out, run = run_compiled(res, (1, 1, 1), bufs, push + bytes(4))
    assert not run.violations
    assert {k: run.addresses[binding_name(k)] for k in bufs} == addr
    y = np.frombuffer(out[(0, 1)], np.float32)
    want = np.zeros(388, np.float32)
    want[:64] = x * 2 + 1
    want[64:128] = x[::-1]
    want[128:192] = x + 5
    want[192:256] = 1
    want[259] = 7
    t = np.arange(64)
    want[260:324] = np.where(t % 2 == 0, x[t & 7], x[(63 - t + (t & 7)) % 64])
    want[324:388] = x[(t & 31) + (t & 3)]
    assert y.tolist() == want.tolist()
    assert np.frombuffer(out[(0, 2)], np.uint64).tolist() == [5 << 32, addr[(0, 0)], 64]
    assert np.frombuffer(out[(0, 3)], np.float16).tolist() == x.astype(np.float16).tolist()


# SPV_KHR_integer_dot_product (llama.cpp's int8 flash attention and mmq shaders: OpSDot
# on PackedVectorFormat4x8Bit in a SPIR-V 1.5 module). glslang 12 cannot write it: the
# GLSL computes xor/or/and and the assembly's instructions are swapped for the dots.
INT_DOT = """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint o[]; };
void main() {
    uint t = gl_LocalInvocationID.x;
    o[3u * t] = a[t] ^ b[t];
    o[3u * t + 1u] = a[t] | b[t];
    o[3u * t + 2u] = a[t] & b[t];
}
"""


def _int_dot_module() -> bytes:
    spv = glsl_to_spirv(INT_DOT, "vulkan1.2")
    text = subprocess.run(["spirv-dis", "--raw-id", "-"], input=spv,
                          capture_output=True, check=True).stdout.decode()
    text = text.replace("OpCapability Shader", "OpCapability Shader\n"
                        "OpCapability DotProduct\nOpCapability DotProductInput4x8BitPacked\n"
                        "OpExtension \"SPV_KHR_integer_dot_product\"", 1)
    for old, new in (("OpBitwiseXor", "OpSDot"), ("OpBitwiseOr", "OpUDot"),
                     ("OpBitwiseAnd", "OpSUDot")):
        line = next(ln for ln in text.splitlines() if old in ln)
        text = text.replace(line, line.replace(old, new) + " PackedVectorFormat4x8Bit")
    data = spirv_tools.assemble(text, "vulkan1.2")
    assert spirv_tools.validate(data, "vulkan1.2").ok
    return data


# the instructions of OpSDot/OpUDot/OpSUDot per chip (ACO's: v_dot4 where the chip has it,
# GFX11's v_dot4_i32_iu8 with the signedness in NEG_LO; GFX10.3 has no mixed-sign form and
# GFX10.1 (gfx1010) no dot instruction: the bytes are multiplied and summed)
DOT_OPS = {"gfx1100": ("v_dot4_i32_iu8 .* neg_lo:\\[1,1,0\\]", "v_dot4_u32_u8",
                       "v_dot4_i32_iu8 .* neg_lo:\\[1,0,0\\]"),
           "gfx1030": ("v_dot4_i32_i8", "v_dot4_u32_u8", "v_bfe_i32"),
           "gfx1010": ("v_bfe_i32", "v_bfe_u32", "v_mul_lo_u32")}


@pytest.mark.parametrize("mcpu", list(DOT_OPS))
@pytest.mark.parametrize("wave", [32, 64])
def test_integer_dot_products(wave: int, mcpu: str) -> None:
    asm = compile_spirv(_int_dot_module(), wave_size=wave, mcpu=mcpu).asm
    for pat in DOT_OPS[mcpu]:
        assert re.search(pat, asm), pat
    if mcpu == "gfx1010":
        assert "v_dot" not in asm
    rng = np.random.default_rng(12)
    a = rng.integers(0, 1 << 32, 64, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 1 << 32, 64, dtype=np.uint64).astype(np.uint32)
    out = run_compute(_int_dot_module(), buffers={(0, 0): a, (0, 1): b, (0, 2): 64 * 12},
                      wave_size=wave, debug_options=CHECKED, mcpu=mcpu)
    got = np.frombuffer(out[(0, 2)], np.uint32).reshape(64, 3)
    sa, ua = a.view(np.int8).reshape(64, 4).astype(np.int64), \
        a.view(np.uint8).reshape(64, 4).astype(np.int64)
    sb, ub = b.view(np.int8).reshape(64, 4).astype(np.int64), \
        b.view(np.uint8).reshape(64, 4).astype(np.int64)
    want = np.stack([(sa * sb).sum(1), (ua * ub).sum(1), (sa * ub).sum(1)], 1)
    assert got.tolist() == (want & 0xFFFFFFFF).tolist()


# OpPtrAccessChain (SPIR-V from front ends other than glslang, which turns buffer-reference
# indexing into integer arithmetic): a storage-buffer element pointer moved by +1 and
# +128 elements (VariablePointersStorageBuffer, the pointer type's ArrayStride), a
# PhysicalStorageBuffer float pointer moved by i + 64 then -3, and a struct pointer
# indexed by element and member. Mode 0 only learns the buffer's address (the emulator
# maps it the same way for the same kernel and arguments).
PTR_ACCESS_CHAIN = """\
               OpCapability Shader
               OpCapability PhysicalStorageBufferAddresses
               OpCapability VariablePointersStorageBuffer
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpEntryPoint GLCompute %main "main" %gid %buf %pc
               OpExecutionMode %main LocalSize 64 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %rta ArrayStride 4
               OpMemberDecorate %SB 0 Offset 0
               OpDecorate %SB Block
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
               OpDecorate %sb_float ArrayStride 4
               OpDecorate %psb_float ArrayStride 4
               OpDecorate %psb_S ArrayStride 8
               OpMemberDecorate %S 0 Offset 0
               OpMemberDecorate %S 1 Offset 4
               OpMemberDecorate %PC 0 Offset 0
               OpMemberDecorate %PC 1 Offset 8
               OpMemberDecorate %PC 2 Offset 16
               OpDecorate %PC Block
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
      %float = OpTypeFloat 32
     %v3uint = OpTypeVector %uint 3
      %in_v3 = OpTypePointer Input %v3uint
        %gid = OpVariable %in_v3 Input
    %in_uint = OpTypePointer Input %uint
        %rta = OpTypeRuntimeArray %float
         %SB = OpTypeStruct %rta
      %sb_SB = OpTypePointer StorageBuffer %SB
        %buf = OpVariable %sb_SB StorageBuffer
   %sb_float = OpTypePointer StorageBuffer %float
          %S = OpTypeStruct %float %uint
  %psb_float = OpTypePointer PhysicalStorageBuffer %float
      %psb_S = OpTypePointer PhysicalStorageBuffer %S
   %psb_uint = OpTypePointer PhysicalStorageBuffer %uint
         %PC = OpTypeStruct %psb_float %psb_S %uint
       %bool = OpTypeBool
    %pc_uint = OpTypePointer PushConstant %uint
      %pc_PC = OpTypePointer PushConstant %PC
         %pc = OpVariable %pc_PC PushConstant
%pc_psb_float = OpTypePointer PushConstant %psb_float
   %pc_psb_S = OpTypePointer PushConstant %psb_S
         %u0 = OpConstant %uint 0
        %u64 = OpConstant %uint 64
       %u128 = OpConstant %uint 128
         %i0 = OpConstant %int 0
         %i1 = OpConstant %int 1
        %im1 = OpConstant %int -1
        %im3 = OpConstant %int -3
         %i2 = OpConstant %int 2
       %main = OpFunction %void None %fn
          %l = OpLabel
      %modep = OpAccessChain %pc_uint %pc %i2
       %mode = OpLoad %uint %modep
         %go = OpINotEqual %bool %mode %u0
               OpSelectionMerge %end None
               OpBranchConditional %go %body %end
       %body = OpLabel
       %gx_p = OpAccessChain %in_uint %gid %u0
          %i = OpLoad %uint %gx_p
          %e = OpAccessChain %sb_float %buf %i0 %i
         %en = OpPtrAccessChain %sb_float %e %i1
          %x = OpLoad %float %en
         %ew = OpPtrAccessChain %sb_float %e %u128
         %x2 = OpFAdd %float %x %x
               OpStore %ew %x2
       %srcp = OpAccessChain %pc_psb_float %pc %i0
        %src = OpLoad %psb_float %srcp
       %i64p = OpIAdd %uint %i %u64
         %s1 = OpPtrAccessChain %psb_float %src %i64p
         %s2 = OpPtrAccessChain %psb_float %s1 %im3
          %y = OpLoad %float %s2 Aligned 4
        %sum = OpFAdd %float %x %y
       %dstp = OpAccessChain %pc_psb_S %pc %i1
        %dst = OpLoad %psb_S %dstp
         %da = OpPtrAccessChain %psb_float %dst %i %i0
               OpStore %da %sum Aligned 4
         %db = OpPtrAccessChain %psb_uint %dst %i %i1
               OpStore %db %i Aligned 4
               OpBranch %end
        %end = OpLabel
               OpReturn
               OpFunctionEnd
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_ptr_access_chain(wave: int) -> None:
    spv = spirv_tools.assemble(PTR_ACCESS_CHAIN, "vulkan1.2")
    assert spirv_tools.validate(spv, "vulkan1.2").ok
    res = compile_spirv(spv, wave_size=wave, debug_options=CHECKED)
    x = np.arange(384, dtype=np.float32) * 0.25 + 1
    bufs = {(0, 0): x}
    _, first = run_compiled(res, (1, 1, 1), bufs, bytes(20))
    base = first.addresses[binding_name((0, 0))]
    out, run = run_compiled(res, (1, 1, 1), bufs, struct.pack("<QQI", base, base + 1024, 1))
    assert not run.violations
    y = np.frombuffer(out[(0, 0)], np.float32)
    t = np.arange(64)
    want = x.copy()
    want[128:192] = 2 * x[1:65]
    dst = want[256:384].view(np.uint32).reshape(64, 2)
    dst[:, 0] = (x[t + 1] + x[t + 61]).view(np.uint32)
    dst[:, 1] = t
    assert y.view(np.uint32).tolist() == want.view(np.uint32).tolist()


# OpSDotAccSat / OpUDotAccSat / OpSUDotAccSat (llama.cpp's and ncnn's int8 shaders): the
# GLSL computes (a ^ b) + c, (a | b) + c, (a & b) + c and each addition becomes the
# accumulating dot of the xor/or/and's operands with c as the Accumulator.
INT_DOT_ACC = """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 0, binding = 2) readonly buffer C { uint c[]; };
layout(set = 0, binding = 3) writeonly buffer O { uint o[]; };
void main() {
    uint t = gl_LocalInvocationID.x;
    o[3u * t] = (a[t] ^ b[t]) + c[t];
    o[3u * t + 1u] = (a[t] | b[t]) + c[t];
    o[3u * t + 2u] = (a[t] & b[t]) + c[t];
}
"""


def _int_dot_acc_module() -> bytes:
    spv = glsl_to_spirv(INT_DOT_ACC, "vulkan1.2")
    text = subprocess.run(["spirv-dis", "--raw-id", "-"], input=spv,
                          capture_output=True, check=True).stdout.decode()
    text = text.replace("OpCapability Shader", "OpCapability Shader\n"
                        "OpCapability DotProduct\nOpCapability DotProductInput4x8BitPacked\n"
                        "OpExtension \"SPV_KHR_integer_dot_product\"", 1)
    lines = text.splitlines()
    for old, new in (("OpBitwiseXor", "OpSDotAccSat"), ("OpBitwiseOr", "OpUDotAccSat"),
                     ("OpBitwiseAnd", "OpSUDotAccSat")):
        k = next(i for i, ln in enumerate(lines) if old in ln)
        res, _, _, _, x, y = lines[k].split()
        j = next(i for i in range(k + 1, len(lines))
                 if "OpIAdd" in lines[i] and res in lines[i].split())
        dst, _, _, ty, lhs, rhs = lines[j].split()
        acc = rhs if lhs == res else lhs
        lines[j] = f"{dst} = {new} {ty} {x} {y} {acc} PackedVectorFormat4x8Bit"
    data = spirv_tools.assemble("\n".join(lines) + "\n", "vulkan1.2")
    assert spirv_tools.validate(data, "vulkan1.2").ok
    return data


@pytest.mark.parametrize("wave", [32, 64])
def test_integer_dot_products_accumulating_with_saturation(wave: int) -> None:
    rng = np.random.default_rng(13)
    a = rng.integers(0, 1 << 32, 64, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 1 << 32, 64, dtype=np.uint64).astype(np.uint32)
    # accumulators at and near both ends of the signed and unsigned ranges, and inside
    edge = np.array([0x7FFFFFFF, 0x7FFF0000, 0x80000000, 0x80010000, 0xFFFFFFFF,
                     0xFFFF0000, 0, 5], np.uint32)
    c = np.concatenate([np.repeat(edge, 4),
                        rng.integers(0, 1 << 32, 32, dtype=np.uint64).astype(np.uint32)])
    out = run_compute(_int_dot_acc_module(),
                      buffers={(0, 0): a, (0, 1): b, (0, 2): c, (0, 3): 64 * 12},
                      wave_size=wave, debug_options=CHECKED)
    got = np.frombuffer(out[(0, 3)], np.uint32).reshape(64, 3).astype(np.int64)
    sa, ua = a.view(np.int8).reshape(64, 4).astype(np.int64), \
        a.view(np.uint8).reshape(64, 4).astype(np.int64)
    sb, ub = b.view(np.int8).reshape(64, 4).astype(np.int64), \
        b.view(np.uint8).reshape(64, 4).astype(np.int64)
    sc, uc = c.view(np.int32).astype(np.int64), c.astype(np.int64)
    s_sat = np.clip((sa * sb).sum(1) + sc, -(1 << 31), (1 << 31) - 1) & 0xFFFFFFFF
    u_sat = np.clip((ua * ub).sum(1) + uc, 0, (1 << 32) - 1)
    su_sat = np.clip((sa * ub).sum(1) + sc, -(1 << 31), (1 << 31) - 1) & 0xFFFFFFFF
    want = np.stack([s_sat, u_sat, su_sat], 1)
    assert got.tolist() == want.tolist()
    assert (u_sat == 0xFFFFFFFF).any() and (s_sat == 0x7FFFFFFF).any() \
        and (s_sat == 0x80000000).any()  # saturation was exercised


# SPV_VALVE_mixed_float_dot_product (llama.cpp's `_dot2` matmul and flash-attention
# shaders declare v_dot2_f32_f16 with GL_EXT_spirv_intrinsics): the f16 products are
# exact in f32, so C + A.x*B.x + A.y*B.y rounded after each addition is NumPy's float32.
DOT2 = """#version 450
#extension GL_EXT_spirv_intrinsics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
spirv_instruction(extensions = ["SPV_VALVE_mixed_float_dot_product"],
                  capabilities = [6912], id = 6916)
float dot2_f32(f16vec2 a, f16vec2 b, float acc);
spirv_instruction(extensions = ["SPV_VALVE_mixed_float_dot_product"],
                  capabilities = [6913], id = 6917)
float16_t dot2_f16(f16vec2 a, f16vec2 b, float16_t acc);
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { f16vec2 a[]; };
layout(set = 0, binding = 1) readonly buffer B { f16vec2 b[]; };
layout(set = 0, binding = 2) readonly buffer C { float c[]; };
layout(set = 0, binding = 3) writeonly buffer O { float o[]; };
layout(set = 0, binding = 4) writeonly buffer H { float16_t h[]; };
void main() {
    uint t = gl_LocalInvocationID.x;
    o[t] = dot2_f32(a[t], b[t], c[t]);
    h[t] = dot2_f16(a[t], b[t], float16_t(c[t]));
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_valve_mixed_float_dot(wave: int) -> None:
    rng = np.random.default_rng(13)
    a = rng.standard_normal((64, 2)).astype(np.float16)
    b = rng.standard_normal((64, 2)).astype(np.float16)
    c = rng.standard_normal(64).astype(np.float32)
    spv = glsl_to_spirv(DOT2, "vulkan1.2")
    # the installed spirv-val predates the extension: skipped for this module, not failed
    compile_spirv(spv, wave_size=wave, spirv_val=True)
    out = run_compute(spv, buffers={(0, 0): a, (0, 1): b, (0, 2): c, (0, 3): 64 * 4,
                                    (0, 4): 64 * 2}, wave_size=wave, debug_options=CHECKED)
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    want = (c + a32[:, 0] * b32[:, 0]) + a32[:, 1] * b32[:, 1]
    assert np.frombuffer(out[(0, 3)], np.float32).tolist() == want.tolist()
    c16 = c.astype(np.float16).astype(np.float32)
    want16 = ((c16 + a32[:, 0] * b32[:, 0]) + a32[:, 1] * b32[:, 1]).astype(np.float16)
    assert np.frombuffer(out[(0, 4)], np.float16).tolist() == want16.tolist()


def test_buffer_device_address_pointer_loads_aligned_4_are_a_warning() -> None:
    """glslang 12 gives the load of a PhysicalStorageBuffer pointer from memory Aligned 4,
    which newer validators reject (VUID-StandaloneSpirv-PhysicalStorageBuffer64-06314:
    the pointer is 8 bytes): radcc compiles it (as real drivers do) with a warning at the
    load's word offset; an Aligned below a scalar's size stays an error
    (tests/fuzz/corpus/spirv/5c0b5721b718.spv)."""
    from radcc.frontend.spirv.reader import read_spirv
    from radcc.frontend.spirv.validate import validate_module

    spv = glsl_to_spirv(BDA, "vulkan1.2")
    warnings = validate_module(read_spirv(spv))
    msgs = [w.render("bda.spv") for w in warnings]
    assert msgs and all("06314" in m and ": warning: OpLoad: Aligned 4" in m for m in msgs), msgs
    words = np.frombuffer(spv, np.uint32)
    for w in warnings:  # each names an OpLoad (opcode 61) with Aligned 4 (mask bit 2)
        head = int(words[w.word_offset])
        assert head & 0xFFFF == 61 and int(words[w.word_offset + 4]) & 2
        assert int(words[w.word_offset + 5]) == 4


# `[[unroll]] for (i = 0; i < TM * TN; i++)` over a local array after spirv-opt -O (as
# llama.cpp's matmuls are built): the loop header branches straight to the continue
# target, which holds the body. lower_continue_constructs left the construct behind
# an `if (c) {body; continue} else {break}`, so loop_unroll saw no trip count and the
# array's dynamic index became 16-way select chains (matmul_q1_0_f32_f16acc: 1399
# instructions against ACO's 881 in wave64). Now dead_branch rewrites the shape to
# `if (c) {} else {break}; body` and the three constant loops are unrolled.
UNROLL_CONTINUE = """#version 450
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { vec2 d[]; };
layout(constant_id = 0) const uint TM = 4;
layout(constant_id = 1) const uint TN = 2;
layout(push_constant) uniform P { uint n; } p;
void main() {
    vec2 sums[TM * TN];
    [[unroll]] for (uint i = 0; i < TM * TN; i++) { sums[i] = vec2(0); }
    for (uint k = 0; k < p.n; k++) {
        [[unroll]] for (uint i = 0; i < TM * TN; i++) { sums[i] += d[k * 8 + i] * float(i + 1); }
    }
    [[unroll]] for (uint i = 0; i < TM * TN; i++) { d[64 + gl_GlobalInvocationID.x * 8 + i] = sums[i]; }
}
"""


def test_spirv_opt_unroll_loops_are_unrolled() -> None:
    from radcc.frontend.mir import Loop, iter_nodes

    spv = _optimized(glsl_to_spirv(UNROLL_CONTINUE))
    shader = spirv_to_mir(spv)
    lower_for_isel(shader, get_target(DEFAULT_MCPU).mir_options)
    loops = [n for n in iter_nodes(shader.function.body) if isinstance(n, Loop)]
    assert len(loops) == 1  # the k loop, whose trip count is a push constant


@pytest.mark.parametrize("wave", [32, 64])
def test_spirv_opt_unroll_loops_run_right(wave: int) -> None:
    spv = _optimized(glsl_to_spirv(UNROLL_CONTINUE))
    d = np.random.default_rng(4).standard_normal(64 * 2 + 64 * 8 * 2).astype(np.float32)
    n = 5
    out = run_compute(spv, buffers={(0, 0): d}, push_constants=struct.pack("<I", n),
                      wave_size=wave, debug_options=CHECKED)
    got = np.frombuffer(out[(0, 0)], np.float32).reshape(-1, 2)
    src = d.reshape(-1, 2)
    sums = np.zeros((8, 2), np.float32)
    for k in range(n):
        for i in range(8):
            sums[i] += src[k * 8 + i] * np.float32(i + 1)
    want = src.copy()
    want[64:64 + 64 * 8] = np.tile(sums, (64, 1))
    np.testing.assert_allclose(got, want, rtol=1e-6)

