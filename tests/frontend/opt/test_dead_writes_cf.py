"""dead_writes and dead_branch's dead-node removal (NIR's opt_undef stores,
copy_prop_vars' store of a just-loaded value, opt_dead_cf's dead ifs and loops).

Hand-made MIR: the exact instructions/nodes the passes promise to remove are gone,
everything else stays (op lists written here by hand), the result validates and the
MIR interpreter gives the same buffers before and after. GLSL end to end: shaders
reduced from real-world kernels whose specialization constants make them do nothing
(ncnn's dropout with scale 1, lrn with an empty window, normalize's reduction with
no mode, ggml's fwht with fewer elements than lanes) compile to a lone ``s_endpgm``
as ACO does, and with other constants they still match NumPy in the strict emulator,
wave32 and wave64; a winograd-style transform whose channel count 0 makes its stores
land on one address keeps only the last (its loads and arithmetic go too)."""

from __future__ import annotations

import numpy as np
import pytest

import radcc
from radcc.frontend.mir import Instr, Loop, MirShader, iter_nodes
from radcc.frontend.mir_builder import MirBuilder
from radcc.frontend.mir_print import print_shader
from radcc.frontend.mir_validate import validate
from radcc.frontend.opt import dead_branch, dead_writes
from radcc.target import get_target
from tests.support import mir_interp
from tests.support.mir_shader import storage_shader

GFX11 = get_target("gfx1100").mir_options


def _shader() -> tuple[MirShader, MirBuilder]:
    return storage_shader()


def _ops(s: MirShader) -> list[str]:
    return [i.op for i in s.instrs()]


def _nodes(s: MirShader) -> list[str]:
    return [type(n).__name__ for n in iter_nodes(s.function.body) if not hasattr(n, "instrs")]


def _same(s: MirShader, change) -> bool:  # type: ignore[no-untyped-def]
    inp = np.random.default_rng(5).integers(0, 1 << 30, 128, dtype=np.uint32)
    validate(s)
    bufs = {(0, 0): inp, (0, 1): 256}
    want = mir_interp.run(s, (1, 1, 1), bufs, subgroup_size=32)
    r = change(s)
    validate(s)
    got = mir_interp.run(s, (1, 1, 1), bufs, subgroup_size=32)
    for k in want:
        assert got[k] == want[k], print_shader(s)
    return bool(r)


def _lane(b: MirBuilder):  # type: ignore[no-untyped-def]
    gid = b.intr("load_global_invocation_id", [], 32, 3)
    x = b.channel(gid, 0)
    return x, b.alu("ishl", 32, 1, x, b.imm(2))


# ---------------------------------------------------------------- dead_writes

def test_store_of_the_value_just_loaded_goes() -> None:
    s, b = _shader()
    _x, addr = _lane(b)
    v = b.intr("load_ssbo", [addr], 32, 1, binding=(0, 0), align=4)
    b.intrinsic("store_ssbo", [v, addr], binding=(0, 0), align=4)
    assert _same(s, dead_writes)
    assert "store_ssbo" not in _ops(s)


@pytest.mark.parametrize("between", ["store_other", "atomic", "barrier"])
def test_store_after_a_possible_write_stays(between: str) -> None:
    s, b = _shader()
    _x, addr = _lane(b)
    v = b.intr("load_ssbo", [addr], 32, 1, binding=(0, 0), align=4)
    if between == "store_other":  # another binding may alias binding 0
        b.intrinsic("store_ssbo", [b.imm(7), addr], binding=(0, 1), align=4)
    elif between == "atomic":
        b.intr("ssbo_atomic", [addr, b.imm(1)], 32, 1, binding=(0, 0), atomic_op="iadd")
    else:
        b.intrinsic("barrier", [], exec_scope="workgroup", mem_scope="workgroup", semantics=0x108)
    b.intrinsic("store_ssbo", [v, addr], binding=(0, 0), align=4)
    before = _ops(s)
    assert not _same(s, dead_writes)
    assert _ops(s) == before


