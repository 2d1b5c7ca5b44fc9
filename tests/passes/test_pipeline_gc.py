"""run_pipeline and compile_spirv pause Python's cyclic garbage collector (full
collections over the growing IR heap made large compiles superlinear) and
restore it as they found it, also when a pass raises."""

from __future__ import annotations

import gc

import pytest

import radcc.pipeline as pipeline
from radcc.ir.program import Program
from radcc.pipeline import DebugOptions, PassSpec, gc_paused, run_pipeline
from radcc.target import get_target


def _with_pass(monkeypatch: pytest.MonkeyPatch, fn) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(pipeline, "available_passes",
                        lambda: [(PassSpec("probe", "probe", "probe"), fn)])


@pytest.mark.parametrize("enabled", [True, False])
def test_gc_off_during_passes_and_restored(monkeypatch: pytest.MonkeyPatch,
                                           enabled: bool) -> None:
    seen: list[bool] = []
    _with_pass(monkeypatch, lambda p: seen.append(gc.isenabled()))
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        run_pipeline(Program(get_target("gfx1100")), DebugOptions())
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert seen == [False]


def test_gc_restored_when_a_pass_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(p: Program) -> None:
        raise RuntimeError("pass failed")

    _with_pass(monkeypatch, boom)
    assert gc.isenabled()
    with pytest.raises(RuntimeError, match="pass failed"):
        run_pipeline(Program(get_target("gfx1100")), DebugOptions())
    assert gc.isenabled()


def test_gc_paused_nests() -> None:
    assert gc.isenabled()
    with gc_paused():
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
