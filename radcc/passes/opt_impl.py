"""The optimizer: ACO-style combining of instructions on SSA, before RA.

Source: ACO's README.md (Mesa src/amd/compiler) "Optimization" (after ACO's aco_optimizer.cpp). One forward
pass over the instructions in layout order: each instruction's operands are
looked through to the instructions that define them, and rewritten when one
of the rules below applies; then the definitions nobody reads are removed
(dead-code elimination, iterated to a fixed point). Every rule is exact for
every input (bit for bit), except fused multiply-add, which changes rounding
and is done only when neither instruction is ``precise`` (GLSL allows the
contraction of ``a * b + c`` unless the result is ``precise``).

`optimize(program)` guarantees:

- copy propagation: a read of ``p_parallelcopy`` / one-operand
  ``p_create_vector`` of a temp of the same class reads that temp;
- constant propagation: a temp defined by ``s_mov_b32/_b64``, ``v_mov_b32``
  or a copy of a constant is replaced by the constant in the dword operands of a
  ``p_create_vector`` of two or more operands, and in ALU operand slots
  that take one (the table's ``ssrc``/``vsrc`` kinds): inline constants
  anywhere, one 32-bit literal per instruction (GFX10+ VOP3 included), at most
  two constant-bus reads per VALU instruction (one for 64-bit shifts);
  commutative VOP2 instructions swap their sources to take it in src0 (the
  ``v_sub``/``v_subrev`` pairs too) or become VOP3 when the constant's
  definition then dies;
- source modifiers: a read of ``v_xor_b32 0x80000000, x`` (``s_xor_b32``),
  ``v_and_b32 0x7fffffff, x`` or ``v_or_b32 0x80000000, x`` by a VALU source
  that takes neg/abs modifiers (the table's ``src_mods``) reads ``x`` with
  ``neg`` / ``abs`` / both (VOP1/VOP2 become VOP3); an f16 source (``*_f16``
  without op_sel: it reads bits 0-15 only) the same with ``0x8000``/``0x7fff``;
- clamp: ``v_min_f32(v_max_f32(x, 0), 1.0)`` is ``v_max_f32(x, 0) clamp``
  (exact: the max is never NaN and never below 0); other constants ``lo < hi``:
  ``v_min_f32(v_max_f32(x, lo), hi)`` is ``v_med3_f32(x, lo, hi)`` (ACO's
  combine_clamp; exact by the ISA's NaN rules for this order only), and
  ``v_min_i32/u32(v_max_i32/u32(x, lo), hi)`` is ``v_med3_i32/u32`` (16-bit:
  ``v_med3_i16/u16``, bounds compared as 16-bit values);
- ``v_add_f32(v_mul_f32(a, b), c)`` (``v_sub``/``v_subrev`` with negation,
  f32 and f64) becomes ``v_fma_f32(a, b, c)`` when the product has no other
  use, neither is precise and the product has no clamp/omod -- only when
  ``program.config.fp_contract`` is set (isel sets it: SPIR-V's
  NoContraction, GLSL ``precise``, reaches the machine IR as
  ``Definition.is_precise``); then
  ``v_fma_f32(a, b, c)`` without modifiers is ``v_fmac_f32`` (c a VGPR read
  nowhere else), ``v_fmamk_f32`` (b a literal) or ``v_fmaak_f32`` (c a
  literal);
- integer chains: ``v_add_nc_u32(v_lshlrev_b32(s, a), b)`` →
  ``v_lshl_add_u32 a, s, b``; ``v_add_nc_u32(v_add_nc_u32(a, b), c)`` →
  ``v_add3_u32``; ``v_or_b32(v_lshlrev_b32(s, a), b)`` → ``v_lshl_or_b32``;
  ``v_or_b32(v_and_b32(a, b), c)`` → ``v_and_or_b32``; ``v_or_b32`` /
  ``v_xor_b32`` of the same op → ``v_or3_b32`` / ``v_xor3_b32``;
  ``v_lshlrev_b32(k, v_add_nc_u32(a, b))`` → ``v_add_lshl_u32 a, b, k``;
  ``v_add_nc_u32(v_mul_u32_u24(a, b), c)`` → ``v_mad_u32_u24``, and
  ``v_mul_lo_u32`` of two values known to fit 24 bits → ``v_mul_u32_u24``
  (each only when the inner instruction has no other use), else ``v_mul_lo_u32 x,
  2^k + 1`` → ``v_lshl_add_u32 x, k, x``;
- lane masks: ``s_and_b32/b64(c, exec)`` of a comparison ``c`` computed in
  the same EXEC context (`exec_context.exec_ids`) is ``c`` (a VALU lane
  mask is already 0 in inactive lanes); ``s_and_not1(exec, c)`` of such a
  comparison read nowhere else is the inverse comparison (``v_cmp_nlt_f32``
  for ``v_cmp_lt_f32`` ..., exact for NaN); ``v_cmp_ne_u32(0,
  v_cndmask_b32(0, k, c))`` with k != 0 and such a ``c`` is ``c``;
  ``v_cndmask_b32(a, b, s_not(c))`` is ``v_cndmask_b32(b, a, c)``;
- dead code: instructions without side effects whose definitions are all
  unread are removed (phis included), also those the rules made dead
  (`dead_code.remove_dead_code`, the one dead-code elimination).

An SGPR operand moves to a later instruction only where its definition
dominates that instruction in the linear CFG, so SSA dominance is kept.
Rules that read an SCC definition never fire when that SCC value is read.
Linear in the number of instructions (each rule looks one or two
definitions deep).
"""

from __future__ import annotations

import struct
from collections import defaultdict
from collections.abc import Callable

from radcc.ir.dominance import DominatorTree, require_dominance
from radcc.ir.fields import DPP_FIELDS, make_fields
from radcc.ir.opinfo import CONST_KINDS, E64_FORMATS, op_info, operand_slots
from radcc.ir.program import PHI_OPCODES, Block, Definition, Instruction, Operand, Program
from radcc.ir.regclass import EXEC, EXEC_HI, SCC, RegClass
from radcc.ir.validate import is_inline_constant
from radcc.isa.classes import SALU_ENCODINGS, VALU_ENCODINGS
from radcc.isa.table import OperandSpec, get_table
from radcc.passes.dead_code import remove_dead_code
from radcc.passes.exec_context import exec_ids
from radcc.target import GfxLevel

