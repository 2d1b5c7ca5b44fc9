"""Maintain EXEC through structured divergent control flow (ACO's README.md
"Insert exec mask" and "Control flow"; the scheme of ACO's
aco_insert_exec_mask.cpp, written from its rules).

Input: a program in the shape docs/ir.md "Control flow as isel produces it"
describes. The linear CFG is structured by block kinds; nothing writes EXEC
yet; the branch ending a block whose kind needs exec-mask code (divergent
branch, invert, divergent break/continue, continue-or-break) is a
placeholder that this pass rebuilds from the block's linear successors.

`insert_exec_mask(program)` guarantees that afterwards, at every instruction
inside a block's logical part (between ``p_logical_start`` and
``p_logical_end``), EXEC holds exactly the lanes that are in that block of
the logical CFG, and that the program's linear control flow visits every
block some lane needs, skipping a side of a divergent branch whose lane set
is empty. Per block kind (in this order, as ACO):

- *loop preheader*: the loop's blocks at its own depth are scanned for
  divergent (non-uniform) breaks and continues. With a divergent break the
  current EXEC is kept in a temp (the *restore* mask for the loop exit) and
  a new mask, the loop's active lanes, is pushed;
- *loop header*: with a divergent continue, ``p_linear_phi`` of the loop's
  active lanes (from the preheader and every back edge), copied into EXEC;
  else the active lanes are simply EXEC on every back edge;
- *continue-or-break*: EXEC := the loop's active lanes, then
  ``p_cbranch_nz exec`` to the continue helper (else break helper);
- *uniform*: the branch is kept;
- *branch* (divergent if on lane mask %c): ``%saved = s_and_saveexec %c``
  then ``p_cbranch_z exec`` to the linear-then block (skipping the logical
  then side when no lane takes it);
- *invert*: ``exec = s_andn2 %saved, exec`` (the else lanes), then
  ``p_cbranch_z exec`` to the linear-else block;
- *break* (divergent): the breaking lanes (EXEC) are removed from every
  mask on the stack down to and including the loop's active mask; the loop
  is left (``p_cbranch_nz`` on the last SCC goes to the continue helper,
  else to the break helper) when no lane remains; EXEC is cleared when the
  next block is neither an invert nor a merge block (the rest of a uniform
  construct must not run for the lanes that left);
- *continue* (divergent): the same for the masks above the loop's active
  mask (the lanes rejoin at the loop header);
- *merge*: EXEC is restored from the mask saved by the branch block
  (``exec = p_parallelcopy %saved``, after the block's phis);
- *loop exit*: the header's phis are completed; with a divergent break or
  continue EXEC is restored (the restore mask, or the active lanes); the
  stack is the preheader's again, its top mask of the kind it had there (a
  loop without a divergent break runs with its active lanes in place of
  that mask, which must not stay a loop mask for the jumps after the loop);
- where two linear paths join with different saved masks (an invert block
  after a break in the then side, a loop exit, a uniform merge after a
  break), the masks get ``p_linear_phi`` instructions.

EXEC is never a temp: it is written and read as ``s1: exec`` (wave32) /
``s2: exec`` (wave64); saved masks are lane-mask temps. Opcodes are canonical
(``s_and_not1_b32``, which GFX10 spells ``s_andn2_b32``). Branch
targets follow ACO: a conditional branch's ``targets`` are
``[linear_succs[1], linear_succs[0]]`` (taken, fall-through).

Discards (docs/ir.md "Discards"; ACO's p_discard_if handling, written
from its rule): ``p_discard_if %c`` ends, for the rest of the program, the
active lanes whose bit of %c is set; ``p_demote_to_helper`` is the same in
a compute program (ACO turns a demote into a discard on the exact masks,
and without whole-quad mode every mask is exact: a helper lane could do
nothing observable). At the instruction:

- ``%d = s_and %c, exec`` (only active lanes leave the outer masks; not
  needed when EXEC is the only mask), ``exec = s_andn2 exec, %d``; the
  constant -1 or ``exec`` is every active lane: ``%d, scc, exec =
  s_and_saveexec 0, exec``; the constant 0 discards nothing (removed);
- every mask saved on the stack loses %d, innermost first, the program's
  mask (the lanes still alive anywhere) last; ``p_exit_early_if_not`` on
  that last SCC ends the wave when no lane is left (lower_to_hw: an
  ``s_cbranch_scc0`` to an ``s_endpgm`` block);
- a loop containing a discard (at any depth) gives every mask below its
  active lanes a ``p_linear_phi`` at the header, completed at the loop exit
  from the back edges, so the discarded lanes stay out of the restore mask
  and the outer masks after the loop.

The input must keep a loop whose lanes a discard may empty from running
forever with EXEC empty (its divergent breaks would be skipped): ACO's
isel ends such a loop with a continue-or-break block (break when no lane
is left), and avoids uniform continues there (`tests/passes/cf_gen.py`
does both). Stages other than compute and fragment are rejected when they
discard.

Fragment programs (ACO's WQM/Exact states, simplified to one whole-quad
region: the program): a program with a value that needs whole-quad mode
(``p_wqm``: derivatives) starts with ``%exact = p_parallelcopy exec``,
``exec = s_wqm exec``; the exact mask (the covered pixels still alive) is
the stack's bottom entry and every mask above it is in whole-quad lanes.
Then:

- exports, stores and atomics run on the exact lanes: ``%s = s_and_saveexec
  %exact`` before a run of them, ``exec = %s`` after (not before
  ``s_endpgm``; GFX11's exports take EXEC as the valid mask);
- ``p_demote_to_helper`` removes its lanes from the exact mask only (they go
  on as helper lanes); no exact lane left ends the wave;
- ``p_discard_if`` kills its lanes in every mask as above; back at the top
  level (after the discard there, or at a merge/loop exit restoring the top
  level's mask) ``exec = s_wqm exec`` returns the killed lanes of quads with
  a live lane as helpers, so derivatives after the kill stay whole;
- ``p_is_helper`` is ``exec & ~exact`` (0 without whole-quad mode, where
  EXEC is exact and a demote is a discard);
- ``lower_to_hw`` gives the early exit of a fragment program ``exec = 0`` and
  GFX11's null export (``exp mrt0 off, off, off, off done``) before
  ``s_endpgm``: a pixel wave must export.

Derivatives in divergent control flow see the lanes of the branch (helper
lanes whose branch condition differs from their quad's are not brought in),
which is what GLSL leaves undefined.

Not done yet: exec-dependent pseudos, and the known-full-subgroup start mask
(ACO uses constant -1 then).
"""

