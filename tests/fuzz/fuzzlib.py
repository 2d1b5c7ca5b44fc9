"""Readers under fuzz and the mutations fed to them (seeded, reproducible).

A `Reader` turns input bytes into a ``radcc`` command line (writing the bytes
to a file of the right suffix in a scratch directory) and names the diagnostic
format a failure must use (`cli_harness.FORMATS`). `mutants(seed, rng, n)`
yields (label, bytes): random bytes, truncations, single byte and word
mutations, chunk insertions/deletions and, for text, one-token and one-line
grammar-aware edits (a token of the input replaced by another token of the
input or by an "interesting" token, deleted or duplicated).

`campaign.py` runs these for minutes; the test files run a few derandomized
draws per reader plus every input kept under ``corpus/``.
"""

from __future__ import annotations

import random
import re
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from cli_harness import Mode, Outcome, problem, run_radcc

from radcc.frontend.spirv.spirv_val import ENV_BY_VERSION

HERE = Path(__file__).resolve().parent
SEEDS = HERE / "corpus" / "seeds"
CORPUS = HERE / "corpus"


@dataclass(frozen=True)
class Reader:
    name: str
    suffix: str
    kind: str  # cli_harness.FORMATS key
    argv: Callable[[Path, Path], list[str]]  # (input file, scratch dir) -> argv
    seeds: tuple[str, ...]
    text: bool = False
    timeout: float = 30.0
    stdin: bool = False  # feed the input on stdin as well as via the file

    def run(self, data: bytes, scratch: Path, trace: bool = False,
            mode: Mode = "inprocess") -> Outcome:
        f = scratch / f"input{self.suffix}"
        f.write_bytes(data)
        return run_radcc(self.argv(f, scratch), timeout=self.timeout, trace=trace, mode=mode)

    def problem(self, o: Outcome, must_fail: bool = False) -> str | None:
        """`cli_harness.problem` for this reader's diagnostic format."""
        from cli_harness import PLAIN_DIAG

        return problem(o, self.kind, allow=PLAIN_DIAG, must_fail=must_fail)

    def check(self, data: bytes, scratch: Path, must_fail: bool = False,
              mode: Mode = "inprocess") -> str | None:
        return self.problem(self.run(data, scratch, mode=mode), must_fail)

    def seed_bytes(self) -> list[bytes]:
        return [(SEEDS / s).read_bytes() for s in self.seeds]


def _run_elf(obj_args: list[str]) -> Callable[[Path, Path], list[str]]:
    def argv(f: Path, d: Path) -> list[str]:
        return ["run", str(f), "--kernel", "saxpy", "--groups", "1", "--block", "64",
                *obj_args, "--out", str(d / "out"), "--wave32", "--max-instructions", "20000",
                "--quiet"]
    return argv


_SAXPY_ARGS = ["--arg", "x=zeros:256", "--arg", "y=zeros:256", "--arg", "a=2", "--arg", "n=64"]

READERS: dict[str, Reader] = {}


def _add(r: Reader) -> None:
    READERS[r.name] = r


SPIRV_SEEDS = ("add.spv", *sorted(f"spirv/{p.name}" for p in (SEEDS / "spirv").glob("*.spv")))
_add(Reader("spirv", ".spv", "spirv", lambda f, d: ["compile", str(f), "-S", "-o",
                                                    str(d / "out.s")], SPIRV_SEEDS))
# GLSL through glslangValidator (the stage from the input's suffix; glslang's own "ERROR:"
# lines are a diagnostic, cli_harness.PLAIN_DIAG)
_add(Reader("glsl", ".comp", "plain", lambda f, d: ["compile", str(f), "-S", "-o",
                                                    str(d / "out.s")],
            ("add.comp", "src/bda.comp"), text=True))
_add(Reader("glsl-vert", ".vert", "plain", lambda f, d: ["compile", str(f), "-S", "-o",
                                                         str(d / "out.s")],
            ("src/vertex.vert",), text=True))
_add(Reader("glsl-frag", ".frag", "plain", lambda f, d: ["compile", str(f), "-S", "-o",
                                                         str(d / "out.s")],
            ("src/fragment.frag",), text=True))
_add(Reader("ir", ".ir", "text", lambda f, d: ["llc", str(f), "-S", "-o", str(d / "out.s")],
            ("if_then.ir",), text=True))
