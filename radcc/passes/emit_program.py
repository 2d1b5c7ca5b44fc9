"""Emit program: machine IR after lower_to_hw → assembly text and machine code.

Source: ACO's README.md (Mesa src/amd/compiler) "Emit program - Assembler". Unlike ACO, radcc does not
re-encode instructions itself: each instruction is printed as LLVM AMDGPU
assembly (`radcc.passes.asm_text`) and assembled by radcc's own assembler
(`radcc.isa.assembler`, byte-for-byte llvm-mc), so there is one encoder.

`emit_program(program) -> EmitResult` guarantees:

- every block starts at ``block_offsets[block.index]`` (bytes from the start
  of the code); branches are resolved from those offsets;
- a branch whose offset does not fit the signed 16-bit dword field becomes
  a long jump, as ACO does::

      s_getpc_b64 s[N:N+1]               ; address of the next instruction
      s_add_u32 sN, sN, lo32(target - that address)
      s_addc_u32 sN+1, sN+1, hi32(...)
      s_setpc_b64 s[N:N+1]

  (a conditional branch first skips the sequence with the inverted
  condition). s[N:N+1] is the branch's definition if it has one (an s2 the
  register allocator reserved), else the first even SGPR pair above all
  SGPRs the program uses. The sequence clobbers SCC;
- after the code, padding as LLVM emits at the end of a kernel file:
  ``s_code_end`` up to an instruction cache line boundary plus 3 lines
  (instruction prefetch must not run into other data; lines of 128 bytes on
  GFX11, 64 on GFX10, `cache_line_log2`); `code_size` excludes it;
- then the program's constant data (``program.constant_data``, as ACO appends it
  after the code); the ``s_add_u32`` of each lowered ``p_constaddr k`` (lower_to_hw:
  ``fields['constaddr']``) gets the literal data + k - (its s_getpc_b64's offset + 4),
  so ``s_getpc_b64`` + ``s_add_u32``/``s_addc_u32`` give byte k's address (a literal
  of the same size as the placeholder, so the layout does not move);
- `asm` is the canonical text (as llvm-mc prints it) with ``BBn:`` labels; a run of
  labels with no instruction between them (empty blocks) is printed as its last label,
  which the branches to any of them name. It is made when first read (the assembler
  is asked for no texts: the instructions it had not seen are decoded then), as most
  compiles never show it;
- `EmitResult.sgprs/vgprs` are the registers the code touches (next free
  register numbers, counting the long-jump pair), `uses_vcc` whether VCC is;
- on a target with Offset3fBug (GFX10.1; ACO's README-ISA.md "Offset3fBug"):
  no branch is emitted with SIMM16 0x3f. Such a branch gets an ``s_nop 0``
  right after it (its offset becomes 0x40), and the layout is recomputed until
  no branch has 0x3f, as ACO's assembler (fix_branches_gfx10, "insert an s_nop
  after the branch") and LLVM's asm backend (the branch relaxed to branch +
  ``s_nop 0``) do. A forward offset only grows as nops are inserted, so each
  branch is padded at most once per crossing of 0x3f and the iteration ends.
  `EmitResult.offset3f_nops` counts the nops.

`emit_code_object(program, result, args)` wraps the code in an AMDHSA code
object v5 (descriptor from `radcc.passes.kernel_abi.kernel_fields`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from radcc.abi.kernarg import KernargLayout
from radcc.ir.program import Instruction, Program
from radcc.ir.regclass import VCC, VCC_HI, VGPR_BASE
from radcc.isa.assembler import Statement, assemble, encoded_lines
from radcc.isa.disassembler import decode_text
from radcc.isa.formats.base import Context
from radcc.isa.syntax import ParsedInst
from radcc.isa.table import get_table
from radcc.passes.asm_text import EmitError, instruction_line, instruction_parsed
from radcc.passes.kernel_abi import code_object, kernel_fields
from radcc.passes.lower_to_hw import CONSTADDR_PLACEHOLDER
from radcc.target import GfxLevel, Hazard, Target

__all__ = ["EmitError", "EmitResult", "cache_line_log2", "emit_code_object", "emit_program",
           "register_usage"]

S_CODE_END = 0xBF9F0000
CACHE_LINE_LOG2 = 7  # GFX11 instruction cache line: 128 bytes
PREFETCH_FILL = 3 * (1 << CACHE_LINE_LOG2)


def cache_line_log2(target: Target) -> int:
    """log2 of the instruction cache line LLVM pads kernel files to: 128 bytes on
    GFX11, 64 on GFX10/GFX10.3 (clang-19 -mcpu=gfx1010/gfx1030 ends a kernel file
    with ``.p2alignl 6`` and ``.fill 48, 4``; gfx1100 with ``.p2alignl 7``, ``.fill 96``)."""
    return CACHE_LINE_LOG2 if target.gfx_level >= GfxLevel.GFX11 else 6
_BRANCH_RANGE = (-(1 << 15), (1 << 15) - 1)
OFFSET_3F = 0x3F  # the SIMM16 GFX10.1 branches must not have (Offset3fBug)
_INVERSE = {"s_cbranch_scc0": "s_cbranch_scc1", "s_cbranch_scc1": "s_cbranch_scc0",
            "s_cbranch_vccz": "s_cbranch_vccnz", "s_cbranch_vccnz": "s_cbranch_vccz",
            "s_cbranch_execz": "s_cbranch_execnz", "s_cbranch_execnz": "s_cbranch_execz"}


@dataclass
class EmitResult:
    code: bytes  # machine code including the s_code_end padding, then the constant data
    block_offsets: dict[int, int]
    code_size: int  # bytes of code without padding
    sgprs: int  # next free SGPR (0 if none used)
    vgprs: int  # next free VGPR
    uses_vcc: bool
    long_jumps: int = 0
    offset3f_nops: int = 0
    # what makes `asm`, `instruction_offsets` and `asm_line_instrs` when first read (most
    # compiles read none of them), and the assembly `showing` gave, if any
    _listing: _Listing | None = field(default=None, repr=False, compare=False)
    _shown: str | None = field(default=None, repr=False, compare=False)

    def _made(self) -> _Listing:
        listing = self._listing
        assert listing is not None
        if listing.asm is None:
            listing.make()
        return listing

    @property
    def asm(self) -> str:
        """The canonical assembly of the code (without the padding): the instructions'
        texts are their bytes decoded (`decode_text`), as llvm-mc prints them."""
        if self._shown is not None:
            return self._shown
        asm = self._made().asm
        assert asm is not None
        return asm

    @property
    def instruction_offsets(self) -> list[tuple[int, int, int]]:
        """(block, index, byte offset) of each instruction of the program, in order."""
        return self._made().offsets

    @property
    def asm_line_instrs(self) -> list[tuple[int, int] | None]:
        """Per line of `asm`: the (block, index) of the instruction it comes from, or None
        (labels, Offset3fBug nops); a long jump's lines all name its branch."""
        return self._made().line_instrs

    def showing(self, asm: str) -> EmitResult:
        """This result with `asm` as its assembly (an annotated listing of the code)."""
        return replace(self, _shown=asm)


