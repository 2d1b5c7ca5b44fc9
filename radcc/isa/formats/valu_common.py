"""Shared VALU operand-modifier helpers (ISA guide 15.3.4 VOP3 / 15.3.6 VOP3P).

Used by the VOP3/VOP3SD encoder (`vop3.py`) and by VOP3P/VOPD. Covers:

* source modifiers: ``-x``, ``|x|``, ``-|x|``, ``neg(x)``, ``abs(x)``
  (VOP3 NEG [63:61] and ABS [10:8] fields) -- parsing checks and printing;
* ``clamp`` (CLMP [15]) and the output modifier OMOD [60:59]
  (``mul:2``, ``mul:4``, ``div:2``);
* ``op_sel:[..]`` / ``op_sel_hi:[..]`` / ``neg_lo:[..]`` / ``neg_hi:[..]``
  bit arrays (OPSEL [14:11], the last element of op_sel is the dst bit);
* the operand-level rules of GFX10+ VALU encodings: one unique 32-bit
  literal per instruction, at most two scalar values (SGPRs, the literal)
  on the constant bus;
* literal printing for 16-bit integer operands (llvm-mc prints the low
  16 bits in hex unless the whole literal is an inline integer).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from radcc.isa.errors import AsmError
from radcc.isa.operands import (
    ANY_SIZE_SOURCES,
    DPP8,
    DPP8_FI,
    DPP16,
    EXEC_HI,
    INLINE_FLOATS,
    INV_2PI,
    INV_2PI_BITS,
    INV_2PI_F64,
    LDS_DIRECT,
    LITERAL,
    NULL,
    SGPR_MAX,
    SPECIAL_VALUES,
    VGPR0,
    Modifier,
    Operand,
    RegCodes,
    SrcEncoding,
    encode_src,
    float_bits,
    inline_float_code_for_bits,
    inline_int_code,
    regs_for,
    src_text,
)
from radcc.target import GfxLevel

# OMOD field value -> llvm-mc spelling
OMOD_TEXT: dict[int, str] = {1: "mul:2", 2: "mul:4", 3: "div:2"}
_OMOD_PARSE: dict[tuple[str, int], int] = {
    ("mul", 1): 0,
    ("mul", 2): 1,
    ("mul", 4): 2,
    ("div", 1): 0,
    ("div", 2): 3,
}

CONSTANT_BUS_LIMIT = 2  # GFX10+: two scalar values per VALU instruction
BUS_ERROR = "invalid operand (violates constant bus restrictions)"
LITERAL_ERROR = "only one unique literal operand is allowed"


def is_float_type(optype: str) -> bool:
    """True for float operand types (f16 f32 f64 bf16 v2f16 ...)."""
    return optype.startswith(("f", "bf", "v2f", "v2bf"))


# --- source modifiers ----------------------------------------------------------


def take_src_mods(op: Operand, *, allow_neg: bool, allow_abs: bool) -> tuple[bool, bool]:
    """(neg, abs) of a parsed source operand, checking the slot accepts them.

    llvm-mc reports a modifier on a slot without modifiers as
    ``not a valid operand.`` at the operand's column; ``sext`` is never
    valid in GFX11 VOP3.
    """
    if op.sext:
        raise AsmError("not a valid operand.", op.col)
    if (op.neg and not allow_neg) or (op.abs and not allow_abs):
        raise AsmError("not a valid operand.", op.col)
    return op.neg, op.abs


def mods_text(text: str, neg: bool, abs_: bool, is_imm: bool) -> str:
    """Print a source with neg/abs as llvm-mc does.

    A negated immediate without abs prints as ``neg(imm)`` (so it differs
    from a negative constant); otherwise ``-x``, ``|x|``, ``-|x|``.
    """
    if abs_:
        text = f"|{text}|"
    if neg:
        if is_imm and not abs_:
            return f"neg({text})"
        return "-" + text
    return text


# --- trailing modifiers ----------------------------------------------------------


def parse_omod(mod: Modifier) -> int:
    """OMOD field value of ``mul:N`` / ``div:N``."""
    v = mod.value
    if not isinstance(v, int) or (mod.name, v) not in _OMOD_PARSE:
        raise AsmError("invalid " + mod.name + " value", mod.col)
    return _OMOD_PARSE[(mod.name, v)]


def omod_text(omod: int) -> str:
    return OMOD_TEXT.get(omod, "")


def parse_bit_array(mod: Modifier, n: int) -> list[int]:
    """Bits of ``name:[a,b,...]`` with exactly `n` 0/1 elements."""
    v = mod.value
    if not isinstance(v, list) or len(v) != n or any(x not in (0, 1) for x in v):
        raise AsmError("invalid " + mod.name + " value.", mod.col)
    return [int(x) for x in v]  # type: ignore[arg-type]


def bit_array_text(name: str, bits: list[int]) -> str:
    return f"{name}:[" + ",".join(str(b) for b in bits) + "]"


def bits_to_int(bits: list[int]) -> int:
    return sum(b << i for i, b in enumerate(bits))


def int_to_bits(value: int, n: int) -> list[int]:
    return [(value >> i) & 1 for i in range(n)]


@dataclass
class ValuMods:
    """Trailing VALU modifiers of one statement."""

    clamp: bool = False
    omod: int = 0
    arrays: dict[str, Modifier] = field(default_factory=dict)  # op_sel, op_sel_hi, neg_lo, neg_hi
    other: list[Modifier] = field(default_factory=list)  # left for the caller (dpp controls ...)


_ARRAY_MODS = ("op_sel", "op_sel_hi", "neg_lo", "neg_hi")


_MOD_RANK = {"op_sel": 0, "clamp": 1, "omod": 2}


def collect_mods(
    mods: list[Modifier], *, clamp: bool, omod: bool, arrays: tuple[str, ...] = (),
    others: tuple[str, ...] = (),
) -> ValuMods:
    """Sort trailing modifiers, rejecting ones the instruction does not take.

    `arrays` lists the accepted bit-array modifiers, `others` the names the
    caller handles itself (returned in ``.other``).
    """
    out = ValuMods()
    last = -1  # llvm-mc-19 takes the optional modifiers once each, in the asm string's
    for m in mods:  # order (op_sel, clamp, omod, DPP): `mul:2 clamp` is an invalid operand
        rank = _MOD_RANK.get("omod" if m.name in ("mul", "div") else m.name)
        if rank is None and m.name in others:  # DPP controls follow (their own order free)
            if last > 3:
                raise AsmError("invalid operand for instruction", m.col)
            last = 3
        elif rank is not None:
            if rank <= last:
                raise AsmError("not a valid operand." if rank == 0 else
                               "invalid operand for instruction", m.col)
            last = rank
        if m.name == "clamp" and clamp and m.value is None:
            out.clamp = True
        elif m.name in ("mul", "div") and omod:
            out.omod = parse_omod(m)
        elif m.name in _ARRAY_MODS and m.name in arrays:
            out.arrays[m.name] = m
        elif m.name in others:
            out.other.append(m)
        else:
            raise AsmError("invalid operand for instruction", m.col)
    return out


# --- sources, literals, constant bus -----------------------------------------------


def is_scalar_code(code: int) -> bool:
    """A source code read over the constant bus as a register (SGPR/special)."""
    return code <= SGPR_MAX or (SGPR_MAX < code <= EXEC_HI and code != NULL) or \
        code in SPECIAL_VALUES


class SrcRules:
    """Tracks the literal and constant-bus use of one VALU instruction.

    Call `add` for every source (after encoding), in operand order; it
    raises AsmError at the offending operand. `literal` is the one literal
    dword (or None).
    """

    def __init__(self, bus_limit: int = CONSTANT_BUS_LIMIT, literal_ok: bool = True) -> None:
        self.bus_limit = bus_limit
        self.literal_ok = literal_ok
        self.literal: int | None = None
        self._sgprs: set[int] = set()
        self._bus = 0

    def use_sgpr(self, code: int, col: int, dwords: int = 1) -> None:
        """Count an explicit or implicit scalar register read (e.g. VCC);
        like llvm-mc, s0 and s[0:1] are different registers; null is no read."""
        if code == NULL:
            return
        key = code | dwords << 9
        if key in self._sgprs:
            return
        self._sgprs.add(key)
        self._bus += 1
        if self._bus > self.bus_limit:
            raise AsmError(BUS_ERROR, col)

    def add(self, op: Operand, enc: SrcEncoding, dwords: int = 1) -> None:
        if enc.code == LITERAL:
            assert enc.literal is not None
            if not self.literal_ok:
                raise AsmError("literal operands are not supported", op.col)
            if self.literal is None:
                self.literal = enc.literal
                self._bus += 1
                if self._bus > self.bus_limit:
                    raise AsmError(BUS_ERROR, op.col)
            elif self.literal != enc.literal:
                raise AsmError(LITERAL_ERROR, op.col)
        elif enc.code < VGPR0 and is_scalar_code(enc.code):
            self.use_sgpr(enc.code, op.col, dwords if enc.code <= EXEC_HI else 1)


def encode_valu_src(
    op: Operand, optype: str, count: int, *, allow_sgpr: bool = True, allow_vgpr: bool = True,
    allow_const: bool = True, allow_literal: bool = True, regs: RegCodes | None = None,
) -> SrcEncoding:
    """Encode one VALU source (modifiers are the caller's business); `regs`
    (the generation's `RegCodes`, GFX11's rules when None) says which special
    sources exist.

    `lit(x)` is accepted but, as llvm-mc 19 does for VOP3, does not force
    a literal when the value is an inline constant.
    """
    if op.lit:
        op = Operand(op.kind, op.col, op.reg, op.value, op.text, op.sym, op.args)
    if op.kind == "reg" and op.reg is not None and op.reg.file == "special":
        code = op.reg.index
        bad = _UNAVAILABLE if regs is None or regs.gfx == GfxLevel.GFX11 else regs.bad_src
        if code in bad:
            raise AsmError(bad[code], op.col)
        if code == LDS_DIRECT and regs is not None and not regs.lds_direct:
            raise AsmError(_UNAVAILABLE[LDS_DIRECT], op.col)
        if count == 2 and op.reg.count == 1 and code in _ANY_SIZE:
            if not allow_sgpr:
                raise AsmError("invalid operand for instruction", op.col)
            return SrcEncoding(code)
    if op.kind == "int" and optype in _SCALAR16 and not -0x8000 <= int(op.value) <= 0xFFFF:
        raise AsmError("invalid operand for instruction", op.col)
    if op.kind == "float" and count == 1 and optype != "f64" and not op.lit:
        if float_bits(float(op.value), 32) == INV_2PI_BITS[32] and allow_const:
            return SrcEncoding(INV_2PI)
    if op.kind == "float" and optype == "f64" and not op.lit:
        v = float(op.value)
        if v != INV_2PI_F64 and abs(v - INV_2PI_F64) < 1e-6:
            # only the exact double 1/(2*pi) is inline for f64 slots
            return SrcEncoding(LITERAL, float_bits(v, 64) >> 32)
    if op.kind == "float" and type_is_int64(optype):
        # llvm-mc rejects fp literals for 64-bit integer slots unless inline
        enc = encode_src(op, optype, allow_sgpr=allow_sgpr, allow_vgpr=allow_vgpr,
                         allow_const=allow_const, allow_literal=False, count=count)
        return enc
    return encode_src(op, optype, allow_sgpr=allow_sgpr, allow_vgpr=allow_vgpr,
                      allow_const=allow_const, allow_literal=allow_literal, count=count)


_SCALAR16 = ("i16", "u16", "b16", "f16", "bf16")
# source codes llvm-mc refuses on GFX11, with its message
_UNAVAILABLE = regs_for(GfxLevel.GFX11).bad_src | {
    LDS_DIRECT: "lds_direct is not supported on this GPU"}
_ANY_SIZE = ANY_SIZE_SOURCES


def type_is_int64(optype: str) -> bool:
    return optype in ("i64", "u64", "b64")


def valu_src_text(code: int, count: int, literal: int | None, optype: str) -> str:
    """Print a VALU source as llvm-mc does, including its quirks: 16-bit int
    slots print inline floats as f16 hex patterns and literals as 16-bit hex;
    f64 literals (the high dword) print as 32-bit hex unless inline."""
    if optype in ("i16", "u16", "b16") and (code in INLINE_FLOATS or code == INV_2PI):
        pat = INV_2PI_BITS[16] if code == INV_2PI else float_bits(INLINE_FLOATS[code], 16)
        return f"0x{pat:x}"
    if optype == "bf16" and code == LITERAL and literal is not None:
        return f"0x{literal:x}"
    if optype == "f64":
        if code == INV_2PI:
            return "0.15915494309189532"
        if code == LITERAL and literal is not None:
            c = inline_float_code_for_bits(literal << 32, 64)
            if c is not None and c != INV_2PI:
                return src_text(c)
            return "0" if literal == 0 else f"0x{literal:x}"
    if code == LITERAL and literal is not None and optype in ("i16", "u16", "b16"):
        sv = literal - (1 << 32) if literal >> 31 else literal
        if inline_int_code(sv) is not None:
            return str(sv)
        return f"0x{literal & 0xFFFF:x}"
    return src_text(code, count, literal, optype)


def dpp_fields(code: int, word: int) -> dict[str, int]:
    """The `Decoded.fields` keys of a DPP dword (docs/machine-layer.md,
    "Structured decoding"); `code` is the src0 field that selected it
    (DPP16, DPP8 or DPP8_FI). The caller sets ``src0`` to 256 + word[7:0]."""
    if code == DPP16:  # ISA guide 15.3.8
        return {
            "dpp_ctrl": (word >> 8) & 0x1FF,
            "fi": (word >> 18) & 1,
            "bound_ctrl": (word >> 19) & 1,
            "src0_neg": (word >> 20) & 1,
            "src0_abs": (word >> 21) & 1,
            "src1_neg": (word >> 22) & 1,
            "src1_abs": (word >> 23) & 1,
            "bank_mask": (word >> 24) & 0xF,
            "row_mask": (word >> 28) & 0xF,
        }
    assert code in (DPP8, DPP8_FI)  # ISA guide 15.3.9
    return {"dpp8": (word >> 8) & 0xFFFFFF, "fi": int(code == DPP8_FI)}
