"""VOP3P (packed math, fma_mix, dot, WMMA) against llvm-mc-19 (ISA guide 15.3.6)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from radcc.isa.assembler import assemble
from radcc.isa.disassembler import decode_one
from radcc.isa.table import get_table
from radcc.oracle import llvm_mc

sys.path.insert(0, str(Path(__file__).parent))
from vop3p_oracle import TARGET, agreement, check_lines, ctx  # noqa: E402

TABLE = get_table(TARGET.gfx_level)
ENTRIES = sorted(TABLE.by_enc["VOP3P"].values(), key=lambda e: e.opcode)


def setup_module() -> None:
    llvm_mc.require()


def _reg(base: int, bits: int, file: str = "v") -> str:
    n = max(1, bits // 32)
    return f"{file}{base}" if n == 1 else f"{file}[{base}:{base + n - 1}]"


def _bits(e, name: str, wave64: bool) -> int:
    spec = e.operand(name)
    w = e.extra.get("wave64_bits", {})
    return int(w.get(name, spec.bits)) if wave64 else spec.bits


def lines_for(e, wave64: bool = False) -> list[str]:
    """Representative statements of one opcode: registers, constants,
    literals, each modifier, DPP forms."""
    names = [o.name for o in e.operands]
    regs = [_reg(b, _bits(e, n, wave64)) for b, n in zip((1, 20, 40, 60), names, strict=False)]
    nsrc = len(names) - 1
    out = [f"{e.name} {', '.join(regs)}"]
    for k in range(1, nsrc + 1):
        for val in ("s3", "1.0", "-4", "0.5", "1.5", "0x3800", "0x12345678", "-1", "0.15915494",
                    "0x3f00", "lit(1.0)"):
            ops = list(regs)
            ops[k] = val if not val.startswith("s") or e.operands[k].bits <= 32 else \
                _reg(4, e.operands[k].bits, "s")
            out.append(f"{e.name} {', '.join(ops)}")
    arr = lambda *b: "[" + ",".join(str(x) for x in b) + "]"  # noqa: E731
    one = [1] + [0] * (nsrc - 1)
    for mod in (f"op_sel:{arr(*one)}", f"op_sel:{arr(*([0] * (nsrc - 1) + [1]))}",
                f"op_sel_hi:{arr(*([0] * nsrc))}", f"op_sel_hi:{arr(*([1] * nsrc))}",
                f"op_sel_hi:{arr(*one)}", f"neg_lo:{arr(*one)}", f"neg_hi:{arr(*([1] * nsrc))}",
                "clamp", f"op_sel:{arr(*one)} op_sel_hi:{arr(*one)} neg_lo:{arr(*one)} clamp",
                "quad_perm:[1,0,3,2]", "row_shl:3 row_mask:0x5 bound_ctrl:1 fi:1",
                "dpp8:[7,6,5,4,3,2,1,0]", "dpp8:[1,1,1,1,1,1,1,1] fi:1"):
        out.append(f"{e.name} {', '.join(regs)} {mod}")
    ops = list(regs)
    ops[1] = "-" + ops[1]
    ops[2] = "|" + ops[2] + "|"
    out.append(f"{e.name} {', '.join(ops)}")
    ops[nsrc] = "-|" + regs[nsrc] + "|"
    out.append(f"{e.name} {', '.join(ops)}")
    if "dpp_name" in e.extra:
        out.append(f"{e.extra['dpp_name']} {', '.join(regs)} quad_perm:[0,1,2,3]")
    return out


@pytest.mark.parametrize("e", ENTRIES, ids=lambda e: e.name)
def test_opcode_round_trip(e) -> None:
    lines = lines_for(e)
    assert check_lines(lines) == []


def test_wave64_wmma_sizes() -> None:
    lines = [ln for e in ENTRIES for ln in lines_for(e, wave64=True)[:3]]
    assert check_lines(lines, wave64=True) == []


def test_table_matches_isa_guide() -> None:
    """Opcode numbers of the ISA guide's table 89 (spot check)."""
    want = {0: "v_pk_mad_i16", 15: "v_pk_add_f16", 19: "v_dot2_f32_f16", 32: "v_fma_mix_f32",
            34: "v_fma_mixhi_f16", 64: "v_wmma_f32_16x16x16_f16", 69: "v_wmma_i32_16x16x16_iu4"}
    for op, name in want.items():
        assert TABLE.decode("VOP3P", op).name == name


@pytest.mark.parametrize("wave64", [False, True])
def test_random_words(wave64: bool) -> None:
    a = agreement("vop3p", 2500, 11 + wave64, wave64)
    assert a.decoded > 200
    assert a.decode_rate >= 0.995, a.mismatches[:10]
    assert a.asm_rate >= 0.995, a.mismatches[:10]


BAD = [
    "v_pk_add_f16 v1, v2",
    "v_pk_add_f16 v1, v2, v3, v4",
    "v_pk_add_f16 v256, v2, v3",
    "v_pk_add_f16 v1, -v2, v3",
    "v_pk_add_f16 v1, v2, v3 op_sel:[1,0,0,0,0]",
    "v_pk_add_f16 v1, v2, v3 op_sel:[2,0]",
    "v_pk_add_f16 v1, v2, v3 mul:2",
    "v_pk_add_f16 v1, 0x1234, 0x5678",
    "v_pk_fma_f16 v1, s1, s2, s3",
    "v_pk_add_f16 v1, v[2:3], v3",
    "v_pk_add_f16 v1, v2, v3 quad_perm:[0,1,2,3]",
    "v_fma_mix_f32 v1, v2, v3, 0x3f000000",
    "v_fma_mix_f32 v1, v2, v3, v4 neg_lo:[1,0,0]",
    "v_fma_mix_f32 v1, v2, s3, v4 quad_perm:[0,1,2,3]",
    "v_dot2_f32_bf16 v1, v2, v3, v4 dpp8:[0,1,2,3,4,5,6,7]",
    "v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], s[0:7]",
    "v_wmma_f32_16x16x16_f16 v[0:7], 1.0, v[16:23], v[0:7]",
    "v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7] clamp",
    "v_wmma_f32_16x16x16_f16 v[0:3], v[8:15], v[16:23], v[0:3]",
    "v_pk_add_u16 v1, src_pops_exiting_wave_id, v2",
    "v_pk_add_u16 v1, src_vccz, v2",
    "v_pk_mad_i16 v1, ttmp5, s73, src_shared_base",
]


def test_bad_inputs_fail_like_llvm() -> None:
    res = llvm_mc.encode(BAD)
    for r in res:
        assert r.data is None, r.line  # llvm-mc rejects every line
        out = assemble(r.line, TARGET)
        assert not out.ok, r.line
        assert out.diagnostics[0].col >= 1
    assert check_lines(BAD) == []


def test_bad_input_columns() -> None:
    a = assemble("v_pk_add_f16 v1, -v2, v3\nv_pk_add_f16 v1, v2, v3 mul:2", TARGET)
    assert [(d.line, d.col) for d in a.diagnostics] == [(1, 18), (2, 25)]


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=4, max_size=16), st.booleans())
def test_decoder_never_raises(data: bytes, wave64: bool) -> None:
    c = ctx(wave64)
    for first in (0xCC, 0xCD, 0xCE, 0xC8, 0xC9, 0xCA, 0xCB):
        blob = data[:3] + bytes([first]) + data[4:]
        d = decode_one(blob, 0, c)
        assert 1 <= d.size <= len(blob)
