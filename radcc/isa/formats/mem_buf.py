"""MUBUF and MTBUF encodings, ISA guide sections 15.7.1-15.7.2.

MUBUF: OFFSET [11:0], SLC [12], DLC [13], GLC [14], (LDS [16] ignored),
OP [25:18], ENCODING 0b111000. MTBUF: OP [18:15], FORMAT [25:19], ENCODING
0b111010. Second dword (both): VADDR [39:32], VDATA [47:40], SRSRC [52:48]
(SGPR index / 4), TFE [53], OFFEN [54], IDXEN [55], SOFFSET [63:56].

GFX10/10.3 (RDNA1/RDNA2 guides, MUBUF/MTBUF microcode formats): OFFSET
[11:0], OFFEN [12], IDXEN [13], GLC [14], DLC [15], LDS [16] (MUBUF), MUBUF
OP [24:18] + OP[7] at [25]; MTBUF OP[2:0] [18:16], FORMAT [25:19], OP[3] at
[53]; second dword SLC [54], TFE [55]. `BufLayout` records hold the
differences. GFX10 MUBUF loads with LDS set are the load-to-LDS forms
(``lds``, no VDATA; the table marks them ``lds_form``).

Syntax: ``vdata, vaddr|off, srsrc, soffset [format:...] [idxen] [offen]
[offset:N] [glc] [slc] [dlc] [tfe] [lds]``. VADDR is two VGPRs with
idxen+offen, one with either, ``off`` with neither. TFE adds one dword to
VDATA. SOFFSET codes are logical (`operands.RegCodes` maps M0/NULL).
"""

from __future__ import annotations

from dataclasses import dataclass

from radcc.isa.errors import AsmError
from radcc.isa.formats.base import Context, Decoded, Encoded, Format, register, u32
from radcc.isa.formats.mem_common import (
    MemInst,
    bad_mod,
    buf_format_names,
    buf_formats,
    expect_count,
    int_mod,
    is_gfx10,
    is_off,
    no_modifiers,
    parse_mem,
    sgpr_tuple,
    vgpr,
    vtext,
)
from radcc.isa.operands import (
    INLINE_INT_NEG_MAX,
    INV_2PI,
    INV_2PI_BITS,
    NULL,
    POPS_EXITING_WAVE_ID,
    SCC,
    SGPR_MAX,
    SHARED_BASE,
    TTMP0,
    TTMP15,
    VCCZ,
    SrcEncoding,
    encode_src,
    float_bits,
    regs_for,
    src_text,
)
from radcc.isa.syntax import ParsedInst
from radcc.isa.table import OpInfo
from radcc.target import GfxLevel

MUBUF_ENC = 0b111000
MTBUF_ENC = 0b111010
DEFAULT_FORMAT = 1


@dataclass(frozen=True)
class BufLayout:
    """Bit positions of one generation: flags as (dword, bit); opcodes as
    (dword, bit, width) pieces, low bits first."""

    flags: dict[str, tuple[int, int]]
    mubuf_op: tuple[tuple[int, int, int], ...]
    mtbuf_op: tuple[tuple[int, int, int], ...]
    lds: bool  # MUBUF LDS [16] selects the load-to-LDS form

    def op(self, enc: str, w0: int, w1: int) -> int:
        v, sh = 0, 0
        for dw, bit, width in self.mubuf_op if enc == "MUBUF" else self.mtbuf_op:
            v |= (((w1 if dw else w0) >> bit) & ((1 << width) - 1)) << sh
            sh += width
        return v

    def place_op(self, enc: str, op: int) -> tuple[int, int]:
        w = [0, 0]
        for dw, bit, width in self.mubuf_op if enc == "MUBUF" else self.mtbuf_op:
            w[dw] |= (op & ((1 << width) - 1)) << bit
            op >>= width
        return w[0], w[1]

    def get(self, flag: str, w0: int, w1: int) -> int:
        dw, bit = self.flags[flag]
        return ((w1 if dw else w0) >> bit) & 1

    def set(self, flag: str, w0: int, w1: int) -> tuple[int, int]:
        dw, bit = self.flags[flag]
        return (w0, w1 | 1 << bit) if dw else (w0 | 1 << bit, w1)


_GFX11 = BufLayout(
    flags={"glc": (0, 14), "slc": (0, 12), "dlc": (0, 13), "tfe": (1, 21), "offen": (1, 22),
           "idxen": (1, 23)},
    mubuf_op=((0, 18, 8),), mtbuf_op=((0, 15, 4),), lds=False)
_GFX10 = BufLayout(
    flags={"glc": (0, 14), "slc": (1, 22), "dlc": (0, 15), "tfe": (1, 23), "offen": (0, 12),
           "idxen": (0, 13), "lds": (0, 16)},
    mubuf_op=((0, 18, 7), (0, 25, 1)), mtbuf_op=((0, 16, 3), (1, 21, 1)), lds=True)
LAYOUTS = {GfxLevel.GFX10: _GFX10, GfxLevel.GFX10_3: _GFX10, GfxLevel.GFX11: _GFX11}


