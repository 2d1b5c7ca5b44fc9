"""An interpreter of the machine IR before register allocation.

It is the reference the compiled code is checked against: a property test
runs a program here and, compiled, in `radcc.emu`, and compares the memory
both leave behind. Instruction semantics come from the emulator's libraries
(`radcc.emu.salu`, `radcc.emu.valu`; see `tests.support.ir_interp_ops`), so the
two can only disagree where the compiler changed the meaning of the program.

    res = interpret(program, inputs={"s[0-1]": kernarg_addr, "v[0]": ids},
                    memory=mem, wave_size=32)          # one wave
    out = run_kernel(program, {"out": np.zeros(64, np.uint32), "n": 5},
                     groups=2, block=32)               # a dispatch, like the emulator's
    out.buffers["out"]

What is interpreted: SSA temps (each temp defined once; a redefinition in
a loop overwrites it), p_phi / p_linear_phi, the pseudo instructions
p_startpgm, p_parallelcopy, p_create_vector, p_split_vector,
p_extract_vector, p_as_uniform, p_wqm, p_start/end_linear_vgpr,
p_logical_start/end, p_branch, p_cbranch_z/nz, p_barrier, p_unit_test
(recorded in `WaveResult.unit_tests`), p_discard_if / p_demote_to_helper
and p_exit_early_if(_not) (see "Discards" below); SALU (SOP1/SOP2/SOPC, s_movk,
s_cmpk, s_addk/mulk, saveexec), VALU (VOP1/2/C/3/3SD/3P through
`execute_valu`, plus readlane/readfirstlane/writelane), GLOBAL loads and
stores (b8 to b128, sign/zero-extending sub-dword loads), SMEM s_load_bN,
hardware SOPP branches and s_endpgm; waits and other SOPP hints are no-ops.

## Control flow: two readings of the same CFG (ACO's README.md "Control flow")

A wave walks the *linear* CFG, as the hardware does. Which lanes are active
(EXEC) in each block depends on the form of the program:

- **implicit exec** (instruction selection's output, before
  insert_exec_mask: nothing writes EXEC). Every lane has a position in the
  *logical* CFG: the block it waits to execute. The lanes active in block B
  are those waiting at B; after B they move to B's logical successor, chosen
  per lane by the branch condition when B has two (a lane mask: each lane its
  own bit; SCC: the same for all). ``p_cbranch_z c`` sends a lane whose
  condition is zero to the taken target (``targets[0]`` when it is a logical
  successor, else the higher-numbered logical successor) and the other lanes
  to the other one: ACO lays out the fall-through side first. The wave then
  picks its linear successor: a uniform branch (SCC) decides itself;
  otherwise, of the two linear successors X < Y, X when lanes wait at X
  (the then/else side of a divergent if, the invert block), else Y (the
  linear-only skip) -- except in blocks ending a divergent break or
  continue (block kinds break/continue/continue-or-break), whose two linear
  successors are ACO's helper blocks: Y (stay in the loop) when lanes still
  wait inside the innermost loop (for a continue: after this block; for a
  break or continue-or-break: anywhere from the header to the latch), else X
  (leave it). This is what insert_exec_mask's code does at run time, so the
  SALU code of blocks entered with no active lane runs here too.
- **explicit exec** (after insert_exec_mask: some definition is fixed to
  exec): EXEC is a register like the others, branches test their operand
  (``p_cbranch_z exec`` is taken when EXEC is zero), the walk is plain.

In both forms a lane records, at ``p_logical_end`` of each block it is
active in (at the block's end if the block has logical code but no
``p_logical_end``), that block as its last logical block -- only blocks
with logical predecessors (or the entry) count: the empty logical region
of the helper block after a divergent break or continue (ACO starts one
there) is dead code, yet after insert_exec_mask the jumping lanes may
still be in EXEC when the wave passes it. A ``p_phi`` of a
VGPR (or a lane mask) gives each lane the operand of that lane's last
logical block if it is one of the phi's logical predecessors and was
recorded since the phi was last evaluated; the other lanes keep their
value (the copies that implement the phi run at the predecessors' ends,
under their EXEC; a lane-mask operand is read as the lane left the
predecessor, since SALU code may rewrite the other lanes' bits later). A
``p_phi`` of an SGPR whose arriving lanes all come
from the linear predecessor the wave came from takes that operand whole
(uniform control flow); a ``p_linear_phi`` takes the operand of the linear
predecessor the wave came from.

## Discards (compute: docs/ir.md "Discards")

``p_discard_if %c`` (``p_demote_to_helper`` means the same: a compute
program has no whole-quad mode, so a helper lane could do nothing
observable) kills the active lanes whose bit of %c is set (every active
lane for the constant -1 or ``exec``) for the rest of the program: with
implicit exec they wait nowhere any more, so no merge or loop exit brings
them back, and the wave ends at once when no lane is left anywhere. With
explicit exec the instruction is lower_to_hw's: EXEC loses the lanes and
the wave ends if EXEC is then empty. ``p_exit_early_if`` /
``p_exit_early_if_not`` end the wave when their SCC operand is set / clear.

Uniform values are computed once per wave (SALU ignores EXEC), divergent
ones per lane under EXEC, so a program that keeps uniform values uniform
means the same here as per-lane sequential execution would.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from radcc.abi.args import ArgKind, RegFile, ShaderArgs
from radcc.abi.kernarg import KernargLayout
from radcc.ir.printer import instruction_text
from radcc.ir.program import Block, BlockKind, Definition, Instruction, Operand, Program
from radcc.ir.pseudo import PSEUDO
from radcc.ir.regclass import EXEC, EXEC_HI, SCC, VCC
from radcc.passes.kernel_abi import program_args
from tests.support.ir_interp_ops import exec_hw, read_lanes, read_scalar, write_def, write_vgpr
from tests.support.ir_interp_state import FlatMemory, InterpError, WaveState

__all__ = ["FlatMemory", "InterpError", "KernelResult", "WaveResult", "WaveState",
           "dispatch_waves", "entry_inputs", "interpret", "kernel_arg_metadata", "run_kernel", "uses_explicit_exec"]

U64 = np.uint64
_BRANCHES = frozenset({"p_branch", "p_cbranch_z", "p_cbranch_nz"})
_DISCARDS = frozenset({"p_discard_if", "p_demote_to_helper"})
_LOOP_JUMPS = BlockKind.BREAK | BlockKind.CONTINUE | BlockKind.CONTINUE_OR_BREAK
_HW_BRANCH = {"s_branch": None, "s_cbranch_scc0": ("scc", False), "s_cbranch_scc1": ("scc", True),
              "s_cbranch_vccz": ("vcc", False), "s_cbranch_vccnz": ("vcc", True),
              "s_cbranch_execz": ("exec", False), "s_cbranch_execnz": ("exec", True)}


@dataclass
class WaveResult:
    instructions: int
    blocks: list[int]  # the linear path the wave took (block indices)
    unit_tests: list[tuple[int, list[Any]]] = field(default_factory=list)
    state: WaveState | None = None


def uses_explicit_exec(program: Program) -> bool:
    """Is EXEC written by the program (the form after insert_exec_mask)?"""
    for _b, ins in program.instructions():
        for d in ins.definitions:
            if d.phys is not None and d.phys.reg in (EXEC, EXEC_HI):
                return True
    return False


# --- byte-level vector plumbing (create/split/extract vector, copies) ---------------------
def _nbytes(x: Operand | Definition) -> int:
    if isinstance(x, Operand) and x.const is not None:
        return x.const_bytes
    return x.rc.bytes if x.rc is not None else 4


def _op_bytes(st: WaveState, o: Operand, vector: bool) -> np.ndarray | int:
    """Operand bytes: an int (scalar) or a uint8 (nbytes, lanes) array."""
    n = _nbytes(o)
    if o.temp is not None and o.temp.rc.is_vgpr:
        arr = st.vget(o.temp.id)
        raw = arr.T.copy().view(np.uint8).reshape(st.wave, -1).T
        return raw[:n]
    val = read_scalar(st, o, 8 * n) if not o.is_undef else 0
    if not vector:
        return val & ((1 << (8 * n)) - 1)
    b = np.frombuffer((val & ((1 << (8 * n)) - 1)).to_bytes(n, "little"), dtype=np.uint8)
    return np.repeat(b[:, None], st.wave, axis=1)


def _write_bytes(st: WaveState, d: Definition, data: np.ndarray | int, mask: np.ndarray) -> None:
    if d.temp is None and d.phys is None:
        return
    if d.rc is not None and d.rc.is_vgpr:
        assert isinstance(data, np.ndarray)
        n = data.shape[0]
        ndw = max(1, (n + 3) // 4)
        pad = np.zeros((ndw * 4, st.wave), dtype=np.uint8)
        pad[:n] = data
        if d.temp is not None and d.rc.subdword:
            old = st.vdef(d.temp)
            oldb = old.T.copy().view(np.uint8).reshape(st.wave, -1).T
            pad[n:] = oldb[n:ndw * 4]
        dw = pad.T.copy().view(np.uint32).reshape(st.wave, ndw).T
        write_vgpr(st, d, [dw[k] for k in range(ndw)], mask)
        return
    if isinstance(data, np.ndarray):
        raise InterpError("a VGPR value written to an SGPR")
    write_def(st, d, data)


def _concat(parts: Sequence[np.ndarray | int], sizes: Sequence[int],
            vector: bool) -> np.ndarray | int:
    if vector:
        return np.concatenate([np.asarray(p) for p in parts], axis=0)
    v, sh = 0, 0
    for p, n in zip(parts, sizes, strict=True):
        v |= int(p) << sh  # type: ignore[arg-type]
        sh += 8 * n
    return v


def _slice(data: np.ndarray | int, lo: int, n: int) -> np.ndarray | int:
    if isinstance(data, np.ndarray):
        return data[lo:lo + n]
    return (data >> (8 * lo)) & ((1 << (8 * n)) - 1)


class _Walker:
    def __init__(self, program: Program, st: WaveState, max_steps: int) -> None:
        self.p = program
        self.st = st
        self.max_steps = max_steps
        self.count = 0
        self.unit_tests: list[tuple[int, list[Any]]] = []
        w = st.wave
        self.pending = np.full(w, -1, dtype=np.int64)
        self.last_log = np.full(w, -1, dtype=np.int64)
        self.last_time = np.zeros(w, dtype=np.int64)
        self.clock = 1
        self.phi_time: dict[int, int] = {}
        # lane-mask operands of logical phis as each lane left the predecessor
        # (SALU ignores EXEC: the mask may be rewritten after the lane left)
        self.bool_snap: dict[tuple[int, int], int] = {}
        self.loops = self._loops()

    def _loops(self) -> list[tuple[int, int]]:
        out = []
        for b in self.p.blocks:
            if BlockKind.LOOP_HEADER in b.kind:
                back = [p for p in b.linear_preds if p >= b.index]
                out.append((b.index, max(back) if back else b.index))
        return out

    # --- the walk ---------------------------------------------------------------------------
    def run(self, inputs: Mapping[str, Any], exec_mask: int) -> list[int]:
        st = self.st
        if st.explicit_exec:
            st.set_exec(exec_mask)
        else:
            self.pending[st.bools(exec_mask)] = 0
        b, prev = 0, -1
        path: list[int] = []
        self.inputs = inputs
        while True:
            path.append(b)
            if len(path) > self.max_steps:
                raise InterpError(f"more than {self.max_steps} blocks executed (endless loop?)")
            blk = self.p.blocks[b]
            if not st.explicit_exec:
                st.set_active(self.pending == b)
            ended, branch = self._block(blk, prev)
            if ended:
                if not st.explicit_exec:
                    left = np.flatnonzero((self.pending >= 0) & (self.pending != b))
                    if left.size:
                        raise InterpError(f"s_endpgm in BB{b} while lane {int(left[0])} waits "
                                          f"at BB{int(self.pending[left[0]])}")
                return path
            if not st.explicit_exec:
                self._move_lanes(blk, branch)
            nb = self._linear_next(blk, branch)
            if nb is None:
                if not st.explicit_exec and (self.pending >= 0).any():
                    lane = int(np.flatnonzero(self.pending >= 0)[0])
                    raise InterpError(f"the program ends in BB{b} while lane {lane} waits at "
                                      f"BB{int(self.pending[lane])}")
                return path
            prev, b = b, nb

    def _record_logical(self, b: int) -> None:
        act = self.st.active
        self.last_log[act] = b
        self.last_time[act] = self.clock
        self.clock += 1
        if not self.st.explicit_exec:
            self._snap_bool_operands(b)

    def _snap_bool_operands(self, b: int) -> None:
        """The bits of the active lanes of every SGPR operand that the p_phis
        of b's logical successors take from b, as they are now (the merge
        code that lower_phis puts at b's end, under its EXEC)."""
        st = self.st
        m = st.mask_of(st.active)
        for s in self.p.blocks[b].logical_succs:
            succ = self.p.blocks[s]
            k = succ.logical_preds.index(b)
            for ins in succ.instructions:
                if not ins.is_phi:
                    break
                d = ins.definitions[0]
                if ins.opcode != "p_phi" or d.rc is None or not d.rc.is_sgpr:
                    continue
                key = (id(ins), k)
                try:
                    v = self._phi_value(ins.operands[k], d)
                except InterpError:  # defined after p_logical_end: read at the phi
                    self.bool_snap.pop(key, None)
                    continue
                self.bool_snap[key] = (self.bool_snap.get(key, 0) & ~m) | (v & m)

    def _block(self, blk: Block, prev: int) -> tuple[bool, tuple[Instruction, int] | None]:
        st = self.st
        instrs = blk.instructions
        k = 0
        while k < len(instrs) and instrs[k].is_phi:
            k += 1
        self._phis(blk, instrs[:k], prev)
        self.count += k
        branch: tuple[Instruction, int] | None = None
        logical_end = False
        for ins in instrs[k:]:
            self.count += 1
            if self.count > self.max_steps * 64:
                raise InterpError("instruction limit reached (endless loop?)")
            op = ins.opcode
            try:
                if op == "p_logical_end":
                    if self._has_logical_code(blk):
                        self._record_logical(blk.index)
                    logical_end = True
                elif op in _BRANCHES or op in _HW_BRANCH:
                    branch = (ins, self._branch_value(ins))
                elif op in ("s_endpgm", "s_endpgm_saved"):
                    if not logical_end and self._has_logical_code(blk):
                        self._record_logical(blk.index)
                    return True, None
                elif op in _DISCARDS:
                    if self._discard(ins):
                        return True, None
                elif op in ("p_exit_early_if", "p_exit_early_if_not"):
                    if bool(read_scalar(st, ins.operands[0]) & 1) == (op == "p_exit_early_if"):
                        return True, None
                elif ins.is_pseudo:
                    self._pseudo(ins)
                else:
                    exec_hw(st, ins)
            except InterpError as e:
                raise InterpError(f"BB{blk.index}: {instruction_text(self.p, ins)}: {e}") from None
        if not logical_end and self._has_logical_code(blk):
            self._record_logical(blk.index)
        return False, branch

    def _discard(self, ins: Instruction) -> bool:
        """p_discard_if / p_demote_to_helper: the active lanes whose bit of
        the condition is set (all for -1 or exec) are gone for the rest of
        the program. Returns whether the wave ends (implicit exec: no lane
        is left anywhere; explicit exec: as lower_to_hw lowers it, EXEC is
        empty afterwards)."""
        st = self.st
        if len(ins.operands) != 1:
            raise InterpError("a discard takes one operand")
        o = ins.operands[0]
        if o.const is not None:
            full = (1 << st.wave) - 1
            if o.const == 0:
                bits = 0
            elif o.const == full or o.const == 0xFFFFFFFF and o.const_bytes == 4:
                bits = full
            else:
                raise InterpError("a constant discard condition must be 0 or -1")
        elif o.temp is None and o.phys is not None and o.phys.reg == EXEC:
            bits = st.exec
        else:
            bits = read_scalar(st, o, st.wave)
        kill = st.active & st.bools(bits)
        if st.explicit_exec:
            st.set_exec(st.exec & ~st.mask_of(kill))
            return st.exec == 0
        self.pending[kill] = -1
        st.set_active(st.active & ~kill)
        return not bool((self.pending >= 0).any())

    def _has_logical_code(self, blk: Block) -> bool:
        return bool(blk.logical_preds) or blk.index == 0

    # --- branches -------------------------------------------------------------------------
    def _branch_value(self, ins: Instruction) -> int:
        st = self.st
        op = ins.opcode
        if op in _HW_BRANCH:
            cond = _HW_BRANCH[op]
            if cond is None:
                return 0
            reg, _ = cond
            return {"scc": st.scc, "vcc": st.phys_value(VCC), "exec": st.exec}[reg]
        if op == "p_branch" or not ins.operands:
            return 0
        o = ins.operands[0]
        return read_scalar(st, o, st.wave)

    def _is_divergent(self, ins: Instruction) -> bool:
        """A pseudo conditional branch on a lane mask (not SCC, not EXEC, not constant)."""
        if self.st.explicit_exec or ins.opcode not in ("p_cbranch_z", "p_cbranch_nz"):
            return False
        o = ins.operands[0] if ins.operands else None
        if o is None or o.const is not None:
            return False
        return not (o.phys is not None and o.phys.reg in (SCC, EXEC))

    def _taken(self, ins: Instruction, value: int) -> bool:
        op = ins.opcode
        if op in ("p_branch", "s_branch"):
            return True
        if op == "p_cbranch_z":
            return value == 0
        if op == "p_cbranch_nz":
            return value != 0
        want = _HW_BRANCH[op]
        assert want is not None
        return (value != 0 if want[0] != "scc" else bool(value)) == want[1]

    def _targets(self, ins: Instruction) -> list[int]:
        t = ins.fields.get("targets") or []
        return [int(x) for x in t]  # type: ignore[union-attr]

    def _move_lanes(self, blk: Block, branch: tuple[Instruction, int] | None) -> None:
        act = self.st.active
        if not act.any():
            return
        succs = blk.logical_succs
        if not succs:
            self.pending[act] = -1
            return
        if len(succs) == 1:
            self.pending[act] = succs[0]
            return
        if branch is None or branch[0].opcode in ("p_branch", "s_branch"):
            raise InterpError(f"BB{blk.index} has two logical successors but no "
                              f"conditional branch")
        ins, value = branch
        t = self._targets(ins)
        taken_blk = t[0] if t and t[0] in succs else max(succs)
        other = next(s for s in succs if s != taken_blk)
        if self._is_divergent(ins):
            bits = self.st.bools(value)
            taken = ~bits if ins.opcode == "p_cbranch_z" else bits
            self.pending[act & taken] = taken_blk
            self.pending[act & ~taken] = other
        else:
            self.pending[act] = taken_blk if self._taken(ins, value) else other

    def _linear_next(self, blk: Block, branch: tuple[Instruction, int] | None) -> int | None:
        succs = blk.linear_succs
        if not succs:
            return None
        if len(succs) == 1:
            return succs[0]
        if branch is None:
            raise InterpError(f"BB{blk.index} has two linear successors but no branch")
        ins, value = branch
        if not self._is_divergent(ins) and (self.st.explicit_exec or ins.opcode not in
                                            ("p_branch", "s_branch")):
            t = self._targets(ins)
            if self._taken(ins, value):
                return t[0] if t else succs[-1]
            if len(t) > 1:
                return t[1]
            return next(s for s in succs if s != (t[0] if t else succs[-1]))
        x, y = succs[0], succs[1]
        if (self.pending == x).any():
            return x
        if blk.kind & _LOOP_JUMPS:
            return y if self._lanes_left_in_loop(blk) else x
        return y

    def _lanes_left_in_loop(self, blk: Block) -> bool:
        b = blk.index
        loops = [(h, latch) for h, latch in self.loops if h <= b <= latch]
        if not loops:
            raise InterpError(f"BB{b} is a break/continue block outside any loop")
        h, latch = max(loops)
        pend = self.pending
        if BlockKind.CONTINUE in blk.kind and BlockKind.BREAK not in blk.kind:
            return bool(((pend > b) & (pend <= latch)).any())
        return bool(((pend >= h) & (pend <= latch)).any())

    # --- phis ----------------------------------------------------------------------------------
    def _phis(self, blk: Block, phis: list[Instruction], prev: int) -> None:
        if not phis:
            return
        st = self.st
        b = blk.index
        since = self.phi_time.get(b, 0)
        fresh = self.last_time > since
        writes: list[tuple[Instruction, Any]] = []
        for ins in phis:
            d = ins.definitions[0]
            if ins.opcode == "p_linear_phi":
                if prev not in blk.linear_preds:
                    raise InterpError(f"BB{b}: entered from BB{prev}, not a linear predecessor")
                o = ins.operands[blk.linear_preds.index(prev)]
                writes.append((ins, ("whole", self._phi_value(o, d))))
                continue
            preds = blk.logical_preds
            if len(ins.operands) != len(preds):
                raise InterpError(f"BB{b}: phi with {len(ins.operands)} operands for "
                                  f"{len(preds)} logical predecessors")
            sel = [(fresh & (self.last_log == p)) for p in preds]
            if d.rc is not None and d.rc.is_sgpr:
                arriving = [i for i, s in enumerate(sel) if s.any()]
                if prev in preds and arriving in ([], [preds.index(prev)]):
                    o = ins.operands[preds.index(prev)]
                    writes.append((ins, ("whole", self._phi_value(o, d))))
                    continue
                vals = [(self.bool_snap[(id(ins), k)] if (id(ins), k) in self.bool_snap
                         else self._phi_value(o, d)) if s.any() else 0
                        for k, (o, s) in enumerate(zip(ins.operands, sel, strict=True))]
                writes.append((ins, ("bits", sel, vals)))
                continue
            vals = [None if o.is_undef or not s.any() else read_lanes(st, o, 32 * d.size)
                    for o, s in zip(ins.operands, sel, strict=True)]
            full = [None if v is None or o.temp is None or not o.temp.rc.is_vgpr
                    else st.vget(o.temp.id) for o, v in zip(ins.operands, vals, strict=True)]
            writes.append((ins, ("lanes", sel, vals, full)))
        for ins, w in writes:
            self._write_phi(ins.definitions[0], w)
        self.phi_time[b] = self.clock
        self.clock += 1

    def _phi_value(self, o: Operand, d: Definition) -> Any:
        if o.is_undef:
            return 0
        return read_scalar(self.st, o, 32 * d.size)

    def _write_phi(self, d: Definition, w: tuple) -> None:
        st = self.st
        kind = w[0]
        if kind == "whole":
            write_def(st, d, w[1])
            return
        if kind == "bits":
            _, sel, vals = w
            old = st.s.get(d.temp.id, 0) if d.temp is not None else 0
            new = old
            for s, v in zip(sel, vals, strict=True):
                m = st.mask_of(s)
                new = (new & ~m) | (v & m)
            write_def(st, d, new)
            return
        _, sel, vals, full = w
        assert d.temp is not None
        arr = st.vdef(d.temp)
        for s, v, f in zip(sel, vals, full, strict=True):
            if v is None or not s.any():
                continue
            if f is not None and f.shape[0] >= arr.shape[0]:
                arr[:, s] = f[:arr.shape[0], s]
            else:
                for k in range(arr.shape[0]):
                    arr[k][s] = ((v[s] >> U64(32 * k)) & U64(0xFFFFFFFF)).astype(np.uint32)

    # --- pseudo instructions -------------------------------------------------------------------
    def _pseudo(self, ins: Instruction) -> None:
        st = self.st
        op = ins.opcode
        if op == "p_startpgm":
            self._startpgm(ins)
        elif op in ("p_parallelcopy", "p_wqm", "p_start_linear_vgpr", "p_as_uniform"):
            self._copies(ins)
        elif op == "p_create_vector":
            vec = any(self._is_vgpr(x) for x in (*ins.operands, ins.definitions[0]))
            parts = [_op_bytes(st, o, vec) for o in ins.operands]
            self._write(ins.definitions[0],
                        _concat(parts, [_nbytes(o) for o in ins.operands], vec))
        elif op == "p_split_vector":
            vec = self._is_vgpr(ins.operands[0])
            data = _op_bytes(st, ins.operands[0], vec)
            lo = 0
            for d in ins.definitions:
                n = _nbytes(d)
                self._write(d, _slice(data, lo, n))
                lo += n
        elif op == "p_extract_vector":
            vec = self._is_vgpr(ins.operands[0])
            data = _op_bytes(st, ins.operands[0], vec)
            n = _nbytes(ins.definitions[0])
            idx = read_scalar(st, ins.operands[1])
            self._write(ins.definitions[0], _slice(data, idx * n, n))
        elif op == "p_unit_test":
            vals: list[Any] = []
            for o in ins.operands:
                if o.temp is not None and o.temp.rc.is_vgpr:
                    vals.append(st.vget(o.temp.id).copy())
                else:
                    vals.append(read_scalar(st, o, 32 * o.size))
            self.unit_tests.append((int(ins.fields.get("id", 0)), vals))  # type: ignore[call-overload]
        elif op in ("p_logical_start", "p_barrier", "p_end_linear_vgpr"):
            return
        elif op in PSEUDO:
            raise InterpError(f"{op} is not supported by the interpreter")
        else:
            raise InterpError(f"unknown pseudo instruction {op}")

    def _is_vgpr(self, x: Operand | Definition) -> bool:
        return x.rc is not None and x.rc.is_vgpr

    def _write(self, d: Definition, data: np.ndarray | int) -> None:
        if isinstance(data, np.ndarray) and d.rc is not None and d.rc.is_sgpr:
            idx = np.flatnonzero(self.st.active)
            lane = int(idx[0]) if idx.size else 0
            data = int.from_bytes(bytes(data[:, lane]), "little")
        mask = self.st.active if not (d.rc is not None and d.rc.linear) \
            else np.ones(self.st.wave, dtype=bool)
        _write_bytes(self.st, d, data, mask)

    def _copies(self, ins: Instruction) -> None:
        st = self.st
        vals = []
        for d, o in zip(ins.definitions, ins.operands, strict=True):
            vec = self._is_vgpr(o) or self._is_vgpr(d)
            vals.append(_op_bytes(st, o, vec))
        for d, v in zip(ins.definitions, vals, strict=True):
            self._write(d, v)

    def _startpgm(self, ins: Instruction) -> None:
        st = self.st
        for d in ins.definitions:
            keys = [d.phys.text(d.rc)] if d.phys is not None else []
            if d.temp is not None:
                keys.append(f"%{d.temp.id}")
            key = next((k for k in keys if k in self.inputs), None)
            if key is None:
                raise InterpError(f"no input for p_startpgm definition {' / '.join(keys)}")
            val = self.inputs[key]
            if d.rc is not None and d.rc.is_vgpr:
                arr = np.broadcast_to(np.asarray(val, dtype=np.uint64), (st.wave,))
                write_vgpr(st, d, [arr >> U64(32 * k) for k in range(d.rc.size)],
                           np.ones(st.wave, dtype=bool))
            else:
                write_def(st, d, int(val))


