"""lower_returns (NIR's nir_lower_returns for radcc's one-iteration loops): hand-made
MIR of the early-return shape becomes an if/else without the loop (the node shapes
written here by hand), with the MIR interpreter giving the same buffers before and
after; shapes it must leave alone stay. GLSL end to end in the strict emulator
against NumPy, wave32 and wave64: early-return guards (one compare, an or of
compares, a float compare that cannot be negated), a return from a called function,
a second return after the first, a switch."""

from __future__ import annotations

import numpy as np
import pytest

import radcc
from radcc.frontend.mir import If, Instr, Loop, MirShader, iter_nodes
from radcc.frontend.mir_builder import MirBuilder
from radcc.frontend.mir_print import print_shader
from radcc.frontend.mir_validate import validate
from radcc.frontend.opt import lower_returns
from radcc.target import get_target
from tests.support import mir_interp
from tests.support.mir_shader import storage_shader

GFX11 = get_target("gfx1100").mir_options


def _shader() -> tuple[MirShader, MirBuilder]:
    return storage_shader()


def _nodes(s: MirShader) -> list[str]:
    return [type(n).__name__ for n in iter_nodes(s.function.body) if isinstance(n, If | Loop)]


def _same(s: MirShader) -> bool:
    inp = np.random.default_rng(7).integers(0, 64, 128, dtype=np.uint32)
    validate(s)
    bufs = {(0, 0): inp, (0, 1): 256}
    want = mir_interp.run(s, (1, 1, 1), bufs, subgroup_size=32)
    r = lower_returns(s)
    validate(s)
    got = mir_interp.run(s, (1, 1, 1), bufs, subgroup_size=32)
    for k in want:
        assert got[k] == want[k], print_shader(s)
    return r


def _guarded(extra_break: bool = False, value_after: bool = False) -> MirShader:
    """loop { x = id; v = a[x]; if (v >= 32) { b[x] = 1; break } ; b[x] = v; break }
    (+ a second guarded break, or a value merged after the loop)."""
    s, b = _shader()
    loop = b.push_loop()
    with b.into(loop.body):
        gid = b.intr("load_global_invocation_id", [], 32, 3)
        x = b.channel(gid, 0)
        addr = b.alu("ishl", 32, 1, x, b.imm(2))
        v = b.intr("load_ssbo", [addr], 32, 1, binding=(0, 0), align=4)
        n = b.push_if(b.alu("uge", 1, 1, v, b.imm(32)))
        with b.into(n.then_list):
            b.intrinsic("store_ssbo", [b.imm(1), addr], binding=(0, 1), align=4)
            t_end = b.block
            b.jump("break")
        if extra_break:
            n2 = b.push_if(b.alu("ieq", 1, 1, v, b.imm(3)))
            with b.into(n2.then_list):
                b.jump("break")
        w = b.alu("iadd", 32, 1, v, b.imm(100))
        b.intrinsic("store_ssbo", [w, addr], binding=(0, 1), align=4)
        r_end = b.block
        b.jump("break")
    if value_after:
        m = s.new_value(32, 1)
        phi = Instr("phi", m, [v, w])
        phi.preds = [t_end, r_end]
        b.block.insert(0, phi)
        b.intrinsic("store_ssbo", [m, b.alu("iadd", 32, 1, addr, b.imm(256))],
                    binding=(0, 1), align=4)
    return s


def test_early_return_becomes_if_else() -> None:
    s = _guarded()
    assert _nodes(s) == ["Loop", "If"]
    assert _same(s)
    assert _nodes(s) == ["If"]  # the loop is gone, the rest moved into the if
    n = next(x for x in iter_nodes(s.function.body) if isinstance(x, If))
    ops = [i.op for b in n.then_list if hasattr(b, "instrs") for i in b.instrs]
    assert "break" not in [i.op for i in s.instrs()]
    assert "iadd" in ops or "iadd" in [i.op for b in n.else_list if hasattr(b, "instrs")
                                       for i in b.instrs]


