"""The interface every encoding family implements, and its registry.

A family module (``scalar``, ``vop``, ``vop3``, ``vop3p``, ``memory``, …)
defines `Format` objects and registers them with `register()`: the encodings
they own (names used in the opcode table) and the fixed bits of the first
dword that identify them for the disassembler.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from radcc.isa.operands import RegCodes, regs_for
from radcc.target import GfxLevel

if TYPE_CHECKING:
    from radcc.isa.syntax import ParsedInst
    from radcc.isa.table import OpcodeTable, OpInfo
    from radcc.target import Target


@dataclass(slots=True)
class Fixup:
    """A reference to a symbol the assembler resolves after layout.

    kind: 'sopp_br' (signed 16-bit dword offset from the next instruction,
    llvm-mc's fixup_si_sopp_br) or 'pcrel32' (32-bit literal, FK_PCRel_4),
    'abs32' (FK_Data_4).
    """

    offset: int  # byte offset inside the instruction
    symbol: str
    addend: int
    kind: str


@dataclass(slots=True)
class Encoded:
    data: bytes
    fixups: list[Fixup] = field(default_factory=list)
    text: str | None = None  # canonical text when it cannot be decoded back (symbols)


@dataclass(slots=True)
class Decoded:
    size: int  # bytes consumed
    text: str  # canonical llvm-mc text
    info: OpInfo | None = None
    fields: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class Context:
    """What encoders and decoders may ask about the target.

    gfx: the target's generation (``target.gfx_level``); regs: its operand
    code facts (`radcc.isa.operands.RegCodes`: field values of M0/NULL,
    which sources exist). Families with generation-specific field layouts
    keep one small layout record per generation and pick it by `gfx`.
    """

    target: Target
    table: OpcodeTable
    wave_size: int = 32
    gfx: GfxLevel = field(init=False)
    regs: RegCodes = field(init=False)

    def __post_init__(self) -> None:
        self.gfx = self.target.gfx_level
        self.regs = regs_for(self.gfx)

    @property
    def wave64(self) -> bool:
        return self.wave_size == 64


class Format:
    """Base class: one instruction encoding (SOP2, VOP3, DS, …)."""

    name = ""  # encoding name as used in the opcode table
    size = 4  # base size in bytes (a literal may add 4)

    def encode(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        """Encode a parsed statement as this entry; raise AsmError if the
        operands do not fit this encoding (the driver then tries the next
        candidate entry)."""
        raise NotImplementedError

    def decode(self, data: bytes, pos: int, ctx: Context) -> Decoded | None:
        """Decode the instruction at data[pos:]; None if not a valid one."""
        raise NotImplementedError


FORMATS: dict[str, Format] = {}
# (mask, value, format) on the first dword, most specific first
DECODE_RULES: list[tuple[int, int, Format]] = []


def register(fmt: Format, *match: tuple[int, int]) -> Format:
    """Register a format under its name and its first-dword identification."""
    FORMATS[fmt.name] = fmt
    for mask, value in match:
        DECODE_RULES.append((mask, value, fmt))
    DECODE_RULES.sort(key=lambda r: -bin(r[0]).count("1"))
    return fmt


def u32(data: bytes, pos: int) -> int | None:
    """Little-endian dword at pos, or None past the end."""
    if pos + 4 > len(data):
        return None
    return int.from_bytes(data[pos : pos + 4], "little")


def bits(word: int, hi: int, lo: int) -> int:
    return (word >> lo) & ((1 << (hi - lo + 1)) - 1)
