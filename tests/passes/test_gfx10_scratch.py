"""Scratch (the private segment) on GFX10/10.3: flat scratch init as clang-19 sets it up.

Oracles:

- clang-19 -x cl -mcpu=gfx1010|gfx1030 with LLVM's ``enable-flat-scratch`` feature
  (``scratch_*`` instructions, as radcc's IR uses) compiling an OpenCL kernel with a
  private array: its kernel descriptor (every ``.amdhsa_*`` field llvm-objdump-19 -D
  reads, except the register counts and the kernarg size, which depend on the code) and
  the bytes of its prologue (``s_add_u32``/``s_addc_u32`` of the wave offset into the
  flat scratch init SGPRs, ``s_setreg_b32`` of FLAT_SCR_LO/HI) equal radcc's for the same
  scratch size and the same workgroup ids read;
- llvm-mc-19 accepts radcc's ``-S`` text and its ``.text`` bytes equal radcc's object's.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from test_gfx10_pipeline import _run, kd_fields, text_bytes

from radcc.driver import llc
from radcc.ir.parser import parse_program
from radcc.passes.emit_program import emit_code_object, emit_program
from radcc.passes.kernel_abi import ABIError, kernel_fields
from radcc.passes.lower_to_hw import lower_to_hw
from radcc.passes.options import DebugOptions

CHIPS = ("gfx1010", "gfx1030")
SCRATCH = 68  # what clang-19 gives the kernels below (16 ints + 4 bytes)
IDS = ("x", "y", "z")


@pytest.fixture(autouse=True)
def _tools(monkeypatch: pytest.MonkeyPatch) -> None:
    for t in ("clang-19", "llvm-mc-19", "llvm-nm-19", "ld.lld-19", "llvm-objdump-19", "llvm-objcopy-19"):
        if shutil.which(t) is None:
            pytest.fail(f"{t} missing")
    monkeypatch.setenv("RADCC_DEBUG", "validateir,validatera")


def clang_kernel(n_ids: int, chip: str, wave64: bool, tmp: Path) -> Path:
    """clang-19's linked object of a kernel with a private array reading `n_ids`
    workgroup ids (x; x, y; x, y, z)."""
    wg = " + ".join(f"__builtin_amdgcn_workgroup_id_{c}()" for c in IDS[:n_ids])
    src = tmp / "k.cl"
    src.write_text(f"""
__kernel void k(__global int *out, int n) {{
  volatile int a[16];
  int i = __builtin_amdgcn_workitem_id_x();
  a[i & 15] = n;
  out[i] = a[(i + 1) & 15] + {wg};
}}
""")
    attrs = ["-mwavefrontsize64"] if wave64 else []
    out = tmp / "clang.so"
    p = _run(["clang-19", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
              f"-mcpu={chip}", *attrs, "-nogpulib", "-O1", "-cl-denorms-are-zero", "-Xclang", "-target-feature",
              "-Xclang", "+enable-flat-scratch", str(src), "-o", str(out)])
    assert p.returncode == 0, p.stderr
    return out


def radcc_ir(n_ids: int, chip: str, wave: str) -> str:
    """The same kernel in radcc's IR (the ids from s2.. as docs/abi.md has them)."""
    ids = "".join(f", s1: %{20 + k}:s[{2 + k}]" for k in range(n_ids))
    body = "".join(f"   v1: %{31 + k} = v_add_nc_u32 %{20 + k}, %{30 + k}\n"
                   for k in range(n_ids))
    return f"""program {chip} {wave} compute name:k
BB0
/* logical preds: / linear preds: / kind: top-level, */
   s2: %1:s[0-1]{ids}, v1: %3:v[0] = p_startpgm
   p_logical_start
   s1: %7 = s_load_dword %1, 8
   s2: %4 = s_load_dwordx2 %1, 0
   v1: %5 = v_and_b32 15, %3
   v1: %6 = v_lshlrev_b32 2, %5
   v1: %8 = v_mov_b32 %7
   scratch_store_dword %6, %8, s1: undef
   v1: %30 = scratch_load_dword %6, s1: undef glc dlc
{body}   v1: %10 = v_lshlrev_b32 2, %3
   global_store_dword %10, %{30 + n_ids}, %4
   p_logical_end
   s_endpgm
"""


def compile_radcc(src: str, scratch: int, tmp: Path) -> tuple[Path, str]:
    """radcc's code object and -S text of `src` with config.scratch_bytes_per_lane = scratch."""
    p = parse_program(src)
    p.config.scratch_bytes_per_lane = scratch
    llc.run_passes(p, DebugOptions.parse("validateir,validatera"))
    res = emit_program(p)
    obj = tmp / "radcc.o"
    obj.write_bytes(emit_code_object(p, res))
    return obj, llc.kernel_asm(p, res, None)


