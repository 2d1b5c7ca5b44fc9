"""The disassembler's memo returns what a fresh decode returns, also for a
first dword seen before as the start of a longer instruction and now cut short
(regression: the marker of such dwords was returned as an instruction)."""

from __future__ import annotations

import random

from radcc.isa import disassembler as dis
from radcc.isa.formats.base import Context
from radcc.isa.table import get_table
from radcc.target import get_target


def _ctx() -> Context:
    t = get_target("gfx1100")
    return Context(t, get_table(t.gfx_level), 32)


def test_truncated_after_longer_instruction() -> None:
    ctx = _ctx()
    dis.clear_memo()
    lit = (0xBE8000FF).to_bytes(4, "little") + (0x12345678).to_bytes(4, "little")  # s_mov_b32 s0, lit
    d8 = dis.decode_one(lit, 0, ctx)
    assert d8.size == 8
    d4 = dis.decode_one(lit[:4], 0, ctx)  # the literal is missing
    assert d4.size == 4 and d4.text.startswith(".long")
    assert list(dis.disassemble(lit[:4], ctx.target))[0][1].size == 4


def test_memo_matches_fresh_decodes() -> None:
    ctx = _ctx()
    rng = random.Random(3)
    words = [0xBE8000FF, 0x7E0202FF, 0xD5030001, 0xBF800000, 0x7E000280, 0xCA100080]
    blobs = []
    for _ in range(3000):
        n = rng.choice((4, 8, 12))
        b = rng.choice(words).to_bytes(4, "little") + rng.randbytes(n - 4)
        blobs.append(b[: rng.randrange(4, n + 1)])
    dis.clear_memo()
    fresh = [dis._decode_uncached(b, 0, ctx) for b in blobs]
    for _ in range(2):  # cold, then from the memo
        for b, f in zip(blobs, fresh, strict=True):
            d = dis.decode_one(b, 0, ctx)
            assert (d.size, d.text, d.info, d.fields) == (f.size, f.text, f.info, f.fields), b.hex()
