"""The disassembler driver: bytes to the canonical text llvm-mc prints.

The first dword's fixed bits pick the encoding family (`DECODE_RULES`);
the family decodes operands and may consume a literal or DPP dword.
Anything that decodes to no valid instruction prints as ``.long 0x…`` and
decoding resumes at the next dword, so random bytes never raise.
"""

from __future__ import annotations

from collections.abc import Iterator

from radcc.isa import formats as _formats  # noqa: F401  (registers formats)
from radcc.isa.errors import DecodeError
from radcc.isa.formats.base import DECODE_RULES, Context, Decoded
from radcc.isa.table import get_table
from radcc.target import Target


def decode_one(data: bytes, pos: int, ctx: Context) -> Decoded:
    """Decode the instruction at `pos`; an undecodable dword gives `.long`."""
    if pos + 4 > len(data):
        tail = data[pos:]
        return Decoded(len(tail), ".byte " + ", ".join(f"0x{b:02x}" for b in tail))
    w = int.from_bytes(data[pos : pos + 4], "little")
    for mask, value, fmt in DECODE_RULES:
        if w & mask == value:
            try:
                d = fmt.decode(data, pos, ctx)
            except (DecodeError, ValueError, KeyError, IndexError):
                d = None
            if d is not None:
                return d
            break
    return Decoded(4, f".long 0x{w:08x}")


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


def parse_hex_bytes(text: str, filename: str = "<stdin>") -> tuple[bytes, list[str]]:
    """Read llvm-mc ``-disassemble`` input: hex bytes separated by commas or
    spaces, ``#``/``//``/``;`` comments. Returns (bytes, error messages)."""
    out = bytearray()
    errors: list[str] = []
    for lineno, raw in enumerate(text.split("\n"), 1):
        line = raw
        for c in ("#", "//", ";"):
            k = line.find(c)
            if k >= 0:
                line = line[:k]
        col = 0
        for tok in line.replace(",", " ").replace("[", " ").replace("]", " ").split(" "):
            col = raw.find(tok, col) if tok else col
            if not tok.strip():
                continue
            tok = tok.strip()
            try:
                v = int(tok, 0)
            except ValueError:
                errors.append(f"{filename}:{lineno}:{col + 1}: error: invalid input token")
                continue
            if not 0 <= v <= 0xFF:
                errors.append(f"{filename}:{lineno}:{col + 1}: error: invalid input token")
                continue
            out.append(v)
            col += len(tok)
    return bytes(out), errors