def test_empty_then_side_is_flipped() -> None:
    # the then side only broke: the compare is negated (uge -> ult) and the rest is
    # the then side
    s, b = _shader()
    loop = b.push_loop()
    with b.into(loop.body):
        gid = b.intr("load_global_invocation_id", [], 32, 3)
        x = b.channel(gid, 0)
        c = b.alu("uge", 1, 1, x, b.imm(40))
        n = b.push_if(c)
        with b.into(n.then_list):
            b.jump("break")
        b.intrinsic("store_ssbo", [x, b.alu("ishl", 32, 1, x, b.imm(2))], binding=(0, 1),
                    align=4)
        b.jump("break")
    assert _same(s)
    assert _nodes(s) == ["If"]
    assert c.parent is not None and c.parent.op == "ult"
    assert any(i.op == "store_ssbo" for blk in n.then_list if hasattr(blk, "instrs")
               for i in blk.instrs)


def test_value_merged_after_the_loop() -> None:
    s = _guarded(value_after=True)
    assert _same(s)
    assert _nodes(s) == ["If"]


def test_two_early_exits_stay() -> None:
    s = _guarded(extra_break=True)
    before = _nodes(s)
    assert not _same(s)
    assert _nodes(s) == before


# ---------------------------------------------------------------- end to end

_GUARD = """#version 450
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) buffer B { float b[]; };
layout(push_constant) uniform P { int w; int h; float lim; } p;
void main() {
  int gx = int(gl_GlobalInvocationID.x), gy = int(gl_GlobalInvocationID.y);
  if (gx >= p.w || gy >= p.h) return;
  int i = gy * p.w + gx;
  float v = a[i];
  if (v > p.lim) return;
  b[i] = v * 2.0 + 1.0;
}
"""

_FUNC = """#version 450
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) buffer B { uint b[]; };
uint f(uint v) {
  if (v % 3u == 0u) return 7u;
  uint r = v * 5u;
  return r + 1u;
}
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint v = a[i];
  switch (v & 3u) {
    case 0u: b[i] = f(v); break;
    case 1u: b[i] = v + 9u; break;
    default: b[i] = 2u * v;
  }
  if (v > 50u) return;
  b[i + 64u] = f(v + 1u);
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_guards_match_numpy(wave: int) -> None:
    rng = np.random.default_rng(8)
    a = rng.uniform(-2.0, 2.0, 64 * 3).astype(np.float32)
    b0 = np.full(64 * 3, -5.0, np.float32)
    out = radcc.run(_GUARD, stage="comp", wave_size=wave, groups=(1, 3, 1),
                    buffers={0: a, 1: b0}, push_constants=[50, 2, 1.0])
    want = b0.copy()
    for gy in range(2):
        for gx in range(50):
            i = gy * 50 + gx
            if a[i] <= np.float32(1.0):
                want[i] = a[i] * np.float32(2.0) + np.float32(1.0)
    np.testing.assert_array_equal(out[(0, 1)], want)


@pytest.mark.parametrize("wave", [32, 64])
def test_function_return_and_switch_match_numpy(wave: int) -> None:
    a = np.random.default_rng(9).integers(0, 100, 64, dtype=np.uint32)
    out = radcc.run(_FUNC, stage="comp", wave_size=wave, buffers={0: a, 1: np.zeros(128,
                                                                                   np.uint32)})

    def f(v: int) -> int:
        return 7 if v % 3 == 0 else v * 5 + 1

    want = np.zeros(128, np.uint32)
    for i, v in enumerate(a.tolist()):
        want[i] = f(v) if v & 3 == 0 else v + 9 if v & 3 == 1 else 2 * v
        if v <= 50:
            want[i + 64] = f(v + 1)
    np.testing.assert_array_equal(out[(0, 1)], want)
