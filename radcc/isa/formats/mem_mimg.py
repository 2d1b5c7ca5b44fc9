"""MIMG (image) encoding, ISA guide section 15.8.1.

First dword: NSA [0], DIM [4:2], UNRM [7], DMASK [11:8], SLC [12], DLC [13],
GLC [14], R128 [15], A16 [16], D16 [17], OP [25:18], ENCODING 0b111100.
Second: VADDR [39:32], VDATA [47:40], SRSRC [52:48] (SGPR / 4), TFE [53],
LWE [54], SSAMP [62:58] (SGPR / 4). With NSA a third dword holds ADDR1..4.

GFX10/10.3 (RDNA1/RDNA2 MIMG microcode format): OP[7] [0], NSA [2:1] (the
number of NSA address dwords, 0-3: up to 13 single-VGPR addresses), DIM
[5:3], DLC [7], DMASK [11:8], UNRM [12], GLC [13], R128 [15], TFE [16], LWE
[17], OP[6:0] [24:18], SLC [25]; SSAMP [57:53], A16 [62], D16 [63].
`MimgLayout` records hold the differences. With more NSA dwords than the
address count needs llvm-mc prints the needed addresses (if the opcode has an
NSA form that long); with fewer it prints the first 1 + 4 * count
(`_gfx10_nsa_layout`).

Syntax: ``vdata, vaddr|[a0, a1, ...], srsrc[, ssamp] [dmask:N] dim:D [unorm]
[glc slc dlc] [r128] [a16] [tfe] [lwe] [d16]`` (that order). Operand sizes
follow llvm-mc: vdata dwords = popcount(dmask) (4 for gather4/msaa),
halved by d16, +1 with tfe; address dwords per dim/a16 come from the table
(``radcc/isa/data/gfx11/mimg.json``, tools/isa_probe/memory_mimg.py), as
do llvm-mc's decoder fallbacks when no variant has the computed sizes.
"""

from __future__ import annotations

from dataclasses import dataclass

from radcc.isa.errors import AsmError
from radcc.isa.formats.base import Context, Decoded, Encoded, Format, register, u32
from radcc.isa.formats.mem_common import sgpr_tuple, vtext
from radcc.isa.lexer import IDENT, INT, Token
from radcc.isa.operands import (
    NULL,
    SGPR_MAX,
    TTMP0,
    TTMP15,
    Operand,
    Reg,
    check_reg,
    parse_reg_name,
    reg_name,
)
from radcc.isa.syntax import Cursor, ParsedInst, parse_operand, parse_register
from radcc.isa.table import OpInfo
from radcc.target import GfxLevel

MIMG_ENC = 0b111100
DIMS = ("1D", "2D", "3D", "CUBE", "1D_ARRAY", "2D_ARRAY", "2D_MSAA", "2D_MSAA_ARRAY")
DIM_PREFIX = "SQ_RSRC_IMG_"
# modifier order of llvm-mc's syntax (glc/slc/dlc are one cache-policy operand)
ORDER = ("dmask", "dim", "unorm", "cpol", "r128", "a16", "tfe", "lwe", "d16")
CPOL = {"glc": 14, "slc": 12, "dlc": 13}
W0_FLAGS = {"unorm": 7, "r128": 15, "a16": 16, "d16": 17}
W1_FLAGS = {"tfe": 21, "lwe": 22}
PRINT_FLAGS = ("unorm", "glc", "slc", "dlc", "r128", "a16", "tfe", "lwe", "d16")


@dataclass(frozen=True)
class MimgLayout:
    """Bit positions of one generation: flags as (dword, bit)."""

    flags: dict[str, tuple[int, int]]
    dim_shift: int
    ssamp_shift: int  # in dword 1
    gfx10: bool  # NSA [2:1] counts dwords (up to 3); OP[7] at [0]


_GFX11 = MimgLayout({**{k: (0, b) for k, b in (*W0_FLAGS.items(), *CPOL.items())},
                     **{k: (1, b) for k, b in W1_FLAGS.items()}}, 2, 26, False)
_GFX10 = MimgLayout({"unorm": (0, 12), "glc": (0, 13), "slc": (0, 25), "dlc": (0, 7),
                     "r128": (0, 15), "a16": (1, 30), "d16": (1, 31), "tfe": (0, 16),
                     "lwe": (0, 17)}, 3, 21, True)
