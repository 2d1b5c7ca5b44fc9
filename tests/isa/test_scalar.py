"""Scalar encodings (SOP1 SOP2 SOPC SOPK SOPP SMEM) against llvm-mc-19.

Expectations come from llvm-mc live: per-opcode representative lines,
symbolic-field lines, randomized words of each format's encoding space,
a label program checked against llvm-mc's object output, bad inputs, and
decoder robustness on random bytes.
"""

from __future__ import annotations

import random
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from radcc.isa.assembler import assemble
from radcc.isa.disassembler import decode_one
from radcc.isa.formats.base import Context
from radcc.isa.table import get_table
from radcc.oracle import llvm_mc
from radcc.target import get_target

T = get_target("gfx1100")
CTX = Context(T, get_table(T.gfx_level), 32)
SCALAR = ("SOP1", "SOP2", "SOPC", "SOPK", "SOPP", "SMEM")


def _entries():
    return [e for e in get_table(T.gfx_level).entries if e.enc in SCALAR]


def _reg(bits: int, base: int) -> str:
    n = bits // 32
    return f"s{base}" if n == 1 else f"s[{base}:{base + n - 1}]"


def _lines_for(e) -> list[str]:
    """Representative source lines for one table entry."""
    name = e.name
    if e.enc == "SMEM":
        if not e.operands:
            return [name]
        sd, sb = e.operands[0], e.operands[1]
        d = "5" if sd.kind == "imm" else _reg(sd.bits, 8)
        b = _reg(sb.bits, 4)
        out = [f"{name} {d}, {b}, 0x10", f"{name} {d}, {b}, s3", f"{name} {d}, {b}, s3 offset:-0x20",
               f"{name} {d}, {b}, -0x100000", f"{name} {d}, {b}, m0"]
        out += [f"{name} {d}, {b}, 0x4 {m}" for m in sorted(e.modifiers)]
        return out
    kinds = [o.kind for o in e.operands]
    order = e.extra.get("asm_order") or [o.name for o in e.operands]
    if e.extra.get("imm_zero"):
        return [name]
    variants: list[dict[str, str]] = []
    if e.enc in ("SOP1", "SOP2", "SOPC"):
        for src in ("s7", "0x12345678", "-1", "1.0", "-4.0", "0.15915494", "vcc_lo", "m0",
                    "src_scc", "null", "exec_hi", "ttmp3", "64", "-16", "0x3e22f983", "0xffffffef",
                    "src_shared_base", "1.5"):
            v: dict[str, str] = {}
            for o in e.operands:
                if o.kind == "sgpr":
                    v[o.name] = _reg(o.bits, 10)
                elif o.kind == "sendmsg_rtn":
                    v[o.name] = "sendmsg(MSG_RTN_GET_REALTIME)"
                elif o.bits == 64 and src in ("s7", "vcc_lo", "m0", "exec_hi", "ttmp3"):
                    v[o.name] = {"s7": "s[6:7]", "vcc_lo": "vcc", "m0": "exec",
                                 "exec_hi": "ttmp[2:3]", "ttmp3": "s[100:101]"}[src]
                else:
                    v[o.name] = src if o.name == "ssrc0" else ("s3" if o.bits == 32 else "s[2:3]")
            variants.append(v)
    else:
        imms = ["0", "1", "64", "65", "0x1234", "0xffff", "-1", "-16", "0x8000"]
        for imm in imms:
            v = {}
            for o in e.operands:
                if o.kind == "sgpr":
                    v[o.name] = "null" if name.startswith("s_waitcnt_") else _reg(o.bits, 10)
                elif o.kind == "hwreg":
                    v[o.name] = "hwreg(HW_REG_MODE, 2, 3)"
                elif o.kind == "literal":
                    v[o.name] = "0x12345678"
                elif o.kind == "sendmsg":
                    v[o.name] = "sendmsg(MSG_INTERRUPT)"
                elif o.kind in ("waitcnt", "depctr", "delay", "version"):
                    v[o.name] = imm
                else:
                    v[o.name] = imm
            variants.append(v)
    out = []
    for v in variants:
        ops = ", ".join(v[n] for n in order if n in v)
        out.append(f"{name} {ops}".rstrip())
    assert kinds is not None
    return out


