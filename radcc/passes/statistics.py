"""Statistics of a compiled program: ACO's, defined as ACO defines them, plus radcc's.

`collect_statistics(program, result=None, workgroup_size=None) -> dict[str, int]`
runs on the final program (after lower_to_hw and the wait/hazard passes;
`result` is the `EmitResult` when the code has been emitted; `workgroup_size`
the invocations of one workgroup when known) and stores the dict in
``program.statistics``. The definitions follow Mesa's ACO
(src/amd/compiler/aco_statistics.cpp: collect_preasm_stats,
collect_presched_stats, collect_postasm_stats; RADV reports them through
VK_KHR_pipeline_executable_properties under the names in brackets). Keys, in
order:

- ``Hash`` [Hash]: CRC-32 of the machine code without padding (0 without `result`).
- ``Instructions`` [Instructions]: hardware instructions (pseudo instructions
  left are not counted; ``s_delay_alu``, waits and nops are).
- ``Copies`` [Copies]: the instructions lower_to_hw made of copy pseudo
  instructions (``p_parallelcopy``, ``p_create_vector``, ``p_split_vector``,
  ``p_extract_vector``, ``p_wqm``, ``p_as_uniform`` of SGPRs, ``p_start_linear_vgpr``:
  moves, swaps, the xor/shift sequences of sub-dword copies), as ACO's lower_to_hw
  counts them in handle_operands (``Program.lowered_copies``); moves isel or other
  passes wrote themselves are not copies.
- ``Branches`` [Branches]: SOPP instructions of ACO's class ``branch``
  (``s_branch``, ``s_cbranch_*``).
- ``Latency`` [Latency]: ACO's block cycle estimator (below), the cycles of
  each block weighted by the times it is assumed to run: 8 inside one loop, 32
  inside two, 32 * 2**(depth - 2) deeper; times 0.5 per uniform if around the
  block (its then and else sides: ``Block.uniform_if_depth``) and 0.75 per
  logical side of a divergent if around it (``divergent_if_logical_depth``),
  both set by isel as ACO's isel sets them; times 0.25 for the linear-only side
  of a divergent if (no logical predecessor, its one linear predecessor the
  branch or invert block, one linear successor).
- ``InvThroughput`` [Inverse Throughput]: cycles per wave64 with other waves
  hiding latency: the parallelism is the smallest of the waves per SIMD
  (``WavesPerSIMD``) and Latency / usage of each resource (usage = busy cycles
  of the resource summed as Latency is); 1 / (parallelism / Latency *
  wave_size / 64 * utilisation), utilisation = workgroup size / (workgroup size
  rounded up to whole waves), rounded.
- ``VClause`` [VMEM Clause] / ``SClause`` [SMEM Clause]: clauses of VMEM/FLAT
  (SMEM) instructions with operands: an instruction starts a new one unless it
  follows such instructions without another instruction in between and
  `form_hard_clauses.should_form_clause` joins it to one of them.
- ``PreSGPRs`` [Pre-Sched SGPRs] / ``PreVGPRs`` [Pre-Sched VGPRs]:
  ``program.max_reg_demand`` as live_var_analysis left it before scheduling.
- ``VALU``, ``SALU``, ``VMEM``, ``SMEM``, ``VOPD`` (newer ACO's): VALU
  instructions (VALU encodings, interpolation and VOPD); SALU instructions
  (SOP1/SOP2/SOPC/SOPK, not SOPP nor waits); VMEM/FLAT and SMEM instructions
  with operands; VOPD instructions.
- radcc's: ``SGPRs``, ``VGPRs`` (next free register), ``CodeSize`` (bytes,
  without padding), ``LDS`` (bytes), ``Scratch`` (bytes per lane),
  ``WavesPerSIMD`` (register-limited occupancy, `Target.waves_per_simd`).

The block cycle estimator (ACO's BlockCycleEstimator; numbers from
`radcc.isa.cycle_model`): instructions issue in order, one per cycle. An
instruction first waits for its operands' registers to be ready and for what
its wait implies (``s_waitcnt`` counters: the events beyond the count left;
an instruction that increments a counter waits until it is below its maximum;
``s_endpgm`` for everything), then for its resources (SALU/SMEM scalar,
branch/message, VALU, complex VALU, LDS, export/GDS, VMEM) to be free; it
keeps each busy for the cycles the model gives. In wave64 a vector
instruction that cannot dual-issue goes through this twice (when the
workgroup is larger than 32). Results are ready after the class latency or
the memory latency (`cycle_model.wait_counter_cycles`). A block starts from
the state its linear predecessors processed earlier left, relative to their
end.
"""

