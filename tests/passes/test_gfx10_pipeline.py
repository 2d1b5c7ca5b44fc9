"""GFX10.1 (gfx1010) and GFX10.3 (gfx1030) through the back end: `radcc llc` on IR
written with GFX10 opcode names.

Oracles:

- llvm-mc-19 -mcpu=<chip> accepts every ``radcc llc -S`` file (the ``.amdhsa_kernel``
  block included) and its object's ``.text`` equals, byte for byte, the ``.text`` of the
  code object ``radcc llc -o`` writes (both read with llvm-objcopy-19);
- llvm-objdump-19 -D reads the same kernel descriptor (every ``.amdhsa_*`` field and raw
  RSRC word) from radcc's code object as from llvm-mc's object linked by ld.lld-19;
  llvm-readelf-19 reads the same e_flags, and radcc's metadata note names the chip;
- the s_waitcnt words radcc emits, as llvm-objdump-19 decodes them, name the counters
  first principles require (RDNA1 ISA: loads return on VM_CNT, stores count on VS_CNT,
  SMEM/LDS on LGKM_CNT, FLAT on both VM_CNT and LGKM_CNT; GFX10 vmcnt is 6 bits split
  over SIMM16[3:0] and [15:14]);
- validate_ir / validate_ra run after every pass (RADCC_DEBUG=validateir,validatera).

The e2e programs (tests/e2e/programs, written for gfx1100 in the canonical instruction
names) are compiled for GFX10 as they are, only their header's chip changed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from radcc.cli import llc
from radcc.oracle import llvm_mc
from radcc.target import Feature, GfxLevel, get_target

CHIPS = ("gfx1010", "gfx1030")
E2E = Path(__file__).resolve().parents[1] / "e2e" / "programs"
TOOLS = ("llvm-mc-19", "ld.lld-19", "llvm-objdump-19", "llvm-objcopy-19", "llvm-readelf-19")


@pytest.fixture(autouse=True)
def _validate(monkeypatch: pytest.MonkeyPatch) -> None:
    for t in TOOLS:
        if shutil.which(t) is None:
            pytest.fail(f"{t} missing (install llvm-19 / lld-19)")
    monkeypatch.setenv("RADCC_DEBUG", "validateir,validatera")


def _run(args: list[str], **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, **kw)


def radcc_llc(src: str, tmp: Path, *args: str) -> tuple[int, str]:
    """`radcc llc` in process; (exit status, stderr)."""
    path = tmp / "k.ir"
    path.write_text(src)
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        rc = llc.main([str(path), *args])
    return rc, err.getvalue()


def compile_both(src: str, chip: str, tmp: Path) -> tuple[Path, Path, Path, str]:
    """radcc's -S text assembled by llvm-mc (+ ld.lld) and radcc's own code object:
    (llvm-mc object, linked llvm-mc object, radcc object, assembly text)."""
    rc, err = radcc_llc(src, tmp, "-S", "-o", str(tmp / "k.s"))
    assert rc == 0, err
    asm = (tmp / "k.s").read_text()
    rc, err = radcc_llc(src, tmp, "-o", str(tmp / "radcc.o"))
    assert rc == 0, err
    wave64 = re.search(r"^program \S+ wave64", src, re.M) is not None
    attrs = ["-mattr=+wavefrontsize64"] if wave64 else []
    p = _run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={chip}", *attrs,
              "--filetype=obj", str(tmp / "k.s"), "-o", str(tmp / "mc.o")])
    assert p.returncode == 0, p.stderr
    p = _run(["ld.lld-19", "-shared", str(tmp / "mc.o"), "-o", str(tmp / "mc.so")])
    assert p.returncode == 0, p.stderr
    return tmp / "mc.o", tmp / "mc.so", tmp / "radcc.o", asm


def text_bytes(obj: Path) -> bytes:
    out = obj.with_suffix(".text.bin")
    p = _run(["llvm-objcopy-19", "-O", "binary", "--only-section=.text", str(obj), str(out)])
    assert p.returncode == 0, p.stderr
    return out.read_bytes()


def kd_fields(obj: Path, chip: str) -> dict[str, int]:
    """llvm-objdump-19 -D's reading of the (single) kernel descriptor."""
    out = _run(["llvm-objdump-19", "-D", f"--mcpu={chip}", str(obj)], check=True).stdout
    fields: dict[str, int] = {}
    inside = False
    for line in out.splitlines():
        if line.startswith(".amdhsa_kernel "):
            inside = True
        elif line.startswith(".end_amdhsa_kernel"):
            inside = False
        elif inside:
            m = re.match(r"^\s*\.amdhsa_(\w+) (-?\d+)", line) or re.match(
                r"^\s*; (\w+) (\d+)", line)
            if m:
                fields[m.group(1).lower()] = int(m.group(2))
    assert fields, out
    return fields


