"""Symbolic 16-bit immediates of the scalar formats (ISA guide 15.1.2 SOPK,
15.1.5 SOPP, and chapter 16 descriptions of S_WAITCNT, S_WAITCNT_DEPCTR,
S_DELAY_ALU, S_SENDMSG, S_GETREG/S_SETREG, S_VERSION).

Each field has `parse_*` (from tokens, llvm-mc's syntax) and `*_text` (the
canonical llvm-mc printing). Name tables come from the ``symbols`` block of
``radcc/isa/data/<gen>/scalar.json`` (probed from llvm-mc); the bit layouts
are the ISA guides' (RDNA1/RDNA2 for GFX10/10.3, RDNA3 for GFX11).

Generations: every `parse_*`/`*_text` takes the generation ``gfx`` (no
default: the caller's target decides). What differs:
  - s_waitcnt (`waitcnt_layout(gfx)`, a `WaitcntLayout`): GFX11 expcnt [2:0],
    lgkmcnt [9:4], vmcnt [15:10]; GFX10/10.3 vmcnt [3:0]+[15:14] (6 bits),
    expcnt [6:4], lgkmcnt [13:8], bit 7 unused (all-max value 0xFF7F).
    This table (`WAITCNT_LAYOUTS`) is the one place the layouts live: the
    assembler, insert_waitcnt (``encode``/``decode``) and the emulator read it.
  - s_waitcnt_depctr (`depctr_fields(gfx)`): GFX10.1 has no depctr_hold_cnt
    (bit 7); GFX10.3 and GFX11 share `DEPCTR`.
  - s_sendmsg: GFX11 id [7:0]; GFX10 id [3:0], operation [6:4], stream
    [9:8] (MSG_GS/MSG_GS_DONE take GS_OP_* and a stream, MSG_SYSMSG a
    SYSMSG_OP_*).
  - hwreg/sendmsg/s_version names: the generation's probed ``symbols``.
  - s_delay_alu exists on GFX11 only (the GFX10 tables have no such opcode).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from radcc.isa.errors import AsmError
from radcc.isa.lexer import EOL, IDENT, INT, Token
from radcc.isa.syntax import Cursor
from radcc.isa.table import _GEN_DIRS, DATA_DIR
from radcc.target import GfxLevel

GFX11 = GfxLevel.GFX11


@cache
def symbols(gfx: GfxLevel) -> dict[str, dict[str, int]]:
    """The probed name tables (hwreg, sendmsg, version, ...) of a generation."""
    import json  # loaded with the first symbolic operand, not by every compile

    blob = json.loads((DATA_DIR / _GEN_DIRS[gfx] / "scalar.json").read_text())
    return blob["symbols"]


@cache
def _by_value(kind: str, gfx: GfxLevel) -> dict[int, str]:
    return {v: k for k, v in symbols(gfx)[kind].items()}


def arg_cursor(arg: list[object]) -> Cursor:
    toks = [t for t in arg if isinstance(t, Token)]
    col = toks[-1].col + len(toks[-1].text) if toks else 0
    return Cursor([*toks, Token(EOL, "", col)])


def _int_arg(arg: list[object], col: int) -> tuple[int, int]:
    if not arg:
        raise AsmError("expected an absolute expression", col)
    cur = arg_cursor(arg)
    c = cur.tok.col
    v = cur.int_expr()
    if not cur.at_end():
        raise AsmError("expected ')'", cur.tok.col)
    return v, c


# --- hwreg: id [5:0], offset [10:6], size-1 [15:11] -----------------------------


def hwreg_text(v: int, gfx: GfxLevel) -> str:
    hid, off, size = v & 0x3F, (v >> 6) & 0x1F, ((v >> 11) & 0x1F) + 1
    name = _by_value("hwreg", gfx).get(hid, str(hid))
    if off == 0 and size == 32:
        return f"hwreg({name})"
    return f"hwreg({name}, {off}, {size})"


def parse_hwreg(op_text: str, args: list[list[object]], col: int,
                gfx: GfxLevel) -> int:
    if op_text != "hwreg":  # (lower case only, as llvm-mc-19; its words)
        raise AsmError("expected a hwreg macro, structured immediate or an absolute "
                       "expression", col)
    if not args or len(args) not in (1, 3):
        raise AsmError("invalid operand for instruction", col)
    first = [t for t in args[0] if isinstance(t, Token)]
    if len(first) == 1 and first[0].kind == IDENT and first[0].text.startswith("HW_REG_"):
        hid = symbols(gfx)["hwreg"].get(first[0].text)
        if hid is None:
            raise AsmError("invalid hardware register: not supported on this GPU", first[0].col)
    else:
        c0 = first[0].col if first else col
        try:
            hid, c0 = _int_arg(args[0], c0)
        except AsmError:
            raise AsmError("expected a register name or an absolute expression", c0) from None
        if not 0 <= hid <= 63:
            raise AsmError("invalid hardware register: only 6-bit values are legal", c0)
    off, size = 0, 32
    if len(args) == 3:
        off, c1 = _int_arg(args[1], col)
        if not 0 <= off <= 31:
            raise AsmError("invalid bit offset: only 5-bit values are legal", c1)
        size, c2 = _int_arg(args[2], col)
        if not 1 <= size <= 32:
            raise AsmError("invalid bitfield width: only values from 1 to 32 are legal", c2)
    return hid | off << 6 | (size - 1) << 11


# --- sendmsg: gfx11 id [7:0]; gfx10 id [3:0], op [6:4], stream [9:8] ----------------


def sendmsg_text(v: int, gfx: GfxLevel, rtn: bool = False) -> str:
    if gfx < GFX11:
        return _sendmsg_text_gfx10(v, gfx)
    mid = v & 0xFF
    name = _by_value("sendmsg", gfx).get(mid)
    if name is not None and name != "MSG_SYSMSG":
        return f"sendmsg({name})"
    if mid == v:
        return f"sendmsg({mid}, 0, 0)"
    return str(v)


def _gfx10_op_valid(name: str | None, op: int, stream: int, gfx: GfxLevel) -> bool:
    """Whether llvm-mc names this (message, operation, stream) (GFX10 rules)."""
    if name in ("MSG_GS", "MSG_GS_DONE"):
        gs = symbols(gfx).get("gs_op", {})
        if op not in gs.values() or (name == "MSG_GS" and op == gs.get("GS_OP_NOP")):
            return False
        return stream == 0 or op != gs.get("GS_OP_NOP")
    if name == "MSG_SYSMSG":
        return op in symbols(gfx).get("sysmsg_op", {}).values() and stream == 0
    return op == 0 and stream == 0


def _sendmsg_text_gfx10(v: int, gfx: GfxLevel) -> str:
    mid, op, stream = v & 0xF, (v >> 4) & 7, (v >> 8) & 3
    name = _by_value("sendmsg", gfx).get(mid)
    if name is not None and _gfx10_op_valid(name, op, stream, gfx):
        if name in ("MSG_GS", "MSG_GS_DONE"):
            opn = _by_value("gs_op", gfx)[op]
            return f"sendmsg({name}, {opn})" if op == 0 else f"sendmsg({name}, {opn}, {stream})"
        if name == "MSG_SYSMSG":
            return f"sendmsg({name}, {_by_value('sysmsg_op', gfx)[op]})"
        return f"sendmsg({name})"
    if mid | op << 4 | stream << 8 == v:
        return f"sendmsg({mid}, {op}, {stream})"
    return str(v)


def parse_sendmsg(op_text: str, args: list[list[object]], col: int,
                  gfx: GfxLevel) -> int:
    if op_text != "sendmsg":  # (lower case only, as llvm-mc-19; its words)
        raise AsmError("expected a sendmsg macro or an absolute expression", col)
    if not args or len(args) > 3:
        raise AsmError("invalid operand for instruction", col)
    syms = symbols(gfx)
    gfx10 = gfx < GFX11
    first = [t for t in args[0] if isinstance(t, Token)]
    c0 = first[0].col if first else col
    name = None
    if len(first) == 1 and first[0].kind == IDENT and first[0].text.startswith("MSG_"):
        mid = syms["sendmsg"].get(first[0].text)
        if mid is None:
            raise AsmError("specified message id is not supported on this GPU", c0)
        sym = True
        name = first[0].text
    else:
        try:
            mid, c0 = _int_arg(args[0], c0)
        except AsmError:  # (a name in lower case too: llvm-mc-19's names are upper case)
            raise AsmError("expected a message name or an absolute expression", c0) from None
        if not 0 <= mid <= (0xF if gfx10 else 255):
            raise AsmError("invalid message id", c0)
        sym = False
    with_ops = gfx10 and name in ("MSG_GS", "MSG_GS_DONE")
    op = stream = 0
    if len(args) >= 2:
        ot = [t for t in args[1] if isinstance(t, Token)]
        c1 = ot[0].col if ot else col
        if len(ot) == 1 and ot[0].kind == IDENT:
            table = syms.get("gs_op", {}) if with_ops else syms.get("sysmsg_op", {})
            o = table.get(ot[0].text)
            if o is None or not (with_ops or mid == syms["sendmsg"].get("MSG_SYSMSG")):
                raise AsmError("invalid operation id", c1)
            op = o
        else:
            op, c1 = _int_arg(args[1], c1)
            if sym and not with_ops and mid != syms["sendmsg"].get("MSG_SYSMSG"):
                raise AsmError("message does not support operations", c1)
            if not 0 <= op <= 7:
                raise AsmError("invalid operation id", c1)
            if with_ops and op not in syms.get("gs_op", {}).values():
                raise AsmError("invalid operation id", c1)
        if with_ops and name == "MSG_GS" and op == syms.get("gs_op", {}).get("GS_OP_NOP"):
            raise AsmError("invalid operation id", c1)
    elif sym and (mid == syms["sendmsg"].get("MSG_SYSMSG") or with_ops):
        raise AsmError("missing message operation", col)
    if len(args) == 3:
        stream, c2 = _int_arg(args[2], col)
        if sym and not (with_ops and op != syms.get("gs_op", {}).get("GS_OP_NOP")):
            raise AsmError("message operation does not support streams", c2)
        if not 0 <= stream <= 3:
            raise AsmError("invalid message stream id", c2)
    return mid | op << 4 | stream << 8


# --- s_waitcnt: expcnt [2:0], lgkmcnt [9:4], vmcnt [15:10] (GFX11) -----------------

WAITCNT = {"vmcnt": (10, 0x3F), "expcnt": (0, 0x7), "lgkmcnt": (4, 0x3F)}
WAITCNT_DEFAULT = 0xFFF7


@dataclass(frozen=True)
class WaitcntLayout:
    """Where each s_waitcnt counter lives: name -> ((shift, width), ...) pieces,
    low bits first, in llvm-mc's printing order; `default` waits for nothing."""

    pieces: dict[str, tuple[tuple[int, int], ...]]
    default: int

    def max(self, name: str) -> int:
        return (1 << sum(w for _s, w in self.pieces[name])) - 1

    def get(self, v: int, name: str) -> int:
        n = pos = 0
        for sh, w in self.pieces[name]:
            n |= ((v >> sh) & ((1 << w) - 1)) << pos
            pos += w
        return n

    def put(self, v: int, name: str, n: int) -> int:
        """`v` with counter `name` set to `n` (0 <= n <= max(name))."""
        for sh, w in self.pieces[name]:
            m = (1 << w) - 1
            v = (v & ~(m << sh)) | (n & m) << sh
            n >>= w
        return v

    def encode(self, counts: dict[str, int]) -> int:
        """The SIMM16 waiting for `counts` (counter name -> count, clamped to the
        field's maximum); counters not named wait for nothing."""
        v = self.default
        for name, n in counts.items():
            v = self.put(v, name, min(n, self.max(name)))
        return v

    def decode(self, v: int) -> dict[str, int]:
        """The counters `v` waits for (those below their maximum), by name."""
        out: dict[str, int] = {}
        for name in self.pieces:
            n = self.get(v, name)
            if n != self.max(name):
                out[name] = n
        return out


