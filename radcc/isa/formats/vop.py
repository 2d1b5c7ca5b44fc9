"""VOP1, VOP2 and VOPC (incl. VOPCX): the 32-bit VALU encodings of GFX11.

ISA guide section 15.3 ("Vector ALU Formats": VOP2, VOP1, VOPC field tables
and opcode tables) and the DPP16/DPP8 extra dwords (see `dpp`):

- VOP2: [8:0] src0, [16:9] vsrc1, [24:17] vdst, [30:25] op, [31] = 0
- VOP1: [8:0] src0, [16:9] op, [24:17] vdst, [31:25] = 0x3F
- VOPC: [8:0] src0, [16:9] vsrc1, [24:17] op, [31:25] = 0x3E

src0 = 0xFA selects DPP16, 0xE9/0xEA DPP8 (the VGPR src0 is in the extra
dword); 0xFF a 32-bit literal. Operands come from the opcode table
(``data/gfx11/vop.json``, written by ``tools/isa_probe/vop.py``). Whatever
the 32-bit form cannot express (SGPR vsrc1, clamp, omod, an sdst other than
VCC, source modifiers without DPP …) raises AsmError so the driver tries
the VOP3 entry next.
"""

from __future__ import annotations

import re

from radcc.isa import operands as O
from radcc.isa.errors import AsmError, DecodeError
from radcc.isa.formats import dpp as D
from radcc.isa.formats import sdwa as W
from radcc.isa.formats import valu_common as V
from radcc.isa.formats.base import Context, Decoded, Encoded, Format, register, u32
from radcc.isa.operands import Operand
from radcc.isa.syntax import ParsedInst
from radcc.isa.table import OperandSpec, OpInfo
from radcc.target import GfxLevel

_T16_RE = re.compile(r"^v(\d+)\.([lh])$")


# --- source printing ----------------------------------------------------------------


def literal_text(lit: int, optype: str) -> str:
    """llvm-mc's spelling of a literal dword in a source of type `optype`."""
    bits = O.type_bits(optype)
    if optype in ("i16", "u16", "b16"):
        return f"0x{lit & 0xFFFF:x}"
    if bits == 16 and not optype.startswith("v2"):
        return O.print_imm(lit & 0xFFFF, "f16")
    if bits == 64:
        if optype.startswith("f"):
            c = O.inline_float_code_for_bits(lit << 32, 64)
            if c is not None:
                return O.src_text(c)
            return "0" if lit == 0 else f"0x{lit:x}"
        return str(lit) if lit <= 64 else f"0x{lit:x}"
    return O.print_imm(lit, "b32")


def src_text(code: int, optype: str, count: int, literal: int | None, asm: bool = False) -> str:
    """Print a 9-bit source (register, inline constant or literal).

    llvm-mc's disassembler prints inline float constants of 16-bit integer
    sources as their f16 bit patterns (0x3800) and 1/(2*pi) of 64-bit
    integer sources in full; its assembler echo (`asm`) keeps the float."""
    if not asm and (code in O.INLINE_FLOATS or code == O.INV_2PI):
        if optype in ("i16", "u16", "b16"):
            if code == O.INV_2PI:
                return f"0x{O.INV_2PI_BITS[16]:x}"
            return f"0x{O.float_bits(O.INLINE_FLOATS[code], 16):x}"
        if optype in ("i64", "u64", "b64") and code == O.INV_2PI:
            return repr(O.INV_2PI_F64)
    if code == O.LITERAL:
        if literal is None:
            raise DecodeError("missing literal")
        return literal_text(literal, optype)
    if code in (O.DPP8, O.DPP8_FI, O.DPP16) or 209 <= code <= 232 or code == 249:
        raise DecodeError("invalid source")
    if count == 2 and (code <= O.EXEC_HI and code != O.NULL and code != O.M0):
        code &= ~1  # llvm-mc prints the aligned pair containing the register
    if count == 2 and code in (O.NULL, O.M0):
        return O.SPECIAL_NAMES[code]
    return O.src_text(code, count, None, optype)


def vgpr_text(idx: int, count: int) -> str:
    return O.vgpr_name(idx, count)


def t16_text(field: int) -> str:
    return f"v{field & 0x7F}.{'h' if field & 0x80 else 'l'}"


def _lo128_note(reg_class: str) -> str:
    """llvm-mc-19's annotation of v128-v255 in a 16-bit short-form slot (see
    `lo128_slots`); the hardware reads the high half of v(N-128) there."""
    return f"/*Invalid register, operand has '{reg_class}' register class*/"


def _dec_mods(info: OpInfo, slot: str, text: str, neg: bool, abs_: bool) -> str:
    dm = info.extra.get("dpp_mods", {})
    if isinstance(dm, dict) and dm.get(slot) == "int":
        return f"sext({text})" if neg else text
    return _with_mods(text, neg, abs_)


