"""ACO's post-RA optimizer: combinations legal by construction on allocated SSA code.

Source: ACO's README.md (Mesa src/amd/compiler) "Compilation phases" ("Optimization" after register
allocation); the patterns of Mesa's aco_optimizer_postRA.cpp, checked
against the RDNA3 ISA guide (SOP2/SOP1/SOPC pseudocode, VOP2 fmaak/fmamk).
It runs between register_allocation and ssa_elimination (phis still in
place) and walks each block once with `postra_tracking.WriterTable` (which
instruction last wrote each register, merged conservatively at block
entries; loop headers know nothing).

`optimize_postra(program)` guarantees, each rewrite only when every register
it relies on is provably unwritten in between:

- **SCC without a compare** (ACO's try_optimize_scc_nocompare): an
  ``s_cmp_lg/eq_u32/i32/u64 x, 0`` whose SCC result equals (or inverts) a
  value still in SCC is removed and its readers read that value:
  (a) ``x`` written by an instruction that sets ``SCC = D != 0`` (the set
  `SCC_IS_RESULT_NONZERO`, from the ISA guide's pseudocode) whose SCC is still
  in SCC; (b) ``x = s_cselect k, 0, scc`` / ``s_cselect 0, k, scc`` (k != 0)
  with SCC unchanged since (radcc's isel leaves these bool round trips; ACO's
  pre-RA optimizer removes them). For ``s_cmp_eq`` (or ``s_cselect 0, k``) the
  readers must be invertible: ``p_cbranch_z`` <-> ``p_cbranch_nz``, or
  ``s_cselect_b32/b64`` with its two sources swapped. (c) When SCC was
  overwritten since the writer, an ``s_cmp_lg`` whose ``x`` has no other reader
  and whose writer's SCC nobody reads becomes the writer itself (re-executed
  at the compare, its operands unchanged since), and the writer goes away.
- **fmaak/fmamk** (ACO's try_convert_fma_to_vop2; GFX11 wave32 only, where
  it lets VOPD pair the instruction; the same 8 bytes): ``v_fma_f32`` without
  modifiers whose operands are two VGPRs and one inline constant becomes
  ``v_fmaak_f32`` (constant addend) or ``v_fmamk_f32`` (constant factor, as K).
- **redundant copies**: a ``p_parallelcopy`` pair of whole SGPR dwords whose
  destination already holds the source's bits (value numbers carried through
  copies, e.g. EXEC restored from a save of itself) is dropped; the
  destination's temp (if any, and if read) is renamed to the temp the
  register holds, so SSA and validate_ra still hold.
- **unobserved EXEC writes** (ACO's eliminate_useless_exec_writes_in_block,
  aco_ssa_elimination.cpp), before the walk: an *idle* block holds only
  ``p_logical_start``/``p_logical_end``, SALU EXEC writes (SCC unread) and a
  branch whose targets are all idle, or ``s_endpgm``; its EXEC writes, and those
  ending a block whose ``p_branch`` goes to an idle block, are removed (the
  restore before ``s_endpgm``, an empty else side's invert block). A save of
  EXEC left without readers makes the branching-sequence ``v_cmpx`` need no copy.
- instructions the rewrites leave without readers (all definitions unread
  temps, ALU formats only) are removed.

Definition kill flags (a temp nobody reads) are recomputed when a rewrite removed
or renamed reads (not after fmaak/fmamk alone, which keeps the operand objects):
the one kill flag a later phase reads (lower_to_hw skips the copy of a
``p_split_vector`` piece nobody reads). Operand kill flags are not recomputed (that
needs a liveness analysis, and no phase after this one acts on them: ssa_elimination
only copies a phi operand's flag to its copy): where a rewrite moved reads they may
be stale. The register demand figures of the pre-RA program
(``PreSGPRs``/``PreVGPRs``) are kept as they were. ACO patterns not done here and why: try_apply_branch_vcc
(radcc's compares write any SGPR through VOP3, never the ``s_and vcc, exec``
shape), try_combine_dpp (no ``v_mov_b32_dpp`` exists before lower_to_hw),
try_eliminate_scc_copy (RA leaves no SCC copies), try_reassign_split_vector
(it makes two temps share a register, which validate_ra rejects).
"""

