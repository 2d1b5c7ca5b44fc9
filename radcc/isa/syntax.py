"""Parser of one assembly statement into operands and modifiers.

The operand language is LLVM's AMDGPU syntax: registers and ranges
(``v[0:1]``, ``s[4:7]``, ``ttmp[0:1]``, ``[v1, v2]`` lists), named registers,
integer expressions, floats, symbols with addends, source modifiers (``-x``,
``|x|``, ``abs(x)``, ``neg(x)``, ``sext(x)``, ``lit(x)``), call forms
(``hwreg(…)``, ``sendmsg(…)``), and trailing modifiers (``clamp``,
``offset:16``, ``quad_perm:[0,1,2,3]``, ``op_sel:[0,1]``, ``dim:SQ_RSRC_IMG_2D``).
Formats with irregular syntax (``s_waitcnt``, ``s_delay_alu``, ``exp``) read
`ParsedInst.tokens` directly.
"""

from __future__ import annotations

import re

from radcc.isa.errors import AsmError
from radcc.isa.lexer import EOL, FLOAT, IDENT, INT, PUNCT, Token, _parse_int, tokenize
from radcc.isa.operands import Modifier, Operand, Reg, parse_reg_name, signed_width

_MOD_FUNCS = ("abs", "neg", "sext", "lit")


class ParsedInst:
    """One instruction statement, parsed.

    `mnemonic` is lower-case as written (suffixes such as ``_e64`` kept).
    `tokens` are the tokens after the mnemonic (ending in EOL), for formats
    that parse their own syntax. `second` is the VOPD Y half after ``::``.

    The generic parse of `tokens` into `operands`/`modifiers` (and
    `parse_error`) runs on first use of any of the three: formats with their
    own syntax (memory, ``s_waitcnt``, ``exp``) never pay for it.
    """

    __slots__ = ("mnemonic", "col", "_tokens", "_line", "second", "_operands", "_modifiers",
                 "_parse_error", "_parsed", "_negflags")

    def __init__(self, mnemonic: str, col: int, operands: list[Operand] | None = None,
                 modifiers: list[Modifier] | None = None, tokens: list[Token] | None = None,
                 second: ParsedInst | None = None, parse_error: AsmError | None = None) -> None:
        self.mnemonic = mnemonic
        self.col = col
        self._tokens: list[Token] | None = tokens if tokens is not None else []
        self._line = ""  # a `fast_statement` line whose tokens are made on demand
        self.second = second
        self._operands: list[Operand] = operands if operands is not None else []
        self._modifiers: list[Modifier] = modifiers if modifiers is not None else []
        self._parse_error = parse_error
        # lazy only when built from tokens alone
        self._parsed = operands is not None or modifiers is not None or parse_error is not None \
            or tokens is None
        self._negflags: bool | None = None

    @property
    def tokens(self) -> list[Token]:
        toks = self._tokens
        if toks is None:
            toks = self._tokens = tokenize(self._line)[1:]
        return toks

    @tokens.setter
    def tokens(self, v: list[Token]) -> None:
        self._tokens = v

    def _parse(self) -> None:
        self._parsed = True
        toks = self.tokens
        cur = Cursor(toks)
        try:
            if toks[0].kind != EOL and not _looks_like_modifier(cur):
                ops = self._operands
                while True:
                    ops.append(parse_operand(cur))
                    t = toks[cur.pos]
                    if t.kind == PUNCT and t.text == ",":
                        cur.pos += 1
                        if _ends_operands(cur):
                            break  # llvm-mc: a comma may end the operands
                        continue
                    if starts_operand(cur):
                        continue  # llvm-mc-19: the comma between operands is optional
                    break
            mods = self._modifiers
            while True:
                t = toks[cur.pos]
                if t.kind == EOL:
                    break
                if t.kind == PUNCT and t.text == "," and mods:  # "clamp, mul:2" / "glc,"
                    cur.pos += 1
                    nxt = toks[cur.pos]
                    if nxt.kind == PUNCT and nxt.text == ",":
                        raise AsmError("unknown token in expression", nxt.col)
                    if mods[-1].name in _CPOL_WORDS and nxt.text in _CPOL_WORDS:
                        # llvm-mc reads glc/slc/dlc as one operand: no comma inside
                        raise AsmError("invalid operand for instruction", nxt.col)
                    continue
                if t.kind == IDENT and toks[cur.pos + 1].text != ":":  # a bare flag
                    cur.pos += 1
                    mods.append(Modifier(t.text, t.col, None))
                    continue
                mods.append(parse_modifier(cur))
        except AsmError as e:
            self._parse_error = e

    @property
    def operands(self) -> list[Operand]:
        if not self._parsed:
            self._parse()
        return self._operands

    @operands.setter
    def operands(self, v: list[Operand]) -> None:
        if not self._parsed:
            self._parse()
        self._operands = v

    @property
    def modifiers(self) -> list[Modifier]:
        if not self._parsed:
            self._parse()
        return self._modifiers

    @modifiers.setter
    def modifiers(self, v: list[Modifier]) -> None:
        if not self._parsed:
            self._parse()
        self._modifiers = v

    @property
    def parse_error(self) -> AsmError | None:
        """Generic-syntax error (the raw tokens are still usable)."""
        if not self._parsed:
            self._parse()
        return self._parse_error

    @parse_error.setter
    def parse_error(self, v: AsmError | None) -> None:
        if not self._parsed:
            self._parse()
        self._parse_error = v

    def __repr__(self) -> str:
        return (f"ParsedInst({self.mnemonic!r}, {self.col}, operands={self.operands!r}, "
                f"modifiers={self.modifiers!r}, second={self.second!r}, "
                f"parse_error={self.parse_error!r})")

    def mod(self, name: str) -> Modifier | None:
        for m in self.modifiers:
            if m.name == name:
                return m
        return None

    def has_mod(self, name: str) -> bool:
        return self.mod(name) is not None


