"""emit_program: bytes equal llvm-mc-19's for the same text, long jumps, code objects.

Oracles: llvm-mc-19 (encodings of the emitted assembly, assembled as a whole
file so branch labels resolve), llvm-readelf-19 / llvm-objdump-19 (code
objects), radcc.emu for the long jump's arithmetic.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile

import numpy as np
import pytest

from radcc.abi.kernarg import KernargLayout
from radcc.codeobj.amdhsa import decode_kernel_descriptor
from radcc.codeobj.elf import read_code_object
from radcc.ir.parser import parse_program
from radcc.oracle import llvm_mc
from radcc.passes.emit_program import (
    PREFETCH_FILL,
    S_CODE_END,
    emit_code_object,
    emit_program,
)
from radcc.passes.lower_to_hw import lower_to_hw

HDR = "program gfx1100 {wave} compute name:{name}\n"
B0 = "BB0\n/* logical preds: / linear preds: / kind: top-level, */\n"


def llvm_mc_text(asm: str, wave64: bool = False) -> bytes:
    """.text of llvm-mc-19's object for `asm`."""
    llvm_mc.require()
    with tempfile.TemporaryDirectory() as d:
        src, obj = os.path.join(d, "a.s"), os.path.join(d, "a.o")
        with open(src, "w") as f:
            f.write(asm)
        attrs = ["-mattr=+wavefrontsize64"] if wave64 else []
        subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100",
                        "--filetype=obj", *attrs, src, "-o", obj], check=True,
                       capture_output=True)
        co = read_code_object(open(obj, "rb").read())
    return co.sections[".text"].data


def compile_ir(text: str):
    p = parse_program(text)
    lower_to_hw(p)
    return p, emit_program(p)


KERNEL = HDR.format(wave="{wave}", name="square") + B0 + """\
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

MIXED = HDR.format(wave="{wave}", name="mixed") + B0 + """\
   s2: %1:s[0-1], v1: %3:v[0] = p_startpgm
   p_logical_start
   s4: %4:s[4-7] = s_load_b128 %1:s[0-1], 0x10 glc
   v1: %5:v[1] = v_add_f32_e64 %3:v[0], 0xc0000000 neg:[1,0] abs:[0,1] clamp
   v1: %6:v[2] = v_fma_f32 %5:v[1], 0x40490fdb, %3:v[0] omod:2
   {lm}: %7:vcc = v_cmp_lt_f32 %5:v[1], %6:v[2]
   v1: %8:v[3] = v_cndmask_b32 %5:v[1], %6:v[2], %7:vcc
   v1: %9:v[4], {lm}: %10:vcc = v_add_co_ci_u32 1, %8:v[3], %7:vcc
   {lm}: %11:s[8{hi}] = v_cmp_eq_u32_e64 %3:v[0], 3
   v1: %12:v[5] = v_cndmask_b32_e64 0, 0x3f800000, %11:s[8{hi}]
   v1: %13:v[6] = ds_load_b32 %9:v[4] offset:64
   ds_store_b32 %9:v[4], %12:v[5] offset:8
   v2: %14:v[8-9] = global_load_b64 v2: %15:v[10-11], s2: undef offset:-16
   v1: %16:v[7] = v_pk_add_f16 %12:v[5], %13:v[6] op_sel:[1,0] neg_lo:[0,1]
   s1: %17:s[12], s1: %18:scc = s_add_u32 s1: %30:s[4], 0x12345678
   s1: %19:s[13] = s_movk_i32 simm16:0x1234
   p_logical_end
   p_cbranch_z %18:scc BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   s_nop simm16:3
   p_branch BB3
BB2
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   s_sleep simm16:1
BB3
/* logical preds: BB1, BB2, / linear preds: BB1, BB2, / kind: top-level, */
   s_waitcnt simm16:0
   s_waitcnt_vscnt s1: null simm16:0
   s_endpgm
