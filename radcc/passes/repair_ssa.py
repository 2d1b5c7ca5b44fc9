"""Repair SSA for linear temporaries over the linear CFG (ACO's README.md "Repair SSA").

A uniform value lives in SGPRs (a *linear* temporary: SGPRs and linear VGPRs
ignore EXEC, so their liveness follows the linear CFG). Instruction selection
only guarantees that its definition dominates its uses in the *logical* CFG.
The linear CFG can differ (ACO's README.md lists the cases: the extra break at the
end of a loop for an empty EXEC, empty-exec skips, an SGPR defined on one side
of a divergent if whose other side ended in a break), so a definition may not
dominate a use linearly; register allocation then finds the value live on a
linear path where it was never defined (e.g. live into the entry block).

`repair_ssa(program)` guarantees afterwards, for every operand that reads a
linear temporary ``%t`` defined in block D and used in block U (for a
``p_linear_phi`` operand: at the end of the matching linear predecessor; for a
``p_phi`` operand: at the end of the matching logical predecessor, where
lower_phis merges it): D dominates U in the linear CFG, or the operand now
reads a new ``p_linear_phi`` that does. The phis are the SSA reconstruction of
``%t`` along the linear CFG between D and U:

- a block's incoming value is its forward linear predecessors' outgoing
  values: ``%t`` at the end of D, *undef* for a predecessor before D (a path
  on which ``%t`` was not defined: the logical CFG never uses the value
  there, so any value will do, but the phi ends ``%t``'s live range), the
  block's own incoming value for the other blocks between D and U;
- equal incoming values (or a block D dominates linearly) need no phi;
  otherwise ``RC: %new = p_linear_phi`` with one operand per linear
  predecessor is inserted at the start of the block (a back edge of a loop
  header between D and U carries the phi itself: ``%t`` is not redefined in
  that loop);
- only blocks from which U is reachable along forward edges are visited, and
  a block's phi is shared by all uses of ``%t`` (memoized per block and temp);
- only uses in blocks where a repair can be needed are looked at (a block
  whose logical dominators each dominate it linearly needs none, ACO's
  ``block_needs_repair``); when no block needs one the pass returns at once;
- a ``p_phi`` operand (a lane mask of a boolean phi) must stay available in
  the logical CFG too, where the blocks of those phis (invert blocks ...) may
  not exist: it reads a ``p_linear_phi`` placed in the logical predecessor U
  itself.

That D dominates the uses in the logical CFG is a precondition (as in ACO);
a use no linear path from D reaches reads ``RC: undef``. Unreachable blocks
are left alone. (ACO's pass builds logical ``p_phi``s and lets lower_phis
turn SGPR phis into linear ones; radcc's lower_phis only lowers boolean phis,
so the linear phis are built here.) The pass reads ``Block.logical_idom``/``linear_idom``
(`require_dominance`: computed if not current). It runs right after isel (before lower_phis, which lowers
boolean phis whose operands it may have repaired) and again after the
optimizer.
"""

from __future__ import annotations

from radcc.ir.dominance import DominatorTree, require_dominance
from radcc.ir.program import Block, Definition, Instruction, Operand, Program
from radcc.ir.regclass import RegClass, Temp

__all__ = ["is_linear_class", "repair_ssa"]

# A reaching value: a temp, or None (undefined on that path).
Reaching = Temp | None


def is_linear_class(rc: RegClass | None) -> bool:
    """SGPRs and linear VGPRs: live along the linear CFG."""
    return rc is not None and (rc.is_sgpr or rc.linear)


