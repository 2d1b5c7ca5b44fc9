"""A sweep of real-style image compute shaders (issue 11): tests/e2e/images/sweep/ holds
shaders written as applications write them (separable blurs, mip generation, Sobel, a
histogram with image atomics, tone mapping with sRGB, block-compression reads, bilinear
resize, bloom gathers, a 3-D LUT, volume ray marching, 3-D filtering, particles on texel
buffers, normal maps, integer morphology, cube-map convolution, shadow-map PCF). Each
runs in the strict emulator, wave32 and wave64, against lavapipe: integer outputs and
fetches exactly, outputs of bilinear filtering of 8-bit texels within the issue's
1.25/255 (lavapipe's 8-bit fixed-point weights) carried through the shader's arithmetic,
8-bit stores of computed values within one step, floats within a small tolerance. The
cube map and the depth-compare shaders, which lavapipe's runner refuses, are checked
against NumPy models instead.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.support.image_cases import ImageCase, check_vs_lavapipe, f32, push, u8
from tests.support.tools import glsl_file_spirv

HERE = Path(__file__).parent / "images" / "sweep"


# the 8-bit filtering tolerance the issue allows (1.25/255) in float and in 8-bit steps
F8 = 1.25 / 255
_FILTERED_U8 = 2.0  # 1.25 steps of filtering, then a rounding step of the store

CASES = [
    ImageCase("blur_h", (4, 4, 1),
              lambda rng: {(0, 0): (u8(rng, 32, 32, 4), None),
                           (0, 1): (np.zeros((32, 32, 4), np.uint8), None)},
              {(0, 0): "linear,clamp"}, push=push(1 / 32, 1 / 32), tol={(0, 1): _FILTERED_U8}),
    ImageCase("blur_v_shared", (8, 2, 1),
              lambda rng: {(0, 0): (f32(rng, -2, 2, 32, 32, 4), None),
                           (0, 1): (np.zeros((32, 32, 4), np.float32), None)},
              tol={(0, 1): 1e-5}),
    ImageCase("mipgen", (2, 2, 1),
              lambda rng: {(0, 0): (u8(rng, 32, 32, 4), None),
                           (0, 1): (np.zeros((16, 16, 4), np.float16), None),
                           (0, 2): (np.zeros((16, 16, 4), np.float32), None)},
              {(0, 0): "linear,clamp"}, tol={(0, 1): F8 + 1e-3, (0, 2): 1e-6}),
    ImageCase("sobel", (2, 4, 1),
              lambda rng: {(0, 0): (u8(rng, 16, 32, 4), None),
                           (0, 1): (np.zeros((16, 32, 2), np.float32), None),
                           (0, 2): (np.zeros((16, 32), np.uint8), "r8")},
              tol={(0, 1): 1e-5}),
    ImageCase("histogram", (2, 2, 1),
              lambda rng: {(0, 0): (u8(rng, 16, 16, 4), None),
                           (0, 1): (np.zeros((4, 64), np.uint32), None)}),
    ImageCase("tonemap", (2, 2, 1),
              lambda rng: {(0, 0): (f32(rng, -0.5, 6, 16, 16, 4).astype(np.float16), None),
                           (0, 1): (np.zeros((16, 16, 4), np.uint8), None),
                           (0, 2): (u8(rng, 16, 16, 4), "rgba8_srgb"),
                           (0, 3): (np.zeros((16, 16, 4), np.float32), None)},
              {(0, 2): "linear,clamp"}, push=push(1.3), tol={(0, 1): 1.0, (0, 3): 2 * F8}),
    ImageCase("bc1_encode", (2, 2, 1),
              lambda rng: {(0, 0): (u8(rng, 32, 32, 4), None),
                           (0, 1): (np.zeros((8, 8, 4), np.uint32), None)}),
    ImageCase("resize", (3, 2, 1),
              lambda rng: {(0, 0): (u8(rng, 24, 24, 4), None),
                           (0, 3): (np.zeros((14, 20, 4), np.uint8), None),
                           (0, 4): (np.zeros((14, 20, 4), np.uint8), None)},
              {(0, 1): "linear,clamp", (0, 2): "nearest,clamp"}, push=push(20, 14),
              tol={(0, 3): _FILTERED_U8}),
    ImageCase("raymarch3d", (2, 2, 1),
              lambda rng: {(0, 0): (u8(rng, 8, 8, 8, 4), None),
                           (0, 1): (np.zeros((16, 16, 4), np.float32), None)},
              {(0, 0): "linear,clamp"}, push=push(24, 4.0), tol={(0, 1): 0.02}),
    ImageCase("particles", (2, 1, 1),
              lambda rng: {(0, 0): (f32(rng, 0, 1, 128, 4), None),
                           (0, 1): (np.zeros((128, 4), np.float32), None),
                           (0, 2): (u8(rng, 16, 16, 4), None),
                           (0, 3): (np.zeros((8, 8), np.uint32), None)},
              {(0, 2): "nearest,repeat"}, push=push(0.05, 100), tol={(0, 1): 1e-5}),
    ImageCase("lut3d", (2, 2, 1),
              lambda rng: {(0, 0): (u8(rng, 16, 16, 4), None),
                           (0, 1): (f32(rng, 0, 1, 8, 8, 8, 4), None)},
              {(0, 1): "linear,clamp"}, push=push(0.75), tol={(0, 0): 1.0}),
    ImageCase("normals", (2, 2, 1),
              lambda rng: {(0, 0): (f32(rng, 0, 1, 18, 18), None),
                           (0, 1): (np.zeros((16, 16, 4), np.uint8), None)},
              buffers=lambda rng: {(0, 2): np.zeros(256, np.float32)}, push=push(4.0),
              tol={(0, 1): 1.0, (0, 2): 1e-6}),
    ImageCase("dilate_int", (2, 2, 1),
              lambda rng: {(0, 0): (rng.integers(0, 6, (16, 16), dtype=np.uint32), None),
                           (0, 1): (np.zeros((16, 16, 4), np.int32), None),
                           (0, 2): (np.zeros((1, 1), np.uint32), None)}),
    ImageCase("bloom_gather", (2, 2, 1),
              lambda rng: {(0, 0): (u8(rng, 32, 32, 4), None),
                           (0, 1): (np.zeros((16, 16, 4), np.float16), None)},
              {(0, 0): "linear,clamp"}, push=push(0.5), tol={(0, 1): 2e-3}),
    ImageCase("volume_slice", (2, 2, 2),
              lambda rng: {(0, 0): (f32(rng, -1, 3, 8, 8, 8), None),
                           (0, 1): (np.zeros((8, 8, 8), np.float32), None),
                           (0, 2): (np.zeros((8, 8), np.uint32), None)},
              tol={(0, 1): 1e-5}),
    ImageCase("downsample_lod", (2, 2, 1),
              lambda rng: {(0, 0): (u8(rng, 16, 16, 4), None),
                           (0, 1): (rng.integers(0, 1 << 32, (8, 8), dtype=np.uint32), None)},
              {(0, 0): "linear,repeat", (0, 1): "nearest,clamp"},
              buffers=lambda rng: {(0, 2): np.zeros(256 * 12, np.float32)},
              tol={(0, 2): F8 + 1e-5}),
    # the 2-channel and 1-channel 8-bit storage formats (rg8ui, r8ui, rg8) of shading-rate
    # and density-map builders; radcc refused them before the examples-collection audit
    ImageCase("rate_map", (2, 4, 1),
              lambda rng: {(0, 0): (u8(rng, 32, 32, 2), "rg8ui"),
                           (0, 1): (np.zeros((16, 16), np.uint8), "r8ui"),
                           (0, 2): (np.zeros((16, 16, 2), np.uint8), "rg8")},
              tol={(0, 2): 1.0}),
]


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_sweep_vs_lavapipe(case: ImageCase, wave: int, lvp: None) -> None:
    check_vs_lavapipe(case, HERE, wave)


# -- the shaders lavapipe's runner refuses (cube images, depth-compare samplers) ----------

def _face_dir(face: int, s: float, t: float) -> np.ndarray:
    """cube_conv.comp's faceDir: the direction of face coordinates (s, t) in [0, 1]."""
    x, y = s * 2 - 1, t * 2 - 1
    return np.array({0: (1, -y, -x), 1: (-1, -y, x), 2: (x, 1, y), 3: (x, -1, -y),
                     4: (x, -y, 1), 5: (-x, -y, -1)}[face], np.float64)


