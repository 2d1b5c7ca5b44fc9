"""A compile leaves no reference cycles behind (issue 14): `compile_spirv` pauses Python's
cyclic collector, and the first collection after it traces whatever the compile left in
cycles (ncnn's small shaders: ~4,300 objects and 2.5 ms of a ~100 ms compile before the
MIR's `release` covered dropped instructions and blocks). Each seed shader is compiled
once to warm the process's memos, then again with the collector off; dropping the result
must leave nothing for `gc.collect` to find. A recursive closure, a pass object keeping
bound methods of itself, or an IR back link not cleared fails here with the types found.

On the compiled build (`pytest --compiled`) a nested function of a compiled module is a
cycle of its own: mypyc keeps it in its closure's environment object (``<function>_env``),
which the function object refers to, so every call of an enclosing function leaves one
(cse's, vars_to_ssa's, scheduler_ilp's, insert_nops' helpers). There the test holds the
garbage to what those environments reach: anything in a cycle of another kind fails.
The pure modules, the reference, must leave nothing."""

from __future__ import annotations

import collections
import gc
from pathlib import Path

import pytest

from radcc.compiled import compiled_modules
from radcc.driver.compile import compile_spirv

SEEDS = Path(__file__).resolve().parent / "fuzz" / "corpus" / "seeds" / "spirv"
# control flow, functions, local arrays, loops, switches, images, subgroups, LDS, spill-free
NAMES = ("local_arrays", "functions", "cf_break_continue", "cf_for_loops", "cf_return",
         "cf_switch", "arith_vectors", "tex_sample", "sg_basic", "shared_reduce",
         "coopmat_matmul", "img_atomics")


_ANY_COMPILED = bool(compiled_modules())


def _outside_closure_environments(garbage: list[object]) -> list[object]:
    """The objects of `garbage` that no mypyc closure environment in it reaches."""
    ids = {id(o) for o in garbage}
    seen: set[int] = set()
    todo = [o for o in garbage if type(o).__name__.endswith("_env")]
    while todo:
        o = todo.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        todo.extend(r for r in gc.get_referents(o) if id(r) in ids and id(r) not in seen)
    return [o for o in garbage if id(o) not in seen]


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
        left = _outside_closure_environments(gc.garbage) if _ANY_COMPILED else gc.garbage
        found = len(left) if _ANY_COMPILED else found
        kinds = collections.Counter(type(o).__qualname__ for o in left)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()
    assert found == 0, f"{name} wave{wave}: {found} objects in cycles: {kinds.most_common(6)}"
