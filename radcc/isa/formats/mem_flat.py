"""FLAT / GLOBAL / SCRATCH encodings, ISA guide section 15.9.

One microcode format; SEG picks the segment (0 flat, 1 scratch, 2 global).
GFX11: OFFSET [12:0] (FLAT: 12-bit unsigned; GLOBAL/SCRATCH: 13-bit
signed), DLC [13], GLC [14], SLC [15], SEG [17:16], OP [24:18], ENCODING
0b110111; ADDR [39:32], DATA [47:40], SADDR [54:48] (NULL=0x7c prints
``off``), SVE [55] (scratch: VADDR used), VDST [63:56].
GFX10/10.3 (RDNA1/RDNA2 guides, FLAT microcode format): OFFSET [11:0]
(FLAT: 11-bit unsigned in assembly; GLOBAL/SCRATCH: 12-bit signed), DLC
[12], LDS [13], SEG [15:14], GLC [16], SLC [17]; SADDR ``off`` is NULL
(0x7d); SCRATCH with VADDR and SADDR both ``off`` uses 0x7f (GFX10.3, and
GFX10.1's LDS forms); bit 55 must be 0. LDS [13] selects the load-to-LDS form
of the GLOBAL/SCRATCH loads the table marks ``lds_form``: no VDST, ``lds``
printed last and ending the statement (llvm-mc).
An explicit ``null`` SADDR encodes like ``off``; llvm-mc keeps the operands as
written (GLOBAL VADDR one VGPR), so the assembler gives that text. `FlatLayout` records hold the differences; the FLAT
format decodes the whole encoding and hands the word to the segment's format.

Atomics return the pre-op value (an extra leading VDST) exactly when GLC
is set (``rtn_bits`` in the table entry). SADDR codes are logical
(`operands.RegCodes` maps M0/NULL to the generation's field values).
"""

from __future__ import annotations

from dataclasses import dataclass

from radcc.isa.errors import AsmError
from radcc.isa.formats.base import FORMATS, Context, Decoded, Encoded, Format, register, u32
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
from radcc.isa.operands import (
    EXEC_HI,
    EXEC_LO,
    M0,
    NULL,
    TTMP0,
    TTMP15,
    VCC_LO,
    Operand,
    regs_for,
    src_text,
)
from radcc.isa.syntax import ParsedInst
from radcc.isa.table import OpInfo
from radcc.target import GfxLevel

ENC = 0b110111
SEG = {"FLAT": 0, "SCRATCH": 1, "GLOBAL": 2}
SEG_NAMES = {v: k for k, v in SEG.items()}


@dataclass(frozen=True)
class FlatLayout:
    """Bit positions of one generation (dword 0 unless noted)."""

    seg: int
    bits: dict[str, int]  # dlc glc slc (and lds on GFX10)
    offset_bits: int  # width of OFFSET
    flat_max: int  # largest FLAT offset the assembler accepts
    sve: bool  # GFX11 SVE [55]; GFX10 requires [55] = 0
    both_off: int | None  # SCRATCH SADDR code when VADDR and SADDR are off (GFX10)


_GFX11 = FlatLayout(seg=16, bits={"dlc": 13, "glc": 14, "slc": 15}, offset_bits=13,
                    flat_max=0xFFF, sve=True, both_off=None)
_GFX10 = FlatLayout(seg=14, bits={"dlc": 12, "glc": 16, "slc": 17, "lds": 13}, offset_bits=12,
                    flat_max=0x7FF, sve=False, both_off=None)
# GFX10.3 adds SCRATCH with no address at all (LLVM: flat-scratch SVS mode)
_GFX10_3 = FlatLayout(seg=14, bits={"dlc": 12, "glc": 16, "slc": 17, "lds": 13},
                      offset_bits=12, flat_max=0x7FF, sve=False, both_off=EXEC_HI)
LAYOUTS = {GfxLevel.GFX10: _GFX10, GfxLevel.GFX10_3: _GFX10_3, GfxLevel.GFX11: _GFX11}


def _is_null(op: Operand) -> bool:
    """An explicit ``null`` register operand."""
    return op.kind == "reg" and op.reg is not None and op.reg.file == "special" and \
        op.reg.index == NULL


def _saddr_ok(seg: str, code: int, gfx10: bool = False) -> bool:
    if code == NULL:
        return True
    if seg == "GLOBAL":
        return code <= VCC_LO or TTMP0 <= code <= TTMP15 or code == EXEC_LO
    if gfx10 and code == EXEC_HI:
        return False
    return code <= EXEC_LO


