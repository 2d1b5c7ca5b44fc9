"""A small YAML reader and LLVM-style printer for AMDGPU metadata.

The reader covers the block form LLVM prints between `.amdgpu_metadata` and
`.end_amdgpu_metadata` (and `llvm-readelf --notes` shows): block maps, block
lists (`- `), plain/'single'/"double" quoted scalars, `!str`/`!int`/`!bool`
tags, flow lists `[ 1, 2 ]` and flow maps `{ a: 1 }`, `#` comments, `---` and
`...` markers; as llvm-mc-19, only the first document is read (nothing after its `...`
or a second `---`). Untagged scalars, quoted or not, are typed the way LLVM's
msgpack YAML reader types them: integer (auto radix: 0x, 0b, 0o, leading 0),
bool (including `y`/`n`/`on`/`off`...), float, else string; `key:` with no
value reads as [] and an empty scalar as None, as llvm-mc 19 does. LLVM's laxness is
kept where llvm-mc-19 gives the line a meaning: a map line without `: ` is a key whose
value is [] (`.name:)p`), a plain scalar goes on over the deeper lines right after it
(folded with blanks: `.name: p` then `  q` is 'p q'; `foo` then `  bar: 1` is
{'foo bar': 1}), an anchor `&a` on a scalar is ignored; an anchor on a collection or
nothing, an alias, a key starting with an indicator (`%`, `[`, `*`...) are refused as
llvm-mc-19 refuses them; a blank or comment line inside a folded scalar is a newline
there (`p`, `  q`, blank, `  r` is 'p q\nr'). Not done (refused): a deeper line after a
quoted value.

The printer reproduces LLVM's `yaml::Output` of a msgpack document: keys
sorted, values padded to column 16 after the key, nested lists indented by two,
quoting of strings only where needed and a `!str` tag for strings that would
read back as another type.
"""

from __future__ import annotations

import functools
import math
import re
from typing import Any

from radcc.codeobj.errors import CodeObjectError

__all__ = ["parse_yaml", "to_yaml", "scalar_from_plain"]

_TRUE = {"true", "True", "TRUE", "on", "On", "ON", "y", "Y", "yes", "Yes", "YES"}
_FALSE = {"false", "False", "FALSE", "off", "Off", "OFF", "n", "N", "no", "No", "NO"}
# What C's strtod accepts as a whole string (LLVM types such scalars as floats).
_STRTOD_RE = re.compile(
    r"[ \t\n\v\f\r]*[-+]?("
    r"(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?"
    r"|0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][-+]?\d+)?"
    r"|[iI][nN][fF]([iI][nN][iI][tT][yY])?"
    r"|[nN][aA][nN](\([0-9A-Za-z_]*\))?)")
# YAML 1.2 core-schema numbers (LLVM's yaml::isNumeric): such strings get quoted.
_NUMERIC_RE = re.compile(
    r"0o[0-7]+|0x[0-9a-fA-F]+|\.nan|\.NaN|\.NAN"
    r"|[-+]?(\.inf|\.Inf|\.INF|(\.\d+|\d+(\.\d*)?)([eE][-+]?\d+)?)")
_YAML_NULL = {"null", "Null", "NULL", "~"}
_YAML_BOOL = {"true", "True", "TRUE", "false", "False", "FALSE"}


def _parse_int(s: str) -> int | None:
    """StringRef::getAsInteger with auto radix: 0x, 0b, 0o, leading 0 (octal); '-' only."""
    neg = s.startswith("-")
    body = s[1:] if neg else s
    low = body.lower()
    if low.startswith("0x"):
        digits, base = body[2:], 16
    elif low.startswith("0b"):
        digits, base = body[2:], 2
    elif low.startswith("0o"):
        digits, base = body[2:], 8
    elif len(body) > 1 and body[0] == "0":
        digits, base = body[1:], 8
    else:
        digits, base = body, 10
    valid = "0123456789abcdef"[:base]
    if not digits or any(c not in valid for c in digits.lower()):
        return None
    val = int(digits, base)
    if neg:
        return -val if val <= 1 << 63 else None
    return val if val < 1 << 64 else None


