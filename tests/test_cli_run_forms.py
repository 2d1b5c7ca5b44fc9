"""`radcc run` (issue 15 item 6): one help for both forms, --quiet and --max-instructions in
both, the exit statuses (0, 1, 3 strict-mode violations, 4 fault or instruction limit),
``.npy`` buffers back as ``.npy``, typed push constants, HLSL."""

from __future__ import annotations

import resource
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
SEEDS = ROOT / "tests" / "fuzz" / "corpus" / "seeds"
# a scalar load read before its s_waitcnt: a strict-mode violation (waitcnt)
MISSING_WAIT = """
.text
.globl k
.p2align 8
.type k,@function
k:
  s_load_b32 s2, s[0:1], 0x0
  v_mov_b32 v1, s2
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 16
  .amdhsa_next_free_vgpr 2
  .amdhsa_next_free_sgpr 3
.end_amdhsa_kernel
"""
needs_glslang = pytest.mark.skipif(shutil.which("glslangValidator") is None,
                                   reason="needs glslangValidator (glslang-tools)")


def radcc(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "radcc", *args], capture_output=True,
                          text=True, cwd=ROOT)


def test_help_documents_both_forms_and_exit_statuses() -> None:
    r = radcc("run", "--help")
    assert r.returncode == 0
    out = r.stdout
    k, s = out.index("KERNEL.o form:"), out.index("SHADER form:")
    for opt in ("--quiet", "--max-instructions"):
        assert opt in out[k:s] and opt in out[s:], opt
    assert "--push-values" in out[s:] and "--buffer" in out[s:] and "--arg" in out[k:s]
    for status in ("0 success", "1 bad input", "2 an internal error",
                   "3 strict-mode violations", "4 the kernel faulted"):
        assert status in " ".join(out.split()), status
    assert radcc("run", str(EX / "saxpy.spv"), "--help").stdout == out


