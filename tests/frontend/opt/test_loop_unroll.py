"""loop_unroll beyond the single-exit shape: early exits (breaks inside ifs) stay runtime
breaks of the copies inside a loop that runs once, header values used after the loop get a
phi of their copies; nested constant loops unroll inner first. The oracle: the MIR
interpreter's buffers before and after the pass (and a Python model of each shader);
the expected shapes are counted from the shaders' trip counts."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.frontend.mir import Block, If, Loop, MirShader, iter_nodes
from radcc.frontend.mir_print import print_shader
from radcc.frontend.mir_validate import validate
from radcc.frontend.opt import loop_unroll, lower_continue_constructs, optimize
from radcc.frontend.spirv_to_mir import spirv_to_mir
from tests.support import mir_interp

from ..mir.conftest import glsl_to_spirv

HEAD = """#version 450
layout(local_size_x = 64) in;
layout(set=0, binding=0) buffer A { uint a[]; };
layout(set=0, binding=1) buffer B { uint b[]; };
"""
M = 0xFFFFFFFF


def _run(s: MirShader, inp: np.ndarray, nout: int) -> np.ndarray:
    r = mir_interp.run(s, (1, 1, 1), {(0, 0): inp, (0, 1): nout * 4}, subgroup_size=32)
    return np.frombuffer(r[(0, 1)], np.uint32)


def _unrolled(src: str, inp: np.ndarray, nout: int) -> tuple[MirShader, np.ndarray]:
    s = spirv_to_mir(glsl_to_spirv(HEAD + src))
    optimize(s, validate_each=True)
    before = _run(s, inp, nout)
    lower_continue_constructs(s)
    assert loop_unroll(s)
    validate(s)
    optimize(s, validate_each=True)
    after = _run(s, inp, nout)
    np.testing.assert_array_equal(after, before, print_shader(s))
    return s, before


def _loops(s: MirShader) -> list[Loop]:
    return [n for n in iter_nodes(s.function.body) if isinstance(n, Loop)]


def _runs_once(lp: Loop) -> bool:
    last = lp.body[-1]
    return isinstance(last, Block) and last.jump is not None and last.jump.op == "break"


EARLY = """void main() {
    uint i = gl_LocalInvocationID.x, v = a[i], k, hit = 0u;
    for (k = 0u; k < %du; k++) {
        if (((v >> (k * 3u)) & 7u) == 5u) break;
        hit += k * (v & 255u);
    }
    b[2u * i] = k;
    b[2u * i + 1u] = hit;
}"""


@pytest.mark.parametrize("trips", [1, 2, 3])
def test_early_exit_and_index_after_the_loop(trips: int) -> None:
    inp = np.random.default_rng(trips).integers(0, 1 << 32, 64, dtype=np.uint64) \
        .astype(np.uint32)
    s, out = _unrolled(EARLY % trips, inp, 128)
    ref = []
    for v in inp.tolist():
        k, hit = 0, 0
        while k < trips and (v >> (k * 3)) & 7 != 5:
            hit, k = (hit + k * (v & 255)) & M, k + 1
        ref += [k, hit]
    np.testing.assert_array_equal(out, np.array(ref, np.uint32))
    (lp,) = _loops(s)
    assert _runs_once(lp), print_shader(s)
    # one early-exit test per copy, no exit test left
    assert sum(isinstance(n, If) for n in iter_nodes(lp.body)) == trips, print_shader(s)


def test_early_exit_budget() -> None:
    """Early exits cost exec-mask bookkeeping per copy: 9 trips of this body exceed
    UNROLL_EARLY_EXIT_MAX_INSTRS and the loop stays."""
    from radcc.frontend.opt.loop_unroll import UNROLL_EARLY_EXIT_MAX_INSTRS

    s = spirv_to_mir(glsl_to_spirv(HEAD + EARLY % 9))
    optimize(s)
    lower_continue_constructs(s)
    (lp,) = _loops(s)
    size = sum(len(b.instrs) for n in iter_nodes(lp.body) if isinstance(n, Block) for b in [n])
    assert 10 * size > UNROLL_EARLY_EXIT_MAX_INSTRS
    assert not loop_unroll(s)
    assert len(_loops(s)) == 1 and not _runs_once(_loops(s)[0])


def test_nested_constant_loops_disappear() -> None:
    src = """void main() {
    uint i = gl_LocalInvocationID.x, v = a[i], n = 0u;
    for (uint y = 0u; y < 3u; y++)
        for (uint x = 0u; x < 4u; x++)
            n = n * 7u + ((v >> (y * 4u + x)) & 1u) * (x + 1u) + y;
    b[i] = n;
}"""
    inp = np.arange(64, dtype=np.uint32) * 0x01010101
    s, out = _unrolled(src, inp, 64)
    assert not _loops(s), print_shader(s)
    ref = []
    for v in inp.tolist():
        n = 0
        for y in range(3):
            for x in range(4):
                n = (n * 7 + ((v >> (y * 4 + x)) & 1) * (x + 1) + y) & M
        ref.append(n)
    np.testing.assert_array_equal(out, np.array(ref, np.uint32))


def test_barrier_per_iteration_is_kept() -> None:
    src = """shared uint sh[64];