WAITCNT_LAYOUTS = {
    GFX11: WaitcntLayout({n: ((sh, mask.bit_length()),) for n, (sh, mask) in WAITCNT.items()},
                         WAITCNT_DEFAULT),
    GfxLevel.GFX10: WaitcntLayout({"vmcnt": ((0, 4), (14, 2)), "expcnt": ((4, 3),),
                                   "lgkmcnt": ((8, 6),)}, 0xFF7F),
}
WAITCNT_LAYOUTS[GfxLevel.GFX10_3] = WAITCNT_LAYOUTS[GfxLevel.GFX10]


def waitcnt_layout(gfx: GfxLevel) -> WaitcntLayout:
    """The s_waitcnt counter layout of a generation (GFX10, GFX10_3, GFX11)."""
    return WAITCNT_LAYOUTS[gfx]


def waitcnt_text(v: int, gfx: GfxLevel) -> str:
    lay = WAITCNT_LAYOUTS[gfx]
    parts = [f"{n}({c})" for n, c in lay.decode(v).items()]
    return " ".join(parts or [f"{n}({lay.max(n)})" for n in lay.pieces])


def parse_waitcnt(cur: Cursor, gfx: GfxLevel) -> int:
    if cur.tok.kind != IDENT or not cur.peek().is_punct("("):
        return _parse_imm16(cur)
    lay = WAITCNT_LAYOUTS[gfx]
    v = lay.default
    while True:
        t = cur.expect_ident()
        name = t.text  # (lower case only, as llvm-mc-19)
        sat = name.endswith("_sat")
        base = name[:-4] if sat else name
        if base not in lay.pieces:
            raise AsmError("invalid counter name " + t.text, t.col)
        cur.expect("(")
        c = cur.tok.col
        n = cur.int_expr()
        cur.expect(")")
        mask = lay.max(base)
        if sat:
            n = min(max(n, 0), mask)
        if not 0 <= n <= mask:
            raise AsmError(f"too large value for {base}", c)
        v = lay.put(v, base, n)
        if cur.at_end():
            return v
        if cur.accept("&") or cur.accept(","):
            pass
        if cur.at_end():
            raise AsmError("expected a counter name", cur.tok.col)


