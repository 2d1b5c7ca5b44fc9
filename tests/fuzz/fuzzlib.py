"""Readers under fuzz and the mutations fed to them (seeded, reproducible).

A `Reader` turns input bytes into a ``radcc`` command line (writing the bytes
to a file of the right suffix in a scratch directory) and names the diagnostic
format a failure must use (`cli_harness.FORMATS`). `mutants(seed, rng, n)`
yields (label, bytes): random bytes, truncations, single byte and word
mutations, chunk insertions/deletions and, for text, one-token and one-line
grammar-aware edits (a token of the input replaced by another token of the
input or by an "interesting" token, deleted or duplicated); for the readers other
than SPIR-V, half of the draws are the structure-aware operators of `structured`
(machine-IR blocks and terminators, assembly modifiers and directives, encodings,
ELF/note/msgpack/kernel-descriptor fields, GLSL preprocessor lines and encodings,
.npy headers).

`campaign.py` runs these for minutes; the test files run a few derandomized
draws per reader plus every input kept under ``corpus/``.
"""

from __future__ import annotations

import random
import re
import struct
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from cli_harness import Mode, Outcome, problem, run_radcc
from structured import structured_mutant

from radcc.frontend.spirv.module import SpirvModule
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


def spirv_mutant(data: bytes, rng: random.Random,
                 other: bytes | None = None) -> tuple[str, bytes]:
    """One instruction-aware mutation of a SPIR-V module: an opcode, operand or id
    replaced, an instruction deleted, duplicated or moved, a word inserted into or
    deleted from an instruction (its word count kept consistent), two operands
    swapped; or one of the structure-aware operators of `_structured_mutant` (two
    instructions swapped, an instruction moved into another block, a type id replaced
    by another type id, a decoration's literal or kind changed, an OpDecorate or
    OpMemberDecorate duplicated or removed, a storage class changed, a scope or
    memory-semantics operand changed, an instruction's word count changed alone, and
    pieces of `other`, a second module, spliced in). Ids are drawn from the ids the
    module defines."""
    ins = _spirv_split(data)
    if ins is None or len(ins) < 2:
        return byte_mutants(data, rng)
    from radcc.frontend.spirv import grammar

    ids = sorted({r for i in ins[1:] if (r := _result_id(i)) is not None})
    k = rng.randrange(20)
    j = rng.randrange(1, len(ins))
    cur = [list(i) for i in ins]
    w = cur[j]
    if k >= 9:
        return _structured_mutant(k - 9, cur, rng, other)
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


_OP_LABEL, _OP_FUNCTION, _OP_FUNCTION_END = 248, 54, 56
_OP_DECORATE, _OP_MEMBER_DECORATE, _OP_DECORATE_ID, _OP_DECORATE_STRING = 71, 72, 332, 5632
_OP_VARIABLE, _OP_TYPE_POINTER, _OP_CONSTANT = 59, 32, 43
# StorageClass: UniformConstant, Input, Uniform, Output, Workgroup, CrossWorkgroup, Private,
# Function, PushConstant, Image, StorageBuffer, PhysicalStorageBuffer
STORAGE_CLASSES = (0, 1, 2, 3, 4, 5, 6, 7, 9, 11, 12, 5349)
# Scope: CrossDevice .. QueueFamily, ShaderCallKHR; and out of range
SCOPES = (0, 1, 2, 3, 4, 5, 6, 7, 99)
# MemorySemantics bits and some combinations (Acquire 0x2 ... Volatile 0x8000)
SEMANTICS = (0, 0x2, 0x4, 0x8, 0x10, 0x40, 0x80, 0x100, 0x200, 0x800, 0x1000, 0x2000, 0x4000,
             0x8000, 0x48, 0x108, 0x148, 0x102, 0x44, 0x6, 0x2108, 0x4108, 0x6108, 0x8048,
             0x10 | 0x100, 0xFFFFFFFF)
# Decoration kinds a seed's decorations are changed to
DECORATIONS = (0, 1, 2, 3, 4, 5, 6, 7, 11, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
               26, 30, 31, 33, 34, 35, 36, 5300)
DECORATION_LITERALS = (0, 1, 2, 3, 4, 8, 12, 16, 31, 32, 34, 63, 64, 4096, 0x7FFFFFFF,
                       0xFFFFFFFF)


def _is_decoration(w: list[int]) -> bool:
    return (w[0] & 0xFFFF) in (_OP_DECORATE, _OP_MEMBER_DECORATE, _OP_DECORATE_ID,
                               _OP_DECORATE_STRING)