from __future__ import annotations

import zlib
from collections import deque
from dataclasses import dataclass, field

from radcc.ir.program import Block, BlockKind, Instruction, Program
from radcc.isa.classes import SALU_ENCODINGS, VMEM_ENCODINGS
from radcc.isa.cycle_model import (
    VALU_INSTR_CLASSES,
    VECTOR_INSTR_CLASSES,
    InstrClass,
    PerfInfo,
    Resource,
    cycle_model,
    dual_issue_capable,
    instr_class,
    result_latency,
    wait_counter_cycles,
)
from radcc.isa.table import OpInfo
from radcc.passes.access import WAIT_MAX, info_index, is_gds, wait_of
from radcc.passes.form_hard_clauses import should_form_clause
from radcc.target import GfxLevel

__all__ = ["collect_statistics", "block_cycles", "instr_costs", "estimate_blocks",
           "BlockEstimate", "IssueTrace"]

_COUNTERS = ("vm", "exp", "lgkm", "vs")
_NRES = len(Resource)
_SALU_ENCS = SALU_ENCODINGS
_VMEM_ENCS = VMEM_ENCODINGS

def _smem_cached(instr: Instruction, info: OpInfo) -> bool:
    """ACO's guess that an SMEM load hits the scalar cache: a 64-bit base
    (descriptor loads) or constant offsets."""
    srcs = [s for s in info.operands if not s.is_def]
    offsets_const = True
    for spec, op in zip(srcs, instr.operands, strict=False):
        if spec.name == "sbase" and op.rc is not None and op.rc.size == 2:
            return True
        if spec.name in ("offset", "soffset") and op.const is None and not op.is_undef:
            offsets_const = False
    return offsets_const


class _Estimator:
    """One block's cycle estimate (ACO's BlockCycleEstimator)."""

    def __init__(self) -> None:
        self.cur = 0
        self.res_available = [0] * _NRES
        self.res_usage = [0] * _NRES
        self.reg_available: dict[int, int] = {}
        self.mem: dict[str, deque[int]] = {c: deque() for c in _COUNTERS}

    def join(self, pred: _Estimator) -> None:
        for r in range(_NRES):
            self.res_available[r] = max(self.res_available[r],
                                        pred.res_available[r] - pred.cur)
        for reg, t in pred.reg_available.items():
            v = t - pred.cur + self.cur
            if v > self.reg_available.get(reg, 0):
                self.reg_available[reg] = v
        for c in _COUNTERS:
            ops, pops = self.mem[c], pred.mem[c]
            for j in range(min(len(ops), len(pops))):
                ops[-1 - j] = max(ops[-1 - j], pops[-1 - j] - pred.cur)
            for j in range(len(pops) - len(ops) - 1, -1, -1):
                ops.appendleft(pops[j] - pred.cur)


# `_op_costs` by one int packing (table entry's `OpInfo.uid`, 0 for none; GDS, has
# definitions, has operands, cached SMEM, generation): a tuple key would hash the
# generation's enum member through Python code on every instruction
_OpCosts = tuple[InstrClass, PerfInfo, dict[str, int], int, dict[str, int], bool]
_OP_COSTS: dict[int, _OpCosts] = {}


def _op_costs(gfx: GfxLevel, info: OpInfo | None, gds: bool, has_defs: bool,
              has_srcs: bool, smem_cached: bool) -> _OpCosts:
    """What the cycle model says of a table entry used so (derived once per entry
    and flags): its class, `perf_info`, `wait_counter_cycles` (shared: not to be
    changed), `result_latency`, the counter wait it implies when it is no counter
    wait itself (each counter it counts on at its maximum less one; shared too), and
    whether its class is a vector one (`VECTOR_INSTR_CLASSES`)."""
    key = ((((info.uid if info is not None else 0) << 4 | gds << 3 | has_defs << 2
             | has_srcs << 1 | smem_cached) << 10) | int(gfx))
    e = _OP_COSTS.get(key)
    if e is None:
        perf = cycle_model(gfx).perf_info(info, gds)
        counters = wait_counter_cycles(info, has_defs, has_srcs, smem_cached, gfx)
        cls = instr_class(info)
        e = _OP_COSTS[key] = (cls, perf, counters, result_latency(perf, counters),
                              {c: _max_count(c) - 1 for c in counters},
                              cls in VECTOR_INSTR_CLASSES)
    return e


