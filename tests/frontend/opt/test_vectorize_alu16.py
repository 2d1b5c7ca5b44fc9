"""vectorize_alu16 on hand-made MIR: the printed MIR after the pass is the expected
text (pairs of f16 operations whose sources are free to pack become one 16x2
operation on ``vec2`` sources, results extracted with ``mov``; pairs that would need
packing, a partner after a use of the first result, or other operations stay
scalar), the MIR interpreter gives the same buffers before and after, and the result
validates and is in isel form."""

from __future__ import annotations

import numpy as np

from radcc.frontend.mir import Binding, Instr, MirFunction, MirShader
from radcc.frontend.mir_builder import MirBuilder
from radcc.frontend.mir_print import print_shader
from radcc.frontend.mir_validate import validate
from radcc.frontend.opt import vectorize_alu16
from radcc.frontend.opt.isel_form import check_isel_form
from radcc.target import get_target
from tests.support import mir_interp

GFX11 = get_target("gfx1100").mir_options


def _shader() -> tuple[MirShader, MirBuilder]:
    s = MirShader("main", (64, 1, 1), MirFunction("main", []), options=GFX11)
    s.bindings[(0, 0)] = Binding(0, 0, "storage", readonly=True)
    s.bindings[(0, 1)] = Binding(0, 1, "storage")
    return s, MirBuilder(s)


def _body(s: MirShader) -> list[str]:
    """The instruction lines of the printed shader after the load's extractions."""
    lines = [" ".join(ln.split()) for ln in print_shader(s).splitlines()]
    first = next(i for i, ln in enumerate(lines) if ln.endswith("mov %4.w"))
    return lines[first + 1:-1 if lines[-1].startswith("}") else None]


def _run(s: MirShader) -> bytes:
    rng = np.random.default_rng(3)
    h = rng.normal(0, 4, 64 * 4).astype(np.float16)
    out = mir_interp.run(s, (1, 1, 1), {(0, 0): h.tobytes(), (0, 1): 64 * 8},
                         subgroup_size=32)
    return out[(0, 1)]


def _build(s: MirShader, b: MirBuilder, body) -> None:
    gid = b.intr("load_global_invocation_id", [], 32, 3)
    addr = b.alu("ishl", 32, 1, b.channel(gid, 0), b.imm(3))
    v = b.intr("load_ssbo", [addr], 16, 4, offset=0, align=8, binding=(0, 0),
               access="readonly")
    res = body(b, [b.channel(v, c) for c in range(4)])
    b.intrinsic("store_ssbo", [b.vec(res), addr], offset=0, align=8, binding=(0, 1))


def _check(body, want: list[str]) -> None:
    s, b = _shader()
    _build(s, b, body)
    validate(s)
    before = _run(s)
    vectorize_alu16(s)
    validate(s)
    check_isel_form(s)
    assert _run(s) == before
    got = [ln for ln in _body(s) if ln]
    assert got == want, "\n".join(got)


# values: %0 gid, %1 its x, %2 3, %3 the address, %4 the 16x4 load, %5..%8 its components


def test_pairs_of_one_dword_and_a_splat_chain() -> None:
    # x * 1.5 + 0.5 per component: the fmul pairs read the load's dwords and the splat
    # constant; the fadd pairs read the fmul pairs' results
    def body(b: MirBuilder, xs):
        k, half = b.fimm(1.5, 16), b.fimm(0.5, 16)
        m = [b.alu("fmul", 16, 1, x, k) for x in xs]
        return [b.alu("fadd", 16, 1, t, half) for t in m]

    _check(body, [
        "16 %9 = load_const (0x3e00 = 15872)", "16 %10 = load_const (0x3800 = 14336)",
        "16x2 %20 = vec2 %5, %6", "16x2 %21 = vec2 %9, %9", "16x2 %22 = fmul %20, %21",
        "16 %11 = mov %22.x", "16 %12 = mov %22.y",
        "16x2 %23 = vec2 %7, %8", "16x2 %24 = vec2 %9, %9", "16x2 %25 = fmul %23, %24",
        "16 %13 = mov %25.x", "16 %14 = mov %25.y",
        "16x2 %26 = vec2 %11, %12", "16x2 %27 = vec2 %10, %10", "16x2 %28 = fadd %26, %27",
        "16 %15 = mov %28.x", "16 %16 = mov %28.y",
        "16x2 %29 = vec2 %13, %14", "16x2 %30 = vec2 %10, %10", "16x2 %31 = fadd %29, %30",
        "16 %17 = mov %31.x", "16 %18 = mov %31.y",
        "16x4 %19 = vec4 %15, %16, %17, %18",
        "@store_ssbo %19, %3 (align=8, binding=0:1, offset=0)",
    ])