SPECIAL_LINES = [
    "s_waitcnt vmcnt(0)", "s_waitcnt expcnt(1) & lgkmcnt(2)", "s_waitcnt vmcnt(3), lgkmcnt(4)",
    "s_waitcnt lgkmcnt(3) vmcnt(1)", "s_waitcnt vmcnt_sat(70)", "s_waitcnt 0xfc07",
    "s_waitcnt_depctr depctr_va_vdst(0)", "s_waitcnt_depctr depctr_sa_sdst(0) & depctr_vm_vsrc(1)",
    "s_waitcnt_depctr 0xfffe", "s_waitcnt_depctr depctr_hold_cnt(1)",
    "s_delay_alu instid0(VALU_DEP_1)", "s_delay_alu instid0(VALU_DEP_2) | instskip(NEXT) | "
    "instid1(SALU_CYCLE_1)", "s_delay_alu instskip(SKIP_4)", "s_delay_alu 0x91",
    "s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)", "s_sendmsg sendmsg(MSG_GS_ALLOC_REQ)",
    "s_sendmsg sendmsg(MSG_SYSMSG, SYSMSG_OP_TTRACE_PC)", "s_sendmsg sendmsg(2, 2, 1)",
    "s_sendmsghalt sendmsg(MSG_HALT_WAVES)", "s_sendmsg 3", "s_sendmsg 0x3ff",
    "s_sendmsg_rtn_b32 s0, sendmsg(MSG_RTN_GET_DOORBELL)", "s_sendmsg_rtn_b64 s[2:3], 5",
    "s_getreg_b32 s1, hwreg(HW_REG_HW_ID1)", "s_getreg_b32 s1, hwreg(HW_REG_MODE, 0, 32)",
    "s_getreg_b32 s1, hwreg(7, 31, 1)", "s_getreg_b32 s1, 0x1234", "s_setreg_b32 hwreg(3), s9",
    "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0xff", "s_setreg_imm32_b32 0x801, -1",
    "s_version UC_VERSION_GFX11", "s_version UC_VERSION_GFX11|UC_VERSION_W64_BIT", "s_version 0",
    "s_nop 0", "s_nop 7", "s_nop -1", "s_nop 0x10000", "s_sleep 0xffffffff", "s_endpgm",
    "s_endpgm 3", "s_branch -1", "s_branch 32767", "s_cbranch_execz 0x7fff", "s_call_b64 s[0:1], 4",
    "s_trap 2", "s_setprio 3", "s_clause 0x3f", "s_set_inst_prefetch_distance 0x3",
    "s_wait_idle", "s_code_end", "s_barrier", "s_icache_inv", "s_movk_i32 s0, -1",
    "s_cmpk_lt_i32 s1, -32768", "s_addk_i32 vcc_lo, 0x7fff", "s_waitcnt_vscnt null, 0x3f",
    "s_load_b32 s0, s[2:3], null", "s_load_b32 s0, s[2:3], 0x0", "s_load_b64 vcc, s[2:3], 0x10",
    "s_load_b32 s0, ttmp[2:3], 0x10", "s_buffer_load_b32 s0, s[4:7], s5 offset:4",
    "s_load_b32 null, s[2:3], 0x10 glc dlc", "s_dcache_inv", "s_gl1_inv",
    "s_mov_b64 s[0:1], 0x3ff0000000000000", "s_mov_b64 s[0:1], 0xfffffffffffffff0",
    "s_mov_b64 s[0:1], 0x80000000", "s_add_u32 s0, 0x12345678, 0x12345678",
    "s_and_saveexec_b32 s0, s1", "s_and_saveexec_b64 s[0:1], s[2:3]",
    # GFX10 spellings llvm-mc accepts (probed aliases)
    "s_inst_prefetch 0x1", "s_inst_prefetch 0xc1d1", "s_andn2_b32 s0, s1, s2",
    "s_orn2_b64 s[0:1], s[2:3], s[4:5]", "s_andn1_saveexec_b32 s0, s1",
    "s_orn2_saveexec_b64 s[0:1], s[2:3]", "s_andn2_wrexec_b64 s[0:1], s[2:3]",
    "s_load_dword s1, s[2:3], 0x0", "s_load_dwordx2 s[0:1], s[2:3], 0x0",
    "s_buffer_load_dwordx16 s[0:15], s[4:7], s1",
]

