"""Divergent control flow end to end: cf_gen kernels through the whole pipeline
into the strict emulator, against the per-lane reading of the source.

A statement tree (tests/passes/cf_gen.py) is built twice: `build` (inputs as
p_startpgm definitions, observations as p_unit_test) and `build_kernel` (the
kernel ABI of docs/abi.md: inputs from a buffer through the kernarg pointer,
each observation folded into a per-lane hash stored with global_store). The
expected output of a work-item is `fold_observations` of the trace that
`cf_interp.run_logical` (each lane alone along the logical CFG, no EXEC)
records for it on the first program; `tests.support.ir_interp.run_kernel` on the
kernel before the pipeline is checked against the same expectation.

The kernel is compiled by `run_pipeline` with validate_ir/validate_ra after
every pass (lower_phis, insert_exec_mask, RA, waits, hazards, ...), emitted
as a code object and run in `radcc.emu` in strict mode (no violation
allowed), wave32 and wave64, with full, several and partial waves.
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from radcc.ir.printer import print_program
from radcc.ir.validate import validate_ir
from radcc.passes.manager import run_pipeline
from radcc.passes.options import DebugOptions
from tests.support.ir_interp import kernel_arg_metadata, run_kernel

sys.path.insert(0, str(Path(__file__).parent))
from cf_gen import build, build_kernel, fold_observations, random_tree  # noqa: E402
from cf_interp import run_logical  # noqa: E402

VALIDATE = DebugOptions.parse("validateir,validatera")
NV, NB, NS = 2, 2, 1

# -- named programs ----------------------------------------------------------------------------
IF_ELSE = [("if", "div", "b0", [("vop", "v0", "v0", "add", 5), ("obs", 1)],
            [("vop", "v1", "v1", "xor", 3), ("obs", 2)]), ("obs", 3)]

NESTED_IFS = [("if", "div", "b0", [
    ("if", "div", "b1", [("vop", "v0", "v0", "add", 2), ("bcmp", "b0", "v0", "lt", 9)],
     [("bnot", "b1", "b1")]),
    ("obs", 1)], [("if", "div", "b1", [("obs", 2)], [("vop", "v1", "v0", "mul", 3)])]),
    ("obs", 3)]

# booleans redefined on some paths and read after the merge / the loop
# (lower_phis: boolean phis at merges, loop headers and loop exits)
BOOLEAN_PHIS = [
    ("if", "div", "b0", [("bcmp", "b1", "v0", "gt", 4)], [("band", "b1", "b1", "b0")]),
    ("obs", 1),
    ("loop", "v1", [("bnot", "b0", "b0"),
                    ("if", "div", "b1", [("bcmp", "b1", "v1", "lt", 6), ("break",)],
                     [("band", "b0", "b0", "b1")]),
                    ("vop", "v1", "v1", "add", 1)]),
    ("if", "div", "b0", [("obs", 2)], [("obs", 3)]),
    ("obs", 4)]

LOOP_BREAK_CONTINUE = [("loop", "v0", [
    ("vop", "v1", "v1", "add", 1),
    ("if", "div", "b0", [("obs", 1), ("bnot", "b0", "b0"), ("continue",)], []),
    ("if", "div", "b1", [("obs", 2), ("break",)], [("bcmp", "b1", "v1", "gt", 9)]),
    ("obs", 3)]), ("obs", 4)]

NESTED_LOOPS = [("loop", "v0", [
    ("vop", "v1", "v1", "add", 3),
    ("if", "div", "b0", [("bnot", "b1", "b1"), ("obs", 1), ("continue",)], [("obs", 2)]),
    ("loop", "v1", [("obs", 3), ("if", "div", "b1", [("obs", 4), ("break",)], []),
                    ("vop", "v0", "v0", "add", 1)]),
    ("obs", 5)]), ("obs", 6)]

CONTINUE_AFTER_INNER_LOOP = [("loop", "v0", [
    ("vop", "v1", "v1", "add", 3),
    ("uloop", 2, [("obs", 1), ("vop", "v0", "v0", "add", 1)]),
    ("if", "div", "b0", [("obs", 2), ("continue",)], [("obs", 3)]),
    ("obs", 4)]), ("obs", 5)]

UNIFORM_IN_DIVERGENT = [("if", "div", "b0", [
    ("vop", "v1", "v1", "add", 1),
    ("if", "uni", ("s0", "lt", 6), [("vop", "v1", "v1", "xor", 5), ("obs", 1)],
     [("obs", 2)]),
    ("uloop", 1, [("vop", "v0", "v0", "add", 2), ("obs", 3)]),
    ("obs", 4)], [("obs", 5)]), ("obs", 6)]

BREAK_IN_UNIFORM_IF = [("loop", "v0", [
    ("if", "div", "b0", [
        ("if", "uni", ("s0", "lt", 6), [("obs", 1), ("break",)], [("obs", 2)]),
        ("obs", 3), ("vop", "v1", "v1", "add", 1)], [("obs", 4)]),
    ("obs", 5)]), ("obs", 6)]

# a divergent continue in a uniform if inside the empty-exec skip of an
# earlier one: the code after the uniform if may run with no lane active
CONTINUE_IN_SKIPPED_UNIFORM_IF = [("loop", "v1", [
    ("if", "div", "b0", [
        ("if", "div", "b1", [("obs", 1)], [("obs", 2), ("continue",)]),
        ("if", "uni", ("s0", "lt", 11), [("vop", "v0", "v0", "add", 1), ("obs", 3),
                                         ("continue",)],
         [("bcmp", "b1", "v0", "ne", 4), ("obs", 4)]),
        ("obs", 5)], [("obs", 6)]),
    ("obs", 7)]), ("obs", 8)]

NAMED = {
    "if_else": IF_ELSE, "nested_ifs": NESTED_IFS, "boolean_phis": BOOLEAN_PHIS,
    "loop_break_continue": LOOP_BREAK_CONTINUE, "nested_loops": NESTED_LOOPS,
    "continue_after_inner_loop": CONTINUE_AFTER_INNER_LOOP,
    "uniform_in_divergent": UNIFORM_IN_DIVERGENT, "break_in_uniform_if": BREAK_IN_UNIFORM_IF,
    "continue_in_skipped_uniform_if": CONTINUE_IN_SKIPPED_UNIFORM_IF,
}


# -- the harness -------------------------------------------------------------------------------
def kernel_args(lanes: int, groups: int, seed: int, s0: int | None = None) -> dict:
    rng = np.random.default_rng(seed)
    n = lanes * groups
    args: dict = {"out": np.zeros(n, np.uint32),
                  "inp": rng.integers(0, 12, n * NV).astype(np.uint32)}
    for i in range(NS):
        args[f"s{i}"] = int(rng.integers(0, 12)) if s0 is None else s0
    return args


def expected(tree: list, args: dict, lanes: int, groups: int, wave: int) -> np.ndarray:
    """Each lane alone along the logical CFG of the p_unit_test program."""
    src = build(tree, NV, NB, NS, wave)
    inp = args["inp"]
    out = np.zeros(lanes * groups, np.uint32)
    for g in range(groups):
        for w0 in range(0, lanes, wave):
            n = min(wave, lanes - w0)
            gids = [g * lanes + w0 + lane for lane in range(n)] + [0] * (wave - n)
            inputs: list = [[int(inp[gid * NV + i]) for gid in gids] for i in range(NV)]
            inputs += [args[f"s{i}"] for i in range(NS)]
            obs = run_logical(src, inputs, (1 << n) - 1)
            for lane in range(n):
                out[gids[lane]] = fold_observations(obs.get(lane, []))
    return out


def compile_and_run(tree: list, args: dict, lanes: int, groups: int, wave: int):  # type: ignore[no-untyped-def]
    from radcc.emu.api import load
    from radcc.passes.emit_program import emit_code_object, emit_program

    k = build_kernel(tree, lanes, NV, NB, NS, wave)
    validate_ir(k, "isel")
    run_pipeline(k, VALIDATE, stream=io.StringIO())
    obj = emit_code_object(k, emit_program(k), kernel_arg_metadata(args))
    return load(obj).run(k.name, groups, lanes, dict(args), wave_size=wave, strict=True)


def check(tree: list, lanes: int, groups: int, wave: int, seed: int,
          s0: int | None = None) -> None:
    args = kernel_args(lanes, groups, seed, s0)
    want = expected(tree, args, lanes, groups, wave)
    ref = run_kernel(build_kernel(tree, lanes, NV, NB, NS, wave), args, groups, lanes,
                     wave_size=wave).buffers["out"]
    _same(ref, want, "tests.support.ir_interp (before the pipeline) vs per-lane reading")
    r = compile_and_run(tree, args, lanes, groups, wave)
    assert not r.violations, "\n".join(str(v) for v in r.violations[:5])
    _same(r.buffers["out"], want, "emulated kernel vs per-lane reading")


def _same(got: np.ndarray, want: np.ndarray, what: str) -> None:
    if not np.array_equal(got, want):
        bad = np.flatnonzero(got != want)
        raise AssertionError(f"{what}: {bad.size} work-items differ, first {bad[:4].tolist()}: "
                             f"got {got[bad[:4]].tolist()}, want {want[bad[:4]].tolist()}")


# -- tests -------------------------------------------------------------------------------------
def test_kernel_follows_the_abi() -> None:
    text = print_program(build_kernel(IF_ELSE, 64))
    assert "s2: %1:s[0-1], s1: %2:s[2], v1: %3:v[0] = p_startpgm" in text
    assert "global_store_b32" in text and "p_unit_test" not in text


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", list(NAMED))
def test_named(name: str, wave: int) -> None:
    # wave32: two full waves per group; wave64: one partial wave (48 lanes)
    lanes = 64 if wave == 32 else 48
    check(NAMED[name], lanes, 1, wave, seed=list(NAMED).index(name))


@pytest.mark.parametrize("s0", [2, 9])
def test_uniform_branch_both_ways(s0: int) -> None:
    check(UNIFORM_IN_DIVERGENT, 32, 2, 32, seed=s0, s0=s0)
    check(BREAK_IN_UNIFORM_IF, 64, 1, 64, seed=s0, s0=s0)


def rich_tree(rng: random.Random, uniform_loops: bool, jumps: bool) -> list:
    """A random tree with a loop, two divergent ifs and (if `jumps`) a
    break or continue: the first of the generator's draws that has them."""
    for _ in range(200):
        tree = random_tree(rng, NV, NB, NS, size=20, max_depth=3, uniform_loops=uniform_loops)
        t = repr(tree)
        if ("'loop'" in t or "'uloop'" in t) and t.count("'div'") >= 2 and \
                (not jumps or "'break'" in t or "'continue'" in t):
            return tree
    raise AssertionError("no such tree drawn")


@pytest.mark.parametrize("seed", range(30))
def test_generated(seed: int) -> None:
    rng = random.Random(5000 + seed)
    wave = 32 if seed % 2 == 0 else 64
    tree = rich_tree(rng, uniform_loops=seed % 3 != 0, jumps=seed % 4 != 3)
    lanes = rng.choice([wave, 48, 64])
    check(tree, lanes, 1, wave, seed)
