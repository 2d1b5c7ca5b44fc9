"""range_fold and combine_barriers on hand-made MIR and GLSL.

range_fold's oracle is brute force: random expression trees over the local
invocation index and constants are evaluated in NumPy (Python integers, wrapped
to 32 bits) for every invocation of the workgroup; a compare the pass folds must
have that one answer for all of them, and the MIR interpreter must give the same
buffers before and after. combine_barriers' expectations come from SPIR-V's
memory-semantics bits (WorkgroupMemory 0x100, UniformMemory 0x40, Acquire 0x2,
Release 0x4, AcquireRelease 0x8)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from radcc.frontend.mir import Binding, If, MirFunction, MirShader, Value, iter_nodes
from radcc.frontend.mir_builder import MirBuilder
from radcc.frontend.mir_print import print_shader
from radcc.frontend.mir_validate import validate
from radcc.frontend.opt import combine_barriers, lower_for_isel, range_fold
from radcc.frontend.spirv_to_mir import spirv_to_mir
from radcc.target import get_target
from tests.support import mir_interp

from ..mir.conftest import glsl_to_spirv

GFX11 = get_target("gfx1100").mir_options  # the isel options of the GFX11 target

M32 = 0xFFFFFFFF
WG = 96  # invocations in the hand-made shaders' workgroup (96, 1, 1)


def _shader(wg: tuple[int, int, int] = (WG, 1, 1)) -> tuple[MirShader, MirBuilder]:
    s = MirShader("main", wg, MirFunction("main", []), options=GFX11)
    s.bindings[(0, 0)] = Binding(0, 0, "storage")
    s.bindings[(0, 1)] = Binding(0, 1, "storage")
    return s, MirBuilder(s)


# an expression: ("l",) | ("c", k) | (op, lhs, rhs); reference semantics on Python ints
_REF = {
    "iadd": lambda a, b: (a + b) & M32,
    "isub": lambda a, b: (a - b) & M32,
    "imul": lambda a, b: (a * b) & M32,
    "ishl": lambda a, b: (a << (b & 31)) & M32,
    "ushr": lambda a, b: a >> (b & 31),
    "udiv": lambda a, b: a // b if b else 0,
    "umod": lambda a, b: a % b if b else 0,
    "iand": lambda a, b: a & b,
    "ior": lambda a, b: a | b,
    "umin": min,
    "umax": max,
}
_CMP = {
    "ult": lambda a, b: a < b,
    "uge": lambda a, b: a >= b,
    "ieq": lambda a, b: a == b,
    "ine": lambda a, b: a != b,
    "ilt": lambda a, b: (a - (a >> 31 << 32)) < (b - (b >> 31 << 32)),
    "ige": lambda a, b: (a - (a >> 31 << 32)) >= (b - (b >> 31 << 32)),
}

_consts = st.one_of(st.integers(0, 8), st.integers(0, 300), st.sampled_from([M32, 1 << 31, 64]))
_exprs = st.recursive(
    st.one_of(st.just(("l",)), st.tuples(st.just("c"), _consts)),
    lambda sub: st.tuples(st.sampled_from(sorted(_REF)), sub, sub),
    max_leaves=5)


def _ref(e: tuple, inv: int) -> int:
    if e[0] == "l":
        return inv
    if e[0] == "c":
        return e[1]
    return _REF[e[0]](_ref(e[1], inv), _ref(e[2], inv))


def _build(b: MirBuilder, e: tuple, lv: Value) -> Value:
    if e[0] == "l":
        return lv
    if e[0] == "c":
        return b.imm(e[1])
    return b.alu(e[0], 32, 1, _build(b, e[1], lv), _build(b, e[2], lv))


@settings(max_examples=150, deadline=None)
@given(lhs=_exprs, rhs=_exprs, cmp=st.sampled_from(sorted(_CMP)))
def test_folded_compares_hold_for_every_invocation(lhs: tuple, rhs: tuple, cmp: str) -> None:
    s, b = _shader()
    lv = b.intr("load_local_invocation_index", [], 32, 1)
    c = b.alu(cmp, 1, 1, _build(b, lhs, lv), _build(b, rhs, lv))
    out = b.alu("bcsel", 32, 1, c, b.imm(7), b.imm(3))
    b.intrinsic("store_ssbo", [out, b.alu("ishl", 32, 1, lv, b.imm(2))], binding=(0, 1))
    validate(s)
    bufs = {(0, 0): np.zeros(4, np.uint32), (0, 1): WG * 4}
    before = mir_interp.run(s, (1, 1, 1), bufs, subgroup_size=32)
    ref = np.array([7 if _CMP[cmp](_ref(lhs, i), _ref(rhs, i)) else 3 for i in range(WG)],
                   np.uint32)
    np.testing.assert_array_equal(np.frombuffer(before[(0, 1)], np.uint32), ref)
    range_fold(s)
    validate(s)
    cp = c.parent
    assert cp is not None
    if cp.op == "load_const":  # folded: one answer for the whole workgroup
        assert len(set(ref.tolist())) == 1
        assert (cp.attrs["value"][0] == 1) == (ref[0] == 7)
    after = mir_interp.run(s, (1, 1, 1), bufs, subgroup_size=32)
    assert after == before, print_shader(s)


def test_workgroup_bounds_decide_these_compares() -> None:
    """Hand-derived for a (32, 3, 1) workgroup: l in [0, 95], id.x in [0, 31], id.y in [0, 2]."""
    s, b = _shader((32, 3, 1))
    lv = b.intr("load_local_invocation_index", [], 32, 1)
    lid = b.intr("load_local_invocation_id", [], 32, 3)
    y = b.channel(lid, 1)
    x = b.channel(lid, 0)
    k = b.intr("load_ssbo", [b.imm(0)], 32, 1, binding=(0, 0))
    cases = {
        "l<96": (b.alu("ult", 1, 1, lv, b.imm(96)), True),
        "l+512<64": (b.alu("ult", 1, 1, b.alu("iadd", 32, 1, lv, b.imm(512)), b.imm(64)), False),
        "y>=3": (b.alu("uge", 1, 1, y, b.imm(3)), False),
        "x*4==200": (b.alu("ieq", 1, 1, b.alu("imul", 32, 1, x, b.imm(4)), b.imm(200)), False),
        "k&15!=16": (b.alu("ine", 1, 1, b.alu("iand", 32, 1, k, b.imm(15)), b.imm(16)), True),
        "k%10<10": (b.alu("ult", 1, 1, b.alu("umod", 32, 1, k, b.imm(10)), b.imm(10)), True),
        "signed l<-1": (b.alu("ilt", 1, 1, lv, b.imm(M32)), None),  # -1 has the sign bit
        "l<95": (b.alu("ult", 1, 1, lv, b.imm(95)), None),
        "k<5": (b.alu("ult", 1, 1, k, b.imm(5)), None),
        "y<x": (b.alu("ult", 1, 1, y, x), None),
    }
    for v, _ in cases.values():
        b.intrinsic("store_ssbo", [b.alu("bcsel", 32, 1, v, b.imm(1), b.imm(0)), b.imm(0)],
                    binding=(0, 1))
    assert range_fold(s)
    validate(s)
    for name, (v, want) in cases.items():
        p = v.parent
        assert p is not None
        got = bool(p.attrs["value"][0]) if p.op == "load_const" else None
        assert got == want, name


def test_nothing_to_fold_reports_no_change() -> None:
    s, b = _shader()
    k = b.intr("load_ssbo", [b.imm(0)], 32, 1, binding=(0, 0))
    b.intrinsic("store_ssbo", [b.alu("bcsel", 32, 1, b.alu("ult", 1, 1, k, b.imm(9)),
                                     b.imm(1), b.imm(0)), b.imm(0)], binding=(0, 1))
    assert not range_fold(s)


def _barrier(b: MirBuilder, ex: str, mem: str, sem: int) -> None:
    b.intrinsic("barrier", [], execution_scope=ex, memory_scope=mem, semantics=sem)


def test_combine_adjacent_barriers() -> None:
    s, b = _shader()
    lv = b.intr("load_local_invocation_index", [], 32, 1)
    _barrier(b, "Workgroup", "Workgroup", 0x108)
    addr = b.alu("ishl", 32, 1, lv, b.imm(2))  # ALU between: still adjacent
    _barrier(b, "Workgroup", "Workgroup", 0x108)
    b.intrinsic("store_shared", [lv, addr])
    _barrier(b, "Workgroup", "Workgroup", 0x102)  # acquire, workgroup memory
    _barrier(b, "None", "Device", 0x44)  # memoryBarrierBuffer-like: release, uniform memory
    v = b.intr("load_shared", [addr], 32, 1)
    _barrier(b, "Subgroup", "Subgroup", 0)
    b.intrinsic("store_ssbo", [v, addr], binding=(0, 1))
    s.shared_size = WG * 4
    assert combine_barriers(s)
    validate(s)
    bars = [i.attrs for i in s.instrs() if i.op == "barrier"]
    assert bars == [
        {"execution_scope": "Workgroup", "memory_scope": "Workgroup", "semantics": 0x108},
        {"execution_scope": "Workgroup", "memory_scope": "Device", "semantics": 0x148},
        {"execution_scope": "Subgroup", "memory_scope": "Subgroup", "semantics": 0},
    ]
    assert not combine_barriers(s)


SPEC_WG = """#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer S { uint s[]; };
shared uint partial[1024];
void main() {
    uint wg = gl_WorkGroupSize.x * gl_WorkGroupSize.y;
    uint l = gl_LocalInvocationIndex;
    partial[l] = a[gl_WorkGroupID.x * wg + l];
    barrier();
    for (uint st = 512u; st > 0u; st >>= 1) {
        if (l < st && l + st < wg)
            partial[l] += partial[l + st];
        barrier();
    }
    if (l == 0u)
        s[gl_WorkGroupID.x] = partial[0];
}
"""


def test_reduction_over_spec_workgroup_size() -> None:
    """Workgroup 32x2 = 64: the iterations st = 512..64 have `l + st < 64` false for every
    l < 64, so they leave only their barriers (combined with the first one); st = 32..1
    keep their ifs: 6 guarded additions + the final `l == 0` store, 1 + 6 barriers.
    The interpreter gives the workgroup sums before and after."""
    s = spirv_to_mir(glsl_to_spirv(SPEC_WG), spec={0: 32, 1: 2})
    a = np.random.default_rng(5).integers(0, 1 << 20, 256, dtype=np.uint64).astype(np.uint32)
    bufs = {(0, 0): a, (0, 1): 16}
    before = mir_interp.run(s, (4, 1, 1), bufs, subgroup_size=32)
    np.testing.assert_array_equal(np.frombuffer(before[(0, 1)], np.uint32),
                                  a.reshape(4, 64).sum(axis=1, dtype=np.uint32))
    lower_for_isel(s, GFX11, 32, validate_each=True)
    assert sum(isinstance(n, If) for n in iter_nodes(s.function.body)) == 7, print_shader(s)
    assert sum(i.op == "barrier" for i in s.instrs()) == 7, print_shader(s)
    assert mir_interp.run(s, (4, 1, 1), bufs, subgroup_size=32) == before


def test_boolean_bcsel_becomes_and_or() -> None:
    """algebraic: bcsel(c, a, c) = c && a, bcsel(c, c, a) = c || a (truth tables, 4 rows)."""
    from radcc.frontend.opt import algebraic, dce

    s, b = _shader((4, 1, 1))
    lv = b.intr("load_local_invocation_index", [], 32, 1)
    c = b.alu("ine", 1, 1, b.alu("iand", 32, 1, lv, b.imm(1)), b.imm(0))
    a = b.alu("ine", 1, 1, b.alu("iand", 32, 1, lv, b.imm(2)), b.imm(0))
    both = b.alu("bcsel", 1, 1, c, a, c)
    either = b.alu("bcsel", 1, 1, c, c, a)
    val = b.alu("iadd", 32, 1, b.alu("bcsel", 32, 1, both, b.imm(1), b.imm(0)),
                b.alu("bcsel", 32, 1, either, b.imm(2), b.imm(0)))
    b.intrinsic("store_ssbo", [val, b.alu("ishl", 32, 1, lv, b.imm(2))], binding=(0, 1))
    bufs = {(0, 0): np.zeros(4, np.uint32), (0, 1): 16}
    # l = 0..3: c = l & 1, a = l & 2 -> (c && a) + 2 * (c || a)
    want = np.array([0, 2, 2, 3], np.uint32)
    np.testing.assert_array_equal(
        np.frombuffer(mir_interp.run(s, (1, 1, 1), bufs, subgroup_size=4)[(0, 1)], np.uint32),
        want)
    assert algebraic(s)
    dce(s)
    validate(s)
    assert [i.op for i in s.instrs()].count("bcsel") == 2, print_shader(s)  # the 32-bit ones
    assert [i.op for i in s.instrs()].count("iand") == 3  # two masks + c && a
    assert [i.op for i in s.instrs()].count("ior") == 1
    np.testing.assert_array_equal(
        np.frombuffer(mir_interp.run(s, (1, 1, 1), bufs, subgroup_size=4)[(0, 1)], np.uint32),
        want)
