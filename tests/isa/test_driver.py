"""Driver-level tests of the assembler/disassembler and `radcc mc` against llvm-mc-19.

What is compared: section bytes and symbols of whole files with labels and
directives (llvm-mc -filetype=obj, read back with llvm-objcopy/llvm-readelf),
the instruction/label lines of the ``-show-encoding`` listing, diagnostics
(``file:line:col: error: message``, every bad line reported, exit status 1,
no traceback) and ``--disassemble`` of hex input with comments, from a file
or standard input. Expectations come from llvm-mc live.

The instructions used belong to families that exist (VOP1/VOP2/VOP3, DS,
GLOBAL). llvm-mc-19 loops forever on some odd-sized padding in code
sections (`.p2align` after `.byte`s in .text), so the sources keep code
sections dword-aligned and put odd data in .data.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from radcc.isa.assembler import assemble
from radcc.oracle import llvm_mc
from radcc.target import get_target

ROOT = Path(__file__).resolve().parents[2]
TARGET = get_target("gfx1100")
MC = llvm_mc.LLVM_MC
TOOL = MC.replace("llvm-mc", "llvm-{}")

DIAG_RE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.+)$")


def setup_module() -> None:
    llvm_mc.require()


# --- helpers -------------------------------------------------------------------------------


def _write(tmp: Path, name: str, text: str) -> Path:
    p = tmp / name
    p.write_text(text)
    return p


def llvm_object(src: str, tmp: Path) -> tuple[dict[str, bytes], dict[str, tuple[int, int, str, str]]]:
    """Assemble with llvm-mc to an object; (section bytes, symbols name -> (value, size, bind, type))."""
    s = _write(tmp, "in.s", src)
    o = tmp / "out.o"
    subprocess.run([MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-filetype=obj",
                    str(s), "-o", str(o)], check=True, timeout=60, capture_output=True)
    sections = {}
    for name in (".text", ".data", ".rodata"):
        b = tmp / f"sec{name}.bin"
        r = subprocess.run([TOOL.format("objcopy"), "-O", "binary", f"--only-section={name}",
                            str(o), str(b)], capture_output=True, timeout=60)
        if r.returncode == 0 and b.exists():
            sections[name] = b.read_bytes()
    out = subprocess.run([TOOL.format("readelf"), "-s", "--wide", str(o)], check=True,
                         capture_output=True, text=True, timeout=60).stdout
    syms = {}
    for ln in out.splitlines():
        f = ln.split()
        if len(f) >= 8 and f[0].endswith(":") and f[0][:-1].isdigit() and f[7:]:
            syms[f[7]] = (int(f[1], 16), int(f[2], 0), f[4], f[3])
    return sections, syms


def radcc_mc(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("RADCC_TRACEBACK", None)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "radcc", "mc", *args], input=stdin,
                          capture_output=True, text=True, timeout=120, env=env)


def llvm_mc_run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([MC, "-triple=amdgcn-amd-amdhsa", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def error_lines(stderr: str) -> list[tuple[int, int, str]]:
    out = []
    for ln in stderr.splitlines():
        m = DIAG_RE.match(ln)
        if m:
            out.append((int(m["line"]), int(m["col"]), m["msg"]))
    return out


def listing(stdout: str) -> list[str]:
    """Instruction and label lines of a -show-encoding listing, whitespace-normalized."""
    out = []
    for ln in stdout.splitlines():
        s = ln.strip()
        if "; encoding:" in s or re.fullmatch(r"[.\w$]+:", s):
            out.append(" ".join(s.split()))
    return out


@pytest.fixture
def tmp() -> Path:
    with tempfile.TemporaryDirectory(prefix="radcc-driver-") as d:
        yield Path(d)


# --- labels, directives, bytes, symbols ---------------------------------------------------

SRC_LAYOUT = """\
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.text
.globl foo
.p2align 8
.type foo,@function
foo:
  v_add_f32 v1, v2, v3