def scalar_from_plain(s: str) -> Any:
    """Type an untagged scalar the way LLVM's msgpack YAML reader does.

    LLVM tries unsigned then signed integer, then bool (`y`/`n`/`on`/`off`...
    included), then float (whatever strtod takes); anything else is a string.
    Quoting does not change this in LLVM: `'12'` is the integer 12, a string
    needs the `!str` tag. (llvm-mc 19 itself stores floats as nil.)
    """
    n = _parse_int(s)
    if n is not None:
        return n
    if s in _TRUE:
        return True
    if s in _FALSE:
        return False
    if _STRTOD_RE.fullmatch(s):
        try:
            return float(s.strip().replace("infinity", "inf").replace("Infinity", "inf"))
        except ValueError:
            return float.fromhex(s.strip()) if "x" in s.lower() else math.nan
    return s


def _tagged(tag: str, text: str, quoted: bool, where: str) -> Any:
    if tag == "!str":
        return text
    if tag == "!int":
        n = _parse_int(text)
        if n is None:
            raise CodeObjectError(f"{where}: '{text}' is not an integer")
        return n
    if tag == "!bool":
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise CodeObjectError(f"{where}: '{text}' is not a boolean")
    if tag == "!float":
        try:
            return float(text)
        except ValueError:
            raise CodeObjectError(f"{where}: '{text}' is not a float") from None
    if tag == "!nil":
        return None
    if tag == "!!str":  # the core schema's str: LLVM's reader types it as an untagged value
        return scalar_from_plain(text)
    return text  # any other tag: LLVM's msgpack YAML reader keeps the text as a string


# indicators a block plain scalar cannot start with (YAML 1.2 7.3.3; llvm-mc's YAML
# parser rejects them: ',' '%' '@' '`' and the flow closers; anchors/aliases/block
# scalars are not supported here)
_RESERVED_FIRST = frozenset(",]}%@`&*|>")
# how deep lists and maps may nest (block or flow): the readers recurse, and the metadata
# llvm-mc writes nests 3 deep
MAX_NESTING = 100


