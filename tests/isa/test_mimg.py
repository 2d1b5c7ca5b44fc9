"""MIMG (ISA guide 15.8) vs llvm-mc-19: per-opcode words, random words, syntax.

Per opcode: words over dmask/d16/tfe, every dim with and without a16, NSA
and not, and each modifier bit, decoded by llvm-mc; radcc must print the
same text, and assembling that text must give llvm-mc's bytes and text.
Random words with MIMG's fixed bits: same comparison on what llvm-mc decodes.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

import pytest

from radcc.isa.assembler import assemble
from radcc.isa.disassembler import decode_one
from radcc.isa.formats.base import Context
from radcc.isa.table import get_table
from radcc.oracle import llvm_mc
from radcc.target import get_target

TARGET = get_target("gfx1100")
CTX = Context(TARGET, get_table(TARGET.gfx_level), 32)
CTX64 = Context(TARGET, get_table(TARGET.gfx_level), 64)
TABLE = json.loads((Path(__file__).resolve().parents[2]
                    / "radcc/isa/data/gfx11/mimg.json").read_text())["opcodes"]
ENC = 0b111100 << 26


def _w(*ws: int) -> bytes:
    return b"".join(w.to_bytes(4, "little") for w in ws)


def opcode_words() -> list[bytes]:
    out: list[bytes] = []
    rnd = random.Random(3)
    for e in TABLE:
        op = e["opcode"]
        m = e["mimg"]
        ss = 3 << 26 if any(o["name"] == "ssamp" for o in e["operands"]) else 0
        base1 = 7 | (9 << 8) | (2 << 16) | ss
        if "bvh" in m:
            w0 = ENC | op << 18 | 1 << 7 | 15 << 8 | 1 << 15
            for a16 in (0, 1):
                for extra in (0, 1 << 12, 1 << 14, 1 << 17):
                    out.append(_w(w0 | a16 << 16 | extra, base1))
                    out.append(_w(w0 | a16 << 16 | 1 | extra, base1, 0x2F1E140B))
            continue
        for dmask in range(16):
            for fl in (0, 1 << 17):
                for tfe in (0, 1 << 21):
                    out.append(_w(ENC | op << 18 | dmask << 8 | fl | 1 << 2, base1 | tfe))
        for dim in range(8):
            for a16 in (0, 1 << 16):
                for dmask in (1, 3, 15):
                    w0 = ENC | op << 18 | dim << 2 | a16 | dmask << 8
                    out.append(_w(w0, base1))
                    out.append(_w(w0 | 1, base1, 0x2F1E140B))
                    out.append(_w(w0 | 1, base1 | 1 << 21, 0xFE1E14FA))
        for b in (7, 12, 13, 14, 15, 16, 17):
            out.append(_w(ENC | op << 18 | 1 << 8 | 1 << 2 | 1 << b, base1))
        for b in (21, 22):
            out.append(_w(ENC | op << 18 | 1 << 8 | 1 << 2, base1 | 1 << b))
        for _ in range(6):  # register field extremes
            out.append(_w(ENC | op << 18 | rnd.getrandbits(4) << 8 | rnd.getrandbits(3) << 2,
                          rnd.choice((0, 250, 253, 255)) | rnd.choice((0, 252, 254, 255)) << 8
                          | rnd.getrandbits(5) << 16 | (rnd.getrandbits(5) << 26 if ss else 0)))
    return out


def random_words(n: int, seed: int) -> list[bytes]:
    rnd = random.Random(seed)
    ops = [e["opcode"] for e in TABLE]
    out = []
    for _ in range(n):
        w0 = (rnd.getrandbits(32) & ~0xFC000000) | ENC
        if rnd.random() < 0.9:  # mostly real opcodes
            w0 = (w0 & ~(0xFF << 18)) | rnd.choice(ops) << 18
        w1 = rnd.getrandbits(32)
        if rnd.random() < 0.7:
            w0 &= rnd.getrandbits(32) | 0xFFFC1F
            w1 &= rnd.getrandbits(32) | 0xFFFF
        w0 = (w0 & ~0xFC000000) | ENC
        ws = [w0, w1]
        if w0 & 1:
            ws.append(rnd.getrandbits(32))
        out.append(_w(*ws))
    return out


def check(words: list[bytes], ctx: Context = CTX) -> tuple[int, list[str]]:
    llvm_mc.require()
    wave64 = ctx.wave_size == 64
    texts = llvm_mc.decode(words, wave64=wave64)
    valid = [(w, t) for w, t in zip(words, texts, strict=True) if t is not None]
    refs = llvm_mc.encode([t for _, t in valid], wave64=wave64)
    bad: list[str] = []
    for (w, t), ref in zip(valid, refs, strict=True):
        d = decode_one(w, 0, ctx)
        if d.text != t or d.size != len(w):
            bad.append(f"decode {w.hex()}: radcc {d.text!r} ({d.size}) llvm {t!r}")
            continue
        a = assemble(t, TARGET, wave_size=ctx.wave_size)
        if ref.text is None:
            if a.ok:
                bad.append(f"assemble {t!r}: radcc accepts, llvm-mc: {ref.error}")
            continue
        if not a.ok:
            bad.append(f"assemble {t!r}: {a.diagnostics[0].message}")
            continue
        st = [s for s in a.statements if s.kind == "inst"][0]
        if st.data != ref.data or st.text != ref.text:
            bad.append(f"assemble {t!r}: radcc {st.data.hex()} {st.text!r} "
                       f"llvm {ref.data.hex() if ref.data else None} {ref.text!r}")
    for w, t in zip(words, texts, strict=True):
        if t is None:
            d = decode_one(w, 0, ctx)
            if not d.text.startswith(".long"):
                bad.append(f"decode {w.hex()}: radcc {d.text!r}, llvm-mc rejects")
    return len(valid), bad


@cache
def _opcodes() -> tuple[int, int, list[str]]:
    words = opcode_words()
    nvalid, bad = check(words)
    return len(words), nvalid, bad


@cache
def _random(wave: int) -> tuple[int, int, list[str]]:
    words = random_words(4000, 11 + wave)
    nvalid, bad = check(words, CTX64 if wave == 64 else CTX)
    return len(words), nvalid, bad


def test_every_opcode() -> None:
    n, nvalid, bad = _opcodes()
    assert nvalid > n // 2
    assert not bad, f"{len(bad)}/{n} mismatches:\n" + "\n".join(bad[:30])


@pytest.mark.parametrize("wave", [32, 64])
def test_random_words(wave: int) -> None:
    n, nvalid, bad = _random(wave)
    rate = 1 - len(bad) / n
    assert nvalid > n // 8
    assert rate >= 0.995, f"agreement {rate:.4f} ({len(bad)}/{n}, {nvalid} valid):\n" + \
        "\n".join(bad[:30])