SIGN = 0x80000000
F32_ONE = 0x3F800000
# The encodings whose operands the optimizer rewrites: the shared VALU set without packed math
# (VOP3P), the shared SALU set without SOPK (its immediate is an encoding field, not an operand).
_VALU = VALU_ENCODINGS - {"VOP3P"}
_SALU = SALU_ENCODINGS - {"SOPK"}
_ALU = _VALU | _SALU
# `legal`: the operand kinds an SGPR may fill
_SGPR_KINDS = CONST_KINDS | {"sgpr", "sreg", "sreg_wave", "special"}
_SHIFT64 = frozenset({"v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64"})
_COMMUTATIVE = frozenset({
    "v_add_f32", "v_mul_f32", "v_min_f32", "v_max_f32", "v_and_b32", "v_or_b32", "v_xor_b32",
    "v_add_nc_u32", "v_mul_u32_u24", "v_mul_i32_i24", "v_mul_hi_u32_u24", "v_mul_hi_i32_i24",
    "v_min_u32", "v_max_u32", "v_min_i32", "v_max_i32", "v_mul_dx9_zero_f32", "v_xnor_b32"})
_REVERSE = {"v_sub_f32": "v_subrev_f32", "v_subrev_f32": "v_sub_f32",
            "v_sub_nc_u32": "v_subrev_nc_u32", "v_subrev_nc_u32": "v_sub_nc_u32",
            "v_lshlrev_b32": None}
# VALU whose result depends on the lane (or on lane masks / carries in SGPRs)
_LANE_OPS = ("v_cndmask", "v_mbcnt", "v_readlane", "v_writelane", "v_readfirstlane",
             "v_permlane", "v_add_co", "v_sub_co", "v_subrev_co", "v_div_fmas", "v_cmp",
             "v_cmpx", "v_movrel", "v_swap")
# loads whose result is one value in every active lane when their address is (no atomics, no
# lane-indexed forms: ds_load_addtid, ds_load_tr)
_UNIFORM_LOADS = ("ds_load_b", "ds_load_u", "ds_load_i", "global_load_b", "global_load_u",
                  "global_load_i")
# inverse comparisons (exact for NaN: the negation of an ordered float compare is unordered)
_INVERSE_CMP = {"eq": "ne", "ne": "eq", "lt": "ge", "ge": "lt", "gt": "le", "le": "gt"}
_INVERSE_FCMP = {"eq": "neq", "neq": "eq", "lt": "nlt", "nlt": "lt", "le": "nle", "nle": "le",
                 "gt": "ngt", "ngt": "gt", "ge": "nge", "nge": "ge", "lg": "nlg", "nlg": "lg",
                 "o": "u", "u": "o"}


def _is_vopc_result(instr: Instruction) -> bool:
    return instr.opcode.startswith("v_cmp_") and instr.format in ("VOPC", "VOP3") and \
        not instr.opcode.startswith("v_cmpx")


def _has_mods(instr: Instruction) -> bool:
    f = instr.fields
    return any(f.get(k) for k in ("clamp", "omod", "op_sel")) or any(
        any(v for v in (f.get(k) or ())) for k in ("neg", "abs"))  # type: ignore[union-attr]


def _is_dpp(instr: Instruction) -> bool:
    return not DPP_FIELDS.isdisjoint(instr.fields)


