"""8/16-bit selection (radcc/isel/alu16.py, mem16.py, subgroup16.py) and divergent ifs
whose both sides jump (radcc/isel/cf.py): GLSL compiled by radcc, run in strict
radcc.emu (wave32 and wave64), against lavapipe (radcc.oracle.lavapipe) or NumPy.

Each shader computes every operation twice, on divergent values (VALU) and on
uniform ones (SALU, or VALU + p_as_uniform), so both selections are covered.
"""

from __future__ import annotations

import shutil
import struct

import numpy as np
import pytest

from radcc.oracle import spirv_tools

pytestmark = pytest.mark.skipif(shutil.which("glslangValidator") is None,
                                reason="needs glslangValidator")

EXT = """#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
layout(local_size_x = 64) in;
"""

INT_OPS = EXT + """
layout(set=0, binding=0) readonly buffer A { int16_t a[]; };
layout(set=0, binding=1) readonly buffer B { uint8_t b[]; };
layout(set=0, binding=2) writeonly buffer O { int o[]; };
const uint N = 30u;
void ops(int16_t x, int16_t y, uint8_t p, uint8_t q, uint k) {
    o[k + 0u] = int(x + y); o[k + 1u] = int(x - y); o[k + 2u] = int(x * y);
    o[k + 3u] = int(x & y) ^ int(x | y) * 3 ^ int(x ^ y) * 7;
    o[k + 4u] = int(~x); o[k + 5u] = int(-x);
    o[k + 6u] = int(x << (y & int16_t(15))); o[k + 7u] = int(x >> (y & int16_t(15)));
    o[k + 8u] = int(uint16_t(x) >> (uint16_t(y) & uint16_t(15)));
    o[k + 9u] = int(min(x, y)) * 65536 + int(max(x, y));
    o[k + 10u] = int(min(uint16_t(x), uint16_t(y))) * 65536 + int(max(uint16_t(x), uint16_t(y)));
    o[k + 11u] = int(abs(x));
    o[k + 12u] = (x < y ? 1 : 0) | (x >= y ? 2 : 0) | (x == y ? 4 : 0) | (x != y ? 8 : 0)
        | (uint16_t(x) < uint16_t(y) ? 16 : 0) | (uint16_t(x) >= uint16_t(y) ? 32 : 0);
    o[k + 13u] = int(p + q); o[k + 14u] = int(uint8_t(p * q)); o[k + 15u] = int(p >> (q & uint8_t(7)));
    o[k + 16u] = int(int8_t(p) >> (q & uint8_t(7))); o[k + 17u] = int(uint8_t(p << (q & uint8_t(7))));
    o[k + 18u] = int(min(int8_t(p), int8_t(q))) * 256 + int(max(p, q));
    o[k + 19u] = (int8_t(p) < int8_t(q) ? 1 : 0) | (p < q ? 2 : 0) | (p == q ? 4 : 0);
    o[k + 20u] = int(int8_t(x));
    o[k + 21u] = int(uint16_t(int8_t(p)));
    o[k + 22u] = int(int64_t(x) >> 3);
    o[k + 23u] = int(uint64_t(uint8_t(x)) * 3ul);
    o[k + 24u] = int(float(x) * 2.0) + int(float(p)) + int(double(int8_t(q)) * 4.0lf);
    o[k + 25u] = int(x / (y | int16_t(1)));
    o[k + 26u] = int(p / (q | uint8_t(1)));
    o[k + 27u] = int(abs(int8_t(p & uint8_t(127)) - int8_t(64)));
    o[k + 28u] = int(uint16_t(x) * uint16_t(3)) + int(int16_t(int(y) * 5));
    int16_t acc = int16_t(0);
    for (uint j = 0u; j < (uint(p) & 7u); j++) acc += x;
    o[k + 29u] = int(acc);
}
void main() {
    uint i = gl_GlobalInvocationID.x, g = gl_WorkGroupID.x;
    ops(a[i], a[i + 256u], b[i], b[i + 256u], 2u * N * i);
    ops(a[g], a[g + 1u], b[g], b[g + 1u], 2u * N * i + N);
}
"""

