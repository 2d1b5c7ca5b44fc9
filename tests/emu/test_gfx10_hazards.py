"""Strict mode's GFX10 hazards (ACO's README-ISA.md "RDNA / GFX10 hazards", LLVM's names):
mutation tests on kernels assembled by llvm-mc-19 and linked by ld.lld-19 for gfx1010.

Each program is correct as written: it holds the mitigation LLVM's GCNHazardRecognizer /
ACO's insert_NOPs use for its hazard (the line marked ``// mitigation``, or CU mode for
LdsMisalignedBug) and runs with no violation. Removing that line (WGP mode) must make
strict mode report the hazard by name, and only that one. On gfx1030 (GFX10.3 lists
none of these: radcc/target.py) the mutated programs run clean.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from radcc.emu.api import load

_KERNEL = """.amdgcn_target "amdgcn-amd-amdhsa--{chip}"
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v10, 0
{body}
  s_waitcnt vmcnt(0) lgkmcnt(0)
  s_waitcnt_vscnt null, 0x0
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_count 2
  .amdhsa_kernarg_size 8
  .amdhsa_group_segment_fixed_size 64
  .amdhsa_next_free_vgpr 32
  .amdhsa_next_free_sgpr 32
  .amdhsa_wavefront_size32 1
  .amdhsa_workgroup_processor_mode {wgp}
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space: global
        .name: p
        .offset: 0
        .size: 8
        .value_kind: global_buffer
    .group_segment_fixed_size: 64
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 32
    .name: k
    .private_segment_fixed_size: 0
    .sgpr_count: 32
    .symbol: k.kd
    .vgpr_count: 32
    .wavefront_size: 32
amdhsa.target: amdgcn-amd-amdhsa--{chip}
amdhsa.version:
  - 1
  - 2
...
.end_amdgpu_metadata
"""

# hazard -> program body (s[4:5]: the buffer p; v10 = 0); one line is the mitigation
PROGRAMS = {
    # a VMEM reads s4, then an SALU writes it: s_waitcnt_depctr vm_vsrc(0) in between
    "VMEMtoScalarWriteHazard": """
  global_load_dword v1, v10, s[4:5]
  s_waitcnt_depctr 0xffe3 // mitigation
  s_mov_b32 s4, 0""",
    # an SMEM reads s4, then a VALU writes it: an SALU writing an SGPR in between
    "SMEMtoVectorWriteHazard": """
  s_load_dword s6, s[4:5], 0x0
  s_mov_b32 null, 0 // mitigation
  v_readfirstlane_b32 s4, v10""",
    # an SALU reads EXEC, then a VALU writes it: s_waitcnt_depctr sa_sdst(0) in between
    "VcmpxExecWARHazard": """
  s_mov_b32 s8, exec_lo
  s_waitcnt_depctr 0xfffe // mitigation
  v_cmpx_eq_u32_e32 v10, v10
  s_mov_b32 exec_lo, s8""",
    # VMEM, a branch, then DS: s_waitcnt_vscnt null, 0x0 in between
    "LdsBranchVmemWARHazard": """
  global_load_dword v1, v10, s[4:5]
  s_branch .L1
