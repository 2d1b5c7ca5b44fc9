"""A small SPIR-V assembler for tests: the text radcc's disassembler prints
(`radcc.frontend.spirv.disasm`, spirv-dis's form with numeric ids) back to words,
driven by radcc's grammar table (`radcc.frontend.spirv.grammar`).

For modules the installed tools cannot build: Debian 12's glslang 12 and spirv-as
2023.1 predate SPV_KHR_cooperative_matrix, so the cooperative-matrix tests keep their
shaders as this text (made once from GLSL by a newer glslang, the GLSL beside it).
`assemble(text)` handles what the disassembler prints: ``%N = OpName operands`` and
``OpName operands`` lines, ``;`` comments (``; Version: 1.6`` sets the header's
version), ids, integer/float literals (typed by OpConstant's result type), strings,
enumerants with their parameters and ``|``-joined masks, spec-constant opcodes and
extended-instruction names.
"""

from __future__ import annotations

import re
import shlex
import struct

from radcc.frontend.spirv import grammar

MAGIC = 0x07230203
_ID = re.compile(r"^%(\d+)$")


def _string_words(s: str) -> list[int]:
    b = s.encode() + b"\0"
    b += b"\0" * (-len(b) % 4)
    return list(struct.unpack(f"<{len(b) // 4}I", b))


class _Asm:
    def __init__(self) -> None:
        self.types: dict[int, tuple[str, int, bool]] = {}  # id -> (kind, width, signed)
        self.ext: dict[int, str] = {}
        self.bound = 1

    def id(self, tok: str) -> int:
        m = _ID.match(tok)
        if m is None:
            raise ValueError(f"expected an id, got {tok!r}")
        n = int(m.group(1))
        self.bound = max(self.bound, n + 1)
        return n

    def number(self, tok: str, tid: int | None) -> list[int]:
        kind, width, _ = self.types.get(tid or -1, ("int", 32, False))
        if kind == "float":
            v = float.fromhex(tok) if "0x" in tok.lower() else float(tok)
            if width == 16:
                return [struct.unpack("<H", struct.pack("<e", v))[0]]
            if width == 64:
                lo, hi = struct.unpack("<II", struct.pack("<d", v))
                return [lo, hi]
            return [struct.unpack("<I", struct.pack("<f", v))[0]]
        v = int(tok, 0)
        if width == 64:
            v &= (1 << 64) - 1
            return [v & 0xFFFFFFFF, v >> 32]
        return [v & 0xFFFFFFFF]

    def operand(self, kind: str, toks: list[str], op: str, rtype: int | None,
                words: list[int]) -> None:
        cat = grammar.category(kind)
        if cat == "Id":
            words.append(self.id(toks.pop(0)))
        elif cat == "Composite":
            for b in grammar.bases(kind):
                self.operand(b, toks, op, rtype, words)
        elif cat in ("ValueEnum", "BitEnum"):
            names = toks.pop(0).split("|")
            value = 0
            params: list[str] = []
            for n in names:
                v = int(n, 0) if n[0].isdigit() else grammar.enum_value(kind, n)
                value |= v
                e = grammar.enumerant(kind, v)
                if e is not None:
                    params += list(e.parameters)
            words.append(value)
            for p in params:
                self.operand(p, toks, op, rtype, words)
        elif kind == "LiteralString":
            words += _string_words(toks.pop(0))
        elif kind == "LiteralContextDependentNumber":
            words += self.number(toks.pop(0), rtype)
        elif kind == "LiteralSpecConstantOpInteger":
            t = toks.pop(0)
            words.append(int(t) if t.isdigit() else grammar.opcode("Op" + t))
        elif kind == "LiteralExtInstInteger":
            t = toks.pop(0)
            if t.isdigit():
                words.append(int(t))
            else:
                words.append(self.ext_number(t))
        else:
            words.append(int(toks.pop(0), 0) & 0xFFFFFFFF)

    def ext_number(self, name: str) -> int:
        for set_name in self.ext.values():
            for n in range(0, 512):
                row = grammar.ext_instruction(set_name, n)
                if row is not None and row[0] == name:
                    return n
        raise ValueError(f"unknown extended instruction {name}")

    def line(self, text: str) -> list[int]:
        toks = shlex.split(text, posix=True)
        result = None
        if len(toks) > 2 and toks[1] == "=":
            result = self.id(toks[0])
            toks = toks[2:]
        opname = toks.pop(0)
        info = grammar.instruction(grammar.opcode(opname))
        assert info is not None, opname
        words: list[int] = []
        rtype: int | None = None
        for spec in info.operands:
            kind, quant = spec.kind, spec.quantifier
            if kind == "IdResult":
                assert result is not None, text
                words.append(result)
                continue
            if quant == "?" and not toks:
                continue
            if quant == "*":
                while toks:
                    self.operand(kind, toks, opname, rtype, words)
                continue
            if kind == "IdResultType":
                rtype = self.id(toks[0])
            self.operand(kind, toks, opname, rtype, words)
        if opname == "OpSpecConstantOp":  # the operation's own operands: ids and literals
            words += [self.id(t) if t.startswith("%") else int(t, 0) & 0xFFFFFFFF
                      for t in toks]
            toks = []
        if toks:
            raise ValueError(f"left over operands {toks} in {text!r}")
        if opname == "OpTypeInt":
            self.types[result or 0] = ("int", words[1], bool(words[2]))
        elif opname == "OpTypeFloat":
            self.types[result or 0] = ("float", words[1], True)
        elif opname == "OpExtInstImport":
            self.ext[result or 0] = toks_str(text)
        return [(len(words) + 1) << 16 | grammar.opcode(opname), *words]


def toks_str(text: str) -> str:
    return shlex.split(text)[-1]


def assemble(text: str) -> bytes:
    """The module `text` describes (module docstring)."""
    a = _Asm()
    version = (1, 6)
    body: list[int] = []
    for raw in text.splitlines():
        s = raw.strip()
        if s.startswith(";"):
            m = re.match(r";\s*Version:\s*(\d+)\.(\d+)", s)
            if m:
                version = (int(m.group(1)), int(m.group(2)))
            continue
        if s:
            body += a.line(s)
    header = [MAGIC, version[0] << 16 | version[1] << 8, 0, a.bound, 0]
    return struct.pack(f"<{len(header) + len(body)}I", *header, *body)


__all__ = ["assemble"]
