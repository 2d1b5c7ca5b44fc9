"""Value numbering: dominator-tree-scoped removal of redundant instructions.

Source: ACO's README.md (Mesa src/amd/compiler) "Value Numbering" (after ACO's aco_opt_value_numbering.cpp,
Briggs/Cooper/Simpson's dominator-based value numbering). The phase runs on
SSA before the optimizer, after `dominance` filled ``Block.logical_idom`` /
``linear_idom``.

`value_numbering(program)` guarantees:

- every instruction that is free of side effects and has an earlier *equal*
  instruction whose block dominates its own is removed, and the uses of its
  definitions read the earlier one's (phi operands included, also along
  loop back edges); a removed definition marked precise makes the kept one
  precise;
- *equal* means: same opcode, format, fields (modifiers, DPP controls,
  offsets, cache bits ...), operands (same temps, constants of the same
  width and value, undef, fixed registers) and definitions (register
  classes, fixed registers); never two instructions that define EXEC;
- instructions whose result depends on which lanes are active -- that read
  EXEC, that give a VALU/VMEM/DS result in SGPRs (lane masks, carries,
  readlane/readfirstlane, ``p_as_uniform``), that read other lanes (DPP,
  permlanes, ds_bpermute/permute/swizzle) -- are equal only in the same EXEC
  context (`radcc.passes.exec_context.exec_ids`);
- loads (SMEM, GLOBAL, DS ...) without cache-policy bits are equal only in
  the same *memory generation*: a new generation starts at every store,
  atomic, barrier or other memory side effect and at every block that is
  not entered from its logical immediate dominator alone, so a load is
  never merged across a store or barrier on any path; VGPR loads also need
  the same EXEC context; atomics, stores, ``glc``/``dlc``/``slc`` loads are
  never merged;
- an instruction dominates another as ACO's ``dominates``: along the
  logical dominator tree without leaving a loop level on the way; an
  instruction defining SGPRs must also dominate in the linear CFG (SGPRs
  follow the linear CFG), so SSA dominance holds for the linear and the
  logical CFG afterwards;
- copies (``p_parallelcopy`` of one temp to a definition of the same class
  without a fixed register, one-operand ``p_create_vector``) are propagated
  and removed;
- an instruction with a definition fixed to a register (SCC, VCC, M0 ...)
  whose temp is used is never removed (the register would have to hold the
  earlier value across other writes).

Phis, branches, ``p_startpgm``, ``p_unit_test``, linear-VGPR pseudos,
reductions and anything that writes memory are kept. One pass over the
instructions in layout order (a topological order of the dominator tree),
one hash lookup each: linear.
"""

from __future__ import annotations

from typing import Any

from radcc.ir.dominance import DominatorTree, require_dominance
from radcc.ir.effects import CROSS_LANE_DS, can_eliminate, clobbers_memory
from radcc.ir.fields import DPP_FIELDS
from radcc.ir.program import Block, BlockKind, Instruction, Operand, Program
from radcc.ir.regclass import EXEC, EXEC_HI, Temp
from radcc.isa.classes import MEMORY_ENCODINGS
from radcc.passes.exec_context import exec_ids

# BlockKind.LOOP_HEADER's int value (tested per block: an enum.Flag `&` is Python calls)
_LOOP_HEADER: int = BlockKind.LOOP_HEADER.value
_LANE_PSEUDO = frozenset({"p_as_uniform", "p_wqm"})
_COPIES = frozenset({"p_parallelcopy", "p_create_vector"})  # `copy_source`'s opcodes
_MEM_FORMATS = MEMORY_ENCODINGS
_CROSS_LANE_VALU = ("v_readlane", "v_readfirstlane", "v_writelane", "v_permlane")


def _freeze(v: Any) -> Any:
    if isinstance(v, list | tuple):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _freeze(x)) for k, x in v.items()))
    return v


def _lane_dependent(instr: Instruction) -> bool:
    """Does the result depend on the EXEC mask or on other lanes?"""
    for o in instr.operands:
        if o.phys is not None and o.temp is None and o.phys.reg in (EXEC, EXEC_HI):
            return True
    fmt = instr.format
    if fmt not in ("SOP1", "SOP2", "SOPC", "SOPK", "SMEM", "PSEUDO"):  # a vector result
        for d in instr.definitions:
            if d.rc is not None and d.rc.is_sgpr:
                return True
    if instr.opcode in _LANE_PSEUDO:
        return True
    if instr.opcode.startswith(_CROSS_LANE_VALU) or instr.opcode in CROSS_LANE_DS:
        return True
    return fmt in ("VOP1", "VOP2", "VOPC", "VOP3", "VOP3P", "DPP") and \
        not DPP_FIELDS.isdisjoint(instr.fields)


def _operand_key(o: Operand) -> tuple:
    if o.const is not None:
        return ("c", o.const, o.const_bytes)
    phys = o.phys.reg_b if o.phys is not None else None
    if o.temp is not None:
        return ("t", o.temp.id, phys)
    return ("u" if o.is_undef else "r", o.rc, phys)  # classes compare as their names do


