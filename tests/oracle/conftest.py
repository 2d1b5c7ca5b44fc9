"""Fixtures of the oracle tests: GLSL → SPIR-V with glslangValidator, lavapipe present.

Under CI=true a missing tool or driver fails the test; locally it skips it.
"""

from __future__ import annotations

import hashlib
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.tools import require_tool

GLSLANG = "glslangValidator"


_cache: dict[tuple[str, str, str], bytes] = {}


def compile_glsl(source: str, target_env: str = "vulkan1.1", stage: str = "comp") -> bytes:
    """Compile a GLSL shader of `stage` (glslang's file extension: comp, vert, frag) to
    SPIR-V (cached per process)."""
    require_tool(GLSLANG, "glslang-tools")
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

