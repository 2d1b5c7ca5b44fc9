"""The OpenCL C kernel suite: clang-19 -O0/-O3, wave32/wave64, for gfx1100, gfx1030 and
gfx1010 (`conftest.CHIPS`), against NumPy in the strict emulator."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.emu.api import load
from tests.emu.cases import CASES, Case
from tests.emu.conftest import CHIPS


def _check(case: Case, res: dict[str, np.ndarray], args: dict, wave: int) -> None:
    expect = case.ref(args, wave)
    for name, want in expect.items():
        got = res[name]
        want = np.asarray(want)
        if case.rtol and got.dtype.kind == "f":
            np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                                       rtol=case.rtol, atol=case.rtol, err_msg=name)
        else:
            np.testing.assert_array_equal(got, want.astype(got.dtype), err_msg=name)
    if case.name == "atomic_cas":
        np.testing.assert_array_equal(np.sort(res["slot"]), np.arange(len(res["slot"])))


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("opt", ["O0", "O3"])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_kernel(case: Case, opt: str, wave: int, chip: str, compile_cl) -> None:
    mod = load(compile_cl(case.name, opt, wave, chip))
    rng = np.random.default_rng(abs(hash((case.name, opt, wave))) % 2**32)
    args = case.make(rng)
    res = mod.run(case.name, case.groups, case.block, args, wave_size=wave)
    assert res.violations == [], "\n".join(map(str, res.violations))
    _check(case, res.buffers, args, wave)
