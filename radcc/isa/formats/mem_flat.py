"""FLAT / GLOBAL / SCRATCH encodings, ISA guide section 15.9.

One microcode format; SEG [17:16] picks the segment (0 flat, 1 scratch,
2 global). OFFSET [12:0] (FLAT: 12-bit unsigned; GLOBAL/SCRATCH: 13-bit
signed), DLC [13], GLC [14], SLC [15], OP [24:18], ENCODING 0b110111;
ADDR [39:32], DATA [47:40], SADDR [54:48] (NULL=0x7c prints ``off``),
SVE [55] (scratch: VADDR used), VDST [63:56].

Atomics return the pre-op value (an extra leading VDST) exactly when GLC
is set (``rtn_bits`` in the table entry).
"""

from __future__ import annotations

from radcc.isa.errors import AsmError
from radcc.isa.formats.base import Context, Decoded, Encoded, Format, register, u32
from radcc.isa.formats.mem_common import (
    MemInst,
    bad_mod,
    expect_count,
    int_mod,
    is_off,
    parse_mem,
    sgpr_tuple,
    vgpr,
    vtext,
)
from radcc.isa.operands import NULL, src_text
from radcc.isa.syntax import ParsedInst
from radcc.isa.table import OpInfo

ENC = 0b110111
SEG = {"FLAT": 0, "SCRATCH": 1, "GLOBAL": 2}


def _saddr_ok(seg: str, code: int) -> bool:
    if code == NULL:
        return True
    if seg == "GLOBAL":
        return code <= 106 or 108 <= code <= 123 or code == 126
    return code <= 126


