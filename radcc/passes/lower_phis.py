"""Lower divergent boolean phis to lane-mask code (ACO's README.md "Lower Phis";
the algorithm of ACO's aco_lower_phis.cpp, written from its description).

A divergent boolean is a lane mask (`Program.lane_mask`: s1 in wave32, s2 in
wave64) whose bit i is lane i's boolean. Its phi is spelled
``p_phi ... boolean`` (the field ``boolean``; ACO's ``p_boolean_phi``): a
phi of the *logical* CFG whose lanes may arrive from different predecessors.
The scalar ALU ignores EXEC, so such a phi cannot be a plain copy per edge:
each lane must keep the bit of the predecessor it came through.

`lower_phis(program)` guarantees, for every ``p_phi`` with the field
``boolean`` (its class must be the lane mask; ValueError otherwise):

- if its block is not a merge block, its logical and linear predecessors are
  the same and all of them are uniform blocks (ACO's shortcut: the whole
  wave comes from one predecessor), it becomes a ``p_linear_phi`` with the
  same operands;
- otherwise a lane-mask variable V is built over the linear CFG: at the end
  of the logical part of each logical predecessor P_i (right before its
  ``p_logical_end``, where EXEC holds exactly the lanes in P_i) the operand
  b_i is merged in, ``V' = (V & ~exec) | (b_i & exec)`` (simplified when
  b_i is 0 or -1, or V is still undefined); where linear paths join, V gets
  ``p_linear_phi`` instructions, and the phi itself becomes a
  ``p_linear_phi`` over its block's *linear* predecessors reading V. Undef
  operands contribute no merge code;
- V is only carried through the region that can matter: for a phi inside a
  loop, V starts undefined at each iteration (a lane that reaches the phi
  passed one of its predecessors in the same iteration); for a phi in a loop
  exit (predecessors: the break blocks) V is carried around the exited
  loop's back edge, so that lanes that broke in earlier iterations keep
  their bit; deeper loops that contain no merge code are skipped;
- other phis (uniform booleans, which are s1 values 0/1 in ACO, and all
  non-boolean phis) are untouched.

Not done yet (ACO does it here): sub-dword phis (``lower_subdword_phis``:
they stay as they are, register allocation must handle them) and the
repair of phis for mismatches between the logical and linear CFG (repair_ssa's
job, which does not exist yet).

The result holds SALU instructions that read EXEC, so it is only meaningful
once insert_exec_mask has made EXEC hold the lanes of each logical block;
that pass keeps merge code in place (before ``p_logical_end``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from radcc.ir.builder import Builder
from radcc.ir.program import Block, BlockKind, Definition, Instruction, Operand, Program
from radcc.ir.regclass import Temp
from radcc.passes.lane_mask import const_lanes, exec_op, lm_opcode, scc_def

__all__ = ["is_boolean_phi", "lower_phis"]

BOOLEAN_FIELD = "boolean"

# A value of V: a temp, or None for undefined.
Value = Temp | None


def is_boolean_phi(instr: Instruction) -> bool:
    """A divergent boolean phi (``p_phi`` with the ``boolean`` field)."""
    return instr.opcode == "p_phi" and bool(instr.fields.get(BOOLEAN_FIELD))


def _logical_end_index(block: Block) -> int:
    """Where merge code goes: before p_logical_end, else before the branch."""
    for i in range(len(block.instructions) - 1, -1, -1):
        if block.instructions[i].opcode == "p_logical_end":
            return i
    i = len(block.instructions)
    while i > 0 and block.instructions[i - 1].opcode in ("p_branch", "p_cbranch_z",
                                                         "p_cbranch_nz"):
        i -= 1
    return i


def _op(v: Value, program: Program) -> Operand:
    return Operand(v) if v is not None else Operand(rc=program.lane_mask, undef=True)


@dataclass
class _Region:
    """The linear-CFG blocks V is built over, for one phi."""

    program: Program
    block: Block  # the phi's block
    depth: int  # loop depth of the region (blocks deeper are skipped)
    lo: int  # first block of the region: V is undefined on entry
    writes: dict[int, Temp] = field(default_factory=dict)
    start: dict[int, Value] = field(default_factory=dict)
    end: dict[int, Value] = field(default_factory=dict)
    pending: list[tuple[Block, Instruction]] = field(default_factory=list)
    created: dict[int, tuple[Block, Instruction]] = field(default_factory=dict)


def _loop_header_of_exit(program: Program, exit_block: Block) -> int:
    """The header of the loop that `exit_block` (a loop exit) leaves."""
    i = exit_block.index - 1
    while i > 0 and program.blocks[i].loop_nest_depth > exit_block.loop_nest_depth:
        i -= 1
    return i + 1


def _pred_value(r: _Region, p: int) -> Value:
    return r.end.get(p) if p >= r.lo else None


def _new_linear_phi(r: _Region, block: Block, ops: list[Value]) -> Instruction:
    t = r.program.allocate_temp(r.program.lane_mask)
    phi = Instruction("p_linear_phi", "PSEUDO", [_op(v, r.program) for v in ops],
                      [Definition(t)])
    block.instructions.insert(block.phi_end(), phi)
    r.created[t.id] = (block, phi)
    return phi


def _prune(r: _Region, roots: list[Value]) -> None:
    """Remove the phis of V that nothing reads (the sweep makes one at every
    join where the values differ, needed or not)."""
    live: set[int] = set()
    work = [v.id for v in roots if v is not None]
    while work:
        tid = work.pop()
        if tid in live or tid not in r.created:
            continue
        live.add(tid)
        work += [o.temp.id for o in r.created[tid][1].operands if o.temp is not None]
    for tid, (blk, phi) in r.created.items():
        if tid not in live:
            blk.instructions.remove(phi)


def _sweep(r: _Region, hi: int, phi_def: Temp) -> None:
    """Values of V at the start/end of blocks lo..hi, in layout order (linear
    predecessors come first, except the back edges of loop headers, whose
    phis are completed afterwards)."""
    p = r.program
    for x in range(r.lo, hi + 1):
        blk = p.blocks[x]
        val: Value
        if blk is r.block and blk.kind & BlockKind.LOOP_HEADER:
            val = phi_def  # the lowered phi is V at its own loop header
        elif x == r.lo and not blk.kind & BlockKind.LOOP_HEADER:
            val = None
        elif blk.loop_nest_depth > r.depth:
            val = r.end.get(x - 1) if x - 1 >= r.lo else None
        elif blk.kind & BlockKind.LOOP_HEADER and len(blk.linear_preds) > 1:
            phi = _new_linear_phi(r, blk, [None] * len(blk.linear_preds))
            r.pending.append((blk, phi))
            val = phi.definitions[0].temp
        else:
            ops = [_pred_value(r, q) for q in blk.linear_preds]
            if not ops:
                val = None
            elif all(v == ops[0] for v in ops):
                val = ops[0]
            else:
                val = _new_linear_phi(r, blk, ops).definitions[0].temp
        r.start[x] = val
        r.end[x] = r.writes.get(x, val)
    for blk, phi in r.pending:
        phi.operands = [_op(_pred_value(r, q), p) for q in blk.linear_preds]


def _emit_merge(program: Program, block: Block, dst: Temp, prev: Value, cur: Operand) -> None:
    """dst = (prev & ~exec) | (cur & exec), before block's p_logical_end."""
    b = Builder(program, block, _logical_end_index(block))
    lm = program.lane_mask
    c = const_lanes(program, cur)

    def sop2(name: str, d: Definition, x: Operand | Temp, y: Operand | Temp) -> None:
        b.inst(lm_opcode(program, name), [d, scc_def(program)], [x, y])

    if prev is None:
        b.copy(Definition(dst), cur)
    elif c == -1:
        sop2("or", Definition(dst), prev, exec_op(program))
    elif c == 0:
        sop2("andn2", Definition(dst), prev, exec_op(program))
    else:
        t1, t2 = program.allocate_temp(lm), program.allocate_temp(lm)
        sop2("andn2", Definition(t1), prev, exec_op(program))
        sop2("and", Definition(t2), cur, exec_op(program))
        sop2("or", Definition(dst), t1, t2)