class _Facts:
    """What the estimator uses of one instruction."""

    __slots__ = ("cls", "perf", "counters", "wait", "reads", "writes", "endpgm", "twice",
                 "lat")

    def __init__(self, gfx: GfxLevel, instr: Instruction, info: OpInfo | None,
                 dual_issue_wave64: bool) -> None:
        has_defs = bool(instr.definitions)
        if info is None:
            gds = smem_cached = False
        else:
            gds = is_gds(instr, info)
            smem_cached = info.cls == "smem" and has_defs and _smem_cached(instr, info)
        (self.cls, self.perf, self.counters, self.lat, implied, vector_cls) = _op_costs(
            gfx, info, gds, has_defs, bool(instr.operands), smem_cached)
        self.endpgm = instr.opcode == "s_endpgm"
        wait = wait_of(instr, gfx) if self.cls is InstrClass.WAITCNT else None
        if self.endpgm:
            wait = dict.fromkeys(_COUNTERS, 0)
        elif wait is None and self.counters:
            wait = implied
        self.wait = wait or {}
        reads: list[int] = []
        for o in instr.operands:
            phys, rc = o.phys, o.rc
            if phys is not None and rc is not None and o.const is None and not o.is_undef:
                r = phys.reg
                n = rc.size
                if n == 1:
                    reads.append(r)
                else:
                    reads.extend(range(r, r + n))
        self.reads = reads
        writes: list[int] = []
        for d in instr.definitions:
            dphys, drc = d.phys, d.rc
            if dphys is not None and drc is not None:
                r = dphys.reg
                n = drc.size
                if n == 1:
                    writes.append(r)
                else:
                    writes.extend(range(r, r + n))
        self.writes = writes
        self.twice = (dual_issue_wave64 and (vector_cls or instr.format.startswith("VOPD"))
                      and not (info is not None
                               and dual_issue_capable(gfx, instr.opcode, "DPP" in instr.format)))


def _max_count(counter: str) -> int:
    return WAIT_MAX[counter]


def _dual_issue_capable(program: Program, instr: Instruction, info: OpInfo | None) -> bool:
    return info is not None and dual_issue_capable(program.gfx_level, instr.opcode,
                                                   "DPP" in instr.format)


def instr_costs(program: Program, instr: Instruction, info: OpInfo | None) -> tuple[int, int]:
    """(issue cycles, result latency) of one instruction for the post-RA
    schedulers' in-order model: the cycles its main resource is busy (at least
    one; twice in wave64 for a vector instruction that cannot dual-issue) and
    `cycle_model.result_latency`. Pseudo instructions: (0, 0)."""
    if info is None or instr.is_pseudo:
        return 0, 0
    has_defs = bool(instr.definitions)
    _, perf, _, lat, _, vector_cls = _op_costs(
        program.gfx_level, info, is_gds(instr, info), has_defs, bool(instr.operands),
        info.cls == "smem" and has_defs and _smem_cached(instr, info))
    issue = max(1, perf.uses[0][1] if perf.uses else 1)
    vector = vector_cls or instr.format.startswith("VOPD")
    if program.wave_size == 64 and vector and not _dual_issue_capable(program, instr, info):
        issue *= 2
    return issue, lat


@dataclass(frozen=True, slots=True)
class IssueTrace:
    """When one instruction issued in the block cycle estimator (cycles from the
    block's start): `prev` when the previous one left the issue slot, `ready` when
    its operands and waits allowed it (``ready - prev``: the dependency stall),
    `issue` when it issued (``issue - ready``: waiting for a busy resource), `end`
    when the next may issue, `latency` its result latency."""

    prev: int
    ready: int
    issue: int
    end: int
    latency: int


