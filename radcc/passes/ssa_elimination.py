"""SSA elimination: phis become parallel copies at the end of predecessors
(ACO's README.md "SSA Elimination"; ACO's aco_ssa_elimination.cpp).

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

SCC at linear copies (ACO: the linear phi copies get ``tmp_in_scc`` = SCC live
there and a ``scratch_sgpr``; aco_ssa_elimination.cpp / aco_lower_to_hw_instr.cpp):
a copy into a linear VGPR runs in all lanes with two ``s_not`` of EXEC, and an
SGPR swap cycle without a spare register uses ``s_xor``; both clobber SCC. When
an SCC value is live at a linear copy (a live-out temp in SCC, or a branch after
the copy that reads SCC) the copy gets ``tmp_in_scc`` (lower_to_hw keeps SCC
alive across it) and ``scratch_sgpr``: an SGPR that holds no value live at the
end of P (by a liveness computed here on the allocated program), is none of the
copy's sources or destinations nor read after it, and is not fixed anywhere in
the program; preferring the highest free one below the program's SGPR count
(as ACO searches down from max_used_sgpr), else the lowest above it (the count
grows). Without any free SGPR the copy has no scratch_sgpr and lower_to_hw
reports the conflict.
"""

from __future__ import annotations

from radcc.ir.fields import make_fields
from radcc.ir.program import Block, BlockKind, Definition, Instruction, Operand, Program
from radcc.ir.regclass import SCC, PhysReg, RegClass, s1
from radcc.passes.live_var_analysis import compute_live_sets
from radcc.passes.ra_support import branch_index, logical_end_index, reg_range


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
    n.uniform_if_depth = b.uniform_if_depth
    n.divergent_if_logical_depth = b.divergent_if_logical_depth
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
    n.instructions.append(Instruction("p_branch", "PSEUDO",
                                      fields=make_fields("PSEUDO", {"targets": [b.index]})))
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


def _regs(phys: PhysReg | None, rc: RegClass | None) -> range:
    if phys is None:
        return range(0)
    return range(phys.reg, phys.reg + (rc.size if rc is not None else 1))


class _ScratchFinder:
    """SCC liveness and a free SGPR at the end of a block (module docstring),
    from the allocated program before its phis are removed."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.live_out = compute_live_sets(program)[1]  # phi operands included
        self.where: dict[int, tuple[PhysReg, RegClass]] = {}
        self.fixed: set[int] = set()  # registers named without a temp somewhere
        for b in program.blocks:
            for instr in b.instructions:
                regs: list[Definition | Operand] = [*instr.definitions, *instr.operands]
                for x in regs:
                    if x.temp is not None and x.phys is not None:
                        self.where.setdefault(x.temp.id, (x.phys, x.temp.rc))
                    elif x.temp is None and x.phys is not None:
                        self.fixed.update(_regs(x.phys, x.rc))

    def live_at_end(self, b: Block, after: list[Instruction]) -> set[int]:
        """Register numbers holding values live at the end of b, before `after`."""
        live: set[int] = set()
        for t in self.live_out[b.index]:
            if t in self.where:
                live.update(_regs(*self.where[t]))
        for instr in after:
            for o in instr.operands:
                live.update(_regs(o.phys, o.rc))
        return live

    def give(self, pc: Instruction, b: Block, after: list[Instruction]) -> None:
        """Mark `pc` (a copy of linear phis at the end of b) as in the module docstring."""
        live = self.live_at_end(b, after)
        if SCC not in live and not any(d.phys is not None and d.phys.reg == SCC
                                       for d in pc.definitions):
            return
        pc.fields["tmp_in_scc"] = True
        busy = live | self.fixed
        regs: list[Definition | Operand] = [*pc.definitions, *pc.operands]
        for x in regs:
            busy.update(_regs(x.phys, x.rc))
        lo, hi = reg_range(self.program, s1)
        count = self.program.config.num_sgprs
        used = max((ph.reg + rc.size for ph, rc in self.where.values() if ph.reg < hi),
                   default=lo)
        top = count if isinstance(count, int) and lo < count <= hi else min(used, hi)
        for r in (*range(top - 1, lo - 1, -1), *range(top, hi)):
            if r not in busy:
                pc.fields["scratch_sgpr"] = r
                if isinstance(count, int) and r >= count:
                    self.program.config.num_sgprs = r + 1
                return


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
            for k, pred in enumerate(preds):
                if k >= len(phi.operands):
                    break
                pair = _copy_pairs(phi, k)
                if pair is None:
                    continue
                lg, ln = edges.setdefault((pred, b.index), ([], []))
                (lg if logical else ln).append(pair)
    # SCC liveness and scratch SGPRs for the linear copies (a liveness computation:
    # only when some linear phi needs a copy), from the program with its phis
    scratch = _ScratchFinder(program) if any(ln for _, ln in edges.values()) else None
    for b in program.blocks:
        k = b.phi_end()
        if k:
            del b.instructions[:k]
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
            at = branch_index(where)
            pc = _parallelcopy(ln)
            if scratch is not None:
                # after a split, what is live on the edge is a subset of p's live-out
                scratch.give(pc, p, where.instructions[at:])
            where.instructions.insert(at, pc)