class Cursor:
    """A position in a token list with the small helpers parsers need."""

    def __init__(self, tokens: list[Token], pos: int = 0) -> None:
        self.toks = tokens
        self.pos = pos
        self.no_bar = False  # inside |x|: '|' ends the expression, it is not OR
        self.directive = False  # a directive's operands (not an instruction's)

    @property
    def tok(self) -> Token:
        return self.toks[self.pos]

    def peek(self, k: int = 1) -> Token:
        i = min(self.pos + k, len(self.toks) - 1)
        return self.toks[i]

    def next(self) -> Token:
        t = self.toks[self.pos]
        if t.kind != EOL:
            self.pos += 1
        return t

    def at_end(self) -> bool:
        return self.tok.kind == EOL

    def accept(self, punct: str) -> bool:
        if self.tok.is_punct(punct):
            self.pos += 1
            return True
        return False

    def expect(self, punct: str) -> Token:
        if not self.tok.is_punct(punct):
            raise AsmError(f"expected '{punct}'", self.tok.col)
        return self.next()

    def expect_ident(self) -> Token:
        if self.tok.kind != IDENT:
            raise AsmError("expected an identifier", self.tok.col)
        return self.next()

    # --- integer expressions -----------------------------------------------
    def int_expr(self, symbols: dict[str, int] | None = None, check_only: bool = False) -> int:
        """Parse an integer constant expression (no unresolved symbols). `check_only`:
        only its syntax matters (the value is computed later), so a division by zero or
        an overflow is no error and the result is 0."""
        v = self._expr(symbols or {}, check_only)
        if isinstance(v, tuple):
            raise AsmError("expected absolute expression", self.tok.col)
        return v

    def _expr(self, syms: dict[str, int], check_only: bool = False) -> int | tuple[str, int]:
        """An integer expression, by operator precedence with explicit stacks (no
        recursion: llvm-mc-19 takes operands nested thousands deep). Prefix operators
        bind tighter than any binary one; binary operators are left-associative."""
        vals: list[int | tuple[str, int]] = []
        # pending operators: ("u", token) prefix, ("b", token) binary, ("(", token)
        ops: list[tuple[str, Token]] = []
        open_parens = 0
        while True:
            t = self.tok  # an operand is expected: prefixes and '(' first
            if t.kind == PUNCT and t.text in _PREFIX:
                self.next()
                ops.append(("u", t))
                continue
            if t.kind == PUNCT and t.text == "(":
                self.next()
                ops.append(("(", t))
                open_parens += 1
                continue
            vals.append(self._primary(syms))
            while True:  # an operator is expected
                _apply_prefixes(ops, vals)
                t = self.tok
                if t.kind == PUNCT and t.text == ")" and open_parens:
                    self.next()
                    while ops[-1][0] != "(":
                        _reduce(ops, vals, check_only)
                    ops.pop()
                    open_parens -= 1
                    continue
                if t.kind != PUNCT or t.text not in _BINOPS or (t.text == "|" and self.no_bar):
                    while ops and ops[-1][0] == "b":
                        _reduce(ops, vals, check_only)
                    if open_parens:
                        raise AsmError("expected ')'", t.col)
                    return vals[-1]
                p = _BINOPS[t.text]
                while ops and ops[-1][0] == "b" and _BINOPS[ops[-1][1].text] >= p:
                    _reduce(ops, vals, check_only)
                self.next()
                ops.append(("b", t))
                break

    def _primary(self, syms: dict[str, int]) -> int | tuple[str, int]:
        t = self.tok
        if t.kind == INT:
            self.next()
            v = int(t.value)
            if v > _MASK64:
                raise AsmError("literal value out of range for directive", t.col)
            return _wrap64(v)
        if t.kind == IDENT:
            self.next()
            if t.text in syms:
                return syms[t.text]
            return (t.text, 0)
        if t.kind == FLOAT and self.directive:
            # llvm-mc-19 takes the IEEE double's bit pattern (`.p2align -1e40` aligns to
            # 2**27): refused by name
            raise AsmError("a floating-point number in an integer expression is not supported",
                           t.col)
        raise AsmError("unknown token in expression", t.col)


