"""GFX11 16-bit operands of the short VALU forms (VOP1/VOP2/VOPC and their DPP
forms) vs llvm-mc-19, the ISA guide and NumPy.

ISA guide ("16-bit VGPR naming"): in VOP1/VOP2/VOPC a 16-bit VGPR operand is
SRC/DST[6:0] = VGPR, SRC/DST[7] = high half, so llvm-mc-19 (fake16 syntax)
takes only v0-v127 there, picks the VOP3 form for v128+ and rejects an
explicit ``_e32``/``_dpp``; its disassembler rejects such a VDST and annotates
such a source ``/*Invalid register ...*/``. Expectations: llvm-mc live
(assembly, disassembly), the ISA guide's half semantics computed by hand
(emulator), NumPy (a compiled program using v128+ 16-bit values).
"""

from __future__ import annotations

import io
import random
import re

import numpy as np
import pytest

from radcc.driver.llc import kernel_args
from radcc.emu.decode import Inst
from radcc.emu.state import Wave, Workgroup
from radcc.emu.vop import bind_valu
from radcc.isa.assembler import assemble
from radcc.isa.disassembler import decode_one
from radcc.isa.formats.base import Context
from radcc.isa.table import get_table
from radcc.oracle import llvm_mc
from radcc.target import get_target

TARGET = get_target("gfx1100")
TABLE = get_table(TARGET.gfx_level)
SLOTS = ("vdst", "src0", "vsrc1")


def _ctx(wave: int = 32) -> Context:
    return Context(TARGET, TABLE, wave)


def _entries() -> list:
    return [e for e in TABLE.entries if e.enc in ("VOP1", "VOP2", "VOPC")]


def _asm(line: str, wave: int = 32) -> tuple[str | None, bytes | None, str | None, int]:
    res = assemble(line, TARGET, wave_size=wave)
    insts = [s for s in res.statements if s.kind == "inst"]
    if not res.ok or not insts:
        d = res.diagnostics[0] if res.diagnostics else None
        return None, None, d.message if d else "?", d.col if d else 0
    return insts[0].text, insts[0].data, None, 0


def _reg(n: int, bits: int, t16: bool) -> str:
    if t16:
        return f"v{n & 0x7F}.{'h' if n >= 128 else 'l'}"
    if bits == 64:
        n &= ~1
        return f"v[{n}:{n + 1}]"
    return f"v{n}"


def _line(e, slot: str, reg: int, suffix: str, ctl: str) -> str | None:
    """`e`'s mnemonic + suffix with v`reg` in `slot`, v1/v2 (or s-free VGPRs) elsewhere."""
    t16 = bool(e.extra.get("t16"))
    parts = []
    found = False
    for o in e.operands:
        if o.kind == "special":
            parts.append("vcc_lo")
        elif o.name == "k":
            parts.append("0x1234")
        elif o.kind == "sgpr":
            parts.append("s3")
        elif o.name == slot:
            found = True
            parts.append(_reg(reg, o.bits, t16))
        else:
            parts.append(_reg(2 if o.is_def else 4, o.bits, t16))
    if not found:
        return None
    return f"{e.name}{suffix} " + ", ".join(parts) + ctl


def test_table_lists_the_restricted_slots():
    """The probe found llvm-mc's ~94 fake16 short forms (every lo128 slot is a real
    VGPR slot of its entry)."""
    lo = [e for e in _entries() if e.extra.get("lo128")]
    assert 90 <= len(lo) <= 100
    for e in lo:
        names = {o.name for o in e.operands}
        assert set(e.extra["lo128"]) <= names & set(SLOTS), e.name


def test_assembly_sweep_v127_v128_v255_matches_llvm():
    llvm_mc.require()
    lines = []
    for e in _entries():
        if not e.operands:
            continue
        variants = [("", ""), ("_e32", "")]
        if "dpp" in e.modifiers:
            variants += [("_dpp", " row_shl:1"), ("", " quad_perm:[1,0,3,2]")]
        if "dpp8" in e.modifiers:
            variants.append(("", " dpp8:[7,6,5,4,3,2,1,0]"))
        for slot in SLOTS:
            for reg in (127, 128, 255):
                for suffix, ctl in variants:
                    ln = _line(e, slot, reg, suffix, ctl)
                    if ln is not None:
                        lines.append(ln)
    ref = llvm_mc.encode(lines)
    bad = []
    n_e64 = 0
    for line, r in zip(lines, ref, strict=True):
        text, data, err, col = _asm(line)
        if r.data is None:
            if err is None:
                bad.append(f"{line}: llvm error {r.error!r}, radcc {text}")
            elif "not valid for this GPU" in (r.error or "") and "not valid" not in err:
                bad.append(f"{line}: llvm {r.error!r}, radcc {err!r}")
            continue
        n_e64 += "_e64" in (r.text or "") and "_e64" not in line
        if (text, data) != (r.text, r.data):
            bad.append(f"{line}: llvm {r.text} {r.data.hex()} radcc {text} "
                       f"{data.hex() if data else err}")
    assert not bad, f"{len(bad)} disagreements\n" + "\n".join(bad[:30])
    assert len(lines) > 5000
    assert n_e64 > 300  # the bare mnemonics that llvm-mc moved to VOP3