@pytest.mark.parametrize("case", ["other_address", "other_binding", "computed"])
def test_store_of_another_value_stays(case: str) -> None:
    s, b = _shader()
    _x, addr = _lane(b)
    v = b.intr("load_ssbo", [addr], 32, 1, binding=(0, 0), align=4)
    if case == "other_address":
        b.intrinsic("store_ssbo", [v, b.iadd_imm(addr, 256)], binding=(0, 0), align=4)
    elif case == "other_binding":
        b.intrinsic("store_ssbo", [v, addr], binding=(0, 1), align=4)
    else:
        b.intrinsic("store_ssbo", [b.alu("iadd", 32, 1, v, b.imm(1)), addr], binding=(0, 0),
                    align=4)
    assert not _same(s, dead_writes)
    assert _ops(s).count("store_ssbo") == 1


def test_store_of_undef_goes_partial_undef_stays() -> None:
    s, b = _shader()
    x, addr = _lane(b)
    b.intrinsic("store_ssbo", [b.undef(32), addr], binding=(0, 1), align=4)
    a16 = b.alu("ishl", 32, 1, x, b.imm(4))
    b.intrinsic("store_ssbo", [b.vec([b.undef(32), b.undef(32)]), a16], binding=(0, 1), align=8)
    b.intrinsic("store_ssbo", [b.vec([b.undef(32), x]), a16], binding=(0, 1), align=8)
    dead_writes(s)
    validate(s)
    stores = [i for i in s.instrs() if i.op == "store_ssbo"]
    assert len(stores) == 1 and stores[0].srcs[0].parent.op == "vec2"


def test_store_overwritten_later_goes() -> None:
    s, b = _shader()
    x, addr = _lane(b)
    b.intrinsic("store_ssbo", [x, addr], binding=(0, 1), align=4)
    b.intrinsic("store_ssbo", [b.imm(3), b.alu("iadd", 32, 1, addr, b.imm(512))],
                binding=(0, 1), align=4)  # a store elsewhere reads nothing
    b.intrinsic("store_ssbo", [b.vec([x, x]), addr], binding=(0, 1), align=8)  # covers it
    assert _same(s, dead_writes)
    stores = [i for i in s.instrs() if i.op == "store_ssbo"]
    assert [st.srcs[0].num_components for st in stores] == [1, 2]
    assert stores[0].srcs[0].parent.op == "load_const"


@pytest.mark.parametrize("between", ["load", "barrier", "none_smaller"])
def test_store_read_before_overwrite_stays(between: str) -> None:
    s, b = _shader()
    x, addr = _lane(b)
    b.intrinsic("store_ssbo", [b.vec([x, x]), addr], binding=(0, 1), align=8)
    if between == "load":  # binding 0 may alias binding 1
        v = b.intr("load_ssbo", [addr], 32, 1, binding=(0, 0), align=4)
        b.intrinsic("store_ssbo", [v, b.alu("iadd", 32, 1, addr, b.imm(256))],
                    binding=(0, 1), align=4)
    elif between == "barrier":
        b.intrinsic("barrier", [], exec_scope="workgroup", mem_scope="workgroup", semantics=0x108)
    b.intrinsic("store_ssbo", [x, addr], binding=(0, 1), align=4)  # 4 of the 8 bytes
    before = _ops(s)
    assert not _same(s, dead_writes)
    assert _ops(s) == before


# ---------------------------------------------------------------- dead ifs and loops

def _pure_if(b: MirBuilder, x):  # type: ignore[no-untyped-def]
    n = b.push_if(b.alu("ult", 1, 1, x, b.imm(9)))
    with b.into(n.then_list):
        t = b.alu("imul", 32, 1, x, b.imm(3))
    return n, t


def test_if_without_effect_or_use_goes() -> None:
    s, b = _shader()
    x, addr = _lane(b)
    _pure_if(b, x)
    b.intrinsic("store_ssbo", [x, addr], binding=(0, 1), align=4)
    assert _same(s, dead_branch)
    assert _nodes(s) == []
    # the if's side went with it, and its condition with the dce that follows
    assert _ops(s) == ["load_global_invocation_id", "mov", "load_const", "ishl", "store_ssbo"]


