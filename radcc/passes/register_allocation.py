"""SSA-based register allocation (ACO's README.md "Register Allocation"; the
algorithm of ACO's aco_register_allocation.cpp, written anew).

`register_allocation(program)` reads the current liveness (`get_live_vars`) and then walks the
blocks once, in layout order, with a register file per block (SGPRs and
VGPRs are separate ranges of the same file map). It guarantees:

- every temp operand and definition carries a `PhysReg`; temps in SGPRs
  lie in s[0..addressable_sgprs), in VGPRs in v[0..addressable_vgprs);
  tuples are contiguous and aligned (`ra_support.stride`: SGPR pairs even,
  SGPR tuples of 4+ dwords 4-aligned);
- precolored operands and definitions (exec, vcc, m0, scc, the ABI inputs
  of p_startpgm, any `%t:reg` written before allocation) keep their
  register: a value is moved into place, blocking values are moved away;
- tied definitions (``opinfo.tied_operands``: v_fmac, v_writelane,
  s_addk ...) get the register of their operand; an operand still live
  after the instruction is copied first;
- the program stays in SSA form: moving a live value (live-range
  splitting, to make room for a tuple or a fixed register) defines a new
  temp with one ``p_parallelcopy`` per instruction, inserted right before
  it; a value renamed differently on the incoming edges of a block gets a
  new ``p_phi``/``p_linear_phi`` (SSA reconstruction on the fly), also at
  loop headers once the loop's last block is allocated;
- phi operands carry the register of the value at the end of their
  predecessor, phi definitions a register of their own; phis whose
  definition and operands differ are resolved by `ssa_elimination`;
- affinities cut copies: phi operands and definitions, copies, tied
  operands and create/split/extract_vector pieces prefer each other's
  registers; dead phis are removed;
- kill flags come from liveness: a killed operand's register is free for
  the definitions of its instruction, a late-kill operand's only after;
- as ACO's, allocation succeeds whenever the register demand (live-var
  analysis) fits the file: fragmentation is resolved by live-range splitting
  (`make_space` moves a few values; failing that, `repack_defs` repacks the
  file around an instruction, values live through it, its definitions and
  its killed operands, and `repack_entry` repacks a block's entry, live-in
  values moved by new phis and all phi definitions, placed or not); only
  fixed registers (precolored values, tied operands) fragmenting the file,
  or SGPR tuple alignment, can still defeat it. Demand beyond the register
  file raises `RegisterAllocationError` naming the block and the
  instruction (`radcc.passes.spill` runs before and keeps the demand within it);
- ``program.config.num_sgprs``/``num_vgprs``: 1 + the highest
  general register used (vcc, m0, exec, scc not counted).

Cost: one walk over the instructions; live-in sets per block; a loop's
instructions are revisited once to rename values that got a phi at its
header. Live-range splitting scans the register range of one file; a
repack sorts the values of one file.

Linear VGPRs (``lv`` classes) live along the linear CFG and are written in
every lane, so they interfere with the VGPR values of every lane on both
sides of a divergent branch (`validate_ra` checks exactly that). Rather than
a liveness of every lane, the allocator keeps, from the end of each
top-level block (where all lanes are active and the file holds every live
value) through the divergent blocks after it, the registers any ordinary
VGPR and any linear VGPR has had (`lane_avoid`): in those blocks a linear
VGPR (placed, moved, or a phi) avoids the former and an ordinary VGPR the
latter (a loop may bring a linear VGPR back to an earlier register); phi
definitions do so at top-level merges too. Conservative: it can cost
registers in divergent code that uses linear VGPRs, so the "succeeds when
the demand fits" promise does not cover such programs. Copies moving a
linear VGPR get a free ``scratch_sgpr`` (`hw_copy` copies them in all
lanes and may need it to keep SCC).

Not yet: sub-dword classes (v1b/v2b raise `RegisterAllocationError`).
Loops must be contiguous in the layout (ACO's block order).
"""

from __future__ import annotations

from typing import cast

from radcc.ir.opinfo import tied_operands
from radcc.ir.printer import instruction_text
from radcc.ir.program import (
    PHI_OPCODES,
    Block,
    BlockKind,
    Definition,
    Instruction,
    Operand,
    Program,
)
from radcc.ir.regclass import VGPR_BASE, PhysReg, RegClass, Temp, s1, v1
from radcc.isa.table import get_table
from radcc.passes.live_var_analysis import get_live_vars, is_linear
from radcc.passes.ra_support import RegisterAllocationError, reg_range, stride

FILE_SIZE = 512
# the dword registers' `PhysReg`s, shared (frozen): the hot paths give every operand
# and definition one
_DWORD_REGS = tuple(PhysReg.of(r) for r in range(FILE_SIZE))
_ONES = b"\x01" * FILE_SIZE
_BLOCKED = -1


# BlockKind.TOP_LEVEL's int value (tested per block; an enum.Flag test is Python calls)
_TOP_LEVEL: int = BlockKind.TOP_LEVEL.value

# `first_fit` with more registers than this to avoid searches a byte map of the range
_AVOID_SCAN = 16


class _Copy:
    """One pair of the parallel copy being built before an instruction."""

    __slots__ = ("src", "src_reg", "dst", "dst_reg", "kill")

    def __init__(self, src: Temp, src_reg: int, dst: Temp, dst_reg: int, kill: bool) -> None:
        self.src = src
        self.src_reg = src_reg
        self.dst = dst
        self.dst_reg = dst_reg
        self.kill = kill


