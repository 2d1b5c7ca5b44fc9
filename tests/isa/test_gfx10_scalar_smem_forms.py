"""SMEM lines without the trailing offset operand, against llvm-mc-19 live.

Oracle: llvm-mc-19 -mcpu=gfx1010 / gfx1030 / gfx1100. llvm-mc reads an
omitted soffset/offset operand of an SMEM instruction as offset 0 and prints
it as ``0x0`` (LLVM's gfx10_asm_smem.s ends with two such lines); radcc must
give the same bytes and text, and reject what llvm-mc rejects (an ``offset:``
modifier with no SGPR offset, a missing base).
"""

from __future__ import annotations

import pytest

from radcc.isa.assembler import assemble
from radcc.isa.table import get_table
from radcc.oracle import llvm_mc
from radcc.target import get_target

CHIPS = ["gfx1010", "gfx1030", "gfx1100"]


def _radcc(line: str, chip: str) -> tuple[str | None, bytes | None]:
    res = assemble(line + "\n", get_target(chip))
    if any(d.severity == "error" for d in res.diagnostics):
        return None, None
    insts = [s for s in res.statements if s.kind == "inst"]
    assert len(insts) == 1
    return insts[0].text.strip(), bytes(insts[0].data)


def _lines(chip: str) -> list[str]:
    """Every SMEM opcode with an offset operand, written without it."""
    out = []
    for e in get_table(get_target(chip).gfx_level).entries:
        if e.enc != "SMEM" or not e.operands or e.operands[-1].name != "soffset":
            continue
        parts = []
        for o in e.operands[:-1]:
            if o.kind == "imm":
                parts.append("7")
            elif o.name == "sbase":
                parts.append("s[4:5]" if o.dwords == 2 else "s[8:11]")
            else:
                parts.append("s5" if o.dwords == 1 else f"s[12:{12 + o.dwords - 1}]")
        mods = [m for m in ("glc", "dlc") if e.has_mod(m)]
        out.append(f"{e.name} {', '.join(parts)}")
        if mods:
            out.append(f"{e.name} {', '.join(parts)} {' '.join(mods)}")
    return out


@pytest.mark.parametrize("chip", CHIPS)
def test_omitted_smem_offset_matches_llvm_mc(chip):
    lines = _lines(chip)
    assert len(lines) > 20
    oracle = llvm_mc.encode(lines, mcpu=chip)
    accepted = 0
    for line, o in zip(lines, oracle, strict=True):
        text, data = _radcc(line, chip)
        assert (text, data) == (o.text, o.data), (line, o)
        accepted += o.text is not None
    assert accepted == len(lines)  # llvm-mc takes every one of them


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("line", [
    "s_load_dword s1, s[2:3] offset:4",  # offset: needs an SGPR offset operand
    "s_load_dword s1",
    "s_load_dword s1 glc",
    "s_buffer_load_dword s1, s[4:7] offset:0x10 glc",
])
def test_bad_omitted_forms_rejected_like_llvm_mc(chip, line):
    (o,) = llvm_mc.encode([line], mcpu=chip)
    assert o.text is None
    res = assemble(line + "\n", get_target(chip), "t.s")
    errs = [d for d in res.diagnostics if d.severity == "error"]
    assert errs and str(errs[0]).startswith("t.s:1:")


def _decode_one(data: bytes, chip: str) -> str | None:
    from radcc.isa.disassembler import disassemble, is_invalid

    ds = list(disassemble(data, get_target(chip)))
    return ds[0][1].text.strip() if len(ds) == 1 and not is_invalid(ds[0][1]) else None


@pytest.mark.parametrize("chip", CHIPS)
def test_smem_register_fields_decode_like_llvm_mc(chip):
    """Every SMEM opcode with every SDATA (0..127) and SBASE (0..63) field value:
    llvm-mc-19 rejects m0/exec as data, vcc_hi as a 64-bit pair's start, an m0
    base (GFX10: field 62, which is also what it assembles null to) and exec as
    a buffer resource."""
    nul = 0xFA000000 if chip != "gfx1100" else 0xF8000000
    blobs = []
    for e in get_table(get_target(chip).gfx_level).entries:
        if e.enc != "SMEM":
            continue
        for code in range(128):
            lo = 0xF4000000 | e.opcode << 18 | code << 6 | 2
            blobs.append(lo.to_bytes(4, "little") + nul.to_bytes(4, "little"))
        for sb in range(64):
            lo = 0xF4000000 | e.opcode << 18 | 8 << 6 | sb
            blobs.append(lo.to_bytes(4, "little") + nul.to_bytes(4, "little"))
    oracle = llvm_mc.decode(blobs, mcpu=chip)
    assert sum(o is None for o in oracle) > 100
    for data, o in zip(blobs, oracle, strict=True):
        assert _decode_one(data, chip) == (o.strip() if o else None), data.hex()


