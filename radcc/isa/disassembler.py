"""The disassembler driver: bytes to the canonical text llvm-mc prints.

The first dword's fixed bits pick the encoding family (`DECODE_RULES`);
the family decodes operands and may consume a literal or DPP dword.
Anything that decodes to no valid instruction prints as ``.long 0x…`` and
decoding resumes at the next dword, so random bytes never raise.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

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
    if _DISPATCH_KEY[0] != len(DECODE_RULES):
        _build_dispatch()
    for mask, value, fmt in _DISPATCH[w >> 23]:
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
# starts there), in the same order: usually one rule per bucket. Rebuilt when a
# format registers more rules.
_DISPATCH: list[list[tuple[int, int, Format]]] = []
_DISPATCH_KEY = [-1]


def _build_dispatch() -> None:
    top = 0xFF800000
    _DISPATCH[:] = [[r for r in DECODE_RULES if (k << 23) & r[0] & top == r[1] & r[0] & top]
                    for k in range(512)]
    _DISPATCH_KEY[0] = len(DECODE_RULES)


def decode_text(data: bytes, ctx: Context) -> str:
    """The text of the instruction `data` starts with (the assembler's canonical
    text of the bytes it produced): `decode_one(data, 0, ctx).text` without the
    memo (the bytes of a new statement are new)."""
    if len(data) < 4:
        return decode_one(data, 0, ctx).text
    w = int.from_bytes(data[:4], "little")
    if _DISPATCH_KEY[0] != len(DECODE_RULES):
        _build_dispatch()
    for mask, value, fmt in _DISPATCH[w >> 23]:
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


def parse_hex_bytes(text: str, filename: str = "<stdin>") -> tuple[bytes, list[str]]:
    """Read llvm-mc ``-disassemble`` input: byte values separated by commas,
    spaces or brackets, ``#`` comments (``//`` and ``;`` are invalid tokens, as in
    llvm-mc-19). Returns (bytes, error messages).

    Like llvm-mc, an invalid token is reported, the rest of its line is
    skipped and the bytes read before it are dropped."""
    out = bytearray()
    errors: list[str] = []
    fast = _FAST_BYTES
    for lineno, raw in enumerate(text.split("\n"), 1):
        if "#" not in raw and "[" not in raw:
            vals = [fast.get(t) for t in raw.replace(",", " ").split()]
            if None not in vals:
                out.extend(vals)  # type: ignore[arg-type]
                continue
        k = raw.find("#")
        line = raw if k < 0 else raw[:k]
        for m in _HEX_TOKEN_RE.finditer(line):
            tok = m.group()
            v = fast.get(tok)
            if v is None:
                v = _byte_value(tok)
            if v is None:
                errors.append(f"{filename}:{lineno}:{m.start() + 1}: error: invalid input token")
                out.clear()
                break
            out.append(v)
    return bytes(out), errors


_HEX_TOKEN_RE = re.compile(r"[^\s,\[\]]+")
# the spellings llvm-mc itself prints, looked up without parsing
_FAST_BYTES = {f"0x{i:02x}": i for i in range(256)} | {f"0x{i:02X}": i for i in range(256)}


def _byte_value(tok: str) -> int | None:
    """A byte as llvm's getAsInteger(0) reads it (0x.., 0b.., 0-prefixed octal, decimal)."""
    t = tok.lower()
    try:
        if t.startswith("0x"):
            v = int(t[2:], 16)
        elif t.startswith("0b"):
            v = int(t[2:], 2)
        elif len(t) > 1 and t.startswith("0"):
            v = int(t[1:], 8)
        else:
            v = int(t, 10)
    except ValueError:
        return None
    if "_" in t or not t[-1:].isalnum():
        return None
    return v if 0 <= v <= 0xFF else None