class _Repair:
    def __init__(self, program: Program) -> None:
        self.p = program
        require_dominance(program)
        self.dom = DominatorTree.of_program(program, linear=True)
        self.needs = _needs_repair(program, self.dom)
        self.def_block: dict[int, int] = {}
        self.values: dict[tuple[int, int], Reaching] = {}  # (temp id, block) -> incoming
        self.new_phis: dict[int, list[Instruction]] = {}
        self.in_block: dict[tuple[int, int], Reaching] = {}
        if not any(self.needs):
            return
        for b in program.blocks:
            for ins in b.instructions:
                for d in ins.definitions:
                    if d.temp is not None and is_linear_class(d.temp.rc):
                        self.def_block[d.temp.id] = b.index

    # -- the reconstruction -------------------------------------------------------------
    def value_at_end(self, t: Temp, d: int, u: int) -> Reaching:
        """The value of `t` (defined in block `d`) at the end of block `u`."""
        if u == d:
            return t
        return self.value_at_start(t, d, u)

    def value_at_start(self, t: Temp, d: int, u: int) -> Reaching:
        key = (t.id, u)
        if key in self.values:
            return self.values[key]
        blocks = self.p.blocks
        if u < d:  # before the definition in layout order: no forward path from it
            return None
        # blocks between d and u from which u is reachable along forward edges
        need = {u}
        for i in range(u - 1, d, -1):
            if any(i < s <= u and s in need for s in blocks[i].linear_succs):
                need.add(i)
        for i in range(d + 1, u + 1):
            if i in need and (t.id, i) not in self.values:
                self.values[(t.id, i)] = self._incoming(t, d, blocks[i])
        return self.values[key]

    def _incoming(self, t: Temp, d: int, block: Block) -> Reaching:
        i = block.index
        if self.dom.dominates(d, i):
            return t
        fwd = self._pred_values(t, d, block)
        if not fwd:
            return None
        first = fwd[0]
        if all(_same(v, first) for v in fwd[1:]):
            return first
        return self._phi(t, block, fwd)

    def _pred_values(self, t: Temp, d: int, block: Block) -> list[Reaching]:
        """The values at the end of the forward linear predecessors (those before
        `block`; a back edge carries the block's own value: t is not redefined inside
        a loop whose header comes after d)."""
        i = block.index
        fwd: list[Reaching] = []
        for p in block.linear_preds:
            if p >= i:
                continue
            if p == d:
                fwd.append(t)
            elif p < d:
                fwd.append(None)
            else:
                fwd.append(self.values.get((t.id, p)))
        return fwd

    def value_in_logical_block(self, t: Temp, d: int, u: int) -> Reaching:
        """The value of `t` at the end of `u` as a temp defined in `u` itself when it is
        not `t`: a logical phi's operand must also be available in the logical CFG,
        where the blocks of the linear phis (invert blocks, ...) may be absent."""
        key = (t.id, u)
        if key in self.in_block:
            return self.in_block[key]
        v = self.value_at_start(t, d, u)
        block = self.p.blocks[u]
        if v is not None and not self._phi_defined_in(v, u):
            for p in block.linear_preds:
                if p < u:
                    self.value_at_end(t, d, p)
            v = self._phi(t, block, self._pred_values(t, d, block))
        self.in_block[key] = v
        return v

    def _phi_defined_in(self, v: Temp, u: int) -> bool:
        return any(ph.definitions[0].temp is v for ph in self.new_phis.get(u, ()))

    def _phi(self, t: Temp, block: Block, fwd: list[Reaching]) -> Temp:
        i = block.index
        new = self.p.allocate_temp(t.rc)
        ops: list[Operand] = []
        k = 0
        for p in block.linear_preds:
            if p >= i:
                ops.append(Operand(new))
            else:
                v = fwd[k]
                k += 1
                ops.append(Operand(v) if v is not None else Operand(rc=t.rc, undef=True))
        phi = Instruction("p_linear_phi", "PSEUDO", ops, [Definition(new)])
        self.new_phis.setdefault(i, []).append(phi)
        return new

    # -- the uses ------------------------------------------------------------------------
    def run(self) -> bool:
        progress = False
        dom = self.dom
        needs = self.needs
        if not any(needs):
            return False
        for b in self.p.blocks:
            if not dom.reachable(b.index):
                continue
            here = needs[b.index]
            for ins in b.instructions:
                if ins.opcode == "p_linear_phi":
                    preds: list[int] | None = b.linear_preds
                elif ins.opcode == "p_phi":
                    preds = b.logical_preds
                elif not here:
                    break  # phis come first: no other use here can need a repair
                else:
                    preds = None
                for k, o in enumerate(ins.operands):
                    t = o.temp
                    if t is None or not is_linear_class(t.rc):
                        continue
                    d = self.def_block.get(t.id)
                    if d is None or not dom.reachable(d):
                        continue
                    if preds is not None:
                        if k >= len(preds):
                            continue
                        u = preds[k]
                        if not needs[u] or not dom.reachable(u) or dom.dominates(d, u):
                            continue
                        if ins.opcode == "p_phi":
                            v = self.value_in_logical_block(t, d, u)
                        else:
                            v = self.value_at_end(t, d, u)
                    else:
                        u = b.index
                        if u == d or dom.dominates(d, u):
                            continue
                        v = self.value_at_start(t, d, u)
                    _replace(ins, k, o, v, t.rc)
                    progress = True
        for i, phis in self.new_phis.items():
            blk = self.p.blocks[i]
            blk.instructions[0:0] = phis
        return progress


def _needs_repair(program: Program, dom: DominatorTree) -> list[bool]:
    """Per block: whether a use there might not be dominated linearly by a definition
    that dominates it logically (ACO's block_needs_repair). False when every block on
    its logical dominator chain is linearly dominated by its logical idom (then every
    logical dominator dominates it linearly too); True for blocks outside the logical
    CFG (linear-only blocks)."""
    blocks = program.blocks
    needs = [False] * len(blocks)
    for b in blocks:
        i = b.index
        idom = b.logical_idom
        if i == 0:
            continue
        if idom < 0 or idom >= i:
            needs[i] = True
        else:
            needs[i] = needs[idom] or not dom.dominates(idom, i)
    return needs


def _same(a: Reaching, b: Reaching) -> bool:
    if a is None or b is None:
        return a is b
    return a.id == b.id


def _replace(ins: Instruction, k: int, o: Operand, v: Reaching, rc: RegClass) -> None:
    if v is None:
        new = Operand(rc=rc, undef=True)
        new.phys = o.phys
        ins.operands[k] = new
    else:
        o.temp = v


def repair_ssa(program: Program) -> None:
    """Insert the linear phis that make every linear temporary's definition dominate
    its uses in the linear CFG (module docstring)."""
    _Repair(program).run()