def _structured_mutant(k: int, cur: list[list[int]], rng: random.Random,
                       other: bytes | None) -> tuple[str, bytes]:
    """The structure-aware operators of `spirv_mutant` (k in 0..10); an operator with no
    place to apply in this module falls back to an instruction swap."""
    from radcc.frontend.spirv import grammar

    n = len(cur)
    ops = [w[0] & 0xFFFF for w in cur]
    label = ""
    if k == 1:  # an instruction of a function body moved into another block
        labels = [i for i in range(1, n) if ops[i] == _OP_LABEL]
        body = [i for i in range(1, n) if ops[i] not in (_OP_LABEL, _OP_FUNCTION,
                                                         _OP_FUNCTION_END, 55)
                and any(lb < i for lb in labels)]
        if len(labels) > 1 and body:
            j = rng.choice(body)
            w = cur.pop(j)
            dst = rng.choice([i for i in range(1, len(cur)) if cur[i][0] & 0xFFFF == _OP_LABEL])
            # after the label (and its OpPhis/OpVariables), or before the block's end
            p = dst + 1 if rng.random() < 0.5 else _block_end(cur, dst)
            cur.insert(p, w)
            label = f"to-block#{j}->{p}"
    elif k == 2:  # a type id replaced by another type id
        types = [w[1] for i, w in enumerate(cur[1:], 1)
                 if (info := grammar.instruction(ops[i])) is not None
                 and info.klass == "Type-Declaration" and len(w) > 1]
        tset = set(types)
        sites = [(i, p) for i in range(1, n) for p in range(1, len(cur[i]))
                 if cur[i][p] in tset and not (p == 1 and cur[i][p] in types
                                               and grammar.instruction(ops[i]) is not None
                                               and grammar.instruction(ops[i]).klass
                                               == "Type-Declaration")]
        if len(tset) > 1 and sites:
            i, p = rng.choice(sites)
            cur[i][p] = rng.choice([t for t in types if t != cur[i][p]])
            label = f"type#{i}.{p}={cur[i][p]}"
    elif k == 3:  # a decoration's literal or kind changed
        decs = [i for i in range(1, n) if ops[i] in (_OP_DECORATE, _OP_MEMBER_DECORATE)]
        if decs:
            i = rng.choice(decs)
            w = cur[i]
            kind_at = 2 if ops[i] == _OP_DECORATE else 3
            if len(w) > kind_at + 1 and rng.random() < 0.7:
                p = rng.randrange(kind_at + 1, len(w))
                v = w[p]
                w[p] = rng.choice(DECORATION_LITERALS + (v + 1, v - 1 & 0xFFFFFFFF, v * 2
                                                         & 0xFFFFFFFF, v + 4, v + 2))
                label = f"dec-literal#{i}.{p}={w[p]}"
            elif len(w) > kind_at:
                w[kind_at] = rng.choice(DECORATIONS)
                label = f"dec-kind#{i}={w[kind_at]}"
    elif k == 4:  # an instruction's word count changed, its words left
        j = rng.randrange(1, n)
        wc = cur[j][0] >> 16
        nwc = rng.choice((0, 1, wc - 1, wc + 1, wc + 2, 0xFFFF)) & 0xFFFF
        cur[j][0] = (nwc << 16) | ops[j]
        label = f"word-count#{j}={nwc}"
    elif k == 5 and other is not None:  # pieces of another module spliced in
        oth = _spirv_split(other)
        if oth is not None and len(oth) > 1:
            if rng.random() < 0.5:
                w = list(rng.choice(oth[1:]))
                p = rng.randrange(1, n + 1)
                cur.insert(p, w)
                label = f"splice-one@{p}"
            else:  # this module's head, the other's functions (or the reverse cut)
                a = next((i for i in range(1, n) if ops[i] == _OP_FUNCTION), n)
                ob = [w[0] & 0xFFFF for w in oth]
                b = next((i for i in range(1, len(oth)) if ob[i] == _OP_FUNCTION), len(oth))
                if rng.random() < 0.5:
                    a, b = rng.randrange(1, n + 1), rng.randrange(1, len(oth) + 1)
                cur = cur[:a] + [list(w) for w in oth[b:]]
                label = f"splice@{a},{b}"
            cur[0][3] = max(cur[0][3], oth[0][3])  # the id bound covers both
    elif k == 6:  # an OpDecorate/OpMemberDecorate duplicated or removed
        decs = [i for i in range(1, n) if _is_decoration(cur[i])]
        if decs:
            i = rng.choice(decs)
            if rng.random() < 0.5:
                del cur[i]
                label = f"dec-remove#{i}"
            else:
                w = list(cur[i])
                if rng.random() < 0.3:  # onto another id
                    ids = [r for x in cur[1:] if (r := _result_id(x)) is not None]
                    if ids:
                        w[1] = rng.choice(ids)
                cur.insert(rng.choice((i, i + 1, rng.randrange(1, n + 1))), w)
                label = f"dec-dup#{i}"
    elif k == 7:  # a storage class changed (a variable's or a pointer type's)
        sites = [(i, 3) for i in range(1, n) if ops[i] == _OP_VARIABLE and len(cur[i]) > 3]
        sites += [(i, 2) for i in range(1, n) if ops[i] == _OP_TYPE_POINTER and len(cur[i]) > 2]
        if sites:
            i, p = rng.choice(sites)
            cur[i][p] = rng.choice(STORAGE_CLASSES)
            label = f"storage#{i}={cur[i][p]}"
    elif k in (8, 9):  # a scope or memory-semantics operand: its constant or another id
        sites = _scope_sites(cur)
        if sites:
            i, p, kind = rng.choice(sites)
            const = {w[2]: idx for idx, w in enumerate(cur) if idx and (w[0] & 0xFFFF)
                     == _OP_CONSTANT and len(w) == 4}
            values = SCOPES if kind == "IdScope" else SEMANTICS
            if k == 8 and cur[i][p] in const:
                c = const[cur[i][p]]
                cur[c][3] = rng.choice(values)
                label = f"{kind}-value#{c}={cur[c][3]:#x}"
            elif const:
                cur[i][p] = rng.choice(sorted(const))
                label = f"{kind}-id#{i}.{p}={cur[i][p]}"
    elif k == 10:  # a new constant for a scope/semantics operand
        sites = _scope_sites(cur)
        u32 = next((w[1] for idx, w in enumerate(cur) if idx and (w[0] & 0xFFFF) == 21
                    and len(w) == 4 and w[2] == 32), None)
        if sites and u32 is not None:
            i, p, kind = rng.choice(sites)
            new_id = cur[0][3]
            cur[0][3] += 1
            values = SCOPES if kind == "IdScope" else SEMANTICS
            first_fn = next((x for x in range(1, n) if ops[x] == _OP_FUNCTION), n)
            cur.insert(first_fn, [(4 << 16) | _OP_CONSTANT, u32, new_id, rng.choice(values)])
            cur[i + (1 if first_fn <= i else 0)][p] = new_id
            label = f"{kind}-new#{i}.{p}"
    if not label:  # k == 0, or nowhere to apply: two instructions swapped
        i, j = rng.randrange(1, n), rng.randrange(1, n)
        if rng.random() < 0.5:
            j = min(n - 1, i + 1)
        cur[i], cur[j] = cur[j], cur[i]
        label = f"swap-ins#{i},{j}"
    return label, _spirv_join(cur)


