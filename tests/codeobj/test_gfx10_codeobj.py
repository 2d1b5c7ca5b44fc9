"""GFX10 code objects: kernel descriptor and ELF header against llvm-mc-19 + ld.lld-19.

Oracle: the same source assembled with llvm-mc-19 -triple=amdgcn-amd-amdhsa
-mcpu=gfx1010/gfx1030 --filetype=obj and linked with ld.lld-19 -shared.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from radcc.codeobj.elf import read_code_object
from radcc.oracle import llvm_mc

_SRC = """.amdgcn_target "amdgcn-amd-amdhsa--{chip}"
.text
.globl k
.p2align 8
.type k,@function
k:
  s_load_dwordx2 s[0:1], s[4:5], 0x0
  s_waitcnt lgkmcnt(0)
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_next_free_vgpr 9
  .amdhsa_next_free_sgpr 10
{extra}
.end_amdhsa_kernel
"""

_CASES = [
    "  .amdhsa_user_sgpr_kernarg_segment_ptr 1",
    "  .amdhsa_user_sgpr_private_segment_buffer 1\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1",
    "  .amdhsa_user_sgpr_flat_scratch_init 1\n"
    "  .amdhsa_system_sgpr_private_segment_wavefront_offset 1\n  .amdhsa_reserve_flat_scratch 0",
    "  .amdhsa_wavefront_size32 0\n  .amdhsa_shared_vgpr_count 2\n  .amdhsa_forward_progress 1",
    "  .amdhsa_workgroup_processor_mode 0\n  .amdhsa_memory_ordered 0\n  .amdhsa_ieee_mode 0",
]


def _build(chip: str, extra: str, tmp):
    src = tmp / "k.s"
    src.write_text(_SRC.format(chip=chip, extra=extra))
    ours = tmp / "ours.o"
    r = subprocess.run([sys.executable, "-m", "radcc", "mc", f"--mcpu={chip}", "--filetype=obj",
                        "-o", str(ours), str(src)], capture_output=True, text=True)
    ref_o, ref_so = tmp / "ref.o", tmp / "ref.so"
    subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={chip}", "--filetype=obj",
                    str(src), "-o", str(ref_o)], check=True)
    subprocess.run(["ld.lld-19", "-shared", str(ref_o), "-o", str(ref_so)], check=True)
    return r, ours, ref_so


@pytest.mark.parametrize("chip", ["gfx1010", "gfx1030"])
@pytest.mark.parametrize("case", range(len(_CASES)))
def test_gfx10_kernel_descriptor_matches_llvm(chip, case, tmp_path):
    llvm_mc.require()
    r, ours, ref_so = _build(chip, _CASES[case], tmp_path)
    assert r.returncode == 0, r.stderr
    o, ref = read_code_object(ours.read_bytes()), read_code_object(ref_so.read_bytes())
    ko, kr = o.kernels["k"].descriptor_bytes, ref.kernels["k"].descriptor_bytes
    assert ko[:16] == kr[:16] and ko[24:] == kr[24:]  # 16..24: entry offset (layout)
    code_o, code_r = o.sections[".text"].data, ref.sections[".text"].data
    assert code_o[: len(code_r)].rstrip(b"\0") == code_r.rstrip(b"\0")
    hdr = subprocess.run(["llvm-readelf-19", "-h", str(ours)], capture_output=True, text=True)
    ref_hdr = subprocess.run(["llvm-readelf-19", "-h", str(ref_so)], capture_output=True, text=True)
    flags = [ln for ln in hdr.stdout.splitlines() if "Flags:" in ln]
    assert flags == [ln for ln in ref_hdr.stdout.splitlines() if "Flags:" in ln]


def test_gfx10_rejects_architected_flat_scratch_directive(tmp_path):
    llvm_mc.require()
    src = tmp_path / "k.s"
    src.write_text(_SRC.format(chip="gfx1030", extra="  .amdhsa_enable_private_segment 1"))
    ref = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1030",
                          "--filetype=obj", str(src), "-o", str(tmp_path / "r.o")],
                         capture_output=True, text=True)
    assert ref.returncode != 0
    r = subprocess.run([sys.executable, "-m", "radcc", "mc", "--mcpu=gfx1030", "--filetype=obj",
                        "-o", str(tmp_path / "o.o"), str(src)], capture_output=True, text=True)
    assert r.returncode != 0
    assert "not supported without architected flat scratch" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("chip", ["gfx1030", "gfx1010"])
def test_run_takes_gfx10_object(chip, tmp_path):
    """radcc run runs a GFX10 code object (the kernel loads through its kernarg pointer
    and ends)."""
    r, ours, _ = _build(chip, _CASES[1], tmp_path)
    assert r.returncode == 0, r.stderr
    run = subprocess.run([sys.executable, "-m", "radcc", "run", str(ours), "--kernel", "k",
                          "--groups", "1", "--block", "32", "--out", str(tmp_path / "out")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_run_refuses_other_chips_by_name(tmp_path):
    """A code object for a chip the emulator does not run (gfx90a, by llvm-mc-19 and
    ld.lld-19) is refused naming the chip."""
    src = tmp_path / "k.s"
    src.write_text(_SRC.format(chip="gfx90a", extra="  .amdhsa_accum_offset 4\n"
                               "  .amdhsa_user_sgpr_kernarg_segment_ptr 1")
                   .replace("s[4:5]", "s[0:1]"))
    subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx90a", "--filetype=obj",
                    str(src), "-o", str(tmp_path / "k.o")], check=True)
    subprocess.run(["ld.lld-19", "-shared", str(tmp_path / "k.o"), "-o", str(tmp_path / "k.so")],
                   check=True)
    run = subprocess.run([sys.executable, "-m", "radcc", "run", str(tmp_path / "k.so"),
                          "--kernel", "k", "--groups", "1", "--block", "32", "--out",
                          str(tmp_path / "out")], capture_output=True, text=True)
    assert run.returncode == 1
    assert "code object for gfx90a: the emulator does not run its code" in run.stderr
    assert "Traceback" not in run.stderr
