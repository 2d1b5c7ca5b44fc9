"""VOP3P: packed math, mixed-precision FMA, dot products and WMMA.

ISA guide 15.3.6 (VOP3P fields) and 16.10 (opcodes); DPP16/DPP8 forms
(15.3.8/15.3.9) for the opcodes llvm-mc accepts them on. Two 32-bit words::

    [7:0] vdst  [10:8] neg_hi  [13:11] op_sel  [14] op_sel_hi(src2)  [15] clamp
    [22:16] op  [31:24] 0xCC
    [40:32] src0  [49:41] src1  [58:50] src2  [59] op_sel_hi(src0)
    [60] op_sel_hi(src1)  [63:61] neg_lo

(llvm-mc, the oracle, puts op_sel_hi of src0/src1/src2 in bits 59/60/14.)
For ``v_fma_mix*`` the neg_hi bits are abs modifiers and ``op_sel_hi``
defaults to zeros; for the others it defaults to ones. A two-source opcode
has a zero src2 field. The opcode facts (operand sizes and types, accepted
modifiers, DPP names) come from ``data/gfx11/vop3p.json``.

This module also holds the constant helpers shared with `vopd` (VOPD) and
`interp` (VINTERP, LDSDIR), which it imports at the end to register them.
"""

from __future__ import annotations

from radcc.isa.errors import AsmError
from radcc.isa.formats import dpp
from radcc.isa.formats.base import Context, Decoded, Encoded, Format, register, u32
from radcc.isa.formats.valu_common import SrcRules, bit_array_text, dpp_fields
from radcc.isa.operands import (
    EXECZ,
    INLINE_FLOATS,
    INLINE_INT_ZERO,
    INV_2PI,
    LDS_DIRECT,
    LITERAL,
    POPS_EXITING_WAVE_ID,
    PRIVATE_LIMIT,
    SHARED_BASE,
    VCCZ,
    VGPR0,
    Operand,
    SrcEncoding,
    check_reg,
    fits_width,
    float_bits,
    inline_code_for,
    inline_float_code_for_bits,
    inline_int_code,
    signed_width,
    src_text,
)
from radcc.isa.syntax import ParsedInst
from radcc.isa.table import OperandSpec, OpInfo

# bf16 bit patterns of the inline float constants (llvm-mc 19 inlines these
# for bf16 operands), and of 1/(2*pi)
_BF16_INV_2PI = 0x3E22


def _bf16_bits(value: float) -> int:
    """bf16 pattern of a float (round to nearest even, as llvm-mc)."""
    b = float_bits(value, 32)
    if (b & 0x7F800000) == 0x7F800000 and b & 0x7FFFFF:
        return (b >> 16) | 0x40
    b += 0x7FFF + ((b >> 16) & 1)
    return (b >> 16) & 0xFFFF


def _inline_16(pattern: int, optype: str) -> int | None:
    """Inline code of a 16-bit float pattern in an f16/bf16 slot."""
    bf = "bf16" in optype
    for code, val in INLINE_FLOATS.items():
        if (_bf16_bits(val) if bf else float_bits(val, 16)) == pattern:
            return code
    if pattern == (_BF16_INV_2PI if bf else 0x3118):
        return INV_2PI
    return None


