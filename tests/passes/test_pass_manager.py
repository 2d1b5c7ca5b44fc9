"""The pass manager (radcc/passes/manager.py): order, options, validation,
analyses and their invalidation."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from radcc.ir.analyses import Analysis
from radcc.ir.dominance import dominator_tree, require_dominance
from radcc.ir.parser import parse_program
from radcc.ir.program import Block, Instruction, Operand, Program
from radcc.ir.validate import ValidationError
from radcc.passes.live_var_analysis import get_live_vars, live_var_analysis
from radcc.passes.manager import (
    PIPELINE,
    PassSpec,
    UnknownPassError,
    check_pass_names,
    pass_names,
    run_pipeline,
)
from radcc.passes.options import DebugFlag, DebugOptions

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

LIVE, DOM = Analysis.LIVENESS, Analysis.DOMINANCE


def test_order_follows_aco():
    # ACO's "Compilation phases" (mesa src/amd/compiler/README.md), without
    # lower_subdword (GFX6-7 only: the manager's docstring)
    aco_order = ["repair_ssa", "lower_phis", "value_numbering", "optimizer",
                 "reduce_assign", "insert_exec_mask", "live_var_analysis", "lower_to_cssa",
                 "spill", "scheduler", "register_allocation", "optimizer_postra",
                 "ssa_elimination", "jump_threading", "lower_to_hw", "schedule_vopd",
                 "scheduler_ilp", "insert_waitcnt", "insert_nops", "insert_delay_alu",
                 "form_hard_clauses"]
    names = pass_names()
    assert [n for n in names if n in aco_order] == aco_order
    assert names.index("dominance") < names.index("value_numbering")
    assert "lower_subdword" not in names and len(set(names)) == len(names)


def test_every_phase_is_a_function_of_its_module():
    for spec in PIPELINE:
        assert callable(spec.run)
        # phases live in radcc.passes; the dominance analysis the list computes in radcc.ir
        assert spec.run.__module__.startswith(("radcc.passes.", "radcc.ir.dominance")), spec.name


def test_debug_option_parsing():
    o = DebugOptions.parse("validateir, novn,print-after=spill,print-after=all,bogus,,time")
    assert o.flags == {DebugFlag.VALIDATE_IR, DebugFlag.NO_VN, DebugFlag.TIME}
    assert o.print_after == {"spill", "all"} and o.unknown == ("bogus",)
    assert o.with_prints(after={"x"}).print_after == {"spill", "all", "x"}
    assert o.print_after == {"spill", "all"}  # options are values


@pytest.mark.parametrize("option", ["print-after", "print-before"])
def test_unknown_print_name_is_refused_listing_the_valid_ones(option):
    p = parse_program(PROGRAM)
    with pytest.raises(UnknownPassError) as ei:
        run_pipeline(p, DebugOptions.parse(f"{option}=spil"), stream=io.StringIO())
    msg = str(ei.value)
    assert f"{option} 'spil': no such pass" in msg
    assert all(n in msg for n in ("all", "spill", "register_allocation", "form_hard_clauses"))
    assert p.blocks[0].instructions[2].operands[0].is_kill is False  # nothing ran
    check_pass_names(["all", "spill"], option)
    with pytest.raises(UnknownPassError, match="'isel'"):
        check_pass_names(["isel"], option)
    check_pass_names(["isel"], option, extra=["isel"])


def _spec(name, fn, **kw) -> PassSpec:
    return PassSpec(name, fn, **kw)


def test_skip_flags_options_prints_and_times():
    calls: list[tuple[str, dict]] = []

    def probe(name):
        return lambda p, **kw: calls.append((name, kw))

    passes = (
        _spec("a", probe("a")),
        _spec("vn", probe("vn"), skipped_by=frozenset({DebugFlag.NO_VN})),
        _spec("sched", probe("sched"),
              skipped_by=frozenset({DebugFlag.NO_SCHED, DebugFlag.NO_SCHED_ILP}),
              options=lambda o: {"vopd": not o.has(DebugFlag.NO_SCHED_VOPD)}),
        _spec("live", live_var_analysis),
    )
    out = io.StringIO()
    p = parse_program(PROGRAM)
    r = run_pipeline(p, DebugOptions.parse("novn,nosched-vopd,print-after=live,"
                                           "print-before=a,time,nonsense"),
                     passes=passes, stream=out)
    assert r.ran == ["a", "sched", "live"] and r.skipped == ["vn"]
    assert calls == [("a", {}), ("sched", {"vopd": False})]
    assert set(r.timings) == {"a", "sched", "live"}
    text = out.getvalue()
    assert "unknown RADCC_DEBUG option 'nonsense'" in text
    assert "// IR before a" in text and "// IR after live" in text
    assert "v1: (kill)%3 = v_mul_f32 (firstkill)(kill)%2, (kill)%2" in text
    assert "radcc: live" in text and " ms" in text
    calls.clear()
    r = run_pipeline(p, DebugOptions.parse("nosched-ilp"), passes=passes, stop_after="a",
                     stream=out)
    assert r.ran == ["a"] and calls == [("a", {})]
    r = run_pipeline(p, DebugOptions(), passes=passes, start_after="vn", stream=out)
    assert r.ran == ["sched", "live"] and calls[-1] == ("sched", {"vopd": True})


def test_the_pipeline_hands_insert_waitcnt_and_scheduler_ilp_their_options(monkeypatch):
    seen: dict[str, dict] = {}
    passes = tuple(
        PassSpec(s.name, (lambda n: lambda p, **kw: seen.__setitem__(n, kw))(s.name),
                 s.skipped_by, s.preserves, s.options, s.sgpr_dominance, s.leaves_ssa)
        for s in PIPELINE)
    run_pipeline(parse_program(PROGRAM), DebugOptions.parse("force-waitcnt,nosched-vopd"),
                 passes=passes)
    assert seen["insert_waitcnt"] == {"force_waitcnt": True}
    assert seen["scheduler_ilp"] == {"vopd": False}
    assert "schedule_vopd" not in seen
    seen.clear()
    run_pipeline(parse_program(PROGRAM), DebugOptions(), passes=passes)
    assert seen["insert_waitcnt"] == {"force_waitcnt": False}
    assert seen["scheduler_ilp"] == {"vopd": True}


def test_validateir_between_passes_names_the_phase():
    def breaks_ssa(p: Program) -> None:  # v_mul_f32 reads %1, an SGPR pair
        ins = p.blocks[0].instructions[2]
        ins.operands[1] = Operand(p.blocks[0].instructions[0].definitions[0].temp)

    passes = (_spec("ok", lambda p: None), _spec("bad", breaks_ssa), _spec("never", dominator_tree))
    p = parse_program(PROGRAM)
    with pytest.raises(ValidationError) as ei:
        run_pipeline(p, DebugOptions.parse("validateir"), passes=passes)
    assert ei.value.phase == "bad"
    p = parse_program(PROGRAM.replace("v_mul_f32 %2, %2", "v_mul_f32 %2, %1"))
    with pytest.raises(ValidationError) as ei:
        run_pipeline(p, DebugOptions.parse("validateir"), passes=passes)
    assert ei.value.phase == "isel"  # the input is checked first
    r = run_pipeline(p, DebugOptions(), passes=passes)  # unchecked without the flag
    assert r.ran == ["ok", "bad", "never"]


# -- analyses -----------------------------------------------------------------------------

def _split_entry(p: Program) -> None:
    """A CFG change: a new empty block after BB0 (BB0 -> BB1 on both CFGs)."""
    b0 = p.blocks[0]
    end = b0.instructions.pop()
    b1 = Block(len(p.blocks), instructions=[end], logical_preds=[0], linear_preds=[0],
               kind=b0.kind)
    b0.logical_succs, b0.linear_succs = [1], [1]
    p.blocks.append(b1)
    b0.instructions.append(Instruction("s_branch", "SOPP", fields={"targets": [1]}))


def _reading(n: dict[str, int]):
    """A pass body that requires dominance and liveness, counting in `n` the times each
    had to be computed (it was not current when asked for). Observed through
    `p.analyses`, not by patching the analyses' functions: the compiled build calls
    those natively, past any monkeypatch."""
    def reads(p: Program) -> object:
        n["dom"] += not p.analyses.dominance
        require_dominance(p)
        n["live"] += p.analyses.liveness is None
        return get_live_vars(p)
    return reads


def test_an_undeclared_cfg_change_makes_the_analyses_recomputed():
    n = {"live": 0, "dom": 0}
    idoms: list[list[int]] = []
    require_both = _reading(n)

    def reads(p: Program) -> None:
        require_both(p)
        idoms.append([b.logical_idom for b in p.blocks])

    passes = (_spec("reads1", reads, preserves=frozenset(Analysis)),
              _spec("splits", _split_entry),  # declares nothing preserved
              _spec("reads2", reads, preserves=frozenset(Analysis)))
    p = parse_program(PROGRAM)
    run_pipeline(p, DebugOptions(), passes=passes)
    assert n == {"live": 2, "dom": 2}
    assert idoms == [[0], [0, 0]]
    assert p.analyses.current() == {LIVE, DOM}


def test_a_preserved_analysis_is_not_recomputed():
    n = {"live": 0, "dom": 0}
    seen: list[object] = []
    require_both = _reading(n)

    def reads(p: Program) -> None:
        seen.append(require_both(p))

    passes = (_spec("reads1", reads, preserves=frozenset(Analysis)),
              _spec("nothing", lambda p: None, preserves=frozenset(Analysis)),
              _spec("keeps_cfg", lambda p: None, preserves=frozenset({DOM})),
              _spec("reads2", reads, preserves=frozenset(Analysis)))
    p = parse_program(PROGRAM)
    run_pipeline(p, DebugOptions(), passes=passes)
    # dominance survived all; liveness was dropped by keeps_cfg and recomputed once
    assert n == {"live": 2, "dom": 1}
    assert seen[0] is not seen[1]
    n["live"] = 0
    run_pipeline(p, DebugOptions(), passes=passes[:2])
    assert n == {"live": 0, "dom": 1} and seen[2] is seen[1]


def test_validateir_refuses_a_wrong_preservation_declaration():
    passes = (_spec("dom", dominator_tree, preserves=frozenset(Analysis)),
              _spec("splits", _split_entry, preserves=frozenset({DOM})))
    with pytest.raises(ValidationError) as ei:
        run_pipeline(parse_program(PROGRAM), DebugOptions.parse("validateir"), passes=passes)
    assert ei.value.phase == "splits" and "dominance preserved" in str(ei.value)
    passes = (_spec("live", live_var_analysis, preserves=frozenset(Analysis)),
              _spec("drops", lambda p: p.blocks[0].instructions.pop(2),
                    preserves=frozenset({LIVE})))
    with pytest.raises(ValidationError, match="liveness preserved"):
        run_pipeline(parse_program(PROGRAM), DebugOptions.parse("validateir"), passes=passes)


@pytest.mark.parametrize("name", ["nested_loop_divergent_break", "if_else_w64"])
def test_the_phase_list_declarations_hold_on_real_programs(name):
    # validateir checks every phase's preservation declaration (and the IR) on the way
    path = Path(__file__).parents[1] / "e2e" / "programs" / f"{name}.ir"
    p = parse_program(path.read_text(), str(path))
    r = run_pipeline(p, DebugOptions.parse("validateir,validatera"), stream=io.StringIO())
    assert r.ran == pass_names()


# -- options come from the command line only --------------------------------------------------

IR = Path(__file__).parents[1] / "e2e" / "programs" / "if_else.ir"
SPV = Path(__file__).parents[1] / "fuzz" / "corpus" / "seeds" / "add.spv"


def test_the_cli_reads_radcc_debug_and_hands_it_down(monkeypatch, capsys, tmp_path):
    from radcc.cli import main

    monkeypatch.setenv("RADCC_DEBUG", "time,print-after=insert_waitcnt")
    assert main(["llc", str(IR), "-S", "-o", str(tmp_path / "a.s")]) == 0
    err = capsys.readouterr().err
    assert "// IR after insert_waitcnt" in err and "radcc: form_hard_clauses" in err
    assert main(["compile", str(SPV), "-S", "-o", str(tmp_path / "b.s")]) == 0
    assert "// IR after insert_waitcnt" in capsys.readouterr().err
    monkeypatch.setenv("RADCC_DEBUG", "print-after=nope")
    assert main(["llc", str(IR), "-S", "-o", str(tmp_path / "c.s")]) == 1
    err = capsys.readouterr().err
    assert "RADCC_DEBUG print-after 'nope': no such pass" in err and "Traceback" not in err
    assert main(["compile", str(SPV), "-S", "-o", str(tmp_path / "d.s")]) == 1
    assert "RADCC_DEBUG print-after 'nope': no such pass" in capsys.readouterr().err


def test_the_drivers_do_not_read_the_environment(monkeypatch, capsys):
    from radcc.driver.compile import compile_spirv
    from radcc.driver.llc import compile_file

    monkeypatch.setenv("RADCC_DEBUG", "time,print-after=all,nonsense")
    compile_file(str(IR), IR.read_text(), asm=True)
    compile_spirv(SPV.read_bytes())
    assert capsys.readouterr().err == ""
    compile_file(str(IR), IR.read_text(), asm=True,
                 debug_options=DebugOptions.parse("print-after=spill"))
    compile_spirv(SPV.read_bytes(), debug_options=DebugOptions.parse("print-before=spill"))
    err = capsys.readouterr().err
    assert "// IR after spill" in err and "// IR before spill" in err
