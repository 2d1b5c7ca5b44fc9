"""Shared helpers of the GFX10/GFX11 memory encodings (ISA guide chapter 15.6-15.10).

Operand parsing straight from `ParsedInst.tokens` (memory syntax has ``off``,
symbolic ``offset:swizzle(...)`` and ``format:[...]`` values the generic
parser does not cover), VGPR/SGPR checks with llvm-mc's messages, and the
``name:value`` modifier reader. `gen_dir`/`is_gfx10` name the generation of
a `Context` (GFX10.1 and GFX10.3 share the RDNA1/RDNA2 field layouts).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from radcc.isa.errors import AsmError
from radcc.isa.formats.base import Context
from radcc.isa.lexer import IDENT, STRING, Token
from radcc.isa.operands import Operand, Reg, check_reg, parse_reg_name, vgpr_name
from radcc.isa.syntax import Cursor, ParsedInst, parse_operand, starts_operand
from radcc.target import GfxLevel

DATA_DIR = Path(__file__).resolve().parents[1] / "data"
DATA = DATA_DIR / "gfx11/memory.json"
_GEN_DIRS = {GfxLevel.GFX10: "gfx10", GfxLevel.GFX10_3: "gfx10_3", GfxLevel.GFX11: "gfx11"}


def gen_dir(gfx: GfxLevel) -> str:
    """The table directory of a generation (``gfx10``, ``gfx10_3``, ``gfx11``)."""
    try:
        return _GEN_DIRS[gfx]
    except KeyError:
        raise ValueError(f"no memory encodings for {gfx.name}") from None


def is_gfx10(ctx: Context) -> bool:
    """GFX10.1/GFX10.3 (RDNA1/RDNA2 field layouts) rather than GFX11."""
    return ctx.target.gfx_level < GfxLevel.GFX11


@cache
def buf_formats(gfx: GfxLevel) -> dict[str, int]:
    """MTBUF symbolic formats (BUF_FMT_* name -> 7-bit value) from the table."""
    import json  # loaded with the first MTBUF format, not by every compile

    path = DATA_DIR / gen_dir(gfx) / "memory.json"
    d = json.loads(path.read_text()).get("buf_formats", {})
    d.setdefault("BUF_FMT_8_UNORM", 1)
    return d


@cache
def buf_format_names(gfx: GfxLevel) -> dict[int, str]:
    return {v: k for k, v in buf_formats(gfx).items()}


@dataclass
class Mod:
    name: str
    col: int
    value: object = None  # int, str, list, or ('swizzle', args)
    end_col: int = 0
    item_cols: tuple[int, ...] = ()  # a [list]'s items' columns


@dataclass
class MemInst:
    """Operands and modifiers of a memory instruction, parsed from tokens."""

    operands: list[Operand] = field(default_factory=list)
    mods: dict[str, Mod] = field(default_factory=dict)
    eol_col: int = 0
    split_col: int = 0  # a cache-policy word after "glc," (llvm-mc's matcher rejects it)

    def flag(self, name: str) -> bool:
        return name in self.mods


def _parse_mod(cur: Cursor) -> Mod:
    t = cur.tok
    if t.kind != IDENT:
        raise AsmError("invalid operand for instruction", t.col)
    cur.next()
    name = t.text  # (names are lower case, as llvm-mc-19 reads them)
    if not cur.accept(":"):
        return Mod(name, t.col)
    if cur.tok.is_ident("swizzle") and cur.peek().is_punct("("):
        cur.next()
        cur.next()
        args: list[Token | int] = []
        while not cur.accept(")"):
            a = cur.tok
            if a.kind in (IDENT, STRING):
                args.append(cur.next())
            else:
                args.append(cur.int_expr())
            if not cur.tok.is_punct(")"):
                cur.expect(",")
        return Mod(name, t.col, ("swizzle", args))
    if cur.tok.is_punct("["):
        cur.next()
        vals: list[object] = []
        cols: list[int] = []
        while not cur.accept("]"):
            cols.append(cur.tok.col)
            if cur.tok.kind == IDENT:
                vals.append(cur.next().text)
            else:
                vals.append(cur.int_expr())
            if not cur.tok.is_punct("]"):
                cur.expect(",")
        return Mod(name, t.col, vals, item_cols=tuple(cols))
    return Mod(name, t.col, cur.int_expr())


def _from_fast(inst: ParsedInst) -> MemInst | None:
    """The MemInst of a line `syntax.fast_statement` parsed, when the token
    parse below would read the same operands and modifiers: no flag name
    among the operands, integer (or no) modifier values, no repeated
    modifier, ``format`` only first. None otherwise (then tokens are read)."""
    if not inst._line:
        return None
    ops = inst.operands
    for op in ops:
        if op.kind == "ident" and op.text in _FLAG_MODS:
            return None
    mods: dict[str, Mod] = {}
    for m in inst.modifiers:
        if isinstance(m.value, str) or m.name in mods or (m.name == "format" and mods) or \
                m.name == "off":  # (an operand after one without a comma: the tokens)
            return None
        mods[m.name] = Mod(m.name, m.col, m.value)
    return MemInst(list(ops), mods, len(inst._line) + 1)


def parse_mem(inst: ParsedInst, enc: str = "") -> MemInst:
    """Parse comma operands then space separated modifiers from the tokens; for an
    encoding `enc` (MUBUF, MTBUF, FLAT, GLOBAL, SCRATCH, DS) the modifiers must
    come in llvm-mc's order (see `check_order`)."""
    fast = _from_fast(inst)
    if fast is not None:
        check_order(fast, enc)
        return fast
    out = _parse_tokens(inst)
    check_order(out, enc)
    return out


