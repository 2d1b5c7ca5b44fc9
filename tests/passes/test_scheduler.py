"""The pre-RA scheduler (radcc.passes.scheduler, ACO's README.md "Instruction Scheduling").

Expectations follow from the phase's rules, instruction by instruction: a load
moves up past instructions it does not depend on (they go below it), never past
the definition of a value it reads, a barrier, p_logical_start, a store to
possibly the same memory, or an instruction clobbering a fixed register (scc) that
an instruction kept with it uses; independent instructions after the load's first
use move above that use. The randomized test checks every dependency of the
original program (SSA, memory order of global accesses, scc, barriers) in the
scheduled one, the register bound, and runs both in the IR interpreter.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from radcc.ir.matcher import assert_ir_matches
from radcc.ir.parser import parse_program
from radcc.ir.printer import print_program
from radcc.ir.program import Program, RegisterDemand
from radcc.ir.validate import validate_ir
from radcc.passes.live_var_analysis import get_live_vars, live_var_analysis, liveness_is_exact
from radcc.passes.scheduler import (
    Policy,
    make_policy,
    max_vgprs_for_waves,
    schedule_program,
)
from tests.support.ir_interp import run_kernel

HEAD = """program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, uniform, */
   s2: %1:s[0-1], s1: %2:s[2], v1: %3:v[0] = p_startpgm workitem_id:0
   p_logical_start
"""
TAIL = """   p_logical_end
   s_endpgm
"""


def _sched(body: str, policy: Policy | None = None) -> Program:
    p = parse_program(HEAD + body + TAIL)
    validate_ir(p, "input")
    schedule_program(p, policy=policy)
    validate_ir(p, "scheduler")
    return p


def _pos(p: Program, text: str) -> int:
    lines = [ln.replace("(firstkill)", "").replace("(kill)", "")
             for ln in print_program(p).splitlines() if ln.startswith("   ")]
    hits = [k for k, ln in enumerate(lines) if text in ln]
    assert len(hits) == 1, (text, lines)
    return hits[0]


def test_smem_load_moves_above_independent_alu() -> None:
    # the descriptor load reads only the kernarg pointer: both VALU ops go below it
    p = _sched("""\
   v1: %4 = v_and_b32 0x3ff, %3
   v1: %5 = v_lshlrev_b32 2, %4
   s2: %6 = s_load_b64 %1, 0
   v1: %7 = global_load_b32 %5, %6 offset:0
   global_store_b32 %5, %7, %6 offset:0
""")
    assert_ir_matches(p, """\
p_logical_start
s2: %a = s_load_b64 (firstkill)(kill)%1, 0
v1: %b = v_and_b32 0x3ff, (firstkill)(kill)%3
v1: %c = v_lshlrev_b32 2, (firstkill)(kill)%b
v1: %d = global_load_b32 %c, %a offset:0
""")


def test_load_stays_below_its_address() -> None:
    # %5 is the address the load reads: it and %4 stay above; the unrelated %8 moves below
    p = _sched("""\
   s2: %6 = s_load_b64 %1, 0
   v1: %4 = v_and_b32 0x3ff, %3
   v1: %5 = v_lshlrev_b32 2, %4
   v1: %8 = v_mul_u32_u24 %4, %4
   v1: %7 = global_load_b32 %5, %6 offset:0
   v1: %9 = v_add_nc_u32 %7, %8
   global_store_b32 %5, %9, %6 offset:0
""")
    assert _pos(p, "v_lshlrev_b32") < _pos(p, "global_load_b32") < _pos(p, "v_mul_u32_u24")
    assert _pos(p, "v_mul_u32_u24") < _pos(p, "v_add_nc_u32")


def test_load_does_not_pass_store_to_global_memory() -> None:
    p = _sched("""\
   s2: %6 = s_load_b64 %1, 0
   v1: %4 = v_lshlrev_b32 2, %3
   v1: %10 = v_mov_b32 5
   global_store_b32 %4, %10, %6 offset:4
   v1: %11 = v_mov_b32 7
   v1: %7 = global_load_b32 %4, %6 offset:0
   global_store_b32 %4, %7, %6 offset:8
   global_store_b32 %4, %11, %6 offset:12
""")
    # the independent v_mov %11 may go below, the store to (possibly) the same buffer not
    assert _pos(p, "offset:4") < _pos(p, "global_load_b32")
    assert _pos(p, "global_load_b32") < _pos(p, "v_mov_b32 7")


def test_global_load_passes_lds_store_but_not_barrier() -> None:
    p = _sched("""\
   s2: %6 = s_load_b64 %1, 0
   v1: %4 = v_lshlrev_b32 2, %3
   v1: %10 = v_mov_b32 5
   ds_store_b32 %4, %10 offset:0
   v1: %7 = global_load_b32 %4, %6 offset:0
   global_store_b32 %4, %7, %6 offset:8
