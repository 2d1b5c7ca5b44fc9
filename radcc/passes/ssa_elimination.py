"""SSA elimination: phis become parallel copies at the end of predecessors
(seeds/001 "SSA Elimination"; ACO's aco_ssa_elimination.cpp).

`ssa_elimination(program)` expects a register-allocated program (every phi
definition and temp operand has a `PhysReg`) and guarantees:

- no ``p_phi``/``p_linear_phi`` remains;
- for each edge P -> B with phis, one ``p_parallelcopy`` in P copies every
  phi operand coming from P whose register differs from its phi's
  definition (operands already in place and undef operands need nothing;
  constants are copied): the copies of *logical* phis go into P's logical
  part, right before ``p_logical_end`` (after it EXEC may change), the
  copies of *linear* phis at the very end of P, before its branch;
- critical edges: a copy on the edge P -> B where P has another successor
  (in the CFG of that phi) would clobber a register the other successor
  may rely on, so such an edge gets a new block N (appended at the end of
  the layout, ending in ``p_branch BB<B>``) holding the copies; P's branch
  and both CFGs are redirected through N. ACO's CFGs are built without
  critical edges, so this only triggers on hand-written IR.

Branch targets are explicit (``fields["targets"]``): a conditional branch
with one target falls through to P's other linear successor.
"""

from __future__ import annotations

from radcc.ir.program import Block, BlockKind, Definition, Instruction, Operand, Program
from radcc.passes.ra_support import branch_index, logical_end_index


def _copy_pairs(phi: Instruction, k: int) -> tuple[Definition, Operand] | None:
    d = phi.definitions[0]
    o = phi.operands[k]
    if o.is_undef or (o.temp is None and o.const is None):
        return None
    if o.temp is not None and o.phys is not None and o.phys == d.phys:
        return None
    if d.phys is None or (o.temp is not None and o.phys is None):
        raise ValueError(f"ssa_elimination: phi {phi!r} is not register-allocated")
    nd = Definition(d.temp, phys=d.phys) if d.temp is not None else Definition.fixed(
        d.phys, d.rc)  # type: ignore[arg-type]
    no = Operand(o.temp, phys=o.phys) if o.temp is not None else Operand(
        const=o.const, const_bytes=o.const_bytes)
    if o.temp is not None:
        no.is_kill = o.is_kill
    return nd, no


def _parallelcopy(pairs: list[tuple[Definition, Operand]]) -> Instruction:
    return Instruction("p_parallelcopy", "PSEUDO", [o for _, o in pairs], [d for d, _ in pairs])


def _replace(lst: list[int], old: int, new: int) -> None:
    for i, x in enumerate(lst):
        if x == old:
            lst[i] = new


def _split_edge(program: Program, p: Block, b: Block) -> Block:
    """A new block on the edge p -> b (both CFGs where the edge exists)."""
    n = program.create_block(BlockKind.NONE)
    n.loop_nest_depth = b.loop_nest_depth
    logical = b.index in p.logical_succs
    linear = b.index in p.linear_succs
    if logical:
        _replace(p.logical_succs, b.index, n.index)
        _replace(b.logical_preds, p.index, n.index)
        n.logical_preds, n.logical_succs = [p.index], [b.index]
        n.instructions.append(Instruction("p_logical_start", "PSEUDO"))
        n.instructions.append(Instruction("p_logical_end", "PSEUDO"))
    if linear:
        _replace(p.linear_succs, b.index, n.index)
        _replace(b.linear_preds, p.index, n.index)
        n.linear_preds, n.linear_succs = [p.index], [b.index]
    n.instructions.append(Instruction("p_branch", "PSEUDO", fields={"targets": [b.index]}))
    for lst in (p.logical_succs, p.linear_succs, b.logical_preds, b.linear_preds):
        lst.sort()  # phis are gone: the order no longer carries meaning
    if p.instructions:
        br = p.instructions[-1]
        targets = br.fields.get("targets")
        if isinstance(targets, list):
            if b.index in targets:
                _replace(targets, b.index, n.index)
            elif br.opcode in ("p_cbranch_z", "p_cbranch_nz") and len(targets) == 1:
                targets.append(n.index)
    return n


def ssa_elimination(program: Program) -> None:
    """Replace phis by parallel copies in the predecessors (see module docstring)."""
    # (pred, block, logical?) -> copies; collected first so that edge splits
    # do not disturb the operand order of phis still to be read
    edges: dict[tuple[int, int], tuple[list, list]] = {}
    for b in program.blocks:
        for phi in b.instructions:
            if not phi.is_phi:
                break
            logical = phi.opcode == "p_phi"
            preds = b.logical_preds if logical else b.linear_preds
            for k, p in enumerate(preds):
                if k >= len(phi.operands):
                    break
                pair = _copy_pairs(phi, k)
                if pair is None:
                    continue
                lg, ln = edges.setdefault((p, b.index), ([], []))
                (lg if logical else ln).append(pair)
    for b in program.blocks:
        if b.instructions and b.instructions[0].is_phi:
            b.instructions = [i for i in b.instructions if not i.is_phi]
    for (pi, bi), (lg, ln) in edges.items():
        p, b = program.blocks[pi], program.blocks[bi]
        critical = (lg and len(p.logical_succs) > 1) or (ln and len(p.linear_succs) > 1)
        where = _split_edge(program, p, b) if critical else p
        if lg:
            at = logical_end_index(where)
            if at < 0:
                at = branch_index(where)
            where.instructions.insert(at, _parallelcopy(lg))
        if ln:
            where.instructions.insert(branch_index(where), _parallelcopy(ln))