class _Allocator:
    def __init__(self, program: Program, sgpr_limit: int | None = None,
                 vgpr_limit: int | None = None) -> None:
        self.p = program
        # the opcode table (`tied_operands` reads it per instruction)
        self.table = get_table(program.gfx_level)
        # the registers a temp of each file may be given (`ra_support.reg_range`, shrunk
        # to the limits)
        lo, hi = reg_range(program, s1)
        self.sgpr_range = (lo, min(hi, lo + sgpr_limit)) if sgpr_limit is not None else (lo, hi)
        lo, hi = reg_range(program, v1)
        self.vgpr_range = (lo, min(hi, lo + vgpr_limit)) if vgpr_limit is not None else (lo, hi)
        self.addressable_sgprs = program.target.addressable_sgprs
        n = len(program.temp_rc)
        self.reg: list[int] = [-1] * n  # register number of each temp (-1: none)
        self.orig: list[int] = list(range(n))  # the original temp a name stands for
        self.rc: list[RegClass | None] = list(program.temp_rc)
        self.parent: list[int] = list(range(n))  # affinity union-find over original ids
        self.group_reg: dict[int, int] = {}
        self.vec_of: dict[int, tuple[Instruction, int]] = {}  # create_vector operand hints
        nb = len(program.blocks)
        self.renames: list[dict[int, Temp]] = [{} for _ in range(nb)]
        self.entry_names: list[dict[int, Temp]] = [{} for _ in range(nb)]
        self.created_phis: list[dict[int, Instruction]] = [{} for _ in range(nb)]
        self.loops_ending: dict[int, list[int]] = {}
        self.max_sgpr = -1
        self.max_vgpr = -1
        # linear VGPRs (see `lane_avoid`): registers taken since the last top-level block
        self.has_lv = any(rc is not None and rc.is_vgpr and rc.linear for rc in self.rc)
        self.lane_taken: set[int] = set()  # by ordinary VGPRs (values of some lanes)
        self.lin_taken: set[int] = set()  # by linear VGPRs
        # the same two sets as 0/1 bytes per register (first_fit reads them at C speed)
        self.lane_bytes = bytearray(FILE_SIZE)
        self.lin_bytes = bytearray(FILE_SIZE)
        self.divergent = False  # the current block is not top-level
        self.at_entry = False  # placing phis
        # per-block state
        self.file: list[int] = []
        self.cur: dict[int, Temp] = {}
        self.block: Block | None = None
        self.instr: Instruction | None = None
        self.pending: list[_Copy] = []
        self.pending_of: dict[int, _Copy] = {}

    # -- temps ------------------------------------------------------------
    def new_temp(self, rc: RegClass, orig: int) -> Temp:
        t = self.p.allocate_temp(rc)
        self.reg.append(-1)
        self.orig.append(orig)
        self.rc.append(rc)
        self.parent.append(t.id)
        return t

    def find(self, x: int) -> int:
        x = self.orig[x]
        p = self.parent
        while p[x] != x:
            p[x] = p[p[x]]
            x = p[x]
        return x

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)

    def error(self, msg: str) -> RegisterAllocationError:
        text = instruction_text(self.p, self.instr) if self.instr is not None else None
        return RegisterAllocationError(msg, self.block.index if self.block else None, text)

    # -- register file ------------------------------------------------------
    def fill(self, reg: int, size: int, tid: int) -> None:
        f = self.file
        for r in range(reg, reg + size):
            f[r] = tid

    def clear(self, reg: int, size: int, tid: int) -> None:
        f = self.file
        for r in range(reg, reg + size):
            if f[r] == tid:
                f[r] = 0

    def assign(self, t: Temp, reg: int) -> None:
        self.reg[t.id] = reg
        g = self.find(t.id)
        self.group_reg.setdefault(g, reg)
        last = reg + t.rc.size - 1
        if reg >= VGPR_BASE:
            if last - VGPR_BASE > self.max_vgpr:
                self.max_vgpr = last - VGPR_BASE
            if self.has_lv:
                (self.lin_taken if t.rc.linear else self.lane_taken).update(range(reg, last + 1))
                (self.lin_bytes if t.rc.linear else self.lane_bytes)[reg:last + 1] = \
                    _ONES[:last + 1 - reg]
        elif last < self.addressable_sgprs:
            if last > self.max_sgpr:
                self.max_sgpr = last

    def reg_range(self, rc: RegClass) -> tuple[int, int]:
        return self.sgpr_range if rc.is_sgpr else self.vgpr_range

    def lane_avoid(self, rc: RegClass) -> set[int] | None:
        """Registers a value of class rc must avoid besides the file, because of
        linear VGPRs (ACO's README.md "Register Allocation"): a linear VGPR is written
        in every lane, so in divergent code (blocks that are not top-level) it
        must not go where an ordinary VGPR of any lane may still be (every
        register such a value has had since the last top-level block), and an
        ordinary VGPR must not go where a linear VGPR has been in that time (a
        loop may bring it back there). Phi definitions avoid them at top-level
        merges too (their copies run at the end of divergent predecessors)."""
        if not self.has_lv or not rc.is_vgpr or not (self.divergent or self.at_entry):
            return None
        return (self.lane_taken if rc.linear else self.lin_taken) or None

    def is_free(self, reg: int, size: int, avoid: set[int] | None = None) -> bool:
        f = self.file
        for r in range(reg, reg + size):
            if f[r] != 0 or (avoid is not None and r in avoid):
                return False
        return True

    def fits(self, rc: RegClass, reg: int, avoid: set[int] | None = None) -> bool:
        lo, hi = self.sgpr_range if rc.is_sgpr else self.vgpr_range  # `reg_range`
        ex = self.lane_avoid(rc) if self.has_lv else None
        if ex is not None:
            avoid = ex if avoid is None else avoid | ex
        return (lo <= reg and reg + rc.size <= hi and (reg - lo) % stride(rc) == 0
                and self.is_free(reg, rc.size, avoid))

    def first_fit(self, rc: RegClass, avoid: set[int] | None = None) -> int:
        lo, hi = self.sgpr_range if rc.is_sgpr else self.vgpr_range  # `reg_range`
        ex = self.lane_avoid(rc) if self.has_lv else None
        if ex is not None:
            avoid = ex if avoid is None else avoid | ex
        size, st = rc.size, stride(rc)
        f = self.file
        r = lo
        if avoid is not None and len(avoid) > _AVOID_SCAN and hi > lo:
            # many registers to avoid (linear VGPRs' lane_taken in a long divergent
            # region): the blocked registers as bytes, searched at C speed for the
            # lowest aligned run of `size` clear ones (the register the scan below finds)
            blk = bytearray(map(bool, f[lo:hi]))
            if avoid is ex and hi <= FILE_SIZE:
                # only the linear VGPRs' set: ORed in from its bytes (`lane_bytes`)
                taken = self.lane_bytes if ex is self.lane_taken else self.lin_bytes
                n_blk = hi - lo
                blk = bytearray((int.from_bytes(blk, "little") | int.from_bytes(
                    taken[lo:hi], "little")).to_bytes(n_blk, "little"))
            else:
                for k in avoid:
                    if lo <= k < hi:
                        blk[k - lo] = 1
            clear = bytes(size)
            start = 0
            while True:
                pos = blk.find(clear, start)
                if pos < 0:
                    return -1
                if pos % st == 0:
                    return lo + pos
                start = pos + st - pos % st
        # the lowest aligned start whose registers are free and not avoided, with the
        # scan for a free register at C speed (`index`): a full file (a big switch's
        # hoisted SGPRs, its VGPRs in a long divergent region) made each placement walk it
        while r + size <= hi:
            try:
                free = f.index(0, r, hi)
            except ValueError:
                return -1
            # registers r..free-1 are taken: the next aligned start at or after free
            r = lo + ((free - lo + st - 1) // st) * st
            if r + size > hi:
                return -1
            for k in range(r, r + size):
                if f[k] != 0 or (avoid is not None and k in avoid):
                    # jump past the blocked register, keeping the alignment
                    r = lo + ((k + 1 - lo + st - 1) // st) * st
                    break
            else:
                return r
        return -1

    def make_space(self, rc: RegClass, fixed: set[int], no_dst: set[int]
                   ) -> tuple[int, list[tuple[int, int]]]:
        """Live-range splitting: a window for rc and moves (temp, new reg) for the
        values now in it. `fixed`: temps that must not move; `no_dst`: registers
        moved values must not go to (besides the window)."""
        lo, hi = self.reg_range(rc)
        size, st = rc.size, stride(rc)
        f = self.file
        ex = self.lane_avoid(rc) or set()
        cands: list[tuple[int, int, list[int]]] = []
        for w in range(lo, hi - size + 1, st):
            cost = 0
            movers: list[int] = []
            ok = True
            for r in range(w, w + size):
                v = f[r]
                if r in ex:
                    ok = False
                    break
                if v == 0:
                    continue
                if v < 0 or v in fixed:
                    ok = False
                    break
                if v not in movers:
                    movers.append(v)
                    cost += self.rc[v].size  # type: ignore[union-attr]
            if ok and movers:
                cands.append((cost, w, movers))
        cands.sort(key=lambda c: (c[0], c[1]))
        for _cost, w, movers in cands[:32]:
            window = set(range(w, w + size))
            taken: set[int] = set()
            moves: list[tuple[int, int]] = []
            for v in sorted(movers, key=lambda v: -self.rc[v].size):  # type: ignore[union-attr]
                vrc = self.rc[v]
                assert vrc is not None
                r = self.first_fit(vrc, window | no_dst | taken)
                if r < 0:
                    break
                moves.append((v, r))
                taken.update(range(r, r + vrc.size))
            else:
                return w, moves
        raise self.error(f"no room for a {rc} (register demand exceeds the register file)")

    def pack(self, rc: RegClass, blocked: set[int], items: list[tuple[int, RegClass]]
             ) -> dict[int, int] | None:
        """Place `items` (key, class) in rc's register range, largest first, each
        at the lowest aligned window free of `blocked` and of the items placed
        before it (with stride-1 VGPRs or power-of-two SGPR tuples this packs
        perfectly: it fails only when the sizes exceed the free registers or
        `blocked` fragments them). Returns key -> register, or None."""
        lo, hi = self.reg_range(rc)
        taken = [r in blocked for r in range(lo, hi)]
        out: dict[int, int] = {}
        for key, irc in sorted(items, key=lambda it: (-it[1].size, self.reg[it[0]]
                                                       if it[0] >= 0 else 1 << 20)):
            size, st = irc.size, stride(irc)
            ex = self.lane_avoid(irc) or ()
            for w in range(0, hi - lo - size + 1, st):
                if not any(taken[w:w + size]) and not any(
                        r in ex for r in range(lo + w, lo + w + size)):
                    taken[w:w + size] = [True] * size
                    out[key] = lo + w
                    break
            else:
                return None
        return out

    def pack_layers(self, rc: RegClass, blocked: set[int], defs_taken: set[int],
                    kills_taken: set[int], items: list[tuple[int, RegClass, int]],
                    joint: bool) -> dict[int, int] | None:
        """Pack an instruction's values in two layers: registers during/after it
        (live-through values and definitions: kind 0 and 1) and before it
        (live-through values and killed operands: kind 0 and 2). `defs_taken` /
        `kills_taken`: registers already taken in one layer only. Not `joint`:
        live values first, then definitions, then killed operands, each largest
        first (perfect for stride-1 VGPRs: the live values form a prefix);
        `joint`: all by size, largest first (better for aligned SGPR tuples)."""
        lo, hi = self.reg_range(rc)
        after = [r in blocked or r in defs_taken for r in range(lo, hi)]
        before = [r in blocked or r in kills_taken for r in range(lo, hi)]
        order = sorted(items, key=lambda it: (
            (-it[1].size, it[2]) if joint else (it[2], -it[1].size),
            self.reg[it[0]] if it[0] >= 0 else 1 << 20))
        out: dict[int, int] = {}
        for key, irc, kind in order:
            size, st = irc.size, stride(irc)
            layers = (after, before) if kind == 0 else (after,) if kind == 1 else (before,)
            ex = self.lane_avoid(irc) or ()
            for w in range(0, hi - lo - size + 1, st):
                if not any(any(lay[w:w + size]) for lay in layers) and not any(
                        r in ex for r in range(lo + w, lo + w + size)):
                    for lay in layers:
                        lay[w:w + size] = [True] * size
                    out[key] = lo + w
                    break
            else:
                return None
        return out

    def file_values(self, rc: RegClass) -> tuple[list[int], set[int]]:
        """(values in rc's register range, registers blocked there)."""
        lo, hi = self.reg_range(rc)
        vals: list[int] = []
        blocked: set[int] = set()
        f = self.file
        for r in range(lo, hi):
            v = f[r]
            if v < 0:
                blocked.add(r)
            elif v > 0 and v not in vals:
                vals.append(v)
        return vals, blocked

    def regs_of(self, tid: int) -> range:
        r = self.reg[tid]
        return range(r, r + self.rc[tid].size)  # type: ignore[union-attr]

    def no_room(self, rc: RegClass) -> RegisterAllocationError:
        return self.error(f"no room for a {rc} (register demand exceeds the register file)")

    def repack_defs(self, instr: Instruction, rc: RegClass, immovable: set[int],
                    pinned: set[int], killed: list[Operand]) -> None:
        """Live-range splitting when rc's register file is fragmented at an
        instruction: repack the values live through it (largest first) together
        with every definition of the instruction in that file that is not in
        `pinned` (precolored or tied); its killed operands are repacked around the
        live values (they may share registers with the definitions). `immovable`:
        values that keep their register. Succeeds whenever the demand during and
        before the instruction fits (see `pack`), unless fixed registers
        fragment the file."""
        same = rc.is_vgpr
        floating = [d for d in instr.definitions if d.temp is not None
                    and d.temp.rc.is_vgpr == same and d.temp.id not in pinned]
        for d in floating:
            if d.phys is not None:
                self.clear(d.phys.reg, d.temp.rc.size, d.temp.id)  # type: ignore[union-attr]
                d.phys = None
        vals, blocked = self.file_values(rc)
        pinned_regs: set[int] = set()
        live: list[int] = []
        for v in vals:
            if v in pinned:
                pinned_regs.update(self.regs_of(v))
            elif v in immovable:
                blocked.update(self.regs_of(v))
            else:
                live.append(v)
        kill_fixed: set[int] = set()
        kill_mov: list[int] = []
        for o in killed:
            t = o.temp
            assert t is not None
            if t.rc.is_vgpr != same or t.id in kill_mov:
                continue
            if t.id in immovable:
                kill_fixed.update(self.regs_of(t.id))
            else:
                kill_mov.append(t.id)
        items = cast("list[tuple[int, RegClass, int]]",
                     [(v, self.rc[v], 0) for v in live]
                     + [(-1 - k, d.temp.rc, 1) for k, d in enumerate(floating)]  # type: ignore[union-attr]
                     + [(v, self.rc[v], 2) for v in kill_mov])
        where = self.pack_layers(rc, blocked, pinned_regs, kill_fixed, items, False)
        if where is None:  # aligned SGPR tuples: one pass, largest first, may fit better
            where = self.pack_layers(rc, blocked, pinned_regs, kill_fixed, items, True)
        if where is None:
            raise self.no_room(rc)
        lmoves = {v: where[v] for v in live}
        kmoves = {v: where[v] for v in kill_mov}
        dmoves = {-1 - k: where[-1 - k] for k in range(len(floating))}
        movers = [v for v in live if lmoves[v] != self.reg[v]]
        for v in movers:
            self.clear(self.reg[v], self.rc[v].size, v)  # type: ignore[union-attr]
        for v in movers:
            self.move(v, lmoves[v], clear=False)
        for v in kill_mov:
            if kmoves[v] != self.reg[v]:
                self.move(v, kmoves[v], clear=False, fill=False)
        for k, d in enumerate(floating):
            self.place_def(d, dmoves[-1 - k])

    # -- moves ---------------------------------------------------------------
    def move(self, tid: int, new_reg: int, clear: bool = True, fill: bool = True) -> Temp:
        """Move value tid (live now) to new_reg with the pending parallel copy;
        returns its new name. `clear`/`fill`: update the register file."""
        rc = self.rc[tid]
        assert rc is not None
        old = self.reg[tid]
        if clear:
            self.clear(old, rc.size, tid)
        c = self.pending_of.get(tid)
        if c is not None:  # moved twice before the same instruction: retarget
            c.dst_reg = new_reg
            self.reg[tid] = new_reg
            self.assign(c.dst, new_reg)
            t = c.dst
        else:
            t = self.new_temp(rc, self.orig[tid])
            c = _Copy(Temp(tid, rc), old, t, new_reg, True)
            self.pending.append(c)
            self.pending_of[t.id] = c
            self.assign(t, new_reg)
            self.cur[self.orig[tid]] = t
        if fill:
            self.fill(new_reg, rc.size, t.id)
        assert self.instr is not None
        for o in self.instr.operands:
            if o.temp is not None and o.temp.id == tid:
                o.temp = t
                if o.phys is not None:
                    o.phys = PhysReg.of(new_reg)
        return t

    def displace(self, reg: int, size: int, keep: set[int], fixed: set[int],
                 no_dst: set[int]) -> None:
        """Move every value not in `keep` out of [reg, reg+size)."""
        window = set(range(reg, reg + size))
        for r in range(reg, reg + size):
            v = self.file[r]
            if v == 0 or v in keep:
                continue
            if v < 0 or v in fixed:
                raise self.error(f"register {PhysReg.of(r)} is needed by two fixed values")
            vrc = self.rc[v]
            assert vrc is not None
            dst = self.first_fit(vrc, window | no_dst)
            if dst < 0:
                _w, moves = self.make_space(vrc, fixed | {v}, window | no_dst)
                for m, to in moves:
                    self.move(m, to)
                dst = _w
            self.move(v, dst)

    # -- affinities ------------------------------------------------------------
    def compute_affinities(self) -> None:
        for b in self.p.blocks:
            for instr in b.instructions:
                op = instr.opcode
                if op in PHI_OPCODES:
                    d = instr.definitions[0]
                    if d.temp is None:
                        continue
                    for o in instr.operands:
                        if o.temp is not None and o.temp.rc == d.temp.rc:
                            self.union(d.temp.id, o.temp.id)
                elif op == "p_parallelcopy":
                    for d, o in zip(instr.definitions, instr.operands, strict=False):
                        if (d.temp is not None and o.temp is not None and o.is_kill
                                and d.temp.rc == o.temp.rc and d.phys is None):
                            self.union(d.temp.id, o.temp.id)
                elif op == "p_create_vector":
                    for k, o in enumerate(instr.operands):
                        if o.temp is not None and o.is_kill:
                            self.vec_of[o.temp.id] = (instr, k)
                elif instr.format != "PSEUDO":  # (`tied_operands` ties no pseudo's)
                    for di, oi in tied_operands(self.table, instr):
                        d, o = instr.definitions[di], instr.operands[oi]
                        if d.temp is not None and o.temp is not None and o.is_kill:
                            self.union(d.temp.id, o.temp.id)

        # precolored phis pull their class to their register
        for b in self.p.blocks:
            for instr in b.instructions:
                if instr.opcode not in PHI_OPCODES:
                    break
                d = instr.definitions[0]
                if d.temp is not None and d.phys is not None:
                    self.group_reg.setdefault(self.find(d.temp.id), d.phys.reg)

    def vector_offset(self, instr: Instruction, k: int) -> int:
        off = 0
        for o in instr.operands[:k]:
            off += o.size if o.temp is None else o.temp.rc.size
        return off

    def def_hints(self, instr: Instruction, di: int, t: Temp) -> list[int]:
        hints: list[int] = []
        g = self.group_reg.get(self.find(t.id))
        if g is not None:
            hints.append(g)
        op = instr.opcode
        ops = instr.operands
        src = ops[di].temp if op == "p_parallelcopy" and di < len(ops) else None
        if src is not None:
            hints.append(self.reg[src.id])
        elif op == "p_split_vector" and ops and ops[0].temp is not None:
            off = sum(d.size for d in instr.definitions[:di])
            hints.append(self.reg[ops[0].temp.id] + off)
        elif op == "p_extract_vector" and ops and ops[0].temp is not None and len(ops) > 1:
            idx = ops[1].const or 0
            hints.append(self.reg[ops[0].temp.id] + idx * t.rc.size)
        elif op == "p_create_vector":
            for k, o in enumerate(ops):
                if o.temp is not None and o.is_kill:
                    hints.append(self.reg[o.temp.id] - self.vector_offset(instr, k))
        vec = self.vec_of.get(self.orig[t.id])
        if vec is not None:
            vinstr, k = vec
            base_off = self.vector_offset(vinstr, k)
            vrc = vinstr.definitions[0].rc
            for j, o in enumerate(vinstr.operands):
                if j != k and o.temp is not None:
                    name = self.cur.get(self.orig[o.temp.id], o.temp)
                    if self.reg[name.id] >= 0:
                        hints.append(self.reg[name.id] - self.vector_offset(vinstr, j)
                                     + base_off)
            if vrc is not None:
                w = self.first_fit(vrc)
                if w >= 0:
                    hints.append(w + base_off)
        return hints

    # -- blocks ------------------------------------------------------------------
    def read(self, pred: int, orig: int, rc: RegClass) -> Temp:
        return self.renames[pred].get(orig, Temp(orig, rc))

    def run(self) -> None:
        live = get_live_vars(self.p)
        for b in self.p.blocks:
            for x in b.instructions:
                for xs in (x.operands, x.definitions):
                    for o in xs:
                        if o.rc is not None and o.rc.subdword:
                            self.block, self.instr = b, x
                            raise self.error("sub-dword register classes are not supported "
                                             "yet")
        self.compute_affinities()
        for b in self.p.blocks:
            back = [p for p in set(b.linear_preds) | set(b.logical_preds) if p >= b.index]
            if back:
                self.loops_ending.setdefault(max(back), []).append(b.index)
        for b in self.p.blocks:
            self.block = b
            self.instr = None
            self.process_block(b, live.live_in[b.index])
            for h in sorted(self.loops_ending.get(b.index, ()), reverse=True):
                self.fix_loop(h, b.index, live.live_in[h])
        self.p.config.num_sgprs = self.max_sgpr + 1
        self.p.config.num_vgprs = self.max_vgpr + 1

    def process_block(self, b: Block, live_in: set[int]) -> None:
        self.file = [0] * FILE_SIZE
        self.cur = {}
        self.divergent = not b.kind._value_ & _TOP_LEVEL
        created: list[Instruction] = []
        idx = b.index
        renames = self.renames
        # the renames of the forward linear / logical predecessors
        lin_fwd = [renames[p] for p in b.linear_preds if p < idx]
        log_fwd = [renames[p] for p in b.logical_preds if p < idx]
        # the renames of the other forward predecessors than the first
        lin_more, log_more = lin_fwd[1:], log_fwd[1:]
        rcs = self.rc
        for orig in sorted(live_in):
            rc = rcs[orig]
            assert rc is not None
            linear = rc.is_sgpr or rc.linear  # `is_linear`
            fwd_ren = lin_fwd if linear else log_fwd
            if not fwd_ren:
                raise self.error(f"%{orig} is live into BB{idx}, which has no predecessor "
                                 "for it")
            # the name self.read gives in the first forward predecessor (None: orig's
            # own), and whether every other one gives the same
            name0 = fwd_ren[0].get(orig)
            same = True
            for ren in (lin_more if linear else log_more):
                n = ren.get(orig)
                if n is not name0 and (Temp(orig, rc) if n is None else n) != (
                        Temp(orig, rc) if name0 is None else name0):
                    same = False
                    break
            if not same:
                preds = b.linear_preds if linear else b.logical_preds
                fwd = [p for p in preds if p < idx]
                names = [self.read(p, orig, rc) for p in fwd]
                name = self.new_temp(rc, orig)
                phi = Instruction("p_linear_phi" if linear else "p_phi", "PSEUDO",
                                  definitions=[Definition(name)])
                ni = iter(names)
                for p in preds:
                    if p < idx:
                        n = next(ni)
                        phi.operands.append(Operand(n, phys=PhysReg.of(self.reg[n.id])))
                    else:
                        phi.operands.append(Operand(Temp(orig, rc)))
                if len(fwd) < len(preds):
                    self.created_phis[idx][orig] = phi
                created.append(phi)
                self.cur[orig] = name
            else:
                nid = orig
                if name0 is not None:
                    nid = name0.id
                    if nid != orig:
                        self.cur[orig] = name0
                r = self.reg[nid]
                size = rc.size
                end = r + size
                f = self.file
                if size == 1 and 0 <= r < FILE_SIZE and f[r] == 0:
                    f[r] = nid  # = self.fill, free
                elif 0 <= r and end <= FILE_SIZE and f[r:end].count(0) == size:
                    f[r:end] = [nid] * size  # = self.fill, all free
                else:
                    for k in range(r, end):
                        if f[k] != 0:
                            raise self.error(f"live-in values %{nid} and %{f[k]} "
                                             f"share {PhysReg.of(k)}")
                    self.fill(r, size, nid)
        ins = b.instructions
        k_phi = b.phi_end()  # phis lead the block
        phis = ins[:k_phi]
        rest = ins[k_phi:]
        phis = [x for x in phis if not (x.definitions[0].is_kill and x.definitions[0].temp)]
        self.at_entry = True
        self.place_phis(b, created, phis)
        self.at_entry = False
        self.entry_names[idx] = dict(self.cur)
        out: list[Instruction] = created + phis
        for instr in rest:
            self.instr = instr
            self.process_instruction(instr, out)
        b.instructions = out
        self.instr = None
        self.renames[idx] = self.cur
        self.set_successor_phi_operands(b)
        if self.has_lv and not self.divergent:
            # a divergent region starts: what is live now, in every lane
            lo, hi = reg_range(self.p, v1)
            self.lane_taken = {r for r in range(lo, hi) if self.file[r] > 0
                               and not self.rc[self.file[r]].linear}  # type: ignore[union-attr]
            self.lin_taken = {r for r in range(lo, hi) if self.file[r] > 0
                              and self.rc[self.file[r]].linear}  # type: ignore[union-attr]
            self.lane_bytes = bytearray(FILE_SIZE)
            self.lin_bytes = bytearray(FILE_SIZE)
            for r in self.lane_taken:
                self.lane_bytes[r] = 1
            for r in self.lin_taken:
                self.lin_bytes[r] = 1

    def place_phis(self, b: Block, created: list[Instruction], phis: list[Instruction]) -> None:
        allphis = created + phis
        todo: list[Instruction] = []
        precolored: set[int] = set()
        for phi in allphis:
            d = phi.definitions[0]
            if d.temp is None:
                continue
            if d.phys is not None:  # precolored phi
                r = d.phys.reg
                if not self.is_free(r, d.temp.rc.size):
                    raise self.error(f"precolored phi register {d.phys} is taken")
                self.fill(r, d.temp.rc.size, d.temp.id)
                self.assign(d.temp, r)
                precolored.add(d.temp.id)
                continue
            regs = [o.phys.reg for o in phi.operands if o.temp is not None and o.phys is not None]
            if regs and all(r == regs[0] for r in regs) and self.fits(d.temp.rc, regs[0]):
                self.place_def(d, regs[0])
            else:
                todo.append(phi)
        for phi in todo:
            d = phi.definitions[0]
            assert d.temp is not None
            if d.phys is not None:  # placed by repack_entry
                continue
            rc = d.temp.rc
            cands: list[int] = []
            g = self.group_reg.get(self.find(d.temp.id))
            if g is not None:
                cands.append(g)
            cands += [o.phys.reg for o in reversed(phi.operands)
                      if o.temp is not None and o.phys is not None]
            for r in cands:
                if self.fits(rc, r):
                    self.place_def(d, r)
                    break
            else:
                r = self.first_fit(rc)
                if r < 0:
                    phi_ids = {x.definitions[0].temp.id for x in allphis
                               if x.definitions[0].temp is not None}
                    try:
                        r, moves = self.make_space(rc, phi_ids, set())
                    except RegisterAllocationError:
                        self.repack_entry(b, rc, created, allphis, precolored)
                        continue
                    for v, _to in moves:
                        self.clear(self.reg[v], self.rc[v].size, v)  # type: ignore[union-attr]
                    for v, to in moves:
                        created.append(self.move_live_in_by_phi(b, v, to))
                self.place_def(d, r)

    def repack_entry(self, b: Block, rc: RegClass, created: list[Instruction],
                     allphis: list[Instruction], precolored: set[int]) -> None:
        """Live-range splitting at a block's entry when rc's file is fragmented:
        repack the live-in values (moved by new phis) together with every phi
        definition of that file, placed or not (only precolored phis stay).
        Everything there is movable, so this succeeds whenever the demand at
        the entry fits (see `pack`)."""
        same = rc.is_vgpr
        floating = [x.definitions[0] for x in allphis if x.definitions[0].temp is not None
                    and x.definitions[0].temp.rc.is_vgpr == same
                    and x.definitions[0].temp.id not in precolored]
        for d in floating:
            if d.phys is not None:
                self.clear(d.phys.reg, d.temp.rc.size, d.temp.id)  # type: ignore[union-attr]
                d.phys = None
        vals, blocked = self.file_values(rc)
        live: list[int] = []
        for v in vals:
            if v in precolored:
                blocked.update(self.regs_of(v))
            else:
                live.append(v)
        items = [(v, self.rc[v]) for v in live] + [  # type: ignore[misc]
            (-1 - k, d.temp.rc) for k, d in enumerate(floating)]  # type: ignore[union-attr]
        where = self.pack(rc, blocked, items)  # type: ignore[arg-type]
        if where is None:
            raise self.no_room(rc)
        movers = [v for v in live if where[v] != self.reg[v]]
        for v in movers:
            self.clear(self.reg[v], self.rc[v].size, v)  # type: ignore[union-attr]
        for v in movers:
            created.append(self.move_live_in_by_phi(b, v, where[v]))
        for k, d in enumerate(floating):
            self.place_def(d, where[-1 - k])

    def move_live_in_by_phi(self, b: Block, tid: int, to: int) -> Instruction:
        """Move a live-in value at the start of b by a new phi (keeps SSA)."""
        rc = self.rc[tid]
        assert rc is not None
        orig = self.orig[tid]
        t = self.new_temp(rc, orig)
        linear = is_linear(rc)
        phi = Instruction("p_linear_phi" if linear else "p_phi", "PSEUDO",
                          definitions=[Definition(t, phys=PhysReg.of(to))])
        preds = b.linear_preds if linear else b.logical_preds
        for p in preds:
            if p < b.index:
                n = self.read(p, orig, rc)
                phi.operands.append(Operand(n, phys=PhysReg.of(self.reg[n.id])))
            else:
                phi.operands.append(Operand(Temp(orig, rc)))
        if any(p >= b.index for p in preds):
            self.created_phis[b.index][orig] = phi
        self.fill(to, rc.size, t.id)
        self.assign(t, to)
        self.cur[orig] = t
        return phi

    def place_def(self, d: Definition, r: int) -> None:
        t = d.temp
        assert t is not None
        d.phys = _DWORD_REGS[r]
        tid = t.id
        f = self.file
        for k in range(r, r + t.rc.size):  # `fill`
            f[k] = tid
        self.assign(t, r)

    def set_successor_phi_operands(self, b: Block) -> None:
        idx = b.index
        seen: set[int] = set()
        for s in b.linear_succs + b.logical_succs:
            if s in seen:
                continue
            seen.add(s)
            succ = self.p.blocks[s]
            for phi in succ.instructions:
                if phi.opcode not in PHI_OPCODES:
                    break
                preds = succ.logical_preds if phi.opcode == "p_phi" else succ.linear_preds
                for k, p in enumerate(preds):
                    if p != idx or k >= len(phi.operands):
                        continue
                    o = phi.operands[k]
                    if o.temp is None:
                        continue
                    n = self.cur.get(self.orig[o.temp.id], o.temp)
                    if self.reg[n.id] < 0:
                        raise self.error(f"phi operand %{n.id} of BB{s} has no register "
                                         f"at the end of BB{idx}")
                    o.temp = n
                    o.phys = _DWORD_REGS[self.reg[n.id]]

    def fix_loop(self, h: int, end: int, live_in: set[int]) -> None:
        """After the loop's last block: phis at header h for values renamed
        inside the loop; rename their uses in blocks h..end."""
        header = self.p.blocks[h]
        ren: dict[int, Temp] = {}
        new_phis: list[Instruction] = []
        for orig in sorted(live_in):
            rc = self.rc[orig]
            assert rc is not None
            linear = is_linear(rc)
            preds = header.linear_preds if linear else header.logical_preds
            created = self.created_phis[h].get(orig)
            if created is not None:
                for k, p in enumerate(preds):
                    if p >= h:
                        n = self.read(p, orig, rc)
                        created.operands[k] = Operand(n, phys=PhysReg.of(self.reg[n.id]))
                continue
            hdr = self.entry_names[h].get(orig, Temp(orig, rc))
            backs = [(k, self.read(p, orig, rc)) for k, p in enumerate(preds) if p >= h]
            if all(n == hdr for _, n in backs):
                continue
            t = self.new_temp(rc, orig)
            self.assign(t, self.reg[hdr.id])
            phi = Instruction("p_linear_phi" if linear else "p_phi", "PSEUDO",
                              definitions=[Definition(t, phys=PhysReg.of(self.reg[hdr.id]))])
            phi.operands = [Operand(hdr, phys=PhysReg.of(self.reg[hdr.id])) for _ in preds]
            for k, n in backs:
                phi.operands[k] = Operand(n, phys=PhysReg.of(self.reg[n.id]))
            ren[hdr.id] = t
            new_phis.append(phi)
        if not ren:
            return
        header.instructions[:0] = new_phis
        for bi in range(h, end + 1):
            blk = self.p.blocks[bi]
            for instr in blk.instructions:
                if instr.is_phi:
                    preds = blk.logical_preds if instr.opcode == "p_phi" else blk.linear_preds
                    for k, o in enumerate(instr.operands):
                        if o.temp is not None and o.temp.id in ren and (
                                bi != h or (k < len(preds) and preds[k] >= h)):
                            o.temp = ren[o.temp.id]
                    continue
                for o in instr.operands:
                    if o.temp is not None and o.temp.id in ren:
                        o.temp = ren[o.temp.id]
            rmap = self.renames[bi]
            for hid, t in ren.items():
                oid = self.orig[hid]
                cur = rmap.get(oid)
                if (cur.id if cur is not None else oid) == hid:
                    rmap[oid] = t
            if bi != h:
                emap = self.entry_names[bi]
                for hid, t in ren.items():
                    oid = self.orig[hid]
                    if oid in emap and emap[oid].id == hid:
                        emap[oid] = t

    # -- instructions ------------------------------------------------------------
    def name_of(self, t: Temp) -> Temp:
        return self.cur.get(self.orig[t.id], t)

    def process_instruction(self, instr: Instruction, out: list[Instruction]) -> None:
        if self.pending:
            self.pending = []
            self.pending_of = {}
        ops = instr.operands
        defs = instr.definitions
        cur, orig, reg = self.cur, self.orig, self.reg
        # operands take the current names of their values; any fixed register?
        has_fixed = False
        for o in ops:
            t = o.temp
            if t is not None:
                if o.phys is not None:
                    has_fixed = True
                o.temp = t = cur.get(orig[t.id], t)  # `name_of`
                if reg[t.id] < 0:
                    raise self.error(f"%{t.id} is used before it has a register")
        reserved: set[int] = set()
        fixed_ids: set[int] = set()
        for d in defs:
            if d.phys is not None:
                reserved.update(range(d.phys.reg, d.phys.reg + d.size))
        if has_fixed:
            want: list[int] = []
            for o in ops:
                w = -1
                t = o.temp
                if t is not None and o.phys is not None:
                    w = o.phys.reg
                    reserved.update(range(w, w + t.rc.size))
                want.append(w)
            # phase A: fixed operands
            for k, o in enumerate(ops):
                if want[k] < 0 or o.temp is None:
                    continue
                w, size, tid = want[k], o.temp.rc.size, o.temp.id
                if tid in fixed_ids and self.reg[tid] != w:
                    raise self.error(f"%{self.orig[tid]} is needed in two fixed registers")
                if self.reg[tid] != w:
                    self.displace(w, size, {tid}, fixed_ids | {tid},
                                  reserved - set(range(w, w + size)))
                    self.move(o.temp.id, w)
                fixed_ids.add(o.temp.id)
        # tied operands that stay live: copy them first
        tied = tied_operands(self.table, instr) if instr.format != "PSEUDO" else []
        for _di, oi in tied:
            o = ops[oi]
            if o.temp is None:
                raise self.error("a tied operand must be a temp")
            if o.is_kill and not o.is_late_kill and sum(
                    1 for x in ops if x.temp is not None and x.temp.id == o.temp.id) == 1:
                continue
            r = self.first_fit(o.temp.rc, reserved)
            if r < 0:
                r, moves = self.make_space(o.temp.rc, fixed_ids, reserved)
                for v, to in moves:
                    self.move(v, to)
            t = self.new_temp(o.temp.rc, self.orig[o.temp.id])
            self.pending.append(_Copy(o.temp, self.reg[o.temp.id], t, r, False))
            self.assign(t, r)
            self.fill(r, t.rc.size, t.id)
            o.temp = t
            o.is_kill = o.is_first_kill = True
            o.is_late_kill = False
        # the operands' registers, and those of the operands killed here (free for the
        # definitions)
        killed: list[Operand] = []
        killed_ids: set[int] = set()
        no_dst: set[int] = set()
        for o in ops:
            t = o.temp
            if t is not None:
                r = reg[t.id]
                o.phys = _DWORD_REGS[r]
                if o.is_kill and not o.is_late_kill:
                    killed.append(o)
                    killed_ids.add(t.id)
                    no_dst.update(range(r, r + t.rc.size))
        # phase B: definitions
        if reserved:
            for d in defs:
                if d.phys is None:
                    continue
                r, size = d.phys.reg, d.size
                for k in range(r, r + size):
                    v = self.file[k]
                    if v > 0 and v not in killed_ids:
                        self.displace(r, size, killed_ids, fixed_ids, no_dst | reserved)
                        break
        f = self.file
        for o in killed:  # `clear`
            t = o.temp
            assert t is not None
            tid = t.id
            r = reg[tid]
            for k in range(r, r + t.rc.size):
                if f[k] == tid:
                    f[k] = 0
        # the definitions placed so far (fixed, then tied: `pinned`, kept by a repack)
        def_ids: list[int] = []
        if reserved:
            for d in defs:
                if d.phys is not None:
                    if d.temp is not None:
                        self.fill(d.phys.reg, d.size, d.temp.id)
                        self.assign(d.temp, d.phys.reg)
                        def_ids.append(d.temp.id)
        for di, oi in tied:
            d = defs[di]
            if d.temp is not None and d.phys is None:
                self.place_def(d, ops[oi].phys.reg)  # type: ignore[union-attr]
                def_ids.append(d.temp.id)
        n_pinned = len(def_ids)
        for di, d in enumerate(defs):
            if d.temp is None or d.phys is not None:
                continue
            rc = d.temp.rc
            for h in self.def_hints(instr, di, d.temp):
                if self.fits(rc, h):
                    self.place_def(d, h)
                    break
            else:
                r = self.first_fit(rc)
                if r < 0:
                    try:
                        r, moves = self.make_space(rc, fixed_ids | set(def_ids), no_dst)
                    except RegisterAllocationError:
                        tied_ops = {ops[oi].temp.id for _di, oi in tied  # type: ignore[union-attr]
                                    if ops[oi].temp is not None}
                        self.repack_defs(instr, rc, fixed_ids | tied_ops,
                                         set(def_ids[:n_pinned]), killed)
                        def_ids.extend(x.temp.id for x in defs if x.temp is not None
                                       and x.phys is not None)
                        continue
                    for v, to in moves:
                        self.move(v, to)
                self.place_def(d, r)
            def_ids.append(d.temp.id)
        # after the instruction: late kills and dead definitions
        for o in ops:
            if o.temp is not None and o.is_kill and o.is_late_kill:
                self.clear(self.reg[o.temp.id], o.temp.rc.size, o.temp.id)
        for d in defs:
            if d.temp is not None and d.is_kill:
                self.clear(self.reg[d.temp.id], d.temp.rc.size, d.temp.id)
        if self.pending:
            pc = Instruction("p_parallelcopy", "PSEUDO")
            for c in self.pending:
                pc.definitions.append(Definition(c.dst, phys=PhysReg.of(c.dst_reg)))
                op = Operand(c.src, phys=PhysReg.of(c.src_reg))
                op.is_kill = op.is_first_kill = c.kill
                pc.operands.append(op)
            if self.has_lv and any(c.dst.rc.linear for c in self.pending):
                self.give_scratch_sgpr(pc, instr)
            out.append(pc)
        out.append(instr)

    def give_scratch_sgpr(self, pc: Instruction, instr: Instruction) -> None:
        """A free SGPR for the copy's ``scratch_sgpr`` (copies of linear VGPRs
        keep a live SCC there, `hw_copy`): not live across instr, not one of its
        operands."""
        busy: set[int] = set()
        for o in instr.operands:
            if o.temp is not None and o.phys is not None:
                busy.update(range(o.phys.reg, o.phys.reg + o.temp.rc.size))
        lo, hi = self.reg_range(s1)
        for r in range(lo, hi):
            if self.file[r] == 0 and r not in busy:
                pc.fields["scratch_sgpr"] = r
                self.max_sgpr = max(self.max_sgpr, r)
                return


def register_allocation(program: Program, *, sgpr_limit: int | None = None,
                        vgpr_limit: int | None = None) -> None:
    """Assign registers to every temp (see module docstring). `sgpr_limit` /
    `vgpr_limit` shrink the general register ranges (tests, occupancy targets)."""
    _Allocator(program, sgpr_limit, vgpr_limit).run()
