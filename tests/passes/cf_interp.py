"""Lane-level interpreters of the machine IR, for the control-flow passes' tests.

Two readings of one program, written independently of the passes:

- `run_logical(program, inputs, exec_mask)`: the meaning of the structured
  source program. Every lane in `exec_mask` runs on its own along the
  *logical* CFG: a divergent branch (``p_cbranch_z %c`` in a block of kind
  branch) sends the lane to the then side (logical_succs[0]) when its bit of
  %c is set, else to the else side; a uniform branch follows its condition;
  a ``p_phi`` (``boolean`` or not) picks the operand of the logical
  predecessor the lane came from, a ``p_linear_phi`` (a uniform SGPR) that
  of the linear predecessor it passed (that block, or the linear-only
  helper after it: a divergent continue's way to the loop header). A lane's view of a lane mask is its own
  bit (`v_cmp` gives ``bit << lane``), so SALU bitwise ops on lane masks
  mean per-lane boolean ops. EXEC is never read (the source has none).
  ``p_discard_if c`` / ``p_demote_to_helper c`` (docs/ir.md "Discards")
  end the lane when its bit of c is set (-1 or exec: always).
- `run_linear(program, inputs, exec_mask)`: what the wave executes after
  lower_phis + insert_exec_mask: the *linear* CFG, one block at a time, with
  an EXEC register. VALU instructions write only the lanes in EXEC (the
  others of a new temp hold random garbage), `v_cmp` clears inactive lanes'
  bits, SALU instructions ignore EXEC, branches test EXEC/SCC/SGPRs,
  ``p_linear_phi`` picks by linear predecessor. ``p_phi`` is what SSA
  elimination makes of it: each lane gets the operand of the logical block
  it was last active in: the copies SSA elimination puts before the
  ``p_logical_end`` of each logical predecessor, under that EXEC.
  Undef operands read random bits. ``p_exit_early_if(_not) scc`` ends the
  wave when SCC is set (clear).

Both return the observations: for each lane, the list of operand tuples of
every ``p_unit_test`` the lane executed (VGPR operands: the lane's value;
SGPR operands: the scalar), in order. Inputs are the definitions of
``p_startpgm`` in order: a list of per-lane ints for a VGPR, an int for an
SGPR.
"""

from __future__ import annotations

import random

from radcc.ir.program import Block, BlockKind, Instruction, Operand, Program
from radcc.ir.regclass import EXEC, SCC

M32 = 0xFFFFFFFF
_DISCARDS = frozenset({"p_discard_if", "p_demote_to_helper"})


class InterpError(Exception):
    pass


def _s32(x: int) -> int:
    x &= M32
    return x - (1 << 32) if x >> 31 else x


_VALU: dict[str, object] = {
    "v_mov_b32": lambda a: a,
    "v_add_nc_u32": lambda a, b: (a + b) & M32,
    "v_sub_nc_u32": lambda a, b: (a - b) & M32,
    "v_mul_lo_u32": lambda a, b: (a * b) & M32,
    "v_and_b32": lambda a, b: a & b,
    "v_or_b32": lambda a, b: a | b,
    "v_xor_b32": lambda a, b: a ^ b,
    "v_lshlrev_b32": lambda a, b: (b << (a & 31)) & M32,
    "v_lshrrev_b32": lambda a, b: b >> (a & 31),
    "v_max_u32": max,
    "v_min_u32": min,
}
_CMP = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lg": lambda a, b: a != b,
    "lt": lambda a, b: a < b, "le": lambda a, b: a <= b, "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
}


def _cmp(opcode: str, a: int, b: int) -> bool:
    # v_cmp_lt_u32 / s_cmp_lg_u32 / v_cmp_gt_i32 ...
    parts = opcode.split("_")
    rel, typ = parts[2], parts[3]
    if typ.startswith("i"):
        a, b = _s32(a), _s32(b)
    return _CMP[rel](a & M32 if typ.startswith("u") else a, b & M32 if typ.startswith("u") else b)


