"""The pipeline skeleton: order, absent phases, debug switches."""

from __future__ import annotations

import io

import pytest

import radcc.pipeline as pl
from radcc.ir.parser import parse_program
from radcc.ir.validate import ValidationError
from radcc.pipeline import PIPELINE, DebugOptions, PassSpec, available_passes, run_pipeline

PROGRAM = """\
program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, */
   s2: %1:s[0-1], v1: %2:v[0] = p_startpgm
   p_logical_start
   v1: %3 = v_mul_f32 %2, %2
   p_logical_end
   s_endpgm
"""


def test_order_follows_the_seed():
    names = [p.name for p in PIPELINE]
    seed_order = ["repair_ssa", "lower_phis", "lower_subdword", "value_numbering", "optimizer",
                  "reduce_assign", "insert_exec_mask", "live_var_analysis", "lower_to_cssa",
                  "spill", "scheduler", "register_allocation", "optimizer_postra",
                  "ssa_elimination", "jump_threading", "lower_to_hw", "schedule_vopd",
                  "scheduler_ilp", "insert_waitcnt", "insert_nops", "insert_delay_alu",
                  "form_hard_clauses"]
    assert [n for n in names if n in seed_order] == seed_order
    assert names.index("dominance") < names.index("value_numbering")


def test_only_existing_passes_run():
    avail = [s.name for s, _ in available_passes()]
    assert "dominance" in avail and "live_var_analysis" in avail
    assert avail == [p.name for p in PIPELINE if p.name in avail]


def test_debug_option_parsing():
    o = DebugOptions.parse("validateir, novn,print-after=spill,print-after=all,bogus,,time")
    assert o.flags == {"validateir", "novn", "time"}
    assert o.print_after == {"spill", "all"} and o.unknown == ["bogus"]


def test_run_prints_times_and_validates(monkeypatch):
    monkeypatch.setattr(pl, "PIPELINE", (
        PassSpec("dominance", "dominance", "dominator_tree"),
        PassSpec("value_numbering", "dominance", "dominator_tree", ("novn",)),
        PassSpec("not_written_yet", "no_such_module_anywhere", "run"),
        PassSpec("live_var_analysis", "live_var_analysis", "live_var_analysis"),
    ))
    out = io.StringIO()
    p = parse_program(PROGRAM)
    r = run_pipeline(p, DebugOptions.parse("validateir,novn,print-after=live_var_analysis,"
                                           "time,nonsense"), stream=out)
    assert r.ran == ["dominance", "live_var_analysis"] and r.skipped == ["value_numbering"]
    assert set(r.timings) == {"dominance", "live_var_analysis"}
    text = out.getvalue()
    assert "unknown RADCC_DEBUG option 'nonsense'" in text
    assert "// IR after live_var_analysis" in text
    assert "v1: (kill)%3 = v_mul_f32 (firstkill)(kill)%2, (kill)%2" in text
    assert "radcc: dominance" in text and " ms" in text
    assert pl.get_debug_options(p).has("novn")


def test_validateir_names_the_phase(monkeypatch):
    monkeypatch.setattr(pl, "PIPELINE", (PassSpec("dominance", "dominance", "dominator_tree"),))
    p = parse_program(PROGRAM.replace("v_mul_f32 %2, %2", "v_mul_f32 %2, %1"))
    with pytest.raises(ValidationError) as ei:
        run_pipeline(p, DebugOptions.parse("validateir"))
    assert ei.value.phase == "isel"
    ok = parse_program(PROGRAM)
    assert run_pipeline(ok, DebugOptions.parse("")).ran == ["dominance"]


def test_env_variable(monkeypatch):
    monkeypatch.setenv("RADCC_DEBUG", "perfwarn,nosched")
    assert DebugOptions.from_env().flags == {"perfwarn", "nosched"}
    p = parse_program(PROGRAM)
    out = io.StringIO()
    pl.perf_warning(p, "too many copies", out)
    assert out.getvalue() == "radcc: performance warning: too many copies\n"