class _Scanner:
    """Parses one inline value: scalar, quoted string, flow list or flow map."""

    def __init__(self, text: str, where: str) -> None:
        self.s = text
        self.i = 0
        self.where = where
        self.depth = 0  # flow collections open

    def err(self, msg: str) -> CodeObjectError:
        return CodeObjectError(f"{self.where}: {msg}")

    def ws(self) -> None:
        while self.i < len(self.s) and self.s[self.i] in " \t":
            self.i += 1

    def anchor(self) -> bool:
        """Skip an anchor `&name` (LLVM's msgpack reader ignores it); True if there was one."""
        if not self.s.startswith("&", self.i):
            return False
        j = self.i + 1
        while j < len(self.s) and self.s[j] not in " \t,[]{}":
            j += 1
        if j == self.i + 1:
            raise self.err("empty anchor")  # llvm-mc-19: "Got empty alias or anchor"
        self.i = j
        self.ws()
        return True

    def value(self, in_flow: bool) -> Any:
        self.ws()
        tag = None
        anchored = self.anchor()
        if self.s.startswith("!", self.i):
            j = self.i
            while j < len(self.s) and self.s[j] not in " \t":
                j += 1
            tag = self.s[self.i:j]
            self.i = j
            self.ws()
            anchored = self.anchor() or anchored
        if anchored and (self.i == len(self.s) or self.s[self.i] in "[{#"):
            # llvm-mc-19 takes an anchor only on a scalar ("invalid HSA metadata")
            raise self.err("an anchor on an empty value or a collection")
        if self.i < len(self.s) and self.s[self.i] == "[" and tag is None:
            return self.flow_list()
        if self.i < len(self.s) and self.s[self.i] == "{" and tag is None:
            return self.flow_map()
        text, quoted = self.scalar(in_flow)
        if tag is not None:
            return _tagged(tag, text, quoted, self.where)
        if not text:
            return None  # llvm-mc stores an empty untagged scalar as nil
        return scalar_from_plain(text)

    def scalar(self, in_flow: bool) -> tuple[str, bool]:
        if self.i < len(self.s) and self.s[self.i] == "'":
            return self.single(), True
        if self.i < len(self.s) and self.s[self.i] == '"':
            return self.double(), True
        j = self.i
        stops = ",]}" if in_flow else ""
        if not in_flow and j < len(self.s) and (
                self.s[j] in _RESERVED_FIRST
                or self.s[j] in "-?:" and (j + 1 == len(self.s) or self.s[j + 1] in " \t")):
            raise self.err(f"a plain scalar cannot start with '{self.s[j:j + 2].rstrip()}'")
        while j < len(self.s):
            c = self.s[j]
            if c in stops:
                break
            if c == "#" and j > 0 and self.s[j - 1] in " \t":
                break
            if c == ":" and (j + 1 == len(self.s) or self.s[j + 1] in " \t"):
                if in_flow:
                    break
                # 'a: b: c' (LLVM's YAML parser: "Unexpected token")
                raise self.err("a mapping value is not allowed inside a plain scalar")
            j += 1
        text = self.s[self.i:j].rstrip(" \t")
        self.i = j
        return text, False

    def single(self) -> str:
        out = []
        self.i += 1
        while True:
            if self.i >= len(self.s):
                raise self.err("unterminated single-quoted string")
            c = self.s[self.i]
            if c == "'":
                if self.s.startswith("''", self.i):
                    out.append("'")
                    self.i += 2
                    continue
                self.i += 1
                return "".join(out)
            out.append(c)
            self.i += 1

    _ESC = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "/": "/",
            "a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "v": "\v", " ": " "}

    def double(self) -> str:
        out: list[str] = []
        self.i += 1
        while True:
            if self.i >= len(self.s):
                raise self.err("unterminated double-quoted string")
            c = self.s[self.i]
            if c == '"':
                self.i += 1
                return "".join(out)
            if c == "\\":
                if self.i + 1 >= len(self.s):
                    raise self.err("unterminated escape")
                e = self.s[self.i + 1]
                if e in self._ESC:
                    out.append(self._ESC[e])
                    self.i += 2
                    continue
                width = {"x": 2, "u": 4, "U": 8}.get(e)
                hexdigits = self.s[self.i + 2:self.i + 2 + (width or 0)]
                if width is None or len(hexdigits) != width:
                    raise self.err(f"bad escape \\{e}")
                try:
                    out.append(chr(int(hexdigits, 16)))
                except ValueError:
                    raise self.err(f"bad escape \\{e}{hexdigits}") from None
                self.i += 2 + width
                continue
            out.append(c)
            self.i += 1

    def expect(self, c: str) -> None:
        self.ws()
        if self.i >= len(self.s) or self.s[self.i] != c:
            raise self.err(f"expected '{c}'")
        self.i += 1

    def peek(self) -> str:
        self.ws()
        return self.s[self.i] if self.i < len(self.s) else ""

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.err(f"collections nested more than {MAX_NESTING} deep")

    def flow_list(self) -> list[Any]:
        self.expect("[")
        self.enter()
        items: list[Any] = []
        if self.peek() == "]":
            self.i += 1
            self.depth -= 1
            return items
        while True:
            items.append(self.value(True))
            c = self.peek()
            self.i += 1
            if c == "]":
                self.depth -= 1
                return items
            if c != ",":
                raise self.err("expected ',' or ']' in flow list")

    def flow_map(self) -> dict[Any, Any]:
        self.expect("{")
        self.enter()
        out: dict[Any, Any] = {}
        if self.peek() == "}":
            self.i += 1
            self.depth -= 1
            return out
        while True:
            key = self.value(True)
            self.expect(":")
            out[_hashable(key, self.where)] = self.value(True)
            c = self.peek()
            self.i += 1
            if c == "}":
                self.depth -= 1
                return out
            if c != ",":
                raise self.err("expected ',' or '}' in flow map")

    def finish(self) -> None:
        self.ws()
        if self.i < len(self.s) and self.s[self.i] != "#":
            raise self.err(f"unexpected text '{self.s[self.i:]}'")


