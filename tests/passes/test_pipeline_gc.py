"""run_pipeline and compile_spirv pause Python's cyclic garbage collector (full
collections over the growing IR heap made large compiles superlinear) and
restore it as they found it, also when a pass raises."""

from __future__ import annotations

import gc

import pytest

from radcc.ir.program import Program
from radcc.passes.manager import PassSpec, gc_paused, run_pipeline
from radcc.passes.options import DebugOptions
from radcc.target import get_target


def _probe(fn) -> tuple[PassSpec]:  # type: ignore[no-untyped-def]
    return (PassSpec("probe", fn),)


@pytest.mark.parametrize("enabled", [True, False])
def test_gc_off_during_passes_and_restored(enabled: bool) -> None:
    seen: list[bool] = []
    passes = _probe(lambda p: seen.append(gc.isenabled()))
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        run_pipeline(Program(get_target("gfx1100")), DebugOptions(), passes=passes)
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert seen == [False]


def test_gc_restored_when_a_pass_raises() -> None:
    def boom(p: Program) -> None:
        raise RuntimeError("pass failed")

    assert gc.isenabled()
    with pytest.raises(RuntimeError, match="pass failed"):
        run_pipeline(Program(get_target("gfx1100")), DebugOptions(), passes=_probe(boom))
    assert gc.isenabled()


def test_gc_paused_nests() -> None:
    assert gc.isenabled()
    with gc_paused():
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
