"""`radcc run`: the CLI end to end and bad input (clear message, exit 1, no traceback)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "radcc", "run", *args], capture_output=True,
                          text=True)


@pytest.mark.parametrize("chip, wave", [("gfx1100", 32), ("gfx1030", 32), ("gfx1030", 64),
                                        ("gfx1010", 64)])
def test_saxpy_cli(compile_cl, tmp_path: Path, chip: str, wave: int) -> None:
    obj = tmp_path / "k.o"
    obj.write_bytes(compile_cl("saxpy", "O3", wave, chip))
    x = np.arange(128, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    (tmp_path / "y.bin").write_bytes(np.ones(128, np.float32).tobytes())
    r = run(str(obj), "--kernel", "saxpy", "--groups", "2", "--block", "64", "--arg",
            f"x={tmp_path / 'x.npy'}", "--arg", f"y={tmp_path / 'y.bin'}", "--arg", "a=2.0",
            "--arg", "n=128", "--out", str(tmp_path / "out"), f"--wave{wave}")
    assert r.returncode == 0, r.stderr
    assert "0 violation" in r.stdout
    y = np.frombuffer((tmp_path / "out" / "y.bin").read_bytes(), np.float32)
    np.testing.assert_array_equal(y, 2 * x + 1)
    assert (tmp_path / "out" / "x.bin").exists()


def _bad(*args: str, msg: str, status: int = 1) -> None:
    r = run(*args)
    assert r.returncode == status, r.stderr
    assert "Traceback" not in r.stderr
    assert msg in r.stderr, r.stderr


def test_bad_inputs(compile_cl, tmp_path: Path) -> None:
    obj = tmp_path / "k.o"
    obj.write_bytes(compile_cl("saxpy", "O3", 32))
    junk = tmp_path / "junk.o"
    junk.write_bytes(b"\x7fELF" + bytes(100))
    common = ["--groups", "1", "--block", "64", "--out", str(tmp_path / "o")]
    args = ["--arg", "x=zeros:256", "--arg", "y=zeros:256", "--arg", "a=1", "--arg", "n=64"]
    _bad(str(junk), "--kernel", "saxpy", *common, msg="code object")
    _bad(str(tmp_path / "missing.o"), "--kernel", "saxpy", *common, msg="cannot read")
    _bad(str(obj), "--kernel", "nope", *common, *args, msg="no kernel named 'nope'")
    _bad(str(obj), "--kernel", "saxpy", *common, "--arg", "x=zeros:256", msg="missing argument")
    _bad(str(obj), "--kernel", "saxpy", *common, *args, "--arg", "q=1", msg="no argument 'q'")
    _bad(str(obj), "--kernel", "saxpy", *common, "--arg", "x=zeros:256", "--arg", "y=zeros:256",
         "--arg", "a=abc", "--arg", "n=64", msg="not a number")
    _bad(str(obj), "--kernel", "saxpy", *common, *args, "--wave64", msg="wave32")
    _bad(str(obj), "--kernel", "saxpy", "--groups", "0", "--block", "64", "--out", "o", *args,
         msg="positive")
    # a buffer too small for the grid: a fault naming instruction, address and lane
    _bad(str(obj), "--kernel", "saxpy", *common, "--arg", "x=zeros:16", "--arg", "y=zeros:256",
         "--arg", "a=1", "--arg", "n=64", msg="lane", status=4)


def test_runaway_kernel_limit(tmp_path: Path) -> None:
    src = tmp_path / "loop.s"
    src.write_text("""
.text
.globl spin
.p2align 8
.type spin,@function
spin:
  s_branch spin
.rodata
.p2align 6
.amdhsa_kernel spin
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 1
.end_amdhsa_kernel
""")
    obj = tmp_path / "loop.o"
    r = subprocess.run([sys.executable, "-m", "radcc", "mc", "--mcpu=gfx1100", "--filetype=obj",
                        "-o", str(obj), str(src)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    _bad(str(obj), "--kernel", "spin", "--groups", "1", "--block", "32", "--out",
         str(tmp_path / "o"), "--max-instructions", "5000", msg="instruction limit",
         status=4)
