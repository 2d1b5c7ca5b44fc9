"""Tokenizer for LLVM AMDGPU assembly lines.

Columns are 1-based like llvm-mc's diagnostics. Comments start with ``;``,
``//`` or ``#`` (a ``#`` only at the start of a statement, as llvm-mc's
AMDGPU preprocessor-style lines). A NUL character separates tokens as a blank
does (LLVM's AsmLexer lexes it as whitespace). Numbers as LLVM's AsmLexer reads
them: a leading 0 makes an integer octal (``010`` is 8, ``08`` an invalid octal
number, ``00.5`` the integer 0 and then ``.5``), only a number starting 1-9 has an
exponent without a point (``0e1`` is 0 and then ``e1``); no ``0o`` prefix.
"""

from __future__ import annotations

import re

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
    (?P<ws>[ \t\r\f\v\x00]+)
  | (?P<comment>;.*|//.*)
  | (?P<float>(?:(?:0|[1-9]\d*)\.\d*|\.\d+(?![bB][yY][tT][eE]\b))(?:[eE][+-]?\d+)?|[1-9]\d*[eE][+-]?\d+)
  | (?P<int>0[xX][0-9a-fA-F]+|0[bB][01]+|0\d*|[1-9]\d*)
  | (?P<ident>[A-Za-z_.$@][A-Za-z0-9_.$@]*)
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<punct>::|<<|>>|&&|\|\||==|!=|<=|>=|[,:\[\]()|\-+*/&~!<>=%^{}])
    """,
    re.VERBOSE,
)


class Token:
    """One token: `kind` (IDENT, INT, …), `text`, 1-based column `col`.

    A plain slotted class (not a frozen dataclass): the assembler makes
    millions of these, and construction cost dominates tokenizing.
    """

    __slots__ = ("kind", "text", "col")

    def __init__(self, kind: str, text: str, col: int) -> None:
        self.kind = kind
        self.text = text
        self.col = col

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Token) and self.kind == other.kind
                and self.text == other.text and self.col == other.col)

    def __hash__(self) -> int:
        return hash((self.kind, self.text, self.col))

    def __repr__(self) -> str:
        return f"Token({self.kind!r}, {self.text!r}, {self.col})"

    @property
    def value(self) -> int | float | str:
        if self.kind == INT:
            return _parse_int(self.text)
        if self.kind == FLOAT:
            return float(self.text)
        if self.kind == STRING:
            return _unescape(self.text[1:-1], self.col)
        return self.text

    def is_punct(self, p: str) -> bool:
        return self.kind == PUNCT and self.text == p

    def is_ident(self, name: str | None = None) -> bool:
        return self.kind == IDENT and (name is None or self.text == name)


_ESCAPES = {"b": 8, "f": 12, "n": 10, "r": 13, "t": 9, '"': 34, "\\": 92}


def _unescape(body: str, col: int) -> str:
    """A string literal's bytes (one character per byte, as Latin-1), escapes read as
    LLVM's AsmParser::parseEscapedString reads them: \\b \\f \\n \\r \\t \\" \\\\,
    up to three octal digits, \\x and its hexadecimal digits (the low byte kept);
    anything else after a backslash is an error at the string's column."""
    raw = body.encode("utf-8", "surrogateescape")
    if b"\\" not in raw:
        return raw.decode("latin-1")
    out = bytearray()
    i = 0
    while i < len(raw):
        c = raw[i]
        i += 1
        if c != 0x5C:
            out.append(c)
            continue
        if i >= len(raw):
            raise AsmError("unexpected backslash at end of string", col)
        e = chr(raw[i])
        if e == "x" or e == "X":
            j = i + 1
            while j < len(raw) and chr(raw[j]) in "0123456789abcdefABCDEF":
                j += 1
            if j == i + 1:
                raise AsmError("invalid hexadecimal escape sequence", col)
            out.append(int(raw[i + 1:j], 16) & 0xFF)
            i = j
        elif "0" <= e <= "7":
            j = i
            while j < len(raw) and j < i + 3 and "0" <= chr(raw[j]) <= "7":
                j += 1
            v = int(raw[i:j], 8)
            if v > 0xFF:
                raise AsmError("invalid octal escape sequence (out of range)", col)
            out.append(v)
            i = j
        elif e in _ESCAPES:
            out.append(_ESCAPES[e])
            i += 1
        else:
            raise AsmError("invalid escape sequence (unrecognized character)", col)
    return out.decode("latin-1")