def _block_end(cur: list[list[int]], lab: int) -> int:
    """The index of the terminator's position of the block whose OpLabel is at `lab`."""
    i = lab + 1
    while i < len(cur) and cur[i][0] & 0xFFFF not in (_OP_LABEL, _OP_FUNCTION_END):
        i += 1
    return max(lab + 1, i - 1)


def _scope_sites(cur: list[list[int]]) -> list[tuple[int, int, str]]:
    """(instruction, word, kind) of every IdScope/IdMemorySemantics operand (the fixed
    operands before the first optional one)."""
    from radcc.frontend.spirv import grammar

    out = []
    for i in range(1, len(cur)):
        info = grammar.instruction(cur[i][0] & 0xFFFF)
        if info is None:
            continue
        for p, o in enumerate(info.operands, 1):
            if o.quantifier:
                break
            if o.kind in ("IdScope", "IdMemorySemantics") and p < len(cur[i]):
                out.append((i, p, o.kind))
    return out


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
            label, m = spirv_mutant(s, rng, rng.choice(seeds))
            if rng.random() < 0.2:
                label2, m = spirv_mutant(m, rng, rng.choice(seeds))
                label += "+" + label2
        elif reader.name != "spirv" and rng.random() < 0.5 and (
                st := structured_mutant(reader.name, s, rng)) is not None:
            label, m = st
            if rng.random() < 0.2:
                label2, m = structured_mutant(reader.name, m, rng) or ("", m)
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


def _run_oracle_spirv_val(module: bytes, env: str,
                          f: Path) -> subprocess.CompletedProcess[str]:
    """The --diff oracle's spirv-val on `module`, written to `f`, for target environment
    `env` (with --scalar-block-layout, as radcc's layouts allow)."""
    f.write_bytes(module)
    return subprocess.run([ORACLE_SPIRV_VAL[0], "--target-env", env, "--scalar-block-layout",
                           str(f)], capture_output=True, text=True, errors="replace")


