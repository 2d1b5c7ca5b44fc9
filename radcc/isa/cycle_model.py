"""The cycle model: one table per generation, derived from the opcode table.

Every consumer of instruction costs reads this module: the ``Latency`` /
``InvThroughput`` statistics (passes/statistics.py), the post-RA schedulers
(passes/scheduler_ilp.py, passes/sched_cost.py) and the ``s_delay_alu`` hazard
distances (passes/insert_delay_alu.py). Nothing else keeps latencies.

- the instruction class is ACO's (`radcc.isa.classes.instr_class`, derived
  from the opcode table).
- `CycleModel` (`cycle_model(gfx)`), per generation:

  * ``perf``: ACO's ``get_perf_info`` (aco_statistics.cpp, GFX10+ branch, the
    same for GFX10, GFX10.3 and GFX11): the result latency of a class and the
    execution resources it occupies with their busy cycles. ACO's
    ``get_cycle_info`` (latency, issue cycles = the largest busy count) is
    `cycle_info`.
  * memory result latencies, ACO's ``get_wait_counter_info`` (``mem_latency``):
    export 16, LDS-direct 13, DS 20, FLAT 20 (LGKM) and 320 (VM or VS),
    MUBUF/MTBUF/MIMG/GLOBAL/SCRATCH 320, SMEM 30 when it likely hits the
    scalar cache (a 64-bit base address: descriptor loads, or constant
    offsets), 200 otherwise or for SMEM without a result, 1 for
    ``s_memtime``.
  * ``delay_alu``: the hazard distances ``s_delay_alu`` encodes (GFX11 only).
    The hardware hint follows LLVM, whose AMDGPUInsertDelayAlu takes each
    producer's latency from the GFX11 SchedModel (SISchedule.td
    ``GFX11SpeedModel``: Write32Bit/WriteFloatFMA/WriteFloatCvt 5,
    Write64Bit 6, WriteQuarterRate32/WriteIntMul 8, WriteTrans32 10,
    WriteDouble 38, WriteSALU 2) and advances one cycle per issued
    instruction (``SIInstrInfo::getNumWaitStates``), in wave32 and wave64
    alike; clang-19 emits the same (tests/passes/test_insert_delay_alu.py).
    The 32-bit numbers are ACO's latencies too; the f64 ones differ (ACO 22-24
    for its statistics, LLVM 38 for the hint) and each use keeps its source's.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cache

from radcc.isa.classes import FLAT_LIKE_ENCODINGS, InstrClass, instr_class
from radcc.isa.table import OpInfo
from radcc.target import GfxLevel

__all__ = ["InstrClass", "Resource", "PerfInfo", "CycleModel", "instr_class",
           "cycle_model", "VECTOR_INSTR_CLASSES", "VALU_INSTR_CLASSES", "wait_counter_cycles",
           "result_latency", "dual_issue_capable"]


VALU_INSTR_CLASSES = frozenset({
    InstrClass.VALU32, InstrClass.VALU_CONVERT32, InstrClass.VALU64,
    InstrClass.VALU_QUARTER_RATE32, InstrClass.VALU_FMA, InstrClass.VALU_TRANSCENDENTAL32,
    InstrClass.VALU_DOUBLE, InstrClass.VALU_DOUBLE_ADD, InstrClass.VALU_DOUBLE_CONVERT,
    InstrClass.VALU_DOUBLE_TRANSCENDENTAL, InstrClass.WMMA})
# ACO's is_vector (aco_statistics.cpp): issued twice in wave64 unless dual-issue capable
VECTOR_INSTR_CLASSES = (VALU_INSTR_CLASSES - {InstrClass.WMMA}) | {
    InstrClass.VMEM, InstrClass.DS, InstrClass.EXPORT}


class Resource(IntEnum):
    """ACO's BlockCycleEstimator resources."""

    SCALAR = 0
    BRANCH_SENDMSG = 1
    VALU = 2
    VALU_COMPLEX = 3
    LDS = 4
    EXPORT_GDS = 5
    VMEM = 6


@dataclass(frozen=True, slots=True)
class PerfInfo:
    """Result latency and the resources an instruction keeps busy (cycles)."""

    latency: int
    uses: tuple[tuple[Resource, int], ...] = ()

    @property
    def issue_cycles(self) -> int:
        """ACO's get_cycle_info issue cycles: the largest busy count."""
        return max((c for _r, c in self.uses), default=0)