_CODE_DEPENDENT = ("next_free_vgpr", "next_free_sgpr", "granulated_workitem_vgpr_count",
                   "granulated_wavefront_sgpr_count", "compute_pgm_rsrc1", "kernarg_size",
                   "reserve_vcc", "reserve_flat_scratch", "reserve_xnack_mask")


def _kd(obj: Path, chip: str) -> dict[str, int]:
    """llvm-objdump-19's fields (less the code-dependent ones) and the raw RSRC2 and
    kernel_code_properties words (llvm-objdump does not print USER_SGPR_COUNT)."""
    out = {k: v for k, v in kd_fields(obj, chip).items() if k not in _CODE_DEPENDENT}
    kd = kd_bytes(obj)
    out["rsrc2"] = int.from_bytes(kd[52:56], "little")
    out["user_sgpr_count"] = out["rsrc2"] >> 1 & 31
    out["kernel_code_properties"] = int.from_bytes(kd[56:58], "little")
    return out


def kd_bytes(obj: Path) -> bytes:
    """The 64 bytes at the (single) ``NAME.kd`` symbol (llvm-nm-19 for its address, llvm-objdump-19 -s
    for the section contents)."""
    nm = _run(["llvm-nm-19", str(obj)], check=True).stdout
    addr = next(int(ln.split()[0], 16) for ln in nm.splitlines() if ln.endswith(".kd"))
    dump = _run(["llvm-objdump-19", "-s", "-j", ".rodata", str(obj)], check=True).stdout
    data: dict[int, int] = {}
    for ln in dump.splitlines():
        parts = ln.split()
        if len(parts) < 2 or not ln.startswith(" "):
            continue
        at = int(parts[0], 16)
        for word in parts[1:5]:
            if len(word) % 2 or any(c not in "0123456789abcdef" for c in word):
                break
            for j in range(0, len(word), 2):
                data[at] = int(word[j:j + 2], 16)
                at += 1
    return bytes(data[addr + k] for k in range(64))


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("wave", ["wave32", "wave64"])
@pytest.mark.parametrize("n_ids", [1, 2, 3])
def test_descriptor_and_prologue_as_clang(chip: str, wave: str, n_ids: int, tmp_path: Path):
    theirs = clang_kernel(n_ids, chip, wave == "wave64", tmp_path)
    ours, asm = compile_radcc(radcc_ir(n_ids, chip, wave), SCRATCH, tmp_path)
    want = _kd(theirs, chip)
    assert want["private_segment_fixed_size"] == SCRATCH  # the oracle is what we think
    assert want["user_sgpr_flat_scratch_init"] == 1 and want["user_sgpr_count"] == 4
    assert _kd(ours, chip) == want
    # the prologue: 4 instructions (16 bytes), the wave offset after the n_ids ids
    assert text_bytes(ours)[:16] == text_bytes(theirs)[:16]
    assert f"s_add_u32 s2, s2, s{4 + n_ids}" in asm
    # the ids are moved to where radcc's ABI has them
    for k in range(n_ids):
        assert f"s_mov_b32 s{2 + k}, s{4 + k}" in asm


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("wave", ["wave32", "wave64"])
def test_llvm_mc_accepts_and_bytes_equal(chip: str, wave: str, tmp_path: Path):
    ours, asm = compile_radcc(radcc_ir(3, chip, wave), SCRATCH, tmp_path)
    (tmp_path / "k.s").write_text(asm)
    attrs = ["-mattr=+wavefrontsize64"] if wave == "wave64" else []
    p = _run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={chip}", *attrs,
              "--filetype=obj", str(tmp_path / "k.s"), "-o", str(tmp_path / "mc.o")])
    assert p.returncode == 0 and "error" not in p.stderr, p.stderr
    assert text_bytes(ours) == text_bytes(tmp_path / "mc.o")
    p = _run(["ld.lld-19", "-shared", str(tmp_path / "mc.o"), "-o", str(tmp_path / "mc.so")])
    assert p.returncode == 0, p.stderr
    assert kd_fields(ours, chip) == kd_fields(tmp_path / "mc.so", chip)


@pytest.mark.parametrize("chip", CHIPS)
def test_no_scratch_no_prologue(chip: str, tmp_path: Path):
    # without scratch the ABI is the plain one: s2 holds workgroup id x, no setreg
    ours, asm = compile_radcc(radcc_ir(1, chip, "wave32").replace(
        "   scratch_store_dword %6, %8, s1: undef\n", "").replace(
        "%30 = scratch_load_dword %6, s1: undef glc dlc", "%30 = v_mov_b32 %8"), 0, tmp_path)
    assert "s_setreg_b32" not in asm and "s_mov_b32 s2, s4" not in asm
    kd = _kd(ours, chip)
    assert kd["user_sgpr_count"] == 2 and kd["user_sgpr_flat_scratch_init"] == 0
    assert kd["system_sgpr_private_segment_wavefront_offset"] == 0