class FlatFormat(Format):
    size = 8

    def __init__(self, name: str) -> None:
        self.name = name
        self.seg = SEG[name]

    def encode(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        mi: MemInst = parse_mem(inst)
        bad_mod(mi, set(info.modifiers))
        glc = mi.flag("glc")
        rtn = info.extra.get("rtn_bits")
        specs = list(info.operands)
        if rtn:
            if len(mi.operands) == len(specs) + 1:
                if not glc:
                    raise AsmError("instruction must use glc", inst.col)
                specs.insert(0, type(specs[0])("vdst", "vgpr", int(rtn), is_def=True))  # type: ignore[arg-type]
            elif glc and len(mi.operands) == len(specs):
                raise AsmError("instruction must not use glc", mi.mods["glc"].col)
        expect_count(mi, len(specs), inst.col)
        w0 = (ENC << 26) | (info.opcode << 18) | (self.seg << 16)
        w1 = 0
        saddr_on = False
        if self.name == "GLOBAL":
            so = mi.operands[len(specs) - 1]
            saddr_on = not is_off(so)
        for spec, op in zip(specs, mi.operands, strict=True):
            if spec.name == "vdst":
                w1 |= vgpr(op, spec.dwords) << 24
            elif spec.name == "vdata":
                w1 |= vgpr(op, spec.dwords) << 8
            elif spec.name == "vaddr":
                if self.name == "SCRATCH":
                    if not is_off(op):
                        w1 |= vgpr(op, 1) | (1 << 23)
                elif self.name == "GLOBAL":
                    w1 |= vgpr(op, 1 if saddr_on else 2)
                else:
                    w1 |= vgpr(op, 2)
            elif spec.name == "saddr":
                if is_off(op):
                    code = NULL
                else:
                    if op.kind == "reg" and op.reg is not None and op.reg.file == "special" and \
                            op.reg.index == NULL:
                        raise AsmError("invalid operand for instruction", op.col)
                    code = sgpr_tuple(op, spec.dwords)
                    if not _saddr_ok(self.name, code):
                        raise AsmError("invalid operand for instruction", op.col)
                w1 |= code << 16
        if "offset" in mi.mods:
            off = int_mod(mi.mods["offset"])
            if self.name == "FLAT":
                if not 0 <= off <= 0xFFF:
                    raise AsmError("expected a 12-bit unsigned offset", mi.mods["offset"].col)
            elif not -4096 <= off <= 4095:
                raise AsmError("expected a 13-bit signed offset", mi.mods["offset"].col)
            w0 |= off & 0x1FFF
        for k, b in (("dlc", 13), ("glc", 14), ("slc", 15)):
            if mi.flag(k):
                w0 |= 1 << b
        if self.name == "FLAT":
            w1 |= NULL << 16
        return Encoded(w0.to_bytes(4, "little") + w1.to_bytes(4, "little"))

    def decode(self, data: bytes, pos: int, ctx: Context) -> Decoded | None:
        w0 = u32(data, pos)
        w1 = u32(data, pos + 4)
        if w0 is None or w1 is None:
            return None
        info = ctx.table.decode(self.name, ((w0 >> 18) & 0x7f))
        if info is None:
            return None
        glc = ((w0 >> 14) & 1)
        saddr = ((w1 >> 16) & 0x7f)
        sve = ((w1 >> 23) & 1)
        if not _saddr_ok(self.name, saddr):
            return None
        if self.name == "FLAT" and (saddr != NULL or w0 & 0x1000 or sve):
            return None
        if self.name == "GLOBAL" and sve:
            return None
        specs = list(info.operands)
        rtn = info.extra.get("rtn_bits")
        if rtn and glc:
            specs.insert(0, type(specs[0])("vdst", "vgpr", int(rtn), is_def=True))  # type: ignore[arg-type]
        parts = []
        for spec in specs:
            if spec.name == "vdst":
                idx = ((w1 >> 24) & 0xff)
                n = spec.dwords
            elif spec.name == "vdata":
                idx = ((w1 >> 8) & 0xff)
                n = spec.dwords
            elif spec.name == "vaddr":
                idx = (w1 & 0xff)
                if self.name == "SCRATCH":
                    n = 1 if sve else 0
                elif self.name == "GLOBAL":
                    n = 1 if saddr != NULL else 2
                else:
                    n = 2
            else:
                if saddr == NULL:
                    parts.append("off")
                else:
                    code = saddr & ~1 if spec.dwords == 2 and saddr <= 123 else saddr
                    parts.append(src_text(code, spec.dwords))
                continue
            if n == 0:
                parts.append("off")
                continue
            if idx + n > 256:
                return None
            parts.append(vtext(idx, n))
        text = info.printed_name
        if parts:
            text += " " + ", ".join(parts)
        off = w0 & 0x1FFF
        if self.name == "FLAT":
            off &= 0xFFF if False else 0x1FFF
        elif off & 0x1000:
            off -= 0x2000
        tail = []
        if off:
            tail.append(f"offset:{off}")
        for b, name in ((14, "glc"), (15, "slc"), (13, "dlc")):
            if w0 >> b & 1:
                tail.append(name)
        if tail:
            text += " " + " ".join(tail)
        return Decoded(8, text, info, self._fields(info, w0, w1))

    def _fields(self, info: OpInfo, w0: int, w1: int) -> dict[str, int]:
        """`Decoded.fields` per docs/machine-layer.md ("Structured decoding").
        OFFSET: FLAT 12-bit unsigned (MSB ignored), GLOBAL/SCRATCH 13-bit signed."""
        if self.name == "FLAT":
            off = w0 & 0xFFF
        else:
            off = w0 & 0x1FFF
            off = off - 0x2000 if off & 0x1000 else off
        return {"op": info.opcode, "vdst": ((w1 >> 24) & 0xff), "addr": (w1 & 0xff),
                "data": ((w1 >> 8) & 0xff), "saddr": ((w1 >> 16) & 0x7f), "offset": off,
                "seg": ((w0 >> 16) & 3), "glc": ((w0 >> 14) & 1), "slc": ((w0 >> 15) & 1),
                "dlc": ((w0 >> 13) & 1), "sve": ((w1 >> 23) & 1)}


for _n in SEG:
    register(FlatFormat(_n), (0xFC030000, (ENC << 26) | (SEG[_n] << 16)))