def _saxpy(tmp: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return radcc("run", str(EX / "saxpy.comp"), "--groups", "4",
                 "--buffer", f"0:0={EX / 'saxpy_x.npy'}", "--buffer", f"0:1={tmp / 'y.npy'}",
                 "--out", str(tmp / "out"), *extra)


@needs_glslang
def test_shader_form_npy_out_quiet_and_push_values(tmp_path: Path) -> None:
    x = np.load(EX / "saxpy_x.npy")
    y = np.arange(256, dtype=np.float32).reshape(16, 16)  # a shape to keep
    np.save(tmp_path / "y.npy", y)
    r = _saxpy(tmp_path, "--push", str(EX / "saxpy_a.bin"))
    assert r.returncode == 0 and "0 violation" in r.stdout, r.stderr
    got = np.load(tmp_path / "out" / "0_1.npy")
    assert got.dtype == np.float32 and got.shape == (16, 16)
    np.testing.assert_array_equal(got, np.float32(2.0) * x.reshape(16, 16) + y)
    assert (tmp_path / "out" / "0_1.bin").read_bytes() == got.tobytes()
    np.testing.assert_array_equal(np.load(tmp_path / "out" / "0_0.npy"), x)
    # typed push constants give the same result; --quiet prints nothing
    r = _saxpy(tmp_path, "--push-values", "f32:2.0", "--quiet", "--max-instructions", "100000")
    assert r.returncode == 0 and r.stdout == "" and r.stderr == "", r.stderr
    np.testing.assert_array_equal(np.load(tmp_path / "out" / "0_1.npy"), got)


@pytest.mark.parametrize("value,msg", [
    ("x:1", "expected TYPE:VALUE"), ("f32", "expected TYPE:VALUE"), ("f32:abc", "not a number"),
    ("u8:300", "does not fit in u8"), ("i32:1.5", "not an integer")])
def test_push_values_bad(value: str, msg: str, tmp_path: Path) -> None:
    r = radcc("run", str(EX / "saxpy.spv"), "--groups", "1", "--buffer", "0:0=zeros:256",
              "--buffer", "0:1=zeros:256", "--out", str(tmp_path), "--push-values", value)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith("radcc run: error: argument --push-values") and msg in r.stderr
    assert len(r.stderr.splitlines()) == 1


def test_push_and_push_values_exclusive(tmp_path: Path) -> None:
    r = radcc("run", str(EX / "saxpy.spv"), "--groups", "1", "--out", str(tmp_path),
              "--push", str(EX / "saxpy_a.bin"), "--push-values", "f32:1")
    assert r.returncode == 1 and "not allowed with" in r.stderr


def test_push_values_layout() -> None:
    from radcc.cli.run import _push_values

    assert _push_values("u8:1,u32:7,f16:1.0,f64:2") == (
        b"\x01\0\0\0" + np.uint32(7).tobytes() + np.float16(1).tobytes() + bytes(6)
        + np.float64(2).tobytes())


@needs_glslang
def test_runaway_shader_stops_within_seconds_with_status_4(tmp_path: Path) -> None:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = radcc("run", str(SEEDS / "runaway.comp"), "--groups", "1", "--buffer", "0:0=zeros:256",
              "--push-values", "u32:4000000000", "--out", str(tmp_path), "--quiet")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime
    assert r.returncode == 4, r.stderr
    assert "instruction limit of 1000000 reached" in r.stderr
    assert "--max-instructions" in r.stderr and "Traceback" not in r.stderr
    assert cpu < 30, cpu  # CPU seconds (wall time depends on the machine's load)


def test_kernel_form_strict_violation_is_status_3(tmp_path: Path) -> None:
    src, obj = tmp_path / "w.s", tmp_path / "w.o"
    src.write_text(MISSING_WAIT)
    assert radcc("mc", "--filetype=obj", str(src), "-o", str(obj)).returncode == 0
    args = ["run", str(obj), "--kernel", "k", "--groups", "1", "--block", "32",
            "--out", str(tmp_path / "o")]
    r = radcc(*args)
    assert r.returncode == 3 and "strict mode: 1 violation" in r.stdout, r.stdout + r.stderr
    r = radcc(*args, "--quiet")
    assert r.returncode == 3 and r.stdout.startswith("strict mode: 1 violation")
    r = radcc(*args, "--no-strict", "--quiet")
    assert r.returncode == 0 and r.stdout == ""


def test_kernel_form_npy_out(tmp_path: Path) -> None:
    x = np.arange(64, dtype=np.float32).reshape(8, 8)
    np.save(tmp_path / "x.npy", x)
    r = radcc("run", str(SEEDS / "saxpy.o"), "--kernel", "saxpy", "--groups", "1", "--block",
              "64", "--arg", f"x={tmp_path / 'x.npy'}", "--arg", "y=zeros:256", "--arg", "a=2",
              "--arg", "n=64", "--out", str(tmp_path / "o"), "--quiet")
    assert r.returncode in (0, 3), r.stderr  # (the seed object's waits are clang's)
    got = np.load(tmp_path / "o" / "x.npy")
    assert got.dtype == np.float32 and got.shape == (8, 8)
    np.testing.assert_array_equal(got, x)
    assert not (tmp_path / "o" / "y.npy").exists()  # given as zeros: raw bytes only


@needs_glslang
def test_hlsl_shader_runs(tmp_path: Path) -> None:
    src = tmp_path / "k.hlsl"
    src.write_text("RWStructuredBuffer<float> b : register(u0);\n[numthreads(64, 1, 1)]\n"
                   "void CSMain(uint3 id : SV_DispatchThreadID) { b[id.x] = b[id.x] * 2.0 + 1.0; }\n")
    b = np.linspace(-4, 4, 128, dtype=np.float32)
    np.save(tmp_path / "b.npy", b)
    r = radcc("run", str(src), "--entry", "CSMain", "--groups", "2", "--buffer",
              f"0:0={tmp_path / 'b.npy'}", "--out", str(tmp_path / "o"))
    assert r.returncode == 0, r.stderr
    np.testing.assert_array_equal(np.load(tmp_path / "o" / "0_0.npy"), b * 2 + 1)