from __future__ import annotations

from radcc.ir.fields import ValuFields, make_fields
from radcc.ir.program import Block, Instruction, Operand, Program
from radcc.ir.regclass import EXEC, SCC, PhysReg, RegClass, s1
from radcc.ir.validate import is_inline_constant
from radcc.isa.classes import ALU_ENCODINGS, SALU_ENCODINGS
from radcc.isa.table import get_table
from radcc.passes.lane_mask import exec_def, exec_op, lm_opcode
from radcc.passes.postra_tracking import WriterTable, dword_range, found
from radcc.target import Feature, GfxLevel

# SALU instructions whose SCC is "D != 0" (RDNA3 ISA guide, SOP1/SOP2
# pseudocode "SCC = D0.u != 0U" / "D0.u64 != 0ULL" / "D0.i != 0"; checked
# against the guide by tests/passes/test_optimizer_postra.py).
SCC_IS_RESULT_NONZERO = frozenset({
    "s_and_b32", "s_and_b64", "s_or_b32", "s_or_b64", "s_xor_b32", "s_xor_b64",
    "s_nand_b32", "s_nand_b64", "s_nor_b32", "s_nor_b64", "s_xnor_b32", "s_xnor_b64",
    "s_and_not1_b32", "s_and_not1_b64", "s_or_not1_b32", "s_or_not1_b64",
    "s_not_b32", "s_not_b64", "s_lshl_b32", "s_lshl_b64", "s_lshr_b32", "s_lshr_b64",
    "s_ashr_i32", "s_ashr_i64", "s_bfe_u32", "s_bfe_i32", "s_bfe_u64", "s_bfe_i64",
    "s_abs_i32", "s_absdiff_i32", "s_bcnt0_i32_b32", "s_bcnt1_i32_b32", "s_wqm_b32",
    "s_wqm_b64", "s_quadmask_b32",
})
_CMP_ZERO = {"s_cmp_lg_u32": True, "s_cmp_lg_i32": True, "s_cmp_lg_u64": True,
             "s_cmp_eq_u32": False, "s_cmp_eq_i32": False, "s_cmp_eq_u64": False}
# How often each rewrite fired in this process (for measurements, never read by passes).
COUNTS: dict[str, int] = {}
# The ALU encodings the post-RA rewrites look at: the shared set without VOP3SD/VOP3P (the
# rewrites here were written for, and tested on, the plain VOP1/VOP2/VOPC/VOP3 forms).
_ALU_FORMATS = ALU_ENCODINGS - {"VOP3SD", "VOP3P"}