def e_flags(obj: Path) -> str:
    out = _run(["llvm-readelf-19", "-h", str(obj)], check=True).stdout
    return re.search(r"Flags:\s+(.*)", out).group(1).strip()


def disasm(obj: Path, chip: str, wave64: bool = False) -> list[str]:
    """Instruction lines of llvm-objdump-19 -d (text before the ``//`` comment)."""
    attrs = ["--mattr=+wavefrontsize64"] if wave64 else []
    out = _run(["llvm-objdump-19", "-d", f"--mcpu={chip}", *attrs, str(obj)],
               check=True).stdout
    return [ln.split("//")[0].strip() for ln in out.splitlines() if "//" in ln]


# --- the gfx1100 e2e programs on GFX10 ------------------------------------------------------

def to_gfx10(text: str, chip: str) -> str:
    """A gfx1100 program for `chip`: only the header changes (the IR names instructions
    canonically, so the parser reads them for any generation)."""
    return re.sub(r"^program gfx1100 ", f"program {chip} ", text, flags=re.M)


E2E_PROGRAMS = sorted(E2E.glob("*.ir"))


def test_e2e_corpus_present():
    assert len(E2E_PROGRAMS) >= 20


def _check_program(src: str, chip: str, tmp: Path) -> tuple[Path, str]:
    mc_o, mc_so, ours, asm = compile_both(src, chip, tmp)
    assert text_bytes(ours) == text_bytes(mc_o)
    assert kd_fields(ours, chip) == kd_fields(mc_so, chip)
    assert e_flags(ours) == e_flags(mc_o)
    assert chip in e_flags(ours)
    notes = _run(["llvm-readelf-19", "--notes", str(ours)], check=True).stdout
    assert f"amdhsa.target:   amdgcn-amd-amdhsa--{chip}" in notes
    return ours, asm


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("path", E2E_PROGRAMS, ids=lambda p: p.stem)
def test_e2e_program(path: Path, chip: str, tmp_path: Path):
    src = to_gfx10(path.read_text(), chip)
    _ours, asm = _check_program(src, chip, tmp_path)
    assert "s_delay_alu" not in asm  # GFX11-only (Target feature delay_alu)


# --- hand-written GFX10 programs ------------------------------------------------------------

HDR = "program {chip} {wave} compute name:k\n"
TOP = "BB0\n/* logical preds: / linear preds: / kind: top-level, */\n"
START = "   s2: %1:s[0-1], s1: %2:s[2], v1: %3:v[0] = p_startpgm\n   p_logical_start\n"
END = "   p_logical_end\n   s_endpgm\n"


def single(body: str, chip: str, wave: str = "wave32") -> str:
    return HDR.format(chip=chip, wave=wave) + TOP + START + body + END


ADDR = ("   s2: %4 = s_load_dwordx2 %1, 0\n"
        "   v1: %5 = v_mad_u32_u24 %2, 64, %3\n"
        "   v1: %6 = v_lshlrev_b32 2, %5\n")

ALU = ADDR + """\
   s1: %7 = s_load_dword %1, 8
   v1: %8 = v_cvt_f32_u32 %5
   v1: %9 = v_mul_f32 %7, %8
   v1: %10 = v_add_nc_u32 %9, %5
   v1: %11 = v_sub_nc_u32 %7, %10
   v1: %12 = v_xor_b32 %11, %9
   s1: %13, s1: %14:scc = s_lshl_b32 %7, 3
   s1: %15, s1: %16:scc = s_add_u32 %13, 17
   v1: %17 = v_max_u32 %15, %12
   v1: %18 = v_bfe_u32 %17, 4, 8
   v1: %19 = v_rcp_f32 %8
   v1: %20 = v_fma_f32 %19, %8, %18
   global_store_dword %6, %20, %4
"""

LDS = ADDR + """\
   ds_write_b32 %6, %5
   p_barrier
   v1: %7 = v_xor_b32 4, %6
   v1: %8 = ds_read_b32 %7
   v1: %9 = v_add_nc_u32 1, %8
   global_store_dword %6, %9, %4
"""


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("wave", ["wave32", "wave64"])
@pytest.mark.parametrize("body", [ALU, LDS], ids=["alu", "lds"])
def test_handwritten(body: str, wave: str, chip: str, tmp_path: Path):
    _check_program(single(body, chip, wave), chip, tmp_path)


