"""Operand values of GFX10/GFX11 assembly: registers, inline constants, literals.

This module owns the 9-bit source-operand space of the ISA guide's
"Scalar/Vector source operands" tables (SGPRs 0-105, VCC, TTMPs, NULL, M0,
EXEC, inline integers 128-208, apertures 235-239, inline floats 240-248,
DPP markers, VCCZ/EXECZ/SCC, literal 255, VGPRs 256-511) and how llvm-mc
spells each of them. Format encoders ask it; they never hard-code codes.

Logical codes: everything in radcc (parsed `Reg`s, `src_text`, the
constants below, `Decoded.fields`) uses GFX11's numbering. The generations
differ in the values the hardware fields hold: GFX10/10.3 put M0 at 124 and
NULL at 125 (RDNA1 ISA guide "Scalar/Vector source operands"; GFX11 swapped
them). `regs_for(gfx)` returns a `RegCodes` record per generation (also
`Context.regs`): ``to_hw[code]`` is the field value to emit for a logical
code, ``from_hw[field]`` the logical code of a field value (identity tuples
on GFX11, so hot paths pay one tuple index). It also says which sources
exist: GFX10 accepts src_vccz/src_execz/src_pops_exiting_wave_id and, in
VALU sources, src_lds_direct (254); GFX11 rejects them with llvm-mc's
messages in ``bad_src``.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass

from radcc.isa.errors import AsmError
from radcc.target import GfxLevel

# --- source operand codes (GFX11) -----------------------------------------
SGPR_MAX = 105
VCC_LO = 106
VCC_HI = 107
TTMP0 = 108
TTMP15 = 123
NULL = 124
M0 = 125
EXEC_LO = 126
EXEC_HI = 127
INLINE_INT_ZERO = 128
INLINE_INT_POS_MAX = 192  # 64
INLINE_INT_NEG_MAX = 208  # -16
DPP8 = 233
DPP8_FI = 234
SHARED_BASE = 235
SHARED_LIMIT = 236
PRIVATE_BASE = 237
PRIVATE_LIMIT = 238
POPS_EXITING_WAVE_ID = 239
INLINE_FLOAT_FIRST = 240
INV_2PI = 248
DPP16 = 250
VCCZ = 251
EXECZ = 252
SCC = 253
LDS_DIRECT = 254
LITERAL = 255
VGPR0 = 256
# the special source values (src_shared_base .. src_pops_exiting_wave_id, src_vccz,
# src_execz, src_scc): no register, no constant
SPECIAL_VALUES = frozenset((SHARED_BASE, SHARED_LIMIT, PRIVATE_BASE, PRIVATE_LIMIT,
                            POPS_EXITING_WAVE_ID, VCCZ, EXECZ, SCC))
NULL_OR_SPECIAL = SPECIAL_VALUES | {NULL}
# 32-bit named sources llvm-mc also accepts in slots of any size
ANY_SIZE_SOURCES = (NULL, SHARED_BASE, SHARED_LIMIT, PRIVATE_BASE, PRIVATE_LIMIT, SCC)

@dataclass(frozen=True, slots=True)
class RegCodes:
    """Generation-specific facts of the source-operand space (see the module docstring).

    to_hw / from_hw: 512-entry tuples mapping logical codes to field values and back.
    bad_src: logical codes no scalar or vector source accepts, with llvm-mc's error.
    lds_direct: VALU sources may read src_lds_direct (254).
    """

    gfx: GfxLevel
    to_hw: tuple[int, ...]
    from_hw: tuple[int, ...]
    bad_src: dict[int, str]
    lds_direct: bool

    @property
    def null(self) -> int:
        """The field value of NULL on this generation."""
        return self.to_hw[NULL]

    @property
    def m0(self) -> int:
        """The field value of M0 on this generation."""
        return self.to_hw[M0]


_IDENTITY = tuple(range(512))
_SWAP_M0_NULL = tuple(M0 if c == NULL else NULL if c == M0 else c for c in range(512))
_GFX11_BAD_SRC = {
    VCCZ: "execz and vccz are not supported on this GPU",
    EXECZ: "execz and vccz are not supported on this GPU",
    POPS_EXITING_WAVE_ID: "register not available on this GPU",
}
_REG_CODES: dict[GfxLevel, RegCodes] = {}


def regs_for(gfx: GfxLevel) -> RegCodes:
    """The `RegCodes` of a generation (GFX10, GFX10_3 and GFX11 are known)."""
    rc = _REG_CODES.get(gfx)
    if rc is None:
        if gfx in (GfxLevel.GFX10, GfxLevel.GFX10_3):
            rc = RegCodes(gfx, _SWAP_M0_NULL, _SWAP_M0_NULL, {}, True)
        elif gfx == GfxLevel.GFX11:
            rc = RegCodes(gfx, _IDENTITY, _IDENTITY, _GFX11_BAD_SRC, False)
        else:
            raise ValueError(f"no operand encoding for {gfx.name}")
        _REG_CODES[gfx] = rc
    return rc


# Named 32-bit registers and source values, in llvm-mc's spelling.
SPECIAL_NAMES: dict[int, str] = {
    VCC_LO: "vcc_lo",
    VCC_HI: "vcc_hi",
    NULL: "null",
    M0: "m0",
    EXEC_LO: "exec_lo",
    EXEC_HI: "exec_hi",
    SHARED_BASE: "src_shared_base",
    SHARED_LIMIT: "src_shared_limit",
    PRIVATE_BASE: "src_private_base",
    PRIVATE_LIMIT: "src_private_limit",
    POPS_EXITING_WAVE_ID: "src_pops_exiting_wave_id",
    VCCZ: "src_vccz",
    EXECZ: "src_execz",
    SCC: "src_scc",
    LDS_DIRECT: "src_lds_direct",
}

# Accepted spellings when parsing (llvm-mc accepts the short aliases too).
_SPECIAL_BY_NAME: dict[str, tuple[int, int]] = {
    # name -> (code, size in dwords)
    "vcc_lo": (VCC_LO, 1),
    "vcc_hi": (VCC_HI, 1),
    "vcc": (VCC_LO, 2),
    "exec_lo": (EXEC_LO, 1),
    "exec_hi": (EXEC_HI, 1),
    "exec": (EXEC_LO, 2),
    "m0": (M0, 1),
    "null": (NULL, 1),
    "src_shared_base": (SHARED_BASE, 1),
    "shared_base": (SHARED_BASE, 1),
    "src_shared_limit": (SHARED_LIMIT, 1),
    "shared_limit": (SHARED_LIMIT, 1),
    "src_private_base": (PRIVATE_BASE, 1),
    "private_base": (PRIVATE_BASE, 1),
    "src_private_limit": (PRIVATE_LIMIT, 1),
    "private_limit": (PRIVATE_LIMIT, 1),
    "src_pops_exiting_wave_id": (POPS_EXITING_WAVE_ID, 1),
    "pops_exiting_wave_id": (POPS_EXITING_WAVE_ID, 1),
    "src_vccz": (VCCZ, 1),
    "vccz": (VCCZ, 1),
    "src_execz": (EXECZ, 1),
    "execz": (EXECZ, 1),
    "src_scc": (SCC, 1),
    "scc": (SCC, 1),
    "src_lds_direct": (LDS_DIRECT, 1),
    "lds_direct": (LDS_DIRECT, 1),
}

# Inline float constants: code -> value (same value at every float width).
INLINE_FLOATS: dict[int, float] = {
    240: 0.5,
    241: -0.5,
    242: 1.0,
    243: -1.0,
    244: 2.0,
    245: -2.0,
    246: 4.0,
    247: -4.0,
}
INV_2PI_F64 = 0.15915494309189532
# Bit patterns of 1/(2*pi) at each width, as the hardware holds them.
INV_2PI_BITS = {16: 0x3118, 32: 0x3E22F983, 64: 0x3FC45F306DC9C882}


def float_bits(value: float, bits: int) -> int:
    """IEEE bit pattern of `value` at width `bits` (16/32/64), round to nearest."""
    if bits == 16:
        return struct.unpack("<H", struct.pack("<e", value))[0]
    if bits == 32:
        return struct.unpack("<I", struct.pack("<f", value))[0]
    return struct.unpack("<Q", struct.pack("<d", value))[0]


def bits_float(value: int, bits: int) -> float:
    if bits == 16:
        return struct.unpack("<e", struct.pack("<H", value & 0xFFFF))[0]
    if bits == 32:
        return struct.unpack("<f", struct.pack("<I", value & 0xFFFFFFFF))[0]
    return struct.unpack("<d", struct.pack("<Q", value & 0xFFFFFFFFFFFFFFFF))[0]


def inline_int_code(value: int) -> int | None:
    """Source code of an inline integer constant, or None."""
    if 0 <= value <= 64:
        return INLINE_INT_ZERO + value
    if -16 <= value <= -1:
        return 192 - value
    return None


def inline_int_value(code: int) -> int | None:
    if INLINE_INT_ZERO <= code <= INLINE_INT_POS_MAX:
        return code - INLINE_INT_ZERO
    if INLINE_INT_POS_MAX < code <= INLINE_INT_NEG_MAX:
        return 192 - code
    return None


def _inline_float_codes(bits: int) -> dict[int, int]:
    out: dict[int, int] = {}
    for code, val in INLINE_FLOATS.items():
        out.setdefault(float_bits(val, bits), code)
    out.setdefault(INV_2PI_BITS[bits], INV_2PI)
    return out


# the inline code of each inline float's bit pattern, per width
_INLINE_FLOAT_CODES = {bits: _inline_float_codes(bits) for bits in (16, 32, 64)}


def inline_float_code_for_bits(pattern: int, bits: int) -> int | None:
    """Inline code whose float value at width `bits` has this bit pattern."""
    codes = _INLINE_FLOAT_CODES.get(bits)
    if codes is None:
        codes = _inline_float_codes(bits) if bits in INV_2PI_BITS else {
            float_bits(v, bits): c for c, v in reversed(INLINE_FLOATS.items())}
    return codes.get(pattern)


def format_float(value: float) -> str:
    """llvm-mc's spelling of an inline float constant."""
    if value == INV_2PI_F64 or abs(value - INV_2PI_F64) < 1e-6:
        return "0.15915494"
    return repr(float(value)) if not value.is_integer() else f"{value:.1f}"