def test_if_whose_value_is_used_stays() -> None:
    s, b = _shader()
    x, addr = _lane(b)
    _n, t = _pure_if(b, x)  # t is used after the if (no phi: defined in then, dominated)
    b.intrinsic("store_ssbo", [x, addr], binding=(0, 1), align=4)
    n2 = b.push_if(b.alu("ult", 1, 1, t, b.imm(5)))
    with b.into(n2.then_list):
        b.intrinsic("store_ssbo", [x, addr], binding=(0, 1), align=4)
    assert not dead_branch(s)
    assert _nodes(s) == ["If", "If"]


def test_if_with_a_store_or_phi_after_stays() -> None:
    s, b = _shader()
    x, addr = _lane(b)
    n = b.push_if(b.alu("ult", 1, 1, x, b.imm(9)))
    with b.into(n.then_list):
        b.intrinsic("store_ssbo", [x, addr], binding=(0, 1), align=4)
    n2, t = _pure_if(b, x)
    v = s.new_value(32, 1)
    phi = Instr("phi", v, [t, x])
    phi.preds = [n2.then_list[-1], n2.else_list[-1]]
    b.block.insert(0, phi)
    b.intrinsic("store_ssbo", [v, addr], binding=(0, 1), align=4)
    assert not dead_branch(s)
    assert _nodes(s) == ["If", "If"]


def test_ifs_whose_phis_feed_only_dead_ifs_go() -> None:
    # if (x < 9) { t = x * 3 } ; m = phi(t, x); if (m < 5) { u = m + 1 }: nothing is
    # stored, so both ifs go (the phi keeps the first until dce drops it)
    s, b = _shader()
    x, addr = _lane(b)
    n, t = _pure_if(b, x)
    m = s.new_value(32, 1)
    phi = Instr("phi", m, [t, x])
    phi.preds = [n.then_list[-1], n.else_list[-1]]
    b.block.insert(0, phi)
    n2 = b.push_if(b.alu("ult", 1, 1, m, b.imm(5)))
    with b.into(n2.then_list):
        b.alu("iadd", 32, 1, m, b.imm(1))
    b.intrinsic("store_ssbo", [x, addr], binding=(0, 1), align=4)
    assert _same(s, dead_branch)
    assert _nodes(s) == [] and "phi" not in _ops(s)


def _counted_loop(b: MirBuilder, s: MirShader, limit, body_store=None):  # type: ignore[no-untyped-def]
    """for (i = 0; i < limit; i++) body_store?(i); returns (loop, i's phi value)."""
    entry = b.block
    zero = b.imm(0)
    loop = b.push_loop()
    with b.into(loop.body):
        i = s.new_value(32, 1)
        phi = Instr("phi", i, [zero])
        phi.preds = [entry]
        b.block.insert(0, phi)
        n = b.push_if(b.alu("uge", 1, 1, i, limit))
        with b.into(n.then_list):
            b.jump("break")
        if body_store is not None:
            body_store(i)
        nxt = b.iadd_imm(i, 1)
        phi.srcs.append(nxt)
        phi.preds.append(b.block)
    return loop, i


def test_loop_without_effect_goes() -> None:
    s, b = _shader()
    x, addr = _lane(b)
    _counted_loop(b, s, x)
    b.intrinsic("store_ssbo", [x, addr], binding=(0, 1), align=4)
    assert _same(s, dead_branch)
    assert _nodes(s) == []
    assert _ops(s)[-1] == "store_ssbo" and "phi" not in _ops(s)


def test_loop_with_a_store_stays() -> None:
    s, b = _shader()
    x, addr = _lane(b)
    _counted_loop(b, s, x, lambda i: b.intrinsic(
        "store_ssbo", [i, b.alu("ishl", 32, 1, i, b.imm(2))], binding=(0, 1), align=4))
    dead_branch(s)  # (its dce drops the unused address of the lane)
    assert _nodes(s) == ["Loop", "If"]


def test_loop_whose_value_is_used_after_stays() -> None:
    s, b = _shader()
    x, addr = _lane(b)
    _loop, i = _counted_loop(b, s, x)
    b.intrinsic("store_ssbo", [i, addr], binding=(0, 1), align=4)  # the exit value of i
    assert not dead_branch(s)
    assert _nodes(s) == ["Loop", "If"]


def test_loop_without_break_stays() -> None:
    s, b = _shader()
    b.push_loop()
    assert not dead_branch(s)
    assert _nodes(s) == ["Loop"] and isinstance(s.function.body[1], Loop)


