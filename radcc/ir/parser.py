"""Parser of the textual machine IR written by `radcc.ir.printer`.

`parse_program(text, filename="<ir>") -> Program`. The syntax is described
in printer.py. Errors raise `IRParseError` (``file:line:col: error: msg``,
1-based line and column of the offending token).

Temps are typed by their definition; a temp that is used but never defined
must carry its class (``v1: %5``). `Program.temp_rc` is sized to the
largest id so that `Program.allocate_temp` continues after it. Successor
lists are derived from the predecessor lists (ascending block order).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from radcc.abi.stage import StageError, parse_stage
from radcc.ir.opinfo import op_info, resolve_mnemonic
from radcc.ir.program import Block, BlockKind, Definition, Instruction, Operand, Program
from radcc.ir.pseudo import PSEUDO
from radcc.ir.regclass import PhysReg, RegClass, Temp
from radcc.isa.table import OpcodeTable, get_table
from radcc.target import get_target


class IRParseError(ValueError):
    """A syntax error in IR text, with its position."""

    def __init__(self, message: str, line: int, col: int, filename: str = "<ir>") -> None:
        super().__init__(f"{filename}:{line}:{col}: error: {message}")
        self.message = message
        self.line = line
        self.col = col
        self.filename = filename


_TOKEN_RE = re.compile(r"""
    (?P<ws>\s+)
  | (?P<copen>/\*) | (?P<cclose>\*/)
  | (?P<reg>[sv]\[\d+(?:-\d+)?\](?:\[\d+:\d+\])?)
  | (?P<temp>%\d+)
  | (?P<flag>\((?:kill|latekill|firstkill|precise)\))
  | (?P<num>-?(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d+(?:[eE][-+]?\d+)?)?)(?:_b\d+)?)
  | (?P<str>"(?:[^"\\]|\\.)*")
  | (?P<word>[A-Za-z_][\w.@]*(?:-[A-Za-z_][\w.]*)*)
  | (?P<punct>[:,=/\[\]])
