"""Scalar encodings: SOP2, SOPK, SOP1, SOPC, SOPP (ISA guide 15.1) and SMEM (15.2).

Field layouts (first dword):
  SOP2  [31:30]=10        op[29:23] sdst[22:16] ssrc1[15:8] ssrc0[7:0]
  SOPK  [31:28]=1011      op[27:23] sdst[22:16] simm16[15:0]
  SOP1  [31:23]=10_1111101 sdst[22:16] op[15:8] ssrc0[7:0]
  SOPC  [31:23]=10_1111110 op[22:16] ssrc1[15:8] ssrc0[7:0]
  SOPP  [31:23]=10_1111111 op[22:16] simm16[15:0]
  SMEM  [31:26]=111101 op[25:18] sdata[12:6] sbase[5:0]; offset[52:32] (21-bit signed)
        soffset[63:57]; cache bits per generation (`SMEM_LAYOUT`): GFX11 glc[14] dlc[13]
        (llvm-mc; the RDNA3 guide says 16/14), GFX10/10.3 glc[16] dlc[14] (RDNA1/2 guides,
        checked with llvm-mc -mcpu=gfx1010/gfx1030)
A source code 255 appends a 32-bit literal dword. Operand roles, sizes and
immediate styles come from ``radcc/isa/data/<gen>/scalar.json`` (the table of
the context's generation).

GFX10: register fields hold hardware values (``ctx.regs.to_hw``: M0 = 124,
NULL = 125), everything else works on logical (GFX11) codes, including
`Decoded.fields`. GFX10 sources also accept src_vccz/src_execz/
src_pops_exiting_wave_id (``ctx.regs.bad_src`` is empty). SMEM stores and
atomics (GFX10.1) read SDATA; single-operand SMEM ops (s_memtime) have
only SDATA; s_dcache_discard has no SDATA.
"""

from __future__ import annotations

from dataclasses import dataclass

from radcc.isa import operands as O
from radcc.isa.errors import AsmError, DecodeError
from radcc.isa.formats import scalar_fields as F
from radcc.isa.formats.base import Context, Decoded, Encoded, Fixup, Format, register, u32
from radcc.isa.lexer import EOL, IDENT, Token
from radcc.isa.operands import Operand
from radcc.isa.syntax import Cursor, ParsedInst
from radcc.isa.table import OperandSpec, OpInfo

# --- shared operand helpers -----------------------------------------------------

_ANY_SIZE = O.ANY_SIZE_SOURCES
_GFX11_REGS = O.regs_for(O.GfxLevel.GFX11)
# sources GFX10 also takes at any size (GFX11 rejects them: `RegCodes.bad_src`)
_ANY_SIZE_GFX10 = (O.VCCZ, O.EXECZ, O.POPS_EXITING_WAVE_ID)


def _no_mods(op: Operand) -> None:
    if op.neg or op.abs or op.sext:
        raise AsmError("invalid operand for instruction", op.col)


def sgpr_field(op: Operand, spec: OperandSpec, *, allow_null: bool = True) -> int:
    """A 7-bit SGPR field (SDST, SDATA, SOFFSET): SGPRs, VCC, TTMPs, NULL, M0, EXEC."""
    _no_mods(op)
    if op.kind != "reg" or op.reg is None or op.reg.file == "v":
        raise AsmError("invalid operand for instruction", op.col)
    r = op.reg
    code = r.src_code()
    if code > O.EXEC_HI or (code == O.NULL and not allow_null):
        raise AsmError("invalid operand for instruction", op.col)
    if r.count != spec.dwords and code != O.NULL:
        raise AsmError("invalid operand for instruction", op.col)
    if spec.dwords > 1 and code in (O.M0, O.VCC_HI, O.EXEC_HI):
        raise AsmError("invalid operand for instruction", op.col)
    O.check_reg(r, op.col)
    return code


def _int_norm(v: int, bits: int) -> int:
    """Two's complement reading of a parsed integer at the slot width."""
    if bits == 64:
        return v - (1 << 64) if (1 << 63) <= v < (1 << 64) else v
    return v - (1 << 32) if (1 << 31) <= v < (1 << 32) else v


