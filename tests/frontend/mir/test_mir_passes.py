"""MIR translation, text form, passes and interpreter details (no lavapipe)."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from radcc.frontend.mir import Binding, Instr, MirFunction, MirShader, Value, iter_phis
from radcc.frontend.mir_builder import MirBuilder
from radcc.frontend.mir_print import print_shader
from radcc.frontend.mir_validate import MirValidationError, validate
from radcc.frontend.opt import algebraic, cse, dce, optimize, vars_to_ssa
from radcc.frontend.spirv import SpirvError
from radcc.frontend.spirv_to_mir import spirv_to_mir
from radcc.oracle import spirv_tools
from tests.support import mir_interp

from .conftest import glsl_to_spirv
from .shaders import CASES

LOOP = """
#version 450
layout(local_size_x = 8) in;
layout(set=0, binding=0) buffer A { uint a[]; };
void main() {
    uint s = 0u;
    for (uint i = 0u; i < a[0]; i++) s += i;
    a[gl_GlobalInvocationID.x + 1u] = s;
}
"""


def _case(name: str) -> str:
    return next(c.glsl for c in CASES if c.name == name)


def test_translation_text() -> None:
    text = print_shader(spirv_to_mir(glsl_to_spirv(LOOP)))
    assert text.startswith("shader main workgroup_size(8, 1, 1) shared 0 push_constants 0\n"
                           "  binding 0:0 storage\n")
    assert '  local v0 "s" u32\n' in text
    assert "loop {" in text and "} continue {" in text
    assert "@load_global_invocation_id" in text and "@store_ssbo" in text


def test_vars_to_ssa_builds_loop_phis() -> None:
    shader = spirv_to_mir(glsl_to_spirv(LOOP))
    optimize(shader, validate_each=True)
    text = print_shader(shader)
    assert "load_deref" not in text and "store_deref" not in text
    assert not shader.function.locals
    assert text.count(" phi ") >= 2  # s and i at the loop head (s leaves from the head)


# `t` is stored before every load of it (in the loop body and after the loop): it is
# live into no join, so pruned SSA gives it no phi; `s` and `i` are live into the loop
# header (and `s` past the loop's exit)
PRUNED = """
#version 450
layout(local_size_x = 8) in;
layout(set=0, binding=0) buffer A { uint a[]; };
void main() {
    uint s = 0u;
    uint t = 1u;
    for (uint i = 0u; i < a[0]; i++) { t = i * 3u; s += t; }
    t = s + 5u;
    a[gl_GlobalInvocationID.x + 1u] = t;
}
"""


def test_vars_to_ssa_places_only_live_phis() -> None:
    # every load of the shader feeds a store: a phi vars_to_ssa places is read unless it
    # is one no load needs (a variable not live into its block), which dce then removes
    shader = spirv_to_mir(glsl_to_spirv(PRUNED))
    assert vars_to_ssa(shader)
    validate(shader)
    placed = print_shader(shader).count(" phi ")
    assert placed >= 2  # s and i at the loop header
    dce(shader)
    assert print_shader(shader).count(" phi ") == placed


def test_dynamic_local_array_stays_in_memory() -> None:
    shader = spirv_to_mir(glsl_to_spirv(_case("local_arrays")))
    optimize(shader, validate_each=True)
    names = {v.name: str(v.type) for v in shader.function.locals}
    assert names.get("t") == "i32[8]"
    assert "c" not in names  # constant-indexed array promoted
    assert "@load_deref" in print_shader(shader)


FORWARD = """
#version 450
layout(local_size_x = 8) in;
layout(set=0, binding=0) buffer A { int a[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i];
    x = x * 3 + x;
    int y = x - 5;
    if (y > 0) { x = x + 100; y = x * 2; }
    a[i] = x * 1000 + y;
}
"""


def test_translation_forwards_loads_within_a_block() -> None:
    """A load of a whole local variable takes the value last stored to it (or loaded from
    it) where that store dominates the load and no branch that stored it was left
    since; a load after such a branch stays a load_deref (vars_to_ssa's). The results
    are NumPy's."""
    shader = spirv_to_mir(glsl_to_spirv(FORWARD))
    # x and y after the if (stored in it); in the if, x is the value stored before it
    assert _load_counts(shader) == {"x": 1, "y": 1}
    x = np.random.default_rng(5).integers(-20, 20, 8).astype(np.int32)
    out = np.frombuffer(mir_interp.run(shader, (1, 1, 1), {(0, 0): x})[(0, 0)], np.int32)
    x4 = x * 4
    y = x4 - 5
    big = np.where(y > 0, x4 + 100, x4)
    np.testing.assert_array_equal(out, big * 1000 + np.where(y > 0, big * 2, y))


DOMINATED = """
#version 450
layout(local_size_x = 8) in;
layout(set=0, binding=0) buffer A { int a[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int k = a[i] & 3;
    int s = 0;
    int last = 0;
    for (int j = 0; j < 4; j++) {
        if (j > k) { s = s + last; }
        last = j * k + int(i);
    }
    if (k == 2) { s = s * 10; }
    a[i] = s * 100 + k;
}
"""


def _load_counts(shader: MirShader) -> dict[str, int]:
    loads: dict[str, int] = {}
    for ins in shader.instrs():
        if ins.op == "load_deref":
            var = ins.srcs[0].parent.attrs["var"]
            loads[var.name] = loads.get(var.name, 0) + 1
    return loads


def test_translation_forwards_dominating_stores() -> None:
    """A variable stored once (i, k) is read from its store wherever the store dominates
    the load, in loops entered after it too; one stored several times (s, last, j) only
    where no loop was entered since (a later store in the loop reaches its loads through
    the back edge) and no store in a branch was left since. The results are NumPy's."""
    shader = spirv_to_mir(glsl_to_spirv(DOMINATED))
    # j at the loop's head (then the body reads that load) and in its continue
    # construct (another list); s and last in the if in the loop (stored before the loop
    # and in it); s after the loop (then the if reads that load) and after the if that
    # stores it
    assert _load_counts(shader) == {"j": 2, "s": 3, "last": 1}
    # every load of i and k read its store: the variables are gone, their stores too
    assert sorted(v.name for v in shader.function.locals) == ["j", "last", "s"]
    assert sum(ins.op == "store_deref" for ins in shader.instrs()) == 7  # j, s, last
    x = np.random.default_rng(7).integers(0, 50, 8).astype(np.int32)
    out = np.frombuffer(mir_interp.run(shader, (1, 1, 1), {(0, 0): x})[(0, 0)], np.int32)
    want = []
    for i, v in enumerate(x):
        k, s, last = int(v) & 3, 0, 0
        for j in range(4):
            if j > k:
                s += last
            last = j * k + i
        want.append((s * 10 if k == 2 else s) * 100 + k)
    np.testing.assert_array_equal(out, np.array(want, np.int32))


SPEC = _case("spec_constants_default")


@pytest.mark.parametrize("spec,mul,wg", [({}, 24, 1), ({0: 32, 1: 1, 2: 10}, 31, 32)])
def test_spec_constants_fold(spec: dict[int, int], mul: int, wg: int) -> None:
    shader = spirv_to_mir(glsl_to_spirv(SPEC), spec=spec)
    optimize(shader, validate_each=True)
    assert shader.workgroup_size == (wg, 1, 1)
    text = print_shader(shader)
    assert f"= {mul})" in text and f"= {wg})" in text
    assert "idiv" not in text and " imul %" in text


def test_unsupported_instruction_names_offset() -> None:
    src = """
    #version 450
    layout(local_size_x = 1) in;
    layout(set=0, binding=0) buffer A { mat2 m; float d; };
    void main() { d = determinant(m); }
    """
    spv = glsl_to_spirv(src)
    # every GLSL.std.450 instruction a compute shader can use is translated: turn
    # Determinant (33) into InterpolateAtCentroid (76, fragment shaders only)
    words = list(struct.unpack(f"<{len(spv) // 4}I", spv))
    k = 5
    while k < len(words):
        n, op = words[k] >> 16, words[k] & 0xFFFF
        if op == 12 and words[k + 4] == 33:  # OpExtInst ... Determinant
            words[k + 4] = 76
        k += n
    spv = struct.pack(f"<{len(words)}I", *words)
    with pytest.raises(SpirvError) as e:
        spirv_to_mir(spv)
    assert e.value.opname == "OpExtInst"
    assert "InterpolateAtCentroid" in e.value.message
    assert e.value.word_offset in spirv_tools.instruction_offsets(spv)


def test_unknown_entry_point() -> None:
    with pytest.raises(SpirvError, match="no entry point 'nope'"):
        spirv_to_mir(glsl_to_spirv(LOOP), entry="nope")


def _shader() -> tuple[MirShader, MirBuilder]:
    s = MirShader("t", (4, 1, 1), MirFunction("t", []))
    s.bindings[(0, 0)] = Binding(0, 0, "storage")
    return s, MirBuilder(s)


def _algebraic_keeps_results(s: MirShader) -> None:
    """algebraic changes `s` (then dce), which stays valid and stores what it stored."""
    validate(s)
    before = mir_interp.run(s, (1, 1, 1), {(0, 0): 64})
    assert algebraic(s)
    dce(s)
    validate(s)
    assert mir_interp.run(s, (1, 1, 1), {(0, 0): 64}) == before


def test_algebraic_table() -> None:
    s, b = _shader()
    x = b.intr("load_local_invocation_index", [], 32, 1)
    r1 = b.alu("iadd", 32, 1, b.imm(0), x)
    r2 = b.alu("imul", 32, 1, x, b.imm(8))
    r3 = b.alu("umod", 32, 1, x, b.imm(16))
    for k, r in enumerate((r1, r2, r3)):
        b.intrinsic("store_ssbo", [r, b.imm(4 * k)], binding=(0, 0))
    _algebraic_keeps_results(s)
    text = print_shader(s)
    assert "ishl" in text and "iand" in text and "imul" not in text and "umod" not in text


def test_algebraic_repeated_variables_and_numbers() -> None:
    # a rule naming a variable twice matches only the same value there; a number matches
    # a constant holding it in every component, on either side of a commutative opcode
    s, b = _shader()
    x = b.intr("load_local_invocation_index", [], 32, 1)
    y = b.alu("iadd", 32, 1, x, b.imm(3))
    ones = b.const(32, [1, 1])
    mixed = b.const(32, [1, 2])
    xx = b.alu("vec2", 32, 2, x, y)
    results = [
        b.alu("ixor", 32, 1, x, x),  # 0
        b.alu("ixor", 32, 1, x, y),  # kept
        b.alu("bcsel", 32, 1, b.alu("ilt", 1, 1, x, y), y, y),  # y
        b.alu("imul", 32, 1, b.imm(1), y),  # y (number on the left)
        b.alu("imul", 32, 2, ones, xx),  # xx
        b.alu("imul", 32, 2, xx, mixed),  # kept: not one number
    ]
    for k, r in enumerate(results):
        if r.num_components == 2:
            r = b.alu("iadd", 32, 1, b.alu("mov", 32, 1, r, comps=(0,)),
                      b.alu("mov", 32, 1, r, comps=(1,)))
        b.intrinsic("store_ssbo", [r, b.imm(4 * k)], binding=(0, 0))
    _algebraic_keeps_results(s)
    ops = [i.op for i in s.instrs()]
    assert ops.count("ixor") == 1 and ops.count("bcsel") == 0 and ops.count("imul") == 1


def test_iter_phis_reads_the_leading_phis() -> None:
    # the phis lead their block: a phi-named instruction after another is not one of them
    shader = spirv_to_mir(glsl_to_spirv(LOOP))
    optimize(shader)
    want = [i for b in shader.blocks() for i in b.instrs if i.op == "phi"]
    assert len(want) >= 2 and list(iter_phis(shader.blocks())) == want
    blk = next(b for b in shader.blocks() if b.instrs and b.instrs[0].op != "phi")
    blk.instrs.append(Instr("phi", shader.new_value(32)))
    assert list(iter_phis(shader.blocks())) == want


def test_cse_merges_and_keeps_atomics() -> None:
    s, b = _shader()
    x = b.intr("load_local_invocation_index", [], 32, 1)
    y = b.intr("load_local_invocation_index", [], 32, 1)
    a1 = b.alu("iadd", 32, 1, x, b.imm(1))
    a2 = b.alu("iadd", 32, 1, y, b.imm(1))
    at1 = b.intr("ssbo_atomic", [b.imm(0), a1], 32, 1, atomic_op="iadd", binding=(0, 0))
    at2 = b.intr("ssbo_atomic", [b.imm(0), a2], 32, 1, atomic_op="iadd", binding=(0, 0))
    b.intrinsic("store_ssbo", [b.alu("iadd", 32, 1, at1, at2), b.imm(4)], binding=(0, 0))
    assert cse(s)
    validate(s)
    ops = [i.op for i in s.instrs()]
    assert ops.count("iadd") == 2 and ops.count("ssbo_atomic") == 2
    assert ops.count("load_local_invocation_index") == 1


def test_validator_rejects_use_before_def() -> None:
    s, b = _shader()
    x = b.intr("load_local_invocation_index", [], 32, 1)
    y = b.alu("iadd", 32, 1, x, x)
    blk = s.function.body[0]
    blk.instrs.reverse()  # type: ignore[union-attr]
    with pytest.raises(MirValidationError, match="before its definition"):
        validate(s)
    assert y is not None


def test_interpreter_clustered_reduction() -> None:
    """Clustered reductions (lavapipe 22.3 ignores the cluster size, so NumPy decides)."""
    src = """
    #version 450
    #extension GL_KHR_shader_subgroup_clustered : require
    layout(local_size_x = 32) in;
    layout(set=0, binding=0) buffer A { int a[]; };
    void main() { uint i = gl_GlobalInvocationID.x; a[i] = subgroupClusteredMax(a[i], 4u); }
    """
    x = np.random.default_rng(3).integers(-100, 100, 32).astype(np.int32)
    shader = spirv_to_mir(glsl_to_spirv(src))
    out = np.frombuffer(mir_interp.run(shader, (1, 1, 1), {(0, 0): x})[(0, 0)], np.int32)
    np.testing.assert_array_equal(out, np.repeat(x.reshape(-1, 4).max(axis=1), 4))


def test_algebraic_division_by_zero_one_and_minus_one() -> None:
    """x/1, x/-1, x%1, x%-1 and every division or remainder by a constant 0 (undefined;
    0 as NIR's folding and the interpreter give) leave no division behind."""
    s, b = _shader()
    x = b.alu("isub", 32, 1, b.intr("load_local_invocation_index", [], 32, 1), b.imm(2))
    rs = [b.alu(op, 32, 1, x, b.imm(d)) for op, d in (
        ("idiv", 1), ("idiv", -1), ("irem", 1), ("imod", 1), ("irem", -1), ("imod", -1),
        ("umod", 1), ("udiv", 0), ("idiv", 0), ("umod", 0), ("irem", 0), ("imod", 0))]
    for k, r in enumerate(rs):
        b.intrinsic("store_ssbo", [r, b.imm(4 * k)], binding=(0, 0))
    validate(s)
    before = mir_interp.run(s, (1, 1, 1), {(0, 0): 64})
    optimize(s)
    validate(s)
    ops = {i.op for i in s.instrs()}
    assert not ops & {"idiv", "udiv", "irem", "imod", "umod"}, ops
    assert mir_interp.run(s, (1, 1, 1), {(0, 0): 64}) == before


def _float_rules_shader(preserve: frozenset[int] = frozenset(),
                        exact: bool = False) -> MirShader:
    s, b = _shader()
    s.float_preserve = preserve
    i = b.intr("load_local_invocation_index", [], 32, 1)
    x = b.intr("load_ssbo", [b.alu("ishl", 32, 1, i, b.imm(2))], 32, 1, binding=(0, 0),
               align=4)
    y = b.alu("fadd", 32, 1, x, b.fimm(0.5))
    attrs = {"exact": True} if exact else {}
    rs = [b.alu("fmul", 32, 1, x, b.fimm(0.0), **attrs),
          b.alu("ffma", 32, 1, b.fimm(0.0), x, y, **attrs),
          b.alu("fadd", 32, 1, x, b.fimm(0.0), **attrs)]
    _store_each(b, i, rs)
    validate(s)
    return s


def test_algebraic_inexact_float_rules() -> None:
    """x*0 -> 0, fma(0, x, y) -> y, x+0 -> x (NIR's inexact rules) unless the instruction
    is exact or the shader preserves signed zeros/Inf/NaN of that size; exact rewrites
    (fma(x, 1, y) -> x+y, x*-1 -> -x) always."""
    data = np.arange(1, 21, dtype=np.float32).tobytes() + bytes(64 * 4)
    s = _float_rules_shader()
    before = mir_interp.run(s, (1, 1, 1), {(0, 0): data})
    optimize(s)
    validate(s)
    ops = [i.op for i in s.instrs()]
    assert "fmul" not in ops and "ffma" not in ops and ops.count("fadd") == 1, ops
    assert mir_interp.run(s, (1, 1, 1), {(0, 0): data}) == before
    for kept in (_float_rules_shader(preserve=frozenset({32})),
                 _float_rules_shader(exact=True)):
        optimize(kept)
        ops = [i.op for i in kept.instrs()]
        assert "fmul" in ops and "ffma" in ops and ops.count("fadd") == 2, ops
    s, b = _shader()
    x = b.intr("load_ssbo", [b.imm(0)], 32, 1, binding=(0, 0), align=4)
    b.intrinsic("store_ssbo", [b.alu("ffma", 32, 1, x, b.fimm(1.0), x), b.imm(4)],
                binding=(0, 0))
    b.intrinsic("store_ssbo", [b.alu("fmul", 32, 1, b.fimm(-1.0), x), b.imm(8)],
                binding=(0, 0))
    s.float_preserve = frozenset({32})
    optimize(s)
    ops = [i.op for i in s.instrs()]
    assert "ffma" not in ops and "fmul" not in ops and "fadd" in ops and "fneg" in ops, ops


def _store_each(b: MirBuilder, i: Value, rs: list[Value]) -> None:
    """Result k of invocation i to byte 64 + 4k + 16i of binding (0, 0)."""
    for k, r in enumerate(rs):
        b.intrinsic("store_ssbo", [r, b.alu("iadd", 32, 1, b.imm(64 + 4 * k),
                                            b.alu("ishl", 32, 1, i, b.imm(4)))],
                    binding=(0, 0))


def _cancel_shader(preserve: frozenset[int] = frozenset(), exact_root: bool = False,
                   exact_mul: bool = False) -> MirShader:
    s, b = _shader()
    s.float_preserve = preserve
    i = b.intr("load_local_invocation_index", [], 32, 1)
    x = b.intr("load_ssbo", [b.alu("ishl", 32, 1, i, b.imm(2))], 32, 1, binding=(0, 0),
               align=4)
    root = {"exact": True} if exact_root else {}
    mul = {"exact": True} if exact_mul else {}
    rs = [b.alu("fsub", 32, 1, x, x, **root),
          b.alu("fadd", 32, 1, b.alu("fneg", 32, 1, x), x, **root),
          b.alu("fadd", 32, 1, b.alu("fmul", 32, 1, x, b.fimm(0.5), **mul),
                b.alu("fmul", 32, 1, x, b.fimm(2.0), **mul), **root)]
    _store_each(b, i, rs)
    validate(s)
    return s


def test_algebraic_cancellation_and_distribution() -> None:
    """NIR's inexact x - x -> 0, x + -x -> 0 and x*b + x*c -> x*(b + c) (ncnn's winograd
    output transforms with a zero cstep read one value 36 times: 380 -> 248 machine
    instructions): the results as NumPy computes them, one fmul by 2.5 left; none of it
    for an exact root or operand, or a shader preserving f32 zeros/Inf/NaN."""
    x = np.arange(1, 5, dtype=np.float32) * np.float32(1.25)
    data = x.tobytes() + bytes(60 * 4)
    s = _cancel_shader()
    optimize(s)
    validate(s)
    ops = [i.op for i in s.instrs()]
    assert ops.count("fmul") == 1 and not {"fsub", "fadd", "fneg"} & set(ops), ops
    out = np.frombuffer(mir_interp.run(s, (1, 1, 1), {(0, 0): data})[(0, 0)], np.float32)
    got = out[16:32].reshape(4, 4)[:, :3]
    want = np.stack([x - x, -x + x, x * np.float32(0.5) + x * np.float32(2.0)], axis=1)
    np.testing.assert_array_equal(got, want)
    for kept, left in ((_cancel_shader(preserve=frozenset({32})), {"fsub", "fneg", "fadd"}),
                       (_cancel_shader(exact_root=True), {"fsub", "fneg", "fadd"}),
                       (_cancel_shader(exact_mul=True), {"fadd"})):
        optimize(kept)
        ops = [i.op for i in kept.instrs()]
        assert left <= set(ops), ops
        if left == {"fadd"}:
            assert ops.count("fmul") == 2, ops


def test_algebraic_reciprocal_of_square_root_is_rsq() -> None:
    """NIR's inexact frcp(fsqrt(a)) -> frsq(a) (ncnn's normalize: one v_rsq_f32 as ACO,
    not v_sqrt + v_rcp): the result as NumPy's 1/sqrt within the rounding of one
    transcendental; an exact frcp keeps both."""
    for exact in (False, True):
        s, b = _shader()
        i = b.intr("load_local_invocation_index", [], 32, 1)
        x = b.intr("load_ssbo", [b.alu("ishl", 32, 1, i, b.imm(2))], 32, 1,
                   binding=(0, 0), align=4)
        r = b.alu("frcp", 32, 1, b.alu("fsqrt", 32, 1, x), **({"exact": True} if exact else {}))
        _store_each(b, i, [r])
        validate(s)
        optimize(s)
        validate(s)
        ops = [ins.op for ins in s.instrs()]
        if exact:
            assert {"frcp", "fsqrt"} <= set(ops) and "frsq" not in ops, ops
            continue
        assert "frsq" in ops and not {"frcp", "fsqrt"} & set(ops), ops
        x_in = np.array([0.25, 2.0, 9.0, 1e6], dtype=np.float32)
        out = mir_interp.run(s, (1, 1, 1), {(0, 0): x_in.tobytes() + bytes(60 * 4)})
        got = np.frombuffer(out[(0, 0)], np.float32)[16:32].reshape(4, 4)[:, 0]
        np.testing.assert_allclose(got, 1 / np.sqrt(x_in.astype(np.float64)), rtol=2e-7)


def _exp_log_shader(exact: bool) -> MirShader:
    s, b = _shader()
    i = b.intr("load_local_invocation_index", [], 32, 1)
    x = b.intr("load_ssbo", [b.alu("ishl", 32, 1, i, b.imm(2))], 32, 1, binding=(0, 0),
               align=4)
    e = {"exact": True} if exact else {}
    rs = [b.alu("fexp2", 32, 1, b.alu("flog2", 32, 1, x), **e),
          b.alu("flog2", 32, 1, b.alu("fexp2", 32, 1, x), **e),
          b.alu("fexp2", 32, 1, b.alu("fmul", 32, 1, b.alu("flog2", 32, 1, x), b.fimm(2.0)),
                **e),
          b.alu("fpow", 32, 1, x, b.fimm(1.0), **e),
          b.alu("fpow", 32, 1, x, b.fimm(2.0), **e),
          b.alu("fpow", 32, 1, b.fimm(2.0), x, **e),
          b.alu("frcp", 32, 1, b.alu("fexp2", 32, 1, x), **e),
          b.alu("fmul", 32, 1, b.fimm(3.0), b.alu("fmul", 32, 1, x, b.fimm(0.5)), **e),
          b.alu("fadd", 32, 1, b.alu("fadd", 32, 1, b.fimm(2.0), x), b.fimm(1.0), **e)]
    for k, r in enumerate(rs):  # result k of invocation i to byte 64 + 4k + 64i
        b.intrinsic("store_ssbo", [r, b.alu("iadd", 32, 1, b.imm(64 + 4 * k),
                                            b.alu("ishl", 32, 1, i, b.imm(6)))],
                    binding=(0, 0))
    validate(s)
    return s


def test_algebraic_exp_log_identities_and_constant_reassociation() -> None:
    """NIR's inexact exponential/logarithmic identities (exp2(log2 a) = a, log2(exp2 a)
    = a, exp2(2 log2 a) = a*a, pow(a, 1) = a, pow(a, 2) = a*a, pow(2, a) = exp2(a),
    1/exp2(a) = exp2(-a)) and constant reassociation (3*(x*0.5) = 1.5*x, (2+x)+1 = x+3):
    ncnn's mish 97 -> 91 and gelu 91 -> 86 instructions (wave64). The results as NumPy
    computes the identities' right sides; an exact instruction keeps every operation."""
    x = np.array([0.75, 1.5, 3.0, 10.0], dtype=np.float32)
    s = _exp_log_shader(exact=False)
    optimize(s)
    validate(s)
    ops = [ins.op for ins in s.instrs()]
    assert not {"flog2", "fpow", "frcp"} & set(ops), ops
    assert ops.count("fexp2") == 2 and ops.count("fmul") == 2, ops  # x*x once (CSE)
    out = mir_interp.run(s, (1, 1, 1), {(0, 0): x.tobytes() + bytes(4 * 76)})
    got = np.frombuffer(out[(0, 0)], np.float32)[16:].reshape(4, 16)[:, :9]
    x64 = x.astype(np.float64)
    want = np.stack([x64, x64, x64 * x64, x64, x64 * x64, np.exp2(x64), np.exp2(-x64),
                     1.5 * x64, x64 + 3.0], axis=1)
    np.testing.assert_allclose(got, want, rtol=2e-7)
    kept = _exp_log_shader(exact=True)
    optimize(kept)
    ops = [ins.op for ins in kept.instrs()]
    assert ops.count("flog2") == 2 and ops.count("fpow") == 3 and "frcp" in ops, ops
    assert ops.count("fexp2") == 3 and ops.count("fmul") == 3 and ops.count("fadd") == 2, ops


def test_algebraic_sign_extended_bytes_are_bitfield_extracts() -> None:
    """ncnn's int8 unpacking idiom (x << 24 - 8k) >> 24 is NIR's extract_i8 (ibfe, one
    v_bfe_i32 as ACO, not a shift pair), its low byte extract_u8 (ubfe), (x >> 24) & 0xff
    a ushr (packing_int8_fp32: 48 -> 41 instructions, ACO 33); results as NumPy's int32
    shifts give them. 64-bit shifts are not byte extracts and stay."""
    s, b = _shader()
    i = b.intr("load_local_invocation_index", [], 32, 1)
    x = b.intr("load_ssbo", [b.alu("ishl", 32, 1, i, b.imm(2))], 32, 1, binding=(0, 0),
               align=4)
    sext = [b.alu("ishr", 32, 1, b.alu("ishl", 32, 1, x, b.imm(left)), b.imm(right))
            for left, right in ((24, 24), (16, 24), (8, 24), (16, 16))]
    rs = sext + [b.alu("iand", 32, 1, sext[k], b.imm(m))
                 for k, m in ((0, 0xFF), (1, 0xFF), (2, 0xFF), (3, 0xFFFF))]
    rs.append(b.alu("iand", 32, 1, b.alu("ishr", 32, 1, x, b.imm(24)), b.imm(0xFF)))
    for k, r in enumerate(rs):
        b.intrinsic("store_ssbo", [r, b.alu("iadd", 32, 1, b.imm(16 + 4 * k),
                                            b.alu("imul", 32, 1, i, b.imm(36)))],
                    binding=(0, 0))
    x64 = b.alu("pack_64_2x32_split", 64, 1, x, x)
    y64 = b.alu("ishr", 64, 1, b.alu("ishl", 64, 1, x64, b.imm(24)), b.imm(24))
    b.intrinsic("store_ssbo", [b.alu("unpack_64_2x32_split_x", 32, 1, y64),
                               b.alu("iadd", 32, 1, b.imm(160), b.alu("ishl", 32, 1, i,
                                                                      b.imm(2)))],
                binding=(0, 0))
    validate(s)
    optimize(s)
    validate(s)
    ops = [i.op for i in s.instrs()]
    assert ops.count("ibfe") == 4 and ops.count("ubfe") == 4, print_shader(s)
    assert ops.count("ushr") == 1, print_shader(s)
    assert ops.count("ishl") == 2 and ops.count("ishr") == 1, print_shader(s)  # x4; i64
    xs = np.array([0x80FF7F01, 0x12345678, 0xFEDCBA98, 0x0000FF80], np.uint32)
    data = xs.tobytes() + bytes(4 * 44)
    out = np.frombuffer(mir_interp.run(s, (1, 1, 1), {(0, 0): data})[(0, 0)], np.uint32)
    xi = xs.view(np.int32)
    sx = [(xi << 24) >> 24, (xi << 16) >> 24, (xi << 8) >> 24, (xi << 16) >> 16]
    want = sx + [sx[0] & 0xFF, sx[1] & 0xFF, sx[2] & 0xFF, sx[3] & 0xFFFF, (xi >> 24) & 0xFF]
    got = out[4:40].reshape(4, 9)
    np.testing.assert_array_equal(got, np.stack(want, axis=1).astype(np.int32).view(np.uint32))
    x64s = xs.astype(np.uint64) * np.uint64(0x100000001)
    want64 = ((x64s.view(np.int64) << 24) >> 24).view(np.uint64) & np.uint64(0xFFFFFFFF)
    np.testing.assert_array_equal(out[40:44], want64.astype(np.uint32))


def test_constant_folding_propagates_undef() -> None:
    """An ALU instruction with an undefined source is undefined (its division gone),
    bcsel picks the defined value, vecN keeps its defined components."""
    s, b = _shader()
    x = b.intr("load_local_invocation_index", [], 32, 1)
    u = b.intr("undef", [], 32, 1)
    q = b.alu("idiv", 32, 1, b.alu("iadd", 32, 1, u, b.imm(3)), x)
    sel = b.alu("bcsel", 32, 1, b.alu("ult", 1, 1, x, b.imm(2)), u, b.alu("iadd", 32, 1, x,
                                                                            b.imm(7)))
    v = b.alu("vec2", 32, 2, u, x)
    b.intrinsic("store_ssbo", [q, b.imm(0)], binding=(0, 0))
    b.intrinsic("store_ssbo", [sel, b.imm(4)], binding=(0, 0))
    b.intrinsic("store_ssbo", [v, b.imm(8)], binding=(0, 0))
    validate(s)
    optimize(s)
    validate(s)
    ops = [i.op for i in s.instrs()]
    assert "idiv" not in ops and "bcsel" not in ops and "vec2" in ops, ops
    # the undefined quotient's store is dead (dead_writes), the select's stores x + 7
    stores = [i for i in s.instrs() if i.op == "store_ssbo"]
    assert len(stores) == 2, stores
    p1 = stores[0].srcs[0].parent
    assert p1 is not None and p1.op == "iadd"


def test_algebraic_integer_constant_reassociation() -> None:
    """(x - 1) + 1 is x, (x + 3) + 5 is x + 8, (x + 3) - 5 is x - 2 and (x - 3) - 5 is
    x - 8 (NIR's constant reassociation, exact in wrapping arithmetic): no add or sub
    of the constant pieces left beside the one per result; the stores as the
    interpreter computed them before, wrapping included (x near 2^32 - 1)."""
    s, b = _shader()
    x = b.alu("iadd", 32, 1, b.intr("load_local_invocation_index", [], 32, 1),
              b.imm(0xFFFFFFFE))
    r0 = b.alu("iadd", 32, 1, b.alu("isub", 32, 1, x, b.imm(1)), b.imm(1))
    r1 = b.alu("iadd", 32, 1, b.imm(5), b.alu("iadd", 32, 1, x, b.imm(3)))
    r2 = b.alu("isub", 32, 1, b.alu("iadd", 32, 1, x, b.imm(3)), b.imm(5))
    r3 = b.alu("isub", 32, 1, b.alu("isub", 32, 1, x, b.imm(3)), b.imm(5))
    for k, r in enumerate((r0, r1, r2, r3)):
        b.intrinsic("store_ssbo", [r, b.alu("iadd", 32, 1, b.alu(
            "ishl", 32, 1, b.intr("load_local_invocation_index", [], 32, 1), b.imm(4)),
            b.imm(4 * k))], binding=(0, 0))
    validate(s)
    before = mir_interp.run(s, (1, 1, 1), {(0, 0): 64})
    optimize(s)
    validate(s)
    assert mir_interp.run(s, (1, 1, 1), {(0, 0): 64}) == before
    got = np.frombuffer(before[(0, 0)], np.uint32).reshape(4, 4)
    xs = (np.arange(4, dtype=np.uint64) + 0xFFFFFFFE) & 0xFFFFFFFF
    want = np.stack([xs, xs + 8, xs - 2, xs - 8], 1) & 0xFFFFFFFF
    np.testing.assert_array_equal(got, want.astype(np.uint32))
    # the address adds aside, one iadd/isub per non-trivial result, none for r0
    ops = [i.op for i in s.instrs() if i.op in ("iadd", "isub")]
    assert len(ops) == 1 + 3 + 3, ops
