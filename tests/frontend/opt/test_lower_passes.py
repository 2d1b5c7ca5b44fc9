"""Each isel lowering pass on hand-made MIR and small GLSL shaders: the MIR
interpreter must give the same buffers before and after the pass (integers
exactly), the result must validate, and the pass must leave the form it promises.
Division by constants and unrolling are also checked as properties (hypothesis)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from radcc.frontend.mir import (
    Binding,
    Block,
    If,
    Loop,
    MirFunction,
    MirShader,
    iter_blocks,
    iter_nodes,
)
from radcc.frontend.mir_builder import MirBuilder
from radcc.frontend.mir_print import print_shader
from radcc.frontend.mir_validate import validate
from radcc.frontend.opt import (
    dce,
    dead_branch,
    fold_offsets,
    loop_unroll,
    lower_continue_constructs,
    lower_idiv,
    lower_int64,
    lower_local_arrays,
    lower_math,
    lower_vectors,
    optimize,
)
from radcc.frontend.opt.isel_form import check_isel_form
from radcc.frontend.opt.lower_idiv import signed_magic, unsigned_magic
from radcc.frontend.spirv_to_mir import spirv_to_mir
from radcc.target import get_target
from tests.support import mir_interp

from ..mir.conftest import glsl_to_spirv

GFX11 = get_target("gfx1100").mir_options  # the isel options of the GFX11 target

U32 = 0xFFFFFFFF


def _shader(n: int = 64) -> tuple[MirShader, MirBuilder]:
    s = MirShader("main", (n, 1, 1), MirFunction("main", []), options=GFX11)
    s.bindings[(0, 0)] = Binding(0, 0, "storage")
    s.bindings[(0, 1)] = Binding(0, 1, "storage")
    return s, MirBuilder(s)


def _lane_addr(b: MirBuilder, bits: int = 32) -> tuple:
    gid = b.intr("load_global_invocation_id", [], 32, 3)
    x = b.channel(gid, 0)
    return x, b.alu("ishl", 32, 1, x, b.imm((bits // 8).bit_length() - 1))


def _run(s: MirShader, inp: np.ndarray, out_bytes: int) -> bytes:
    r = mir_interp.run(s, (1, 1, 1), {(0, 0): inp, (0, 1): out_bytes}, subgroup_size=32)
    return r[(0, 1)]


def _div_shader(op: str, bits: int, d: int | None) -> MirShader:
    s, b = _shader()
    x, addr = _lane_addr(b, bits)
    n = b.intr("load_ssbo", [addr], bits, 1, binding=(0, 0))
    if d is None:
        dv = b.intr("load_ssbo", [b.iadd_imm(addr, 64 * bits // 8)], bits, 1, binding=(0, 0))
    else:
        dv = b.imm(d, bits)
    b.intrinsic("store_ssbo", [b.alu(op, bits, 1, n, dv), addr], binding=(0, 1))
    return s


def _ref(op: str, bits: int, a: np.ndarray, d: np.ndarray) -> np.ndarray:
    m = 1 << bits
    out = []
    for x, y in zip(a.tolist(), d.tolist(), strict=True):
        sx = x - m if x >> (bits - 1) else x
        sy = y - m if y >> (bits - 1) else y
        if op == "udiv":
            r = x // y
        elif op == "umod":
            r = x % y
        else:
            q = abs(sx) // abs(sy)
            q = -q if (sx < 0) != (sy < 0) else q
            r = {"idiv": q, "irem": sx - q * sy, "imod": sx % sy}[op]
        out.append(r % m)
    return np.array(out, dtype=np.uint64)


DT = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def _check_div(op: str, bits: int, d: int | None, a: np.ndarray, dv: np.ndarray) -> None:
    s = _div_shader(op, bits, d)
    lower_idiv(s)
    lower_int64(s)
    validate(s)
    text = print_shader(s)
    assert not any(f" {o} " in text for o in ("udiv", "idiv", "umod", "irem", "imod"))
    got = np.frombuffer(_run(s, np.concatenate([a, dv]).astype(DT[bits]), 64 * bits // 8),
                        DT[bits]).astype(np.uint64)
    np.testing.assert_array_equal(got, _ref(op, bits, a.astype(np.uint64), dv.astype(np.uint64)))


OPS = st.sampled_from(["udiv", "umod", "idiv", "irem", "imod"])


@settings(max_examples=150, deadline=None)
@given(op=OPS, d=st.integers(1, U32), seed=st.integers(0, 2**32 - 1))
def test_divide_by_constant_32(op: str, d: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 1 << 32, 64, dtype=np.uint64)
    a[:4] = [0, U32, 1 << 31, (1 << 31) - 1]
    _check_div(op, 32, d, a, np.full(64, d, np.uint64))


@settings(max_examples=60, deadline=None)
@given(op=OPS, d=st.integers(1, (1 << 64) - 1), seed=st.integers(0, 2**32 - 1))
def test_divide_by_constant_64(op: str, d: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 1 << 64, 64, dtype=np.uint64)
    _check_div(op, 64, d, a, np.full(64, d, np.uint64))


@settings(max_examples=40, deadline=None)
@given(op=OPS, bits=st.sampled_from([8, 16, 32, 64]), seed=st.integers(0, 2**32 - 1))
def test_divide_by_variable(op: str, bits: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 1 << bits, 64, dtype=np.uint64)
    d = rng.integers(1, 1 << bits, 64, dtype=np.uint64)
    d[:8] = [1, 2, 3, 7, (1 << bits) - 1, 1 << (bits - 1), 10, 100 % (1 << bits) or 1]
    _check_div(op, bits, None, a, d)


@settings(max_examples=300, deadline=None)
@given(d=st.integers(2, U32))
def test_magic_numbers_match_python(d: int) -> None:
    """The magic-number formulas, in Python integers, equal // for the extreme numerators."""
    ns = [0, 1, d - 1, d, d + 1, U32, U32 - 1, (1 << 31), d * 3 & U32, 0x12345678]
    if d & (d - 1):
        m, s, add = unsigned_magic(d, 32)
        for n in ns:
            t = (n * m) >> 32
            q = ((t + ((n - t) >> 1)) >> s) if add else t >> s
            assert q == n // d, (n, d)
    sd = d - (1 << 32) if d >> 31 else d
    if abs(sd) & (abs(sd) - 1) and sd not in (0, 1, -1):
        m, sh = signed_magic(sd, 32)
        for n in ns:
            sn = n - (1 << 32) if n >> 31 else n
            t = sn + ((sn * m) >> 32)
            q0 = (t >> sh) - (sn >> 31)
            q = -q0 if sd < 0 else q0
            want = abs(sn) // abs(sd) * (1 if (sn < 0) == (sd < 0) else -1)
            assert q == want, (sn, sd)


