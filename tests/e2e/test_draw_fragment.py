"""Fragment shaders compiled by radcc (with the vertex shaders radcc compiles) drawn by
`radcc.driver.draw.run_draw` in the strict emulator equal lavapipe's rendering of the
same draw (tests/e2e/draw/cases.py, the issue's tolerances in
`harness.assert_same_draw`), wave32 and wave64: interpolation modes, gl_FragCoord,
facing, discard with depth, demote with derivatives and helper lanes, fine/coarse
derivatives, implicit-LOD texturing (linear rgba8, nearest rgba32f), every colour export
format, gl_FragDepth, blending, storage-buffer atomics in a fragment shader (exact mode).
"""

from __future__ import annotations

import pytest

from tests.e2e.draw import harness
from tests.e2e.draw.cases import BY_NAME

NAMES = [n for n in (
    "smooth_rgba8", "interp_modes", "fragcoord", "front_facing", "discard_depth",
    "demote_derivatives", "derivatives", "texture_linear_rgba8", "texture_nearest_rgba32f",
    "mrt_float_rgba8", "mrt_float_rgba16f", "mrt_float_rgba32f", "mrt_float_r32f",
    "mrt_uint_rgba32ui", "mrt_uint_r32ui", "mrt_int_rgba32i", "frag_depth",
    "blend_alpha_rgba8", "ssbo_atomics_fs") if n in BY_NAME]


_refs: dict[str, object] = {}


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", NAMES)
def test_fragment_shader_draw_matches_lavapipe(lvp: None, name: str, wave: int) -> None:
    from radcc.driver.draw import run_draw
    from radcc.passes.options import DebugOptions

    case = BY_NAME[name]
    if name not in _refs:
        _refs[name] = harness.reference(case)
    vs, fs = harness.spirv(case)
    got = run_draw(vs, fs, wave_size=wave, debug_options=DebugOptions.parse(
        "validateir,validatera"), **case.kwargs())
    harness.assert_same_draw(case, _refs[name], got)


_POINT_VS = """#version 450
layout(location=0) in vec4 p;
layout(location=1) in vec4 c;
layout(location=0) out vec4 oc;
void main() { gl_Position = p; gl_PointSize = 4.0; oc = c; }
"""
_POINT_FS = """#version 450
layout(location=0) in vec4 c;
layout(location=0) out vec4 o;
void main() { o = vec4(gl_PointCoord, c.z, 1.0); }
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_point_coord_matches_lavapipe(lvp: None, wave: int, tmp_path) -> None:  # noqa: ANN001
    """gl_PointCoord: the point sprite parameter (location -1, interpolated with the
    perspective centre I/J) of 4-pixel points equals lavapipe's within its fixed-point
    precision; coverage exact."""
    import subprocess

    import numpy as np

    from radcc.driver.draw import run_draw
    from radcc.oracle.lavapipe_draw import run_draw as lavapipe_draw

    spv = []
    for name, src in (("p.vert", _POINT_VS), ("p.frag", _POINT_FS)):
        (tmp_path / name).write_text(src)
        subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.3",
                        str(tmp_path / name), "-o", str(tmp_path / (name + ".spv"))],
                       check=True, capture_output=True)
        spv.append((tmp_path / (name + ".spv")).read_bytes())
    pos = np.array([[-0.5, -0.5, 0.5, 1], [0.25, 0.5, 0.5, 1], [0.6, -0.3, 0.5, 1]], np.float32)
    col = np.array([[0.2, 0.3, 0.4, 1]] * 3, np.float32)
    kw = dict(size=(16, 16), count=3, attrs={0: pos, 1: col}, topology="point-list",
              color="rgba32f")
    got = run_draw(*spv, wave_size=wave, **kw).colors[0]
    ref = lavapipe_draw(*spv, **kw).colors[0]
    assert ((got[..., 3] > 0) == (ref[..., 3] > 0)).all() and (ref[..., 3] > 0).sum() == 48
    np.testing.assert_allclose(got, ref, atol=1e-3)
