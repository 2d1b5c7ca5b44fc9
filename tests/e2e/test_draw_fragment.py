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

from radcc.oracle import lavapipe
from tests.e2e.draw import harness
from tests.e2e.draw.cases import BY_NAME

NAMES = [n for n in (
    "smooth_rgba8", "interp_modes", "fragcoord", "front_facing", "discard_depth",
    "demote_derivatives", "derivatives", "texture_linear_rgba8", "texture_nearest_rgba32f",
    "mrt_float_rgba8", "mrt_float_rgba16f", "mrt_float_rgba32f", "mrt_float_r32f",
    "mrt_uint_rgba32ui", "mrt_uint_r32ui", "mrt_int_rgba32i", "frag_depth",
    "blend_alpha_rgba8", "ssbo_atomics_fs") if n in BY_NAME]


@pytest.fixture(scope="module")
def lvp() -> None:
    try:
        lavapipe.require()
    except lavapipe.LavapipeError as e:
        pytest.fail(f"lavapipe unavailable: {e}")


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