"""


@pytest.mark.parametrize("wave", ["wave32", "wave64"])
@pytest.mark.parametrize("src", [KERNEL, MIXED], ids=["kernel", "mixed"])
def test_bytes_equal_llvm_mc(src, wave):
    lm = "s1" if wave == "wave32" else "s2"
    text = src.format(wave=wave, lm=lm, hi="" if wave == "wave32" else "-9")
    p, r = compile_ir(text)
    want = llvm_mc_text(r.asm, wave64=wave == "wave64")
    assert r.code[:r.code_size] == want
    if wave == "wave64":
        assert "vcc_lo" not in r.asm and "vcc" in r.asm if "mixed" in text else True


@pytest.mark.parametrize("wave", ["wave32", "wave64"])
def test_asm_is_llvm_mc_disassembly_with_or_without_line_memo(wave):
    """`EmitResult.asm` is made when read, from the bytes: each instruction line (but the
    branches, which llvm-mc prints as offsets) is llvm-mc-19's disassembly of its bytes,
    whether the assembler's line memo had the line (a later compile) or not."""
    from radcc.isa.assembler import clear_memo

    lm = "s1" if wave == "wave32" else "s2"
    text = MIXED.format(wave=wave, lm=lm, hi="" if wave == "wave32" else "-9")
    clear_memo()
    r1 = compile_ir(text)[1]
    r2 = compile_ir(text)[1]  # every line in the memo now
    assert r1.asm == r2.asm
    ends = {off: nxt for off, nxt in zip(
        sorted(o for *_, o in r2.instruction_offsets),
        [*sorted(o for *_, o in r2.instruction_offsets)[1:], r2.code_size], strict=True)}
    offs = {(b, i): o for b, i, o in r2.instruction_offsets}
    lines, blobs = [], []
    for line, at in zip(r2.asm.rstrip("\n").split("\n"), r2.asm_line_instrs, strict=True):
        if at is None or "branch" in line:
            continue
        lines.append(line.strip())
        blobs.append(r2.code[offs[at]:ends[offs[at]]])
    assert len(lines) > 15
    llvm_mc.require()
    assert llvm_mc.decode(blobs, wave64=wave == "wave64") == lines


def test_block_offsets_and_branch_resolution():
    p, r = compile_ir(MIXED.format(wave="wave32", lm="s1", hi=""))
    # BB0 ends with s_cbranch_scc0 BB2; BB1's branch to BB3 jumps over BB2
    assert r.block_offsets[0] == 0
    assert r.block_offsets[0] < r.block_offsets[1] < r.block_offsets[2] < r.block_offsets[3]
    assert "s_cbranch_scc0 BB2" in r.asm and "s_branch BB3" in r.asm
    # the branch word's simm16 is (target - (branch + 4)) / 4
    for blk, _i, off in r.instruction_offsets:
        word = int.from_bytes(r.code[off:off + 4], "little")
        if word >> 16 == 0xBFA1:  # s_cbranch_scc0
            assert (word & 0xFFFF) * 4 + off + 4 == r.block_offsets[2]
            assert blk == 0


