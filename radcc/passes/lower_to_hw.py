"""Lower pseudo instructions to hardware instructions (ACO's lower_to_hw).

Source: ACO's README.md (Mesa src/amd/compiler) "Lower to HW instructions" ("most pseudo instructions are
lowered to actual machine instructions ... mostly parallel copy
instructions"). Runs after register allocation and SSA elimination, so every
operand and definition has a `PhysReg`.

`lower_to_hw(program)` guarantees that afterwards the program holds only
hardware instructions (table opcodes with their natural or chosen format),
except pseudo opcodes it reports as unsupported (raising `LoweringError`
naming the instruction):

- ``p_parallelcopy`` (and ``p_create_vector``, ``p_split_vector``,
  ``p_extract_vector``, ``p_as_uniform`` of an SGPR, ``p_wqm``,
  ``p_start_linear_vgpr``): sequentialised copies with the parallel
  semantics (`radcc.passes.hw_copy`); a ``p_split_vector`` piece whose
  definition is dead (the gaps of a merged kernel-argument load) is not copied;
  ``p_as_uniform`` of a VGPR becomes ``v_readfirstlane_b32`` per dword;
- ``p_startpgm`` (its definitions are the ABI registers, docs/abi.md; the shader
  arguments they imply are kept in ``program.args``, `kernel_abi.program_args`; on
  GFX10 with scratch it becomes `kernel_abi.startpgm_prologue`),
  ``p_logical_start/end``, ``p_unit_test``, ``p_end_linear_vgpr`` and
  ``p_end_with_regs`` disappear;
- ``p_branch`` → ``s_branch``; ``p_cbranch_z/nz`` → ``s_cbranch_scc0/1``,
  ``s_cbranch_vccz/vccnz`` or ``s_cbranch_execz/execnz`` by the condition's
  register (another SGPR condition is first tested into SCC with
  ``s_cmp_lg_u32/u64``, clobbering SCC). A branch to the next block in the
  layout is omitted, "next" skipping blocks that lower to no instruction (those
  jump_threading emptied, or whose only branch was omitted: blocks are lowered
  last to first so this is known); ``fields['targets'][1]`` of a conditional
  branch is the fall-through (without it: the block's other linear successor,
  else the next block); an ``s_branch`` is added if it is not the next block;
  a ``p_cbranch_z exec`` over at most ``CHEAP_SKIP`` SALU/VALU instructions that
  may run with no lane active (`_Lowering.cheap_to_run_without_lanes`) is dropped,
  as ACO drops a divergent branch whose skip costs more than running them (in the
  linear CFG the edge to the skipped-to block then comes from the last skipped block,
  which falls into it: the wait-state passes no longer join the state from before the
  skipped code there);
- ``p_barrier``: ``s_waitcnt 0`` and ``s_waitcnt_vscnt null, 0`` unless
  ``sem:none`` (release of all prior memory accesses; insert_waitcnt may add
  more), then ``s_barrier`` unless ``scope`` is ``subgroup``/``invocation``
  (a workgroup of one wave needs no barrier only when ``wg_one_wave`` is set);
- ``p_exit_early_if`` (operand: scc): ``s_cbranch_scc1`` to an exit block
  appended at the end of the program (``s_endpgm``), ``p_exit_early_if_not``
  (insert_exec_mask's discards) ``s_cbranch_scc0`` to it; ``p_discard_if``:
  ``exec &= ~cond`` then, if no lane is left, the same early exit;
- ``p_reduce``, ``p_inclusive_scan``, ``p_exclusive_scan``, ``p_bpermute``:
  `radcc.passes.lower_reductions.lower_reduction` (DPP sequences);
- ``p_extract``: ``s_bfe_u32/i32`` (SCC clobbered, as ACO's SGPR form
  defines it) or ``v_bfe_u32/i32``;
- the program ends with ``s_endpgm``: one is appended to the last block if
  it does not end with ``s_endpgm`` or an unconditional branch.

Every instruction a pseudo lowers to (canonical names, `radcc.isa.table`) is looked up
in the target's opcode table; one the target lacks raises `LoweringError` naming
the pseudo, the opcode and the target (GFX10/10.3: ``p_bpermute``, whose
cross-half swap is GFX11's ``v_permlane64_b32``).

- ``p_spill``/``p_reload``: `radcc.passes.spill_lower.lower_spill`
  (``v_writelane/readlane_b32`` for SGPRs, ``scratch_store/load`` for VGPRs).
- ``p_constaddr k``: ``s_getpc_b64``, ``s_add_u32`` of a placeholder literal,
  ``s_addc_u32 0`` (SCC clobbered), the first two with ``fields['constaddr'] = k``;
  `radcc.passes.emit_program` writes the literal (ACO's p_constaddr_getpc/_addlo).

``p_phi``/``p_linear_phi`` (run ssa_elimination),
``p_insert``, ``p_init_scratch`` and
sub-dword copies raise `LoweringError`.
"""