_PREFIX = frozenset(("-", "~", "+", "!"))


def _apply_prefixes(ops: list[tuple[str, Token]], vals: list[int | tuple[str, int]]) -> None:
    """Apply the prefix operators pending right before the value just completed."""
    while ops and ops[-1][0] == "u":
        t = ops.pop()[1]
        v = vals[-1]
        if t.text == "+":
            continue
        if isinstance(v, tuple):
            raise AsmError("expected absolute expression", t.col)
        vals[-1] = _wrap64(-v) if t.text == "-" else ~v if t.text == "~" else int(not v)


def _reduce(ops: list[tuple[str, Token]], vals: list[int | tuple[str, int]],
            check_only: bool = False) -> None:
    """Apply the binary operator on top of `ops` to the top two values (`check_only`: a
    division by zero or overflow gives 0, the value being of no interest)."""
    t = ops.pop()[1]
    b = vals.pop()
    if check_only and t.text in "/%" and b in (0, -1):
        vals[-1] = 0
        return
    vals[-1] = _apply(t, vals[-1], b)


# Expressions evaluate as llvm-mc's MCExpr does, in 64-bit two's complement: an
# integer literal up to 2**64 - 1 is its signed 64-bit value, +, - and * wrap, `>>` is
# a logical shift (AMDGPU's assembler shifts right logically), and a shift count is
# taken modulo 64 as llvm-mc-19 on x86-64 computes it (`(1<<64)` is 1, `(8>>65)` 4).
_MASK64 = (1 << 64) - 1
_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1


def _wrap64(v: int) -> int:
    """`v` as a signed 64-bit integer (two's complement wrap-around)."""
    return signed_width(v, 64)

# llvm-mc's GNU-style precedences (AsmParser's getGNUBinOpPrecedence): logical or, logical
# and, comparisons, the bitwise operators all at one level, + and -, then * / % << >>
_BINOPS = {
    "||": 1, "&&": 2,
    "==": 3, "!=": 3, "<": 3, "<=": 3, ">": 3, ">=": 3,
    "|": 4, "^": 4, "&": 4,
    "+": 5, "-": 5,
    "*": 6, "/": 6, "%": 6, "<<": 6, ">>": 6,
}


def _apply(t: Token, a: int | tuple[str, int], b: int | tuple[str, int]) -> int | tuple[str, int]:
    op = t.text
    if isinstance(a, tuple) or isinstance(b, tuple):
        # symbol +/- constant is the only relocatable form we keep
        if isinstance(a, tuple) and not isinstance(b, tuple) and op in "+-":
            return (a[0], _wrap64(a[1] + (b if op == "+" else -b)))
        if isinstance(b, tuple) and not isinstance(a, tuple) and op == "+":
            return (b[0], _wrap64(b[1] + a))
        raise AsmError("expected absolute expression", t.col)
    if op == "+":
        return _wrap64(a + b)
    if op == "-":
        return _wrap64(a - b)
    if op == "*":
        return _wrap64(a * b)
    if op in "/%":
        if b == 0:
            raise AsmError("division by zero", t.col)
        if a == _INT64_MIN and b == -1:  # llvm-mc-19 itself dies of SIGFPE here
            raise AsmError("division overflow", t.col)
        q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
        return q if op == "/" else a - q * b
    if op == "<<":
        return _wrap64(a << (b & 63))
    if op == ">>":
        return _wrap64((a & _MASK64) >> (b & 63))
    if op == "&":
        return a & b
    if op == "|":
        return a | b
    if op == "^":
        return a ^ b
    if op == "&&":
        return int(a != 0 and b != 0)
    if op == "||":
        return int(a != 0 or b != 0)
    # comparisons (signed) give -1 for true, as GNU as and llvm-mc do
    return -int(a == b if op == "==" else a != b if op == "!=" else a < b if op == "<"
                else a <= b if op == "<=" else a > b if op == ">" else a >= b)


