"""Dispatching a kernel: workgroups, waves, initial state, scheduling, barriers.

Initial wave state follows AMDGPUUsage "Initial kernel execution state" and the
kernel descriptor (ISA guide 3.x), read as shader arguments
(`radcc.abi.amdhsa.from_descriptor`): user SGPRs from s0 (dispatch ptr, queue ptr,
kernarg segment ptr, dispatch id, private segment size, as enabled), then from
s[USER_SGPR_COUNT] the system SGPRs (workgroup id x/y/z, workgroup info); v0
holds the work-item ids packed as GFX11 does (x [9:0], y [19:10], z [29:20]), or, on
GFX10, v0, v1, v2 hold x, y, z (as many as the descriptor enables);
EXEC has one bit per valid work-item; MODE comes from COMPUTE_PGM_RSRC1.

Workgroups run one after another; the waves of a workgroup are scheduled
round-robin (a quantum of instructions each), and `s_barrier` holds a wave until
every wave of its workgroup that has not ended reaches the barrier.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from radcc.abi import amdhsa
from radcc.abi.args import ArgKind, RegFile
from radcc.emu import ds, graphics, hard_clause, interp, salu, smem, texture, vmem, vop
from radcc.emu.decode import Inst, Program
from radcc.emu.errors import EmuError, InstructionLimit, KernelFault, UnsupportedInstruction
from radcc.emu.loader import LoadedKernel
from radcc.emu.memory import Memory
from radcc.emu.state import EXEC_HI, EXEC_LO, SHARED_BASE_HI, Wave, Workgroup
from radcc.emu.strict import EXEC_REGS, Report, Strict
from radcc.emu.use import VALU_CLASSES, compute_use
from radcc.target import Hazard, Target

Handler = Callable[[Wave, Inst], None]

_BINDERS: dict[str, Callable[[Inst], Handler]] = {
    **salu.BINDERS, **smem.BINDERS, **vmem.BINDERS, **ds.BINDERS, **vop.BINDERS,
    **texture.BINDERS, **graphics.BINDERS, **interp.BINDERS,
}


def bind(i: Inst) -> None:
    binder = _BINDERS.get(i.enc)
    if binder is None:
        what = {"VINTERP": "interpolation", "VINTRP": "interpolation"}.get(
            i.enc, i.enc)
        raise UnsupportedInstruction(
            f"{i.where()}: {what} instructions ({i.enc}) are not supported by the emulator")
    i.handler = binder(i)


# emulator resource limit (not an ISA one): scratch bytes backed per lane
_MAX_SCRATCH_PER_LANE = 1 << 20


class Block:
    """A straight-line run of instructions (only the last may branch or stop the wave).
    `active` leaves out the idle ones (Dispatcher._idle), which are counted but not run.
    Executions are counted per block (`runs`) and credited to each instruction's `count`
    when the dispatch collects its counters."""

    __slots__ = ("insts", "active", "runs", "next_pc", "size", "valus")

    def __init__(self, insts: tuple[Inst, ...], active: list[Inst]) -> None:
        self.insts = insts
        self.active = tuple(active)
        self.runs = 0
        self.next_pc = insts[-1].next_pc
        self.size = len(insts)
        # VALUs of a block where no instruction writes EXEC (its VALU lane-instructions are
        # EXEC's lanes at the start times this), else -1: counted per VALU as it runs
        # (s_movreld writes the SGPR at dst + M0: any, EXEC included)
        stable = not any(i.use is None or i.use.swrites & EXEC_REGS
                         or i.name.startswith("s_movreld") for i in insts)
        self.valus = sum(i.valu for i in insts) if stable else -1


@dataclass
class Counters:
    instructions: int = 0
    lane_instructions: int = 0
    waves: int = 0
    workgroups: int = 0
    by_class: dict[str, int] = field(default_factory=dict)


def _mode_from_rsrc1(d: dict[str, int]) -> int:
    """MODE register: FP_ROUND [3:0], FP_DENORM [7:4], DX10_CLAMP [8], IEEE [9]."""
    return (d.get("float_round_mode_32", 0) | d.get("float_round_mode_16_64", 0) << 2
            | d.get("float_denorm_mode_32", 0) << 4 | d.get("float_denorm_mode_16_64", 3) << 6
            | d.get("dx10_clamp", 1) << 8 | d.get("ieee_mode", 1) << 9)


class Dispatcher:
    """Runs one kernel dispatch over a grid of workgroups."""

    def __init__(self, kernel: LoadedKernel, target: Target, memory: Memory,
                 groups: tuple[int, int, int], block: tuple[int, int, int], kernarg_addr: int,
                 *, dispatch_ptr: int = 0,
                 queue_ptr: int = 0, strict: bool = True, hazards: bool = True,
                 max_instructions: int = 50_000_000, quantum: int = 64,
                 dynamic_lds: int = 0, progress: Callable[[int, int], None] | None = None,
                 ) -> None:
        self.k = kernel
        self.memory = memory
        self.groups = groups
        self.block = block
        self.kernarg = kernarg_addr
        self.dispatch_ptr = dispatch_ptr
        self.queue_ptr = queue_ptr
        self.strict = strict
        self.hazards = hazards
        self.max_instructions = max_instructions
        self.quantum = quantum
        self.progress = progress
        self.wave_size = kernel.wave_size
        d = kernel.descriptor
        self.lds_size = d.get("group_segment_fixed_size", 0) + dynamic_lds
        if self.lds_size > 65536:
            raise EmuError(f"kernel needs {self.lds_size} bytes of LDS (GFX11 has 65536)")
        scratch = d.get("private_segment_fixed_size", 0)
        if d.get("uses_dynamic_stack"):
            scratch += 16384
        self.scratch = (scratch + 3) & ~3
        if self.scratch > _MAX_SCRATCH_PER_LANE:  # e.g. a corrupt descriptor: no 64 GiB array
            raise EmuError(f"kernel needs {self.scratch} bytes of scratch per lane; the "
                           f"emulator allocates at most {_MAX_SCRATCH_PER_LANE}")
        self.mode = _mode_from_rsrc1(d)
        self.args = amdhsa.from_descriptor(d, target)
        self.target = target
        self.gfx11_hazards = Hazard.VALUTransUseHazard in target.hazards
        self.wgp_mode = bool(d.get("workgroup_processor_mode", 1))
        self.program = Program(memory, target, self.wave_size)
        self.program.bind = self._bind
        self.report = Report()
        self.counters = Counters()
        self.blocks: dict[int, Block] = {}  # straight-line runs by start pc
        self.cut_blocks: dict[tuple[int, int], Block] = {}  # by start pc and quantum left
        self._vgpr_pool: list[tuple[np.ndarray, list[np.ndarray]]] = []

    def _bind(self, i: Inst) -> None:
        bind(i)
        i.flow = i.info.cls == "branch" or getattr(i.handler, "ends_block", False)
        hard_clause.install(self.program.at, i)  # strict check of s_clause
        i.valu = i.info.cls in VALU_CLASSES
        i.use = u = compute_use(i, self.wave_size)
        i.aux["use"] = i.use
        i.next_pc = i.pc + i.size
        cls = i.info.cls
        if self.strict and self.hazards and not self.gfx11_hazards:
            # GFX10.1: the GFX10 hazards look at every instruction (radcc.emu.strict_gfx10);
            # GFX10.3 has none to check
            i.hz_before = i.hz_after = bool(self.target.hazards)
        elif self.strict and self.hazards:
            # when Strict._hazards_before / Strict.after can do anything for this instruction
            i.hz_before = u.permlane or u.valu or (u.salu and bool(u.sreads)) or cls == "ldsdir"
            if u.valu and not u.permlane and self.wave_size == 32 and cls != "wmma":
                # wave32 VALU: VALUMaskWrite and VALUPartialForwarding are wave64-only, so
                # only VALUTransUse applies, when Strict.trans_writes is not empty (and
                # WMMAHazard to a WMMA)
                i.hz_before = False
                i.hz_trans = bool(u.vreads)
            i.hz_after = u.valu or u.nop or cls == "exp" or (u.salu and (
                u.call or bool(u.swrites & EXEC_REGS)
                or (bool(u.mask_targets) and self.wave_size == 64 and u.sop)))

    def _idle(self, i: Inst) -> bool:
        """Whether executing `i` changes nothing: a no-effect handler, no VALU lanes to
        count, and (strict) no register for Strict.pending and no hazard state."""
        if not getattr(i.handler, "no_effect", False) or i.valu or i.flow:
            return False
        if not self.strict:
            return True
        u = i.use
        return not (i.hz_before or i.hz_after or u.vreads or u.vwrites or u.sreads
                    or u.swrites)

    def _block(self, pc: int, limit: int) -> Block:
        """The straight-line run of instructions from `pc`: up to the first that may change
        the PC or stop the wave (included), at most `limit` long. Instructions after the
        first are decoded ahead; one that cannot be decoded or bound ends the block before
        it, so its error comes when (and only if) a wave reaches it."""
        at = self.program.at
        first = at(pc)
        out = [first]
        i = first
        while not i.flow and len(out) < limit:
            try:
                i = at(i.next_pc)
            except EmuError:
                break
            out.append(i)
        blk = Block(tuple(out), [i for i in out if not self._idle(i)])
        if limit == self.quantum:
            self.blocks[pc] = blk
        else:
            self.cut_blocks[pc, limit] = blk
        return blk

    # --- initial state ---------------------------------------------------------------
    def _init_wave(self, wg: Workgroup, index: int) -> Wave:
        ws = self.wave_size
        w = Wave(ws, wg, index, self.scratch, self._vgpr_pool.pop() if self._vgpr_pool else None)
        w.memory = self.memory
        # the registers at entry: the descriptor's shader arguments (radcc.abi.amdhsa)
        wg_id = wg.id
        values = {ArgKind.PRIVATE_SEGMENT_BUFFER: vmem.PRIVATE_SEGMENT_VSHARP,
                  ArgKind.DISPATCH_PTR: self.dispatch_ptr, ArgKind.QUEUE_PTR: self.queue_ptr,
                  ArgKind.KERNARG_SEGMENT_PTR: self.kernarg,
                  ArgKind.PRIVATE_SEGMENT_SIZE: self.scratch,
                  ArgKind.WORKGROUP_ID_X: wg_id[0], ArgKind.WORKGROUP_ID_Y: wg_id[1],
                  ArgKind.WORKGROUP_ID_Z: wg_id[2]}
        # others: 0 (dispatch id, workgroup info, flat scratch init, the private segment
        # wave offset: each wave's scratch is its own, `Wave.scratch`)
        for a in self.args.of_file(RegFile.SGPR):
            value = values.get(a.kind, 0)
            for k in range(a.size):
                w.s[a.reg + k] = value >> (32 * k) & 0xFFFFFFFF
        bx, by, bz = self.block
        tid = index * ws + np.arange(ws)
        valid = tid < bx * by * bz
        x, y, z = tid % bx, (tid // bx) % by, tid // (bx * by)
        ids = {ArgKind.LOCAL_INVOCATION_IDS: x | (y << 10) | (z << 20),  # GFX11: packed
               ArgKind.LOCAL_INVOCATION_ID_X: x, ArgKind.LOCAL_INVOCATION_ID_Y: y,
               ArgKind.LOCAL_INVOCATION_ID_Z: z}  # GFX10: one VGPR each
        for a in self.args.of_file(RegFile.VGPR):
            w.v[a.reg] = np.where(valid, ids[a.kind], 0).astype(np.uint32)
        w.exec = Wave.bools_to_mask(valid)
        w.valid_lanes = valid
        w.mode = self.mode
        if self.strict:
            w.strict = Strict(self.report, f"workgroup {wg.id} wave {index}", ws, self.hazards,
                              self.target, self.wgp_mode, SHARED_BASE_HI)
            w.strict.w = w
        return w

    # --- execution ---------------------------------------------------------------------
    def run(self) -> Counters:
        # VALU handlers compute on NumPy lanes where overflow, NaN and division by
        # zero are the modelled results, not errors: ignored once for the dispatch.
        with np.errstate(all="ignore"):
            return self._run()

    def _run(self) -> Counters:
        gx, gy, gz = self.groups
        threads = self.block[0] * self.block[1] * self.block[2]
        nwaves = (threads + self.wave_size - 1) // self.wave_size
        total = gx * gy * gz
        done = 0
        for z in range(gz):
            for y in range(gy):
                for x in range(gx):
                    wg = Workgroup((x, y, z), self.lds_size, nwaves)
                    wg.waves = [self._init_wave(wg, k) for k in range(nwaves)]
                    self._run_workgroup(wg)
                    # the ended waves' VGPR files serve the next workgroup's waves
                    self._vgpr_pool = [(w.v, w.vr) for w in wg.waves]
                    done += 1
                    self.counters.workgroups += 1
                    self.counters.waves += nwaves
                    if self.progress is not None:
                        self.progress(done, total)
        self._collect()
        return self.counters

    def _collect(self) -> None:
        by: dict[str, int] = {}
        for b in (*self.blocks.values(), *self.cut_blocks.values()):
            if b.runs:
                for i in b.insts:
                    i.count += b.runs
            b.runs = 0
        for i in self.program.cache.values():
            if i.count:
                by[i.info.cls or i.enc] = by.get(i.info.cls or i.enc, 0) + i.count
        self.counters.by_class = by

    def _run_workgroup(self, wg: Workgroup) -> None:
        waves = wg.waves
        for w in waves:
            w.pc = self.k.entry
        while True:
            live = [w for w in waves if not w.done]
            if not live:
                return
            runnable = [w for w in live if not w.at_barrier]
            if not runnable:
                for w in live:
                    w.at_barrier = False
                continue
            for w in runnable:
                self._run_wave(w, self.quantum)

    def _run_wave(self, w: Wave, quantum: int) -> None:
        """Run up to `quantum` instructions of `w`, block by block (a block is cut short
        at the quantum, so waves interleave exactly as when stepping one at a time)."""
        blocks = self.blocks
        cut_blocks = self.cut_blocks
        st = w.strict
        c = self.counters
        n = 0
        lanes = 0
        s = w.s
        wave64 = w.size == 64
        if st is not None:  # Strict's tables are only mutated, never rebound
            vpend, spend, trans_writes = st.vpend, st.spend, st.trans_writes
            exp_reads = st.exp_reads
            after_valu = st.after_valu if wave64 else st.after_valu32
            if st.gfx10 is not None:  # GFX10.1: every instruction through Strict.after
                after_valu = st.after
        try:
            while n < quantum and not w.done and not w.at_barrier:
                pc = w.pc
                b = blocks.get(pc) or self._block(pc, self.quantum)
                if b.size > quantum - n:  # cut at the quantum: waves interleave exactly
                    left = quantum - n  # as when stepping one instruction at a time
                    b = cut_blocks.get((pc, left)) or self._block(pc, left)
                blk = b.active
                b.runs += 1
                n += b.size
                w.pc = b.next_pc  # only the last instruction of a block may set the PC
                count_lanes = b.valus < 0
                if b.valus > 0:
                    lanes += b.valus * (s[EXEC_LO].bit_count()
                                        + (s[EXEC_HI].bit_count() if wave64 else 0))
                if st is None:
                    for i in blk:
                        i.handler(w, i)  # type: ignore[misc]
                        if i.valu and count_lanes:
                            lanes += s[EXEC_LO].bit_count()
                            if wave64:
                                lanes += s[EXEC_HI].bit_count()
                    continue
                for i in blk:
                    u = i.use
                    if vpend or spend or exp_reads:
                        st.pending(i, u)
                    if i.hz_before or (i.hz_trans and trans_writes):
                        st._hazards_before(i, u)
                    i.handler(w, i)  # type: ignore[misc]
                    if i.valu:
                        if i.hz_after:
                            after_valu(i, u)
                        if count_lanes:
                            lanes += s[EXEC_LO].bit_count()
                            if wave64:
                                lanes += s[EXEC_HI].bit_count()
                    elif i.hz_after:
                        st.after(i, u)
        except EmuError as e:
            raise KernelFault(f"workgroup {w.wg.id} wave {w.index}: {e}") from None
        finally:
            c.lane_instructions += lanes
        w.count += n
        c.instructions += n
        if c.instructions > self.max_instructions:
            raise InstructionLimit(f"instruction limit of {self.max_instructions} reached "
                           f"(runaway kernel?); wave at pc {w.pc:#x}")