def _hashable(key: Any, where: str) -> Any:
    if isinstance(key, list | dict):
        raise CodeObjectError(f"{where}: map key must be a scalar")
    return key


def _inline(text: str, where: str) -> Any:
    sc = _Scanner(text, where)
    val = sc.value(False)
    sc.finish()
    return val


def _split_key(content: str, where: str) -> tuple[Any, str] | None:
    """Split 'key: rest' (rest may be ''); None if the line is not a map entry."""
    sc = _Scanner(content, where)
    key: Any
    if content[:1] in "'\"":
        key, _ = sc.scalar(False)
        j = sc.i
    else:
        j = 0
        while j < len(content):
            if content[j] == ":" and (j + 1 == len(content) or content[j + 1] in " \t"):
                break
            if content[j] == "#" and j > 0 and content[j - 1] in " \t":
                return None
            j += 1
        key = content[:j].rstrip()
        if key.startswith("!"):
            key = _inline(key, where)
        else:
            key = scalar_from_plain(key) if key else None
    if isinstance(key, float) and key != key:
        raise CodeObjectError(f"{where}: NaN map key")
    if j >= len(content) or content[j] != ":":
        return None
    rest = content[j + 1:]
    if rest and rest[0] not in " \t":
        return None
    return key, rest.strip(" \t")


class _Lines:
    def __init__(self, text: str) -> None:
        self.items: list[tuple[int, str, int]] = []  # indent, content, line number
        self.blank: set[int] = set()  # the document's blank and comment lines' numbers
        started = False  # inside the document (after its '---' or its first content)
        for n, raw in enumerate(text.splitlines(), 1):
            bad = next((c for c in raw if 0xDC80 <= ord(c) <= 0xDCFF), None)
            if bad is not None:  # an undecodable byte read with surrogateescape
                raise CodeObjectError(f"line {n}: byte {ord(bad) - 0xDC00:#04x} is not UTF-8")
            ctl = next((c for c in raw if c < " " and c != "\t" or c == "\x7f"), None)
            if ctl is not None:  # YAML's printable set (llvm-mc's parser rejects them too)
                raise CodeObjectError(f"line {n}: control character {ord(ctl):#04x}")
            line = raw.rstrip()
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                # a blank or comment line's leading tab is still a tab in indentation to
                # llvm-mc-19's YAML scanner ("Found invalid tab character in indentation")
                if started and "\t" in raw[: len(raw) - len(raw.lstrip(" \t"))]:
                    raise CodeObjectError(f"line {n}: tab in indentation")
                self.blank.add(n)
                continue
            if line == "..." or line == "---" and self.items:
                break  # the first document's end: llvm-mc-19 reads no further
            if stripped in ("---", "..."):
                started = started or stripped == "---"
                continue
            if stripped == ".end_amdgpu_metadata" and line == stripped:
                break  # a document given with its directives (the assembler passes the body)
            if stripped == ".amdgpu_metadata" and not self.items:
                continue  # inside the document it is text, as to llvm-mc-19's YAML reader
            if "\t" in line[: len(line) - len(line.lstrip())]:
                raise CodeObjectError(f"line {n}: tab in indentation")
            self.items.append((len(line) - len(line.lstrip(" ")), stripped, n))
            started = True
        self.pos = 0
        self.depth = 0  # block collections open


def parse_yaml(text: str) -> dict[Any, Any]:
    """Parse LLVM-style AMDGPU metadata YAML into a dict (raises CodeObjectError)."""
    lines = _Lines(text)
    if not lines.items:
        return {}
    indent = lines.items[0][0]
    value = _block(lines, indent)
    if lines.pos != len(lines.items):
        raise CodeObjectError(f"line {lines.items[lines.pos][2]}: bad indentation")
    if not isinstance(value, dict):
        raise CodeObjectError("metadata YAML must be a map at the top level")
    return value