# --- operands ----------------------------------------------------------------


def parse_register(cur: Cursor) -> Reg | None:
    """Parse a register or register range at the cursor, or return None."""
    t = cur.tok
    if t.kind == IDENT:
        low = t.text  # (lower case only, as llvm-mc-19: `V[0:1]` is no register)
        if low in ("s", "v", "ttmp") and cur.peek().is_punct("["):
            toks = cur.toks
            p = cur.pos
            a = toks[p + 2]
            if a.kind == INT:  # fast path: x[INT] or x[INT:INT]
                b = toks[p + 3]
                if b.text == "]":
                    cur.pos = p + 4
                    return Reg(low, _parse_int(a.text), 1)
                if b.text == ":":
                    c = toks[p + 4]
                    if c.kind == INT and toks[p + 5].text == "]":
                        first = _parse_int(a.text)
                        last = _parse_int(c.text)
                        if last >= first:
                            cur.pos = p + 6
                            return Reg(low, first, last - first + 1)
            cur.next()
            cur.next()
            first = cur.int_expr()
            last = first
            if cur.accept(":"):
                last = cur.int_expr()
            cur.expect("]")
            if last < first:
                raise AsmError("first register index should not exceed second index", t.col)
            return Reg(low, first, last - first + 1)
        r = _reg_name(low)
        if r is not None:
            cur.next()
            return r
        return None
    if t.is_punct("["):
        # [s0, s1, s2] consecutive-register list (LLVM syntax)
        save = cur.pos
        cur.next()
        regs: list[Reg] = []
        while True:
            r = parse_register(cur)
            if r is None or r.count != 1:
                cur.pos = save
                return None
            regs.append(r)
            if cur.accept("]"):
                break
            if not cur.accept(","):
                cur.pos = save
                return None
        for a, b in zip(regs, regs[1:], strict=False):
            if b.file != a.file or b.index != a.index + 1:
                raise AsmError("registers in a list must be of the same kind and contiguous", t.col)
        return Reg(regs[0].file, regs[0].index, len(regs))
    return None


def _reg_name(text: str) -> Reg | None:
    """`parse_reg_name`, memoized (Reg is immutable; names repeat a lot)."""
    r = _REG_NAMES.get(text, _MISSING)
    if r is _MISSING:
        r = parse_reg_name(text)
        if len(_REG_NAMES) < 20_000:
            _REG_NAMES[text] = r
    return r  # type: ignore[return-value]


_MISSING = object()
_REG_NAMES: dict[str, object] = {}


# An operand's modifiers, in the one order llvm-mc-19 reads them (AMDGPUAsmParser's
# parseRegOrImmWithFPInputMods/IntInputMods: `-`, `neg(`, `abs(` or `sext(`, `lit(`, `|`),
# each at most once: a bit each, the rank the bit's position; a modifier inside one of the
# same or a later rank is refused, so an operand's modifiers nest at most five deep.
_M_SP3NEG, _M_NEG, _M_ABS, _M_SEXT, _M_LIT, _M_BAR = 1, 2, 4, 8, 16, 32
_MOD_FUNC_BIT = {"neg": _M_NEG, "abs": _M_ABS, "sext": _M_SEXT, "lit": _M_LIT}


def _mod_allowed(seen: int, bit: int) -> bool:
    """May modifier `bit` apply inside the modifiers `seen` (llvm-mc-19's order)?"""
    if bit == _M_LIT:  # lit( after `|` too (parseImm's own), but once
        return not seen & _M_LIT
    if bit == _M_SEXT:  # the integer form: sext( alone (a `-` before it is refused later)
        return not seen & ~_M_SP3NEG
    if seen & _M_SEXT or (bit == _M_BAR and seen & _M_ABS):
        return False
    return seen < bit


