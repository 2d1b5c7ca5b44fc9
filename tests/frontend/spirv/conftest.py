"""The GLSL shader suite, compiled by glslangValidator for each Vulkan target."""

from __future__ import annotations

from pathlib import Path

import pytest

from radcc.oracle import spirv_tools

SHADERS = Path(__file__).parent / "shaders"
ENVS = ("vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3")
_ORDER = {e: k for k, e in enumerate(ENVS)}


def min_env(path: Path) -> str:
    for line in path.read_text().splitlines():
        if line.startswith("// min-env:"):
            return line.split(":", 1)[1].strip()
    return ENVS[0]


def cases() -> list[tuple[str, str]]:
    """(shader file name, target env) for every env the shader supports."""
    out = []
    for p in sorted(SHADERS.glob("*.comp")):
        out += [(p.name, e) for e in ENVS if _ORDER[e] >= _ORDER[min_env(p)]]
    return out


_cache: dict[tuple[str, str, tuple[str, ...]], bytes] = {}


def compiled(name: str, env: str, *flags: str) -> bytes:
    key = (name, env, flags)
    if key not in _cache:
        spirv_tools.require()
        r = spirv_tools.compile_glsl(SHADERS / name, env, *flags)
        assert r.ok, r.text
        _cache[key] = r.data
    return _cache[key]


@pytest.fixture(scope="session")
def shader_suite() -> list[tuple[str, str, bytes]]:
    return [(n, e, compiled(n, e)) for n, e in cases()]