def test_code_end_padding_as_llvm():
    p, r = compile_ir(KERNEL.format(wave="wave32"))
    pad = r.code[r.code_size:]
    assert len(r.code) % 128 == 0
    assert len(pad) == (-r.code_size) % 128 + PREFETCH_FILL
    assert pad == S_CODE_END.to_bytes(4, "little") * (len(pad) // 4)
    # the same directives LLVM prints give the same bytes in llvm-mc
    want = llvm_mc_text(r.asm + "\t.p2alignl 7, 3214868480\n\t.fill 96, 4, 3214868480\n")
    assert r.code == want


def _long_program(taken_cond: bool) -> str:
    filler = "   v1: %{n}:v[1] = v_fma_f32 %3:v[0], 0x12345678, %3:v[0]\n"
    body = "".join(filler.format(n=100 + i) for i in range(11000))
    branch = ("p_cbranch_nz s1: %9:scc BB2, BB1" if taken_cond else "p_branch BB2")
    pre = "   s1: %9:scc = s_cmp_eq_u32 0, 0\n" if taken_cond else ""
    return (HDR.format(wave="wave32", name="far") + B0 +
            "   s2: %1:s[0-1], v1: %3:v[0] = p_startpgm\n"
            "   s2: %4:s[4-5] = s_load_b64 %1:s[0-1], 0\n"
            "   v1: %5:v[2] = v_lshlrev_b32 2, %3:v[0]\n"
            "   v1: %6:v[3] = v_mov_b32 7\n" + pre +
            f"   {branch}\n"
            "BB1\n/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */\n" + body +
            "   v1: %7:v[3] = v_mov_b32 13\n"
            "BB2\n/* logical preds: BB0, BB1, / linear preds: BB0, BB1, / kind: top-level, */\n"
            "   s_waitcnt simm16:0\n"
            "   global_store_b32 %5:v[2], %6:v[3], %4:s[4-5]\n"
            "   s_endpgm\n")


def _out_arg() -> KernargLayout:
    layout = KernargLayout()
    layout.add_buffer("out")
    return layout


OUT_ARG = _out_arg()


@pytest.mark.parametrize("cond", [False, True], ids=["branch", "cbranch"])
def test_long_jump(cond):
    from radcc.emu.api import load

    p, r = compile_ir(_long_program(cond))
    assert r.long_jumps == 1
    assert "s_getpc_b64" in r.asm and "s_setpc_b64" in r.asm
    if cond:
        # the inverted condition skips the jump: its target is the instruction after
        # s_setpc_b64, which is BB1's first (the skip label and BB1's print as one label)
        assert re.search(r"s_cbranch_scc0 BB1\n(?:\t.*\n){3}\ts_setpc_b64 s\[\d+:\d+\]\nBB1:",
                         r.asm)
    assert r.code[:r.code_size] == llvm_mc_text(r.asm)
    # the pair is above every SGPR the program uses, and counted
    m = re.search(r"s_getpc_b64 s\[(\d+):(\d+)\]", r.asm)
    assert m and int(m.group(1)) >= 6 and r.sgprs >= int(m.group(2)) + 1
    # run it: BB1 (which would store 13) is jumped over
    res = load(emit_code_object(p, r, OUT_ARG)).run("far", groups=1, block=32,
                                                   args={"out": np.zeros(32, np.uint32)})
    assert (res.buffers["out"] == 7).all()
    assert not res.violations


def test_code_object_readable_by_llvm_tools():
    p, r = compile_ir(KERNEL.format(wave="wave32"))
    obj = emit_code_object(p, r, OUT_ARG)
    co = read_code_object(obj)
    assert list(co.kernels) == ["square"]
    kd = decode_kernel_descriptor(co.kernels["square"].descriptor_bytes, p.target)
    assert kd["user_sgpr_kernarg_segment_ptr"] == 1 and kd["user_sgpr_count"] == 2
    assert kd["system_sgpr_workgroup_id_x"] == 1 and kd["wavefront_size32"] == 1
    assert kd["next_free_vgpr"] >= 4
    if shutil.which("llvm-readelf-19") is None:
        pytest.fail("llvm-readelf-19 missing (install llvm-19)")
    with tempfile.NamedTemporaryFile(suffix=".o", delete=False) as f:
        f.write(obj)
        path = f.name
    try:
        notes = subprocess.run(["llvm-readelf-19", "--notes", path], capture_output=True,
                               text=True, check=True).stdout
        assert ".name:           square" in notes and ".vgpr_count:     4" in notes
        assert ".sgpr_count:     7" in notes and ".name:           out" in notes
        dis = subprocess.run(["llvm-objdump-19", "-d", "--mcpu=gfx1100", path],
                             capture_output=True, text=True, check=True).stdout
        lines = [ln for ln in dis.splitlines() if "//" in ln]
        # the same instructions (mnemonics) and the same words, padding included
        mnem = [ln.split()[0] for ln in lines]
        want = [ln.split()[0] for ln in r.asm.splitlines() if not ln.endswith(":")]
        assert [m for m in mnem if m != "s_code_end"] == want
        words = b"".join(int(w, 16).to_bytes(4, "little")
                         for ln in lines for w in ln.split("//")[1].split(":")[1].split())
        assert words == r.code
    finally:
        os.unlink(path)