def _parse_imm16(cur: Cursor) -> int:
    """A numeric s_waitcnt/s_delay_alu/s_waitcnt_depctr value (llvm-mc truncates)."""
    c = cur.tok.col
    v = cur.int_expr()
    if not cur.at_end():
        raise AsmError("invalid operand for instruction", cur.tok.col)
    if not -(1 << 31) <= v < (1 << 32):
        raise AsmError("invalid immediate: only 16-bit values are legal", c)
    return v & 0xFFFF


# --- s_waitcnt_depctr (ISA 16.5) ----------------------------------------------------

DEPCTR = {  # name -> (shift, mask), in llvm-mc's printing order
    "depctr_hold_cnt": (7, 1),
    "depctr_sa_sdst": (0, 1),
    "depctr_va_vdst": (12, 0xF),
    "depctr_va_sdst": (9, 7),
    "depctr_va_ssrc": (8, 1),
    "depctr_va_vcc": (1, 1),
    "depctr_vm_vsrc": (2, 7),
}
DEPCTR_USED = sum(m << s for s, m in DEPCTR.values())
# GFX10.1 has no depctr_hold_cnt (llvm-mc -mcpu=gfx1010 prints bit 7 numerically)
_DEPCTR_GFX10_1 = {n: f for n, f in DEPCTR.items() if n != "depctr_hold_cnt"}


