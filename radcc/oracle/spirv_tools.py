"""glslangValidator and SPIRV-Tools (spirv-as, spirv-dis, spirv-val) as oracles.

Debian packages ``glslang-tools`` and ``spirv-tools``. Tests compile GLSL with
glslang and draw expectations about SPIR-V from spirv-dis and spirv-val.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

GLSLANG = os.environ.get("RADCC_GLSLANG", "glslangValidator")
TOOLS = ("spirv-as", "spirv-dis", "spirv-val")


def available() -> bool:
    return all(shutil.which(t) for t in (GLSLANG, *TOOLS))


def require() -> None:
    """Fail (not skip) when a tool is missing: CI must install it."""
    missing = [t for t in (GLSLANG, *TOOLS) if not shutil.which(t)]
    if missing:
        raise RuntimeError(f"{', '.join(missing)} not found: install glslang-tools and spirv-tools")


@dataclass
class Result:
    ok: bool
    data: bytes
    text: str  # stdout + stderr


def compile_glsl(path: str | Path, target_env: str = "vulkan1.3", *flags: str) -> Result:
    """``glslangValidator -V --target-env ENV [flags] PATH`` -> SPIR-V bytes."""
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "out.spv"
        p = subprocess.run(
            [GLSLANG, "-V", "--target-env", target_env, *flags, str(path), "-o", str(out)],
            capture_output=True,
            text=True,
        )
        data = out.read_bytes() if p.returncode == 0 and out.exists() else b""
        return Result(p.returncode == 0, data, p.stdout + p.stderr)


def assemble(text: str, target_env: str = "vulkan1.3", *flags: str) -> bytes:
    """``spirv-as`` of assembly text; raises RuntimeError with its message on failure."""
    p = subprocess.run(
        ["spirv-as", "--target-env", target_env, *flags, "-o", "-", "-"],
        input=text.encode(),
        capture_output=True,
    )
    if p.returncode != 0:
        raise RuntimeError(f"spirv-as failed: {p.stderr.decode()}")
    return p.stdout


def disassemble(data: bytes, *flags: str) -> Result:
    """``spirv-dis --raw-id --no-color [flags]``."""
    p = subprocess.run(
        ["spirv-dis", "--raw-id", "--no-color", *flags, "-"], input=data, capture_output=True
    )
    return Result(p.returncode == 0, data, (p.stdout + p.stderr).decode(errors="replace"))


def instruction_offsets(data: bytes) -> list[int]:
    """Word offset of each instruction, from ``spirv-dis --offsets`` (byte offsets)."""
    r = disassemble(data, "--offsets", "--no-header")
    if not r.ok:
        raise RuntimeError(r.text)
    return [int(line.rsplit(";", 1)[1], 16) // 4 for line in r.text.splitlines() if ";" in line]


def validate(data: bytes, target_env: str = "vulkan1.3") -> Result:
    p = subprocess.run(
        ["spirv-val", "--target-env", target_env, "-"], input=data, capture_output=True
    )
    return Result(p.returncode == 0, data, (p.stdout + p.stderr).decode(errors="replace"))