def parse_operand(cur: Cursor, _mods: int = 0) -> Operand:
    """One operand; `_mods`: the modifiers already read around it (the recursion's)."""
    toks = cur.toks
    pos = cur.pos
    t = toks[pos]
    col = t.col
    # fast paths: a lone register name or integer followed by ',', a modifier or the end
    kind = t.kind
    if kind == IDENT:
        # a register name is never one of _MOD_FUNCS: what follows does not matter
        r = _reg_name(t.text)
        if r is not None:
            cur.pos = pos + 1
            return Operand("reg", col, r, 0, t.text)  # positional: faster than keywords
        if toks[pos + 1].text == "[":
            r = parse_register(cur)
            if r is not None:
                return Operand("reg", col, r, 0, t.text)
    elif kind == INT:
        nxt = toks[pos + 1]
        if nxt.kind != PUNCT or nxt.text == ",":
            v = _parse_int(t.text)
            if v <= _INT64_MAX:  # else the general path wraps it or says it is too large
                cur.pos = pos + 1
                return Operand("int", col, None, v, t.text)
    elif kind == PUNCT and t.text == "-":
        nxt = toks[pos + 1]
        if nxt.kind == INT:
            after = toks[pos + 2]
            v = _parse_int(nxt.text)
            if (after.kind != PUNCT or after.text == ",") and v <= _INT64_MAX:
                cur.pos = pos + 2
                return Operand("int", col, None, -v, "-")
    # -|x|, -x, |x|
    if t.is_punct("-") and (cur.peek().is_punct("|") or _starts_mod_func(cur, 1)
                            or (cur.peek().kind == IDENT and _reg_name(cur.peek().text) is not None)
                            or (cur.peek().kind == IDENT and cur.peek().text in ("s", "v", "ttmp")
                                and cur.peek(2).is_punct("["))):
        if _mods:  # abs(-v1), |-v1|, neg(-v1): llvm-mc-19 reads no `-` there
            raise AsmError("failed parsing operand.", col)
        if _starts_mod_func(cur, 1) and cur.peek().text == "lit":
            raise AsmError("invalid operand for instruction", col)  # -lit(1.0): llvm-mc-19's
        cur.next()
        op = parse_operand(cur, _M_SP3NEG)
        if op.neg:
            raise AsmError("invalid syntax, expected 'neg' modifier", col)
        op.neg = True
        op.col = col
        return op
    if t.is_punct("|"):
        if not _mod_allowed(_mods, _M_BAR):
            raise AsmError("expected register or immediate" if _mods & _M_ABS
                           else "failed parsing operand.", col)
        cur.next()
        saved_bar = cur.no_bar
        cur.no_bar = True
        try:
            op = parse_operand(cur, _mods | _M_BAR)
        finally:
            cur.no_bar = saved_bar
        cur.expect("|")
        if op.abs:
            raise AsmError("expected register or immediate", col)
        op.abs = True
        op.col = col
        return op
    if t.kind == IDENT and t.text in _MOD_FUNCS and cur.peek().is_punct("("):
        name = t.text  # (lower case only, as llvm-mc-19)
        bit = _MOD_FUNC_BIT[name]
        if not _mod_allowed(_mods, bit):
            # llvm-mc-19 reads a second lit as a symbol and stops at its parenthesis
            raise AsmError("failed parsing operand.",
                           cur.peek().col if _mods & bit == _M_LIT else col)
        cur.next()
        cur.next()
        op = parse_operand(cur, _mods | bit)
        cur.expect(")")
        if name == "lit" and op.kind == "reg":  # lit() takes a constant (llvm-mc-19)
            raise AsmError("not a valid operand.", op.col)
        op.col = col
        if name == "abs":
            op.abs = True
        elif name == "neg":
            op.neg = True
            op.neg_fn = True
        elif name == "sext":
            op.sext = True
        else:
            op.lit = True
        return op
    # floats (with optional sign)
    if t.kind == FLOAT or (t.is_punct("-") and cur.peek().kind == FLOAT):
        neg = cur.accept("-")
        ft = cur.next()
        v = float(ft.value)
        return Operand("float", col, value=-v if neg else v, text=("-" if neg else "") + ft.text)
    r = parse_register(cur)
    if r is not None:
        return Operand("reg", col, reg=r, text=t.text)
    if t.kind == IDENT and cur.peek().is_punct("("):
        name = cur.next().text
        cur.next()
        args: list[list[object]] = []
        cur_arg: list[object] = []
        depth = 0
        while True:
            a = cur.tok
            if a.kind == EOL:
                raise AsmError("expected ')'", a.col)
            if a.is_punct("(") :
                depth += 1
            if a.is_punct(")"):
                if depth == 0:
                    cur.next()
                    break
                depth -= 1
            if a.is_punct(",") and depth == 0:
                args.append(cur_arg)
                cur_arg = []
                cur.next()
                continue
            cur_arg.append(cur.next())
        if cur_arg or args:
            args.append(cur_arg)
        return Operand("call", col, text=name, args=args)
    if t.kind in (INT, IDENT) or (t.kind == PUNCT and t.text in _UNARY_START):
        v = cur._expr({})
        if isinstance(v, tuple):
            if v[1] == 0 and cur.toks[cur.pos - 1] is t:
                return Operand("ident", col, text=t.text, sym=t.text)
            return Operand("sym", col, sym=v[0], value=v[1], text=t.text)
        return Operand("int", col, value=v, text=t.text)
    raise AsmError("invalid operand for instruction", col)


