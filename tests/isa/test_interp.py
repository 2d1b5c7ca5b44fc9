"""VINTERP and LDSDIR against llvm-mc-19 (ISA guide 15.4.1, 15.5.1)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from radcc.isa.assembler import assemble
from radcc.isa.table import get_table
from radcc.oracle import llvm_mc

sys.path.insert(0, str(Path(__file__).parent))
from vop3p_oracle import TARGET, agreement, check_lines  # noqa: E402

TABLE = get_table(TARGET.gfx_level)


def setup_module() -> None:
    llvm_mc.require()


def test_vinterp_opcodes() -> None:
    lines = []
    for e in TABLE.by_enc["VINTERP"].values():
        n = e.name
        lines += [f"{n} v1, v2, v3, v4", f"{n} v255, -v2, -v3, -v4 wait_exp:7",
                  f"{n} v1, v2, v3, v4 clamp", f"{n} v1, v2, v3, v4 op_sel:[1,0,0,0]",
                  f"{n} v1, v2, v3, v4 op_sel:[0,1,1,1] wait_exp:3",
                  f"{n} v1, v2, v3, v4 clamp op_sel:[1,1,1,1] wait_exp:0",
                  f"{n} v1, s2, v3, v4", f"{n} v1, 1.0, v3, v4", f"{n} v1, v2, v3, v4 wait_exp:8",
                  f"{n} v1, v2, v3, v4 wait_exp:1 clamp", f"{n} v1, v2, v3"]
    assert check_lines(lines) == []


def test_ldsdir_opcodes() -> None:
    lines = ["lds_direct_load v1", "lds_direct_load v255 wait_vdst:15",
             "lds_direct_load v1 wait_vdst:16", "lds_param_load v1, attr0.x",
             "lds_param_load v2, attr32.w wait_vdst:3", "lds_param_load v2, attr33.w",
             "lds_param_load v2, attr1.q", "lds_param_load v2", "lds_direct_load v1, attr0.x",
             "lds_param_load v7, attr17.z wait_vdst:9", "lds_param_load s1, attr1.x"]
    assert check_lines(lines) == []


@pytest.mark.parametrize("kind", ["vinterp", "ldsdir"])
def test_random_words(kind: str) -> None:
    a = agreement(kind, 1500, 5)
    assert a.decoded > 200
    assert a.decode_rate >= 0.995, a.mismatches[:10]
    assert a.asm_rate >= 0.995, a.mismatches[:10]


def test_error_column() -> None:
    r = assemble("v_interp_p10_f32 v0, v1, v2, v3 wait_exp:2 clamp", TARGET)
    assert [(d.col, d.message) for d in r.diagnostics] == [(44, "invalid operand for instruction")]


def test_vinterp_words_accept_and_reject_like_llvm_mc() -> None:
    """Random VINTERP words: radcc decodes exactly those llvm-mc decodes (VGPR or
    special-register sources only, op_sel only on the f16 forms, bit 23 and
    bits [60:59] ignored), to the same text."""
    import random

    from radcc.isa.disassembler import disassemble, is_invalid

    rng = random.Random(11)
    words = [bytes.fromhex("000080cd01050e1c")]  # llvm's "unused bits are ignored" case
    for _ in range(3000):
        lo = 0xCD000000 | rng.getrandbits(24)
        if rng.random() < 0.8:
            lo &= ~(0x78 << 16)
        hi = rng.getrandbits(32)
        if rng.random() < 0.5:
            hi |= 1 << 8 | 1 << 17 | 1 << 26  # VGPR sources
        words.append(lo.to_bytes(4, "little") + hi.to_bytes(4, "little"))
    bad = []
    for w, t in zip(words, llvm_mc.decode(words), strict=True):
        ds = [d for _, d in disassemble(w, TARGET, 32)]
        got = ds[0].text if len(ds) == 1 and not is_invalid(ds[0]) else None
        if got != (t.strip() if t else None):
            bad.append((w.hex(), t, got))
    assert not bad, bad[:5]


def test_failed_decode_is_not_memoized_by_its_first_dword() -> None:
    """An 8-byte word that does not decode must not hide a later one that
    shares its first dword (the `.long` fallback read past 4 bytes)."""
    from radcc.isa.disassembler import disassemble

    bad, good = bytes.fromhex("6d9d03cd00000000"), bytes.fromhex("6d9d03cd40833faf")
    assert [d.text for _, d in disassemble(bad, TARGET, 32)][0].startswith(".long")
    want = llvm_mc.decode([good])[0]
    assert [d.text for _, d in disassemble(good, TARGET, 32)] == [want.strip()]
    assert [d.text for _, d in disassemble(good[:4], TARGET, 32)][0].startswith(".long")
    assert [d.text for _, d in disassemble(good, TARGET, 32)] == [want.strip()]