def _with_mods(text: str, neg: bool, abs_: bool) -> str:
    if abs_:
        text = f"|{text}|"
    return f"-{text}" if neg else text


# --- encoding helpers -----------------------------------------------------------------


class _Lits:
    """The single literal dword an instruction may carry."""

    def __init__(self) -> None:
        self.value: int | None = None

    def add(self, value: int, col: int) -> None:
        if self.value is not None and self.value != value:
            raise AsmError("only one unique literal operand is allowed", col)
        self.value = value


_NO_SRC_MODS = D.SrcMods()


def _vgpr(op: Operand, spec: OperandSpec, t16: bool) -> int:
    """VGPR field value of a VGPR-only operand (8 bits)."""
    if t16:
        m = _T16_RE.match(op.text.lower()) if op.kind in ("ident", "sym") else None
        if m is None or op.has_fp_mods:
            raise AsmError("invalid operand for instruction", op.col)
        idx = int(m.group(1))
        if idx > 127:
            raise AsmError("register index is out of range", op.col)
        return idx | (0x80 if m.group(2) == "h" else 0)
    if op.kind != "reg" or op.reg is None or op.reg.file != "v":
        raise AsmError("invalid operand for instruction", op.col)
    if op.reg.count != spec.dwords:
        raise AsmError("invalid operand for instruction", op.col)
    O.check_reg(op.reg, op.col)
    return op.reg.index


def _imm_value(op: Operand, optype: str) -> int:
    """32-bit literal of an immediate (no inline constants: used for K)."""
    if op.kind not in ("int", "float") or op.has_fp_mods:
        raise AsmError("invalid operand for instruction", op.col)
    bits = O.type_bits(optype)
    if op.kind == "float":
        return O.float_bits(float(op.value), bits)
    v = int(op.value)
    lim = 1 << bits
    if not -(lim >> 1) <= v < lim:
        raise AsmError("invalid operand for instruction", op.col)
    return v & (lim - 1)


def _fold_imm_mods(op: Operand, spec: OperandSpec, info: OpInfo, ctx: Context) -> Operand:
    """neg/abs on an immediate src0 of a VOP1/VOP2/VOPC form, as llvm-mc folds
    them: the sign bit of the operand's float width is cleared (abs) then
    flipped (neg) in the value, when the instruction's VOP3 form takes those
    modifiers on src0 (e.g. ``v_add_f32 v0, neg(3.0), v1`` is ``v_add_f32_e32 v0,
    0xc0400000, v1``); otherwise, or for an integer under them in a 64-bit slot,
    an error (the VOP3 candidate then keeps the modifier bits)."""
    vop3 = next((e for e in ctx.table.by_name.get(info.name, ())
                 if e.enc in ("VOP3", "VOP3SD")), None)
    sm = vop3.extra.get("src_mods") if vop3 is not None else None
    m0 = sm[0] if isinstance(sm, list) and sm else {}
    if op.lit or op.sext or (op.neg and not m0.get("neg")) or (op.abs and not m0.get("abs")):
        raise AsmError("invalid operand for instruction", op.col)
    bits = O.type_bits(spec.type or "b32")
    if op.kind == "float":
        v = abs(float(op.value)) if op.abs else float(op.value)
        return Operand("float", op.col, value=-v if op.neg else v, text=op.text)
    if bits == 64:
        raise AsmError("invalid operand for instruction", op.col)
    sign = 1 << (bits - 1)
    v = int(op.value)
    if not -sign <= v < 1 << bits:  # (an f16 slot takes 16-bit integers only)
        raise AsmError("invalid operand for instruction", op.col)
    v &= (1 << bits) - 1
    v = (v & ~sign if op.abs else v) ^ (sign if op.neg else 0)
    return Operand("int", op.col, value=v, text=f"0x{v:x}")