def test_negated_halves_and_swapped_halves_pair() -> None:
    # fma(-x.y, x.x, x.z) with fma(-x.x, x.y, x.w): the first sources are the negated
    # halves of dword 0 (swapped), the second the same halves the other way round, the
    # third dword 1's halves: one ffma
    def body(b: MirBuilder, xs):
        n1, n0 = b.alu("fneg", 16, 1, xs[1]), b.alu("fneg", 16, 1, xs[0])
        r0 = b.alu("ffma", 16, 1, n1, xs[0], xs[2])
        r1 = b.alu("ffma", 16, 1, n0, xs[1], xs[3])
        return [r0, r1, xs[2], xs[3]]

    _check(body, [
        "16 %9 = fneg %6", "16 %10 = fneg %5",
        "16x2 %14 = vec2 %9, %10", "16x2 %15 = vec2 %5, %6", "16x2 %16 = vec2 %7, %8",
        "16x2 %17 = ffma %14, %15, %16", "16 %11 = mov %17.x", "16 %12 = mov %17.y",
        "16x4 %13 = vec4 %11, %12, %7, %8",
        "@store_ssbo %13, %3 (align=8, binding=0:1, offset=0)",
    ])


def test_what_stays_scalar() -> None:
    # x.x+x.z with x.w+x.y: the first sources x.x, x.w lie in different dwords (they
    # would need packing); min(x.x, x.x) with min(x.y, x.y) is free but a use of the
    # first result comes before the second; integer adds are not packed
    def body(b: MirBuilder, xs):
        a0 = b.alu("fadd", 16, 1, xs[0], xs[2])
        a1 = b.alu("fadd", 16, 1, xs[3], xs[1])
        m0 = b.alu("fmin", 16, 1, xs[0], xs[0])
        u = b.alu("fmax", 16, 1, m0, a0)
        m1 = b.alu("fmin", 16, 1, xs[1], xs[1])
        i0 = b.alu("iadd", 16, 1, xs[0], xs[1])
        return [a1, u, m1, i0]

    _check(body, [
        "16 %9 = fadd %5, %7", "16 %10 = fadd %8, %6", "16 %11 = fmin %5, %5",
        "16 %12 = fmax %11, %9", "16 %13 = fmin %6, %6", "16 %14 = iadd %5, %6",
        "16x4 %15 = vec4 %10, %12, %13, %14",
        "@store_ssbo %15, %3 (align=8, binding=0:1, offset=0)",
    ])


def _loop_shader(second_src) -> MirShader:
    """s0, s1 = 0; three times: s0 += x.x * x.x, s1 += second_src(x) (x the 16x4 load);
    store vec4(s0, s1, x.z, x.w): two loop-carried 16-bit phis."""
    s, b = _shader()
    gid = b.intr("load_global_invocation_id", [], 32, 3)
    addr = b.alu("ishl", 32, 1, b.channel(gid, 0), b.imm(3))
    v = b.intr("load_ssbo", [addr], 16, 4, offset=0, align=8, binding=(0, 0),
               access="readonly")
    xs = [b.channel(v, c) for c in range(4)]
    zero16, zero, one, three = b.fimm(0.0, 16), b.imm(0), b.imm(1), b.imm(3)
    entry = b.block
    lp = b.push_loop()
    with b.into(lp.body):
        header = b.block
        phis = [Instr("phi", s.new_value(*bits)) for bits in ((32, 1), (16, 1), (16, 1))]
        for p in phis:
            header.append(p)
        i, s0, s1 = (p.dest for p in phis)
        assert i is not None and s0 is not None and s1 is not None
        nif = b.push_if(b.alu("ilt", 1, 1, i, three))
        with b.into(nif.else_list):
            b.jump("break")
        m = [b.alu("fmul", 16, 1, xs[0], xs[0]), second_src(b, xs)]
        a0 = b.alu("fadd", 16, 1, s0, m[0])
        a1 = b.alu("fadd", 16, 1, s1, m[1])
        i1 = b.alu("iadd", 32, 1, i, one)
        latch = b.block
    for p, init, nxt in zip(phis, (zero, zero16, zero16), (i1, a0, a1), strict=True):
        p.preds, p.srcs = [entry, latch], [init, nxt]
    b.intrinsic("store_ssbo", [b.vec([s0, s1, xs[2], xs[3]]), addr], offset=0, align=8,
                binding=(0, 1))
    return s


