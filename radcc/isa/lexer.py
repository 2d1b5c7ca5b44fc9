"""Tokenizer for LLVM AMDGPU assembly lines.

Columns are 1-based like llvm-mc's diagnostics. Comments start with ``;``,
``//`` or ``#`` (a ``#`` only at the start of a statement, as llvm-mc's
AMDGPU preprocessor-style lines).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from radcc.isa.errors import AsmError

# Token kinds
IDENT = "ident"
INT = "int"
FLOAT = "float"
STRING = "string"
PUNCT = "punct"
EOL = "eol"

_TOKEN_RE = re.compile(
    r"""
    (?P<ws>[ \t\r\f\v]+)
  | (?P<comment>;.*|//.*)
  | (?P<float>(?:\d+\.\d*|\.\d+(?!byte\b))(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)
  | (?P<int>0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|\d+)
  | (?P<ident>[A-Za-z_.$@][A-Za-z0-9_.$@]*)
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<punct>::|<<|>>|&&|\|\||==|!=|<=|>=|[,:\[\]()|\-+*/&~!<>=%^{}])
    """,
    re.VERBOSE,
)


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    text: str
    col: int  # 1-based column of the first character

    @property
    def value(self) -> int | float | str:
        if self.kind == INT:
            return _parse_int(self.text)
        if self.kind == FLOAT:
            return float(self.text)
        if self.kind == STRING:
            return bytes(self.text[1:-1], "utf-8").decode("unicode_escape")
        return self.text

    def is_punct(self, p: str) -> bool:
        return self.kind == PUNCT and self.text == p

    def is_ident(self, name: str | None = None) -> bool:
        return self.kind == IDENT and (name is None or self.text.lower() == name)


def _parse_int(text: str) -> int:
    t = text.lower()
    if t.startswith("0x"):
        return int(t[2:], 16)
    if t.startswith("0b"):
        return int(t[2:], 2)
    if t.startswith("0o"):
        return int(t[2:], 8)
    return int(t, 10)


def strip_comment(line: str) -> str:
    """The line without its trailing comment (string literals respected)."""
    in_str = False
    i = 0
    n = len(line)
    while i < n:
        c = line[i]
        if in_str:
            if c == "\\":
                i += 2
                continue
            if c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c == ";" or (c == "/" and i + 1 < n and line[i + 1] == "/"):
            return line[:i]
        i += 1
    return line


def tokenize(line: str) -> list[Token]:
    """Split one logical line into tokens, ending with an EOL token.

    Raises AsmError (with the column) on a character that starts no token.
    """
    toks: list[Token] = []
    pos = 0
    n = len(line)
    stripped = line.lstrip()
    if stripped.startswith("#"):
        return [Token(EOL, "", len(line) + 1)]
    while pos < n:
        m = _TOKEN_RE.match(line, pos)
        if not m:
            raise AsmError(f"unexpected character '{line[pos]}'", pos + 1)
        kind = m.lastgroup
        text = m.group()
        if kind == "comment":
            break
        if kind != "ws":
            assert kind is not None
            toks.append(Token(kind, text, pos + 1))
        pos = m.end()
    toks.append(Token(EOL, "", n + 1))
    return toks