from __future__ import annotations

from radcc.abi.stage import FRAGMENT_FS
from radcc.ir.builder import add_edge
from radcc.ir.fields import make_fields
from radcc.ir.printer import InstructionText, instruction_text
from radcc.ir.program import Block, BlockKind, Definition, Instruction, Operand, Program
from radcc.ir.regclass import EXEC, NULL, SCC, VCC, VGPR_BASE, PhysReg, RegClass, s1, s2, v1
from radcc.isa.classes import SALU_ENCODINGS, VALU_ENCODINGS
from radcc.isa.table import get_table
from radcc.passes.hw_copy import LoweringError, Unit, scc_live_flags, sequentialize, split_units
from radcc.passes.kernel_abi import ABIError, program_args, startpgm_prologue
from radcc.passes.lane_mask import exec_def, lm_opcode
from radcc.passes.lower_reductions import REDUCTION_OPCODES, lower_reduction
from radcc.passes.spill_lower import lower_spill

__all__ = ["LoweringError", "lower_to_hw"]

# a divergent branch over at most this many SALU/VALU instructions is not taken: they run
# with no lane active (cheaper than the branch; ACO's lower_to_hw removes such branches)
CHEAP_SKIP = 4
# SALU instructions that jump (never run instead of a skipped branch)
_SALU_JUMPS = frozenset({"s_setpc_b64", "s_swappc_b64", "s_rfe_b64", "s_call_b64"})

# the s_add_u32 literal of a lowered p_constaddr until emit_program knows the distance (a
# literal, never an inline constant, so the instruction keeps its size)
CONSTADDR_PLACEHOLDER = 0x7FFFFFFF

_DROP = frozenset({"p_startpgm", "p_logical_start", "p_logical_end", "p_unit_test",
                   "p_end_linear_vgpr", "p_end_with_regs"})
_COPY_LIKE = frozenset({"p_parallelcopy", "p_create_vector", "p_split_vector",
                        "p_extract_vector", "p_wqm", "p_start_linear_vgpr", "p_as_uniform"})
_UNSUPPORTED = {
    "p_phi": "phis must be removed by ssa_elimination first",
    "p_linear_phi": "phis must be removed by ssa_elimination first",
    "p_insert": "p_insert is not supported yet",
    "p_init_scratch": "scratch is not supported yet",
}


def _hw(opcode: str, fmt: str, defs: list[Definition] | None = None,
        ops: list[Operand] | None = None, **fields: object) -> Instruction:
    return Instruction(opcode, fmt, list(ops or []), list(defs or []), make_fields(fmt, fields))