def _block(lines: _Lines, indent: int) -> Any:
    _, content, n = lines.items[lines.pos]
    lines.depth += 1
    if lines.depth > MAX_NESTING:
        raise CodeObjectError(f"line {n}: collections nested more than {MAX_NESTING} deep")
    value = _seq(lines, indent) if content == "-" or content.startswith("- ") else _map(
        lines, indent)
    lines.depth -= 1
    return value


def _seq(lines: _Lines, indent: int) -> list[Any]:
    out: list[Any] = []
    while lines.pos < len(lines.items):
        ind, content, n = lines.items[lines.pos]
        if ind < indent:
            break
        if ind > indent:
            raise CodeObjectError(f"line {n}: bad indentation")
        if not (content == "-" or content.startswith("- ")):
            break
        rest = content[1:].lstrip(" ")
        if not rest:
            lines.pos += 1
            out.append(_nested(lines, indent, n))
            continue
        col = ind + (len(content) - len(rest))
        if rest == "-" or rest.startswith("- ") or _split_key(rest, f"line {n}") is not None:
            lines.items[lines.pos] = (col, rest, n)  # re-read the rest as a nested block
            out.append(_block(lines, col))
        else:
            lines.pos += 1
            out.append(_inline(rest, f"line {n}"))
    return out


def _nested(lines: _Lines, indent: int, n: int, allow_same_indent_seq: bool = False) -> Any:
    if lines.pos >= len(lines.items):
        return None
    ind, content, _ = lines.items[lines.pos]
    is_seq = content == "-" or content.startswith("- ")
    if ind > indent or (allow_same_indent_seq and ind == indent and is_seq):
        return _block(lines, ind)
    return None


# what a block map's key cannot start with (llvm-mc-19: "Unrecognized character while
# tokenizing", "Map key must be a scalar", a block scalar header, a flow indicator)
_KEY_RESERVED = frozenset(",]}%@`|>[{*")


def _continuation(lines: _Lines, indent: int, k: int) -> tuple[str, str] | None:
    """Line `k`'s content, and what joins it to the text before, if it continues a plain
    scalar begun on the line before (as LLVM's YAML scanner folds one): indented deeper
    than the map, no sequence entry, right after that line (joined by a blank) or after
    blank or comment lines only (joined by a newline for each, as llvm-mc-19 reads them)."""
    if k >= len(lines.items):
        return None
    ind, content, n = lines.items[k]
    prev = lines.items[k - 1][2]
    if ind <= indent or content == "-" or content.startswith("- ") or any(
            m not in lines.blank for m in range(prev + 1, n)):
        return None
    return content, "\n" * (n - prev - 1) or " "


def _uncommented(content: str) -> str:
    """`content` without a trailing `#` comment (one after a blank), right-stripped."""
    m = re.search(r"[ \t]#", content)
    return (content[: m.start()] if m else content).rstrip(" \t")


def _key_alone(lines: _Lines, indent: int, content: str, where: str) -> tuple[Any, str] | None:
    """A map entry without `: ` (LLVM's YAML parser reads `key` alone as `key:`, its value
    []): a quoted scalar, or a plain one that may go on over deeper lines, folded with
    blanks, up to a `: ` that gives it a value after all. Consumes the continuation lines
    (the caller steps over the entry's own line)."""
    if content[0] in "'\"":
        sc = _Scanner(content, where)
        key, _ = sc.scalar(False)
        sc.finish()
        return key, ""
    text = _uncommented(content)
    ended = text != content.rstrip()  # a comment ends a plain scalar
    k = lines.pos + 1
    rest = ""
    while not ended and (cont := _continuation(lines, indent, k)) is not None:
        more, join = cont
        k += 1
        split = _split_key(more, where)
        if split is not None:  # the key ends here: 'foo\n  bar: 1' is {'foo bar': 1}
            j = next(i for i in range(len(more)) if more[i] == ":" and (
                i + 1 == len(more) or more[i + 1] in " \t"))
            text += join + more[:j].rstrip()
            rest = split[1]
            break
        part = _uncommented(more)
        ended = part != more.rstrip()
        text += join + part
    del lines.items[lines.pos + 1 : k]
    key = _inline(text, where) if text.startswith("!") else scalar_from_plain(text)
    return key, rest