# ---------------------------------------------------------------- GLSL shaders


def _glsl_check(src: str, passes: list, inp: np.ndarray, nout: int, wave: int = 32) -> MirShader:
    s = spirv_to_mir(glsl_to_spirv(src))
    s.options = GFX11
    optimize(s, validate_each=True)
    bufs = {(0, 0): inp, (0, 1): nout}
    want = mir_interp.run(s, (1, 1, 1), bufs, subgroup_size=wave)
    for p in passes:
        p(s)
        validate(s)
    got = mir_interp.run(s, (1, 1, 1), bufs, subgroup_size=wave)
    for k in want:
        assert got[k] == want[k], print_shader(s)
    return s


HEAD = """#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 32) in;
layout(set=0, binding=0) buffer A { uint a[]; };
layout(set=0, binding=1) buffer B { uint b[]; };
"""


def _inp(seed: int = 1, n: int = 256) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)


def test_continue_construct_moves_into_body() -> None:
    src = HEAD + """void main() {
    uint i = gl_LocalInvocationID.x, s = 0u;
    for (uint k = 0u; k < a[i] % 13u; k += (a[k] & 1u) + 1u) {
        if ((k & 3u) == 1u) continue;
        if (k > 9u) { s ^= 7u; continue; }
        s += k;
    }
    uint j = 0u;
    do { s += j; j++; } while (j < (a[i] & 7u));
    b[i] = s;
}"""
    s = _glsl_check(src, [lower_continue_constructs], _inp(), 128)
    assert all(not (isinstance(n, Loop) and n.cont) for n in iter_nodes(s.function.body))


