"""Which instruction last wrote each register: the analysis of ACO's post-RA optimizer.

Source: ACO's README.md (Mesa src/amd/compiler) "Compilation phases" ("Optimization" after register
allocation); the facts of Mesa's aco_optimizer_postRA.cpp (``pr_opt_ctx``):
on register-allocated SSA code, a forward walk per block keeps, per dword
register (SGPRs 0..127 incl. VCC, M0, EXEC; SCC; VGPRs at 256..511), the
position ``(block, index)`` of the instruction that last wrote it.

`WriterTable` guarantees:

- at a block's entry a register's writer is the one all its predecessors
  agree on (SGPRs and SCC over the linear predecessors, VGPRs over the
  logical ones), else `UNTRACKABLE`; the entry block starts `NOT_WRITTEN`;
  a loop header (or any block with a predecessor not yet walked) starts
  with everything `UNTRACKABLE` (instructions later in the loop may write any
  register, as ACO assumes);
- sub-dword definitions and instructions whose register effects are not all
  definitions (reductions, scans, bpermute, scratch setup: anything but the
  pseudo opcodes in `_PLAIN_PSEUDOS`) give `UNKNOWN`, which no pattern
  matches; the table's implicit writes (``scc``, ``vcc``, ``exec``, ``m0``)
  count even when an instruction does not list them as definitions;
- `overwritten_since(reg, size, at)` is True unless every dword of the
  range is provably unwritten after position ``at``;
- `same_value(a, b, rc)`: by a value number per dword (the writer position and
  dword, carried through ``p_parallelcopy`` of whole SGPR dwords), so two
  registers with equal value numbers hold the same bits. Value numbers are
  merged at block entries for the registers below `VALUE_REGS` only (the SGPRs
  whose values the post-RA optimizer compares and copies carry); every other
  register's is unknown at a block's entry, so `same_value` says False for it
  unless both were written in the block.
"""

from __future__ import annotations

from itertools import compress
from operator import ne
from typing import TypeVar

from radcc.ir.opinfo import op_info
from radcc.ir.program import Block, BlockKind, Instruction, Program
from radcc.ir.regclass import EXEC, M0, SCC, VCC, VGPR_BASE, PhysReg, RegClass
from radcc.isa.table import OpcodeTable

NUM_REGS = 512
VALUE_REGS = 128  # value numbers merge at block entries below this (module docstring)
Pos = tuple[int, int]  # (block index, instruction index); block < 0: a sentinel
NOT_WRITTEN: Pos = (-1, 0)
UNTRACKABLE: Pos = (-1, 3)
UNKNOWN: Pos = (-1, 4)
T = TypeVar("T")

# Pseudo instructions whose only register effects are their definitions.
_PLAIN_PSEUDOS = frozenset({
    "p_parallelcopy", "p_phi", "p_linear_phi", "p_logical_start", "p_logical_end",
    "p_branch", "p_cbranch_z", "p_cbranch_nz", "p_split_vector", "p_create_vector",
    "p_extract_vector", "p_startpgm", "p_unit_test", "p_as_uniform", "p_start_linear_vgpr",
    "p_end_linear_vgpr", "p_barrier", "p_wqm", "p_exit_early_if", "p_exit_early_if_not",
})
_IMPLICIT = {"scc": (SCC, 1), "vcc": (VCC, 2), "exec": (EXEC, 2), "m0": (M0, 1)}
# the entry block's value numbers: each register its initial bits
_INITIAL_VALUES = tuple((-1, 0, r) for r in range(NUM_REGS))


def _whole_sgpr(phys: PhysReg | None, rc: RegClass | None) -> bool:
    """A dword-aligned SGPR range below SCC's number (value numbers carry through it)."""
    return phys is not None and rc is not None and not rc.subdword and phys.byte == 0 \
        and phys.reg + rc.size <= 128


def found(p: Pos) -> bool:
    return p[0] >= 0


def dword_range(phys: PhysReg, rc: RegClass) -> range:
    """The dword registers an operand/definition occupies."""
    start = phys.reg
    end = (phys.reg_b + rc.bytes + 3) // 4
    return range(start, max(end, start + 1))