def depctr_fields(gfx: GfxLevel) -> dict[str, tuple[int, int]]:
    """The s_waitcnt_depctr fields (name -> (shift, mask)) of a generation."""
    return _DEPCTR_GFX10_1 if gfx == GfxLevel.GFX10 else DEPCTR


def depctr_text(v: int, gfx: GfxLevel) -> str:
    fields = depctr_fields(gfx)
    used = DEPCTR_USED if fields is DEPCTR else sum(m << s for s, m in fields.values())
    if v & ~used & 0xFFFF:
        return f"0x{v:x}"
    parts = [f"{n}({(v >> s) & m})" for n, (s, m) in fields.items() if (v >> s) & m != m]
    if not parts:
        parts = [f"{n}({m})" for n, (_s, m) in fields.items()]
    return " ".join(parts)


def parse_depctr(cur: Cursor, gfx: GfxLevel) -> int:
    if cur.tok.kind != IDENT or not cur.peek().is_punct("("):
        return _parse_imm16(cur)
    fields = depctr_fields(gfx)
    v = DEPCTR_USED if fields is DEPCTR else sum(m << s for s, m in fields.values())
    seen: set[str] = set()
    while True:
        t = cur.expect_ident()
        name = t.text  # (lower case only, as llvm-mc-19)
        if name not in fields:
            raise AsmError("invalid counter name " + t.text, t.col)
        if name in seen:
            raise AsmError("duplicate counter name " + t.text, t.col)
        seen.add(name)
        cur.expect("(")
        c = cur.tok.col
        n = cur.int_expr()
        cur.expect(")")
        sh, mask = fields[name]
        if not 0 <= n <= mask:
            raise AsmError("invalid value for " + t.text, c)
        v = (v & ~(mask << sh)) | n << sh
        if cur.at_end():
            return v
        if cur.accept("&") or cur.accept(","):
            pass
        if cur.at_end():
            raise AsmError("expected a counter name", cur.tok.col)


