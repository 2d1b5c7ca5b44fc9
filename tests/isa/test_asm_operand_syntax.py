"""Operand syntax corner cases against llvm-mc-19 live (GFX11 and GFX10.3).

Oracle: llvm-mc-19 -mcpu=gfx1100 / gfx1030 (accept or reject, bytes, text).
Covered: a float literal under neg/abs in an f64 slot (accepted, the literal is
its high dword; an integer literal there is an error), two leading minus signs
("--2") which llvm-mc rejects only in VALU slots taking the neg modifier,
unary + and ! at the start of an operand, the printed spelling of every inline
float constant (operands.print_imm / src_text) in 16/32/64-bit slots
(llvm-mc must read it back as the same inline code, ISA guide 4.1 codes
240..248), s_version echo and disassembly, and the opcode table's refusal
of an incomplete data directory.
"""

from __future__ import annotations

import dataclasses
import json
import shutil

import pytest

from radcc.isa import operands as O
from radcc.isa import table as T
from radcc.isa.assembler import assemble
from radcc.isa.disassembler import disassemble
from radcc.oracle import llvm_mc
from radcc.target import GfxLevel, get_target

CHIPS = ["gfx1100", "gfx1030"]


def _radcc(line: str, chip: str) -> tuple[str | None, bytes | None]:
    res = assemble(line + "\n", get_target(chip))
    if any(d.severity == "error" for d in res.diagnostics):
        return None, None
    (st,) = [s for s in res.statements if s.kind == "inst"]
    return st.text.strip(), bytes(st.data)


def _agree(lines: list[str], chip: str) -> None:
    for line, o in zip(lines, llvm_mc.encode(lines, mcpu=chip), strict=True):
        assert _radcc(line, chip) == (o.text, o.data), (line, o)


F64_MOD_LINES = [
    op.format(v) for op in ("v_add_f64 v[0:1], {}, v[2:3]", "v_fma_f64 v[0:1], v[2:3], {}, v[4:5]",
                            "v_mul_f64 v[0:1], v[2:3], {}")
    for v in ("neg(3.0)", "|3.0|", "-|3.0|", "|-3.0|", "neg(-3.0)", "neg(1.1)", "neg(0.15915494)",
              "neg(0.5)", "neg(0x40080000)", "|0x40080000|", "neg(1)")
]


@pytest.mark.parametrize("chip", CHIPS)
def test_f64_literal_under_neg_abs(chip):
    oracle = llvm_mc.encode(F64_MOD_LINES, mcpu=chip)
    assert sum(o.text is not None for o in oracle) >= 20
    assert any(o.text is None for o in oracle)  # integer literals under neg/abs
    _agree(F64_MOD_LINES, chip)


@pytest.mark.parametrize("chip", CHIPS)
def test_double_minus_and_unary_signs(chip):
    lines = [
        "v_add_f32 v0, --2, v1", "v_add_f32 v0, - -2, v1", "v_add_f32 v0, ---2, v1",
        "v_add_f32_e64 v0, v1, --2", "v_fma_f32 v0, v1, v2, --2", "v_max_f32 v0, --1, v1",
        "v_cndmask_b32 v0, --2, v1, vcc_lo", "v_add_f32 v0, -(-2), v1", "v_add_f32 v0, 1--2, v1",
        "v_add_f32 v0, -~-2, v1", "v_mov_b32 v0, --2", "v_add_nc_u32 v0, v1, --2",
        "v_pk_add_f16 v0, --2, v1", "s_mov_b32 s0, --2", "s_add_u32 s0, s1, --1", "s_nop --2",
        "s_mov_b32 s0, +-2", "v_mov_b32 v0, +-2", "s_mov_b32 s0, !-2", "s_mov_b32 s0, !0",
        "s_mov_b32 s0, -+2", "v_add_f32 v0, +2, v1",
    ]
    oracle = llvm_mc.encode(lines, mcpu=chip)
    assert sum(o.text is None for o in oracle) == 7  # the --/- -/--- forms in neg-able slots
    _agree(lines, chip)
    res = assemble("v_add_f32 v0, --2, v1\n", get_target(chip), "t.s")
    assert str(res.diagnostics[0]).startswith("t.s:1:15: error: invalid syntax, expected 'neg' modifier")


_FOLD_OPS = ["v_add_f32 v0, {}, v2", "v_add_f32_e32 v0, {}, v2", "v_add_f16 v0, {}, v2",
             "v_add_f64 v[0:1], {}, v[2:3]", "v_cvt_f32_f64 v0, {}", "v_cvt_f64_f32 v[0:1], {}",
             "v_cmp_eq_f32 vcc_lo, {}, v1", "v_cmp_lt_f16 vcc_lo, {}, v1", "v_cmpx_eq_f32 {}, v1",
             "v_cndmask_b32 v0, {}, v1, vcc_lo", "v_mov_b32 v0, {}", "v_add_nc_u32 v0, {}, v1",
             "v_fmac_f32 v0, {}, v1", "v_fmaak_f32 v0, {}, v1, 0x1", "v_exp_f32 v0, {}",
             "v_add_f32 v0, v1, {}", "v_cvt_f32_i32 v0, {}", "v_rcp_f64 v[0:1], {}"]