def _soffset_ok(code: int) -> bool:
    return code <= INLINE_INT_NEG_MAX or SHARED_BASE <= code <= INV_2PI or VCCZ <= code <= SCC


def _format_value(m, col: int, gfx: GfxLevel) -> int:  # noqa: ANN001
    v = m.value
    if isinstance(v, int):
        if not 0 <= v <= 127:
            raise AsmError("out of range format", m.col)
        return v
    if isinstance(v, list) and len(v) == 1 and isinstance(v[0], str):
        f = buf_formats(gfx).get(v[0])  # (upper case only, as llvm-mc-19)
        if f is not None:
            return f
    if isinstance(v, list) and 1 <= len(v) <= 2 and all(isinstance(x, str) for x in v):
        return _split_format(v, m.col, gfx, m.item_cols)
    raise AsmError("unsupported format", m.col)


def _split_format(names: list[str], col: int, gfx: GfxLevel,
                  cols: tuple[int, ...] = ()) -> int:
    """``format:[BUF_DATA_FORMAT_*, BUF_NUM_FORMAT_*]`` (either order, either may be
    left out: data defaults to 8, number to UNORM) as the unified format naming
    that pair; the pairs come from the unified names BUF_FMT_<data>_<number>. A name
    neither prefix begins (upper case only, as llvm-mc-19) is refused at `cols`[its index]."""
    dfmt, nfmt = "8", "UNORM"
    seen: set[str] = set()
    for i, n in enumerate(names):
        u = n
        for pfx, kind in (("BUF_DATA_FORMAT_", "d"), ("BUF_NUM_FORMAT_", "n")):
            if u.startswith(pfx) and kind not in seen:
                seen.add(kind)
                if kind == "d":
                    dfmt = u[len(pfx):]
                else:
                    nfmt = u[len(pfx):]
                break
        else:
            raise AsmError("unsupported format", cols[i] if i < len(cols) else col)
    f = buf_formats(gfx).get("BUF_FMT_INVALID" if dfmt == "INVALID" and nfmt == "UNORM"
                          else f"BUF_FMT_{dfmt}_{nfmt}")
    if f is None:
        raise AsmError("unsupported format", col)
    return f


