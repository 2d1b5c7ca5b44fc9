"""Shared helpers of the VOP3P/VOPD/VINTERP/LDSDIR tests: random words of each
format and agreement measurement against llvm-mc (the oracle)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache

from radcc.isa.assembler import assemble
from radcc.isa.disassembler import decode_one
from radcc.isa.formats.base import Context
from radcc.isa.table import get_table
from radcc.oracle import llvm_mc
from radcc.target import get_target

TARGET = get_target("gfx1100")


def ctx(wave64: bool = False) -> Context:
    return Context(TARGET, get_table(TARGET.gfx_level), 64 if wave64 else 32)


def _le(*words: int) -> bytes:
    return b"".join((w & 0xFFFFFFFF).to_bytes(4, "little") for w in words)


def _src(rng: random.Random) -> int:
    return rng.choice([rng.getrandbits(9), 256 + rng.getrandbits(8), 255, 250, 233, 234,
                       rng.randrange(128, 249), rng.randrange(0, 128)])


def gen_word(kind: str, rng: random.Random) -> bytes:
    """12 random bytes with the fixed bits of a format (biased to valid opcodes)."""
    tbl = get_table(TARGET.gfx_level)
    if kind == "vop3p":
        ops = sorted(tbl.by_enc["VOP3P"])
        op = rng.choice(ops)
        lo = 0xCC000000 | op << 16 | rng.getrandbits(16)
        s = [_src(rng) for _ in range(3)]
        if len(tbl.by_enc["VOP3P"][op].operands) == 3 and rng.random() < 0.8:
            s[2] = 0
        hi = s[0] | s[1] << 9 | s[2] << 18 | rng.getrandbits(5) << 27
        return _le(lo, hi, rng.getrandbits(32))
    if kind == "vopd":
        lo = 0xC8000000 | rng.getrandbits(26)
        if rng.random() < 0.7:
            lo = (lo & ~(0xF << 22)) | rng.choice(sorted(tbl.by_enc["VOPD"])) << 22
        if rng.random() < 0.7:
            lo = (lo & ~(0x1F << 17)) | rng.choice(sorted(tbl.by_enc["VOPDY"])) << 17
        hi = rng.getrandbits(32)
        if rng.random() < 0.5:
            lo = (lo & ~0x1FF) | _src(rng)
        if rng.random() < 0.5:
            hi = (hi & ~0x1FF) | _src(rng)
        return _le(lo, hi, rng.getrandbits(32))
    if kind == "vinterp":
        lo = 0xCD000000 | rng.randrange(0, 8) << 16 | rng.getrandbits(16)
        hi = rng.getrandbits(32)
        if rng.random() < 0.8:
            hi = (256 + rng.getrandbits(8)) | (256 + rng.getrandbits(8)) << 9 | (
                256 + rng.getrandbits(8)) << 18 | rng.getrandbits(3) << 29
        return _le(lo, hi)
    w = 0xCE000000 | rng.getrandbits(22)
    if rng.random() < 0.7:
        w &= ~(3 << 22)
    return _le(w)


@dataclass
class Agreement:
    decoded: int = 0  # words llvm-mc decodes to one instruction
    decode_ok: int = 0  # ... that radcc decodes to the same text and size
    asm_ok: int = 0  # ... whose text radcc re-assembles to llvm-mc's bytes
    mismatches: list[str] = field(default_factory=list)

    @property
    def decode_rate(self) -> float:
        return self.decode_ok / max(1, self.decoded)

    @property
    def asm_rate(self) -> float:
        return self.asm_ok / max(1, self.decode_ok)


@cache
def agreement(kind: str, n: int, seed: int, wave64: bool = False) -> Agreement:
    rng = random.Random(seed)
    blobs = [gen_word(kind, rng) for _ in range(n)]
    cands = [b[:k] for b in blobs for k in (4, 8, 12) if k <= len(b)]
    texts = llvm_mc.decode(cands, wave64=wave64)
    c = ctx(wave64)
    seen: dict[bytes, tuple[bytes, str]] = {}
    for b, t in zip(cands, texts, strict=True):
        if t is not None:
            seen.setdefault(b[:8], (b, t))
    res = Agreement()
    good: list[str] = []
    for b, t in seen.values():
        res.decoded += 1
        d = decode_one(b, 0, c)
        if d.text == t and d.size == len(b):
            res.decode_ok += 1
            good.append(t)
        else:
            res.mismatches.append(f"decode {b.hex()}: llvm {t!r} radcc {d.text!r}")
    for e in llvm_mc.encode(good, wave64=wave64):
        r = assemble(e.line, TARGET, wave_size=64 if wave64 else 32)
        got = r.text if r.ok else None
        if got == e.data:
            res.asm_ok += 1
        else:
            res.mismatches.append(f"asm {e.line!r}: llvm {e.data!r} radcc {got!r}")
    return res


def check_lines(lines: list[str], wave64: bool = False) -> list[str]:
    """Assemble each line with llvm-mc and radcc; return the disagreements
    (bytes, canonical text, or one erroring and not the other)."""
    bad = []
    for e in llvm_mc.encode(lines, wave64=wave64):
        r = assemble(e.line, TARGET, wave_size=64 if wave64 else 32)
        if e.data is None:
            if r.ok:
                bad.append(f"{e.line!r}: llvm error {e.error!r}, radcc {r.text.hex()}")
            continue
        if not r.ok:
            bad.append(f"{e.line!r}: radcc error {[d.message for d in r.diagnostics]}")
            continue
        text = r.statements[-1].text
        if r.text != e.data or text != e.text:
            bad.append(f"{e.line!r}: llvm {e.text!r} {e.data.hex()} radcc {text!r} "
                       f"{r.text.hex()}")
    return bad