_FOLD_VALS = ["neg(3.0)", "|3.0|", "-|3.0|", "neg(0.5)", "|-0.5|", "neg(1)", "neg(0x40400000)",
              "neg(-3.0)", "neg(0.15915494)", "neg(1.1)", "neg(-0.0)", "|-0.0|", "neg(0)",
              "|0xbf800000|", "neg(-1)", "neg(0x3800)", "-|0x4000|"]


@pytest.mark.parametrize("chip", ["gfx1100", "gfx1030", "gfx1010"])
def test_neg_abs_on_an_immediate_of_a_vop1_vop2_vopc_form(chip):
    """llvm-mc folds neg/abs of an immediate src0 into its value and keeps the 32-bit
    encoding when the VOP3 form takes those modifiers (integer ops reject them)."""
    lines = [op.format(v) for op in _FOLD_OPS for v in _FOLD_VALS]
    oracle = llvm_mc.encode(lines, mcpu=chip)
    assert sum(1 for o in oracle if o.text and "_e32" in o.text and "neg(" in o.line) > 50
    _agree(lines, chip)


@pytest.mark.parametrize("chip", ["gfx1100", "gfx1030", "gfx1010"])
def test_commas_before_the_end_and_before_modifiers(chip):
    lines = [
        "s_mov_b32 s0, s1,", "s_add_u32 s0, s1, s2,", "s_waitcnt_vscnt null, 0x0,", "s_nop 0,",
        "s_mov_b32 s0, s1 ,", "s_dcache_inv,", "s_endpgm,", "s_mov_b32 s0,, s1", "s_mov_b32 s0, s1, , ",
        "s_load_dword s1, s[2:3], s4,", "s_load_dword s1, s[2:3],", "s_load_dword s1, s[2:3], glc",
        "s_load_dword s1, s[2:3], s4, glc", "s_load_dword s1, s[2:3], s4, glc dlc",
        "s_load_dword s1, s[2:3], s4 glc, dlc", "s_load_dword s1, s[2:3], glc, dlc",
        "v_add_f32 v0, v1, v2,", "v_add_f32 v0, v1, v2,,", "v_cmp_eq_f32 vcc_lo, v1, v2,",
        "v_add_f32_e64 v0, v1, v2, clamp", "v_add_f32_e64 v0, v1, v2, mul:2",
        "v_add_f32_e64 v0, v1, v2, clamp,", "v_add_f32_e64 v0, v1, v2, clamp, mul:2",
        "v_add_f32_e64 v0, v1, v2 clamp, mul:2", "v_add_f32_e64 v0, v1, v2 clamp,",
        "v_add_f32_e64 v0, v1, v2, clamp,,", "ds_write_b32 v0, v1, offset:4",
        "v_mov_b32_dpp v0, v1, quad_perm:[0,1,2,3] row_mask:0xf",
        "v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3], row_mask:0xf",
    ]
    oracle = llvm_mc.encode(lines, mcpu=chip)
    assert sum(o.text is None for o in oracle) == 8
    _agree(lines, chip)


# (bits, slot) -> the ISA guide's inline code (section 4.1: 0.5 -0.5 1.0 -1.0 2.0 -2.0
# 4.0 -4.0 are 240..247, 1/(2*pi) is 248, in the operand's float width)
_F16 = [0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000, 0xC000, 0x4400, 0xC400, 0x3118]
_F32 = [0x3F000000, 0xBF000000, 0x3F800000, 0xBF800000, 0x40000000, 0xC0000000, 0x40800000,
        0xC0800000, 0x3E22F983]
_F64 = [0x3FE0000000000000, 0xBFE0000000000000, 0x3FF0000000000000, 0xBFF0000000000000,
        0x4000000000000000, 0xC000000000000000, 0x4010000000000000, 0xC010000000000000,
        0x3FC45F306DC9C882]


@pytest.mark.parametrize("chip", CHIPS)
def test_printed_inline_floats_read_back_as_inline(chip):
    cases = []  # (line, byte holding the source code, expected code)
    for k in range(9):
        code = 240 + k
        cases.append((f"v_add_f16_e64 v0, {O.print_imm(_F16[k], 'f16')}, v1", 4, code))
        cases.append((f"v_add_f32_e64 v0, {O.print_imm(_F32[k], 'f32')}, v1", 4, code))
        cases.append((f"v_add_f64 v[0:1], {O.print_imm(_F64[k], 'f64')}, v[2:3]", 4, code))
        cases.append((f"s_mov_b64 s[0:1], {O.print_imm(_F64[k], 'b64')}", 0, code))
        cases.append((f"v_add_f64 v[0:1], {O.src_text(code, 2, None, 'f64')}, v[2:3]", 4, code))
        cases.append((f"v_add_f32_e64 v0, {O.src_text(code, 1, None, 'f32')}, v1", 4, code))
    oracle = llvm_mc.encode([c[0] for c in cases], mcpu=chip)
    for (line, at, code), o in zip(cases, oracle, strict=True):
        assert o.data is not None and o.data[at] == code and len(o.data) == (8 if at else 4), \
            (line, o)
    # and llvm-mc's own disassembly of code 248 in an f64 slot is what radcc prints
    data = bytes([0x00, 0x00, 0x27, 0xD7, 0xF8, 0x04, 0x02, 0x00]) if chip == "gfx1100" else \
        bytes([0x00, 0x00, 0x64, 0xD5, 0xF8, 0x04, 0x02, 0x00])
    (want,) = llvm_mc.decode([data], mcpu=chip)
    ((_, got),) = list(disassemble(data, get_target(chip)))
    assert got.text.strip() == want.strip() and "0.15915494309189532" in want