def _fixed_def_used(instr: Instruction, used: set[int]) -> bool:
    return any(d.phys is not None and d.temp is not None and d.temp.id in used
               for d in instr.definitions)


def _walk_dominates(log_idom: list[int], lin_idom: list[int], depths: list[int],
                    parent: int, child: int, linear: bool) -> bool:
    """ACO's dominates(): up the child's logical idom chain while above the parent
    and not outside the parent's loop level; with `linear`, the linear chain too."""
    depth = depths[parent]
    c = child
    while parent < c and depth <= depths[c]:
        nxt = log_idom[c]
        if nxt < 0 or nxt == c:
            break
        c = nxt
    if c != parent:
        return False
    if not linear:
        return True
    c = child
    while parent < c:
        nxt = lin_idom[c]
        if nxt < 0 or nxt == c:
            return False
        c = nxt
    return c == parent


class _Chains:
    """`_walk_dominates` in O(1) per query.

    When every idom precedes its block (``idom[c] < c`` wherever ``idom[c]`` is a
    block other than c: ACO's block order), a chain's indices fall strictly, so
    the logical walk reaches the parent exactly when the parent is a dominator-tree
    ancestor of the child (`DominatorTree` pre/post numbers) and no block on the
    chain below the parent lies at a smaller loop depth than the parent:
    ``low[k][c]``, the first block of depth < k on c's chain (-1: none), lies above
    the parent (index < parent). The linear walk is linear-tree ancestry. Queries
    on blocks outside the trees rooted at block 0, or on idoms not in that order,
    take the walk."""

    def __init__(self, log_idom: list[int], lin_idom: list[int], depths: list[int]) -> None:
        self.log_idom = log_idom
        self.lin_idom = lin_idom
        self.depths = depths
        ordered = all(d <= c for idom in (log_idom, lin_idom) for c, d in enumerate(idom))
        self.log_tree = DominatorTree(log_idom) if ordered else None
        self.lin_tree = DominatorTree(lin_idom) if ordered else None
        self.low: dict[int, list[int]] = {}

    def _low(self, k: int) -> list[int]:
        low = self.low.get(k)
        if low is None:
            depths, idom = self.depths, self.log_idom
            low = [-1] * len(idom)
            for c, d in enumerate(idom):  # idoms first: they precede their blocks
                if depths[c] < k:
                    low[c] = c
                elif 0 <= d < c:
                    low[c] = low[d]
            self.low[k] = low
        return low

    def dominates(self, parent: int, child: int, linear: bool) -> bool:
        lt = self.log_tree
        if lt is None or lt.pre[parent] < 0 or lt.pre[child] < 0 or (
                linear and self.lin_tree is not None and (self.lin_tree.pre[parent] < 0
                                                          or self.lin_tree.pre[child] < 0)):
            return _walk_dominates(self.log_idom, self.lin_idom, self.depths, parent, child,
                                   linear)
        if not lt.dominates(parent, child):
            return False
        k = self.depths[parent]
        if k > 0 and self._low(k)[child] > parent:
            return False  # the chain leaves the parent's loop level below it
        if not linear:
            return True
        lin = self.lin_tree
        assert lin is not None
        return lin.dominates(parent, child)


