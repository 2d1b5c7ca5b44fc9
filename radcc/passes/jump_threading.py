"""Jump threading: remove empty blocks and send branches to their final
target (seeds/001 "Jump Threading"; the idea of ACO's aco_jump_threading.cpp).

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
- linear and logical CFG edges are updated together (predecessor lists
  stay sorted); blocks keep their indices, emptied blocks stay in the list.

Block indices never change, so the layout (fall-through order) is kept.
"""

from __future__ import annotations

from radcc.ir.program import Block, Instruction, Program

_SKIPPABLE = frozenset({"p_logical_start", "p_logical_end"})
_INVERT = {"p_cbranch_z": "p_cbranch_nz", "p_cbranch_nz": "p_cbranch_z"}


def _is_empty(b: Block) -> bool:
    ins = b.instructions
    if not ins or ins[-1].opcode != "p_branch" or ins[-1].operands or ins[-1].definitions:
        return False
    return all(i.opcode in _SKIPPABLE for i in ins[:-1])


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
        pred.instructions[-1] = Instruction("p_branch", "PSEUDO", fields={"targets": [t[0]]})
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
    for b in program.blocks:
        if any(i.is_phi for i in b.instructions):
            raise ValueError(f"jump_threading: BB{b.index} still has phis; run "
                             "ssa_elimination first")
    changed = True
    while changed:
        changed = False
        for b in reversed(program.blocks):
            if _try_remove(program, b):
                changed = True