# --- s_waitcnt on GFX10 as llvm-objdump-19 decodes it -----------------------------------------

def waits(src: str, chip: str, tmp: Path) -> list[str]:
    """The instruction lines of radcc's code object (s_code_end padding dropped)."""
    ours, _asm = _check_program(src, chip, tmp)
    wave64 = " wave64 " in src.split("\n", 1)[0]
    return [ln for ln in disasm(ours, chip, wave64) if not ln.startswith("s_code_end")]


def _before(lines: list[str], prefix: str) -> str:
    """The line right before the first one starting with `prefix`."""
    i = next(k for k, ln in enumerate(lines) if ln.startswith(prefix))
    return lines[i - 1]


@pytest.mark.parametrize("chip", CHIPS)
def test_load_then_use_waits_vmcnt0(chip: str, tmp_path: Path):
    body = ADDR + """\
   v1: %7 = global_load_dword %6, %4
   v1: %8 = v_add_nc_u32 1, %7
   global_store_dword %6, %8, %4
"""
    lines = waits(single(body, chip), chip, tmp_path)
    assert _before(lines, "v_add_nc_u32") == "s_waitcnt vmcnt(0)"
    # the address needed the s_load: lgkmcnt(0) before the first VMEM
    assert _before(lines, "global_load_dword") == "s_waitcnt lgkmcnt(0)"


@pytest.mark.parametrize("chip", CHIPS)
def test_many_loads_use_the_split_vmcnt_field(chip: str, tmp_path: Path):
    # 20 loads in flight, summed in issue order. Loads return in order (one event
    # kind): an instruction reading the result of load j (0-based) needs
    # vmcnt(19 - j), which above 15 needs both halves of GFX10's split field.
    n = 20
    body = ADDR + "".join(f"   v1: %{10 + k} = global_load_dword %6, %4 offset:{4 * k}\n"
                          for k in range(n))
    body += f"   v1: %{10 + n} = v_add_nc_u32 1, %10\n"
    acc = 10 + n
    for k in range(1, n):
        body += f"   v1: %{acc + k} = v_add_nc_u32 %{acc + k - 1}, %{10 + k}\n"
    body += f"   global_store_dword %6, %{acc + n - 1}, %4\n"
    lines = waits(single(body, chip), chip, tmp_path)
    loads = [k for k, ln in enumerate(lines) if ln.startswith("global_load_dword")]
    assert len(loads) == n
    pending = {int(re.match(r"global_load_dword v(\d+)", lines[k]).group(1)): j
               for j, k in enumerate(loads)}  # VGPR -> index of the load writing it
    waited = -1  # loads known complete: 0..waited
    expected: list[str] = []
    seen: list[str] = []
    for ln in lines[loads[-1] + 1:]:
        if ln.startswith("s_waitcnt"):
            seen.append(ln)
            continue
        regs = [int(r) for r in re.findall(r"\bv(\d+)\b", ln)]
        if not regs:
            continue
        dst, srcs = (regs[0], regs[1:]) if not ln.startswith("global_store") else (None, regs)
        need = max((pending[r] for r in srcs if r in pending), default=-1)
        if need > waited:
            expected.append(f"s_waitcnt vmcnt({n - 1 - need})")
            waited = need
        pending.pop(dst, None)
    assert seen == expected
    assert any(int(re.search(r"\d+", w).group()) > 15 for w in seen)


@pytest.mark.parametrize("chip", CHIPS)
def test_smem_and_lds_wait_lgkmcnt(chip: str, tmp_path: Path):
    lines = waits(single(LDS, chip), chip, tmp_path)
    assert _before(lines, "v_add_nc_u32") == "s_waitcnt lgkmcnt(0)"
    # p_barrier releases all memory accesses: only the ds_write is outstanding (LGKM);
    # no store is (VS_CNT is a separate counter on GFX10)
    i = lines.index("s_barrier")
    assert lines[i - 1] == "s_waitcnt lgkmcnt(0)"
    assert lines[i - 2].startswith("ds_write_b32")


