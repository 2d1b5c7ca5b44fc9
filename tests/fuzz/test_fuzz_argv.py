"""Command lines of `radcc compile`, `llc`, `run` (kernel and shader forms) and `mc`:
derandomized grammar-aware draws (`argvfuzz.random_argv`) keep the contract of
`cli_harness.problem`, plus the findings of the argv campaigns as regressions.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from argvfuzz import random_argv
from cli_harness import PLAIN_DIAG, problem, run_radcc
from fuzzlib import SEEDS

COUNTS = {"compile": 15, "llc": 40, "run": 60, "run-shader": 60, "mc": 60}


@pytest.mark.parametrize("cmd", sorted(COUNTS))
def test_random_command_lines(cmd: str, tmp_path: Path) -> None:
    rng = random.Random(f"ci:argv:{cmd}")
    bad = []
    for k in range(COUNTS[cmd]):
        d = tmp_path / str(k)
        d.mkdir()
        argv = random_argv(cmd, rng, d)
        p = problem(run_radcc(argv, timeout=60))
        if p is not None:
            bad.append(f"{argv}: {p}")
    assert not bad, "\n".join(bad[:5])


def _fails(argv: list[str], needle: str) -> None:
    o = run_radcc(argv)
    assert problem(o, must_fail=True) is None, o.stderr
    assert PLAIN_DIAG.search(o.stderr) and needle in o.stderr, o.stderr


def test_output_in_missing_directory(tmp_path: Path) -> None:
    """Found by the campaign: -o into a directory that does not exist was a
    FileNotFoundError traceback (mc asm/obj, llc, compile)."""
    ir = tmp_path / "k.ir"
    shutil.copy(SEEDS / "if_then.ir", ir)
    out = str(tmp_path / "no" / "out")
    _fails(["mc", "--mcpu=gfx1030", str(SEEDS / "gfx1030.s"), "-o", out], "cannot write")
    _fails(["mc", "--filetype=obj", str(SEEDS / "gfx1100.s"), "-o", out], "cannot write")
    _fails(["llc", str(ir), "-o", out], "cannot write")
    _fails(["llc", str(ir), "-S", "-o", out], "cannot write")
    _fails(["compile", str(SEEDS / "add.spv"), "-o", out], "cannot write")
    _fails(["compile", str(SEEDS / "add.spv"), "-S", "-o", out], "cannot write")


def test_unknown_pass_names(tmp_path: Path) -> None:
    """Found by the campaign: --print-after/--print-before of a pass that does not
    exist printed nothing and succeeded."""
    ir = tmp_path / "k.ir"
    shutil.copy(SEEDS / "if_then.ir", ir)
    _fails(["llc", str(ir), "-S", "--print-after", "nope"], "no such pass")
    _fails(["llc", str(ir), "-S", "--print-before", "isel"], "no such pass")
    _fails(["compile", str(SEEDS / "add.spv"), "-S", "--print-after", "nope"], "no such pass")
    # the real names still work (MIR pass, isel, back-end phase)
    for name in ("cse", "isel", "lower_to_hw"):
        o = run_radcc(["compile", str(SEEDS / "add.spv"), "-S", "-o", str(tmp_path / "o.s"),
                       "--print-after", name])
        assert o.status == 0 and (name.encode() in o.stdout or name in o.stderr), o.stderr


def test_llc_usage_errors_exit_1() -> None:
    """argparse's usage errors exit with 2; radcc llc's with 1 like every radcc error."""
    for argv in (["llc"], ["llc", "--bogus", "x.ir"], ["llc", "x.ir", "--mcpu"]):
        o = run_radcc(argv)
        assert o.status == 1 and "radcc llc: error:" in o.stderr, (argv, o.status, o.stderr)