_CPOL_MODS = frozenset(("glc", "slc", "dlc"))
# llvm-mc-19's operand order of the memory encodings (its matcher takes the optional
# operands in the asm string's order; a comma between them is optional): address
# mode flags, offsets, the cache-policy group, then the other flags
_RANK = {"offen": 0, "idxen": 0, "addr64": 0, "offset": 1, "offset0": 1, "offset1": 1,
         "glc": 2, "slc": 2, "dlc": 2}
_VALUE_ORDER_ENCS = frozenset(("FLAT", "GLOBAL", "SCRATCH", "DS"))


def check_order(mi: MemInst, enc: str) -> None:
    """llvm-mc's errors for modifiers out of its order: offen/idxen only first (an
    error at the first modifier), an offset after the cache policy or a flag,
    the cache policy after tfe/lds/gds, a comma inside the cache-policy group.
    Its parser rejects a valued modifier of FLAT/GLOBAL/SCRATCH/DS out of order
    ("not a valid operand.") before its matcher sees the rest ("invalid operand
    for instruction" at the earliest offending operand)."""
    matcher = [mi.split_col] if mi.split_col else []
    if enc and not (enc == "MTBUF" and "format" in mi.mods and len(mi.mods) == 1):
        mods = [m for m in mi.mods.values() if m.name != "format"]
        top = -1
        for m in mods:
            r = _RANK.get(m.name, 3)
            if r == 0 and top > 0 and enc in ("MUBUF", "MTBUF"):  # (idxen offen: both first)
                matcher.append(mods[0].col)
            if r < top:
                bad = m if r == 1 else next(x for x in mods if _RANK.get(x.name, 3) > r)
                if bad.value is not None and enc in _VALUE_ORDER_ENCS:
                    raise AsmError("not a valid operand.", bad.col)
                matcher.append(bad.col)
            top = max(top, r)
    if matcher:
        raise AsmError("invalid operand for instruction", min(matcher))