class _Opt:
    def __init__(self, program: Program) -> None:
        self.p = program
        self.table = get_table(program.gfx_level)
        self.gfx10 = program.gfx_level >= GfxLevel.GFX10
        self.lm_bits = program.wave_size
        self.defs: dict[int, Instruction] = {}
        self.def_block: dict[int, int] = {}
        self.uses: defaultdict[int, int] = defaultdict(int)
        # the temps p_as_uniform defines (`read_uniform_vgprs` looks only at their reads;
        # the rules make no p_as_uniform)
        self.as_uniform: set[int] = set()
        for b in program.blocks:
            for ins in b.instructions:
                for d in ins.definitions:
                    if d.temp is not None:
                        self.defs[d.temp.id] = ins
                        self.def_block[d.temp.id] = b.index
                        if ins.opcode == "p_as_uniform":
                            self.as_uniform.add(d.temp.id)
                for o in ins.operands:
                    if o.temp is not None:
                        self.uses[o.temp.id] += 1
        self.exec_id = exec_ids(program)
        require_dominance(program)  # exec_ids required it too
        self.lin_tree = DominatorTree.of_program(program, linear=True)
        self.renames: dict[int, Operand] = {}
        self.edits = 0  # operands `set_operand` replaced so far
        self.block: Block | None = None
        self.contract = program.config.fp_contract
        # the combining rules in the order `combine` tries them, by the opcodes each
        # applies to (a rule returns None and changes nothing on any other opcode)
        bits = self.lm_bits
        self._rules: dict[str, list[Callable[[Instruction], Instruction | None]]] = {}
        for rule, opcodes in (
                (self.rule_clamp, ("v_min_f32",)), (self.rule_med3, tuple(_MED3)),
                (self.rule_fma, _FMA_ADDS), (self.rule_int3, tuple(_INT3)),
                (self.rule_add_lshl, ("v_lshlrev_b32",)), (self.rule_mul24, ("v_mul_lo_u32",)),
                (self.rule_mul_shift_add, ("v_mul_lo_u32",)),
                (self.rule_and_exec, (f"s_and_b{bits}",)),
                (self.rule_andn2_exec, (f"s_and_not1_b{bits}",)),
                (self.rule_cmp_of_cndmask, _CMP_NE), (self.rule_cndmask_not, ("v_cndmask_b32",))):
            for op in opcodes:
                self._rules.setdefault(op, []).append(rule)

    # -- bookkeeping ---------------------------------------------------------------------
    def def_of(self, o: Operand) -> Instruction | None:
        if o.temp is None or o.phys is not None:
            return None
        return self.defs.get(o.temp.id)

    def set_operand(self, instr: Instruction, i: int, new: Operand) -> None:
        old = instr.operands[i]
        if old.temp is not None:
            self.uses[old.temp.id] -= 1
        if new.temp is not None:
            self.uses[new.temp.id] += 1
        instr.operands[i] = new
        self.edits += 1

    def add_uses(self, ops: list[Operand], k: int) -> None:
        for o in ops:
            if o.temp is not None:
                self.uses[o.temp.id] += k

    def new_instr(self, opcode: str, fmt: str, ops: list[Operand], defs: list[Definition],
                  old: Instruction, **fields: object) -> Instruction:
        """Replace `old` (whose definitions are reused) by a new instruction."""
        self.add_uses(old.operands, -1)
        ops = [_copy_op(o) for o in ops]
        self.add_uses(ops, +1)
        ins = Instruction(opcode, fmt, ops, defs, make_fields(fmt, fields))
        for d in defs:
            if d.temp is not None:
                self.defs[d.temp.id] = ins
        self.exec_id[id(ins)] = self.exec_id.get(id(old), -1)
        return ins

    def single_use(self, o: Operand) -> bool:
        return o.temp is not None and self.uses[o.temp.id] == 1

    def available(self, o: Operand) -> bool:
        """May `o` be read by an instruction of the current block? (SGPR dominance)"""
        if o.temp is None or not (o.temp.rc.is_sgpr or o.temp.rc.linear):
            return True
        assert self.block is not None
        db = self.def_block.get(o.temp.id)
        return db is not None and (db == self.block.index
                                   or self.lin_tree.dominates(db, self.block.index))

    def scc_unused(self, instr: Instruction) -> bool:
        return all(d.temp is None or self.uses[d.temp.id] == 0 for d in instr.definitions
                   if d.phys is not None and d.phys.reg == SCC)

    def replace_uses(self, instr: Instruction, new: Operand) -> None:
        """All reads of instr's first definition read `new` instead (applied as
        operands are visited; earlier reads do not exist: defs dominate uses,
        except phi operands along back edges, which `run` fixes at the end)."""
        d = instr.definitions[0]
        assert d.temp is not None
        self.renames[d.temp.id] = new

    # -- constants -------------------------------------------------------------------------
    def const_of(self, o: Operand) -> tuple[int, int] | None:
        if o.const is not None:
            return o.const, o.const_bytes
        if o.temp is None or o.phys is not None:
            return None
        ins = self.defs.get(o.temp.id)  # (`def_of`, inline: a read of every ALU operand)
        if ins is None or ins.opcode not in _CONST_MOVES or len(ins.definitions) > 2 or \
                ins.fields or not ins.operands:
            return None
        if len([d for d in ins.definitions if d.phys is None]) == 1 and \
                ins.definitions[0].phys is None and len(ins.operands) == 1:
            c = ins.operands[0]
            if c.const is not None:
                return c.const, c.const_bytes
        return None

    def legal(self, opcode: str, ops: list[Operand], fmt: str) -> bool:
        """Would `opcode` in format `fmt` with these operands be encodable?"""
        info = op_info(self.table, opcode, fmt)
        if info is None:
            return False
        specs = _SRC_SLOTS.get(info.uid)
        if specs is None:
            specs = _SRC_SLOTS[info.uid] = operand_slots(info)[1]
        literals: set[int] = set()
        sgprs: set[object] = set()
        for i, o in enumerate(ops):
            spec = specs[i] if i < len(specs) else None
            if o.const is not None:
                if spec is None or spec.kind not in CONST_KINDS or spec.kind == "smem_offset":
                    return False
                if o.const_bytes * 8 != spec.bits and not (
                        spec.bits == 16 and o.const_bytes == 4 and o.const < 0x10000):
                    return False  # (16-bit sources take 32-bit constants of 16-bit values)
                if not is_inline_constant(o.const, o.const_bytes, spec.type):
                    if o.const_bytes != 4 or (fmt in ("VOP3", "VOP3SD") and not self.gfx10):
                        return False
                    literals.add(o.const)
                continue
            if spec is not None and spec.kind == "vgpr" and (o.rc is None or not o.rc.is_vgpr):
                return False
            if o.rc is not None and o.rc.is_sgpr:
                if spec is not None and spec.kind not in _SGPR_KINDS:
                    return False
                sgprs.add(o.temp.id if o.temp is not None else o.phys)
        if len(literals) > 1:
            return False
        if fmt in _VALU:
            limit = 1 if opcode in _SHIFT64 or not self.gfx10 else 2
            if len(sgprs) + len(literals) > limit:
                return False
        return True

    def vop3_format(self, opcode: str) -> str | None:
        for e in self.table.by_canon.get(opcode, ()):
            if e.enc in E64_FORMATS and e.enc != "VOP3P":
                return e.enc
        return None

    def to_vop3(self, instr: Instruction) -> bool:
        """Give a VOP1/VOP2 instruction its VOP3 encoding (in place)."""
        if instr.format in ("VOP3", "VOP3SD"):
            return True
        if instr.format not in ("VOP1", "VOP2") or _is_dpp(instr) or instr.fields:
            return False
        fmt = self.vop3_format(instr.opcode)
        if fmt is None or any(o.phys is not None for o in instr.operands) or \
                any(d.phys is not None for d in instr.definitions):
            return False
        if not self.legal(instr.opcode, instr.operands, fmt):
            return False
        instr.format = fmt
        return True

    def propagate_constants(self, instr: Instruction) -> None:
        if instr.opcode == "p_create_vector" and len(instr.operands) > 1:
            # ACO's label_instruction gives pseudo instructions their constant operands:
            # lower_to_hw then writes each dword (pairs as one 64-bit move) instead of
            # copying a register that value numbering made hold all of them
            for i, o in enumerate(instr.operands):
                if o.temp is None or o.phys is not None or o.temp.rc.size != 1 or \
                        o.temp.rc.subdword:
                    continue
                c = self.const_of(o)
                if c is not None and c[1] == 4:
                    self.set_operand(instr, i, Operand(const=c[0], const_bytes=4))
            return
        if instr.format not in _ALU or _is_dpp(instr):
            return
        defs = self.defs
        for i in range(len(instr.operands)):
            o = instr.operands[i]
            t = o.temp
            if t is None or o.phys is not None:
                continue
            d = defs.get(t.id)
            if d is None or d.opcode not in _CONST_MOVES:
                continue  # (`const_of` is None)
            c = self.const_of(o)
            if c is None:
                continue
            mods = _slot_mods(instr, i)
            if mods != (0, 0):
                # a modifier on a constant: apply it to the value (32-bit float slots)
                if c[1] != 4:
                    continue
                v = c[0] & 0x7FFFFFFF if mods[1] else c[0]
                c = (v ^ SIGN if mods[0] else v, 4)
            k = Operand(const=c[0], const_bytes=c[1])
            ops = list(instr.operands)
            ops[i] = k
            if self.legal(instr.opcode, ops, instr.format):
                self.set_operand(instr, i, k)
                _clear_slot_mods(instr, i)
                continue
            if instr.format == "VOP2" and i == 1 and len(ops) == 2:
                rev = instr.opcode if instr.opcode in _COMMUTATIVE else _REVERSE.get(instr.opcode)
                if rev and op_info(self.table, rev, "VOP2") is not None:
                    if self.legal(rev, [ops[1], ops[0]], "VOP2"):
                        instr.opcode = rev
                        self.set_operand(instr, 1, instr.operands[0])
                        self.set_operand(instr, 0, k)
                        continue  # VOP2: no modifiers
            if instr.format in ("VOP1", "VOP2") and self.uses[t.id] == 1 and \
                    not instr.fields and not any(x.phys is not None for x in instr.operands):
                fmt = self.vop3_format(instr.opcode)
                if fmt is not None and self.legal(instr.opcode, ops, fmt):
                    instr.format = fmt
                    self.set_operand(instr, i, k)  # VOP1/VOP2 had no modifiers

    # -- source modifiers ----------------------------------------------------------------
    def mod_source(self, o: Operand, half: bool = False) -> tuple[Operand, bool, bool] | None:
        """(x, neg, abs) when `o` is a sign-bit xor/and/or of x (bit 15 when `half`:
        an f16 source reads the low 16 bits only)."""
        if o.temp is None or o.phys is not None:
            return None
        ins = self.defs.get(o.temp.id)  # (`def_of`, inline: asked of every float source)
        if ins is None or ins.opcode not in _SIGN_OPS or ins.fields:
            return None
        a, b = ins.operands[0], ins.operands[1]
        for c, x in ((a, b), (b, a)):
            cv = self.const_of(c)
            if cv is None or cv[1] != 4 or x.const is not None or x.temp is None:
                continue
            kind = ins.opcode[2:-4]
            sign = 0x8000 if half else SIGN
            if kind == "xor" and cv[0] == sign:
                return x, True, False
            if kind == "and" and cv[0] == sign - 1:
                return x, False, True
            if kind == "or" and cv[0] == sign:
                return x, True, True
        return None

    def fold_modifiers(self, instr: Instruction) -> None:
        if instr.format not in _VALU or instr.format == "VOPC":
            return
        # the first three sources whose definition is a sign-bit operation (of any
        # other, `mod_source` finds nothing: most instructions stop here)
        defs = self.defs
        ops = instr.operands
        cands: list[int] = []
        for i in range(min(3, len(ops))):
            o = ops[i]
            t = o.temp
            if t is None or o.phys is not None:
                continue
            d = defs.get(t.id)
            if d is not None and d.opcode in _SIGN_OPS:
                cands.append(i)
        if not cands or _is_dpp(instr) or not _float_input(instr.opcode):
            return
        half = instr.opcode.endswith("_f16")
        if half and instr.fields.get("op_sel"):
            return  # a source's high half may be read: the mask changes it
        # each such source up to three times (a modifier source of a modifier source); a
        # try that folds nothing changes nothing, so the next one of that source would
        # fold nothing either (a fold changes no other source)
        for i in cands:
            for _ in range(3):
                if not self._fold_source(instr, i, half):
                    break

    def _fold_source(self, instr: Instruction, i: int, half: bool) -> bool:
        """Fold source i's sign-bit operation (`mod_source`) into neg/abs; whether it did."""
        o = instr.operands[i]
        src = self.mod_source(o, half) if o.rc is not None and o.rc.bytes == 4 else None
        if src is None:
            return False
        x, sneg, sabs = src
        if not self.available(x):
            return False
        fmt = instr.format if instr.format in ("VOP3", "VOP3SD") else \
            self.vop3_format(instr.opcode)
        info = op_info(self.table, instr.opcode, fmt) if fmt else None
        mods = info.extra.get("src_mods") if info is not None else None
        if not isinstance(mods, list) or not mods or i >= len(mods) or \
                not mods[i].get("neg") or not mods[i].get("abs"):
            return False
        if instr.format in ("VOP1", "VOP2") and (instr.fields or any(
                y.phys is not None for y in instr.operands) or any(
                d.phys is not None for d in instr.definitions)):
            return False
        ops = list(instr.operands)
        ops[i] = x
        if fmt is None or not self.legal(instr.opcode, ops, fmt):
            return False
        instr.format = fmt
        n = max(j + 1 for j, m in enumerate(mods) if m.get("neg"))
        neg = _mod_list(instr.fields.get("neg"), n)
        abs_ = _mod_list(instr.fields.get("abs"), n)
        if not abs_[i]:
            neg[i] ^= int(sneg)
            abs_[i] = int(sabs)
        self.set_operand(instr, i, _copy_op(x))
        _set_mods(instr, "neg", neg)
        _set_mods(instr, "abs", abs_)
        return True

    # -- combining rules -------------------------------------------------------------------
    def combine(self, instr: Instruction) -> Instruction:
        for _ in range(4):
            rules = self._rules.get(instr.opcode)
            if rules is None:
                return instr
            for rule in rules:
                new = rule(instr)
                if new is not None:
                    instr = new
                    break
            else:
                return instr
        return instr

    def other_operand(self, instr: Instruction, pred: Callable[[Instruction], bool],
                      ) -> tuple[int, Instruction] | None:
        """(index, def) of the first of two operands whose single-use definition matches."""
        for i in range(2):
            o = instr.operands[i]
            d = self.def_of(o)
            if d is not None and self.single_use(o) and pred(d):
                return i, d
        return None

    def rule_clamp(self, instr: Instruction) -> Instruction | None:
        if instr.opcode != "v_min_f32" or _has_mods(instr) or _is_dpp(instr):
            return None
        for i in range(2):
            one = self.const_of(instr.operands[1 - i])
            mx = self.def_of(instr.operands[i])
            if one != (F32_ONE, 4) or mx is None or not self.single_use(instr.operands[i]):
                continue
            if mx.opcode != "v_max_f32" or _is_dpp(mx) or mx.fields.get("clamp") or \
                    mx.fields.get("omod"):
                continue
            if not any(self.const_of(x) == (0, 4) for x in mx.operands[:2]):
                continue
            if any(x.phys is not None for x in mx.operands) or not self.to_vop3(mx):
                continue
            mx.fields["clamp"] = True
            self.replace_uses(instr, Operand(mx.definitions[0].temp))
            return None
        return None

    def rule_med3(self, instr: Instruction) -> Instruction | None:
        """``v_min_f32(v_max_f32(x, lo), hi)``, constants ``lo < hi`` -> ``v_med3_f32``
        (``_i32``/``_u32`` the same: exact for integers, V_MED3_I32/U32).

        Exact by the ISA pseudocode (RDNA3 guide, V_MED3_F32/V_MIN_F32/V_MAX_F32): for
        a quiet NaN x both give lo, for a signaling NaN both give hi (max quiets it,
        med3 is min3 on a NaN), otherwise the median of x, lo, hi; ordered
        ``lo < hi`` (no NaN, not equal) so -0/+0 ties cannot arise between them."""
        kind = _MED3.get(instr.opcode)
        if kind is None or _has_mods(instr) or _is_dpp(instr):
            return None
        less = _MED3_LESS[kind]
        for i in range(2):
            hi = self.const_of(instr.operands[1 - i])
            mx = self.def_of(instr.operands[i])
            if hi is None or hi[1] != 4 or mx is None or mx.opcode != f"v_max_{kind}" or \
                    not self.single_use(instr.operands[i]) or _has_mods(mx) or _is_dpp(mx):
                continue
            for j in range(2):
                lo = self.const_of(mx.operands[1 - j])
                if lo is None or lo[1] != 4 or not less(lo[0], hi[0]):
                    continue
                x = mx.operands[j]
                if x.phys is not None or not self.available(x):
                    continue
                for ops in ([x, Operand.c32(lo[0]), Operand.c32(hi[0])],
                            [x, mx.operands[1 - j], instr.operands[1 - i]],
                            [x, Operand.c32(lo[0]), instr.operands[1 - i]],
                            [x, mx.operands[1 - j], Operand.c32(hi[0])]):
                    if not all(self.available(o) and o.phys is None for o in ops):
                        continue
                    if self.legal(f"v_med3_{kind}", ops, "VOP3"):
                        return self.new_instr(f"v_med3_{kind}", "VOP3", ops,
                                              instr.definitions, instr)
        return None

    def rule_fma(self, instr: Instruction) -> Instruction | None:
        op = instr.opcode
        wide = op.endswith("_f64")
        if not self.contract or op not in _FMA_ADDS or \
                _is_dpp(instr) or instr.fields.get("omod") or instr.definitions[0].is_precise:
            return None
        mul = "v_mul_f64" if wide else "v_mul_f32"
        n = 2
        neg = _mod_list(instr.fields.get("neg"), n)
        abs_ = _mod_list(instr.fields.get("abs"), n)
        if op == "v_sub_f32":
            neg[1] ^= 1
        elif op == "v_subrev_f32":
            neg[0] ^= 1
        for i in range(2):
            o = instr.operands[i]
            m = self.def_of(o)
            if m is None or m.opcode != mul or not self.single_use(o) or abs_[i] or \
                    _is_dpp(m) or m.fields.get("clamp") or m.fields.get("omod") or \
                    m.definitions[0].is_precise:
                continue
            a, b = m.operands[0], m.operands[1]
            c = instr.operands[1 - i]
            if not (self.available(a) and self.available(b)):
                continue
            mneg = _mod_list(m.fields.get("neg"), 2)
            mabs = _mod_list(m.fields.get("abs"), 2)
            if neg[i]:  # negate the product through a factor that is not a constant
                j = 0 if a.const is None else 1 if b.const is None else -1
                if j < 0:
                    continue
                mneg[j] ^= 1
            fneg = [mneg[0], mneg[1], neg[1 - i]]
            fabs = [mabs[0], mabs[1], abs_[1 - i]]
            fma = "v_fma_f64" if wide else "v_fma_f32"
            ops = [a, b, c]
            if not self.legal(fma, ops, "VOP3"):
                continue
            fields: dict[str, object] = {}
            if any(fneg):
                fields["neg"] = fneg
            if any(fabs):
                fields["abs"] = fabs
            if instr.fields.get("clamp"):
                fields["clamp"] = True
            return self.new_instr(fma, "VOP3", ops, instr.definitions, instr, **fields)
        return None

    def shrink_fma(self, instr: Instruction) -> Instruction | None:
        """v_fma_f32 without modifiers as v_fmac/v_fmamk/v_fmaak (VOP2)."""
        if instr.opcode != "v_fma_f32" or instr.fields or any(
                o.phys is not None for o in instr.operands):
            return None
        a, b, c = instr.operands
        lit = [o.const is not None and not is_inline_constant(o.const, 4, "f32")
               for o in (a, b, c)]
        vg = [o.rc is not None and o.rc.is_vgpr and o.temp is not None for o in (a, b, c)]
        if lit[2] and vg[1] and not lit[0]:
            return self.new_instr("v_fmaak_f32", "VOP2", [a, b], instr.definitions, instr,
                                  k=c.const)
        if lit[0] and vg[1] and not lit[2] and not (c.const is not None):
            a, b = b, a
            lit[0], lit[1] = lit[1], lit[0]
        if lit[1] and vg[2] and not lit[0]:
            return self.new_instr("v_fmamk_f32", "VOP2", [a, c], instr.definitions, instr,
                                  k=b.const)
        if not any(lit) and vg[2] and self.single_use(c):
            if not vg[1] and vg[0]:
                a, b = b, a
            if b.rc is not None and b.rc.is_vgpr and b.temp is not None:
                if self.legal("v_fmac_f32", [a, b], "VOP2"):
                    return self.new_instr("v_fmac_f32", "VOP2", [a, b, c], instr.definitions,
                                          instr)
        return None

    def rule_int3(self, instr: Instruction) -> Instruction | None:
        op = instr.opcode
        cands = _INT3.get(op)
        if cands is None or _has_mods(instr) or _is_dpp(instr) or len(instr.operands) != 2:
            return None
        for inner, out in cands:
            for i in range(2):
                o = instr.operands[i]
                m = self.def_of(o)
                if m is None or m.opcode != inner or not self.single_use(o) or \
                        _has_mods(m) or _is_dpp(m) or len(m.operands) != 2 or \
                        any(x.phys is not None for x in m.operands):
                    continue
                if inner == "v_add_nc_u32" and m.fields.get("clamp"):
                    continue
                x, y = m.operands
                if inner == "v_lshlrev_b32":
                    x, y = y, x  # (value << shift): v_lshlrev_b32 shift, value
                ops = [x, y, instr.operands[1 - i]]
                if not all(self.available(z) for z in ops[:2]):
                    continue
                if not self.legal(out, ops, "VOP3"):
                    continue
                return self.new_instr(out, "VOP3", ops, instr.definitions, instr)
        return None

    def max_bits(self, o: Operand, depth: int = 0) -> int:
        """An upper bound of the bit width of o's value (32 when unknown)."""
        c = self.const_of(o)
        if c is not None:
            return max(1, c[0].bit_length()) if c[1] == 4 else 32
        ins = self.def_of(o)
        if ins is None or depth > 3 or _has_mods(ins) or _is_dpp(ins):
            return 32
        op = ins.opcode
        if op in ("v_and_b32", "s_and_b32"):
            return min(self.max_bits(x, depth + 1) for x in ins.operands[:2])
        if op == "v_bfe_u32":
            w = self.const_of(ins.operands[2])
            return min(32, w[0] & 31 if w and w[0] & 31 else 32)
        if op in ("v_lshrrev_b32", "s_lshr_b32"):
            sh = ins.operands[0] if op == "v_lshrrev_b32" else ins.operands[1]
            v = ins.operands[1] if op == "v_lshrrev_b32" else ins.operands[0]
            s = self.const_of(sh)
            return max(0, self.max_bits(v, depth + 1) - (s[0] & 31)) if s else 32
        if op.startswith("v_mbcnt"):
            return 7
        if op in ("v_cvt_u32_f32",):
            return 32
        return 32

    def rule_add_lshl(self, instr: Instruction) -> Instruction | None:
        """``v_lshlrev_b32(k, v_add_nc_u32(a, b))`` -> ``v_add_lshl_u32 a, b, k`` (ACO's
        combine_three_valu_op for v_lshlrev_b32 with v_add_u32, GFX9+)."""
        if instr.opcode != "v_lshlrev_b32" or _has_mods(instr) or _is_dpp(instr) or \
                len(instr.operands) != 2:
            return None
        k, v = instr.operands
        m = self.def_of(v)
        if m is None or m.opcode != "v_add_nc_u32" or not self.single_use(v) or \
                _has_mods(m) or _is_dpp(m) or m.fields.get("clamp") or len(m.operands) != 2 \
                or any(x.phys is not None for x in m.operands):
            return None
        ops = [m.operands[0], m.operands[1], k]
        if not all(self.available(z) for z in ops[:2]):
            return None
        if not self.legal("v_add_lshl_u32", ops, "VOP3"):
            return None
        return self.new_instr("v_add_lshl_u32", "VOP3", ops, instr.definitions, instr)

    def rule_mul24(self, instr: Instruction) -> Instruction | None:
        if instr.opcode != "v_mul_lo_u32" or instr.fields:
            return None
        a, b = instr.operands[:2]
        if self.max_bits(a) > 24 or self.max_bits(b) > 24:
            return None
        for fmt, ops in (("VOP2", [a, b]), ("VOP2", [b, a]), ("VOP3", [a, b])):
            if self.legal("v_mul_u32_u24", ops, fmt):
                return self.new_instr("v_mul_u32_u24", fmt, ops, instr.definitions, instr)
        return None

    def rule_mul_shift_add(self, instr: Instruction) -> Instruction | None:
        """``v_mul_lo_u32 x, 2^k + 1`` (operands not known to fit 24 bits: rule_mul24
        first) is ``v_lshl_add_u32 x, k, x`` (ACO's v_mul_imm: (x << k) + x is the
        product mod 2^32; one full-rate instruction instead of the quarter-rate
        multiply)."""
        if instr.opcode != "v_mul_lo_u32" or instr.fields or len(instr.operands) != 2:
            return None
        for i in range(2):
            c, x = self.const_of(instr.operands[i]), instr.operands[1 - i]
            if c is None or c[1] != 4 or x.temp is None or x.phys is not None:
                continue
            m = c[0] & 0xFFFFFFFF
            if m < 3 or (m - 1) & (m - 2):
                continue
            ops = [x, Operand.c32((m - 1).bit_length() - 1), x]
            if self.legal("v_lshl_add_u32", ops, "VOP3"):
                return self.new_instr("v_lshl_add_u32", "VOP3", ops, instr.definitions, instr)
        return None

    def _same_exec_cmp(self, o: Operand, instr: Instruction) -> Instruction | None:
        c = self.def_of(o)
        if c is None or not _is_vopc_result(c) or c.definitions[0].phys is not None:
            return None
        if self.exec_id.get(id(c), -1) != self.exec_id.get(id(instr), -2):
            return None
        return c

    def _lane_op(self, instr: Instruction, name: str) -> bool:
        bits = self.lm_bits
        return instr.opcode == f"s_{name}_b{bits}" and self.scc_unused(instr) and \
            len(instr.operands) == 2

    def rule_and_exec(self, instr: Instruction) -> Instruction | None:
        if not self._lane_op(instr, "and"):
            return None
        for i in range(2):
            e, c = instr.operands[i], instr.operands[1 - i]
            if _is_exec(e) and self._same_exec_cmp(c, instr) is not None:
                self.replace_uses(instr, _copy_op(c))
                return None
        return None

    def rule_andn2_exec(self, instr: Instruction) -> Instruction | None:
        if not self._lane_op(instr, "and_not1"):
            return None
        e, c = instr.operands
        cmp = self._same_exec_cmp(c, instr)
        if not _is_exec(e) or cmp is None or not self.single_use(c):
            return None
        inv = _inverse_cmp(cmp.opcode)
        if inv is None or op_info(self.table, inv, cmp.format) is None:
            return None
        if not all(self.available(x) for x in cmp.operands):
            return None
        return self.new_instr(inv, cmp.format, list(cmp.operands), instr.definitions[:1],
                              instr, **dict(cmp.fields))

    def rule_cmp_of_cndmask(self, instr: Instruction) -> Instruction | None:
        if instr.opcode not in _CMP_NE or _has_mods(instr) or \
                instr.definitions[0].phys is not None:
            return None
        for i in range(2):
            z, s = instr.operands[i], instr.operands[1 - i]
            sel = self.def_of(s)
            if self.const_of(z) != (0, 4) or sel is None or sel.opcode != "v_cndmask_b32" or \
                    _has_mods(sel) or _is_dpp(sel) or len(sel.operands) < 3:
                continue
            a, k = self.const_of(sel.operands[0]), self.const_of(sel.operands[1])
            if a != (0, 4) or k is None or k[0] == 0:
                continue
            c = sel.operands[2]
            if self._same_exec_cmp(c, instr) is None or not self.available(c):
                continue
            self.replace_uses(instr, Operand(c.temp))
            return None
        return None

    def rule_cndmask_not(self, instr: Instruction) -> Instruction | None:
        if instr.opcode != "v_cndmask_b32" or instr.format != "VOP3" or len(
                instr.operands) != 3 or _is_dpp(instr):
            return None
        n = self.def_of(instr.operands[2])
        if n is None or n.opcode != f"s_not_b{self.lm_bits}" or not self.available(
                n.operands[0]) or n.operands[0].temp is None:
            return None
        a, b, _ = instr.operands
        neg = _mod_list(instr.fields.get("neg"), 2)
        abs_ = _mod_list(instr.fields.get("abs"), 2)
        fields = dict(instr.fields)
        if any(neg):
            fields["neg"] = [neg[1], neg[0]]
        if any(abs_):
            fields["abs"] = [abs_[1], abs_[0]]
        return self.new_instr("v_cndmask_b32", "VOP3", [b, a, n.operands[0]],
                              instr.definitions, instr, **fields)

    # -- driver -----------------------------------------------------------------------------
    def rename(self, instr: Instruction) -> None:
        for i, o in enumerate(instr.operands):
            while o.temp is not None and o.temp.id in self.renames:
                new = _copy_op(self.renames[o.temp.id])
                new.phys = o.phys
                if o.phys is not None and new.temp is None:
                    break  # a fixed operand must stay a register
                self.set_operand(instr, i, new)
                o = new

    def copy_source(self, instr: Instruction) -> Operand | None:
        if instr.opcode not in _COPIES or len(instr.operands) != 1 or \
                len(instr.definitions) != 1:
            return None
        o, d = instr.operands[0], instr.definitions[0]
        if o.temp is None or o.phys is not None or d.phys is not None or d.temp is None or \
                o.temp.rc != d.temp.rc:
            return None
        return Operand(o.temp)

    # -- uniform values kept in VGPRs ------------------------------------------------------
    def uniform_vgpr(self, t: Operand, ctx: int, depth: int = 0) -> bool:
        """Does VGPR temp `t` hold one value in every lane active in EXEC context `ctx`?
        True when it is computed in that context by lane-independent VALU instructions
        (no DPP, lane masks, carries, lane reads) or plain loads (`_UNIFORM_LOADS`) from
        SGPRs, constants and such VGPRs, or anywhere from constants alone."""
        if t.temp is None or t.phys is not None or not t.temp.rc.is_vgpr or depth > 8:
            return False
        key = (t.temp.id, ctx)
        if key in self._uniform_memo:
            return self._uniform_memo[key]
        ins = self.def_of(t)
        if ins is not None and ins.opcode.startswith(_UNIFORM_LOADS) and \
                len(ins.definitions) == 1 and ins.definitions[0].phys is None:
            # a plain load from one address in every active lane (NIR's divergence analysis
            # calls it uniform; ACO's optimizer reads it where p_as_uniform's result is read)
            ok = self.exec_id.get(id(ins), -1) == ctx and ctx >= 0 and all(
                o.phys is None and (o.const is not None or o.temp is not None and (
                    o.temp.rc.is_sgpr and not o.temp.rc.linear
                    or self.uniform_vgpr(o, ctx, depth + 1))) for o in ins.operands)
            self._uniform_memo[key] = ok
            return ok
        if ins is not None and ins.format in _VALU and not _is_dpp(ins) and \
                not ins.opcode.startswith(_LANE_OPS) and len(ins.definitions) == 1 and \
                all(o.phys is None and o.const is not None for o in ins.operands):
            # constants alone: every lane that ran it holds the one value, and (SSA
            # dominance) every lane reading it ran it, in whichever EXEC context
            self._uniform_memo[key] = True
            return True
        ok = ins is not None and ins.format in _VALU and not _is_dpp(ins) and \
            self.exec_id.get(id(ins), -1) == ctx and ctx >= 0 and \
            not ins.opcode.startswith(_LANE_OPS) and len(ins.definitions) == 1 and \
            all(o.phys is None and (o.const is not None or o.temp is not None and (
                o.temp.rc.is_sgpr and not o.temp.rc.linear and o.temp.rc.size <= 2
                or self.uniform_vgpr(o, ctx, depth + 1))) for o in ins.operands)
        self._uniform_memo[key] = ok
        return ok

    def read_uniform_vgprs(self, instr: Instruction) -> None:
        """A VALU source (or a VGPR copy) reading ``p_as_uniform(t)`` reads `t` when `t`
        is uniform in the instruction's EXEC context (`uniform_vgpr`): ACO keeps uniform
        VALU results in VGPRs instead of reading them back with v_readfirstlane_b32."""
        as_uniform = self.as_uniform
        if not as_uniform:
            return
        copy = instr.opcode == "p_parallelcopy" and len(instr.operands) == 1 and \
            len(instr.definitions) == 1 and instr.definitions[0].temp is not None and \
            instr.definitions[0].temp.rc.is_vgpr and instr.definitions[0].phys is None
        if not copy and (instr.format not in _VALU or _is_dpp(instr)):
            return
        ctx = self.exec_id.get(id(instr), -1)
        for i, o in enumerate(instr.operands):
            if o.temp is None or o.temp.id not in as_uniform:
                continue
            u = self.def_of(o)
            if u is None or u.opcode != "p_as_uniform" or len(u.operands) != 1 or \
                    u.operands[0].temp is None or o.temp is None or \
                    u.operands[0].temp.rc.size != o.temp.rc.size or \
                    self.exec_id.get(id(u), -1) != ctx or \
                    not self.uniform_vgpr(u.operands[0], ctx):
                continue
            ut = u.operands[0].temp
            new = Operand(ut)
            if copy:
                d0 = instr.definitions[0].temp
                if d0 is not None and d0.rc == ut.rc:
                    self.set_operand(instr, i, new)
                continue
            ops = list(instr.operands)
            ops[i] = new
            if self.legal(instr.opcode, ops, instr.format):
                self.set_operand(instr, i, new)

    def run(self) -> None:
        self._uniform_memo: dict[tuple[int, int], bool] = {}
        rules = self._rules
        as_uniform = self.as_uniform
        # each step below is called only on the opcodes / formats it may change (the
        # same tests it starts with): most instructions take none of them
        for b in self.p.blocks:
            self.block = b
            out: list[Instruction] = []
            for instr in b.instructions:
                self.rename(instr)
                op = instr.opcode
                if op not in PHI_OPCODES:
                    if as_uniform:
                        self.read_uniform_vgprs(instr)
                    src = self.copy_source(instr) if op in _COPIES else None
                    if src is not None:
                        self.replace_uses(instr, src)
                    else:
                        edits = self.edits
                        fmt = instr.format
                        if fmt in _ALU or op == "p_create_vector":
                            self.propagate_constants(instr)
                        fmt = instr.format  # (VOP1/VOP2 may have become VOP3)
                        if fmt in _VALU and fmt != "VOPC":
                            self.fold_modifiers(instr)
                        combined = self.combine(instr) if instr.opcode in rules else instr
                        # again if anything changed: an instruction as the first call
                        # left it (no operand replaced since, no rule applied) would
                        # get no more constants (the same checks on the same state)
                        if combined is not instr or self.edits != edits:
                            self.propagate_constants(combined)
                        instr = combined
                        if instr.opcode == "v_fma_f32":
                            new = self.shrink_fma(instr)
                            if new is not None:
                                instr = new
                        if instr.fields:
                            _consts_without_mods(instr)
                out.append(instr)
            b.instructions = out
        if self.renames:
            for b in self.p.blocks:
                self.block = b
                for instr in b.instructions:
                    self.rename(instr)
        remove_dead_code(self.p)  # the one dead-code elimination (dead_code.py)

