"""VOP3 and VOP3SD encodings of GFX11 (ISA guide 15.3.4 and 15.3.5).

Both share dword 0 bits [31:26] = 0b110101 and the 10-bit opcode [25:16];
VOP3SD (v_div_scale, v_mad_u64_u32, v_add_co_u32, v_*_co_ci_u32 ...)
replaces ABS/OPSEL [14:8] with an SDST field. Dword 1 holds SRC0..SRC2
(9 bits each), OMOD [60:59] and NEG [63:61]. An optional third dword is a
32-bit literal, or a DPP16/DPP8 control when SRC0 is 0xFA / 0xE9 / 0xEA.

Covers native VOP3 opcodes and the _e64 forms of VOP1 (op + 0x180),
VOP2 (op + 0x100) and VOPC (op + 0). Opcode facts come from
``radcc/isa/data/gfx11/vop3.json`` (tools/isa_probe/vop3.py), including the
per-opcode masks of modifier bits llvm-mc rejects/ignores when decoding.
"""

from __future__ import annotations

from radcc.isa.errors import AsmError
from radcc.isa.formats import dpp as dppmod
from radcc.isa.formats.base import Context, Decoded, Encoded, Format, register, u32
from radcc.isa.formats.valu_common import (
    SrcRules,
    bit_array_text,
    bits_to_int,
    collect_mods,
    dpp_fields,
    encode_valu_src,
    int_to_bits,
    mods_text,
    omod_text,
    parse_bit_array,
    take_src_mods,
    valu_src_text,
)
from radcc.isa.formats.vop3_interp import VGPR_QUIRK_CODES, decode_interp, encode_interp
from radcc.isa.operands import (
    DPP8,
    DPP8_FI,
    DPP16,
    EXEC_HI,
    EXEC_LO,
    INLINE_INT_ZERO,
    LDS_DIRECT,
    LITERAL,
    M0,
    NULL_OR_SPECIAL,
    SGPR_MAX,
    SPECIAL_NAMES,
    SPECIAL_VALUES,
    TTMP0,
    TTMP15,
    VCC_HI,
    VCC_LO,
    VGPR0,
    Operand,
    RegCodes,
    check_reg,
    reg_name,
    vgpr_name,
)
from radcc.isa.syntax import ParsedInst
from radcc.isa.table import OpInfo

ENC_BITS = 0b110101 << 26
ENC_MASK = 0xFC000000


def _src_mods(info: OpInfo, i: int) -> dict:
    sm = info.extra.get("src_mods") or []
    return sm[i] if i < len(sm) else {}  # type: ignore[index,return-value]


# --- assembling ------------------------------------------------------------------


# null and the src_* special values fit a scalar slot of any size (llvm-mc-19,
# gfx1010/gfx1030/gfx1100, wave32 and wave64)
_ANY_SIZE = NULL_OR_SPECIAL
# Lane-mask (sreg_wave) slots: llvm-mc decodes scalar registers, null and the
# src_* values except these logical codes (its exec-less register classes;
# probed for gfx1010 and gfx1100): sources and definitions, per wave size.
_WAVE_SRC_BAD = {1: frozenset((EXEC_LO, EXEC_HI)), 2: frozenset((VCC_HI, M0, EXEC_LO, EXEC_HI))}
_WAVE_DEF_BAD = {1: frozenset((LDS_DIRECT,)), 2: frozenset((VCC_HI, M0, EXEC_HI, LDS_DIRECT))}


def _sreg_code(op: Operand, dwords: int, regs: RegCodes) -> int:
    """Code of a scalar register operand of `dwords` size (SDST-like slots)."""
    if op.kind != "reg" or op.reg is None or op.reg.file == "v" or op.has_fp_mods or op.sext:
        raise AsmError("invalid operand for instruction", op.col)
    r = op.reg
    if r.file == "special" and r.index in regs.bad_src:  # GFX11: no vccz/execz
        raise AsmError(regs.bad_src[r.index], op.col)
    if r.count != dwords:
        if not (r.file == "special" and r.index in _ANY_SIZE):
            raise AsmError("invalid operand for instruction", op.col)
    check_reg(r, op.col)
    return r.src_code()


def _vgpr_index(op: Operand, dwords: int) -> int:
    if op.kind != "reg" or op.reg is None or op.reg.file != "v" or op.has_fp_mods or op.sext:
        raise AsmError("invalid operand for instruction", op.col)
    if op.reg.count != dwords:
        raise AsmError("invalid operand for instruction", op.col)
    check_reg(op.reg, op.col)
    return op.reg.index


