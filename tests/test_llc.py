"""`radcc llc`: the CLI, its outputs and its errors; end-to-end runs in radcc.emu.

Oracles: llvm-mc-19 assembles the `-S` output to the same .text as the code
object radcc writes; radcc.emu runs the code object and NumPy gives the
expected buffers.
"""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

from radcc.cli import main
from radcc.codeobj.elf import read_code_object
from radcc.oracle import llvm_mc

SQUARE = """\
program gfx1100 wave32 compute name:square
BB0
/* logical preds: / linear preds: / kind: top-level, */
   s2: %1:s[0-1], s1: %2:s[2], v1: %3:v[0] = p_startpgm
   p_logical_start
   s2: %4:s[4-5] = s_load_b64 %1:s[0-1], 0
   s1: %7:s[6], s1: %8:scc = s_lshl_b32 %2:s[2], 6
   v1: %9:v[3] = v_add_nc_u32 %7:s[6], %3:v[0]
   v1: %5:v[1] = v_lshlrev_b32 2, %9:v[3]
   v1: %6:v[2] = v_mul_lo_u32 %9:v[3], %9:v[3]
   v1: %10:v[2] = v_add_nc_u32 7, %6:v[2]
   s_waitcnt simm16:0
   global_store_b32 %5:v[1], %10:v[2], %4:s[4-5]
   p_logical_end
   s_endpgm
"""

# out[i] = i < n ? in[i] * 2 + 1 : out[i]  (a branch on exec, phis already
# eliminated: the value is copied in a parallel copy with a swap)
SCALE = """\
program gfx1100 {wave} compute name:scale
BB0
/* logical preds: / linear preds: / kind: top-level, branch, */
   s2: %1:s[0-1], s1: %2:s[2], v1: %3:v[0] = p_startpgm
   p_logical_start
   s4: %4:s[4-7] = s_load_b128 %1:s[0-1], 0
   s1: %20:s[8] = s_load_b32 %1:s[0-1], 16
   s1: %7:s[9], s1: %8:scc = s_lshl_b32 %2:s[2], 6
   v1: %9:v[3] = v_add_nc_u32 %7:s[9], %3:v[0]
   v1: %5:v[1] = v_lshlrev_b32 2, %9:v[3]
   s_waitcnt simm16:0
   {lm}: %10:vcc = v_cmp_gt_u32 %20:s[8], %9:v[3]
   {lm}: %11:s[10{hi}], s1: %12:scc = {saveexec} %10:vcc
   p_logical_end
   p_cbranch_z {lm}: exec BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   p_logical_start
   v1: %13:v[2] = global_load_b32 %5:v[1], s2: %14:s[6-7]
   s_waitcnt simm16:0
   v1: %15:v[2] = v_fma_f32 %13:v[2], 0x40000000, 0x3f800000
   v1: %16:v[4], v1: %17:v[2] = p_parallelcopy %15:v[2], %5:v[1]
   global_store_b32 %17:v[2], %16:v[4], s2: %18:s[4-5]
   p_logical_end
BB2
/* logical preds: BB0, BB1, / linear preds: BB0, BB1, / kind: top-level, merge, */
   s_endpgm
"""


TOO_MANY_SGPRS = ("program gfx1100 wave32 compute\nBB0\n"
                  + "".join(f"   s1: %{i} = s_mov_b32 {i}\n" for i in range(1, 108))
                  + "   s107: %200 = p_create_vector "
                  + ", ".join(f"%{i}" for i in range(1, 108)) + "\n"
                  + "   p_unit_test %200\n   s_endpgm\n")  # (used: dead code would remove it)


def _scale(wave: str) -> str:
    if wave == "wave32":
        return SCALE.format(wave=wave, lm="s1", hi="", saveexec="s_and_saveexec_b32")
    return SCALE.format(wave=wave, lm="s2", hi="-11", saveexec="s_and_saveexec_b64")


def run_cli(args: list[str], capsys) -> tuple[int, str, str]:
    rc = main(["llc", *args])
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def square(tmp_path):
    p = tmp_path / "square.ir"
    p.write_text(SQUARE)
    return p


def test_object_and_assembly_agree_with_llvm_mc(square, tmp_path, capsys):
    llvm_mc.require()
    rc, asm, err = run_cli([str(square), "-S", "--stats"], capsys)
    assert rc == 0, err
    body = asm.split("square:\n", 1)[1].split(".Lfunc_end0:", 1)[0]
    insts = [ln for ln in body.splitlines() if not ln.endswith(":")]
    # the later passes (waits, delay_alu) may add instructions: count the listing
    assert f"; Instructions: {len(insts)}" in asm
    assert "; VMEM: 1" in asm and "; SMEM: 1" in asm
    assert "global_store_b32 v1, v2, s[4:5]" in asm
    s = tmp_path / "square.s"
    s.write_text(asm)
    mc_obj = tmp_path / "mc.o"
    subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100",
                    "--filetype=obj", str(s), "-o", str(mc_obj)], check=True)
    rc, _, err = run_cli([str(square)], capsys)  # default output: square.o
    assert rc == 0, err
    ours = read_code_object((tmp_path / "square.o").read_bytes())
    theirs = read_code_object(mc_obj.read_bytes())
    assert ours.sections[".text"].data == theirs.sections[".text"].data
    a, b = dict(ours.kernels["square"].descriptor), dict(theirs.kernels["square"].descriptor)
    a.pop("kernel_code_entry_byte_offset")  # a relocation in llvm-mc's ET_REL object
    b.pop("kernel_code_entry_byte_offset")
    assert a == b


