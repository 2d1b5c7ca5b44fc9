"""Register classes, temporaries and physical registers of the machine IR.

Follows ACO's model (ACO's README.md "Register Allocation", aco_ir.h's RegClass):
a register class is a register file (SGPR or VGPR), a size, and two flags:
*linear* (a VGPR live in all lanes regardless of EXEC, e.g. for WWM and
spill slots) and *subdword* (a VGPR value smaller than 4 bytes, sized in
bytes). Physical registers are byte-addressed so sub-dword values have a
place: `PhysReg(reg_b)` with `reg = reg_b >> 2`, `byte = reg_b & 3`; VGPRs
start at register 256 as in the hardware's source-operand space.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from radcc.isa.operands import EXEC_HI as EXEC_HI
from radcc.isa.operands import EXEC_LO as EXEC_LO
from radcc.isa.operands import M0 as M0
from radcc.isa.operands import NULL as NULL
from radcc.isa.operands import SCC as SCC
from radcc.isa.operands import TTMP0 as TTMP0
from radcc.isa.operands import VCC_HI as VCC_HI
from radcc.isa.operands import VCC_LO as VCC_LO
from radcc.isa.operands import VGPR0 as VGPR0


class RegType(Enum):
    SGPR = "s"
    VGPR = "v"


@dataclass(frozen=True, slots=True)
class RegClass:
    """An SGPR or VGPR class of `bytes` bytes (dword multiples unless subdword)."""

    type: RegType
    bytes: int
    linear: bool = False
    subdword: bool = False
    # derived from the four above when the class is made (fields rather than properties:
    # the back end reads them per operand, about a million times on 96 real shaders)
    size: int = field(init=False, compare=False, repr=False)
    """Size in dwords (rounded up for sub-dword classes)."""
    is_sgpr: bool = field(init=False, compare=False, repr=False)
    is_vgpr: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.bytes <= 0:
            raise ValueError("register class of no size")
        if self.subdword and self.type is not RegType.VGPR:
            raise ValueError("only VGPR classes can be sub-dword")
        if not self.subdword and self.bytes % 4:
            raise ValueError("dword classes must be a multiple of 4 bytes")
        if self.linear and self.subdword:
            raise ValueError("linear VGPRs are whole dwords")
        object.__setattr__(self, "size", (self.bytes + 3) // 4)
        object.__setattr__(self, "is_sgpr", self.type is RegType.SGPR)
        object.__setattr__(self, "is_vgpr", self.type is RegType.VGPR)

    def as_linear(self) -> RegClass:
        return RegClass(self.type, self.bytes, linear=True) if self.is_vgpr else self

    def as_dwords(self) -> RegClass:
        return RegClass(self.type, self.size * 4, self.linear)

    def __str__(self) -> str:
        if self.subdword:
            return f"v{self.bytes}b"
        prefix = ("l" if self.linear else "") + self.type.value
        return f"{prefix}{self.size}"

    @staticmethod
    def parse(text: str) -> RegClass:
        m = _RC_RE.fullmatch(text)
        if not m:
            raise ValueError(f"invalid register class '{text}'")
        lin, file, n, b = m.groups()
        t = RegType(file)
        if b:
            if lin or t is RegType.SGPR:
                raise ValueError(f"invalid register class '{text}'")
            return RegClass(t, int(n), subdword=True)
        return RegClass(t, int(n) * 4, linear=bool(lin))


_RC_RE = re.compile(r"(l?)([sv])(\d+)(b?)")

s1 = RegClass(RegType.SGPR, 4)
s2 = RegClass(RegType.SGPR, 8)
s3 = RegClass(RegType.SGPR, 12)
s4 = RegClass(RegType.SGPR, 16)
s8 = RegClass(RegType.SGPR, 32)
s16 = RegClass(RegType.SGPR, 64)
v1 = RegClass(RegType.VGPR, 4)
v2 = RegClass(RegType.VGPR, 8)
v3 = RegClass(RegType.VGPR, 12)
v4 = RegClass(RegType.VGPR, 16)
v1b = RegClass(RegType.VGPR, 1, subdword=True)
v2b = RegClass(RegType.VGPR, 2, subdword=True)
lv1 = RegClass(RegType.VGPR, 4, linear=True)


@dataclass(frozen=True, slots=True)
class Temp:
    """An SSA value: a numbered temporary of a register class (id 0 = none)."""

    id: int
    rc: RegClass

    def __str__(self) -> str:
        return f"%{self.id}"


# Named registers: their reg() numbers are the source-operand codes radcc.isa.operands
# defines (the ISA guide's names); VCC and EXEC name the lane mask's first register.
VCC = VCC_LO
EXEC = EXEC_LO
VGPR_BASE = VGPR0

_NAMED = {VCC: "vcc", VCC_HI: "vcc_hi", NULL: "null", M0: "m0", EXEC: "exec",
          EXEC_HI: "exec_hi", SCC: "scc"}
_BY_NAME = {v: k for k, v in _NAMED.items()} | {"vcc_lo": VCC, "exec_lo": EXEC}


@dataclass(frozen=True, slots=True, order=True)
class PhysReg:
    """A byte-addressed physical register: SGPRs 0.., VGPRs from 256."""

    reg_b: int
    # the dword register, ``reg_b >> 2`` (a field: the passes after register allocation
    # read it per operand)
    reg: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "reg", self.reg_b >> 2)

    @staticmethod
    def of(reg: int, byte: int = 0) -> PhysReg:
        return PhysReg(reg * 4 + byte)

    @property
    def byte(self) -> int:
        return self.reg_b & 3

    @property
    def is_vgpr(self) -> bool:
        return self.reg >= VGPR_BASE

    def advance(self, nbytes: int) -> PhysReg:
        return PhysReg(self.reg_b + nbytes)

    def text(self, rc: RegClass | None = None) -> str:
        """ACO-style spelling: s[4], s[4-5], v[0], v[2-3], vcc, exec, m0, scc,
        v[0][16:32] for a sub-dword piece."""
        size = rc.size if rc is not None else 1
        r = self.reg
        if r in _NAMED and size <= 2 and not (r == VCC_HI or r == EXEC_HI) or r == SCC:
            return _NAMED[r]
        base, file = (r - VGPR_BASE, "v") if self.is_vgpr else (r, "s")
        rng = f"{file}[{base}]" if size == 1 else f"{file}[{base}-{base + size - 1}]"
        if rc is not None and rc.subdword and (self.byte or rc.bytes < 4):
            lo = self.byte * 8
            return f"{rng}[{lo}:{lo + rc.bytes * 8}]"
        return rng

    def __str__(self) -> str:
        return self.text()

    @staticmethod
    def parse(text: str) -> tuple[PhysReg, int | None]:
        """Parse a spelling of `text()`; returns (reg, size in dwords or None)."""
        if text in _BY_NAME:
            r = _BY_NAME[text]
            return PhysReg.of(r), (2 if text in ("vcc", "exec") else 1)
        m = _PREG_RE.fullmatch(text)
        if not m:
            raise ValueError(f"invalid physical register '{text}'")
        file, a, b, lo, _hi = m.groups()
        first = int(a)
        base = VGPR_BASE if file == "v" else 0
        size = int(b) - first + 1 if b else 1
        byte = int(lo) // 8 if lo else 0
        return PhysReg.of(base + first, byte), size


_PREG_RE = re.compile(r"([sv])\[(\d+)(?:-(\d+))?\](?:\[(\d+):(\d+)\])?")