def _parse_tokens(inst: ParsedInst) -> MemInst:
    cur = Cursor(inst.tokens)
    out = MemInst()
    if not cur.at_end() and not (cur.tok.kind == IDENT and cur.peek().is_punct(":")) and not (
        cur.tok.kind == IDENT and cur.tok.text in _FLAG_MODS
    ):
        while True:
            if cur.tok.is_ident("format") and cur.peek().is_punct(":"):
                # MTBUF: a numeric format may precede soffset ("format:22[,] s3")
                save = cur.pos
                m = _parse_mod(cur)
                cur.accept(",")
                if cur.at_end() or _at_mod(cur):
                    cur.pos = save  # no soffset follows: an ordinary modifier
                    break
                if len(out.operands) != 3:
                    raise AsmError("not a valid operand.", m.col)
                if not isinstance(m.value, int):
                    raise AsmError("expected absolute expression", m.col + 7)
                out.mods[m.name] = m
                continue
            out.operands.append(parse_operand(cur))
            if not cur.accept(","):
                # llvm-mc-19 takes every comma as optional: a number, a register or `off`
                # (or MTBUF's format before soffset) continues the operands
                if starts_operand(cur) or cur.tok.is_ident("off") or (
                        cur.tok.is_ident("format") and cur.peek().is_punct(":")):
                    continue
                break
            # llvm-mc: the comma before the modifiers is optional, a trailing one too
            if cur.at_end() or (_at_mod(cur) and not cur.tok.is_ident("format")):
                break
    comma_after_cpol = False
    while not cur.at_end():
        m = _parse_mod(cur)
        if comma_after_cpol and m.name.removeprefix("no") in _CPOL_MODS and not out.split_col:
            out.split_col = m.col  # llvm-mc reads glc/slc/dlc as one operand: a comma ends it
        if m.name in out.mods:
            raise AsmError("not a valid operand.", m.col)
        if m.name == "format" and out.mods:  # llvm-mc: format comes before the others
            raise AsmError("not a valid operand.", m.col)
        out.mods[m.name] = m
        comma_after_cpol = False
        if cur.tok.is_punct(","):
            cur.next()  # and so are commas between modifiers
            comma_after_cpol = m.name.removeprefix("no") in _CPOL_MODS
    out.eol_col = cur.tok.col
    return out


def _at_mod(cur: Cursor, k: int = 0) -> bool:
    """Does a ``name:value`` or flag modifier start `k` tokens ahead?"""
    t = cur.peek(k)
    if t.kind != IDENT:
        return False
    if t.text in _FLAG_MODS:
        return True
    return cur.peek(k + 1).is_punct(":") and parse_reg_name(t.text) is None


_FLAG_MODS = {"gds", "glc", "slc", "dlc", "tfe", "offen", "idxen", "done", "row_en", "lds",
              "unorm", "r128", "a16", "d16", "lwe", "compr", "vm"}


def is_off(op: Operand) -> bool:
    return op.kind == "ident" and op.text == "off"


def no_modifiers(op: Operand) -> None:
    """A memory instruction's register operand takes no neg/abs/sext/lit modifier
    (llvm-mc-19: "not a valid operand.")."""
    if op.neg or op.abs or op.sext or op.lit:
        raise AsmError("not a valid operand.", op.col)


def vgpr(op: Operand, dwords: int) -> int:
    """Index of a VGPR operand of exactly `dwords` registers."""
    no_modifiers(op)
    if op.kind != "reg" or op.reg is None or op.reg.file != "v":
        raise AsmError("invalid operand for instruction", op.col)
    check_reg(op.reg, op.col)
    if op.reg.count != dwords:
        raise AsmError("invalid operand for instruction", op.col)
    return op.reg.index


def sgpr_tuple(op: Operand, dwords: int, *, field_shift: int = 0) -> int:
    """7-bit SGPR-field code of an SGPR/TTMP tuple of `dwords` registers."""
    no_modifiers(op)
    if op.kind != "reg" or op.reg is None or op.reg.file not in ("s", "ttmp", "special"):
        raise AsmError("invalid operand for instruction", op.col)
    r: Reg = op.reg
    if r.count != dwords:
        raise AsmError("invalid operand for instruction", op.col)
    check_reg(r, op.col)
    return r.src_code()


def int_mod(m: Mod) -> int:
    if not isinstance(m.value, int):
        raise AsmError("expected absolute expression", m.col)
    return m.value


def vtext(index: int, dwords: int) -> str:
    return vgpr_name(index, dwords)


def bad_mod(mi: MemInst, allowed: set[str]) -> None:
    for m in mi.mods.values():
        if m.name not in allowed:
            raise AsmError("invalid operand for instruction", m.col)


def expect_count(mi: MemInst, n: int, col: int) -> None:
    if len(mi.operands) < n:
        raise AsmError("too few operands for instruction", col)
    if len(mi.operands) > n:
        raise AsmError("invalid operand for instruction", mi.operands[n].col)