# --- registers ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reg:
    """A register operand: `file` is 's', 'v', 'ttmp', or 'special'.

    For 's'/'v'/'ttmp', `index` is the first register number and `count` the
    number of dwords. For 'special', `index` is the source code (VCC_LO …)
    and `count` its size in dwords.
    """

    file: str
    index: int
    count: int = 1

    def src_code(self) -> int:
        """The 9-bit source-operand code of this register's first dword."""
        if self.file == "s":
            return self.index
        if self.file == "ttmp":
            return TTMP0 + self.index
        if self.file == "v":
            return VGPR0 + self.index
        return self.index


def reg_name(code: int, count: int = 1) -> str:
    """llvm-mc's spelling of a register given its source code and size."""
    if code <= SGPR_MAX:
        return f"s{code}" if count == 1 else f"s[{code}:{code + count - 1}]"
    if TTMP0 <= code <= TTMP15:
        n = code - TTMP0
        return f"ttmp{n}" if count == 1 else f"ttmp[{n}:{n + count - 1}]"
    if code >= VGPR0:
        n = code - VGPR0
        return f"v{n}" if count == 1 else f"v[{n}:{n + count - 1}]"
    if count == 2 and code == VCC_LO:
        return "vcc"
    if count == 2 and code == EXEC_LO:
        return "exec"
    name = SPECIAL_NAMES.get(code)
    if name is None:
        raise ValueError(f"no register at source code {code}")
    return name


