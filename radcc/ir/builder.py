"""Builder: write machine IR from Python (tests, instruction selection).

A `Builder` has an insertion point (a block and an index; by default the
end of the block) and appends instructions there, advancing past them::

    b = Builder(program, program.create_block(BlockKind.TOP_LEVEL))
    x = b.vop2("v_add_f32", v1, a, 1.0)            # -> Result; x.temp is the v1
    s = b.sop2("s_add_u32", s1, y, 4)               # scc def added: s[1] is it
    vec = b.create_vector(v2, x, b.c32(0))
    b.branch(3)

Arguments convert as in ACO's builder:

- definitions: a `RegClass` (a new temp), a `Temp`, a `Definition`, or
  ``(RegClass | Temp, PhysReg)`` for a fixed definition;
- operands: a `Temp`, a `Result` (its first definition), an `Operand`, an
  ``int`` (32-bit constant), a ``float`` (its f32 bit pattern), or
  ``(Temp | Result, PhysReg)`` for a fixed operand.

Temps come from `Program.allocate_temp`. Formats default to the opcode's
natural encoding (`radcc.ir.opinfo.natural_format`). For SALU instructions
whose table entry writes SCC implicitly, `sop1/sop2/sopc/sopk` append an
``s1`` definition fixed to scc (as ACO writes it) unless `scc=False`; VOPC
and VOP2 carry-out/-in slots (table kind 'special') are fixed to vcc.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from radcc.ir.fields import make_fields
from radcc.ir.opinfo import E64_FORMATS, PSEUDO_FORMAT, natural_format, op_info, operand_slots
from radcc.ir.program import Block, Definition, Instruction, Operand, Program
from radcc.ir.pseudo import PSEUDO
from radcc.ir.regclass import SCC, VCC, PhysReg, RegClass, Temp, s1
from radcc.isa.table import OpcodeTable, OpInfo, get_table


def _vcc_slots(info: OpInfo) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The positions of a table entry's definition and operand slots fixed to VCC
    (``special`` slots whose register is ``vcc...``): `Builder._fix_special` gives them
    VCC when the instruction leaves them open."""
    dspecs, ospecs = operand_slots(info)
    return (tuple(k for k, spec in enumerate(dspecs)
                  if spec.kind == "special" and spec.fixed.startswith("vcc")),
            tuple(k for k, spec in enumerate(ospecs)
                  if spec.kind == "special" and spec.fixed.startswith("vcc")))


# `_vcc_slots` by table entry (`OpInfo.uid`)
_VCC_SLOTS: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}


class AbsentOpcodeError(LookupError):
    """The program's generation has no such instruction (or not in that encoding)."""

    def __init__(self, opcode: str, fmt: str | None, program: Program) -> None:
        t = program.target
        enc = f" in {fmt} encoding" if fmt else ""
        self.opcode = opcode
        self.message = f"{opcode}{enc} does not exist on {t.name} ({t.gfx_level.name})"
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class Result:
    """What a builder call returns: the instruction and its definitions."""

    instr: Instruction

    @property
    def temp(self) -> Temp:
        t = self.instr.definitions[0].temp
        assert t is not None, "first definition has no temp"
        return t

    def __getitem__(self, i: int) -> Temp:
        t = self.instr.definitions[i].temp
        assert t is not None, f"definition {i} has no temp"
        return t

    @property
    def temps(self) -> list[Temp]:
        return [d.temp for d in self.instr.definitions if d.temp is not None]


DefArg = RegClass | Temp | Definition | tuple
OpArg = Temp | Result | Operand | int | float | tuple


