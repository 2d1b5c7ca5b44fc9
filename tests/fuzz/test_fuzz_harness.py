"""The harness's three ways of running radcc (`cli_harness.MODES`) judge alike.

``subprocess`` (``python -m radcc`` per input) is the reference; the campaigns run
in ``fork`` mode (a child of a fork server per input) and CI in ``inprocess`` mode.
On a few derandomized inputs of three readers, on an internal error and on a hang
(both injected into the reader `radcc.cli.compile.read_shader`: in this process by
monkeypatching it, in the subprocess by a ``sitecustomize`` module on PYTHONPATH),
every mode must give the same exit status, stdout and stderr, and so the same
`cli_harness.problem` verdict.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cli_harness import MODES, Outcome, problem, run_radcc
from fuzzlib import READERS, mutants

import radcc.cli.compile
from radcc.frontend.spirv import spirv_val


def _same(outs: dict[str, Outcome]) -> None:
    ref = outs["subprocess"]
    for mode, o in outs.items():
        assert (o.status, o.stdout, o.stderr, o.hung) == \
            (ref.status, ref.stdout, ref.stderr, ref.hung), mode


@pytest.mark.parametrize(("name", "count", "hide"), [("spirv", 2, False), ("spirv", 1, True),
                                                     ("asm-gfx1100", 5, False)])
def test_modes_agree_on_mutants(name: str, count: int, hide: bool, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    if hide:  # the subprocess gets the same patch (cli_harness._HIDDEN_MAIN)
        monkeypatch.setattr(spirv_val, "find_spirv_val", lambda: None)
    r = READERS[name]
    inputs = [r.seed_bytes()[0]] + [m for _, m in mutants(r, random.Random(f"modes:{name}"),
                                                          count)]
    statuses = set()
    for data in inputs:
        outs = {mode: r.run(data, tmp_path, mode=mode) for mode in MODES}
        _same(outs)
        statuses.add(outs["subprocess"].status)
        assert r.problem(outs["subprocess"]) is None
    assert statuses == {0, 1}  # the draw has both accepted and rejected inputs


_READER = """\
import time

def read_shader(path, defines, **kwargs):
    {body}
"""


def _inject(body: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader replaced by one whose body is `body`: here, and in a subprocess."""
    d = tmp_path / "inject"
    d.mkdir()
    src = _READER.format(body=body)
    (d / "sitecustomize.py").write_text(
        f"{src}\nimport radcc.cli.compile\nradcc.cli.compile.read_shader = read_shader\n")
    ns: dict[str, object] = {}
    exec(src, ns)
    monkeypatch.setattr(radcc.cli.compile, "read_shader", ns["read_shader"])
    monkeypatch.setenv("PYTHONPATH", str(d))


def test_modes_agree_on_internal_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _inject("raise IndexError('injected')", tmp_path, monkeypatch)
    argv = ["compile", str(tmp_path / "x.spv"), "-S", "-o", str(tmp_path / "x.s")]
    outs = {mode: run_radcc(argv, mode=mode) for mode in MODES}
    _same(outs)
    o = outs["fork"]
    assert o.status == 2 and "internal error: IndexError: injected" in o.stderr
    assert problem(o, "spirv") is not None


def test_modes_agree_on_hang(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _inject("time.sleep(600)", tmp_path, monkeypatch)
    argv = ["compile", str(tmp_path / "x.spv"), "-S", "-o", str(tmp_path / "x.s")]
    outs = {mode: run_radcc(argv, timeout=6, mode=mode) for mode in MODES}
    _same(outs)
    assert outs["fork"].hung and problem(outs["fork"], "spirv") == "hang (time limit)"
