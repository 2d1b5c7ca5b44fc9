"""Wave64 ``p_bpermute`` (subgroupShuffle with a divergent index) on GFX10/10.3, which
have no ``v_permlane64_b32``: the halves of the data are swapped lane by lane
(``v_readlane_b32``/``v_writelane_b32``), then ``ds_bpermute_b32`` permutes within the
halves as on GFX11 (radcc/passes/lower_reductions.py).

Oracles: the GLSL suite's shuffle cases (references validated on lavapipe) run in
radcc.emu's strict mode with the GFX10 sequence forced on gfx1100 (every instruction of
it exists there, and the emulator models ds_bpermute per 32-lane half), and llvm-mc-19
-mcpu=gfx1030 assembles the gfx1030 kernel (tests/e2e/test_glsl_gfx10_mc.py compares its
bytes).
"""

from __future__ import annotations

import re

import pytest

from radcc.driver.compile import compile_spirv
from radcc.driver.run import run_compiled
from radcc.passes import lower_reductions
from tests.e2e.glsl.cases import CASES
from tests.e2e.glsl_harness import check, prepare

SHUFFLES = [c for c in CASES if c.name in ("sg_shuffle", "sg_shuffle_relative")]


@pytest.mark.parametrize("case", SHUFFLES, ids=[c.name for c in SHUFFLES])
def test_gfx10_bpermute_sequence_runs(case, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lower_reductions, "has_permlane64", lambda program: False)
    prep = prepare(case)
    res = compile_spirv(prep.spirv, mcpu="gfx1100", wave_size=64, spec=case.spec or None)
    assert "v_permlane64" not in res.asm
    assert len(re.findall(r"\bv_writelane_b32\b", res.asm)) >= 64
    out, run = run_compiled(res, case.groups, dict(prep.inputs), prep.push)
    assert not run.violations, run.violations[:3]
    check(case, prep, out, 64)


def test_gfx1030_wave64_shuffle_has_no_permlane64() -> None:
    prep = prepare(SHUFFLES[0])
    res = compile_spirv(prep.spirv, mcpu="gfx1030", wave_size=64)
    assert "v_permlane64" not in res.asm and "ds_bpermute_b32" in res.asm
    assert len(re.findall(r"\bv_writelane_b32\b", res.asm)) >= 64
