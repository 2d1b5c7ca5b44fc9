"""`radcc compile` and `radcc run SHADER`: GLSL in, code object / assembly / buffers out;
results checked against lavapipe, errors without tracebacks."""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

import numpy as np
import pytest

from radcc.cli import main

pytestmark = pytest.mark.skipif(shutil.which("glslangValidator") is None,
                                reason="needs glslangValidator")

SRC = """#version 450
layout(local_size_x = 64) in;
layout(set=0, binding=0) readonly buffer A { float a[]; };
layout(set=1, binding=2) buffer B { float b[]; };
layout(push_constant) uniform P { float k; } pc;
void main() { uint i = gl_GlobalInvocationID.x; b[i] = a[i] * pc.k + SHIFT; }
"""


@pytest.fixture
def shader(tmp_path: Path) -> Path:
    p = tmp_path / "scale.comp"
    p.write_text(SRC)
    return p


def test_compile_writes_code_object(shader: Path, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "k.o"
    assert main(["compile", str(shader), "--mcpu=gfx1100", "-DSHIFT=1.0", "-o", str(out),
                 "--time-passes"]) == 0
    assert out.read_bytes()[:4] == b"\x7fELF"
    err = capsys.readouterr().err
    for stage in ("parse", "mid-level", "isel", "back end"):
        assert stage in err
    from radcc.emu.api import load

    args = {a[".name"]: a for a in load(out).kernel("main").args if a[".name"]}
    assert args["set0_binding0"][".offset"] == 0
    assert args["set1_binding2"][".offset"] == 8
    assert args["set0_binding0_size"][".offset"] == 16
    assert args["push_constants"][".offset"] == 24


def test_compile_asm_with_stats(shader: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compile", str(shader), "-S", "--wave64", "-DSHIFT=2.0"]) == 0
    asm = capsys.readouterr().out
    assert ".amdhsa_kernel main" in asm and "; VGPRs:" in asm
    assert ".amdhsa_wavefront_size32 0" in asm
    assert "global_store_b32" in asm


def test_glslang_errors_pass_through(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "bad.comp"
    p.write_text("#version 450\nlayout(local_size_x = 1) in;\nvoid main() { x = 1; }\n")
    assert main(["compile", str(p)]) == 1
    err = capsys.readouterr().err
    assert "bad.comp:3" in err and "Traceback" not in err


def test_unknown_suffix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "x.txt"
    p.write_text("")
    assert main(["compile", str(p)]) == 1
    assert "unknown shader type" in capsys.readouterr().err


@pytest.mark.parametrize("wave", [32, 64])
def test_run_shader_matches_lavapipe(shader: Path, tmp_path: Path, wave: int) -> None:
    from radcc.oracle import spirv_tools
    from radcc.oracle.lavapipe import run_compute

    a = np.random.default_rng(1).uniform(-3, 3, 128).astype(np.float32)
    np.save(tmp_path / "a.npy", a)
    (tmp_path / "push.bin").write_bytes(struct.pack("<f", 2.5))
    assert main(["run", str(shader), "--groups", "2", "--buffer", f"0:0={tmp_path / 'a.npy'}",
                 "--buffer", "1:2=zeros:512", "--push", str(tmp_path / "push.bin"),
                 "-DSHIFT=1.0", f"--wave{wave}", "--out", str(tmp_path / "out")]) == 0
    got = (tmp_path / "out" / "1_2.bin").read_bytes()
    r = spirv_tools.compile_glsl(shader, "vulkan1.1", "-DSHIFT=1.0")
    assert r.ok, r.text
    want = run_compute(r.data, groups=(2, 1, 1), buffers={(0, 0): a, (1, 2): 512},
                       push_constants=struct.pack("<f", 2.5))[(1, 2)]
    # radcc fuses a * k + SHIFT into one fma (SPIR-V allows it), lavapipe rounds the
    # product first: equal within half an ulp of the product (|a * k| < 7.5)
    np.testing.assert_allclose(np.frombuffer(got, np.float32), np.frombuffer(want, np.float32),
                               rtol=0, atol=2.0 ** -21)


def test_run_missing_buffer(shader: Path, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(shader), "--groups", "1", "--buffer", "0:0=zeros:256",
                 "-DSHIFT=1.0", "--out", str(tmp_path / "o")]) == 1
    assert "missing --buffer for 1:2" in capsys.readouterr().err


GFX10_CHIPS = ("gfx1010", "gfx1011", "gfx1012", "gfx1013", "gfx1030", "gfx1031", "gfx1032",
               "gfx1033", "gfx1034", "gfx1035", "gfx1036")


@pytest.mark.parametrize("chip", GFX10_CHIPS)
def test_compile_for_gfx10_chips(chip: str, shader: Path, tmp_path: Path) -> None:
    """Every GFX10/10.3 chip: `radcc compile -S` defaults to wave64 (RADV's compute wave
    size there) and llvm-mc-19 -mcpu=<chip> assembles the file; --wave32 is wave32."""
    import subprocess

    from radcc.oracle import llvm_mc

    llvm_mc.require()
    for wave, flag in ((64, None), (32, "--wave32")):
        out = tmp_path / f"k{wave}.s"
        argv = ["compile", str(shader), f"--mcpu={chip}", "-S", "-DSHIFT=1.0", "-o", str(out)]
        assert main(argv + ([flag] if flag else [])) == 0
        asm = out.read_text()
        assert f".amdhsa_wavefront_size32 {int(wave == 32)}" in asm
        assert f'.amdgcn_target "amdgcn-amd-amdhsa--{chip}' in asm
        assert "global_store_dword " in asm and "s_delay_alu" not in asm
        attrs = ["-mattr=+wavefrontsize64"] if wave == 64 else []
        p = subprocess.run([llvm_mc.LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={chip}",
                            *attrs, "-filetype=obj", str(out), "-o", str(tmp_path / "k.o")],
                           capture_output=True, text=True)
        assert p.returncode == 0, p.stderr


RUN_SHADER = """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
void main() { uint t = gl_GlobalInvocationID.x; a[t] = a[t] * 3u + t; }
"""


@pytest.mark.parametrize("chip", GFX10_CHIPS)
def test_run_for_gfx10_chips(chip: str, tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    """Every GFX10/10.3 chip: `radcc run SHADER --mcpu=<chip>` compiles and runs it in the
    strict emulator, wave64 by default and wave32 on request, equal to NumPy."""
    src = tmp_path / "k.comp"
    src.write_text(RUN_SHADER)
    a = np.arange(128, dtype=np.uint32) * 7
    np.save(tmp_path / "a.npy", a)
    for wave, flag in ((64, []), (32, ["--wave32"])):
        out = tmp_path / f"o{wave}"
        assert main(["run", str(src), f"--mcpu={chip}", *flag, "--groups", "2",
                     "--buffer", f"0:0={tmp_path / 'a.npy'}", "--out", str(out)]) == 0
        text = capsys.readouterr().out
        assert f"wave{wave}," in text and "0 violation(s)" in text
        np.testing.assert_array_equal(np.load(out / "0_0.npy"), a * 3 + np.arange(128))


def test_compile_help_names_the_wave_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["compile", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "default on GFX10/GFX10.3" in text


def test_compile_lowers_what_the_chip_lacks(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A float atomic add on a buffer has no global_atomic_add_f32 on GFX10.3: a
    compare-and-swap loop (tests/e2e/test_cas_atomics.py runs it)."""
    p = tmp_path / "fadd.comp"
    p.write_text("#version 450\n#extension GL_EXT_shader_atomic_float : require\n"
                 "layout(local_size_x = 32) in;\n"
                 "layout(set=0, binding=0) buffer B { float s; float v[]; };\n"
                 "void main() { atomicAdd(s, v[gl_LocalInvocationIndex]); }\n")
    assert main(["compile", str(p), "--mcpu=gfx1033", "-S", "-o", str(tmp_path / "x.s")]) == 0
    asm = (tmp_path / "x.s").read_text()
    assert "global_atomic_cmpswap " in asm and "global_atomic_add_f32" not in asm
