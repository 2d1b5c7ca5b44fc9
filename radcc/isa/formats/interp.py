"""VINTERP (ISA guide 15.4.1, 16.13), LDSDIR (15.5.1, 16.14) and GFX10 VINTRP.

VINTERP, two words::

    [7:0] vdst  [10:8] wait_exp  [14:11] op_sel (src0..2, dst)  [15] clamp
    [22:16] op  [31:24] 0xCD  [40:32] src0  [49:41] src1  [58:50] src2
    [63:61] neg

Sources are VGPRs (the 9-bit fields hold 256+index). llvm-mc takes the
modifiers in the order ``clamp op_sel:[…] wait_exp:N`` and always prints
``wait_exp``; ``|x|`` is accepted but has no field (dropped).

LDSDIR, one word::

    [7:0] vdst  [9:8] attr_chan  [15:10] attr  [19:16] wait_va  [21:20] op
    [31:24] 0xCE

spelled ``lds_param_load v1, attr2.y wait_vdst:3`` / ``lds_direct_load v1
wait_vdst:0`` (``wait_vdst`` always printed).
"""

from __future__ import annotations

import re

from radcc.isa.errors import AsmError
from radcc.isa.formats.base import Context, Decoded, Encoded, Format, register, u32
from radcc.isa.formats.valu_common import bit_array_text
from radcc.isa.formats.vop3p import vgpr_operand
from radcc.isa.operands import NULL_OR_SPECIAL, Operand, src_text
from radcc.isa.syntax import ParsedInst
from radcc.isa.table import OpInfo

_ORDER = {"clamp": 0, "op_sel": 1, "wait_exp": 2}
_SPECIAL_SRCS = NULL_OR_SPECIAL


def _int_mod(inst: ParsedInst, name: str, hi: int) -> int:
    m = inst.mod(name)
    if m is None:
        return 0
    if not isinstance(m.value, int) or isinstance(m.value, bool):
        raise AsmError("expected absolute expression", m.col + len(name) + 1)
    if not 0 <= m.value <= hi:
        raise AsmError(f"invalid {name} value", m.col)
    return m.value


