"""VOPD: two VALU operations issued together (``v_dual_X … :: v_dual_Y …``).

ISA guide 15.3.7 (fields) and 16.11 (X and Y opcode tables)::

    [8:0] srcx0  [16:9] vsrcx1  [21:17] opy  [25:22] opx  [31:26] 0b110010
    [40:32] srcy0  [48:41] vsrcy1  [55:49] vdsty[7:1]  [63:56] vdstx

vdsty's low bit is the inverse of vdstx's. Optional 32-bit literal shared
by both halves (``fmaak``/``fmamk`` K or a src0 literal). Wave32 only.

Rules llvm-mc enforces: one destination even and the other odd; the two
src0 (and the two vsrc1) VGPRs in different banks (index mod 4); one unique
literal; at most two scalar values (SGPRs, the literal, VCC of cndmask).
Table entries: X opcodes have encoding ``VOPD``, Y opcodes ``VOPDY``.
"""

from __future__ import annotations

from radcc.isa.errors import AsmError
from radcc.isa.formats.base import FORMATS, Context, Decoded, Encoded, Format, register, u32
from radcc.isa.formats.valu_common import BUS_ERROR, LITERAL_ERROR, SrcRules
from radcc.isa.formats.vop3p import encode_source, src_print, valid_scalar_src, vgpr_operand
from radcc.isa.operands import LDS_DIRECT, LITERAL, VCC_LO, VGPR0, Operand
from radcc.isa.syntax import ParsedInst
from radcc.isa.table import OpInfo
from radcc.target import GfxLevel

_IMPLICIT_VCC = -VCC_LO


def _half(info: OpInfo, inst: ParsedInst, rules: SrcRules, ks: list[int]) -> dict[str, int]:
    """Encode one half: {'vdst', 'src0', 'vsrc1'} values; K literals appended to ks."""
    if inst.parse_error is not None:
        raise inst.parse_error
    if inst.modifiers:
        raise AsmError("invalid operand for instruction", inst.modifiers[0].col)
    specs = info.operands
    ops = inst.operands
    if len(ops) < len(specs):
        raise AsmError("too few operands for instruction", inst.col)
    if len(ops) > len(specs):
        raise AsmError("invalid operand for instruction", ops[len(specs)].col)
    out: dict[str, int] = {"vsrc1": 0}
    for spec, op in zip(specs, ops, strict=True):
        if op.neg or op.abs or op.sext:
            raise AsmError("not a valid operand.", op.col)
        if spec.name == "vdst" or spec.name == "vsrc1":
            out[spec.name] = vgpr_operand(op, 1)
        elif spec.name == "src0":
            out["src0"] = encode_source(op, spec, 1, rules)
        elif spec.kind == "imm":
            if op.kind not in ("int", "float"):
                raise AsmError("invalid operand for instruction", op.col)
            from radcc.isa.operands import float_bits

            v = float_bits(float(op.value), 32) if op.kind == "float" else int(op.value)
            if not -(1 << 31) <= v < (1 << 32):
                raise AsmError("invalid operand for instruction", op.col)
            v &= 0xFFFFFFFF
            if rules.literal is not None and rules.literal != v:
                raise AsmError(LITERAL_ERROR, op.col)
            if rules.literal is None:
                rules.literal = v
                rules._bus += 1  # the literal is a scalar value on the bus
                if rules._bus > rules.bus_limit:
                    raise AsmError(BUS_ERROR, op.col)
            ks.append(v)
    if "cndmask" in info.name:
        # llvm-mc counts the implicit VCC read apart from an explicit vcc_lo
        rules.use_sgpr(_IMPLICIT_VCC, inst.col)
    return out


# VGPR bank masks of the component slots dst, src0, src1, src2 (llvm-mc's
# VOPD_VGPR_BANK_MASKS): dst and src2 compare parity, src0/src1 index mod 4.
_BANK_MASK = {"src0": 3, "src1": 3, "src2": 1}


def _slots(info: OpInfo, inst: ParsedInst, vals: dict[str, int]) -> dict[str, tuple[int, int]]:
    """The VGPR of each source slot (code, column): fmac/dot2acc read vdst as
    src2; fmamk's vsrc1 is its src2, fmaak's its src1."""
    names = [s.name for s in info.operands]
    cols = {n: inst.operands[i].col for i, n in enumerate(names)}
    out = {"src0": (vals["src0"], cols["src0"])}
    if "vsrc1" in names:
        fmamk = names.index("vsrc1") > names.index("simm32") if "simm32" in names else False
        out["src2" if fmamk else "src1"] = (VGPR0 + vals["vsrc1"], cols["vsrc1"])
    if info.extra.get("acc"):
        out["src2"] = (VGPR0 + vals["vdst"], 0)
    return out