def interpret(program: Program, *, inputs: Mapping[str, Any], memory: FlatMemory | None = None,
              wave_size: int | None = None, exec_mask: int | None = None,
              explicit_exec: bool | None = None, max_steps: int = 100_000) -> WaveResult:
    """Run one wave of `program` (see the module docstring).

    `inputs` gives the values of p_startpgm's definitions, keyed by their
    register text (``"s[0-1]"``, ``"s[2]"``, ``"v[0]"``) or temp (``"%3"``):
    ints for SGPRs, an int or a per-lane sequence for VGPRs. `exec_mask`:
    the lanes that run (default all). `explicit_exec`: the form of the
    program (default: explicit iff some definition writes EXEC).
    """
    wave = wave_size or program.wave_size
    mem = memory if memory is not None else FlatMemory()
    explicit = uses_explicit_exec(program) if explicit_exec is None else explicit_exec
    st = WaveState(program, wave, mem, explicit)
    w = _Walker(program, st, max_steps)
    mask = (1 << wave) - 1 if exec_mask is None else exec_mask
    path = w.run(inputs, mask)
    return WaveResult(w.count, path, w.unit_tests, st)


# --- kernels: arguments and dispatch, as the emulator runs them -----------------------------
@dataclass(frozen=True)
class Zeros:
    """A zero-filled buffer argument of `nbytes` bytes."""

    nbytes: int