class _Listing:
    """The assembler's statements of the emitted lines (`_Line`), made into the listing
    (`make`) when `EmitResult` is first asked for it: the instructions the assembler
    did not know are decoded then."""

    __slots__ = ("statements", "lines", "target", "wave_size", "asm", "offsets",
                 "line_instrs")

    def __init__(self, statements: list[Statement], lines: list[_Line], target: Target,
                 wave_size: int) -> None:
        self.statements = statements
        self.lines = lines
        self.target = target
        self.wave_size = wave_size
        self.asm: str | None = None
        self.offsets: list[tuple[int, int, int]] = []
        self.line_instrs: list[tuple[int, int] | None] = []

    def make(self) -> None:
        ctx = Context(self.target, get_table(self.target.gfx_level), self.wave_size)
        lines = self.lines
        asm_lines: list[str] = []
        inst_offs: list[tuple[int, int, int]] = []
        line_instrs: list[tuple[int, int] | None] = []
        # the statements come in line order, one per line (a label or an instruction)
        label_run = False  # two labels in a row somewhere (an empty block)
        prev_label = False
        for s in self.statements:
            if s.kind == "label":
                asm_lines.append(f"{s.text}:")
                line_instrs.append(None)
                label_run |= prev_label
                prev_label = True
                continue
            if s.kind == "inst":
                prev_label = False
                text = s.text
                asm_lines.append("\t" + (text if text is not None else decode_text(s.data, ctx)))
                ln = lines[s.line - 1]
                if ln.block >= 0:
                    line_instrs.append((ln.block, ln.index))
                    inst_offs.append((ln.block, ln.index, s.offset))
                else:
                    line_instrs.append(None)
        if label_run:
            asm_lines, line_instrs = _merge_label_runs(asm_lines, line_instrs)
        self.asm = "\n".join(asm_lines) + "\n"
        self.offsets = inst_offs
        self.line_instrs = line_instrs
        self.statements = []
        self.lines = []