BAD_LINES = [
    "s_mov_b32 s0, s106", "s_mov_b64 s[1:2], s[2:3]", "s_mov_b32 s0, v0", "s_mov_b32 exec, s0",
    "s_mov_b32 s0, s[0:1]", "s_add_u32 s0, 0x12345678, 0x12345679", "s_mov_b32 s0, vccz",
    "s_mov_b32 s0, 0x100000000", "s_mov_b64 s[0:1], 1.5", "s_movk_i32 s0, 0x10000",
    "s_cmpk_eq_u32 s0, -1", "s_waitcnt vmcnt(64)", "s_getreg_b32 s0, hwreg(64)",
    "s_getreg_b32 s0, hwreg(HW_REG_MODE, 32, 1)", "s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 33)",
    "s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)", "s_branch 0x10000", "s_endpgm -1",
    "s_load_b32 s0, s[2:3], 0x100000", "s_load_b32 s0, s[2:3], 0x10 slc",
    "s_load_b32 m0, s[2:3], 0x10", "s_load_b32 s0, s[1:2], 0x10", "s_waitcnt_vscnt s0, 0",
    "s_mov_b32 s0", "s_mov_b32 s0, s1, s2", "s_nop s0", "s_endpgm_saved 1", "s_wait_idle 0",
]


@pytest.fixture(scope="module")
def oracle():
    llvm_mc.require()
    return None


def _check_lines(lines: list[str]) -> tuple[int, list[str]]:
    ref = llvm_mc.encode(lines)
    bad = []
    ok = 0
    for r in ref:
        res = assemble(r.line, T)
        if r.error is not None:
            if res.ok:
                bad.append(f"accepted bad line: {r.line!r} (llvm-mc: {r.error})")
            else:
                ok += 1
            continue
        if not res.ok:
            bad.append(f"rejected: {r.line!r}: {res.diagnostics[0].message}")
            continue
        st_ = [s for s in res.statements if s.kind == "inst"][0]
        if (r.data is not None and st_.data != r.data) or st_.text != r.text:
            bad.append(f"{r.line!r}: llvm-mc {r.text!r} {r.data and r.data.hex()} "
                       f"radcc {st_.text!r} {st_.data.hex()}")
        else:
            ok += 1
    return ok, bad


def test_every_opcode_encodes_like_llvm_mc(oracle):
    entries = _entries()
    assert len(entries) >= 200
    lines = [ln for e in entries for ln in _lines_for(e)]
    ok, bad = _check_lines(lines)
    assert not bad, f"{len(bad)}/{len(lines)} mismatches:\n" + "\n".join(bad[:40])


def test_special_syntax_like_llvm_mc(oracle):
    ok, bad = _check_lines(SPECIAL_LINES)
    assert not bad, "\n".join(bad)


def test_bad_inputs_are_errors(oracle):
    ref = llvm_mc.encode(BAD_LINES)
    for r in ref:
        assert r.error is not None, f"llvm-mc accepts {r.line!r}"
        res = assemble(r.line, T)
        assert not res.ok, f"radcc accepts {r.line!r}"
        d = res.diagnostics[0]
        assert d.line == 1 and d.col >= 1, (r.line, d)
    # columns agree with llvm-mc for the operand errors
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write("\n".join(BAD_LINES) + "\n")
    p = subprocess.run([llvm_mc.LLVM_MC, "-triple=amdgcn", "-mcpu=gfx1100", f.name],
                       capture_output=True, text=True)
    Path(f.name).unlink()
    cols = {}
    for ln in p.stderr.splitlines():
        m = llvm_mc._DIAG_RE.match(ln)
        if m:
            cols.setdefault(int(m.group(1)), int(m.group(2)))
    agree = sum(assemble(line, T).diagnostics[0].col == cols.get(i)
                for i, line in enumerate(BAD_LINES, 1))
    assert agree >= 0.75 * len(BAD_LINES)


def _random_words(rng: random.Random, n: int) -> list[bytes]:
    out = []
    fixed = [(0xC0000000, 0x80000000), (0xF0000000, 0xB0000000), (0xFF800000, 0xBE800000),
             (0xFF800000, 0xBF000000), (0xFF800000, 0xBF800000), (0xFC000000, 0xF4000000)]
    for i in range(n):
        mask, val = fixed[i % len(fixed)]
        w = (rng.getrandbits(32) & ~mask) | val
        if val == 0xBF800000 and rng.random() < 0.8:
            w = (w & 0xFF80FFFF) | rng.randrange(0, 64) << 16  # SOPP: mostly real opcodes
        if val in (0x80000000, 0xBE800000, 0xBF000000) and rng.random() < 0.7:
            w &= ~0xFF  # SOP*: some register sources
            w |= rng.choice([rng.randrange(0, 128), 255, rng.randrange(128, 256)])
            if val == 0x80000000:
                w = (w & ~(0x7F << 23)) | rng.randrange(0, 54) << 23
            if val == 0xBE800000:
                w = (w & ~(0xFF << 8)) | rng.randrange(0, 80) << 8
            if val == 0xBF000000:
                w = (w & ~(0x7F << 16)) | rng.randrange(0, 18) << 16
        if val == 0xF4000000:
            w = (w & ~(0xFF << 18)) | rng.choice([0, 1, 2, 3, 4, 8, 9, 10, 11, 12, 32, 33, 34, 35]) << 18
        if val == 0xB0000000:
            w = (w & ~(0x1F << 23)) | rng.randrange(0, 29) << 23
        b = w.to_bytes(4, "little")
        needs_lit = (val in (0x80000000, 0xBE800000, 0xBF000000)
                     and (w & 0xFF == 255 or (val != 0xBE800000 and (w >> 8) & 0xFF == 255)))
        needs_lit |= val == 0xB0000000 and (w >> 23) & 0x1F == 19
        if val == 0xF4000000 or needs_lit:
            b += rng.getrandbits(32).to_bytes(4, "little")
        out.append(b)
    return out