def test_stats_to_stderr_and_print_after(square, tmp_path, capsys):
    rc, _, err = run_cli([str(square), "-o", str(tmp_path / "x.o"), "--stats",
                          "--print-after", "lower_to_hw"], capsys)
    assert rc == 0
    assert "// IR after lower_to_hw" in err and "\nInstructions: " in err
    assert "VGPRs: 4" in err and "WavesPerSIMD: 16" in err


@pytest.mark.parametrize(("text", "msg"), [
    ("program gfx1100 wave32 compute\nBB0\n   v1: %1:v[0] = v_bogus 1\n",
     ":3:18: error: unknown opcode 'v_bogus'"),
    ("program gfx1100 wave32 compute\nBB0\n   p_spill v1: %2:v[1], 0\n   s_endpgm\n",
     "error: lower_to_hw: spilling to scratch"),
    ("program gfx1100 wave32 compute\nBB0\n   v1: %1:v[300] = v_mov_b32 0\n   s_endpgm\n",
     "error: the program uses 301 VGPRs but gfx1100 has 256"),
    (TOO_MANY_SGPRS, "error: spill: BB0: 's107: %200 = p_create_vector"),
])
def test_errors(tmp_path, capsys, text, msg):
    f = tmp_path / "bad.ir"
    f.write_text(text)
    rc, out, err = run_cli([str(f), "-S"], capsys)
    assert rc == 1
    assert msg in err
    assert "Traceback" not in err and err.startswith(str(f))


def test_cli_errors_without_traceback(tmp_path, square):
    r = subprocess.run([sys.executable, "-m", "radcc", "llc", str(square), "--mcpu=gfx9000"],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "unknown GPU 'gfx9000'" in r.stderr
    assert "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "radcc", "llc", str(tmp_path / "none.ir")],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "cannot read" in r.stderr
    r = subprocess.run([sys.executable, "-m", "radcc", "llc", str(square), "--arg", "x:weird"],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "unknown kind 'weird'" in r.stderr


def test_end_to_end_square(square, tmp_path, capsys):
    from radcc.emu.api import load

    obj = tmp_path / "sq.o"
    rc, _, err = run_cli([str(square), "-o", str(obj), "--arg", "out:buffer"], capsys)
    assert rc == 0, err
    res = load(str(obj)).run("square", groups=3, block=64, args={"out": np.zeros(192, np.uint32)})
    i = np.arange(192, dtype=np.uint32)
    assert np.array_equal(res.buffers["out"], i * i + 7)
    assert not res.violations


@pytest.mark.parametrize("wave", ["wave32", "wave64"])
def test_end_to_end_divergent_branch(tmp_path, capsys, wave):
    from radcc.emu.api import load

    f = tmp_path / "scale.ir"
    f.write_text(_scale(wave))
    obj = tmp_path / "scale.o"
    rc, _, err = run_cli([str(f), "-o", str(obj), "--arg", "out:buffer", "--arg", "in:buffer",
                          "--arg", "n:u32"], capsys)
    assert rc == 0, err
    rng = np.random.default_rng(1)
    x = rng.uniform(-4, 4, 256).astype(np.float32)
    out0 = np.full(256, -1.0, np.float32)
    n = 200
    res = load(str(obj)).run("scale", groups=4, block=64,
                             args={"out": out0, "in": x, "n": n})
    want = out0.copy()
    want[:n] = x[:n] * np.float32(2) + np.float32(1)
    assert np.array_equal(res.buffers["out"], want)
    assert not res.violations


def test_end_to_end_unallocated_through_the_pipeline(tmp_path, capsys):
    """Temps without registers: the whole pipeline runs (RA, waits, hazards)."""
    from radcc.emu.api import load

    text = re.sub(r":(?:s|v)\[\d+(?:-\d+)?\]", "", SQUARE)
    text = text.replace(
        "s2: %1, s1: %2, v1: %3 = p_startpgm",
        "s2: %1:s[0-1], s1: %2:s[2], v1: %3:v[0] = p_startpgm")
    text = text.replace("   s_waitcnt simm16:0\n", "")  # insert_waitcnt's job now
    f = tmp_path / "u.ir"
    f.write_text(text)
    obj = tmp_path / "u.o"
    rc, _, err = run_cli([str(f), "-o", str(obj), "--arg", "out:buffer"], capsys)
    assert rc == 0, err
    res = load(str(obj)).run("square", groups=2, block=64, args={"out": np.zeros(128, np.uint32)})
    i = np.arange(128, dtype=np.uint32)
    assert np.array_equal(res.buffers["out"], i * i + 7)
    assert not res.violations