def const_code(op: Operand, optype: str, col: int) -> tuple[int, int | None]:
    """(source code, literal dword or None) of an immediate in a slot of `optype`.

    Types: f32 i32 b32 u32 (32-bit), v2f16 v2bf16 (packed halves, 32-bit
    literal from integers), f16 (a single half: 16-bit literal), v2i16.
    """
    if op.kind not in ("int", "float"):
        raise AsmError("invalid operand for instruction", col)
    if op.lit:  # llvm-mc 19 does not force a literal for VOP3-style encodings
        op = Operand(op.kind, op.col, value=op.value, text=op.text)
    half = optype in ("v2f16", "v2bf16", "f16", "bf16")
    if not half and optype != "v2i16":
        code = inline_code_for(op, "b32" if optype in ("i32", "u32") else optype)
        if op.kind == "float" and code is None and not op.lit:
            code = inline_float_code_for_bits(float_bits(float(op.value), 32), 32)
        if code is not None and not op.lit:
            return code, None
        if op.kind == "float":
            return LITERAL, float_bits(float(op.value), 32)
        v = int(op.value)
        if not -(1 << 31) <= v < (1 << 32):
            raise AsmError("invalid operand for instruction", col)
        return LITERAL, v & 0xFFFFFFFF
    if op.kind == "float":
        v = float(op.value)
        if optype == "v2i16":
            pattern, width = float_bits(v, 32), 32
        else:
            pattern, width = (_bf16_bits(v) if "bf16" in optype else float_bits(v, 16)), 16
        if abs(v - 0.15915494309189532) < 1e-7:
            return INV_2PI, None
        if not op.lit:
            # llvm-mc inlines a float whose bits at the slot's width match a constant
            c = INLINE_INT_ZERO if v == 0.0 else (_inline_16(pattern, optype) if width == 16
                                      else inline_float_code_for_bits(pattern, 32))
            if c is not None and (v == 0.0 or pattern):
                return c, None
        return LITERAL, pattern
    iv = int(op.value)
    if not op.lit:
        # as llvm-mc-19: the value truncated to the slot (16 bits for one half, 32 for a
        # packed pair) when it fits signed or unsigned, then the inline integers, then
        # the float constants of that width (a packed integer pair takes 32-bit floats)
        width = 16 if optype in ("f16", "bf16") else 32
        if fits_width(iv, width):
            sv = iv & ((1 << width) - 1)
            c = inline_int_code(signed_width(sv, width))
            if c is None and half and sv <= 0xFFFF:
                c = _inline_16(sv, optype)
            if c is None and optype == "v2i16":
                c = inline_float_code_for_bits(sv, 32)
            if c is not None:
                return c, None
    if optype in ("f16", "bf16"):
        if not -(1 << 15) <= iv <= 0xFFFF:
            raise AsmError("invalid operand for instruction", col)
        return LITERAL, iv & 0xFFFF
    if not -(1 << 31) <= iv < (1 << 32):
        raise AsmError("invalid operand for instruction", col)
    return LITERAL, iv & 0xFFFFFFFF


def const_text(code: int, literal: int | None, optype: str) -> str:
    """llvm-mc's spelling of an inline constant or literal in a slot of `optype`."""
    if code != LITERAL:
        return src_text(code)
    assert literal is not None
    half = optype in ("v2f16", "v2bf16", "f16", "bf16")
    if optype in ("f16", "bf16"):
        literal &= 0xFFFF  # a 16-bit operand reads the low half of the literal
    if half:
        if literal <= 0xFFFF:
            c = _inline_16(literal, optype)
            if c is not None:
                return src_text(c)
        sv = literal - (1 << 32) if literal >> 31 else literal
        if inline_int_code(sv) is not None:
            return str(sv)
        return f"0x{literal:x}"
    sv = literal - (1 << 32) if literal >> 31 else literal
    if inline_int_code(sv) is not None:
        return str(sv)
    if optype == "f32" or optype == "i32":
        c = inline_code_for(Operand("int", 0, value=literal), "b32")
        if c is not None and c not in range(128, 209):
            return src_text(c)
    return f"0x{literal:x}"