def starts_operand(cur: Cursor) -> bool:
    """Whether the token at `cur`, right after an operand and no comma, begins another
    operand (llvm-mc-19's AMDGPU parser skips the comma if there is one: `s_load_b32 s0,
    s[0:1] 0` is `s[0:1], 0`): a number, a register, or a sign or `|` before one. A name
    that is no register is left for the modifiers (`glc`, `offset:8`, `clamp`)."""
    t = cur.tok
    if t.kind in (INT, FLOAT):
        return True
    if t.kind == PUNCT and t.text in ("-", "|"):
        t = cur.peek()
        if t.kind in (INT, FLOAT) or t.is_punct("|"):
            return True
    if t.kind != IDENT:
        return False
    nxt = cur.peek(2 if t is not cur.tok else 1)
    return _reg_name(t.text) is not None or (
        t.text in ("s", "v", "ttmp") and nxt.is_punct("["))


# tokens an integer-expression operand may start with (llvm-mc's unary + and ! too)
_UNARY_START = frozenset(("(", "-", "~", "+", "!"))


def _starts_mod_func(cur: Cursor, k: int) -> bool:
    t = cur.peek(k)
    return t.kind == IDENT and t.text in _MOD_FUNCS and cur.peek(k + 1).is_punct("(")


def parse_modifier(cur: Cursor) -> Modifier:
    toks = cur.toks
    pos = cur.pos
    t = toks[pos]
    if t.kind == IDENT and toks[pos + 1].text == ":":
        # fast paths: name:INT and name:IDENT ending the modifier
        v = toks[pos + 2]
        if v.kind == INT or v.kind == IDENT:
            after = toks[pos + 3]
            if after.kind != PUNCT or after.text == ",":
                cur.pos = pos + 3
                return Modifier(t.text, t.col,
                                _parse_int(v.text) if v.kind == INT else v.text)
    if t.kind != IDENT:
        raise AsmError("invalid operand for instruction", t.col)
    cur.next()
    name = t.text  # (names are lower case, as llvm-mc-19 reads them)
    if not cur.accept(":"):
        return Modifier(name, t.col, None)
    if cur.tok.is_punct("["):
        cur.next()
        vals: list[object] = []
        while not cur.accept("]"):
            if cur.tok.kind == IDENT:
                vals.append(cur.next().text)
            else:
                vals.append(cur.int_expr())
            if not cur.tok.is_punct("]"):
                cur.expect(",")
        return Modifier(name, t.col, vals)
    if cur.tok.kind == IDENT and not cur.peek().is_punct("(") and not (
        cur.peek().kind == PUNCT and cur.peek().text in "+-*/"
    ):
        return Modifier(name, t.col, cur.next().text)
    return Modifier(name, t.col, cur.int_expr())


def parse_statement(mnemonic_tok: Token, rest: list[Token]) -> ParsedInst:
    """Parse operands and modifiers after a mnemonic.

    Generic-syntax errors are kept in `parse_error` rather than raised, so a
    format with its own syntax can still read the raw tokens. The generic
    parse itself is deferred until a format asks for operands or modifiers.
    """
    inst = ParsedInst(mnemonic_tok.text.lower(), mnemonic_tok.col, tokens=rest)
    # VOPD: split at '::' (only a PUNCT token can have this text)
    for i, t in enumerate(rest):
        if t.text == "::":
            first = rest[:i] + [Token(EOL, "", t.col)]
            inst.tokens = first
            after = rest[i + 1 :]
            if not after or after[0].kind != IDENT:
                inst._parsed = True
                inst._parse_error = AsmError("expected an instruction after '::'", t.col)
                return inst
            inst.second = parse_statement(after[0], after[1:])
            break
    return inst


# Bare flag modifiers llvm-mc also takes after a comma ("v_add_f32_e64 v0, v1, v2, clamp",
# "s_load_dword s1, s[2:3], glc"): after a comma they end the operand list.
_FLAG_WORDS = frozenset((
    "clamp", "glc", "slc", "dlc", "gds", "tfe", "lwe", "offen", "idxen", "addr64", "unorm", "r128",
    "a16", "d16", "lds", "nv", "compr", "vm", "done", "fi", "high", "row_en",
))


_CPOL_WORDS = frozenset(("glc", "slc", "dlc", "scc", "nt", "sc0", "sc1"))


