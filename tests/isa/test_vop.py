"""VOP1/VOP2/VOPC (+DPP16/DPP8) vs llvm-mc-19: per-opcode round trips,
random encoding-space coverage, bad input, decoder robustness."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from radcc.isa.assembler import assemble
from radcc.isa.disassembler import decode_one
from radcc.isa.formats.base import Context
from radcc.isa.table import get_table
from radcc.oracle import llvm_mc
from radcc.target import get_target

TARGET = get_target("gfx1100")


def _ctx(wave: int) -> Context:
    return Context(TARGET, get_table(TARGET.gfx_level), wave)


def _asm(line: str, wave: int) -> tuple[str | None, bytes | None, str | None]:
    res = assemble(line, TARGET, wave_size=wave)
    insts = [s for s in res.statements if s.kind == "inst"]
    if not res.ok or not insts:
        return None, None, res.diagnostics[0].message if res.diagnostics else "?"
    return insts[0].text, insts[0].data, None


def _vop_entries() -> list:
    return [e for e in get_table(TARGET.gfx_level).entries if e.enc in ("VOP1", "VOP2", "VOPC")]


def _line(e, src0: str, ctl: str = "") -> str:
    parts = []
    t16 = e.extra.get("t16")
    for o in e.operands:
        if o.kind == "special":
            parts.append("vcc_lo")
        elif o.name == "src0":
            parts.append(src0 if not (t16 and src0 == "v1") else "v1.h")
        elif o.name == "k":
            parts.append("0x41200000")
        elif o.kind == "sgpr":
            parts.append("s3")
        elif o.bits == 64:
            parts.append("v[4:5]" if src0 != "v1" or o.is_def else "v[6:7]")
        else:
            parts.append("v4.l" if t16 else "v4")
    if src0 == "v1":
        parts = [("v[8:9]" if p == "v1" and o.bits == 64 else p) for p, o in zip(parts, e.operands, strict=True)]
    name = e.name if not ctl else e.name + "_dpp"
    return f"{name} " + ", ".join(parts) + ctl if parts else name


@cache
def _opcode_lines() -> tuple[str, ...]:
    lines = []
    for e in _vop_entries():
        has_src0 = e.operand("src0") is not None
        for src in ("v1", "s2", "0.5", "-7", "0x1234", "1.5") if has_src0 else ("",):
            lines.append(_line(e, src))
        if "dpp" in e.modifiers:
            lines.append(_line(e, "v1", " row_ror:3 row_mask:0x5 bound_ctrl:1"))
            lines.append(_line(e, "v1", " quad_perm:[1,0,3,2] fi:1"))
        if "dpp8" in e.modifiers:
            lines.append(_line(e, "v1", " dpp8:[7,6,5,4,3,2,1,0] fi:1"))
    return tuple(lines)


@pytest.mark.parametrize("wave", [32, 64])
def test_every_opcode_matches_llvm(wave: int) -> None:
    llvm_mc.require()
    lines = list(_opcode_lines())
    if wave == 64:
        lines = [ln.replace("vcc_lo", "vcc") for ln in lines]
    ref = llvm_mc.encode(lines, wave64=wave == 64)
    bad = []
    for line, r in zip(lines, ref, strict=True):
        text, data, err = _asm(line, wave)
        if r.data is None:
            if data is not None:
                bad.append(f"{line}: llvm error {r.error!r}, radcc {text}")
        elif (text, data) != (r.text, r.data):
            bad.append(f"{line}: llvm {r.text} {r.data.hex()} radcc {text} {data.hex() if data else err}")
    assert not bad, "\n".join(bad[:30])
    assert len(lines) > 1500


def _random_blobs(n: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        k = rng.randrange(3)
        w = ((0x3F << 25) | rng.getrandbits(25)) if k == 0 else (
            ((0x3E << 25) | rng.getrandbits(25)) if k == 1 else rng.getrandbits(31))
        r = rng.random()
        if r < 0.2:
            w = (w & ~0x1FF) | 0xFA
        elif r < 0.3:
            w = (w & ~0x1FF) | rng.choice((0xE9, 0xEA))
        elif r < 0.4:
            w = (w & ~0x1FF) | 0xFF
        blob = w.to_bytes(4, "little") + rng.getrandbits(32).to_bytes(4, "little")
        out += [blob[:4], blob]
    return out


@pytest.mark.parametrize("wave", [32, 64])
def test_random_words_match_llvm(wave: int) -> None:
    llvm_mc.require()
    blobs = _random_blobs(4000, 7 + wave)
    ref = llvm_mc.decode(blobs, wave64=wave == 64)
    ctx = _ctx(wave)
    tot = agree = 0
    texts = []
    bad = []
    for blob, r in zip(blobs, ref, strict=True):
        if r is None:
            continue
        tot += 1
        d = decode_one(blob, 0, ctx)
        mine = d.text if d.size == len(blob) else None
        if mine == r:
            agree += 1
            texts.append(r)
        else:
            bad.append(f"{blob.hex()}: llvm {r} radcc {mine}")
    assert agree / tot >= 0.995, "\n".join(bad[:20])
    enc = llvm_mc.encode(texts, wave64=wave == 64)
    ok = n = 0
    for line, r in zip(texts, enc, strict=True):
        if r.data is None:
            continue
        n += 1
        text, data, _ = _asm(line, wave)
        ok += (text, data) == (r.text, r.data)
    assert ok / n >= 0.995


BAD = [
    ("v_mov_b32 v0, v256", 15),
    ("v_mov_b32 v0, s1 row_shl:1", 15),
    ("v_mov_b32 v0, v1 row_shl:0", 26),
    ("v_mov_b32 v0, v1 row_shl:1 row_shr:1", 28),
    ("v_mov_b32 v0, v1 dpp8:[0,1,2,3,4,5,6,8]", 0),
    ("v_mov_b32_e32 v0, v1 row_shl:1", 0),
    ("v_mov_b32_dpp v0, -v1 row_shl:1", 19),
    ("v_add_f32_dpp v0, -v1, |v2| dpp8:[0,0,0,0,0,0,0,0]", 0),
    ("v_cmp_eq_f32 vcc, v1, v2", 0),
    ("v_fmamk_f32 v0, 0x11223344, 0x11223345, v2", 0),
    ("v_fract_f64 v[1:2], v[3:4] row_shl:1", 0),
    ("v_cvt_f64_i32 v[0:1], 0x123456789", 0),
]


@pytest.mark.parametrize("line,col", BAD)
def test_bad_input(line: str, col: int) -> None:
    llvm_mc.require()
    assert llvm_mc.encode([line])[0].data is None
    res = assemble(line, TARGET)
    assert not res.ok
    if col:
        assert res.diagnostics[0].col == col


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=4, max_size=16))
def test_decoder_never_raises(data: bytes) -> None:
    ctx = _ctx(32)
    pos = 0
    while pos < len(data):
        d = decode_one(data, pos, ctx)
        assert d.size > 0
        pos += d.size