LAYOUTS = {GfxLevel.GFX10: _GFX10, GfxLevel.GFX10_3: _GFX10, GfxLevel.GFX11: _GFX11}


def dst_dwords(m: dict, dmask: int, d16: int, tfe: int) -> int:
    """VDATA dwords llvm-mc expects for dmask/d16/tfe."""
    n = 4 if m.get("gather4") else max(bin(dmask & 0xF).count("1"), 1)
    if d16:
        n = (n + 1) // 2
    return n + tfe


def _sreg_ok(code: int, n: int) -> bool:
    return code + n - 1 <= SGPR_MAX or (TTMP0 <= code and code + n - 1 <= TTMP15) or code == NULL


def _sreg_text(code: int, n: int) -> str:
    return "null" if code == NULL else reg_name(code, n)


# --- decoding -----------------------------------------------------------------


def _gfx10_nsa_layout(m: dict, vds: int, layout: list[int],
                      ndw: int) -> tuple[int, list[int]] | None:
    """The GFX10 NSA vdata size and address list llvm-mc prints for `ndw` NSA
    dwords: the computed ones when the addresses fit, else the opcode's
    default vdata size and the first 1 + 4*ndw addresses; None when the
    opcode has no NSA form that long (its default NSA variant counts: an
    opcode whose dims need one address prints that variant's list)."""
    # the opcode's longest NSA variant: a dim's form, a BVH form, or the default
    # variant llvm-mc's decoder falls back to (image_get_resinfo has only that)
    longest = max((len(x) for x in (*m.get("nsa", ()), *m.get("bvh", {}).values(),
                                    m.get("default", {}).get("nsa"))
                   if isinstance(x, list) and x), default=1)
    if ndw > (longest + 2) // 4:
        return None
    if len(layout) <= 1 + 4 * ndw:
        return vds, layout
    return m.get("default", {}).get("nsa_vdata", vds), [1] * (1 + 4 * ndw)



def _layout_text(regs: list[int], layout: list[int]) -> str | None:
    parts = []
    for r, n in zip(regs, layout, strict=False):
        if r + n > 256:
            return None
        parts.append(vtext(r, n))
    return "[" + ", ".join(parts) + "]"