def _float_input(opcode: str) -> bool:
    """Do the sources take float values (so neg/abs are sign-bit operations)?"""
    return opcode.endswith(("_f16", "_f32", "_f64")) and not opcode.startswith(
        ("v_ldexp", "v_cmp_class", "v_cmpx_class", "v_trig_preop")) or opcode == "v_cndmask_b32"


# mod_source: the bitwise operations a sign-bit constant makes a neg/abs modifier
_SIGN_OPS = frozenset({"v_xor_b32", "v_and_b32", "v_or_b32", "s_xor_b32", "s_and_b32",
                       "s_or_b32"})
# legal: the operand slots of a table entry (`operand_slots`), by `OpInfo.uid` (the
# entries' fixed facts: what was compiled before changes nothing)
_SRC_SLOTS: dict[int, list[OperandSpec]] = {}
# copy_source: the copies
_COPIES = frozenset({"p_parallelcopy", "p_create_vector"})
# const_of: the moves whose constant operand is the value they define
_CONST_MOVES = frozenset({"s_mov_b32", "s_mov_b64", "v_mov_b32", "p_parallelcopy"})
# rule_fma: the additions a multiplication folds into
_FMA_ADDS = ("v_add_f32", "v_sub_f32", "v_subrev_f32", "v_add_f64")
# rule_int3: per outer opcode, (inner opcode, the three-operand opcode of both)
_INT3: dict[str, tuple[tuple[str, str], ...]] = {
    "v_add_nc_u32": (("v_lshlrev_b32", "v_lshl_add_u32"), ("v_add_nc_u32", "v_add3_u32"),
                     ("v_mul_u32_u24", "v_mad_u32_u24")),
    "v_or_b32": (("v_lshlrev_b32", "v_lshl_or_b32"), ("v_and_b32", "v_and_or_b32"),
                 ("v_or_b32", "v_or3_b32")),
    "v_xor_b32": (("v_xor_b32", "v_xor3_b32"),),
}
# rule_cmp_of_cndmask: x != 0
_CMP_NE = ("v_cmp_ne_u32", "v_cmp_lg_u32")
_MED3 = {"v_min_f32": "f32", "v_min_i32": "i32", "v_min_u32": "u32", "v_min_i16": "i16",
         "v_min_u16": "u16"}


