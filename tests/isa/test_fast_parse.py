"""The fast statement parser (`syntax.fast_statement`) agrees with the token
parser: same mnemonic, operands (kind, value, text, column, modifiers),
modifiers and tokens on every line it accepts, and declines the rest."""

from __future__ import annotations

import random

from radcc.isa.lexer import IDENT, tokenize
from radcc.isa.syntax import fast_statement, parse_statement

_LINES = [
    "v_add_f32 v1, v2, v3",
    "v_add_f32_e64 v1, -v2, s[4:5] clamp mul:2",
    "s_load_b64 s[0:1], s[2:3], 0x10",
    "v_mov_b32 v0, -1.5",
    "v_mov_b32 v0, -17",
    "v_fma_f16 v1, v2, v3, v4 op_sel:[0,1,0,1]",
    "v_mov_b32_dpp v0, v1 quad_perm:[0, 1, 2, 3] row_mask:0xf bank_mask:0xf",
    "image_sample v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D",
    "global_load_b32 v1, v[2:3], off offset:-16",
    "buffer_load_b32 v1, off, s[4:7], s1 noglc",
    "s_waitcnt vmcnt(0) lgkmcnt(0)",
    "s_nop 0",
    "s_endpgm",
    "  V_ADD_F32 V1, TTMP[4:7], vcc_lo",
    "label: s_nop 0",
    "x = 5",
    ".text",
    "v_dual_mov_b32 v1, v2 :: v_dual_mov_b32 v3, v4",
    "v_add_f32 v1, |v2|, v3 ; comment",
    "v_add_f32 v1, v2, 0x3f800000 // comment",
]
_PIECES = [" ", "  ", "\t", ",", ", ", "-", ":", "[", "]", "v1", "s[0:1]", "V2", "ttmp[4:7]",
           "0x10", "17", "1.5", "-2.0", "clamp", "offset:16", "op_sel:[0,1]", "op_sel:[ 1 , 0 ]",
           "dim:SQ_RSRC_IMG_1D", "vcc", "off", "1e5", "0b11", ".", "abc", "v1:", "::", "=", "|",
           "abs(", ")", ";c", "#", "v[3:1]", "x[1]", "v[1]", "s[2]", "007", "-v1", "-s[2:3]",
           "-foo", "1.", "v1.l", "?"]


def _op_key(o: object) -> tuple:
    return tuple((getattr(o, f), type(getattr(o, f))) for f in (
        "kind", "col", "reg", "value", "text", "sym", "args", "neg", "abs", "neg_fn", "sext",
        "lit"))


def _check(line: str) -> bool:
    f = fast_statement(line)
    if f is None:
        return False
    toks = tokenize(line)  # never raises on a line the fast parser accepts
    assert toks[0].kind == IDENT and not toks[0].text.startswith(".")
    assert not toks[1].is_punct(":") and not toks[1].is_punct("=")
    g = parse_statement(toks[0], toks[1:])
    assert g.parse_error is None and g.second is None, line
    assert (f.mnemonic, f.col) == (g.mnemonic, g.col), line
    assert [_op_key(o) for o in f.operands] == [_op_key(o) for o in g.operands], line
    assert [(m.name, m.col, m.value, type(m.value)) for m in f.modifiers] == [
        (m.name, m.col, m.value, type(m.value)) for m in g.modifiers], line
    assert f.tokens == g.tokens, line
    return True


def test_fast_parse_examples() -> None:
    accepted = [line for line in _LINES if _check(line)]
    assert "v_add_f32 v1, v2, v3" in accepted
    assert "v_fma_f16 v1, v2, v3, v4 op_sel:[0,1,0,1]" in accepted
    for line in ("label: s_nop 0", "x = 5", ".text", "v_add_f32 v1, |v2|, v3 ; comment",
                 "v_dual_mov_b32 v1, v2 :: v_dual_mov_b32 v3, v4", "s_waitcnt vmcnt(0) lgkmcnt(0)"):
        assert fast_statement(line) is None, line


def test_fast_parse_mutations() -> None:
    rng = random.Random(7)
    n = 0
    for _ in range(20000):
        line = rng.choice(_LINES)
        k = rng.randrange(3)
        if k == 0:
            j = rng.randrange(len(line) + 1)
            line = line[:j] + rng.choice(_PIECES) + line[j:]
        elif k == 1:
            j = rng.randrange(len(line) + 1)
            line = line[:j] + line[j + rng.randrange(1, 4):]
        else:
            line = "v_op " + "".join(rng.choice(_PIECES) for _ in range(rng.randrange(1, 8)))
        n += _check(line)
    assert n > 2000  # the fast path is taken often


def _table_lines() -> list[str]:
    """One plain line per opcode-table entry (valid or not: both paths must agree)."""
    from radcc.isa.table import get_table
    from radcc.target import get_target

    rng = random.Random(1)
    out = []
    for e in get_table(get_target("gfx1100").gfx_level).entries:
        ops = []
        for o in e.operands:
            n = o.dwords
            b = rng.randrange(0, 100)
            if o.kind in ("vgpr", "vsrc", "vcsrc"):
                ops.append(f"v{b}" if n == 1 else f"v[{b}:{b + n - 1}]")
            elif o.kind in ("sgpr", "ssrc", "sreg"):
                b -= b % 4
                ops.append(f"s{b}" if n == 1 else f"s[{b}:{b + n - 1}]")
            elif o.kind == "special":
                ops.append(o.fixed or "vcc_lo")
            else:
                ops.append(str(rng.choice([0, 1, 16, 0x1234, -3])))
        out.append(f"{e.mnemonics[0] if e.mnemonics else e.name} {', '.join(ops)}".strip())
    return out


_MUT = [" clamp", " glc", " offset:16", " dmask:0x3", " dim:SQ_RSRC_IMG_2D", " dim:2D", " off",
        " op_sel:[1,0]", " mul:2", " row_mask:0xf", " gds", " offen", " format:22", " noglc",
        ", 1.5", ", -1", ", 0x3f800000", ", vcc", ", s[4:7]", " a16", " tfe", " d16", ","]


def test_fast_path_same_results() -> None:
    """Assembling with and without the fast statement path gives the same
    bytes, texts and diagnostics (formats may take the fast operands)."""
    from radcc.isa import assembler as asm
    from radcc.target import get_target

    target = get_target("gfx1100")
    rng = random.Random(5)
    lines = _table_lines() + _LINES
    base = list(lines)
    for _ in range(4000):
        line = rng.choice(base)
        if rng.randrange(2):
            line += rng.choice(_MUT)
        else:
            j = rng.randrange(len(line) + 1)
            line = line[:j] + line[j + rng.randrange(1, 4):]
        lines.append(line)
    orig = asm.fast_statement

    def run(line: str, fast: bool) -> tuple:
        asm.fast_statement = orig if fast else (lambda _line: None)  # type: ignore[assignment]
        try:
            asm.clear_memo()
            r = asm.assemble(line + "\n", target)
        finally:
            asm.fast_statement = orig
        return (r.text, [(s.kind, s.text, s.data) for s in r.statements],
                [(d.line, d.col, d.message) for d in r.diagnostics])

    for line in lines:
        assert run(line, True) == run(line, False), line
