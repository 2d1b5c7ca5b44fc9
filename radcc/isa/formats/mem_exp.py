"""EXP (export) encoding, ISA guide section 15.10.1.

EN [3:0] (which of VSRC0-3 are exported), TARGET [9:4], DONE [11], ROW [13]
(``row_en``), ENCODING [31:26]=0b111110; VSRC0-3 in the second dword.
Syntax: ``exp <target> vsrc0, vsrc1, vsrc2, vsrc3 [done] [row_en]`` with
``off`` for disabled sources; targets mrt0-7, mrtz, pos0-4, prim,
dual_src_blend0/1 (GFX11 has no ``compr`` or ``vm``).
"""

from __future__ import annotations

from radcc.isa.errors import AsmError
from radcc.isa.formats.base import Context, Decoded, Encoded, Format, register, u32
from radcc.isa.formats.mem_common import MemInst, bad_mod, parse_mem, vgpr, vtext
from radcc.isa.lexer import IDENT
from radcc.isa.syntax import Cursor, ParsedInst
from radcc.isa.table import OpInfo

ENC = 0b111110


def _targets() -> dict[str, int]:
    t = {f"mrt{i}": i for i in range(8)}
    t["mrtz"] = 8
    t.update({f"pos{i}": 12 + i for i in range(5)})
    t["prim"] = 20
    t["dual_src_blend0"] = 21
    t["dual_src_blend1"] = 22
    return t


TARGETS = _targets()
TARGET_NAMES = {v: k for k, v in TARGETS.items()}


class ExpFormat(Format):
    name = "EXP"
    size = 8

    def encode(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        cur = Cursor(inst.tokens)
        t = cur.tok
        if t.kind != IDENT or t.text.lower() not in TARGETS:
            raise AsmError("invalid exp target", t.col)
        target = TARGETS[t.text.lower()]
        rest = ParsedInst(inst.mnemonic, inst.col, tokens=inst.tokens[1:])
        mi: MemInst = parse_mem(rest)
        if len(mi.operands) < 4:
            raise AsmError("too few operands for instruction", inst.col)
        if len(mi.operands) > 4:
            raise AsmError("invalid operand for instruction", mi.operands[4].col)
        bad_mod(mi, {"done", "row_en"})
        en = 0
        w1 = 0
        for i, op in enumerate(mi.operands):
            if op.kind == "ident" and op.text.lower() == "off":
                continue
            w1 |= vgpr(op, 1) << (8 * i)
            en |= 1 << i
        w0 = (ENC << 26) | en | (target << 4)
        if mi.flag("done"):
            w0 |= 1 << 11
        if mi.flag("row_en"):
            w0 |= 1 << 13
        return Encoded(w0.to_bytes(4, "little") + w1.to_bytes(4, "little"))

    def decode(self, data: bytes, pos: int, ctx: Context) -> Decoded | None:
        w0 = u32(data, pos)
        w1 = u32(data, pos + 4)
        if w0 is None or w1 is None:
            return None
        info = ctx.table.decode("EXP", 0)
        tgt = ((w0 >> 4) & 0x3f)
        name = TARGET_NAMES.get(tgt, f"invalid_target_{tgt}")
        en = w0 & 0xF
        srcs = [vtext((w1 >> (8 * i)) & 0xFF, 1) if en >> i & 1 else "off" for i in range(4)]
        text = f"exp {name} " + ", ".join(srcs)
        if w0 >> 11 & 1:
            text += " done"
        if w0 >> 13 & 1:
            text += " row_en"
        fields = {"target": tgt, "en": en, "done": ((w0 >> 11) & 1), "row": ((w0 >> 13) & 1),
                  **{f"vsrc{i}": (w1 >> (8 * i)) & 0xFF for i in range(4)}}
        return Decoded(8, text, info, fields)


register(ExpFormat(), (0xFC000000, ENC << 26))