def _lower_divergent(program: Program, block: Block, phi: Instruction) -> None:
    lm = program.lane_mask
    depth = block.loop_nest_depth
    writes: dict[int, Temp] = {}
    for pred, o in zip(block.logical_preds, phi.operands, strict=True):
        if o.is_undef:
            continue
        if len(program.blocks[pred].logical_succs) != 1:
            raise ValueError(f"lower_phis: BB{pred} (logical predecessor of BB{block.index}) "
                             "has several logical successors (critical edge)")
        writes[pred] = program.allocate_temp(lm)
    lo_candidates = list(writes)
    hi = max([*writes, *block.linear_preds])
    if block.kind & BlockKind.LOOP_EXIT and block.logical_preds and \
            program.blocks[block.logical_preds[0]].loop_nest_depth > depth:
        depth += 1  # V is carried around the back edge of the exited loop
        lo_candidates.append(_loop_header_of_exit(program, block))
        hi = block.index - 1
    phi_def = phi.definitions[0].temp
    assert phi_def is not None
    if not lo_candidates:  # every operand undef
        phi.opcode = "p_linear_phi"
        phi.operands = [_op(None, program) for _ in block.linear_preds]
        return
    r = _Region(program, block, depth, min(lo_candidates), writes)
    _sweep(r, hi, phi_def)
    for pred, o in zip(block.logical_preds, phi.operands, strict=True):
        if pred in writes:
            _emit_merge(program, program.blocks[pred], writes[pred], r.start[pred], o)
    phi.opcode = "p_linear_phi"
    phi.operands = [_op(_pred_value(r, q), program) for q in block.linear_preds]
    _prune(r, [r.start[pred] for pred in writes] + [o.temp for o in phi.operands])


def _all_preds_uniform(program: Program, block: Block) -> bool:
    return (not block.kind & BlockKind.MERGE and block.linear_preds == block.logical_preds
            and all(program.blocks[p].kind & BlockKind.UNIFORM for p in block.logical_preds))


def lower_phis(program: Program) -> None:
    """Lower the divergent boolean phis (see the module docstring)."""
    for block in program.blocks:
        phis = block.instructions[:block.phi_end()]  # phis lead their block
        for phi in phis:
            if not is_boolean_phi(phi):
                continue
            d = phi.definitions[0]
            if d.rc != program.lane_mask:
                raise ValueError(f"lower_phis: boolean phi of class {d.rc} in BB{block.index} "
                                 f"(the lane mask is {program.lane_mask})")
            del phi.fields[BOOLEAN_FIELD]
            if _all_preds_uniform(program, block):
                phi.opcode = "p_linear_phi"
            else:
                _lower_divergent(program, block, phi)