@pytest.mark.parametrize("chip", CHIPS)
def test_sop_64bit_special_registers_decode_like_llvm_mc(chip):
    """s_mov_b64 with every SSRC0 and SDST value: GFX10's decoder rejects vcc_hi, m0
    and exec_hi as 64-bit operands, GFX11's reads the aligned pair below."""
    lit = (0x12345678).to_bytes(4, "little")
    blobs = [(0xBE800400 | c).to_bytes(4, "little") + (lit if c == 255 else b"")
             for c in range(256)]
    blobs += [(0xBE800402 | c << 16).to_bytes(4, "little") for c in range(128)]
    for data, o in zip(blobs, llvm_mc.decode(blobs, mcpu=chip), strict=True):
        assert _decode_one(data, chip) == (o.strip() if o else None), data.hex()


@pytest.mark.parametrize("chip", CHIPS)
def test_smem_register_operands_assemble_like_llvm_mc(chip):
    g11 = chip == "gfx1100"
    ld, ld2, ld4 = (("s_load_b32", "s_load_b64", "s_load_b128") if g11 else
                    ("s_load_dword", "s_load_dwordx2", "s_load_dwordx4"))
    bl = "s_buffer_load_b32" if g11 else "s_buffer_load_dword"
    lines = [f"{ld} {d}, s[2:3], 0x0" for d in
             ("m0", "exec_lo", "exec_hi", "vcc_hi", "null", "vcc_lo", "ttmp1", "s101")]
    lines += [f"{ld2} {d}, s[2:3], 0x0" for d in ("exec", "vcc", "null", "ttmp[2:3]", "s[1:2]")]
    lines += [f"{ld4} {d}, s[2:3], 0x0" for d in ("null", "exec", "ttmp[4:7]", "s[1:4]")]
    lines += [f"{ld} s1, {b}, 0x0" for b in ("null", "exec", "vcc", "ttmp[2:3]", "s[1:2]", "m0")]
    lines += [f"{bl} s1, {b}, 0x0" for b in ("null", "exec", "s[0:3]", "ttmp[4:7]", "vcc")]
    lines += [f"{m} {d}" for m in ("s_memtime", "s_memrealtime") for d in ("exec", "vcc", "null")]
    lines += [f"{ld} s1, s[2:3], {o}" for o in ("m0", "exec_lo", "exec_hi", "vcc_hi", "null")]
    lines += [f"s_mov_b64 s[0:1], {s}" for s in ("vcc_hi", "m0", "exec_hi", "null", "s1")]
    oracle = llvm_mc.encode(lines, mcpu=chip)
    assert sum(o.text is None for o in oracle) > 10
    for line, o in zip(lines, oracle, strict=True):
        assert _radcc(line, chip) == (o.text, o.data), (line, o)


_SOP_CODES = [0, 1, 2, 3, 5, 101, 102, 103, *range(104, 256)]