class Vop3Format(Format):
    """VOP3 (and, as subclass, VOP3SD)."""

    name = "VOP3"
    size = 8

    # --- encode ------------------------------------------------------------------
    def encode(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        if inst.parse_error is not None:
            raise inst.parse_error
        if info.extra.get("interp"):  # GFX10 v_interp_*_e64 / *_f16 (vop3_interp)
            i0, i1 = encode_interp(info, inst)
            return Encoded(i0.to_bytes(4, "little") + i1.to_bytes(4, "little"))
        is_sd = info.enc == "VOP3SD"
        defs, srcs = info.defs, info.srcs
        ops = inst.operands
        want = len(defs) + len(srcs)
        if len(ops) > want:
            raise AsmError("invalid operand for instruction", ops[want].col)
        if len(ops) < want:
            raise AsmError("too few operands for instruction", inst.col)
        allowed = info.modifiers
        vm = collect_mods(
            inst.modifiers,
            clamp="clamp" in allowed,
            omod="omod" in allowed,
            arrays=("op_sel",) if "op_sel" in allowed else (),
            others=tuple(dppmod.DPP_MODIFIERS) if info.extra.get("dpp") else (),
        )
        wave_dw = 2 if ctx.wave64 else 1
        vdst = int(info.extra.get("vdst_fixed", 0))  # type: ignore[arg-type]
        sdst = 0
        for spec, op in zip(defs, ops, strict=False):
            if spec.kind == "vgpr":
                vdst = _vgpr_index(op, spec.dwords)
            elif spec.kind == "sreg_wave":
                code = _sreg_code(op, wave_dw, ctx.regs)
                if is_sd:
                    sdst = code
                else:
                    vdst = code
            else:
                vdst = _sreg_code(op, spec.dwords, ctx.regs)
        rules = SrcRules(int(info.extra.get("bus_limit", 2)))  # type: ignore[call-overload]
        if "vcc" in info.implicit_reads:
            rules.use_sgpr(VCC_LO, inst.col, wave_dw)  # implicit VCC read (v_div_fmas)
        codes = [0, 0, 0]
        neg = abs_ = 0
        for i, (spec, op) in enumerate(zip(srcs, ops[len(defs):], strict=True)):
            sm = _src_mods(info, i)
            allow_neg = bool(sm.get("neg"))
            if op.sext and sm.get("sext") and not op.neg:
                op.sext = False
                op.neg = allow_neg = True
            n, a = take_src_mods(op, allow_neg=allow_neg, allow_abs=bool(sm.get("abs")))
            neg |= int(n) << i
            abs_ |= int(a) << i
            if spec.kind == "sreg_wave":
                code = _sreg_code(op, wave_dw, ctx.regs)
                rules.use_sgpr(code, op.col)
                codes[i] = code
                continue
            enc = encode_valu_src(
                op, spec.type or "b32", spec.dwords,
                allow_sgpr=spec.kind != "vgpr",
                allow_vgpr=spec.kind not in ("ssrc", "sgpr"),
                allow_const=spec.kind != "vgpr" and bool(sm.get("const", True)),
                allow_literal=spec.kind != "vgpr" and bool(sm.get("lit", True)),
                regs=ctx.regs,
            )
            # llvm-mc: an integer literal under neg/abs in an f64 slot is an error (its
            # 64-bit meaning is ambiguous); a float literal keeps its high dword
            if enc.code == LITERAL and spec.type == "f64" and (n or a) and op.kind != "float":
                inner = op.col + int(a) + (4 if op.neg_fn else int(n))
                raise AsmError("invalid operand for instruction", inner)
            if enc.code == LDS_DIRECT and i:  # GFX10: llvm-mc's VOP3 rule
                raise AsmError("lds_direct may be used as src0 only", op.col)
            rules.add(op, enc, spec.dwords)
            codes[i] = enc.code
        opsel = 0
        if "op_sel" in vm.arrays:
            m = vm.arrays["op_sel"]
            n_ = len(m.value) if isinstance(m.value, list) else 0
            bits = parse_bit_array(m, n_ if 1 <= n_ <= 4 else -1)
            nsrc = len(srcs)
            # the last element is the destination bit (bit 3) when given
            if n_ == nsrc + 1 or n_ == 4:
                dst = bits[-1]
                sb = bits[:-1]
            else:
                dst = 0
                sb = bits
            opsel = bits_to_int(sb[:3]) | dst << 3
        dpp_ctl = None
        if vm.other:
            dpp_ctl, rest = dppmod.parse_dpp(vm.other)
            if rest:
                raise AsmError("invalid operand for instruction", rest[0].col)
        if dpp_ctl is None and inst.mnemonic.endswith("_dpp"):  # `_e64_dpp` needs a control
            if codes[0] < VGPR0:  # as llvm-mc-19: a DPP src0 is a VGPR, checked first
                raise AsmError("invalid operand for instruction", ops[len(defs)].col)
            raise AsmError("too few operands for instruction", inst.col)
        hw = ctx.regs.to_hw  # GFX10 swaps the M0/NULL field values
        if not any(spec.kind == "vgpr" for spec in defs) and "vdst_fixed" not in info.extra:
            vdst = hw[vdst]
        w0 = ENC_BITS | info.opcode << 16 | (vdst & 0xFF) | int(vm.clamp) << 15
        if is_sd:
            w0 |= (hw[sdst] & 0x7F) << 8
        else:
            w0 |= abs_ << 8 | opsel << 11
        extra = b""
        if dpp_ctl is not None:
            if codes[0] < VGPR0:
                raise AsmError("invalid operand for instruction", ops[len(defs)].col)
            if rules.literal is not None:
                raise AsmError("invalid operand for instruction", inst.col)
            if len(srcs) > 1 and srcs[1].kind != "sreg_wave" and codes[1] < VGPR0:
                src1 = ops[len(defs) + 1]
                if src1.kind in ("int", "float"):
                    raise AsmError("src1 immediate operand invalid for instruction", src1.col)
                raise AsmError("invalid operand for instruction", src1.col)
            if isinstance(dpp_ctl, dppmod.Dpp8):
                extra = dpp_ctl.word(codes[0] - VGPR0).to_bytes(4, "little")
                codes[0] = dpp_ctl.src0_code
            else:
                extra = dpp_ctl.word(codes[0] - VGPR0).to_bytes(4, "little")
                codes[0] = DPP16
        elif rules.literal is not None:
            extra = rules.literal.to_bytes(4, "little")
        w1 = hw[codes[0]] | hw[codes[1]] << 9 | hw[codes[2]] << 18 | vm.omod << 27 | neg << 29
        return Encoded(w0.to_bytes(4, "little") + w1.to_bytes(4, "little") + extra)

    # --- decode ------------------------------------------------------------------
    def decode(self, data: bytes, pos: int, ctx: Context) -> Decoded | None:
        w0 = u32(data, pos)
        w1 = u32(data, pos + 4)
        if w0 is None or w1 is None:
            return None
        op = (w0 >> 16) & 0x3FF
        info = ctx.table.decode("VOP3", op) or ctx.table.decode("VOP3SD", op)
        if info is None:
            return None
        return decode_vop3(info, w0, w1, data, pos, ctx)


def decode_vop3(info: OpInfo, w0: int, w1: int, data: bytes, pos: int,
                ctx: Context) -> Decoded | None:
    is_sd = info.enc == "VOP3SD"
    rej = info.extra.get("dec_reject") or [0, 0]
    ign = info.extra.get("dec_ignore") or [0, 0]
    if not is_sd:
        if w0 & rej[0] or w1 & rej[1]:  # type: ignore[index,operator]
            return None
        w0 &= ~ign[0]  # type: ignore[index,operator]
        w1 &= ~ign[1]  # type: ignore[index,operator]
    frm = ctx.regs.from_hw  # GFX10 swaps the M0/NULL field values
    if info.extra.get("interp"):
        r = decode_interp(info, w0, w1, frm)
        return None if r is None else Decoded(8, r[0], info, r[1])
    defs, srcs = info.defs, info.srcs
    codes = [frm[w1 & 0x1FF], frm[(w1 >> 9) & 0x1FF], frm[(w1 >> 18) & 0x1FF]]
    for i in range(len(srcs), 3):
        if codes[i]:
            return None
    neg = (w1 >> 29) & 7
    omod = (w1 >> 27) & 3
    abs_ = 0 if is_sd else (w0 >> 8) & 7
    opsel = 0 if is_sd else (w0 >> 11) & 0xF
    clamp = (w0 >> 15) & 1
    size = 8
    literal = None
    dpp_text = ""
    dpp_f: dict[str, int] = {}
    if srcs and codes[0] in (DPP16, DPP8, DPP8_FI) and info.extra.get("dpp"):
        w2 = u32(data, pos + 8)
        if w2 is None:
            return None
        size = 12
        dpp_f = dpp_fields(codes[0], w2)
        if codes[0] == DPP16:
            r = dppmod.decode_dpp16(w2)
            if r is None:
                return None
            ctl, v0, _m = r
            dpp_text = ctl.text()
        else:
            ctl8, v0 = dppmod.decode_dpp8(w2, codes[0] == DPP8_FI)
            dpp_text = ctl8.text()
        codes[0] = VGPR0 + v0
    elif LITERAL in codes[: len(srcs)]:
        literal = u32(data, pos + 8)
        if literal is None:
            return None
        size = 12
    wave_dw = 2 if ctx.wave64 else 1
    parts: list[str] = []
    vdst = w0 & 0xFF
    for spec in defs:
        if spec.kind == "vgpr":
            parts.append(vgpr_name(vdst, spec.dwords))
        elif spec.kind == "sreg_wave":
            code = frm[(w0 >> 8) & 0x7F if is_sd else vdst]
            if code in _WAVE_DEF_BAD[wave_dw]:
                return None
            parts.append(_sreg_text(code, wave_dw))
        else:
            parts.append(_sreg_text(frm[vdst], spec.dwords))
    for i, spec in enumerate(srcs):
        c = codes[i]
        if spec.kind == "sreg_wave":
            if (c >= INLINE_INT_ZERO and c not in _ANY_SIZE) or c in _WAVE_SRC_BAD[wave_dw]:
                return None
            parts.append(_sreg_text(c, wave_dw))
            continue
        if spec.kind == "vgpr" and c < VGPR0 and c not in VGPR_QUIRK_CODES:
            return None  # llvm-mc decodes null and src_* in VGPR-only slots
        if spec.kind in ("ssrc", "sgpr") and c >= VGPR0:
            return None
        if c in (DPP16, DPP8, DPP8_FI):
            return None
        if spec.dwords > 1 and c < INLINE_INT_ZERO:
            text = _sreg_text(c, spec.dwords)
        else:
            text = valu_src_text(c, spec.dwords, literal, spec.type or "b32")
        if neg >> i & 1 and _src_mods(info, i).get("sext"):
            parts.append(f"sext({text})")
            continue
        is_imm = not (c < INLINE_INT_ZERO or c >= VGPR0 or c in SPECIAL_VALUES or c == LDS_DIRECT)
        parts.append(mods_text(text, bool(neg >> i & 1), bool(abs_ >> i & 1), is_imm))
    s = str(info.extra.get("dpp_name", info.printed_name)) if dpp_text else info.printed_name
    if parts:
        s += " " + ", ".join(parts)
    mods = info.modifiers
    if "op_sel" in mods and opsel:
        # llvm-mc prints op_sel_print bits: the source bits then the destination
        # bit (bit 3), or only source bits when the array is no longer than the
        # source list (v_permlane*16: op_sel:[fi,bound_ctrl] = bits 0 and 1)
        k = int(info.extra.get("op_sel_print", len(srcs) + 1))  # type: ignore[call-overload]
        if k <= len(srcs):
            bits = int_to_bits(opsel, k)
        else:
            bits = int_to_bits(opsel & 7, k - 1) + [opsel >> 3 & 1]
        s += " " + bit_array_text("op_sel", bits)
    if clamp:
        s += " clamp"
    if omod:
        s += " " + omod_text(omod)
    if dpp_text:
        s += " " + dpp_text
    # Decoded.fields (docs/machine-layer.md "Structured decoding"): the fields
    # after dropping the bits llvm-mc ignores for this opcode (dec_ignore)
    # an SGPR destination (VOPC-e64, v_readlane) as its logical code, like the sources
    sgpr_def = bool(defs) and defs[0].kind != "vgpr"
    fields = {"op": (w0 >> 16) & 0x3FF, "vdst": frm[vdst] if sgpr_def else vdst}
    if is_sd:
        fields["sdst"] = frm[(w0 >> 8) & 0x7F]
    fields.update(src0=codes[0], src1=codes[1], src2=codes[2])
    if not is_sd:
        fields.update(abs=abs_, opsel=opsel)
    fields.update(neg=neg, clamp=clamp, omod=omod)
    if literal is not None:
        fields["literal"] = literal
    fields.update(dpp_f)
    return Decoded(size, s, info, fields)


def _sreg_text(code: int, dwords: int) -> str:
    """A scalar register field; llvm-mc aligns misaligned tuples down."""
    if code < INLINE_INT_ZERO:
        if dwords > 1 and (code <= SGPR_MAX or TTMP0 <= code <= TTMP15):
            base = 0 if code <= SGPR_MAX else TTMP0
            code = base + ((code - base) & ~(min(dwords, 4) - 1))
        return reg_name(code, dwords)
    if code in SPECIAL_NAMES:
        return SPECIAL_NAMES[code]
    raise ValueError("not a scalar register")


class Vop3SdFormat(Vop3Format):
    name = "VOP3SD"


register(Vop3Format(), (ENC_MASK, ENC_BITS))
register(Vop3SdFormat())