for _chip in ("gfx1100", "gfx1030", "gfx1010"):
    _add(Reader(f"asm-{_chip}", ".s", "text",
                lambda f, d, c=_chip: ["mc", f"--mcpu={c}", "--show-encoding", str(f)],
                (f"{_chip}.s",), text=True))
    _add(Reader(f"obj-{_chip}", ".s", "text",
                lambda f, d, c=_chip: ["mc", f"--mcpu={c}", "--filetype=obj", "-o",
                                       str(d / "out.o"), str(f)],
                (f"{_chip}.s",), text=True))
    _add(Reader(f"dis-{_chip}", ".txt", "text",
                lambda f, d, c=_chip: ["mc", f"--mcpu={c}", "--disassemble", "--show-encoding",
                                       str(f)], (f"{_chip}.hex",), text=True))
_add(Reader("elf", ".o", "plain", _run_elf(_SAXPY_ARGS), ("saxpy.o",)))
_add(Reader("npy", ".npy", "plain",
            lambda f, d: _run_elf(["--arg", f"x={f}", "--arg", "y=zeros:256", "--arg", "a=2",
                                   "--arg", "n=64"])(SEEDS / "saxpy.o", d), ("x.npy",)))
_add(Reader("push", ".bin", "plain",
            lambda f, d: ["run", str(SEEDS / "add.spv"), "--groups", "1", "--buffer",
                          "0:0=zeros:256", "--buffer", "0:1=zeros:256", "--push", str(f),
                          "--out", str(d / "out")], ("x.npy",)))

# ---------------------------------------------------------------- mutations

INTERESTING_WORDS = (0, 1, 2, 3, 4, 0xFF, 0x100, 0x7FFF, 0xFFFF, 0x10000, 0x7FFFFFFF,
                     0x80000000, 0xFFFFFFFF, 0xFFFFFFFE, 0x07230203, 0x00010000, 0x00050000)
INTERESTING_TOKENS = (
    "", " ", ",", ":", "::", "[", "]", "(", ")", "{", "}", "%", "%0", "%99999", "%-1", "-", "--",
    "0", "-1", "1.0", "0x", "0x1_", "99999999999999999999", "1e400", "nan", "inf", "\"", "'",
    "//", "/*", "*/", ";", "#", "\\", "\t", "\n", "\x00", "\xff", "é", "v", "s", "v[0:", "v[3:1]",
    "v99999", "s999", "s[1:2]", "v[0:1]", "ttmp[0:3]", "vcc", "exec", "m0", "scc", "null", "BB",
    "BB-1", "BB9999", "offset:", "offset:-1", "offset:99999999", "glc", "dlc", "off", "lit(",
    "s_endpgm", "p_phi", "p_startpgm", "v_add_f32", "v_dual_mul_f32", ".text", ".rodata",
    ".amdhsa_kernel", ".end_amdhsa_kernel", ".amdhsa_next_free_vgpr", "program", "wave64",
    "gfx9999", "0xzz", "0x00", "0xff", "0x1ff", "- ", "---", "...", "  - ", "!!", "&a", "*a",
    "|", ">", "~", "?", "@", "$",
)
_TOKEN = re.compile(r"\s+|[A-Za-z_.$][\w.$@]*|0x[0-9A-Fa-f]+|\d+(?:\.\d+)?|.", re.S)


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def random_bytes(rng: random.Random, n: int) -> bytes:
    return bytes(rng.getrandbits(8) for _ in range(n))


