"""VOP3 / VOP3SD (ISA guide 15.3.4-15.3.5) against llvm-mc-19: per-opcode round
trips, random encoding-space coverage, bad inputs and decoder robustness."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from radcc.isa.assembler import Assembler, assemble
from radcc.isa.disassembler import decode_one
from radcc.isa.formats.base import Context
from radcc.isa.lexer import tokenize
from radcc.isa.syntax import parse_statement
from radcc.isa.table import get_table
from radcc.oracle import llvm_mc
from radcc.target import get_target

TARGET = get_target("gfx1100")
TABLE = get_table(TARGET.gfx_level)
ENTRIES = [e for e in TABLE.entries if e.enc in ("VOP3", "VOP3SD")]
VMARK = (257, 258, 259)
SMARK = (4, 8, 12)


def _ctx(wave: int) -> Context:
    return Context(TARGET, TABLE, wave)


def _radcc_bytes(text: str, wave: int) -> bytes | str:
    asm = Assembler(TARGET, wave_size=wave)
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
    w0 = 0b110101 << 26 | e.opcode << 16 | vdst
    w1 = codes[0] | codes[1] << 9 | codes[2] << 18
    return w0.to_bytes(4, "little") + w1.to_bytes(4, "little")


def _random_words(n: int, seed: int) -> list[bytes]:
    rnd = random.Random(seed)
    ops = [e.opcode for e in ENTRIES]
    out = []
    for _ in range(n):
        w0 = 0b110101 << 26 | rnd.choice(ops) << 16 | rnd.getrandbits(16)
        if rnd.random() < 0.5:
            w0 &= ~0x7F00
        w1 = rnd.getrandbits(32)
        if rnd.random() < 0.7:
            w1 &= 0x07FFFFFF
        c = [rnd.choice([rnd.getrandbits(9), 255, rnd.randrange(256, 512),
                         rnd.randrange(0, 106), rnd.randrange(128, 249), 0]) for _ in range(3)]
        w1 = (w1 & 0xF8000000) | c[0] | c[1] << 9 | c[2] << 18
        lit = rnd.getrandbits(32)
        out.append(w0.to_bytes(4, "little") + w1.to_bytes(4, "little") + lit.to_bytes(4, "little"))
    return out


_CACHE: dict[tuple, object] = {}


def _oracle_decode(blobs: list[bytes], wave: int) -> list[str | None]:
    key = ("dec", wave, tuple(blobs))
    if key not in _CACHE:
        _CACHE[key] = llvm_mc.decode(blobs, wave64=wave == 64)
    return _CACHE[key]  # type: ignore[return-value]


def _check_roundtrip(blobs: list[bytes], wave: int) -> tuple[int, int, int, int, list]:
    """Decode agreement and re-assembly agreement over the words llvm decodes."""
    ref8 = _oracle_decode([b[:8] for b in blobs], wave)
    ref12 = _oracle_decode(blobs, wave)
    cases = []
    for b, r8, r12 in zip(blobs, ref8, ref12, strict=True):
        if r8 is not None:
            cases.append((b[:8], r8))
        elif r12 is not None and len(b) == 12:
            cases.append((b, r12))
    ctx = _ctx(wave)
    bad = []
    dec_ok = 0
    for blob, text in cases:
        d = decode_one(blob, 0, ctx)
        if d.text == text and d.size == len(blob):
            dec_ok += 1
        else:
            bad.append(("decode", blob.hex(), text, d.text))
    encs = llvm_mc.encode([t for _, t in cases], wave64=wave == 64)
    asm_ok = 0
    for (_blob, text), m in zip(cases, encs, strict=True):
        got = _radcc_bytes(text, wave)
        if got == m.data or (m.data is None and isinstance(got, str)):
            asm_ok += 1
        else:
            bad.append(("asm", text, m.data.hex() if m.data else m.error, got))
    return dec_ok, len(cases), asm_ok, len(cases), bad


@pytest.fixture(scope="module", autouse=True)
def _oracle() -> None:
    llvm_mc.require()


@pytest.mark.parametrize("wave", [32, 64])
def test_every_opcode_round_trips(wave: int) -> None:
    blobs = [_marker_word(e) for e in ENTRIES]
    dec_ok, n, asm_ok, _, bad = _check_roundtrip(blobs, wave)
    assert n >= len(ENTRIES) - 5, "llvm-mc should decode (nearly) every marker word"
    assert dec_ok == n and asm_ok == n, bad[:10]


@pytest.mark.parametrize(("wave", "count", "seed"), [(32, 3000, 1), (64, 1500, 2)])
def test_random_encoding_space(wave: int, count: int, seed: int) -> None:
    dec_ok, n, asm_ok, _, bad = _check_roundtrip(_random_words(count, seed), wave)
    assert n > count // 20
    dbad = [b for b in bad if b[0] == "decode" and "_dpp" not in b[2]]
    assert len(dbad) <= n * 0.005, dbad[:10]
    assert asm_ok >= n * 0.99, [b for b in bad if b[0] == "asm"][:10]


# statements llvm-mc accepts: radcc must produce the same bytes and text
GOOD = [
    "v_fma_f32 v0, s1, s2, null",
    "v_fma_f32 v0, s1, null, 0x1234",  # null is not a constant-bus read
    "v_add_co_ci_u32_e64 v255, null, 0xaf123456, vcc_hi, null clamp",
    "v_add_co_ci_u32_e64 v255, s0, 0xaf123456, vcc_hi, null clamp",
    "v_cndmask_b32_e64 v0, 0x1234, s1, null",
    "v_add_f32_e64 v0, v1, v2 noclamp",  # negated flag modifiers
    "v_add_f32 v0, v1, v2 noclamp",
    "v_cmp_eq_f32_e64 s0, v1, v2 noclamp",
    "v_interp_p10_f32 v0, v1, v2, v3 noclamp",
    "v_pk_add_f16 v0, v1, v2 noclamp",
    "v_fma_f32 v0, -v1, |v1|, -|v2| clamp mul:2",
    "v_fma_f32 v0, neg(1), v1, v2",
    "v_fma_f32 v0, -|1|, v1, v2 div:2",
    "v_fma_f64 v[0:1], 1.5, v[1:2], v[2:3]",
    "v_fma_f64 v[0:1], 0x3ff80000, v[1:2], v[2:3]",
    "v_fma_f16 v0, v1, v2, v3 op_sel:[1,0,1,1]",
    "v_fma_f16 v0, v1, v2, 1.5",
    "v_mad_u16 v0, v1, v2, 0x1234",
    "v_add_f32_e64 v0, v1, s2",
    "v_add_f32 v0, v1, s2 clamp",
    "v_cmp_eq_f32_e64 s0, v1, v2",
    "v_cmp_eq_f32_e64 vcc_lo, -v1, |v2|",
    "v_cmpx_eq_f32_e64 v1, s2",
    "v_cndmask_b32_e64 v0, -v1, v2, s2",
    "v_add_co_u32 v0, s1, v1, v2",
    "v_add_co_ci_u32_e64 v0, s1, v1, v2, s3 clamp",
    "v_readlane_b32 s0, v1, s2",
    "v_writelane_b32 v0, s1, 3",
    "v_trig_preop_f64 v[0:1], v[2:3], 5",
    "v_mad_u64_u32 v[0:1], s2, v1, v2, v[3:4] clamp",
    "v_div_scale_f32 v0, vcc_lo, v1, v2, v3",
    "v_mov_b32_e64 v0, 1.5",
    "v_add3_u32 v0, v1, 0x12345678, 0x12345678",
    "v_perm_b32 v0, v1, v2, 0x5040100",
    "v_bfe_u32 v0, v1, 8, 16",
    "v_lshlrev_b64 v[0:1], 3, v[2:3]",
    "v_permlane16_b32 v0, v1, s2, s3 op_sel:[1,0]",
    "v_ldexp_f32 v5, v1, sext(v2)",
    "v_add_nc_u16 v5, v1, v2 op_sel:[0,1,1]",
    "v_nop_e64",
    "v_pipeflush_e64",
    "v_add_f32_e64 v0, |0.15915494|, v1",
    "v_max3_f16 v0, 0.15915494, v1, v2",
    "v_add_f32_e64_dpp v0, v1, v2 quad_perm:[1,0,2,3] row_mask:0xf bank_mask:0xf",
    "v_fma_f32_e64_dpp v0, -v1, v2, v3 dpp8:[7,6,5,4,3,2,1,0]",
    "v_add_f32_e64_dpp v0, |v1|, v2 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:1",
]
GOOD64 = [
    "v_cmp_eq_f32_e64 s[0:1], v1, v2",
    "v_cmp_eq_f32_e64 vcc, v1, v2",
    "v_add_co_u32 v0, s[4:5], v1, v2",
    "v_cndmask_b32_e64 v0, v1, v2, s[2:3]",
    "v_div_scale_f64 v[0:1], vcc, v[1:2], v[2:3], v[3:4]",
]


@pytest.mark.parametrize(("lines", "wave"), [(GOOD, 32), (GOOD64, 64)])
def test_hand_written_lines(lines: list[str], wave: int) -> None:
    ref = llvm_mc.encode(lines, wave64=wave == 64)
    ctx = _ctx(wave)
    for line, m in zip(lines, ref, strict=True):
        assert m.data is not None, (line, m.error)
        got = _radcc_bytes(line, wave)
        assert got == m.data, (line, got, m.data.hex())
        assert decode_one(m.data, 0, ctx).text == m.text, line


# statements llvm-mc rejects: radcc must reject them with the same column
BAD = [
    "v_fma_f32 v0, s1, s2, s3",
    "v_fma_f32 v0, 0x1234, 0x1235, v2",
    "v_div_fmas_f32 v0, s1, s2, v3",
    "v_lshlrev_b64 v[0:1], s1, s[2:3]",
    "v_mad_u16 v0, v1, v2, 0x12345",
    "v_cndmask_b32_e64 v0, v1, v2, s[2:3]",
    "v_mov_b32_e64 v0, -v1",
    "v_add_f32_e64 v0, 1.5, 2.5",
    "v_fma_f32 v0, v1, v2, v[3:4]",
    "v_fma_f32 v256, v1, v2, v3",
    "v_fma_f64 v[0:1], s[1:2], v[2:3], v[4:5]",
    "v_and_b32_e64 v0, -v1, v2",
    "v_and_b32_e64 v0, v1, v2 clamp",
    "v_cmp_eq_f32_e64 s0, v1, v2 mul:2",
    "v_add_f32_e64 v0, v1, src_vccz",
    "v_fma_f64 v[0:1], |0x12345678|, v[2:3], v[4:5]",
]


def test_bad_inputs_report_llvm_columns() -> None:
    ref = llvm_mc.encode(BAD)
    for line, m in zip(BAD, ref, strict=True):
        assert m.data is None, line
        res = assemble(line + "\n", TARGET)
        assert not res.ok, line
        d = res.diagnostics[0]
        mc_col = _mc_error_col(line)
        assert d.col == mc_col, (line, d.col, mc_col, d.message, m.error)


def _mc_error_col(line: str) -> int:
    import subprocess

    p = subprocess.run([llvm_mc.LLVM_MC, "-triple=amdgcn", "-mcpu=gfx1100", "-show-encoding"],
                       input=line + "\n", capture_output=True, text=True)
    m = llvm_mc._DIAG_RE.match(p.stderr.splitlines()[0])
    assert m is not None
    return int(m.group(2))


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=8, max_size=16), st.sampled_from([32, 64]))
def test_decoder_never_raises(data: bytes, wave: int) -> None:
    w0 = int.from_bytes(data[:4], "little")
    w0 = (w0 & 0x03FFFFFF) | 0b110101 << 26
    blob = w0.to_bytes(4, "little") + data[4:]
    ctx = _ctx(wave)
    pos = 0
    while pos < len(blob):
        d = decode_one(blob, pos, ctx)
        assert d.size > 0
        pos += d.size