def _check_loop(second_src, want: list[str]) -> None:
    s = _loop_shader(second_src)
    validate(s)
    before = _run(s)
    vectorize_alu16(s)
    validate(s)
    check_isel_form(s)
    assert _run(s) == before
    lines = [" ".join(ln.split()) for ln in print_shader(s).splitlines()]
    start = next(k for k, ln in enumerate(lines) if ln.startswith("16 %9 = load_const"))
    got = [ln for ln in lines[start:] if ln and not ln.startswith("}")]
    assert got == want, "\n".join(got)


# values: %0 gid, %1 its x, %2 3, %3 the address, %4 the load, %5..%8 x.x .. x.w,
# %9 0.0 (f16), %10 0, %11 1, %12 3, %13 i, %14 s0, %15 s1, %16 i < 3, %17 and %18 the
# products, %19 and %20 the sums, %21 i + 1, %22 the stored vec4; blocks: b0 entry, b1
# the loop header, b2 after the loop, b3/b4 the if's sides (b4 breaks), b5 the latch.
# The first round pairs the products (%23..%25), then the phis (%26, the preheader's
# %27, the back edge's %28), and the second round the adds (%29..%31)


def test_loop_carried_pair_becomes_one_packed_phi() -> None:
    # s1 += x.y * x.y: the products pair (halves of dword 0), so the adds would pair
    # but for their phis: one 16x2 phi of vec2(0, 0) and vec2(a0, a1), then the adds
    # merge into one fadd on it (the back edge's vec2 reads that fadd's halves)
    _check_loop(lambda b, xs: b.alu("fmul", 16, 1, xs[1], xs[1]), [
        "16 %9 = load_const (0x0000 = 0)", "32 %10 = load_const (0x00000000 = 0)",
        "32 %11 = load_const (0x00000001 = 1)", "32 %12 = load_const (0x00000003 = 3)",
        "16x2 %27 = vec2 %9, %9",
        "loop {", "block b1:",
        "32 %13 = phi b0: %10, b5: %21", "16x2 %26 = phi b0: %27, b5: %28",
        "16 %14 = mov %26.x", "16 %15 = mov %26.y",
        "1 %16 = ilt %13, %12",
        "if %16 {", "block b3:", "block b4:", "break", "block b5:",
        "16x2 %23 = vec2 %5, %6", "16x2 %24 = vec2 %5, %6", "16x2 %25 = fmul %23, %24",
        "16 %17 = mov %25.x", "16 %18 = mov %25.y",
        "16x2 %29 = vec2 %14, %15", "16x2 %30 = vec2 %17, %18", "16x2 %31 = fadd %29, %30",
        "16 %19 = mov %31.x", "16 %20 = mov %31.y",
        "32 %21 = iadd %13, %11", "16x2 %28 = vec2 %19, %20",
        "block b2:", "16x4 %22 = vec4 %14, %15, %7, %8",
        "@store_ssbo %22, %3 (align=8, binding=0:1, offset=0)",
    ])


def test_loop_carried_pair_stays_scalar_when_the_adds_would_not_merge() -> None:
    # s1 += x.w * x.w: the products read different dwords' halves and do not pair, so
    # the adds' second sources are not free: the phis stay scalar
    _check_loop(lambda b, xs: b.alu("fmul", 16, 1, xs[3], xs[3]), [
        "16 %9 = load_const (0x0000 = 0)", "32 %10 = load_const (0x00000000 = 0)",
        "32 %11 = load_const (0x00000001 = 1)", "32 %12 = load_const (0x00000003 = 3)",
        "loop {", "block b1:",
        "32 %13 = phi b0: %10, b5: %21", "16 %14 = phi b0: %9, b5: %19",
        "16 %15 = phi b0: %9, b5: %20",
        "1 %16 = ilt %13, %12",
        "if %16 {", "block b3:", "block b4:", "break", "block b5:",
        "16 %17 = fmul %5, %5", "16 %18 = fmul %8, %8",
        "16 %19 = fadd %14, %17", "16 %20 = fadd %15, %18",
        "32 %21 = iadd %13, %11",
        "block b2:", "16x4 %22 = vec4 %14, %15, %7, %8",
        "@store_ssbo %22, %3 (align=8, binding=0:1, offset=0)",
    ])