def _sext32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


def _sext16(v: int) -> int:
    v &= 0xFFFF
    return v - (1 << 16) if v >> 15 else v


def _f32_less(a: int, b: int) -> bool:
    """a < b as f32 bit patterns (False when either is NaN)."""
    fa, fb = (struct.unpack("<f", struct.pack("<I", v & 0xFFFFFFFF))[0] for v in (a, b))
    return fa < fb


# ordered comparison of med3 bounds (constants of the instruction's source type)
_MED3_LESS = {"f32": _f32_less, "i32": lambda a, b: _sext32(a) < _sext32(b),
              "u32": lambda a, b: (a & 0xFFFFFFFF) < (b & 0xFFFFFFFF),
              "i16": lambda a, b: _sext16(a) < _sext16(b),
              "u16": lambda a, b: (a & 0xFFFF) < (b & 0xFFFF)}


def _is_exec(o: Operand) -> bool:
    return o.temp is None and o.phys is not None and o.phys.reg in (EXEC, EXEC_HI)


def _inverse_cmp(opcode: str) -> str | None:
    parts = opcode.split("_")  # v_cmp_<cond>_<type>
    if len(parts) != 4:
        return None
    cond, ty = parts[2], parts[3]
    table = _INVERSE_FCMP if ty.startswith("f") else _INVERSE_CMP
    inv = table.get(cond)
    return None if inv is None else f"v_cmp_{inv}_{ty}"