def _src0_code(op: Operand, spec: OperandSpec, lits: _Lits, t16: bool,
               regs: O.RegCodes | None = None) -> int:
    """9-bit (logical) src0 code of a non-DPP source; `regs` says which
    special sources the generation has (GFX11's when None). `lit(x)` is accepted
    but does not force a literal, as llvm-mc-19 encodes it (VOP1/VOP2/VOPC as VOP3)."""
    if op.has_fp_mods or op.sext:
        raise AsmError("invalid operand for instruction", op.col)
    if op.lit:
        op = Operand(op.kind, op.col, value=op.value, text=op.text)
    optype = spec.type or "b32"
    bits = O.type_bits(optype)
    if t16 and op.kind in ("ident", "sym"):
        return O.VGPR0 + _vgpr(op, spec, True)
    if op.kind == "reg":
        assert op.reg is not None
        r = op.reg
        if t16 and r.file == "v":
            raise AsmError("invalid operand for instruction", op.col)
        if r.file == "special":
            _check_special(r.index, op.col, regs)
        cnt = spec.dwords
        if r.file == "special" and r.count == 1 and cnt == 2 and r.index not in (
                O.VCC_LO, O.VCC_HI, O.EXEC_LO, O.EXEC_HI):
            if r.index == O.M0 and regs is not None and regs.gfx != GfxLevel.GFX11:
                raise AsmError("invalid operand for instruction", op.col)  # GFX10: not 64-bit
            return r.index
        enc = O.encode_src(op, optype, count=cnt)
        return enc.code
    if op.kind not in ("int", "float"):
        raise AsmError("invalid operand for instruction", op.col)
    code = O.inline_code_for(op, optype)
    if code is not None:
        return code
    if op.kind == "float" and not op.lit and _is_inv2pi(float(op.value), optype):
        return O.INV_2PI
    if bits == 16 and optype.startswith("f") and op.kind == "int" and 0x8000 <= int(op.value) <= 0xFFFF:
        c = O.inline_int_code(int(op.value) - 0x10000)
        if c is not None and not op.lit:
            return c
    if bits == 64:
        lit = _lit64(op, optype)
        if lit is None:
            raise AsmError("invalid operand for instruction", op.col)
        lits.add(lit, op.col)
        return O.LITERAL
    if bits == 16 and not optype.startswith("v2"):
        lits.add(_lit16(op, optype), op.col)
        return O.LITERAL
    lits.add(O.literal_for(op, optype), op.col)
    return O.LITERAL


def _check_special(code: int, col: int, regs: O.RegCodes | None) -> None:
    """Reject special sources the generation lacks, with llvm-mc's message."""
    if regs is None or not regs.lds_direct:
        if code == O.LDS_DIRECT:
            raise AsmError("lds_direct is not supported on this GPU", col)
    if regs is None:
        if code in (O.VCCZ, O.EXECZ):
            raise AsmError("execz and vccz are not supported on this GPU", col)
        if code == O.POPS_EXITING_WAVE_ID:
            raise AsmError("register not available on this GPU", col)
    elif code in regs.bad_src:
        raise AsmError(regs.bad_src[code], col)


def _is_inv2pi(v: float, optype: str) -> bool:
    """Whether a float operand rounds to 1/(2*pi) at the operand's width
    (llvm-mc then uses inline constant 248)."""
    bits = O.type_bits(optype)
    if bits == 64:
        return O.float_bits(v, 64) == O.INV_2PI_BITS[64]
    if bits == 16 and optype.startswith("f") and O.float_bits(v, 16) == O.INV_2PI_BITS[16]:
        return True
    return O.float_bits(v, 32) == O.INV_2PI_BITS[32]


def _lit16(op: Operand, optype: str) -> int:
    if op.kind == "float":
        if optype.startswith("f"):
            v = float(op.value)
            if abs(v) > 65504.0 and v == v and abs(v) != float("inf"):
                raise AsmError("invalid operand for instruction", op.col)
            return O.float_bits(v, 16)
        return O.float_bits(float(op.value), 32)
    v = int(op.value)
    if not -0x8000 <= v <= 0xFFFF:
        raise AsmError("invalid operand for instruction", op.col)
    return v & 0xFFFF


def _lit64(op: Operand, optype: str) -> int | None:
    if op.kind == "float":
        if not optype.startswith("f"):
            return None
        return O.float_bits(float(op.value), 64) >> 32
    v = int(op.value)
    if optype.startswith("f"):
        if 0 <= v <= 0xFFFFFFFF:
            return v
        if v < 0 and v >= -(1 << 31):
            return v & 0xFFFFFFFF
        return None
    if -(1 << 31) <= v <= 0xFFFFFFFF:
        return v & 0xFFFFFFFF
    return None


def lo128_slots(info: OpInfo) -> tuple[str, ...]:
    """The operand slots (``vdst``, ``src0``, ``vsrc1``) of a GFX11 VOP1/VOP2/VOPC
    entry that hold a 16-bit VGPR half: the field's bit 7 selects the high half
    (ISA guide, "16-bit VGPR naming": SRC/DST[6:0] = VGPR, SRC/DST[7] = hi), so
    llvm-mc-19 (fake16 syntax) takes only v0-v127 there, in the 32-bit and DPP
    forms alike. Probed into the table as ``lo128`` (tools/isa_probe/vop.py)."""
    return info.lo128


