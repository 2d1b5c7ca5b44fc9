"""GLSL (or HLSL) source to SPIR-V through glslangValidator (`glsl_to_spirv`).

The drivers take SPIR-V; GLSL is a convenience of the command line (`radcc.cli`) and the
Python API (`radcc.driver.api`), which both come here. glslangValidator (Debian package
glslang-tools) is run as ``glslangValidator -V --target-env vulkan1.3 -S STAGE`` (HLSL:
``-D -e ENTRY``, vulkan1.1; a missing HLSL entry point is an error, not glslang's
warning and an empty shader); its
messages are passed on in `GlslError` (``FILE:LINE: ...``).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

__all__ = ["COMPILED_STAGES", "GlslError", "STAGES", "STAGE_NAMES", "glsl_to_spirv",
           "stage_refusal"]

# glslangValidator's -S stage names (also the GLSL file extensions) and what a message
# calls them
STAGE_NAMES: dict[str, str] = {
    "comp": "compute", "vert": "vertex", "frag": "fragment", "geom": "geometry",
    "tesc": "tessellation control", "tese": "tessellation evaluation", "mesh": "mesh",
    "task": "task", "rgen": "ray generation", "rint": "intersection", "rahit": "any-hit",
    "rchit": "closest-hit", "rmiss": "miss", "rcall": "callable"}
STAGES = tuple(STAGE_NAMES)
COMPILED_STAGES = frozenset({"comp", "vert", "frag"})  # the stages radcc compiles


def stage_refusal(stage: str) -> str | None:
    """None if radcc compiles `stage`, else the message refusing it by name."""
    if stage in COMPILED_STAGES:
        return None
    kinds = ", ".join(STAGE_NAMES[s] for s in STAGES if s in COMPILED_STAGES)
    what = " (ray tracing)" if stage.startswith("r") else ""
    return (f"{STAGE_NAMES[stage]} shaders{what} are not supported yet; radcc compiles "
            f"{kinds} shaders")


class GlslError(Exception):
    """glslangValidator is missing or refused the source (its messages)."""


def glsl_to_spirv(path: str | Path, stage: str = "comp", defines: Sequence[str] = (), *,
                  entry: str | None = None, hlsl: bool = False,
                  shown_as: str | None = None) -> bytes:
    """SPIR-V of the GLSL (HLSL with `hlsl`) file `path` for `stage`; `defines` are
    ``NAME=VALUE`` or ``NAME``; `entry` is the HLSL entry point (default ``main``);
    `shown_as` replaces the path in the messages."""
    p = str(path)
    name = shown_as or p
    if stage not in STAGES:
        raise GlslError(f"{name}: unknown stage '{stage}' ({', '.join(STAGES)})")
    exe = shutil.which("glslangValidator")
    if exe is None:
        raise GlslError(f"{name}: compiling GLSL needs glslangValidator (Debian package "
                        f"glslang-tools); or pass SPIR-V")
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "out.spv"
        # HLSL: glslang's HLSL front end decorates storage buffers BufferBlock, which
        # SPIR-V 1.4+ (vulkan1.2+) forbids: SPIR-V 1.3 (vulkan1.1)
        env = "vulkan1.1" if hlsl else "vulkan1.3"
        cmd = [exe, "-V", "--target-env", env, "-S", stage,
               *(["-D", "-e", entry or "main"] if hlsl else []),
               *[f"-D{x}" for x in defines], p, "-o", str(out)]
        import subprocess  # GLSL input only (start-up: SPIR-V compiles do not load it)

        r = subprocess.run(cmd, capture_output=True)
        text = (r.stdout + r.stderr).decode("utf-8", "replace")  # it echoes source bytes
        if r.returncode != 0 or not out.exists():
            lines = [ln.replace(p, name) for ln in text.splitlines()
                     if ln.strip() and ln.strip() != p]
            raise GlslError("\n".join(lines) or f"{name}: glslangValidator failed")
        if hlsl and "Entry point not found" in text:  # glslang only warns, with an empty main
            raise GlslError(f"{name}:1:1: error: no HLSL entry point '{entry or 'main'}' "
                            "(--entry NAME names it)")
        return out.read_bytes()