class _Ctx:
    def __init__(self, program: Program) -> None:
        self.program = program
        self.table = get_table(program.gfx_level)
        self.wt = WriterTable(program, self.table)
        self.uses: dict[int, int] = {}
        self.readers: dict[int, list[Instruction]] = {}
        for b in program.blocks:
            for instr in b.instructions:
                for o in instr.operands:
                    if o.temp is not None:
                        self.uses[o.temp.id] = self.uses.get(o.temp.id, 0) + 1
                        self.readers.setdefault(o.temp.id, []).append(instr)
        self.block: Block = program.blocks[0] if program.blocks else Block(0)
        self.dead: set[int] = set()  # id() of removed instructions
        self.changed = False
        self.reads_changed = False  # a rewrite removed or renamed reads: definition kills stale
        self.counts: dict[str, int] = {}
        self.insert_before: dict[int, Instruction] = {}  # id(instr) -> inserted before it
        self.clobbered: list[tuple[PhysReg, RegClass]] = []  # written by an inserted instr

    def get(self, pos: tuple[int, int]) -> Instruction | None:
        instr = self.program.blocks[pos[0]].instructions[pos[1]]
        return None if id(instr) in self.dead else instr

    def note(self, what: str, reads_changed: bool = True) -> None:
        self.changed = True
        self.reads_changed = self.reads_changed or reads_changed
        self.counts[what] = self.counts.get(what, 0) + 1

    def remove(self, instr: Instruction, pos: tuple[int, int] | None = None) -> None:
        """Mark `instr` removed; at `pos` (already walked) its writes are forgotten."""
        self.dead.add(id(instr))
        if pos is not None:
            self.wt.forget(instr, pos)
        for o in instr.operands:
            if o.temp is not None:
                self.uses[o.temp.id] -= 1

    def is_dead(self, instr: Instruction) -> bool:
        if instr.format not in _ALU_FORMATS or not instr.definitions:
            return False
        return all(d.temp is not None and self.uses.get(d.temp.id, 0) == 0
                   for d in instr.definitions)

    def rename_reads(self, old: int, new: Operand, invert: bool) -> None:
        """Every reader of temp `old` reads `new`'s temp (inverted: readers adapted)."""
        for r in self.readers.get(old, []):
            if id(r) in self.dead:
                continue
            for k, o in enumerate(r.operands):
                if o.temp is None or o.temp.id != old:
                    continue
                n = Operand(new.temp, phys=new.phys)
                n.is_late_kill = o.is_late_kill
                r.operands[k] = n
            if invert:
                _invert_reader(r)
        assert new.temp is not None
        self.uses[new.temp.id] = self.uses.get(new.temp.id, 0) + self.uses.get(old, 0)
        self.readers.setdefault(new.temp.id, []).extend(self.readers.get(old, []))
        self.uses[old] = 0


def _invertible(r: Instruction, tid: int) -> bool:
    if r.opcode in ("p_cbranch_z", "p_cbranch_nz"):
        return True
    if r.opcode in ("s_cselect_b32", "s_cselect_b64") and len(r.operands) == 3:
        return all(o.temp is None or o.temp.id != tid for o in r.operands[:2])
    return False


def _invert_reader(r: Instruction) -> None:
    if r.opcode == "p_cbranch_z":
        r.opcode = "p_cbranch_nz"
    elif r.opcode == "p_cbranch_nz":
        r.opcode = "p_cbranch_z"
    else:
        r.operands[0], r.operands[1] = r.operands[1], r.operands[0]


def _is_zero(o: Operand) -> bool:
    return o.const is not None and o.const == 0


def _scc_def(instr: Instruction) -> int | None:
    for k, d in enumerate(instr.definitions):
        if d.phys is not None and d.phys.reg == SCC:
            return k
    return None


def _scc_operand(instr: Instruction) -> Operand | None:
    for o in instr.operands:
        if o.phys is not None and o.phys.reg == SCC and o.temp is not None:
            return o
    return None