def block_cycles(est: _Estimator, facts: list[_Facts],
                 trace: list[IssueTrace] | None = None) -> None:
    """Issue `facts` on `est` (ACO's BlockCycleEstimator::add per instruction);
    `trace` (when given) gets an `IssueTrace` per fact."""
    mem = est.mem
    res_available = est.res_available
    res_usage = est.res_usage
    reg_available = est.reg_available
    reg_get = reg_available.get
    cur = est.cur
    for f in facts:
        prev = cur
        deps = cur
        wait = f.wait
        for c, n in wait.items():
            q = mem[c]
            for j in range(len(q) - n):
                if q[j] > deps:
                    deps = q[j]
        if f.endpgm:
            deps = max([deps, *reg_available.values()])
        else:
            for r in f.reads:
                t = reg_get(r, 0)
                if t > deps:
                    deps = t
        cur = deps
        start = cur
        first = -1
        uses = f.perf.uses
        for _ in range(2 if f.twice else 1):
            wait_res = 0
            for r, _c in uses:
                t = res_available[r] - cur
                if t > wait_res:
                    wait_res = t
            cur += wait_res
            start = cur
            if first < 0:
                first = start
            for r, cycles in uses:
                res_available[r] = cur + cycles
                res_usage[r] += cycles
            cur += 1
        for c, n in wait.items():
            q = mem[c]
            while len(q) > n:
                q.popleft()
        for c, cyc in f.counters.items():
            mem[c].append(cur + cyc)
        lat = f.lat
        ready = start + lat
        for r in f.writes:
            if ready > reg_get(r, 0):
                reg_available[r] = ready
        if trace is not None:
            trace.append(IssueTrace(prev, deps, first, cur, lat))
    est.cur = cur


def _iterations(program: Program, block: Block) -> float:
    """The times the block is assumed to run (ACO's collect_preasm_stats): loops 8
    times, a further 4 inside two, then doubling; 1/2 per uniform if around it, 3/4
    per logical side of a divergent if around it; 1/4 more for the linear side of a
    divergent if (no logical predecessor, one linear predecessor that is the branch
    or invert block, one linear successor)."""
    d = block.loop_nest_depth
    it = 1.0
    if d > 0:
        it *= 8.0
    if d > 1:
        it *= 4.0
    if d > 2:
        it *= 2.0 ** (d - 2)
    it *= 0.5 ** block.uniform_if_depth
    it *= 0.75 ** block.divergent_if_logical_depth
    if (not block.logical_preds and len(block.linear_preds) == 1
            and len(block.linear_succs) == 1
            and program.blocks[block.linear_preds[0]].kind & (BlockKind.BRANCH
                                                              | BlockKind.INVERT)):
        it *= 0.25
    return it


@dataclass
class BlockEstimate:
    """One block's cycle estimate: `cycles` (the estimator's clock at its end),
    `iterations` (the weight Latency gives it), `usage` per `Resource` and, when
    traced, an `IssueTrace` per hardware instruction (`instrs`: their indices in the
    block)."""

    cycles: int
    iterations: float
    usage: list[int]
    instrs: list[int] = field(default_factory=list)
    trace: list[IssueTrace] = field(default_factory=list)


def estimate_blocks(program: Program, workgroup_size: int | None,
                    trace: bool = False) -> list[BlockEstimate]:
    """The block cycle estimator over the program (module docstring), per block in
    layout order; the Latency statistic is the iteration-weighted sum of `cycles`."""
    gfx = program.gfx_level
    index = info_index(gfx)
    wave64_twice = program.wave_size == 64 and (workgroup_size is None or workgroup_size > 32)
    ests: list[_Estimator] = [_Estimator() for _ in program.blocks]
    out: list[BlockEstimate] = []
    for block in program.blocks:
        est = ests[block.index]
        for p in block.linear_preds:
            est.join(ests[p])
        idx = [k for k, ins in enumerate(block.instructions) if ins.format != "PSEUDO"]
        instrs = block.instructions
        facts = [_Facts(gfx, ins, index.get((ins.opcode, ins.format)), wave64_twice)
                 for ins in (instrs[k] for k in idx)]
        tr: list[IssueTrace] | None = [] if trace else None
        block_cycles(est, facts, tr)
        out.append(BlockEstimate(est.cur, _iterations(program, block), list(est.res_usage),
                                 idx if trace else [], tr or []))
    return out