F16_OPS = EXT + """
layout(set=0, binding=0) readonly buffer A { float16_t a[]; };
layout(set=0, binding=1) writeonly buffer O { float16_t o[]; };
layout(set=0, binding=2) writeonly buffer P { int p[]; };
const uint N = 24u, M = 8u;
void ops(float16_t x, float16_t y, float16_t z, uint k, uint m) {
    o[k + 0u] = x + y; o[k + 1u] = x - y; o[k + 2u] = x * y; o[k + 3u] = x / y;
    o[k + 4u] = fma(x, y, z); o[k + 5u] = min(x, y); o[k + 6u] = max(x, y);
    o[k + 7u] = abs(x); o[k + 8u] = -x; o[k + 9u] = floor(x); o[k + 10u] = ceil(x);
    o[k + 11u] = fract(x); o[k + 12u] = trunc(x); o[k + 13u] = roundEven(x);
    o[k + 14u] = clamp(x, float16_t(0.0), float16_t(1.0));
    o[k + 15u] = float16_t(float(x) * 3.0);
    o[k + 16u] = float16_t(int(y * float16_t(8.0)));
    o[k + 17u] = float16_t(uint(abs(y) * float16_t(8.0)));
    o[k + 18u] = int16BitsToFloat16(float16BitsToInt16(x) ^ int16_t(0x4000));
    o[k + 19u] = x < y ? x : z;
    o[k + 20u] = ldexp(x, int(m & 3u) - 1);
    o[k + 21u] = float16_t(int16_t(x * float16_t(100.0)));
    float16_t acc = float16_t(0.0);
    for (uint j = 0u; j < (m & 7u); j++) acc += x;
    o[k + 22u] = acc;
    o[k + 23u] = float16_t(double(y) * 0.25lf);
    p[m + 0u] = int(x * float16_t(10.0));
    p[m + 1u] = int(uint16_t(abs(y) * float16_t(100.0)));
    p[m + 2u] = int(int8_t(z * float16_t(4.0)));
    p[m + 3u] = (x < y ? 1 : 0) | (x >= y ? 2 : 0) | (x == y ? 4 : 0) | (x != y ? 8 : 0);
    p[m + 4u] = int(float(x) * 1000.0);
    p[m + 5u] = int(double(y) * 1000.0lf);
    p[m + 6u] = int(float16BitsToUint16(z));
    p[m + 7u] = isinf(x * float16_t(10000.0)) ? 1 : 0;
}
void main() {
    uint i = gl_GlobalInvocationID.x, g = gl_WorkGroupID.x;
    ops(a[i], a[i + 256u], a[i + 512u], 2u * N * i, 2u * M * i);
    ops(a[g], a[g + 1u], a[g + 2u], 2u * N * i + N, 2u * M * i + M);
}
"""

F64_TO_F16 = EXT + """
layout(set=0, binding=0) readonly buffer D { double d[]; };
layout(set=0, binding=1) writeonly buffer O { float16_t o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[2u * i] = float16_t(d[i]);
    o[2u * i + 1u] = float16_t(d[gl_WorkGroupID.x]);
}
"""

