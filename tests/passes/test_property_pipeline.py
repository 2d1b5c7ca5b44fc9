"""Property tests of the back end: random structured programs, compiled and run.

Programs come from `tests.support.randprog` (hypothesis draws every choice, so
failures shrink): straight-line VALU/SALU on v1/v2/v4/s1 values, loads of an
input buffer at per-lane addresses, stores to per-lane slots, uniform and
divergent if/else, counted loops with uniform and divergent break/continue,
nested, in ACO's instruction-selection shapes, wave32 and wave64; the
`DISCARDS` tests add discards and demotes anywhere (divergent, uniform and
unconditional; docs/ir.md "Discards": a discarded lane's later stores never
happen), so insert_exec_mask's discard code (masks, loop header phis,
p_exit_early_if_not) runs under every control-flow shape the generator makes.

Oracles, each independent of what it checks:

- the per-lane Python reference of the AST (`randprog.reference`) for the
  IR interpreter (`tests.support.ir_interp`) on the selected program;
- that reference for the interpreter run on the program after
  insert_exec_mask (explicit EXEC) and after register allocation;
- the interpreter's result on the pre-RA program (and the reference) for
  the compiled code run in `radcc.emu` in strict mode (zero violations);
  also for high-pressure programs (`PRESSURE`: hundreds of VGPR and/or over
  a hundred SGPR variables live at once, runs of them updated inside ifs and
  loops), which the spilling phase must fit into the register file.

validate_ir and validate_ra run after every pass (RADCC_DEBUG validateir,
validatera). Regressions found by these tests are IR files under
tests/passes/regressions/ (checked against the interpreter).
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from radcc.ir.parser import parse_program
from radcc.ir.program import Program
from radcc.ir.validate import validate_ir
from radcc.passes.manager import run_pipeline
from radcc.passes.options import DebugOptions
from radcc.target import get_target
from tests.support.ir_interp import kernel_arg_metadata, run_kernel
from tests.support.randprog import (
    GenConfig,
    Prog,
    count_discards,
    generate,
    kernel_inputs,
    lower,
    reference,
)

TARGET = get_target("gfx1100")
VALIDATE = DebugOptions.parse("validateir,validatera")
REGRESSIONS = Path(__file__).parent / "regressions"
DISCARDS = GenConfig(allow_discard=True, max_stmts=16)


def _settings(n: int):  # type: ignore[no-untyped-def]
    return settings(derandomize=True, max_examples=n, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def programs(draw, cfg: GenConfig | None = None) -> tuple[Prog, int]:  # type: ignore[no-untyped-def]
    wave = draw(st.sampled_from([32, 64]))
    lanes = draw(st.sampled_from([32, 48, 64]))
    base = cfg or GenConfig()
    c = GenConfig(**{**base.__dict__, "lanes": lanes})
    prog = generate(lambda lo, hi: draw(st.integers(lo, hi)), c)
    return prog, wave


def _lowered(prog: Prog, wave: int) -> Program:
    p = lower(prog, TARGET, wave)
    validate_ir(p, "isel")
    return p


def _run_ir(p: Program, prog: Prog, args: dict, wave: int) -> np.ndarray:
    return run_kernel(p, args, 1, prog.lanes, wave_size=wave).buffers["out"]


def _check(got: np.ndarray, want: np.ndarray, what: str) -> None:
    if not np.array_equal(got, want):
        bad = np.flatnonzero(got != want)
        raise AssertionError(f"{what}: {bad.size} words differ, first at {bad[:4].tolist()}: "
                             f"got {got[bad[:4]].tolist()}, want {want[bad[:4]].tolist()}")


# --- the interpreter against the per-lane reference ------------------------------------------
@_settings(60)
@given(programs())
def test_interpreter_matches_reference(pw):
    prog, wave = pw
    args = kernel_inputs(prog)
    p = _lowered(prog, wave)
    _check(_run_ir(p, prog, args, wave), reference(prog, args["inp"], args["k"]),
           "interpreter vs reference")


@_settings(25)
@given(programs(GenConfig(allow_divergence=False, max_stmts=16)))
def test_interpreter_uniform_programs(pw):
    prog, wave = pw
    args = kernel_inputs(prog, 7)
    p = _lowered(prog, wave)
    _check(_run_ir(p, prog, args, wave), reference(prog, args["inp"], args["k"]),
           "interpreter vs reference")


# --- passes keep the meaning (interpreted after a phase) -------------------------------------
@_settings(30)
@given(programs())
def test_explicit_exec_form_matches_reference(pw):
    prog, wave = pw
    args = kernel_inputs(prog, 3)
    p = _lowered(prog, wave)
    run_pipeline(p, VALIDATE, stop_after="insert_exec_mask", stream=io.StringIO())
    _check(_run_ir(p, prog, args, wave), reference(prog, args["inp"], args["k"]),
           "after insert_exec_mask")


@_settings(30)
@given(programs())
def test_allocated_program_matches_reference(pw):
    prog, wave = pw
    args = kernel_inputs(prog, 5)
    p = _lowered(prog, wave)
    run_pipeline(p, VALIDATE, stop_after="register_allocation", stream=io.StringIO())
    _check(_run_ir(p, prog, args, wave), reference(prog, args["inp"], args["k"]),
           "after register_allocation")


# --- compiled code in the emulator against the interpreter ------------------------------------
def _emulate(p: Program, args: dict, lanes: int, wave: int):  # type: ignore[no-untyped-def]
    from radcc.emu.api import load
    from radcc.passes.emit_program import emit_code_object, emit_program

    run_pipeline(p, VALIDATE, stream=io.StringIO())
    res = emit_program(p)
    obj = emit_code_object(p, res, kernel_arg_metadata(args))
    return load(obj).run(p.name, 1, lanes, dict(args), wave_size=wave, strict=True)


@_settings(40)
@given(programs())
def test_compiled_program_matches_interpreter(pw):
    prog, wave = pw
    args = kernel_inputs(prog, 11)
    want = _run_ir(_lowered(prog, wave), prog, args, wave)
    _check(want, reference(prog, args["inp"], args["k"]), "interpreter vs reference")
    r = _emulate(_lowered(prog, wave), args, prog.lanes, wave)
    assert not r.violations, "\n".join(str(v) for v in r.violations[:5])
    _check(r.buffers["out"], want, "emulated binary vs interpreter")


# --- discards and demotes ------------------------------------------------------------------
@_settings(40)
@given(programs(DISCARDS))
def test_discards_interpreter_matches_reference(pw):
    prog, wave = pw
    assume(count_discards(prog.body) > 0)
    args = kernel_inputs(prog, 13)
    _check(_run_ir(_lowered(prog, wave), prog, args, wave),
           reference(prog, args["inp"], args["k"]), "interpreter vs reference")


@_settings(40)
@given(programs(DISCARDS))
def test_discards_explicit_exec_form_matches_reference(pw):
    prog, wave = pw
    assume(count_discards(prog.body) > 0)
    args = kernel_inputs(prog, 17)
    p = _lowered(prog, wave)
    run_pipeline(p, VALIDATE, stop_after="insert_exec_mask", stream=io.StringIO())
    _check(_run_ir(p, prog, args, wave), reference(prog, args["inp"], args["k"]),
           "after insert_exec_mask")


@_settings(40)
@given(programs(DISCARDS))
def test_discards_compiled_program_matches_interpreter(pw):
    prog, wave = pw
    assume(count_discards(prog.body) > 0)
    args = kernel_inputs(prog, 19)
    want = _run_ir(_lowered(prog, wave), prog, args, wave)
    _check(want, reference(prog, args["inp"], args["k"]), "interpreter vs reference")
    r = _emulate(_lowered(prog, wave), args, prog.lanes, wave)
    assert not r.violations, "\n".join(str(v) for v in r.violations[:5])
    _check(r.buffers["out"], want, "emulated binary vs interpreter")


# --- high register pressure: spilling on random control flow ------------------------------------
# Hundreds of variables live throughout (all stored at the end), sweeps updating runs of them
# inside ifs and loops (as many phis, which may exceed the register file themselves):
# radcc.passes.spill must bring VGPRs over 256 / SGPRs over 106 within the file on every
# control-flow shape the generator makes (with discards and demotes too), and the code must
# still compute the reference.
PRESSURE = {
    "vgpr": GenConfig(nv=262, ns=4, nw=3, sweep=90, max_stmts=14),
    "sgpr": GenConfig(nv=8, ns=112, nw=2, sweep=60, max_stmts=14),
    "both": GenConfig(nv=258, ns=110, nw=2, sweep=90, max_stmts=12),
    "discard": GenConfig(nv=258, ns=110, nw=2, sweep=90, max_stmts=14, allow_discard=True),
}


@st.composite
def pressure_programs(draw):  # type: ignore[no-untyped-def]
    mode = draw(st.sampled_from(sorted(PRESSURE)))
    prog, wave = draw(programs(PRESSURE[mode]))
    return mode, prog, wave


@_settings(24)
@given(pressure_programs())
def test_high_pressure_compiled_program_matches_interpreter(mpw):
    mode, prog, wave = mpw
    args = kernel_inputs(prog, 23)
    want = _run_ir(_lowered(prog, wave), prog, args, wave)
    _check(want, reference(prog, args["inp"], args["k"]), "interpreter vs reference")
    p = _lowered(prog, wave)
    r = _emulate(p, args, prog.lanes, wave)
    assert not r.violations, "\n".join(str(v) for v in r.violations[:5])
    _check(r.buffers["out"], want, "emulated binary vs interpreter")
    # every variable is live before the final stores: the file was exceeded
    if mode in ("vgpr", "both", "discard"):
        assert p.config.spilled_vgprs > 0
    if mode in ("sgpr", "both", "discard"):
        assert p.config.spilled_sgprs > 0


def test_discard_reference_ends_lanes():
    """The reference itself (hand-checked): lanes with gid >= 3 are discarded
    between two stores of v0 (= gid), a demote of every lane left ends the
    rest before a third store: slot 1 keeps lanes 0-2, slot 2 stays 0."""
    from tests.support.randprog import Cond, Discard, Src, Store

    body = [Store(0, Src("v", 0)), Discard(Cond("ge", Src("v", 0), Src("k", 3))),
            Store(1, Src("v", 0)), Discard(None, demote=True), Store(2, Src("v", 0))]
    prog = Prog(1, 0, 0, body, 3, 8)
    args = kernel_inputs(prog)
    out = reference(prog, args["inp"], args["k"]).reshape(3, 8, 2)[:, :, 0]
    assert out.tolist() == [list(range(8)), [0, 1, 2, 0, 0, 0, 0, 0], [0] * 8]


# --- regressions: IR files found by the generator ---------------------------------------------
def _regression_files() -> list[Path]:
    return sorted(REGRESSIONS.glob("*.ir")) if REGRESSIONS.is_dir() else []


def _header(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        if line.startswith("#") and ":" in line:
            k, _, v = line[1:].partition(":")
            out[k.strip()] = v.strip()
    return out


@pytest.mark.parametrize("path", _regression_files(), ids=lambda p: p.stem)
def test_regression(path: Path):
    text = path.read_text()
    h = _header(text)
    try:
        _run_regression(path, text, h)
    except Exception as e:  # noqa: BLE001
        if "xfail" in h:
            pytest.xfail(f"{h['xfail']} ({type(e).__name__}: {str(e)[:200]})")
        raise
    assert "xfail" not in h, "passes now: remove the '# xfail:' line"


def _run_regression(path: Path, text: str, h: dict[str, str]) -> None:
    lanes, slots = int(h["lanes"]), int(h["slots"])
    body = "\n".join(ln for ln in text.splitlines() if not ln.startswith("#"))
    prog = Prog(0, 0, 0, [], slots, lanes)
    args = kernel_inputs(prog, int(h.get("seed", "1")))
    pre = parse_program(body, str(path))
    wave = pre.wave_size
    want = _run_ir(pre, prog, args, wave)
    r = _emulate(parse_program(body, str(path)), args, lanes, wave)
    assert not r.violations, "\n".join(str(v) for v in r.violations[:5])
    _check(r.buffers["out"], want, "emulated binary vs interpreter")