def register_usage(program: Program) -> tuple[int, int, bool]:
    """(next free SGPR, next free VGPR, uses VCC) over all operands/definitions."""
    sg, vg, vcc = 0, 0, False
    for b in program.blocks:
        for ins in b.instructions:
            for group in (ins.operands, ins.definitions):
                for x in group:
                    phys = x.phys
                    if phys is None:
                        continue
                    rc = x.rc
                    if rc is None:
                        continue
                    r = phys.reg
                    if r >= VGPR_BASE:
                        end = r + rc.size - VGPR_BASE
                        if end > vg:
                            vg = end
                    elif r < VCC:
                        end = r + rc.size
                        if end > sg:
                            sg = end
                    elif r == VCC or r == VCC_HI:
                        vcc = True
    return sg, vg, vcc


@dataclass(slots=True)
class _Line:
    text: str
    block: int = -1
    index: int = -1
    branch: Instruction | None = None
    long_part: int = 0  # 1 for the s_getpc_b64 line of a long jump
    # a lowered p_constaddr's s_add_u32: (its instruction, the line of its s_getpc_b64)
    constaddr: tuple[Instruction, int] | None = None
    # the instruction whose line `text` is, and its typed statement when the assembler
    # had not encoded the line before (`instruction_line`; `_Emitter.assemble` hands it
    # over once, and builds it from `instr` when asked again or when it is None)
    instr: Instruction | None = None
    parsed: ParsedInst | None = None


