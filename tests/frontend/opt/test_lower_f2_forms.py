"""Lowerings that give ACO's instruction forms (conversions, division, packing).

Each test builds MIR, runs the lowering, checks the shape it promises, and checks
the values against NumPy (the oracle) through the MIR interpreter.
"""

from __future__ import annotations

import numpy as np

from radcc.frontend.mir import Binding, MirFunction, MirShader
from radcc.frontend.mir_builder import MirBuilder
from radcc.frontend.opt import lower_math, optimize
from radcc.frontend.opt.isel_form import check_isel_form
from radcc.target import get_target
from tests.support import mir_interp

GFX11 = get_target("gfx1100").mir_options  # the isel options of the GFX11 target

N = 64


def _shader() -> tuple[MirShader, MirBuilder]:
    s = MirShader("main", (N, 1, 1), MirFunction("main", []), options=GFX11)
    for k in range(3):
        s.bindings[(0, k)] = Binding(0, k, "storage")
    return s, MirBuilder(s)


def _ops(s: MirShader) -> list[str]:
    return [ins.op for b in s.blocks() for ins in b.instrs]


def _run(s: MirShader, inputs: dict, out_bytes: int) -> bytes:
    bufs = dict(inputs)
    bufs[(0, 2)] = out_bytes
    return mir_interp.run(s, (1, 1, 1), bufs, subgroup_size=32)[(0, 2)]