def _np_cube_conv(env: np.ndarray, n: int) -> np.ndarray:
    from tests.e2e.test_images import _np_cube_sample

    out = np.zeros((6, n, n, 4))
    for f in range(6):
        for y in range(n):
            for x in range(n):
                d0 = _face_dir(f, (x + 0.5) / n, (y + 0.5) / n)
                nv = d0 / np.linalg.norm(d0)
                up = np.array([0.0, 1, 0]) if abs(nv[1]) < 0.999 else np.array([1.0, 0, 0])
                t = np.cross(up, nv)
                t /= np.linalg.norm(t)
                b = np.cross(nv, t)
                acc, wsum = np.zeros(4), 0.0
                for j in (-1, 0, 1):
                    for i in (-1, 0, 1):
                        d = nv + 0.35 * (i * t + j * b)
                        d /= np.linalg.norm(d)
                        w = max(float(d @ nv), 0.0)
                        acc += _np_cube_sample(env, d.astype(np.float32), "linear") * w
                        wsum += w
                out[f, y, x] = acc / wsum
    return out


@pytest.mark.parametrize("wave", [32, 64])
def test_sweep_cube_convolution(wave: int) -> None:
    """cube_conv.comp: 9 cosine-weighted bilinear textureLod samples of an 8x8 rgba32f
    environment cube per texel of a 4x4 output cube (a storage imageCube), vs NumPy's
    model of Vulkan's face selection and seamless filtering (tests/e2e/test_images)."""
    from radcc.driver.run import run_compute

    rng = np.random.default_rng(9)
    env = rng.uniform(0, 1, (6, 8, 8, 4)).astype(np.float32)
    got = run_compute(glsl_file_spirv(HERE / "cube_conv.comp"), groups=(1, 1, 1),
                      images={(0, 0): (env, None),
                              (0, 1): (np.zeros((6, 4, 4, 4), np.float32), None)},
                      samplers={(0, 0): "linear"}, wave_size=wave)
    want = _np_cube_conv(env, 4)
    d = np.abs(got[(0, 1)] - want).max()
    assert d < 1e-4, d