class FlatFormat(Format):
    size = 8

    def __init__(self, name: str) -> None:
        self.name = name
        self.seg = SEG[name]

    def encode(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        gfx = ctx.target.gfx_level
        lay = LAYOUTS[gfx]
        to_hw = regs_for(gfx).to_hw
        mi: MemInst = parse_mem(inst, info.enc)
        allowed = set(info.modifiers)
        lds = "lds" in lay.bits and "lds" in mi.mods
        if lds:
            if not info.extra.get("lds_form"):
                raise AsmError("invalid operand for instruction", mi.mods["lds"].col)
            names = list(mi.mods)
            if names[-1] != "lds":  # llvm-mc: lds ends the statement
                raise AsmError("invalid operand for instruction",
                               mi.mods[names[names.index("lds") + 1]].col)
            allowed.add("lds")
        bad_mod(mi, allowed)
        glc = mi.flag("glc")
        rtn = info.extra.get("rtn_bits")
        specs = list(info.operands)
        if lds:
            specs = [s for s in specs if s.name != "vdst"]
        elif rtn:
            if len(mi.operands) == len(specs) + 1:
                if not glc:
                    raise AsmError("instruction must use glc", inst.col)
                specs.insert(0, type(specs[0])("vdst", "vgpr", int(rtn), is_def=True))  # type: ignore[arg-type]
            elif glc and len(mi.operands) == len(specs):
                raise AsmError("instruction must not use glc", mi.mods["glc"].col)
        expect_count(mi, len(specs), inst.col)
        w0 = (ENC << 26) | (info.opcode << 18) | (self.seg << lay.seg)
        w1 = 0
        saddr_on = False
        vaddr_off = False
        vaddr_n = 2
        null_saddr = False
        if self.name == "GLOBAL":
            so = mi.operands[len(specs) - 1]
            saddr_on = not is_off(so)
            vaddr_n = 1 if saddr_on else 2
        for spec, op in zip(specs, mi.operands, strict=True):
            if spec.name == "vdst":
                w1 |= vgpr(op, spec.dwords) << 24
            elif spec.name == "vdata":
                w1 |= vgpr(op, spec.dwords) << 8
            elif spec.name == "vaddr":
                if self.name == "SCRATCH":
                    vaddr_n = 1
                    if not is_off(op):
                        w1 |= vgpr(op, 1) | (int(lay.sve) << 23)
                    else:
                        vaddr_off = True
                        vaddr_n = 0
                else:
                    w1 |= vgpr(op, vaddr_n)
            elif spec.name == "saddr":
                if is_off(op):
                    code = NULL
                    if vaddr_off and not lay.sve:
                        if lay.both_off is None and not lds:
                            raise AsmError("operands are not valid for this GPU or mode",
                                           inst.col)
                        code = EXEC_HI
                elif _is_null(op):
                    # an explicit NULL SADDR: the bytes of ``off``, but llvm-mc keeps
                    # the operands as written (GLOBAL VADDR one VGPR)
                    if self.name == "SCRATCH" and not vaddr_off and not lay.sve:
                        raise AsmError("operands are not valid for this GPU or mode", inst.col)
                    code = NULL
                    null_saddr = True
                else:
                    code = sgpr_tuple(op, spec.dwords)
                    if not _saddr_ok(self.name, code) or (
                            self.name == "GLOBAL" and code == M0) or code == NULL:
                        raise AsmError("invalid operand for instruction", op.col)
                    if self.name == "SCRATCH" and not lay.sve and not vaddr_off:
                        raise AsmError("operands are not valid for this GPU or mode", inst.col)
                w1 |= to_hw[code] << 16
        if "offset" in mi.mods:
            off = int_mod(mi.mods["offset"])
            half = 1 << (lay.offset_bits - 1)
            if self.name == "FLAT":
                if not 0 <= off <= lay.flat_max:
                    raise AsmError(f"expected a {lay.flat_max.bit_length()}-bit unsigned offset",
                                   mi.mods["offset"].col)
            elif not -half <= off < half:
                raise AsmError(f"expected a {lay.offset_bits}-bit signed offset",
                               mi.mods["offset"].col)
            w0 |= off & ((1 << lay.offset_bits) - 1)
        for k in ("dlc", "glc", "slc"):
            if mi.flag(k):
                w0 |= 1 << lay.bits[k]
        if lds:
            w0 |= 1 << lay.bits["lds"]
        if self.name == "FLAT":
            w1 |= to_hw[NULL] << 16
        data = w0.to_bytes(4, "little") + w1.to_bytes(4, "little")
        if not null_saddr:
            return Encoded(data)
        return Encoded(data, text=self._text(info, specs, lay, w0, w1, vaddr_n, "null", lds))

    def decode(self, data: bytes, pos: int, ctx: Context) -> Decoded | None:
        w0 = u32(data, pos)
        w1 = u32(data, pos + 4)
        if w0 is None or w1 is None:
            return None
        gfx = ctx.target.gfx_level
        lay = LAYOUTS[gfx]
        seg = SEG_NAMES.get((w0 >> lay.seg) & 3)
        if seg is None:
            return None
        if seg != self.name:  # the FLAT rule sees every segment
            return FORMATS[seg].decode(data, pos, ctx)
        info = ctx.table.decode(self.name, ((w0 >> 18) & 0x7f))
        if info is None:
            return None
        gfx10 = not lay.sve
        glc = (w0 >> lay.bits["glc"]) & 1
        saddr = regs_for(gfx).from_hw[(w1 >> 16) & 0x7f]
        sve = ((w1 >> 23) & 1)
        lds = bool("lds" in lay.bits and (w0 >> lay.bits["lds"]) & 1)
        if lds and not info.extra.get("lds_form"):
            return None
        if gfx10:
            if sve:
                return None
            # SCRATCH without any address: 0x7f (GFX10.3; GFX10.1 only in the LDS form)
            both_off = self.name == "SCRATCH" and saddr == EXEC_HI and (
                lay.both_off is not None or lds)
            if both_off:
                saddr = NULL
            elif not _saddr_ok(self.name, saddr, True) or (
                    self.name == "GLOBAL" and saddr == M0):
                return None
            sve = int(self.name == "SCRATCH" and saddr == NULL and not both_off)
        elif not _saddr_ok(self.name, saddr):
            return None
        if self.name == "FLAT" and (saddr != NULL or sve):
            return None
        if self.name == "GLOBAL" and sve:
            return None
        specs = list(info.operands)
        rtn = info.extra.get("rtn_bits")
        if lds:
            specs = [s for s in specs if s.name != "vdst"]
        elif rtn and glc:
            specs.insert(0, type(specs[0])("vdst", "vgpr", int(rtn), is_def=True))  # type: ignore[arg-type]
        if self.name == "SCRATCH":
            vaddr_n = 1 if sve else 0
        elif self.name == "GLOBAL":
            vaddr_n = 1 if saddr != NULL else 2
        else:
            vaddr_n = 2
        saddr_text = "off"
        if saddr != NULL:
            spec = next(s for s in specs if s.name == "saddr")
            saddr_text = src_text(saddr & ~1 if spec.dwords == 2 and saddr <= TTMP15 else saddr,
                                  spec.dwords)
        text = self._text(info, specs, lay, w0, w1, vaddr_n, saddr_text, lds)
        if text is None:
            return None
        return Decoded(8, text, info, self._fields(info, lay, w0, w1, saddr, sve))

    def _text(self, info: OpInfo, specs: list, lay: FlatLayout, w0: int, w1: int,
              vaddr_n: int, saddr_text: str, lds: bool) -> str | None:
        """llvm-mc's text of an encoding: `vaddr_n` VADDR registers (0: ``off``),
        SADDR printed as `saddr_text`; None when a VGPR range runs past v255."""
        parts = []
        for spec in specs:
            if spec.name == "vdst":
                idx, n = (w1 >> 24) & 0xff, spec.dwords
            elif spec.name == "vdata":
                idx, n = (w1 >> 8) & 0xff, spec.dwords
            elif spec.name == "vaddr":
                idx, n = w1 & 0xff, vaddr_n
            else:
                parts.append(saddr_text)
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
        off = self._offset(lay, w0)
        tail = [f"offset:{off}"] if off else []
        for name in ("glc", "slc", "dlc"):
            if w0 >> lay.bits[name] & 1:
                tail.append(name)
        if lds:
            tail.append("lds")
        if tail:
            text += " " + " ".join(tail)
        return text

    def _offset(self, lay: FlatLayout, w0: int) -> int:
        """OFFSET: FLAT unsigned (llvm-mc prints the whole field although its
        assembler takes 12 bits on GFX11, 11 on GFX10), GLOBAL/SCRATCH signed."""
        width = lay.offset_bits
        off = w0 & ((1 << width) - 1)
        if self.name == "FLAT":
            return off
        return off - (1 << width) if off >> (width - 1) else off

    def _fields(self, info: OpInfo, lay: FlatLayout, w0: int, w1: int,
                saddr: int, sve: int) -> dict[str, int]:
        """`Decoded.fields` per docs/machine-layer.md ("Structured decoding");
        `saddr` is the logical code (NULL for ``off``); `sve` is 1 when a SCRATCH
        access uses VADDR (GFX11's SVE bit; on GFX10 SADDR = NULL says so)."""
        return {"op": info.opcode, "vdst": ((w1 >> 24) & 0xff), "addr": (w1 & 0xff),
                "data": ((w1 >> 8) & 0xff), "saddr": saddr, "offset": self._offset(lay, w0),
                "seg": SEG[self.name], "glc": (w0 >> lay.bits["glc"]) & 1,
                "slc": (w0 >> lay.bits["slc"]) & 1, "dlc": (w0 >> lay.bits["dlc"]) & 1,
                "sve": sve}


# one decode rule for the encoding (SEG sits at [17:16] on GFX11, [15:14] on
# GFX10); FLAT's decode hands other segments to their format
for _n in SEG:
    if _n == "FLAT":
        register(FlatFormat(_n), (0xFC000000, ENC << 26))
    else:
        register(FlatFormat(_n))
