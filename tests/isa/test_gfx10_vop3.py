"""GFX10.1/GFX10.3 VOP3 / VOP3SD / VOP3P vs llvm-mc-19 -mcpu=gfx1010 and
-mcpu=gfx1030: per-opcode round trips of marker words (decode text and
re-assembly bytes) and random encoding-space coverage."""

from __future__ import annotations

import random

import pytest

from radcc.isa.assembler import Assembler
from radcc.isa.disassembler import decode_one
from radcc.isa.formats.base import Context
from radcc.isa.lexer import tokenize
from radcc.isa.syntax import parse_statement
from radcc.isa.table import get_table
from radcc.oracle import llvm_mc
from radcc.target import get_target

MCPUS = ["gfx1010", "gfx1030"]
VMARK = (257, 258, 259)
SMARK = (4, 8, 12)


def _entries(mcpu: str, encs: tuple[str, ...]) -> list:
    t = get_target(mcpu)
    return [e for e in get_table(t.gfx_level).entries if e.enc in encs]


def _radcc_bytes(text: str, mcpu: str, wave: int) -> bytes | str:
    asm = Assembler(get_target(mcpu), wave_size=wave)
    toks = tokenize(text)
    try:
        return asm.encode(parse_statement(toks[0], toks[1:])).data
    except Exception as e:  # noqa: BLE001 - any failure is a mismatch
        return f"error: {e}"


def _marker_word(e) -> bytes:
    srcs = [o for o in e.operands if not o.is_def]
    codes = [0, 0, 0]
    for i, o in enumerate(srcs):
        codes[i] = SMARK[i] if o.kind in ("ssrc", "sgpr", "sreg_wave") else VMARK[i]
    if e.extra.get("interp"):  # src0 = attr | chan << 6 (attr5.y), src1 = v2 or p20
        codes = [0x45, 1 if srcs[0].kind == "interp_param" else VMARK[1],
                 VMARK[2] if len(srcs) == 3 else 0]
    vdst = 5 if e.operands else 0
    if e.enc == "VOP3P":
        w0 = 0b110011000 << 23 | e.opcode << 16 | vdst | 1 << 14
        hi = 3 << 27
    else:
        w0 = 0b110101 << 26 | e.opcode << 16 | vdst
        hi = 0
    w1 = codes[0] | codes[1] << 9 | codes[2] << 18 | hi
    return w0.to_bytes(4, "little") + w1.to_bytes(4, "little")


def _random_words(mcpu: str, n: int, seed: int) -> list[bytes]:
    rnd = random.Random(seed)
    ents = _entries(mcpu, ("VOP3", "VOP3SD", "VOP3P"))
    out = []
    for _ in range(n):
        e = rnd.choice(ents)
        if e.enc == "VOP3P":
            w0 = 0b110011000 << 23 | e.opcode << 16 | rnd.getrandbits(16)
        else:
            w0 = 0b110101 << 26 | e.opcode << 16 | rnd.getrandbits(16)
        if rnd.random() < 0.5:
            w0 &= ~0x7F00
        w1 = rnd.getrandbits(32)
        if rnd.random() < 0.7:
            w1 &= 0x07FFFFFF
        c = [rnd.choice([rnd.getrandbits(9), 255, rnd.randrange(256, 512),
                         rnd.randrange(0, 106), rnd.randrange(124, 126),
                         rnd.randrange(128, 249), 0]) for _ in range(3)]
        w1 = (w1 & 0xF8000000) | c[0] | c[1] << 9 | c[2] << 18
        lit = rnd.getrandbits(32)
        out.append(w0.to_bytes(4, "little") + w1.to_bytes(4, "little") + lit.to_bytes(4, "little"))
    return out


def _check_roundtrip(blobs: list[bytes], mcpu: str, wave: int) -> tuple[int, int, int, list]:
    ref8 = llvm_mc.decode([b[:8] for b in blobs], mcpu=mcpu, wave64=wave == 64)
    ref12 = llvm_mc.decode(blobs, mcpu=mcpu, wave64=wave == 64)
    cases = []
    for b, r8, r12 in zip(blobs, ref8, ref12, strict=True):
        if r8 is not None:
            cases.append((b[:8], r8))
        elif r12 is not None and len(b) == 12:
            cases.append((b, r12))
    t = get_target(mcpu)
    ctx = Context(t, get_table(t.gfx_level), wave)
    bad = []
    dec_ok = 0
    for blob, text in cases:
        d = decode_one(blob, 0, ctx)
        if d.text == text and d.size == len(blob):
            dec_ok += 1
        else:
            bad.append(("decode", blob.hex(), text, d.text))
    encs = llvm_mc.encode([t for _, t in cases], mcpu=mcpu, wave64=wave == 64)
    asm_ok = 0
    for (_blob, text), m in zip(cases, encs, strict=True):
        got = _radcc_bytes(text, mcpu, wave)
        if got == m.data or (m.data is None and isinstance(got, str)):
            asm_ok += 1
        else:
            bad.append(("asm", text, m.data.hex() if m.data else m.error, got))
    return dec_ok, len(cases), asm_ok, bad


