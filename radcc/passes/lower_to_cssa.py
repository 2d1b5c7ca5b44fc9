"""Lower to conventional SSA (ACO's README.md "Spilling": "First, we lower the
shader program to CSSA form"; the idea of ACO's aco_lower_to_cssa.cpp,
after Boissinot et al., "Revisiting Out-of-SSA Translation").

`lower_to_cssa(program)` guarantees that afterwards, for every phi, its
definition and all its temp operands form a *congruence class* of values
whose live ranges do not interfere and which belong to no other phi's
class, so one register can hold all of them and register allocation can
give the phi and its operands the same register. Where an operand would
interfere, it is replaced by a fresh copy made at the end of its
predecessor (a ``p_parallelcopy``, one per predecessor and phi kind:
for logical phis before ``p_logical_end``, for linear phis before the
branch). Liveness and kill flags are recomputed at the end.

Interference (strict SSA): of two values, the one whose definition
dominates the other's (logical dominator tree for VGPRs, linear for
linear temps) interferes with it if it is live right after that other
definition; a phi definition is defined at the start of its block, an
inserted copy at the end of its predecessor.

Cost: one walk over the phis; each interference test looks at one block
(O(block size)) and compares against the class built so far.
"""

from __future__ import annotations

from radcc.ir.dominance import DominatorTree, require_dominance
from radcc.ir.program import Block, Definition, Instruction, Operand, Program
from radcc.ir.regclass import Temp
from radcc.passes.live_var_analysis import get_live_vars, is_linear, live_var_analysis
from radcc.passes.ra_support import branch_index, logical_end_index


class _Ctx:
    def __init__(self, program: Program) -> None:
        self.p = program
        require_dominance(program)
        self.live = get_live_vars(program)
        self.dom_lin = DominatorTree.of_program(program, linear=True)
        self.dom_log = DominatorTree.of_program(program, linear=False)
        self.def_at: dict[int, tuple[int, int]] = {}  # temp -> (block, index); phis: -1
        for b in program.blocks:
            for i, instr in enumerate(b.instructions):
                for d in instr.definitions:
                    if d.temp is not None:
                        self.def_at[d.temp.id] = (b.index, -1 if instr.is_phi else i)
        self.class_of: dict[int, int] = {}  # temp -> phi definition id

    def live_after(self, t: int, block: int, index: int) -> bool:
        """Is t live right after position `index` of `block` (-1: block start)?"""
        if t in self.live.live_out[block]:
            return True
        for instr in self.p.blocks[block].instructions[index + 1:]:
            if instr.is_phi:
                continue
            for o in instr.operands:
                if o.temp is not None and o.temp.id == t:
                    return True
        return False

    def interfere(self, a: Temp, b: Temp) -> bool:
        if a.id == b.id or a.rc.type != b.rc.type:
            return False
        da, db = self.def_at.get(a.id), self.def_at.get(b.id)
        if da is None or db is None:
            return True  # undefined (live-in to the program): be safe
        dom = self.dom_lin if is_linear(a.rc) else self.dom_log
        if da[0] == db[0]:
            first, second = (a, db) if da[1] < db[1] else (b, da)
        elif dom.dominates(da[0], db[0]):
            first, second = a, db
        elif dom.dominates(db[0], da[0]):
            first, second = b, da
        else:
            return False
        return self.live_after(first.id, second[0], second[1])


def _insert_copy(program: Program, pred: Block, copies: dict[tuple[int, bool], Instruction],
                 t: Temp, logical: bool) -> Temp:
    key = (pred.index, logical)
    pc = copies.get(key)
    if pc is None:
        pc = Instruction("p_parallelcopy", "PSEUDO")
        copies[key] = pc
        at = logical_end_index(pred) if logical else -1
        if at < 0:
            at = branch_index(pred)
        pred.instructions.insert(at, pc)
    nt = program.allocate_temp(t.rc)
    pc.operands.append(Operand(t))
    pc.definitions.append(Definition(nt))
    return nt


def lower_to_cssa(program: Program) -> None:
    """Insert copies so that phis are in conventional SSA (see module docstring)."""
    ctx = _Ctx(program)
    copies: dict[tuple[int, bool], Instruction] = {}
    classes: dict[int, list[Temp]] = {}
    for b in program.blocks:
        phis = [i for i in b.instructions if i.is_phi]
        for phi in phis:
            d = phi.definitions[0]
            if d.temp is None:
                continue
            logical = phi.opcode == "p_phi"
            preds = b.logical_preds if logical else b.linear_preds
            owner = ctx.class_of.setdefault(d.temp.id, d.temp.id)
            members = classes.setdefault(owner, [d.temp])
            for k, o in enumerate(phi.operands):
                if o.temp is None or k >= len(preds):
                    continue
                t = o.temp
                other = ctx.class_of.get(t.id)
                if other == owner:
                    continue
                group = classes[other] if other is not None else [t]
                clash = t.id in ctx.live.live_in[b.index] or any(
                    ctx.interfere(x, m) for x in group for m in members)
                if clash:
                    nt = _insert_copy(program, program.blocks[preds[k]], copies, t, logical)
                    ctx.def_at[nt.id] = (preds[k], 1 << 30)
                    o.temp = nt
                    o.rc = nt.rc
                    group = [nt]
                    other = None
                elif other is not None:
                    del classes[other]
                members.extend(group)
                for x in group:
                    ctx.class_of[x.id] = owner
    if copies:
        live_var_analysis(program)
