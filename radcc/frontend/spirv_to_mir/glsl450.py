"""The GLSL.std.450 extended instruction set (Mesa's src/compiler/spirv/vtn_glsl450.c):
one MIR op each (`GLSL_SIMPLE`) or expanded here (clamps, mix, smoothstep, modf,
frexp, geometry, determinant and inverse by cofactor expansion).
"""

from __future__ import annotations

import math

from ..mir import (
    Value,
)
from ..mir_ops import ALU_OPS
from ..spirv import grammar as g
from ..spirv.binary import Instruction
from .alu import dot, emit_alu
from .context import TranslationContext, err
from .types_consts import get_tv, get_value
from .variables import store

# GLSL.std.450 instructions that are one MIR op on every operand
GLSL_SIMPLE: dict[str, str] = {
    "Round": "fround_even", "RoundEven": "fround_even", "Trunc": "ftrunc", "FAbs": "fabs",
    "SAbs": "iabs", "FSign": "fsign", "SSign": "isign", "Floor": "ffloor", "Ceil": "fceil",
    "Fract": "ffract", "Sin": "fsin", "Cos": "fcos", "Tan": "ftan", "Asin": "fasin",
    "Acos": "facos", "Atan": "fatan", "Sinh": "fsinh", "Cosh": "fcosh", "Tanh": "ftanh",
    "Asinh": "fasinh", "Acosh": "facosh", "Atanh": "fatanh", "Atan2": "fatan2",
    "Pow": "fpow", "Exp2": "fexp2", "Log2": "flog2", "Sqrt": "fsqrt", "InverseSqrt": "frsq",
    "FMin": "fmin", "UMin": "umin", "SMin": "imin", "FMax": "fmax", "UMax": "umax",
    "SMax": "imax", "NMin": "fmin", "NMax": "fmax", "Fma": "ffma", "Ldexp": "fldexp",
    "FindILsb": "find_lsb", "FindSMsb": "ifind_msb", "FindUMsb": "ufind_msb",
    "PackSnorm4x8": "pack_snorm_4x8", "PackUnorm4x8": "pack_unorm_4x8",
    "PackSnorm2x16": "pack_snorm_2x16", "PackUnorm2x16": "pack_unorm_2x16",
    "PackHalf2x16": "pack_half_2x16", "UnpackSnorm4x8": "unpack_snorm_4x8",
    "UnpackUnorm4x8": "unpack_unorm_4x8", "UnpackSnorm2x16": "unpack_snorm_2x16",
    "UnpackUnorm2x16": "unpack_unorm_2x16", "UnpackHalf2x16": "unpack_half_2x16",
    "Step": "fstep",
}


def op_ext_inst(ctx: TranslationContext, ins: Instruction) -> None:
    set_name = ctx.m.ext_imports.get(ins.id(0), "")
    if set_name.startswith("NonSemantic."):
        return
    if set_name != "GLSL.std.450":
        raise err(f"unsupported extended instruction set {set_name}", ins)
    num = int(ins.literal(1))
    info = g.ext_instruction(set_name, num)
    name = info[0] if info else str(num)
    args = [o.value for o in ins.operands[2:]]
    _glsl(ctx, ins, name, [int(a) for a in args])


def _det(ctx: TranslationContext, m: list[list[Value]], cols: list[int], rows: list[int]) -> Value:
    """The determinant of the submatrix of `m` on `cols` x `rows` (Laplace
    expansion along the first column)."""
    b = ctx.b
    if len(cols) == 1:
        return m[cols[0]][rows[0]]
    if len(cols) == 2:
        (c0, c1), (r0, r1) = cols, rows
        x = m[c0][r0]
        return b.alu("fsub", x.bit_size, 1, b.alu("fmul", x.bit_size, 1, x, m[c1][r1]),
                     b.alu("fmul", x.bit_size, 1, m[c1][r0], m[c0][r1]))
    acc: Value | None = None
    for i, r in enumerate(rows):
        x = m[cols[0]][r]
        t = b.alu("fmul", x.bit_size, 1, x,
                  _det(ctx, m, cols[1:], rows[:i] + rows[i + 1:]))
        acc = t if acc is None else b.alu("fsub" if i % 2 else "fadd", x.bit_size, 1,
                                          acc, t)
    assert acc is not None
    return acc


def _inverse(ctx: TranslationContext, m: list[list[Value]]) -> list[Value]:
    """adj(m) / det(m): inverse[c][r] = (-1)^(r+c) det(m without column r, row c) / det."""
    b = ctx.b
    n = len(m)
    idx = list(range(n))
    det = _det(ctx, m, idx, idx)
    bits = det.bit_size
    rdet = b.alu("fdiv", bits, 1, b.fsplat(1.0, det), det)
    out = []
    for c in range(n):
        col = []
        for r in range(n):
            if n == 1:
                minor = b.fsplat(1.0, det)
            else:
                minor = _det(ctx, m, [k for k in idx if k != r], [k for k in idx if k != c])
            if (r + c) % 2:
                minor = b.alu("fneg", bits, 1, minor)
            col.append(b.alu("fmul", bits, 1, minor, rdet))
        out.append(b.vec(col))
    return out


