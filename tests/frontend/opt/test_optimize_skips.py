"""`optimize`'s skipped runs (``opt.ENABLES``): a LOOP pass that found nothing is not
run again until a pass whose changes may give it work changed the shader. Checked on
the GLSL suite of tests/e2e/glsl, lowered for wave32 and wave64: every skipped pass,
run anyway (``check_skips``), changes nothing, and the shader lowered so (every pass
run as before ``ENABLES``) prints as the one lowered with the skips."""

from __future__ import annotations

import pytest

from radcc.frontend.mir_print import print_shader
from radcc.frontend.opt import ENABLES, LOOP, lower_for_isel
from radcc.frontend.spirv import read_spirv
from radcc.frontend.spirv_to_mir import spirv_to_mir
from radcc.target import get_target
from tests.e2e.glsl.cases import CASES
from tests.e2e.glsl_harness import Case, compile_case

GFX11 = get_target("gfx1100").mir_options


def test_enables_names_loop_passes() -> None:
    assert set(ENABLES) == set(LOOP)
    for name, enabled in ENABLES.items():
        assert enabled <= set(LOOP), name
        assert "copy_prop" in enabled, name  # (its silent swizzle composition)


def _lowered(spirv: bytes, case: Case, wave: int, **kw: object) -> str:
    shader = spirv_to_mir(read_spirv(spirv), spec=dict(case.spec), wave_size=wave)
    lower_for_isel(shader, GFX11, wave, **kw)  # type: ignore[arg-type]
    return print_shader(shader)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_skipped_passes_find_nothing(case: Case) -> None:
    spirv = compile_case(case)
    for wave in (32, 64):
        try:
            got = _lowered(spirv, case, wave, check_skips=True)
        except Exception as e:  # noqa: BLE001 - a case the front end refuses
            if isinstance(e, AssertionError):
                raise
            pytest.skip(f"not lowered: {type(e).__name__}")
        assert _lowered(spirv, case, wave) == got