def _check_lo128(info: OpInfo, inst: ParsedInst, vdst: int, src0_vgpr: int, vsrc1: int) -> None:
    """Reject v128-v255 in a `lo128_slots` slot with llvm-mc's message (at the
    mnemonic); the driver then tries the VOP3 form, which addresses all VGPRs."""
    lo = lo128_slots(info)
    if not lo:
        return
    vals = {"vdst": vdst, "src0": src0_vgpr, "vsrc1": vsrc1}
    if any(vals[n] >= 128 for n in lo if n in vals):
        raise AsmError("operands are not valid for this GPU or mode", inst.col)


def _special_ok(op: Operand, ctx: Context) -> bool:
    r = op.reg
    if op.kind != "reg" or r is None or r.file != "special" or r.index != O.VCC_LO:
        return False
    return r.count == (2 if ctx.wave64 else 1)


# --- the format ----------------------------------------------------------------------


class VopFormat(Format):
    """One of VOP1/VOP2/VOPC (same operand machinery, different layout)."""

    def __init__(self, name: str) -> None:
        self.name = name

    # layout -------------------------------------------------------------------
    def _word(self, info: OpInfo, vdst: int, src0: int, vsrc1: int) -> int:
        if self.name == "VOP1":
            return (0x3F << 25) | (vdst & 0xFF) << 17 | info.opcode << 9 | src0
        if self.name == "VOP2":
            return info.opcode << 25 | (vdst & 0xFF) << 17 | (vsrc1 & 0xFF) << 9 | src0
        return (0x3E << 25) | info.opcode << 17 | (vsrc1 & 0xFF) << 9 | src0

    def _fields(self, w: int) -> tuple[int, int, int, int]:
        """(opcode, vdst, src0, vsrc1) of a first dword."""
        if self.name == "VOP1":
            return (w >> 9) & 0xFF, (w >> 17) & 0xFF, w & 0x1FF, 0
        if self.name == "VOP2":
            return (w >> 25) & 0x3F, (w >> 17) & 0xFF, w & 0x1FF, (w >> 9) & 0xFF
        return (w >> 17) & 0xFF, 0, w & 0x1FF, (w >> 9) & 0xFF

    # encode -------------------------------------------------------------------
    def encode(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        if inst.parse_error is not None:
            raise inst.parse_error
        mn = inst.mnemonic
        want_dpp = mn.endswith("_dpp")
        if mn.endswith("_sdwa") and "sdwa" in info.modifiers:
            return self._encode_sdwa(info, inst, ctx)
        if mn.endswith("_e64") or mn.endswith("_sdwa"):
            raise AsmError("invalid instruction", inst.col)
        dppc, rest = D.parse_dpp(inst.modifiers, legacy_bound_ctrl=ctx.gfx != GfxLevel.GFX11)
        if rest:
            raise AsmError("invalid operand for instruction", rest[0].col)
        if dppc is not None:
            if mn.endswith("_e32"):
                raise AsmError("invalid operand for instruction", inst.modifiers[0].col)
            kind = "dpp8" if isinstance(dppc, D.Dpp8) else "dpp"
            if kind not in info.modifiers:
                raise AsmError("invalid operand for instruction", inst.modifiers[0].col)
        elif want_dpp:
            raise AsmError("too few operands for instruction", inst.col)
        t16 = bool(info.extra.get("t16"))
        specs = info.operands
        ops = inst.operands
        if len(ops) < len(specs):
            raise AsmError("too few operands for instruction", inst.col)
        if len(ops) > len(specs):
            raise AsmError("invalid operand for instruction", ops[len(specs)].col)
        lits = _Lits()
        vdst = vsrc1 = 0
        src0 = 0
        src0_op: Operand | None = None
        k_lit: int | None = None
        mods = [False, False, False, False]  # neg0 abs0 neg1 abs1
        for spec, op in zip(specs, ops, strict=True):
            n = spec.name
            if spec.kind == "special":
                if not _special_ok(op, ctx) or op.has_fp_mods:
                    if op.kind == "reg" and op.reg is not None and op.reg.file == "special" \
                            and op.reg.index == O.VCC_LO:
                        raise AsmError("operands are not valid for this GPU or mode", inst.col)
                    raise AsmError("invalid operand for instruction", op.col)
            elif n == "vdst":
                if op.has_fp_mods:
                    raise AsmError("invalid operand for instruction", op.col)
                vdst = _vgpr(op, spec, t16)
            elif n == "vdst2":  # v_swap*: second VGPR lives in src0
                if op.has_fp_mods:
                    raise AsmError("invalid operand for instruction", op.col)
                src0 = O.VGPR0 + _vgpr(op, spec, False)
            elif n == "sdst":
                r = op.reg
                if op.kind != "reg" or r is None or r.file == "v" or r.count != 1 or op.has_fp_mods:
                    raise AsmError("invalid operand for instruction", op.col)
                O.check_reg(r, op.col)
                vdst = r.src_code()
                if vdst > O.EXEC_HI:
                    raise AsmError("invalid operand for instruction", op.col)
            elif n == "src0":
                src0_op = op
                if info.extra.get("src0_vgpr_only") and not op.is_reg("v"):
                    raise AsmError("invalid operand for instruction", op.col)
                if dppc is None:
                    if op.has_fp_mods and op.kind in ("int", "float"):
                        op = _fold_imm_mods(op, spec, info, ctx)
                    src0 = _src0_code(op, spec, lits, t16, ctx.regs)
            elif n == "vsrc1":
                if op.has_fp_mods or op.sext:
                    _check_dpp_mods(info, "vsrc1", op, dppc)
                    mods[2], mods[3] = op.neg or op.sext, op.abs
                    op = _strip(op)
                vsrc1 = _vgpr(op, spec, False)
            elif n == "k":
                k_lit = _imm_value(op, spec.type)
                lits.add(k_lit, op.col)
        extra = b""
        dpp_v = -1
        if dppc is not None:
            assert src0_op is not None
            spec0 = info.operand("src0")
            assert spec0 is not None
            op = src0_op
            if op.has_fp_mods or op.sext:
                _check_dpp_mods(info, "src0", op, dppc)
                mods[0], mods[1] = op.neg or op.sext, op.abs
                op = _strip(op)
            v = _vgpr(op, spec0, t16) if (t16 or op.kind == "reg") else -1
            if v < 0 or (op.kind == "reg" and op.reg is not None and op.reg.file != "v"):
                raise AsmError("invalid operand for instruction", op.col)
            dpp_v = v
            if isinstance(dppc, D.Dpp8):
                src0 = dppc.src0_code
                extra = dppc.word(v).to_bytes(4, "little")
            else:
                src0 = D.DPP16_CODE
                extra = dppc.word(v, D.SrcMods(*mods)).to_bytes(4, "little")
        _check_lo128(info, inst, vdst, dpp_v if dpp_v >= 0 else src0 - O.VGPR0, vsrc1)
        hw = ctx.regs.to_hw
        if info.operand("sdst") is not None and info.enc == "VOP1":
            vdst = hw[vdst]  # v_readfirstlane: an SGPR in the VDST field
        w = self._word(info, vdst, hw[src0], vsrc1)
        data = w.to_bytes(4, "little") + extra
        if lits.value is not None:
            data += lits.value.to_bytes(4, "little")
        text = None
        if src0 in O.INLINE_FLOATS or src0 == O.INV_2PI:
            d = self._decode(data, 0, ctx, True)
            text = d.text if d is not None else None
        return Encoded(data, text=text)

    # decode -------------------------------------------------------------------
    def decode(self, data: bytes, pos: int, ctx: Context) -> Decoded | None:
        return self._decode(data, pos, ctx, False)

    def _decode(self, data: bytes, pos: int, ctx: Context, asm: bool) -> Decoded | None:
        w = u32(data, pos)
        if w is None:
            return None
        opc, vdst, src0, vsrc1 = self._fields(w)
        info = ctx.table.decode(self.name, opc)
        if info is None:
            return None
        if src0 == W.SDWA_CODE and ctx.gfx != GfxLevel.GFX11:
            return self._decode_sdwa(info, data, pos, ctx, w)
        src0 = ctx.regs.from_hw[src0]
        extra = info.extra
        t16 = bool(extra.get("t16")) if extra else False
        size = 4
        dppc: D.Dpp16 | D.Dpp8 | None = None
        smods = _NO_SRC_MODS
        if src0 == D.DPP16_CODE or src0 in (D.DPP8_CODE, D.DPP8_FI_CODE):
            kind = "dpp" if src0 == D.DPP16_CODE else "dpp8"
            if kind not in info.modifiers:
                return None
            dw = u32(data, pos + 4)
            if dw is None:
                return None
            size = 8
            if kind == "dpp":
                dppc, v, smods = D.decode_dpp16(dw)
                dm = info.extra.get("dpp_mods", {})
                assert isinstance(dm, dict)
                if (smods.neg0 or smods.abs0) and not dm.get("src0") or (
                        smods.neg1 or smods.abs1) and not dm.get("vsrc1"):
                    return None

            else:
                dppc, v = D.decode_dpp8(dw, src0 == D.DPP8_FI_CODE)
            src0 = O.VGPR0 + v
        literal: int | None = None
        has_k = bool(extra.get("k_literal")) if extra else False
        if src0 == O.LITERAL or has_k:
            literal = u32(data, pos + size)
            if literal is None:
                return None
            size += 4
        if dppc is not None and literal is not None:
            return None
        wave_vcc = "vcc" if ctx.wave64 else "vcc_lo"
        lo = lo128_slots(info)
        hi_sel = 0  # ISA 16-bit VGPR naming: bit 7 of a lo128 slot = high half (VOP3 OPSEL bits)
        if lo:
            if "vdst" in lo and vdst >= 128:
                return None  # llvm-mc: invalid instruction encoding
            if "src0" in lo and src0 >= O.VGPR0 + 128:
                hi_sel |= 1
            if "vsrc1" in lo and vsrc1 >= 128:
                hi_sel |= 2
            rej = extra.get("lo128_reject", ())
            assert isinstance(rej, list | tuple)
            if hi_sel & 1 and "src0" in rej or hi_sel & 2 and "vsrc1" in rej:
                return None  # llvm-mc rejects the word rather than annotating the source
        t16_sel = 0  # true16 entries (v_mov_b16 v1.h): the same bits, printed as .h
        if t16:
            t16_sel = (8 if vdst >= 128 and info.operand("vdst") is not None else 0) | (
                1 if src0 >= O.VGPR0 + 128 else 0)
        parts: list[str] = []
        for spec in info.operands:
            n = spec.name
            cnt = spec.dwords
            if cnt > 1 and (n in ("vdst", "vsrc1") and (vsrc1 if n == "vsrc1" else vdst) + cnt > 256
                            or n == "src0" and src0 >= O.VGPR0 and src0 + cnt > O.VGPR0 + 256):
                return None  # a register tuple past v255 (llvm-mc: invalid encoding)
            if spec.kind == "special":
                parts.append(wave_vcc)
            elif n == "vdst":
                parts.append(t16_text(vdst) if t16 else O.reg_name(O.VGPR0 + vdst, spec.dwords))
            elif n == "vdst2":
                parts.append(src_text(src0, "b32", 1, literal))
            elif n == "sdst":
                if vdst > O.EXEC_HI:
                    return None
                parts.append(O.reg_name(ctx.regs.from_hw[vdst], 1))
            elif n == "src0":
                if t16 and src0 >= O.VGPR0:
                    t = t16_text(src0 - O.VGPR0)
                else:
                    t = src_text(src0, spec.type or "b32", spec.dwords, literal, asm)
                if hi_sel & 1:
                    t += _lo128_note("VGPR_32_Lo128" if dppc is not None else "VS_32_Lo128")
                if smods.neg0 or smods.abs0:
                    t = _dec_mods(info, "src0", t, smods.neg0, smods.abs0)
                parts.append(t)
            elif n == "vsrc1":
                t = O.reg_name(O.VGPR0 + vsrc1, spec.dwords)
                if hi_sel & 2:
                    t += _lo128_note("VGPR_32_Lo128")
                if smods.neg1 or smods.abs1:
                    t = _dec_mods(info, "vsrc1", t, smods.neg1, smods.abs1)
                parts.append(t)
            elif n == "k":
                assert literal is not None
                parts.append(f"0x{literal:x}")
        if not info.operands and (src0 or vdst):
            return None
        name = info.printed_name
        if dppc is not None:
            name = str(info.extra.get("dpp_name", info.name + "_dpp"))
        text = name + (" " + ", ".join(parts) if parts else "")
        if dppc is not None:
            text += " " + dppc.text()
        if info.operands and info.operands[0].is_def and info.operands[0].kind != "vgpr":
            vdst = ctx.regs.from_hw[vdst]  # v_readfirstlane's SGPR: a logical code
        fields = _raw_fields(data, pos, w, opc, vdst, src0, vsrc1, literal)
        sel = hi_sel | t16_sel
        if sel:  # what the hardware accesses: a half of VGPR (field & 0x7F), VOP3 OPSEL bits
            fields["opsel"] = sel
            if sel & 1:
                fields["src0"] = src0 - 128
            if sel & 2:
                fields["vsrc1"] = vsrc1 - 128
            if sel & 8:
                fields["vdst"] = vdst - 128
        return Decoded(size, text, info, fields)


    # SDWA (GFX10) -------------------------------------------------------------
    def _encode_sdwa(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        """VOP1/VOP2/VOPC with the SDWA dword (see `sdwa`): no literal, sources
        may be VGPRs, SGPRs or inline constants, modifiers per ``sdwa_mods``."""
        vopc = self.name == "VOPC"
        two = info.operand("vsrc1") is not None
        sd, rest = W.parse_sdwa(inst.modifiers, vopc=vopc, two_src=two)
        outs = info.extra.get("sdwa_out", ())
        assert isinstance(outs, (list, tuple))
        clamp = omod = 0
        for m in rest:
            if m.name == "clamp" and "clamp" in outs and m.value is None and not clamp:
                clamp = 1
            elif m.name in ("mul", "div") and "omod" in outs and not omod:
                omod = V.parse_omod(m)
            else:
                raise AsmError("invalid operand for instruction", m.col)
        specs, ops = info.operands, inst.operands
        if len(ops) < len(specs):
            raise AsmError("too few operands for instruction", inst.col)
        if len(ops) > len(specs):
            raise AsmError("invalid operand for instruction", ops[len(specs)].col)
        hw = ctx.regs.to_hw
        smods = info.extra.get("sdwa_mods", {})
        assert isinstance(smods, dict)
        vdst = src0 = vsrc1 = 0
        sdst = -1
        word = 0
        nsgpr: set[int] = set()
        for spec, op in zip(specs, ops, strict=True):
            n = spec.name
            if spec.kind == "special" and not (vopc and n == "sdst"):
                if not _special_ok(op, ctx) or op.has_fp_mods or op.sext:
                    raise AsmError("invalid operand for instruction", op.col)
            elif n == "sdst":
                r = op.reg
                if op.kind != "reg" or r is None or r.file == "v" or op.has_fp_mods or op.sext \
                        or r.count != (2 if ctx.wave64 else 1):
                    raise AsmError("invalid operand for instruction", op.col)
                O.check_reg(r, op.col)
                code = r.src_code()
                if code != O.VCC_LO:
                    if hw[code] > 0x7F:
                        raise AsmError("invalid operand for instruction", op.col)
                    sdst = hw[code]
            elif n == "vdst":
                if op.has_fp_mods or op.sext:
                    raise AsmError("invalid operand for instruction", op.col)
                vdst = _vgpr(op, spec, False)
            elif n in ("src0", "vsrc1"):
                if n == "src0" and info.extra.get("src0_vgpr_only") and not op.is_reg("v"):
                    raise AsmError("source operand must be a VGPR", op.col)
                kind = smods.get(n)
                neg, abs_, sext = op.neg, op.abs, op.sext
                if (neg or abs_) and kind != "fp" or sext and kind != "int":
                    raise AsmError("invalid operand for instruction", op.col)
                enc = O.encode_src(_strip(op), spec.type or "b32", allow_literal=False,
                                   count=spec.dwords)
                if op.kind == "reg" and op.reg is not None and op.reg.file == "special":
                    _check_special(enc.code, op.col, ctx.regs)
                if enc.code < O.VGPR0:
                    if enc.code <= O.EXEC_HI or enc.code == O.SCC:
                        nsgpr.add(enc.code)
                code = hw[enc.code]
                sh = 16 if n == "src0" else 24
                word |= (int(sext) << 3 | int(neg) << 4 | int(abs_) << 5) << sh
                if code < O.VGPR0:
                    word |= 1 << (sh + 7)
                if n == "src0":
                    word |= code & 0xFF
                    src0 = W.SDWA_CODE
                else:
                    vsrc1 = code & 0xFF
        if len(nsgpr) > 1:
            raise AsmError("invalid operand (violates constant bus restrictions)", inst.col)
        word |= sd.src0_sel << 16 | sd.src1_sel << 24
        if vopc:
            if sdst >= 0:
                word |= (sdst | 0x80) << 8
        else:
            word |= sd.dst_sel << 8 | sd.dst_unused << 11 | clamp << 13 | omod << 14
        w = self._word(info, vdst, W.SDWA_CODE if src0 == 0 else src0, vsrc1)
        data = w.to_bytes(4, "little") + word.to_bytes(4, "little")
        return Encoded(data)

    def _decode_sdwa(self, info: OpInfo, data: bytes, pos: int, ctx: Context,
                     w: int) -> Decoded | None:
        if "sdwa" not in info.modifiers:
            return None
        dw = u32(data, pos + 4)
        if dw is None:
            return None
        _, vdst, _, vsrc1 = self._fields(w)
        vopc = self.name == "VOPC"
        two = info.operand("vsrc1") is not None
        frm = ctx.regs.from_hw
        src0_sel, src1_sel = (dw >> 16) & 7, (dw >> 24) & 7
        if not W.valid_sel(src0_sel) or two and not W.valid_sel(src1_sel):
            return None
        if not two and dw >> 24:
            return None
        smods = info.extra.get("sdwa_mods", {})
        outs = info.extra.get("sdwa_out", ())
        assert isinstance(smods, dict) and isinstance(outs, (list, tuple))
        wave_vcc = "vcc" if ctx.wave64 else "vcc_lo"
        parts: list[str] = []
        for spec in info.operands:
            n = spec.name
            if vopc and n == "sdst":
                if dw >> 15 & 1:
                    code = frm[(dw >> 8) & 0x7F]
                    if code > O.EXEC_HI:
                        return None
                    parts.append(O.reg_name(code & ~1 if ctx.wave64 else code,
                                            2 if ctx.wave64 else 1))
                else:
                    parts.append(wave_vcc)
            elif spec.kind == "special":
                parts.append(wave_vcc)
            elif n == "vdst":
                parts.append(O.reg_name(O.VGPR0 + vdst, 1))
            elif n in ("src0", "vsrc1"):
                sh = 16 if n == "src0" else 24
                f = dw & 0xFF if n == "src0" else vsrc1
                code = frm[f] if dw >> (sh + 7) & 1 else O.VGPR0 + f
                if code == O.LITERAL or code in (D.DPP16_CODE, D.DPP8_CODE, D.DPP8_FI_CODE,
                                                 W.SDWA_CODE):
                    return None
                try:
                    t = src_text(code, spec.type or "b32", 1, None)
                except (DecodeError, ValueError):
                    return None
                sext, neg, abs_ = dw >> (sh + 3) & 1, dw >> (sh + 4) & 1, dw >> (sh + 5) & 1
                if smods.get(n) == "int":
                    if neg or abs_:
                        return None
                    t = f"sext({t})" if sext else t
                else:
                    if sext:
                        return None
                    t = V.mods_text(t, bool(neg), bool(abs_), code < O.VGPR0 and code > O.EXEC_HI)
                parts.append(t)
        text = str(info.extra.get("sdwa_name", info.name + "_sdwa")) + " " + ", ".join(parts)
        if vopc:
            if not W.valid_sel(src0_sel):
                return None
        else:
            dst_sel, unused = (dw >> 8) & 7, (dw >> 11) & 3
            clamp, omod = dw >> 13 & 1, dw >> 14 & 3
            if not W.valid_sel(dst_sel) or unused > 2:
                return None
            if clamp and "clamp" not in outs or omod and "omod" not in outs:
                return None
            if clamp:
                text += " clamp"
            if omod:
                text += " " + V.omod_text(omod)
            text += f" {W.sel_text('dst_sel', dst_sel)} {W.sel_text('dst_unused', unused)}"
        text += " " + W.sel_text("src0_sel", src0_sel)
        if two:
            text += " " + W.sel_text("src1_sel", src1_sel)
        return Decoded(8, text, info, {"op": info.opcode, "vdst": vdst, "src0": W.SDWA_CODE,
                                       "vsrc1": vsrc1, "sdwa": dw})


def _raw_fields(data: bytes, pos: int, w: int, opc: int, vdst: int, src0: int, vsrc1: int,
                literal: int | None) -> dict[str, int]:
    """`Decoded.fields` per docs/machine-layer.md ("Structured decoding");
    `w` is the first dword."""
    f = {"op": opc, "vdst": vdst, "src0": src0, "vsrc1": vsrc1}
    if literal is not None:
        f["literal"] = literal
    code = w & 0x1FF
    if code != D.DPP16_CODE and code != D.DPP8_CODE and code != D.DPP8_FI_CODE:
        return f
    dw = u32(data, pos + 4)
    if dw is not None and code == D.DPP16_CODE:
        f.update(dpp_ctrl=((dw >> 8) & 0x1ff), fi=((dw >> 18) & 1), bound_ctrl=((dw >> 19) & 1),
                 src0_neg=((dw >> 20) & 1), src0_abs=((dw >> 21) & 1),
                 src1_neg=((dw >> 22) & 1), src1_abs=((dw >> 23) & 1),
                 bank_mask=((dw >> 24) & 0xf), row_mask=((dw >> 28) & 0xf))
    elif dw is not None and code in (D.DPP8_CODE, D.DPP8_FI_CODE):
        f.update(dpp8=((dw >> 8) & 0xffffff), fi=int(code == D.DPP8_FI_CODE))
    return f


def _check_dpp_mods(info: OpInfo, slot: str, op: Operand, dppc: object) -> None:
    """neg/abs (float sources) or sext (integer sources) exist only in DPP16;
    the table's ``dpp_mods`` says which kind each source takes."""
    if dppc is None:
        raise AsmError("invalid operand for instruction", op.col)
    if isinstance(dppc, D.Dpp8):
        raise AsmError("invalid operand for instruction", op.col)
    dm = info.extra.get("dpp_mods", {})
    kind = dm.get(slot) if isinstance(dm, dict) else None
    if kind == "fp" and not op.sext:
        return
    if kind == "int" and op.sext and not op.has_fp_mods:
        return
    raise AsmError("not a valid operand.", op.col)


def _strip(op: Operand) -> Operand:
    return Operand(op.kind, op.col, reg=op.reg, value=op.value, text=op.text, sym=op.sym)


VOP1 = register(VopFormat("VOP1"), (0xFE000000, 0x7E000000))
VOPC = register(VopFormat("VOPC"), (0xFE000000, 0x7C000000))
VOP2 = register(VopFormat("VOP2"), (0x80000000, 0x00000000))