.Lloop:
  ds_add_u32 v1, v2 offset:16
  v_mov_b32 v0, 0x12345678
  .long 0x12345678, -1
  .short 0x1234, 7
  .fill 2, 4, 0xabcdef01
  .p2align 4
  global_load_b32 v1, v2, s[0:1] offset:-8
.Lfunc_end0:
  .size foo, .Lfunc_end0-foo
.globl bar
.type bar,@object
.data
.p2align 2
bar:
  .byte 1, 2, 0x3
  .p2align 2
  .byte 0xff
  .fill 3, 1, 9
.Lbar_end:
  .size bar, .Lbar_end-bar
"""


def test_layout_bytes_and_symbols_match_llvm_mc(tmp: Path) -> None:
    sections, syms = llvm_object(SRC_LAYOUT, tmp)
    res = assemble(SRC_LAYOUT, TARGET)
    assert res.ok, [str(d) for d in res.diagnostics]
    for name in (".text", ".data"):
        assert bytes(res.sections[name].data) == sections[name], name
    for name in ("foo", "bar"):
        value, size, bind, typ = syms[name]
        sym = res.symbols[name]
        assert sym.value == value, name
        assert sym.size == size, name
        assert sym.binding.upper() == bind, name
        assert {"function": "FUNC", "object": "OBJECT"}[sym.type] == typ, name


def test_listing_instructions_and_labels_match_llvm_mc(tmp: Path) -> None:
    p = _write(tmp, "l.s", SRC_LAYOUT)
    ref = llvm_mc_run(["-mcpu=gfx1100", "-show-encoding", str(p)])
    got = radcc_mc(["-mcpu=gfx1100", "-show-encoding", str(p)])
    assert ref.returncode == 0 and got.returncode == 0, got.stderr
    assert listing(got.stdout) == listing(ref.stdout)


def test_data_directive_forms(tmp: Path) -> None:
    src = ("\t.data\n\t.byte 1, -1, 0x7f\n\t.short -2\n\t.2byte 3\n\t.long 1+2*3\n\t.4byte 5\n"
           "\t.quad 0x1122334455667788\n\t.long\n\t.zero 3\n\t.fill 2, 2, 0x1234\n"
           "\t.p2align 3\n\t.byte 9\n")
    sections, _ = llvm_object(src, tmp)
    res = assemble(src, TARGET)
    assert res.ok, [str(d) for d in res.diagnostics]
    assert bytes(res.sections[".data"].data) == sections[".data"]


def test_amdgcn_target_directive(tmp: Path) -> None:
    good = '.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\nv_add_f32 v1, v2, v3\n'
    bad = '.amdgcn_target "amdgcn-amd-amdhsa--gfx1030"\nv_add_f32 v1, v2, v3\n'
    for src, ok in ((good, True), (bad, False)):
        p = _write(tmp, "t.s", src)
        ref = llvm_mc_run(["-mcpu=gfx1100", str(p)])
        got = radcc_mc(["-mcpu=gfx1100", str(p)])
        assert (ref.returncode == 0) == ok
        assert (got.returncode == 0) == ok, got.stderr
        assert [e[0] for e in error_lines(got.stderr)] == [e[0] for e in error_lines(ref.stderr)]


# --- diagnostics --------------------------------------------------------------------------

SRC_ERRORS = """\
v_add_f32 v1, v2, v3
v_bogus_op v1, v2
  v_add_f32 v1, v2, v300