def _fdiv_shader(bits: int, const_divisor: float | None) -> MirShader:
    s, b = _shader()
    gid = b.channel(b.intr("load_global_invocation_id", [], 32, 3), 0)
    addr = b.alu("ishl", 32, 1, gid, b.imm((bits // 8).bit_length() - 1))
    x = b.intr("load_ssbo", [addr], bits, 1, binding=(0, 0))
    y = b.intr("load_ssbo", [addr], bits, 1, binding=(0, 1)) if const_divisor is None \
        else b.fimm(const_divisor, bits)
    b.intrinsic("store_ssbo", [b.alu("fdiv", bits, 1, x, y), addr], binding=(0, 2))
    return s


def _ulps(got: np.ndarray, exp: np.ndarray) -> np.ndarray:
    spacing = np.abs(np.spacing(exp.astype(got.dtype)))
    return np.abs(got.astype(np.float64) - exp) / spacing.astype(np.float64)


def test_fdiv_becomes_multiply_by_reciprocal() -> None:
    """fdiv (16/32-bit) -> fmul(a, frcp(b)) (f16: in f32), within GLSL's 2.5 ULP."""
    rng = np.random.default_rng(1)
    for bits, dt in ((32, np.float32), (16, np.float16)):
        s = _fdiv_shader(bits, None)
        lower_math(s)
        ops = _ops(s)
        assert "fdiv" not in ops and "frcp" in ops and "fmul" in ops, ops
        mag = rng.uniform(0.01, 100.0, (2, N)) * rng.choice([-1, 1], (2, N))
        a, d = mag.astype(dt)
        out = np.frombuffer(_run(s, {(0, 0): a, (0, 1): d}, N * bits // 8), dt)
        exact = a.astype(np.float64) / d.astype(np.float64)
        assert (_ulps(out, exact) <= 2.5).all()
        if bits == 16:  # computed in f32, rounded once: the correctly rounded quotient
            assert "f2f32" in ops and "f2f16" in ops
            assert (out == exact.astype(np.float16)).all()


def test_fdiv_by_constant_folds_to_a_multiply() -> None:
    """x / 127.0 becomes x * 0x3c010204 (1/127 rounded to f32 by NumPy), no reciprocal left."""
    s = _fdiv_shader(32, 127.0)
    lower_math(s)
    optimize(s)
    check_isel_form(s)
    ops = _ops(s)
    assert "frcp" not in ops and "fdiv" not in ops and ops.count("fmul") == 1, ops
    k = int(np.array([1 / np.float32(127.0)], np.float32).view(np.uint32)[0])
    assert k == 0x3C010204  # ACO's constant for unpackSnorm4x8 (seed dump)
    consts = [ins.attrs["value"] for b in s.blocks() for ins in b.instrs
              if ins.op == "load_const"]
    assert (k,) in consts, consts


def test_pack_norm_2x16_is_one_machine_op() -> None:
    """packSnorm2x16/packUnorm2x16 -> pack_{s,u}norm_2x16_split (v_cvt_pk_norm_*):
    GLSL's round(clamp(v, lo, 1) * scale), NaN -> 0 as the ISA's f32_to_snorm; the
    reference masks exact .5 ties (GLSL leaves their rounding open)."""
    from radcc.frontend.opt import lower_vectors

    rng = np.random.default_rng(2)
    v = rng.uniform(-1.3, 1.3, (N, 2)).astype(np.float32)
    v[0] = [np.inf, -np.inf]
    v[1] = [0.0, -0.0]
    for op, lo, scale in (("pack_snorm_2x16", -1.0, 32767), ("pack_unorm_2x16", 0.0, 65535)):
        s, b = _shader()
        gid = b.channel(b.intr("load_global_invocation_id", [], 32, 3), 0)
        x = b.intr("load_ssbo", [b.alu("ishl", 32, 1, gid, b.imm(3))], 32, 2, binding=(0, 0))
        b.intrinsic("store_ssbo", [b.alu(op, 32, 1, x), b.alu("ishl", 32, 1, gid, b.imm(2))],
                    binding=(0, 2))
        lower_vectors(s)
        ops = _ops(s)
        assert f"{op}_split" in ops and op not in ops and "fround_even" not in ops, ops
        out = np.frombuffer(_run(s, {(0, 0): v, (0, 1): 4}, N * 4), np.uint32)
        c = np.clip(v.astype(np.float64), lo, 1.0) * scale
        q = (np.round(c).astype(np.int64) & 0xFFFF).astype(np.uint32)
        want = q[:, 0] | q[:, 1] << np.uint32(16)
        tie = (np.abs(c - np.floor(c) - 0.5) < 1e-9).any(1)
        assert (out[~tie] == want[~tie]).all()


def test_f2i64_is_aco_sequence_exact_in_range() -> None:
    """f2i64 of f64/f32 -> trunc, floor(t * 2^-32), one fma, f2u32 (lo) + f2i32 (hi): no
    sign handling or selects; NumPy's truncating int64 conversion is the oracle for
    every value in range (negative ones, multiples of 2^32, -2^63, 2^63 - 1024)."""
    from radcc.frontend.opt import lower_int64

    rng = np.random.default_rng(3)
    for bits, dt in ((64, np.float64), (32, np.float32)):
        v = (rng.uniform(-9e18, 9e18, N) / rng.choice([1.0, 1e6, 1e12, 1e17], N)).astype(dt)
        v[:8] = [-2.0 ** 63, 2.0 ** 63 - (1024 if bits == 64 else 2 ** 39), -(2.0 ** 32),
                 2.0 ** 32, -1.5, -0.75, 0.0, -4294967297.5 if bits == 64 else -3.5]
        s, b = _shader()
        gid = b.channel(b.intr("load_global_invocation_id", [], 32, 3), 0)
        x = b.intr("load_ssbo", [b.alu("ishl", 32, 1, gid, b.imm((bits // 8).bit_length() - 1))], bits, 1,
                   binding=(0, 0))
        b.intrinsic("store_ssbo", [b.alu("f2i64", 64, 1, x), b.alu("ishl", 32, 1, gid,
                                                                      b.imm(3))],
                    binding=(0, 2))
        lower_int64(s)
        ops = _ops(s)
        assert "f2i64" not in ops and "bcsel" not in ops and "fabs" not in ops, ops
        assert ops.count("f2i32") == 1 and ops.count("f2u32") == 1 and "ffma" in ops, ops
        out = np.frombuffer(_run(s, {(0, 0): v, (0, 1): 8}, N * 8), np.int64)
        assert (out == np.trunc(v.astype(np.float64)).astype(np.int64)).all()


def test_isign_32_is_a_clamp_to_minus_one_one() -> None:
    """32-bit isign -> imin(imax(x, -1), 1) (the back end's v_med3_i32); NumPy's sign."""
    s, b = _shader()
    gid = b.channel(b.intr("load_global_invocation_id", [], 32, 3), 0)
    addr = b.alu("ishl", 32, 1, gid, b.imm(2))
    x = b.intr("load_ssbo", [addr], 32, 1, binding=(0, 0))
    b.intrinsic("store_ssbo", [b.alu("isign", 32, 1, x), addr], binding=(0, 2))
    lower_math(s)
    ops = _ops(s)
    assert "isign" not in ops and ops.count("imin") == 1 and ops.count("imax") == 1, ops
    v = np.random.default_rng(4).integers(-2**31, 2**31, N).astype(np.int32)
    v[:4] = [0, -2**31, 2**31 - 1, -1]
    out = np.frombuffer(_run(s, {(0, 0): v, (0, 1): 4}, N * 4), np.int32)
    assert (out == np.sign(v)).all()


def test_fsign_32_is_aco_clamp_of_the_bits() -> None:
    """32-bit fsign -> i2f32(imin(imax(bits(x + 0.0), -1), 1)); NumPy's sign for zeros of
    both signs, denormals, infinities and ordinary values."""
    s, b = _shader()
    gid = b.channel(b.intr("load_global_invocation_id", [], 32, 3), 0)
    addr = b.alu("ishl", 32, 1, gid, b.imm(2))
    x = b.intr("load_ssbo", [addr], 32, 1, binding=(0, 0))
    b.intrinsic("store_ssbo", [b.alu("fsign", 32, 1, x), addr], binding=(0, 2))
    lower_math(s)
    ops = _ops(s)
    assert "fsign" not in ops and "bcsel" not in ops and "i2f32" in ops, ops
    v = np.random.default_rng(9).uniform(-5, 5, N).astype(np.float32)
    v[:6] = [0.0, -0.0, 1e-45, -1e-45, np.inf, -np.inf]
    out = np.frombuffer(_run(s, {(0, 0): v, (0, 1): 4}, N * 4), np.float32)
    assert (out == np.sign(v)).all() and not np.signbit(out[:2]).any()


def test_pack_4x8_forms() -> None:
    """packUnorm4x8 -> four cvt_pk_u8_f32 (v_cvt_pk_u8_f32 inserting each rounded byte);
    packSnorm4x8 masks every byte but the top one. NumPy: GLSL's round(clamp(v, lo, 1)
    * scale) per byte; exact .5 ties masked (GLSL leaves them open)."""
    from radcc.frontend.opt import lower_vectors

    rng = np.random.default_rng(10)
    v = rng.uniform(-1.3, 1.3, (N, 4)).astype(np.float32)
    v[0] = [np.inf, -np.inf, 0.0, -0.0]
    for op, lo, scale in (("pack_unorm_4x8", 0.0, 255), ("pack_snorm_4x8", -1.0, 127)):
        s, b = _shader()
        gid = b.channel(b.intr("load_global_invocation_id", [], 32, 3), 0)
        x = b.intr("load_ssbo", [b.alu("ishl", 32, 1, gid, b.imm(4))], 32, 4, binding=(0, 0))
        b.intrinsic("store_ssbo", [b.alu(op, 32, 1, x), b.alu("ishl", 32, 1, gid, b.imm(2))],
                    binding=(0, 2))
        lower_vectors(s)
        ops = _ops(s)
        if op == "pack_unorm_4x8":
            assert ops.count("cvt_pk_u8_f32") == 4 and "f2u32" not in ops, ops
        else:
            assert ops.count("iand") == 3 and ops.count("f2i32") == 4, ops
        out = np.frombuffer(_run(s, {(0, 0): v, (0, 1): 4}, N * 4), np.uint32)
        c = np.clip(v.astype(np.float64), lo, 1.0) * scale
        q = (np.round(c).astype(np.int64) & 0xFF).astype(np.uint32)
        want = q[:, 0] | q[:, 1] << np.uint32(8) | q[:, 2] << np.uint32(16) | \
            q[:, 3] << np.uint32(24)
        tie = (np.abs(c - np.floor(c) - 0.5) < 1e-9).any(1)
        assert (out[~tie] == want[~tie]).all()