def reg_of(code: int, count: int = 1) -> Reg:
    """The `Reg` the parser reads from ``reg_name(code, count)`` (typed operands of
    instructions built without text)."""
    if code <= SGPR_MAX:
        return Reg("s", code, count)
    if TTMP0 <= code <= TTMP15:
        return Reg("ttmp", code - TTMP0, count)
    if code >= VGPR0:
        return Reg("v", code - VGPR0, count)
    sp = _SPECIAL_BY_NAME[reg_name(code, count)]
    return Reg("special", sp[0], sp[1])


def vgpr_name(index: int, count: int = 1) -> str:
    return reg_name(VGPR0 + index, count)


def sgpr_name(index: int, count: int = 1) -> str:
    """Name of an SGPR-field value (7- or 8-bit fields use the same space)."""
    return reg_name(index, count)


def parse_reg_name(text: str) -> Reg | None:
    """Parse a single-token register name (s5, v0, ttmp3, vcc, exec_lo, …).

    Ranges like ``v[0:1]`` span several tokens and are handled by the parser. Names are
    lower case, as llvm-mc-19 reads them (``V4``, ``VCC_LO`` are symbols there).
    """
    t = text
    sp = _SPECIAL_BY_NAME.get(t)
    if sp is not None:
        return Reg("special", sp[0], sp[1])
    for prefix, file in (("ttmp", "ttmp"), ("s", "s"), ("v", "v")):
        if t.startswith(prefix) and t[len(prefix) :].isdigit():
            digits = t[len(prefix) :]
            if len(digits) > 1 and digits[0] == "0":
                return None
            return Reg(file, int(digits), 1)
    return None