def _np_pcf(depth: np.ndarray, q: np.ndarray) -> np.ndarray:
    """shadow_pcf.comp with a nearest LEQUAL compare sampler (clamp to edge): the 3x3
    offsets' compare results averaged, the compare gather's average, x and w, then the
    raw depth gather (i0j1, i1j1, i1j0, i0j0)."""
    h, w = depth.shape
    out = np.zeros((len(q), 2, 4))
    for k, (u, v, ref, _) in enumerate(q.astype(np.float64)):
        i, j = int(np.floor(u * w)), int(np.floor(v * h))
        s = sum(float(ref <= depth[min(max(j + dy, 0), h - 1), min(max(i + dx, 0), w - 1)])
                for dy in (-1, 0, 1) for dx in (-1, 0, 1))
        i0, j0 = int(np.floor(u * w - 0.5)), int(np.floor(v * h - 0.5))
        fp = [depth[min(max(j0 + dj, 0), h - 1), min(max(i0 + di, 0), w - 1)]
              for di, dj in ((0, 1), (1, 1), (1, 0), (0, 0))]
        g = [float(ref <= t) for t in fp]
        out[k, 0] = (s / 9, sum(g) / 4, g[0], g[3])
        out[k, 1] = fp
    return out


@pytest.mark.parametrize("wave", [32, 64])
def test_sweep_shadow_pcf(wave: int) -> None:
    """shadow_pcf.comp: 3x3 PCF by depth-compare textureLodOffset, a compare gather and a
    raw depth gather of an r32f shadow map under a LEQUAL point sampler (given through the
    Python API: lavapipe's runner has no compare samplers), vs NumPy."""
    from radcc.driver.compile import compile_spirv
    from radcc.driver.run import run_compiled
    from radcc.emu.api import Image
    from radcc.emu.texture import POINT, SEL_0, SEL_1, SEL_X, SamplerDesc

    rng = np.random.default_rng(4)
    depth = (rng.integers(0, 9, (12, 10)) / 8.0).astype(np.float32)
    q = rng.uniform(0.02, 0.98, (256, 4)).astype(np.float32)
    q[:, 2] = (rng.integers(0, 9, 256) / 8.0 + 0.0625).astype(np.float32)
    q[:16, 2] = depth[3, 4]  # references equal to a texel: LEQUAL passes
    q[:16, :2] = np.float32([4.5 / 10, 3.5 / 12])
    cr = compile_spirv(glsl_file_spirv(HERE / "shadow_pcf.comp"), wave_size=wave)
    cmp_ = SamplerDesc(mag_filter=POINT, min_filter=POINT, compare_func=3)
    imgs = {(0, 0): Image(depth, "32_FLOAT", 2, (SEL_X, SEL_0, SEL_0, SEL_1)),
            (0, 1): Image(depth, "32_FLOAT", 2, (SEL_X, SEL_0, SEL_0, SEL_1))}
    _, run = run_compiled(cr, (2, 2, 1), {(0, 2): q, (0, 3): np.zeros(256 * 8, np.float32)},
                          images=imgs, samplers={(0, 0): cmp_, (0, 1): SamplerDesc()})
    assert not run.violations, run.violations[:3]
    got = np.asarray(run.buffers["set0_binding3"]).reshape(256, 2, 4)
    want = _np_pcf(depth, q)
    d = np.abs(got - want).max()
    assert d < 1e-6, (d, np.argwhere(np.abs(got - want) > 1e-6)[:4].tolist())


