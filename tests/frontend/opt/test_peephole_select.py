"""peephole_select (if-conversion) on hand-made MIR and GLSL: the MIR interpreter
gives the same buffers before and after, the result validates, and exactly the
ifs the pass promises to flatten are gone (side effects, loads, subgroup ops,
jumps and big sides keep theirs)."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.frontend.mir import Binding, If, Instr, Loop, MirShader, iter_nodes
from radcc.frontend.mir_builder import MirBuilder
from radcc.frontend.mir_print import print_shader
from radcc.frontend.mir_validate import validate
from radcc.frontend.opt import lower_for_isel, optimize, peephole_select
from radcc.frontend.opt.isel_form import check_isel_form
from radcc.frontend.spirv_to_mir import spirv_to_mir
from radcc.target import get_target
from tests.support import mir_interp
from tests.support.mir_shader import storage_shader

from ..mir.conftest import glsl_to_spirv

GFX11 = get_target("gfx1100").mir_options  # the isel options of the GFX11 target


def _shader() -> tuple[MirShader, MirBuilder]:
    return storage_shader()


def _ifs(s: MirShader) -> int:
    return sum(isinstance(n, If) for n in iter_nodes(s.function.body))


def _ops(s: MirShader) -> list[str]:
    return [i.op for i in s.instrs()]


def _inp(seed: int = 3, n: int = 128) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)


def _same(s: MirShader, change, inp: np.ndarray | None = None, groups=(1, 1, 1),
          nout: int = 256) -> bool:
    """Run, apply ``change``, validate, run again: equal buffers; returns change's result."""
    inp = _inp() if inp is None else inp
    validate(s)
    bufs = {(0, 0): inp, (0, 1): nout}
    want = mir_interp.run(s, groups, bufs, subgroup_size=32)
    r = change(s)
    validate(s)
    got = mir_interp.run(s, groups, bufs, subgroup_size=32)
    for k in want:
        assert got[k] == want[k], print_shader(s)
    return r


def _lane(b: MirBuilder):
    gid = b.intr("load_global_invocation_id", [], 32, 3)
    x = b.channel(gid, 0)
    addr = b.alu("ishl", 32, 1, x, b.imm(2))
    v = b.intr("load_ssbo", [addr], 32, 1, binding=(0, 0))
    return x, addr, v


def _phi(b: MirBuilder, n: If, t, e, bits: int = 32, comps: int = 1):
    """A phi at the block after ``n`` merging ``t`` (then) and ``e`` (else)."""
    v = b.shader.new_value(bits, comps)
    ins = Instr("phi", v, [t, e])
    ins.preds = [n.then_list[-1], n.else_list[-1]]
    b.block.insert(0, ins)
    return v


def _diamond(then_body, else_body, *, comps: int = 1):
    """v = load a[x]; if (v < 1<<31) then_body(v) else else_body(v); b[x] = phi."""
    s, b = _shader()
    x, addr, v = _lane(b)
    c = b.alu("ult", 1, 1, v, b.imm(1 << 31))
    n = b.push_if(c)
    with b.into(n.then_list):
        t = then_body(b, v, addr)
    with b.into(n.else_list):
        e = else_body(b, v, addr)
    r = _phi(b, n, t, e, t.bit_size, t.num_components)
    if comps > 1:
        b.intrinsic("store_ssbo", [r, b.alu("ishl", 32, 1, x, b.imm(4))], binding=(0, 1))
    else:
        b.intrinsic("store_ssbo", [r, addr], binding=(0, 1))
    return s


def _arith(k: int):
    """k ALU instructions (constants are free)."""
    def body(b: MirBuilder, v, addr):
        for i in range(k):
            op = ("imul", "ixor", "iadd")[i % 3]
            v = b.alu(op, 32, 1, v, b.imm(3 + 0x55 * i))
        return v
    return body


def test_small_diamond_becomes_bcsel() -> None:
    s = _diamond(_arith(3), _arith(2))
    assert _same(s, peephole_select)
    assert _ifs(s) == 0
    assert _ops(s).count("bcsel") == 1 and "phi" not in _ops(s)


def test_one_sided_if_and_undef_side() -> None:
    s = _diamond(_arith(2), lambda b, v, a: v)
    assert _same(s, peephole_select) and _ifs(s) == 0 and "bcsel" in _ops(s)
    # an undef side: the other side's value, no select
    s = _diamond(_arith(2), lambda b, v, a: b.undef(32))
    assert peephole_select(s)
    validate(s)
    assert _ifs(s) == 0 and "bcsel" not in _ops(s) and "phi" not in _ops(s)