REG_FILE_PREFIXES = ("s", "v", "ttmp")


def check_reg(reg: Reg, col: int) -> None:
    """Range and alignment checks llvm-mc applies to every register operand."""
    if reg.file == "s":
        if reg.index + reg.count - 1 > SGPR_MAX:
            raise AsmError("register index is out of range", col)
    elif reg.file == "v":
        if reg.index + reg.count - 1 > 255:
            raise AsmError("register index is out of range", col)
    elif reg.file == "ttmp":
        if reg.index + reg.count - 1 > 15:
            raise AsmError("register index is out of range", col)
    if reg.file in ("s", "ttmp") and reg.count >= 2:
        align = 2 if reg.count == 2 else 4
        if reg.index % align:
            raise AsmError("invalid register alignment", col)


# --- parsed operands -----------------------------------------------------------


@dataclass(slots=True)
class Operand:
    """One parsed source-level operand.

    kind: 'reg' (Reg in `reg`), 'int', 'float', 'sym' (a symbol expression,
    `sym` + `value` offset), 'ident' (a bare keyword such as ``off`` or
    ``mrt0``), 'call' (``name(args)``, e.g. ``hwreg(...)``; args in `args`).
    Modifiers: neg (``-x`` or ``neg(x)``), abs (``|x|`` or ``abs(x)``), sext,
    lit (``lit(x)``: force a literal).
    """

    kind: str
    col: int
    reg: Reg | None = None
    value: int | float = 0
    text: str = ""
    sym: str | None = None
    args: list[list[object]] = ()  # type: ignore[assignment]  # (no list per operand)
    neg: bool = False
    abs: bool = False
    neg_fn: bool = False  # neg(x) spelling (not -x)
    sext: bool = False
    lit: bool = False

    @property
    def has_fp_mods(self) -> bool:
        return self.neg or self.abs

    def is_reg(self, file: str | None = None) -> bool:
        return self.kind == "reg" and (file is None or (self.reg is not None and self.reg.file == file))


@dataclass(slots=True)
class Modifier:
    """A trailing modifier: ``name``, ``name:value`` or ``name:[a,b,…]``."""

    name: str
    col: int
    value: object = None  # int, str, list[int], or None for a bare flag


def _trunc_u(value: int, bits: int) -> int:
    return value & ((1 << bits) - 1)


@dataclass(frozen=True, slots=True)
class SrcEncoding:
    code: int
    literal: int | None = None  # 32-bit literal dword, when code == LITERAL


def literal_for(op: Operand, optype: str) -> int:
    """The 32-bit literal dword llvm-mc emits for an immediate operand.

    `optype` is an operand type such as 'f16', 'f32', 'f64', 'i16', 'i32',
    'i64', 'b32', 'v2f16', 'v2i16'. Raises AsmError if it does not fit.
    """
    bits = type_bits(optype)
    isfloat = optype.startswith(("f", "v2f", "bf"))
    if op.kind == "float":
        v = float(op.value)
        if bits == 64:
            if isfloat:
                return float_bits(v, 64) >> 32
            raise AsmError("invalid operand for instruction", op.col)
        if bits == 16:
            if isfloat or optype.startswith("v2"):
                return float_bits(v, 16)
            return float_bits(v, 16) if optype.startswith("i") else float_bits(v, 32)
        return float_bits(v, 32)
    v = int(op.value)
    if bits == 64:
        if isfloat:
            # a 64-bit float literal is its high 32 bits; an integer given for
            # it is taken as those bits when it fits in 32
            if not -(1 << 31) <= v < (1 << 32):
                raise AsmError("invalid operand for instruction", op.col)
            return _trunc_u(v, 32)
        if not -(1 << 31) <= v < (1 << 32):
            raise AsmError("invalid operand for instruction", op.col)
        return _trunc_u(v, 32)
    if bits == 16 and not optype.startswith("v2"):  # a 16-bit literal: its low half
        if not fits_width(v, 16):
            raise AsmError("invalid operand for instruction", op.col)
        return v & 0xFFFF
    if not -(1 << 31) <= v < (1 << 32):
        raise AsmError("invalid operand for instruction", op.col)
    return _trunc_u(v, 32)