@pytest.mark.parametrize("chip", CHIPS)
def test_store_counts_on_vscnt(chip: str, tmp_path: Path):
    body = ADDR + """\
   v1: %7 = v_mov_b32 5
   global_store_dword %6, %7, %4
   p_barrier
   v1: %8 = v_mov_b32 6
   global_store_dword %6, %8, %4 offset:4
"""
    lines = waits(single(body, chip), chip, tmp_path)
    i = lines.index("s_barrier")
    # only the store is outstanding: vscnt, and no s_waitcnt on the other counters
    assert lines[i - 1] == "s_waitcnt_vscnt null, 0x0"
    assert not lines[i - 2].startswith("s_waitcnt")


@pytest.mark.parametrize("chip", CHIPS)
def test_flat_load_waits_vm_and_lgkm(chip: str, tmp_path: Path):
    body = """\
   s2: %4 = s_load_dwordx2 %1, 0
   v2: %5 = p_create_vector %4
   v1: %6 = flat_load_dword %5
   v1: %7 = v_add_nc_u32 1, %6
   flat_store_dword %5, %7
"""
    lines = waits(single(body, chip), chip, tmp_path)
    assert _before(lines, "v_add_nc_u32") == "s_waitcnt vmcnt(0) lgkmcnt(0)"


# --- errors -------------------------------------------------------------------------------

def test_gfx11_ir_retargets_to_gfx10(tmp_path: Path):
    """The IR names instructions canonically: a GFX11 program using none of GFX11's own
    instructions compiles for gfx1030 in gfx1030's spellings, which llvm-mc accepts."""
    src = (E2E / "mem_gather.ir").read_text()
    out = tmp_path / "x.s"
    rc, err = radcc_llc(src, tmp_path, "--mcpu=gfx1030", "-S", "-o", str(out))
    assert rc == 0, err
    asm = out.read_text()
    assert "s_load_dwordx2" in asm and "global_load_dword " in asm and "_b32 " not in asm
    llvm_mc.require()
    p = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1030", str(out),
                        "-o", os.devnull], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def test_gfx11_only_opcodes_refused_for_gfx10(tmp_path: Path):
    src = (E2E / "mem_gather.ir").read_text().replace(
        "   s_endpgm", "   v1: %90 = v_permlane64_b32 v1: %91\n   s_endpgm", 1)
    rc, err = radcc_llc(src, tmp_path, "--mcpu=gfx1030", "-S", "-o", str(tmp_path / "x.s"))
    assert rc == 1
    assert "opcode 'v_permlane64_b32' does not exist on gfx1030" in err, err
    assert "Traceback" not in err


def test_gfx10_has_no_delay_alu_feature():
    for chip in CHIPS:
        t = get_target(chip)
        assert t.gfx_level in (GfxLevel.GFX10, GfxLevel.GFX10_3)
        assert not t.has(Feature.DelayAlu) and not t.has(Feature.VOPD)


# --- lowering and ABI on GFX10 -------------------------------------------------------------

def _lowered(body: str, chip: str, wave: str = "wave32"):
    from radcc.ir.parser import parse_program
    from radcc.passes.lower_to_hw import lower_to_hw

    p = parse_program(f"program {chip} {wave} compute\n" + TOP + body)
    lower_to_hw(p)
    return p


def _mc_accepts(asm: str, chip: str, wave64: bool) -> str:
    attrs = ["-mattr=+wavefrontsize64"] if wave64 else []
    p = _run(["llvm-mc-19", "-triple=amdgcn", f"-mcpu={chip}", *attrs], input=asm)
    assert p.returncode == 0 and "error" not in p.stderr, p.stderr
    return p.stdout


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("wave", ["wave32", "wave64"])
def test_discard_if_uses_gfx10_andn2(chip: str, wave: str):
    # exec &= ~cond: GFX10 spells it s_andn2 (GFX11's s_and_not1 does not exist there)
    from radcc.passes.emit_program import emit_program

    lm = "s1: %1:s[4]" if wave == "wave32" else "s2: %1:s[4-5]"
    p = _lowered(f"   p_discard_if {lm}\n   s_endpgm\n", chip, wave)
    asm = emit_program(p).asm
    want = ("s_andn2_b32 exec_lo, exec_lo, s4" if wave == "wave32"
            else "s_andn2_b64 exec, exec, s[4:5]")
    assert want in asm
    _mc_accepts(asm, chip, wave == "wave64")