.L1:
  s_waitcnt_vscnt null, 0x0 // mitigation
  ds_read_b32 v2, v10""",
    # a v_cmpx, then a permlane: a VALU (LLVM's v_mov_b32 of the permlane's VDST) between
    "VcmpxPermlaneHazard": """
  v_cmpx_eq_u32_e32 v10, v10
  v_mov_b32 v1, v1 // mitigation
  v_permlane16_b32 v1, v0, s8, s8""",
    # an SMEM store, then an SMEM load (maybe of the same address): s_waitcnt lgkmcnt(0)
    "SMEMStoreLoadHazard": """
  s_mov_b32 s6, 7
  s_store_dword s6, s[4:5], 0x0
  s_waitcnt lgkmcnt(0) // mitigation
  s_load_dword s7, s[4:5], 0x0""",
    # a branch whose SIMM16 is 0x3f: one more s_nop moves the target to 0x40. llvm-mc-19
    # pads such a branch itself (LLVM's assembler backend fixes Offset3fBug), so the
    # branch is written as its encoding (s_branch: 0xbf82 << 16 | SIMM16), SIMM16 the
    # s_nop count
    "Offset3fBug": "\n  .long 0xbf820040\n" + "  s_nop 0\n" * 63 + "  s_nop 0 // mitigation",
    # a multi-dword LDS access (DS, and FLAT into the LDS aperture) at a misaligned
    # address; the mitigation is CU mode (the descriptor), not a line
    "LdsMisalignedBug": """
  v_mov_b32 v11, 4
  ds_read_b64 v[2:3], v11
  s_mov_b64 s[8:9], src_shared_base
  v_mov_b32 v12, 4
  v_mov_b32 v13, s9
  flat_load_dwordx2 v[4:5], v[12:13]""",
}


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory):
    for tool in ("llvm-mc-19", "ld.lld-19"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is required (Debian packages llvm-19, lld-19)")
    out = tmp_path_factory.mktemp("gfx10hz")
    n = [0]

    def run(chip: str, body: str, wgp: int) -> bytes:
        n[0] += 1
        src, obj, so = (out / f"k{n[0]}.{x}" for x in ("s", "o", "so"))
        src.write_text(_KERNEL.format(chip=chip, body=body, wgp=wgp))
        subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={chip}",
                        "--filetype=obj", str(src), "-o", str(obj)], check=True,
                       capture_output=True)
        subprocess.run(["ld.lld-19", "-shared", str(obj), "-o", str(so)], check=True,
                       capture_output=True)
        return Path(so).read_bytes()
    return run


def _violations(obj: bytes) -> list[str]:
    res = load(obj).run("k", groups=1, block=32, args={"p": np.zeros(16, np.uint32)})
    return [v.kind for v in res.violations]


def _mutate(hazard: str) -> tuple[str, int]:
    body = PROGRAMS[hazard]
    if hazard == "LdsMisalignedBug":
        return body, 1
    lines = body.split("\n")
    keep = [ln for ln in lines if "// mitigation" not in ln]
    assert len(keep) == len(lines) - 1
    if hazard == "Offset3fBug":  # the branch's SIMM16 follows its target
        keep = [ln.replace("0xbf820040", "0xbf82003f") for ln in keep]
    return "\n".join(keep), 1


@pytest.mark.parametrize("hazard", sorted(PROGRAMS))
def test_mitigated_program_is_clean(hazard: str, build) -> None:
    wgp = 0 if hazard == "LdsMisalignedBug" else 1
    assert _violations(build("gfx1010", PROGRAMS[hazard], wgp)) == []


@pytest.mark.parametrize("hazard", sorted(PROGRAMS))
def test_removed_mitigation_is_named(hazard: str, build) -> None:
    body, wgp = _mutate(hazard)
    kinds = _violations(build("gfx1010", body, wgp))
    assert kinds and set(kinds) == {hazard}, kinds


@pytest.mark.parametrize("hazard", sorted(set(PROGRAMS) - {"SMEMStoreLoadHazard"}))
def test_gfx1030_has_none_of_them(hazard: str, build) -> None:
    """GFX10.3 lists none of these hazards (no SMEM stores at all)."""
    body, wgp = _mutate(hazard)
    assert _violations(build("gfx1030", body, wgp)) == []


def test_both_misaligned_accesses_are_reported(build) -> None:
    body, wgp = _mutate("LdsMisalignedBug")
    res = load(build("gfx1010", body, wgp)).run("k", groups=1, block=32,
                                                args={"p": np.zeros(16, np.uint32)})
    texts = " ".join(v.message for v in res.violations)
    assert "ds_read_b64" in texts and "flat_load_dwordx2" in texts