@pytest.mark.parametrize("chip", CHIPS)
def test_sop_register_fields_decode_like_llvm_mc(chip):
    """Every SOP1/SOP2/SOPC/SOPK opcode with each special SSRC/SDST value:
    register-only sources (s_setpc_b64, s_movrels_*, s_rfe_b64) take no constant,
    64-bit operands never start at vcc_hi, m0 or exec_hi."""
    lit = (0x12345678).to_bytes(4, "little")
    blobs = []
    for e in get_table(get_target(chip).gfx_level).entries:
        if e.enc == "SOP1":
            base = 0xBE800000 | e.opcode << 8
            blobs += [(base | 4 << 16 | c).to_bytes(4, "little") + (lit if c == 255 else b"")
                      for c in _SOP_CODES]
            blobs += [(base | c << 16 | 4).to_bytes(4, "little") for c in _SOP_CODES if c < 128]
        elif e.enc == "SOP2":
            base = 0x80000000 | e.opcode << 23
            for c in _SOP_CODES:
                tail = lit if c == 255 else b""
                blobs.append((base | 4 << 16 | 6 << 8 | c).to_bytes(4, "little") + tail)
                blobs.append((base | 4 << 16 | c << 8 | 6).to_bytes(4, "little") + tail)
                if c < 128:
                    blobs.append((base | c << 16 | 6 << 8 | 4).to_bytes(4, "little"))
        elif e.enc == "SOPC":
            base = 0xBF000000 | e.opcode << 16
            for c in _SOP_CODES:
                tail = lit if c == 255 else b""
                blobs.append((base | 6 << 8 | c).to_bytes(4, "little") + tail)
                blobs.append((base | c << 8 | 6).to_bytes(4, "little") + tail)
        elif e.enc == "SOPK":
            tail = lit if e.name == "s_setreg_imm32_b32" else b""
            blobs += [(0xB0001234 | e.opcode << 23 | c << 16).to_bytes(4, "little") + tail
                      for c in _SOP_CODES if c < 128]
    oracle = llvm_mc.decode(blobs, mcpu=chip)
    assert sum(o is None for o in oracle) > 300
    bad = [(d.hex(), o, _decode_one(d, chip)) for d, o in zip(blobs, oracle, strict=True)
           if _decode_one(d, chip) != (o.strip() if o else None)]
    assert not bad, bad[:5]


@pytest.mark.parametrize("chip", CHIPS)
def test_sop_sources_assemble_like_llvm_mc(chip):
    """Each source of each SOP1/SOP2/SOPC opcode given special registers, constants and
    misaligned pairs. (Destinations are left out on purpose: llvm-mc-19 takes src_scc,
    src_vccz and the 64-bit apertures as SDST and keeps the low 7 bits of their code,
    which read back as other registers; radcc rejects them.)"""
    tab = get_table(get_target(chip).gfx_level)
    vals = ["vcc_hi", "m0", "exec_hi", "null", "src_shared_base", "src_vccz", "src_scc", "0",
            "1.5", "0x1234", "ttmp1", "s1", "vcc", "exec", "s[2:3]", "ttmp[2:3]", "s[1:2]"]
    lines = []
    for e in tab.entries:
        if e.enc not in ("SOP1", "SOP2", "SOPC"):
            continue
        for i, o in enumerate(e.operands):
            if o.is_def:
                continue
            for v in vals:
                parts = ["s[4:5]" if o2.dwords == 2 else "s4" for o2 in e.operands]
                parts[i] = v
                lines.append(f"{e.name} {', '.join(parts)}")
    oracle = llvm_mc.encode(lines, mcpu=chip)
    assert sum(o.text is None for o in oracle) > 100
    for line, o in zip(lines, oracle, strict=True):
        assert _radcc(line, chip) == (o.text, o.data), (line, o)


@pytest.mark.parametrize("chip", CHIPS)
def test_smem_random_fields_decode_like_llvm_mc(chip):
    """Every SMEM opcode with random other fields (masks that isolate the data, base,
    cache-policy and offset fields): GFX11's decoder rejects glc/dlc on an
    instruction without them (s_gl1_inv, s_dcache_inv, s_atc_probe*), GFX10's
    ignores them."""
    import random

    rng = random.Random(3)
    blobs = []
    for e in get_table(get_target(chip).gfx_level).entries:
        if e.enc != "SMEM":
            continue
        for _ in range(30):
            lo = 0xF4000000 | e.opcode << 18 | rng.getrandbits(18) & rng.choice(
                [0, 0x3F, 0x1FC0, 0x3FFFF, 1 << 12, 1 << 13, 1 << 14, 1 << 15, 1 << 16, 1 << 17])
            hi = rng.getrandbits(32) & rng.choice([0, 0xFFFFFFFF, 0x1FFFFF, 0xFE000000])
            blobs.append(lo.to_bytes(4, "little") + hi.to_bytes(4, "little"))
    oracle = llvm_mc.decode(blobs, mcpu=chip)
    bad = [(d.hex(), o, _decode_one(d, chip)) for d, o in zip(blobs, oracle, strict=True)
           if _decode_one(d, chip) != (o.strip() if o else None)]
    assert not bad, bad[:5]
