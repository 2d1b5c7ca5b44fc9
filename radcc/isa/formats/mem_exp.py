"""EXP (export) encoding, ISA guide section 15.10.1.

EN [3:0] (which of VSRC0-3 are exported), TARGET [9:4], DONE [11], ROW [13]
(``row_en``), ENCODING [31:26]=0b111110; VSRC0-3 in the second dword.
Syntax: ``exp <target> vsrc0, vsrc1, vsrc2, vsrc3 [done] [row_en]`` with
``off`` for disabled sources; targets mrt0-7, mrtz, pos0-4, prim,
dual_src_blend0/1 (GFX11 has no ``compr`` or ``vm``).

GFX10/10.3 (RDNA1/RDNA2 EXP microcode format): COMPR [10], DONE [11], VM
[12], no ROW; targets mrt0-7, mrtz, null (9), pos0-4, prim, param0-31
(32-63). With ``compr`` the first and third operands are the two packed
sources (VSRC0, VSRC1) and each enables two EN bits; the disassembly prints
VSRC(i/2) for every set EN bit i; ``novm`` stands in vm's place (vm off), as
llvm-mc-19 takes it. `ExpLayout` holds the differences.
"""

from __future__ import annotations

from dataclasses import dataclass

from radcc.isa.errors import AsmError
from radcc.isa.formats.base import Context, Decoded, Encoded, Format, register, u32
from radcc.isa.formats.mem_common import MemInst, bad_mod, parse_mem, vgpr, vtext
from radcc.isa.lexer import IDENT
from radcc.isa.syntax import Cursor, ParsedInst
from radcc.isa.table import OpInfo
from radcc.target import GfxLevel

ENC = 0b111110


@dataclass(frozen=True)
class ExpLayout:
    targets: dict[str, int]
    flags: dict[str, int]  # modifier -> dword-0 bit, in llvm-mc's print order
    negatable: tuple[str, ...] = ()  # flags llvm-mc also takes as ``no<flag>`` (bit clear)

    @property
    def target_names(self) -> dict[int, str]:
        return {v: k for k, v in self.targets.items()}


def _targets(gfx10: bool) -> dict[str, int]:
    t = {f"mrt{i}": i for i in range(8)}
    t["mrtz"] = 8
    if gfx10:
        t["null"] = 9
    t.update({f"pos{i}": 12 + i for i in range(5)})
    t["prim"] = 20
    if gfx10:
        t.update({f"param{i}": 32 + i for i in range(32)})
    else:
        t["dual_src_blend0"] = 21
        t["dual_src_blend1"] = 22
    return t


TARGETS = _targets(False)
TARGET_NAMES = {v: k for k, v in TARGETS.items()}
_GFX11 = ExpLayout(TARGETS, {"done": 11, "row_en": 13})
# llvm-mc-19 takes ``novm`` in vm's place on GFX10; it rejects ``nodone`` (and
# crashes on ``nocompr``, which is therefore left rejected)
_GFX10 = ExpLayout(_targets(True), {"done": 11, "compr": 10, "vm": 12}, ("vm",))
LAYOUTS = {GfxLevel.GFX10: _GFX10, GfxLevel.GFX10_3: _GFX10, GfxLevel.GFX11: _GFX11}


def exp_target_name(target: int, gfx: GfxLevel) -> str:
    """The assembly name of export target number `target` on `gfx` (``pos0``, ``prim``)."""
    name = LAYOUTS[gfx].target_names.get(target)
    if name is None:
        raise AsmError(f"export target {target} does not exist on {gfx.name}")
    return name


class ExpFormat(Format):
    name = "EXP"
    size = 8

    def encode(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        lay = LAYOUTS[ctx.target.gfx_level]
        cur = Cursor(inst.tokens)
        t = cur.tok
        if t.kind != IDENT or t.text not in lay.targets:  # (lower case, as llvm-mc-19)
            raise AsmError("invalid exp target", t.col)
        target = lay.targets[t.text]
        rest = ParsedInst(inst.mnemonic, inst.col, tokens=inst.tokens[1:])
        mi: MemInst = parse_mem(rest)
        if len(mi.operands) < 4:
            raise AsmError("too few operands for instruction", inst.col)
        if len(mi.operands) > 4:
            raise AsmError("invalid operand for instruction", mi.operands[4].col)
        neg = {"no" + k: k for k in lay.negatable}
        bad_mod(mi, set(lay.flags) | set(neg))
        order = list(lay.flags)
        last = -1
        on: set[str] = set()
        for m in mi.mods.values():  # llvm-mc: the modifiers in print order, each once
            slot = neg.get(m.name, m.name)
            if order.index(slot) <= last:
                raise AsmError("invalid operand for instruction", m.col)
            last = order.index(slot)
            if slot == m.name:
                on.add(slot)
        compr = "compr" in on
        en = 0
        w1 = 0
        for i, op in enumerate(mi.operands):
            if op.kind == "ident" and op.text == "off":
                continue
            r = vgpr(op, 1)
            if not compr:
                w1 |= r << (8 * i)
                en |= 1 << i
            elif i % 2 == 0:  # packed: operands 0 and 2 are VSRC0 and VSRC1
                w1 |= r << (4 * i)
                en |= 3 << i
        w0 = (ENC << 26) | en | (target << 4)
        for k, b in lay.flags.items():
            if k in on:
                w0 |= 1 << b
        return Encoded(w0.to_bytes(4, "little") + w1.to_bytes(4, "little"))

    def decode(self, data: bytes, pos: int, ctx: Context) -> Decoded | None:
        w0 = u32(data, pos)
        w1 = u32(data, pos + 4)
        if w0 is None or w1 is None:
            return None
        lay = LAYOUTS[ctx.target.gfx_level]
        info = ctx.table.decode("EXP", 0)
        tgt = ((w0 >> 4) & 0x3f)
        name = lay.target_names.get(tgt, f"invalid_target_{tgt}")
        en = w0 & 0xF
        compr = "compr" in lay.flags and (w0 >> 10) & 1
        srcs = [vtext((w1 >> (8 * (i // 2 if compr else i))) & 0xFF, 1) if en >> i & 1
                else "off" for i in range(4)]
        text = f"exp {name} " + ", ".join(srcs)
        for k, b in lay.flags.items():
            if w0 >> b & 1:
                text += " " + k
        fields = {"target": tgt, "en": en, "done": ((w0 >> 11) & 1),
                  **{f"vsrc{i}": (w1 >> (8 * i)) & 0xFF for i in range(4)}}
        for k, b in lay.flags.items():
            fields["row" if k == "row_en" else k] = (w0 >> b) & 1
        return Decoded(8, text, info, fields)


register(ExpFormat(), (0xFC000000, ENC << 26))