def ssrc_field(op: Operand, spec: OperandSpec, lits: list[int],
               regs: O.RegCodes = _GFX11_REGS) -> int:
    """An 8-bit scalar source (SSRC0/SSRC1) as a logical code; a literal is
    appended to `lits`. `regs` says which sources the generation has."""
    _no_mods(op)
    bits = 64 if spec.bits == 64 else 32
    if op.kind == "reg":
        assert op.reg is not None
        r = op.reg
        if r.file == "v":
            raise AsmError("invalid operand for instruction", op.col)
        code = r.src_code()
        if code in regs.bad_src:
            raise AsmError(regs.bad_src[code], op.col)
        if code == O.LDS_DIRECT:
            raise AsmError("invalid operand for instruction", op.col)
        if r.file == "special" and (code in _ANY_SIZE or code in _ANY_SIZE_GFX10):
            return code
        if r.count != spec.dwords:
            raise AsmError("invalid operand for instruction", op.col)
        O.check_reg(r, op.col)
        return code
    if op.kind == "int":
        v = _int_norm(int(op.value), bits)
        # lit() does not force a literal for SALU operands (llvm-mc 19)
        c = O.inline_int_operand_code(v, "b64" if bits == 64 else "b32")
        if c is not None:
            return c
        if not -(1 << 31) <= v < (1 << 32):
            raise AsmError("invalid operand for instruction", op.col)
        return _add_lit(lits, v & 0xFFFFFFFF, op.col)
    if op.kind == "float":
        fv = float(op.value)
        if bits == 64:
            fb = O.float_bits(fv, 64)
            c = O.inline_float_code_for_bits(fb, 64)
            if fv == 0.0:
                c = O.INLINE_INT_ZERO if fb == 0 else None
            if c is not None:
                return c
            raise AsmError("invalid operand for instruction", op.col)
        fb = O.float_bits(fv, 32)
        c = O.INLINE_INT_ZERO if fb == 0 else O.inline_float_code_for_bits(fb, 32)
        if c is not None:
            return c
        return _add_lit(lits, fb, op.col)
    if op.kind == "sym":
        raise AsmError("invalid operand for instruction", op.col)
    raise AsmError("invalid operand for instruction", op.col)


def _add_lit(lits: list[int], v: int, col: int) -> int:
    if lits and lits[0] != v:
        raise AsmError("only one unique literal operand is allowed", col)
    if not lits:
        lits.append(v)
    return O.LITERAL


def src_name(code: int, spec: OperandSpec, lit: int | None) -> str:
    """llvm-mc's text of an SSRC value of this slot (a 64-bit slot holding
    vcc_hi, m0 or exec_hi is invalid, as llvm-mc-19 decodes GFX10 and GFX11)."""
    n = spec.dwords
    if n == 2 and code in (O.VCC_HI, O.M0, O.EXEC_HI):
        raise DecodeError("bad 64-bit register")
    if n > 1 and code <= O.EXEC_HI:
        # llvm-mc ignores the low bits of a misaligned SGPR/TTMP tuple
        align = 2 if n == 2 else 4
        code -= (code - (O.TTMP0 if code >= O.TTMP0 else 0)) % align if code <= O.TTMP15 else code % 2
    if code <= O.SGPR_MAX or O.TTMP0 <= code <= O.TTMP15:
        if code <= O.SGPR_MAX and code + n - 1 > O.SGPR_MAX:
            raise DecodeError("register out of range")
        if O.TTMP0 <= code and code + n - 1 > O.TTMP15:
            raise DecodeError("register out of range")
        return O.reg_name(code, n)
    if code in (O.VCC_LO, O.EXEC_LO) and n == 2:
        return O.reg_name(code, 2)
    if code in (O.VCC_HI, O.EXEC_HI, O.M0) and n == 2:
        raise DecodeError("bad 64-bit register")
    if code in (O.LDS_DIRECT, O.DPP8, O.DPP8_FI, O.DPP16):
        raise DecodeError("invalid source")
    if code == O.INV_2PI and n == 2:
        return "0.15915494309189532"
    if code == O.LITERAL:
        assert lit is not None
        return O.print_imm(lit, "b64" if n == 2 else "b32")
    return O.src_text(code, 1)