""")
    # LDS and global memory do not alias: the load goes above the ds_store and %10
    assert _pos(p, "global_load_b32") < _pos(p, "ds_store_b32")
    p = _sched("""\
   s2: %6 = s_load_b64 %1, 0
   v1: %4 = v_lshlrev_b32 2, %3
   v1: %10 = v_mov_b32 5
   ds_store_b32 %4, %10 offset:0
   p_barrier scope:workgroup sem:acqrel
   v1: %11 = v_mov_b32 6
   v1: %7 = ds_load_b32 %4 offset:0
   global_store_b32 %4, %7, %6 offset:8
   global_store_b32 %4, %11, %6 offset:12
""")
    assert _pos(p, "p_barrier") < _pos(p, "ds_load_b32") < _pos(p, "v_mov_b32 6")


def test_lds_load_does_not_pass_lds_store() -> None:
    p = _sched("""\
   s2: %6 = s_load_b64 %1, 0
   v1: %4 = v_lshlrev_b32 2, %3
   v1: %10 = v_mov_b32 5
   ds_store_b32 %4, %10 offset:4
   v1: %11 = v_mov_b32 6
   v1: %7 = ds_load_b32 %4 offset:0
   global_store_b32 %4, %7, %6 offset:8
   global_store_b32 %4, %11, %6 offset:12
""")
    assert _pos(p, "ds_store_b32") < _pos(p, "ds_load_b32") < _pos(p, "v_mov_b32 6")


def test_scc_writer_does_not_land_between_scc_def_and_use() -> None:
    # %20's add defines the address and the carry %21 in scc, read by s_addc_u32 after the
    # load; s_and_b32 clobbers scc and must not be moved below the load (it would land
    # between the carry's definition and its use). The s_mov_b32 can move.
    p = _sched("""\
   s2: %6 = s_load_b64 %1, 0
   s1: %30 = s_mov_b32 3
   s1: %31, s1: %32:scc = s_and_b32 %2, 12
   s1: %20, s1: %21:scc = s_add_u32 %2, 16
   s1: %22 = s_load_b32 %1, %20
   s1: %23, s1: %24:scc = s_addc_u32 %2, 0, %21:scc
   v1: %4 = v_lshlrev_b32 2, %3
   v1: %25 = v_add_nc_u32 %22, %4
   v1: %26 = v_add_nc_u32 %23, %25
   v1: %27 = v_add_nc_u32 %31, %26
   v1: %28 = v_add_nc_u32 %30, %27
   global_store_b32 %4, %28, %6 offset:0
""")
    assert _pos(p, "s_and_b32") < _pos(p, "s_add_u32") < _pos(p, "s_load_b32 %1, %20")
    assert _pos(p, "s_load_b32 %1, %20") < _pos(p, "s_mov_b32 3")
    lines = [ln for ln in print_program(p).splitlines() if ln.startswith("   ")]
    i = _pos(p, "s_add_u32")
    j = _pos(p, "s_addc_u32")
    assert not any("scc" in ln.split("=")[0] for ln in lines[i + 1:j]), lines


def test_uses_move_down_independent_work_moves_up() -> None:
    # after the VMEM load, its use %8 is followed by independent %9: %9 goes above %8
    p = _sched("""\
   s2: %6 = s_load_b64 %1, 0
   v1: %4 = v_lshlrev_b32 2, %3
   v1: %7 = global_load_b32 %4, %6 offset:0
   v1: %8 = v_add_nc_u32 1, %7
   v1: %9 = v_mul_u32_u24 %3, %3
   v1: %10 = v_add_nc_u32 %8, %9
   global_store_b32 %4, %10, %6 offset:0
""")
    assert _pos(p, "global_load_b32") < _pos(p, "v_mul_u32_u24") < _pos(p, "v_add_nc_u32 1, %7")


def test_vmem_clause_grabbed() -> None:
    # two loads through the same base with an independent VALU op between them: the
    # first load is moved next to the second (ACO's clause grabbing)
    p = _sched("""\
   s2: %6 = s_load_b64 %1, 0
   v1: %4 = v_lshlrev_b32 2, %3
   v1: %7 = global_load_b32 %4, %6 offset:0
   v1: %8 = v_mul_u32_u24 %3, %3
   v1: %9 = global_load_b32 %4, %6 offset:4
   v1: %10 = v_add_nc_u32 %7, %9
   v1: %11 = v_add_nc_u32 %10, %8
   global_store_b32 %4, %11, %6 offset:0