def _latency_throughput(program: Program, waves: int,
                        workgroup_size: int | None) -> tuple[int, int]:
    latency = 0.0
    usage = [0.0] * _NRES
    for be in estimate_blocks(program, workgroup_size):
        latency += be.cycles * be.iterations
        for r in range(_NRES):
            usage[r] += be.usage[r] * be.iterations
    if latency <= 0:
        return 0, 0
    parallelism = float(max(waves, 1))
    for u in usage:
        if u > 0:
            parallelism = min(parallelism, latency / u)
    wave64_per_cycle = parallelism / latency * (program.wave_size / 64.0)
    if workgroup_size:
        whole = -(-workgroup_size // program.wave_size) * program.wave_size
        wave64_per_cycle *= workgroup_size / whole
    return round(latency), round(1.0 / wave64_per_cycle)


def _count_flags(info: OpInfo) -> tuple[bool, bool, bool]:
    """What `collect_statistics` counts a table entry as: (a ``Branches`` one, a VALU
    class, an ``SALU`` one), derived once per entry."""
    cls = instr_class(info)
    return (info.enc == "SOPP" and cls is InstrClass.BRANCH, cls in VALU_INSTR_CLASSES,
            info.enc in _SALU_ENCS and cls is not InstrClass.WAITCNT)


# `_count_flags` by table entry (`OpInfo.uid`)
_COUNT_FLAGS: dict[int, tuple[bool, bool, bool]] = {}


def collect_statistics(program: Program, result=None,  # type: ignore[no-untyped-def]
                       workgroup_size: int | None = None) -> dict[str, int]:
    """ACO's statistics plus radcc's (see the module docstring)."""
    from radcc.passes.emit_program import register_usage

    st: dict[str, int] = dict.fromkeys(
        ("Hash", "Instructions", "Copies", "Branches", "Latency", "InvThroughput", "VClause",
         "SClause", "PreSGPRs", "PreVGPRs", "VALU", "SALU", "VMEM", "SMEM", "VOPD"), 0)
    index = info_index(program.gfx_level)
    n_instrs = n_branches = n_valu = n_salu = n_vopd = 0
    n_vclause = n_sclause = n_vmem = n_smem = 0
    for block in program.blocks:
        vclause: list[tuple[Instruction, OpInfo]] = []
        sclause: list[tuple[Instruction, OpInfo]] = []
        for ins in block.instructions:
            fmt = ins.format
            if fmt == "PSEUDO":
                continue
            info = index.get((ins.opcode, fmt))
            if info is None:
                continue
            enc = info.enc
            flags = _COUNT_FLAGS.get(info.uid)
            if flags is None:
                flags = _COUNT_FLAGS[info.uid] = _count_flags(info)
            branch, valu_cls, salu = flags
            vopd = fmt.startswith("VOPD")
            n_instrs += 1
            if branch:
                n_branches += 1
            if vopd or valu_cls:
                n_valu += 1
            if salu:
                n_salu += 1
            if vopd:
                n_vopd += 1
            if enc in _VMEM_ENCS and ins.operands:
                if not any(should_form_clause(a, ia, ins, info) for a, ia in vclause):
                    n_vclause += 1
                vclause.append((ins, info))
                n_vmem += 1
            elif vclause:
                vclause = []
            if enc == "SMEM" and ins.operands:
                if not any(should_form_clause(a, ia, ins, info) for a, ia in sclause):
                    n_sclause += 1
                sclause.append((ins, info))
                n_smem += 1
            elif sclause:
                sclause = []
    st["Instructions"], st["Branches"], st["VALU"] = n_instrs, n_branches, n_valu
    st["SALU"], st["VOPD"] = n_salu, n_vopd
    st["VClause"], st["SClause"], st["VMEM"], st["SMEM"] = n_vclause, n_sclause, n_vmem, n_smem
    st["Copies"] = program.lowered_copies
    st["PreSGPRs"] = program.max_reg_demand.sgpr
    st["PreVGPRs"] = program.max_reg_demand.vgpr
    if result is not None:
        st["Hash"] = zlib.crc32(result.code[:result.code_size])
        sgprs, vgprs, size = result.sgprs, result.vgprs, result.code_size
    else:
        sgprs, vgprs, _vcc = register_usage(program)
        size = 0
    waves = program.target.waves_per_simd(max(vgprs, 1), sgprs, program.wave_size)
    st["Latency"], st["InvThroughput"] = _latency_throughput(program, waves, workgroup_size)
    st["SGPRs"] = sgprs
    st["VGPRs"] = vgprs
    st["CodeSize"] = size
    st["LDS"] = program.config.lds_size
    st["Scratch"] = program.config.scratch_bytes_per_lane
    st["WavesPerSIMD"] = waves
    program.statistics = st
    return st