def kernel_arg_metadata(args: Mapping[str, Any]) -> KernargLayout:
    """The kernarg layout of `args` in order: buffers (NumPy arrays, bytes, `Zeros`) are
    8-byte global pointers, numbers 4-byte by-value arguments (``float`` for Python
    floats/float32, else ``uint``), each aligned to its size. The IR reads them from the
    kernarg segment (``s_load_b64 %ptr, %kernarg, OFFSET``); `emit_code_object(...,
    args=)` records them so that `radcc.emu` fills the same layout."""
    lay = KernargLayout()
    for name, val in args.items():
        if isinstance(val, np.ndarray | bytes | bytearray | Zeros) or _is_emu_zeros(val):
            lay.add_buffer(name)
        else:
            lay.add_value(name, 4, "float" if isinstance(val, float | np.floating) else "uint")
    return lay


def _is_emu_zeros(val: Any) -> bool:
    return type(val).__name__ == "Zeros" and hasattr(val, "nbytes")


@dataclass
class KernelResult:
    buffers: dict[str, np.ndarray]
    raw: dict[str, bytes]
    waves: int
    instructions: int
    unit_tests: list[tuple[int, list[Any]]] = field(default_factory=list)


def _dim3(d: int | Sequence[int]) -> tuple[int, int, int]:
    t = (d,) if isinstance(d, int) else tuple(d)
    return tuple(int(x) for x in t) + (1,) * (3 - len(t))  # type: ignore[return-value]