class Builder:
    def __init__(self, program: Program, block: Block | None = None,
                 index: int | None = None) -> None:
        self.program = program
        self.table: OpcodeTable = get_table(program.gfx_level)
        self.block: Block | None = None
        self.index: int | None = None
        self.line = 0  # the source line `insert` gives instructions (0: none)
        if block is not None:
            self.set_insert_point(block, index)

    # -- insertion point ------------------------------------------------
    def set_insert_point(self, block: Block, index: int | None = None) -> None:
        """Insert before `index` (None: append at the end of `block`)."""
        self.block = block
        self.index = index

    def at_end(self, block: Block) -> Builder:
        self.set_insert_point(block, None)
        return self

    def before(self, instr: Instruction, block: Block | None = None) -> Builder:
        blk = block or self.block
        assert blk is not None
        self.set_insert_point(blk, _index_of(blk, instr))
        return self

    def after(self, instr: Instruction, block: Block | None = None) -> Builder:
        blk = block or self.block
        assert blk is not None
        self.set_insert_point(blk, _index_of(blk, instr) + 1)
        return self

    def insert(self, instr: Instruction) -> Instruction:
        assert self.block is not None, "builder has no insertion point"
        if not instr.line:
            instr.line = self.line
        if self.index is None:
            self.block.instructions.append(instr)
        else:
            self.block.instructions.insert(self.index, instr)
            self.index += 1
        return instr

    # -- values -----------------------------------------------------------
    def tmp(self, rc: RegClass) -> Temp:
        return self.program.allocate_temp(rc)

    def def_(self, x: DefArg) -> Definition:
        if isinstance(x, Definition):
            return x
        if isinstance(x, RegClass):
            return Definition(self.tmp(x))
        if isinstance(x, Temp):
            return Definition(x)
        if isinstance(x, tuple) and len(x) == 2 and isinstance(x[1], PhysReg):
            d = self.def_(x[0])
            d.phys = x[1]
            return d
        raise TypeError(f"cannot make a definition of {x!r}")

    def op(self, x: OpArg) -> Operand:
        if isinstance(x, Operand):
            return x
        if isinstance(x, Temp):
            return Operand(x)
        if isinstance(x, Result):
            return Operand(x.temp)
        if isinstance(x, bool):
            raise TypeError("bool is not an operand")
        if isinstance(x, int):
            return Operand.c32(x)
        if isinstance(x, float):
            return Operand.c32(struct.unpack("<I", struct.pack("<f", x))[0])
        if isinstance(x, tuple) and len(x) == 2 and isinstance(x[1], PhysReg):
            o = self.op(x[0])
            o.phys = x[1]
            return o
        raise TypeError(f"cannot make an operand of {x!r}")

    @staticmethod
    def c32(value: int) -> Operand:
        return Operand.c32(value)

    @staticmethod
    def c64(value: int) -> Operand:
        return Operand.c64(value)

    @staticmethod
    def undef(rc: RegClass) -> Operand:
        return Operand(rc=rc, undef=True)

    @staticmethod
    def fixed(reg: PhysReg, rc: RegClass) -> Operand:
        """A temp-less read of a fixed register (exec, m0 ...)."""
        return Operand.fixed(reg, rc)

    # -- generic ----------------------------------------------------------
    def inst(self, opcode: str, defs: Sequence[DefArg] = (), ops: Sequence[OpArg] = (),
             fmt: str | None = None, **fields: object) -> Result:
        """Any instruction; `fmt` defaults to the natural encoding. An opcode the
        generation lacks (the table's answer, `OpcodeTable.by_canon`) raises
        `AbsentOpcodeError` naming it and the chip."""
        return self._inst(opcode, defs, ops, fmt, fields)

    def _inst(self, opcode: str, defs: Sequence[DefArg], ops: Sequence[OpArg],
              fmt: str | None, fields: Mapping[str, object]) -> Result:
        # `inst` with the fields as a mapping (what the encoding helpers pass on)
        if fmt is None:
            if opcode not in PSEUDO and not self.table.has(opcode):
                raise AbsentOpcodeError(opcode, None, self.program)
            fmt = natural_format(self.table, opcode)
            info = op_info(self.table, opcode, fmt)
        else:
            info = op_info(self.table, opcode, fmt)
            if info is None and fmt != PSEUDO_FORMAT:
                raise AbsentOpcodeError(opcode, fmt, self.program)
        instr = Instruction(opcode, fmt,
                            [o if isinstance(o, Operand) else self.op(o) for o in ops],
                            [self.def_(d) for d in defs], make_fields(fmt, fields))
        if info is not None:
            self._fix_special(instr, info)
        self.insert(instr)
        return Result(instr)

    def _fix_special(self, instr: Instruction, info: OpInfo) -> None:
        """Give the table entry `info`'s fixed VCC slots of `instr` their register."""
        e = _VCC_SLOTS.get(info.uid)
        if e is None:
            e = _VCC_SLOTS[info.uid] = _vcc_slots(info)
        dslots, oslots = e
        defs, ops = instr.definitions, instr.operands
        for k in dslots:
            if k < len(defs) and defs[k].phys is None:
                defs[k].phys = PhysReg.of(VCC)
        for k in oslots:
            if k < len(ops) and ops[k].phys is None:
                ops[k].phys = PhysReg.of(VCC)

    def _salu(self, opcode: str, defs: list[DefArg], ops: tuple, scc: bool,
              fields: dict[str, object]) -> Result:
        fmt = natural_format(self.table, opcode)
        info = op_info(self.table, opcode, fmt)
        d = list(defs)
        if scc and info is not None and "scc" in info.implicit_writes:
            d.append((s1, PhysReg.of(SCC)))
        return self._inst(opcode, d, list(ops), fmt, fields)

    def sop1(self, opcode: str, dst: DefArg, a: OpArg, *, scc: bool = True,
             **fields: object) -> Result:
        return self._salu(opcode, [dst], (a,), scc, fields)

    def sop2(self, opcode: str, dst: DefArg, a: OpArg, b: OpArg, *more: OpArg,
             scc: bool = True, **fields: object) -> Result:
        return self._salu(opcode, [dst], (a, b, *more), scc, fields)

    def sopc(self, opcode: str, a: OpArg, b: OpArg, *, scc: bool = True,
             **fields: object) -> Result:
        return self._salu(opcode, [], (a, b), scc, fields)

    def sopk(self, opcode: str, dst: DefArg | None, imm: int, *ops: OpArg, scc: bool = True,
             **fields: object) -> Result:
        return self._salu(opcode, [dst] if dst is not None else [], ops, scc,
                          {"simm16": imm, **fields})

    def sopp(self, opcode: str, **fields: object) -> Result:
        return self._inst(opcode, (), (), None, fields)

    def vop1(self, opcode: str, dst: DefArg, a: OpArg, **fields: object) -> Result:
        return self._inst(opcode, [dst], [a], None, fields)

    def vop2(self, opcode: str, dst: DefArg, a: OpArg, b: OpArg, *more: OpArg,
             **fields: object) -> Result:
        return self._inst(opcode, [dst], [a, b, *more], None, fields)

    def vopc(self, opcode: str, dst: DefArg, a: OpArg, b: OpArg, **fields: object) -> Result:
        return self._inst(opcode, [dst], [a, b], None, fields)

    def vop3(self, opcode: str, dsts: DefArg | list[DefArg], *ops: OpArg,
             **fields: object) -> Result:
        """The VOP3-family (VOP3/VOP3SD/VOP3P) encoding of `opcode`."""
        fmt = next((e.enc for e in self.table.by_canon.get(opcode, ()) if e.enc in E64_FORMATS),
                   None)
        if fmt is None:
            raise AbsentOpcodeError(opcode, "VOP3", self.program)
        d = dsts if isinstance(dsts, list) else [dsts]
        return self._inst(opcode, d, list(ops), fmt, fields)

    # -- pseudo instructions ----------------------------------------------
    def pseudo(self, opcode: str, defs: list[DefArg] | tuple = (), ops: list[OpArg] | tuple = (),
               **fields: object) -> Result:
        assert opcode in PSEUDO, opcode
        return self._inst(opcode, defs, ops, PSEUDO_FORMAT, fields)

    def copy(self, dst: DefArg, src: OpArg) -> Result:
        """A copy (ACO's bld.copy: a one-element p_parallelcopy)."""
        return self.pseudo("p_parallelcopy", [dst], [src])

    def parallelcopy(self, dsts: list[DefArg], srcs: list[OpArg]) -> Result:
        assert len(dsts) == len(srcs)
        return self.pseudo("p_parallelcopy", dsts, srcs)

    def create_vector(self, dst: DefArg, *srcs: OpArg) -> Result:
        return self.pseudo("p_create_vector", [dst], srcs)

    def split_vector(self, src: OpArg, *dsts: DefArg) -> Result:
        return self.pseudo("p_split_vector", dsts, [src])

    def extract_vector(self, dst: DefArg, vec: OpArg, index: int) -> Result:
        return self.pseudo("p_extract_vector", [dst], [vec, Operand.c32(index)])

    def phi(self, dst: DefArg, *srcs: OpArg) -> Result:
        """A logical phi: one operand per logical predecessor, in order."""
        return self.pseudo("p_phi", [dst], srcs)

    def linear_phi(self, dst: DefArg, *srcs: OpArg) -> Result:
        return self.pseudo("p_linear_phi", [dst], srcs)

    def startpgm(self, *defs: DefArg) -> Result:
        return self.pseudo("p_startpgm", defs)

    def logical_start(self) -> Result:
        return self.pseudo("p_logical_start")

    def logical_end(self) -> Result:
        return self.pseudo("p_logical_end")

    def branch(self, target: int) -> Result:
        return self.pseudo("p_branch", targets=[target])

    def cbranch_z(self, cond: OpArg, taken: int, not_taken: int | None = None) -> Result:
        """Branch to `taken` if `cond` is zero (targets[1]: fall-through)."""
        t = [taken] if not_taken is None else [taken, not_taken]
        return self.pseudo("p_cbranch_z", (), [cond], targets=t)

    def cbranch_nz(self, cond: OpArg, taken: int, not_taken: int | None = None) -> Result:
        t = [taken] if not_taken is None else [taken, not_taken]
        return self.pseudo("p_cbranch_nz", (), [cond], targets=t)


def _index_of(block: Block, instr: Instruction) -> int:
    for i, x in enumerate(block.instructions):
        if x is instr:
            return i
    raise ValueError("instruction is not in the block")


def add_edge(program: Program, pred: int, succ: int, *, logical: bool = True,
             linear: bool = True) -> None:
    """Add a CFG edge (both lists, kept sorted as ACO requires)."""
    a, b = program.blocks[pred], program.blocks[succ]
    if logical:
        _add_sorted(a.logical_succs, succ)
        _add_sorted(b.logical_preds, pred)
    if linear:
        _add_sorted(a.linear_succs, succ)
        _add_sorted(b.linear_preds, pred)


def _add_sorted(lst: list[int], x: int) -> None:
    if x not in lst:
        lst.append(x)
        lst.sort()
