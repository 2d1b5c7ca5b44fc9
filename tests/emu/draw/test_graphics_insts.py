"""The emulator's graphics instructions (radcc.emu.graphics): exports and
LDS_PARAM_LOAD, assembled by llvm-mc-19, against the ISA guide's layout (12.2.1)
computed in NumPy; strict mode's early-rasterization check."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from radcc.codeobj.elf import read_code_object
from radcc.emu.draw.waves import GraphicsProgram, WaveRunner
from radcc.emu.graphics import TARGET_POS0, TARGET_PRIM
from radcc.emu.memory import Memory
from radcc.target import TARGETS

pytestmark = pytest.mark.skipif(shutil.which("llvm-mc-19") is None, reason="needs llvm-mc-19")


def _code(asm: str, wave: int) -> bytes:
    attr = "+wavefrontsize32" if wave == 32 else "+wavefrontsize64"
    obj = subprocess.run(["llvm-mc-19", "-arch=amdgcn", "-mcpu=gfx1100", f"-mattr={attr}",
                          "-filetype=obj", "-o", "-"], input=asm.encode(),
                         capture_output=True, check=True).stdout
    return read_code_object(obj).sections[".text"].data


def _runner(asm: str, wave: int, strict: bool = True) -> WaveRunner:
    prog = GraphicsProgram("t", _code(asm, wave), wave)
    return WaveRunner(prog, TARGETS["gfx1100"], Memory(), strict=strict)


@pytest.mark.parametrize("wave", [32, 64])
def test_lds_param_load_layout(wave: int) -> None:
    """Quads 0-1 primitive 0, 2 primitive 1, the rest primitive 2 (new_prim_mask bits 2, 3);
    attribute 1, channel z; lds_param_offset 128."""
    r = _runner("s_mov_b32 m0, s0\nlds_param_load v1, attr1.z\ns_waitcnt expcnt(0)\n"
                "v_mov_b32 v2, v1\ns_endpgm\n", wave)
    nprims, A, base = 3, 2, 128
    lds = np.arange(base // 4 + A * nprims * 12, dtype=np.uint32) + 1000
    newprim = 0b1100
    m0 = (newprim >> 1) << 16 | base

    def setup(w):
        w.s[0] = m0
        w.exec = w.full & ~0xF0  # quad 1 has no live lane: not written
    w = r.run(setup, lds.view(np.uint8))
    assert not r.violations
    nq = wave // 4
    prim = np.cumsum([(newprim | 1) >> q & 1 for q in range(nq)]) - 1
    got = w.v[2].reshape(nq, 4)
    for q in range(nq):
        if q == 1:
            assert (got[q] == 0).all()
            continue
        want = [lds[base // 4 + 1 * nprims * 12 + prim[q] * 12 + k * 4 + 2] for k in range(3)]
        assert got[q].tolist() == want + [0]


@pytest.mark.parametrize("wave", [32, 64])
def test_exports_are_captured(wave: int) -> None:
    r = _runner("v_mov_b32 v1, 1.0\nv_mov_b32 v2, 2.0\nexp prim v3, off, off, off\n"
                "exp pos0 v1, v2, v1, v2 done\ns_endpgm\n", wave)

    def setup(w):
        w.v[3] = np.arange(w.size, dtype=np.uint32) * 7
        w.exec = 0b1011
    w = r.run(setup)
    assert not r.violations
    prim, pos = w.exports
    assert (prim.target, prim.en, prim.done) == (TARGET_PRIM, 1, False)
    assert prim.lanes.tolist() == [True, True, False, True] + [False] * (wave - 4)
    assert (prim.data[0] == np.arange(wave) * 7).all()
    assert (pos.target, pos.en, pos.done) == (TARGET_POS0, 0xF, True)
    assert (pos.data[:, 0].view(np.float32) == [1, 2, 1, 2]).all()


def test_early_rasterization_needs_the_store_wait() -> None:
    """A store outstanding at the done position export is noted on the export (the draw
    pipeline reports it for a shader without parameter exports); after
    s_waitcnt_vscnt null, 0 it is not."""
    body = ("v_mov_b32 v0, 0\nglobal_store_b32 v0, v0, s[0:1]\n{wait}"
            "exp pos0 v0, v0, v0, v0 done\ns_endpgm\n")
    for wait, bad in (("", True), ("s_waitcnt_vscnt null, 0x0\n", False)):
        r = _runner(body.format(wait=wait), 32)
        buf = r.d.memory.map("buf", bytes(16))

        def setup(w, base=buf.base):
            w.s[0], w.s[1] = base & 0xFFFFFFFF, base >> 32
        w = r.run(setup)
        assert (w.exports[-1].store_pending is not None) == bad


def _vsharp(base: int, stride: int, num: int, fmt: int, sel=(4, 5, 6, 7)) -> list[int]:
    """A buffer V# (ISA guide, "Buffer Resource"): base [47:0], stride [61:48],
    num_records [95:64], dst_sel [107:96], format [113:108]."""
    d = (base | stride << 48 | num << 64 | sum(s << (96 + 3 * k) for k, s in enumerate(sel))
         | fmt << 108)
    return [d >> (32 * k) & 0xFFFFFFFF for k in range(4)]


@pytest.mark.parametrize("fmt,chans,kind", [(50, 2, "float"), (58, 3, "uint"),
                                            (21, 1, "sint"), (63, 4, "float")])
def test_typed_buffer_loads(fmt: int, chans: int, kind: str) -> None:
    """buffer_load_format_xyzw through a V# of 32-bit channels: the element's channels,
    missing ones (0, 0, 0, 1) (1 as the format's type), by index with the V#'s stride."""
    r = _runner("buffer_load_format_xyzw v[0:3], v4, s[0:3], 0 idxen\ns_waitcnt vmcnt(0)\n"
                "v_mov_b32 v5, v0\ns_endpgm\n", 32)
    n = 8
    dt = {"float": np.float32, "uint": np.uint32, "sint": np.int32}[kind]
    arr = (np.arange(n * chans).reshape(n, chans) * 3 - 5).astype(dt)
    buf = r.d.memory.map("vb", arr.tobytes())

    def setup(w, base=buf.base):
        w.s[0:4] = _vsharp(base, 4 * chans, n, fmt)
        w.v[4] = (np.arange(w.size) * 5) % n
    w = r.run(setup)
    assert not r.violations
    one = np.array(1.0 if kind == "float" else 1, dt).view(np.uint32)
    want = np.zeros((32, 4), np.uint32)
    want[:, 3] = one
    want[:, :chans] = arr.view(np.uint32)[(np.arange(32) * 5) % n]
    assert (w.v[0:4].T == want).all()


def test_typed_buffer_load_dst_sel() -> None:
    r = _runner("buffer_load_format_xyzw v[0:3], v4, s[0:3], 0 idxen\ns_waitcnt vmcnt(0)\n"
                "v_mov_b32 v5, v0\ns_endpgm\n", 32)
    arr = np.array([[7, 8]], np.uint32)
    buf = r.d.memory.map("vb", arr.tobytes())

    def setup(w, base=buf.base):
        w.s[0:4] = _vsharp(base, 8, 1, 48, sel=(5, 4, 1, 0))
    w = r.run(setup)
    assert w.v[0:4, 0].tolist() == [8, 7, 1, 0]


@pytest.mark.parametrize("between,bad", [
    ("v_mov_b32 v1, 0", "overwrites v1"),
    ("s_mov_b32 exec_lo, 1", "writes EXEC"),
    ("s_waitcnt expcnt(0)\nv_mov_b32 v1, 0\ns_mov_b32 exec_lo, 1", None),
    ("v_mov_b32 v3, 0", None),
])
def test_export_sources_need_the_expcnt_wait(between: str, bad: str | None) -> None:
    """ISA guide 14.3: the export reads its VGPRs and EXEC when it completes, so they
    may be overwritten only after s_waitcnt expcnt."""
    r = _runner(f"v_mov_b32 v1, 1.0\nexp mrt0 v1, v2, off, off done\n{between}\ns_endpgm\n", 32)
    r.run(lambda w: None)
    msgs = [v.message for v in r.violations]
    assert (bad is None and not msgs) or (bad is not None and any(bad in m for m in msgs)), msgs


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("opsel", [0, 1])
def test_f16_interpolation(wave: int, opsel: int) -> None:
    """``v_interp_p10_f16_f32`` / ``v_interp_p2_f16_f32`` (ISA guide 16.13, "VINTERP"):
    P10 = f32(S0[quad lane 1].f16) * I + f32(S2[quad lane 0].f16), D.f16 =
    f16(f32(S0[quad lane 2].f16) * J + P10), OPSEL choosing the half of the packed
    parameter read (and the p2's destination half), computed in NumPy."""
    hi = "op_sel:[1,0,1,0]" if opsel else ""
    hi2 = "op_sel:[1,0,0,1]" if opsel else ""
    r = _runner(f"v_interp_p10_f16_f32 v4, v1, v2, v1 {hi}\n"
                f"v_interp_p2_f16_f32 v5, v1, v3, v4 {hi2}\ns_endpgm\n", wave)
    rng = np.random.default_rng(opsel)
    p = rng.uniform(-4, 4, (wave, 2)).astype(np.float16)
    i = rng.uniform(-1, 2, wave).astype(np.float32)
    j = rng.uniform(-1, 2, wave).astype(np.float32)
    keep = np.uint32(0xABCD)

    def setup(w):
        w.v[1] = p.view(np.uint32).reshape(wave)
        w.v[2] = i.view(np.uint32)
        w.v[3] = j.view(np.uint32)
        w.v[5] = np.full(wave, keep * 0x10001, np.uint32)
    w = r.run(setup)
    assert not r.violations
    half = p[:, opsel].astype(np.float64).reshape(-1, 4)
    p0, p1, p2 = (np.repeat(half[:, k], 4) for k in range(3))
    t = (p1 * i + p0).astype(np.float32)
    np.testing.assert_array_equal(w.v[4].view(np.float32), t)
    d = (p2 * j + t.astype(np.float64)).astype(np.float16).view(np.uint16).astype(np.uint32)
    want = (keep << 16 | d) if not opsel else (d << 16 | keep)
    np.testing.assert_array_equal(w.v[5], want)