def _agree(rows: list[list[T]], unknown: T) -> list[T]:
    """Per position, the first row's entry when every row's equals it, else `unknown`
    (whole rows compared first: predecessors mostly agree)."""
    first = rows[0]
    if all(r == first for r in rows[1:]):
        return first
    out = list(first)
    idx = range(len(first))
    for r in rows[1:]:  # the positions where a row differs, found at C speed
        assert len(r) == len(first)
        for i in compress(idx, map(ne, first, r)):
            out[i] = unknown
    return out


def _merge(row: list[T], preds: list[list[T] | None], lo: int, hi: int, unknown: T) -> None:
    """`row[lo:hi]`: per register, the predecessors' entry when all agree, else
    `unknown` (`preds`: the predecessors' rows, all walked)."""
    if len(preds) == 1:
        p = preds[0]
        assert p is not None
        row[lo:hi] = p[lo:hi]
        return
    parts = []
    for x in preds:
        assert x is not None
        parts.append(x[lo:hi])
    row[lo:hi] = _agree(parts, unknown)


class WriterTable:
    """Per-block last-writer (and value-number) arrays (module docstring)."""

    def __init__(self, program: Program, table: OpcodeTable) -> None:
        self.program = program
        self.table = table
        n = len(program.blocks)
        self.writer: list[list[Pos] | None] = [None] * n
        self.value: list[list[tuple[int, int, int]] | None] = [None] * n
        self.block = -1
        self.cur_w: list[Pos] = []
        self.cur_v: list[tuple[int, int, int]] = []
        self.lane_mask_size = 2 if program.wave_size == 64 else 1
        # `_implicit_writes` by (opcode, format)
        self._implicit: dict[tuple[str, str], tuple[tuple[int, int], ...]] = {}

    # -- block entry ---------------------------------------------------------------------

    def start_block(self, b: Block) -> None:
        self.block = b.index
        unk_v = (-1, 3, 0)
        writer, value = self.writer, self.value
        lin, log = b.linear_preds, b.logical_preds
        if not lin and not log:
            w = [NOT_WRITTEN] * NUM_REGS
            v = list(_INITIAL_VALUES)
        elif (BlockKind.LOOP_HEADER in b.kind or any(writer[p] is None for p in lin)
              or any(writer[p] is None for p in log)):
            w = [UNTRACKABLE] * NUM_REGS
            v = [unk_v] * NUM_REGS
        elif len(lin) == 1 and lin == log:
            # one predecessor in both CFGs (most blocks): its rows, the value numbers
            # above VALUE_REGS unknown
            pw, pv = writer[lin[0]], value[lin[0]]
            assert pw is not None and pv is not None
            w = list(pw)
            v = pv[:VALUE_REGS] + [unk_v] * (NUM_REGS - VALUE_REGS)
        else:
            w = [UNTRACKABLE] * NUM_REGS
            v = [unk_v] * NUM_REGS
            if lin:
                _merge(w, [writer[p] for p in lin], 0, VGPR_BASE, UNTRACKABLE)
                _merge(v, [value[p] for p in lin], 0, VALUE_REGS, unk_v)
            if log:
                _merge(w, [writer[p] for p in log], VGPR_BASE, NUM_REGS, UNTRACKABLE)
        self.cur_w = w
        self.cur_v = v
        writer[b.index] = w
        value[b.index] = v

    # -- queries -------------------------------------------------------------------------

    def last_writer(self, phys: PhysReg | None, rc: RegClass | None) -> Pos:
        """The one instruction that wrote all of the range, else a sentinel."""
        if phys is None or rc is None:
            return UNKNOWN
        rs = dword_range(phys, rc)
        first = self.cur_w[rs[0]]
        if any(self.cur_w[r] != first for r in rs):
            return UNTRACKABLE
        return first

    def overwritten_since(self, phys: PhysReg, rc: RegClass, at: Pos,
                          inclusive: bool = False) -> bool:
        """Whether any dword of the range may have been written after `at`."""
        if not found(at) or rc.subdword:
            return True
        for r in dword_range(phys, rc):
            w = self.cur_w[r]
            if w == UNTRACKABLE:
                if self.block > at[0]:
                    return True
                continue
            if w == NOT_WRITTEN:
                continue
            if not found(w):
                return True
            later = w[1] >= at[1] if inclusive else w[1] > at[1]
            if w[0] > at[0] or (w[0] == at[0] and later):
                return True
        return False

    def same_value(self, a: PhysReg, b: PhysReg, rc: RegClass) -> bool:
        """Whether the two ranges provably hold the same bits now."""
        if rc.subdword:
            return False
        ra, rb = dword_range(a, rc), dword_range(b, rc)
        for x, y in zip(ra, rb, strict=True):
            vx = self.cur_v[x]
            if (vx[0] < 0 and vx[1] != 0) or vx != self.cur_v[y]:  # (-1, 0, r): r's initial bits
                return False
        return True

    # -- updates -------------------------------------------------------------------------

    def record(self, instr: Instruction, idx: int) -> None:
        """Note the register writes of `instr` at position `idx` of the current block."""
        blk = self.block
        pos = (blk, idx)
        w, v = self.cur_w, self.cur_v
        opcode = instr.opcode
        pseudo = instr.format == "PSEUDO"
        if pseudo and opcode not in _PLAIN_PSEUDOS:
            for r in range(NUM_REGS):
                w[r] = UNKNOWN
                v[r] = (-1, 4, 0)
            return
        defs = instr.definitions
        if opcode == "p_parallelcopy":
            self._record_copy(instr, pos)
        else:
            for d in defs:
                phys, rc = d.phys, d.rc
                if phys is None or rc is None:
                    continue
                start = phys.reg_b >> 2  # dword_range's
                end = (phys.reg_b + rc.bytes + 3) >> 2
                if end <= start:
                    end = start + 1
                if end > NUM_REGS:
                    end = NUM_REGS
                wr = UNKNOWN if rc.subdword else pos
                for r in range(start, end):
                    w[r] = wr
                    v[r] = (blk, idx, r)
        if not pseudo:
            key = (opcode, instr.format)
            implicit = self._implicit.get(key)
            if implicit is None:
                implicit = self._implicit[key] = self._implicit_writes(opcode, instr.format)
            for reg, size in implicit:
                if any(d.phys is not None and d.phys.reg == reg for d in defs):
                    continue
                for r in range(reg, reg + size):
                    w[r] = UNKNOWN
                    v[r] = (-1, 4, 0)

    def _implicit_writes(self, opcode: str, fmt: str) -> tuple[tuple[int, int], ...]:
        """The (register, dwords) of the table's implicit writes of an opcode."""
        info = op_info(self.table, opcode, fmt)
        if info is None:
            return ()
        out = []
        for name in info.implicit_writes:
            reg_size = _IMPLICIT.get(name)
            if reg_size is None:
                continue
            reg, size = reg_size
            if name in ("vcc", "exec"):
                size = self.lane_mask_size
            out.append((reg, size))
        return tuple(out)

    def _record_copy(self, instr: Instruction, pos: Pos) -> None:
        """`record`'s definitions of a ``p_parallelcopy``: value numbers carried."""
        w, v = self.cur_w, self.cur_v
        blk, idx = pos
        new_vals: list[tuple[int, tuple[int, int, int]]] = []
        for k, d in enumerate(instr.definitions):
            if d.phys is None or d.rc is None:
                continue
            sub = d.rc.subdword
            rs = dword_range(d.phys, d.rc)
            src = instr.operands[k] if k < len(instr.operands) else None
            for j, r in enumerate(rs):
                if r >= NUM_REGS:
                    continue
                w[r] = UNKNOWN if sub else pos
                val = (blk, idx, r)
                if src is not None and not sub and _whole_sgpr(src.phys, src.rc) and \
                        src.const is None and d.phys.byte == 0 and r < 128:
                    sv = v[src.phys.reg + j]  # type: ignore[union-attr]
                    if sv[0] >= 0 or sv[1] == 0:  # a writer's, or the register's initial bits
                        val = sv
                new_vals.append((r, val))
        for r, val in new_vals:  # a parallel copy reads all sources first
            v[r] = val

    def clobber(self, phys: PhysReg, rc: RegClass) -> None:
        """The range was written by something the walk does not see: unknown bits."""
        for r in dword_range(phys, rc):
            if r < NUM_REGS:
                self.cur_w[r] = UNKNOWN
                self.cur_v[r] = (-1, 4, 0)

    def forget(self, instr: Instruction, pos: Pos) -> None:
        """`instr` at `pos` was removed: registers it was last to write hold unknown bits."""
        for d in instr.definitions:
            if d.phys is None or d.rc is None:
                continue
            for r in dword_range(d.phys, d.rc):
                if r < NUM_REGS and self.cur_w[r] == pos:
                    self.cur_w[r] = UNKNOWN
                    self.cur_v[r] = (-1, 4, 0)