def _salu(opcode: str, x: list[int], exec_: int) -> tuple[int | None, int | None, int | None]:
    """(result, scc, new exec or None) of a SALU opcode."""
    w = 64 if opcode.endswith("b64") else 32
    m = (1 << w) - 1
    x = [v & m for v in x]
    base = opcode.rsplit("_", 1)[0]
    if base == "s_mov":
        return x[0], None, None
    if base in ("s_and", "s_or", "s_xor", "s_and_not1", "s_andn2", "s_or_not1", "s_orn2",
                "s_not"):
        r = {"s_and": lambda: x[0] & x[1], "s_or": lambda: x[0] | x[1],
             "s_xor": lambda: x[0] ^ x[1], "s_and_not1": lambda: x[0] & ~x[1] & m,
             "s_andn2": lambda: x[0] & ~x[1] & m, "s_or_not1": lambda: (x[0] | ~x[1]) & m,
             "s_orn2": lambda: (x[0] | ~x[1]) & m, "s_not": lambda: ~x[0] & m}[base]()
        return r, int(r != 0), None
    if base == "s_and_saveexec":
        new = x[0] & exec_
        return exec_, int(new != 0), new
    if opcode == "s_add_u32":
        s = x[0] + x[1]
        return s & M32, s >> 32, None
    if opcode == "s_sub_u32":
        return (x[0] - x[1]) & M32, int(x[1] > x[0]), None
    if opcode.startswith("s_cmp_"):
        return None, int(_cmp(opcode, x[0], x[1])), None
    raise InterpError(f"no semantics for {opcode}")


def _is_exec(o) -> bool:
    return o.temp is None and o.phys is not None and o.phys.reg == EXEC


def _is_scc(d) -> bool:
    return d.phys is not None and d.phys.reg == SCC


class _Base:
    def __init__(self, program: Program, inputs: list, exec_mask: int, seed: int) -> None:
        self.p = program
        self.w = program.wave_size
        self.inputs = inputs
        self.exec0 = exec_mask
        self.rng = random.Random(seed)
        self.obs: dict[int, list[tuple]] = {}

    def garbage(self) -> int:
        return self.rng.getrandbits(self.w)


# ---------------------------------------------------------------------------
# the structured source program, one lane at a time
# ---------------------------------------------------------------------------
class _Logical(_Base):
    def run_lane(self, lane: int, max_steps: int) -> None:
        vals: dict[int, int] = {}
        obs = self.obs.setdefault(lane, [])
        blk = self.p.blocks[0]
        prev: int | None = None
        steps = 0
        while True:
            steps += 1
            if steps > max_steps:
                raise InterpError(f"lane {lane}: step limit")
            for instr in blk.instructions:
                if instr.opcode in _DISCARDS:
                    if self.discarded(lane, instr.operands[0], vals):
                        return
                    continue
                self.exec_instr(lane, blk, prev, instr, vals, obs)
            succs = blk.logical_succs
            if not succs:
                return
            prev = blk.index
            if len(succs) == 1:
                blk = self.p.blocks[succs[0]]
                continue
            br = blk.instructions[-1]
            cond = self.read(lane, br.operands[0], vals)
            if blk.kind & BlockKind.BRANCH:
                taken = (cond >> lane) & 1
                blk = self.p.blocks[succs[0] if taken else succs[1]]
            else:
                zero = cond == 0
                go = zero if br.opcode == "p_cbranch_z" else not zero
                t = br.fields["targets"]
                other = t[1] if len(t) > 1 else next(s for s in succs if s != t[0])
                blk = self.p.blocks[t[0] if go else other]

    def linear_pred_of(self, blk: Block, prev: int | None) -> int | None:
        """The index of the linear predecessor of `blk` a lane coming from
        logical predecessor `prev` passes: prev itself, or the linear-only
        helper block after prev (a divergent continue's way to the header)."""
        if prev in blk.linear_preds:
            return blk.linear_preds.index(prev)
        for k, q in enumerate(blk.linear_preds):
            qb = self.p.blocks[q]
            if not qb.logical_preds and qb.linear_preds == [prev]:
                return k
        return None

    def discarded(self, lane: int, o: Operand, vals: dict[int, int]) -> bool:
        """Is the lane discarded (its bit of the condition; -1: every lane)?"""
        if o.const is not None:
            if o.const not in (0, 0xFFFFFFFF, (1 << self.w) - 1):
                raise InterpError("a constant discard condition must be 0 or -1")
            return o.const != 0
        if _is_exec(o):
            return True
        return bool((self.read(lane, o, vals) >> lane) & 1)

    def read(self, lane: int, o: Operand, vals: dict[int, int]) -> int:
        if o.const is not None:
            return o.const
        if o.is_undef:
            return self.garbage()
        if o.temp is None:
            raise InterpError("the source program reads a fixed register")
        return vals[o.temp.id]

    def exec_instr(self, lane: int, blk: Block, prev: int | None, instr: Instruction,
                   vals: dict[int, int], obs: list) -> None:
        op = instr.opcode
        if op in ("p_logical_start", "p_logical_end", "p_branch", "p_cbranch_z",
                  "p_cbranch_nz", "s_endpgm"):
            return
        if op == "p_startpgm":
            for d, v in zip(instr.definitions, self.inputs, strict=True):
                vals[d.temp.id] = v[lane] if isinstance(v, list) else v
            return
        if op in ("p_phi", "p_linear_phi"):
            preds = blk.logical_preds if op == "p_phi" else blk.linear_preds
            k = self.linear_pred_of(blk, prev) if op == "p_linear_phi" else \
                preds.index(prev) if prev in preds else None
            if k is None:
                raise InterpError(f"lane {lane} enters BB{blk.index} from BB{prev}")
            vals[instr.definitions[0].temp.id] = self.read(lane, instr.operands[k], vals)
            return
        x = [self.read(lane, o, vals) for o in instr.operands]
        if op == "p_parallelcopy":
            for d, v in zip(instr.definitions, x, strict=True):
                vals[d.temp.id] = v
            return
        if op == "p_unit_test":
            obs.append(tuple(x))
            return
        if op.startswith("v_cmp_"):
            vals[instr.definitions[0].temp.id] = int(_cmp(op, x[0], x[1])) << lane
            return
        if op == "v_cndmask_b32":
            vals[instr.definitions[0].temp.id] = x[1] if (x[2] >> lane) & 1 else x[0]
            return
        if op in _VALU:
            vals[instr.definitions[0].temp.id] = _VALU[op](*x)  # type: ignore[operator]
            return
        if op.startswith("s_"):
            r, scc, _ = _salu(op, x, 0)
            self.write_salu(instr, r, scc, vals)
            return
        raise InterpError(f"no semantics for {op}")

    @staticmethod
    def write_salu(instr: Instruction, r, scc, vals) -> None:
        for d in instr.definitions:
            if _is_scc(d):
                if d.temp is not None:
                    vals[d.temp.id] = scc
            elif d.temp is not None:
                vals[d.temp.id] = r