def test_continue_copies_in_program_order() -> None:
    """The construct's copies at continues in different lists (two ifs' then-lists and the
    body's end) are the header phis' entries in reverse program order: an order of the
    program's (the copies were once ordered by where their lists were in memory, so the
    phis' operand order, and the code after it, changed from one process to another)."""
    src = HEAD + """void main() {
    uint i = gl_LocalInvocationID.x, s = 0u;
    for (uint k = 0u; k < a[i] % 13u; k += (a[k] & 1u) + 1u) {
        if ((k & 3u) == 1u) continue;
        if (k > 9u) { s ^= 7u; continue; }
        s += k;
    }
    b[i] = s;
}"""
    s = _glsl_check(src, [lower_continue_constructs], _inp(), 128)
    pos = {b: k for k, b in enumerate(iter_blocks(s.function.body))}
    loops = [n for n in iter_nodes(s.function.body) if isinstance(n, Loop)]
    assert len(loops) == 1
    inside = set(iter_blocks(loops[0].body))
    header = loops[0].body[0]
    assert isinstance(header, Block) and header.phis
    for phi in header.phis:
        back = [pos[p] for p in phi.preds if p in inside]
        assert len(back) == 3, print_shader(s)
        assert back == sorted(back, reverse=True), print_shader(s)


def test_dead_branch_spec_constant() -> None:
    src = HEAD + """layout(constant_id = 0) const bool FAST = true;
void main() {
    uint i = gl_LocalInvocationID.x, s = a[i];
    for (uint k = 0u; k < 4u + (a[i] & 3u); k++) { if (FAST) { s += k; } else { s *= k; break; } }
    if (!FAST) { s = 0u; }
    b[i] = s;
}"""
    s = _glsl_check(src, [lower_continue_constructs, dead_branch], _inp(), 128)
    assert not any(isinstance(n, If) and n.cond.parent is not None and
                   n.cond.parent.op == "load_const" for n in iter_nodes(s.function.body))


def test_dead_branch_removes_dead_nodes_keeps_effects() -> None:
    # NIR's node_is_dead / loop_is_dead: the if whose value nothing reads and the loop
    # that only breaks (its break is its own) go; the loop whose if stores stays, and so
    # does its if (a store, and a break of the loop around it)
    src = HEAD + """void main() {
    uint i = gl_LocalInvocationID.x, t = 0u;
    if (a[0] > 3u) { t = i * 7u; }
    for (uint k = 0u; k < a[1] % 9u; k++) { if (a[k & 63u] == 5u) break; }
    for (uint k = 0u; k < a[2] % 9u; k++) { if (a[k & 63u] == 9u) { b[k + 40u] = 1u; break; } }
    b[i] = i;
}"""
    s = _glsl_check(src, [lower_continue_constructs, dead_branch], _inp(), 256)
    nodes = list(iter_nodes(s.function.body))
    assert sum(isinstance(n, Loop) for n in nodes) == 1, print_shader(s)
    assert sum(isinstance(n, If) for n in nodes) == 2, print_shader(s)  # the loop's exit test too


