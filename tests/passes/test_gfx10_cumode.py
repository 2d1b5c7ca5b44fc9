"""LdsMisalignedBug (GFX10.1) mitigated by CU mode, as LLVM's ``cumode`` feature does.

Oracles:

- clang-19 -mcpu=gfx1010 on a flat ``<2 x i32>`` load/store with 4-byte alignment:
  in WGP mode (default) LLVM splits it into ``flat_load_dword``s (the bug), with
  ``+cumode`` it keeps ``flat_load_dwordx2``/``flat_store_dwordx2`` and writes
  ``.amdhsa_workgroup_processor_mode 0`` (the fact radcc's mitigation rests on);
- llvm-mc-19 assembles radcc's ``-S`` (``.amdhsa_workgroup_processor_mode 0``) to the
  same descriptor llvm-objdump-19 reads from radcc's object (WGP_MODE, RSRC1 bit 29,
  clear), and to the same bytes (tests/passes/test_gfx10_pipeline.py's comparison);
- clang-19 -mcpu=gfx1010 with and without ``+cumode`` accepts 65536 bytes of LDS and
  refuses 65540: the LDS limit per workgroup does not change in CU mode.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_gfx10_pipeline import ADDR, _check_program, _run, kd_fields, single

from radcc.ir.parser import parse_program
from radcc.passes.hazards_gfx10 import needs_cu_mode
from radcc.passes.kernel_abi import ABIError, kernel_fields
from radcc.passes.lower_to_hw import lower_to_hw


@pytest.fixture(autouse=True)
def _tools(monkeypatch: pytest.MonkeyPatch) -> None:
    for t in ("clang-19", "llvm-mc-19", "ld.lld-19", "llvm-objdump-19"):
        if shutil.which(t) is None:
            pytest.fail(f"{t} missing")
    monkeypatch.setenv("RADCC_DEBUG", "validateir,validatera")


FLAT_LL = """target triple = "amdgcn-amd-amdhsa"
@lds = addrspace(3) global [64 x i32] poison
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k(ptr addrspace(1) %g, i32 %c) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %l = addrspacecast ptr addrspace(3) @lds to ptr
  %gg = addrspacecast ptr addrspace(1) %g to ptr
  %cc = icmp eq i32 %c, 0
  %b = select i1 %cc, ptr %l, ptr %gg
  %p = getelementptr i32, ptr %b, i32 %tid
  %v = load <2 x i32>, ptr %p, align 4
  %p2 = getelementptr i32, ptr %p, i32 64
  store <2 x i32> %v, ptr %p2, align 4
  ret void
}
"""


def _clang(ll: str, attr: str, tmp: Path) -> tuple[int, str]:
    (tmp / "k.ll").write_text(ll)
    p = _run(["clang-19", "-nogpulib", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1010",
              "-Xclang", "-target-feature", "-Xclang", attr, "-O2", "-S", str(tmp / "k.ll"),
              "-o", "-"])
    return p.returncode, p.stdout + p.stderr


def test_llvm_keeps_multi_dword_flat_only_in_cu_mode(tmp_path: Path):
    rc, wgp = _clang(FLAT_LL, "-cumode", tmp_path)
    assert rc == 0
    assert "flat_load_dwordx2" not in wgp and "flat_load_dword " in wgp
    assert ".amdhsa_workgroup_processor_mode 1" in wgp
    rc, cu = _clang(FLAT_LL, "+cumode", tmp_path)
    assert rc == 0
    assert "flat_load_dwordx2" in cu and "flat_store_dwordx2" in cu
    assert ".amdhsa_workgroup_processor_mode 0" in cu


FLAT2 = ADDR + """\
   v2: %7 = p_create_vector %6, 0
   v2: %8 = flat_load_dwordx2 %7
   global_store_dwordx2 %6, %8, %4
"""
FLAT4_STORE = ADDR + """\
   v2: %7 = p_create_vector %6, 0
   v4: %8 = p_create_vector %5, %5, %6, %6
   flat_store_dwordx4 %7, %8