def _folded(lines: _Lines, indent: int, rest: str) -> str:
    """A plain scalar value with the deeper lines that continue it (LLVM folds them with
    blanks: `.name: p` then `  q` is 'p q'), consumed; other values as they are."""
    if rest[0] in "'\"[{!&|>" or _uncommented(rest) != rest.rstrip():
        return rest
    k = lines.pos
    while (cont := _continuation(lines, indent, k)) is not None \
            and _split_key(cont[0], "") is None:
        more, join = cont
        part = _uncommented(more)
        rest += join + part
        k += 1
        if part != more.rstrip():
            break
    del lines.items[lines.pos : k]
    return rest


def _map(lines: _Lines, indent: int) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    while lines.pos < len(lines.items):
        ind, content, n = lines.items[lines.pos]
        if ind < indent:
            break
        if ind > indent:
            raise CodeObjectError(f"line {n}: bad indentation")
        if content == "-" or content.startswith("- "):
            break
        where = f"line {n}"
        if content[0] in _KEY_RESERVED:  # llvm-mc-19's YAML parser refuses these keys
            raise CodeObjectError(f"{where}: a map key cannot start with '{content[0]}'")
        anchored = content.startswith("&")
        if anchored:  # an anchor on the key, which LLVM's msgpack reader ignores
            sc = _Scanner(content, where)
            sc.anchor()
            content = content[sc.i:]
        if content.startswith("!") and ":" in content.split()[0]:
            # the tag takes the ':' (llvm-mc-19: "Unexpected token")
            raise CodeObjectError(f"{where}: expected 'key: value'")
        split = _split_key(content, where)
        # (only inside a map begun by a `key:` line: a scalar first is no map to LLVM;
        # seed 128's obj-gfx1100 5c2b867523cc `-:-` for the document's `---`)
        alone = split is None and not anchored and content[:1] not in ("!", "") and bool(out)
        if alone:
            split = _key_alone(lines, indent, content, where)
        if split is None:
            raise CodeObjectError(f"{where}: expected 'key: value'")
        key, rest = split
        key = _hashable(key, where)
        if key in out:
            raise CodeObjectError(f"{where}: duplicate key '{key}'")
        lines.pos += 1
        if not rest and lines.pos < len(lines.items) and not alone:
            # `key:` then a deeper line holding a scalar alone: that is the value
            ind2, nxt, _ = lines.items[lines.pos]
            if ind2 > indent and nxt != "-" and not nxt.startswith("- ") \
                    and nxt[0] not in _KEY_RESERVED and _split_key(nxt, where) is None \
                    and not nxt.startswith("#"):
                lines.pos += 1
                rest = nxt
        if alone and not rest:
            out[key] = []  # as `key:`; nothing deeper belongs to it
        elif rest and not rest.startswith("#"):
            out[key] = _inline(_folded(lines, indent, rest), where)
        else:
            nested = _nested(lines, indent, n, allow_same_indent_seq=True)
            out[key] = [] if nested is None else nested  # llvm-mc reads `key:` as []
    return out


# ---------------------------------------------------------------- printer

_PLAIN_SAFE = set("_-^., \t")
_BAD_FIRST = set("-?:\\,[]{}#&*!|>'\"%@`")