@pytest.mark.parametrize("mcpu", MCPUS)
@pytest.mark.parametrize("wave", [32, 64])
def test_every_opcode_round_trips(mcpu: str, wave: int) -> None:
    llvm_mc.require()
    ents = _entries(mcpu, ("VOP3", "VOP3SD", "VOP3P"))
    dec_ok, n, asm_ok, bad = _check_roundtrip([_marker_word(e) for e in ents], mcpu, wave)
    assert n >= len(ents) - 5, "llvm-mc should decode (nearly) every marker word"
    assert dec_ok == n and asm_ok == n, (dec_ok, asm_ok, n, bad[:12])


@pytest.mark.parametrize("mcpu", MCPUS)
@pytest.mark.parametrize(("wave", "count", "seed"), [(32, 3000, 1), (64, 1500, 2)])
def test_random_encoding_space(mcpu: str, wave: int, count: int, seed: int) -> None:
    llvm_mc.require()
    dec_ok, n, asm_ok, bad = _check_roundtrip(_random_words(mcpu, count, seed), mcpu, wave)
    assert n > count // 20
    dbad = [b for b in bad if b[0] == "decode"]
    assert len(dbad) <= n * 0.005, (len(dbad), n, dbad[:10])
    assert asm_ok >= n * 0.99, (asm_ok, n, [b for b in bad if b[0] == "asm"][:10])


# VOP3 interpolation forms: attribute in SRC0 (attr | chan << 6 | high << 8),
# modifier order high / clamp / omod, attrN bound 32, parameters p10/p20/p0.
INTERP_LINES = [
    "v_interp_p1_f32_e64 v5, v2, attr0.x",
    "v_interp_p1_f32_e64 v5, -v2, attr1.y clamp mul:2",
    "v_interp_p1_f32_e64 v5, |v2|, attr63.w div:2",
    "v_interp_p2_f32_e64 v255, v2, attr32.z",
    "v_interp_p2_f32_e64 v5, v2, attr0.z clamp div:2",
    "v_interp_p2_f32_e64 v5, -|v2|, attr0.x",
    "v_interp_p2_f32_e64 v5, neg(v2), attr0.x",
    "v_interp_p2_f32_e64 v5, abs(v2), attr0.x",
    "v_interp_p2_f32_e64 v5, sext(v2), attr0.x",
    "v_interp_p2_f32_e64 v5, v2, attr0.x mul:4 clamp",
    "v_interp_p2_f32_e64 v5, v2, attr0.x, v3",
    "v_interp_p2_f32_e64 v5, v2, attr0.q",
    "v_interp_p2_f32_e64 v5, v2, attr0",
    "v_interp_p2_f32_e64 v5, v2, attr0.x mul:3",
    "v_interp_p2_f32_e64 v5, null, attr0.x",
    "v_interp_p2_f32_e64 v5, s2, attr0.x",
    "v_interp_p2_f32_e64 v5, v[2:3], attr0.x",
    "v_interp_p1_f32_e64 v5, v2, ATTR1.Y",
    "v_interp_p1_f32_e64 v5, v2, attr01.y",
    "v_interp_p1_f32_e64 v5, v2, attr0.x high",
    "v_interp_mov_f32_e64 v5, p10, attr0.x",
    "v_interp_mov_f32_e64 v5, p20, attr2.y clamp",
    "v_interp_mov_f32_e64 v5, p0, attr3.w clamp div:2",
    "v_interp_mov_f32_e64 v5, p10, attr0.x high",
    "v_interp_mov_f32_e64 v5, -p10, attr0.x",
    "v_interp_mov_f32_e64 v5, p30, attr0.x",
    "v_interp_mov_f32_e64 v5, v1, attr0.x",
    "v_interp_p1ll_f16 v5, v2, attr0.x high",
    "v_interp_p1ll_f16 v5, -v2, attr0.y high clamp mul:4",
    "v_interp_p1ll_f16 v5, v2, attr0.x clamp high",
    "v_interp_p1ll_f16 v5, v2, attr0.x mul:2 clamp",
    "v_interp_p1ll_f16 v5, v2, attr0.x high high",
    "v_interp_p1ll_f16 v5, v2, attr33.w",
    "v_interp_p1ll_f16 v5, v2, attr0.x op_sel:[1,0]",
    "v_interp_p1ll_f16 v5, v2",
    "v_interp_p1lv_f16 v5, v2, attr0.x, v3",
    "v_interp_p1lv_f16 v5, v2, attr0.x, -|v3| high",
    "v_interp_p2_f16 v5, v2, attr0.x, v3 high clamp",
    "v_interp_p2_f16 v5, -|v2|, attr0.x, -v3",
    "v_interp_p2_f16 v5, v2, attr0.x, v3 div:2",
]