MEMORY = EXT + """
layout(set=0, binding=0) readonly buffer A { uint8_t a8[]; };
layout(set=0, binding=1) readonly buffer B { uint16_t a16[]; };
layout(set=0, binding=2) buffer O8 { uint8_t o8[]; };
layout(set=0, binding=3) buffer O16 { uint16_t o16[]; };
layout(push_constant) uniform P { uint8_t p8; int8_t q8; uint16_t p16; int16_t q16; float16_t h; } pc;
shared uint8_t s8[64];
shared int16_t s16[65];
void main() {
    uint i = gl_LocalInvocationID.x, g = gl_GlobalInvocationID.x, w = gl_WorkGroupID.x;
    s8[63u - i] = a8[g] + pc.p8;
    s16[i + 1u] = int16_t(a16[g]) + pc.q16;
    if (i == 0u) s16[0] = pc.q16 + int16_t(w);
    barrier();
    o8[3u * g] = s8[i];
    o8[3u * g + 1u] = s8[w + 5u] ^ a8[w * 7u];
    o8[3u * g + 2u] = uint8_t(pc.q8) + a8[w * 7u + 1u];
    o16[2u * g] = uint16_t(s16[i]) ^ pc.p16;
    o16[2u * g + 1u] = a16[w + 3u] + float16BitsToUint16(pc.h) + uint16_t(s16[w]);
    if (i == 7u) o16[512u + w] = uint16_t(pc.p16 * uint16_t(w + 1u));
}
"""

SUBGROUP = EXT + """
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_EXT_shader_subgroup_extended_types_int8 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
layout(set=0, binding=0) readonly buffer A { uint a[]; };
layout(set=0, binding=1) writeonly buffer O { int o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x, v = a[i];
    uint8_t b = uint8_t(v); int16_t h = int16_t(v >> 8); float16_t f = float16_t(float(v & 255u));
    uint k = 10u * i;
    o[k + 0u] = int(subgroupMax(b)); o[k + 1u] = int(subgroupMin(b)); o[k + 2u] = int(subgroupAdd(b));
    o[k + 3u] = int(subgroupMin(h)); o[k + 4u] = int(subgroupMax(h));
    o[k + 5u] = int(subgroupInclusiveAdd(h));
    o[k + 6u] = int(float(subgroupMax(f))) * 1000 + int(float(subgroupMin(f)));
    o[k + 7u] = int(subgroupBroadcast(h, 3u));
    o[k + 8u] = int(subgroupShuffle(b, (gl_SubgroupInvocationID + 5u) % gl_SubgroupSize));
    o[k + 9u] = subgroupAllEqual(uint8_t((v >> 8u) & 1u)) ? 1 : 0;
}
"""

CF_BOTH_JUMP = """#version 450
layout(local_size_x = 64) in;
layout(set=0, binding=0) readonly buffer A { uint a[]; };
layout(set=0, binding=1) buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x, v = a[i], r = 0u, q = 0u;
    for (uint k = 0u; k < v; k++) {
        r += k;
        if (((k + i) & 3u) == 1u) { r += 100u; break; } else { r ^= 5u; continue; }
    }
    for (uint k = 0u; k < 16u; k++) {
        if ((v + k) % 7u == 3u) break;
        r += k * v;
        if (((k ^ i) & 1u) == 0u) { if (r > 40u) { q += 1u; break; } else { r += 1u; continue; } }
        else { r ^= 3u; if (k == v) break; else continue; }
    }
    uint s = 0u;
    for (uint k = 0u; k < 20u; k++) {
        if ((v + k) % 5u == 0u) { s += 3u; if (s > 9u) break; else continue; }
        s += 1u;
    }
    o[3u * i] = r; o[3u * i + 1u] = q;
    if ((v & 1u) != 0u) { o[3u * i + 2u] = s; return; } else { o[3u * i + 2u] = s + 1000u; return; }
}
"""

_SPV: dict[str, bytes] = {}


def spirv(name: str, src: str, tmp_path_factory: pytest.TempPathFactory) -> bytes:
    if name not in _SPV:
        p = tmp_path_factory.mktemp("glsl") / f"{name}.comp"
        p.write_text(src)
        r = spirv_tools.compile_glsl(p, "vulkan1.1")
        assert r.ok, r.text
        _SPV[name] = r.data
    return _SPV[name]


def _radcc(spv: bytes, groups: tuple[int, int, int], buffers: dict, wave: int,
           push: bytes = b"", lowerings: set[str] | None = None) -> dict:
    from radcc.driver.compile import compile_spirv
    from radcc.driver.run import run_compiled

    res = compile_spirv(spv, wave_size=wave, mir_lowerings=lowerings)
    out, run = run_compiled(res, groups, {k: (v.copy() if isinstance(v, np.ndarray) else v)
                                          for k, v in buffers.items()}, push)
    assert not run.violations, run.violations[:3]
    return out