def reg_count(spec: OperandSpec, info: OpInfo, ctx: Context) -> int:
    """Dwords of a register operand, for the context's wave size."""
    bits = spec.bits
    if ctx.wave64:
        w = info.extra.get("wave64_bits")
        if isinstance(w, dict) and spec.name in w:
            bits = int(w[spec.name])
    return max(1, bits // 32)


def vgpr_operand(op: Operand, count: int) -> int:
    """VGPR index of a register operand of `count` dwords (AsmError otherwise)."""
    if op.kind != "reg" or op.reg is None or op.reg.file != "v" or op.reg.count != count:
        raise AsmError("invalid operand for instruction", op.col)
    check_reg(op.reg, op.col)
    return op.reg.index


def encode_source(op: Operand, spec: OperandSpec, count: int, rules: SrcRules,
                  *, literal_ok: bool = True) -> int:
    """9-bit code of a source operand per its slot kind (vgpr, vinl, vcsrc, vsrc)."""
    kind = spec.kind
    if op.kind == "reg":
        assert op.reg is not None
        if op.reg.file != "v" and kind in ("vgpr", "vinl"):
            raise AsmError("invalid operand for instruction", op.col)
        if op.reg.count != count:
            raise AsmError("invalid operand for instruction", op.col)
        check_reg(op.reg, op.col)
        code = op.reg.src_code()
        if code == POPS_EXITING_WAVE_ID:
            raise AsmError("register not available on this GPU", op.col)
        if code in (VCCZ, EXECZ) and spec.type != "f16":  # llvm-mc takes them in f16 slots
            raise AsmError("execz and vccz are not supported on this GPU", op.col)
        rules.add(op, SrcEncoding(code))
        if SHARED_BASE <= code <= PRIVATE_LIMIT:
            rules.use_sgpr(code, op.col)  # llvm-mc counts apertures on the constant bus
        return code
    if kind == "vgpr":
        raise AsmError("invalid operand for instruction", op.col)
    code, lit = const_code(op, spec.type, op.col)
    if kind == "vinl" and code == INV_2PI:
        raise AsmError("invalid operand for instruction", op.col)  # llvm-mc: no 1/(2*pi) here
    if lit is not None:
        if kind in ("vinl", "vcsrc") or not literal_ok:
            raise AsmError("invalid operand for instruction", op.col)
        rules.add(op, SrcEncoding(code, lit))
    return code


def src_print(code: int, count: int, literal: int | None, optype: str) -> str:
    if code >= VGPR0 or code < INLINE_INT_ZERO:
        return src_text(code, count)
    if count > 1 and not (INLINE_INT_ZERO <= code <= INV_2PI or code == LITERAL):
        raise ValueError("special register as a register tuple")
    return const_text(code, literal, optype)


def valid_scalar_src(code: int) -> bool:
    """Whether a 9-bit source code is a valid GFX11 VALU source."""
    return not (209 <= code <= 234 or code in (249, 250, 254) or code in (233, 234))


# --- VOP3P ------------------------------------------------------------------------


def _bits_mod(inst: ParsedInst, name: str, n: int, allow_extra: bool = False) -> int | None:
    m = inst.mod(name)
    if m is None:
        return None
    v = m.value
    ok_len = isinstance(v, list) and (len(v) == n or (allow_extra and len(v) == n + 1))
    if not ok_len or any(x not in (0, 1) for x in v):  # type: ignore[union-attr]
        raise AsmError(f"invalid {name} value.", m.col)
    return sum(int(x) << i for i, x in enumerate(v[:n]))  # type: ignore[index]


_VOP3P_MODS = ("op_sel", "op_sel_hi", "neg_lo", "neg_hi", "clamp")


class VOP3PFormat(Format):
    """VOP3P, with its DPP16/DPP8 forms (``*_e64_dpp``)."""

    name = "VOP3P"
    size = 8

    def encode(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        if inst.parse_error is not None:
            raise inst.parse_error
        if inst.second is not None:
            raise AsmError("invalid instruction", inst.col)
        dpp_name = str(info.extra.get("dpp_name", ""))
        mods = inst.modifiers
        ctrl, rest = dpp.parse_dpp(mods) if ("dpp" in info.modifiers) else (None, mods)
        if ctrl is None and inst.mnemonic == dpp_name:
            raise AsmError("invalid operand for instruction", inst.col)
        if ctrl is not None and (isinstance(ctrl, dpp.Dpp8) and "dpp8" not in info.modifiers):
            raise AsmError("invalid operand for instruction", inst.col)
        for m in rest:
            if m.name in dpp.DPP_MODIFIERS:
                raise AsmError("not a valid operand.", m.col)
            if m.name not in _VOP3P_MODS or m.name not in info.modifiers:
                raise AsmError("invalid operand for instruction" if m.name in _VOP3P_MODS
                               else "not a valid operand.", m.col)
            if m.name == "clamp" and m.value is not None:
                raise AsmError("invalid operand for instruction", m.col)
        specs = info.operands
        nsrc = len(specs) - 1
        ops = inst.operands
        if len(ops) < len(specs):
            raise AsmError("too few operands for instruction", inst.col)
        if len(ops) > len(specs):
            raise AsmError("invalid operand for instruction", ops[len(specs)].col)
        mix = bool(info.extra.get("mix"))
        vdst = vgpr_operand(ops[0], reg_count(specs[0], info, ctx))
        if ops[0].neg or ops[0].abs:
            raise AsmError("invalid operand for instruction", ops[0].col)
        rules = SrcRules(literal_ok=ctrl is None)
        codes = []
        neg = neg_hi = 0
        for k in range(1, len(specs)):
            op = ops[k]
            if op.sext:
                raise AsmError("not a valid operand.", op.col)
            if op.neg or op.abs:
                if not mix:
                    raise AsmError("not a valid operand.", op.col)
                neg |= int(op.neg) << (k - 1)
                neg_hi |= int(op.abs) << (k - 1)
            codes.append(encode_source(op, specs[k], reg_count(specs[k], info, ctx), rules,
                                       literal_ok=ctrl is None))
        op_sel = _bits_mod(inst, "op_sel", nsrc, allow_extra=True) or 0
        default_hi = int(info.extra.get("opsel_hi_default", (1 << nsrc) - 1))
        op_sel_hi = _bits_mod(inst, "op_sel_hi", nsrc)
        if op_sel_hi is None:
            op_sel_hi = default_hi
        nl = _bits_mod(inst, "neg_lo", nsrc)
        nh = _bits_mod(inst, "neg_hi", nsrc)
        neg |= nl or 0
        neg_hi |= nh or 0
        clamp = inst.has_mod("clamp")
        while len(codes) < 3:
            codes.append(0)
            op_sel_hi |= 1 << (len(codes) - 1)
        lo = (0xCC000000 | info.opcode << 16 | vdst | neg_hi << 8 | op_sel << 11
              | (op_sel_hi >> 2 & 1) << 14 | int(clamp) << 15)
        extra = b""
        if ctrl is not None:
            # llvm-mc assembles VOP3P DPP only with VGPR src0/src1
            for k, c in enumerate(codes[:2]):
                if c < VGPR0:
                    raise AsmError("invalid operand for instruction", ops[k + 1].col)
            src0 = codes[0] - VGPR0
            if isinstance(ctrl, dpp.Dpp8):
                codes[0] = ctrl.src0_code
                extra = ctrl.word(src0).to_bytes(4, "little")
            else:
                codes[0] = dpp.DPP16_CODE
                extra = ctrl.word(src0).to_bytes(4, "little")
        hw = ctx.regs.to_hw  # GFX10 swaps the M0/NULL field values
        hi = (hw[codes[0]] | hw[codes[1]] << 9 | hw[codes[2]] << 18 | (op_sel_hi & 3) << 27
              | neg << 29)
        data = lo.to_bytes(4, "little") + hi.to_bytes(4, "little")
        if rules.literal is not None:
            data += rules.literal.to_bytes(4, "little")
        return Encoded(data + extra)

    def decode(self, data: bytes, pos: int, ctx: Context) -> Decoded | None:
        lo = u32(data, pos)
        hi = u32(data, pos + 4)
        if lo is None or hi is None:
            return None
        info = ctx.table.decode("VOP3P", lo >> 16 & 0x7F)
        if info is None or lo >> 23 & 1:
            return None
        specs = info.operands
        nsrc = len(specs) - 1
        mix = bool(info.extra.get("mix"))
        frm = ctx.regs.from_hw  # GFX10 swaps the M0/NULL field values
        codes = [frm[hi & 0x1FF], frm[hi >> 9 & 0x1FF], frm[hi >> 18 & 0x1FF]]
        if any(codes[k] for k in range(nsrc, 3)):
            return None
        neg = hi >> 29 & 7
        neg_hi = lo >> 8 & 7
        op_sel = lo >> 11 & 7
        op_sel_hi = (hi >> 27 & 3) | (lo >> 14 & 1) << 2
        clamp = lo >> 15 & 1
        size = 8
        literal = None
        ctrl: dpp.Dpp16 | dpp.Dpp8 | None = None
        name = info.printed_name
        dpp_f: dict[str, int] = {}
        if codes[0] == dpp.DPP16_CODE and "dpp" in info.modifiers:
            w = u32(data, pos + 8)
            if w is None:
                return None
            dpp_f = dpp_fields(codes[0], w)
            r = dpp.decode_dpp16(w)
            if r is None:
                return None
            ctrl, s0, _m = r
            codes[0] = VGPR0 + s0
            size = 12
            name = str(info.extra["dpp_name"])
        elif codes[0] in (dpp.DPP8_CODE, dpp.DPP8_FI_CODE) and "dpp8" in info.modifiers:
            w = u32(data, pos + 8)
            if w is None:
                return None
            dpp_f = dpp_fields(codes[0], w)
            ctrl, s0 = dpp.decode_dpp8(w, codes[0] == dpp.DPP8_FI_CODE)
            codes[0] = VGPR0 + s0
            size = 12
            name = str(info.extra["dpp_name"])
        if ctrl is None and LITERAL in codes[:nsrc]:
            literal = u32(data, pos + 8)
            if literal is None:
                return None
            size = 12
        texts = [src_text(VGPR0 + (lo & 0xFF), reg_count(specs[0], info, ctx))]
        for k in range(nsrc):
            spec = specs[k + 1]
            c = codes[k]
            if not valid_scalar_src(c) and c not in (LITERAL, LDS_DIRECT):
                return None
            if spec.kind == "vgpr" and c < VGPR0:
                return None
            if spec.kind == "vinl" and c < VGPR0 and not (128 <= c <= 248 or c == LITERAL):
                return None
            if ctrl is not None and k > 0 and c == LITERAL:
                return None
            t = src_print(c, reg_count(spec, info, ctx), literal, spec.type)
            if mix:
                if neg_hi >> k & 1:
                    t = f"|{t}|"
                if neg >> k & 1:
                    imm = 128 <= c <= 208 or 240 <= c <= 248 or c == LITERAL
                    t = f"neg({t})" if imm and not neg_hi >> k & 1 else "-" + t
            texts.append(t)
        text = f"{name} " + ", ".join(texts)
        mtexts = []
        mask = (1 << nsrc) - 1
        has = info.modifiers
        if op_sel & mask and "op_sel" in has:
            mtexts.append(bit_array_text("op_sel", _bits(op_sel, nsrc)))
        default_hi = int(info.extra.get("opsel_hi_default", mask))
        if (op_sel_hi & mask) != default_hi and "op_sel_hi" in has:
            mtexts.append(bit_array_text("op_sel_hi", _bits(op_sel_hi, nsrc)))
        if neg & mask and "neg_lo" in has:
            mtexts.append(bit_array_text("neg_lo", _bits(neg, nsrc)))
        if neg_hi & mask and "neg_hi" in has:
            mtexts.append(bit_array_text("neg_hi", _bits(neg_hi, nsrc)))
        if clamp:
            mtexts.append("clamp")
        if ctrl is not None:
            mtexts.append(ctrl.text())
        if mtexts:
            text += " " + " ".join(mtexts)
        # Decoded.fields (docs/machine-layer.md "Structured decoding");
        # opsel_hi bits 0/1/2 come from bits 59/60/14, as llvm-mc encodes them
        fields = {"op": lo >> 16 & 0x7F, "vdst": lo & 0xFF, "src0": codes[0],
                  "src1": codes[1], "src2": codes[2], "neg": neg, "neg_hi": neg_hi,
                  "opsel": op_sel, "opsel_hi": op_sel_hi, "clamp": clamp}
        if literal is not None:
            fields["literal"] = literal
        fields.update(dpp_f)
        return Decoded(size, text, info, fields)


def _bits(v: int, n: int) -> list[int]:
    return [(v >> i) & 1 for i in range(n)]


register(VOP3PFormat(), (0xFF000000, 0xCC000000))