def _try_scc_nocompare(ctx: _Ctx, instr: Instruction, idx: int) -> bool:
    """Remove an ``s_cmp_lg/eq x, 0`` whose result is already in SCC (module docstring)."""
    same = _CMP_ZERO.get(instr.opcode)
    if same is None or instr.format != "SOPC" or len(instr.operands) != 2:
        return False
    a, b = instr.operands
    if _is_zero(a) and not _is_zero(b):
        a, b = b, a
    if not _is_zero(b) or a.temp is None or a.phys is None:
        return False
    k_def = _scc_def(instr)
    if k_def is None or instr.definitions[k_def].temp is None:
        return False
    cmp_scc = instr.definitions[k_def].temp
    assert cmp_scc is not None
    wt = ctx.wt
    wpos = wt.last_writer(a.phys, a.rc)
    if not found(wpos):
        return False
    w = ctx.get(wpos)
    if w is None or not w.definitions or w.definitions[0].temp != a.temp:
        return False
    scc_src: Operand | None = None
    polarity = same
    if w.opcode in SCC_IS_RESULT_NONZERO:
        k = _scc_def(w)
        if k is None or w.definitions[k].temp is None:
            return False
        if wt.last_writer(PhysReg.of(SCC), s1) != wpos:
            return _try_rematerialize(ctx, instr, idx, w, wpos, same)
        d = w.definitions[k]
        scc_src = Operand(d.temp, phys=d.phys)
        if _width(instr) != w.definitions[0].size:
            return False
    elif w.opcode in ("s_cselect_b32", "s_cselect_b64") and len(w.operands) == 3:
        c1, c0, cond = w.operands
        if c1.const is None or c0.const is None or cond.temp is None:
            return False
        if (c1.const != 0) == (c0.const != 0):
            return False
        if wt.overwritten_since(PhysReg.of(SCC), s1, wpos):
            return False
        scc_src = Operand(cond.temp, phys=cond.phys)
        polarity = same == (c1.const != 0)
    else:
        return False
    readers = [r for r in ctx.readers.get(cmp_scc.id, []) if id(r) not in ctx.dead]
    if not polarity and not all(_invertible(r, cmp_scc.id) for r in readers):
        return False
    if any(r.is_phi for r in readers) and not polarity:
        return False
    ctx.remove(instr)
    ctx.rename_reads(cmp_scc.id, scc_src, not polarity)
    for d in w.definitions:
        if d.temp is not None and scc_src.temp is not None and d.temp.id == scc_src.temp.id:
            d.is_kill = False
    if ctx.is_dead(w):
        ctx.remove(w, wpos)
    ctx.note("scc_nocompare")
    return True


def _width(cmp: Instruction) -> int:
    return 2 if cmp.opcode.endswith("64") else 1


def _try_rematerialize(ctx: _Ctx, instr: Instruction, idx: int, w: Instruction,
                       wpos: tuple[int, int], same: bool) -> bool:
    """SCC overwritten since the writer: re-execute the writer at the compare (ACO)."""
    if not same or w.format not in ("SOP1", "SOP2") or len(w.definitions) != 2:
        return False
    d0 = w.definitions[0]
    k = _scc_def(w)
    if k != 1 or d0.temp is None or _width(instr) != d0.size:
        return False
    wscc = w.definitions[1].temp
    if wscc is None or ctx.uses.get(wscc.id, 0) or ctx.uses.get(d0.temp.id, 0) != 1:
        return False
    if wpos[0] != ctx.block.index:
        return False
    for o in w.operands:
        if o.const is not None:
            continue
        if o.phys is None or o.rc is None or o.phys.reg == SCC:
            return False
        if ctx.wt.overwritten_since(o.phys, o.rc, wpos):
            return False
    cmp_def = instr.definitions[_scc_def(instr) or 0]
    new = Instruction(w.opcode, w.format, [_copy_op(o) for o in w.operands],
                      [w.definitions[0], cmp_def], make_fields(w.format, w.fields))
    block = ctx.block
    # operands killed between the writer and here now live until here
    for o in new.operands:
        if o.temp is None:
            continue
        for j in range(wpos[1] + 1, idx):
            for x in block.instructions[j].operands:
                if x.temp is not None and x.temp.id == o.temp.id:
                    x.is_kill = x.is_first_kill = False
    ctx.remove(w, wpos)
    ctx.remove(instr)
    block.instructions[idx] = new
    for o in new.operands:
        if o.temp is not None:
            ctx.uses[o.temp.id] += 1
            ctx.readers.setdefault(o.temp.id, []).append(new)
    ctx.uses[d0.temp.id] = 0
    d0.is_kill = True
    ctx.note("scc_remat")
    return True


def _copy_op(o: Operand) -> Operand:
    n = Operand(o.temp, const=o.const, const_bytes=o.const_bytes, rc=o.rc, phys=o.phys,
                undef=o.is_undef)
    n.is_kill, n.is_first_kill, n.is_late_kill = o.is_kill, o.is_first_kill, o.is_late_kill
    return n


