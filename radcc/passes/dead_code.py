"""Dead code elimination on the machine IR (after instruction selection).

Isel emits some values nobody reads: every component of a system value (a
``v_mad_u32_u24`` for each global-id component), the base address of a
binding the selected code never touches, halves of 64-bit splits, lane moves
of vector components. `dead_code(program)` removes, for as long as it finds
some, every instruction that

- defines only temps (a definition without a temp, or one fixed to exec or
  m0, keeps it), none of which is read by any operand;
- has no effect besides its definitions (`radcc.ir.effects.has_side_effects`;
  ACO's ``is_dead`` in aco_dead_code_analysis.cpp, with radcc's opcode
  classes): SALU and VALU instructions of the opcode table (classes ``salu salu64 valu valu64
  trans dot wmma``), memory *loads* (``s_load``/``s_buffer_load``,
  ``global``/``scratch``/``flat``/``buffer_load``, ``ds_load``, and the DS lane
  permutes ``ds_bpermute``/``ds_permute``/``ds_swizzle``), and the value
  pseudo-instructions (the pseudo-op table's ``pure`` flag: copies, vectors,
  phis, ``p_as_uniform``, reductions and scans, ``p_bpermute``, ``p_wqm``).

Kept always: branches, ``p_startpgm`` (the ABI registers), ``p_logical_*``,
stores, atomics (their old value may be unused: the write is not), barriers,
messages, waits, exports, spills, linear-VGPR markers, ``p_unit_test``. A
cycle of dead phis across a loop back edge is not detected (as in ACO).

`remove_dead_code(program)` returns how many instructions it removed.
"""

from __future__ import annotations

from radcc.ir.effects import STATE_REGS, has_side_effects
from radcc.ir.program import Instruction, Program

__all__ = ["dead_code", "remove_dead_code"]

def remove_dead_code(program: Program) -> int:
    """Remove dead instructions (module docstring); the number removed.

    Backward sweeps over the program until one removes nothing; a sweep after the
    first runs only when the first freed a temp defined at or after the instruction
    that freed it (a loop's phi): a definition before it is visited later in the same
    sweep, with its uses already counted down."""
    uses: dict[int, int] = {}
    def_pos: dict[int, int] = {}  # temp id -> position (in program order) of a definition
    pos = 0
    for b in program.blocks:
        for ins in b.instructions:
            for o in ins.operands:
                if o.temp is not None:
                    uses[o.temp.id] = uses.get(o.temp.id, 0) + 1
            for d in ins.definitions:
                if d.temp is not None:
                    def_pos[d.temp.id] = pos
            pos += 1
    removed = 0
    pure: dict[int, bool] = {}  # id(instr) -> side-effect free
    first = True
    progress = True
    while progress:
        progress = False
        for b in reversed(program.blocks):
            kept: list[Instruction] = []
            for ins in reversed(b.instructions):
                pos -= 1
                # `_dead`'s first test inlined: most instructions have a definition read
                # somewhere (or none)
                defs = ins.definitions
                t0 = defs[0].temp if defs else None
                if t0 is None or uses.get(t0.id, 0):
                    kept.append(ins)
                elif _dead(program, ins, uses, pure):
                    for o in ins.operands:
                        t = o.temp
                        if t is not None:
                            n = uses[t.id] = uses[t.id] - 1
                            if not first or n == 0 and def_pos.get(t.id, -1) >= pos:
                                progress = True
                    removed += 1
                    if not first:
                        progress = True
                else:
                    kept.append(ins)
            if len(kept) != len(b.instructions):
                kept.reverse()
                b.instructions = kept
        first = False
    return removed


def _dead(program: Program, ins: Instruction, uses: dict[int, int],
          pure: dict[int, bool]) -> bool:
    if not ins.definitions:
        return False
    for d in ins.definitions:
        if d.temp is None or uses.get(d.temp.id, 0):
            return False
        if d.phys is not None and d.phys.reg in STATE_REGS:
            return False
    key = id(ins)
    p = pure.get(key)
    if p is None:
        p = pure[key] = not has_side_effects(program.gfx_level, ins)
    return p


def dead_code(program: Program) -> None:
    """The pass form of `remove_dead_code`."""
    remove_dead_code(program)
