"""Symbolic 16-bit immediates of the scalar formats (ISA guide 15.1.2 SOPK,
15.1.5 SOPP, and chapter 16 descriptions of S_WAITCNT, S_WAITCNT_DEPCTR,
S_DELAY_ALU, S_SENDMSG, S_GETREG/S_SETREG, S_VERSION).

Each field has `parse_*` (from tokens, llvm-mc's syntax) and `*_text` (the
canonical llvm-mc printing). Name tables come from the ``symbols`` block of
``radcc/isa/data/gfx11/scalar.json`` (probed from llvm-mc); the bit layouts
are the ISA guide's.
"""

from __future__ import annotations

import json
from functools import cache

from radcc.isa.errors import AsmError
from radcc.isa.lexer import EOL, IDENT, INT, Token
from radcc.isa.syntax import Cursor
from radcc.isa.table import DATA_DIR


@cache
def symbols() -> dict[str, dict[str, int]]:
    blob = json.loads((DATA_DIR / "gfx11" / "scalar.json").read_text())
    return blob["symbols"]


def _by_value(kind: str) -> dict[int, str]:
    return {v: k for k, v in symbols()[kind].items()}


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


def hwreg_text(v: int) -> str:
    hid, off, size = v & 0x3F, (v >> 6) & 0x1F, ((v >> 11) & 0x1F) + 1
    name = _by_value("hwreg").get(hid, str(hid))
    if off == 0 and size == 32:
        return f"hwreg({name})"
    return f"hwreg({name}, {off}, {size})"


def parse_hwreg(op_text: str, args: list[list[object]], col: int) -> int:
    if op_text.lower() != "hwreg" or not args or len(args) not in (1, 3):
        raise AsmError("invalid operand for instruction", col)
    first = [t for t in args[0] if isinstance(t, Token)]
    if len(first) == 1 and first[0].kind == IDENT and first[0].text.startswith("HW_REG_"):
        hid = symbols()["hwreg"].get(first[0].text)
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


# --- sendmsg: gfx11 id [7:0], op [6:4], stream [9:8] ------------------------------


def sendmsg_text(v: int, rtn: bool = False) -> str:
    mid = v & 0xFF
    name = _by_value("sendmsg").get(mid)
    if name is not None and name != "MSG_SYSMSG":
        return f"sendmsg({name})"
    if mid == v:
        return f"sendmsg({mid}, 0, 0)"
    return str(v)


def parse_sendmsg(op_text: str, args: list[list[object]], col: int) -> int:
    if op_text.lower() != "sendmsg" or not args or len(args) > 3:
        raise AsmError("invalid operand for instruction", col)
    first = [t for t in args[0] if isinstance(t, Token)]
    c0 = first[0].col if first else col
    if len(first) == 1 and first[0].kind == IDENT and first[0].text.startswith("MSG_"):
        mid = symbols()["sendmsg"].get(first[0].text)
        if mid is None:
            raise AsmError("specified message id is not supported on this GPU", c0)
        sym = True
    else:
        mid, c0 = _int_arg(args[0], c0)
        if not 0 <= mid <= 255:
            raise AsmError("invalid message id", c0)
        sym = False
    op = stream = 0
    if len(args) >= 2:
        ot = [t for t in args[1] if isinstance(t, Token)]
        c1 = ot[0].col if ot else col
        if len(ot) == 1 and ot[0].kind == IDENT:
            o = symbols().get("sysmsg_op", {}).get(ot[0].text)
            if o is None or mid != symbols()["sendmsg"].get("MSG_SYSMSG"):
                raise AsmError("invalid operation id", c1)
            op = o
        else:
            op, c1 = _int_arg(args[1], c1)
            if sym and mid != symbols()["sendmsg"].get("MSG_SYSMSG"):
                raise AsmError("message does not support operations", c1)
            if not 0 <= op <= 7:
                raise AsmError("invalid operation id", c1)
    elif sym and mid == symbols()["sendmsg"].get("MSG_SYSMSG"):
        raise AsmError("missing message operation", col)
    if len(args) == 3:
        stream, c2 = _int_arg(args[2], col)
        if sym:
            raise AsmError("message operation does not support streams", c2)
        if not 0 <= stream <= 3:
            raise AsmError("invalid message stream id", c2)
    return mid | op << 4 | stream << 8


