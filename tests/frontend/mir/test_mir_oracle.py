"""MIR semantics against lavapipe: each shader of ``shaders.py`` is translated to
MIR and run by the MIR interpreter (``tests.support.mir_interp``), before and
after the optimisation pipeline; every buffer must equal what lavapipe computes
from the same SPIR-V (integers exactly, floats within the case's tolerance)."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.frontend.mir_print import print_shader
from radcc.frontend.mir_validate import validate
from radcc.frontend.opt import optimize
from radcc.frontend.spirv_to_mir import spirv_to_mir
from radcc.oracle import lavapipe
from tests.support import mir_interp

from .conftest import glsl_to_spirv
from .shaders import CASES, Case

SUBGROUP_SIZE = 8  # lavapipe's


def _compare(case: Case, got: dict, want: dict) -> None:
    assert set(got) == set(want)
    for key in want:
        if key in case.floats:
            dt, rtol, atol = case.floats[key]
            g = np.frombuffer(got[key], dt).astype(np.float64)
            w = np.frombuffer(want[key], dt).astype(np.float64)
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg=f"buffer {key}")
        else:
            g = np.frombuffer(got[key], np.uint8)
            w = np.frombuffer(want[key], np.uint8)
            if not np.array_equal(g, w):
                bad = np.nonzero(g != w)[0]
                gw = np.frombuffer(got[key][: len(got[key]) // 4 * 4], np.int32)
                ww = np.frombuffer(want[key][: len(want[key]) // 4 * 4], np.int32)
                k = bad[0] // 4
                raise AssertionError(f"buffer {key}: {len(bad)} bytes differ, first at byte "
                                     f"{bad[0]} (word {k}: got {gw[k]}, lavapipe {ww[k]})")


@pytest.mark.parametrize("optimized", [False, True], ids=["raw", "opt"])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_against_lavapipe(case: Case, optimized: bool, lvp: None) -> None:
    spv = glsl_to_spirv(case.glsl, case.env)
    rng = np.random.default_rng(abs(hash(case.name)) % 2**32)
    buffers = case.buffers(rng)
    push = case.push(rng) if case.push else b""
    shader = spirv_to_mir(spv, spec=case.spec)
    validate(shader)
    if optimized:
        optimize(shader, validate_each=True)
    got = mir_interp.run(shader, case.groups, buffers, push, subgroup_size=SUBGROUP_SIZE)
    want = lavapipe.run_compute(spv, groups=case.groups, buffers=buffers, push_constants=push,
                                spec_constants=case.spec or None)
    try:
        _compare(case, got, want)
    except AssertionError:
        print(print_shader(shader))
        raise