def test_vector_phi_splats_the_condition() -> None:
    def vec_side(k: int):
        def body(b: MirBuilder, v, addr):
            return b.vec([b.alu("iadd", 32, 1, v, b.imm(k + i)) for i in range(4)])
        return body
    s = _diamond(vec_side(1), vec_side(100), comps=4)
    assert _same(s, peephole_select, nout=1024) and _ifs(s) == 0


def test_cost_limit() -> None:
    # 8 ALU instructions per side fit, 9 do not
    assert _same(_diamond(_arith(8), _arith(1)), peephole_select)
    s = _diamond(_arith(9), _arith(1))
    assert not _same(s, peephole_select) and _ifs(s) == 1
    assert _same(_diamond(_arith(9), _arith(1)), lambda s: peephole_select(s, limit=9))

    def fdivs(k: int):
        def body(b: MirBuilder, v, addr):
            f = b.alu("u2f32", 32, 1, v)
            for _ in range(k):
                f = b.alu("fdiv", 32, 1, f, b.fimm(3.0))
            return b.alu("f2u32", 32, 1, f)
        return body
    # NIR's counts (RADV's expensive_alu_ok): fdiv is frcp + fmul (2), so u2f + 3 fdivs
    # + f2u fit the limit of 8 and 4 fdivs do not; a one-instruction transcendental
    # (v_sqrt_f32) is 1: u2f + 6 fsqrt + f2u fit, 7 do not
    assert not _same(_diamond(fdivs(4), _arith(1)), peephole_select)
    assert _same(_diamond(fdivs(3), _arith(1)), peephole_select)

    def sqrts(k: int):
        def body(b: MirBuilder, v, addr):
            f = b.alu("u2f32", 32, 1, v)
            for _ in range(k):
                f = b.alu("fsqrt", 32, 1, f)
            return b.alu("f2u32", 32, 1, f)
        return body
    assert _same(_diamond(sqrts(6), _arith(1)), peephole_select)
    assert not _same(_diamond(sqrts(7), _arith(1)), peephole_select)


@pytest.mark.parametrize("kind", ["store", "load", "ubo", "atomic", "barrier", "subgroup",
                                  "break"])
def test_side_effects_and_loads_stay_branches(kind: str) -> None:
    def body(b: MirBuilder, v, addr):
        if kind == "store":
            b.intrinsic("store_ssbo", [v, addr], binding=(0, 1))
        elif kind == "load":
            v = b.intr("load_ssbo", [b.iadd_imm(addr, 4)], 32, 1, binding=(0, 0))
        elif kind == "ubo":
            v = b.intr("load_ubo", [addr], 32, 1, binding=(0, 2))
        elif kind == "atomic":
            v = b.intr("ssbo_atomic", [addr, v], 32, 1, binding=(0, 0), atomic_op="iadd")
        elif kind == "barrier":
            b.intrinsic("barrier", [], execution_scope="workgroup",
                        memory_scope="workgroup", semantics="acq_rel")
        elif kind == "subgroup":
            v = b.intr("reduce", [v], 32, 1, reduction_op="iadd")
        return b.alu("iadd", 32, 1, v, b.imm(1))

    if kind == "break":
        s, b = _shader()
        x, addr, v = _lane(b)
        lp = b.push_loop()
        with b.into(lp.body):
            n = b.push_if(b.alu("ult", 1, 1, v, b.imm(5)))
            with b.into(n.then_list):
                b.jump("break")
            b.jump("break")
        b.intrinsic("store_ssbo", [v, addr], binding=(0, 1))
        validate(s)
        assert not peephole_select(s)
        return
    s = _diamond(body, _arith(1))
    if kind == "ubo":
        s.bindings[(0, 2)] = Binding(0, 2, "uniform", readonly=True)
        validate(s)
        assert not peephole_select(s)
        return
    assert not _same(s, peephole_select)
    assert _ifs(s) == 1