def _lavapipe(spv: bytes, groups: tuple[int, int, int], buffers: dict,
              push: bytes = b"") -> dict:
    from radcc.oracle.lavapipe import LavapipeError, run_compute

    try:
        return run_compute(spv, groups=groups, push_constants=push,
                           buffers={k: (v.copy() if isinstance(v, np.ndarray) else v)
                                    for k, v in buffers.items()})
    except LavapipeError as e:
        pytest.skip(f"lavapipe unavailable: {e}")


def _same(got: bytes, want: bytes, what: str) -> None:
    a, b = np.frombuffer(got, np.uint8), np.frombuffer(want, np.uint8)
    bad = np.flatnonzero(a != b)
    assert not len(bad), f"{what}: {len(bad)} bytes differ, first at {bad[:8]}"


RNG = np.random.default_rng(16)
WAVES = pytest.mark.parametrize("wave", [32, 64])


@WAVES
def test_int8_int16_arithmetic(wave: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    spv = spirv("small_int", INT_OPS, tmp_path_factory)
    a = RNG.integers(-30000, 30000, 512).astype(np.int16)
    a[:8] = [0, -1, 1, 32767 - 5, -30000, 15, 16, -16]
    b = RNG.integers(0, 256, 512).astype(np.uint8)
    bufs = {(0, 0): a, (0, 1): b, (0, 2): 4 * 60 * 256}
    want = _lavapipe(spv, (4, 1, 1), bufs)
    got = _radcc(spv, (4, 1, 1), bufs, wave)
    _same(got[(0, 2)], want[(0, 2)], "int ops")


@WAVES
def test_f16_arithmetic(wave: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    spv = spirv("small_f16", F16_OPS, tmp_path_factory)
    a = RNG.uniform(-8, 8, 768).astype(np.float16)
    a[256:512] = np.where(np.abs(a[256:512]) < 0.5, np.float16(0.75), a[256:512])  # divisors
    a[:4] = [0.5, 1.5, -2.5, 2.0]  # ties for roundEven
    bufs = {(0, 0): a, (0, 1): 2 * 48 * 256, (0, 2): 4 * 16 * 256}
    want = _lavapipe(spv, (4, 1, 1), bufs)
    got = _radcc(spv, (4, 1, 1), bufs, wave)
    g = np.frombuffer(got[(0, 1)], np.uint16).reshape(256, 2, 24)
    w = np.frombuffer(want[(0, 1)], np.uint16).reshape(256, 2, 24)
    # fma: lavapipe rounds the f16 product (GLSL allows a*b+c); radcc fuses (v_fma_f16)
    keep = [k for k in range(24) if k != 4]
    _same(g[:, :, keep].tobytes(), w[:, :, keep].tobytes(), "f16 results")
    _same(got[(0, 2)], want[(0, 2)], "int results")
    i = np.arange(256)
    for half, (x, y, z) in enumerate([(a[i], a[i + 256], a[i + 512]),
                                      (a[i // 64], a[i // 64 + 1], a[i // 64 + 2])]):
        exact = x.astype(np.float64) * y.astype(np.float64) + z.astype(np.float64)
        assert (g[:, half, 4] == exact.astype(np.float16).view(np.uint16)).all()


@WAVES
def test_f64_to_f16_rounds_once(wave: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Against NumPy: lavapipe rounds f64 -> f32 -> f16 (1 + 2^-11 + 2^-40 gives 1.0)."""
    spv = spirv("f64_to_f16", F64_TO_F16, tmp_path_factory)
    d = RNG.uniform(-70000, 70000, 128)
    ties = [1 + 2**-11 + 2**-40, 1 + 2**-11 - 2**-40, -(1 + 3 * 2**-11 + 2**-45),
            2**-14 * (1 + 2**-11 + 2**-30), 65520.0 - 2**-20, 65520.0, 1e-30, -0.0]
    d[:len(ties)] = ties
    got = _radcc(spv, (2, 1, 1), {(0, 0): d, (0, 1): 2 * 128 * 2}, wave)
    out = np.frombuffer(got[(0, 1)], np.uint16).reshape(-1, 2)
    with np.errstate(over="ignore"):
        want = d.astype(np.float16).view(np.uint16)
    assert (out[:, 0] == want).all()
    assert (out[:64, 1] == want[0]).all() and (out[64:, 1] == want[1]).all()


@WAVES
def test_sub_dword_memory(wave: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    spv = spirv("small_memory", MEMORY, tmp_path_factory)
    a8 = RNG.integers(0, 256, 256).astype(np.uint8)
    a16 = RNG.integers(0, 65536, 256).astype(np.uint16)
    push = struct.pack("<BbHhe", 200, -7, 0xBEEF, -1234, 1.5)
    bufs = {(0, 0): a8, (0, 1): a16, (0, 2): 3 * 256, (0, 3): 2 * 1040}
    want = _lavapipe(spv, (4, 1, 1), bufs, push)
    got = _radcc(spv, (4, 1, 1), bufs, wave, push)
    _same(got[(0, 2)], want[(0, 2)], "8-bit stores")
    _same(got[(0, 3)], want[(0, 3)], "16-bit stores")


@WAVES
def test_small_subgroup_ops(wave: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Against NumPy per subgroup of `wave` lanes (lavapipe's subgroups are smaller)."""
    spv = spirv("small_subgroup", SUBGROUP, tmp_path_factory)
    a = RNG.integers(0, 1 << 32, 128, dtype=np.uint64).astype(np.uint32)
    a[64:] |= 0x100  # the second workgroup: allEqual holds
    got = _radcc(spv, (2, 1, 1), {(0, 0): a, (0, 1): 4 * 10 * 128}, wave)
    o = np.frombuffer(got[(0, 1)], np.int32).reshape(-1, 10)
    for s in range(0, 128, wave):
        v = a[s:s + wave]
        b = (v & 0xFF).astype(np.int64)
        h = ((v >> 8) & 0xFFFF).astype(np.uint16).view(np.int16).astype(np.int64)
        f = (v & 255).astype(np.int64)
        rows = o[s:s + wave]
        assert (rows[:, 0] == b.max()).all() and (rows[:, 1] == b.min()).all()
        assert (rows[:, 2] == b.sum() % 256).all()
        assert (rows[:, 3] == h.min()).all() and (rows[:, 4] == h.max()).all()
        scan = (np.cumsum(h) & 0xFFFF).astype(np.uint16).view(np.int16)
        assert (rows[:, 5] == scan).all()
        assert (rows[:, 6] == f.max() * 1000 + f.min()).all()
        assert (rows[:, 7] == h[3]).all()
        assert (rows[:, 8] == b[(np.arange(wave) + 5) % wave]).all()
        assert (rows[:, 9] == int(len(set((v >> 8) & 1)) == 1)).all()


@WAVES
@pytest.mark.parametrize("lowered", [True, False], ids=["lower_for_isel", "raw"])
def test_divergent_if_both_sides_jump(wave: int, lowered: bool,
                                      tmp_path_factory: pytest.TempPathFactory) -> None:
    """break/continue/return on both sides of divergent ifs (cf.py: the endif has no
    logical predecessor, what follows is unreachable)."""
    spv = spirv("cf_both_jump", CF_BOTH_JUMP, tmp_path_factory)
    a = RNG.integers(0, 12, 256).astype(np.uint32)
    bufs = {(0, 0): a, (0, 1): 4 * 3 * 256}
    want = _lavapipe(spv, (4, 1, 1), bufs)
    got = _radcc(spv, (4, 1, 1), bufs, wave, lowerings=None if lowered else set())
    _same(got[(0, 1)], want[(0, 1)], "cf")