def _truthy(v: object) -> bool:
    return any(bool(x) for x in v) if isinstance(v, (list, tuple)) else bool(v)


def _try_fma_to_vop2(ctx: _Ctx, instr: Instruction, idx: int) -> bool:
    """v_fma_f32 with an inline constant and two VGPRs -> v_fmaak/fmamk_f32 (wave32)."""
    if instr.opcode != "v_fma_f32" or instr.format != "VOP3" or len(instr.operands) != 3:
        return False
    if any(_truthy(v) for v in instr.fields.values()):
        return False
    if len(instr.definitions) != 1:
        return False
    consts = [k for k, o in enumerate(instr.operands) if o.const is not None]
    vgprs = [k for k, o in enumerate(instr.operands)
             if o.temp is not None and o.phys is not None and o.phys.is_vgpr]
    if len(consts) != 1 or len(vgprs) != 2:
        return False
    kc = consts[0]
    c = instr.operands[kc].const
    assert c is not None
    if instr.operands[kc].const_bytes != 4 or not is_inline_constant(c, 4, "f32"):
        return False
    a, b, acc = instr.operands
    if kc == 2:
        new = Instruction("v_fmaak_f32", "VOP2", [a, b], instr.definitions, ValuFields({"k": c}))
    else:
        x = b if kc == 0 else a
        new = Instruction("v_fmamk_f32", "VOP2", [x, acc], instr.definitions, ValuFields({"k": c}))
    ctx.block.instructions[idx] = new
    for o in new.operands:
        if o.temp is not None:
            rl = ctx.readers.get(o.temp.id, [])
            ctx.readers[o.temp.id] = [new if r is instr else r for r in rl]
    # the same operand objects (kill flags included) read the same temps; the inline
    # constant dropped had no kill flag: liveness is unchanged
    ctx.note("fma_to_vop2", reads_changed=False)
    return True


# Compare conditions whose operands may be swapped: the condition with swapped
# operands (ISA guide 15.3.3 "Comparison Operations": LT(S0, S1) == GT(S1, S0) ...).
_SWAPPED_COND = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le", "nlt": "ngt", "ngt": "nlt",
                 "nle": "nge", "nge": "nle", "eq": "eq", "ne": "ne", "lg": "lg", "neq": "neq",
                 "nlg": "nlg", "o": "o", "u": "u", "f": "f", "t": "t"}


def _vgpr_op(o: Operand) -> bool:
    return o.temp is not None and o.phys is not None and o.phys.is_vgpr


def _vcmpx_form(ctx: _Ctx, w: Instruction) -> tuple[str, str, list[Operand]] | None:
    """The v_cmpx (name, format, operands) computing what the compare `w` computes.

    VOPC (4 bytes) when no modifier is set, no operand is 16-bit and a VGPR can
    be src1 (the sources swapped with the mirrored condition if needed); else
    VOP3 with `w`'s modifiers if the v_cmpx VOP3 entry accepts them."""
    parts = w.opcode.split("_")
    if len(parts) != 4 or parts[:2] != ["v", "cmp"] or len(w.operands) != 2:
        return None
    name = "v_cmpx_" + "_".join(parts[2:])
    by_enc = {i.enc: i for i in ctx.table.candidates(name) if i.name == name}
    ops = list(w.operands)
    plain = not any(_truthy(v) for v in w.fields.values()) and all(
        o.const is not None or (o.rc is not None and not o.rc.subdword and o.rc.bytes % 4 == 0
                                and o.phys is not None and o.phys.byte == 0) for o in ops)
    if plain and "VOPC" in by_enc:
        if _vgpr_op(ops[1]):
            return name, "VOPC", ops
        cond = _SWAPPED_COND.get(parts[2])
        if _vgpr_op(ops[0]) and cond is not None:
            swapped = "_".join(["v", "cmpx", cond, parts[3]])
            if any(i.enc == "VOPC" for i in ctx.table.candidates(swapped)):
                return swapped, "VOPC", [ops[1], ops[0]]
    info = by_enc.get("VOP3")
    if info is None or w.format != "VOP3":
        return None
    if any(_truthy(v) and not info.has_mod(k) for k, v in w.fields.items()):
        return None
    return name, "VOP3", ops