def test_nested_ifs_inside_a_loop() -> None:
    # for (i = 0; i < 4; i++) { if (v & 1) { if (v & 2) v += i; else v ^= i; } v >>= 1; }
    s, b = _shader()
    x, addr, v0 = _lane(b)
    pre = b.block
    lp = b.push_loop()
    with b.into(lp.body):
        head = b.block
        i_phi = Instr("phi", s.new_value(32), [])
        v_phi = Instr("phi", s.new_value(32), [])
        head.append(i_phi)
        head.append(v_phi)
        i, v = i_phi.dest, v_phi.dest
        n0 = b.push_if(b.alu("uge", 1, 1, i, b.imm(4)))
        with b.into(n0.then_list):
            b.jump("break")
        one = b.alu("ine", 1, 1, b.alu("iand", 32, 1, v, b.imm(1)), b.imm(0))
        outer = b.push_if(one)
        with b.into(outer.then_list):
            two = b.alu("ine", 1, 1, b.alu("iand", 32, 1, v, b.imm(2)), b.imm(0))
            inner = b.push_if(two)
            with b.into(inner.then_list):
                t = b.alu("iadd", 32, 1, v, i)
            with b.into(inner.else_list):
                e = b.alu("ixor", 32, 1, v, i)
            mid = _phi(b, inner, t, e)
        r = _phi(b, outer, mid, v)
        nv = b.alu("ushr", 32, 1, r, b.imm(1))
        ni = b.alu("iadd", 32, 1, i, b.imm(1))
        latch = b.block
    i_phi.srcs, i_phi.preds = [b.imm(0), ni], [pre, latch]
    v_phi.srcs, v_phi.preds = [v0, nv], [pre, latch]
    # (the constants for the entry edge are defined after the loop: move them to pre)
    for ins in list(b.block.instrs):
        b.block.instrs.remove(ins)
        pre.append(ins)
    exit_v = _phi_after_loop(b, n0, v)
    b.intrinsic("store_ssbo", [exit_v, addr], binding=(0, 1))
    assert _same(s, peephole_select)
    # the loop and its breaking if stay; both inner ifs are flattened
    assert sum(isinstance(n, Loop) for n in iter_nodes(s.function.body)) == 1
    assert _ifs(s) == 1 and _ops(s).count("bcsel") == 2


def _phi_after_loop(b: MirBuilder, brk: If, v):
    r = b.shader.new_value(32)
    ins = Instr("phi", r, [v])
    ins.preds = [brk.then_list[-1]]
    b.block.insert(0, ins)
    return r


# ---------------------------------------------------------------- GLSL

HEAD = """#version 450
layout(local_size_x = 64) in;
layout(set=0, binding=0) buffer A { uint a[]; };
layout(set=0, binding=1) buffer B { uint b[]; };
"""


def _glsl(body: str) -> MirShader:
    s = spirv_to_mir(glsl_to_spirv(HEAD + body))
    optimize(s, validate_each=True)
    return s


def test_glsl_ternaries_and_guarded_arithmetic() -> None:
    s = _glsl("""void main() {
    uint i = gl_LocalInvocationID.x, x = a[i], r;
    if (x > 0x80000000u) r = x * 7u + 3u; else r = x ^ 0x1234u;
    uint y = (x & 4u) != 0u ? r >> 3 : r << 2;
    bool f = false;
    if ((x & 8u) != 0u) f = r > 100u;
    if (f) y += 5u;
    b[i] = y;
}""")
    assert _ifs(s) >= 1
    _same(s, peephole_select)
    assert _ifs(s) == 0


def test_glsl_if_chain_in_a_loop_after_lowering() -> None:
    src = """void main() {
    uint i = gl_LocalInvocationID.x, acc = 0u;
    for (uint k = 0u; k < 6u; k++) {
        uint sel = (a[i] >> k) & 3u;
        if (sel == 0u) acc += k;
        else if (sel == 1u) acc ^= 0x33u;
        else if (sel == 2u) acc = acc * 3u;
        else acc -= 1u;
    }
    if (acc > 50u) b[i] = acc; else b[i + 64u] = acc + 1u;
}"""
    s = _glsl(src)
    ref = _glsl(src)
    bufs = {(0, 0): _inp(), (0, 1): 512}
    want = mir_interp.run(ref, (1, 1, 1), bufs, subgroup_size=32)
    lower_for_isel(s, GFX11, 32)
    check_isel_form(s)
    got = mir_interp.run(s, (1, 1, 1), bufs, subgroup_size=32)
    assert got[(0, 1)] == want[(0, 1)]
    # the if-else chain became three bcsels per trip, so the loop is small enough to
    # unroll; only the final if (stores on both sides) stays
    assert not any(isinstance(n, Loop) for n in iter_nodes(s.function.body))
    assert _ifs(s) == 1 and _ops(s).count("bcsel") >= 3