@pytest.mark.parametrize("line,col", [
    ("v_add_f16_e32 v137, v1, v2", 1),
    ("v_add_f16_dpp v1, v137, v2 row_shl:1", 1),
    ("v_cmp_eq_f16_e32 vcc_lo, v1, v200", 1),
    ("v_fmamk_f16 v1, v128, 0x1234, v2", 1),
])
def test_explicit_short_form_with_v128_is_an_error_like_llvm(line, col):
    llvm_mc.require()
    r = llvm_mc.encode([line])[0]
    assert r.data is None and r.error == "operands are not valid for this GPU or mode"
    res = assemble(f"{line}\n", TARGET, filename="t.s")
    assert not res.ok
    d = res.diagnostics[0]
    assert (d.message, d.col) == (r.error, col)
    assert str(d).startswith(f"t.s:1:{col}: error: ")


def _words(e, slot: str, reg: int) -> list[bytes]:
    """`e`'s first dword with VGPR `reg` in `slot` (v1/v2 elsewhere), plus its DPP16
    and DPP8 forms when it has them."""
    op = e.opcode
    vdst, src0, vsrc1 = 1, 256 + 2, 3
    if slot == "vdst":
        vdst = reg
    elif slot == "src0":
        src0 = 256 + reg
    else:
        vsrc1 = reg
    if e.enc == "VOP1":
        w = 0x3F << 25 | vdst << 17 | op << 9
    elif e.enc == "VOP2":
        w = op << 25 | vdst << 17 | vsrc1 << 9
    else:
        w = 0x3E << 25 | op << 17 | vsrc1 << 9
    lit = (0x3C00).to_bytes(4, "little") if e.extra.get("k_literal") else b""
    out = [(w | src0).to_bytes(4, "little") + lit]
    v = src0 - 256
    if "dpp" in e.modifiers:
        out.append((w | 0xFA).to_bytes(4, "little") + (0xFF000000 | 0x101 << 8 | v).to_bytes(4, "little"))
    if "dpp8" in e.modifiers:
        out.append((w | 0xE9).to_bytes(4, "little") + (0x00FAC688 << 8 | v).to_bytes(4, "little"))
    return out


@pytest.mark.parametrize("wave", [32, 64])
def test_decode_sweep_v127_v128_v255_matches_llvm(wave):
    """Every VOP1/VOP2/VOPC opcode, each VGPR field at 127/128/255, plain, DPP16
    and DPP8: radcc prints exactly llvm-mc's text (with its Invalid-register notes)
    and rejects exactly the words llvm-mc rejects."""
    llvm_mc.require()
    blobs = []
    for e in _entries():
        for slot in SLOTS:
            if not any(o.name == slot and o.kind in ("vgpr", "vsrc") for o in e.operands):
                continue
            for reg in (127, 128, 255):
                blobs += _words(e, slot, reg)
    ref = llvm_mc.decode(blobs, wave64=wave == 64, keep_invalid=True)
    ctx = _ctx(wave)
    bad = []
    notes = 0
    for blob, r in zip(blobs, ref, strict=True):
        d = decode_one(blob, 0, ctx)
        mine = d.text if d.info is not None and d.size == len(blob) else None
        notes += r is not None and "Invalid register" in r
        if mine != r:
            bad.append(f"{blob.hex()}: llvm {r} radcc {mine}")
    assert not bad, f"{len(bad)} of {len(blobs)} disagree\n" + "\n".join(bad[:30])
    assert notes > 200


def _lo128_random_blobs(n: int, seed: int) -> list[bytes]:
    """Random VOP1/VOP2/VOPC words of the lo128 opcodes, fields biased to v128+."""
    rng = random.Random(seed)
    lo = [e for e in _entries() if e.extra.get("lo128")]
    out = []
    for _ in range(n):
        e = rng.choice(lo)
        vdst, vsrc1 = rng.getrandbits(8), rng.getrandbits(8)
        src0 = rng.choice((256 + rng.getrandbits(8), rng.getrandbits(9), 0xFA, 0xE9, 0xEA, 0xFF))
        op = e.opcode
        if e.enc == "VOP1":
            w = 0x3F << 25 | vdst << 17 | op << 9 | src0
        elif e.enc == "VOP2":
            w = op << 25 | vdst << 17 | vsrc1 << 9 | src0
        else:
            w = 0x3E << 25 | op << 17 | vsrc1 << 9 | src0
        out.append(w.to_bytes(4, "little") + rng.getrandbits(32).to_bytes(4, "little"))
    return out