class VINTERPFormat(Format):
    name = "VINTERP"
    size = 8

    def encode(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        if inst.parse_error is not None:
            raise inst.parse_error
        if inst.second is not None:
            raise AsmError("invalid instruction", inst.col)
        last = -1
        for m in inst.modifiers:
            order = _ORDER.get(m.name)
            if order is None or order <= last or m.name not in info.modifiers:
                raise AsmError("invalid operand for instruction", m.col)
            if m.name == "clamp" and m.value is not None:
                raise AsmError("invalid operand for instruction", m.col)
            last = order
        specs = info.operands
        ops = inst.operands
        if len(ops) < len(specs):
            raise AsmError("too few operands for instruction", inst.col)
        if len(ops) > len(specs):
            raise AsmError("invalid operand for instruction", ops[len(specs)].col)
        if ops[0].neg or ops[0].abs:
            raise AsmError("invalid operand for instruction", ops[0].col)
        vdst = vgpr_operand(ops[0], 1)
        srcs = []
        neg = 0
        for k, op in enumerate(ops[1:]):
            if op.sext:
                raise AsmError("not a valid operand.", op.col)
            neg |= int(op.neg) << k
            srcs.append(256 + vgpr_operand(op, 1))
        op_sel = 0
        m = inst.mod("op_sel")
        if m is not None:
            v = m.value
            if not isinstance(v, list) or len(v) != 4 or any(x not in (0, 1) for x in v):
                raise AsmError("invalid op_sel value.", m.col)
            op_sel = sum(int(x) << i for i, x in enumerate(v))
        wait = _int_mod(inst, "wait_exp", 7)
        lo = (0xCD000000 | info.opcode << 16 | vdst | wait << 8 | op_sel << 11
              | int(inst.has_mod("clamp")) << 15)
        hi = srcs[0] | srcs[1] << 9 | srcs[2] << 18 | neg << 29
        return Encoded(lo.to_bytes(4, "little") + hi.to_bytes(4, "little"))

    def decode(self, data: bytes, pos: int, ctx: Context) -> Decoded | None:
        lo = u32(data, pos)
        hi = u32(data, pos + 4)
        if lo is None or hi is None:  # bit 23 and bits [60:59] are ignored, as llvm-mc does
            return None
        info = ctx.table.decode("VINTERP", lo >> 16 & 0x7F)
        if info is None:
            return None
        codes = [hi & 0x1FF, hi >> 9 & 0x1FF, hi >> 18 & 0x1FF]
        neg = hi >> 29
        op_sel = lo >> 11 & 0xF
        # llvm-mc decodes only VGPR sources (and, a decoder quirk, null and the
        # src_* special registers), and op_sel only where the op has it
        if any(c < 256 and c not in _SPECIAL_SRCS for c in codes) or (
            op_sel and "op_sel" not in info.modifiers
        ):
            return None
        texts = [f"v{lo & 0xFF}"]
        for k, c in enumerate(codes):
            texts.append(("-" if neg >> k & 1 else "") + src_text(c))
        text = f"{info.printed_name} " + ", ".join(texts)
        if lo >> 15 & 1:
            text += " clamp"
        if op_sel:
            text += " " + bit_array_text("op_sel", [(op_sel >> i) & 1 for i in range(4)])
        text += f" wait_exp:{lo >> 8 & 7}"
        # Decoded.fields (docs/machine-layer.md "Structured decoding")
        fields = {"op": lo >> 16 & 0x7F, "vdst": lo & 0xFF, "src0": codes[0],
                  "src1": codes[1], "src2": codes[2], "neg": neg, "opsel": op_sel,
                  "clamp": lo >> 15 & 1, "wait_exp": lo >> 8 & 7}
        return Decoded(8, text, info, fields)


_ATTR = re.compile(r"^attr(\d+)\.([xyzw])$")
_CHANS = "xyzw"


class LDSDIRFormat(Format):
    name = "LDSDIR"
    size = 4

    def encode(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        if inst.parse_error is not None:
            raise inst.parse_error
        for m in inst.modifiers:
            if m.name != "wait_vdst":
                raise AsmError("invalid operand for instruction", m.col)
        specs = info.operands
        ops = inst.operands
        if len(ops) < len(specs):
            raise AsmError("too few operands for instruction", inst.col)
        if len(ops) > len(specs):
            raise AsmError("invalid operand for instruction", ops[len(specs)].col)
        vdst = vgpr_operand(ops[0], 1)
        attr = chan = 0
        if len(specs) > 1:
            op = ops[1]
            mt = _ATTR.match(op.text) if op.kind == "ident" else None
            if mt is None:
                raise AsmError("invalid operand for instruction", op.col)
            attr = int(mt.group(1))
            chan = _CHANS.index(mt.group(2))
            if attr > 32:
                raise AsmError("out of bounds interpolation attribute number", op.col)
        wait = _int_mod(inst, "wait_vdst", 15)
        w = 0xCE000000 | info.opcode << 20 | vdst | chan << 8 | attr << 10 | wait << 16
        return Encoded(w.to_bytes(4, "little"))

    def decode(self, data: bytes, pos: int, ctx: Context) -> Decoded | None:
        w = u32(data, pos)
        if w is None or w >> 22 & 3:
            return None
        info = ctx.table.decode("LDSDIR", w >> 20 & 3)
        if info is None:
            return None
        text = f"{info.printed_name} v{w & 0xFF}"
        # Decoded.fields (docs/machine-layer.md "Structured decoding");
        # wait_vdst is the ISA's WAIT_VA [19:16]; lds_direct_load has no attr
        fields = {"op": w >> 20 & 3, "vdst": w & 0xFF}
        if len(info.operands) > 1:
            text += f", attr{w >> 10 & 0x3F}.{_CHANS[w >> 8 & 3]}"
            fields.update(attr=w >> 10 & 0x3F, attr_chan=w >> 8 & 3)
        text += f" wait_vdst:{w >> 16 & 0xF}"
        fields["wait_vdst"] = w >> 16 & 0xF
        return Decoded(4, text, info, fields)


register(VINTERPFormat(), (0xFF000000, 0xCD000000))
register(LDSDIRFormat(), (0xFF000000, 0xCE000000))


# --- GFX10 VINTRP ------------------------------------------------------------------
# RDNA1 ISA guide "VINTRP": [7:0] vsrc (VGPR index, or the parameter of
# v_interp_mov_f32: p10 = 0, p20 = 1, p0 = 2), [9:8] attr_chan, [15:10] attr,
# [17:16] op, [25:18] vdst, [31:26] = 0b110010. One dword, no modifiers
# (neg/abs/clamp/omod/high need the VOP3 form, which the assembler tries next).

_PARAMS = ("p10", "p20", "p0")


def parse_attr(op: Operand) -> tuple[int, int]:
    """(attr, chan) of an ``attrN.c`` operand (llvm-mc's bound: N <= 32)."""
    mt = _ATTR.match(op.text) if op.kind == "ident" and not op.has_fp_mods else None
    if mt is None:
        raise AsmError("invalid operand for instruction", op.col)
    attr = int(mt.group(1))
    if attr > 32:
        raise AsmError("out of bounds interpolation attribute number", op.col)
    return attr, _CHANS.index(mt.group(2))


def parse_param(op: Operand) -> int:
    t = op.text if op.kind == "ident" and not op.has_fp_mods else ""
    if t not in _PARAMS:
        raise AsmError("invalid operand for instruction", op.col)
    return _PARAMS.index(t)


def param_text(v: int) -> str:
    return _PARAMS[v] if v < len(_PARAMS) else f"invalid_param_{v}"


class VINTRPFormat(Format):
    name = "VINTRP"
    size = 4

    def encode(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        if inst.parse_error is not None:
            raise inst.parse_error
        if inst.modifiers:
            raise AsmError("invalid operand for instruction", inst.modifiers[0].col)
        specs, ops = info.operands, inst.operands
        if len(ops) < len(specs):
            raise AsmError("too few operands for instruction", inst.col)
        if len(ops) > len(specs):
            raise AsmError("invalid operand for instruction", ops[len(specs)].col)
        vdst = vsrc = attr = chan = 0
        for spec, op in zip(specs, ops, strict=True):
            if spec.name == "vdst":
                vdst = vgpr_operand(op, 1)
            elif spec.kind == "attr":
                attr, chan = parse_attr(op)
            elif spec.kind == "interp_param":
                vsrc = parse_param(op)
            else:
                vsrc = vgpr_operand(op, 1)
        w = 0b110010 << 26 | vdst << 18 | info.opcode << 16 | attr << 10 | chan << 8 | vsrc
        return Encoded(w.to_bytes(4, "little"))

    def decode(self, data: bytes, pos: int, ctx: Context) -> Decoded | None:
        w = u32(data, pos)
        if w is None or w >> 26 != 0b110010:
            return None
        info = ctx.table.decode("VINTRP", w >> 16 & 3)
        if info is None:
            return None
        vsrc, attr, chan, vdst = w & 0xFF, w >> 10 & 0x3F, w >> 8 & 3, w >> 18 & 0xFF
        parts = []
        for spec in info.operands:
            if spec.name == "vdst":
                parts.append(f"v{vdst}")
            elif spec.kind == "attr":
                parts.append(f"attr{attr}.{_CHANS[chan]}")
            elif spec.kind == "interp_param":
                parts.append(param_text(vsrc))
            else:
                parts.append(f"v{vsrc}")
        fields = {"op": info.opcode, "vdst": vdst, "vsrc": vsrc, "attr": attr, "attr_chan": chan}
        return Decoded(4, f"{info.printed_name} " + ", ".join(parts), info, fields)


VINTRP = register(VINTRPFormat())