class _Emitter:
    def __init__(self, program: Program) -> None:
        self.p = program
        self.table = get_table(program.gfx_level)
        self.sgprs, self.vgprs, self.uses_vcc = register_usage(program)
        self.long: set[int] = set()  # id() of branch instructions expanded
        self.pair_for: dict[int, int] = {}
        self.long_pending = False
        self.offset3f = program.target.has_hazard(Hazard.Offset3fBug)
        self.pad3f: dict[int, int] = {}  # id() of a branch -> s_nop 0 lines after it
        self.constaddr: dict[int, int] = {}  # id() of a p_constaddr s_add_u32 -> literal
        # each instruction's line by (block, index), kept for the renders after the first
        # (a program with long jumps renders two or three times; an instruction's line
        # does not depend on the layout)
        self.rendered: dict[tuple[int, int], str] = {}
        # the lines the assembler encodes from its memo (their typed statements unused)
        self.known = encoded_lines(program.target, program.wave_size)
        self.lines: list[_Line] = []  # the lines `assemble` is assembling

    def label(self, b: int) -> str:
        return f"BB{b}"

    def scratch_pair(self, br: Instruction) -> int:
        for d in br.definitions:
            if d.phys is not None and d.rc is not None and d.rc.size == 2 \
                    and d.phys.reg < VGPR_BASE:
                return d.phys.reg
        reg = (self.sgprs + 1) & ~1
        if reg + 2 > VCC:
            raise EmitError("no SGPR pair left for a long jump")
        return reg

    def render(self, values: dict[int, tuple[int, int]]) -> list[_Line]:
        lines: list[_Line] = []
        rendered = self.rendered
        pad3f = self.pad3f
        long = self.long
        for blk in self.p.blocks:
            b = blk.index
            lines.append(_Line(f"{self.label(b)}:"))
            getpc: dict[int, int] = {}  # register -> line (1-based) of its p_constaddr getpc
            for k, ins in enumerate(blk.instructions):
                if long and id(ins) in long:
                    lines += self.long_jump(blk.index, k, ins, values.get(id(ins)))
                    continue
                fields = ins.fields
                if fields and fields.get("constaddr") is not None:
                    if ins.opcode == "s_getpc_b64":
                        reg = ins.definitions[0].phys
                        assert reg is not None
                        getpc[reg.reg] = len(lines) + 1
                    else:
                        lines.append(self.constaddr_add(blk.index, k, ins, getpc))
                        continue
                text = rendered.get((b, k))
                parsed = None
                if text is None:
                    text, parsed = instruction_line(ins, self.table, self.label, self.known)
                    rendered[b, k] = text
                br = ins if fields and fields.get("targets") and ins.format == "SOPP" else None
                lines.append(_Line(text, b, k, br, 0, None, ins, parsed))
                if pad3f:
                    lines += [_Line("s_nop 0")] * pad3f.get(id(ins), 0)
        return lines

    def constaddr_add(self, b: int, k: int, ins: Instruction, getpc: dict[int, int]) -> _Line:
        """The s_add_u32 of a lowered p_constaddr with its literal (the placeholder until
        the layout is known): paired with the s_getpc_b64 of its register in the block."""
        reg = ins.operands[0].phys
        if reg is None or reg.reg not in getpc:
            raise EmitError(f"emit_program: BB{b}: the s_add_u32 of a p_constaddr has no "
                            f"s_getpc_b64 of its register before it in the block")
        lit = self.constaddr.get(id(ins), CONSTADDR_PLACEHOLDER)
        return _Line(f"s_add_u32 s{reg.reg}, s{reg.reg}, 0x{lit:x}", b, k,
                     constaddr=(ins, getpc[reg.reg]))

    def long_jump(self, b: int, k: int, ins: Instruction,
                  value: tuple[int, int] | None) -> list[_Line]:
        n = self.scratch_pair(ins)
        self.pair_for[id(ins)] = n
        lo, hi = value if value is not None else (0x12345678, 0)
        out: list[_Line] = []
        skip = f"BB{b}_long{k}"
        if ins.opcode != "s_branch":
            out.append(_Line(f"{_INVERSE[ins.opcode]} {skip}", b, k))
        out += [_Line(f"s_getpc_b64 s[{n}:{n + 1}]", b, k, ins, 1),
                _Line(f"s_add_u32 s{n}, s{n}, 0x{lo & 0xFFFFFFFF:x}", b, k),
                _Line(f"s_addc_u32 s{n + 1}, s{n + 1}, {_signed32(hi)}", b, k),
                _Line(f"s_setpc_b64 s[{n}:{n + 1}]", b, k)]
        if ins.opcode != "s_branch":
            out.append(_Line(f"{skip}:"))
        return out

    def statement(self, k: int) -> ParsedInst | None:
        """Line k's typed statement, as the assembler asks for it (`assemble`: the lines
        being assembled are `self.lines`): the one `render` built, handed over once, else
        made from the line's instruction."""
        ln = self.lines[k]
        parsed = ln.parsed
        if parsed is not None:
            ln.parsed = None
            return parsed
        ins = ln.instr
        return instruction_parsed(ins, self.table, self.label)[1] if ins is not None else None

    def assemble(self, lines: list[_Line]):
        self.lines = lines
        res = assemble([ln.text for ln in lines], self.p.target, f"<{self.p.name}>",
                       self.p.wave_size, self.statement, texts=False)
        errors = [d for d in res.diagnostics if d.severity == "error"
                  and not (d.message == "branch size exceeds simm16" and self.long_pending)]
        if errors:
            msgs = "; ".join(f"{d.message} in '{lines[d.line - 1].text}'" for d in errors)
            raise EmitError(f"emit_program: assembler rejected the program: {msgs}")
        return res

    def run(self) -> EmitResult:
        values: dict[int, tuple[int, int]] = {}
        while True:
            lines = self.render(values)
            self.long_pending = True  # out-of-range branches are found below
            res = self.assemble(lines)
            self.long_pending = False
            labels = {s.name: s.value for s in res.symbols.values() if s.section == ".text"}
            offs = {s.line: s.offset for s in res.statements if s.kind == "inst"}
            grew = False
            new_values: dict[int, tuple[int, int]] = {}
            for i, ln in enumerate(lines, 1):
                if ln.branch is None:
                    continue
                target = labels[self.label(ln.branch.fields["targets"][0])]  # type: ignore[index]
                if ln.long_part:
                    delta = target - (offs[i] + 4)
                    new_values[id(ln.branch)] = (delta & 0xFFFFFFFF, delta >> 32)
                    continue
                d = (target - (offs[i] + 4)) // 4
                if not _BRANCH_RANGE[0] <= d <= _BRANCH_RANGE[1]:
                    self.long.add(id(ln.branch))
                    grew = True
                elif d == OFFSET_3F and self.offset3f:
                    self.pad3f[id(ln.branch)] = self.pad3f.get(id(ln.branch), 0) + 1
                    grew = True
            if grew:
                continue
            data = self.data_offset(len(res.text))
            new_const = {id(ln.constaddr[0]): (data + ln.constaddr[0].fields["constaddr"]
                                               - offs[ln.constaddr[1]] - 4) & 0xFFFFFFFF
                         for ln in lines if ln.constaddr is not None}
            if new_values != values or new_const != self.constaddr:
                values = new_values
                self.constaddr = new_const
                lines2 = self.render(values)
                res2 = self.assemble(lines2)
                assert len(res2.text) == len(res.text), "long-jump sizes changed"
                lines, res = lines2, res2
            break
        return self.result(lines, res)

    def data_offset(self, size: int) -> int:
        """Where the constant data starts: after the code's s_code_end padding."""
        line = 1 << cache_line_log2(self.p.target)
        return size + (-size) % line + 3 * line

    def result(self, lines: list[_Line], res) -> EmitResult:
        code = res.text
        size = len(code)
        block_offsets = {int(s.name[2:]): s.value for s in res.symbols.values()
                         if s.section == ".text" and s.name[2:].isdigit()
                         and s.name.startswith("BB")}
        pad = self.data_offset(size) - size
        code = code + S_CODE_END.to_bytes(4, "little") * (pad // 4) + self.p.constant_data
        sgprs = self.sgprs
        for n in self.pair_for.values():
            sgprs = max(sgprs, n + 2)
        return EmitResult(code, block_offsets, size, sgprs, self.vgprs, self.uses_vcc,
                          len(self.long), sum(self.pad3f.values()),
                          _Listing(res.statements, lines, self.p.target, self.p.wave_size))


_LABEL_REF = re.compile(r"\bBB\d+(?:_long\d+)?\b")


def _merge_label_runs(lines: list[str], instrs: list[tuple[int, int] | None]
                      ) -> tuple[list[str], list[tuple[int, int] | None]]:
    """A run of labels with no instruction between them (empty blocks) names one address:
    keep the run's last label and let the branches name it, so the text shows no empty
    blocks (the code is the same). `instrs` (each line's instruction) is kept in step."""
    alias: dict[str, str] = {}
    run: list[str] = []
    for text in [*lines, "\t"]:
        if text.endswith(":") and not text.startswith("\t"):
            run.append(text[:-1])
            continue
        for name in run[:-1]:
            alias[name] = run[-1]
        run = []
    if not alias:
        return lines, instrs
    out = []
    out_instrs = []
    for text, at in zip(lines, instrs, strict=True):
        if text.endswith(":") and not text.startswith("\t"):
            if text[:-1] not in alias:
                out.append(text)
                out_instrs.append(at)
        else:
            out.append(_LABEL_REF.sub(lambda m: alias.get(m[0], m[0]), text)
                       if "BB" in text else text)  # only branches name labels
            out_instrs.append(at)
    return out, out_instrs


def _signed32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


def emit_program(program: Program) -> EmitResult:
    """Assemble the (lowered) program; see the module docstring."""
    return _Emitter(program).run()


def kernel_descriptor_fields(program: Program, result: EmitResult) -> dict[str, int]:
    """The `.amdhsa_*` values of the program's kernel (docs/abi.md)."""
    return kernel_fields(program, result.sgprs, result.vgprs, result.uses_vcc)


def emit_code_object(program: Program, result: EmitResult,
                     args: KernargLayout | None = None) -> bytes:
    """The emitted program as an AMDHSA code object (kernel `program.name`); the
    metadata's kernel arguments are `args`, by default the program's
    (``program.args.kernargs``)."""
    return code_object(program, result.code, result.code_size,
                       kernel_descriptor_fields(program, result), args)