# --- s_waitcnt: expcnt [2:0], lgkmcnt [9:4], vmcnt [15:10] -----------------------

WAITCNT = {"vmcnt": (10, 0x3F), "expcnt": (0, 0x7), "lgkmcnt": (4, 0x3F)}
WAITCNT_DEFAULT = 0xFFF7


def waitcnt_text(v: int) -> str:
    parts = []
    for name, (sh, mask) in WAITCNT.items():
        c = (v >> sh) & mask
        if c != mask:
            parts.append(f"{name}({c})")
    if not parts:
        parts = [f"{n}({m})" for n, (_s, m) in WAITCNT.items()]
    return " ".join(parts)


def parse_waitcnt(cur: Cursor) -> int:
    if cur.tok.kind != IDENT or not cur.peek().is_punct("("):
        return _parse_imm16(cur)
    v = WAITCNT_DEFAULT
    while True:
        t = cur.expect_ident()
        name = t.text.lower()
        sat = name.endswith("_sat")
        base = name[:-4] if sat else name
        if base not in WAITCNT:
            raise AsmError("invalid counter name " + t.text, t.col)
        cur.expect("(")
        c = cur.tok.col
        n = cur.int_expr()
        cur.expect(")")
        sh, mask = WAITCNT[base]
        if sat:
            n = min(max(n, 0), mask)
        if not 0 <= n <= mask:
            raise AsmError(f"too large value for {base}", c)
        v = (v & ~(mask << sh)) | n << sh
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


def depctr_text(v: int) -> str:
    if v & ~DEPCTR_USED & 0xFFFF:
        return f"0x{v:x}"
    parts = [f"{n}({(v >> s) & m})" for n, (s, m) in DEPCTR.items() if (v >> s) & m != m]
    if not parts:
        parts = [f"{n}({m})" for n, (_s, m) in DEPCTR.items()]
    return " ".join(parts)


def parse_depctr(cur: Cursor) -> int:
    if cur.tok.kind != IDENT or not cur.peek().is_punct("("):
        return _parse_imm16(cur)
    v = DEPCTR_USED
    seen: set[str] = set()
    while True:
        t = cur.expect_ident()
        name = t.text.lower()
        if name not in DEPCTR:
            raise AsmError("invalid counter name " + t.text, t.col)
        if name in seen:
            raise AsmError("duplicate counter name " + t.text, t.col)
        seen.add(name)
        cur.expect("(")
        c = cur.tok.col
        n = cur.int_expr()
        cur.expect(")")
        sh, mask = DEPCTR[name]
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
        name = t.text.lower()
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


def version_text(v: int) -> str:
    flags = symbols().get("version_flags", {})
    fmask = sum(flags.values())
    if v & ~(0xFF | fmask):
        return f"0x{v:x}"
    base = v & 0xFF
    s = _by_value("version").get(base, str(base))
    for name, bit in flags.items():
        if v & bit:
            s = (f"({s})" if "|" in s else s) + "|" + name
    return s


def parse_version(cur: Cursor) -> int:
    """An expression over integers and UC_VERSION_* names."""
    syms = dict(symbols()["version"])
    syms.update(symbols().get("version_flags", {}))
    c = cur.tok.col
    v = cur.int_expr(syms)
    if not cur.at_end():
        raise AsmError("invalid operand for instruction", cur.tok.col)
    if not -(1 << 15) <= v < (1 << 16):
        raise AsmError("invalid operand for instruction", c)
    return v & 0xFFFF


_ = INT