def test_random_lo128_words_match_llvm():
    llvm_mc.require()
    blobs = _lo128_random_blobs(3000, 11)
    ref = llvm_mc.decode(blobs, keep_invalid=True)
    ctx = _ctx()
    bad = []
    for blob, r in zip(blobs, ref, strict=True):
        d = decode_one(blob, 0, ctx)
        mine = d.text if d.info is not None and d.size == len(blob) else None
        if r is None and mine is not None and d.size < len(blob):
            continue  # a 4-byte instruction: llvm-mc decodes the tail dword on its own
        if mine != r:
            bad.append(f"{blob.hex()}: llvm {r} radcc {mine}")
    assert not bad, f"{len(bad)} disagree\n" + "\n".join(bad[:30])


# --- the emulator reads/writes the halves the ISA names ----------------------------------------
def _run_words(data: bytes, setup: dict[int, int], wave: int = 32) -> Wave:
    d = decode_one(data, 0, _ctx(wave))
    assert d.info is not None and d.fields is not None
    i = Inst(0, d.size, d.text, d.info, dict(d.fields), ())
    if "dpp_ctrl" in i.f:
        i.f["dpp"] = 16
    w = Wave(wave, Workgroup((0, 0, 0), 0, 1), 0, 0)
    for reg, val in setup.items():
        w.v[reg] = val
    w.exec = (1 << wave) - 1
    bind_valu(i)(w, i)
    return w


F16_1, F16_2, F16_3, F16_4, F16_8 = 0x3C00, 0x4000, 0x4200, 0x4400, 0x4800


def test_emulator_reads_the_high_half_for_field_bit7():
    """v_add_f16_e32 v1, <field 137>, <field 130>: ISA: S0 = v9.h, S1 = v2.h."""
    word = (50 << 25 | 1 << 17 | 130 << 9 | (256 + 137)).to_bytes(4, "little")
    setup = {9: F16_2 << 16 | F16_1, 137: F16_8, 2: F16_4 << 16 | F16_1, 130: F16_8,
             1: 0xAAAA0000}
    w = _run_words(word, setup)
    # 2.0 + 4.0 = 6.0 (0x4600); the destination's high half is kept (ISA 16-bit writes)
    assert int(w.v[1][0]) == 0xAAAA4600
    assert int(w.v[129][0]) == 0


def test_emulator_dpp_source_high_half():
    """v_add_f16_dpp v1, <dpp v137>, v2 quad_perm:[0,0,0,0]: lane 0's v9.h for all."""
    word = (50 << 25 | 1 << 17 | 2 << 9 | 0xFA).to_bytes(4, "little")
    dpp = (0xFF000000 | 0 << 8 | 137).to_bytes(4, "little")
    setup = {9: F16_3 << 16 | F16_1, 2: F16_1, 137: 0}
    w = _run_words(word + dpp, setup)
    assert int(w.v[1][5]) & 0xFFFF == F16_4  # 3.0 + 1.0


def test_emulator_true16_mov_halves():
    """v_mov_b16 v1.h, v9.h (the t16 entry): only v1's high half changes."""
    r = assemble("v_mov_b16 v1.h, v9.h\n", TARGET)
    assert r.ok
    w = _run_words(r.text, {9: 0x12345678, 1: 0xAAAABBBB})
    assert int(w.v[1][0]) == 0x1234BBBB
    assert int(w.v[129][0]) == 0


# --- a compiled program with 16-bit values in v128+ ----------------------------------------------
def _k(i: int) -> int:
    return (0x9E3779B1 * (i + 1)) & 0xFFFFFFFF | 1