class BufFormat(Format):
    size = 8

    def __init__(self, name: str, enc: int) -> None:
        self.name = name
        self.enc = enc

    def encode(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        gfx = ctx.target.gfx_level
        lay = LAYOUTS[gfx]
        mi: MemInst = parse_mem(inst, info.enc)
        ops = info.operands
        allowed = set(info.modifiers)
        lds = lay.lds and "lds" in mi.mods
        if lds:
            if not info.extra.get("lds_form"):
                raise AsmError("invalid operand for instruction", mi.mods["lds"].col)
            ops = tuple(o for o in ops if o.name != "vdata")
            allowed.discard("tfe")
            names = list(mi.mods)
            if names[-1] != "lds":  # llvm-mc: lds ends the statement
                raise AsmError("invalid operand for instruction",
                               mi.mods[names[names.index("lds") + 1]].col)
            allowed.add("lds")
        expect_count(mi, len(ops), inst.col)
        bad_mod(mi, allowed)
        w0, w1 = lay.place_op(self.name, info.opcode)
        w0 |= self.enc << 26
        if self.name == "MTBUF":
            fmt = DEFAULT_FORMAT
            if "format" in mi.mods:
                fmt = _format_value(mi.mods["format"], inst.col, gfx)
            w0 |= fmt << 19
        offen, idxen, tfe = mi.flag("offen"), mi.flag("idxen"), mi.flag("tfe")
        to_hw = regs_for(gfx).to_hw
        for spec, op in zip(ops, mi.operands, strict=True):
            if spec.name == "vdata":
                if tfe and not spec.is_def:
                    raise AsmError("TFE modifier has no meaning for store instructions",
                                   mi.mods["tfe"].col)
                w1 |= vgpr(op, spec.dwords + (1 if tfe else 0)) << 8
            elif spec.name == "vaddr":
                n = int(offen) + int(idxen)
                if n == 0:
                    if not is_off(op):
                        raise AsmError("invalid operand for instruction", op.col)
                else:
                    w1 |= vgpr(op, n)
            elif spec.name == "srsrc":
                code = sgpr_tuple(op, 4)
                w1 |= (code >> 2) << 16
            elif spec.name == "soffset":
                if op.kind == "reg" or op.abs or op.sext or op.neg_fn:
                    no_modifiers(op)  # (a constant's plain minus is its value's sign)
                if op.kind in ("int", "float") and op.lit:
                    raise AsmError("invalid operand for instruction", op.col)
                if op.kind == "float" and float_bits(float(op.value), 32) == INV_2PI_BITS[32]:
                    se = SrcEncoding(INV_2PI)
                else:
                    se = encode_src(op, "f32" if op.kind == "float" else "i32",
                                    allow_vgpr=False, allow_literal=False)
                if not _soffset_ok(se.code) or se.code == POPS_EXITING_WAVE_ID:
                    raise AsmError("invalid operand for instruction", op.col)
                w1 |= to_hw[se.code] << 24
        for k in ("slc", "dlc", "glc", "tfe", "offen", "idxen", "lds"):
            if mi.flag(k) and k in lay.flags:
                w0, w1 = lay.set(k, w0, w1)
        off = 0
        if "offset" in mi.mods:
            off = int_mod(mi.mods["offset"])
            if not 0 <= off <= 0xFFFF:
                raise AsmError("expected a 16-bit unsigned offset", mi.mods["offset"].col)
            # llvm-mc accepts 16 bits, keeps the low 12 and echoes the value given
            w0 |= off & 0xFFF
        data = w0.to_bytes(4, "little") + w1.to_bytes(4, "little")
        if off > 0xFFF:
            d = self.decode(data, 0, ctx)
            if d is not None:
                low = off & 0xFFF
                text = d.text.replace(f" offset:{low}", f" offset:{off}") if low else \
                    _insert_offset(d.text, off)
                return Encoded(data, text=text)
        return Encoded(data)

    def decode(self, data: bytes, pos: int, ctx: Context) -> Decoded | None:
        w0 = u32(data, pos)
        w1 = u32(data, pos + 4)
        if w0 is None or w1 is None:
            return None
        gfx = ctx.target.gfx_level
        lay = LAYOUTS[gfx]
        op = lay.op(self.name, w0, w1)
        info = ctx.table.decode(self.name, op)
        if info is None:
            return None
        mods = info.modifiers
        glc, slc, dlc = lay.get("glc", w0, w1), lay.get("slc", w0, w1), lay.get("dlc", w0, w1)
        tfe, offen, idxen = (lay.get("tfe", w0, w1), lay.get("offen", w0, w1),
                             lay.get("idxen", w0, w1))
        lds = lay.lds and self.name == "MUBUF" and lay.get("lds", w0, w1)
        for flag, name in ((glc, "glc"), (slc, "slc"), (dlc, "dlc"), (tfe, "tfe"),
                           (offen, "offen"), (idxen, "idxen")):
            if flag and name not in mods:
                return None
        if lds and (tfe or not info.extra.get("lds_form")):
            return None
        from_hw = regs_for(gfx).from_hw
        parts = []
        for spec in info.operands:
            if spec.name == "vdata":
                if lds:
                    continue
                n = spec.dwords + tfe
                idx = ((w1 >> 8) & 0xff)
                if idx + n > 256:
                    return None
                parts.append(vtext(idx, n))
            elif spec.name == "vaddr":
                n = offen + idxen
                idx = (w1 & 0xff)
                if n and idx + n > 256:
                    return None
                parts.append(vtext(idx, n) if n else "off")
            elif spec.name == "srsrc":
                code = ((w1 >> 16) & 0x1f) << 2
                if code == NULL and not is_gfx10(ctx):
                    parts.append("null")
                    continue
                if code + 3 > SGPR_MAX and not TTMP0 <= code <= TTMP15 - 3:
                    return None
                parts.append(src_text(code, 4))
            elif spec.name == "soffset":
                code = from_hw[((w1 >> 24) & 0xff)]
                if not _soffset_ok(code):
                    return None
                parts.append(src_text(code, 1))
        text = info.printed_name
        if parts:
            text += " " + ", ".join(parts)
        tail = []
        if self.name == "MTBUF":
            fmt = ((w0 >> 19) & 0x7f)
            if fmt != DEFAULT_FORMAT:
                nm = buf_format_names(gfx).get(fmt)
                tail.append(f"format:[{nm}]" if nm else f"format:{fmt}")
        if idxen:
            tail.append("idxen")
        if offen:
            tail.append("offen")
        if w0 & 0xFFF and "offset" in mods:
            tail.append(f"offset:{w0 & 0xFFF}")
        for flag, name in ((glc, "glc"), (slc, "slc"), (dlc, "dlc"), (tfe, "tfe"),
                           (lds, "lds")):
            if flag:
                tail.append(name)
        if tail:
            text += " " + " ".join(tail)
        f = {"op": op, "vdata": ((w1 >> 8) & 0xff), "vaddr": (w1 & 0xff),
             "srsrc": ((w1 >> 16) & 0x1f) << 2, "soffset": from_hw[((w1 >> 24) & 0xff)],
             "offset": w0 & 0xFFF, "offen": offen, "idxen": idxen,
             "glc": glc, "slc": slc, "dlc": dlc, "tfe": tfe}
        if lay.lds:
            f["lds"] = int(lds)
        if self.name == "MTBUF":
            f["format"] = ((w0 >> 19) & 0x7f)
        return Decoded(8, text, info, f)


def _insert_offset(text: str, off: int) -> str:
    head, _, _ = text.partition(" glc")
    for flag in (" glc", " slc", " dlc", " tfe"):
        i = text.find(flag)
        if i >= 0:
            return text[:i] + f" offset:{off}" + text[i:]
    return head + f" offset:{off}"


register(BufFormat("MUBUF", MUBUF_ENC), (0xFC000000, MUBUF_ENC << 26))
register(BufFormat("MTBUF", MTBUF_ENC), (0xFC000000, MTBUF_ENC << 26))