void main() {
    uint l = gl_LocalInvocationIndex;
    sh[l] = a[l];
    barrier();
    for (uint st = 32u; st > 0u; st >>= 1) {
        if (l < st) sh[l] += sh[l + st];
        barrier();
    }
    b[l] = sh[0];
}"""
    inp = np.random.default_rng(9).integers(0, 1 << 20, 64, dtype=np.uint64).astype(np.uint32)
    s, out = _unrolled(src, inp, 64)
    assert not _loops(s)
    assert sum(i.op == "barrier" for i in s.instrs()) == 1 + 6  # before + one per iteration
    np.testing.assert_array_equal(out, np.full(64, inp.sum(dtype=np.uint32), np.uint32))


def test_continue_keeps_the_loop() -> None:
    """A `continue` at the loop's level cannot be expressed in straight-line copies."""
    src = """void main() {
    uint i = gl_LocalInvocationID.x, s = 0u;
    for (uint k = 0u; k < 6u; k++) {
        if (((a[i] >> k) & 1u) == 0u) continue;
        s += a[(i + k) & 63u];
        if (s > 100u) s -= 7u;
        b[64u + ((i + k) & 63u)] = s;
    }
    b[i] = s;
}"""
    s = spirv_to_mir(glsl_to_spirv(HEAD + src))
    optimize(s)
    lower_continue_constructs(s)
    n = len(_loops(s))
    loop_unroll(s)
    assert len(_loops(s)) == n and not any(_runs_once(lp) for lp in _loops(s))


def test_zero_trip_loop_with_a_large_body_disappears() -> None:
    """A loop whose exit test holds on entry (ncnn's ``for (i = 0; i < stride * 4; ...)``
    with the specialization constant's default 0) costs only its header once, however
    large its body: the loop goes and the values after it are the initial ones. The
    body here is far above UNROLL_MAX_INSTRS; before the fix it stayed a runtime loop."""
    from radcc.frontend.opt.loop_unroll import UNROLL_MAX_INSTRS

    steps = "\n".join(f"        s = (s ^ a[(i + k + {j}u) & 63u]) * {2 * j + 3}u + {j}u;"
                      for j in range(160))
    src = f"""layout(constant_id = 0) const uint STRIDE = 0u;
void main() {{
    uint i = gl_LocalInvocationID.x, s = a[i] + 5u;
    for (uint k = 0u; k < STRIDE * 4u; k += 4u) {{
{steps}
    }}
    b[i] = s;
}}"""
    s0 = spirv_to_mir(glsl_to_spirv(HEAD + src))
    optimize(s0)
    lower_continue_constructs(s0)
    (lp,) = _loops(s0)
    assert sum(len(b.instrs) for b in iter_nodes(lp.body) if isinstance(b, Block)) \
        > UNROLL_MAX_INSTRS
    inp = np.random.default_rng(7).integers(0, 1 << 32, 64, dtype=np.uint64).astype(np.uint32)
    s, out = _unrolled(src, inp, 64)
    assert not _loops(s), print_shader(s)
    np.testing.assert_array_equal(out, inp + np.uint32(5))