"""
FLAT1 = ADDR + """\
   v2: %7 = p_create_vector %6, 0
   v1: %8 = flat_load_dword %7
   global_store_dword %6, %8, %4
"""
GLOBAL2 = ADDR + """\
   v2: %8 = global_load_dwordx2 %6, %4
   global_store_dwordx2 %6, %8, %4
"""


@pytest.mark.parametrize("wave", ["wave32", "wave64"])
@pytest.mark.parametrize("body", [FLAT2, FLAT4_STORE], ids=["load-x2", "store-x4"])
def test_gfx1010_multi_dword_flat_runs_in_cu_mode(body: str, wave: str, tmp_path: Path):
    ours, asm = _check_program(single(body, "gfx1010", wave), "gfx1010", tmp_path)
    assert ".amdhsa_workgroup_processor_mode 0" in asm
    kd = kd_fields(ours, "gfx1010")
    assert kd["workgroup_processor_mode"] == 0


@pytest.mark.parametrize("chip,body", [
    ("gfx1030", FLAT2),  # GFX10.3 has no LdsMisalignedBug
    ("gfx1010", FLAT1),  # single dword
    ("gfx1010", GLOBAL2),  # GLOBAL never reaches LDS
], ids=["gfx1030-x2", "gfx1010-x1", "gfx1010-global"])
def test_wgp_mode_otherwise(chip: str, body: str, tmp_path: Path):
    ours, _asm = _check_program(single(body, chip), chip, tmp_path)
    assert kd_fields(ours, chip)["workgroup_processor_mode"] == 1


def _lowered_flat(chip: str):
    p = parse_program(f"program {chip} wave32 compute\nBB0\n"
                      "/* logical preds: / linear preds: / kind: top-level, */\n"
                      "   s2: %1:s[0-1], s1: %2:s[2] = p_startpgm\n"
                      "   v2: %3:v[0-1] = flat_load_dwordx2 v2: %4:v[2-3]\n   s_endpgm\n")
    lower_to_hw(p)
    return p


def _lds_ll(n_dwords: int) -> str:
    return f"""target triple = "amdgcn-amd-amdhsa"
@lds = addrspace(3) global [{n_dwords} x i32] poison
define amdgpu_kernel void @k(ptr addrspace(1) %p, i32 %i) {{
  %a = getelementptr [{n_dwords} x i32], ptr addrspace(3) @lds, i32 0, i32 %i
  store i32 1, ptr addrspace(3) %a
  %b = getelementptr [{n_dwords} x i32], ptr addrspace(3) @lds, i32 0, i32 {n_dwords - 1}
  %v = load i32, ptr addrspace(3) %b
  store i32 %v, ptr addrspace(1) %p
  ret void
}}
"""


@pytest.mark.parametrize("attr", ["+cumode", "-cumode"])
def test_lds_limit_is_clangs_in_both_modes(attr: str, tmp_path: Path):
    rc, out = _clang(_lds_ll(16384), attr, tmp_path)
    assert rc == 0 and ".amdhsa_group_segment_fixed_size 65536" in out
    limit = 65536
    rc, out = _clang(_lds_ll(16385), attr, tmp_path)
    assert rc != 0 and f"exceeds limit ({limit})" in out
    p = _lowered_flat("gfx1010")
    assert needs_cu_mode(p)
    p.config.lds_size = limit
    f = kernel_fields(p, 0, 4, False)
    assert f["group_segment_fixed_size"] == limit and f["workgroup_processor_mode"] == 0
    p.config.lds_size = limit + 4
    with pytest.raises(ABIError) as e:
        kernel_fields(p, 0, 4, False)
    assert "65540 bytes of LDS" in str(e.value) and "gfx1010" in str(e.value)


def test_needs_cu_mode_only_with_the_bug():
    assert needs_cu_mode(_lowered_flat("gfx1010"))
    assert not needs_cu_mode(_lowered_flat("gfx1030"))
