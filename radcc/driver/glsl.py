"""GLSL (or HLSL) source to SPIR-V through glslangValidator (`glsl_to_spirv`).

The drivers take SPIR-V; GLSL is a convenience of the command line (`radcc.cli`) and the
Python API (`radcc.driver.api`), which both come here. glslangValidator (Debian package
glslang-tools) is run as ``glslangValidator -V --target-env vulkan1.3 -S STAGE``; its
messages are passed on in `GlslError` (``FILE:LINE: ...``).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

__all__ = ["GlslError", "glsl_to_spirv", "STAGES"]

# glslangValidator -S stage names
STAGES = ("comp", "vert", "frag", "geom", "tesc", "tese", "mesh", "task")


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
        cmd = [exe, "-V", "--target-env", "vulkan1.3", "-S", stage,
               *(["-D", "-e", entry or "main"] if hlsl else []),
               *[f"-D{x}" for x in defines], p, "-o", str(out)]
        r = subprocess.run(cmd, capture_output=True)
        text = (r.stdout + r.stderr).decode("utf-8", "replace")  # it echoes source bytes
        if r.returncode != 0 or not out.exists():
            lines = [ln.replace(p, name) for ln in text.splitlines()
                     if ln.strip() and ln.strip() != p]
            raise GlslError("\n".join(lines) or f"{name}: glslangValidator failed")
        return out.read_bytes()