def oracle_message(data: bytes, scratch: Path) -> str:
    """spirv-val's first error line for a module (the environment its version gives)."""
    r = _run_oracle_spirv_val(data, _spirv_env(data), scratch / "oracle.spv")
    return (r.stdout + r.stderr).strip().split("\n")[0][:200]


# the rules radcc warns about instead of enforcing, as spirv-val names them: storage-class
# semantics without an order (spirv_val.RELAXED_RULE) and a PhysicalStorageBuffer access
# Aligned below the 8 bytes of a pointer it loads or stores (validate.memory_access)
ALIGNED_RULE = "VUID-StandaloneSpirv-PhysicalStorageBuffer64-06314"


def _warned_sites(data: bytes, rule: str
                  ) -> tuple[SpirvModule, str, list[int], set[int]] | None:
    """SPIR-V `data` read (its module, byte order for `struct`, words) and the word offsets
    of the instructions radcc's validation warns about for `rule`; None when there is no
    such warning (or radcc rejects the module)."""
    from radcc.frontend.spirv import SpirvError, read_spirv
    from radcc.frontend.spirv.validate import validate_module

    try:
        module = read_spirv(data)
        warnings = validate_module(module)
    except SpirvError:
        return None
    sites = {w.word_offset for w in warnings if rule in w.message}
    if not sites:
        return None
    fmt = ">" if module.header.big_endian else "<"
    words = list(struct.unpack(f"{fmt}{len(data) // 4}I", data[:len(data) // 4 * 4]))
    return module, fmt, words, sites


def relax_pointer_alignment(data: bytes) -> bytes | None:
    """A copy of SPIR-V `data` in which every memory operand Aligned below 8 of each
    instruction radcc warns about for -06314 (a pointer in PhysicalStorageBuffer memory)
    says Aligned 8; None when radcc gives no such warning (or rejects the module)."""
    warned = _warned_sites(data, ALIGNED_RULE)
    if warned is None:
        return None
    module, fmt, words, sites = warned
    for ins in module.instructions:
        if ins.offset not in sites:
            continue
        pos = ins.offset + 1 + (ins.result_type is not None) + (ins.result_id is not None)
        for o in ins.operands:
            # Aligned is the first parameter of a MemoryAccess mask (bit 0x2, the lowest
            # bit with one: SPIR-V spec 3.26)
            if o.kind == "MemoryAccess" and int(o.value) & 2 and words[pos + 1] < 8:
                words[pos + 1] = 8
            pos += o.words + sum(q.words for q in o.params)
    return struct.pack(f"{fmt}{len(words)}I", *words) + data[len(data) // 4 * 4:]


# VUID-StandaloneSpirv-None-10684 for an ArrayStride on the array type of a Function or
# Private variable (validate._no_explicit_layout warns: glslang's local copies of 16-bit
# buffer arrays)
STRIDE_RULE = "VUID-StandaloneSpirv-None-10684"


def drop_local_array_strides(data: bytes) -> bytes | None:
    """A copy of SPIR-V `data` without the ArrayStride decorations of the types radcc warns
    about for -10684 (a Function or Private variable's array type); None when radcc gives
    no such warning (or rejects the module)."""
    warned = _warned_sites(data, STRIDE_RULE)
    if warned is None:
        return None
    module, fmt, words, sites = warned
    arrays: set[int] = set()
    for ins in module.instructions:
        if ins.offset in sites and ins.result_type is not None:
            pointer = module.defs.get(ins.result_type)
            if pointer is not None and len(pointer.operands) == 2:
                arrays.add(int(pointer.operands[1].value))
    from radcc.frontend.spirv.grammar import enum_value

    array_stride = enum_value("Decoration", "ArrayStride")
    out = words[:5]
    for ins in module.instructions:
        n = words[ins.offset] >> 16
        if not (ins.opname == "OpDecorate" and int(ins.operands[0].value) in arrays
                and ins.operands[1].value == array_stride):
            out += words[ins.offset:ins.offset + n]
    return struct.pack(f"{fmt}{len(out)}I", *out)


def _relaxed_rules(data: bytes, scratch: Path) -> tuple[str, ...]:
    """The rules radcc only warns about (`RELAXED_RULE`, `SAME_TYPE_CONVERT`,
    `ALIGNED_RULE`, `STRIDE_RULE`) whose relaxed copy of the module
    (`relax_storage_semantics`, `same_type_converts_as_copies`, then
    `relax_pointer_alignment` and `drop_local_array_strides`) spirv-val accepts; () when
    there is none or spirv-val still rejects it."""
    from radcc.frontend.spirv import SpirvError, read_spirv
    from radcc.frontend.spirv.spirv_val import (
        RELAXED_RULE,
        SAME_TYPE_CONVERT,
        relax_storage_semantics,
        same_type_converts_as_copies,
    )

    rules: list[str] = []
    try:
        module = read_spirv(data)
        copies = same_type_converts_as_copies(module, data)
        if copies is not None:
            data = copies
            rules.append(SAME_TYPE_CONVERT)
        relaxed = relax_storage_semantics(module, data)
    except SpirvError:
        return ()
    if relaxed is not None:
        data = relaxed[0]
        rules.append(RELAXED_RULE)
    for rule, relax in ((ALIGNED_RULE, relax_pointer_alignment),
                        (STRIDE_RULE, drop_local_array_strides)):
        changed = relax(data)
        if changed is not None:
            data = changed
            rules.append(rule)
    if not rules or _run_oracle_spirv_val(data, _spirv_env(data),
                                          scratch / "oracle-relaxed.spv").returncode != 0:
        return ()
    return tuple(rules)


def silent_acceptance(data: bytes, scratch: Path, stderr: str) -> str | None:
    """Why radcc's acceptance of SPIR-V `data` (its `stderr`) is a silent acceptance of an
    invalid module, keyed by spirv-val's message (None: it is not one). A module valid
    but for rules radcc warns about counts only when a warning naming each is missing."""
    verdict = oracle_status("spirv", data, scratch)
    if verdict == RELAXED:
        missing = [r for r in _relaxed_rules(data, scratch)
                   if not re.search(rf"warning: .*{r}", stderr)]
        return f"silent acceptance: no {missing[0]} warning: " \
            f"{oracle_message(data, scratch)}" if missing else None
    if verdict == 1:
        return f"silent acceptance: spirv-val: {oracle_message(data, scratch)}"
    return None


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


# oracle_status of a SPIR-V module that spirv-val rejects only for rules radcc warns about:
# VUID-StandaloneSpirv-MemorySemantics-10871 (storage-class semantics without an order;
# radcc.frontend.spirv.spirv_val's docstring), an OpFConvert to its operand's own type
# (same docstring), -06314 for a pointer in PhysicalStorageBuffer memory accessed Aligned
# 4 (validate.memory_access) and -10684 for an ArrayStride on a Function or Private
# variable's array type (validate._no_explicit_layout): radcc accepts it with a located
# warning naming the rule, so an acceptance counts as silent only without that warning
RELAXED = 2


def oracle_status(name: str, data: bytes, scratch: Path) -> int | None:
    """1 if the independent tool rejects `data` for reader `name`, else 0 (None: no
    oracle; `RELAXED`: a SPIR-V module valid but for the rules radcc warns about). llvm-mc-19 for
    assembly/objects (error) and disassembly (a warning counts as 0: radcc mc prints the
    same warning and still exits 0; an error counts as 1 though llvm-mc-19 exits 0 after
    "invalid input token" in the byte list, where radcc exits 1); spirv-val
    for SPIR-V (a module it rejects for one of those rules is checked again as
    `_relaxed_rules` makes it valid for those rules)."""
    f = scratch / f"oracle{READERS[name].suffix}"
    if name == "spirv":
        from radcc.frontend.spirv.spirv_val import (
            NEWER_CAPABILITIES,
            RELAXED_RULE,
            SAME_TYPE_COMPLAINTS,
        )

        r = _run_oracle_spirv_val(data, _spirv_env(data), f)
        if r.returncode == 0:
            return 0
        m = re.search(r"Invalid capability operand: (\d+)", r.stdout + r.stderr)
        if m is not None and int(m.group(1)) in NEWER_CAPABILITIES:
            return None  # this spirv-val predates the module's extension: no verdict
        text = r.stdout + r.stderr
        if any(rule in text for rule in (RELAXED_RULE, ALIGNED_RULE, STRIDE_RULE,
                                         *SAME_TYPE_COMPLAINTS)) \
                and _relaxed_rules(data, scratch):
            return RELAXED
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
    f.write_bytes(data)
    try:
        r = subprocess.run([*cmd, str(f)], capture_output=True, timeout=20)
    except subprocess.TimeoutExpired:  # llvm-mc itself can hang on some mutants
        return None
    if kind == "dis" and b"error:" in r.stderr:
        return 1  # llvm-mc-19 reports a bad byte list ("invalid input token") but exits 0
    return 0 if r.returncode == 0 else 1