class _Ctx:
    def __init__(self, program: Program) -> None:
        self.p = program
        blocks = program.blocks
        require_dominance(program)
        self.log_idom = [b.logical_idom for b in blocks]
        self.lin_idom = [b.linear_idom for b in blocks]
        self.exec_id = exec_ids(program)
        self.renames: dict[int, Temp] = {}
        self.table: dict[tuple, tuple[Instruction, int]] = {}
        self.used = {o.temp.id for b in blocks for i in b.instructions for o in i.operands
                     if o.temp is not None}
        self.mem_out: list[int] = [-1] * len(blocks)
        self.chains: _Chains | None = None  # built on the first dominance query
        self.mem_counter = 0
        # prefix counts of blocks that clobber memory / are loop headers (blocks[:i]);
        # `process_block` fills the first as it goes (blocks in layout order: `block_mem`
        # reads only the counts of the blocks before the one it starts)
        self.clobber_prefix = [0] * (len(blocks) + 1)
        self.header_prefix = [0] * (len(blocks) + 1)
        for i, b in enumerate(blocks):
            self.header_prefix[i + 1] = self.header_prefix[i] + (
                1 if b.kind._value_ & _LOOP_HEADER else 0)

    def dominates(self, parent: int, child: int, linear: bool) -> bool:
        """ACO's rule: walk the child's logical dominator chain while it does not
        leave the parent's loop level; with `linear`, also dominance in the linear CFG.
        Answered in O(1) by `_Chains` (the walk is as long as the dominator tree is
        deep: quadratic on long programs); `walk_dominates` is the walk itself."""
        if parent == child:
            return True
        chains = self.chains
        if chains is None:
            blocks = self.p.blocks
            chains = self.chains = _Chains(self.log_idom, self.lin_idom,
                                           [b.loop_nest_depth for b in blocks])
        return chains.dominates(parent, child, linear)

    def walk_dominates(self, parent: int, child: int, linear: bool) -> bool:
        """`dominates` by walking the dominator chains (ACO's loop)."""
        return _walk_dominates(self.log_idom, self.lin_idom,
                               [b.loop_nest_depth for b in self.p.blocks], parent, child,
                               linear)

    def fresh_mem(self) -> int:
        self.mem_counter += 1
        return self.mem_counter

    def block_mem(self, b: Block) -> int:
        """The generation at the start of b: its logical idom D's at its end when
        every path from D to b stays among the blocks laid out between them (no
        loop header there or at b) and none of those touches memory."""
        d, i = self.log_idom[b.index], b.index
        if b.logical_preds and 0 <= d < i and self.mem_out[d] >= 0 and \
                self.clobber_prefix[i] == self.clobber_prefix[d + 1] and \
                self.header_prefix[i + 1] == self.header_prefix[d + 1]:
            return self.mem_out[d]
        return self.fresh_mem()

    def key(self, instr: Instruction, mem: int) -> tuple:
        # (`_operand_key` of a temp in no fixed register inline: most operands)
        ops = tuple([("t", o.temp.id, None) if o.temp is not None and o.phys is None
                     and o.const is None else _operand_key(o) for o in instr.operands])
        defs = tuple([(d.rc, d.phys.reg_b if d.phys is not None else None)
                      for d in instr.definitions])
        extra: tuple = ()
        if _lane_dependent(instr):
            extra += ("exec", self.exec_id[id(instr)])
        if instr.format in _MEM_FORMATS and instr.opcode not in CROSS_LANE_DS:
            extra += ("mem", mem)
            if instr.format != "SMEM":
                extra += ("exec", self.exec_id[id(instr)])
        fields = instr.fields
        return (instr.opcode, instr.format, ops, defs, _freeze(fields) if fields else (), extra)

    def copy_source(self, instr: Instruction) -> Temp | None:
        op = instr.opcode
        if op not in _COPIES or len(instr.operands) != 1 or len(instr.definitions) != 1:
            return None
        o, d = instr.operands[0], instr.definitions[0]
        if o.temp is None or o.phys is not None or d.phys is not None or d.temp is None:
            return None
        return o.temp if o.temp.rc == d.temp.rc else None

    def process_block(self, b: Block) -> None:
        """Value-number block b; the blocks before it in the layout are done."""
        mem = self.block_mem(b)
        kept: list[Instruction] = []
        clob = 0  # whether an instruction of b clobbers memory (`clobber_prefix`)
        renames = self.renames
        for instr in b.instructions:
            if renames:
                _rename_reads(instr, renames)
            if clobbers_memory(instr):
                clob = 1
                mem = self.fresh_mem()
            if not can_eliminate(instr):
                kept.append(instr)
                continue
            src = self.copy_source(instr) if instr.opcode in _COPIES else None
            if src is not None:
                d = instr.definitions[0]
                assert d.temp is not None
                self.renames[d.temp.id] = src
                continue
            k = self.key(instr, mem)
            # one hash of the key when new; `prev[0] is instr` when it is (mypyc boxes
            # the tuple anew each time it leaves native code: no identity test on it)
            entry = (instr, b.index)
            prev = self.table.setdefault(k, entry)
            if prev[0] is not instr:
                orig, ob = prev
                sgpr_defs = any(d.rc is not None and (d.rc.is_sgpr or d.rc.linear)
                                for d in instr.definitions)
                if not _fixed_def_used(instr, self.used) and \
                        self.dominates(ob, b.index, sgpr_defs) and \
                        len(orig.definitions) == len(instr.definitions):
                    for d, od in zip(instr.definitions, orig.definitions, strict=True):
                        if d.temp is not None and od.temp is not None:
                            self.renames[d.temp.id] = od.temp
                            if d.is_precise:
                                od.is_precise = True
                    continue
                self.table[k] = entry
            kept.append(instr)
        b.instructions = kept
        self.mem_out[b.index] = mem
        self.clobber_prefix[b.index + 1] = self.clobber_prefix[b.index] + clob


def _rename_reads(instr: Instruction, renames: dict[int, Temp]) -> None:
    """The temps `instr` reads replaced by their renames (value numbering's kept values)."""
    for o in instr.operands:
        t = o.temp
        if t is not None:
            n = renames.get(t.id)
            if n is not None:
                o.temp = n


def value_numbering(program: Program) -> None:
    """Remove redundant side-effect-free instructions (see the module docstring)."""
    ctx = _Ctx(program)
    for b in program.blocks:
        ctx.process_block(b)
    renames = ctx.renames
    if renames:  # phi operands along back edges, uses in linear-only blocks
        for b in program.blocks:
            for instr in b.instructions:
                _rename_reads(instr, renames)