@pytest.mark.parametrize("chip", ["gfx1010", "gfx1030", "gfx1100"])
def test_s_version_echo_and_disassembly(chip):
    vals = list(range(0, 0x10000, 997)) + [0, 6, 0x4004, 0x2000, 0x8000, 0xFFFF]
    lines = [f"s_version {v}" for v in vals] + [f"s_version 0x{v:x}" for v in vals[:20]] + [
        "s_version UC_VERSION_GFX10|UC_VERSION_W32_BIT", "s_version -1", "s_version 0x10000"]
    _agree(lines, chip)
    datas = [(0xB0800000 | v).to_bytes(4, "little") for v in vals]
    for data, want in zip(datas, llvm_mc.decode(datas, mcpu=chip), strict=True):
        ((_, got),) = list(disassemble(data, get_target(chip)))
        assert got.text.strip() == (want or "").strip()


def test_incomplete_table_directory_is_an_error(tmp_path):
    gen = tmp_path / "gfx11"
    gen.mkdir()
    src = T.DATA_DIR / "gfx11"
    for f in ("scalar.json", "vop.json"):
        shutil.copy(src / f, gen / f)
    with pytest.raises(T.TableError, match=r"lacks the family files vop3\.json, vop3p\.json, "
                       r"memory\.json, mimg\.json"):
        T._load_table(GfxLevel.GFX11, gen)
    with pytest.raises(T.TableError, match="does not exist"):
        T._load_table(GfxLevel.GFX11, tmp_path / "nowhere")
    with pytest.raises(ValueError, match="no opcode table for GFX9"):
        T.get_table(GfxLevel.GFX9)


@pytest.mark.parametrize("gfx", [GfxLevel.GFX10, GfxLevel.GFX10_3, GfxLevel.GFX11])
def test_every_generation_has_every_family(gfx):
    encs = set(T.get_table(gfx).encodings())
    assert {"SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC", "VOP3",
            "VOP3P", "DS", "MUBUF", "MTBUF", "FLAT", "GLOBAL", "SCRATCH", "MIMG", "EXP"} <= encs


@pytest.mark.parametrize("gen_dir", ["gfx10", "gfx11"])
def test_cached_table_equals_the_json(tmp_path, gen_dir):
    """The marshal cache (issue 14: entries restored without ``OpInfo.__init__``) gives
    the entries the JSON files give, every field including the derived ones
    (`OpInfo.defs`, `srcs`, `canon`: gfx10 has canonical names from vocab.json)."""
    gen = tmp_path / gen_dir
    gen.mkdir()
    for f in (T.DATA_DIR / gen_dir).glob("*.json"):
        shutil.copy(f, gen / f.name)
    gfx = {"gfx10": GfxLevel.GFX10, "gfx11": GfxLevel.GFX11}[gen_dir]
    cache = gen / "__pycache__"
    from_json = T._load_table(gfx, gen)  # no cache yet: parsed, then written
    assert len(list(cache.glob("table.*.marshal"))) == 1
    from_cache = T._load_table(gfx, gen)
    # every field but `uid`, which each entry gets new (none shares another's)
    fields = [f.name for f in dataclasses.fields(T.OpInfo) if f.name != "uid"]
    assert len(from_json.entries) == len(from_cache.entries) > 1000
    for a, b in zip(from_json.entries, from_cache.entries, strict=True):
        assert a is not b and type(b) is T.OpInfo
        assert [getattr(a, f) for f in fields] == [getattr(b, f) for f in fields]
    uids = [e.uid for e in (*from_json.entries, *from_cache.entries)]
    assert len(set(uids)) == len(uids) and min(uids) > 0
    if gen_dir == "gfx10":
        assert any(e.canon != e.name for e in from_cache.entries)
    assert from_json.by_mnemonic.keys() == from_cache.by_mnemonic.keys()
    # an edited JSON file makes the cache stale: the JSON is parsed again
    blob = json.loads((gen / "vop.json").read_text())
    blob["opcodes"][0]["name"] = "v_renamed_for_the_test"
    (gen / "vop.json").write_text(json.dumps(blob))
    again = T._load_table(gfx, gen)
    assert "v_renamed_for_the_test" in again.by_name
    assert "v_renamed_for_the_test" in T._load_table(gfx, gen).by_name  # from the new cache