@pytest.mark.parametrize("mcpu", MCPUS)
def test_interp_lines(mcpu: str) -> None:
    """Each line assembles to llvm-mc's bytes (or fails where llvm-mc fails),
    and llvm-mc's bytes decode to llvm-mc's text."""
    llvm_mc.require()
    ref = llvm_mc.encode(INTERP_LINES, mcpu=mcpu)
    assert sum(m.data is not None for m in ref) >= 15
    t = get_target(mcpu)
    ctx = Context(t, get_table(t.gfx_level), 32)
    bad = []
    for line, m in zip(INTERP_LINES, ref, strict=True):
        got = _radcc_bytes(line, mcpu, 32)
        if m.data is None:
            if not isinstance(got, str):
                bad.append((line, m.error, got))
            continue
        if got != m.data:
            bad.append((line, m.data.hex(), got))
        d = decode_one(m.data, 0, ctx)
        if (d.text, d.size) != (m.text, len(m.data)):
            bad.append((line, m.text, d.text))
    assert not bad, bad


@pytest.mark.parametrize("mcpu", MCPUS)
@pytest.mark.parametrize("wave", [32, 64])
def test_interp_and_lane_mask_fields(mcpu: str, wave: int) -> None:
    """Every SRC0 value of the interp forms (attr, chan, high), every SRC1 value
    of v_interp_mov_f32_e64 / p1lv (parameters, VGPRs, decoder quirks), and every
    lane-mask field (VOPC SDST, v_cndmask SRC2, VOP3SD SDST) decode as llvm-mc."""
    llvm_mc.require()
    t = get_target(mcpu)
    table = get_table(t.gfx_level)
    ctx = Context(t, table, wave)

    def op(name: str) -> int:
        return next(e.opcode for e in table.entries if e.name == name and e.enc in
                    ("VOP3", "VOP3SD"))

    def blob(w0: int, w1: int) -> bytes:
        return w0.to_bytes(4, "little") + w1.to_bytes(4, "little")

    base = 0b110101 << 26 | 5
    blobs = []
    for name in ("v_interp_p1_f32", "v_interp_p1ll_f16", "v_interp_p2_f16"):
        o = op(name)
        s2 = 0x103 << 18 if name.endswith("p2_f16") else 0
        blobs += [blob(base | o << 16, s | 0x102 << 9 | s2) for s in range(512)]
    blobs += [blob(base | op("v_interp_mov_f32") << 16, 0x45 | s << 9) for s in range(512)]
    blobs += [blob(base | op("v_interp_p1lv_f16") << 16, 0x45 | s << 9 | 0x103 << 18)
              for s in range(256)]
    blobs += [blob(0b110101 << 26 | op("v_cmp_eq_u32") << 16 | s, 0x101 | 0x102 << 9)
              for s in range(256)]
    blobs += [blob(base | op("v_cndmask_b32") << 16, 0x101 | 0x102 << 9 | s << 18)
              for s in range(256)]
    blobs += [blob(base | op("v_add_co_u32") << 16 | s << 8, 0x101 | 0x102 << 9)
              for s in range(128)]
    ref = llvm_mc.decode(blobs, mcpu=mcpu, wave64=wave == 64)
    assert sum(r is not None for r in ref) > len(blobs) // 2
    bad = []
    for b, r in zip(blobs, ref, strict=True):
        d = decode_one(b, 0, ctx)
        want = r if r is not None else f".long 0x{int.from_bytes(b[:4], 'little'):08x}"
        if d.text != want:
            bad.append((b.hex(), r, d.text))
    assert not bad, (len(bad), bad[:10])


LDS_DIRECT_LINES = [
    "v_min3_f32 v1, src_lds_direct, v2, v3",
    "v_min3_f32 v1, v2, src_lds_direct, v3",
    "v_min3_f32 v1, v2, v3, src_lds_direct",
    "v_add_f32_e64 v1, v2, src_lds_direct",
    "v_add_f32_e64 v1, src_lds_direct, v2",
]


@pytest.mark.parametrize("mcpu", MCPUS)
def test_lds_direct_src0_only(mcpu: str) -> None:
    """GFX10 VOP3 reads src_lds_direct only through SRC0 (llvm-mc's rule)."""
    llvm_mc.require()
    ref = llvm_mc.encode(LDS_DIRECT_LINES, mcpu=mcpu)
    assert [m.data is not None for m in ref] == [True, False, False, False, True]
    for line, m in zip(LDS_DIRECT_LINES, ref, strict=True):
        got = _radcc_bytes(line, mcpu, 32)
        assert got == m.data if m.data is not None else isinstance(got, str), (line, got)