@settings(max_examples=12, deadline=None)
@given(start=st.integers(-5, 5), end=st.integers(-5, 40), step=st.integers(1, 4))
def test_unroll_constant_trip_counts(start: int, end: int, step: int) -> None:
    src = HEAD + f"""void main() {{
    uint i = gl_LocalInvocationID.x; uint s = a[i];
    for (int k = {start}; k < {end}; k += {step}) {{ s = s * 3u + uint(k) + a[(i + uint(k)) & 63u]; }}
    b[i] = s;
}}"""
    s = _glsl_check(src, [lower_continue_constructs, loop_unroll], _inp(), 128)
    trips = max(0, -(-(end - start) // step))
    loops = sum(isinstance(n, Loop) for n in iter_nodes(s.function.body))
    assert loops == (0 if trips <= 32 else 1), trips


def test_unroll_leaves_unknown_trip_counts() -> None:
    src = HEAD + """void main() {
    uint i = gl_LocalInvocationID.x; uint s = 0u;
    for (uint k = 0u; k < a[i] % 5u; k++) s += k;
    b[i] = s;
}"""
    s = _glsl_check(src, [lower_continue_constructs, loop_unroll], _inp(), 128)
    assert any(isinstance(n, Loop) for n in iter_nodes(s.function.body))


def test_local_arrays_registers_and_scratch() -> None:
    src = HEAD + """void main() {
    uint i = gl_LocalInvocationID.x;
    uint small[6]; uint big[48];
    for (uint k = 0u; k < 6u; k++) small[k] = a[k + i];
    for (uint k = 0u; k < 48u; k++) big[k] = a[k] ^ i;
    small[a[i] % 6u] += 5u; big[a[i + 1u] % 48u] = small[a[i + 2u] % 6u];
    b[i] = small[a[i + 3u] % 6u] + big[a[i + 4u] % 48u] + big[i];
}"""
    s = _glsl_check(src, [lower_continue_constructs, lower_local_arrays], _inp(), 128)
    assert not s.function.locals
    assert s.scratch_size == 48 * 4
    text = print_shader(s)
    assert "@store_scratch" in text and "@load_scratch" in text and " bcsel " in text


def test_constant_arrays_become_constant_data() -> None:
    """const arrays indexed at run time (glslang's ``indexable`` copies: constant stores at
    constant indices, then dynamic loads) are read with @load_constant from
    shader.constant_data laid out as scratch would be (NIR's nir_opt_large_constants);
    a struct table with a float member too; with an early return (the body in a one-trip
    loop) as in ggml's shaders. The interpreter gives the same results."""
    src = HEAD + """const uint T[40] = uint[40](""" + ", ".join(f"{k * 7 + 1}u" for k in range(40)) + """);
struct E { uint a; float f; };
const E S[3] = E[3](E(5u, 1.5), E(6u, -2.0), E(7u, 0.25));
void main() {
    uint i = gl_LocalInvocationID.x;
    if (a[i] % 7u == 3u) { b[i] = 1u; return; }
    b[i] = T[a[i] % 40u] + S[i % 3u].a + uint(S[a[i] % 3u].f * 4.0 + 8.0) + T[i & 31u];
}"""
    s = _glsl_check(src, [lower_continue_constructs, lower_local_arrays], _inp(), 128)
    text = print_shader(s)
    assert "@load_constant" in text and "scratch" not in text and " bcsel " not in text
    assert not s.function.locals and s.scratch_size == 0
    words = np.frombuffer(s.constant_data[:160], np.uint32)
    assert list(words) == [k * 7 + 1 for k in range(40)]
    st_ = np.frombuffer(s.constant_data[160:184], np.uint32)  # {uint, float} x 3
    assert list(st_[0::2]) == [5, 6, 7]
    assert list(st_[1::2].view(np.float32)) == [1.5, -2.0, 0.25]


def test_constant_stores_in_several_dominating_blocks() -> None:
    """A table filled in two blocks, the first dominating the second (a divergent if
    between them), is constant data; one filled on one side of an if is not (the
    stores do not dominate the loads): it stays in scratch."""
    def fill(name: str, ks: range, f: str) -> str:
        return " ".join(f"{name}[{k}] = {f.format(k=k)};" for k in ks)

    src = HEAD + """void main() {
    uint i = gl_LocalInvocationID.x;
    uint t[40]; uint u[40];
    """ + fill("t", range(20), "{k}u * 3u + 1u") + """
    if (a[i] == 7u) { b[i + 1u] = 5u; }
    """ + fill("t", range(20, 40), "{k}u * 3u + 1u") + fill("u", range(40), "{k}u ^ 5u") + """
    if (a[i] == 9u) { """ + fill("u", range(40), "{k}u") + """ }
    b[i] = t[a[i] % 40u] + u[a[i + 1u] % 40u];
}"""
    s = _glsl_check(src, [lower_continue_constructs, lower_local_arrays], _inp(), 128)
    text = print_shader(s)
    assert "@load_constant" in text and "@load_scratch" in text
    assert list(np.frombuffer(s.constant_data, np.uint32)) == [k * 3 + 1 for k in range(40)]
    assert s.scratch_size == 40 * 4


def test_arrays_written_at_run_time_stay_in_memory() -> None:
    """A table with a store of a run-time value, or written after a load, is no constant
    data: it stays in scratch (or registers)."""
    src = HEAD + """void main() {
    uint i = gl_LocalInvocationID.x;
    uint t[40] = uint[40](""" + ", ".join(f"{k}u" for k in range(40)) + """);
    uint u[40] = uint[40](""" + ", ".join(f"{k * 3}u" for k in range(40)) + """);
    uint x = u[a[i] % 40u];
    u[3] = 9u;
    t[a[i + 1u] % 40u] = i;
    b[i] = t[a[i] % 40u] + u[a[i + 2u] % 40u] + x;
}"""
    s = _glsl_check(src, [lower_continue_constructs, lower_local_arrays], _inp(), 128)
    text = print_shader(s)
    assert "@load_constant" not in text and not s.constant_data
    assert "@load_scratch" in text and s.scratch_size == 2 * 40 * 4


def test_vectors_int64_math_and_offsets_reach_isel_form() -> None:
    src = HEAD + """layout(set=0, binding=2) buffer V { vec4 v[]; uvec3 w[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    uvec4 x = uvec4(a[i], a[i + 1u], a[i + 2u], a[i + 3u]);
    uint64_t p = uint64_t(x.x) * uint64_t(x.y) + (uint64_t(x.z) << 33);
    int64_t q = int64_t(p) / int64_t(x.w | 1u) + int64_t(p % 1000000007ul);
    uvec4 y = x * 3u + (x >> 2u) / uvec4(7u, 9u, 1u, x.w | 1u);
    b[4u * i] = uint(q) ^ uint(q >> 32) ^ uint(findMSB(p)) ^ uint(bitCount(q))
        ^ uint(min(p, uint64_t(q)));
    b[4u * i + 1u] = y.x ^ y.y ^ y.z ^ y.w ^ bitfieldExtract(x.x, int(x.y & 15u), int(x.z % 17u))
        ^ bitfieldExtract(x.y, 0, int(x.w & 32u));  // offset + count <= 32 (else undefined)
    b[4u * i + 2u] = bitfieldInsert(x.x, x.y, int(x.z & 15u), int(x.w % 17u));
    b[4u * i + 3u] = packHalf2x16(vec2(float(x.x & 255u), 0.5)) + packUnorm4x8(vec4(0.25));
}"""
    from radcc.frontend.opt import lower_for_isel

    bufs = {(0, 0): _inp(), (0, 1): 32 * 16}
    s = spirv_to_mir(glsl_to_spirv(src.replace(
        "layout(set=0, binding=2) buffer V { vec4 v[]; uvec3 w[]; };\n", "")))
    optimize(s)
    want = mir_interp.run(s, (1, 1, 1), bufs, subgroup_size=32)
    lower_for_isel(s, GFX11, 32, validate_each=True)
    check_isel_form(s)
    got = mir_interp.run(s, (1, 1, 1), bufs, subgroup_size=32)
    assert got == want


def test_each_lowering_pass_alone_keeps_semantics() -> None:
    src = HEAD + """void main() {
    uint i = gl_LocalInvocationID.x;
    uvec2 u = uvec2(a[i], a[i + 32u]);
    float f = float(u.x & 0xffffu) / 64.0 - 300.0;
    vec2 g = vec2(f, float(u.y & 1023u) / 100.0 + 0.5);
    b[8u * i] = uint(int(atan(g.x, g.y) * 1000.0));
    b[8u * i + 1u] = uint(int(pow(g.y, 1.7) * 1000.0)) + uint(int(mod(f, 7.5) * 100.0));
    b[8u * i + 2u] = uint(int(sinh(g.y) * 100.0)) + uint(int(tanh(f / 100.0) * 1000.0));
    b[8u * i + 3u] = uint(int(sin(f / 50.0) * 1000.0)) + uint(int(asin(g.y / 11.0) * 1000.0));
    b[8u * i + 4u] = u.x / (u.y | 1u) + u.x % 12345u;
    b[8u * i + 5u] = uint(int(u.x) / -7) + uint(int(u.y) % 9);
    uint64_t w = uint64_t(u.x) * 0x1234567ul;
    b[8u * i + 6u] = uint(w / 3ul) ^ uint(w >> 40);
    b[8u * i + 7u] = uint(double(w) * 0.5) + uint(float(int64_t(u.y) - 5000000000l));
}"""
    for p in (lower_vectors, lower_math, lower_idiv, lower_int64, fold_offsets):
        # trig results are compared after truncation to integers of 1e-3: exact here
        _glsl_check(src, [lower_vectors, p] if p is not lower_vectors else [p], _inp(3), 32 * 32)


@settings(max_examples=40, deadline=None)
@given(c1=st.integers(-8, 2000), c2=st.integers(-64, 5000), vec=st.sampled_from([1, 2, 3, 4]))
def test_fold_offsets_property(c1: int, c2: int, vec: int) -> None:
    """Hand-made MIR: a load from ((x + c1) << 2) + c2 and a store at x * 16 + 4: the
    constants move into ``offset`` when in range, results stay the same."""
    s, b = _shader(16)
    x, _ = _lane_addr(b)
    a = b.alu("iadd", 32, 1, b.alu("ishl", 32, 1, b.iadd_imm(x, c1), b.imm(2)), b.imm(c2))
    v = b.intr("load_ssbo", [a], 32, vec, binding=(0, 0), align=4)
    dst = b.iadd_imm(b.imul_imm(x, 16), 4)
    b.intrinsic("store_ssbo", [b.channel(v, vec - 1), dst], binding=(0, 1), align=4)
    inp = _inp(5, 4096)
    want = _run(s, inp, 16 * 32)
    lower_vectors(s)
    fold_offsets(s)
    optimize(s, validate_each=True)
    check_isel_form(s)
    assert _run(s, inp, 16 * 32) == want
    offs = [i.attrs.get("offset", 0) for i in s.instrs() if i.op.endswith("_ssbo")]
    assert 4 in offs  # the store's constant
    total = 4 * c1 + c2  # the vector load stays one access (b32..b128)
    if 0 <= total <= 4095:
        assert total in offs


def test_signed_divide_by_variable_32_takes_iabs() -> None:
    """32-bit signed division by a variable divides |n| by |d| as NIR does, with ``iabs``
    (v_sub + v_max_i32 / s_abs_i32) rather than compare, negate and select; exact on the
    ends of the range vs Python's integers."""
    a = np.array([0, 1, U32, 1 << 31, (1 << 31) - 1, 7, U32 - 6, 100] * 8, np.uint64)
    d = np.array([1, U32, 1 << 31, U32, 3, U32 - 2, 5, (1 << 31) - 1] * 8, np.uint64)
    for op in ("idiv", "irem", "imod"):
        s = _div_shader(op, 32, None)
        lower_idiv(s)
        ops = [i.op for i in s.instrs()]
        assert ops.count("iabs") == 2, ops
        _check_div(op, 32, None, a, d)


def test_sub_dword_vector_stores_stay_whole_when_dword_aligned() -> None:
    """lower_vectors keeps an SSBO store of 2/4 16-bit components at a dword-aligned
    address as one store (isel packs it into dwords, as ACO's ``buffer_store_b64``
    of an f16vec4); a 16-bit vec3 (48 bits), a 16-bit vec2 at a 2-byte-aligned
    address and an 8-bit vec4 become one store per component. The MIR interpreter
    gives the same bytes before and after (the reference: ``store_ssbo`` of each
    component at its byte offset)."""
    s, b = _shader()
    x, _ = _lane_addr(b)
    v = b.intr("load_ssbo", [b.alu("ishl", 32, 1, x, b.imm(3))], 16, 4, binding=(0, 0))
    h = b.channels(v)
    base = b.alu("imul", 32, 1, x, b.imm(32))  # 32 bytes per invocation: dword-aligned
    b.intrinsic("store_ssbo", [b.vec(h[::-1]), base], binding=(0, 1))  # 4 x 16 at +0
    b.intrinsic("store_ssbo", [b.vec(h[1:3]), base], binding=(0, 1), offset=8)  # 2 x 16
    b.intrinsic("store_ssbo", [b.vec(h[:3]), base], binding=(0, 1), offset=12)  # 3 x 16
    b.intrinsic("store_ssbo", [b.vec(h[2:]), base], binding=(0, 1), offset=18)  # 2-aligned
    bytes8 = [b.alu("u2u8", 8, 1, c) for c in h]
    b.intrinsic("store_ssbo", [b.vec(bytes8), base], binding=(0, 1), offset=24)  # 4 x 8
    bufs = {(0, 0): _inp(5), (0, 1): 64 * 32}
    want = mir_interp.run(s, (1, 1, 1), bufs, subgroup_size=32)
    lower_vectors(s)
    validate(s)
    stores = [(i.srcs[0].bit_size, i.srcs[0].num_components, int(i.attrs.get("offset", 0)))
              for blk in iter_blocks(s.function.body) for i in blk.instrs
              if i.op == "store_ssbo"]
    assert sorted(stores) == sorted([(16, 4, 0), (16, 2, 8), (16, 1, 12), (16, 1, 14),
                                     (16, 1, 16), (16, 1, 18), (16, 1, 20),
                                     (8, 1, 24), (8, 1, 25), (8, 1, 26), (8, 1, 27)])
    assert mir_interp.run(s, (1, 1, 1), bufs, subgroup_size=32) == want
    dce(s)  # the split stores' vecN are dead
    check_isel_form(s)


@pytest.mark.parametrize("op", ["idiv", "irem"])
def test_divide_by_variable_32_keeps_each_test_next_to_its_selects(op: str) -> None:
    # the correction steps compute q + 1 and r - d before the compare r >= d, which
    # the two selects then read at once (one s_cmp, two s_cselect for uniform
    # operands; before, SCC was clobbered in between and the test kept as 0/1); the
    # sign test is right before its select: n ^ d < 0 for the quotient, n < 0 for
    # the remainder (semantics: test_divide_by_variable_32 and the e2e uniform_idiv)
    s = _div_shader(op, 32, None)
    lower_idiv(s)
    ins = [i for b in s.blocks() for i in b.instrs]
    ops = [i.op for i in ins]
    for k, o in enumerate(ops):
        if o in ("uge", "ilt"):
            assert ops[k + 1] == "bcsel", (k, ops)
            assert ins[k + 1].srcs[0] is ins[k].dest
    assert ops.count("uge") == 2
    if op == "idiv":
        sign = [i for i in ins if i.op == "ilt"]
        assert len(sign) == 1 and sign[0].srcs[0].parent.op == "ixor"


@pytest.mark.parametrize("bits", [8, 16, 32, 64])
def test_imod_by_a_positive_power_of_two_is_an_and(bits: int) -> None:
    # GLSL's % on ints (SPIR-V OpSMod, the divisor's sign) by 2^k > 0 is the low k
    # bits of the two's-complement value for every n (ncnn's padding/packing shaders:
    # x % 4 was ashr/shl/sub and a sign fix-up of 7 instructions): one iand, results
    # as Python's floor modulo; 2^(bits-1) is negative and keeps the general lowering
    rng = np.random.default_rng(bits)
    a = rng.integers(0, 1 << bits, 64, dtype=np.uint64) if bits < 64 else \
        rng.integers(0, 1 << 63, 64, dtype=np.uint64) * 2 + rng.integers(0, 2, 64, np.uint64)
    a[:4] = [0, (1 << bits) - 1, 1 << (bits - 1), (1 << (bits - 1)) - 1]
    for k in (0, 1, 2, bits - 2):
        d = 1 << k
        s = _div_shader("imod", bits, d)
        lower_idiv(s)
        ops = [i.op for b in s.blocks() for i in b.instrs]
        assert "iand" in ops and not {"ishr", "ixor", "bcsel"} & set(ops), (k, ops)
        _check_div("imod", bits, d, a, np.full(64, d, np.uint64))
    _check_div("imod", bits, 1 << (bits - 1), a, np.full(64, 1 << (bits - 1), np.uint64))


def test_rewrite_instrs_offers_only_the_given_opcodes() -> None:
    """`rewrite_instrs(..., ops=...)`: the rule sees the instructions of those opcodes
    only (an instruction it emits of another opcode too is not offered), a block without
    them keeps its instruction list, and a shader without them is not changed."""
    from radcc.frontend.opt.lower_util import Emit, rewrite_instrs

    s, b = _shader()
    x, addr = _lane_addr(b)
    n = b.intr("load_ssbo", [addr], 32, 1, binding=(0, 0))
    b.intrinsic("store_ssbo", [b.alu("imul", 32, 1, n, x), addr], binding=(0, 1))
    offered: list[str] = []

    def rule(ins, e: Emit):  # type: ignore[no-untyped-def]
        offered.append(ins.op)
        if len(offered) == 1:  # x * y -> (x + y) * 1: an iadd, a constant, an imul
            return e.alu("imul", 32, e.alu("iadd", 32, *ins.srcs), e.const(32, 1))
        return None

    before = print_shader(s)
    blocks = list(iter_blocks(s.function.body))
    lists = [blk.instrs for blk in blocks]
    assert not rewrite_instrs(s, rule, ops=frozenset({"udiv"}))
    assert offered == [] and print_shader(s) == before
    assert [blk.instrs for blk in blocks] == lists and \
        all(a is blk.instrs for a, blk in zip(lists, blocks, strict=True))
    assert rewrite_instrs(s, rule, ops=frozenset({"imul"}))
    assert offered == ["imul", "imul"]  # the emitted imul, not the iadd or the constant
    validate(s)
    text = print_shader(s)
    assert " iadd " in text and text.count(" imul ") == 1


def test_replace_by_loops_searches_only_blocks_with_the_given_opcodes() -> None:
    """`replace_by_loops(..., ops=...)`: a block without those opcodes is not searched
    (`wanted` is not asked about its instructions); one with them is, as before."""
    from radcc.frontend.opt.lower_util import replace_by_loops

    s, b = _shader()
    x, addr = _lane_addr(b)
    b.intrinsic("store_ssbo", [x, addr], binding=(0, 1))
    asked: list[str] = []

    def wanted(ins) -> bool:  # type: ignore[no-untyped-def]
        asked.append(ins.op)
        return False

    def expand(pre, ins, post) -> Loop:  # type: ignore[no-untyped-def]
        raise AssertionError("nothing is wanted")

    assert not replace_by_loops(s, wanted, expand, ops=frozenset({"ssbo_atomic"}))
    assert asked == []
    assert not replace_by_loops(s, wanted, expand, ops=frozenset({"store_ssbo"}))
    assert asked == [i.op for blk in iter_blocks(s.function.body) for i in blk.instrs]
