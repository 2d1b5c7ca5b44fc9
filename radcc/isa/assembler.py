"""The assembler driver: LLVM AMDGPU assembly text to bytes.

It reads statements (labels, directives, instructions), asks the opcode
table for the entries a mnemonic may mean, lets each entry's `Format`
encode it (the first that fits wins, as llvm-mc's matcher prefers the
shortest encoding), lays out sections, resolves label fixups, and collects
``file:line:col: error:`` diagnostics without stopping at the first.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Callable, Container
from dataclasses import dataclass, field

from radcc.isa import formats as _formats  # noqa: F401  (registers formats)
from radcc.isa.disassembler import decode_text
from radcc.isa.errors import AsmError
from radcc.isa.formats.base import FORMATS, Context, Encoded, Fixup
from radcc.isa.lexer import EOL, IDENT, INT, PUNCT, STRING, Token, tokenize
from radcc.isa.syntax import (
    Cursor,
    ParsedInst,
    fast_statement,
    parse_statement,
    strip_negated_flags,
)
from radcc.isa.table import OpInfo, get_table
from radcc.target import Target

# a line that starts with an instruction's mnemonic (not a directive, label or equate)
_INSTRUCTION_LINE = re.compile(r"[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]+(?![ \t]*[:=])")


@dataclass
class Diagnostic:
    file: str
    line: int
    col: int
    message: str
    source: str
    severity: str = "error"

    def __str__(self) -> str:
        caret = ""
        if self.col > 0:
            caret = "\n" + self.source + "\n" + " " * (self.col - 1) + "^"
        return f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.message}{caret}"


@dataclass
class Statement:
    """One item of the output listing, in source order."""

    kind: str  # 'inst', 'label', 'directive'
    section: str
    offset: int
    line: int
    # canonical text (instruction or directive), or label name; None for an instruction
    # of an assembly that did not ask for texts (`Assembler.assemble`): `decode_text`
    # of `data` gives it
    text: str | None
    data: bytes = b""
    fixups: list[Fixup] = field(default_factory=list)


@dataclass
class Section:
    name: str
    data: bytearray = field(default_factory=bytearray)
    align: int = 1
    flags: str = ""


@dataclass
class Symbol:
    name: str
    section: str | None = None
    value: int = 0
    binding: str = "local"  # local, global, weak
    type: str = ""  # function, object
    size: int | None = None
    visibility: str = ""


@dataclass
class KernelBlock:
    name: str
    fields: dict[str, int]
    line: int


@dataclass
class AsmResult:
    statements: list[Statement]
    sections: dict[str, Section]
    symbols: dict[str, Symbol]
    kernels: list[KernelBlock]
    diagnostics: list[Diagnostic]
    amdgcn_target: str | None = None
    code_object_version: int | None = None
    metadata_yaml: str | None = None
    # errors that only writing an object has (llvm-mc-19 reports them at layout, not in
    # its text output): a `.size` that is not a difference of labels of one section
    object_errors: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)

    @property
    def text(self) -> bytes:
        s = self.sections.get(".text")
        return bytes(s.data) if s else b""


_DATA_DIRECTIVES = {".byte": 1, ".short": 2, ".2byte": 2, ".value": 2,
                    ".long": 4, ".4byte": 4, ".int": 4, ".quad": 8, ".8byte": 8}
# The directives llvm-mc-19's generic parser (its AsmParser) handles: their names are
# read in any case (`.BYTE`, `.P2Align`). The ELF and AMDGPU ones (.text, .section,
# .type, .size, .weak, .hidden, .amdgcn_target, .amdhsa_kernel, ...) are lower case only:
# `.typE` is an unknown directive there. (Found by probing llvm-mc-19 with each name.)
_ANY_CASE_DIRECTIVES = frozenset((
    *_DATA_DIRECTIVES, ".p2align", ".p2alignl", ".align", ".balign", ".balignl", ".fill",
    ".zero", ".space", ".skip", ".globl", ".global", ".set", ".equ", ".equiv", ".file",
    ".addrsig", ".addrsig_sym", ".end", ".loc", ".warning", ".error", ".ascii", ".asciz",
    ".string", ".cfi_sections", ".cfi_startproc", ".cfi_endproc", ".comm", ".lcomm"))
_SYMBOL_DIRECTIVES = (".globl", ".global", ".weak", ".local", ".protected", ".hidden",
                      ".internal")


# `.type SYM, @KIND`: the kinds llvm-mc accepts (its ELF asm parser, with the STT_ spellings)
# -> the symbol type radcc records ("function" and "object" are the ones the code-object
# writer gives meaning to)
_SYMBOL_TYPES = {"function": "function", "STT_FUNC": "function",
                 "gnu_indirect_function": "gnu_indirect_function",
                 "STT_GNU_IFUNC": "gnu_indirect_function",
                 "object": "object", "STT_OBJECT": "object", "tls_object": "tls_object",
                 "STT_TLS": "tls_object", "common": "common", "STT_COMMON": "common",
                 "notype": "notype", "STT_NOTYPE": "notype",
                 "gnu_unique_object": "gnu_unique_object"}

class Assembler:
    """Assemble one source file for one target."""

    def __init__(self, target: Target, filename: str = "<stdin>", wave_size: int | None = None):
        self.target = target
        self.filename = filename
        self.table = get_table(target.gfx_level)
        self.ctx = Context(target, self.table, wave_size or target.default_wave_size)
        self.sections: dict[str, Section] = {".text": Section(".text", flags="ax")}
        self.cur = self.sections[".text"]
        self.statements: list[Statement] = []
        self.symbols: dict[str, Symbol] = {}
        self.kernels: list[KernelBlock] = []
        self.diags: list[Diagnostic] = []
        self.equates: dict[str, int] = {}
        self.amdgcn_target: str | None = None
        self.cov: int | None = None
        self.metadata_yaml: str | None = None
        self._pending_fixups: list[tuple[Section, int, Fixup, int, str]] = []
        self._lines: list[str] = []
        self._memo: dict[str, tuple[bytes, str | None]] | None = None
        self._texts = True

    # --- diagnostics ---------------------------------------------------------
    def error(self, lineno: int, col: int, msg: str) -> None:
        src = self._lines[lineno - 1] if 0 < lineno <= len(self._lines) else ""
        self.diags.append(Diagnostic(self.filename, lineno, col, msg, src))

    # --- driver ----------------------------------------------------------------
    def assemble(self, source: str | list[str],
                 parsed: Callable[[int], ParsedInst | None] | None = None,
                 texts: bool = True) -> AsmResult:
        """Assemble `source` (text, or its lines). `parsed(k)`, when given and not
        None, is line k+1's instruction as typed operands (an emitter's, built
        without text): it is encoded as is, the line only names it (memo, listing).
        It is asked only for lines not encoded before (the memo of lines). With `texts`
        False an instruction's canonical text is not made by decoding its bytes
        (`Statement.text` None unless known without decoding: the caller decodes
        what it shows)."""
        self._lines = source.split("\n") if isinstance(source, str) else source
        self._texts = texts
        memo = self._memo = _line_memo(self.target.name, self.ctx.wave_size)
        i = 0
        n = len(self._lines)
        while i < n:
            lineno = i + 1
            line = self._lines[i]
            i += 1
            hit = memo.get(line)
            if hit is not None:
                sec = self.cur
                off = len(sec.data)
                data, text = hit
                if text is None and texts:  # memoized by an assembly without texts
                    text = decode_text(data, self.ctx)
                    memo[line] = (data, text)
                sec.data += data
                self.statements.append(Statement("inst", sec.name, off, lineno, text, data))
                continue
            inst = parsed(lineno - 1) if parsed is not None else None
            if inst is None:
                inst = fast_statement(line)
            if inst is not None:  # a plain instruction line: parsed without tokens
                try:
                    self._emit(inst, inst.mnemonic, lineno, line)
                except AsmError as e:
                    self.error(lineno, e.col, e.message)
                continue
            try:
                toks = tokenize(line)
            except AsmError as e:
                msg = e.message
                if msg == "invalid octal number" and _INSTRUCTION_LINE.match(line):
                    msg = "failed parsing operand."  # what llvm-mc-19's operand parser says
                self.error(lineno, e.col, msg)
                continue
            # multi-line blocks
            if toks[0].kind == IDENT and toks[0].text == ".amdhsa_kernel":
                i = self._kernel_block(toks, lineno, i)
                continue
            if toks[0].kind == IDENT and toks[0].text in (".amdgpu_metadata", ".amd_amdgpu_hsa_metadata"):
                i = self._metadata_block(lineno, i)
                continue
            try:
                self._statement(toks, line, lineno)
            except AsmError as e:
                self.error(lineno, e.col, e.message)
        self._resolve_fixups()
        self._resolve_late_values()
        return AsmResult(self.statements, self.sections, self.symbols, self.kernels, self.diags,
                         self.amdgcn_target, self.cov, self.metadata_yaml, self._object_errors)

    def _statement(self, toks: list[Token], line: str, lineno: int) -> None:
        pos = 0
        # labels (possibly several on one line)
        while toks[pos].kind in (IDENT, INT) and toks[pos + 1].is_punct(":"):
            name = toks[pos].text
            if toks[pos].kind == INT:
                raise AsmError("unexpected token at start of statement", toks[pos].col)
            self._define_label(name, toks[pos].col)
            self.statements.append(Statement("label", self.cur.name, len(self.cur.data), lineno, name))
            pos += 2
        t = toks[pos]
        if t.kind == EOL:
            return
        if t.kind == IDENT and toks[pos + 1].is_punct("="):
            cur = Cursor(toks, pos + 2)
            cur.directive = True
            self.equates[t.text] = cur.int_expr(self.equates)
            return
        if t.kind != IDENT:
            raise AsmError("unexpected token at start of statement", t.col)
        if t.text.startswith("."):
            self._directive(t, toks[pos + 1 :], lineno)
            return
        self._instruction(t, toks[pos + 1 :], lineno, line if pos == 0 else None)

    def _define_label(self, name: str, col: int) -> None:
        sym = self.symbols.get(name)
        if sym is not None and sym.section is not None:
            raise AsmError(f"symbol '{name}' is already defined", col)
        if sym is None:
            sym = self.symbols[name] = Symbol(name)
        sym.section = self.cur.name
        sym.value = len(self.cur.data)

    # --- instructions ---------------------------------------------------------
    def _instruction(self, mtok: Token, rest: list[Token], lineno: int,
                     line: str | None = None) -> None:
        self._emit(parse_statement(mtok, rest), mtok.text, lineno, line)

    def _emit(self, inst: ParsedInst, mnemonic: str, lineno: int, line: str | None) -> None:
        """Encode `inst` into the current section (`line`: its source line, to
        memoize, when the statement is the whole line)."""
        enc = self.encode(inst)
        sec = self.cur
        off = len(sec.data)
        sec.data += enc.data
        for f in enc.fixups:
            self._pending_fixups.append((sec, off, f, lineno, mnemonic))
        text = enc.text
        if text is None and self._texts:
            text = decode_text(enc.data, self.ctx)
        self.statements.append(Statement("inst", sec.name, off, lineno, text, enc.data, enc.fixups))
        if line is not None and not enc.fixups:
            memo = self._memo
            if memo is None:
                memo = self._memo = _line_memo(self.target.name, self.ctx.wave_size)
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            memo[line] = (enc.data, text)

    def encode(self, inst: ParsedInst) -> Encoded:
        """Encode one parsed instruction (raises AsmError)."""
        cands = self.table.candidates(inst.mnemonic)
        if not cands:
            raise AsmError(self.table.forced_size_error(inst.mnemonic) or "invalid instruction",
                           inst.col)
        first_err: AsmError | None = None
        ctx = self.ctx
        if inst._tokens is not None and inst.second is None:
            _check_double_minus(inst, cands)
        for info in cands:
            fmt = FORMATS.get(info.enc)
            if fmt is None:
                if first_err is None:
                    first_err = AsmError(f"{info.enc} encoding is not supported yet", inst.col)
                continue
            try:
                # (_negflags False: known to have no "no<flag>" modifier to strip)
                return fmt.encode(info, inst if inst._negflags is False else
                                  strip_negated_flags(inst, info.enc, info.modifiers), ctx)
            except AsmError as e:
                if first_err is None or (first_err.col == inst.col and e.col != inst.col):
                    first_err = e
            except OverflowError:  # a float literal beyond the operand's width (struct.pack)
                e = AsmError("invalid operand for instruction", _largest_float_col(inst))
                if first_err is None or (first_err.col == inst.col and e.col != inst.col):
                    first_err = e
        assert first_err is not None
        if first_err.message == "invalid operand for instruction" and inst.second is None:
            op = next((o for o in inst.operands if o.col == first_err.col), None)
            if op is not None and op.kind in ("ident", "sym") and not (op.neg or op.abs):
                # llvm-mc-19 makes a symbol a 32-bit literal with a PC-relative fixup
                # (FK_PCRel_4); radcc writes linked code objects, without relocations
                raise AsmError("a symbol as a literal operand (a relocation) is not supported",
                               op.col)
        raise first_err

    def canonical_text(self, data: bytes) -> str:
        return decode_text(data, self.ctx)

    # --- directives -------------------------------------------------------------
    def _directive(self, t: Token, rest: list[Token], lineno: int) -> None:
        name = t.text.lower()
        if name not in _ANY_CASE_DIRECTIVES:
            name = t.text  # (an ELF or AMDGPU directive: lower case only, as llvm-mc-19)
        cur = Cursor(rest)
        cur.directive = True
        sec = self.cur
        if name == ".text":
            self._subsection(cur)
            self._switch(".text", "ax")
            self._echo(lineno, "\t.text")
        elif name in (".data", ".rodata", ".bss"):
            self._subsection(cur)
            self._switch(name, "a")
            self._echo(lineno, f"\t{name}")
        elif name == ".section":
            stoks = cur.next()
            if stoks.kind not in (IDENT, STRING):
                raise AsmError("expected section name", stoks.col)
            sname = stoks.text.strip('"')
            flags = ""
            if cur.accept(","):
                ft = cur.next()
                flags = ft.text.strip('"') if ft.kind == STRING else ""
            self._switch(sname, flags)
            self._echo(lineno, f"\t.section\t{sname}")
        elif name in _DATA_DIRECTIVES:
            size = _DATA_DIRECTIVES[name]
            vals: list[int] = []
            while not cur.at_end():  # llvm-mc accepts an empty list
                vals.append(cur.int_expr(self.equates))
                if not cur.accept(","):
                    break
                if cur.at_end():  # a trailing comma wants one more value
                    cur.int_expr(self.equates)
            self._expect_end(cur)
            for v in vals:
                lim = 1 << (8 * size)
                if not -(lim >> 1) <= v < lim:
                    raise AsmError("out of range literal value", rest[0].col)
                off = len(sec.data)
                sec.data += (v % lim).to_bytes(size, "little")
                self.statements.append(Statement("directive", sec.name, off, lineno,
                                                 f"\t{_canon_data(name)}\t{v}", bytes(sec.data[off:])))
        elif name in (".p2align", ".p2alignl", ".align", ".balign", ".balignl"):
            a = cur.int_expr(self.equates)
            fill = None
            if cur.accept(","):
                if not cur.tok.is_punct(","):
                    fill = cur.int_expr(self.equates)
                if cur.accept(","):
                    cur.int_expr(self.equates)
            self._expect_end(cur)
            if not -(1 << 63) <= a < (1 << 64):
                raise AsmError("literal value out of range for directive", rest[0].col)
            if (name.startswith(".p2") and not 0 <= a <= 31) or a > (1 << 32):
                raise AsmError("invalid alignment value", rest[0].col)
            align = (1 << a) if name.startswith(".p2") else a
            if align <= 0 or align & (align - 1):
                raise AsmError("alignment must be a power of 2", rest[0].col)
            sec.align = max(sec.align, align)
            pad = (-len(sec.data)) % align
            if pad > (1 << 28):  # radcc's limit: no multi-gigabyte sections
                raise AsmError("invalid alignment value", rest[0].col)
            unit = 4 if name.endswith("l") else 1
            if fill is None:
                fill_bytes = (0xBF800000).to_bytes(4, "little") if "x" in sec.flags else b"\0"
                unit = 4 if "x" in sec.flags and pad % 4 == 0 else 1
                fill_bytes = fill_bytes if unit == 4 else b"\0"
            else:
                fill_bytes = (fill % (1 << (8 * unit))).to_bytes(unit, "little")
            sec.data += (fill_bytes * (pad // len(fill_bytes) + 1))[:pad]
            self._echo(lineno, f"\t.p2align\t{a.bit_length() - 1 if not name.startswith('.p2') else a}")
        elif name == ".fill" or name == ".zero" or name == ".space" or name == ".skip":
            count = cur.int_expr(self.equates)
            size, value = 1, 0
            if name == ".fill":
                if cur.accept(","):
                    size = cur.int_expr(self.equates)
                    if cur.accept(","):
                        value = cur.int_expr(self.equates)
            elif cur.accept(","):
                value = cur.int_expr(self.equates)
            self._expect_end(cur)
            if count < 0 or size not in (1, 2, 4, 8) or count * size > (1 << 28):
                raise AsmError("invalid .fill arguments", rest[0].col if rest else t.col)
            sec.data += (value % (1 << (8 * size))).to_bytes(size, "little") * count
        elif name in _SYMBOL_DIRECTIVES:
            while cur.tok.kind != EOL or cur.toks[cur.pos - 1].is_punct(","):
                # (no symbol at all: nothing to do, as llvm-mc-19; a symbol after a comma)
                st = cur.tok
                if st.kind != IDENT:
                    raise AsmError("expected identifier", st.col)  # llvm-mc-19's wording
                cur.next()
                sym = self.symbols.setdefault(st.text, Symbol(st.text))
                if name in (".globl", ".global"):
                    sym.binding = "global"
                elif name == ".weak":
                    sym.binding = "weak"
                elif name == ".local":
                    sym.binding = "local"
                else:
                    sym.visibility = name[1:]
                if not cur.accept(","):
                    break
            self._expect_end(cur)
        elif name == ".type":
            st = cur.expect_ident()
            cur.expect(",")
            kt = cur.next()
            kind = kt.text.lstrip("@%")
            col = kt.col + len(kt.text) - len(kind)
            if kt.is_punct("@") or kt.is_punct("%"):
                kt = cur.next()
                kind, col = kt.text, kt.col
            if kind not in _SYMBOL_TYPES:  # LLVM's ELFAsmParser::ParseDirectiveType
                raise AsmError("unsupported attribute", col)
            kind = _SYMBOL_TYPES[kind]
            sym = self.symbols.setdefault(st.text, Symbol(st.text))
            sym.type = kind
        elif name == ".size":
            st = cur.expect_ident()
            cur.expect(",")
            # size expressions usually refer to labels (.Lfunc_end0-add); evaluate later
            sym = self.symbols.setdefault(st.text, Symbol(st.text))
            expr_toks = rest[cur.pos :]
            # its syntax is checked here, as llvm-mc-19 parses it; its value only when
            # an object is written (any symbol may stand in it until then)
            cur.int_expr({k.text: 1 for k in expr_toks if k.kind == IDENT}, check_only=True)
            self._expect_end(cur)
            self._size_exprs.append((sym, expr_toks, lineno))
        elif name == ".amdgcn_target":
            st = cur.next()
            if st.kind != STRING:
                raise AsmError("expected target id string", st.col)
            tid = str(st.value)
            if not tid.split(":")[0].endswith(self.target.name):
                raise AsmError(f"target id '{tid}' does not match the specified target id "
                               f"'{self.target.target_id}'", st.col)
            self.amdgcn_target = tid
            self._echo(lineno, f'\t.amdgcn_target "{tid}"')
        elif name == ".amdhsa_code_object_version":
            v = cur.int_expr(self.equates)
            if v not in (4, 5, 6):
                raise AsmError("unsupported code object version", rest[0].col)
            self.cov = v
        elif name in (".set", ".equ", ".equiv"):
            st = cur.expect_ident()
            cur.expect(",")
            known = self.symbols.get(st.text)
            if known is not None and known.section is not None:  # a label (llvm-mc-19's words)
                raise AsmError(f"redefinition of '{st.text}'", cur.tok.col)
            self.equates[st.text] = cur.int_expr(self.equates)
        elif name in (".ident", ".file", ".addrsig", ".addrsig_sym", ".end", ".loc",
                      ".cfi_sections", ".cfi_startproc", ".cfi_endproc", ".amdgpu_lds"):
            pass
        elif name in (".comm", ".lcomm"):
            self._common(name, t, cur, lineno)
        elif name in (".warning", ".error"):  # as llvm-mc-19: a diagnostic at the directive
            msg = f"{name} directive invoked in source file"
            if not cur.at_end():
                st = cur.next()
                if st.kind != STRING:
                    raise AsmError(f"{name} argument must be a string", st.col)
                msg = str(st.value)
                self._expect_end(cur)
            src = self._lines[lineno - 1] if 0 < lineno <= len(self._lines) else ""
            self.diags.append(Diagnostic(self.filename, lineno, t.col, msg, src,
                                         "warning" if name == ".warning" else "error"))
        elif name == ".ascii" or name == ".asciz" or name == ".string":
            while True:
                st = cur.next()
                if st.kind != STRING:
                    raise AsmError("expected string", st.col)
                b = str(st.value).encode("latin-1")
                sec.data += b + (b"\0" if name != ".ascii" else b"")
                if not cur.accept(","):
                    break
        else:
            raise AsmError("unknown directive", t.col)

    def _common(self, name: str, t: Token, cur: Cursor, lineno: int) -> None:
        """`.comm SYM, SIZE[, ALIGN]` / `.lcomm SYM, SIZE`, read and checked as llvm-mc-19
        reads them (its words; ALIGN a log2 there, any value taken) and echoed. A common
        symbol lives in no section until a linker places it, and radcc writes linked code
        objects: an object with one is refused by name at the directive."""
        st = cur.tok
        if st.kind != IDENT:
            raise AsmError("expected identifier in directive", st.col)
        cur.next()
        if not cur.accept(","):
            raise AsmError("expected comma", cur.tok.col)
        size_col = cur.tok.col
        size = cur.int_expr(self.equates)
        align = 0
        if cur.tok.is_punct(","):
            cur.next()
            align_col = cur.tok.col
            align = cur.int_expr(self.equates)
            if name == ".lcomm":
                raise AsmError("alignment not supported on this target", align_col)
        self._expect_end(cur)
        if size < 0:
            raise AsmError("size must be non-negative", size_col)
        known = self.symbols.get(st.text)
        if known is not None and known.section is not None:
            raise AsmError("invalid symbol redefinition", st.col)
        self._echo(lineno, f"\t.comm\t{st.text},{size},{align}" if name == ".comm"
                   else f"\t.lcomm\t{st.text},{size}")
        src = self._lines[lineno - 1] if 0 < lineno <= len(self._lines) else ""
        self._object_errors.append(Diagnostic(
            self.filename, lineno, t.col,
            f"common symbols ({name}) are not supported: radcc writes linked code objects, "
            "which have no common symbols", src))

    def _absolute_value(self, toks: list[Token]) -> int | None:
        """The value of an expression of labels and equates after layout, or None where
        it has none. A label is an offset in its section: the value must not depend on
        where the sections are placed (a difference of labels of one section), so it is
        evaluated with the sections at two different places and both must agree
        (llvm-mc-19 dies of "Size expression must be absolute" otherwise)."""
        bases = {name: (i + 1) << 40 for i, name in enumerate(self.sections)}
        vals = {k: s.value for k, s in self.symbols.items() if s.section is not None}
        vals.update(self.equates)
        placed = {k: s.value + bases.get(s.section, 0) for k, s in self.symbols.items()
                  if s.section is not None}
        placed.update(self.equates)
        try:
            v = Cursor(toks).int_expr(vals)
            return v if Cursor(toks).int_expr(placed) == v else None
        except AsmError:  # an undefined symbol, a division by zero: no value
            return None

    def _resolve_late_values(self) -> None:
        """The `.amdhsa_` fields whose values name labels, now that the labels have their
        offsets: an absolute value (a difference of labels of one section) is checked as
        any other value; anything else is llvm-mc-19's "expected absolute expression"."""
        from radcc.codeobj import amdhsa

        for fields, fname, toks, ln, col in self._late_fields:
            v = self._absolute_value(toks)
            if v is None:
                self.error(ln, toks[0].col, "expected absolute expression")
                continue
            msg = amdhsa.check_field(fname, v, self.target)
            if msg:
                self.error(ln, col, msg)
                continue
            fields[fname] = v

    _size_exprs: list[tuple[Symbol, list[Token], int]]
    _late_fields: list[tuple[dict[str, int], str, list[Token], int, int]]
    _object_errors: list[Diagnostic]

    def _subsection(self, cur: Cursor) -> None:
        """The optional subsection number of `.text`/`.data`/`.rodata`/`.bss` (an
        absolute expression, as llvm-mc-19 reads it); radcc places everything in
        subsection 0, so another number is refused by name."""
        if cur.at_end():
            return
        col = cur.tok.col
        v = cur._expr({})
        if isinstance(v, tuple):
            raise AsmError("cannot evaluate subsection number", col)
        if not cur.at_end():
            # llvm-mc-19 steps over the one token after the number, whatever it is, and
            # reads what follows as another statement on the line
            cur.next()
            if not cur.at_end():
                bad = cur.tok
                if bad.kind == IDENT:
                    raise AsmError("a statement after a subsection number on the same line "
                                   "is not supported", bad.col)
                raise AsmError("unexpected token at start of statement", bad.col)
        if v != 0:
            raise AsmError(f"subsection {v}: subsections other than 0 are not supported", col)

    def _expect_end(self, cur: Cursor) -> None:
        if not cur.at_end():
            raise AsmError("unexpected token", cur.tok.col)

    def _switch(self, name: str, flags: str) -> None:
        sec = self.sections.get(name)
        if sec is None:
            sec = self.sections[name] = Section(name, flags=flags)
        self.cur = sec

    def _echo(self, lineno: int, text: str) -> None:
        self.statements.append(Statement("directive", self.cur.name, len(self.cur.data), lineno, text))

    def _kernel_block(self, toks: list[Token], lineno: int, i: int) -> int:
        from radcc.codeobj import amdhsa

        cur = Cursor(toks, 1)
        if cur.tok.kind != IDENT:
            self.error(lineno, cur.tok.col, "expected symbol name after .amdhsa_kernel")
        kname = cur.tok.text
        fields: dict[str, int] = {}
        start = lineno
        n = len(self._lines)
        while i < n:
            ln = i + 1
            line = self._lines[i]
            i += 1
            try:
                tk = tokenize(line)
            except AsmError as e:
                self.error(ln, e.col, e.message)
                continue
            if tk[0].kind == EOL:
                continue
            if tk[0].kind != IDENT:
                self.error(ln, tk[0].col, "expected .amdhsa_ directive or .end_amdhsa_kernel")
                continue
            d = tk[0].text
            if d == ".end_amdhsa_kernel":
                for req in ("next_free_vgpr", "next_free_sgpr"):  # llvm-mc-19's, in its order
                    if req not in fields:  # at the end of the line, as llvm-mc-19
                        self.error(ln, len(line.rstrip()) + 1,
                                   f".amdhsa_{req} directive is required")
                        break
                self.kernels.append(KernelBlock(kname, fields, start))
                return i
            if not d.startswith(".amdhsa_"):
                self.error(ln, tk[0].col, "expected .amdhsa_ directive or .end_amdhsa_kernel")
                continue
            fname = d[len(".amdhsa_"):]
            # a label in the value (`.Lend-k`): llvm-mc-19 evaluates it after layout, as
            # radcc does (`_resolve_late_values`); its syntax is checked here
            late = any(x.kind == IDENT and x.text not in self.equates for x in tk[1:])
            try:
                c = Cursor(tk, 1)
                c.directive = True
                v = c.int_expr({x.text: 1 for x in tk[1:] if x.kind == IDENT} | self.equates,
                               check_only=True) if late else c.int_expr(self.equates)
                self._expect_end(c)
            except AsmError as e:
                self.error(ln, e.col, e.message)
                continue
            if fname in fields:
                self.error(ln, tk[0].col, ".amdhsa_ directives cannot be repeated")
                continue
            if late:
                fields[fname] = 0  # (its value after layout)
                self._late_fields.append((fields, fname, tk[1:], ln, tk[0].col))
                continue
            msg = amdhsa.check_field(fname, v, self.target)
            if msg:
                self.error(ln, tk[0].col, msg)
                continue
            fields[fname] = v
        self.error(start, 1, "expected .end_amdhsa_kernel")
        return i

    def _metadata_block(self, lineno: int, i: int) -> int:
        body: list[str] = []
        n = len(self._lines)
        while i < n:
            line = self._lines[i]
            i += 1
            if line.strip() in (".end_amdgpu_metadata", ".end_amd_amdgpu_hsa_metadata"):
                self.metadata_yaml = "\n".join(body) + "\n"
                self._verify_metadata(self.metadata_yaml, lineno, i, len(line) + 1)
                return i
            body.append(line)
        self.error(lineno, 1, "expected directive .end_amdgpu_metadata not found")
        return i

    def _verify_metadata(self, text: str, start: int, lineno: int, col: int) -> None:
        """YAML errors at their line of the file (the reader numbers the block's lines
        from 1 after `start`, the `.amdgpu_metadata` line); then the value types LLVM's
        metadata verifier checks, reported where llvm-mc-19 reports them (the end of the
        `.end_amdgpu_metadata` line)."""
        import re

        from radcc.codeobj.errors import CodeObjectError
        from radcc.codeobj.metadata import parse_yaml, verify_metadata

        try:
            meta = parse_yaml(text)
        except CodeObjectError as e:
            m = re.match(r"line (\d+): (.*)", str(e), re.S)
            if m:  # else the CLI / object writer reports it unlocated
                self.error(start + int(m.group(1)), 1, f"metadata: {m.group(2)}")
            return
        problem = verify_metadata(meta)
        if problem:
            self.error(lineno, col, f"invalid HSA metadata ({problem})")

    # --- fixups -----------------------------------------------------------------
    def _resolve_fixups(self) -> None:
        for sec, off, f, lineno, _m in self._pending_fixups:
            line = self._lines[lineno - 1] if 0 < lineno <= len(self._lines) else ""
            at = len(line) - len(line.lstrip()) + 1  # the instruction's column (llvm-mc-19's)
            sym = self.symbols.get(f.symbol)
            if sym is None or sym.section is None:
                # an undefined branch target: llvm-mc-19 prints the branch with its fixup
                # (text, --filetype=null) and refuses an object with its words, here
                if f.kind == "sopp_br":
                    self._object_errors.append(Diagnostic(
                        self.filename, lineno, at, f"undefined label '{f.symbol}'", line))
                continue
            if f.kind == "sopp_br":
                if sym.section != sec.name:
                    self.error(lineno, at, "branch to a label in another section")
                    continue
                delta = sym.value + f.addend - (off + 4)
                if delta % 4:
                    self.error(lineno, at, "branch target is not dword aligned")
                    continue
                d = delta // 4
                if not -(1 << 15) <= d < (1 << 15):
                    self.error(lineno, 0, "branch size exceeds simm16")
                    continue
                p = off + f.offset
                sec.data[p : p + 2] = struct.pack("<h", d)
            elif f.kind == "pcrel32" and sym.section == sec.name:
                d = sym.value + f.addend - (off + f.offset)
                p = off + f.offset
                sec.data[p : p + 4] = (d & 0xFFFFFFFF).to_bytes(4, "little")
        # .size expressions
        for sym, toks, lineno in self._size_exprs:
            sym.size = self._absolute_value(toks)
            if sym.size is None:
                src = self._lines[lineno - 1] if 0 < lineno <= len(self._lines) else ""
                self._object_errors.append(Diagnostic(
                    self.filename, lineno, toks[0].col if toks else 0,
                    "size expression must be absolute (labels of one section)", src))


