"""GFX10 VOP3-encoded interpolation (RDNA1/RDNA2 ISA guides, "VOP3" and
"Parameter Interpolation": v_interp_p1_f32_e64, v_interp_p2_f32_e64,
v_interp_mov_f32_e64, v_interp_p1ll_f16, v_interp_p1lv_f16, v_interp_p2_f16).

The VOP3 words are the ordinary ones (``radcc.isa.formats.vop3``), with the
attribute in the SRC0 field::

    SRC0 [40:32] = attr [5:0] | attr_chan << 6 | high << 8
    SRC1 [49:41] = the VGPR source (256 + index), or the v_interp_mov_f32
                   parameter (p10 = 0, p20 = 1, p0 = 2)
    SRC2 [58:50] = the second VGPR source of v_interp_p1lv_f16 / v_interp_p2_f16

Assembly syntax (llvm-mc-19, -mcpu=gfx1010/gfx1030)::

    v_interp_p1ll_f16 v5, -v2, attr0.y high clamp mul:4

NEG/ABS bits sit at the hardware slot of each source (src1 -> bit 1, src2 ->
bit 2). Modifiers must come in the order ``high clamp mul:N|div:N``, each
only where the table lists it; ``attrN`` takes N <= 32 (decoding prints any
6-bit N). Decoding follows llvm-mc: ``high`` set on an op without it, or a
SRC2 on a two-source op, is not an instruction; a VGPR source field holding
``null`` or a ``src_*`` special register still decodes (the decoder quirk of
every VGPR-only VOP3 source, ``VGPR_QUIRK_CODES``); any other parameter
value prints as ``invalid_param_N``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from radcc.isa.errors import AsmError
from radcc.isa.formats.valu_common import mods_text, omod_text, parse_omod
from radcc.isa.operands import NULL_OR_SPECIAL, VGPR0, Operand, check_reg, src_text
from radcc.isa.syntax import ParsedInst
from radcc.isa.table import OpInfo

# Non-VGPR codes llvm-mc's decoder still accepts in a VGPR-only VOP3 source
# (logical codes: null, src_shared_base..src_pops_exiting_wave_id, src_vccz,
# src_execz, src_scc); probed for gfx1010, gfx1030 and gfx1100.
VGPR_QUIRK_CODES = NULL_OR_SPECIAL

_ATTR = re.compile(r"^attr(\d+)(?:\.(.*))?$")
CHANS = "xyzw"
PARAMS = ("p10", "p20", "p0")
MAX_ATTR = 32
_MOD_ORDER = {"high": 0, "clamp": 1, "mul": 2, "div": 2}


def parse_attr(op: Operand) -> tuple[int, int]:
    """(attr, chan) of an ``attrN.c`` operand, with llvm-mc's diagnostics."""
    if op.kind != "ident" or op.has_fp_mods or op.sext:
        raise AsmError("invalid operand for instruction", op.col)
    mt = _ATTR.match(op.text)
    if mt is None:
        raise AsmError("invalid operand for instruction", op.col)
    chan = mt.group(2)
    if chan is None or chan not in CHANS or len(chan) != 1:
        raise AsmError("invalid or missing interpolation attribute channel", op.col)
    attr = int(mt.group(1))
    if attr > MAX_ATTR:
        raise AsmError("out of bounds interpolation attribute number", op.col)
    return attr, CHANS.index(chan)


def parse_param(op: Operand) -> int:
    """Code of a v_interp_mov_f32 parameter (``p10``/``p20``/``p0``)."""
    if op.has_fp_mods or op.sext:
        raise AsmError("invalid operand for instruction", op.col)
    if op.kind != "ident" or op.text not in PARAMS:
        raise AsmError("invalid interpolation slot", op.col)
    return PARAMS.index(op.text)


def param_text(v: int) -> str:
    return PARAMS[v] if v < len(PARAMS) else f"invalid_param_{v}"


def attr_text(attr: int, chan: int) -> str:
    return f"attr{attr}.{CHANS[chan]}"


def _vgpr(op: Operand) -> int:
    if op.kind != "reg" or op.reg is None or op.reg.file != "v" or op.reg.count != 1:
        raise AsmError("invalid operand for instruction", op.col)
    check_reg(op.reg, op.col)
    return op.reg.index


def _src_mods(info: OpInfo, i: int) -> dict:
    sm = info.extra.get("src_mods") or []
    return sm[i] if i < len(sm) else {}  # type: ignore[index,return-value]