@pytest.mark.parametrize("chip", CHIPS)
def test_bpermute_swaps_halves_lane_by_lane(chip: str):
    # no v_permlane64_b32 before GFX11: the cross-half swap is 64 v_readlane/v_writelane
    # pairs (lane i of the data to lane i ^ 32 of the linear VGPR) through exec_save's low
    # SGPR, before EXEC is saved; the run of it: tests/passes/test_bpermute_gfx10.py
    body = ("   v1: %1:v[0], s2: %2:s[4-5], s1: %3:scc = p_bpermute v1: %4:v[1], "
            "v1: %5:v[2], s2: %6:s[6-7], lv1: %7:v[3], lv1: %8:v[4]\n   s_endpgm\n")
    ins = _lowered(body, chip, "wave64").blocks[0].instructions
    ops = [i.opcode for i in ins]
    assert "v_permlane64_b32" not in ops
    reads = [i for i in ins if i.opcode == "v_readlane_b32"]
    writes = [i for i in ins if i.opcode == "v_writelane_b32"]
    assert [r.operands[1].const for r in reads] == list(range(64))
    assert [w.operands[1].const for w in writes] == [k ^ 32 for k in range(64)]
    assert all(r.definitions[0].phys.reg == 4 and r.operands[0].phys.reg == 256 + 2
               for r in reads)
    assert all(w.definitions[0].phys.reg == 256 + 3 for w in writes)
    assert ops.index("s_or_saveexec_b64") > ops.index("v_writelane_b32")
    assert ops.count("ds_bpermute_b32") == 2


def test_bpermute_lowers_on_gfx11():
    # the same instruction is fine where v_permlane64_b32 exists (the check is the table's)
    body = ("   v1: %1:v[0], s2: %2:s[4-5], s1: %3:scc = p_bpermute v1: %4:v[1], "
            "v1: %5:v[2], s2: %6:s[6-7], lv1: %7:v[3], lv1: %8:v[4]\n   s_endpgm\n")
    p = _lowered(body, "gfx1100", "wave64")
    assert "v_permlane64_b32" in [i.opcode for i in p.blocks[0].instructions]


# scratch on GFX10 (flat scratch init prologue): tests/passes/test_gfx10_scratch.py


def test_scratch_still_enabled_on_gfx11():
    from radcc.passes.kernel_abi import kernel_fields

    p = _lowered("   s_endpgm\n", "gfx1100")
    p.config.scratch_bytes_per_lane = 16
    assert kernel_fields(p, 0, 1, False)["enable_private_segment"] == 1


# SPIR-V compilation for GFX10 (radcc compile --mcpu=gfx10xx):
# tests/e2e/test_glsl_gfx10_mc.py, tests/e2e/test_compile_cli.py


_TRIVIAL_LL = """target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr addrspace(1) %p) {
  store i32 1, ptr addrspace(1) %p
  ret void
}
"""


@pytest.mark.parametrize("chip", [*CHIPS, "gfx1100"])
def test_code_end_padding_as_clang(chip: str, tmp_path: Path):
    # the s_code_end padding after the kernel is what clang-19 puts at the end of a
    # kernel file for the same chip (GFX10: 64-byte instruction cache lines)
    if shutil.which("clang-19") is None:
        pytest.fail("clang-19 missing")
    (tmp_path / "k.ll").write_text(_TRIVIAL_LL)
    p = _run(["clang-19", "-nogpulib", "-target", "amdgcn-amd-amdhsa", f"-mcpu={chip}", "-O2",
              "-S", str(tmp_path / "k.ll"), "-o", "-"], check=True)
    want = [ln.strip() for ln in p.stdout.splitlines()
            if ln.strip().startswith((".p2alignl", ".fill"))]
    assert len(want) == 2
    src = single(ADDR + "   global_store_dword %6, %5, %4\n", chip)
    rc, err = radcc_llc(src, tmp_path, "-S", "-o", str(tmp_path / "k.s"))
    assert rc == 0, err
    got = [ln.strip() for ln in (tmp_path / "k.s").read_text().splitlines()
           if ln.strip().startswith((".p2alignl", ".fill"))]
    assert got == want


# --- work-item ids: v0/v1/v2 on GFX10 (clang-19 -mcpu=gfx1030 reads workitem.id.y from v1) --

def _wid_program(chip: str, wid: int, defs: str, use: str) -> str:
    return (HDR.format(chip=chip, wave="wave32") + TOP
            + f"   s2: %1:s[0-1], s1: %2:s[2], v1: %3:v[0]{defs} = p_startpgm workitem_id:{wid}\n"
            + "   p_logical_start\n   s2: %4 = s_load_dwordx2 %1, 0\n"
            + f"   v1: %6 = v_lshlrev_b32 2, %3\n   global_store_dword %6, {use}, %4\n" + END)