def _try_branching_sequence(ctx: _Ctx, instr: Instruction, idx: int) -> bool:
    """``c = v_cmp a, b; saved = s_and_saveexec c`` -> ``saved = exec; v_cmpx a, b``.

    ACO's try_optimize_branching_sequence (GFX10+: v_cmpx writes only EXEC, ISA
    guide 7.2.3; inactive lanes get 0, as the AND with EXEC gave). Only when
    ``c`` has no other reader, the saveexec's SCC is unread, the compare is in
    this block, its operands and EXEC are unwritten since, and ``saved`` is none
    of its operands' registers (the copy of EXEC is written first). Both go
    where the saveexec was; the compare is removed."""
    p = ctx.program
    if p.gfx_level < GfxLevel.GFX10 or instr.opcode != lm_opcode(p, "and_saveexec"):
        return False
    if not instr.operands or len(instr.definitions) != 3:
        return False
    if any(o.phys is None or o.phys.reg != EXEC for o in instr.operands[1:]):
        return False
    c = instr.operands[0]
    saved, scc, ex = instr.definitions
    if c.temp is None or c.phys is None or ctx.uses.get(c.temp.id, 0) != 1:
        return False
    if saved.phys is None or saved.rc is None or ex.phys is None or ex.phys.reg != EXEC:
        return False
    keep_saved = saved.temp is None or ctx.uses.get(saved.temp.id, 0) > 0
    if scc.temp is not None and ctx.uses.get(scc.temp.id, 0):
        return False
    wpos = ctx.wt.last_writer(c.phys, c.rc)
    if not found(wpos) or wpos[0] != ctx.block.index:
        return False
    w = ctx.get(wpos)
    if w is None or w.format not in ("VOPC", "VOP3") or len(w.definitions) != 1:
        return False
    if w.definitions[0].temp != c.temp:
        return False
    form = _vcmpx_form(ctx, w)
    if form is None:
        return False
    if ctx.wt.overwritten_since(PhysReg.of(EXEC), p.lane_mask, wpos):
        return False
    saved_regs = set(dword_range(saved.phys, saved.rc)) if keep_saved else set()
    for o in w.operands:
        if o.const is not None:
            continue
        if o.phys is None or o.rc is None or ctx.wt.overwritten_since(o.phys, o.rc, wpos):
            return False
        if saved_regs & set(dword_range(o.phys, o.rc)):
            return False
    name, fmt, ops = form
    fields = make_fields(fmt, w.fields if fmt == "VOP3" else None)
    cmpx = Instruction(name, fmt, [_copy_op(o) for o in ops], [exec_def(p)], fields)
    ctx.remove(w, wpos)
    ctx.remove(instr)
    ctx.block.instructions[idx] = cmpx
    if keep_saved:
        copy = Instruction("p_parallelcopy", "PSEUDO", [exec_op(p)], [saved])
        ctx.insert_before[id(cmpx)] = copy
        ctx.clobbered.append((saved.phys, saved.rc))
    for o in cmpx.operands:
        if o.temp is not None:
            ctx.uses[o.temp.id] = ctx.uses.get(o.temp.id, 0) + 1
            ctx.readers.setdefault(o.temp.id, []).append(cmpx)
    ctx.note("branch_vcmpx")
    return True


_SKIPPABLE = frozenset({"p_logical_start", "p_logical_end"})
_TERMINATORS = frozenset({"p_branch", "p_cbranch_z", "p_cbranch_nz", "s_endpgm"})
# SALU encodings whose EXEC writes may be dropped (SOPC writes only SCC; SOPK holds s_setreg)
_SALU_ALU = SALU_ENCODINGS - {"SOPC", "SOPK"}