class _Lowering:
    def __init__(self, program: Program) -> None:
        self.p = program
        self.exit_block: Block | None = None
        self.wave64 = program.wave_size == 64
        self.opcodes = get_table(program.gfx_level).by_canon
        self.blocks: list[Block] = []
        self.pos_of: dict[int, int] = {}

    def error(self, instr: Instruction, msg: str) -> LoweringError:
        return LoweringError(f"lower_to_hw: {msg}: {instruction_text(self.p, instr)}")

    def get_exit_block(self, pred: Block) -> int:
        if self.exit_block is None:
            self.exit_block = self.p.create_block(BlockKind.DISCARD_EARLY_EXIT)
            if self.p.stage == FRAGMENT_FS:
                # a pixel shader always exports: no lane left (EXEC := 0), the null
                # export (GFX11: mrt0 with no channel), as ACO's discard exit
                w = "b64" if self.wave64 else "b32"
                self.exit_block.instructions.append(_hw(
                    f"s_mov_{w}", "SOP1", [exec_def(self.p)], [Operand.c32(0)]))
                self.exit_block.instructions.append(_hw(
                    "exp", "EXP", [], [Operand(rc=v1, undef=True)] * 4, target=0, en=0,
                    done=True))
            self.exit_block.instructions.append(_hw("s_endpgm", "SOPP"))
        add_edge(self.p, pred.index, self.exit_block.index, logical=False)
        return self.exit_block.index

    # -- copies -------------------------------------------------------------
    def copy_units(self, instr: Instruction) -> list[Unit]:
        op = instr.opcode
        what = InstructionText(self.p, instr)  # rendered only in an error
        units: list[Unit] = []
        if op in ("p_parallelcopy", "p_wqm", "p_as_uniform"):
            for d, o in zip(instr.definitions, instr.operands, strict=True):
                units += split_units(_phys(self, instr, d), o, _rc(self, instr, d).bytes, what)
        elif op in ("p_create_vector", "p_start_linear_vgpr"):
            d = instr.definitions[0]
            base = _phys(self, instr, d)
            off = 0
            for o in instr.operands:
                nbytes = o.const_bytes if o.const is not None else _rc(self, instr, o).bytes
                units += split_units(base.advance(off), o, nbytes, what)
                off += nbytes
        elif op == "p_split_vector":
            src = instr.operands[0]
            if src.phys is None and not src.is_undef:
                raise self.error(instr, "operand has no register")
            off = 0
            for d in instr.definitions:
                if d.temp is not None and d.is_kill:  # a piece nobody reads: no copy
                    off += _rc(self, instr, d).bytes
                    continue
                piece = Operand(rc=d.rc, phys=src.phys.advance(off) if src.phys else None,
                                undef=src.is_undef)
                nbytes = _rc(self, instr, d).bytes
                units += split_units(_phys(self, instr, d), piece, nbytes, what)
                off += nbytes
        elif op == "p_extract_vector":
            d = instr.definitions[0]
            vec, idx = instr.operands
            if idx.const is None:
                raise self.error(instr, "index must be a constant")
            if vec.phys is None:
                raise self.error(instr, "operand has no register")
            piece = Operand(rc=d.rc, phys=vec.phys.advance(idx.const * _rc(self, instr, d).bytes))
            units += split_units(_phys(self, instr, d), piece, _rc(self, instr, d).bytes, what)
        linear = {d.phys.reg + i for d in instr.definitions  # linear VGPRs: every lane
                  if d.rc is not None and d.rc.linear and d.rc.is_vgpr and d.phys is not None
                  for i in range(d.rc.size)}
        for u in units:
            u.linear = u.dst in linear
        return units

    def lower_copy(self, instr: Instruction, scc_live: bool) -> list[Instruction]:
        if instr.opcode == "p_as_uniform" and instr.operands[0].phys is not None \
                and instr.operands[0].phys.is_vgpr:
            d = _phys(self, instr, instr.definitions[0])
            s = instr.operands[0].phys
            return [_hw("v_readfirstlane_b32", "VOP1",
                        [Definition.fixed(PhysReg.of(d.reg + i), s1)],
                        [Operand.fixed(PhysReg.of(s.reg + i), v1)])
                    for i in range(_rc(self, instr, instr.definitions[0]).size)]
        scratch = instr.fields.get("scratch_sgpr")
        out = sequentialize(self.copy_units(instr),
                            scratch_sgpr=scratch if isinstance(scratch, int) else None,
                            scc_live=scc_live or bool(instr.fields.get("tmp_in_scc")),
                            what=InstructionText(self.p, instr), wave64=self.wave64)
        self.p.lowered_copies += len(out)
        return out

    # -- control flow ---------------------------------------------------------
    def reached(self, t: int | None, pos: int) -> bool:
        """Does falling off the end of the block at layout position `pos` arrive at block
        `t` (the blocks between lower to nothing)?"""
        tp = self.pos_of.get(t) if t is not None else None
        blocks = self.blocks
        return tp is not None and tp > pos and all(
            not blocks[j].instructions for j in range(pos + 1, tp))

    def lower_branch(self, block: Block, instr: Instruction, nxt: int | None,
                     pos: int) -> list[Instruction]:
        """`pos`: the block's layout position (`reached`)."""
        reached = self.reached
        targets = list(instr.fields.get("targets") or [])  # type: ignore[call-overload]
        if not targets:
            raise self.error(instr, "branch without a target")
        if instr.opcode == "p_branch":
            if reached(targets[0], pos):
                return []
            return [self._branch("s_branch", targets[0], instr)]
        taken = targets[0]
        others = [s for s in block.linear_succs if s != taken]
        fall = targets[1] if len(targets) > 1 else others[0] if others else nxt
        zero = instr.opcode == "p_cbranch_z"
        out: list[Instruction] = []
        cond = instr.operands[0]
        if cond.phys is None:
            raise self.error(instr, "branch condition has no register")
        reg = cond.phys.reg
        if reached(taken, pos) and fall is not None and not reached(fall, pos):
            taken, fall, zero = fall, taken, not zero
        elif reached(taken, pos):
            return []
        if reg == EXEC and zero and fall is not None and reached(fall, pos) and \
                self.cheap_to_run_without_lanes(block, taken):
            self.fall_into(block, taken)
            return []
        if reg == SCC:
            name, cop = ("s_cbranch_scc0" if zero else "s_cbranch_scc1"), Operand.fixed(
                PhysReg.of(SCC), s1)
        elif reg == VCC:
            name, cop = ("s_cbranch_vccz" if zero else "s_cbranch_vccnz"), Operand.fixed(
                PhysReg.of(VCC), self.p.lane_mask)
        elif reg == EXEC:
            name, cop = ("s_cbranch_execz" if zero else "s_cbranch_execnz"), Operand.fixed(
                PhysReg.of(EXEC), self.p.lane_mask)
        elif reg < VGPR_BASE:
            wide = cond.rc is not None and cond.rc.size == 2
            out.append(_hw("s_cmp_lg_u64" if wide else "s_cmp_lg_u32", "SOPC",
                           [Definition.fixed(PhysReg.of(SCC), s1)],
                           [Operand.fixed(cond.phys, s2 if wide else s1),
                            Operand.c64(0) if wide else Operand.c32(0)]))
            name, cop = ("s_cbranch_scc0" if zero else "s_cbranch_scc1"), Operand.fixed(
                PhysReg.of(SCC), s1)
        else:
            raise self.error(instr, "branch condition in a VGPR")
        br = self._branch(name, taken, instr)
        br.operands.append(cop)
        out.append(br)
        if fall is not None and not reached(fall, pos):
            out.append(self._branch("s_branch", fall, instr))
        return out

    def fall_into(self, block: Block, target: int) -> None:
        """The branch from `block` to `target` is gone and the blocks between run: in the
        linear CFG the edge `block` -> `target` becomes one from the last of them, which
        falls into `target` (the wait-state passes would otherwise join the state from
        before the skipped code into `target`'s)."""
        tp = self.pos_of[target]
        last = self.blocks[tp - 1]
        tb = self.p.blocks[target]
        if target in block.linear_succs:
            block.linear_succs.remove(target)
            if block.index in tb.linear_preds:
                tb.linear_preds.remove(block.index)
        if target not in last.linear_succs:
            last.linear_succs.append(target)
        if last.index not in tb.linear_preds:
            tb.linear_preds.append(last.index)
            tb.linear_preds.sort()

    def cheap_to_run_without_lanes(self, block: Block, target: int) -> bool:
        """Whether the blocks laid out between ``block`` and ``target`` (already lowered)
        may run with no lane active instead of being skipped by ``s_cbranch_execz`` (ACO's
        lower_to_hw, removing a divergent branch over a few instructions): they exist
        (``target`` lies after ``block``), every instruction is SALU (no jump) or VALU
        that writes no SGPR (on GFX10+ such a VALU writes its SGPRs even with EXEC 0)
        and is not ``v_writelane`` (it ignores EXEC), and there are at most
        ``CHEAP_SKIP`` of them. Falling off each such block reaches the next one, the
        last one ``target``."""
        pos = self.pos_of.get(block.index)
        tp = self.pos_of.get(target)
        if pos is None or tp is None or tp <= pos + 1:
            return False
        n = 0
        for j in range(pos + 1, tp):
            for ins in self.blocks[j].instructions:
                n += 1
                if n > CHEAP_SKIP:
                    return False
                if ins.format in SALU_ENCODINGS:
                    if ins.opcode in _SALU_JUMPS:
                        return False
                elif ins.format in VALU_ENCODINGS:
                    if ins.opcode.startswith("v_writelane") or any(
                            d.phys is not None and d.phys.reg < VGPR_BASE
                            for d in ins.definitions):
                        return False
                else:
                    return False
        return True

    @staticmethod
    def _branch(name: str, target: int, orig: Instruction) -> Instruction:
        # definitions of the pseudo branch (a scratch SGPR pair for long jumps) are kept
        return _hw(name, "SOPP", [d for d in orig.definitions if d.phys is not None
                                  and d.phys.reg != SCC], [], targets=[target])

    # -- other pseudo instructions ----------------------------------------------
    def lower_barrier(self, instr: Instruction) -> list[Instruction]:
        out: list[Instruction] = []
        if instr.fields.get("sem") != "none":
            out.append(_hw("s_waitcnt", "SOPP", simm16=0))
            out.append(_hw("s_waitcnt_vscnt", "SOPK", [],
                           [Operand.fixed(PhysReg.of(NULL), s1)], simm16=0))
        scope = instr.fields.get("scope", "workgroup")
        if scope not in ("subgroup", "invocation") and not instr.fields.get("wg_one_wave"):
            out.append(_hw("s_barrier", "SOPP"))
        return out

    def lower_exit_if(self, block: Block, instr: Instruction) -> list[Instruction]:
        cond = instr.operands[0] if instr.operands else None
        if cond is None or cond.phys is None or cond.phys.reg != SCC:
            raise self.error(instr, f"{instr.opcode} needs its condition in scc")
        target = self.get_exit_block(block)
        name = "s_cbranch_scc0" if instr.opcode == "p_exit_early_if_not" else "s_cbranch_scc1"
        return [_hw(name, "SOPP", [], [Operand.fixed(PhysReg.of(SCC), s1)],
                    targets=[target])]

    def lower_discard_if(self, block: Block, instr: Instruction) -> list[Instruction]:
        cond = instr.operands[0] if instr.operands else None
        if cond is None or cond.phys is None or cond.phys.is_vgpr or cond.phys.reg == SCC:
            raise self.error(instr, "p_discard_if needs a lane mask in SGPRs")
        lm = self.p.lane_mask
        op = lm_opcode(self.p, "andn2")  # s_and_not1_b32/b64 (spelt s_andn2 on GFX10)
        exec_ = PhysReg.of(EXEC)
        target = self.get_exit_block(block)
        return [_hw(op, "SOP2", [Definition.fixed(exec_, lm), Definition.fixed(PhysReg.of(SCC),
                                                                                s1)],
                    [Operand.fixed(exec_, lm), Operand.fixed(cond.phys, lm)]),
                _hw("s_cbranch_scc0", "SOPP", [], [Operand.fixed(PhysReg.of(SCC), s1)],
                    targets=[target])]

    def lower_extract(self, instr: Instruction) -> list[Instruction]:
        d = instr.definitions[0]
        src, idx, bits, sext = instr.operands
        if idx.const is None or bits.const is None or sext.const is None:
            raise self.error(instr, "p_extract needs constant index, size and sign")
        dp = _phys(self, instr, d)
        if src.phys is None:
            raise self.error(instr, "operand has no register")
        offset = idx.const * bits.const
        if dp.is_vgpr:
            name = "v_bfe_i32" if sext.const else "v_bfe_u32"
            return [_hw(name, "VOP3", [Definition.fixed(dp, _rc(self, instr, d))],
                        [Operand.fixed(src.phys, _rc(self, instr, src)), Operand.c32(offset),
                         Operand.c32(bits.const)])]
        name = "s_bfe_i32" if sext.const else "s_bfe_u32"
        return [_hw(name, "SOP2", [Definition.fixed(dp, _rc(self, instr, d)),
                                   Definition.fixed(PhysReg.of(SCC), s1)],
                    [Operand.fixed(src.phys, _rc(self, instr, src)),
                     Operand.c32(offset | bits.const << 16)])]

    # -- driver -------------------------------------------------------------------
    def run(self) -> None:
        blocks = list(self.p.blocks)
        pos_of = {b.index: pos for pos, b in enumerate(blocks)}
        self.blocks, self.pos_of = blocks, pos_of
        # last to first: whether the blocks after one lower to nothing is then known
        for pos in range(len(blocks) - 1, -1, -1):
            block = blocks[pos]
            nxt = blocks[pos + 1].index if pos + 1 < len(blocks) else None
            out: list[Instruction] = []
            instrs = block.instructions
            # SCC read later in the block before a write; computed at the first pseudo
            scc_after: list[bool] = []
            for k, instr in enumerate(instrs):
                if not instr.is_pseudo:  # hardware instructions stay as they are
                    out.append(instr)
                    continue
                if not scc_after:
                    scc_after = scc_live_flags(instrs)
                low = self.lower_one(block, instr, scc_after[k], nxt, pos)
                self.check_target(instr, low)
                out += low
            block.instructions = out
        self.ensure_endpgm(blocks)

    def check_target(self, instr: Instruction, low: list[Instruction]) -> None:
        """Every instruction a pseudo lowers to must exist on the target (e.g. the
        wave64 cross-half ``v_permlane64_b32`` of ``p_bpermute`` is GFX11-only)."""
        for h in low:
            if h.opcode not in self.opcodes:
                t = self.p.target
                raise self.error(instr, f"lowering needs {h.opcode}, which {t.name} "
                                        f"({t.gfx_level.name}) does not have")

    def lower_one(self, block: Block, instr: Instruction, scc_live: bool,
                  nxt: int | None, pos: int) -> list[Instruction]:
        if not instr.is_pseudo:
            return [instr]
        op = instr.opcode
        if op == "p_startpgm":
            try:
                self.p.args = program_args(self.p, instr)
            except ABIError as e:
                raise LoweringError(f"lower_to_hw: {e}") from None
            return startpgm_prologue(self.p, instr)  # GFX10 flat scratch init, docs/abi.md
        if op in _DROP:
            return []
        if op in _COPY_LIKE:
            return self.lower_copy(instr, scc_live)
        if op in ("p_branch", "p_cbranch_z", "p_cbranch_nz"):
            return self.lower_branch(block, instr, nxt, pos)
        if op == "p_barrier":
            return self.lower_barrier(instr)
        if op in ("p_exit_early_if", "p_exit_early_if_not"):
            return self.lower_exit_if(block, instr)
        if op == "p_discard_if":
            return self.lower_discard_if(block, instr)
        if op == "p_extract":
            return self.lower_extract(instr)
        if op in REDUCTION_OPCODES:
            return lower_reduction(self.p, block, instr)
        if op in ("p_spill", "p_reload"):
            return lower_spill(self.p, instr)
        if op == "p_constaddr":
            return self.lower_constaddr(instr)
        raise self.error(instr, _UNSUPPORTED.get(op, f"cannot lower {op}"))

    def lower_constaddr(self, instr: Instruction) -> list[Instruction]:
        """``p_constaddr k`` (defs s[n:n+1], scc) -> ``s_getpc_b64 s[n:n+1]``,
        ``s_add_u32 sn, sn, <literal>``, ``s_addc_u32 sn+1, sn+1, 0`` (ACO's
        lower_to_hw/assembler: the pc of the instruction after s_getpc_b64 plus the
        distance to the constant data, which only emit_program knows: both carry
        ``fields['constaddr'] = k``, the literal is a placeholder until then)."""
        d = instr.definitions[0]
        k = instr.operands[0].const
        assert d.rc is not None and k is not None
        r = _phys(self, instr, d)
        lo, hi = Operand(rc=s1, phys=r), Operand(rc=s1, phys=r.advance(4))
        scc = Definition(rc=s1, phys=PhysReg.of(SCC))
        return [
            Instruction("s_getpc_b64", "SOP1", [], [Definition(rc=d.rc, phys=r)],
                        make_fields("SOP1", {"constaddr": k})),
            Instruction("s_add_u32", "SOP2", [lo, Operand.c32(CONSTADDR_PLACEHOLDER)],
                        [Definition(rc=s1, phys=r), scc], make_fields("SOP2", {"constaddr": k})),
            Instruction("s_addc_u32", "SOP2", [hi, Operand.c32(0), Operand(rc=s1,
                        phys=PhysReg.of(SCC))],
                        [Definition(rc=s1, phys=r.advance(4)), scc]),
        ]

    def ensure_endpgm(self, blocks: list[Block]) -> None:
        if not blocks:
            return
        last = blocks[-1]
        if last.instructions and last.instructions[-1].opcode in ("s_endpgm", "s_branch",
                                                                  "s_setpc_b64"):
            return
        last.instructions.append(_hw("s_endpgm", "SOPP"))


def _phys(low: _Lowering, instr: Instruction, d: Definition) -> PhysReg:
    if d.phys is None:
        raise low.error(instr, "definition has no register (run register allocation)")
    return d.phys


def _rc(low: _Lowering, instr: Instruction, x: Definition | Operand) -> RegClass:
    if x.rc is None:
        raise low.error(instr, "operand has no register class")
    return x.rc


def lower_to_hw(program: Program) -> None:
    """Replace pseudo instructions by hardware ones (see the module docstring)."""
    _Lowering(program).run()
