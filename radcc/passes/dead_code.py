"""Dead code elimination on the machine IR (after instruction selection).

Isel emits some values nobody reads: every component of a system value (a
``v_mad_u32_u24`` for each global-id component), the base address of a
binding the selected code never touches, halves of 64-bit splits, lane moves
of vector components. `dead_code(program)` removes, for as long as it finds
some, every instruction that

- defines only temps (a definition without a temp, or one fixed to exec or
  m0, keeps it), none of which is read by any operand;
- has no effect besides its definitions (ACO's ``is_dead`` in
  aco_dead_code_analysis.cpp, with radcc's own opcode classes): SALU and
  VALU instructions of the opcode table (classes ``salu salu64 valu valu64
  trans dot wmma``), memory *loads* (``s_load``/``s_buffer_load``,
  ``global``/``scratch``/``flat``/``buffer_load``, ``ds_load``, and the DS lane
  permutes ``ds_bpermute``/``ds_permute``/``ds_swizzle``), and the value
  pseudo-instructions (the pseudo-op table's ``pure`` flag, `PURE_PSEUDO`: copies, vectors, phis, ``p_as_uniform``,
  reductions and scans, ``p_bpermute``, ``p_wqm``).

Kept always: branches, ``p_startpgm`` (the ABI registers), ``p_logical_*``,
stores, atomics (their old value may be unused: the write is not), barriers,
messages, waits, exports, spills, linear-VGPR markers, ``p_unit_test``. A
cycle of dead phis across a loop back edge is not detected (as in ACO).

`remove_dead_code(program)` returns how many instructions it removed.
"""

from __future__ import annotations

from radcc.ir.program import Instruction, Program
from radcc.ir.pseudo import PURE_PSEUDO
from radcc.ir.regclass import EXEC, M0
from radcc.isa.classes import ALU_TABLE_CLASSES
from radcc.passes.instr_class import info_of

__all__ = ["PURE_PSEUDO", "dead_code", "has_side_effects", "remove_dead_code"]

_STATE_REGS = frozenset({EXEC, EXEC + 1, M0})  # definitions that change machine state
_ALU_CLASSES = ALU_TABLE_CLASSES
_LOAD_PREFIXES = ("s_load_", "s_buffer_load_", "global_load_", "scratch_load_", "flat_load_",
                  "buffer_load_", "ds_load_", "ds_bpermute_", "ds_permute_",
                  "ds_swizzle_")


def has_side_effects(program: Program, instr: Instruction) -> bool:
    """Whether `instr` does anything besides defining its values (module docstring)."""
    if instr.is_pseudo:
        return instr.opcode not in PURE_PSEUDO
    if instr.opcode.startswith(_LOAD_PREFIXES):
        return False
    info = info_of(program, instr)
    return info is None or info.cls not in _ALU_CLASSES


def remove_dead_code(program: Program) -> int:
    """Remove dead instructions (module docstring); the number removed."""
    uses: dict[int, int] = {}
    for b in program.blocks:
        for ins in b.instructions:
            for o in ins.operands:
                if o.temp is not None:
                    uses[o.temp.id] = uses.get(o.temp.id, 0) + 1
    removed = 0
    pure: dict[int, bool] = {}  # id(instr) -> side-effect free
    progress = True
    while progress:
        progress = False
        for b in reversed(program.blocks):
            kept: list[Instruction] = []
            for ins in reversed(b.instructions):
                if _dead(program, ins, uses, pure):
                    for o in ins.operands:
                        if o.temp is not None:
                            uses[o.temp.id] -= 1
                    removed += 1
                    progress = True
                else:
                    kept.append(ins)
            if len(kept) != len(b.instructions):
                kept.reverse()
                b.instructions = kept
    return removed


def _dead(program: Program, ins: Instruction, uses: dict[int, int],
          pure: dict[int, bool]) -> bool:
    if not ins.definitions:
        return False
    for d in ins.definitions:
        if d.temp is None or uses.get(d.temp.id, 0):
            return False
        if d.phys is not None and d.phys.reg in _STATE_REGS:
            return False
    key = id(ins)
    p = pure.get(key)
    if p is None:
        p = pure[key] = not has_side_effects(program, ins)
    return p


def dead_code(program: Program) -> None:
    """The pass form of `remove_dead_code`."""
    remove_dead_code(program)