def _ends_operands(cur: Cursor) -> bool:
    """After a comma: does the operand list end here (the end of the line, a
    ``name:`` modifier or a bare flag word), as llvm-mc reads it?"""
    t = cur.tok
    if t.kind == EOL:
        return True
    if t.kind != IDENT:
        return False
    if _looks_like_modifier(cur):
        return True
    return t.text in _FLAG_WORDS and (cur.peek().kind in (EOL, IDENT)
                                              or cur.peek().is_punct(","))


def _looks_like_modifier(cur: Cursor) -> bool:
    t = cur.tok
    return t.kind == IDENT and cur.peek().is_punct(":") and _reg_name(t.text) is None


# --- fast path: whole simple lines without tokens ---------------------------------
# A line made only of a mnemonic, comma separated registers / register ranges /
# integers / decimal floats / bare names (each optionally negated), and space
# separated modifiers ``name``, ``name:INT``, ``name:NAME``, ``name:[INT,...]``
# is parsed by regular expressions straight into the operands and modifiers
# the token parser would produce (same kinds, values, texts and columns). Every
# piece is a complete lexer token followed by a separator, so such a line is
# also lexically valid: its tokens, made only if a format asks, never raise.
# Anything else (labels, directives, comments, expressions, |x|, calls, ...)
# returns None and takes the token path.
_WSC = "[ \t\r\f\v]"
# group 1: the mnemonic; group 2: "name:" when modifiers come first
_STMT_RE = re.compile(
    rf"{_WSC}*([A-Za-z_][A-Za-z0-9_]*)(?:{_WSC}+|$)((?:[A-Za-z_][A-Za-z0-9_]*:)?)")
_OPERAND_RE = re.compile(
    r"(-?)(?:"
    r"([A-Za-z_][A-Za-z0-9_]*)(?:\[(0|[1-9]\d*)(?::(0|[1-9]\d*))?\])?"  # 2: name, 3-4: x[a:b]
    r"|((?:0|[1-9]\d*)\.\d*(?:[eE][+-]?\d+)?)"  # 5: a float
    r"|(0[xX][0-9a-fA-F]+|0|[1-9]\d*)"  # 6: an integer (octal ones take the token path)
    rf")({_WSC}*,{_WSC}*|{_WSC}+|$)"  # 7: separator
)
_MODIFIER_RE = re.compile(
    r"([A-Za-z_][A-Za-z0-9_]*)(?::(?:"
    r"(0[xX][0-9a-fA-F]+|0|[1-9]\d*)"  # 2: name:INT (octal ones take the token path)
    r"|([A-Za-z_][A-Za-z0-9_]*)"  # 3: name:NAME
    rf"|\[({_WSC}*(?:0|[1-9]\d*)(?:{_WSC}*,{_WSC}*(?:0|[1-9]\d*))*{_WSC}*)\]"  # 4: [INT, ...]
    rf"))?(?:{_WSC}+|$)"
)
_NO_RE = re.compile("no")
_REG_FILES = {"s": "s", "v": "v", "ttmp": "ttmp"}


_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _operand_follows(line: str, pos: int) -> bool:
    """`starts_operand` for the fast path: does an operand begin at `line[pos]`?"""
    c = line[pos]
    if c.isdigit() or c in "-|.(":
        return True
    m = _NAME_RE.match(line, pos)
    if m is None:
        return False
    return _reg_name(m.group()) is not None or (
        m.group() in _REG_FILES and line.startswith("[", m.end()))


