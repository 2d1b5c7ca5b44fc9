"""`radcc compile -S` is a complete program (issue 15 item 3): assembling it with
``radcc mc --filetype=obj`` gives the code object ``radcc compile`` writes (the same kernel
descriptor, ``.amdgpu_metadata`` and code), llvm-mc-19 assembles it to the same
descriptor, metadata and ``.text``, and ``radcc run`` runs the re-assembled kernel."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from radcc.cli import main
from radcc.codeobj.elfread import read_code_object

ROOT = Path(__file__).resolve().parents[2]
GLSL = ROOT / "tests" / "e2e" / "glsl"
CASES = ["arith_f32", "cf_switch", "cf_nested_divergent", "const_tables", "cf_break_continue",
         "sg_loop", "shared_reduce"]
CASES = [c for c in CASES if (GLSL / f"{c}.comp").exists()]
pytestmark = pytest.mark.skipif(shutil.which("glslangValidator") is None,
                                reason="needs glslangValidator (glslang-tools)")


def _parts(data: bytes) -> tuple[bytes, bytes, object]:
    co = read_code_object(data)
    (k,) = co.kernels.values()
    return co.sections[".text"].data, k.descriptor_bytes, co.metadata


@pytest.mark.parametrize("wave", ["--wave32", "--wave64"])
@pytest.mark.parametrize("case", CASES)
def test_asm_reassembles_to_the_same_code_object(case: str, wave: str, tmp_path: Path) -> None:
    src = GLSL / f"{case}.comp"
    obj, asm, re_obj = tmp_path / "k.o", tmp_path / "k.s", tmp_path / "k2.o"
    assert main(["compile", str(src), wave, "-o", str(obj)]) == 0
    assert main(["compile", str(src), wave, "-S", "--stats", "-o", str(asm)]) == 0
    text = asm.read_text()
    assert ".amdhsa_kernel" in text and ".amdgpu_metadata" in text
    assert ("radcc mc --wave64" in text) == (wave == "--wave64")
    assert main(["mc", "--filetype=obj", str(asm), "-o", str(re_obj), wave]) == 0
    want, got = obj.read_bytes(), re_obj.read_bytes()
    assert _parts(got) == _parts(want)
    assert got == want
    # no run of empty block labels: every label is followed by an instruction
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.strip().startswith(";")]
    for a, b in zip(lines, lines[1:], strict=False):
        assert not (a.startswith("BB") and a.endswith(":") and b.startswith("BB")
                    and b.endswith(":")), (a, b)


@pytest.mark.skipif(shutil.which("llvm-mc-19") is None, reason="needs llvm-mc-19")
@pytest.mark.parametrize("case", CASES[:4])  # const_tables: constant data after the code
def test_llvm_mc_assembles_the_same_kernel(case: str, tmp_path: Path) -> None:
    """The independent assembler: llvm-mc-19's relocatable object has the same code,
    metadata and descriptor (but the entry offset, which is a relocation there)."""
    src = GLSL / f"{case}.comp"
    obj, asm, rel = tmp_path / "k.o", tmp_path / "k.s", tmp_path / "rel.o"
    assert main(["compile", str(src), "-o", str(obj)]) == 0
    assert main(["compile", str(src), "-S", "-o", str(asm)]) == 0
    subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100",
                    "--filetype=obj", str(asm), "-o", str(rel)], check=True)
    text, kd, meta = _parts(obj.read_bytes())
    text2, kd2, meta2 = _parts(rel.read_bytes())
    assert text2 == text[:len(text2)] and len(text2) == len(text)
    assert kd2[:16] + kd2[24:] == kd[:16] + kd[24:]
    assert meta2 == meta


def test_run_the_reassembled_kernel(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    asm, obj, out = tmp_path / "k.s", tmp_path / "k.o", tmp_path / "out"
    assert main(["compile", str(ROOT / "examples" / "saxpy.comp"), "-S", "-o", str(asm)]) == 0
    assert main(["mc", "--filetype=obj", str(asm), "-o", str(obj)]) == 0
    x = np.load(ROOT / "examples" / "saxpy_x.npy")
    y = np.load(ROOT / "examples" / "saxpy_y.npy")
    assert main(["run", str(obj), "--kernel", "main", "--groups", "4", "--block", "64",
                 "--arg", f"set0_binding0={ROOT / 'examples' / 'saxpy_x.npy'}",
                 "--arg", f"set0_binding1={ROOT / 'examples' / 'saxpy_y.npy'}",
                 "--arg", f"set0_binding0_size={x.nbytes}",
                 "--arg", f"set0_binding1_size={y.nbytes}",
                 "--arg", f"push_constants={np.float32(2.0).view(np.uint32)}",
                 "--out", str(out)]) == 0
    assert "0 violation" in capsys.readouterr().out
    got = np.frombuffer((out / "set0_binding1.bin").read_bytes(), np.float32)
    np.testing.assert_array_equal(got, np.float32(2.0) * x + y)
