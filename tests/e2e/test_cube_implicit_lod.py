"""Implicit-LOD sampling of cube maps in fragment shaders (issue 11): ``texture(cube, dir)``
draws in the strict emulator, wave32 and wave64, against a NumPy model of what the
hardware computes. radcc lowers the direction to face coordinates as ACO does
(ac_nir_lower_tex's prepare_cube_coords: v_cubesc/tc/ma/id_f32, s,t = sc,tc / |ma| + 1.5)
and issues ``image_sample`` in whole-quad mode; the texture unit's implicit derivatives are
the quad's lane 1 and lane 2 face coordinates minus lane 0's, times the face size
(ISA guide 10.4 "Image Sampling", the derivatives of the body's s,t), the level log2 of
the longer one, then trilinear filtering of the face. The model: the same differences of
the face coordinates the Vulkan spec's cube selection gives (s = (sc/|ma| + 1)/2) per
2x2 pixel quad, its level selection and trilinear filter
(`test_images._np_lod_sample`). The directions stay on the +X face with every footprint
inside it (seamless edges are `test_images::test_cube_maps`'). Lavapipe's runner has no
cube images, so NumPy is the oracle here."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.e2e.test_images import _MipSampler, _np_lod_sample
from tests.oracle.conftest import compile_glsl

VERT = """#version 450
layout(location = 0) in vec2 p;
layout(location = 0) out vec2 uv;
void main() { gl_Position = vec4(p, 0.0, 1.0); uv = p; }
"""
FRAG = """#version 450
layout(location = 0) in vec2 uv;
layout(set = 0, binding = 0) uniform samplerCube c;
layout(push_constant) uniform P { float k; float stretch; } pc;
layout(location = 0) out vec4 col;
void main() {
    // the +X face (|x| the major axis): sc = -z, tc = -y; x varies, so the projection's
    // derivatives differ from the direction's
    col = texture(c, vec3(1.0 + pc.stretch * uv.x, -pc.k * uv.y, -pc.k * uv.x));
}
"""
N = 32  # face size (6 levels)
W = H = 8


def _model(levels: list[np.ndarray], k: float, stretch: float
           ) -> tuple[np.ndarray, np.ndarray]:
    """The draw's colours, and the same with level 0 everywhere (no LOD)."""
    px = (np.arange(W) + 0.5) * 2 / W - 1
    py = (np.arange(H) + 0.5) * 2 / H - 1
    ux, uy = np.meshgrid(px.astype(np.float32), py.astype(np.float32))
    x, y, z = 1 + stretch * ux, -k * uy, -k * ux
    s, t = (-z / np.abs(x) + 1) / 2, (-y / np.abs(x) + 1) / 2
    q0 = (slice(0, None, 2), slice(0, None, 2))
    dx = [(c[:, 1::2] - c[:, 0::2])[0::2] * N for c in (s, t)]
    dy = [(c[1::2] - c[0::2])[:, 0::2] * N for c in (s, t)]
    rho = np.maximum(np.hypot(*dx), np.hypot(*dy))
    lam = np.repeat(np.repeat(np.log2(rho), 2, 0), 2, 1)
    assert s[q0].shape == rho.shape
    face0 = [lv[0] for lv in levels]
    return (_np_lod_sample(face0, _MipSampler(1, 1, 2), s, t, lam),
            _np_lod_sample(face0, _MipSampler(1, 1, 2), s, t, np.zeros_like(lam)))


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize(("k", "stretch"), [(0.6, 0.0), (0.5, 0.3), (0.9, 0.0)])
def test_cube_implicit_lod_fragment(wave: int, k: float, stretch: float,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import radcc.driver.images as dimages
    import radcc.driver.run as drun
    from radcc.driver.draw import run_draw
    from radcc.emu.api import Image
    from radcc.emu.texture import BILINEAR, SamplerDesc

    rng = np.random.default_rng(int(k * 100 + stretch * 10))
    levels = [rng.uniform(0, 1, (6, max(N >> m, 1), max(N >> m, 1), 4)).astype(np.float32)
              for m in range(6)]
    cube = Image(levels[0], "32_32_32_32_FLOAT", 2, arrayed=True, cube=True,
                 mips=tuple(levels[1:]))
    orig = drun.image_arg
    monkeypatch.setattr(drun, "image_arg", lambda res, key, *a: replace(
        orig(res, key, *a), mips=cube.mips) if key == (0, 0) else orig(res, key, *a))
    smp = SamplerDesc(mag_filter=BILINEAR, min_filter=BILINEAR, mip_filter=2,
                      max_lod=15 * 256)
    monkeypatch.setattr(dimages, "sampler_desc", lambda *a: smp)
    tri = np.array([[-1, -1], [1, -1], [-1, 1], [-1, 1], [1, -1], [1, 1]], np.float32)
    out = run_draw(compile_glsl(VERT, stage="vert"), compile_glsl(FRAG, stage="frag"),
                   size=(W, H), count=6, attrs={0: tri}, images={(0, 0): (levels[0], None)},
                   samplers={(0, 0): "linear"}, color="rgba32f",
                   push_constants=np.array([k, stretch], np.float32).tobytes(),
                   wave_size=wave)
    assert not out.violations, out.violations[:3]
    want, level0 = _model(levels, k, stretch)
    got = np.asarray(out.colors[0], np.float64)
    d = np.abs(got - want)
    assert d.max() < 2e-4, f"max {d.max():.3g} at {np.unravel_index(d.argmax(), d.shape)}"
    # (the levels matter: level 0 everywhere is far off)
    assert np.abs(got - level0).max() > 0.05
