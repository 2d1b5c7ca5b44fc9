"""Jump threading: remove empty blocks and send branches to their final
target (ACO's README.md "Jump Threading"; the idea of ACO's aco_jump_threading.cpp).

It runs after SSA elimination (it creates critical edges, so phis must be
gone; a phi raises ValueError). `jump_threading(program)` guarantees:

- a block (not the entry) whose only instructions are ``p_logical_start``,
  ``p_logical_end`` and a final ``p_branch`` to another block S is emptied
  (no instructions, no edges) when every linear predecessor can be
  redirected to S: an unconditional ``p_branch`` is retargeted; a
  conditional branch's taken target is retargeted; its not-taken
  (fall-through) target is retargeted only if S is still reached by
  falling through (only empty blocks between), otherwise, when the taken
  target is the one reached by falling through, the condition is inverted
  (``p_cbranch_z`` <-> ``p_cbranch_nz``) and the targets swapped;
- a conditional branch whose two targets are equal becomes ``p_branch``;
- a block whose only linear successor S overwrites EXEC before any use of
  it (S starts, after ``p_logical_start``/``p_logical_end``, with a copy
  of a non-EXEC value to EXEC: the merge block of a divergent if, a loop
  exit or header restoring a saved mask) loses the EXEC writes that end it
  (before its ``p_branch``): SALU instructions (SOP1/SOP2) and
  ``p_parallelcopy``s whose definitions are only EXEC and an SCC nobody
  reads. This is the invert block of a divergent if whose else side is
  empty (``s_and_not1 exec, %saved, exec``): once the empty else blocks
  are gone its branch goes straight to the merge, which restores
  ``%saved``, so the block empties and is threaded away as well (ACO's
  try_remove_invert_block with ``blocks_incoming_exec_used``, ACO's README.md
  "Jump Threading");
- linear and logical CFG edges are updated together (predecessor lists
  stay sorted); blocks keep their indices, emptied blocks stay in the list.

Block indices never change, so the layout (fall-through order) is kept.
"""

from __future__ import annotations

from radcc.ir.fields import PseudoFields
from radcc.ir.program import Block, Definition, Instruction, Operand, Program
from radcc.ir.regclass import EXEC, EXEC_HI, SCC
from radcc.isa.classes import SALU_ENCODINGS

_SKIPPABLE = frozenset({"p_logical_start", "p_logical_end"})
_INVERT = {"p_cbranch_z": "p_cbranch_nz", "p_cbranch_nz": "p_cbranch_z"}
_EXEC = (EXEC, EXEC_HI)
# SALU encodings whose instructions may be dropped with a dead exec write: the shared set without
# SOPC (compares write only SCC, never exec) and SOPK (holds s_setreg/s_call: side effects).
_SALU_ALU = SALU_ENCODINGS - {"SOPC", "SOPK"}


def _is_exec(x: Operand | Definition) -> bool:
    return x.phys is not None and x.phys.reg in _EXEC


def _reads_exec(ins: Instruction) -> bool:
    return any(_is_exec(o) for o in ins.operands)


def _overwrites_exec_first(b: Block) -> bool:
    """Is EXEC's value on entry to `b` dead (a plain copy to EXEC comes
    before anything else)?"""
    for ins in b.instructions:
        if ins.opcode in _SKIPPABLE:
            continue
        return (ins.opcode == "p_parallelcopy" and bool(ins.definitions)
                and all(_is_exec(d) for d in ins.definitions) and not _reads_exec(ins))
    return False


def _scc_reads(program: Program) -> set[int] | None:
    """The temps of SCC values read anywhere (None: some SCC read has no temp)."""
    out: set[int] = set()
    for b in program.blocks:
        for ins in b.instructions:
            for o in ins.operands:
                phys = o.phys
                if phys is not None and phys.reg == SCC:
                    if o.temp is None:
                        return None
                    out.add(o.temp.id)
    return out


class _SccReads:
    """`_scc_reads` of the program, computed on the first request (most programs never
    ask: only a block ending in an EXEC write before a successor's EXEC restore does)."""

    __slots__ = ("program", "done", "temps")

    def __init__(self, program: Program) -> None:
        self.program = program
        self.done = False
        self.temps: set[int] | None = None

    def get(self) -> set[int] | None:
        if not self.done:
            self.temps = _scc_reads(self.program)
            self.done = True
        return self.temps


def _drop_dead_exec_writes(program: Program, b: Block, scc: _SccReads) -> bool:
    """Remove the EXEC writes ending `b` whose value its successor never
    sees (see the module docstring); True if any was removed."""
    ins = b.instructions
    if len(b.linear_succs) != 1 or not ins or ins[-1].opcode != "p_branch" or \
            ins[-1].operands or not _overwrites_exec_first(program.blocks[b.linear_succs[0]]):
        return False
    k = len(ins) - 2
    dead: list[int] = []
    while k >= 0:
        i = ins[k]
        if i.opcode in _SKIPPABLE:
            k -= 1
            continue
        if not (i.format in _SALU_ALU or i.opcode == "p_parallelcopy") or \
                not any(_is_exec(d) for d in i.definitions):
            break
        if not all(_is_exec(d) or _unread_scc(d, scc.get()) for d in i.definitions):
            break
        dead.append(k)
        k -= 1
    for k in dead:
        del ins[k]
    return bool(dead)


