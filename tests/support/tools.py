"""The external tools the tests run (lavapipe, glslangValidator, spirv-val), found or refused
in one way: a missing tool fails the test under CI=true, where `.ci/run` installs every one
(a skip there would hide a test that never ran), and skips it locally."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
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


def emitted_lines(asm: str, prefix: str) -> set[str]:
    """The instruction lines of `asm` that start with `prefix`, comments stripped."""
    return {ln.split(";")[0].strip() for ln in asm.splitlines() if ln.strip().startswith(prefix)}


def assert_gfx1100_encodings_match_llvm_mc(lines: list[str], wave: int) -> None:
    """Each line assembles (radcc's assembler, gfx1100) to the bytes llvm-mc-19 gives it."""
    from radcc.isa.assembler import assemble
    from radcc.oracle import llvm_mc
    from radcc.target import get_target

    llvm_mc.require()
    target = get_target("gfx1100")
    for line, ref in zip(lines, llvm_mc.encode(lines, wave64=wave == 64), strict=True):
        assert ref.data is not None, f"llvm-mc-19 rejects {line!r}: {ref.error}"
        a = assemble(line, target, wave_size=wave)
        st = [s for s in a.statements if s.kind == "inst"][0]
        assert st.data == ref.data, f"{line}: radcc {st.data.hex()} llvm-mc {ref.data.hex()}"


def run_radcc(*argv: str) -> tuple[int, str, str]:
    """`python -m radcc ARGV` from the checkout's root: exit status, stdout, stderr."""
    root = Path(__file__).resolve().parents[2]
    p = subprocess.run([sys.executable, "-m", "radcc", *argv], capture_output=True, text=True,
                       cwd=root, env={**os.environ, "PYTHONPATH": str(root)})
    return p.returncode, p.stdout, p.stderr


def assert_glsl_refused_by_name(tmp_path: Path, source: str, message: str) -> None:
    """A GLSL compute shader glslang accepts (vulkan1.2) is refused by `radcc compile`:
    exit status 1, ``message`` at a SPIR-V word offset, no traceback."""
    src = tmp_path / "s.comp"
    src.write_text(source)
    r = spirv_tools.compile_glsl(src, "vulkan1.2")
    assert r.ok, r.text
    spv = tmp_path / "s.spv"
    spv.write_bytes(r.data)
    rc, _, err = run_radcc("compile", str(spv), "-o", str(tmp_path / "s.o"))
    assert rc == 1 and message in err and "word " in err and "Traceback" not in err, err
