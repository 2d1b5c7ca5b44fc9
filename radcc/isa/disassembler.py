"""The disassembler driver: bytes to the canonical text llvm-mc prints.

The first dword's fixed bits pick the encoding family (`DECODE_RULES`);
the family decodes operands and may consume a literal or DPP dword.
Anything that decodes to no valid instruction prints as ``.long 0x…`` and
decoding resumes at the next dword, so random bytes never raise.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass

from radcc.isa import formats as _formats  # noqa: F401  (registers formats)
from radcc.isa.errors import DecodeError
from radcc.isa.formats.base import DECODE_RULES, Context, Decoded, Format
from radcc.isa.table import get_table
from radcc.target import Target


def decode_one(data: bytes, pos: int, ctx: Context) -> Decoded:
    """Decode the instruction at `pos`; an undecodable dword gives `.long`.

    Results are memoized by the bytes they consumed (a decoder reads nothing
    past the instruction it returns), so a first dword is either a 4-byte
    instruction or the start of longer ones: new input costs one lookup. Each
    call gets its own `fields` dict.
    """
    if pos + 4 > len(data):
        tail = data[pos:]
        return Decoded(len(tail), ".byte " + ", ".join(f"0x{b:02x}" for b in tail))
    memo = _memo_for(ctx)
    key4 = bytes(data[pos : pos + 4])
    hit = memo.get(key4)
    if hit is not None:
        if hit is _LONGER:  # the first dword of longer instructions seen before
            # (near the end of the data a slice may be shorter: never take the marker)
            hit = memo.get(bytes(data[pos : pos + 8]))
            if hit is None or hit is _LONGER:
                hit = memo.get(bytes(data[pos : pos + 12]))
                if hit is _LONGER:
                    hit = None
        if hit is not None:
            return Decoded(hit[0], hit[1], hit[2], dict(hit[3]))
    d = _decode_uncached(data, pos, ctx)
    # a `.long` fallback may have looked past its 4 bytes (an 8-byte format that
    # did not decode, or data cut short), so it is not a function of them alone
    size = d.size
    if (size == 4 or size == 8 or size == 12) and not d.text.startswith(".long"):
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        entry = (size, d.text, d.info, dict(d.fields))  # (the caller may change its dict)
        if size == 4:
            memo[key4] = entry
        else:
            memo[key4] = _LONGER
            memo[bytes(data[pos : pos + size])] = entry
    return d


def _decode_uncached(data: bytes, pos: int, ctx: Context) -> Decoded:
    w = int.from_bytes(data[pos : pos + 4], "little")
    for mask, value, fmt in _rules_for(w >> 23):
        if w & mask == value:
            try:
                d = fmt.decode(data, pos, ctx)
            except (DecodeError, ValueError, KeyError, IndexError):
                d = None
            if d is not None:
                return d
            break
    return Decoded(4, f".long 0x{w:08x}")


# DECODE_RULES filtered by the first dword's top 9 bits (every rule's mask
# starts there), in the same order: usually one rule per bucket. A bucket is
# filtered when a word first needs it (all 512 at once took ~3 ms of every
# compile's start: issue 14); all are dropped when a format registers more rules.
_DISPATCH: dict[int, list[tuple[int, int, Format]]] = {}
_DISPATCH_KEY = [-1]


def _rules_for(top9: int) -> list[tuple[int, int, Format]]:
    """The rules a first dword whose top 9 bits are `top9` may match, in order."""
    if _DISPATCH_KEY[0] != len(DECODE_RULES):
        _DISPATCH.clear()
        _DISPATCH_KEY[0] = len(DECODE_RULES)
    rules = _DISPATCH.get(top9)
    if rules is None:
        top = 0xFF800000
        rules = _DISPATCH[top9] = [r for r in DECODE_RULES
                                   if (top9 << 23) & r[0] & top == r[1] & r[0] & top]
    return rules


def decode_text(data: bytes, ctx: Context) -> str:
    """The text of the instruction `data` starts with (the assembler's canonical
    text of the bytes it produced): `decode_one(data, 0, ctx).text` without the
    memo (the bytes of a new statement are new)."""
    if len(data) < 4:
        return decode_one(data, 0, ctx).text
    w = int.from_bytes(data[:4], "little")
    for mask, value, fmt in _rules_for(w >> 23):
        if w & mask == value:
            try:
                d = fmt.decode(data, 0, ctx)
            except (DecodeError, ValueError, KeyError, IndexError):
                d = None
            if d is not None:
                return d.text
            break
    return f".long 0x{w:08x}"


_MEMO_LIMIT = 200_000
# (target, wave size) -> {bytes consumed: (size, text, info, fields),
#                         first dword of 8/12-byte instructions: _LONGER}
_LONGER = (0, "", None, {})
_MEMOS: dict[tuple[str, int], dict[bytes, tuple[int, str, object, dict[str, int]]]] = {}


def clear_memo() -> None:
    """Forget memoized decodes (benchmarks measure cold runs with it)."""
    _MEMOS.clear()


def _memo_for(ctx: Context) -> dict[bytes, tuple[int, str, object, dict[str, int]]]:
    key = (ctx.target.name, ctx.wave_size)
    m = _MEMOS.get(key)
    if m is None:
        m = _MEMOS[key] = {}
    return m


def disassemble(data: bytes, target: Target, wave_size: int | None = None,
                start: int = 0, end: int | None = None) -> Iterator[tuple[int, Decoded]]:
    """Yield (offset, Decoded) for each instruction in data[start:end]."""
    ctx = Context(target, get_table(target.gfx_level), wave_size or target.default_wave_size)
    buf = bytes(data[: len(data) if end is None else end])
    pos = start
    while pos < len(buf):
        d = decode_one(buf, pos, ctx)
        yield pos, d
        pos += d.size


def is_invalid(d: Decoded) -> bool:
    return d.text.startswith((".long", ".byte"))


def branch_offset(d: Decoded) -> int | None:
    """A decoded branch's SIMM16 target offset (signed dwords from the next
    instruction), or None for any other instruction."""
    v = d.fields.get("branch_offset")
    return None if v is None else int(v)


@dataclass(frozen=True, slots=True)
class ByteRun:
    """Bytes llvm-mc-19 disassembles as one stream: a run between `[`/`]` brackets (or
    the input's ends). `where` gives each byte's (line, column); an `atomic` run was
    written in brackets, and an undecodable instruction ends it with an error."""

    data: bytes
    where: tuple[tuple[int, int], ...]
    atomic: bool


def read_byte_list(text: str) -> tuple[list[ByteRun], list[tuple[int, int, str]]]:
    """Read llvm-mc ``-disassemble`` input as llvm-mc-19 reads it: byte values separated
    by blanks and commas (across lines), ``#`` comments, and ``[ ... ]`` atomic blocks (a
    nested `[`, a `]` without its `[` and an unclosed block are errors). An invalid token
    (``//`` and ``;`` included) is an error: the rest of its line is skipped and the
    bytes read before it in the same run are dropped. Returns the runs and the errors
    as (line, column, message), in the input's order."""
    runs: list[ByteRun] = []
    errors: list[tuple[int, int, str]] = []
    data = bytearray()
    where: list[tuple[int, int]] = []
    atomic = False
    fast = _FAST_BYTES
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def at(pos: int) -> tuple[int, int]:
        ln = bisect_right(starts, pos)
        return ln, pos - starts[ln - 1] + 1

    def flush() -> None:
        if data:
            runs.append(ByteRun(bytes(data), tuple(where), atomic))
        data.clear()
        where.clear()

    skip_line = -1
    for m in _BYTE_TOKEN_RE.finditer(text):
        tok = m.group()
        if tok[0] == "#":
            continue
        pos = m.start()
        if skip_line >= 0:
            if text.find("\n", skip_line, pos) < 0:
                continue
            skip_line = -1
        if tok == "[" or tok == "]":
            flush()
            if (tok == "[") == atomic:
                ln, col = at(pos)
                msg = "nested atomic blocks make no sense" if atomic else \
                    "attempt to close atomic block without opening"
                errors.append((ln, col, msg))
            atomic = tok == "["
            continue
        v = fast.get(tok)
        if v is None:
            v = _byte_value(tok)
        if v is None:
            ln, col = at(pos)
            errors.append((ln, col, "invalid input token"))
            data.clear()
            where.clear()
            skip_line = pos
            continue
        data.append(v)
        where.append(at(pos))
    flush()
    if atomic:
        ln, col = at(len(text))
        errors.append((ln, col, "unclosed atomic block"))
    return runs, errors


def parse_hex_bytes(text: str, filename: str = "<stdin>") -> tuple[bytes, list[str]]:
    """`read_byte_list`'s runs as one byte string, and its errors."""
    runs, errors = read_byte_list(text)
    return (b"".join(r.data for r in runs),
            [f"{filename}:{ln}:{col}: error: {msg}" for ln, col, msg in errors])


# a token of a byte list: a comment, a bracket, or the characters up to a separator
_BYTE_TOKEN_RE = re.compile(r"#[^\n]*|[\[\]]|[^ \t\r\n,#\[\]]+")
# the spellings llvm-mc itself prints, looked up without parsing
_FAST_BYTES = {f"0x{i:02x}": i for i in range(256)} | {f"0x{i:02X}": i for i in range(256)}


def _byte_value(tok: str) -> int | None:
    """A byte as llvm's getAsInteger(0) reads it (0x.., 0b.., 0o.., 0-prefixed octal,
    decimal; no sign, no second prefix, no separators)."""
    m = _BYTE_VALUE_RE.fullmatch(tok)
    if m is None:
        return None
    k = m.lastindex or 0
    v = int(m.group(k), (16, 2, 8, 8, 10)[k - 1])
    return v if v <= 0xFF else None


_BYTE_VALUE_RE = re.compile(
    r"0[xX]([0-9a-fA-F]+)|0[bB]([01]+)|0[oO]([0-7]+)|(0[0-7]*)|([1-9][0-9]*)")