def run_logical(program: Program, inputs: list, exec_mask: int, seed: int = 0,
                max_steps: int = 10_000) -> dict[int, list[tuple]]:
    it = _Logical(program, inputs, exec_mask, seed)
    for lane in range(program.wave_size):
        if (exec_mask >> lane) & 1:
            it.run_lane(lane, max_steps)
    return {lane: obs for lane, obs in it.obs.items() if obs}  # as run_linear: none, no entry


# ---------------------------------------------------------------------------
# the wave with its EXEC register, along the linear CFG
# ---------------------------------------------------------------------------
class _Linear(_Base):
    def run(self, max_steps: int) -> None:
        self.vals: dict[int, object] = {}
        self.exec = self.exec0
        blk = self.p.blocks[0]
        prev: int | None = None
        steps = 0
        while True:
            steps += 1
            if steps > max_steps:
                raise InterpError("step limit")
            nxt = self.run_block(blk, prev)
            if nxt is None:
                return
            prev, blk = blk.index, self.p.blocks[nxt]

    def lanes(self) -> list[int]:
        return [i for i in range(self.w) if (self.exec >> i) & 1]

    def read(self, o: Operand):
        if o.const is not None:
            return o.const
        if o.is_undef:
            return self.garbage()
        if _is_exec(o):
            return self.exec
        if o.temp is None:
            raise InterpError(f"read of fixed register {o.phys}")
        if o.temp.id not in self.vals:
            # defined in a block the wave skipped (EXEC was empty there):
            # whatever is in the register (dominance is validate_ir's job)
            return [self.garbage() & M32 for _ in range(self.w)] if o.rc.is_vgpr else \
                self.garbage()
        return self.vals[o.temp.id]

    def lane_val(self, o: Operand, v, lane: int) -> int:
        return v[lane] if isinstance(v, list) else v

    def run_block(self, blk: Block, prev: int | None) -> int | None:
        results = []
        for phi in blk.instructions:
            if not phi.is_phi:
                break
            d = phi.definitions[0]
            if phi.opcode == "p_linear_phi":
                if prev not in blk.linear_preds:
                    raise InterpError(f"BB{blk.index} entered from BB{prev}")
                results.append((d, self.read(phi.operands[blk.linear_preds.index(prev)])))
            elif d.temp.id not in self.vals:  # no lane came through a logical pred
                self.vals[d.temp.id] = self.garbage_like(d)
        for d, v in results:
            self.write_def(d, v)
        logical = blk.index == 0 or bool(blk.logical_preds)
        in_logical = False
        for instr in blk.instructions:
            if instr.is_phi:
                continue
            op = instr.opcode
            if op == "p_logical_start":
                in_logical = True
                continue
            if op == "p_logical_end":
                in_logical = False
                if logical:
                    self.phi_copies(blk)
                continue
            if op in ("p_branch", "p_cbranch_z", "p_cbranch_nz"):
                return self.branch(blk, instr)
            if op == "s_endpgm":
                return None
            if op in ("p_exit_early_if", "p_exit_early_if_not"):
                scc = self.read(instr.operands[0])
                if bool(scc) == (op == "p_exit_early_if"):
                    return None
                continue
            if op in _DISCARDS:
                raise InterpError(f"{op} left after insert_exec_mask")
            self.exec_instr(instr, in_logical)
        if blk.linear_succs:
            raise InterpError(f"BB{blk.index} falls off its end")
        return None

    def garbage_like(self, d):
        return [self.garbage() & M32 for _ in range(self.w)] if d.rc.is_vgpr else self.garbage()

    def phi_copies(self, blk: Block) -> None:
        """SSA elimination's copies of the logical phis of blk's logical
        successors, at blk's p_logical_end (VALU copies honour EXEC)."""
        copies = []
        for s in blk.logical_succs:
            succ = self.p.blocks[s]
            k = succ.logical_preds.index(blk.index)
            for phi in succ.instructions:
                if not phi.is_phi:
                    break
                if phi.opcode == "p_phi":
                    copies.append((phi.definitions[0], self.read(phi.operands[k])))
        for d, v in copies:
            if d.rc.is_vgpr:
                cur = self.vals.get(d.temp.id)
                out = list(cur) if isinstance(cur, list) else self.garbage_like(d)
                for lane in self.lanes():
                    out[lane] = self.lane_val(None, v, lane)
                self.vals[d.temp.id] = out
            else:
                self.vals[d.temp.id] = v

    def branch(self, blk: Block, br: Instruction) -> int:
        t = br.fields["targets"]
        if br.opcode == "p_branch":
            return t[0]
        c = self.read(br.operands[0])
        if isinstance(c, list):
            raise InterpError("branch on a VGPR")
        go = (c == 0) if br.opcode == "p_cbranch_z" else (c != 0)
        other = t[1] if len(t) > 1 else next(s for s in blk.linear_succs if s != t[0])
        return t[0] if go else other

    def write_def(self, d, v) -> None:
        if d.temp is None:
            if d.phys is not None and d.phys.reg == EXEC:
                self.exec = v & ((1 << self.w) - 1)
                return
            if d.phys is not None and d.phys.reg == SCC:
                return
            raise InterpError(f"write of fixed register {d.phys}")
        self.vals[d.temp.id] = v

    def exec_instr(self, instr: Instruction, in_logical: bool) -> None:
        op = instr.opcode
        if op == "p_startpgm":
            for d, v in zip(instr.definitions, self.inputs, strict=True):
                self.vals[d.temp.id] = list(v) if isinstance(v, list) else v
            return
        x = [self.read(o) for o in instr.operands]
        if op == "p_parallelcopy":
            for d, v in zip(instr.definitions, x, strict=True):
                self.write_def(d, v)
            return
        if op == "p_unit_test":
            for lane in self.lanes():
                self.obs.setdefault(lane, []).append(tuple(
                    self.lane_val(o, v, lane) for o, v in zip(instr.operands, x, strict=True)))
            return
        if op.startswith("v_"):
            self.valu(instr, x)
            return
        if op.startswith("s_"):
            xs = []
            for v in x:
                if isinstance(v, list):
                    raise InterpError(f"SALU {op} reads a VGPR")
                xs.append(v)
            r, scc, new_exec = _salu(op, xs, self.exec)
            for d in instr.definitions:
                if _is_scc(d):
                    if d.temp is not None:
                        self.vals[d.temp.id] = scc
                elif d.temp is None and d.phys is not None and d.phys.reg == EXEC:
                    self.exec = (new_exec if new_exec is not None else r) & (
                        (1 << self.w) - 1)
                else:
                    self.write_def(d, r)
            return
        raise InterpError(f"no semantics for {op}")

    def valu(self, instr: Instruction, x: list) -> None:
        op = instr.opcode
        d = instr.definitions[0]
        lanes = self.lanes()
        if op.startswith("v_cmp_"):
            r = 0
            for lane in lanes:
                a, b = (self.lane_val(o, v, lane) for o, v in zip(instr.operands, x,
                                                                  strict=True))
                r |= int(_cmp(op, a, b)) << lane
            self.write_def(d, r)
            return
        out = [self.garbage() & M32 for _ in range(self.w)]
        for lane in lanes:
            a = [self.lane_val(o, v, lane) for o, v in zip(instr.operands, x, strict=True)]
            if op == "v_cndmask_b32":
                out[lane] = a[1] if (x[2] >> lane) & 1 else a[0]
            elif op in _VALU:
                out[lane] = _VALU[op](*a)  # type: ignore[operator]
            else:
                raise InterpError(f"no semantics for {op}")
        self.write_def(d, out)


def run_linear(program: Program, inputs: list, exec_mask: int, seed: int = 0,
               max_steps: int = 100_000) -> dict[int, list[tuple]]:
    it = _Linear(program, inputs, exec_mask, seed)
    it.run(max_steps)
    return it.obs
