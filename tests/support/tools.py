"""The external tools the tests run (lavapipe, glslangValidator, spirv-val), found or refused
in one way: a missing tool fails the test under CI=true, where `.ci/run` installs every one
(a skip there would hide a test that never ran), and skips it locally."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import NoReturn

import pytest

from radcc.oracle import lavapipe, spirv_tools


def missing(msg: str) -> NoReturn:
    """Fail (CI=true) or skip (locally) the running test because a tool is missing."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(msg)
    pytest.skip(msg)


def require_tool(exe: str, package: str) -> None:
    """`exe` on PATH, or `missing` naming the Debian package that installs it."""
    if shutil.which(exe) is None:
        missing(f"{exe} not installed (Debian package {package})")


def require_lavapipe() -> lavapipe.DeviceInfo:
    """lavapipe's device info, or `missing`."""
    try:
        return lavapipe.device_info()
    except lavapipe.LavapipeError as e:
        missing(f"lavapipe unavailable: {e}")


def glsl_file_spirv(path: Path, target_env: str = "vulkan1.2") -> bytes:
    """The SPIR-V glslangValidator makes of the GLSL file `path` (`missing` without it)."""
    require_tool(spirv_tools.GLSLANG, "glslang-tools")
    r = spirv_tools.compile_glsl(path, target_env)
    assert r.ok, r.text
    return r.data