# Encoding a statement is a pure function of its text, the target and the wave
# size (symbols only enter through fixups, which are never memoized), so
# lines seen before are not parsed again. Compiler output repeats lines a lot.
_MEMO_LIMIT = 200_000
_MEMOS: dict[tuple[str, int], dict[str, tuple[bytes, str | None]]] = {}


def clear_memo() -> None:
    """Forget memoized statements (benchmarks measure cold runs with it)."""
    _MEMOS.clear()


def _line_memo(target: str, wave: int) -> dict[str, tuple[bytes, str | None]]:
    m = _MEMOS.get((target, wave))
    if m is None:
        m = _MEMOS[(target, wave)] = {}
    return m


def encoded_lines(target: Target, wave_size: int) -> Container[str]:
    """The lines `assemble` has encoded and memoized for `target` in wave `wave_size`: it
    encodes them again from the memo, without asking for their typed statements."""
    return _line_memo(target.name, wave_size)


def _canon_data(name: str) -> str:
    return {".4byte": ".long", ".int": ".long", ".2byte": ".short",
            ".value": ".short", ".8byte": ".quad"}.get(name, name)


def assemble(source: str | list[str], target: Target, filename: str = "<stdin>",
             wave_size: int | None = None,
             parsed: Callable[[int], ParsedInst | None] | None = None,
             texts: bool = True) -> AsmResult:
    """Assemble `source` for `target` (`parsed`, `texts`: see `Assembler.assemble`);
    errors are in `result.diagnostics`."""
    a = Assembler(target, filename, wave_size)
    a._size_exprs = []
    a._late_fields = []
    a._object_errors = []
    return a.assemble(source, parsed, texts)


