"""The GLSL compute-shader suite on lavapipe: validates each shader and its NumPy reference.

Every case of tests/e2e/glsl/cases.py is compiled with glslangValidator, checked
with spirv-val, run on lavapipe (Mesa's CPU Vulkan driver) and compared with its
reference. A failure here is a bug in the suite (or a new lavapipe quirk), never
in radcc. Missing tools fail under CI=true and skip locally; nothing xfails.
"""

from __future__ import annotations

import os
import shutil

import pytest

from radcc.oracle import lavapipe, spirv_tools
from tests.e2e.glsl.cases import CASES
from tests.e2e.glsl_harness import Case, check, run_lavapipe, validate


def _missing(msg: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(msg)
    pytest.skip(msg)


@pytest.fixture(scope="module")
def lvp() -> lavapipe.DeviceInfo:
    if shutil.which(spirv_tools.GLSLANG) is None or shutil.which("spirv-val") is None:
        _missing("glslangValidator/spirv-val not installed (glslang-tools, spirv-tools)")
    try:
        return lavapipe.device_info()
    except lavapipe.LavapipeError as e:
        _missing(f"lavapipe unavailable: {e}")
        raise


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_glsl_case_on_lavapipe(case: Case, lvp: lavapipe.DeviceInfo) -> None:
    prep, out = run_lavapipe(case)
    err = validate(case, prep.spirv)
    assert err is None, f"spirv-val rejects {case.name}:\n{err}"
    check(case, prep, out, lvp.subgroup_size, case.lavapipe_ref)


def test_suite_size() -> None:
    """The issue asks for at least 60 shaders, each with a case."""
    shaders = {c.path for c in CASES}
    assert len(shaders) >= 60
    assert all(p.exists() for p in shaders)
    names = [c.name for c in CASES]
    assert len(names) == len(set(names))
