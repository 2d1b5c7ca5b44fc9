"""GFX10.1 (gfx1010) and GFX10.3 (gfx1030) scalar encodings against llvm-mc-19 live.

Oracle: llvm-mc-19 -mcpu=gfx1010 / -mcpu=gfx1030 (encode and -disassemble).
Covered: every scalar opcode of the generation's table (sample lines built
from the table's operand roles, assembled by both), random words of each
scalar format (decode text, then re-encoding llvm-mc's text), symbolic
s_waitcnt / s_sendmsg / hwreg / depctr values, GFX10 register numbering
(m0 = 124, null = 125), bad input and truncated data.
"""

from __future__ import annotations

import random

import pytest

from radcc.isa.assembler import assemble
from radcc.isa.disassembler import disassemble
from radcc.isa.formats import scalar_fields as F
from radcc.isa.table import get_table
from radcc.oracle import llvm_mc
from radcc.target import GfxLevel, get_target

CHIPS = ["gfx1010", "gfx1030"]
_SCALAR = ("SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "SMEM")


def _asm(line: str, chip: str) -> tuple[bytes | None, str | None]:
    res = assemble(line + "\n", get_target(chip))
    if res.diagnostics:
        return None, str(res.diagnostics[0])
    return bytes(res.text), None


def _dis(data: bytes, chip: str) -> str | None:
    out = list(disassemble(data, get_target(chip)))
    if len(out) != 1 or out[0][1].size != len(data):
        return None
    return out[0][1].text


def _sample(e, k: int) -> str:
    """A plausible line for table entry `e` (variant k)."""
    parts = []
    for o in e.operands:
        if o.kind in ("sgpr", "ssrc", "sreg"):
            n = o.dwords
            base = (2 * k + 4) if n <= 2 else 8
            parts.append(f"s{base}" if n == 1 else f"s[{base}:{base + n - 1}]")
        elif o.kind == "smem_offset":
            parts.append(["0x10", "s7", "-0x8"][k % 3] if not e.extra.get("offset_unsigned")
                         else ["0x10", "s7"][k % 2])
        elif o.kind == "hwreg":
            parts.append("hwreg(HW_REG_MODE, 0, 4)")
        elif o.kind == "sendmsg":
            parts.append("sendmsg(MSG_INTERRUPT)")
        elif o.kind == "waitcnt":
            parts.append("vmcnt(1) lgkmcnt(2)")
        elif o.kind == "depctr":
            parts.append("depctr_va_vdst(1)")
        elif o.kind == "version":
            parts.append("UC_VERSION_GFX10")
        elif o.kind == "literal":
            parts.append("0x12345678")
        elif o.kind == "imm" and o.name == "sdata":
            parts.append("5")
        else:
            parts.append(str(3 + k))
    if e.name.startswith("s_waitcnt_") and e.enc == "SOPK":
        parts[0] = "null"
    return f"{e.name} {', '.join(parts)}".rstrip()


@pytest.mark.parametrize("chip", CHIPS)
def test_every_scalar_opcode_matches_llvm_mc(chip):
    llvm_mc.require()
    table = get_table(get_target(chip).gfx_level)
    lines = [_sample(e, k) for e in table.entries if e.enc in _SCALAR for k in range(2)]
    assert len(lines) > 300
    ref = [r for r in llvm_mc.encode(lines, chip) if r.data is not None]
    for r in ref:
        data, err = _asm(r.line, chip)
        assert err is None, (r.line, err)
        assert data == r.data, (r.line, data.hex(), r.data.hex())
    texts = llvm_mc.decode([r.data for r in ref], chip)
    for r, t in zip(ref, texts, strict=True):
        assert _dis(r.data, chip) == t, r.line
    assert len(ref) >= 0.9 * len(lines), len(ref)


_PREFIX = [(0xC0000000, 0x80000000), (0xF0000000, 0xB0000000), (0xFF800000, 0xBE800000),
           (0xFF800000, 0xBF000000), (0xFF800000, 0xBF800000), (0xFC000000, 0xF4000000)]


@pytest.mark.parametrize("chip", CHIPS)
def test_random_scalar_words_decode_and_reencode_like_llvm_mc(chip):
    llvm_mc.require()
    rng = random.Random(chip)
    blobs = []
    for i in range(3000):
        mask, val = _PREFIX[i % len(_PREFIX)]
        w = (rng.getrandbits(32) & ~mask) | val
        if i % 6 < 4 and rng.random() < 0.25:
            w = w | 0xFF  # a literal source
        blobs.append(w.to_bytes(4, "little") + rng.getrandbits(32).to_bytes(4, "little"))
    short = llvm_mc.decode([b[:4] for b in blobs], chip)
    long_idx = [i for i, t in enumerate(short) if t is None]
    long = dict(zip(long_idx, llvm_mc.decode([blobs[i] for i in long_idx], chip), strict=True))
    texts = []
    for i, b in enumerate(blobs):
        ref, n = (short[i], 4) if short[i] is not None else (long[i], 8)
        if ref is None:
            continue
        assert _dis(b[:n], chip) == ref, (b[:n].hex(), ref)
        texts.append(ref)
    assert len(texts) > 900
    for r in llvm_mc.encode(texts, chip):
        if r.data is None:
            continue
        data, err = _asm(r.line, chip)
        assert err is None and data == r.data, (r.line, err, data, r.data)


@pytest.mark.parametrize("chip", CHIPS)
def test_symbolic_immediates_match_llvm_mc(chip):
    llvm_mc.require()
    lines = [
        "s_waitcnt vmcnt(0)", "s_waitcnt vmcnt(63) expcnt(0)", "s_waitcnt lgkmcnt(5) & vmcnt(17)",
        "s_waitcnt expcnt(2), lgkmcnt(62)", "s_waitcnt vmcnt_sat(100)", "s_waitcnt 0x1234",
        "s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 1)", "s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)",
        "s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_CUT, 3)", "s_sendmsg sendmsg(2, 2, 0)",
        "s_sendmsg sendmsg(MSG_SYSMSG, SYSMSG_OP_REG_RD)", "s_sendmsghalt sendmsg(MSG_INTERRUPT)",
        "s_sendmsg sendmsg(MSG_GET_DOORBELL)", "s_sendmsg 0x400",
        "s_getreg_b32 s1, hwreg(HW_REG_XNACK_MASK)" if chip == "gfx1010" else
        "s_getreg_b32 s1, hwreg(HW_REG_SHADER_CYCLES)",
        "s_setreg_b32 hwreg(HW_REG_MODE, 4, 3), s2", "s_setreg_imm32_b32 hwreg(HW_REG_TBA_LO), 7",
        "s_waitcnt_depctr depctr_va_vdst(0)", "s_waitcnt_depctr depctr_vm_vsrc(1) depctr_sa_sdst(0)",
        "s_waitcnt_depctr 0xff83", "s_waitcnt_vscnt null, 0x3f", "s_waitcnt_lgkmcnt s1, 2",
        "s_version UC_VERSION_GFX10|UC_VERSION_W32_BIT", "s_inst_prefetch 0x3", "s_clause 0x7",
        "s_round_mode 0x3", "s_denorm_mode 0xf", "s_code_end", "s_ttracedata_imm 0x5",
    ]
    ref = llvm_mc.encode(lines, chip)
    for r in ref:
        assert r.data is not None, (r.line, r.error)
        data, err = _asm(r.line, chip)
        assert err is None and data == r.data, (r.line, err, data, r.data)
    for r, t in zip(ref, llvm_mc.decode([r.data for r in ref], chip), strict=True):
        assert _dis(r.data, chip) == t, r.line


@pytest.mark.parametrize("chip", CHIPS)
def test_gfx10_register_numbering(chip):
    """GFX10: m0 = 124, null = 125 (GFX11 swapped them) — bytes from llvm-mc."""
    llvm_mc.require()
    lines = ["s_mov_b32 s0, m0", "s_mov_b32 m0, null", "s_mov_b64 s[0:1], null",
             "s_load_dword s0, s[2:3], m0", "s_load_dword null, s[2:3], 0x10",
             "s_load_dword s1, s[2:3], 0x10 glc dlc", "s_mov_b32 s0, src_vccz",
             "s_mov_b64 s[0:1], src_pops_exiting_wave_id", "s_memtime s[4:5]", "s_gl1_inv"]
    ref = llvm_mc.encode(lines, chip)
    assert ref[0].data == bytes([0x7C, 0x03, 0x80, 0xBE])
    for r in ref:
        data, err = _asm(r.line, chip)
        assert err is None and data == r.data, (r.line, err, data, r.data)
    d = next(iter(disassemble(ref[0].data, get_target(chip))))[1]
    assert d.fields["ssrc0"] == 125  # logical (GFX11-numbered) code of m0


def test_gfx10_1_only_smem_ops():
    """Scalar stores, atomics and s_dcache_wb exist on GFX10.1, not on GFX10.3 (llvm-mc)."""
    llvm_mc.require()
    lines = ["s_store_dword s1, s[2:3], 0x10 glc", "s_atomic_add s1, s[2:3], s4 glc",
             "s_buffer_atomic_cmpswap_x2 s[4:7], s[8:11], 0x8", "s_dcache_wb",
             "s_dcache_discard s[2:3], s4 offset:0x10", "s_get_waveid_in_workgroup s0"]
    for chip, ok in (("gfx1010", True), ("gfx1030", False)):
        for r in llvm_mc.encode(lines, chip):
            data, err = _asm(r.line, chip)
            assert (r.data is not None) == ok, (chip, r.line)
            if ok:
                assert data == r.data, (r.line, err)
            else:
                assert err is not None and "error:" in err, (chip, r.line)
    t = get_table(GfxLevel.GFX10)
    st = t.lookup("s_store_dword")
    assert not st.operand("sdata").is_def and st.cls == "smem"
    assert t.lookup("s_atomic_add").extra.get("atomic") is True


@pytest.mark.parametrize("chip", CHIPS)
def test_bad_input_gives_positioned_errors(chip):
    bad = ["s_mov_b32 s0", "s_mov_b32 s0, v1", "s_waitcnt vmcnt(64)", "s_waitcnt depctr_sa_sdst(0)",
           "s_sendmsg sendmsg(MSG_GS)", "s_sendmsg sendmsg(MSG_RTN_GET_TMA)", "s_delay_alu 0",
           "s_load_dword s0, s[2:3], 0x10 slc", "s_buffer_load_dword s0, s[4:7], -1",
           "s_mov_b32 s0, src_lds_direct", "s_getreg_b32 s0, hwreg(HW_REG_NOPE)"]
    ref = llvm_mc.encode(bad, chip)
    for line, r in zip(bad, ref, strict=True):
        assert r.error is not None, line
        data, err = _asm(line, chip)
        assert data is None and err is not None and err.startswith("<stdin>:1:"), (line, err)


@pytest.mark.parametrize("chip", CHIPS)
def test_truncated_and_garbage_data_never_raise(chip):
    t = get_target(chip)
    rng = random.Random(7)
    for _ in range(300):
        n = rng.choice((1, 2, 3, 4, 5, 7, 8, 12))
        data = bytes(rng.getrandbits(8) for _ in range(n))
        list(disassemble(data, t))  # must not raise
    # an SMEM first dword without its second dword does not decode as SMEM
    out = list(disassemble(bytes([0x01, 0x00, 0x00, 0xF4]), t))
    assert all(d.info is None or d.info.enc != "SMEM" for _o, d in out)


def test_waitcnt_layout_api():
    """insert_waitcnt-style use of the generation-aware layout (RDNA1 guide bit positions)."""
    g10 = F.waitcnt_layout(GfxLevel.GFX10)
    assert g10.default == 0xFF7F and g10.max("vmcnt") == 63
    v = g10.put(g10.default, "vmcnt", 0x25)  # low 4 bits at [3:0], high 2 at [15:14]
    assert v & 0xF == 0x5 and (v >> 14) & 3 == 0x2 and g10.get(v, "vmcnt") == 0x25
    assert F.waitcnt_text(v, GfxLevel.GFX10) == "vmcnt(37)"
    g11 = F.waitcnt_layout(GfxLevel.GFX11)
    assert g11.put(F.WAITCNT_DEFAULT, "vmcnt", 0) == F.WAITCNT_DEFAULT & ~(0x3F << 10)
    assert "depctr_hold_cnt" not in F.depctr_fields(GfxLevel.GFX10)
    assert "depctr_hold_cnt" in F.depctr_fields(GfxLevel.GFX10_3)