def format_listing_line(text: str, data: bytes, fixups: list[Fixup]) -> str:
    """One ``--show-encoding`` line as llvm-mc prints it."""
    if not fixups:
        n = len(text)
        pad = " " * (40 - n) if n < 40 else " "
        return f"\t{text}{pad}; encoding: [{','.join([_HEX[b] for b in data])}]"
    enc = []
    fix_at: dict[int, str] = {}
    for idx, f in enumerate(fixups):
        letter = chr(ord("A") + idx)
        width = 2 if f.kind == "sopp_br" else 4
        for k in range(width):
            fix_at[f.offset + k] = letter
    for i, b in enumerate(data):
        enc.append(fix_at.get(i, f"0x{b:02x}"))
    line = _pad("\t" + text, 40) + f"; encoding: [{','.join(enc)}]"
    for idx, f in enumerate(fixups):
        letter = chr(ord("A") + idx)
        kind = {"sopp_br": "fixup_si_sopp_br", "pcrel32": "FK_PCRel_4", "abs32": "FK_Data_4"}[f.kind]
        value = f.symbol if not f.addend else f"{f.symbol}{f.addend:+d}"
        line += "\n" + " " * 40 + f";   fixup {letter} - offset: {f.offset}, value: {value}, kind: {kind}"
    return line


