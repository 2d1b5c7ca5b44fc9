"""Statistics of a compiled program (ACO's set plus radcc's).

`collect_statistics(program, result=None) -> dict[str, int]` runs on the
final program (after lower_to_hw and the wait/hazard passes; `result` is the
`EmitResult` when the code has been emitted) and stores the dict in
``program.statistics``. Keys, in order:

- ``Hash``: CRC-32 of the machine code without padding (0 without `result`);
- ``Instructions``: hardware instructions; ``Copies``: moves
  (``s_mov_b32/b64``, ``s_movk_i32``, ``v_mov_b32/b16``, ``v_swap_b32``,
  ``s_cmov_b32/b64``); ``Branches``: ``s_branch``/``s_cbranch_*``/``s_setpc``;
- ``Latency`` and ``InvThroughput``: the cycle model below, summed over
  blocks weighted by 4**loop depth;
- ``VClause``/``SClause``: maximal runs of consecutive VMEM (vmem, flat) /
  SMEM instructions; ``PreSGPRs``/``PreVGPRs``: ``program.max_reg_demand``
  (as live_var_analysis left it before register allocation);
- ``VALU`` (valu, valu64, trans, dot, wmma, vinterp classes), ``SALU``
  (SOP1/SOP2/SOPC/SOPK/SOPP formats, as ACO's isSALU, so branches and waits
  count), ``VMEM``, ``SMEM``, ``VOPD`` (VOPD-format instructions);
- radcc's: ``SGPRs``, ``VGPRs`` (next free register), ``CodeSize`` (bytes,
  without padding), ``LDS`` (bytes), ``Scratch`` (bytes per lane),
  ``WavesPerSIMD`` (register-limited occupancy, `Target.waves_per_simd`).

The cycle model (radcc's own, deliberately simple; keyed by `OpInfo.cls`):
each class has an issue cost (cycles the wave's issue port is busy; VALU
costs double in wave64) and a result latency. Instructions issue in order;
an instruction starts when the previous one has issued and the registers it
reads are ready; ``Latency`` is the cycle at which the block's last result is
ready. ``InvThroughput`` is the busiest execution unit's total issue cycles
per block (what bounds throughput when other waves hide latency).
"""

from __future__ import annotations

import zlib

from radcc.ir.opinfo import op_info
from radcc.ir.program import Block, Instruction, Program
from radcc.isa.table import OpcodeTable, get_table

__all__ = ["CYCLE_MODEL", "collect_statistics"]

# cls: (unit, issue cycles in wave32, latency cycles)
CYCLE_MODEL: dict[str, tuple[str, int, int]] = {
    "salu": ("salu", 1, 2),
    "salu64": ("salu", 1, 2),
    "branch": ("branch", 1, 1),
    "smem": ("smem", 1, 64),
    "valu": ("valu", 1, 5),
    "valu64": ("valu", 4, 10),
    "trans": ("trans", 1, 10),
    "dot": ("valu", 2, 8),
    "wmma": ("valu", 16, 32),
    "vinterp": ("valu", 1, 5),
    "vmem": ("vmem", 4, 320),
    "flat": ("vmem", 4, 320),
    "ds": ("lds", 2, 40),
    "exp": ("export", 4, 16),
    "ldsdir": ("lds", 1, 16),
    "message": ("salu", 1, 1),
    "waitcnt": ("salu", 1, 1),
    "nop": ("salu", 1, 1),
}
_VALU = frozenset({"valu", "valu64", "trans", "dot", "wmma", "vinterp"})
_COPIES = frozenset({"s_mov_b32", "s_mov_b64", "s_movk_i32", "v_mov_b32", "v_mov_b16",
                     "v_swap_b32", "s_cmov_b32", "s_cmov_b64"})


def _cls(table: OpcodeTable, ins: Instruction) -> str:
    info = op_info(table, ins.opcode, ins.format)
    if info is None:
        return "pseudo"
    if ins.format.startswith("VOPD"):
        return "valu"
    return info.cls


def _regs(x) -> list[int]:
    if x.phys is None or x.rc is None:
        return []
    return [x.phys.reg + i for i in range(x.rc.size)]


def _block_cycles(block: Block, table: OpcodeTable, wave64: bool) -> tuple[int, int]:
    ready: dict[int, int] = {}
    t = 0
    end = 0
    busy: dict[str, int] = {}
    for ins in block.instructions:
        unit, issue, lat = CYCLE_MODEL.get(_cls(table, ins), ("salu", 1, 1))
        if wave64 and unit in ("valu", "trans"):
            issue *= 2
        start = max([t] + [ready.get(r, 0) for o in ins.operands for r in _regs(o)])
        t = start + issue
        for d in ins.definitions:
            for r in _regs(d):
                ready[r] = start + lat
        end = max(end, start + lat)
        busy[unit] = busy.get(unit, 0) + issue
    return max(end, t), max(busy.values(), default=0)


def collect_statistics(program: Program, result=None) -> dict[str, int]:
    """ACO's statistics plus radcc's (see the module docstring)."""
    from radcc.passes.emit_program import register_usage

    table = get_table(program.gfx_level)
    st: dict[str, int] = dict.fromkeys(
        ("Hash", "Instructions", "Copies", "Branches", "Latency", "InvThroughput", "VClause",
         "SClause", "PreSGPRs", "PreVGPRs", "VALU", "SALU", "VMEM", "SMEM", "VOPD"), 0)
    wave64 = program.wave_size == 64
    for block in program.blocks:
        prev = ""
        for ins in block.instructions:
            cls = _cls(table, ins)
            if cls == "pseudo":
                prev = ""
                continue
            st["Instructions"] += 1
            st["Copies"] += ins.opcode in _COPIES
            st["Branches"] += ins.opcode.startswith(("s_branch", "s_cbranch", "s_setpc"))
            st["VALU"] += cls in _VALU
            st["SALU"] += ins.format.startswith("SOP")
            st["VMEM"] += cls in ("vmem", "flat")
            st["SMEM"] += cls == "smem"
            st["VOPD"] += ins.format.startswith("VOPD")
            kind = "v" if cls in ("vmem", "flat") else "s" if cls == "smem" else ""
            if kind and kind != prev:
                st["VClause" if kind == "v" else "SClause"] += 1
            prev = kind
        lat, thr = _block_cycles(block, table, wave64)
        w = 4 ** block.loop_nest_depth
        st["Latency"] += lat * w
        st["InvThroughput"] += thr * w
    st["PreSGPRs"] = program.max_reg_demand.sgpr
    st["PreVGPRs"] = program.max_reg_demand.vgpr
    if result is not None:
        st["Hash"] = zlib.crc32(result.code[:result.code_size])
        sgprs, vgprs, size = result.sgprs, result.vgprs, result.code_size
    else:
        sgprs, vgprs, _vcc = register_usage(program)
        size = 0
    st["SGPRs"] = sgprs
    st["VGPRs"] = vgprs
    st["CodeSize"] = size
    st["LDS"] = program.config.lds_size
    st["Scratch"] = program.config.scratch_bytes_per_lane
    st["WavesPerSIMD"] = program.target.waves_per_simd(max(vgprs, 1), sgprs, program.wave_size)
    program.statistics = st
    return st