def test_random_words_decode_and_reassemble_like_llvm_mc(oracle):
    rng = random.Random(1234)
    blobs = _random_words(rng, 6000)
    texts = llvm_mc.decode(blobs)
    pairs = [(b, t) for b, t in zip(blobs, texts, strict=True) if t is not None]
    assert len(pairs) > 2000
    dec_bad = []
    for b, t in pairs:
        d = decode_one(b, 0, CTX)
        if d.text != t or d.size != len(b):
            dec_bad.append((b.hex(), t, d.text))
    rate = 1 - len(dec_bad) / len(pairs)
    assert rate >= 0.995, f"decode agreement {rate:.4f}: {dec_bad[:20]}"
    # re-assembly of llvm-mc's text gives llvm-mc's bytes
    lines = [t for _b, t in pairs]
    ok, bad = _check_lines(lines)
    assert ok / len(lines) >= 0.995, f"{len(bad)} re-assembly mismatches: {bad[:20]}"


def test_label_program_matches_llvm_mc_object(oracle):
    src = "\n".join([
        "start:", "  s_mov_b32 s0, 0x12345678", "  s_cbranch_scc0 fwd", "back:",
        "  s_add_u32 s0, s0, 1", "  s_cbranch_execnz back", "  s_branch fwd", "  s_nop 0",
        "  s_cbranch_vccz start", "fwd:", "  s_call_b64 s[2:3], back", "  s_endpgm", ""])
    res = assemble(src, T)
    assert res.ok, [str(d) for d in res.diagnostics]
    with tempfile.TemporaryDirectory() as d:
        s = Path(d) / "a.s"
        o = Path(d) / "a.o"
        s.write_text(src)
        subprocess.run([llvm_mc.LLVM_MC, "-triple=amdgcn", "-mcpu=gfx1100", "--filetype=obj",
                        str(s), "-o", str(o)], check=True)
        out = subprocess.run(["llvm-objcopy-19", "-O", "binary", "--only-section=.text",
                              str(o), str(Path(d) / "t.bin")], capture_output=True)
        if out.returncode == 0:
            ref = (Path(d) / "t.bin").read_bytes()
        else:
            ref = _objdump_bytes(o)
    assert res.text == ref
    # listing text names the labels like llvm-mc -show-encoding
    texts = [s.text for s in res.statements if s.kind == "inst"]
    assert "s_cbranch_scc0 fwd" in texts and "s_call_b64 s[2:3], back" in texts


def _objdump_bytes(o: Path) -> bytes:
    p = subprocess.run(["llvm-objdump-19", "-d", "--mcpu=gfx1100", str(o)],
                       capture_output=True, text=True, check=True)
    data = bytearray()
    for ln in p.stdout.splitlines():
        if "//" in ln and ":" in ln.split("//")[1]:
            words = ln.split("//")[1].split(":")[1].split()
            for w in words:
                data += int(w, 16).to_bytes(4, "little")
    return bytes(data)


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=0, max_size=24))
def test_decoder_never_raises(data):
    pos = 0
    while pos < len(data):
        d = decode_one(data, pos, CTX)
        assert d.size > 0
        pos += d.size


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 0xFFFFFFFF), st.sampled_from([0x80000000, 0xB0000000, 0xBE800000,
                                                    0xBF000000, 0xBF800000, 0xF4000000]),
       st.integers(0, 0xFFFFFFFF))
def test_decoder_never_raises_on_scalar_words(w, base, w2):
    mask = {0x80000000: 0xC0000000, 0xB0000000: 0xF0000000, 0xF4000000: 0xFC000000}.get(
        base, 0xFF800000)
    data = ((w & ~mask) | base).to_bytes(4, "little") + w2.to_bytes(4, "little")
    d = decode_one(data, 0, CTX)
    assert d.size in (4, 8)