def _glsl(ctx: TranslationContext, ins: Instruction, name: str, args: list[int]) -> None:
    rt = ins.result_type
    assert rt is not None
    b = ctx.b
    if name in GLSL_SIMPLE:
        ctx.set(ins, emit_alu(ctx, GLSL_SIMPLE[name], rt, [get_value(ctx, a) for a in args]))
        return
    xs = [get_tv(ctx, a) for a in args]
    x = xs[0]
    fs = b.fsplat

    def f(op: str, *s: Value) -> Value:
        return b.alu(op, s[0].bit_size if ALU_OPS[op].dest != "bool" else 1,
                     max(v.num_components for v in s),
                     *[b.splat(v, max(w.num_components for w in s)) for v in s])

    if name == "Radians":
        r = f("fmul", x, fs(math.pi / 180, x))
    elif name == "Degrees":
        r = f("fmul", x, fs(180 / math.pi, x))
    elif name == "Exp":
        r = f("fexp2", f("fmul", x, fs(1 / math.log(2), x)))
    elif name == "Log":
        r = f("fmul", f("flog2", x), fs(math.log(2), x))
    elif name in ("FClamp", "NClamp"):
        r = f("fmin", f("fmax", x, xs[1]), xs[2])
    elif name == "UClamp":
        r = f("umin", f("umax", x, xs[1]), xs[2])
    elif name == "SClamp":
        r = f("imin", f("imax", x, xs[1]), xs[2])
    elif name == "FMix":
        r = f("flrp", x, xs[1], xs[2])
    elif name == "SmoothStep":
        e0, e1, v = xs
        t = f("fdiv", f("fsub", v, e0), f("fsub", e1, e0))
        t = f("fsat", t)
        r = f("fmul", f("fmul", t, t), f("fsub", fs(3.0, t), f("fmul", fs(2.0, t), t)))
    elif name == "Modf":
        whole = f("ftrunc", x)
        store(ctx, xs[1], whole)
        r = f("fsub", x, whole)
    elif name == "ModfStruct":
        whole = f("ftrunc", x)
        ctx.set(ins, [f("fsub", x, whole), whole])
        return
    elif name == "Frexp":
        store(ctx, xs[1], b.alu("ffrexp_exp", 32, x.num_components, x))
        r = f("ffrexp_sig", x)
    elif name == "FrexpStruct":
        ctx.set(ins, [f("ffrexp_sig", x), b.alu("ffrexp_exp", 32, x.num_components, x)])
        return
    elif name == "Determinant":
        r = _det(ctx, [b.channels(c) for c in x], list(range(len(x))), list(range(len(x))))
    elif name == "MatrixInverse":
        ctx.set(ins, _inverse(ctx, [b.channels(c) for c in x]))
        return
    elif name in ("PackDouble2x32", "UnpackDouble2x32"):
        r = b.alu("bitcast", ctx.bits(rt), ctx.comps(rt), x)
    elif name == "Length":
        r = f("fsqrt", dot(ctx, x, x)) if x.num_components > 1 else f("fabs", x)
    elif name == "Distance":
        d = f("fsub", x, xs[1])
        r = f("fsqrt", dot(ctx, d, d)) if d.num_components > 1 else f("fabs", d)
    elif name == "Normalize":
        if x.num_components == 1:
            r = f("fsign", x)
        else:
            r = f("fmul", x, b.splat(f("frsq", dot(ctx, x, x)), x.num_components))
    elif name == "Cross":
        a, c = b.channels(x), b.channels(xs[1])

        def cr(i: int, j: int) -> Value:
            return f("fsub", f("fmul", a[i], c[j]), f("fmul", a[j], c[i]))

        r = b.vec([cr(1, 2), cr(2, 0), cr(0, 1)])
    elif name == "FaceForward":
        n_, i_, nref = xs
        neg = f("flt", dot(ctx, nref, i_) if nref.num_components > 1 else
                f("fmul", nref, i_), fs(0.0, b.channel(n_, 0)))
        r = b.alu("bcsel", n_.bit_size, n_.num_components, b.splat(neg, n_.num_components),
                  n_, f("fneg", n_))
    elif name == "Reflect":
        i_, n_ = xs
        d = dot(ctx, n_, i_) if n_.num_components > 1 else f("fmul", n_, i_)
        r = f("fsub", i_, f("fmul", n_, b.splat(f("fmul", d, fs(2.0, d)), n_.num_components)))
    elif name == "Refract":
        i_, n_, eta = xs
        d = dot(ctx, n_, i_) if n_.num_components > 1 else f("fmul", n_, i_)
        one = fs(1.0, d)
        k = f("fsub", one, f("fmul", f("fmul", eta, eta), f("fsub", one, f("fmul", d, d))))
        nn = n_.num_components
        t = f("fadd", f("fmul", eta, d), f("fsqrt", k))
        rr = f("fsub", f("fmul", i_, b.splat(eta, nn)), f("fmul", n_, b.splat(t, nn)))
        neg = f("flt", k, fs(0.0, k))
        r = b.alu("bcsel", rr.bit_size, nn, b.splat(neg, nn), fs(0.0, rr), rr)
    else:
        raise err(f"unsupported GLSL.std.450 instruction {name}", ins)
    ctx.set(ins, r)