from __future__ import annotations

from dataclasses import dataclass

from radcc.abi.stage import COMPUTE_CS, FRAGMENT_FS
from radcc.ir.builder import Builder
from radcc.ir.printer import instruction_text
from radcc.ir.program import Block, BlockKind, Definition, Instruction, Operand, Program
from radcc.ir.regclass import SCC, PhysReg, Temp
from radcc.passes.lane_mask import (
    const_lanes,
    exec_def,
    exec_op,
    is_exec,
    lm_const,
    lm_opcode,
    scc_def,
)

__all__ = ["ExecMaskError", "insert_exec_mask"]


class ExecMaskError(ValueError):
    """A program this pass cannot give exec-mask code (names block and instruction)."""

_BRANCHES = frozenset({"p_branch", "p_cbranch_z", "p_cbranch_nz"})
_DISCARDS = frozenset({"p_discard_if", "p_demote_to_helper"})
# block kinds as the flags' int values, tested against ``Block.kind._value_`` (an
# enum.Flag `&` is three Python-level calls; these run per block)
_LOOP_HEADER: int = BlockKind.LOOP_HEADER.value
_LOOP_EXIT: int = BlockKind.LOOP_EXIT.value
_LOOP_PREHEADER: int = BlockKind.LOOP_PREHEADER.value
_MERGE: int = BlockKind.MERGE.value
_CONTINUE_OR_BREAK: int = BlockKind.CONTINUE_OR_BREAK.value
_UNIFORM: int = BlockKind.UNIFORM.value
_BRANCH: int = BlockKind.BRANCH.value
_INVERT: int = BlockKind.INVERT.value
_BREAK: int = BlockKind.BREAK.value
_CONTINUE: int = BlockKind.CONTINUE.value
_REWRITTEN = _DISCARDS | {"p_is_helper"}
# what must see only the exact lanes in whole-quad mode (ACO's "Exact" needs): exports,
# stores and atomics to memory (helper lanes must not write it)
_EXACT_PREFIXES = ("global_store", "global_atomic", "buffer_store", "buffer_atomic",
                   "image_store", "image_atomic", "flat_store", "flat_atomic", "tbuffer_store")