class MimgFormat(Format):
    name = "MIMG"
    size = 8

    def decode(self, data: bytes, pos: int, ctx: Context) -> Decoded | None:
        w0, w1 = u32(data, pos), u32(data, pos + 4)
        if w0 is None or w1 is None:
            return None
        lay = LAYOUTS[ctx.target.gfx_level]
        ndw = (w0 >> 1) & 3 if lay.gfx10 else w0 & 1  # NSA address dwords
        nsa = int(ndw > 0)
        w2 = 0
        for i in range(ndw):
            x = u32(data, pos + 8 + 4 * i)
            if x is None:
                return None
            w2 |= x << (32 * i)
        op = ((w0 >> 18) & 0x7f) | ((w0 & 1) << 7) if lay.gfx10 else (w0 >> 18) & 0xff
        info = ctx.table.decode("MIMG", op)
        if info is None:
            return None
        m: dict = info.extra["mimg"]  # type: ignore[assignment]
        f = {"op": info.opcode, "nsa": nsa, "dim": ((w0 >> lay.dim_shift) & 7),
             "dmask": ((w0 >> 8) & 0xf), "vaddr": (w1 & 0xff), "vdata": ((w1 >> 8) & 0xff),
             "srsrc": ((w1 >> 16) & 0x1f) * 4, "ssamp": ((w1 >> lay.ssamp_shift) & 0x1f) * 4}
        if lay.gfx10:
            f["nsa_dwords"] = ndw
            if NULL in (f["srsrc"], f["ssamp"]):  # M0 on GFX10: not a resource
                return None
        for k, (dw, b) in lay.flags.items():
            f[k] = ((w1 if dw else w0) >> b) & 1
        fixed: dict = m.get("fixed", {})
        for k in PRINT_FLAGS:
            if f[k] and k not in info.modifiers and k not in fixed:
                return None
        for k, v in fixed.items():
            if f[k] != v:
                return None
        has_ssamp = info.operand("ssamp") is not None
        if not has_ssamp and f["ssamp"]:
            return None
        regs = [f["vaddr"], *((w2 >> (8 * i)) & 0xFF for i in range(4 * max(ndw, 1)))]
        if nsa:
            for i in range(1, len(regs)):
                f[f"vaddr{i}"] = regs[i]
        srsrc_n = info.operand("srsrc").dwords  # type: ignore[union-attr]
        if not _sreg_ok(f["srsrc"], srsrc_n) or (has_ssamp and not _sreg_ok(f["ssamp"], 4)):
            return None
        if "bvh" not in m:
            # llvm-mc first decodes the default variant: its registers must exist
            d = m["default"]
            if f["vdata"] + (d["nsa_vdata"] if nsa else d["vdata"]) > 256 or (
                    not nsa and f["vaddr"] + d["vaddr"] > 256):
                return None
        if "bvh" in m:
            vds = m["vdata_sizes"][0]
            layout = m["bvh"][f"{'nsa' if nsa else 'vaddr'}{f['a16']}"]
        else:
            vds, layout = self._sizes(m, f, nsa, regs)
        if lay.gfx10 and nsa:
            sized = _gfx10_nsa_layout(m, vds, layout, ndw)
            if sized is None:
                return None
            vds, layout = sized
        if f["vdata"] + vds > 256:
            return None
        if nsa:
            addr = _layout_text(regs, layout)
            if addr is None:
                return None
        else:
            if f["vaddr"] + layout[0] > 256:
                return None
            addr = vtext(f["vaddr"], layout[0])
        sep = m.get("nsa_sep", " ") if nsa else " "
        parts = [vtext(f["vdata"], vds), addr, _sreg_text(f["srsrc"], srsrc_n)]
        if has_ssamp:
            parts.append(_sreg_text(f["ssamp"], 4))
        tail = []
        if "bvh" not in m:
            if f["dmask"]:
                tail.append(f"dmask:0x{f['dmask']:x}")
            tail.append(f"dim:{DIM_PREFIX}{DIMS[f['dim']]}")
        tail += [k for k in PRINT_FLAGS if f[k] and k not in fixed]
        text = info.printed_name + sep + ", ".join(parts)
        if tail:
            text += " " + " ".join(tail)
        f["vdata_dwords"] = vds
        return Decoded(8 + 4 * ndw, text, info, f)

    @staticmethod
    def _sizes(m: dict, f: dict, nsa: int, regs: list[int]) -> tuple[int, list[int]]:
        """llvm-mc's vdata size and address layout, with its fallback to the
        opcode's default variant when no variant has the computed sizes."""
        key = f["dim"] * 2 + f["a16"]
        vds = m["vdata_map"].get(str(dst_dwords(m, f["dmask"], f["d16"], f["tfe"])), 0)
        d = m["default"]
        if nsa:
            layout = m["nsa"][key]
            fits = layout is not None and all(
                r + n <= 256 for r, n in zip(regs, layout, strict=False))
            if layout is None or not vds or f["vdata"] + vds > 256 or not fits:
                return d["nsa_vdata"], d["nsa"]
            return vds, layout
        a = m["addr"][key]
        if a is None or not vds or f["vdata"] + vds > 256 or f["vaddr"] + a > 256:
            return d["vdata"], [d["vaddr"]]
        return vds, [a]

    # --- encoding ---------------------------------------------------------------

    def encode(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        m: dict = info.extra["mimg"]  # type: ignore[assignment]
        parsed = _fast_parse(inst, info)
        if parsed is None:
            cur = Cursor(inst.tokens)
            vdata = parse_operand(cur)
            cur.expect(",") if not cur.at_end() else None
            addr = _parse_addr(cur)
            ops: list[Operand] = []
            while cur.accept(","):
                if cur.at_end() or _at_modifier(cur):
                    break  # llvm-mc: a comma may precede the modifiers
                ops.append(parse_operand(cur))
            after_col = cur.tok.col
            mods = _parse_mods(cur, info)
        else:
            vdata, addr, ops, after_col, mods = parsed
        n_ops = 2 if info.operand("ssamp") is not None else 1
        if len(ops) < n_ops:
            raise AsmError("too few operands for instruction", inst.col)
        if len(ops) > n_ops:
            raise AsmError("not a valid operand.", after_col)
        # registers (llvm-mc's matcher: sizes among the opcode's variants)
        vd = _vgpr(vdata)
        if vd.count not in m.get("asm_vdata_sizes", m["vdata_sizes"]):
            raise AsmError("invalid operand for instruction", vdata.col)
        bvh = m.get("bvh")
        lay = LAYOUTS[ctx.target.gfx_level]
        if lay.gfx10 and len(addr) > 1 and (len(addr) > 13 or any(
                r.count != 1 for r, _ in addr)):
            bad = addr[13][1] if len(addr) > 13 else next(c for r, c in addr if r.count != 1)
            raise AsmError("invalid operand for instruction", bad)
        if len(addr) == 1:
            a0 = addr[0]
            sizes = [bvh["vaddr0"][0], bvh["vaddr1"][0]] if bvh else m["vaddr_sizes"]
            if a0[0].count not in sizes:
                raise AsmError("invalid operand for instruction", a0[1])
        elif bvh and [r.count for r, _ in addr] not in (bvh["nsa0"], bvh["nsa1"]):
            raise AsmError("invalid operand for instruction", addr[0][1])
        elif lay.gfx10:
            pass  # single VGPRs (checked above); the count is checked against dim below
        elif not bvh and (len(addr) > 5 or any(r.count != 1 for r, _ in addr[:4])):
            bad = addr[5][1] if len(addr) > 5 else next(c for r, c in addr if r.count != 1)
            raise AsmError("invalid operand for instruction", bad)
        elif not bvh and len(addr) == 5 and addr[4][0].count not in {
                x[-1] for x in m["nsa"] if x is not None and len(x) == 5} | {1}:
            raise AsmError("invalid operand for instruction", addr[4][1])
        srsrc = sgpr_tuple(ops[0], info.operand("srsrc").dwords)  # type: ignore[union-attr]
        if srsrc == NULL:
            raise AsmError("invalid operand for instruction", ops[0].col)
        ssamp = sgpr_tuple(ops[1], 4) if n_ops == 2 else 0
        if n_ops == 2 and ssamp == NULL:
            raise AsmError("invalid operand for instruction", ops[1].col)
        flag = {k: int(k in mods and mods[k][1] is not False) for k in PRINT_FLAGS}
        dmask = 0
        dim = 0
        if bvh:
            a16 = flag["a16"]
            want = bvh[f"{'nsa' if len(addr) > 1 else 'vaddr'}{a16}"]
            if [r.count for r, _ in addr] != want:
                raise AsmError("image address size does not match a16", inst.col)
            fixed = m["fixed"]
            dmask, dim = fixed["dmask"], fixed["dim"]
            flag.update({k: v for k, v in fixed.items() if k in flag})
        else:
            if "dim" not in mods:
                raise AsmError("operands are not valid for this GPU or mode", inst.col)
            dim = int(mods["dim"][1])
            if "dmask" in mods:
                dmask = int(mods["dmask"][1]) & 0xF
            if "dim_ok" in m and dim not in m["dim_ok"]:
                raise AsmError(m["dim_error"], mods["dim"][0])
            want_d = dst_dwords(m, dmask, flag["d16"], flag["tfe"])
            if vd.count != want_d:
                msg = ("image data size does not match dmask and tfe" if m.get("atomic")
                       else "image data size does not match dmask, d16 and tfe")
                raise AsmError(msg, inst.col)
            key = dim * 2 + flag["a16"]
            if len(addr) == 1:
                a = m["addr"][key]
                n = addr[0][0].count
                if a is None or not (n == a or (n == 8 and 5 <= a <= 7)):
                    raise AsmError("image address size does not match dim and a16", inst.col)
            else:  # llvm-mc counts list elements; a group counts in full only last of 5
                a = m["addr"][key]
                if lay.gfx10:
                    n = len(addr)
                else:
                    n = len(addr) if a is None or a <= 5 else 4 + addr[-1][0].count
                if a is None or n != a or (a > 5 and len(addr) != 5 and not lay.gfx10):
                    raise AsmError("image address size does not match dim and a16", inst.col)
            if dmask in m.get("dmask_bad", ()):
                raise AsmError(m["dmask_error"], mods["dmask"][0] if "dmask" in mods
                               else inst.col)
        nsa = int(len(addr) > 1)
        if lay.gfx10:
            ndw = (len(addr) + 2) // 4
            w0 = (info.opcode >> 7) | ndw << 1 | (info.opcode & 0x7F) << 18
        else:
            ndw = nsa
            w0 = nsa | info.opcode << 18
        w0 |= dim << lay.dim_shift | dmask << 8 | MIMG_ENC << 26
        w1 = addr[0][0].index | vd.index << 8 | (srsrc >> 2) << 16 | (ssamp >> 2) << lay.ssamp_shift
        for k, (dw, b) in lay.flags.items():
            if dw:
                w1 |= flag[k] << b
            else:
                w0 |= flag[k] << b
        out = w0.to_bytes(4, "little") + w1.to_bytes(4, "little")
        if nsa:
            w2 = sum(r.index << (8 * i) for i, (r, _) in enumerate(addr[1:]))
            out += w2.to_bytes(4 * ndw, "little")
        return Encoded(out, text=self._echo(out, ctx, vd, addr, mods))

    def _echo(self, data: bytes, ctx: Context, vd: Reg, addr: list[tuple[Reg, int]],
              mods: dict[str, tuple[int, object]]) -> str | None:
        """llvm-mc's --show-encoding text echoes the data and address registers
        and the dmask value as written (e.g. an 8-VGPR vaddr where 5-7 are
        needed, or an atomic's 3-VGPR data the decoder prints otherwise)."""
        d = self.decode(data, 0, ctx)
        if d is None:
            return None
        text = d.text
        a = [vtext(r.index, r.count) for r, _ in addr]
        written = a[0] if len(a) == 1 else "[" + ", ".join(a) + "]"
        first, sep, rest = text.partition(", ")
        first = first.rsplit(" ", 1)[0] + " " + vtext(vd.index, vd.count)
        text = first + sep + rest
        if rest and not rest.startswith(written + ","):
            head = rest.split("], ", 1)[1] if rest.startswith("[") else rest.split(", ", 1)[1]
            text = f"{first}{sep}{written}, {head}"
        if "dmask" in mods:
            v = int(mods["dmask"][1]) & 0xFFFF  # type: ignore[call-overload]
            if v != v & 0xF:
                low = v & 0xF
                if low:
                    text = text.replace(f" dmask:0x{low:x} ", f" dmask:0x{v:x} ", 1)
                else:
                    text = text.replace(" dim:", f" dmask:0x{v:x} dim:", 1)
        return text


def _vgpr(op: Operand) -> Reg:
    if op.kind != "reg" or op.reg is None or op.reg.file != "v" or op.neg or op.abs:
        raise AsmError("invalid operand for instruction", op.col)
    check_reg(op.reg, op.col)
    return op.reg


def _parse_addr(cur: Cursor) -> list[tuple[Reg, int]]:
    """The address operand: one VGPR range, or an NSA list ``[v1, v[4:5], …]``."""
    if not cur.tok.is_punct("["):
        op = parse_operand(cur)
        return [(_vgpr(op), op.col)]
    cur.next()
    out: list[tuple[Reg, int]] = []
    while True:
        col = cur.tok.col
        r = parse_register(cur)
        if r is None or r.file != "v":
            raise AsmError("invalid operand for instruction", col)
        check_reg(r, col)
        out.append((r, col))
        if cur.accept("]"):
            return out
        cur.expect(",")


def _dim_value(cur: Cursor) -> int:
    first = cur.tok
    text, end = "", first.col
    while not cur.at_end() and (not text or cur.tok.col == end) and \
            cur.tok.kind in (IDENT, INT):
        t: Token = cur.next()
        text += t.text
        end = t.col + len(t.text)
    dim = _dim_index(text)
    if dim is None:
        raise AsmError("invalid dim value", first.col)
    return dim


def _dim_index(text: str) -> int | None:
    """The dimension `dim:TEXT` names, as llvm-mc-19 reads it: an optional
    ``SQ_RSRC_IMG_`` prefix (upper case), then the suffix in any case (its
    lookup table's keys are compared upper-cased)."""
    suffix = text.removeprefix(DIM_PREFIX).upper()
    return DIMS.index(suffix) if suffix in DIMS else None


def _check_mod(mods: dict[str, tuple[int, object]], info: OpInfo, name: str, col: int,
               has_val: bool, last: int) -> tuple[str, str, int]:
    """(base, slot, order index) of modifier `name`; raises llvm-mc's error if
    it is not accepted here or out of llvm-mc's order (`last`: previous index)."""
    base = name[2:] if name.startswith("no") and name[2:] in CPOL else name
    slot = "cpol" if base in CPOL else base
    if slot not in ORDER or (slot != "cpol" and slot not in ("dmask", "dim")
                             and slot not in info.modifiers) or \
            has_val != (slot in ("dmask", "dim")) or \
            (slot in ("dmask", "dim") and slot not in info.modifiers):
        raise AsmError("not a valid operand." if has_val else
                       "invalid operand for instruction", col)
    if slot == "cpol" and base not in info.modifiers:
        raise AsmError("invalid operand for instruction", col)
    idx = ORDER.index(slot)
    if idx < last or (idx == last and slot != "cpol"):
        raise AsmError("not a valid operand." if has_val else
                       "invalid operand for instruction", col)
    if slot == "cpol" and base in mods:
        raise AsmError("duplicate cache policy modifier", col)
    return base, slot, idx


def _parse_mods(cur: Cursor, info: OpInfo) -> dict[str, tuple[int, object]]:
    """Trailing modifiers in llvm-mc's order: name -> (column, value)."""
    mods: dict[str, tuple[int, object]] = {}
    last = -1
    comma_after_cpol = False
    while not cur.at_end():
        t = cur.tok
        if t.kind != IDENT:
            raise AsmError("invalid operand for instruction", t.col)
        name = t.text  # (lower case only, as llvm-mc-19)
        cur.next()
        has_val = cur.tok.is_punct(":")
        if comma_after_cpol and not has_val and name.removeprefix("no") in CPOL:
            # llvm-mc reads glc/slc/dlc as one operand: a comma ends the group
            raise AsmError("invalid operand for instruction", t.col)
        base, slot, last = _check_mod(mods, info, name, t.col, has_val, last)
        if has_val:
            cur.next()
            value: object = _dim_value(cur) if slot == "dim" else cur.int_expr()
        else:
            value = base == name  # False for noglc
        mods[base] = (t.col, value)
        comma_after_cpol = cur.accept(",") and slot == "cpol"  # commas between modifiers
    return mods


def _at_modifier(cur: Cursor) -> bool:
    """Does a MIMG modifier (``name:value`` or a flag word of `ORDER`) start here?"""
    t = cur.tok
    if t.kind != IDENT:
        return False
    name = t.text
    if cur.peek().is_punct(":"):
        return parse_reg_name(t.text) is None
    base = name[2:] if name.startswith("no") else name
    return base in ORDER or base in CPOL


def _fast_parse(inst: ParsedInst, info: OpInfo) -> tuple[
        Operand, list[tuple[Reg, int]], list[Operand], int, dict[str, tuple[int, object]]] | None:
    """What the token parse in `MimgFormat.encode` reads, from the operands and
    modifiers of a `syntax.fast_statement` line (single-range address, ``dim``
    given by name, ``dmask`` by number); None to read the tokens instead."""
    if not inst._line:
        return None
    fops = inst.operands
    fmods = inst.modifiers
    if len(fops) < 2 or fops[1].kind != "reg":  # (an NSA list: read from the tokens)
        return None
    for x in fmods:
        if (x.name == "dim" and not isinstance(x.value, str)) or (
                x.name == "dmask" and not isinstance(x.value, int)):
            return None
    addr = [(_vgpr(fops[1]), fops[1].col)]
    mods: dict[str, tuple[int, object]] = {}
    last = -1
    for x in fmods:
        has_val = x.value is not None
        base, slot, last = _check_mod(mods, info, x.name, x.col, has_val, last)
        if not has_val:
            value: object = base == x.name
        elif slot == "dim":
            value = _dim_index(str(x.value))
            if value is None:
                raise AsmError("invalid dim value", x.col + len(x.name) + 1)
        else:
            value = x.value
        mods[base] = (x.col, value)
    after_col = fmods[0].col if fmods else len(inst._line) + 1
    return fops[0], addr, list(fops[2:]), after_col, mods


register(MimgFormat(), (0xFC000000, MIMG_ENC << 26))
