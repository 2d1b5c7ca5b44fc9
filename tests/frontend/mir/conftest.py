"""Helpers for the MIR tests: GLSL compiled by glslangValidator, run by the MIR
interpreter and by lavapipe (the oracle)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from radcc.oracle import spirv_tools

_cache: dict[tuple[str, str], bytes] = {}


def glsl_to_spirv(src: str, env: str = "vulkan1.1") -> bytes:
    key = (src, env)
    if key not in _cache:
        spirv_tools.require()
        with tempfile.TemporaryDirectory() as d:
            p = Path(d) / "shader.comp"
            p.write_text(src)
            r = spirv_tools.compile_glsl(p, env)
            assert r.ok, r.text
            _cache[key] = r.data
    return _cache[key]

