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
    return [e for e in get_table(t.gfx_level).entries if e.enc in encs
            and not e.extra.get("interp")]


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
    assert len(dbad) <= n * 0.01, (len(dbad), n, dbad[:10])
    assert asm_ok >= n * 0.99, (asm_ok, n, [b for b in bad if b[0] == "asm"][:10])