def _consts_without_mods(instr: Instruction) -> None:
    """Apply neg/abs of 32-bit constant sources to their values (the assembly
    syntax has no modifier on a literal: ``-0x40400000`` is another integer)."""
    if "neg" not in instr.fields and "abs" not in instr.fields:
        return
    for i, o in enumerate(instr.operands[:3]):
        if o.const is None or o.const_bytes != 4:
            continue
        n, a = _slot_mods(instr, i)
        if n or a:
            v = o.const & 0x7FFFFFFF if a else o.const
            instr.operands[i] = Operand(const=v ^ SIGN if n else v, const_bytes=4)
            _clear_slot_mods(instr, i)


def _slot_mods(instr: Instruction, i: int) -> tuple[int, int]:
    """(neg, abs) of source i."""
    neg = instr.fields.get("neg") or ()
    abs_ = instr.fields.get("abs") or ()
    return (int(bool(neg[i])) if i < len(neg) else 0,  # type: ignore[arg-type,index]
            int(bool(abs_[i])) if i < len(abs_) else 0)  # type: ignore[arg-type,index]


def _clear_slot_mods(instr: Instruction, i: int) -> None:
    for key in ("neg", "abs"):
        v = instr.fields.get(key)
        if v and i < len(v):  # type: ignore[arg-type]
            lst = [int(bool(x)) for x in v]  # type: ignore[union-attr]
            lst[i] = 0
            _set_mods(instr, key, lst)


def _mod_list(v: object, n: int) -> list[int]:
    if not v:
        return [0] * n
    out = [int(bool(x)) for x in v][:n]  # type: ignore[attr-defined]
    return out + [0] * (n - len(out))


def _set_mods(instr: Instruction, key: str, vals: list[int]) -> None:
    if any(vals):
        instr.fields[key] = vals
    else:
        instr.fields.pop(key, None)


def _copy_op(o: Operand) -> Operand:
    if o.const is not None:
        return Operand(const=o.const, const_bytes=o.const_bytes)
    if o.temp is not None:
        return Operand(o.temp, phys=o.phys)
    return Operand(rc=o.rc, phys=o.phys, undef=o.is_undef)


def optimize(program: Program) -> None:
    """Combine instructions and remove dead code (see the module docstring)."""
    opt = _Opt(program)
    opt.run()
    # its rule table holds bound methods, a reference cycle through the pass's tables of
    # the program's instructions: cleared, they are freed now, not by the cyclic collector
    opt._rules.clear()


optimizer = optimize

__all__ = ["RegClass", "optimize", "optimizer"]