def dispatch_waves(groups: int | Sequence[int], block: int | Sequence[int], wave: int):
    """Yield (group id (x, y, z), v[0] packed work-item ids, exec mask) per wave."""
    g, b = _dim3(groups), _dim3(block)
    n = b[0] * b[1] * b[2]
    for gz in range(g[2]):
        for gy in range(g[1]):
            for gx in range(g[0]):
                for w0 in range(0, n, wave):
                    flat = np.arange(w0, w0 + wave)
                    valid = flat < n
                    x = flat % b[0]
                    y = (flat // b[0]) % b[1]
                    z = flat // (b[0] * b[1])
                    ids = np.where(valid, x | (y << 10) | (z << 20), 0).astype(np.uint64)
                    mask = sum(1 << i for i in range(wave) if valid[i])
                    yield (gx, gy, gz), ids, mask


def entry_inputs(args: ShaderArgs, kernarg: int, group: tuple[int, int, int],
                 ids: np.ndarray) -> dict[str, Any]:
    """`interpret`'s inputs (register text -> value) for one wave of a kernel with shader
    arguments `args`: the kernarg segment at `kernarg`, workgroup `group`, the lanes'
    work-item ids `ids` packed as x | y << 10 | z << 20 (`dispatch_waves`); other
    SGPR arguments 0, as the emulator's dispatch sets them."""
    sgpr = {ArgKind.KERNARG_SEGMENT_PTR: kernarg, ArgKind.WORKGROUP_ID_X: group[0],
            ArgKind.WORKGROUP_ID_Y: group[1], ArgKind.WORKGROUP_ID_Z: group[2]}
    vgpr = {ArgKind.LOCAL_INVOCATION_IDS: ids, ArgKind.LOCAL_INVOCATION_ID_X: ids & 0x3FF,
            ArgKind.LOCAL_INVOCATION_ID_Y: (ids >> 10) & 0x3FF,
            ArgKind.LOCAL_INVOCATION_ID_Z: (ids >> 20) & 0x3FF}
    out: dict[str, Any] = {}
    for a in args.args:
        f = a.file.value
        key = f"{f}[{a.reg}]" if a.size == 1 else f"{f}[{a.reg}-{a.end - 1}]"
        out[key] = (vgpr if a.file is RegFile.VGPR else sgpr).get(a.kind, 0)
    return out


def run_kernel(program: Program, args: Mapping[str, Any], groups: int | Sequence[int],
               block: int | Sequence[int], *, wave_size: int | None = None,
               max_steps: int = 100_000) -> KernelResult:
    """Run `program` as a compute kernel over a grid, wave after wave.

    Arguments are laid out by `kernel_arg_metadata`; the registers at entry (kernarg
    pointer, workgroup ids, work-item ids packed or one VGPR each) are where the
    program's shader arguments put them (`radcc.passes.kernel_abi.program_args`, the
    instance of `radcc.abi` its ``p_startpgm`` implies; docs/abi.md). Buffers come back like `radcc.emu`'s
    `RunResult.buffers` (same dtype/shape as passed; uint8 for bytes/Zeros).
    Waves run one after the other, so programs whose lanes write distinct
    addresses give the results any wave order would."""
    wave = wave_size or program.wave_size
    mem = FlatMemory()
    meta = kernel_arg_metadata(args).metadata()
    kernarg = bytearray(max(256, max((m[".offset"] + m[".size"] for m in meta), default=0)))
    bufs: dict[str, tuple[int, np.ndarray | None, int]] = {}
    for m in meta:
        name = m[".name"]
        val = args[name]
        if m[".value_kind"] == "global_buffer":
            if isinstance(val, np.ndarray):
                raw, arr = np.ascontiguousarray(val).tobytes(), val
            elif isinstance(val, bytes | bytearray):
                raw, arr = bytes(val), None
            else:
                raw, arr = bytes(int(val.nbytes)), None
            reg = mem.map(f"buffer {name}", raw)
            bufs[name] = (reg.base, arr, len(raw))
            kernarg[m[".offset"]:m[".offset"] + 8] = reg.base.to_bytes(8, "little")
        else:
            if m[".type_name"] == "float":
                data = np.float32(val).tobytes()
            else:
                data = (int(val) & 0xFFFFFFFF).to_bytes(4, "little")
            kernarg[m[".offset"]:m[".offset"] + 4] = data
    ka = mem.map("kernarg segment", bytes(kernarg), writable=False)
    waves = 0
    count = 0
    tests: list[tuple[int, list[Any]]] = []
    explicit = uses_explicit_exec(program)
    shader_args = program_args(program)
    for group, ids, mask in dispatch_waves(groups, block, wave):
        inputs = entry_inputs(shader_args, ka.base, group, ids)
        r = interpret(program, inputs=inputs, memory=mem, wave_size=wave, exec_mask=mask,
                      explicit_exec=explicit, max_steps=max_steps)
        waves += 1
        count += r.instructions
        tests += r.unit_tests
    out: dict[str, np.ndarray] = {}
    raws: dict[str, bytes] = {}
    for name, (base, arr, n) in bufs.items():
        data = mem.read(base, n) if n else b""
        raws[name] = data
        out[name] = (np.frombuffer(data, dtype=arr.dtype).reshape(arr.shape).copy()
                     if arr is not None else np.frombuffer(data, dtype=np.uint8).copy())
    return KernelResult(out, raws, waves, count, tests)
