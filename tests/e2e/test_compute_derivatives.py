"""Derivatives and implicit-LOD sampling in compute shaders (issue 11;
SPV_KHR_compute_shader_derivatives, VK_KHR_compute_shader_derivatives): the
DerivativeGroupQuadsKHR and DerivativeGroupLinearKHR execution modes in the strict
emulator, wave32 and wave64, against NumPy models of the SPIR-V rules.

The extension's rules: with DerivativeGroupQuadsKHR each derivative group (a quad) is the
2x2 block of local ids (2m+{0,1}, 2n+{0,1}) (so the workgroup's width and height are even);
with DerivativeGroupLinearKHR it is local invocation indices 4m+{0,1,2,3} (a multiple of 4
invocations), 4m+0 the top left, +1 the top right, +2 the bottom left, +3 the bottom right,
as the quads of subgroup quad operations. The NumPy model of a quad's derivatives is the
fragment tests' (`test_cube_implicit_lod`, `test_images._np_lod_sample`): fine dFdx/dFdy
the differences along the invocation's row/column of its quad, coarse ones the quad's
top-left row/column for all four, the implicit level log2 of the longer of the scaled
coarse gradients, then the Vulkan spec's level selection and trilinear filter. The output
also holds each invocation's LocalInvocationId/Index, checked against the spec's formulas
(index = x + y * width + z * width * height, every id once) and the subgroup id (one quad
one wave).

Lavapipe is not an oracle here: Mesa 22.3.6's lavapipe (this VM's) lacks
VK_NV/KHR_compute_shader_derivatives. glslang 12 knows only GL_NV_compute_shader_derivatives,
whose SPIR-V (ComputeDerivativeGroupQuadsNV ...) is the KHR capabilities' other spelling;
the KHR extension string is tested by rewriting the OpExtension (same word count)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.e2e.test_images import _MipSampler, _np_lod_sample
from tests.oracle.conftest import compile_glsl

SRC = """#version 450
#extension GL_NV_compute_shader_derivatives : require
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = SX, local_size_y = SY, local_size_z = SZ) in;
layout(derivative_group_MODENV) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) buffer B { float o[]; };
void main() {
    vec3 g = vec3(gl_GlobalInvocationID);
    float u = (g.x + 0.37) * (0.02 + 0.03 * g.y) + 0.1 * g.z;
    float v = (g.y + 0.61) * (0.03 + 0.002 * g.x) * (1.0 + 3.0 * g.z);
    uint wg = gl_WorkGroupID.x + gl_NumWorkGroups.x * gl_WorkGroupID.y;
    uint n = NINVu;
    uint i = 16u * (gl_LocalInvocationIndex + n * wg);
    o[i] = float(gl_LocalInvocationID.x);
    o[i + 1u] = float(gl_LocalInvocationID.y);
    o[i + 2u] = float(gl_LocalInvocationID.z);
    o[i + 3u] = float(gl_LocalInvocationIndex);
    o[i + 4u] = dFdxFine(u);
    o[i + 5u] = dFdyFine(u);
    o[i + 6u] = dFdxCoarse(u);
    o[i + 7u] = dFdyCoarse(u);
    o[i + 8u] = dFdx(v);
    o[i + 9u] = fwidth(v);
    o[i + 10u] = float(gl_SubgroupID);
    o[i + 11u] = 0.0;
    vec4 t = texture(tex, vec2(u, v));
    o[i + 12u] = t.x;
    o[i + 13u] = t.y;
    o[i + 14u] = t.z;
    o[i + 15u] = t.w;
}
"""
GROUPS = (2, 2)
TEX = 32  # the texture's size (6 levels)


def _spirv(mode: str, size: tuple[int, int, int]) -> bytes:
    src = SRC.replace("MODE", mode).replace("NINV", str(size[0] * size[1] * size[2]))
    for k, name in enumerate(("SX", "SY", "SZ")):
        src = src.replace(f"= {name}", f"= {size[k]}")
    return compile_glsl(src)


def _uv(gx: np.ndarray, gy: np.ndarray, gz: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    f = np.float32
    x, y, z = (a.astype(np.float32) for a in (gx, gy, gz))
    u = (x + f(0.37)) * (f(0.02) + f(0.03) * y) + f(0.1) * z
    v = (y + f(0.61)) * (f(0.03) + f(0.002) * x) * (f(1.0) + f(3.0) * z)
    return u.astype(np.float64), v.astype(np.float64)


def _quads(mode: str, size: tuple[int, int, int]) -> np.ndarray:
    """(invocation rows of the output, 4): each output row's quad as output rows in the
    order top-left, top-right, bottom-left, bottom-right (the extension's grouping)."""
    sx, sy, sz = size
    n = sx * sy * sz
    out = np.zeros((n * GROUPS[0] * GROUPS[1], 4), int)
    for wg in range(GROUPS[0] * GROUPS[1]):
        for i in range(n):
            x, y, z = i % sx, i // sx % sy, i // (sx * sy)
            if mode == "quads":
                xb, yb = x & ~1, y & ~1
                quad = [xb + yb * sx + z * sx * sy + d for d in (0, 1, sx, sx + 1)]
            else:
                quad = [(i & ~3) + d for d in range(4)]
            out[wg * n + i] = [wg * n + q for q in quad]
    return out


def _levels(rng: np.random.Generator) -> list[np.ndarray]:
    return [rng.uniform(0, 1, (TEX >> m, TEX >> m, 4)).astype(np.float32) for m in range(6)]


def _run(mode: str, size: tuple[int, int, int], wave: int, levels: list[np.ndarray]
         ) -> np.ndarray:
    from radcc.driver.compile import compile_spirv
    from radcc.driver.run import run_compiled
    from radcc.emu.api import Image
    from radcc.emu.texture import BILINEAR, SamplerDesc

    cr = compile_spirv(_spirv(mode, size), wave_size=wave)
    assert "image_sample " in cr.asm  # the implicit level (no _l/_lz/_d)
    n = size[0] * size[1] * size[2] * GROUPS[0] * GROUPS[1]
    smp = SamplerDesc(mag_filter=BILINEAR, min_filter=BILINEAR, mip_filter=2,
                      max_lod=15 * 256)
    out, run = run_compiled(
        cr, (*GROUPS, 1), {(0, 1): np.zeros(16 * n, np.float32)},
        images={(0, 0): Image(levels[0], "32_32_32_32_FLOAT", mips=tuple(levels[1:]))},
        samplers={(0, 0): smp})
    assert not run.violations, run.violations[:3]
    return np.frombuffer(out[(0, 1)], np.float32).reshape(n, 16).astype(np.float64)


CONFIGS = [("quads", (8, 4, 1)), ("quads", (6, 4, 2)), ("quads", (2, 2, 1)),
           ("linear", (16, 2, 1)), ("linear", (12, 1, 1))]


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize(("mode", "size"), CONFIGS)
def test_compute_derivatives_and_implicit_lod(mode: str, size: tuple[int, int, int],
                                              wave: int) -> None:
    rng = np.random.default_rng(size[0] * 7 + size[2])
    levels = _levels(rng)
    got = _run(mode, size, wave, levels)
    sx, sy, sz = size
    n = sx * sy * sz
    # the ids: the spec's index formula, every local id once per workgroup
    lx, ly, lz, li = (got[:, k].astype(int) for k in range(4))
    assert (li == lx + ly * sx + lz * sx * sy).all()
    assert (li == np.tile(np.arange(n), GROUPS[0] * GROUPS[1])).all()
    # the values each invocation's u, v are of (its global id, from the row)
    wg = np.arange(len(got)) // n
    gx, gy = (wg % GROUPS[0]) * sx + lx, (wg // GROUPS[0]) * sy + ly
    u, v = _uv(gx, gy, lz)
    quads = _quads(mode, size)
    tl, tr, bl, br = (quads[:, k] for k in range(4))
    pos = np.zeros(len(got), int)  # each row's place in its quad
    for k in range(4):
        pos[quads[:, k] == np.arange(len(got))] = k
    right, bottom = pos % 2 == 1, pos >= 2
    dxf = np.where(bottom, u[br] - u[bl], u[tr] - u[tl])
    dyf = np.where(right, u[br] - u[tr], u[bl] - u[tl])
    dxc, dyc = u[tr] - u[tl], u[bl] - u[tl]
    tol = 2e-5
    for k, want in ((4, dxf), (5, dyf), (6, dxc), (7, dyc)):
        assert np.abs(got[:, k] - want).max() < tol, (k, np.abs(got[:, k] - want).max())
    # dFdx / fwidth: fine or coarse (the implementation's choice), one of them everywhere
    vdx = {"fine": np.where(bottom, v[br] - v[bl], v[tr] - v[tl]), "coarse": v[tr] - v[tl]}
    vdy = {"fine": np.where(right, v[br] - v[tr], v[bl] - v[tl]), "coarse": v[bl] - v[tl]}
    assert any(np.abs(got[:, 8] - vdx[k]).max() < tol and
               np.abs(got[:, 9] - (np.abs(vdx[k]) + np.abs(vdy[k]))).max() < tol
               for k in ("fine", "coarse"))
    # one quad, one subgroup; a subgroup at most a wave
    sg = got[:, 10].astype(int)
    assert (sg[tl] == sg[tr]).all() and (sg[tl] == sg[bl]).all() and (sg[tl] == sg[br]).all()
    assert np.bincount(sg + wg * 64).max() <= wave
    # texture(): the level from the quad's coarse gradients (the texture unit's: lanes 1
    # and 2 minus lane 0), trilinear
    rho = np.maximum(np.hypot(dxc * TEX, (v[tr] - v[tl]) * TEX),
                     np.hypot(dyc * TEX, (v[bl] - v[tl]) * TEX))
    lam = np.log2(np.maximum(rho, 1e-30))
    want = _np_lod_sample(levels, _MipSampler(1, 1, 2), u, v, lam)
    d = np.abs(got[:, 12:] - want)
    assert d.max() < 2e-4, f"max {d.max():.3g} at row {d.max(axis=1).argmax()}"
    level0 = _np_lod_sample(levels, _MipSampler(1, 1, 2), u, v, np.zeros_like(lam))
    assert np.abs(got[:, 12:] - level0).max() > 0.05  # (the levels matter)
    assert lam.max() > 1 and lam.min() < 0.5, (lam.min(), lam.max())


def _words(spirv: bytes) -> list[int]:
    return list(np.frombuffer(spirv, np.uint32))


def _instructions(words: list[int]) -> list[tuple[int, int]]:
    """(word offset, word count) of each instruction after the header."""
    out, k = [], 5
    while k < len(words):
        out.append((k, words[k] >> 16))
        k += words[k] >> 16
    return out


def _edit(spirv: bytes, opcode: int, first: int, new: list[int] | None) -> bytes:
    """The module with the instruction of `opcode` whose operand 1 is `first` replaced by
    `new`'s operands (None: removed)."""
    w = _words(spirv)
    for k, n in _instructions(w):
        if w[k] & 0xFFFF == opcode and n > 2 and w[k + 2] == first:
            rep = [] if new is None else [(len(new) + 1) << 16 | opcode, *new]
            return np.array(w[:k] + rep + w[k + n:], np.uint32).tobytes()
    raise AssertionError("no such instruction")


_OP_EXECUTION_MODE, _LOCAL_SIZE, _QUADS, _LINEAR = 16, 17, 5289, 5290


def _local_size(spirv: bytes, size: tuple[int, int, int]) -> bytes:
    """The module with LocalSize `size` and without glslang's BuiltIn WorkgroupSize
    decoration (its constant would win)."""
    w = _words(spirv)
    entry = next(w[k + 1] for k, _ in _instructions(w) if w[k] & 0xFFFF == _OP_EXECUTION_MODE)
    out = _words(_edit(spirv, _OP_EXECUTION_MODE, _LOCAL_SIZE, [entry, _LOCAL_SIZE, *size]))
    keep = [w_ for k, n in _instructions(out) if out[k] != (4 << 16 | 71) or
            out[k + 2:k + 4] != [11, 25] for w_ in out[k:k + n]]
    return np.array(out[:5] + keep, np.uint32).tobytes()


def test_khr_spelling_is_the_same_capability() -> None:
    """A module naming SPV_KHR_compute_shader_derivatives (its capabilities and modes are
    the NV ones' values) compiles to the same code; the reader's capability names accept
    both spellings, and an NVIDIA-only capability is still refused as one."""
    from radcc.driver.compile import compile_spirv
    from radcc.frontend.spirv import capabilities, grammar

    nv = _spirv("quads", (8, 4, 1))
    khr = nv.replace(b"SPV_NV_compute_shader_derivatives\0\0\0",
                     b"SPV_KHR_compute_shader_derivatives\0\0")
    assert khr != nv and len(khr) == len(nv)
    assert compile_spirv(khr).asm == compile_spirv(nv).asm
    for name in ("ComputeDerivativeGroupQuadsKHR", "ComputeDerivativeGroupLinearKHR",
                 "ComputeDerivativeGroupQuadsNV", "ComputeDerivativeGroupLinearNV"):
        assert capabilities.unsupported_reason(name) is None, name
    assert grammar.enum_value("Capability", "ComputeDerivativeGroupQuadsKHR") == 5288
    assert grammar.enum_value("ExecutionMode", "DerivativeGroupLinearKHR") == _LINEAR
    assert capabilities.unsupported_reason("ShaderSMBuiltinsNV") == "NVIDIA-only feature"


@pytest.mark.parametrize(("mode", "size", "message"), [
    ("quads", (3, 4, 1), "workgroup size 3x4x1: the DerivativeGroupQuadsKHR execution mode "
                         "needs an even width and height"),
    ("quads", (4, 5, 1), "workgroup size 4x5x1: the DerivativeGroupQuadsKHR"),
    ("linear", (6, 1, 1), "workgroup size 6x1x1: the DerivativeGroupLinearKHR execution mode "
                          "needs a multiple of 4 invocations"),
])
def test_workgroup_size_the_mode_needs(mode: str, size: tuple[int, int, int],
                                       message: str) -> None:
    """The extension's workgroup rules (a quads group's width and height even, a linear
    group's invocation count a multiple of 4): the LocalSize of a valid module changed."""
    from radcc.driver.compile import compile_spirv
    from radcc.frontend.spirv import SpirvError

    bad = _local_size(_spirv(mode, (8, 4, 1)), size)
    with pytest.raises(SpirvError, match=message):
        compile_spirv(bad)


@pytest.mark.parametrize("what", ["OpDPdxFine", "implicit-LOD sampling"])
def test_no_derivatives_without_the_mode(what: str) -> None:
    """Without a derivative-group mode a compute shader's derivatives and implicit-LOD
    sampling are refused by name, the message naming the modes (not "NVIDIA-only")."""
    from radcc.driver.compile import compile_spirv
    from radcc.frontend.spirv import SpirvError

    bad = _edit(_spirv("quads", (8, 4, 1)), _OP_EXECUTION_MODE, _QUADS, None)
    if what != "OpDPdxFine":  # only the sample: the derivatives' stores removed
        src = SRC.replace("MODE", "quads").replace("= SX", "= 8").replace("= SY", "= 4")
        src = src.replace("NINV", "32")
        src = "\n".join(ln for ln in src.replace("= SZ", "= 1").splitlines()
                        if not any(f in ln for f in ("dFd", "fwidth")))
        bad = _edit(compile_glsl(src), _OP_EXECUTION_MODE, _QUADS, None)
    with pytest.raises(SpirvError, match=f"{what} outside a fragment shader or a "
                       "compute shader with the DerivativeGroupQuadsKHR or "
                       "DerivativeGroupLinearKHR execution mode"):
        compile_spirv(bad)


def test_quad_division_is_exact() -> None:
    """isel.sysval's q div h for a width that is not a power of two (the high half of
    q * ceil(2^32 / h)) over every q and h a workgroup can have (1024 invocations)."""
    for h in range(1, 513):
        m = -(-(1 << 32) // h)
        q = np.arange(256, dtype=np.uint64)
        assert ((q * np.uint64(m)) >> np.uint64(32) == q // np.uint64(h)).all(), h