""", re.VERBOSE)

NAMED_REGS = frozenset({"vcc", "vcc_lo", "vcc_hi", "exec", "exec_lo", "exec_hi", "m0", "scc",
                        "null"})
_KIND_BY_NAME = {k.name.lower().replace("_", "-"): k for k in BlockKind if k and k.name}


def _at_if_depth(ln: _Line) -> bool:
    """At ``uniform if depth:`` (not the block kind ``uniform``)."""
    nxt = ln.peek(1)
    return nxt is not None and nxt.text == "if"


def _depth(ln: _Line, what: str) -> int:
    """``depth: N,`` of a block header comment."""
    ln.expect("depth")
    ln.expect(":")
    d = ln.next(what)
    if d.kind != "num" or not d.text.isdigit():
        raise ln.err(f"expected {what}", d)
    ln.expect(",")
    return int(d.text)
_BB_RE = re.compile(r"BB(\d+)")
_RC_RE = re.compile(r"l?[sv]\d+b?")
# instructions after which a block has nothing more (besides the pseudo branches)
_FINAL = frozenset({"s_endpgm", "s_endpgm_saved", "s_branch", "s_setpc_b64", "s_code_end"})


@dataclass(slots=True)
class Tok:
    kind: str
    text: str
    col: int


class _Line:
    """Tokens of one line with a cursor."""

    def __init__(self, parser: _Parser, text: str, lineno: int) -> None:
        self.p = parser
        self.lineno = lineno
        self.toks: list[Tok] = []
        pos = 0
        while pos < len(text):
            m = _TOKEN_RE.match(text, pos)
            if m is None:
                c = text[pos]
                what = (f"byte {ord(c) - 0xDC00:#04x} (not UTF-8)" if 0xDC80 <= ord(c) <= 0xDCFF
                        else f"character {c!r}")
                raise parser.error(f"unexpected {what}", lineno, pos + 1)
            if m.lastgroup != "ws":
                self.toks.append(Tok(m.lastgroup or "", m.group(), pos + 1))
            pos = m.end()
        self.i = 0
        self.end_col = len(text) + 1

    def peek(self, k: int = 0) -> Tok | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def next(self, what: str = "token") -> Tok:
        t = self.peek()
        if t is None:
            raise self.err(f"expected {what}, found end of line")
        self.i += 1
        return t

    def at_end(self) -> bool:
        return self.i >= len(self.toks)

    def accept(self, text: str) -> bool:
        t = self.peek()
        if t is not None and t.text == text and t.kind in ("punct", "word", "copen", "cclose"):
            self.i += 1
            return True
        return False

    def expect(self, text: str) -> Tok:
        t = self.peek()
        if t is None or t.text != text:
            raise self.err(f"expected '{text}'", t)
        self.i += 1
        return t

    def err(self, msg: str, tok: Tok | None = None) -> IRParseError:
        if tok is None:
            tok = self.peek()
        col = tok.col if tok is not None else self.end_col
        if tok is None and "found" not in msg:
            msg += ", found end of line"
        elif tok is not None and "found" not in msg and f"'{tok.text}'" not in msg:
            msg += f", found '{tok.text}'"
        return self.p.error(msg, self.lineno, col)


@dataclass(slots=True)
class _Use:
    operand: Operand
    lineno: int
    col: int
    rc: RegClass | None  # annotated class


class _Parser:
    def __init__(self, text: str, filename: str, complete: bool = False) -> None:
        self.complete = complete
        self.text = text
        self.filename = filename
        self.def_rc: dict[int, RegClass] = {}
        self.uses: list[_Use] = []
        self.defs: list[tuple[Definition, int]] = []
        self.table: OpcodeTable | None = None  # the header's generation (parse_header)

    def error(self, msg: str, line: int, col: int) -> IRParseError:
        return IRParseError(msg, line, col, self.filename)

    # -- pieces ---------------------------------------------------------
    def parse_rc(self, ln: _Line) -> RegClass:
        t = ln.next("register class")
        try:
            return RegClass.parse(t.text)
        except ValueError:
            raise ln.err("expected register class", t) from None

    def parse_reg(self, ln: _Line, rc: RegClass | None) -> PhysReg:
        t = ln.next("register")
        if t.kind == "reg" or (t.kind == "word" and t.text in NAMED_REGS):
            reg, size = PhysReg.parse(t.text)
            if t.kind == "reg" and (size is None or size < 1):
                raise ln.err(f"register range {t.text} is empty", t)
            if t.kind == "reg" and t.text[0] == "s" and reg.reg + size > 128:
                raise ln.err(f"register {t.text} is out of range (SGPRs are s[0]..s[127])", t)
            if t.kind == "reg" and rc is not None and size != rc.size:
                raise ln.err(f"register {t.text} does not hold a {rc}", t)
            return reg
        raise ln.err("expected register", t)

    def is_reg_tok(self, t: Tok | None) -> bool:
        return t is not None and (t.kind == "reg" or (t.kind == "word" and t.text in NAMED_REGS))

    def parse_flags(self, ln: _Line) -> set[str]:
        flags: set[str] = set()
        while (t := ln.peek()) is not None and t.kind == "flag":
            flags.add(t.text[1:-1])
            ln.i += 1
        return flags

    def parse_definition(self, ln: _Line) -> Definition:
        rc = self.parse_rc(ln)
        ln.expect(":")
        flags = self.parse_flags(ln)
        bad = flags - {"kill", "precise"}
        if bad:
            raise ln.err(f"flag ({bad.pop()}) is not allowed on a definition", ln.toks[ln.i - 1])
        t = ln.peek()
        if t is not None and t.kind == "temp":
            ln.i += 1
            tid = int(t.text[1:])
            if tid == 0:
                raise ln.err("temp id 0 is reserved", t)
            d = Definition(Temp(tid, rc))
            if tid in self.def_rc and self.def_rc[tid] != rc:
                raise ln.err(f"%{tid} redefined with class {rc} (was {self.def_rc[tid]})", t)
            self.def_rc.setdefault(tid, rc)
            self.defs.append((d, ln.lineno))
            if ln.accept(":"):
                d.phys = self.parse_reg(ln, rc)
        elif self.is_reg_tok(t):
            d = Definition.fixed(self.parse_reg(ln, rc), rc)
        else:
            raise ln.err("expected temp or register")
        d.is_kill = "kill" in flags
        d.is_precise = "precise" in flags
        return d

    def parse_constant(self, ln: _Line, t: Tok) -> Operand:
        text = t.text
        nbytes = 4
        if "_b" in text:
            text, bits_s = text.split("_b")
            if bits_s not in ("8", "16", "32", "64"):
                raise ln.err(f"invalid constant width {bits_s}", t)
            nbytes = int(bits_s) // 8
        if "." in text or "e" in text.lower() and not text.lower().startswith(("0x", "-0x")):
            raise ln.err("float constants are written as their bit pattern (0x...)", t)
        try:
            value = int(text, 0)
        except ValueError:  # '01': a leading zero is not a number in the IR
            raise ln.err(f"invalid constant '{t.text}'", t) from None
        bits = nbytes * 8
        if not -(1 << (bits - 1)) <= value < (1 << bits):
            raise ln.err(f"constant {t.text} does not fit in {bits} bits", t)
        return Operand(const=value & ((1 << bits) - 1), const_bytes=nbytes)

    def operand_starts(self, ln: _Line) -> bool:
        t = ln.peek()
        if t is None:
            return False
        if t.kind in ("temp", "flag", "num"):
            return True
        if t.kind == "word":
            if t.text == "undef":
                return True
            nxt = ln.peek(1)
            return bool(_RC_RE.fullmatch(t.text)) and nxt is not None and nxt.text == ":"
        return False

    def parse_operand(self, ln: _Line) -> Operand:
        t = ln.peek()
        assert t is not None
        if t.kind == "num":
            ln.i += 1
            return self.parse_constant(ln, t)
        rc: RegClass | None = None
        if t.kind == "word" and t.text != "undef":
            rc = self.parse_rc(ln)
            ln.expect(":")
        flags = self.parse_flags(ln)
        t = ln.next("operand")
        if t.kind == "temp":
            tid = int(t.text[1:])
            if tid == 0:
                raise ln.err("temp id 0 is reserved", t)
            # the class of an unannotated use is filled in by finish()
            op = Operand(Temp(tid, rc if rc is not None else RegClass.parse("s1")))
            self.uses.append(_Use(op, ln.lineno, t.col, rc))
            if ln.accept(":"):
                op.phys = self.parse_reg(ln, rc)
        elif t.kind == "word" and t.text == "undef":
            op = Operand(rc=rc, undef=True)
            if ln.accept(":"):
                op.phys = self.parse_reg(ln, rc)
        elif self.is_reg_tok(t):
            if rc is None:
                raise ln.err("a register operand needs its class (e.g. 's1: exec')", t)
            ln.i -= 1
            op = Operand.fixed(self.parse_reg(ln, rc), rc)
        else:
            raise ln.err("expected operand", t)
        op.is_kill = "kill" in flags
        op.is_late_kill = "latekill" in flags
        op.is_first_kill = "firstkill" in flags
        if "precise" in flags:
            raise ln.err("flag (precise) is not allowed on an operand")
        return op

    def parse_field_value(self, ln: _Line) -> object:
        t = ln.next("field value")
        if t.kind == "num":
            if "_b" in t.text:
                raise ln.err("a field value has no width suffix", t)
            if "." in t.text or ("e" in t.text.lower() and "x" not in t.text.lower()):
                return float(t.text)
            return int(t.text, 0)
        if t.kind == "word":
            return t.text
        if t.kind == "str":
            return json.loads(t.text)
        if t.text == "[":
            vals: list[int] = []
            if ln.accept("]"):
                return vals
            while True:
                v = ln.next("number")
                if v.kind != "num" or "_b" in v.text or "." in v.text:
                    raise ln.err("expected integer in list", v)
                vals.append(int(v.text, 0))
                if ln.accept("]"):
                    return vals
                ln.expect(",")
        raise ln.err("expected field value", t)

    def is_branch(self, instr: Instruction) -> bool:
        """A pseudo branch (p_branch, p_cbranch_*) or a hardware one (s_branch, s_cbranch_*)."""
        if instr.format == "PSEUDO":
            info = PSEUDO.get(instr.opcode)
            return info is not None and info.is_branch
        info = op_info(self.table, instr.opcode, instr.format)
        return info is not None and info.cls == "branch"

    def ends_block(self, instr: Instruction) -> bool:
        """Nothing may follow it in its block: a pseudo branch (all its targets are
        listed), an unconditional hardware branch, or the end of the program."""
        op = instr.opcode
        return (instr.format == "PSEUDO" and self.is_branch(instr)) or op in _FINAL

    # -- lines ----------------------------------------------------------
    def parse_instruction(self, ln: _Line) -> Instruction:
        table = self.table
        assert table is not None, "instructions come after the header (parse_program)"
        defs: list[Definition] = []
        t0, t1 = ln.peek(), ln.peek(1)
        if any(t.text == "=" and t.kind == "punct" for t in ln.toks) or (
                t0 is not None and t1 is not None and _RC_RE.fullmatch(t0.text)
                and t1.text == ":"):
            while True:
                defs.append(self.parse_definition(ln))
                if ln.accept("="):
                    break
                if not ln.accept(","):
                    raise ln.err("expected ',' or '='")
        t = ln.next("opcode")
        if t.kind != "word":
            raise ln.err("expected opcode", t)
        try:
            opcode, fmt = resolve_mnemonic(table, t.text)
        except KeyError as e:
            raise ln.err(str(e.args[0]), t) from None
        instr = Instruction(opcode, fmt, definitions=defs)
        if self.operand_starts(ln):
            while True:
                instr.operands.append(self.parse_operand(ln))
                if not ln.accept(","):
                    break
                if not self.operand_starts(ln):
                    raise ln.err("expected operand")
        targets: list[int] = []
        first_target = ln.i
        while (t := ln.peek()) is not None and t.kind == "word" and _BB_RE.fullmatch(t.text):
            ln.i += 1
            targets.append(int(t.text[2:]))
            if not ln.accept(","):
                break
        if targets:
            if not self.is_branch(instr):
                raise ln.err(f"{instr.opcode} is not a branch: it takes no targets",
                             ln.toks[first_target])
            instr.fields["targets"] = targets
        if instr.format == "PSEUDO" and self.is_branch(instr) and not ln.at_end():
            raise ln.err(f"unexpected token after the targets of {instr.opcode}")
        while not ln.at_end():
            t = ln.next()
            if t.kind != "word" or _RC_RE.fullmatch(t.text) and (n := ln.peek()) and n.text == ":":
                raise ln.err("expected field (key or key:value)", t)
            if t.text in NAMED_REGS:
                raise ln.err("expected field; a register operand needs its class "
                             f"(e.g. 's1: {t.text}')", t)
            if t.text in instr.fields.keys():
                raise ln.err(f"field '{t.text}' given twice", t)
            if t.text not in instr.fields.NAMES:
                raise ln.err(f"unknown field '{t.text}' for {instr.format}", t)
            instr.fields[t.text] = self.parse_field_value(ln) if ln.accept(":") else True
        return instr

    def parse_header(self, ln: _Line) -> Program:
        ln.expect("program")
        t = ln.next("target name")
        try:
            target = get_target(t.text)
        except ValueError as e:
            raise ln.err(str(e), t) from None
        w = ln.next("wave size")
        if w.text not in ("wave32", "wave64"):
            raise ln.err("expected wave32 or wave64", w)
        stage = ln.next("stage")
        if stage.kind != "word":
            raise ln.err("expected stage", stage)
        try:
            st = parse_stage(stage.text)
        except StageError as e:
            raise ln.err(str(e), stage) from None
        if not st.supported_on(target.gfx_level):
            raise ln.err(f"stage {st.name} does not exist on {target.name} "
                         f"({target.gfx_level.name})", stage)
        program = Program(target, wave_size=int(w.text[4:]), stage=st)
        if ln.accept("name"):
            ln.expect(":")
            program.name = ln.next("name").text
        if not ln.at_end():
            raise ln.err("unexpected token")
        self.table = get_table(target.gfx_level)
        return program

    def parse_bb_list(self, ln: _Line) -> list[int]:
        out: list[int] = []
        while (t := ln.peek()) is not None and t.kind == "word" and _BB_RE.fullmatch(t.text):
            ln.i += 1
            out.append(int(t.text[2:]))
            ln.expect(",")
        return out

    def parse_block_comment(self, ln: _Line, block: Block) -> None:
        ln.expect("/*")
        ln.expect("logical")
        ln.expect("preds")
        ln.expect(":")
        block.logical_preds = self.parse_bb_list(ln)
        ln.expect("/")
        ln.expect("linear")
        ln.expect("preds")
        ln.expect(":")
        block.linear_preds = self.parse_bb_list(ln)
        if ln.accept("/"):
            ln.expect("kind")
            ln.expect(":")
            while ((t := ln.peek()) is not None and t.kind == "word" and t.text not in
                   ("loop", "divergent") and not _at_if_depth(ln)):
                ln.i += 1
                k = _KIND_BY_NAME.get(t.text)
                if k is None:
                    raise ln.err(f"unknown block kind '{t.text}'", t)
                block.kind |= k
                ln.expect(",")
            if ln.accept("loop"):
                block.loop_nest_depth = _depth(ln, "loop depth")
            if ln.accept("uniform"):
                ln.expect("if")
                block.uniform_if_depth = _depth(ln, "uniform if depth")
            if ln.accept("divergent"):
                ln.expect("if")
                block.divergent_if_logical_depth = _depth(ln, "divergent if depth")
        ln.expect("*/")
        if not ln.at_end():
            raise ln.err("unexpected token after block comment")

    def parse(self) -> Program:
        program: Program | None = None
        block: Block | None = None
        expect_comment = False
        ended: dict[int, tuple[str, int]] = {}  # block -> (final instruction, line)
        headers: dict[int, int] = {}  # block -> line of its BBn
        last_line: dict[int, int] = {}  # block -> line of its last instruction
        lines = self.text.split("\n")
        for lineno, raw in enumerate(lines, 1):
            if raw.lstrip().startswith("//"):
                continue  # a comment line
            ln = _Line(self, raw, lineno)
            if ln.at_end():
                continue
            first = ln.toks[0]
            if program is None:
                if first.text != "program":
                    raise ln.err("expected 'program TARGET waveN STAGE' header", first)
                program = self.parse_header(ln)
                continue
            if first.kind == "copen":
                if not expect_comment or block is None:
                    raise ln.err("block comment outside a block header", first)
                self.parse_block_comment(ln, block)
                expect_comment = False
                continue
            expect_comment = False
            if first.kind == "word" and _BB_RE.fullmatch(first.text) and len(ln.toks) == 1:
                idx = int(first.text[2:])
                if idx != len(program.blocks):
                    raise ln.err(f"expected BB{len(program.blocks)}", first)
                block = program.create_block()
                headers[block.index] = lineno
                expect_comment = True
                continue
            if block is None:
                raise ln.err("instruction outside a block", first)
            instr = self.parse_instruction(ln)
            if block.instructions and block.index in ended:
                last, at = ended[block.index]
                raise ln.err(f"BB{block.index} already ended with {last} at line {at}: "
                             "nothing may follow it", first)
            if block.instructions and self.is_branch(block.instructions[-1]) and \
                    not self.is_branch(instr):
                raise ln.err(f"BB{block.index}: {instr.opcode} after the branch "
                             f"{block.instructions[-1].opcode}", first)
            block.instructions.append(instr)
            if self.ends_block(instr):
                ended[block.index] = (instr.opcode, lineno)
            last_line[block.index] = lineno
        if program is None:
            raise self.error("empty input: expected 'program' header", len(lines), 1)
        if self.complete and not program.blocks:
            raise self.error("a program without blocks (expected BB0)", len(lines), 1)
        self.finish(program)
        if self.complete:
            self.check_terminators(program, headers, last_line)
        return program

    def check_terminators(self, program: Program, headers: dict[int, int],
                          last_line: dict[int, int]) -> None:
        """A whole program (what `radcc llc` compiles): a block that does not end with a
        branch or s_endpgm falls through to the next block, which must then be its only
        linear successor (lowered IR); the last block cannot fall through."""
        n = len(program.blocks)
        for b in program.blocks:
            if b.instructions and (self.is_branch(b.instructions[-1])
                                   or b.instructions[-1].opcode in _FINAL):
                continue
            line = last_line.get(b.index, headers[b.index])
            if b.index == n - 1:
                raise self.error(f"BB{b.index}, the last block, has no terminator (it must "
                                 "end with s_endpgm or a branch)", line, 1)
            if b.linear_succs != [b.index + 1]:
                raise self.error(f"BB{b.index} has no terminator and does not fall through "
                                 f"to BB{b.index + 1} (its linear successors: "
                                 f"{', '.join(f'BB{x}' for x in b.linear_succs) or 'none'})",
                                 line, 1)

    def finish(self, program: Program) -> None:
        n = len(program.blocks)
        for b in program.blocks:
            for preds, succs in ((b.logical_preds, "logical_succs"),
                                 (b.linear_preds, "linear_succs")):
                for p in preds:
                    if not 0 <= p < n:
                        raise self.error(f"BB{b.index}: predecessor BB{p} does not exist",
                                         1, 1)
                    getattr(program.blocks[p], succs).append(b.index)
        for b in program.blocks:
            b.logical_succs.sort()
            b.linear_succs.sort()
        known = dict(self.def_rc)
        for u in self.uses:
            tid = u.operand.temp_id
            if u.rc is not None:
                if tid in self.def_rc and self.def_rc[tid] != u.rc:
                    raise self.error(f"%{tid} is a {self.def_rc[tid]}, not a {u.rc}",
                                     u.lineno, u.col)
                known.setdefault(tid, u.rc)
        for u in self.uses:
            tid = u.operand.temp_id
            rc = known.get(tid)
            if rc is None:
                raise self.error(f"%{tid} is never defined: give its class (e.g. 'v1: %{tid}')",
                                 u.lineno, u.col)
            u.operand.temp = Temp(tid, rc)
            u.operand.rc = rc
        max_id = max(known, default=0)
        program.temp_rc = [known.get(i) for i in range(max_id + 1)]
        program.temp_rc[0] = None


def parse_program(text: str, filename: str = "<ir>", complete: bool = False) -> Program:
    """Parse IR text (see printer.py for the syntax). `complete`: the text is a whole
    program to compile (`radcc llc`): at least one block, each ending with a branch or
    ``s_endpgm`` (fragments for tests need neither)."""
    return _Parser(text, filename, complete).parse()