ds_add_u32 v1, v2 offset:70000
v_add_f32 v1, v2
.data
.byte 256
foo:
foo:
.unknown_directive 1
.long 1, , 2
.long 1,
.long (1
v_add_f32 v1, v2, v3 clamp
"""


def test_every_error_reported_like_llvm_mc(tmp: Path) -> None:
    p = _write(tmp, "bad.s", SRC_ERRORS)
    ref = llvm_mc_run(["-mcpu=gfx1100", "-show-encoding", str(p)])
    got = radcc_mc(["-mcpu=gfx1100", "-show-encoding", str(p)])
    assert ref.returncode == 1 and got.returncode == 1
    assert "Traceback" not in got.stderr
    want = error_lines(ref.stderr)
    have = error_lines(got.stderr)
    assert len(want) >= 10
    assert [(ln, col) for ln, col, _ in have] == [(ln, col) for ln, col, _ in want]
    assert [m for _, _, m in have] == [m for _, _, m in want]
    for ln in got.stderr.splitlines():
        if " error: " in ln:
            assert ln.startswith(str(p) + ":"), ln
    # the good lines around the bad ones are still assembled (llvm-mc also echoes the
    # rejected duplicate label, radcc does not: compare instructions only)
    enc = [ln for ln in listing(ref.stdout) if "; encoding:" in ln]
    assert [ln for ln in listing(got.stdout) if "; encoding:" in ln] == enc


def test_error_caret_line(tmp: Path) -> None:
    p = _write(tmp, "c.s", "  v_add_f32 v1, v2, v300\n")
    got = radcc_mc(["-mcpu=gfx1100", str(p)])
    ref = llvm_mc_run(["-mcpu=gfx1100", str(p)])
    assert got.returncode == 1
    g, r = got.stderr.splitlines(), ref.stderr.splitlines()
    assert g[0].split(": ", 1)[1] == r[0].split(": ", 1)[1]
    assert g[1:3] == r[1:3]  # the source line and the caret under the column


@pytest.mark.parametrize("src", [
    "\x00\x01\x02\n",
    '.ascii "abc\n',
    "v_add_f32 v1,,\n",
    "v_add_f32 v1, v2, v3 ]]]\n",
    "v_add_f32 v[1:0], v2, v3\n",
    ".fill -1, 1, 0\n",
    ".p2align 99999999999999999999\n",
    ".long 0x1ffffffffffffffffffffffff\n",
    ".byte 1 2\n",
    "::::\n",
    "0:\n",
    ".size\n",
    ".type foo\n",
    ".globl\n",
    ".section\n",
    "v_add_f32 v1, v2, v3 offset:\n",
    "ds_add_u32 v1, v2 offset:0x10000000000000000\n",
    "\t.amdgcn_target\n",
    "label: label2: v_add_f32 v1, v2, v3 junk\n",
    "v_mov_b32 v0, (((((((((((1)))))))))))\n",
    "v_mov_b32 v0, -\n",
    "v_mov_b32 v0, 1.0e999999\n",
    "\u00e9\u4e2d\n",
])
def test_bad_input_reports_errors_without_traceback(src: str, tmp: Path) -> None:
    p = tmp / "x.s"
    p.write_text(src, encoding="utf-8")
    got = radcc_mc(["-mcpu=gfx1100", "-show-encoding", str(p)])
    assert "Traceback" not in got.stderr and "internal error" not in got.stderr, got.stderr
    ref = llvm_mc_run(["-mcpu=gfx1100", "-show-encoding", str(p)])
    assert got.returncode in (0, 1)
    if ref.returncode != 0:
        assert got.returncode == 1, (src, got.stdout)
        assert error_lines(got.stderr), got.stderr


# --- standard input and disassembly ---------------------------------------------------------


def test_assemble_from_stdin() -> None:
    src = "v_add_f32 v1, v2, v3\nds_add_u32 v1, v2\nv_mov_b32 v5, 0.5\n"
    ref = llvm_mc_run(["-mcpu=gfx1100", "-show-encoding"], stdin=src)
    got = radcc_mc(["-mcpu=gfx1100", "-show-encoding", "-"], stdin=src)
    assert got.returncode == 0, got.stderr
    assert listing(got.stdout) == listing(ref.stdout)


def test_stdin_error_names_stdin() -> None:
    got = radcc_mc(["-mcpu=gfx1100", "-"], stdin="v_add_f32 v1, v2, v3\nv_nope\n")
    assert got.returncode == 1
    assert error_lines(got.stderr)[0][:2] == (2, 1)
    assert got.stderr.startswith("<stdin>:2:1: error: ")


HEX_INPUT = """\
# a comment line
0x02,0x07,0x02,0x06   # v_add_f32
# another comment
0x00 0x00 0x00 0xd8 0x01 0x02 0x00 0x00 #ds_add_u32

0xff,0x02,0x0a,0x7e,0x78,0x56,0x34,0x12
[0x02,0x07,0x02,0x06]
"""


def _insts(stdout: str) -> list[str]:
    return [" ".join(ln.split(";")[0].split()) for ln in stdout.splitlines()
            if ln.strip() and ln.strip() != ".text"]


@pytest.mark.parametrize("via_stdin", [False, True])
def test_disassemble_hex_with_comments(via_stdin: bool, tmp: Path) -> None:
    """`#` comments as llvm-mc reads them."""
    p = _write(tmp, "h.txt", HEX_INPUT)
    ref = llvm_mc_run(["-mcpu=gfx1100", "-disassemble", "-show-encoding"], stdin=HEX_INPUT)
    if via_stdin:
        got = radcc_mc(["-mcpu=gfx1100", "-disassemble", "-show-encoding", "-"], stdin=HEX_INPUT)
    else:
        got = radcc_mc(["-mcpu=gfx1100", "-disassemble", "-show-encoding", str(p)])
    assert ref.returncode == 0
    assert got.returncode == 0, got.stderr
    assert _insts(got.stdout) == _insts(ref.stdout)
    assert len(_insts(got.stdout)) == 4


@pytest.mark.parametrize("comment", ["// c", "; c", ";0x00", "0x00//"])
def test_disassemble_slash_and_semicolon_are_invalid_tokens(comment: str, tmp: Path) -> None:
    """`//` and `;` start no comment in llvm-mc-19's byte lists: the token is invalid,
    its line's bytes and those before it are dropped and the next lines are read
    (campaign seed 123's 818c9ce957ef: radcc took `;` as a comment)."""
    text = f"0x02,0x07,0x02,0x06\n0x82 0x00 0x02 0x30 {comment}\n0x82 0x00 0x02 0x30\n"
    p = _write(tmp, "h.txt", text)
    ref = llvm_mc_run(["-mcpu=gfx1100", "-disassemble", "-show-encoding"], stdin=text)
    got = radcc_mc(["-mcpu=gfx1100", "-disassemble", "-show-encoding", str(p)])
    assert "invalid input token" in ref.stderr
    assert _insts(got.stdout) == _insts(ref.stdout)
    def where(err: str) -> list[list[str]]:  # line:col of each error
        return [ln.split(": error")[0].split(":")[-2:] for ln in err.splitlines()
                if "error:" in ln]
    assert where(got.stderr) == where(ref.stderr) != []


_NOP1 = "0x01 0x00 0x80 0xbf"
_BAD = "0xff 0xff 0xff 0xff"


@pytest.mark.parametrize("text", [
    f"{_NOP1} [{_NOP1} {_BAD} {_NOP1}]\n{_BAD} {_NOP1}\n",  # no resync inside a block
    f"[{_NOP1} [{_NOP1}]] {_NOP1}\n",  # nested, then a stray ]
    f"{_NOP1} ] {_NOP1}\n",  # a ] without its [
    "[0x01 0x00 0x80\n0xbf]\n[0x01 0x00\n",  # a block over two lines; an unclosed one
    f"{_NOP1}\n0x01 0x00 0x80 0xbf 0x0x82\n{_NOP1}\n",  # a second prefix: invalid token
    f"{_NOP1}\n+1 0x00 0x80 0xbf\n0o2 0x00 0x80 0xbf\n09 0x00\n",  # signs, 0o, bad octal
    f"{_NOP1}\n0x01 0x00 0x80\f 0xbf\n{_NOP1}\n",  # a form feed is no separator
    f"0x01 0x00\n0x80 0xbf # [\n{_NOP1} [",  # bytes across lines; a # comment hides a [
])
def test_disassemble_atomic_blocks_and_tokens(text: str, tmp: Path) -> None:
    """llvm-mc-19's byte lists: bytes run across lines up to a `[` or `]`; a `[ ... ]`
    block is decoded without resynchronising after an invalid encoding (an error); a
    nested `[`, a stray `]` and an unclosed block are errors; a token is a byte as
    getAsInteger(0) reads it (seed 125's dis findings: radcc took brackets as blanks and
    read '0x0x82' as 0x82). The same instructions, the same errors and warnings at the same
    places in the same order, and failure exactly where llvm-mc-19 reports an error."""
    p = _write(tmp, "h.txt", text)
    ref = llvm_mc_run(["-mcpu=gfx1100", "-disassemble", "-show-encoding", str(p)])
    got = radcc_mc(["-mcpu=gfx1100", "-disassemble", "-show-encoding", str(p)])
    assert "Traceback" not in got.stderr

    def diags(err: str) -> list[tuple[str, str, str]]:
        return re.findall(r":(\d+):(\d+): (error|warning):", err)
    assert diags(got.stderr) == diags(ref.stderr), (got.stderr, ref.stderr)
    assert [i for i in _insts(got.stdout) if not i.startswith(".long")] == \
        _insts(ref.stdout)
    assert (got.returncode != 0) == (ref.returncode != 0 or "error:" in ref.stderr)


def test_disassemble_undecodable_word_is_long() -> None:
    hexes = "0x02,0x07,0x02,0x06\n0xff,0xff,0xff,0xff\n0x00,0x00,0x00,0xd8,0x01,0x02,0x00,0x00\n"
    ref = llvm_mc_run(["-mcpu=gfx1100", "-disassemble"], stdin=hexes)
    got = radcc_mc(["-mcpu=gfx1100", "-disassemble", "-"], stdin=hexes)
    assert "invalid instruction encoding" in ref.stderr
    assert got.returncode == 0 and "Traceback" not in got.stderr
    want = _insts(ref.stdout)
    have = _insts(got.stdout)
    assert have == [want[0], ".long 0xffffffff", want[1]]
    assert "invalid instruction encoding" in got.stderr


@pytest.mark.parametrize("text", [
    "0x02,0x07,zz,0x06\n",
    "0x02,0x07,0x02,0x06\n0x02,0x07,0x100,0x06\n0x02 0x07 0x02 0x06\n",
    "0x02\t0x07 0x02 0x06\n0x02,0x07,0x02,0x06 junk 0x00\n0x02,0x07,0x02,0x06\n",
    "010,0x07,0x02,0x06\n0b10,0x07,0x02,0x06\n",
])
def test_disassemble_bad_tokens_like_llvm_mc(text: str) -> None:
    """An invalid token is reported with its column; like llvm-mc, the rest of its
    line and the bytes read before it are dropped. radcc exits 1 (llvm-mc 0)."""
    got = radcc_mc(["-mcpu=gfx1100", "-disassemble", "-"], stdin=text)
    ref = llvm_mc_run(["-mcpu=gfx1100", "-disassemble"], stdin=text)
    assert "Traceback" not in got.stderr
    want = error_lines(ref.stderr)
    assert [e[:2] for e in error_lines(got.stderr)] == [e[:2] for e in want]
    assert got.returncode == (1 if want else 0)
    assert _insts(got.stdout) == _insts(ref.stdout)


def test_disassemble_wave64(tmp: Path) -> None:
    hexes = "0x01,0x05,0x0a,0x40\n"  # v_add_co_ci_u32_e32 with vcc / vcc_lo
    for attrs in ([], ["-mattr=+wavefrontsize64"]):
        ref = llvm_mc_run(["-mcpu=gfx1100", "-disassemble", *attrs], stdin=hexes)
        got = radcc_mc(["-mcpu=gfx1100", "-disassemble", *attrs, "-"], stdin=hexes)
        assert got.returncode == 0, got.stderr
        assert _insts(got.stdout) == _insts(ref.stdout)


def test_missing_file_is_an_error() -> None:
    got = radcc_mc(["-mcpu=gfx1100", "/nonexistent/radcc/x.s"])
    assert got.returncode == 1
    assert "Traceback" not in got.stderr and "error" in got.stderr