@pytest.mark.parametrize("chip", CHIPS)
def test_workitem_y_z_in_v1_v2(chip: str, tmp_path: Path):
    src = _wid_program(chip, 2, ", v1: %7:v[1], v1: %8:v[2]", "%8")
    ours, _asm = _check_program(src, chip, tmp_path)
    assert kd_fields(ours, chip)["system_vgpr_workitem_id"] == 2
    # z (v2) is what gets stored
    store = [ln for ln in disasm(ours, chip) if ln.startswith("global_store_dword")]
    assert store and store[0].split()[2] == "v2,"


@pytest.mark.parametrize("chip", CHIPS)
def test_workitem_id_register_not_enabled(chip: str, tmp_path: Path):
    src = _wid_program(chip, 1, ", v1: %7:v[1], v1: %8:v[2]", "%8")
    rc, err = radcc_llc(src, tmp_path, "-S", "-o", str(tmp_path / "x.s"))
    assert rc == 1 and "v[2]" in err and "workitem_id:1" in err and "Traceback" not in err


def test_gfx11_has_no_unpacked_ids(tmp_path: Path):
    src = _wid_program("gfx1030", 1, ", v1: %7:v[1]", "%7").replace(
        "program gfx1030", "program gfx1100").replace("s_load_dwordx2", "s_load_b64").replace(
        "global_store_dword", "global_store_b32")
    rc, err = radcc_llc(src, tmp_path, "-S", "-o", str(tmp_path / "x.s"))
    assert rc == 1 and "v[1]" in err and "does not set up" in err


def test_packed_ids_not_carried_to_gfx10(tmp_path: Path):
    # gfx1100 IR reading y packed in v0 must not be retargeted to gfx1030 (y is in v1)
    src = ("program gfx1100 wave32 compute name:k\n" + TOP
           + "   s2: %1:s[0-1], s1: %2:s[2], v1: %3:v[0] = p_startpgm workitem_id:1\n"
           + "   p_logical_start\n   v1: %4 = v_bfe_u32 %3, 10, 10\n" + END)
    rc, _err = radcc_llc(src, tmp_path, "-S", "-o", str(tmp_path / "a.s"))
    assert rc == 0  # fine where it was written for
    rc, err = radcc_llc(src, tmp_path, "--mcpu=gfx1030", "-S", "-o", str(tmp_path / "b.s"))
    assert rc == 1 and "workitem_id:1" in err and "gfx1030" in err
    rc, _err = radcc_llc(src.replace("workitem_id:1", "workitem_id:0"), tmp_path,
                         "--mcpu=gfx1030", "-S", "-o", str(tmp_path / "c.s"))
    assert rc == 0  # x alone is v0 on both


@pytest.mark.parametrize("chip", ["gfx1030", "gfx1010"])
def test_radcc_run_runs_gfx10_objects(tmp_path: Path, chip: str):
    """radcc's back-end output for GFX10.3/GFX10.1 runs in the strict emulator and gives
    what the program's header expects (NumPy): out = tbl[idx] * 3 + tbl[idx + 2]."""
    import sys

    import numpy as np

    src = to_gfx10((E2E / "mem_gather.ir").read_text(), chip)
    rc, err = radcc_llc(src, tmp_path, "-o", str(tmp_path / "k.o"), "--arg=out:buffer",
                        "--arg=idx:buffer", "--arg=tbl:buffer")
    assert rc == 0, err
    rng = np.random.default_rng(5)
    idx = rng.integers(0, 1020, 256).astype(np.uint32)
    tbl = rng.integers(0, 1 << 32, 1024, dtype=np.uint64).astype(np.uint32)
    np.save(tmp_path / "idx.npy", idx)
    np.save(tmp_path / "tbl.npy", tbl)
    p = _run([sys.executable, "-m", "radcc", "run", str(tmp_path / "k.o"), "--kernel",
              "mem_gather", "--groups", "4", "--block", "64", "--arg", "out=zeros:1024",
              "--arg", f"idx={tmp_path / 'idx.npy'}", "--arg", f"tbl={tmp_path / 'tbl.npy'}",
              "--out", str(tmp_path / "out")])
    assert p.returncode == 0, p.stdout + p.stderr
    out = np.fromfile(tmp_path / "out" / "out.bin", dtype=np.uint32)
    np.testing.assert_array_equal(out, tbl[idx] * np.uint32(3) + tbl[idx + 2])