_V, _VC, _S = Resource.VALU, Resource.VALU_COMPLEX, Resource.SCALAR

# ACO get_perf_info, GFX10+ (aco_statistics.cpp); "fp64 might be incorrect" there too.
_PERF_GFX10PLUS: dict[InstrClass, PerfInfo] = {
    InstrClass.VALU32: PerfInfo(5, ((_V, 1),)),
    InstrClass.VALU_CONVERT32: PerfInfo(5, ((_V, 1),)),
    InstrClass.VALU_FMA: PerfInfo(5, ((_V, 1),)),
    InstrClass.VALU64: PerfInfo(6, ((_V, 2), (_VC, 2))),
    InstrClass.VALU_QUARTER_RATE32: PerfInfo(8, ((_V, 4), (_VC, 4))),
    InstrClass.VALU_TRANSCENDENTAL32: PerfInfo(10, ((_V, 1), (_VC, 4))),
    InstrClass.VALU_DOUBLE: PerfInfo(22, ((_V, 16), (_VC, 16))),
    InstrClass.VALU_DOUBLE_ADD: PerfInfo(22, ((_V, 16), (_VC, 16))),
    InstrClass.VALU_DOUBLE_CONVERT: PerfInfo(22, ((_V, 16), (_VC, 16))),
    InstrClass.VALU_DOUBLE_TRANSCENDENTAL: PerfInfo(24, ((_V, 16), (_VC, 16))),
    InstrClass.SALU: PerfInfo(2, ((_S, 1),)),
    InstrClass.SMEM: PerfInfo(0, ((_S, 1),)),
    InstrClass.BRANCH: PerfInfo(0, ((Resource.BRANCH_SENDMSG, 3),)),
    InstrClass.SENDMSG: PerfInfo(0, ((Resource.BRANCH_SENDMSG, 3),)),
    InstrClass.DS: PerfInfo(0, ((Resource.LDS, 1),)),
    InstrClass.EXPORT: PerfInfo(0, ((Resource.EXPORT_GDS, 1),)),
    InstrClass.VMEM: PerfInfo(0, ((Resource.VMEM, 1),)),
    InstrClass.WMMA: PerfInfo(32, ((_V, 32),)),
    InstrClass.BARRIER: PerfInfo(0),
    InstrClass.WAITCNT: PerfInfo(0),
    InstrClass.OTHER: PerfInfo(0),
}
_PERF_GDS = PerfInfo(0, ((Resource.EXPORT_GDS, 1),))
_PERF_WMMA_IU4 = PerfInfo(16, ((_V, 16),))

# LLVM GFX11SpeedModel latencies (SISchedule.td) of the s_delay_alu producers, by class
_DELAY_GFX11: dict[InstrClass, int] = {
    InstrClass.VALU32: 5, InstrClass.VALU_CONVERT32: 5, InstrClass.VALU_FMA: 5,
    InstrClass.VALU64: 6, InstrClass.VALU_QUARTER_RATE32: 8,
    InstrClass.VALU_TRANSCENDENTAL32: 10, InstrClass.VALU_DOUBLE: 38,
    InstrClass.VALU_DOUBLE_ADD: 38, InstrClass.VALU_DOUBLE_CONVERT: 38,
    InstrClass.VALU_DOUBLE_TRANSCENDENTAL: 40, InstrClass.SALU: 2,
}


@dataclass(frozen=True)
class CycleModel:
    """The cycle facts of one generation (see the module docstring)."""

    gfx: GfxLevel
    perf: dict[InstrClass, PerfInfo]
    delay_alu: dict[InstrClass, int]  # producer latency s_delay_alu waits for (GFX11)

    def perf_info(self, info: OpInfo | None, gds: bool = False) -> PerfInfo:
        """ACO's get_perf_info of a table entry (None: a pseudo instruction)."""
        cls = instr_class(info)
        if cls is InstrClass.DS and gds:
            return _PERF_GDS
        if cls is InstrClass.WMMA and info is not None and info.name.endswith("_iu4"):
            return _PERF_WMMA_IU4
        return self.perf[cls]

    def cycle_info(self, info: OpInfo | None) -> tuple[int, int]:
        """ACO's get_cycle_info: (latency, issue cycles)."""
        p = self.perf_info(info)
        return p.latency, p.issue_cycles