def _is_exec_write(ctx: _Ctx, instr: Instruction) -> bool:
    """Does `instr` only write EXEC (and an SCC nobody reads), as an SALU op or a copy?"""
    if not (instr.format in _SALU_ALU or instr.opcode == "p_parallelcopy"):
        return False
    if not any(d.phys is not None and d.phys.reg == EXEC for d in instr.definitions):
        return False
    return all((d.phys is not None and d.phys.reg == EXEC)
               or (d.phys is not None and d.phys.reg == SCC
                   and (d.temp is None or ctx.uses.get(d.temp.id, 0) == 0))
               for d in instr.definitions)


def _drop_unobserved_exec_writes(ctx: _Ctx) -> None:
    """Remove EXEC writes whose value nothing observes: ACO's
    eliminate_useless_exec_writes_in_block (aco_ssa_elimination.cpp; a block
    without successors has no use for its outgoing EXEC). A block is *idle* when
    it holds nothing but ``p_logical_start``/``p_logical_end``, such EXEC writes
    and a branch whose every target is idle, or ``s_endpgm`` (the merge block
    ending the program, the empty else side and invert block of a divergent if
    before it); its EXEC writes are dead, and so are the EXEC writes ending a
    block (before an unconditional ``p_branch``) whose successor is idle."""
    blocks = ctx.program.blocks
    idle: set[int] = set()
    changed = True
    while changed:
        changed = False
        for b in reversed(blocks):
            ins = b.instructions
            if b.index in idle or not ins or ins[-1].opcode not in _TERMINATORS:
                continue
            if ins[-1].opcode == "s_endpgm" and b.linear_succs:
                continue
            if any(s not in idle for s in b.linear_succs):
                continue
            if all(i.opcode in _SKIPPABLE or _is_exec_write(ctx, i) for i in ins[:-1]):
                idle.add(b.index)
                changed = True
    for b in blocks:
        ins = b.instructions
        if b.index in idle:
            dead = [i for i in ins[:-1] if _is_exec_write(ctx, i)]
        elif ins and ins[-1].opcode == "p_branch" and len(b.linear_succs) == 1 and \
                b.linear_succs[0] in idle:
            dead = []
            for i in reversed(ins[:-1]):
                if i.opcode in _SKIPPABLE:
                    continue
                if not _is_exec_write(ctx, i):
                    break
                dead.append(i)
        else:
            continue
        for i in dead:
            ctx.remove(i)
            ctx.note("unobserved_exec_write")


def _try_redundant_copy(ctx: _Ctx, instr: Instruction, idx: int) -> bool:
    """Drop p_parallelcopy pairs whose SGPR destination already holds the source's bits."""
    if instr.opcode != "p_parallelcopy" or len(instr.operands) != len(instr.definitions):
        return False
    keep_o: list[Operand] = []
    keep_d = []
    renames: list[tuple[int, Operand]] = []
    for o, d in zip(instr.operands, instr.definitions, strict=True):
        ok = (o.const is None and o.phys is not None and o.rc is not None and d.phys is not None
              and d.rc is not None and o.rc.bytes == d.rc.bytes and not d.rc.subdword
              and d.phys.reg + d.rc.size <= 128 and o.phys.reg + o.rc.size <= 128
              and d.phys.byte == 0 and o.phys.byte == 0 and not d.rc.is_vgpr
              and ctx.wt.same_value(d.phys, o.phys, d.rc))
        holder: Operand | None = None
        if ok and d.temp is not None and ctx.uses.get(d.temp.id, 0):
            holder = _holder(ctx, d.phys, d.rc)  # type: ignore[arg-type]
            ok = holder is not None
        if not ok:
            keep_o.append(o)
            keep_d.append(d)
            continue
        if o.temp is not None:
            ctx.uses[o.temp.id] -= 1
        if holder is not None and d.temp is not None:
            renames.append((d.temp.id, holder))
    if len(keep_o) == len(instr.operands):
        return False
    for old, holder in renames:
        ctx.rename_reads(old, holder, False)
    if keep_o:
        instr.operands[:] = keep_o
        instr.definitions[:] = keep_d
    else:
        ctx.dead.add(id(instr))
    ctx.note("redundant_copy")
    return True