@functools.lru_cache(maxsize=4096)
def _quoting(s: str) -> str:
    """'' (none), "'" or '"': LLVM's needsQuotes() without forced preservation (a
    function of the string, memoised: each code object's metadata prints the same keys
    and most of the same values)."""
    if not s:
        return "'"
    need = ""
    if s[0] in " \t\n\r" or s[-1] in " \t\n\r":
        need = "'"
    if s in _YAML_NULL or s in _YAML_BOOL or _NUMERIC_RE.fullmatch(s):
        need = "'"
    if s[0] in _BAD_FIRST:
        need = "'"
    for ch in s:
        c = ord(ch)
        if ch.isascii() and ch.isalnum() or ch in _PLAIN_SAFE:
            continue
        if ch in "\n\r":
            need = "'"
            continue
        if c == 0x7F or c <= 0x1F or c >= 0x80:
            return '"'
        need = "'"
    return need


def _double_quote(s: str) -> str:
    out = []
    for ch in s:
        c = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif c <= 0x1F or c == 0x7F:
            out.append({0: "\\0", 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v",
                        12: "\\f", 13: "\\r", 27: "\\e"}.get(c, f"\\x{c:02X}"))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _format_scalar(v: Any) -> str:
    if v is None:
        return "!nil ''"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return ".nan"
        if math.isinf(v):
            return ".inf" if v > 0 else "-.inf"
        return repr(v)
    if isinstance(v, bytes | bytearray):
        raise CodeObjectError("binary values cannot be printed as YAML")
    return _string_scalar(str(v))


@functools.lru_cache(maxsize=4096)
def _string_scalar(s: str) -> str:
    """A string scalar as printed (memoised like `_quoting`: the metadata of every code
    object prints the same keys and most of the same values)."""
    q = _quoting(s)
    if q == "'":
        body = "'" + s.replace("'", "''") + "'"
    elif q == '"':
        body = _double_quote(s)
    else:
        body = s
    # A string that would read back as another type gets LLVM's `!str` tag.
    if not s or not isinstance(scalar_from_plain(s), str):
        return "!str " + body
    return body


def _key_text(k: Any) -> str:
    return _format_scalar(k)


def _sorted_items(d: dict[Any, Any], sort_keys: bool) -> list[tuple[Any, Any]]:
    items = list(d.items())
    if sort_keys:
        items.sort(key=lambda kv: (not isinstance(kv[0], str), str(kv[0]).encode()))
    return items


def to_yaml(d: Any, *, sort_keys: bool = True) -> str:
    """Print `d` like LLVM prints a msgpack document (`---` ... `...`)."""
    out = ["---"]
    if isinstance(d, dict) and d:
        _emit_map(d, 0, out, None, sort_keys)
    elif isinstance(d, list) and d:
        _emit_seq(d, 0, out, sort_keys)
    else:
        out.append(_empty_or_scalar(d))
    out.append("...")
    return "\n".join(out) + "\n"


def _empty_or_scalar(v: Any) -> str:
    if isinstance(v, dict):
        return "{}"
    if isinstance(v, list | tuple):
        return "[]"
    return _format_scalar(v)


def _emit_map(d: dict[Any, Any], col: int, out: list[str], first_prefix: str | None,
              sort_keys: bool) -> None:
    """Emit map entries at column `col`; the first line may start with `first_prefix`."""
    for idx, (k, v) in enumerate(_sorted_items(d, sort_keys)):
        prefix = first_prefix if (idx == 0 and first_prefix is not None) else " " * col
        key = _key_text(k) + ":"
        if isinstance(v, dict) and v:
            out.append(prefix + key)
            _emit_map(v, col + 2, out, None, sort_keys)
        elif isinstance(v, list | tuple) and v:
            out.append(prefix + key)
            _emit_seq(list(v), col + 2, out, sort_keys)
        else:
            pad = " " * max(1, 17 - len(key))
            out.append(prefix + key + pad + _empty_or_scalar(v))


def _emit_seq(items: list[Any], col: int, out: list[str], sort_keys: bool) -> None:
    for v in items:
        prefix = " " * col + "- "
        if isinstance(v, dict) and v:
            _emit_map(v, col + 2, out, prefix, sort_keys)
        elif isinstance(v, list | tuple) and v:
            out.append(prefix.rstrip())
            _emit_seq(list(v), col + 2, out, sort_keys)
        else:
            out.append(prefix + _empty_or_scalar(v))