def test_if_holding_a_loop_without_break_stays() -> None:
    s, b = _shader()
    x, addr = _lane(b)
    n = b.push_if(b.alu("ult", 1, 1, x, b.imm(9)))
    with b.into(n.then_list):
        b.push_loop()  # never ends: the if is not dead
    b.intrinsic("store_ssbo", [x, addr], binding=(0, 1), align=4)
    assert not dead_branch(s)
    assert _nodes(s) == ["If", "Loop"]


# ---------------------------------------------------------------- end to end

_DROPOUT = """#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const float scale = 1;
layout(constant_id = 1) const uint n = 0;
layout(binding = 0) buffer B { vec4 d[]; };
layout(push_constant) uniform P { uint n; } p;
void main() {
  uint gi = gl_GlobalInvocationID.x;
  if (gi >= (n == 0 ? p.n : n)) return;
  vec4 v = d[gi];
  v *= scale;
  d[gi] = v;
}
"""

_WINDOW = """#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const int cnt = 0;
layout(constant_id = 1) const float alpha = 0;
layout(constant_id = 2) const float beta = 0;
layout(binding = 0) readonly buffer W { float w[]; };
layout(binding = 1) buffer B { float d[]; };
layout(push_constant) uniform P { int n; int stride; } p;
void main() {
  int gx = int(gl_GlobalInvocationID.x);
  if (gx >= p.n) return;
  float sum = 0.f;
  int off = gx;
  for (int z = 0; z < cnt; z++) { sum += w[off]; off += p.stride; }
  float s = pow(alpha / cnt * sum, -beta);
  d[gx] = d[gx] * s;
}
"""

_MODES = """#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const int mode = 0;
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) writeonly buffer B { float b[]; };
layout(push_constant) uniform P { int n; } p;
void main() {
  int gx = int(gl_GlobalInvocationID.x);
  if (gx >= p.n) return;
  float q;
  if (mode == 1) { float v = a[gx]; q = v * v; }
  if (mode == 2) { float v = a[gx * 2]; q = v + v; }
  b[gx] = q;
}
"""

_ROWS = """#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint BS = 64;
layout(constant_id = 1) const uint N = 32;
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) writeonly buffer B { float b[]; };
layout(push_constant) uniform P { uint rows; } p;
const uint EW = N / BS;
void main() {
  for (uint r = gl_WorkGroupID.x; r < p.rows; r += gl_NumWorkGroups.x) {
    float reg[EW > 0 ? EW : 1];
    for (uint i = 0; i < EW; ++i) reg[i] = a[r * N + i * BS + gl_LocalInvocationID.x];
    for (uint i = 0; i < EW; ++i) b[r * N + i * BS + gl_LocalInvocationID.x] = reg[i] * 2.0;
  }
}
"""


def _instructions(k: radcc.Kernel) -> list[str]:
    from radcc.driver.compare import asm_instructions

    return asm_instructions(k.asm)


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("src,spec", [(_DROPOUT, {}), (_WINDOW, {}), (_MODES, {}),
                                      (_ROWS, {})], ids=["dropout", "window", "modes", "rows"])
def test_nothing_observable_is_a_lone_endpgm(src: str, spec: dict, wave: int) -> None:
    k = radcc.compile(src, stage="comp", wave_size=wave, spec=spec)
    assert _instructions(k) == ["s_endpgm"], k.asm


@pytest.mark.parametrize("wave", [32, 64])
def test_dropout_scaling_still_scales(wave: int) -> None:
    d = np.random.default_rng(1).standard_normal((100, 4)).astype(np.float32)
    for scale, want in ((1.0, d), (0.5, d * np.float32(0.5))):
        out = radcc.run(_DROPOUT, stage="comp", wave_size=wave, spec={0: scale}, groups=2,
                        buffers={0: d}, push_constants=[90])
        exp = want.copy()
        exp[90:] = d[90:]
        np.testing.assert_array_equal(out[(0, 0)], exp)