def encode_interp(info: OpInfo, inst: ParsedInst) -> tuple[int, int]:
    """(dword 0, dword 1) of a VOP3 interpolation instruction."""
    specs = info.operands
    ops = inst.operands
    if len(ops) > len(specs):
        raise AsmError("invalid operand for instruction", ops[len(specs)].col)
    if len(ops) < len(specs):
        raise AsmError("too few operands for instruction", inst.col)
    allowed = info.modifiers
    last = -1
    high = clamp = omod = 0
    for m in inst.modifiers:
        order = _MOD_ORDER.get(m.name)
        name = "omod" if m.name in ("mul", "div") else m.name
        if order is None or order <= last or name not in allowed:
            raise AsmError("invalid operand for instruction", m.col)
        last = order
        if name == "omod":
            omod = parse_omod(m)
        elif m.value is not None:
            raise AsmError("invalid operand for instruction", m.col)
        elif name == "high":
            high = 1
        else:
            clamp = 1
    vdst = 0
    fields = [0, 0, 0]
    neg = abs_ = 0
    k = 0  # source index (table order: src1, attr[, src2])
    for spec, op in zip(specs, ops, strict=True):
        if spec.is_def:
            if op.has_fp_mods or op.sext:
                raise AsmError("invalid operand for instruction", op.col)
            vdst = _vgpr(op)
            continue
        if spec.kind == "attr":
            attr, chan = parse_attr(op)
            fields[0] = attr | chan << 6 | high << 8
        elif spec.kind == "interp_param":
            fields[1] = parse_param(op)
        else:
            slot = 1 if spec.name == "src1" else 2
            sm = _src_mods(info, k)
            if op.sext or (op.neg and not sm.get("neg")) or (op.abs and not sm.get("abs")):
                raise AsmError("not a valid operand.", op.col)
            fields[slot] = VGPR0 + _vgpr(op)
            neg |= int(op.neg) << slot
            abs_ |= int(op.abs) << slot
        k += 1
    w0 = 0b110101 << 26 | info.opcode << 16 | vdst | abs_ << 8 | clamp << 15
    w1 = fields[0] | fields[1] << 9 | fields[2] << 18 | omod << 27 | neg << 29
    return w0, w1


def decode_interp(info: OpInfo, w0: int, w1: int,
                  frm: Sequence[int]) -> tuple[str, dict[str, int]] | None:
    """(text, fields) of a VOP3 interpolation instruction, or None when
    llvm-mc does not decode the words (the caller applied dec_reject/ignore;
    `frm` maps source field values to logical codes, ``RegCodes.from_hw``)."""
    f = [w1 & 0x1FF, w1 >> 9 & 0x1FF, w1 >> 18 & 0x1FF]
    has_src2 = any(s.name == "src2" for s in info.operands)
    has_high = "high" in info.modifiers
    if (f[2] and not has_src2) or (f[0] >> 8 and not has_high):
        return None
    neg, abs_ = w1 >> 29 & 7, w0 >> 8 & 7
    parts = [f"v{w0 & 0xFF}"]
    for spec in info.operands:
        if spec.is_def:
            continue
        if spec.kind == "attr":
            parts.append(attr_text(f[0] & 0x3F, f[0] >> 6 & 3))
        elif spec.kind == "interp_param":
            parts.append(param_text(f[1]))
        else:
            slot = 1 if spec.name == "src1" else 2
            c = frm[f[slot]]
            if c < VGPR0 and c not in VGPR_QUIRK_CODES:
                return None
            parts.append(mods_text(src_text(c), bool(neg >> slot & 1),
                                   bool(abs_ >> slot & 1), False))
    text = f"{info.printed_name} " + ", ".join(parts)
    omod = w1 >> 27 & 3
    if f[0] >> 8:
        text += " high"
    if w0 >> 15 & 1:
        text += " clamp"
    if omod:
        text += " " + omod_text(omod)
    fields = {"op": w0 >> 16 & 0x3FF, "vdst": w0 & 0xFF, "attr": f[0] & 0x3F,
              "attr_chan": f[0] >> 6 & 3, "high": f[0] >> 8, "src1": f[1], "src2": f[2],
              "neg": neg, "abs": abs_, "clamp": w0 >> 15 & 1, "omod": omod}
    return text, fields