def _needs_exact(opcode: str) -> bool:
    return opcode == "exp" or opcode.startswith(_EXACT_PREFIXES)


@dataclass
class _Mask:
    """An entry of the exec stack: a lane mask (a temp, or None when its
    value is only in EXEC) and whether it is a loop's active-lanes mask."""

    op: Temp | None
    loop: bool = False


@dataclass
class _Loop:
    header: Block
    num_masks: int
    divergent_break: bool
    divergent_continue: bool
    outer_loop: bool  # the loop flag of the mask the loop's active lanes replace
    has_discard: bool = False  # a discard/demote somewhere inside (nested loops too)
    phi: Instruction | None = None  # the header phi of the active lanes
    outer_phis: list[Instruction] | None = None  # header phis of the masks below it


class _ExecMask:
    def __init__(self, program: Program) -> None:
        self.p = program
        self.stacks: list[list[_Mask]] = [[] for _ in program.blocks]
        self.loops: list[_Loop] = []
        self.fragment = program.stage == FRAGMENT_FS
        # whole-quad mode: a fragment program with a value that needs it (p_wqm)
        self.wqm = self.fragment and any(i.opcode == "p_wqm" for blk in program.blocks
                                         for i in blk.instructions)
        # read only in whole-quad mode (`coupling`): no walk otherwise
        self.kills = self.wqm and any(i.opcode == "p_discard_if" for blk in program.blocks
                                      for i in blk.instructions)

    def enter_wqm(self, block: Block) -> None:
        """At the start (after p_startpgm): the exact mask (the lanes of covered pixels)
        saved at the stack's bottom, EXEC := whole quads."""
        p = self.p
        at = 1 if block.instructions and block.instructions[0].opcode == "p_startpgm" else 0
        b = Builder(p, block, at)
        exact = p.allocate_temp(p.lane_mask)
        b.pseudo("p_parallelcopy", [Definition(exact)], [exec_op(p)])
        b.inst(lm_opcode(p, "wqm"), [exec_def(p), scc_def(p)], [exec_op(p)])
        self.stacks[block.index] = [_Mask(exact), _Mask(None)]

    # -- helpers -------------------------------------------------------------
    def error(self, block: Block, msg: str, instr: Instruction | None = None) -> ExecMaskError:
        text = f": {instruction_text(self.p, instr)}" if instr is not None else ""
        return ExecMaskError(f"insert_exec_mask: BB{block.index}: {msg}{text}")

    def materialize(self, block_idx: int, k: int) -> Temp:
        """The value of stack entry k at the end of a block, as a temp (a
        copy of EXEC made before the block's branch when it is only there)."""
        m = self.stacks[block_idx][k]
        if m.op is not None:
            return m.op
        blk = self.p.blocks[block_idx]
        i = len(blk.instructions)
        while i > 0 and blk.instructions[i - 1].opcode in _BRANCHES:
            i -= 1
        t = self.p.allocate_temp(self.p.lane_mask)
        blk.instructions.insert(i, Instruction("p_parallelcopy", "PSEUDO", [exec_op(self.p)],
                                               [Definition(t)]))
        m.op = t
        return t

    def sop2(self, b: Builder, name: str, dst: Definition, x: Operand | Temp,
             y: Operand | Temp) -> Temp:
        """A lane-mask SOP2; returns its SCC temp."""
        scc = scc_def(self.p)
        b.inst(lm_opcode(self.p, name), [dst, scc], [x, y])
        assert scc.temp is not None
        return scc.temp

    def copy_to_exec(self, b: Builder, src: Temp | Operand) -> None:
        b.pseudo("p_parallelcopy", [exec_def(self.p)], [src])

    def linear_phi(self, block: Block, at: int, ops: list[Temp]) -> Temp:
        t = self.p.allocate_temp(self.p.lane_mask)
        block.instructions.insert(at, Instruction("p_linear_phi", "PSEUDO",
                                                  [Operand(o) for o in ops], [Definition(t)]))
        return t

    # -- coupling code (block start) -----------------------------------------
    def coupling(self, block: Block) -> None:
        idx = block.index
        preds = block.linear_preds
        at = block.phi_end()
        restore = False
        if not preds:
            self.stacks[idx] = [_Mask(None)]
            if self.wqm:
                self.enter_wqm(block)
            return
        if block.kind._value_ & _LOOP_HEADER:
            if preds[0] != idx - 1 or not self.loops or self.loops[-1].header is not block:
                raise self.error(block, "loop header not preceded by its preheader")
            loop = self.loops[-1]
            stack = [_Mask(m.op, m.loop) for m in self.stacks[idx - 1]]
            if loop.has_discard:
                # a discard inside rewrites every mask below the loop's active
                # lanes: each gets a phi of its value at the loop's back edges
                loop.outer_phis = []
                for k in range(loop.num_masks - 1):
                    first = stack[k].op
                    if first is None:
                        raise self.error(block, "an exec mask below the loop's is not saved")
                    t = self.p.allocate_temp(self.p.lane_mask)
                    phi = Instruction("p_linear_phi", "PSEUDO", [Operand(first)] * len(preds),
                                      [Definition(t)])
                    block.instructions.insert(at, phi)
                    at += 1
                    loop.outer_phis.append(phi)
                    stack[k] = _Mask(t, stack[k].loop)
            if loop.divergent_continue:
                first = stack[-1].op
                assert first is not None  # materialized by the preheader
                t = self.p.allocate_temp(self.p.lane_mask)
                phi = Instruction("p_linear_phi", "PSEUDO", [Operand(first)] * len(preds),
                                  [Definition(t)])
                block.instructions.insert(at, phi)
                at += 1
                loop.phi = phi
                stack[-1] = _Mask(t, loop=True)
                stack.append(_Mask(t))
                restore = True
            else:
                stack[-1] = _Mask(None, loop=True)
        elif block.kind._value_ & _LOOP_EXIT:
            if not self.loops:
                raise self.error(block, "loop exit without a loop")
            loop = self.loops.pop()
            hpreds = loop.header.linear_preds
            for k, phi in enumerate(loop.outer_phis or []):
                phi.operands = [phi.operands[0]] + [Operand(self.materialize(q, k))
                                                    for q in hpreds[1:]]
            if loop.phi is not None:
                loop.phi.operands = [loop.phi.operands[0]] + [
                    Operand(self.materialize(q, loop.num_masks - 1)) for q in hpreds[1:]]
                restore = True
            n = loop.num_masks
            if loop.divergent_break:
                restore = True
                n -= 1
            if any(len(self.stacks[q]) < n for q in preds):
                raise self.error(block, "a predecessor has fewer exec masks than the loop")
            stack = []
            for k in range(n):
                stack.append(self.join(block, at, preds, k))
                at = block.phi_end()
            # without a divergent break the loop's active lanes replaced the
            # entry's top mask: give it back its own kind (a later divergent
            # continue of an outer loop must find that loop's mask below it)
            stack[n - 1].loop = loop.outer_loop
        elif len(preds) == 1:
            stack = [_Mask(m.op, m.loop) for m in self.stacks[preds[0]]]
        else:
            sizes = {len(self.stacks[q]) for q in preds}
            if len(sizes) != 1:
                raise self.error(block, f"predecessors with different exec stacks {sizes}")
            last = sizes.pop() - 1
            stack = []
            for k in range(last):
                stack.append(self.join(block, at, preds, k))
                at = block.phi_end()
            if block.kind._value_ & _MERGE:
                restore = True
            else:
                tops = [self.stacks[q][last] for q in preds]
                same = all(m.op is not None and m.op == tops[0].op for m in tops)
                stack.append(_Mask(tops[0].op if same else None,
                                   all(m.loop for m in tops)))
        self.stacks[idx] = stack
        if restore:
            top = stack[-1]
            if top.op is None:
                raise self.error(block, "no saved mask to restore EXEC from")
            b = Builder(self.p, block, block.phi_end())
            self.copy_to_exec(b, top.op)
            if self.wqm and self.kills and len(stack) == 2:
                # back at the top level in whole-quad mode: lanes a discard killed return
                # as helper lanes of their quads (ACO's transition back to WQM)
                b.inst(lm_opcode(self.p, "wqm"), [exec_def(self.p), scc_def(self.p)],
                       [exec_op(self.p)])

    def join(self, block: Block, at: int, preds: list[int], k: int) -> _Mask:
        """Entry k of the stacks of `preds` joined at `block` (a phi if they differ)."""
        entries = [self.stacks[q][k] for q in preds]
        loop = all(m.loop for m in entries)
        if all(m.op == entries[0].op for m in entries):
            return _Mask(entries[0].op, loop)
        ops = [self.materialize(q, k) for q in preds]
        if all(o == ops[0] for o in ops):
            return _Mask(ops[0], loop)
        return _Mask(self.linear_phi(block, at, ops), loop)

    # -- branch code (block end) -----------------------------------------------
    def take_branch(self, block: Block) -> Instruction:
        if not block.instructions or block.instructions[-1].opcode not in _BRANCHES:
            raise self.error(block, "block with successors does not end in a branch")
        return block.instructions.pop()

    def branch_code(self, block: Block) -> None:
        idx = block.index
        succs = block.linear_succs
        if not succs:
            return
        stack = self.stacks[idx]
        kind = block.kind._value_
        p = self.p
        if kind & _LOOP_PREHEADER:
            self.preheader(block)
            return
        if kind & _CONTINUE_OR_BREAK:
            self.check_succs(block, 2)
            self.take_branch(block)
            b = Builder(p, block)
            popped = False
            while stack and not stack[-1].loop:
                stack.pop()
                popped = True
            if not stack:
                raise self.error(block, "continue-or-break outside a loop")
            if popped:
                assert stack[-1].op is not None
                self.copy_to_exec(b, stack[-1].op)
            b.cbranch_nz(exec_op(p), succs[1], succs[0])
            return
        if kind & _UNIFORM:
            br = block.instructions[-1] if block.instructions else None
            if br is None or br.opcode not in _BRANCHES:
                raise self.error(block, "uniform block does not end in a branch")
            return
        if kind & _BRANCH:
            self.check_succs(block, 2)
            br = self.take_branch(block)
            if br.opcode != "p_cbranch_z" or not br.operands or br.operands[0].temp is None \
                    or br.operands[0].rc != p.lane_mask:
                raise self.error(block, "a divergent branch needs p_cbranch_z on a lane mask",
                                 br)
            b = Builder(p, block)
            saved = p.allocate_temp(p.lane_mask)
            b.inst(lm_opcode(p, "and_saveexec"), [Definition(saved), scc_def(p), exec_def(p)],
                   [br.operands[0], exec_op(p)])
            stack[-1].op = saved
            stack.append(_Mask(None))
            b.cbranch_z(exec_op(p), succs[1], succs[0])
            return
        if kind & _INVERT:
            self.check_succs(block, 2)
            self.take_branch(block)
            if len(stack) < 2 or stack[-2].op is None:
                raise self.error(block, "invert block without a saved mask")
            b = Builder(p, block)
            self.sop2(b, "andn2", exec_def(p), stack[-2].op, exec_op(p))
            b.cbranch_z(exec_op(p), succs[1], succs[0])
            return
        if kind & (_BREAK | _CONTINUE):
            self.check_succs(block, 2)
            self.take_branch(block)
            self.break_or_continue(block, bool(kind & _BREAK))
            return
        raise self.error(block, f"no exec-mask rule for a block of kind {block.kind.names()}")

    def check_succs(self, block: Block, n: int) -> None:
        if len(block.linear_succs) != n:
            raise self.error(block, f"expected {n} linear successors, found "
                             f"{block.linear_succs}")

    def break_or_continue(self, block: Block, is_break: bool) -> None:
        p = self.p
        stack = self.stacks[block.index]
        succs = block.linear_succs
        b = Builder(p, block)
        cond: Temp | None = None
        for k in range(len(stack) - 2, -1, -1):
            m = stack[k]
            if not is_break and m.loop:
                break
            if m.op is None:
                raise self.error(block, "an exec mask below the top is not saved")
            t = p.allocate_temp(p.lane_mask)
            cond = self.sop2(b, "andn2", Definition(t), m.op, exec_op(p))
            m.op = t
            if m.loop:
                break
        else:
            if is_break:
                raise self.error(block, "divergent break outside a loop")
        if cond is None:
            raise self.error(block, "divergent continue without a mask to remove lanes from")
        nxt = p.blocks[p.blocks[succs[1]].linear_succs[0]]
        if not nxt.kind & (BlockKind.INVERT | BlockKind.MERGE):
            self.copy_to_exec(b, lm_const(p, 0))
        b.cbranch_nz(Operand(cond, phys=PhysReg.of(SCC)), succs[1], succs[0])

    def preheader(self, block: Block) -> None:
        p = self.p
        idx = block.index
        if idx + 1 >= len(p.blocks) or not p.blocks[idx + 1].kind & BlockKind.LOOP_HEADER:
            raise self.error(block, "loop preheader not followed by a loop header")
        header = p.blocks[idx + 1]
        depth = header.loop_nest_depth
        div_break = div_cont = has_discard = False
        i = idx + 1
        while i < len(p.blocks) and p.blocks[i].loop_nest_depth >= depth:
            lb = p.blocks[i]
            i += 1
            if not has_discard:
                has_discard = any(ins.opcode in _DISCARDS for ins in lb.instructions)
            lk = lb.kind._value_
            if lb.loop_nest_depth != depth or lk & _UNIFORM:
                continue
            if lk & _BREAK:
                div_break = True
            elif lk & _CONTINUE:
                div_cont = True
        stack = self.stacks[idx]
        outer_loop = stack[-1].loop
        if div_break or div_cont:
            restore = self.materialize(idx, len(stack) - 1)
            if div_break:
                stack.append(_Mask(restore))
        self.loops.append(_Loop(header, len(stack), div_break, div_cont, outer_loop,
                                has_discard))

    # -- driver ------------------------------------------------------------------
    # -- discards (inside a block) -----------------------------------------------
    def discards(self, block: Block) -> None:
        """Rewrite the block's p_discard_if / p_demote_to_helper (see the
        module docstring, "Discards"), p_is_helper, and, in whole-quad mode, put
        the instructions that need the exact mask (exports) in exact mode."""
        if not any(ins.opcode in _REWRITTEN or self.wqm and _needs_exact(ins.opcode)
                   for ins in block.instructions):
            return
        i = 0
        while i < len(block.instructions):
            instr = block.instructions[i]
            if self.wqm and _needs_exact(instr.opcode):
                i = self.exact_run(block, i)
                continue
            if instr.opcode == "p_is_helper":
                del block.instructions[i]
                b = Builder(self.p, block, i)
                self.is_helper(block, b, instr)
                i = b.index if b.index is not None else len(block.instructions)
                continue
            if instr.opcode not in _DISCARDS:
                i += 1
                continue
            if self.p.stage not in (COMPUTE_CS, FRAGMENT_FS):
                raise self.error(block, f"{instr.opcode} in a {self.p.stage.text} program: "
                                 "only compute and fragment programs discard", instr)
            del block.instructions[i]
            b = Builder(self.p, block, i)
            if self.wqm and instr.opcode == "p_demote_to_helper":
                self.demote(block, b, instr)
            else:
                self.discard(block, b, instr)
            i = b.index if b.index is not None else len(block.instructions)
            block.kind |= BlockKind.USES_DISCARD

    def exact_run(self, block: Block, i: int) -> int:
        """Instructions from `i` that need the exact mask run with EXEC := EXEC & exact
        (whole-quad mode), EXEC restored after them; returns the index after the run."""
        p = self.p
        exact = self.stacks[block.index][0].op
        if exact is None:
            raise self.error(block, "whole-quad mode without a saved exact mask")
        saved = p.allocate_temp(p.lane_mask)
        block.instructions.insert(i, Instruction(
            lm_opcode(p, "and_saveexec"), "SOP1", [Operand(exact), exec_op(p)],
            [Definition(saved), scc_def(p), exec_def(p)]))
        i += 1
        while i < len(block.instructions) and _needs_exact(block.instructions[i].opcode):
            i += 1
        rest = {ins.opcode for ins in block.instructions[i:]}
        if rest - {"p_logical_end", "s_endpgm"} or "s_endpgm" not in rest:
            block.instructions.insert(i, Instruction("p_parallelcopy", "PSEUDO",
                                                     [Operand(saved)], [exec_def(p)]))
            i += 1
        return i

    def is_helper(self, block: Block, b: Builder, instr: Instruction) -> None:
        """The helper lanes: in EXEC, not in the exact mask (none without whole-quad
        mode: EXEC is exact there)."""
        p = self.p
        d = instr.definitions[0]
        if not self.wqm:
            b.inst(lm_opcode(p, "mov"), [d], [lm_const(p, 0)])
            return
        exact = self.stacks[block.index][0].op
        assert exact is not None
        self.sop2(b, "andn2", d, exec_op(p), exact)

    def demote(self, block: Block, b: Builder, instr: Instruction) -> None:
        """Whole-quad mode: the lanes leave the exact mask (the stack's bottom) and
        stay in EXEC as helper lanes; no exact lane left ends the wave."""
        p = self.p
        op = instr.operands[0] if len(instr.operands) == 1 else None
        if op is None or instr.definitions:
            raise self.error(block, f"{instr.opcode} takes one operand", instr)
        lanes = const_lanes(p, op)
        if lanes == 0:
            return
        if lanes == -1 or is_exec(op):
            cond: Operand | Temp = exec_op(p)
        elif op.temp is not None and op.rc == p.lane_mask and op.phys is None:
            c = p.allocate_temp(p.lane_mask)
            self.sop2(b, "and", Definition(c), op.temp, exec_op(p))
            cond = c
        else:
            raise self.error(block, f"{instr.opcode} needs a lane-mask temp, exec or -1",
                             instr)
        bottom = self.stacks[block.index][0]
        assert bottom.op is not None
        t = p.allocate_temp(p.lane_mask)
        exit_cond = self.sop2(b, "andn2", Definition(t), bottom.op, cond)
        bottom.op = t
        b.pseudo("p_exit_early_if_not", (), [Operand(exit_cond, phys=PhysReg.of(SCC))])

    def discard(self, block: Block, b: Builder, instr: Instruction) -> None:
        p = self.p
        if len(instr.operands) != 1 or instr.definitions:
            raise self.error(block, f"{instr.opcode} takes one operand (a lane mask, "
                             "exec or the constant -1) and no definition", instr)
        op = instr.operands[0]
        lanes = const_lanes(p, op)
        if op.const is not None and lanes is None:
            raise self.error(block, "a constant discard condition must be 0 or -1", instr)
        if lanes == 0:
            return  # discards no lane
        stack = self.stacks[block.index]
        if lanes == -1 or is_exec(op):
            # every active lane: cond := EXEC, EXEC := 0 (SCC := 0)
            cond = p.allocate_temp(p.lane_mask)
            scc = scc_def(p)
            b.inst(lm_opcode(p, "and_saveexec"), [Definition(cond), scc, exec_def(p)],
                   [lm_const(p, 0), exec_op(p)])
            assert scc.temp is not None
            exit_cond = scc.temp
        elif op.temp is not None and op.rc == p.lane_mask and op.phys is None:
            cond = op.temp
            if len(stack) > 1:
                # only active lanes are discarded: the others' bits of the
                # condition must not leave the outer masks
                cond = p.allocate_temp(p.lane_mask)
                self.sop2(b, "and", Definition(cond), op.temp, exec_op(p))
            exit_cond = self.sop2(b, "andn2", exec_def(p), exec_op(p), cond)
        else:
            raise self.error(block, f"{instr.opcode} needs a lane-mask temp, exec or -1",
                             instr)
        # the lanes leave every mask on the stack, innermost first; the
        # last one is the program's (all lanes still alive): none left ends
        # the wave
        done: dict[int, Temp] = {}
        for k in range(len(stack) - 2, -1, -1):
            m = stack[k]
            if m.op is None:
                raise self.error(block, "an exec mask below the top is not saved", instr)
            if k > 0 and m.op.id in done:
                m.op = done[m.op.id]
                continue
            t = p.allocate_temp(p.lane_mask)
            exit_cond = self.sop2(b, "andn2", Definition(t), m.op, cond)
            done[m.op.id] = t
            m.op = t
        stack[-1].op = None  # the top mask is EXEC's value now
        b.pseudo("p_exit_early_if_not", (), [Operand(exit_cond, phys=PhysReg.of(SCC))])
        if self.wqm and len(stack) == 2:
            # top level in whole-quad mode: the killed lanes' quad-mates keep them as
            # helper lanes (EXEC := whole quads of the exact mask)
            exact = stack[0].op
            assert exact is not None
            b.inst(lm_opcode(p, "wqm"), [exec_def(p), scc_def(p)], [Operand(exact)])

    # -- driver ------------------------------------------------------------------
    def run(self) -> None:
        for block in self.p.blocks:
            self.coupling(block)
            self.discards(block)
            self.branch_code(block)


def insert_exec_mask(program: Program) -> None:
    """Insert the EXEC code of divergent control flow (see the module docstring)."""
    _ExecMask(program).run()
