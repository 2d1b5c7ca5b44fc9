"""Execution-mask contexts of a program before insert_exec_mask.

Source: ACO's README.md (Mesa src/amd/compiler) "Control flow" (the logical CFG decides which lanes run a
block) and "Value Numbering" (ACO keys value numbering on an *exec id*, so
that instructions whose result depends on the inactive lanes are never
merged across different EXEC values). ACO counts nesting depth; radcc gives
each context a number and proves equality structurally instead:

- the entry block, loop headers, loop exits and blocks entered through a
  divergent branch (a ``p_cbranch_*`` on a lane mask) start a new context;
- a block whose only logical predecessor P has it as its only logical
  successor, or ends in a uniform branch (on SCC, EXEC or a constant),
  continues P's context (the same lanes arrive);
- a join (two or more logical predecessors, not a loop header) continues the
  context of its logical immediate dominator D when D ends in a conditional
  branch and no block laid out between D and the join is a break, continue
  or discard block (then every lane that left D arrives; ACO's layout puts
  the whole if/else between the two);
- inside a block, an instruction that writes EXEC, discards lanes
  (``p_discard_if``) or ends them early starts a new context after it.

`exec_ids(program)` returns, for each instruction (by ``id()``), its
context number: two instructions with the same number run with the same
EXEC whenever one dominates the other. Linear-only blocks (no logical
predecessors and not the entry) get contexts of their own. Linear in the
number of instructions; reads ``Block.logical_idom`` (`require_dominance`:
computed if not current).
"""

from __future__ import annotations

from radcc.ir.dominance import require_dominance
from radcc.ir.program import Block, BlockKind, Instruction, Program
from radcc.ir.regclass import EXEC, EXEC_HI, SCC

# block kinds as the flags' int values (tested per block: an enum.Flag `&` is three
# Python-level calls)
_LEAVES: int = (BlockKind.BREAK | BlockKind.CONTINUE | BlockKind.CONTINUE_OR_BREAK
                | BlockKind.DISCARD_EARLY_EXIT | BlockKind.USES_DISCARD).value
_LOOPISH: int = (BlockKind.LOOP_HEADER | BlockKind.LOOP_EXIT).value
_NEW_CONTEXT_OPS = frozenset({"p_discard_if", "p_exit_early_if", "p_demote_to_helper"})
_COND_BRANCHES = frozenset({"p_cbranch_z", "p_cbranch_nz"})


def writes_exec(instr: Instruction) -> bool:
    return any(d.phys is not None and d.phys.reg in (EXEC, EXEC_HI) for d in instr.definitions)


def reads_exec(instr: Instruction) -> bool:
    return any(o.phys is not None and o.phys.reg in (EXEC, EXEC_HI) and o.temp is None
               for o in instr.operands)


def _branch(block: Block) -> Instruction | None:
    for ins in reversed(block.instructions):
        if ins.opcode in _COND_BRANCHES or ins.opcode == "p_branch":
            return ins
        if not ins.is_pseudo or ins.opcode not in ("p_logical_end",):
            break
    return None


def _uniform_branch(block: Block) -> bool:
    """Does the block end in a branch that sends all its lanes the same way?"""
    br = _branch(block)
    if br is None or br.opcode == "p_branch":
        return True
    o = br.operands[0] if br.operands else None
    if o is None or o.const is not None:
        return True
    return o.phys is not None and o.phys.reg in (SCC, EXEC, EXEC_HI)


def _conditional(block: Block) -> bool:
    br = _branch(block)
    return br is not None and br.opcode in _COND_BRANCHES


def exec_ids(program: Program) -> dict[int, int]:
    """Context number of every instruction (keyed by ``id(instr)``)."""
    blocks = program.blocks
    require_dominance(program)
    idom = [b.logical_idom for b in blocks]
    leaves_prefix = [0] * (len(blocks) + 1)  # number of leaving blocks among blocks[:i]
    for i, b in enumerate(blocks):
        leaves_prefix[i + 1] = leaves_prefix[i] + (1 if b.kind._value_ & _LEAVES else 0)
    out_ctx: list[int] = [-1] * len(blocks)
    counter = 0
    result: dict[int, int] = {}
    for b in blocks:
        ctx = -1
        preds = b.logical_preds
        loopish = b.kind._value_ & _LOOPISH
        if b.index != 0 and preds and not loopish:
            if len(preds) == 1:
                p = blocks[preds[0]]
                if p.index < b.index and out_ctx[p.index] >= 0 and (
                        p.logical_succs == [b.index] or _uniform_branch(p)):
                    ctx = out_ctx[p.index]
            else:
                d = idom[b.index]
                if 0 <= d < b.index and out_ctx[d] >= 0 and _conditional(blocks[d]) and \
                        leaves_prefix[b.index] == leaves_prefix[d + 1]:
                    ctx = out_ctx[d]
        if ctx < 0:
            counter += 1
            ctx = counter
        for ins in b.instructions:
            result[id(ins)] = ctx
            new = ins.opcode in _NEW_CONTEXT_OPS
            if not new:
                for df in ins.definitions:  # `writes_exec`
                    ph = df.phys
                    if ph is not None and (ph.reg == EXEC or ph.reg == EXEC_HI):
                        new = True
                        break
            if new:
                counter += 1
                ctx = counter
        out_ctx[b.index] = ctx
    return result