def _unread_scc(d: Definition, scc_read: set[int] | None) -> bool:
    return scc_read is not None and d.phys is not None and d.phys.reg == SCC and \
        (d.temp is None or d.temp.id not in scc_read)


def _is_empty(b: Block) -> bool:
    ins = b.instructions
    if not ins or ins[-1].opcode != "p_branch" or ins[-1].operands or ins[-1].definitions:
        return False
    for k in range(len(ins) - 1):  # no copy of a long block's list
        if ins[k].opcode not in _SKIPPABLE:
            return False
    return True


def _falls_through(program: Program, frm: int, to: int) -> bool:
    """Does code falling off the end of block `frm` reach block `to`?"""
    if to <= frm:
        return False
    return all(not program.blocks[j].instructions for j in range(frm + 1, to))


def _targets(br: Instruction, pred: Block) -> list[int]:
    t = list(br.fields.get("targets") or [])  # type: ignore[call-overload]
    if br.opcode in _INVERT and len(t) == 1:
        others = [s for s in pred.linear_succs if s != t[0]]
        t.append(others[0] if others else t[0])
    return t


def _redirect(program: Program, pred: Block, b: Block, s: int) -> bool:
    """Plan the retargeting of pred's branch from b to s; False if impossible."""
    if not pred.instructions:
        return False
    br = pred.instructions[-1]
    if br.opcode == "p_branch":
        return True
    if br.opcode not in _INVERT:
        return False
    t = _targets(br, pred)
    if t[0] == b.index:
        return True
    # b is the not-taken (fall-through) target
    if _falls_through(program, b.index, s) or t[0] == s:
        return True
    return _falls_through(program, b.index, t[0])


def _apply(program: Program, pred: Block, b: Block, s: int) -> None:
    br = pred.instructions[-1]
    if br.opcode == "p_branch":
        br.fields["targets"] = [s]
        return
    t = _targets(br, pred)
    if t[0] == b.index:
        t[0] = s
    elif _falls_through(program, b.index, s) or t[0] == s:
        t[1] = s
    else:
        br.opcode = _INVERT[br.opcode]
        t = [s, t[0]]
    if t[0] == t[1]:
        pred.instructions[-1] = Instruction("p_branch", "PSEUDO", fields=PseudoFields({"targets": [t[0]]}))
    else:
        br.fields["targets"] = t


def _sub(lst: list[int], old: int, new: list[int]) -> list[int]:
    out = [x for x in lst if x != old]
    for n in new:
        if n not in out:
            out.append(n)
    return sorted(out)


def _try_remove(program: Program, b: Block) -> bool:
    if b.index == 0 or not _is_empty(b) or len(b.linear_succs) != 1:
        return False
    s = b.linear_succs[0]
    if s == b.index or len(b.logical_succs) > 1 or (b.logical_preds and not b.logical_succs):
        return False
    br_targets = b.instructions[-1].fields.get("targets") or []
    if list(br_targets) != [s]:  # type: ignore[call-overload]
        return False
    preds = [program.blocks[p] for p in b.linear_preds]
    if not all(_redirect(program, p, b, s) for p in preds):
        return False
    for p in preds:
        _apply(program, p, b, s)
    succ = program.blocks[s]
    for p in preds:
        p.linear_succs = _sub(p.linear_succs, b.index, [s])
    succ.linear_preds = _sub(succ.linear_preds, b.index, b.linear_preds)
    if b.logical_succs:
        ls = program.blocks[b.logical_succs[0]]
        for pi in b.logical_preds:
            lp = program.blocks[pi]
            lp.logical_succs = _sub(lp.logical_succs, b.index, [ls.index])
        ls.logical_preds = _sub(ls.logical_preds, b.index, b.logical_preds)
    b.instructions = []
    b.linear_preds, b.linear_succs, b.logical_preds, b.logical_succs = [], [], [], []
    return True


def jump_threading(program: Program) -> None:
    """Remove empty blocks, threading branches through them (see module docstring)."""
    for b in program.blocks:  # phis lead their block (validate_ir)
        if b.instructions and b.instructions[0].is_phi:
            raise ValueError(f"jump_threading: BB{b.index} still has phis; run "
                             "ssa_elimination first")
    scc_read = _SccReads(program)
    changed = True
    while changed:
        changed = False
        for b in reversed(program.blocks):
            if _drop_dead_exec_writes(program, b, scc_read):
                changed = True
            if _try_remove(program, b):
                changed = True