def _holder(ctx: _Ctx, phys: PhysReg, rc: RegClass) -> Operand | None:
    """The temp the range holds now (its writer's definition of exactly this range)."""
    pos = ctx.wt.last_writer(phys, rc)
    if not found(pos):
        return None
    w = ctx.get(pos)
    if w is None:
        return None
    for d in w.definitions:
        if d.phys == phys and d.rc == rc and d.temp is not None:
            return Operand(d.temp, phys=d.phys)
    return None


def optimize_postra(program: Program) -> None:
    """Run ACO's post-RA combinations on an allocated SSA program (module docstring)."""
    if not program.blocks:
        return
    ctx = _Ctx(program)
    _drop_unobserved_exec_writes(ctx)
    fma_ok = program.wave_size == 32 and program.target.has(Feature.VOPD)
    saveexec = lm_opcode(program, "and_saveexec") if program.gfx_level >= GfxLevel.GFX10 \
        else None
    # each rewrite starts from one opcode (or set): tried only on those, every other
    # instruction is only recorded
    rewritten = {*_CMP_ZERO, "v_fma_f32", "p_parallelcopy"}
    if saveexec is not None:
        rewritten.add(saveexec)
    wt = ctx.wt
    dead = ctx.dead  # the rewrites add to it
    clobbered = ctx.clobbered
    for b in program.blocks:
        ctx.block = b
        wt.start_block(b)
        instrs = b.instructions
        for idx in range(len(instrs)):
            instr = instrs[idx]
            if dead and id(instr) in dead:
                wt.record(instr, idx)  # the old writes stay visible to no pattern
                continue
            op = instr.opcode
            if op in rewritten:
                if not (op in _CMP_ZERO and _try_scc_nocompare(ctx, instr, idx)) and \
                        not (op == saveexec and _try_branching_sequence(ctx, instr, idx)):
                    if fma_ok and op == "v_fma_f32":
                        _try_fma_to_vop2(ctx, instr, idx)
                    if op == "p_parallelcopy":
                        _try_redundant_copy(ctx, instr, idx)
                instr = instrs[idx]
                if dead and id(instr) in dead:
                    continue
            wt.record(instr, idx)
            if clobbered:
                for phys, rc in clobbered:
                    wt.clobber(phys, rc)
                clobbered.clear()
    if not ctx.changed:
        return
    for b in program.blocks:
        out: list[Instruction] = []
        for i in b.instructions:
            if id(i) in ctx.dead:
                continue
            before = ctx.insert_before.get(id(i))
            if before is not None:
                out.append(before)
            out.append(i)
        b.instructions = out
    if ctx.reads_changed:
        _refresh_definition_kills(program)
    for k, v in ctx.counts.items():
        COUNTS[k] = COUNTS.get(k, 0) + v


def _refresh_definition_kills(program: Program) -> None:
    """``Definition.is_kill`` of every temp definition after the rewrites: set when
    no instruction reads the temp. In SSA a read temp is live after its definition
    (a read is dominated by the definition, a phi's read at the end of a
    predecessor the definition dominates), so this is live_var_analysis's flag,
    found without the liveness the operand flags would need."""
    read: set[int] = set()
    for b in program.blocks:
        for instr in b.instructions:
            for o in instr.operands:
                t = o.temp
                if t is not None:
                    read.add(t.id)
    for b in program.blocks:
        for instr in b.instructions:
            for d in instr.definitions:
                t = d.temp
                if t is not None:
                    d.is_kill = t.id not in read