""")
    assert _pos(p, "offset:4") == _pos(p, "global_load_b32 %4, %6 offset:0") + 1


def _vgpr_chain(n: int) -> str:
    """n values each made from two killed temps just before a load: moving one of
    them below the load keeps both operands (one more VGPR) alive across it."""
    lines = ["   s2: %6 = s_load_b64 %1, 0", "   v1: %4 = v_lshlrev_b32 2, %3"]
    for k in range(n):
        lines.append(f"   v1: %{100 + k} = v_add_nc_u32 {k}, %3")
        lines.append(f"   v1: %{200 + k} = v_add_nc_u32 {k + 7}, %3")
    for k in range(n):
        lines.append(f"   v1: %{300 + k} = v_mul_u32_u24 %{100 + k}, %{200 + k}")
    lines.append("   v1: %7 = global_load_b32 %4, %6 offset:0")
    acc = "%7"
    for k in range(n):
        lines.append(f"   v1: %{400 + k} = v_add_nc_u32 {acc}, %{300 + k}")
        acc = f"%{400 + k}"
    lines.append(f"   global_store_b32 %4, {acc}, %6 offset:0")
    return "\n".join(lines) + "\n"


def _max_demand(p: Program) -> RegisterDemand:
    live_var_analysis(p)
    return get_live_vars(p).max_demand


def test_register_limit_is_respected() -> None:
    body = _vgpr_chain(6)
    before = _max_demand(parse_program(HEAD + body + TAIL))
    free = _sched(body)
    # with room, the muls go below the load (each one raises the demand there by one)
    assert _pos(free, "global_load_b32") < _pos(free, "%300 = v_mul")
    assert _max_demand(free).vgpr > before.vgpr
    # with the limit at the original demand, nothing that raises it moves
    tight = Policy(16, 2, RegisterDemand(106, before.vgpr))
    p = _sched(body, tight)
    assert _max_demand(p).vgpr <= before.vgpr


def test_policy_keeps_program_occupancy() -> None:
    p = parse_program(HEAD + _vgpr_chain(3) + TAIL)
    live_var_analysis(p)
    for vgprs in (3, 40, 97, 130, 200):
        pol = make_policy(p, RegisterDemand(10, vgprs))
        waves = p.target.waves_per_simd(vgprs, 10, 32)
        assert pol.waves == waves
        # ISA: 1536 VGPRs per SIMD in wave32 on gfx1100, granule 24; ACO's margin of 2
        assert pol.max_regs.vgpr == min(256, 1536 // waves // 24 * 24) - 2
        assert p.target.waves_per_simd(pol.max_regs.vgpr, 10, 32) >= waves
    assert max_vgprs_for_waves(p, 16) == 96


def test_gfx10_and_wave64_programs() -> None:
    gfx10 = {"s_load_b64": "s_load_dwordx2", "global_load_b32": "global_load_dword",
             "global_store_b32": "global_store_dword"}
    body10 = _vgpr_chain(2)
    for a, b in gfx10.items():
        body10 = body10.replace(a, b)
    for text in (HEAD.replace("gfx1100", "gfx1030") + body10 + TAIL,
                 HEAD.replace("wave32", "wave64") + _vgpr_chain(2) + TAIL):
        p = parse_program(text)
        schedule_program(p)
        validate_ir(p, "scheduler")


# --- randomized: dependencies kept, same results in the interpreter ---------------------

def _random_block(draw) -> str:  # type: ignore[no-untyped-def]
    n = draw(st.integers(4, 28))
    lines = ["   s2: %6 = s_load_b64 %1, 0", "   s2: %7 = s_load_b64 %1, 8",
             "   v1: %4 = v_lshlrev_b32 2, %3"]
    vals = ["%3"]
    svals = ["%2"]
    nxt = 10
    carry: str | None = None
    for _ in range(n):
        k = draw(st.integers(0, 8))
        t = f"%{nxt}"
        nxt += 1
        a = draw(st.sampled_from(vals))
        if k <= 2:
            b = draw(st.sampled_from(vals))
            op = draw(st.sampled_from(["v_add_nc_u32", "v_xor_b32", "v_mul_u32_u24"]))
            lines.append(f"   v1: {t} = {op} {a}, {b}")
            vals.append(t)
        elif k == 3:
            off = 4 * draw(st.integers(0, 3))
            buf = draw(st.sampled_from(["%6", "%7"]))
            lines.append(f"   v1: {t} = global_load_b32 %4, {buf} offset:{off}")
            vals.append(t)
        elif k == 4:
            off = 4 * draw(st.integers(0, 3))
            lines.append(f"   global_store_b32 %4, {a}, %7 offset:{off}")
        elif k == 5:
            sa = draw(st.sampled_from(svals))
            c = f"%{nxt}"
            nxt += 1
            lines.append(f"   s1: {t}, s1: {c}:scc = s_add_u32 {sa}, {draw(st.integers(1, 9))}")
            svals.append(t)
            carry = c
        elif k == 6 and carry is not None:
            c = f"%{nxt}"
            nxt += 1
            lines.append(f"   s1: {t}, s1: {c}:scc = s_addc_u32 {svals[-1]}, 3, {carry}:scc")
            svals.append(t)
            carry = None
        elif k == 7:
            off = 4 * draw(st.integers(0, 3))
            lines.append(f"   s1: {t} = s_load_b32 %7, {off}")
            svals.append(t)
        else:
            sa = draw(st.sampled_from(svals))
            lines.append(f"   v1: {t} = v_add_nc_u32 {sa}, {a}")
            vals.append(t)
    acc = vals[-1]
    for s in svals[1:]:
        t = f"%{nxt}"
        nxt += 1
        lines.append(f"   v1: {t} = v_add_nc_u32 {s}, {acc}")
        acc = t
    lines.append(f"   global_store_b32 %4, {acc}, %7 offset:16")
    return "\n".join(lines) + "\n"


def _deps(p: Program) -> list[tuple[int, int]]:
    """Pairs (a, b) of instruction ids (id()) that must stay ordered: SSA def-use,
    global memory accesses of which one writes (s_load reads buffer %7 too), and scc
    definitions against the instructions that read or write scc."""
    from radcc.ir.regclass import SCC
    instrs = [i for i in p.blocks[0].instructions if i.opcode not in
              ("p_startpgm", "p_logical_start", "p_logical_end", "s_endpgm")]
    out = []
    for x, a in enumerate(instrs):
        adefs = {d.temp.id for d in a.definitions if d.temp is not None}
        a_mem = a.opcode.startswith(("global_", "s_load"))
        a_w = a.opcode.startswith("global_store")
        a_scc = any(o.phys is not None and o.phys.reg == SCC for o in a.operands + a.definitions)
        for b in instrs[x + 1:]:
            buses = {o.temp.id for o in b.operands if o.temp is not None}
            b_mem = b.opcode.startswith(("global_", "s_load"))
            b_w = b.opcode.startswith("global_store")
            b_scc = any(o.phys is not None and o.phys.reg == SCC
                        for o in b.operands + b.definitions)
            if adefs & buses or (a_mem and b_mem and (a_w or b_w)) or (a_scc and b_scc):
                out.append((id(a), id(b)))
    return out


@settings(derandomize=True, max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_blocks_keep_dependencies_and_results(data) -> None:  # type: ignore[no-untyped-def]
    body = _random_block(data.draw)
    text = HEAD + body + TAIL
    p = parse_program(text)
    deps = _deps(p)
    before_demand = _max_demand(p)
    pol = make_policy(p, before_demand)
    schedule_program(p)
    validate_ir(p, "scheduler")
    # the liveness the scheduler leaves (its tracked demands, `liveness_after_reorder`)
    # is what a new analysis computes: kill flags, per-instruction and block demands
    kept = p.analyses.liveness
    assert kept is not None
    assert liveness_is_exact(p)
    fresh = p.analyses.liveness
    assert fresh is not None and fresh is not kept
    assert kept.register_demand == fresh.register_demand
    assert (kept.max_demand, kept.waves_per_simd) == (fresh.max_demand, fresh.waves_per_simd)
    assert (kept.live_in, kept.live_out) == (fresh.live_in, fresh.live_out)
    pos = {id(i): k for k, i in enumerate(p.blocks[0].instructions)}
    for a, b in deps:
        assert pos[a] < pos[b], print_program(p)
    after = _max_demand(p)
    assert not after.exceeds(pol.max_regs.max(before_demand))
    rng = np.random.default_rng(len(body))
    a_in = rng.integers(0, 1000, 64, dtype=np.uint32)
    b_in = np.arange(72, dtype=np.uint32) * 3
    res = []
    for prog in (parse_program(text), p):
        r = run_kernel(prog, {"a": a_in.copy(), "b": b_in.copy()}, groups=1, block=32)
        res.append(r.buffers["b"])
    np.testing.assert_array_equal(res[0], res[1])


@pytest.mark.parametrize("flag", ["nosched"])
def test_pipeline_switch_skips_the_phase(flag: str) -> None:
    from radcc.passes.manager import run_pipeline
    from radcc.passes.options import DebugOptions
    p = parse_program(HEAD + _vgpr_chain(2) + TAIL)
    r = run_pipeline(p, DebugOptions.parse(flag), stop_after="register_allocation")
    assert "scheduler" in r.skipped
    p = parse_program(HEAD + _vgpr_chain(2) + TAIL)
    r = run_pipeline(p, DebugOptions.parse("validateir"), stop_after="register_allocation")
    assert "scheduler" in r.ran
