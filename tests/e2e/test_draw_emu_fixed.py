"""The emulator's graphics pipeline against lavapipe, before radcc compiles vertex and
fragment shaders: the draw cases of the pass-through pair (basic.vert + color.frag:
position and colour through, colour out) rendered by `radcc.emu.draw.render` with an
equivalent pair written in assembly to the documented ABIs
(tests/emu/draw/test_render_asm.py), compared with lavapipe's rendering of the GLSL pair
by the draw harness (coverage exact, rgba8 within 1, floats within the case's tolerance,
depth), wave32 and wave64, strict mode; the vertex shader also as radcc compiles
basic.vert. Extra cases: strips, fans, culling, lines,
points, blending on every float format."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from radcc.driver.draw import draw_state
from radcc.emu.draw.render import render
from radcc.emu.memory import Memory
from tests.e2e.draw import harness
from tests.e2e.draw.cases import BY_NAME, DrawCase, _colors, clip
from tests.emu.draw.test_render_asm import T, _shaders

pytestmark = pytest.mark.skipif(shutil.which("llvm-mc-19") is None, reason="needs llvm-mc-19")

S = (32, 24)
TRIS = np.array([[1.5, 1.25], [30.7, 3.1], [6.2, 22.9],  # overlapping, shared edges
                 [30.7, 3.1], [28.1, 21.3], [6.2, 22.9],
                 [12.3, -4.0], [40.0, 12.2], [-3.0, 30.0]])
W9 = np.array([1.0, 2.0, 0.5, 2.0, 1.5, 0.5, 1.0, 3.0, 1.2])


def _extra() -> list[DrawCase]:
    col = _colors("emu_fixed", 9, 0.05, 0.95)
    pos = clip(TRIS, S, z=np.linspace(0.1, 0.9, 9), w=W9)
    out = [
        DrawCase("strip", "basic.vert", "color.frag", S, 7, attrs={0: pos, 1: col},
                 topology="triangle-strip", color="rgba32f", clear=(-1, -1, -1, -1)),
        DrawCase("fan_depth", "basic.vert", "color.frag", S, 8, attrs={0: pos, 1: col},
                 topology="triangle-fan", depth=True),
        DrawCase("cull_back", "basic.vert", "color.frag", S, 9, attrs={0: pos, 1: col},
                 cull="back"),
        DrawCase("cull_front_cw", "basic.vert", "color.frag", S, 9, attrs={0: pos, 1: col},
                 cull="front", front_face="cw"),
        DrawCase("lines", "basic.vert", "color.frag", S, 8, attrs={0: pos, 1: col},
                 topology="line-strip", color="rgba32f", clear=(-1, -1, -1, -1),
                 atol=1e-3, rtol=1e-3),
        DrawCase("points", "basic.vert", "color.frag", S, 9, attrs={0: pos, 1: col},
                 topology="point-list"),
        DrawCase("indexed_u16", "basic.vert", "color.frag", S, 9, attrs={0: pos, 1: col},
                 index=np.array([0, 1, 2, 2, 1, 4, 5, 3, 0], np.uint16), depth=True),
    ]
    for fmt in ("rgba8", "rgba16f", "rgba32f"):
        out.append(DrawCase(f"blend_{fmt}", "basic.vert", "color.frag", S, 9,
                            attrs={0: pos, 1: col}, blend="alpha", color=fmt,
                            coverage_from_color=False, atol=2e-3, rtol=2e-3))
    return out


EXTRA = {c.name: c for c in _extra()}
NAMES = [n for n in ("smooth_rgba8", "depth_less", "clip_near_w")
         if n in BY_NAME] + list(EXTRA)


_vs_cache: dict[int, object] = {}


def _radcc_vs(wave: int):  # noqa: ANN202 - a GraphicsShader
    """basic.vert compiled by radcc (its graphics code object)."""
    if wave not in _vs_cache:
        from radcc.driver.compile import compile_spirv

        res = compile_spirv(harness.compile_stage("basic.vert"), wave_size=wave)
        assert res.graphics is not None
        _vs_cache[wave] = res.graphics
    return _vs_cache[wave]


@pytest.mark.parametrize("vert", ["asm", "radcc"])
@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", NAMES)
def test_emulator_pipeline_matches_lavapipe(lvp: None, name: str, wave: int,
                                            vert: str) -> None:
    """`vert` "radcc": the vertex shader is basic.vert compiled by radcc."""
    case = BY_NAME.get(name) or EXTRA[name]
    ref = harness.reference(case)
    vs, fs = _shaders(wave)
    if vert == "radcc":
        vs = _radcc_vs(wave)
    state = draw_state(case.size, case.topology, case.color, case.clear, case.depth,
                       case.blend, case.cull, case.front_face, "fill", 1)
    res = render(vs, fs, state, T, Memory(), count=case.count, instances=case.instances,
                 attrs=case.attrs, inst_attrs=case.inst_attrs, index=case.index)
    assert not res.violations, res.violations

    class Got:
        colors = [t.data for t in res.framebuffer.targets]
        depth = res.framebuffer.depth
        buffers: dict = {}
        images: dict = {}
    harness.assert_same_draw(case, ref, Got())


# cases whose vertex shader writes a vec4 colour to location 0, drawn with color.frag:
# radcc's vertex shader (resources, instancing, indices, gl_VertexIndex) with the
# assembly fragment shader, through the driver's resource tables
VS_CASES = [n for n in ("instanced_strip_uint32", "ubo_push_vs", "triangle_fan",
                        "triangle_strip") if n in BY_NAME]


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", VS_CASES)
def test_radcc_vertex_shaders_match_lavapipe(lvp: None, name: str, wave: int) -> None:
    from dataclasses import replace
    from types import SimpleNamespace

    from radcc.driver.compile import compile_spirv
    from radcc.driver.draw import _execute

    case = replace(BY_NAME[name], frag="color.frag")
    ref = harness.reference(case)
    vs_res = compile_spirv(harness.compile_stage(case.vert), wave_size=wave,
                           instance_inputs=frozenset(case.inst_attrs))
    fs_res = SimpleNamespace(graphics=_shaders(wave)[1], images={}, kernel_name="fs")
    state = draw_state(case.size, case.topology, case.color, case.clear, case.depth,
                       case.blend, case.cull, case.front_face, "fill", 1)
    got = _execute(vs_res, fs_res, state, case.count, case.instances, dict(case.attrs),
                   dict(case.inst_attrs), case.index, case.buffers, case.images,
                   case.samplers, case.push, True, 50_000_000, [])
    assert not got.violations, got.violations
    harness.assert_same_draw(case, ref, got)