# --- s_delay_alu: instid0 [3:0], instskip [6:4], instid1 [10:7] -------------------

INSTID = ["NO_DEP", "VALU_DEP_1", "VALU_DEP_2", "VALU_DEP_3", "VALU_DEP_4", "TRANS32_DEP_1",
          "TRANS32_DEP_2", "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1", "SALU_CYCLE_1",
          "SALU_CYCLE_2", "SALU_CYCLE_3"]
INSTSKIP = ["SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"]
DELAY = {"instid0": (0, 0xF, INSTID), "instskip": (4, 7, INSTSKIP), "instid1": (7, 0xF, INSTID)}


def delay_text(v: int) -> str:
    parts = []
    for name, (sh, mask, names) in DELAY.items():
        c = (v >> sh) & mask
        if c:
            what = "instskip" if name == "instskip" else "instid"
            val = names[c] if c < len(names) else f"/* invalid {what} value */"
            parts.append(f"{name}({val})")
    return " | ".join(parts) if parts else "0"


def parse_delay(cur: Cursor) -> int:
    if cur.tok.kind != IDENT or not cur.peek().is_punct("("):
        return _parse_imm16(cur)
    v = 0
    while True:
        t = cur.expect_ident()
        name = t.text  # (lower case only, as llvm-mc-19)
        if name not in DELAY:
            raise AsmError("invalid field name " + t.text, t.col)
        sh, _mask, names = DELAY[name]
        cur.expect("(")
        vt = cur.expect_ident()
        if vt.text not in names:
            raise AsmError("invalid value name " + vt.text, vt.col)
        cur.expect(")")
        v |= names.index(vt.text) << sh
        if cur.at_end():
            return v
        if not cur.accept("|"):
            raise AsmError("expected a left parenthesis", cur.tok.col)


# --- s_version -------------------------------------------------------------------


def version_text(v: int, gfx: GfxLevel) -> str:
    flags = symbols(gfx).get("version_flags", {})
    fmask = sum(flags.values())
    if v & ~(0xFF | fmask):
        return f"0x{v:x}"
    base = v & 0xFF
    s = _by_value("version", gfx).get(base, str(base))
    for name, bit in flags.items():
        if v & bit:
            s = (f"({s})" if "|" in s else s) + "|" + name
    return s


def parse_version(cur: Cursor, gfx: GfxLevel) -> int:
    """An expression over integers and UC_VERSION_* names."""
    syms = dict(symbols(gfx)["version"])
    syms.update(symbols(gfx).get("version_flags", {}))
    c = cur.tok.col
    v = cur.int_expr(syms)
    if not cur.at_end():
        raise AsmError("invalid operand for instruction", cur.tok.col)
    if not -(1 << 15) <= v < (1 << 16):
        raise AsmError("invalid operand for instruction", c)
    return v & 0xFFFF


_ = INT