def _parse_int(text: str) -> int:
    v = _INT_TEXTS.get(text)
    if v is None:
        v = _parse_int_text(text)
        if len(_INT_TEXTS) < 20_000:
            _INT_TEXTS[text] = v
    return v


_INT_TEXTS: dict[str, int] = {}  # integer token text -> value (texts repeat a lot)


def _parse_int_text(text: str) -> int:
    t = text.lower()
    if t.startswith("0x"):
        return int(t[2:], 16)
    if t.startswith("0b"):
        return int(t[2:], 2)
    if t[0] == "0" and len(t) > 1:
        return int(t, 8)  # a leading 0: octal, as LLVM's AsmLexer (08 is invalid)
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


_KINDS = (None, "ws", "comment", FLOAT, INT, IDENT, STRING, PUNCT)


# The same alternatives as _TOKEN_RE without groups: `findall` returns the token
# strings (whitespace and comments included) in one C call; each string's kind
# is looked up in a cache keyed by the text (a token's kind depends on its text
# alone). A line with a character that starts no token falls back to the
# scanning loop, which reports it.
_SPLIT_RE = re.compile(
    r"[ \t\r\f\v\x00]+|;.*|//.*"
    r"|(?:(?:0|[1-9]\d*)\.\d*|\.\d+(?![bB][yY][tT][eE]\b))(?:[eE][+-]?\d+)?|[1-9]\d*[eE][+-]?\d+"
    r"|0[xX][0-9a-fA-F]+|0[bB][01]+|0\d*|[1-9]\d*"
    r"|[A-Za-z_.$@][A-Za-z0-9_.$@]*"
    r'|"(?:[^"\\]|\\.)*"'
    r"|::|<<|>>|&&|\|\||==|!=|<=|>=|[,:\[\]()|\-+*/&~!<>=%^{}]"
)
_WS = "ws"
_COMMENT = "comment"
_BAD_OCTAL = "bad octal"  # a leading 0 (octal) with an 8 or 9: LLVM's "invalid octal number"
_BAD_OCTAL_RE = re.compile(r"0\d*[89]\d*")
_KIND_OF: dict[str, str] = {}


def _kind_of(text: str) -> str | None:
    m = _TOKEN_RE.match(text)
    if m is None or m.end() != len(text):
        return None
    k = _KINDS[m.lastindex]  # type: ignore[index]
    if k == INT and _BAD_OCTAL_RE.fullmatch(text):
        k = _BAD_OCTAL
    if len(_KIND_OF) < 50_000:
        _KIND_OF[text] = k  # type: ignore[assignment]
    return k


def tokenize(line: str) -> list[Token]:
    """Split one logical line into tokens, ending with an EOL token.

    Raises AsmError (with the column) on a character that starts no token.
    """
    n = len(line)
    if line.lstrip().startswith("#"):
        return [Token(EOL, "", n + 1)]
    toks: list[Token] = []
    append = toks.append
    get = _KIND_OF.get
    col = 1
    for text in _SPLIT_RE.findall(line):
        k = get(text) or _kind_of(text)
        if k is None:
            return _tokenize_scan(line)
        if k == _WS:
            col += len(text)
            continue
        if k == _COMMENT:
            col += len(text)
            break
        if k == _BAD_OCTAL:
            raise AsmError("invalid octal number", col)
        append(Token(k, text, col))
        col += len(text)
    if col != n + 1:  # findall skipped something: let the scanner report it
        return _tokenize_scan(line)
    append(Token(EOL, "", n + 1))
    return toks


def _tokenize_scan(line: str) -> list[Token]:
    toks: list[Token] = []
    n = len(line)
    pos = 0
    kinds = _KINDS
    append = toks.append
    for m in _TOKEN_RE.finditer(line):
        start = m.start()
        if start != pos:
            break
        idx = m.lastindex
        if idx == 2:  # comment
            pos = n
            break
        pos = m.end()
        if idx != 1:
            if kinds[idx] == INT and _BAD_OCTAL_RE.fullmatch(m.group()):
                raise AsmError("invalid octal number", start + 1)
            append(Token(kinds[idx], m.group(), start + 1))  # type: ignore[arg-type]
    if pos < n:
        if line[pos] == "'":  # llvm-mc-19 reads 'a' as the integer 97 (seed 129's finding)
            raise AsmError("character literals ('a') are not supported", pos + 1)
        raise AsmError(f"unexpected character '{line[pos]}'", pos + 1)
    append(Token(EOL, "", n + 1))
    return toks