def _np_cube_grad(levels: list[np.ndarray], d: np.ndarray, gx: np.ndarray, gy: np.ndarray
                  ) -> tuple[np.ndarray, float, float, int]:
    """textureGrad of a cube under a nearest filter and nearest mip filter: the face of
    `d`, the derivatives of its face coordinates (Vulkan: s = (sc / |rc| + 1) / 2, the
    quotient rule on the face's linear sc, tc, rc), the level from the longer scaled
    derivative. Also the level's distance from a rounding tie and the coordinates'
    distance from a texel edge (the test avoids near ties)."""
    from tests.e2e.test_images import _VK_CUBE_FACES, _np_cube_face

    face, s, t = _np_cube_face(d.astype(np.float64))
    fn = _VK_CUBE_FACES[face][1]
    sc, tc, rc = fn(*d.astype(np.float64))
    n = levels[0].shape[1]

    def dst(g: np.ndarray) -> np.ndarray:
        dsc, dtc, drc = fn(*g.astype(np.float64))
        return np.array([0.5 * (dsc / abs(rc) - sc * np.sign(rc) * drc / rc ** 2),
                         0.5 * (dtc / abs(rc) - tc * np.sign(rc) * drc / rc ** 2)]) * n
    rho = max(np.linalg.norm(dst(gx)), np.linalg.norm(dst(gy)))
    lod = float(np.log2(rho)) if rho > 0 else -np.inf
    m = int(min(max(np.floor(lod + 0.5), 0), len(levels) - 1)) if np.isfinite(lod) else 0
    nl = levels[m].shape[1]
    i, j = (min(int(np.floor(v * nl)), nl - 1) for v in (s, t))
    edge = min(abs(v * nl - np.rint(v * nl)) for v in (s, t))
    return levels[m][face, j, i].astype(np.float64), abs(lod - np.floor(lod) - 0.5), edge, m


@pytest.mark.parametrize("wave", [32, 64])
def test_cube_texture_grad(wave: int) -> None:
    """tex_cube_grad.comp: textureGrad of a mipmapped cube and cube array (8x8 faces, 4
    levels; nearest filter and mip filter) in the strict emulator vs NumPy's derivatives
    of Vulkan's face coordinates: the level the transformed gradients select (queries
    near a level's rounding tie or a texel edge are skipped: float rounding may go either
    way there)."""
    from radcc.driver.compile import compile_spirv
    from radcc.driver.run import run_compiled
    from radcc.emu.api import Image
    from radcc.emu.texture import MIP_POINT, POINT, SamplerDesc

    rng = np.random.default_rng(12)
    cube = [rng.uniform(-1, 1, (6, 8 >> m, 8 >> m, 4)).astype(np.float32) for m in range(4)]
    arr = [rng.uniform(-1, 1, (12, 8 >> m, 8 >> m, 4)).astype(np.float32) for m in range(4)]
    q = np.zeros((64, 3, 4), np.float32)
    q[:, 0, :3] = rng.uniform(-1, 1, (64, 3))
    q[:, 0, 3] = rng.integers(0, 2, 64)
    scale = 2.0 ** rng.uniform(-4, 0, (64, 1))
    q[:, 1, :3] = rng.uniform(-1, 1, (64, 3)) * scale
    q[:, 2, :3] = rng.uniform(-1, 1, (64, 3)) * scale
    smp = SamplerDesc(mag_filter=POINT, min_filter=POINT, mip_filter=MIP_POINT,
                      max_lod=15 * 256)
    imgs = {(0, 0): Image(cube[0], "32_32_32_32_FLOAT", mips=tuple(cube[1:]),
                          arrayed=True, cube=True),
            (0, 1): Image(arr[0], "32_32_32_32_FLOAT", mips=tuple(arr[1:]),
                          arrayed=True, cube=True)}
    cr = compile_spirv(glsl_file_spirv(HERE.parent / "tex_cube_grad.comp"), wave_size=wave)
    assert any(ln.strip().startswith("image_sample_d ") and "CUBE" in ln
               for ln in cr.asm.splitlines())
    _, run = run_compiled(cr, (1, 1, 1), {(1, 0): q, (1, 1): np.zeros(2 * 64 * 4, np.float32)},
                          images=imgs, samplers={(0, 0): smp, (0, 1): smp})
    assert not run.violations, run.violations[:3]
    got = np.asarray(run.buffers["set1_binding1"]).reshape(2, 64, 4)
    checked, levels_seen = 0, set[int]()
    for p in range(64):
        d, gx, gy = q[p, 0], q[p, 1, :3], q[p, 2, :3]
        c = int(d[3])
        for k, levels in enumerate((cube, [lv[6 * c:6 * c + 6] for lv in arr])):
            want, tie, edge, m = _np_cube_grad(levels, d[:3], gx, gy)
            if tie < 0.02 or edge < 1e-3:
                continue
            assert np.abs(got[k, p] - want).max() < 1e-6, (wave, k, p, got[k, p], want)
            checked += 1
            levels_seen.add(m)
    assert checked > 100 and levels_seen == {0, 1, 2, 3}, (checked, levels_seen)