def _check_banks(xi: OpInfo, x: ParsedInst, xv: dict[str, int], yi: OpInfo, y: ParsedInst,
                 yv: dict[str, int]) -> None:
    if (xv["vdst"] ^ yv["vdst"]) & 1 == 0:
        raise AsmError("one dst register must be even and the other odd", y.operands[0].col)
    xs = _slots(xi, x, xv)
    ys = _slots(yi, y, yv)
    for slot, mask in _BANK_MASK.items():
        if slot not in xs or slot not in ys:
            continue
        (a, acol), (b, bcol) = xs[slot], ys[slot]
        if a >= VGPR0 and b >= VGPR0 and (a ^ b) & mask == 0:
            raise AsmError(f"{slot} operands must use different VGPR banks",
                           bcol or acol or x.col)


class VOPDFormat(Format):
    name = "VOPD"
    size = 8

    def encode(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        if inst.parse_error is not None:
            raise inst.parse_error
        y = inst.second
        if y is None:
            raise AsmError("invalid instruction", inst.col)
        if ctx.wave64:
            raise AsmError("instruction requires wavesize=32", inst.col)
        yinfo = next((e for e in ctx.table.candidates(y.mnemonic) if e.enc == "VOPDY"), None)
        if yinfo is None:
            raise AsmError("invalid instruction", y.col)
        rules = SrcRules()
        ks: list[int] = []
        x = _half(info, inst, rules, ks)
        yv = _half(yinfo, y, rules, ks)
        _check_banks(info, inst, x, yinfo, y, yv)
        lo = (x["src0"] | x["vsrc1"] << 9 | yinfo.opcode << 17 | info.opcode << 22
              | 0b110010 << 26)
        hi = yv["src0"] | yv["vsrc1"] << 9 | (yv["vdst"] >> 1) << 17 | x["vdst"] << 24
        data = lo.to_bytes(4, "little") + hi.to_bytes(4, "little")
        if rules.literal is not None:
            data += rules.literal.to_bytes(4, "little")
        return Encoded(data)

    def decode(self, data: bytes, pos: int, ctx: Context) -> Decoded | None:
        if ctx.gfx != GfxLevel.GFX11:  # GFX10: the same prefix is VINTRP (no VOPD)
            return FORMATS["VINTRP"].decode(data, pos, ctx)
        lo = u32(data, pos)
        hi = u32(data, pos + 4)
        if lo is None or hi is None or ctx.wave64:
            return None
        xi = ctx.table.decode("VOPD", lo >> 22 & 0xF)
        yi = ctx.table.decode("VOPDY", lo >> 17 & 0x1F)
        if xi is None or yi is None:
            return None
        vdstx = hi >> 24
        vals_x = {"vdst": vdstx, "src0": lo & 0x1FF, "vsrc1": lo >> 9 & 0xFF}
        vals_y = {"vdst": (hi >> 17 & 0x7F) << 1 | (~vdstx & 1), "src0": hi & 0x1FF,
                  "vsrc1": hi >> 9 & 0xFF}
        need_lit = any(s.kind == "imm" for s in (*xi.operands, *yi.operands)) or (
            vals_x["src0"] == LITERAL or vals_y["src0"] == LITERAL)
        literal = None
        size = 8
        if need_lit:
            literal = u32(data, pos + 8)
            if literal is None:
                return None
            size = 12
        parts = []
        for info, vals in ((xi, vals_x), (yi, vals_y)):
            names = [s.name for s in info.operands]
            if "vsrc1" not in names and vals["vsrc1"]:
                return None
            texts = []
            for s in info.operands:
                if s.name in ("vdst", "vsrc1"):
                    texts.append(f"v{vals[s.name]}")
                elif s.name == "src0":
                    c = vals["src0"]
                    if not valid_scalar_src(c) and c != LDS_DIRECT:
                        return None
                    texts.append(src_print(c, 1, literal, s.type))
                elif s.kind == "imm":
                    assert literal is not None
                    texts.append(f"0x{literal:x}")
            parts.append(f"{info.printed_name} " + ", ".join(texts))
        # Decoded.fields (docs/machine-layer.md "Structured decoding"); vdsty is
        # the full VGPR number (its low bit is the inverse of vdstx's)
        fields = {"opx": lo >> 22 & 0xF, "opy": lo >> 17 & 0x1F,
                  "vdstx": vals_x["vdst"], "vdsty": vals_y["vdst"],
                  "src0x": vals_x["src0"], "vsrc1x": vals_x["vsrc1"],
                  "src0y": vals_y["src0"], "vsrc1y": vals_y["vsrc1"]}
        if literal is not None:
            fields["literal"] = literal
        return Decoded(size, " :: ".join(parts), xi, fields)


class VOPDYFormat(Format):
    """Y-only entries: reached only when a Y opcode is written as the X half."""

    name = "VOPDY"

    def encode(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        raise AsmError("invalid instruction", inst.col)

    def decode(self, data: bytes, pos: int, ctx: Context) -> Decoded | None:
        return None


register(VOPDFormat(), (0xFC000000, 0xC8000000))
register(VOPDYFormat())

_ = Operand
