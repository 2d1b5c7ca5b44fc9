"""The textual form of the machine IR (close to ACO's aco_print_ir output).

`print_program(p)` and `parse_program(text)` (parser.py) round-trip:
``print_program(parse_program(print_program(p))) == print_program(p)``.

Syntax (one item per line; blank lines and lines starting with ``//`` are
ignored by the parser)::

    program gfx1100 wave32 compute
    BB0
    /* logical preds: / linear preds: / kind: top-level, branch, */
       s2: %1:s[0-1], v1: %2:v[0] = p_startpgm
       p_logical_start
       v1: %3 = v_add_f32 %2, 0x3f800000
       s1: %4, s1: %5:scc = s_add_u32 (kill)%6, 4
       p_logical_end
       p_cbranch_z %5:scc BB2, BB1
    BB1
    /* logical preds: BB0, / linear preds: BB0, / kind: uniform, loop depth: 1, */

- header: ``program TARGET waveN STAGE [name:NAME]``.
- block: ``BBn`` then the ACO comment with logical and linear predecessors
  and the kind flags (plus ``loop depth: N,`` when non-zero). Successor
  lists are not printed: the parser derives them from the predecessors, in
  ascending block order.
- instruction: ``[defs =] opcode [operands] [targets] [fields]``.
  A definition is ``RC: [flags]%id[:REG]`` or, without a temp, ``RC: REG``.
  Definition flags: ``(precise)``, ``(kill)`` (defined but unused).
  An operand is ``[flags]%id[:REG]``, a constant, ``RC: undef[:REG]`` or a
  temp-less register ``RC: REG``. Operand flags: ``(latekill)``,
  ``(firstkill)``, ``(kill)``. A temp operand carries ``RC:`` only when
  the program has no definition of it (so the parser can type it).
- constants: decimal when the signed value is an inline integer (-16..64),
  else ``0x`` hex of the unsigned value; a width other than 32 bits gets a
  suffix ``_b64`` / ``_b16`` / ``_b8``.
- opcode: see `radcc.ir.opinfo` (natural format bare, ``_e32``/``_e64``,
  else ``@FORMAT``).
- targets (``fields["targets"]``): ``BB3`` or ``BB2, BB3`` after operands.
- fields (the format's `radcc.ir.fields` class; a name it lacks is a located
  error), in insertion order: ``key`` for True (False is omitted),
  ``key:N`` for ints, ``key:1.5`` floats, ``key:[0,1,0]`` for int/bool lists,
  ``key:word`` or ``key:"any text"`` for strings.
"""

from __future__ import annotations

import re

from radcc.ir.opinfo import spell_mnemonic
from radcc.ir.program import Block, Definition, Instruction, Operand, Program
from radcc.isa.table import OpcodeTable, get_table

INDENT = "   "
_WORD_RE = re.compile(r"[A-Za-z_][\w.]*")


def format_constant(value: int, nbytes: int) -> str:
    """ACO-like constant spelling (see module docstring)."""
    bits = nbytes * 8
    value &= (1 << bits) - 1
    signed = value - (1 << bits) if value >> (bits - 1) else value
    text = str(signed) if -16 <= signed <= 64 else hex(value)
    return text if nbytes == 4 else f"{text}_b{bits}"


def _reg_text(op: Operand | Definition) -> str:
    assert op.phys is not None
    return op.phys.text(op.rc)


def format_definition(d: Definition) -> str:
    rc = f"{d.rc}: " if d.rc is not None else ""
    flags = ("(precise)" if d.is_precise else "") + ("(kill)" if d.is_kill else "")
    if d.temp is None:
        return f"{rc}{flags}{_reg_text(d) if d.phys is not None else 'none'}"
    reg = f":{_reg_text(d)}" if d.phys is not None else ""
    return f"{rc}{flags}%{d.temp.id}{reg}"


def format_operand(o: Operand, annotate: bool = False) -> str:
    """One operand; `annotate` prints the register class of a temp operand."""
    if o.const is not None:
        return format_constant(o.const, o.const_bytes)
    flags = (("(latekill)" if o.is_late_kill else "") + ("(firstkill)" if o.is_first_kill else "")
             + ("(kill)" if o.is_kill else ""))
    rc = f"{o.rc}: " if o.rc is not None else ""
    if o.is_undef:
        return f"{rc}{flags}undef" + (f":{_reg_text(o)}" if o.phys is not None else "")
    if o.temp is None:
        return f"{rc}{flags}{_reg_text(o) if o.phys is not None else 'undef'}"
    reg = f":{_reg_text(o)}" if o.phys is not None else ""
    return f"{rc if annotate else ''}{flags}%{o.temp.id}{reg}"