@cache
def cycle_model(gfx: GfxLevel) -> CycleModel:
    """The cycle model of a generation (GFX10, GFX10.3 and GFX11: ACO's GFX10+
    numbers; s_delay_alu distances on GFX11 only)."""
    if gfx < GfxLevel.GFX10:
        raise ValueError(f"no cycle model for {gfx.name}")
    return CycleModel(gfx, _PERF_GFX10PLUS,
                      _DELAY_GFX11 if gfx >= GfxLevel.GFX11 else {})


def wait_counter_cycles(info: OpInfo | None, has_defs: bool, has_srcs: bool,
                        smem_cached: bool, gfx: GfxLevel) -> dict[str, int]:
    """ACO's get_wait_counter_info: cycles until a memory instruction's counter
    event completes, per counter (``vm``, ``exp``, ``lgkm``, ``vs``); empty for
    instructions that count on none. `smem_cached`: an SMEM load likely to hit
    the scalar cache (a 64-bit base address or constant offsets)."""
    if info is None:
        return {}
    cls, enc = info.cls, info.enc
    if cls == "exp":
        return {"exp": 16}
    if cls == "ldsdir":
        return {"exp": 13}
    if enc in FLAT_LIKE_ENCODINGS:
        out = {"lgkm": 20} if enc == "FLAT" else {}
        out["vm" if has_defs or gfx < GfxLevel.GFX10 else "vs"] = 320
        return out
    if cls == "smem":
        if not has_defs:
            return {"lgkm": 200}
        if not has_srcs:
            return {"lgkm": 1}  # s_memtime, s_memrealtime
        return {"lgkm": 30 if smem_cached else 200}
    if cls == "ds":
        return {"lgkm": 20}
    if cls in ("vmem", "flat"):
        return {"vm" if has_defs or gfx < GfxLevel.GFX10 else "vs": 320}
    return {}


def result_latency(perf: PerfInfo, counters: dict[str, int]) -> int:
    """When a result is ready after issue (ACO's BlockCycleEstimator::add): the
    class latency or the memory latency (stores' VS completion excluded)."""
    mem = max((c for k, c in counters.items() if k != "vs"), default=0)
    return max(perf.latency, mem)


# GFX11 VALU opcodes that issue once in wave64 (ACO's is_dual_issue_capable,
# aco_statistics.cpp;
# GFX11 spellings of ACO's v_*_legacy_f32 / v_dot2c_f32_f16 / v_add_u16 ...)
_DUAL_ISSUE = frozenset({
    "v_fma_f32", "v_fmac_f32", "v_fmaak_f32", "v_fmamk_f32", "v_mul_f32", "v_add_f32",
    "v_sub_f32", "v_subrev_f32", "v_mul_dx9_zero_f32", "v_fma_dx9_zero_f32",
    "v_fmac_dx9_zero_f32", "v_fma_f16", "v_fmac_f16", "v_fmaak_f16", "v_fmamk_f16",
    "v_mul_f16", "v_add_f16", "v_sub_f16", "v_subrev_f16", "v_mov_b32", "v_movreld_b32",
    "v_movrels_b32", "v_movrelsd_b32", "v_movrelsd_2_b32", "v_cndmask_b32",
    "v_writelane_b32", "v_mov_b16", "v_cndmask_b16", "v_max_f32", "v_min_f32", "v_max_f16",
    "v_min_f16", "v_max_i16", "v_min_i16", "v_max_u16", "v_min_u16", "v_add_nc_i16",
    "v_sub_nc_i16", "v_mad_i16", "v_add_nc_u16", "v_sub_nc_u16", "v_mad_u16",
    "v_mul_lo_u16", "v_not_b16", "v_and_b16", "v_or_b16", "v_xor_b16", "v_lshrrev_b16",
    "v_ashrrev_i16", "v_lshlrev_b16", "v_dot2_bf16_bf16", "v_dot2_f32_bf16",
    "v_dot2_f16_f16", "v_dot2_f32_f16", "v_dot2acc_f32_f16"})


def dual_issue_capable(gfx: GfxLevel, opcode: str, dpp: bool) -> bool:
    """Whether a wave64 VALU instruction issues once (GFX11 and later; DPP never)."""
    return gfx >= GfxLevel.GFX11 and not dpp and opcode in _DUAL_ISSUE