@pytest.mark.parametrize("wave", [32, 64])
def test_window_sum_still_sums(wave: int) -> None:
    rng = np.random.default_rng(2)
    w = rng.uniform(0.5, 2.0, 512).astype(np.float32)
    d = rng.uniform(0.5, 2.0, 64).astype(np.float32)
    out = radcc.run(_WINDOW, stage="comp", wave_size=wave, spec={0: 3, 1: 6.0, 2: 0.5},
                    buffers={0: w, 1: d}, push_constants=[64, 70])
    gx = np.arange(64)
    s = w[gx] + w[gx + 70] + w[gx + 140]
    want = d * np.power(np.float32(6.0) / 3 * s, -0.5)
    np.testing.assert_allclose(out[(0, 1)], want, rtol=2e-6)
    same = radcc.run(_WINDOW, stage="comp", wave_size=wave, buffers={0: w, 1: d},
                     push_constants=[64, 70])
    np.testing.assert_array_equal(same[(0, 1)], d)


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("mode", [1, 2])
def test_modes_still_store(wave: int, mode: int) -> None:
    a = np.random.default_rng(3).standard_normal(256).astype(np.float32)
    out = radcc.run(_MODES, stage="comp", wave_size=wave, spec={0: mode},
                    buffers={0: a, 1: np.zeros(64, np.float32)}, push_constants=[60])
    gx = np.arange(60)
    want = np.zeros(64, np.float32)
    want[:60] = a[gx] * a[gx] if mode == 1 else a[2 * gx] + a[2 * gx]
    np.testing.assert_array_equal(out[(0, 1)], want)


@pytest.mark.parametrize("wave", [32, 64])
def test_rows_still_copy(wave: int) -> None:
    a = np.random.default_rng(4).standard_normal(3 * 256).astype(np.float32)
    out = radcc.run(_ROWS, stage="comp", wave_size=wave, spec={0: 64, 1: 256}, groups=2,
                    buffers={0: a, 1: np.zeros(3 * 256, np.float32)}, push_constants=[3])
    np.testing.assert_array_equal(out[(0, 1)], a * np.float32(2.0))


_TRANSFORM = """#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const int c = 0;
layout(binding = 0) readonly buffer A { vec4 a[]; };
layout(binding = 1) writeonly buffer B { vec4 b[]; };
layout(push_constant) uniform P { int n; int step; } p;
void main() {
  int gx = int(gl_GlobalInvocationID.x);
  if (gx >= p.n) return;
  vec4 v0 = a[gx], v1 = a[gx + p.n], v2 = a[gx + 2 * p.n], v3 = a[gx + 3 * p.n];
  b[gx + 0 * p.step * c] = v0 - v2;
  b[gx + 1 * p.step * c] = v1 + v2;
  b[gx + 2 * p.step * c] = v2 - v1;
  b[gx + 3 * p.step * c] = v3 - v1;
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_transform_keeps_the_last_store(wave: int) -> None:
    rng = np.random.default_rng(6)
    a = rng.standard_normal((4 * 64, 4)).astype(np.float32)
    for c in (0, 1):
        k = radcc.compile(_TRANSFORM, stage="comp", wave_size=wave, spec={0: c})
        n_loads = sum(x.startswith("global_load") for x in _instructions(k))
        n_stores = sum(x.startswith("global_store") for x in _instructions(k))
        assert (n_loads, n_stores) == ((2, 1) if c == 0 else (4, 4)), k.asm
        out = radcc.run(k, buffers={0: a, 1: np.zeros((4 * 64, 4), np.float32)},
                        push_constants=[64, 64])
        v = [a[i * 64:(i + 1) * 64] for i in range(4)]
        want = np.zeros((4 * 64, 4), np.float32)
        if c == 0:
            want[:64] = v[3] - v[1]
        else:
            for i, r in enumerate((v[0] - v[2], v[1] + v[2], v[2] - v[1], v[3] - v[1])):
                want[i * 64:(i + 1) * 64] = r
        np.testing.assert_array_equal(out[(0, 1)], want)


def test_a_body_without_nodes_is_left_alone() -> None:
    """No if or loop (before or after): nothing for dead_branch, which then leaves even
    a dead instruction to dce."""
    s, b = _shader()
    x, addr = _lane(b)
    b.alu("iadd", 32, 1, x, b.imm(3))  # dead
    b.intrinsic("store_ssbo", [x, addr], binding=(0, 1), align=4)
    before = _ops(s)
    assert "iadd" in before
    assert not dead_branch(s)
    assert _ops(s) == before