def dst_name(code: int, spec: OperandSpec) -> str:
    if code > O.EXEC_HI:
        raise DecodeError("invalid sdst")
    if code == O.NULL:
        return "null"
    return src_name(code, spec, None)


def _ops_by_role(info: OpInfo, inst: ParsedInst) -> dict[str, Operand]:
    """Map parsed operands to the entry's operand roles (in printed order)."""
    order = info.extra.get("asm_order") or [o.name for o in info.operands]
    if inst.parse_error is not None:
        raise inst.parse_error
    if inst.modifiers:
        raise AsmError("invalid operand for instruction", inst.modifiers[0].col)
    if len(inst.operands) > len(order):
        raise AsmError("invalid operand for instruction", inst.operands[len(order)].col)
    if len(inst.operands) < len(order):
        raise AsmError("too few operands for instruction", inst.col)
    return dict(zip(order, inst.operands, strict=True))


def _word(data: bytes, pos: int) -> int:
    w = u32(data, pos)
    if w is None:
        raise DecodeError("truncated")
    return w


# --- SOP2 / SOP1 / SOPC -----------------------------------------------------------


class _SopReg(Format):
    """Formats whose operands are SDST/SSRC0/SSRC1 register fields."""

    shifts: dict[str, int] = {}
    base = 0
    op_shift = 0

    def encode(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        ops = _ops_by_role(info, inst)
        w = self.base | info.opcode << self.op_shift
        lits: list[int] = []
        regs = ctx.regs
        hw = regs.to_hw
        echo: int | None = None
        for spec in info.operands:
            op = ops[spec.name]
            if spec.kind == "sgpr":
                w |= hw[sgpr_field(op, spec)] << self.shifts[spec.name]
            elif spec.kind == "sendmsg_rtn":
                if op.kind == "call":
                    v = F.parse_sendmsg(op.text, op.args, op.col, ctx.gfx)
                elif op.kind == "int":
                    v = int(op.value)
                else:
                    raise AsmError("expected a sendmsg macro or an absolute expression", op.col)
                if not 0 <= v <= 0xFFFF:
                    raise AsmError("invalid immediate: only 16-bit values are legal", op.col)
                w |= (v & 0xFF) << self.shifts[spec.name]
                if v > 0xFF:  # llvm-mc echoes the value it was given (the field keeps 8 bits)
                    echo = v
            else:
                # register-only slots: llvm-mc takes SCC as a 32-bit and the
                # apertures as 64-bit registers there
                bad = (O.SCC, *_ANY_SIZE_GFX10) if spec.bits == 64 else _ANY_SIZE[1:5]
                if spec.kind == "sreg" and (op.kind != "reg" or (
                        op.reg is not None and op.reg.file == "special"
                        and op.reg.index in bad)):
                    raise AsmError("invalid operand for instruction", op.col)
                w |= hw[ssrc_field(op, spec, lits, regs)] << self.shifts[spec.name]
        data = w.to_bytes(4, "little") + b"".join(x.to_bytes(4, "little") for x in lits)
        if echo is not None:
            d = self.decode(data, 0, ctx)
            if d is not None:
                # (the destination is the only other operand and has no ", " in it)
                head = d.text.split(", ", 1)[0]
                return Encoded(data, text=f"{head}, {F.sendmsg_text(echo, ctx.gfx, rtn=True)}")
        return Encoded(data)

    def decode(self, data: bytes, pos: int, ctx: Context) -> Decoded | None:
        w = _word(data, pos)
        op = (w >> self.op_shift) & self.op_mask
        info = ctx.table.decode(self.name, op)
        if info is None:
            return None
        size = 4
        lit: int | None = None
        shifts = self.shifts
        for s in info.operands:
            if s.kind == "ssrc" and (w >> shifts[s.name]) & 0xFF == O.LITERAL:
                lit = u32(data, pos + 4)
                if lit is None:
                    return None
                size = 8
                break
        parts = []
        lg = ctx.regs.from_hw
        for spec in info.operands:
            kind = spec.kind
            if kind == "sgpr":
                parts.append(dst_name(lg[(w >> shifts[spec.name]) & 0x7F], spec))
            elif kind == "sendmsg_rtn":
                parts.append(F.sendmsg_text((w >> shifts[spec.name]) & 0xFF, ctx.gfx, rtn=True))
            else:
                code = lg[(w >> shifts[spec.name]) & 0xFF]
                if kind == "sreg" and code > O.EXEC_HI and code not in _SREG_SPECIAL:
                    raise DecodeError("constant in a register-only source")  # s_setpc_b64 ...
                parts.append(src_name(code, spec, lit))
        text = info.printed_name + (" " + ", ".join(parts) if parts else "")
        fields = {"op": op}
        for name, sh in shifts.items():
            fields[name] = lg[(w >> sh) & (0x7F if name == "sdst" else 0xFF)]
        if lit is not None:
            fields["literal"] = lit
        return Decoded(size, text, info, fields)

    op_mask = 0x7F


class Sop2(_SopReg):
    name = "SOP2"
    base = 0b10 << 30
    op_shift = 23
    shifts = {"sdst": 16, "ssrc1": 8, "ssrc0": 0}


class Sop1(_SopReg):
    name = "SOP1"
    base = 0b101111101 << 23
    op_shift = 8
    op_mask = 0xFF
    shifts = {"sdst": 16, "ssrc0": 0}


class Sopc(_SopReg):
    name = "SOPC"
    base = 0b101111110 << 23
    op_shift = 16
    shifts = {"ssrc1": 8, "ssrc0": 0}


# --- SOPK / SOPP: 16-bit immediates ----------------------------------------------------


def _imm_text_asm(v: int, style: str) -> str:
    """How llvm-mc prints an immediate it parsed (not yet truncated)."""
    if style == "dec":
        return str(v)
    if style == "hex":
        return f"0x{v & 0xFFFF:x}"
    s = _int_norm(v & 0xFFFFFFFF, 32)
    return str(s) if -16 <= s <= 64 else f"0x{s & 0xFFFFFFFF:x}"


def _imm_text_dec(v: int, style: str) -> str:
    if style == "dec":
        return str(v)
    if style == "hex":
        return f"0x{v:x}"
    return str(v) if v <= 64 else f"0x{v:x}"


def _simm16(op: Operand, info: OpInfo) -> int:
    """Value of a plain 16-bit immediate, with llvm-mc's range rules."""
    if op.kind != "int" or op.neg or op.abs:
        raise AsmError("invalid operand for instruction", op.col)
    v = int(op.value)
    style = str(info.extra.get("imm_style", "hex"))
    if info.enc == "SOPP" and style == "dec_hex":
        if not -(1 << 63) <= v < (1 << 64):
            raise AsmError("invalid operand for instruction", op.col)
        return v & 0xFFFF
    if info.extra.get("imm_optional"):
        if not 0 <= v <= 0xFFFF:
            raise AsmError("expected a 16-bit value", op.col)
        return v
    lo = 0 if info.extra.get("imm_unsigned") else -(1 << 15)
    if not lo <= v <= 0xFFFF:
        raise AsmError("invalid operand for instruction", op.col)
    return v & 0xFFFF


class _SopImm(Format):
    """SOPK and SOPP: SDST (SOPK) plus one 16-bit immediate of some kind."""

    base = 0
    op_shift = 0
    op_mask = 0x7F

    def encode(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        w = self.base | info.opcode << self.op_shift
        kinds = {o.kind for o in info.operands}
        fixups: list[Fixup] = []
        lits: list[int] = []
        text_parts: list[str] | None = None
        if kinds & {"waitcnt", "depctr", "delay", "version"}:
            cur = Cursor(inst.tokens)
            if cur.at_end():
                raise AsmError("too few operands for instruction", inst.col)
            kind = next(iter(kinds & {"waitcnt", "depctr", "delay", "version"}))
            if kind == "delay":
                v = F.parse_delay(cur)
            else:
                v = {"waitcnt": F.parse_waitcnt, "depctr": F.parse_depctr,
                     "version": F.parse_version}[kind](cur, ctx.gfx)
            w |= v
            if kind == "version":
                text_parts = [f"0x{v:x}"]
            return Encoded(w.to_bytes(4, "little"),
                           text=None if text_parts is None else
                           f"{info.printed_name} {', '.join(text_parts)}")
        if info.extra.get("imm_zero") or (info.extra.get("imm_optional") and not inst.operands
                                          and inst.parse_error is None):
            if inst.operands or inst.modifiers or inst.parse_error:
                col = (inst.operands[0].col if inst.operands else inst.tokens[0].col)
                raise AsmError("invalid operand for instruction", col)
            return Encoded(w.to_bytes(4, "little"))
        ops = _ops_by_role(info, inst)
        text_parts = []
        for spec in (info.operands if "asm_order" not in info.extra else
                     [info.operand(n) for n in info.extra["asm_order"]]):  # type: ignore[union-attr]
            assert spec is not None
            op = ops[spec.name]
            if spec.kind == "sgpr":
                code = sgpr_field(op, spec)
                if info.name.startswith("s_waitcnt_") and code != O.NULL and ctx.gfx >= O.GfxLevel.GFX11:
                    raise AsmError("src0 must be null", op.col)
                w |= ctx.regs.to_hw[code] << 16
                text_parts.append(dst_name(code, spec))
            elif spec.kind in ("hwreg", "sendmsg"):
                if op.lit:  # llvm-mc-19 takes no lit() here
                    raise AsmError("expected a hwreg macro, structured immediate or an absolute "
                                   "expression" if spec.kind == "hwreg" else
                                   "expected a sendmsg macro or an absolute expression", op.col)
                parse, show = ((F.parse_hwreg, F.hwreg_text) if spec.kind == "hwreg"
                               else (F.parse_sendmsg, F.sendmsg_text))
                if op.kind == "call":
                    v = parse(op.text, op.args, op.col, gfx=ctx.gfx)
                elif op.kind == "int":
                    v = int(op.value)
                    if not 0 <= v <= 0xFFFF:
                        raise AsmError("invalid immediate: only 16-bit values are legal", op.col)
                else:
                    raise AsmError("invalid operand for instruction", op.col)
                w |= v
                text_parts.append(show(v, gfx=ctx.gfx))
            elif spec.kind == "literal":
                if op.kind == "int":
                    lit = int(op.value) & 0xFFFFFFFF
                elif op.kind == "float":
                    lit = O.float_bits(float(op.value), 32)
                else:
                    raise AsmError("invalid operand for instruction", op.col)
                lits.append(lit)
                text_parts.append(O.print_imm(lit, "b32"))
            elif spec.kind == "label":
                if op.abs or op.sext or op.neg_fn:  # llvm-mc-19's words and columns
                    raise AsmError("not a valid operand.", op.col)
                if op.lit:  # at the `(` of `lit(`
                    raise AsmError("invalid operand for instruction", op.col + 3)
                if op.kind in ("ident", "sym"):
                    if op.kind == "sym":
                        raise AsmError("expected an absolute expression or a label", op.col)
                    fixups.append(Fixup(0, str(op.sym), 0, "sopp_br"))
                    text_parts.append(str(op.sym))
                elif op.kind == "int":
                    v = int(op.value)
                    if not -(1 << 15) <= v <= 0xFFFF:
                        raise AsmError("expected a 16-bit signed jump offset", op.col)
                    w |= v & 0xFFFF
                    text_parts.append(str(v))
                else:
                    raise AsmError("invalid operand for instruction", op.col)
            else:
                v = _simm16(op, info)
                w |= v
                if info.extra.get("imm_optional") and v == 0:
                    continue
                text_parts.append(_imm_text_asm(int(op.value),
                                                str(info.extra.get("imm_style", "hex"))))
        data = w.to_bytes(4, "little") + b"".join(x.to_bytes(4, "little") for x in lits)
        text = f"{info.printed_name} {', '.join(text_parts)}".rstrip()
        return Encoded(data, fixups, text)

    def decode(self, data: bytes, pos: int, ctx: Context) -> Decoded | None:
        w = _word(data, pos)
        info = ctx.table.decode(self.name, (w >> self.op_shift) & self.op_mask)
        if info is None:
            return None
        imm = w & 0xFFFF
        size = 4
        fields = self._fields(info, w, ctx)
        if info.extra.get("imm_zero"):
            if imm:
                return None
            return Decoded(4, info.printed_name, info, fields)
        if info.extra.get("imm_optional") and imm == 0:
            return Decoded(4, info.printed_name, info, fields)
        style = str(info.extra.get("imm_style", "hex"))
        parts = []
        order = info.extra.get("asm_order") or [o.name for o in info.operands]
        gfx = ctx.gfx
        for name in order:
            spec = info.operand(str(name))
            assert spec is not None
            k = spec.kind
            if k == "sgpr":
                parts.append(dst_name(ctx.regs.from_hw[(w >> 16) & 0x7F], spec))
            elif k == "hwreg":
                parts.append(F.hwreg_text(imm, gfx))
            elif k == "sendmsg":
                parts.append(F.sendmsg_text(imm, gfx))
            elif k == "waitcnt":
                parts.append(F.waitcnt_text(imm, gfx))
            elif k == "depctr":
                parts.append(F.depctr_text(imm, gfx))
            elif k == "delay":
                parts.append(F.delay_text(imm))
            elif k == "version":
                parts.append(F.version_text(imm, gfx))
            elif k == "literal":
                lit = u32(data, pos + 4)
                if lit is None:
                    return None
                size = 8
                fields["literal"] = lit
                parts.append(O.print_imm(lit, "b32"))
            else:
                parts.append(_imm_text_dec(imm, style))
        return Decoded(size, f"{info.printed_name} {', '.join(parts)}", info, fields)

    def _fields(self, info: OpInfo, w: int, ctx: Context) -> dict[str, int]:
        """`Decoded.fields` per docs/machine-layer.md ("Structured decoding")."""
        return {"op": info.opcode, "simm16": w & 0xFFFF}


class Sopk(_SopImm):
    name = "SOPK"
    base = 0b1011 << 28
    op_shift = 23
    op_mask = 0x1F

    def _fields(self, info: OpInfo, w: int, ctx: Context) -> dict[str, int]:
        """SIMM16 as the instruction uses it: sign-extended for the signed
        integer ops and branch offsets, raw for the unsigned compares, wait
        counts and hwreg/version values."""
        imm = w & 0xFFFF
        spec = info.operand("simm16")
        kind = spec.kind if spec is not None else ""
        signed = (kind == "label" or (kind == "imm" and not info.extra.get("imm_unsigned")
                                      and info.cls != "waitcnt"))
        simm = imm - 0x10000 if signed and imm & 0x8000 else imm
        f = {"op": info.opcode, "sdst": ctx.regs.from_hw[(w >> 16) & 0x7F], "simm16": simm}
        if kind == "label":
            f["branch_offset"] = simm
        return f


class Sopp(_SopImm):
    name = "SOPP"
    base = 0b101111111 << 23
    op_shift = 16
    op_mask = 0x7F

    def _fields(self, info: OpInfo, w: int, ctx: Context) -> dict[str, int]:
        """SIMM16 raw; branches add `branch_offset` (signed dwords from the
        next instruction)."""
        imm = w & 0xFFFF
        f = {"op": info.opcode, "simm16": imm}
        spec = info.operand("simm16")
        if spec is not None and spec.kind == "label":
            f["branch_offset"] = imm - 0x10000 if imm & 0x8000 else imm
        return f


# --- SMEM --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SmemLayout:
    """Generation-specific SMEM bits: the cache-policy bit positions."""

    glc: int
    dlc: int


# register-only ("sreg") sources also take these special values (llvm-mc-19: src_shared_base ..
# src_pops_exiting_wave_id, src_vccz, src_execz, src_scc), but no constant or literal
_SREG_SPECIAL = O.SPECIAL_VALUES

# SMEM data registers llvm-mc-19 never decodes (its SReg_*_XM0_XEXEC classes; GFX10 and
# GFX11 alike in logical codes): m0 and exec, and vcc_hi as a 64-bit pair's start.
_SDATA_BAD = frozenset((O.M0, O.EXEC_LO, O.EXEC_HI))

SMEM_LAYOUT = {
    O.GfxLevel.GFX10: SmemLayout(glc=16, dlc=14),
    O.GfxLevel.GFX10_3: SmemLayout(glc=16, dlc=14),
    O.GfxLevel.GFX11: SmemLayout(glc=14, dlc=13),
}


class Smem(Format):
    name = "SMEM"
    size = 8
    base = 0b111101 << 26

    def encode(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        if inst.parse_error is not None:
            raise inst.parse_error
        lay = SMEM_LAYOUT[ctx.gfx]
        hw = ctx.regs.to_hw
        lo = self.base | info.opcode << 18
        soffset, offset = O.NULL, 0
        ops = inst.operands
        specs = info.operands
        has_off = bool(specs) and specs[-1].name == "soffset"
        # llvm-mc: an omitted trailing offset operand means offset 0 (printed "0x0")
        omitted_off = has_off and len(ops) == len(specs) - 1
        if len(ops) < len(specs) and not omitted_off:
            raise AsmError("too few operands for instruction", inst.col)
        if len(ops) > len(specs):
            raise AsmError("invalid operand for instruction", ops[len(specs)].col)
        for spec, op in zip(specs, ops, strict=False):
            if spec.name == "sdata":
                if spec.kind == "imm":
                    if op.kind != "int" or not 0 <= int(op.value) <= 0x7F:
                        raise AsmError("invalid operand for instruction", op.col)
                    lo |= int(op.value) << 6
                else:
                    code = sgpr_field(op, spec)
                    if code in _SDATA_BAD or (code == O.NULL and spec.dwords > 2) or (
                            code == O.VCC_HI and spec.dwords == 2):
                        raise AsmError("invalid operand for instruction", op.col)
                    lo |= hw[code] << 6
            elif spec.name == "sbase":
                _no_mods(op)  # abs(s[0:1]) was accepted and dropped (campaign seed 120)
                is_null = (op.kind == "reg" and op.reg is not None
                           and op.reg.src_code() == O.NULL and spec.dwords == 2)
                if op.kind != "reg" or op.reg is None or op.reg.file == "v" or (
                        op.reg.count != spec.dwords and not is_null):
                    raise AsmError("invalid operand for instruction", op.col)
                code = op.reg.src_code()
                O.check_reg(op.reg, op.col)
                if code > O.EXEC_HI or (code % 2 and not is_null) or (
                        spec.dwords == 4 and code == O.EXEC_LO):
                    raise AsmError("invalid operand for instruction", op.col)
                lo |= hw[code] >> 1
            elif op.kind == "reg":
                soffset = sgpr_field(op, OperandSpec("soffset", "sgpr", 32))
            elif op.kind == "int":
                _no_mods(op)
                offset = self._offset(int(op.value), op.col, info)
            else:
                raise AsmError("invalid operand for instruction", op.col)
        seen_offset = False
        for m in inst.modifiers:
            if m.name == "offset" and has_off and soffset != O.NULL and not seen_offset:
                if not isinstance(m.value, int):
                    raise AsmError("invalid operand for instruction", m.col)
                offset = self._offset(m.value, m.col, info)
                seen_offset = True
            elif m.name in ("glc", "dlc") and m.value is None and info.has_mod(m.name):
                lo |= 1 << (lay.glc if m.name == "glc" else lay.dlc)
            elif m.name == "slc":
                raise AsmError("invalid cache policy for SMEM instruction", inst.col)
            else:
                raise AsmError("invalid operand for instruction", m.col)
        hi = (offset & 0x1FFFFF) | hw[soffset] << 25 if has_off else 0
        data = lo.to_bytes(4, "little") + hi.to_bytes(4, "little")
        text = None
        if has_off and soffset == O.NULL and (omitted_off or ops[-1].kind == "int"):
            text = self._text(info, lo, hi, ctx, null_as_offset=True)
        return Encoded(data, text=text)

    @staticmethod
    def _offset(v: int, col: int, info: OpInfo) -> int:
        if info.extra.get("offset_unsigned") and not 0 <= v < (1 << 20):
            raise AsmError("expected a 20-bit unsigned offset", col)
        if not -(1 << 20) <= v < (1 << 20):
            raise AsmError("expected a 21-bit signed offset", col)
        return v

    def _text(self, info: OpInfo, lo: int, hi: int, ctx: Context,
              null_as_offset: bool = False) -> str:
        parts = []
        lg = ctx.regs.from_hw
        for spec in info.operands:
            if spec.name == "sdata":
                f = (lo >> 6) & 0x7F
                parts.append(_imm_text_dec(f, "dec_hex") if spec.kind == "imm"
                             else dst_name(lg[f], spec))
            elif spec.name == "sbase":
                base = lg[(lo & 0x3F) << 1]
                # (GFX10 null's field 62 reads back as m0: only an encode gets here with it)
                parts.append(src_name(O.NULL if base == O.M0 else base, spec, None))
            else:
                off = hi & 0x1FFFFF
                off = off - (1 << 21) if off >> 20 else off
                soff = lg[hi >> 25]
                offs = f"-0x{-off:x}" if off < 0 else f"0x{off:x}"
                if soff == O.NULL:
                    parts.append(offs if (off or null_as_offset) else "null")
                else:
                    so = dst_name(soff, OperandSpec("soffset", "sgpr", 32))
                    parts.append(so + (f" offset:{offs}" if off else ""))
        mods = ""
        if info.operands:
            lay = SMEM_LAYOUT[ctx.gfx]
            if lo >> lay.glc & 1 and info.has_mod("glc"):
                mods += " glc"
            if lo >> lay.dlc & 1 and info.has_mod("dlc"):
                mods += " dlc"
        return info.printed_name + (" " + ", ".join(parts) if parts else "") + mods

    def decode(self, data: bytes, pos: int, ctx: Context) -> Decoded | None:
        lo = _word(data, pos)
        hi = u32(data, pos + 4)
        if hi is None:
            return None
        info = ctx.table.decode(self.name, (lo >> 18) & 0xFF)
        if info is None:
            return None
        lg = ctx.regs.from_hw
        if ctx.gfx == O.GfxLevel.GFX11:  # (llvm-mc's GFX10 decoder ignores these bits)
            lay = SMEM_LAYOUT[ctx.gfx]
            if (lo >> lay.glc & 1 and not info.has_mod("glc")) or (
                    lo >> lay.dlc & 1 and not info.has_mod("dlc")):
                raise DecodeError("cache-policy bit on an SMEM instruction without it")
        for spec in info.operands:
            if spec.name == "sdata" and spec.kind != "imm":
                code = lg[(lo >> 6) & 0x7F]
                if code in _SDATA_BAD or (spec.dwords == 2 and code == O.VCC_HI):
                    raise DecodeError("invalid SMEM data register")
            elif spec.name == "sbase":
                # (GFX10 encodes a null base as field 62, which its decoder reads as
                # m0 and rejects: llvm-mc assembles what it cannot disassemble)
                base = lg[(lo & 0x3F) << 1]
                if base == O.M0 or (spec.dwords == 4 and base == O.EXEC_LO):
                    raise DecodeError("invalid SMEM base register")
        return Decoded(8, self._text(info, lo, hi, ctx), info, self._fields(info, lo, hi, ctx))

    @staticmethod
    def _fields(info: OpInfo, lo: int, hi: int, ctx: Context) -> dict[str, int]:
        """`Decoded.fields` per docs/machine-layer.md ("Structured decoding");
        register fields as logical (GFX11-numbered) codes."""
        off = hi & 0x1FFFFF
        lay = SMEM_LAYOUT[ctx.gfx]
        lg = ctx.regs.from_hw
        has_off = bool(info.operands) and info.operands[-1].name == "soffset"
        return {
            "op": info.opcode,
            "sdata": lg[(lo >> 6) & 0x7F],
            "sbase": lg[(lo & 0x3F) << 1],
            "offset": off - (1 << 21) if off >> 20 else off,
            # no-operand ops (cache invalidates) leave the field 0: report it unused
            "soffset": lg[hi >> 25] if has_off else O.NULL,
            "glc": (lo >> lay.glc) & 1,
            "dlc": (lo >> lay.dlc) & 1,
        }


register(Sop1(), (0xFF800000, 0xBE800000))
register(Sopc(), (0xFF800000, 0xBF000000))
register(Sopp(), (0xFF800000, 0xBF800000))
register(Sopk(), (0xF0000000, 0xB0000000))
register(Sop2(), (0xC0000000, 0x80000000))
register(Smem(), (0xFC000000, 0xF4000000))

_ = (EOL, IDENT, Token)