def type_bits(optype: str) -> int:
    """The bits of an operand type (``f32`` 32, ``v2f16`` 16, no digits 32), from a
    memo by type name (the names are the table's few)."""
    b = _TYPE_BITS.get(optype)
    if b is None:
        if optype.startswith("v2"):
            b = 16
        else:
            digits = "".join(ch for ch in optype if ch.isdigit())
            b = int(digits) if digits else 32
        _TYPE_BITS[optype] = b
    return b


_TYPE_BITS: dict[str, int] = {}


def inline_code_for(op: Operand, optype: str) -> int | None:
    """Inline-constant code for an immediate operand of this type, or None."""
    bits = type_bits(optype)
    isfloat = optype.startswith(("f", "v2f", "bf"))
    if op.lit:
        return None
    if op.kind == "int":
        return inline_int_operand_code(int(op.value), optype)
    if op.kind == "float":
        v = float(op.value)
        for code, fv in INLINE_FLOATS.items():
            if v == fv:
                return code
        if abs(v - INV_2PI_F64) < 1e-9 and (isfloat or bits == 32):
            return INV_2PI
        if v == 0.0 and not math.copysign(1.0, v) < 0:
            return INLINE_INT_ZERO
    return None


def fits_width(v: int, width: int) -> bool:
    """Whether `v` is a `width`-bit integer, signed or unsigned (LLVM's isSafeTruncation)."""
    return -(1 << (width - 1)) <= v < (1 << width)


def signed_width(v: int, width: int) -> int:
    """`v` truncated to `width` bits, read as two's complement."""
    v &= (1 << width) - 1
    return v - (1 << width) if v >> (width - 1) else v


def inline_int_operand_code(v: int, optype: str) -> int | None:
    """Inline-constant code of an integer written for an operand of `optype`, as
    llvm-mc-19 chooses it (LLVM's AMDGPUOperandSyntax, "integer inline constants": the
    value is checked after truncation to the operand's width when it fits that width
    signed or unsigned; 0xffffffff is -1 for a 32-bit operand)."""
    bits = type_bits(optype)
    isfloat = optype.startswith(("f", "v2f", "bf"))
    if optype.startswith("v2"):  # packed halves: the 32-bit value
        if fits_width(v, 32):
            c = inline_int_code(signed_width(v, 32))
            if c is not None:
                return c
            if not isfloat:  # packed integers take the 32-bit float constants
                return inline_float_code_for_bits(v & 0xFFFFFFFF, 32)
        return inline_float_code_for_bits(v, 16) if 0 <= v <= 0xFFFF else None
    if bits == 16:
        if not isfloat:  # a 16-bit integer operand: the value as written (0xffff is no -1)
            return inline_int_code(v)
        if not fits_width(v, 16):
            return None
        c = inline_int_code(signed_width(v, 16))
        return c if c is not None else inline_float_code_for_bits(v & 0xFFFF, 16)
    if bits == 64:
        c = inline_int_code(v)
        if c is not None:
            return c
        c = inline_float_code_for_bits(_trunc_u(v, 64), 64)
        if c is None and isfloat and fits_width(v, 32):  # a 64-bit float's high dword
            c = inline_float_code_for_bits((v & 0xFFFFFFFF) << 32, 64)
        return c
    if not fits_width(v, 32):
        return None
    c = inline_int_code(signed_width(v, 32))
    return c if c is not None else inline_float_code_for_bits(v & 0xFFFFFFFF, 32)