def _program(wave: int, n: int) -> str:
    """n values c_i = (x * k_i & 0x0fff0fff) | 0x40004000 (low half: an f16 in [2, 32))
    all live, then per i: f16 add of c_i and c_(i+1), its f32 bits, ~c_i as u16,
    c_i > c_(i+2) as u16, folded acc = 2 * acc + term."""
    lm = "s1" if wave == 32 else "s2"
    lines = [f"program gfx1100 wave{wave} compute name:lo128",
             "BB0\n/* logical preds: / linear preds: / kind: top-level, */"]

    def e(s: str) -> None:
        lines.append("   " + s)

    e("s2: %1:s[0-1], s1: %2:s[2], v1: %3:v[0] = p_startpgm")
    e("p_logical_start")
    e("s4: %4 = s_load_b128 %1, 0")
    e("s1: %7, s1: %8:scc = s_lshl_b32 %2, 6")
    e("v1: %9 = v_add_nc_u32 %7, %3")
    e("v1: %5 = v_lshlrev_b32 2, %9")
    e("s2: %40, s2: %41 = p_split_vector %4")
    e("v1: %10 = global_load_b32 %5, %41")
    nxt = iter(range(1000, 100000))

    def t() -> str:
        return f"%{next(nxt)}"

    c = []
    for i in range(n):
        a, b, cc = t(), t(), t()
        e(f"v1: {a} = v_mul_lo_u32 0x{_k(i):x}, %10")
        e(f"v1: {b} = v_and_b32 0x0fff0fff, {a}")
        e(f"v1: {cc} = v_or_b32 0x40004000, {b}")
        c.append(cc)
    acc: str | None = None
    for i in range(n):
        s, f, w, z, m, sel = t(), t(), t(), t(), t(), t()
        e(f"v1: {s} = v_add_f16 {c[i]}, {c[(i + 1) % n]}")
        e(f"v1: {f} = v_cvt_f32_f16 {s}")
        e(f"v1: {w} = v_not_b16 {c[i]}")
        e(f"v1: {z} = v_cvt_u32_u16 {w}")
        e(f"{lm}: {m}:vcc = v_cmp_gt_u16 {c[i]}, {c[(i + 2) % n]}")
        e(f"v1: {sel} = v_cndmask_b32_e64 0, 1, {m}")
        for x in (f, z, sel):
            if acc is None:
                acc = x
                continue
            sh, ad = t(), t()
            e(f"v1: {sh} = v_lshlrev_b32 1, {acc}")
            e(f"v1: {ad} = v_add_nc_u32 {sh}, {x}")
            acc = ad
    e(f"global_store_b32 %5, {acc}, %40")
    e("p_logical_end")
    e("s_endpgm")
    return "\n".join(lines) + "\n"


def _expect(x: np.ndarray, n: int) -> np.ndarray:
    m32 = np.uint64(0xFFFFFFFF)
    lo = [(((x.astype(np.uint64) * np.uint64(_k(i)) & m32) & np.uint64(0x0FFF)) | np.uint64(0x4000))
          .astype(np.uint16) for i in range(n)]
    acc: np.ndarray | None = None
    for i in range(n):
        s = (lo[i].view(np.float16) + lo[(i + 1) % n].view(np.float16)).astype(np.float16)
        terms = (s.astype(np.float32).view(np.uint32).astype(np.uint64),
                 (~lo[i]).astype(np.uint64),
                 (lo[i] > lo[(i + 2) % n]).astype(np.uint64))
        for v in terms:
            acc = v if acc is None else (acc * np.uint64(2) + v) & m32
    assert acc is not None
    return acc.astype(np.uint32)


_HIGH = re.compile(r"\bv(12[89]|1[3-9]\d|2[0-5]\d)\b")
_OPS16 = ("v_add_f16", "v_cvt_f32_f16", "v_not_b16", "v_cvt_u32_u16", "v_cmp_gt_u16")


@pytest.mark.parametrize("wave", [32, 64])
def test_compiled_program_with_16bit_values_in_v128_up(wave):
    from radcc.emu.api import load
    from radcc.ir.parser import parse_program
    from radcc.passes.emit_program import emit_code_object, emit_program
    from radcc.passes.manager import run_pipeline
    from radcc.passes.options import DebugOptions

    llvm_mc.require()
    n = 180
    p = parse_program(_program(wave, n))
    run_pipeline(p, DebugOptions.parse("validateir,validatera"), stream=io.StringIO())
    r = emit_program(p)
    ops = [ln.strip() for ln in r.asm.splitlines() if ln.strip().startswith(_OPS16)]
    high = [ln for ln in ops if _HIGH.search(ln)]
    assert len(high) > 50, "the register allocator put no 16-bit operand in v128+"
    assert all("_e64" in ln for ln in high), [ln for ln in high if "_e64" not in ln][:5]
    # the emitted lines assemble to llvm-mc's bytes (wave64: vcc for the compares)
    ref = llvm_mc.encode(high, wave64=wave == 64)
    for ln, rr in zip(high, ref, strict=True):
        text, data, err, _ = _asm(ln, wave)
        assert rr.data is not None and (text, data) == (rr.text, rr.data), (ln, rr, err)
    args = kernel_args(["out:buffer", "in:buffer"])
    block = 64
    x = np.random.default_rng(wave).integers(0, 1 << 32, 2 * block, dtype=np.uint32)
    res = load(emit_code_object(p, r, args)).run(
        p.name, groups=2, block=block, args={"out": np.zeros(len(x), np.uint32), "in": x},
        wave_size=wave, strict=True)
    assert not res.violations, res.violations[:3]
    np.testing.assert_array_equal(res.buffers["out"], _expect(x, n))
