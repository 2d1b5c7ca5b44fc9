"""A compile leaves no reference cycles behind (issue 14): `compile_spirv` pauses Python's
cyclic collector, and the first collection after it traces whatever the compile left in
cycles (ncnn's small shaders: ~4,300 objects and 2.5 ms of a ~100 ms compile before the
MIR's `release` covered dropped instructions and blocks). Each seed shader is compiled
once to warm the process's memos, then again with the collector off; dropping the result
must leave nothing for `gc.collect` to find. A recursive closure, a pass object keeping
bound methods of itself, or an IR back link not cleared fails here with the types found."""

from __future__ import annotations

import collections
import gc
from pathlib import Path

import pytest

from radcc.driver.compile import compile_spirv

SEEDS = Path(__file__).resolve().parent / "fuzz" / "corpus" / "seeds" / "spirv"
# control flow, functions, local arrays, loops, switches, images, subgroups, LDS, spill-free
NAMES = ("local_arrays", "functions", "cf_break_continue", "cf_for_loops", "cf_return",
         "cf_switch", "arith_vectors", "tex_sample", "sg_basic", "shared_reduce",
         "coopmat_matmul", "img_atomics")


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", NAMES)
def test_compile_leaves_no_cycles(name: str, wave: int) -> None:
    spirv = (SEEDS / f"{name}.spv").read_bytes()
    compile_spirv(spirv, wave_size=wave)  # warm: imports, per-process memos
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        res = compile_spirv(spirv, wave_size=wave)
        assert res.code_object
        del res
        found = gc.collect()
        kinds = collections.Counter(type(o).__qualname__ for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()
    assert found == 0, f"{name} wave{wave}: {found} objects in cycles: {kinds.most_common(6)}"