def print_imm(value: int, optype: str) -> str:
    """llvm-mc's spelling of a literal-constant value of an operand type."""
    bits = type_bits(optype)
    if bits == 16:
        v = value & 0xFFFF
        c = inline_int_code(v - 0x10000 if v & 0x8000 else v)
        if c is not None:
            return str(inline_int_value(c))
        fc = inline_float_code_for_bits(v, 16) if optype.startswith(("f", "v2f")) else None
        if fc is not None:
            return _inline_float_text(fc)
        return f"0x{v:x}"
    if bits == 64:
        v = value & 0xFFFFFFFFFFFFFFFF
        sv = v - (1 << 64) if v >> 63 else v
        if inline_int_code(sv) is not None:
            return str(sv)
        fc = inline_float_code_for_bits(v, 64)
        if fc is not None:
            return _inline_float_text(fc, 64)
        return f"0x{v:x}"
    v = value & 0xFFFFFFFF
    sv = v - (1 << 32) if v >> 31 else v
    if inline_int_code(sv) is not None:
        return str(sv)
    fc = inline_float_code_for_bits(v, 32)
    if fc is not None:
        return _inline_float_text(fc)
    return f"0x{v:x}"


def _inline_float_text(code: int, bits: int = 32) -> str:
    """llvm-mc's spelling of inline float `code` in a `bits`-wide slot. 1/(2*pi)
    in a 64-bit slot needs all 17 digits: llvm-mc reads "0.15915494" there as a
    double that is not 1/(2*pi) and makes it a literal (inline code 248 only for
    the exact double, as llvm-mc's own disassembly prints it)."""
    if code == INV_2PI:
        return "0.15915494309189532" if bits == 64 else "0.15915494"
    return format_float(INLINE_FLOATS[code])


def src_text(code: int, count: int = 1, literal: int | None = None, optype: str = "b32") -> str:
    """Print a source operand (9-bit code space) as llvm-mc does.

    Raises ValueError for codes that are not valid sources.
    """
    if code <= SGPR_MAX or TTMP0 <= code <= TTMP15 or code >= VGPR0:
        return reg_name(code, count)
    if code in (VCC_LO, EXEC_LO) and count == 2:
        return reg_name(code, 2)
    if code in SPECIAL_NAMES and count == 1:
        return SPECIAL_NAMES[code]
    if code in SPECIAL_NAMES and code not in (VCC_HI, EXEC_HI):
        return SPECIAL_NAMES[code]
    iv = inline_int_value(code)
    if iv is not None:
        return str(iv)
    if code in INLINE_FLOATS or code == INV_2PI:
        return _inline_float_text(code, 64 if count == 2 or type_bits(optype) == 64 else 32)
    if code == LITERAL:
        if literal is None:
            raise ValueError("literal operand without a literal")
        if type_bits(optype) == 64 and optype.startswith("f"):
            return print_imm(literal << 32, optype)
        return print_imm(literal, optype)
    raise ValueError(f"invalid source operand code {code}")


def encode_src(
    op: Operand,
    optype: str,
    *,
    allow_sgpr: bool = True,
    allow_vgpr: bool = True,
    allow_const: bool = True,
    allow_literal: bool = True,
    count: int | None = None,
) -> SrcEncoding:
    """Encode a parsed operand into the 9-bit source space.

    `count` is the register size in dwords the operand slot expects (derived
    from the type if None). Raises AsmError with the operand's column.
    """
    if count is None:
        count = max(1, type_bits(optype) // 32)
    if op.kind == "reg":
        assert op.reg is not None
        r = op.reg
        if r.file == "v":
            if not allow_vgpr:
                raise AsmError("invalid operand for instruction", op.col)
        elif not allow_sgpr:
            raise AsmError("invalid operand for instruction", op.col)
        if r.count != count:
            raise AsmError("invalid operand for instruction", op.col)
        check_reg(r, op.col)
        return SrcEncoding(r.src_code())
    if op.kind in ("int", "float"):
        if not allow_const:
            raise AsmError("invalid operand for instruction", op.col)
        code = inline_code_for(op, optype)
        if code is not None:
            return SrcEncoding(code)
        if not allow_literal:
            raise AsmError("invalid operand for instruction", op.col)
        return SrcEncoding(LITERAL, literal_for(op, optype))
    raise AsmError("invalid operand for instruction", op.col)
