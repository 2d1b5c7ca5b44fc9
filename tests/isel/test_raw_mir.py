"""Shaders selected from MIR that did not go through lower_for_isel
(`compile_spirv(mir_lowerings=set())`: only the optimisation loop), so isel itself
inlines continue constructs. cf_break_continue's do-while has a continue and its
only break in the continue construct: the loop's result is defined in the construct,
inlined twice, and needs a phi at the loop exit (it used to reach the use after the
loop from one copy only: "%N is live into BB0" in register allocation).
Expectations: the suite's NumPy references (validated on lavapipe)."""

from __future__ import annotations

import pytest

import radcc.driver.run
from radcc.driver import compile as compile_mod
from tests.e2e.glsl.cases import CASES
from tests.e2e.glsl_harness import check, radcc_available, run_radcc

NAMES = ("cf_break_continue", "cf_for_loops", "cf_while_do", "cf_nested_divergent")


@pytest.fixture
def _raw_mir(monkeypatch: pytest.MonkeyPatch) -> None:
    orig = compile_mod.compile_spirv

    def raw(*args, **kwargs):  # type: ignore[no-untyped-def]
        kwargs["mir_lowerings"] = set()
        return orig(*args, **kwargs)

    monkeypatch.setattr(radcc.driver.run, "compile_spirv", raw)


@pytest.mark.skipif(not radcc_available(), reason="radcc.driver.run is not available")
@pytest.mark.parametrize(("name", "wave"), [(n, w) for n in NAMES for w in (32, 64)])
def test_continue_constructs_selected_by_isel(_raw_mir: None, name: str, wave: int) -> None:
    case = next((c for c in CASES if c.name == name), None)
    if case is None:
        pytest.skip(f"no case {name}")
    prep, out = run_radcc(case, wave)
    check(case, prep, out, wave)
