"""`radcc objdump` against llvm-objdump-19 -d: byte-identical listings of radcc's code
objects (wave32 and wave64), clang-19's (gfx1100 and gfx1030, several kernels per
object, loops and branches) and llvm-mc's relocatable objects (branch labels)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "tests" / "emu" / "kernels"
GLSL = ROOT / "tests" / "e2e" / "glsl"
TOOLS = ("llvm-objdump-19", "clang-19", "llvm-mc-19", "glslangValidator")


@pytest.fixture(scope="module", autouse=True)
def _tools() -> None:
    for t in TOOLS:
        if shutil.which(t) is None:
            pytest.fail(f"{t} is required (Debian packages llvm-19 clang-19 lld-19 "
                        f"glslang-tools)")


def radcc(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "radcc", *args], capture_output=True,
                          text=True, cwd=ROOT)


def assert_same(obj: Path, *mattr: str) -> None:
    want = subprocess.run(["llvm-objdump-19", "-d", *mattr, str(obj)], capture_output=True,
                          text=True, check=True).stdout
    got = radcc("objdump", *mattr, str(obj))
    assert got.returncode == 0, got.stderr
    assert got.stdout == want
    assert "Disassembly of section .text" in got.stdout


@pytest.mark.parametrize("shader,wave,mcpu", [
    ("cf_for_loops", 32, "gfx1100"), ("cf_for_loops", 64, "gfx1100"),
    ("cf_uniform_select", 64, "gfx1100"), ("builtins_subgroup", 32, "gfx1100"),
    ("shared_reduce", 32, "gfx1100"), ("sg_loop", 64, "gfx1100"),
    ("cf_for_loops", 64, "gfx1030"), ("shared_reduce", 32, "gfx1030"),
    ("arith_f32", 64, "gfx1010"), ("const_tables", 32, "gfx1100")])
def test_radcc_objects(tmp_path: Path, shader: str, wave: int, mcpu: str) -> None:
    src = GLSL / f"{shader}.comp"
    obj = tmp_path / "k.o"
    r = radcc("compile", str(src), f"--wave{wave}", f"--mcpu={mcpu}", "-o", str(obj))
    assert r.returncode == 0, r.stderr
    assert_same(obj, *(["--mattr=+wavefrontsize64"] if wave == 64 else []))


@pytest.mark.parametrize("mcpu", ["gfx1100", "gfx1030"])
@pytest.mark.parametrize("kernel", ["collatz", "prefix_sum", "matvec", "i64_div", "atomic_cas"])
def test_clang_objects(tmp_path: Path, mcpu: str, kernel: str) -> None:
    obj = tmp_path / "k.o"
    subprocess.run(["clang-19", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
                    f"-mcpu={mcpu}", "-nogpulib", "-O2", str(KERNELS / f"{kernel}.cl"),
                    "-o", str(obj)], check=True, capture_output=True)
    assert_same(obj)


def test_llvm_mc_relocatable_object(tmp_path: Path) -> None:
    """llvm-mc's ET_REL object of radcc's -S output: its BBn labels are symbols, and
    branches name them."""
    asm = tmp_path / "k.s"
    r = radcc("compile", str(ROOT / "examples" / "saxpy.comp"), "-S", "-o", str(asm))
    assert r.returncode == 0, r.stderr
    obj = tmp_path / "k.o"
    subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100",
                    "-filetype=obj", str(asm), "-o", str(obj)], check=True)
    assert_same(obj)
    assert "s_cbranch_execz BB" in radcc("objdump", str(obj)).stdout


def test_bad_input(tmp_path: Path) -> None:
    bad = tmp_path / "x.o"
    bad.write_bytes(b"not an elf file" * 8)
    r = radcc("objdump", str(bad))
    assert r.returncode == 1 and r.stderr.startswith(f"{bad}: error: not an ELF file")
    assert "Traceback" not in r.stderr and len(r.stderr.splitlines()) == 1
    r = radcc("objdump", str(tmp_path / "missing.o"))
    assert r.returncode == 1 and "missing.o" in r.stderr and "Traceback" not in r.stderr
    r = radcc("objdump", "--mattr=+foo", str(bad))
    assert r.returncode == 1 and "+foo" in r.stderr and "Traceback" not in r.stderr


def test_mc_disassemble_of_an_object_points_to_objdump(tmp_path: Path) -> None:
    obj = tmp_path / "k.o"
    assert radcc("compile", str(ROOT / "examples" / "saxpy.comp"), "-o", str(obj)).returncode == 0
    r = radcc("mc", "--disassemble", str(obj))
    assert r.returncode == 1 and "radcc objdump" in r.stderr
    assert len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr
