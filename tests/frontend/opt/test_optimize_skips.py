"""`optimize`'s skipped runs (``opt.ENABLES``): a LOOP pass that found nothing is not
run again until a pass whose changes may give it work changed the shader. Checked on
the GLSL suite of tests/e2e/glsl, lowered for wave32 or wave64: every skipped pass,
run anyway (``check_skips``), changes nothing, and the shader lowered so (every pass
run as before ``ENABLES``) prints as the one lowered with the skips."""

from __future__ import annotations

import pytest

from radcc.frontend.mir import Binding, MirFunction, MirShader
from radcc.frontend.mir_builder import MirBuilder
from radcc.frontend.mir_print import print_shader
from radcc.frontend.opt import ENABLES, LOOP, cse, lower_for_isel, optimize
from radcc.frontend.spirv import read_spirv
from radcc.frontend.spirv_to_mir import spirv_to_mir
from radcc.target import get_target
from tests.e2e.glsl.cases import CASES
from tests.e2e.glsl_harness import Case, compile_case

GFX11 = get_target("gfx1100").mir_options


def test_enables_names_loop_passes() -> None:
    assert set(ENABLES) == set(LOOP)
    for name, enabled in ENABLES.items():
        assert enabled <= set(LOOP), name
        assert "copy_prop" in enabled, name  # (its silent swizzle composition)


def test_cse_gives_algebraic_work() -> None:
    """(x + 1) - (x + 1) with the two sums (and their constants) apart: only cse's merge
    makes it ``isub a a``, which algebraic makes 0 (so a change by cse must run
    algebraic again, `ENABLES`)."""
    s = MirShader("t", (4, 1, 1), MirFunction("t", []))
    s.bindings[(0, 0)] = Binding(0, 0, "storage")
    b = MirBuilder(s)
    x = b.intr("load_local_invocation_index", [], 32, 1)
    y = b.alu("iadd", 32, 1, x, b.imm(1))
    z = b.alu("iadd", 32, 1, x, b.imm(1))
    d = b.alu("isub", 32, 1, y, z)
    b.intrinsic("store_ssbo", [d, b.imm(0)], binding=(0, 0))
    assert optimize(s, check_skips=True)
    (store,) = [i for blk in s.blocks() for i in blk.instrs if i.op == "store_ssbo"]
    p = store.srcs[0].parent
    assert p is not None and p.op == "load_const" and tuple(p.attrs["value"]) == (0,)


def _lowered(spirv: bytes, case: Case, wave: int, **kw: object) -> str:
    shader = spirv_to_mir(read_spirv(spirv), spec=dict(case.spec), wave_size=wave)
    lower_for_isel(shader, GFX11, wave, **kw)  # type: ignore[arg-type]
    return print_shader(shader)


# each case in one wave size, alternating (half the time of both; the sizes differ in
# the subgroup constants lower_system_values folds)
WAVES = [(c, 32 if k % 2 == 0 else 64) for k, c in enumerate(CASES)]


@pytest.mark.parametrize("case,wave", WAVES, ids=[f"{c.name}-w{w}" for c, w in WAVES])
def test_skipped_passes_find_nothing(case: Case, wave: int) -> None:
    spirv = compile_case(case)
    try:
        got = _lowered(spirv, case, wave, check_skips=True)
    except Exception as e:  # noqa: BLE001 - a case the front end refuses
        if isinstance(e, AssertionError):
            raise
        pytest.skip(f"not lowered: {type(e).__name__}")
    assert _lowered(spirv, case, wave) == got


def test_cse_finds_nothing_after_its_own_change() -> None:
    """One cse run merges a chain whose later links become equal only through the
    earlier merges (``(x + 1) * 2`` twice, the sums apart): a second run finds nothing
    (so cse is not in its own ``ENABLES`` set)."""
    s = MirShader("t", (4, 1, 1), MirFunction("t", []))
    s.bindings[(0, 0)] = Binding(0, 0, "storage")
    b = MirBuilder(s)
    x = b.intr("load_local_invocation_index", [], 32, 1)
    y = b.alu("imul", 32, 1, b.alu("iadd", 32, 1, x, b.imm(1)), b.imm(2))
    z = b.alu("imul", 32, 1, b.alu("iadd", 32, 1, x, b.imm(1)), b.imm(2))
    b.intrinsic("store_ssbo", [y, b.imm(0)], binding=(0, 0))
    b.intrinsic("store_ssbo", [z, b.imm(4)], binding=(0, 0))
    assert "cse" not in ENABLES["cse"]
    assert cse(s)
    stores = [i for blk in s.blocks() for i in blk.instrs if i.op == "store_ssbo"]
    assert [st.srcs[0] for st in stores] == [y, y]
    assert not cse(s)
