"""Pre-RA instruction scheduling (ACO's README.md "Instruction Scheduling").

The seed: "the implemented scheduler does not completely re-schedule all
instructions, but only aims to move up memory loads as far as possible without
exceeding the maximum register limit for the pre-calculated wave count". The
algorithm is the one of ACO's aco_scheduler.cpp (facts and heuristics, own code):
for every memory load of a block's logical part (SMEM, VMEM/FLAT, LDS), in order,

1. *move the load up*: walk the instructions above it (``window``); each one
   that may be reordered with the load and the instructions kept with it (the
   *cluster*) is moved below the cluster; one that may not (it defines a value
   the cluster reads, it reads a value the cluster kills, a memory-ordering or
   fixed-register conflict) joins the cluster. VMEM loads that form a clause with
   the load (same encoding, FLAT-like or same descriptor) are moved next to it
   instead (ACO's clause grabbing, within ``2 * wave factor + moves``);
2. *move its first uses down*: below the load, find the first instruction that
   depends on it; independent instructions after it are moved above it.

Nothing crosses a barrier instruction (`sched_info`: ``p_barrier``, exec writes,
SOPP, messages, waits, exports ...), p_logical_start/end (only the logical part
is scheduled), or changes the order of two memory accesses of possibly the same
storage of which one writes; loads of different units follow ACO's rules (no
VMEM moved below a descriptor load or far below an SMEM load, no LDS used to
hide SMEM latency, no descriptor load moved below an address load).

Register pressure: each move is checked against the registers of the target
wave count: the program's own occupancy (`Target.waves_per_simd` of the
live_var_analysis demand), so the scheduler never lowers occupancy. ACO's policy
(``wave_fac = physical VGPRs / 256``; occupancy lowered to 5-7 wave_fac only
above 5 wave_fac waves) keeps the program's waves on every RDNA wave32 target;
on wave64 it could lower them and radcc does not. VGPRs keep ACO's margin of 2.
The per-instruction demand is updated exactly as instructions move (the moved
instruction's live-range change is applied to the instructions it passes), and
moves that would change which instruction kills a temp are refused, so kill
flags stay true. The liveness is made current at the end from those demands
(`liveness_after_reorder`: a reordering changes no live set), not analysed again:
the RA sees true kill flags and demand. The register allocator may need more VGPRs than the demand
(measured: std450_matrix wave64, demand 57 allocated in 69 VGPRs, one wave less):
when the scheduled demand comes within ``RA_SLACK`` VGPRs of the wave boundary and
exceeds the original demand, the block order is restored and scheduled again with
the original VGPR demand as the limit; a program whose demand is already within
``RA_SLACK`` of the boundary is not scheduled (std450_matrix wave64: the same demand
of 53 allocated in 58 VGPRs unscheduled, 65 scheduled). If the program would have fewer waves after scheduling than
its target (a bug), the original order is restored.

The window sizes and move limits are ACO's, as functions of the wave factor
``waves / wave_fac`` (SMEM 350-35n / 64-4n, VMEM 1024-64n / 256-16n, LDS 64 / 32).
On targets with ``NSAClauseBug`` MIMG loads are not grabbed into clauses.

Cost: the windows bound each load's walks, but a long series of loads makes each
walk pass what the previous one moved (every earlier load grabbed into the clause
again, every earlier independent instruction moved below the load again). A walk
reuses the previous walk's findings where they provably hold (`_Memo`: a clean tail
where nothing moves; `_Run`: the instructions it moved below its load and the loads
it grabbed, moved again as a whole when every member's checks pass as a group) and
`move_uses_down` finds the first use at C speed, so such a series costs list
rotations per load, not a Python step per instruction passed. The order and the
demand are exactly those of the one-by-one walk.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import TypeVar

from radcc.ir.program import Block, Instruction, Program, RegisterDemand
from radcc.passes.live_var_analysis import (
    get_live_vars,
    live_var_analysis,
    liveness_after_reorder,
)
from radcc.passes.sched_info import SchedInfo, classify, may_load
from radcc.target import Hazard


@dataclass
class Policy:
    """The register limit and heuristic sizes of one program."""

    waves: int  # target waves per SIMD
    factor: int  # ACO's num_waves after dividing by wave_fac (window/move sizes)
    max_regs: RegisterDemand

    @property
    def smem_window(self) -> int:
        return max(350 - self.factor * 35, 1)

    @property
    def smem_moves(self) -> int:
        return max(64 - self.factor * 4, 1)

    @property
    def vmem_window(self) -> int:
        return max(1024 - self.factor * 64, 1)

    @property
    def vmem_moves(self) -> int:
        return max(256 - self.factor * 16, 1)

    @property
    def clause_grab(self) -> int:
        return self.factor * 2

    lds_window: int = 64
    lds_moves: int = 32


def max_vgprs_for_waves(program: Program, waves: int) -> int:
    """The most VGPRs a wave may use with `waves` waves per SIMD."""
    rf = program.target.regfile(program.wave_size)
    g = rf.vgpr_alloc_granule
    return min(rf.addressable_vgprs, rf.total_vgprs // max(waves, 1) // g * g)


def max_sgprs_for_waves(program: Program, waves: int) -> int:
    """The most SGPRs a wave may use with `waves` waves per SIMD (GFX10+: all)."""
    t = program.target
    if t.waves_per_simd(0, t.addressable_sgprs, program.wave_size) >= waves:
        return t.addressable_sgprs
    g = t.sgpr_alloc_granule
    return min(t.addressable_sgprs, 800 // max(waves, 1) // g * g)


def make_policy(program: Program, demand: RegisterDemand) -> Policy:
    """Target waves = the program's occupancy for `demand`; ACO's sizes."""
    t = program.target
    rf = t.regfile(program.wave_size)
    wave_fac = max(rf.total_vgprs // 256, 1)
    waves = max(t.waves_per_simd(demand.vgpr, demand.sgpr, program.wave_size), 1)
    factor = max(waves // wave_fac, 1)
    regs = RegisterDemand(max_sgprs_for_waves(program, waves),
                          max_vgprs_for_waves(program, waves) - 2)
    return Policy(waves, factor, regs)


class _Region:
    """The logical part [start, end) of a block with per-instruction facts:
    ``las[i]``/``lav[i]`` the SGPR/VGPR dwords live after instruction i (two parallel
    int lists: the moves' demand arithmetic is on plain ints, not `RegisterDemand`
    objects built per candidate and per shifted instruction)."""

    def __init__(self, program: Program, block: Block, demands: list[RegisterDemand],
                 start: int, end: int) -> None:
        instrs = self.instrs = block.instructions
        # only the region's instructions are classified: no walk passes its bounds (a
        # barrier stands for the instructions outside, which no walk reads)
        info = self.info = [_OUTSIDE] * len(instrs)
        info[start:end] = [classify(program, i) for i in instrs[start:end]]
        self.las = [d.sgpr - inf.temps.sgpr for d, inf in zip(demands, self.info, strict=True)]
        self.lav = [d.vgpr - inf.temps.vgpr for d, inf in zip(demands, self.info, strict=True)]
        self.start = start
        self.end = end
        self.moved = False  # whether an instruction has moved
        # the last upward walk's clean tail (see `_Sched.move_up`), dropped when a move
        # touches its positions
        self.memo: _Memo | None = None
        # the run the last upward walk moved below its load (see `_Run`), dropped when a
        # move or a demand shift touches its positions or anything above them
        self.run: _Run | None = None
        # the loads the last upward walk grabbed into its clause block (see `_Run`),
        # dropped likewise
        self.crun: _Run | None = None

    def touch(self, low: int) -> None:
        """Drop the memos a change of the positions from `low` down invalidates."""
        memo = self.memo
        if memo is not None and low <= memo.pos:
            self.memo = None
        run = self.run
        if run is not None and low <= run.bot:
            self.run = None
        run = self.crun
        if run is not None and low <= run.bot:
            self.crun = None

    def move(self, src: int, dst: int, las: int, lav: int) -> None:
        """Move instruction src to index dst (index after removal) with live-after
        (las, lav)."""
        self.moved = True
        self.touch(src if src < dst else dst)
        # rotate the slice between the two places: the moves stay inside a window,
        # so this costs the distance, not the block's length (pop/insert shifts the
        # whole tail: quadratic on long blocks)
        ins, inf, ls, lv = self.instrs, self.info, self.las, self.lav
        if src > dst:
            ins[dst:src + 1] = [ins[src], *ins[dst:src]]
            inf[dst:src + 1] = [inf[src], *inf[dst:src]]
            ls[dst + 1:src + 1] = ls[dst:src]
            lv[dst + 1:src + 1] = lv[dst:src]
        elif src < dst:
            ins[src:dst + 1] = [*ins[src + 1:dst + 1], ins[src]]
            inf[src:dst + 1] = [*inf[src + 1:dst + 1], inf[src]]
            ls[src:dst] = ls[src + 1:dst + 1]
            lv[src:dst] = lv[src + 1:dst + 1]
        ls[dst] = las
        lv[dst] = lav

    def shift(self, lo: int, hi: int, ds: int, dv: int) -> None:
        """Add (ds, dv) to the live-after demand of instructions [lo, hi)."""
        self.touch(lo)
        if ds:
            la = self.las
            la[lo:hi] = [x + ds for x in la[lo:hi]]
        if dv:
            la = self.lav
            la[lo:hi] = [x + dv for x in la[lo:hi]]


    def move_run(self, run: _Run, ins: int, las: int, lav: int) -> None:
        """Move `run` (at [run.top, run.bot], above `ins`) to just before `ins`, as
        `_Sched.move_up` moves its instructions one by one, bottom first, each to just
        before `ins` with the live-after (las, lav) the instruction at ``ins - 1`` has
        then: the instructions between move up by the run's length and lose its demand
        change, the run keeps its internal differences (see `_Run`)."""
        top, bot = run.top, run.bot
        self.moved = True
        self.touch(top)
        ins_, inf = self.instrs, self.info
        ins_[top:ins] = ins_[bot + 1:ins] + ins_[top:bot + 1]
        inf[top:ins] = inf[bot + 1:ins] + inf[top:bot + 1]
        ls, lv = self.las, self.lav
        ds, dv = run.ds, run.dv
        es, ev = las - ls[bot], lav - lv[bot]
        ls[top:ins] = [x - ds for x in ls[bot + 1:ins]] + [x + es for x in ls[top:bot + 1]]
        lv[top:ins] = [x - dv for x in lv[bot + 1:ins]] + [x + ev for x in lv[top:bot + 1]]


_BIG = 1 << 30
# `_Region.info` of the instructions outside the region
_OUTSIDE = SchedInfo("barrier")
_T = TypeVar("_T")
_USES = attrgetter("uses")
_KIND = attrgetter("kind")


def _absorb(a: set[_T], b: set[_T]) -> set[_T]:
    """The union of a and b, made in the larger of the two."""
    if len(b) > len(a):
        a, b = b, a
    if b:
        a |= b
    return a


class _Run:
    """Instructions an upward walk moved below its load, in the order the walk moved
    them (bottom first): the union of their temp and fixed-register sets, whether
    any is a memory access, and their demand changes as sums ``ds``/``dv`` with the
    least prefix sum ``mps``/``mpv`` and the largest ``temps - (sum before)``
    ``mts``/``mtv`` (what `_Sched.move_up`'s limit checks read). A later walk moves
    the whole run at once when it reaches its bottom (`top`..`bot`, the positions
    after the walk) and every one of those checks passes for every member: the
    moves and the demand are then those of moving each member in turn. The live-after
    demand of the members differs by their prefix sums in either case, so moving the
    run shifts them all by one amount."""

    __slots__ = ("top", "bot", "n", "uses", "defs", "kills", "storage", "freads",
                 "fwrites", "mem", "ds", "dv", "mps", "mpv", "mts", "mtv", "members", "key")

    def __init__(self, key: tuple[object, ...] = ()) -> None:
        self.top = self.bot = -1
        self.n = 0
        self.key = key  # a clause run's load key (`_clause_key`)
        self.members: list[SchedInfo] = []  # a clause run's members, in the walk's order
        self.uses: set[int] = set()
        self.defs: set[int] = set()
        self.kills: set[int] = set()
        self.storage: set[str] = set()
        self.freads: set[int] = set()
        self.fwrites: set[int] = set()
        self.mem = False
        self.ds = self.dv = 0
        self.mps = self.mpv = _BIG
        self.mts = self.mtv = -_BIG

    def push(self, c: SchedInfo, dfs: int, dfv: int) -> None:
        """c moved next (above the members so far)."""
        self.n += 1
        if c.uses:
            self.uses |= c.uses
        if c.defs:
            self.defs.update(c.defs)
        if c.kills:
            self.kills |= c.kills
        if c.storage:
            self.storage |= c.storage
        if c.fixed_reads:
            self.freads |= c.fixed_reads
        if c.fixed_writes:
            self.fwrites |= c.fixed_writes
        if c.kind != "alu":
            self.mem = True
        t = c.temps
        x = t.sgpr - self.ds
        if x > self.mts:
            self.mts = x
        x = t.vgpr - self.dv
        if x > self.mtv:
            self.mtv = x
        self.ds += dfs
        self.dv += dfv
        if self.ds < self.mps:
            self.mps = self.ds
        if self.dv < self.mpv:
            self.mpv = self.dv

    def extend(self, o: _Run) -> None:
        """The run o moved next, as a whole."""
        self.n += o.n
        # the larger set absorbs the smaller (o is consumed): a run moved again and
        # again by a long series of walks is not copied each time
        self.uses = _absorb(self.uses, o.uses)
        self.defs = _absorb(self.defs, o.defs)
        self.kills = _absorb(self.kills, o.kills)
        self.storage = _absorb(self.storage, o.storage)
        self.freads = _absorb(self.freads, o.freads)
        self.fwrites = _absorb(self.fwrites, o.fwrites)
        self.mem = self.mem or o.mem
        self.members += o.members
        self.mts = max(self.mts, o.mts - self.ds)
        self.mtv = max(self.mtv, o.mtv - self.dv)
        self.mps = min(self.mps, self.ds + o.mps)
        self.mpv = min(self.mpv, self.dv + o.mpv)
        self.ds += o.ds
        self.dv += o.dv


class _Cluster:
    """Instructions a candidate would pass: the values they read/define/kill, their
    memory accesses and fixed registers."""

    __slots__ = ("uses", "defs", "kills", "mem_reads", "mem_writes", "freads", "fwrites",
                 "members", "ids")

    def __init__(self) -> None:
        self.uses: set[int] = set()
        self.defs: set[int] = set()
        self.kills: set[int] = set()
        self.mem_reads: set[str] = set()
        self.mem_writes: set[str] = set()
        self.freads: set[int] = set()
        self.fwrites: set[int] = set()
        self.members: list[SchedInfo] = []  # in the order added
        self.ids: set[int] = set()  # id() of the members

    def add(self, c: SchedInfo) -> None:
        self.members.append(c)
        self.ids.add(id(c))
        # most sets are empty: skipping them is most of the cost of a join
        if c.uses:
            self.uses |= c.uses
        if c.defs:
            self.defs.update(c.defs)
        if c.kills:
            self.kills |= c.kills
        if c.kind == "mem":
            (self.mem_writes if c.write else self.mem_reads).update(c.storage)
        if c.fixed_reads:
            self.freads |= c.fixed_reads
        if c.fixed_writes:
            self.fwrites |= c.fixed_writes

    def add_run(self, run: _Run) -> None:
        """Add a clause run's members (loads, no writes) in their order."""
        self.members += run.members
        self.ids.update(map(id, run.members))
        self.uses |= run.uses
        self.defs |= run.defs
        self.kills |= run.kills
        self.mem_reads |= run.storage
        self.freads |= run.freads
        self.fwrites |= run.fwrites

    def ordered(self, c: SchedInfo) -> bool:
        """Memory or fixed-register order between c and the cluster."""
        if c.kind == "mem" and (c.storage & self.mem_writes
                                or (c.write and c.storage & self.mem_reads)):
            return True
        return bool(c.fixed_writes & (self.freads | self.fwrites)
                    or c.fixed_reads & self.fwrites)

    def prefix(self, k: int) -> _Cluster:
        """The cluster of the first k members added (itself when that is all of them:
        the walk that asks drops its cluster)."""
        if k == len(self.members):
            return self
        new = _Cluster()
        for c in self.members[:k]:
            new.add(c)
        return new

    def covers(self, other: _Cluster) -> bool:
        """Whether every set of `other` is a subset of this cluster's."""
        return (self.uses >= other.uses and self.defs >= other.defs
                and self.kills >= other.kills and self.mem_reads >= other.mem_reads
                and self.mem_writes >= other.mem_writes and self.freads >= other.freads
                and self.fwrites >= other.fwrites)


class _Memo:
    """A clean tail of an upward walk (see `_Sched.move_up`): from `pos` up to where
    the walk stopped (a barrier, the region's start, or another clean tail) it moved
    nothing; `cl` is its cluster at `pos`, `off` and `moves` its clause block's
    distance (``cl_ins - pos``) and move count there, `clauses` whether it grabbed a
    load into the clause block in the tail, `ok` the most moves for which its clause
    decisions hold, `key` what `_clause_pair` and the unit
    rules read of its load."""

    __slots__ = ("pos", "full", "k", "cl", "key", "off", "moves", "clauses", "ok")

    def __init__(self, pos: int, full: _Cluster, k: int, key: tuple[object, ...], off: int,
                 moves: int, clauses: bool, ok: int) -> None:
        self.pos = pos
        # the walk's cluster and its member count at `pos` (the walk is over: nothing
        # changes it any more); the cluster at `pos` is built only when asked
        self.full = full
        self.k = k
        self.cl: _Cluster | None = None
        self.key = key
        self.off = off
        self.moves = moves
        self.clauses = clauses
        # the most moves a walk may have made for the tail's clause decisions to be
        # the same: a VMEM candidate too far for a clause at `moves` stays too far
        # (its distance is at least ``clause_grab + moves``) up to this count
        self.ok = ok

    def covered_by(self, cl: _Cluster) -> bool:
        """Whether `cl` holds the cluster at `pos`: it has all of its members (the
        cheap test), or its sets hold that cluster's sets."""
        if all(map(cl.ids.__contains__, map(id, self.full.members[:self.k]))):
            return True
        if self.cl is None:
            self.cl = self.full.prefix(self.k)
        return cl.covers(self.cl)


def _clause_key(a: SchedInfo) -> tuple[object, ...]:
    """What the unit rules of `_Sched.move_up` and `_clause_pair` read of the load a."""
    if a.enc in ("FLAT", "GLOBAL", "SCRATCH") or a.unit == "ds":
        return (a.unit, a.enc, a.write)
    if a.unit == "smem":
        return (a.unit, a.enc, a.write, a.sbase_size)
    return (a.unit, a.enc, a.write, a.first_src)


def _clause_pair(program: Program, a: SchedInfo, b: SchedInfo) -> bool:
    """ACO's should_form_clause for two loads."""
    if a.write or b.write or a.unit != b.unit or a.enc != b.enc:
        return False
    if a.enc == "MIMG" and program.target.has_hazard(Hazard.NSAClauseBug):
        return False
    if a.enc in ("FLAT", "GLOBAL", "SCRATCH") or a.unit == "ds":
        return True
    if a.unit == "smem":
        return a.sbase_size == 2 and b.sbase_size == 2
    return a.first_src != 0 and a.first_src == b.first_src


class _Sched:
    def __init__(self, program: Program, policy: Policy) -> None:
        self.p = program
        self.pol = policy
        self.limit = policy.max_regs
        self.moves = 0

    # -- step 1: move the load up -------------------------------------------------------
    def move_up(self, r: _Region, idx: int, window: int, max_moves: int) -> int:
        """Move instructions above the load at idx below it; returns its new index.

        A walk that reaches the position where an earlier walk's clean tail begins
        (`_Memo`: from there up that walk moved nothing: every candidate joined its
        cluster or, already next to it, its clause block, and it ended at a barrier,
        the region's start or another clean tail) stops there when nothing at or above
        that position has moved since, its load has the same unit, encoding, SMEM base
        size and first source (what the unit rules and `_clause_pair` read), its cluster
        holds the earlier one, and its clause rule decides as the earlier walk's did
        (the same clause distance and move count, or no clause in the tail and none
        possible any more). Conflicts only grow with the cluster, so it would join or
        grab every candidate up to the same stop, or break sooner, and move nothing.
        Without this each load of a long run of loads walks the whole run (the walks'
        work grew with the block, not with the load count). A walk made more moves than
        the earlier one may stop there too while no VMEM candidate of the tail that was
        too far for a clause comes within reach (`_Memo.ok`).

        A walk that reaches the bottom of the run the previous walk moved below its
        load (`_Run`, untouched since) moves the whole run at once when every member's
        checks pass (no memory access, no conflict with the cluster, the moves and the
        window left, the register limits at every step): a long series of loads each
        moving the same growing run past itself costs one list rotation per load, not
        one step per member."""
        cur_info = r.info[idx]
        unit = cur_info.unit
        key = _clause_key(cur_info)
        cl = _Cluster()
        cl.add(cur_info)
        cur, ins, cl_ins = idx, idx + 1, idx
        las, lav, infos = r.las, r.lav, r.info
        # demand over the kept (skipped) instructions, and over the clause block and
        # the load: SGPR and VGPR dwords
        cms = cmv = 0
        bms = las[idx] + cur_info.temps.sgpr
        bmv = lav[idx] + cur_info.temps.vgpr
        lim_s, lim_v = self.limit.sgpr, self.limit.vgpr
        cand = idx - 1
        pol = self.pol
        clause_grab = pol.clause_grab
        # the clean tail of this walk so far: where it starts, the cluster's member
        # count, the clause block's distance and the move count there, and whether it
        # grabbed a load into the clause block
        clean_pos, clean_k, clean_off, clean_moves, clean_clauses = cand, 1, 1, 0, False
        clean_ok = _BIG  # the tail's `_Memo.ok`
        memo = r.memo
        memo_pos = memo.pos if memo is not None and memo.key == key else -1
        old = r.run  # the run the previous walk moved (see `_Run`)
        run_bot = old.bot if old is not None else -1
        run = _Run()  # what this walk moves below the load
        cold = r.crun if unit == "vmem" else None  # the previous walk's clause run
        crun_bot = cold.bot if cold is not None and cold.key == key else -1
        crun = _Run(key)  # the loads this walk grabs into its clause block
        clean_end = False  # whether the walk ended where a tail may be recorded
        while cand >= r.start and idx - cand < window and self.moves < max_moves:
            if cand == memo_pos and r.memo is memo and memo is not None:
                if cl_ins - cand == memo.off and memo.moves <= self.moves <= memo.ok \
                        and memo.covered_by(cl):
                    clean_end = True
                    clean_clauses = clean_clauses or memo.clauses
                    clean_ok = min(clean_ok, memo.ok)
                    break
                if not memo.clauses and cl_ins - cand >= clause_grab + self.moves \
                        and memo.covered_by(cl):
                    clean_end = True
                    clean_ok = min(clean_ok, cl_ins - cand - clause_grab)
                    break
            if cand == run_bot and r.run is old and old is not None:
                n = old.n
                top = old.top
                # every member: no memory access, no conflict with the cluster, within
                # the window, the moves and the register limits (see `_Run`)
                if (not old.mem and idx - top < window and self.moves + n <= max_moves
                        and not (top <= memo_pos <= cand)
                        and not (old.fwrites & (cl.freads | cl.fwrites)
                                 or old.freads & cl.fwrites)
                        and not (cl.uses & old.defs or old.uses & cl.kills)
                        and max(cms, bms) - old.mps <= lim_s
                        and max(cmv, bmv) - old.mpv <= lim_v
                        and las[ins - 1] + old.mts <= lim_s
                        and lav[ins - 1] + old.mtv <= lim_v):
                    ds, dv = old.ds, old.dv
                    r.move_run(old, ins, las[ins - 1], lav[ins - 1])
                    ins -= n
                    cur -= n
                    cl_ins -= n
                    cms -= ds
                    cmv -= dv
                    bms -= ds
                    bmv -= dv
                    self.moves += n
                    cand = top - 1
                    run.extend(old)
                    clean_pos, clean_k, clean_off, clean_moves, clean_clauses = (
                        cand, len(cl.members), cl_ins - cand, self.moves, False)
                    clean_ok = _BIG
                    continue
            if cand == crun_bot and r.crun is cold and cold is not None \
                    and cand != cl_ins - 1 and cl_ins - cand < clause_grab + self.moves:
                n = cold.n
                top = cold.top
                nls, nlv = las[cl_ins - 1], lav[cl_ins - 1]
                # every member is a clause load of this one (the same key), was checked
                # against the members below it when it was grabbed, and passes the
                # cluster, the window and the register limits (see `_Run`)
                if (idx - top < window and not (top <= memo_pos <= cand)
                        and not cold.storage & cl.mem_writes
                        and not (cold.fwrites & (cl.freads | cl.fwrites)
                                 or cold.freads & cl.fwrites)
                        and not (cl.uses & cold.defs or cold.uses & cl.kills)
                        and cms - cold.mps <= lim_s and cmv - cold.mpv <= lim_v
                        and nls + cold.mts <= lim_s and nlv + cold.mtv <= lim_v):
                    r.move_run(cold, cl_ins, nls, nlv)
                    cl_ins -= n
                    cl.add_run(cold)
                    cms -= cold.ds
                    cmv -= cold.dv
                    x = nls + cold.mts
                    if x > bms:
                        bms = x
                    x = nlv + cold.mtv
                    if x > bmv:
                        bmv = x
                    cand = top - 1
                    crun.extend(cold)
                    clean_pos, clean_k, clean_off, clean_moves, clean_clauses = (
                        cand, len(cl.members), cl_ins - cand, self.moves, False)
                    clean_ok = _BIG
                    continue
            c = infos[cand]
            if c.kind == "barrier":
                clean_end = True
                break
            clause = False
            can_move = True
            if c.kind == "mem":
                if unit == "smem":
                    if c.unit == "vmem" and (ins - cand > pol.factor * 4
                                             or cur_info.sbase_size == 4):
                        break
                    if c.unit == "smem" and cur_info.sbase_size == 4 and c.sbase_size == 2:
                        break
                    if c.unit in ("ds", "smem"):  # no reordering of scalar loads
                        can_move = False
                elif unit == "vmem":
                    if c.unit == "vmem":
                        if cl_ins - cand < clause_grab + self.moves:
                            clause = _clause_pair(self.p, cur_info, c)
                        elif cl_ins - cand - clause_grab < clean_ok:
                            clean_ok = cl_ins - cand - clause_grab
                        can_move = clause or not c.defs
                elif unit == "ds":
                    if c.unit == "ds":
                        break
                    can_move = False
            if can_move and cl.ordered(c):
                can_move = False
                if clause:
                    break
            if can_move and (cl.uses.intersection(c.defs) or c.uses & cl.kills):
                if clause:
                    break
                can_move = False
            if not can_move:
                cl.add(c)
                t = c.temps
                x = las[cand] + t.sgpr
                if x > cms:
                    cms = x
                x = lav[cand] + t.vgpr
                if x > cmv:
                    cmv = x
                cand -= 1
                continue
            diff = c.diff
            dfs, dfv = diff.sgpr, diff.vgpr
            t = c.temps
            if clause:
                if cand == cl_ins - 1:  # already next to the clause
                    cl.add(c)
                    x = las[cand] + t.sgpr
                    if x > bms:
                        bms = x
                    x = lav[cand] + t.vgpr
                    if x > bmv:
                        bmv = x
                    cl_ins = cand
                    clean_clauses = True
                    cand -= 1
                    continue
                nls, nlv = las[cl_ins - 1], lav[cl_ins - 1]
                if (cms - dfs > lim_s or cmv - dfv > lim_v
                        or nls + t.sgpr > lim_s or nlv + t.vgpr > lim_v):
                    break
                r.shift(cand + 1, cl_ins, -dfs, -dfv)
                r.move(cand, cl_ins - 1, nls, nlv)
                cl_ins -= 1
                cl.add(c)  # later candidates pass it on their way below the load
                crun.push(c, dfs, dfv)
                crun.members.append(c)
                cms -= dfs
                cmv -= dfv
                x = las[cl_ins] + t.sgpr
                if x > bms:
                    bms = x
                x = lav[cl_ins] + t.vgpr
                if x > bmv:
                    bmv = x
                cand -= 1
                clean_pos, clean_k, clean_off, clean_moves, clean_clauses = (
                    cand, len(cl.members), cl_ins - cand, self.moves, False)
                clean_ok = _BIG
                continue
            nls, nlv = las[ins - 1], lav[ins - 1]
            if (max(cms, bms) - dfs > lim_s or max(cmv, bmv) - dfv > lim_v
                    or nls + t.sgpr > lim_s or nlv + t.vgpr > lim_v):
                break
            r.shift(cand + 1, ins, -dfs, -dfv)
            r.move(cand, ins - 1, nls, nlv)
            ins -= 1
            cur -= 1
            cl_ins -= 1
            cms -= dfs
            cmv -= dfv
            bms -= dfs
            bmv -= dfv
            self.moves += 1
            cand -= 1
            run.push(c, dfs, dfv)
            clean_pos, clean_k, clean_off, clean_moves, clean_clauses = (
                cand, len(cl.members), cl_ins - cand, self.moves, False)
            clean_ok = _BIG
        else:
            clean_end = cand < r.start
        if clean_end:
            r.memo = _Memo(clean_pos, cl, clean_k, key, clean_off, clean_moves,
                           clean_clauses, clean_ok)
        if run.n:
            # the moved instructions lie in order between the load and where the walk
            # began; nothing has touched them since they moved
            run.top, run.bot = ins, idx
            r.run = run
        if crun.n:
            # the grabbed loads top the clause block, in order
            crun.top, crun.bot = cl_ins, cl_ins + crun.n - 1
            r.crun = crun
        return cur

    # -- step 2: move the first uses down -----------------------------------------------
    def move_uses_down(self, r: _Region, cur: int, window: int, max_moves: int) -> None:
        """Move independent instructions after the load's first use above that use."""
        deps = set(r.info[cur].defs)
        if not deps:
            return
        cl = _Cluster()
        found = False
        ins = -1
        las, lav, infos = r.las, r.lav, r.info
        rms = rmv = 0  # demand over the kept range: SGPR and VGPR dwords
        lim_s, lim_v = self.limit.sgpr, self.limit.vgpr
        j = cur + 1
        # up to the first use the walk only passes instructions (a move each, a barrier
        # ends it): find that use among the instructions the window and the moves
        # leave at C speed, not one step at a time
        hi = min(r.end, cur + window, j + max_moves - self.moves)
        if hi <= j:
            return
        seg = infos[j:hi]
        free = list(map(deps.isdisjoint, map(_USES, seg)))
        try:
            f = free.index(False)
        except ValueError:
            f = len(seg)
        kinds = list(map(_KIND, seg[:f + 1]))
        if "barrier" in kinds or f == len(seg):
            return  # a barrier up to the first use, or no use within reach
        self.moves += f
        j += f
        while j < r.end and j - cur < window and self.moves < max_moves:
            c = infos[j]
            if c.kind == "barrier":
                break
            is_dep = bool(deps.intersection(c.uses))
            if is_dep and not found and c.unit == "vmem":
                break  # the next VMEM load is scheduled on its own
            if found and not is_dep and cl.ordered(c):
                is_dep = True
            if is_dep and not found:
                found = True
                ins = j
            if not found:
                self.moves += 1
                j += 1
                continue
            if is_dep or c.kills & cl.uses:
                if is_dep and c.unit == "vmem" and deps.intersection(c.uses):
                    break
                cl.add(c)
                deps.update(c.defs)
                t = c.temps
                x = las[j] + t.sgpr
                if x > rms:
                    rms = x
                x = lav[j] + t.vgpr
                if x > rmv:
                    rmv = x
                j += 1
                continue
            diff = c.diff
            dfs, dfv = diff.sgpr, diff.vgpr
            t = c.temps
            nls, nlv = las[ins - 1] + dfs, lav[ins - 1] + dfv
            if (rms + dfs > lim_s or rmv + dfv > lim_v
                    or nls + t.sgpr > lim_s or nlv + t.vgpr > lim_v):
                break
            r.shift(ins, j, dfs, dfv)
            r.move(j, ins, nls, nlv)
            ins += 1
            rms += dfs
            rmv += dfv
            self.moves += 1
            j += 1

    def block(self, block: Block, demands: list[RegisterDemand]) -> bool:
        """Schedule one block; whether an instruction moved."""
        instrs = block.instructions
        start = next((k for k, i in enumerate(instrs) if i.opcode == "p_logical_start"), -1)
        if start < 0:
            return False
        end = next((k for k in range(start + 1, len(instrs))
                    if instrs[k].opcode == "p_logical_end"), len(instrs))
        prog = self.p
        if not any(may_load(prog, instrs[k]) for k in range(start + 1, end)):
            return False  # no load to schedule: the facts of the region are not needed
        r = _Region(prog, block, demands, start + 1, end)
        pol = self.pol
        for idx in range(r.start, r.end):
            c = r.info[idx]
            if not c.is_load:
                continue
            self.moves = 0
            if c.unit == "smem":
                w, m = pol.smem_window, pol.smem_moves
            elif c.unit == "vmem":
                w, m = pol.vmem_window, pol.vmem_moves
            else:
                w, m = pol.lds_window, pol.lds_moves
            cur = self.move_up(r, idx, w, m)
            self.move_uses_down(r, cur, w, m)
        if r.moved:  # the demand during each instruction, as the moves left it
            las, lav, info = r.las, r.lav, r.info
            for i in range(r.start, r.end):
                t = info[i].temps
                demands[i] = RegisterDemand(las[i] + t.sgpr, lav[i] + t.vgpr)
        return r.moved


def schedule_program(program: Program, policy: Policy | None = None) -> None:
    """Schedule every block's logical part (see the module docstring); afterwards the
    liveness, kill flags and register demand of live_var_analysis are current.
    `policy` overrides the register limit and sizes (tests)."""
    lv = get_live_vars(program)
    demand = RegisterDemand()
    for b in program.blocks:
        demand = demand.max(b.register_demand)
    if policy is None:
        policy = make_policy(program, demand)
    t = program.target
    if t.waves_per_simd(demand.vgpr + RA_SLACK, demand.sgpr, program.wave_size) < policy.waves:
        return  # already at the wave boundary: any new order risks the RA's overhead
    saved: list[list[Instruction]] = [list(b.instructions) for b in program.blocks]
    _run(program, policy, lv)
    new = get_live_vars(program).max_demand
    waves = policy.waves
    if new.vgpr > demand.vgpr and t.waves_per_simd(new.vgpr + RA_SLACK, new.sgpr,
                                                   program.wave_size) < waves:
        # close to the wave boundary: the RA's own overhead could cost a wave; keep
        # the program's VGPR demand where it was
        _restore(program, saved)
        tight = Policy(waves, policy.factor,
                       RegisterDemand(policy.max_regs.sgpr, min(demand.vgpr,
                                                                policy.max_regs.vgpr)))
        _run(program, tight, get_live_vars(program))
    if get_live_vars(program).waves_per_simd < min(waves, lv.waves_per_simd):
        _restore(program, saved)


# VGPRs the register allocator may need beyond the demand (vector alignment, copies)
# before the scheduler stops raising the demand towards the wave boundary.
RA_SLACK = 8


def _run(program: Program, policy: Policy, lv) -> None:  # type: ignore[no-untyped-def]
    sched = _Sched(program, policy)
    demands = [list(lv.register_demand[b.index]) for b in program.blocks]
    moved = False
    for b in program.blocks:
        moved |= sched.block(b, demands[b.index])
    if moved:  # otherwise the program and its liveness are those of `lv`
        liveness_after_reorder(program, lv, demands)


def _restore(program: Program, saved: list[list[Instruction]]) -> None:
    for b, instrs in zip(program.blocks, saved, strict=True):
        b.instructions[:] = instrs
    live_var_analysis(program)
