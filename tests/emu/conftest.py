"""Fixtures for the emulator tests: clang-19 compiles the OpenCL C kernels."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

KERNELS = Path(__file__).parent / "kernels"
CLANG = "clang-19"


# the chips the kernel suite runs for: RDNA3, RDNA2 (GFX10.3) and RDNA1 (GFX10.1)
CHIPS = ("gfx1100", "gfx1030", "gfx1010")


def clang_flags(opt: str, wave: int, chip: str = "gfx1100") -> list[str]:
    flags = ["-x", "cl", "-cl-std=CL2.0", "-cl-kernel-arg-info", "-target", "amdgcn-amd-amdhsa",
             f"-mcpu={chip}", "-nogpulib", f"-{opt}"]
    # GFX10's default is wave32 for OpenCL (clang); say so either way
    return flags + (["-mwavefrontsize64"] if wave == 64 else ["-mno-wavefrontsize64"])


@pytest.fixture(scope="session")
def compile_cl(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., bytes]:
    """compile_cl(name, opt, wave, chip) -> code object bytes (cached per session)."""
    if shutil.which(CLANG) is None:
        pytest.fail("clang-19 is required (Debian packages clang-19 lld-19)")
    out = tmp_path_factory.mktemp("cl")
    cache: dict[tuple[str, str, int, str], bytes] = {}

    def run(name: str, opt: str = "O3", wave: int = 32, chip: str = "gfx1100") -> bytes:
        key = (name, opt, wave, chip)
        if key not in cache:
            obj = out / f"{name}_{opt}_{wave}_{chip}.o"
            subprocess.run([CLANG, *clang_flags(opt, wave, chip), str(KERNELS / f"{name}.cl"),
                            "-o", str(obj)], check=True, capture_output=True)
            cache[key] = obj.read_bytes()
        return cache[key]

    return run
