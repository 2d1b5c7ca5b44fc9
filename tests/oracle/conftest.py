"""Fixtures of the oracle tests: GLSL → SPIR-V with glslangValidator, lavapipe present.

Under CI=true a missing tool or driver fails the test; locally it skips it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from radcc.oracle import lavapipe

GLSLANG = "glslangValidator"


def _missing(msg: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(msg)
    pytest.skip(msg)


_cache: dict[tuple[str, str, str], bytes] = {}


def compile_glsl(source: str, target_env: str = "vulkan1.1", stage: str = "comp") -> bytes:
    """Compile a GLSL shader of `stage` (glslang's file extension: comp, vert, frag) to
    SPIR-V (cached per process)."""
    if shutil.which(GLSLANG) is None:
        _missing(f"{GLSLANG} not installed (Debian package glslang-tools)")
    key = (source, target_env, stage)
    if key not in _cache:
        with tempfile.TemporaryDirectory() as d:
            name = hashlib.sha1(source.encode()).hexdigest()[:12]
            src, spv = Path(d, f"{name}.{stage}"), Path(d, f"{name}.spv")
            src.write_text(source)
            p = subprocess.run([GLSLANG, "-V", "--target-env", target_env, str(src), "-o",
                                str(spv)], capture_output=True, text=True)
            if p.returncode:
                raise AssertionError(f"glslangValidator failed:\n{p.stdout}{p.stderr}")
            _cache[key] = spv.read_bytes()
    return _cache[key]


@pytest.fixture
def glsl() -> Callable[..., bytes]:
    return compile_glsl


@pytest.fixture
def lvp() -> lavapipe.DeviceInfo:
    """lavapipe's device info; fails under CI=true (skips locally) when it is missing."""
    try:
        return lavapipe.device_info()
    except lavapipe.LavapipeError as e:
        _missing(f"lavapipe unavailable: {e}")
        raise