def byte_mutants(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One random byte-level mutation of `data`."""
    n = len(data)
    k = rng.randrange(8)
    if k == 0 or n == 0:
        m = rng.randrange(0, 200)
        return f"random{m}", random_bytes(rng, m)
    if k == 1:
        i = rng.randrange(n)
        return f"truncate@{i}", data[:i]
    if k == 2:
        i = rng.randrange(n)
        b = bytearray(data)
        b[i] ^= 1 << rng.randrange(8)
        return f"bitflip@{i}", bytes(b)
    if k == 3:
        i = rng.randrange(n)
        b = bytearray(data)
        b[i] = rng.choice((0, 0xFF, 0x7F, 0x80, rng.getrandbits(8)))
        return f"byte@{i}", bytes(b)
    if k == 4 and n >= 4:
        i = rng.randrange(n // 4) * 4
        w = rng.choice(INTERESTING_WORDS + (rng.getrandbits(32),))
        return f"word@{i}={w:#x}", data[:i] + struct.pack("<I", w) + data[i + 4:]
    if k == 5:
        i, j = sorted(rng.randrange(n + 1) for _ in range(2))
        return f"delete@{i}:{j}", data[:i] + data[j:]
    if k == 6:
        i, j = sorted(rng.randrange(n + 1) for _ in range(2))
        p = rng.randrange(n + 1)
        return f"dup@{i}:{j}->{p}", data[:p] + data[i:j] + data[p:]
    i = rng.randrange(n + 1)
    m = rng.randrange(1, 16)
    return f"insert@{i}", data[:i] + random_bytes(rng, m) + data[i:]


def text_mutant(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One grammar-aware edit: a token or a line of `data` replaced, dropped or copied."""
    text = data.decode("utf-8", "surrogateescape")
    k = rng.randrange(6)
    if k <= 3:
        toks = _tokens(text)
        if not toks:
            return "empty", b""
        i = rng.randrange(len(toks))
        if k <= 1:
            toks[i] = rng.choice(INTERESTING_TOKENS)
        elif k == 2:
            toks[i] = rng.choice(toks)
        else:
            toks[i] = toks[i] + rng.choice(toks)
        label = f"token{i}"
        out = "".join(toks)
    else:
        lines = text.split("\n")
        i = rng.randrange(len(lines))
        if k == 4:
            del lines[i]
        else:
            lines.insert(rng.randrange(len(lines) + 1), lines[i])
        label = f"line{i}"
        out = "\n".join(lines)
    return label, out.encode("utf-8", "surrogateescape")


def _spirv_split(data: bytes) -> list[list[int]] | None:
    """The instructions of a little-endian module (header first), or None if malformed."""
    if len(data) % 4 or len(data) < 20:
        return None
    w = list(struct.unpack(f"<{len(data) // 4}I", data))
    out, i = [w[:5]], 5
    while i < len(w):
        n = w[i] >> 16
        if n == 0 or i + n > len(w):
            return None
        out.append(w[i:i + n])
        i += n
    return out


def _spirv_join(ins: list[list[int]]) -> bytes:
    words = [x for i in ins for x in i]
    return struct.pack(f"<{len(words)}I", *words)


def spirv_mutant(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One instruction-aware mutation of a SPIR-V module: an opcode, operand or id
    replaced, an instruction deleted, duplicated or moved, a word inserted into or
    deleted from an instruction (its word count kept consistent), two operands
    swapped. Ids are drawn from the ids the module defines."""
    ins = _spirv_split(data)
    if ins is None or len(ins) < 2:
        return byte_mutants(data, rng)
    from radcc.frontend.spirv import grammar

    ids = sorted({r for i in ins[1:] if (r := _result_id(i)) is not None})
    k = rng.randrange(9)
    j = rng.randrange(1, len(ins))
    cur = [list(i) for i in ins]
    w = cur[j]
    if k == 0:  # opcode replaced (by one of the module's or any defined opcode)
        if rng.random() < 0.5:
            op = rng.choice(cur[1:])[0] & 0xFFFF
        else:
            op = rng.choice(_OPCODES)
        w[0] = (w[0] & 0xFFFF0000) | op
        label = f"opcode#{j}={grammar.opname(op) if grammar.instruction(op) else op}"
    elif k in (1, 2) and len(w) > 1:  # an operand word: another id, or interesting
        p = rng.randrange(1, len(w))
        if k == 1 and ids:
            w[p] = rng.choice(ids)
        else:
            w[p] = rng.choice(INTERESTING_WORDS + (w[p] + 1, w[p] - 1 & 0xFFFFFFFF))
        label = f"{'id' if k == 1 else 'operand'}#{j}.{p}={w[p]:#x}"
    elif k == 3:
        del cur[j]
        label = f"delete#{j}"
    elif k == 4:
        cur.insert(rng.randrange(1, len(cur) + 1), list(w))
        label = f"duplicate#{j}"
    elif k == 5:
        del cur[j]
        cur.insert(rng.randrange(1, len(cur) + 1), w)
        label = f"move#{j}"
    elif k == 6:  # a word inserted into an instruction
        p = rng.randrange(1, len(w) + 1)
        w.insert(p, rng.choice(ids + list(INTERESTING_WORDS)) if ids else 0)
        w[0] = (len(w) << 16) | (w[0] & 0xFFFF)
        label = f"insert-word#{j}.{p}"
    elif k == 7 and len(w) > 1:  # a word deleted from an instruction
        p = rng.randrange(1, len(w))
        del w[p]
        w[0] = (len(w) << 16) | (w[0] & 0xFFFF)
        label = f"delete-word#{j}.{p}"
    elif len(w) > 2:  # two operands swapped
        p, q = rng.sample(range(1, len(w)), 2)
        w[p], w[q] = w[q], w[p]
        label = f"swap#{j}.{p},{q}"
    else:
        del cur[j]
        label = f"delete#{j}"
    return label, _spirv_join(cur)


def _result_id(words: list[int]) -> int | None:
    from radcc.frontend.spirv import grammar

    info = grammar.instruction(words[0] & 0xFFFF)
    if info is None or not info.operands:
        return None
    kinds = [o.kind for o in info.operands[:2]]
    p = 1 if kinds[0] == "IdResult" else 2 if kinds[1:] == ["IdResult"] else 0
    return words[p] if 0 < p < len(words) else None


def _opcodes() -> tuple[int, ...]:
    from radcc.frontend.spirv import grammar_data

    return tuple(sorted(grammar_data.INSTRUCTIONS))


_OPCODES = _opcodes()


def mutants(reader: Reader, rng: random.Random, count: int) -> Iterator[tuple[str, bytes]]:
    seeds = reader.seed_bytes()
    for _ in range(count):
        s = rng.choice(seeds)
        if reader.name == "spirv" and rng.random() < 0.7:
            label, m = spirv_mutant(s, rng)
            if rng.random() < 0.2:
                label2, m = spirv_mutant(m, rng)
                label += "+" + label2
        elif reader.text and rng.random() < 0.7:
            label, m = text_mutant(s, rng)
            if rng.random() < 0.3:
                label2, m = text_mutant(m, rng)
                label += "+" + label2
        else:
            label, m = byte_mutants(s, rng)
        yield label, m


# the spirv-val the --diff oracle runs (campaign.py --oracle-spirv-val sets a newer one)
ORACLE_SPIRV_VAL = ["spirv-val"]


def oracle_message(data: bytes, scratch: Path) -> str:
    """spirv-val's first error line for a module (the environment its version gives)."""
    import subprocess

    f = scratch / "oracle.spv"
    f.write_bytes(data)
    r = subprocess.run([ORACLE_SPIRV_VAL[0], "--target-env", _spirv_env(data), "--scalar-block-layout",
                        str(f)], capture_output=True, text=True, errors="replace")
    return (r.stdout + r.stderr).strip().split("\n")[0][:200]


def _spirv_env(data: bytes) -> str:
    if len(data) >= 8 and data[:4] == b"\x03\x02\x23\x07":
        return ENV_BY_VERSION.get((data[6], data[5]), "vulkan1.3")
    return "vulkan1.3"


def hide_spirv_val() -> None:
    """Make radcc behave as if spirv-tools were not installed (in this process): only its
    own checks (radcc.frontend.spirv.validate) stand between a mutant and the compiler."""
    from radcc.frontend.spirv import spirv_val

    spirv_val.find_spirv_val = lambda: None


def truncations(data: bytes, step: int = 1) -> Iterator[tuple[str, bytes]]:
    """Every prefix of `data` at multiples of `step` (and the empty one)."""
    for i in range(0, len(data), step):
        yield f"truncate@{i}", data[:i]


def oracle_status(name: str, data: bytes, scratch: Path) -> int | None:
    """1 if the independent tool rejects `data` for reader `name`, else 0 (None: no
    oracle). llvm-mc-19 for assembly/objects (error) and disassembly (a warning or
    error: radcc mc prints the same warning and still exits 0, so a warning counts
    as 0 on both sides); spirv-val for SPIR-V."""
    import subprocess

    f = scratch / f"oracle{READERS[name].suffix}"
    f.write_bytes(data)
    if name == "spirv":
        from radcc.frontend.spirv.spirv_val import NEWER_CAPABILITIES

        r = subprocess.run([ORACLE_SPIRV_VAL[0], "--target-env", _spirv_env(data),
                            "--scalar-block-layout", str(f)], capture_output=True, text=True,
                           errors="replace")
        if r.returncode == 0:
            return 0
        m = re.search(r"Invalid capability operand: (\d+)", r.stdout + r.stderr)
        if m is not None and int(m.group(1)) in NEWER_CAPABILITIES:
            return None  # this spirv-val predates the module's extension: no verdict
        return 1
    kind, _, chip = name.partition("-")
    if kind not in ("asm", "obj", "dis"):
        return None
    cmd = ["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={chip}"]
    if kind == "obj":
        cmd += ["--filetype=obj", "-o", str(scratch / "oracle.o")]
    elif kind == "dis":
        cmd += ["--disassemble", "--show-encoding"]
    else:
        cmd += ["--show-encoding"]
    try:
        r = subprocess.run([*cmd, str(f)], capture_output=True, timeout=20)
    except subprocess.TimeoutExpired:  # llvm-mc itself can hang on some mutants
        return None
    return 0 if r.returncode == 0 else 1
