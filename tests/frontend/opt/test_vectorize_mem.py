"""vectorize_mem on hand-made MIR and GLSL: the MIR interpreter gives the same
buffers before and after, the result validates and is in isel form, the accesses
the pass promises to merge are merged (b64/b96/b128), and those it must not merge
(barriers, atomics, possibly aliasing stores, misaligned shared memory) are not; and
isel selects the wide forms (global/SMEM/DS)."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.frontend.mir import Binding, Instr, MirFunction, MirShader
from radcc.frontend.mir_builder import MirBuilder
from radcc.frontend.mir_print import print_shader
from radcc.frontend.mir_validate import validate
from radcc.frontend.opt import lower_for_isel, optimize, vectorize_mem
from radcc.frontend.opt.isel_form import check_isel_form
from radcc.frontend.spirv_to_mir import spirv_to_mir
from radcc.target import get_target
from tests.support import mir_interp

from ..mir.conftest import glsl_to_spirv

GFX11 = get_target("gfx1100").mir_options  # the isel options of the GFX11 target

RO = {"access": "readonly"}


def _shader(ro_input: bool = True) -> tuple[MirShader, MirBuilder]:
    s = MirShader("main", (64, 1, 1), MirFunction("main", []), options=GFX11)
    s.bindings[(0, 0)] = Binding(0, 0, "storage", readonly=ro_input)
    s.bindings[(0, 1)] = Binding(0, 1, "storage")
    s.bindings[(0, 2)] = Binding(0, 2, "uniform", readonly=True, min_size=64)
    s.shared_size = 64 * 4 * 8
    return s, MirBuilder(s)


def _base(b: MirBuilder, stride: int):
    gid = b.intr("load_global_invocation_id", [], 32, 3)
    return b.alu("imul", 32, 1, b.channel(gid, 0), b.imm(stride))


def _ld(b: MirBuilder, op: str, addr, off: int, bits: int = 32, comps: int = 1,
        binding=(0, 0), **attrs):
    extra = {"binding": binding} if op != "load_shared" else {}
    return b.intr(op, [addr], bits, comps, offset=off, align=bits // 8, **extra, **attrs)


def _st(b: MirBuilder, op: str, v, addr, off: int, binding=(0, 1)) -> None:
    extra = {"binding": binding} if op != "store_shared" else {}
    b.intrinsic(op, [v, addr], offset=off, align=v.bit_size // 8, **extra)


def _inp(n: int = 64 * 64) -> np.ndarray:
    return np.random.default_rng(5).integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)


def _run(s: MirShader, out_bytes: int = 64 * 64 * 4) -> dict:
    ubo = np.arange(16, dtype=np.uint32) * 0x01010101
    bufs = {(0, 0): _inp(), (0, 1): out_bytes, (0, 2): ubo}
    return mir_interp.run(s, (1, 1, 1), bufs, subgroup_size=32)


def _same(s: MirShader) -> bool:
    validate(s)
    want = _run(s)
    r = vectorize_mem(s)
    validate(s)
    got = _run(s)
    assert got[(0, 1)] == want[(0, 1)], print_shader(s)
    return r


def _accesses(s: MirShader, op: str) -> list[tuple[int, int]]:
    """(offset, bytes) of each ``op``."""
    out = []
    for i in s.instrs():
        if i.op == op:
            v = i.srcs[0] if op.startswith("store") else i.dest
            out.append((int(i.attrs.get("offset", 0)), v.bit_size // 8 * v.num_components))
    return sorted(out)


def test_four_loads_and_four_stores_become_b128() -> None:
    s, b = _shader()
    a = _base(b, 16)
    vals = [_ld(b, "load_ssbo", a, 4 * k, **RO) for k in (2, 0, 3, 1)]
    for k, v in zip((2, 0, 3, 1), vals, strict=True):
        _st(b, "store_ssbo", b.alu("iadd", 32, 1, v, b.imm(k)), a, 4 * k)
    assert _same(s)
    assert _accesses(s, "load_ssbo") == [(0, 16)]
    assert _accesses(s, "store_ssbo") == [(0, 16)]


@pytest.mark.parametrize(("n", "want"), [(2, [(0, 8)]), (3, [(0, 12)]), (5, [(0, 16), (16, 4)]),
                                         (8, [(0, 16), (16, 16)])])
def test_chain_lengths(n: int, want: list) -> None:
    s, b = _shader()
    a = _base(b, 32)
    vals = [_ld(b, "load_ssbo", a, 4 * k, **RO) for k in range(n)]
    for k, v in enumerate(vals):
        _st(b, "store_ssbo", v, a, 4 * k)
    assert _same(s)
    assert _accesses(s, "load_ssbo") == want
    assert _accesses(s, "store_ssbo") == want


def test_64bit_components_and_existing_vectors() -> None:
    s, b = _shader()
    a = _base(b, 32)
    x = _ld(b, "load_ssbo", a, 0, bits=64, **RO)
    y = _ld(b, "load_ssbo", a, 8, bits=64, **RO)
    _st(b, "store_ssbo", b.alu("iadd", 64, 1, x, y), a, 0)
    _st(b, "store_ssbo", y, a, 8)
    # a vec2 load whose uses are component extractions, then a scalar after it
    v = _ld(b, "load_ssbo", a, 16, comps=2, **RO)
    w = _ld(b, "load_ssbo", a, 24, **RO)
    _st(b, "store_ssbo", b.vec([b.channel(v, 1), b.channel(v, 0)]), a, 16)
    _st(b, "store_ssbo", w, a, 24)
    assert _same(s)
    assert _accesses(s, "load_ssbo") == [(0, 16), (16, 12)]
    # 64-bit stores stay apart (STORE_BITS: gathering the pairs costs more than it saves)
    assert _accesses(s, "store_ssbo") == [(0, 8), (8, 8), (16, 12)]


def test_gaps_and_different_bases_stay_apart() -> None:
    s, b = _shader()
    a = _base(b, 32)
    a2 = _base(b, 64)
    for k in (0, 2):  # a gap between dword 0 and 2
        _st(b, "store_ssbo", _ld(b, "load_ssbo", a, 4 * k, **RO), a, 4 * k)
    _st(b, "store_ssbo", b.imm(7), a2, 4)  # another address value
    assert not _same(s)


def test_barrier_atomic_and_aliasing_store_stop_merging() -> None:
    # loads of writable data: a store to the same binding and bytes in between
    s, b = _shader(ro_input=False)
    a = _base(b, 16)
    x = _ld(b, "load_ssbo", a, 0)
    _st(b, "store_ssbo", b.imm(5), a, 4, binding=(0, 0))
    y = _ld(b, "load_ssbo", a, 4)
    _st(b, "store_ssbo", b.alu("iadd", 32, 1, x, y), a, 0)
    assert not _same(s)
    # ... to another binding (may alias): also kept apart
    s, b = _shader(ro_input=False)
    a = _base(b, 16)
    x = _ld(b, "load_ssbo", a, 0)
    _st(b, "store_ssbo", b.imm(5), a, 32)
    y = _ld(b, "load_ssbo", a, 4)
    _st(b, "store_ssbo", b.alu("iadd", 32, 1, x, y), a, 48)
    assert not _same(s)
    # ... but a store to disjoint bytes of the same binding and address is no obstacle
    s, b = _shader(ro_input=False)
    a = _base(b, 32)
    x = _ld(b, "load_ssbo", a, 0)
    _st(b, "store_ssbo", b.imm(5), a, 16, binding=(0, 0))
    y = _ld(b, "load_ssbo", a, 4)
    _st(b, "store_ssbo", b.alu("iadd", 32, 1, x, y), a, 0)
    assert _same(s) and _accesses(s, "load_ssbo") == [(0, 8)]
    # stores around a barrier or an atomic of their space stay apart
    for kind in ("barrier", "atomic", "load"):
        s, b = _shader(ro_input=False)
        a = _base(b, 16)
        _st(b, "store_ssbo", b.imm(1), a, 0)
        if kind == "barrier":
            b.intrinsic("barrier", [], execution_scope="workgroup", memory_scope="workgroup",
                        semantics="acq_rel")
        elif kind == "atomic":
            b.intr("ssbo_atomic", [a, b.imm(1)], 32, 1, binding=(0, 0), atomic_op="iadd")
        else:  # a load of the stored bytes (another binding: may alias)
            _st(b, "store_ssbo", _ld(b, "load_ssbo", a, 0), a, 32)
        _st(b, "store_ssbo", b.imm(2), a, 4)
        assert not _same(s), kind


def test_read_only_loads_move_across_stores() -> None:
    s, b = _shader()
    a = _base(b, 16)
    x = _ld(b, "load_ssbo", a, 0, **RO)
    _st(b, "store_ssbo", x, a, 32)
    y = _ld(b, "load_ssbo", a, 4, **RO)
    _st(b, "store_ssbo", y, a, 36)
    assert _same(s)
    assert _accesses(s, "load_ssbo") == [(0, 8)] and _accesses(s, "store_ssbo") == [(32, 8)]


def test_ubo_push_constants_and_shared_alignment() -> None:
    s, b = _shader()
    s.push_constant_size = 16
    zero = b.imm(0)
    u = [_ld(b, "load_ubo", zero, 4 * k, binding=(0, 2)) for k in range(4)]
    p = [b.intr("load_push_constant", [b.imm(0)], 32, 1, offset=4 * k, align=4)
         for k in range(2)]
    a = _base(b, 16)
    for k, v in enumerate(u + p):
        _st(b, "store_ssbo", v, a, 4 * k if k < 4 else 1024 + 4 * k)
    # shared: address 16*x (16-aligned) merges to b128; 4*x+4 (4-aligned) does not
    al = _base(b, 16)
    for k in range(4):
        _st(b, "store_shared", b.imm(k), al, 4 * k)
    mis = b.iadd_imm(_base(b, 4), 2048)
    for k in range(2):
        _st(b, "store_shared", b.imm(k), mis, 4 * k)
    validate(s)
    bufs = {(0, 0): _inp(), (0, 1): 64 * 64 * 4, (0, 2): np.arange(16, dtype=np.uint32)}
    push = np.arange(4, dtype=np.uint32).tobytes()
    want = mir_interp.run(s, (1, 1, 1), bufs, push_constants=push, subgroup_size=32)
    assert vectorize_mem(s)
    validate(s)
    got = mir_interp.run(s, (1, 1, 1), bufs, push_constants=push, subgroup_size=32)
    assert got[(0, 1)] == want[(0, 1)]
    assert _accesses(s, "load_ubo") == [(0, 16)]
    assert _accesses(s, "load_push_constant") == [(0, 8)]
    assert _accesses(s, "store_shared") == [(0, 4), (0, 16), (4, 4)]


# ---------------------------------------------------------------- GLSL and isel

HEAD = """#version 450
layout(local_size_x = 64) in;
layout(set=0, binding=0) readonly buffer A { uint a[]; };
layout(set=0, binding=1) buffer B { uint b[]; };
layout(set=0, binding=2) uniform U { uvec4 u[4]; };
"""

SRC = HEAD + """shared uint sh[64 * 4];
void main() {
    uint i = gl_LocalInvocationID.x, k = 7u * i;
    uint x = a[k], y = a[k + 1u], z = a[k + 2u];
    b[k] = x + u[1].x; b[k + 1u] = y ^ u[1].y; b[k + 2u] = z * u[1].z; b[k + 3u] = u[1].w;
    sh[4u * i] = x; sh[4u * i + 1u] = y; sh[4u * i + 2u] = z; sh[4u * i + 3u] = 9u;
    barrier();
    uint j = 63u - i;
    b[448u + 2u * i] = sh[4u * j] + sh[4u * j + 3u];
    b[449u + 2u * i] = sh[4u * j + 1u] - sh[4u * j + 2u];
}"""


def _glsl_lowered(wave: int) -> tuple[MirShader, dict, dict]:
    s = spirv_to_mir(glsl_to_spirv(SRC))
    ref = spirv_to_mir(glsl_to_spirv(SRC))
    optimize(ref)
    bufs = {(0, 0): _inp(), (0, 1): 4096, (0, 2): np.arange(16, dtype=np.uint32) * 77}
    want = mir_interp.run(ref, (1, 1, 1), bufs, subgroup_size=wave)
    lower_for_isel(s, GFX11, wave)
    return s, want, bufs


@pytest.mark.parametrize("wave", [32, 64])
def test_glsl_lowering_merges(wave: int) -> None:
    s, want, bufs = _glsl_lowered(wave)
    check_isel_form(s)
    got = mir_interp.run(s, (1, 1, 1), bufs, subgroup_size=wave)
    assert got[(0, 1)] == want[(0, 1)]
    assert _accesses(s, "load_ssbo") == [(0, 12)]
    assert _accesses(s, "load_ubo") == [(16, 16)]
    assert (0, 16) in _accesses(s, "store_ssbo")
    assert _accesses(s, "store_shared") == [(0, 16)]
    assert _accesses(s, "load_shared") == [(0, 16)]


def _asm() -> str:
    from radcc.driver.compile import compile_spirv

    return compile_spirv(glsl_to_spirv(SRC), wave_size=32).asm


def test_isel_selects_the_wide_forms() -> None:
    asm = _asm()
    for op in ("global_load_b96", "global_store_b128", "s_load_b128", "ds_load_b128"):
        assert op in asm, op
    assert "global_load_b32" not in asm and "global_store_b32" not in asm


def test_isel_selects_ds_store_b128() -> None:
    assert "ds_store_b128" in _asm()


def test_instr_count_drops() -> None:
    s, b = _shader()
    a = _base(b, 16)
    for k in range(4):
        _st(b, "store_ssbo", _ld(b, "load_ssbo", a, 4 * k, **RO), a, 4 * k)
    n0 = sum(1 for i in s.instrs() if i.op in ("load_ssbo", "store_ssbo"))
    assert _same(s)
    n1 = sum(1 for i in s.instrs() if i.op in ("load_ssbo", "store_ssbo"))
    assert (n0, n1) == (8, 2)
    assert not any(isinstance(i, Instr) and i.op == "load_ssbo" and i.dest.num_components == 1
                   for i in s.instrs())