def fast_statement(line: str) -> ParsedInst | None:
    """`line` parsed like ``parse_statement`` (its tokens made on demand), or
    None if it is not a plain instruction line (see above)."""
    m = _STMT_RE.match(line)
    if m is None:
        return None
    mn_col, pos = m.span(1)
    first_mod = m.group(2)
    pos = m.end() - len(first_mod)
    n = len(line)
    ops: list[Operand] = []
    mods: list[Modifier] = []
    if pos < n:
        if line[pos] in ":=":
            return None  # a label, an equate or '::'
        if not first_mod:  # operands first
            reg_names = _REG_NAMES
            match = _OPERAND_RE.match
            while True:
                om = match(line, pos)
                if om is None:
                    return None
                neg, name, lo, hi, flt, num, sep = om.groups()
                col, pos = om.span()
                col += 1
                if name is not None and lo is None:
                    r = reg_names.get(name, _MISSING)
                    if r is _MISSING:
                        r = _reg_name(name)
                    if r is None:
                        if neg or name in _FLAG_WORDS:
                            return None  # (a flag word after a comma: the token path)
                        op = Operand("ident", col, None, 0, name, name)
                    else:
                        op = Operand("reg", col, r, 0, name)
                elif lo is not None:
                    f = _REG_FILES.get(name)
                    if f is None:
                        return None
                    first = int(lo)
                    last = first if hi is None else int(hi)
                    if last < first:
                        return None
                    op = Operand("reg", col, Reg(f, first, last - first + 1), 0, name)
                elif flt is not None:
                    v = float(flt)
                    op = Operand("float", col, None, -v if neg else v, neg + flt)
                    neg = ""
                else:
                    iv = _parse_int(num)
                    if iv > _INT64_MAX:
                        return None  # the general path wraps it (or says it is too large)
                    op = Operand("int", col, None, -iv if neg else iv, "-" if neg else num)
                    neg = ""
                if neg:
                    op.neg = True
                ops.append(op)
                if "," not in sep:
                    if pos < n and _operand_follows(line, pos):
                        return None  # another operand without a comma: the token path
                    break
        elif _reg_name(first_mod[:-1]) is not None:
            return None  # 'v1:' is an operand followed by an error
        while pos < n:
            mm = _MODIFIER_RE.match(line, pos)
            if mm is None:
                return None
            name, iv2, nv, lv = mm.groups()
            val: object = None
            if iv2 is not None:
                val = _parse_int(iv2)
            elif nv is not None:
                val = nv
            elif lv is not None:
                val = [int(x) for x in lv.split(",")]
            mods.append(Modifier(name, mm.start() + 1, val))
            pos = mm.end()
    inst = _new_inst(ParsedInst)
    inst.mnemonic = m.group(1).lower()
    inst.col = mn_col + 1
    inst._tokens = None
    inst._line = line
    inst.second = None
    inst._operands = ops
    inst._modifiers = mods
    inst._parse_error = None
    inst._parsed = True
    inst._negflags = None
    return inst


_new_inst = object.__new__


# --- negated flag modifiers ("noa16", "noglc", ...) --------------------------------
# llvm-mc accepts "no<flag>" for these named bits, meaning the bit is clear:
# the cache-policy bits on every memory encoding, and the others where the
# instruction has the flag (MUBUF's tfe is not a named bit: "notfe" is an error).
_CPOL = frozenset(("glc", "slc", "dlc"))
_NEGATABLE = _CPOL | frozenset(("gds", "tfe", "lwe", "a16", "d16", "r128", "unorm", "clamp"))
_CPOL_ENCS = frozenset(("MUBUF", "MTBUF", "FLAT", "GLOBAL", "SCRATCH", "SMEM", "MIMG"))
_MIMG_ORDER = {"unorm": 0, "glc": 1, "slc": 1, "dlc": 1, "r128": 2, "a16": 3, "tfe": 4, "lwe": 5,
               "d16": 6}


def strip_negated_flags(inst: ParsedInst, enc: str, allowed: frozenset[str]) -> ParsedInst:
    """`inst` without its ``no<flag>`` modifiers (re-parsed), for an instruction of
    encoding `enc` whose modifiers are `allowed`; one that llvm-mc would not
    accept, or that contradicts the flag itself, is left in place (an error)."""
    if inst.second is not None:
        return inst
    neg = inst._negflags
    if neg is None and inst._tokens is None and _NO_RE.search(inst._line) is None:
        neg = inst._negflags = False  # a fast_statement line without "no": no tokens needed
    if neg is None:  # computed once per statement, not per candidate entry
        neg = inst._negflags = any(
            t.kind == IDENT and t.text[:2] == "no" and t.text[2:] in _NEGATABLE
            for t in inst.tokens
        )
    if not neg:
        return inst
    toks = inst.tokens
    present = {t.text for t in toks if t.kind == IDENT}  # (lower case only, as llvm-mc-19)
    if enc == "MIMG":  # llvm-mc takes MIMG's named bits in one order only
        seq = [_MIMG_ORDER[n] for t in toks if t.kind == IDENT
               for n in (t.text.removeprefix("no"),) if n in _MIMG_ORDER]
        if seq != sorted(seq):
            return inst
    keep: list[Token] = []
    seen: set[str] = set()
    for i, t in enumerate(toks):
        if t.kind == IDENT and t.text[:2] == "no" and (i == 0 or not toks[i - 1].is_punct(":")):
            flag = t.text[2:]
            ok = (flag in _CPOL and enc in _CPOL_ENCS and (enc != "MIMG" or flag in allowed)) or (
                flag in allowed and flag in _NEGATABLE and (flag != "tfe" or enc == "MIMG"))
            if ok and flag not in present and t.text not in seen:
                seen.add(t.text)
                continue
        keep.append(t)
    return parse_statement(Token(IDENT, inst.mnemonic, inst.col), keep)