def format_field(key: str, value: object) -> str | None:
    """``key``, ``key:value`` or None (a False flag is omitted)."""
    if value is True:
        return key
    if value is False or value is None:
        return None
    if isinstance(value, int):
        return f"{key}:{value}"
    if isinstance(value, float):
        return f"{key}:{value!r}"
    if isinstance(value, list | tuple):
        return f"{key}:[{','.join(str(int(v)) for v in value)}]"
    if isinstance(value, str) and _WORD_RE.fullmatch(value):
        return f"{key}:{value}"
    import json  # quoting a field that is no word: rare, not loaded by every compile

    return f"{key}:{json.dumps(str(value))}"


def format_instruction(instr: Instruction, table: OpcodeTable | None = None,
                       defined: set[int] | None = None) -> str:
    """One instruction without indentation. `defined`: ids that have a
    definition in the program (others get their register class printed)."""
    parts: list[str] = []
    if instr.definitions:
        parts.append(", ".join(format_definition(d) for d in instr.definitions) + " = ")
    if table is not None:
        parts.append(spell_mnemonic(table, instr.opcode, instr.format))
    else:
        parts.append(instr.opcode if instr.format == "PSEUDO" else f"{instr.opcode}@{instr.format}")
    if instr.operands:
        parts.append(" " + ", ".join(
            format_operand(o, defined is not None and o.temp is not None
                           and o.temp.id not in defined)
            for o in instr.operands))
    targets = instr.fields.get("targets")
    if targets:
        parts.append(" " + ", ".join(f"BB{t}" for t in targets))  # type: ignore[union-attr]
    for k, v in instr.fields.items():
        if k == "targets":
            continue
        f = format_field(k, v)
        if f is not None:
            parts.append(" " + f)
    return "".join(parts)


def format_block_header(block: Block) -> str:
    lp = "".join(f"BB{p}, " for p in block.logical_preds)
    np = "".join(f"BB{p}, " for p in block.linear_preds)
    kinds = "".join(f"{k}, " for k in block.kind.names())
    depth = f"loop depth: {block.loop_nest_depth}, " if block.loop_nest_depth else ""
    if block.uniform_if_depth:
        depth += f"uniform if depth: {block.uniform_if_depth}, "
    if block.divergent_if_logical_depth:
        depth += f"divergent if depth: {block.divergent_if_logical_depth}, "
    return (f"BB{block.index}\n/* logical preds: {lp}/ linear preds: {np}/ kind: {kinds}"
            f"{depth}*/")


def defined_temps(program: Program) -> set[int]:
    return {d.temp.id for b in program.blocks for i in b.instructions
            for d in i.definitions if d.temp is not None}


def print_program(program: Program) -> str:
    """The whole program as text (ends with a newline)."""
    table = get_table(program.gfx_level)
    defined = defined_temps(program)
    name = f" name:{program.name}" if program.name != "main" else ""
    lines = [f"program {program.target.name} wave{program.wave_size} {program.stage.text}{name}"]
    for b in program.blocks:
        lines.append(format_block_header(b))
        lines.extend(INDENT + format_instruction(i, table, defined) for i in b.instructions)
    return "\n".join(lines) + "\n"


def instruction_text(program: Program | None, instr: Instruction) -> str:
    """Text of one instruction for error messages."""
    table = get_table(program.gfx_level) if program is not None else None
    try:
        return format_instruction(instr, table)
    except Exception:  # noqa: BLE001 - messages must not fail on broken IR
        return repr(instr)


class InstructionText:
    """`instruction_text` of an instruction, rendered only when `str()` asks (for
    error messages that are built on the common path but seldom raised)."""

    __slots__ = ("program", "instr")

    def __init__(self, program: Program | None, instr: Instruction) -> None:
        self.program = program
        self.instr = instr

    def __str__(self) -> str:
        return instruction_text(self.program, self.instr)


__all__ = ["InstructionText", "defined_temps", "format_block_header", "format_constant",
           "format_definition", "format_field", "format_instruction", "format_operand",
           "instruction_text", "print_program"]