_HEX = [f"0x{b:02x}" for b in range(256)]


def _pad(s: str, col: int) -> str:
    # llvm-mc puts the comment 40 columns after the instruction's leading tab
    n = len(s.lstrip("\t"))
    return s + (" " * (col - n) if n < col else " ")




def _check_double_minus(inst: ParsedInst, cands: list[OpInfo]) -> None:
    """llvm-mc: in a VALU source slot that takes the neg modifier, an operand
    starting with two minus signs ("--2", "- -2") is an error ("invalid syntax,
    expected 'neg' modifier"); elsewhere it is the expression -(-2)."""
    toks = inst.tokens
    k = next((i for i in range(len(toks) - 1)
              if toks[i].text == "-" and toks[i + 1].text == "-" and toks[i].kind == PUNCT
              and toks[i + 1].kind == PUNCT), None)
    if k is None:
        return
    for idx, op in enumerate(inst.operands):
        j = next((i for i, t in enumerate(toks) if t.col == op.col), None)
        if j is None or not (toks[j].is_punct("-") and toks[j + 1].is_punct("-")):
            continue
        for info in cands:
            mods = info.extra.get("src_mods")
            if not isinstance(mods, list):
                continue
            nsrc = sum(1 for o in info.operands if not o.is_def)
            i = idx - (len(info.operands) - nsrc)
            if 0 <= i < len(mods) and mods[i].get("neg"):
                raise AsmError("invalid syntax, expected 'neg' modifier", op.col)


def _largest_float_col(inst: ParsedInst) -> int:
    """The column of the float operand of largest magnitude (the one too large for its
    operand's width: llvm-mc-19 reports it as an invalid operand there)."""
    ops = [o for i in (inst, inst.second) if i is not None for o in i.operands
           if o.kind == "float"]
    return max(ops, key=lambda o: abs(float(o.value)), default=None).col if ops else inst.col