@pytest.mark.parametrize("chip", CHIPS)
def test_scratch_size_set_after_lowering_is_refused(chip: str):
    # the prologue is written when p_startpgm is lowered; a scratch size appearing later
    # cannot be honoured (the hardware's SGPR layout would not match the code)
    p = parse_program(f"program {chip} wave32 compute\nBB0\n"
                      "/* logical preds: / linear preds: / kind: top-level, */\n"
                      "   s2: %1:s[0-1], s1: %2:s[2] = p_startpgm\n   s_endpgm\n")
    lower_to_hw(p)
    assert "enable_private_segment" not in kernel_fields(p, 0, 1, False)
    p.config.scratch_bytes_per_lane = 16
    with pytest.raises(ABIError) as e:
        kernel_fields(p, 0, 1, False)
    assert "scratch" in str(e.value) and chip in str(e.value) and "p_startpgm" in str(e.value)


# --- VGPR spilling on GFX10.3 (radcc.passes.spill: scratch_* with vaddr and saddr off) ------

def _gfx10_spill_program(chip: str, wave: int, nv: int) -> str:
    from test_spill import straight_line

    text = straight_line(wave, nv, 0)
    for a, b in (("gfx1100", chip), ("s_load_b128", "s_load_dwordx4"),
                 ("global_load_b32", "global_load_dword"),
                 ("global_store_b32", "global_store_dword")):
        text = text.replace(a, b)
    return text


@pytest.mark.parametrize("wave", [32, 64])
def test_vgpr_spilling_on_gfx1030(wave: int, tmp_path: Path):
    from test_gfx10_pipeline import _check_program, disasm

    src = _gfx10_spill_program("gfx1030", wave, 300)
    ours, asm = _check_program(src, "gfx1030", tmp_path)  # llvm-mc: KD and bytes equal
    kd = _kd(ours, "gfx1030")
    assert kd["user_sgpr_flat_scratch_init"] == 1 and kd["user_sgpr_count"] == 4
    assert kd["system_sgpr_private_segment_wavefront_offset"] == 1
    spills = [ln for ln in disasm(ours, "gfx1030", wave == 64)
              if ln.startswith(("scratch_store_dword", "scratch_load_dword"))]
    assert spills and all(", off" in ln for ln in spills)
    offsets = [int(ln.split("offset:")[1]) if "offset:" in ln else 0 for ln in spills]
    assert max(offsets) < kd["private_segment_fixed_size"] <= 2048
    assert "s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s2" in asm


@pytest.mark.parametrize("wave", [32, 64])
def test_vgpr_spilling_on_gfx1010(wave: int, tmp_path: Path):
    """gfx1010 has no flat scratch ST mode (llvm-mc-19 -mcpu=gfx1010 rejects
    ``scratch_store_dword off, v1, off``), so every spill slot is addressed from an SGPR
    base (``s_mov_b32 s, slot`` + saddr, radcc.passes.spill_ssa): llvm-mc-19 gives the
    same bytes and kernel descriptor, and the strict emulator the NumPy result."""
    import numpy as np
    from test_gfx10_pipeline import _check_program, disasm
    from test_spill import compile_run, expect_straight

    p = _run(["llvm-mc-19", "-triple=amdgcn", "-mcpu=gfx1010"],
             input="scratch_store_dword off, v1, off offset:8\n")
    assert p.returncode != 0
    src = _gfx10_spill_program("gfx1010", wave, 300)
    ours, _asm = _check_program(src, "gfx1010", tmp_path)
    kd = _kd(ours, "gfx1010")
    assert kd["user_sgpr_flat_scratch_init"] == 1
    spills = [ln for ln in disasm(ours, "gfx1010", wave == 64)
              if ln.startswith(("scratch_store_dword", "scratch_load_dword"))]
    assert len(spills) >= 2 * 40
    assert all(re.search(r"(off, v\d+|v\d+, off), s\d+", ln) for ln in spills), spills[:4]
    rng = np.random.default_rng(wave)
    x = rng.integers(0, 1 << 32, 128, dtype=np.uint32)
    got, prog, _r = compile_run(src, x, wave, 2, 64)  # strict mode, no violation
    assert prog.config.spilled_vgprs > 0
    assert np.array_equal(got, expect_straight(x, 300, 0, wave, 64))
