"""Fuzzing the machine layer's drivers (hypothesis).

- The lexer/parser/assembler on random text: never a Python exception, only
  diagnostics (``AsmResult.diagnostics``).
- The disassembler on random bytes: never raises; the decoded sizes cover
  the input exactly.
- The llvm-mc ``-disassemble`` input reader on random text: never raises.
- ``radcc mc`` as a subprocess on a few random inputs: exit status 0 or 1,
  never a traceback or an internal error.

Failing examples found while writing these are kept as explicit regression
tests at the end of the file.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from radcc.isa.assembler import assemble
from radcc.isa.disassembler import disassemble, parse_hex_bytes
from radcc.isa.lexer import tokenize
from radcc.isa.table import get_table
from radcc.target import get_target

ROOT = Path(__file__).resolve().parents[2]
TARGET = get_target("gfx1100")
_MNEMONICS = sorted(get_table(TARGET.gfx_level).by_mnemonic)[:4000] or ["v_add_f32"]

_PIECES = [
    "v0", "v1", "v255", "v256", "v[0:1]", "v[2:5]", "v[1:0]", "v[", "s0", "s[0:1]", "s[4:7]",
    "s106", "ttmp[0:3]", "vcc", "vcc_lo", "exec", "exec_hi", "m0", "null", "scc", "src_scc",
    "0", "-1", "64", "-17", "0x12345678", "0xffffffffffffffff", "1.0", "-0.5", "0.15915494",
    "1e10", ".5", "|v1|", "-|v2|", "neg(v1)", "abs(v1)", "sext(v1)", "v1.l", "v1.h", "lit(1.0)",
    ",", ",", ",", " ", " ", ":", "[", "]", "(", ")", "|", "-", "+", "*", "~", "!", "&",
    "clamp", "offset:", "offset:16", "offset:-8", "glc", "slc", "dlc", "gds", "op_sel:[0,1]",
    "op_sel_hi:[1,1,1]", "neg_lo:[1,0]", "mul:2", "div:2", "row_shr:1", "quad_perm:[0,1,2,3]",
    "dpp8:[0,1,2,3,4,5,6,7]", "bound_ctrl:1", "fi:1", "row_mask:0xf", "hwreg(HW_REG_MODE)",
    "sendmsg(MSG_INTERRUPT)", "vmcnt(0)", "lgkmcnt(1)", "instid0(VALU_DEP_1)", "label",
    ".Ltmp", "foo:", '"str"', "\\", "#", ";", "//", "\t", "@", "$", "%",
]
_DIRECTIVES = [".text", ".data", ".section", ".byte", ".short", ".long", ".quad", ".fill",
               ".p2align", ".balign", ".globl", ".type", ".size", ".amdgcn_target", ".set",
               ".ascii", ".asciz", ".zero", ".amdhsa_kernel", ".end_amdhsa_kernel", ".weak"]

token_lines = st.builds(
    lambda head, parts: head + " " + "".join(parts),
    st.sampled_from(_MNEMONICS + _DIRECTIVES + ["label:", "x =", ""]),
    st.lists(st.sampled_from(_PIECES), max_size=12),
)
random_lines = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60)
asm_sources = st.lists(st.one_of(token_lines, token_lines, random_lines), min_size=1,
                       max_size=6).map("\n".join)

_FUZZ = settings(max_examples=300, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _assemble_never_raises(src: str, wave: int = 32) -> None:
    res = assemble(src, TARGET, "<fuzz>", wave)
    for d in res.diagnostics:
        assert d.line >= 1 and d.col >= 0 and d.message
        str(d)
    for s in res.statements:
        assert isinstance(s.text, str)


@_FUZZ
@given(asm_sources)
def test_assembler_never_raises(src: str) -> None:
    _assemble_never_raises(src)


@_FUZZ
@given(token_lines)
def test_assembler_never_raises_wave64(src: str) -> None:
    _assemble_never_raises(src, 64)


@settings(max_examples=200, deadline=None)
@given(random_lines)
def test_lexer_raises_only_asm_errors(line: str) -> None:
    from radcc.isa.errors import AsmError

    try:
        toks = tokenize(line)
    except AsmError as e:
        assert e.col >= 1
        return
    assert toks[-1].kind == "eol"


def _check_disassembly(data: bytes, wave: int) -> None:
    total = 0
    for off, d in disassemble(data, TARGET, wave):
        assert off == total
        assert d.size > 0 and isinstance(d.text, str) and d.text
        total += d.size
    assert total == len(data)


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=64), st.sampled_from([32, 64]))
def test_disassembler_never_raises(data: bytes, wave: int) -> None:
    _check_disassembly(data, wave)


# dwords that look like each family's encoding (the top bits pick the family)
_PREFIXES = [0xBE800000, 0xBF800000, 0xB0000000, 0x80000000, 0xBF000000, 0xF4000000,
             0x7E000000, 0x7C000000, 0x02000000, 0xD4000000, 0xD5000000, 0xD6000000,
             0xD7000000, 0xCC000000, 0xC8000000, 0xCE000000, 0xD8000000, 0xDC000000,
             0xE0000000, 0xE8000000, 0xF0000000, 0xF8000000]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_PREFIXES), st.integers(0, (1 << 32) - 1)),
                min_size=1, max_size=4),
       st.binary(max_size=12), st.sampled_from([32, 64]))
def test_disassembler_family_shaped_words_never_raise(words: list[tuple[int, int]], tail: bytes,
                                                      wave: int) -> None:
    data = b"".join(((p | (r & 0x00FFFFFF)) & 0xFFFFFFFF).to_bytes(4, "little")
                    + r.to_bytes(4, "little") for p, r in words) + tail
    _check_disassembly(data, wave)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789abcdefxXbB,[] \t\n#/;zg_-", max_size=80))
def test_hex_reader_never_raises(text: str) -> None:
    data, errors = parse_hex_bytes(text)
    assert isinstance(data, bytes)
    for e in errors:
        assert ": error: " in e


def _run_mc(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("RADCC_TRACEBACK", None)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "radcc", "mc", *args], input=stdin,
                          capture_output=True, text=True, timeout=120, env=env)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(asm_sources)
@example("v_add_f32 v1, v2, v3\n\x00\n.p2align 99999999999999999999\nfoo: foo:\n")
def test_radcc_mc_subprocess_assemble(src: str) -> None:
    p = _run_mc(["-mcpu=gfx1100", "-show-encoding", "-"], src)
    assert p.returncode in (0, 1), p.stderr
    assert "Traceback" not in p.stderr and "internal error" not in p.stderr, p.stderr


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(min_size=1, max_size=48))
def test_radcc_mc_subprocess_disassemble(data: bytes) -> None:
    text = "\n".join(",".join(f"0x{b:02x}" for b in data[i:i + 8]) for i in range(0, len(data), 8))
    p = _run_mc(["-mcpu=gfx1100", "-disassemble", "-show-encoding", "-"], text + "\n")
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr and "internal error" not in p.stderr


# --- regressions found by fuzzing ---------------------------------------------------------------

def test_regression_huge_p2align_is_a_diagnostic() -> None:
    res = assemble(".p2align 99999999999999999999\n.data\n.byte 1\n.p2align 31\n", TARGET)
    assert [d.message for d in res.diagnostics] == ["literal value out of range for directive",
                                                    "invalid alignment value"]


def test_regression_huge_fill_is_a_diagnostic() -> None:
    res = assemble(".fill 100000000000, 8, 0\n", TARGET)
    assert not res.ok


def test_regression_2byte_4byte_directives() -> None:
    res = assemble(".data\n.2byte 0x1234\n.4byte 5\n.8byte 6\n", TARGET)
    assert res.ok, [str(d) for d in res.diagnostics]
    assert bytes(res.sections[".data"].data) == bytes.fromhex("3412") + (5).to_bytes(4, "little") \
        + (6).to_bytes(8, "little")
