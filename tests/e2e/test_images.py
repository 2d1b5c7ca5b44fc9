"""Storage images in compute shaders (issue 11, slice 1): GLSL shaders of
tests/e2e/images/ run on lavapipe (radcc.oracle.lavapipe) and compiled by radcc into
the strict emulator, wave32 and wave64; every output image must match lavapipe's
(integer and 8-bit formats exactly, float formats within a few ulps) and an
independent NumPy reference. Also: `radcc run --image` (files in, DIR/S_B.npy out, the
errors naming the binding), the refusals of unsupported image types by name with the
SPIR-V word offset, and the MIMG instructions radcc emits against llvm-mc-19.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from radcc.oracle import lavapipe, spirv_tools
from tests.support.tools import (
    assert_gfx1100_encodings_match_llvm_mc,
    assert_glsl_refused_by_name,
    emitted_lines,
    glsl_file_spirv,
    run_radcc,
)

HERE = Path(__file__).parent / "images"
m32 = 0xFFFFFFFF
ROOT = Path(__file__).resolve().parents[2]
Key = tuple[int, int]


def _spirv(name: str) -> bytes:
    return glsl_file_spirv(HERE / f"{name}.comp")


@dataclass
class ImgCase:
    name: str
    groups: tuple[int, int, int]
    images: Callable[[np.random.Generator], dict[Key, tuple[np.ndarray, str | None]]]
    ref: Callable[[dict[Key, np.ndarray], dict[Key, np.ndarray]], dict[Key, np.ndarray]]
    buffers: Callable[[np.random.Generator], dict[Key, np.ndarray]] = lambda rng: {}
    push: bytes = b""
    float_ulps: int = 0  # float outputs: tolerance in units of float32 epsilon * |value|
    extra: dict[str, Any] = field(default_factory=dict)


def _f32(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    return rng.uniform(-4, 4, shape).astype(np.float32)


def _u8(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    return rng.integers(0, 256, shape, dtype=np.uint8)


def _ref_swizzle(im: dict[Key, np.ndarray], bufs: dict[Key, np.ndarray]) -> dict[Key, np.ndarray]:
    s = im[(0, 0)]
    out = np.stack([s[..., 2], 255 - s[..., 0], s[..., 3], s[..., 1]], axis=-1)
    return {(0, 0): s, (0, 1): out.astype(np.uint8)}


def _ref_stencil(im: dict[Key, np.ndarray], bufs: dict[Key, np.ndarray]) -> dict[Key, np.ndarray]:
    src, dst = im[(0, 0)], im[(0, 1)]
    h, w = src.shape
    pad = np.pad(src, 1, mode="edge").astype(np.float64)
    s = sum(pad[1 + dy:1 + dy + h, 1 + dx:1 + dx + w] for dy in (-1, 0, 1) for dx in (-1, 0, 1))
    return {(0, 0): src, (0, 1): (dst + s * 0.25).astype(np.float32)}


def _ref_from_buffer(im: dict[Key, np.ndarray], bufs: dict[Key, np.ndarray]
                     ) -> dict[Key, np.ndarray]:
    img = im[(0, 0)].copy()
    v = bufs[(0, 1)].reshape(-1, 4)
    for y in range(img.shape[0]):
        for x in range(img.shape[1]):
            if (x + 2 * y) % 3:
                img[y, x] = v[y * 32 + x] * np.float32(2) + img[y, x]
    return {(0, 0): img}


def _ref_hash(im: dict[Key, np.ndarray], bufs: dict[Key, np.ndarray]) -> dict[Key, np.ndarray]:
    a, b = im[(0, 0)].astype(np.uint64), im[(1, 2)].astype(np.uint64)
    h, w = a.shape
    py, px = np.meshgrid(np.arange(h, dtype=np.uint64), np.arange(w, dtype=np.uint64),
                         indexing="ij")
    m = np.uint64(0xFFFFFFFF)
    out = np.stack([a ^ b[..., 3], (b[..., 0] * np.uint64(3) + a) & m, b[..., 1] >> np.uint64(3),
                    (a + px * np.uint64(16) + py) & m], axis=-1)
    return {(0, 0): im[(0, 0)], (1, 2): out.astype(np.uint32)}


def _ref_formats(im: dict[Key, np.ndarray], bufs: dict[Key, np.ndarray]) -> dict[Key, np.ndarray]:
    si, si4 = im[(0, 0)].astype(np.int64), im[(0, 1)].astype(np.int64)
    f2, h4, u8, u8x4 = im[(0, 2)], im[(0, 3)], im[(0, 4)], im[(0, 5)]
    return {
        (0, 0): (-si + si4[..., 1]).astype(np.int32),
        (0, 1): np.stack([si4[..., 3], si, si4[..., 0] - si4[..., 2],
                          np.full_like(si, -7)], axis=-1).astype(np.int32),
        (0, 2): np.stack([f2[..., 1], f2[..., 0] * np.float32(0.5)], axis=-1),
        (0, 3): (h4[..., ::-1].astype(np.float32) * 2).astype(np.float16),
        (0, 4): (255 - u8).astype(np.uint8),
        (0, 5): np.stack([u8x4[..., 1], u8x4[..., 0], (u8x4[..., 3].astype(np.uint32) + 1)
                          .clip(0, 255), np.full_like(u8x4[..., 0], 255)], axis=-1)
        .astype(np.uint8),
    }


def _ref_no_format(im: dict[Key, np.ndarray], bufs: dict[Key, np.ndarray]
                   ) -> dict[Key, np.ndarray]:
    v = bufs[(0, 1)].reshape(16, 16)
    py, px = np.meshgrid(np.arange(16), np.arange(16), indexing="ij")
    return {(0, 0): np.stack([v, px, py, np.ones_like(v)], axis=-1).astype(np.float32)}


def _ref_fetch(im: dict[Key, np.ndarray], bufs: dict[Key, np.ndarray]) -> dict[Key, np.ndarray]:
    t, v, u = im[(0, 0)], im[(0, 1)].copy(), im[(1, 0)]
    a = t.astype(np.float32) / np.float32(255)
    v[1] = a + a + v[2]
    s = (int(u.astype(np.uint64).sum()) & 0xFFFFFFFF)
    out = np.array([16, 16, 16, 3, 1 + 10, s, 0, 0], np.uint32)
    return {(0, 0): t, (0, 1): v, (1, 0): u, (0, 2): out}


def _ref_atomics(im: dict[Key, np.ndarray], bufs: dict[Key, np.ndarray]
                 ) -> dict[Key, np.ndarray]:
    """img_atomics.comp texel by texel (the ISA guide's atomic pseudocode: the old value
    returns); the shared texels of `acc` only in their final, order-free values."""
    m = 0xFFFFFFFF
    u, s, acc = im[(0, 0)].copy(), im[(0, 1)].copy(), im[(0, 2)].astype(np.int64)
    o = np.zeros(16 * 16 * 8, np.uint32)

    def i32(x: int) -> int:
        return (x & m) - ((x & 0x80000000) << 1)
    for y in range(16):
        for x in range(16):
            i = y * 16 + x
            v = (i * 2654435761) & m
            t = int(u[y, x])
            a, t = t, (t + v) & m
            b, t = t, t ^ 0x5A5A5A5A
            c, t = t, a ^ i
            d = t
            if t == ((a ^ i) if i % 2 == 0 else 7):
                t = (v + 3) & m
            e = int(s[y, x])
            sv = min(e, i32(v) >> 4)
            f, sv = sv, max(sv, i - 100)
            g0, t = t, t & 0xFFF0FFF0
            g1, t = t, t | ((i << 8) & m)
            h0, t = t, min(t, v >> 1)
            h1, t = t, max(t, 1 << (i & 31))
            u[y, x], s[y, x] = t, sv
            o[i * 8:i * 8 + 8] = [a, b, c, d, e & m, f & m, (g0 + g1) & m, (h0 + h1) & m]
            col = (x + y) & 3
            acc[0, col] = (acc[0, col] + v) & m
            acc[1, col] = min(acc[1, col], v)
            acc[2, col] = max(acc[2, col], v)
            acc[3, col] &= ~(1 << (i & 31)) & m
            acc[4, col] |= v & 0x01010101
            acc[5, col] ^= v
            if x == 3 and y < 4:
                acc[6, y] += 1
    return {(0, 0): u, (0, 1): s, (0, 2): acc.astype(np.uint32), (0, 3): o}


def _ref_atomics3d(im: dict[Key, np.ndarray], bufs: dict[Key, np.ndarray]
                   ) -> dict[Key, np.ndarray]:
    m = 0xFFFFFFFF
    u, acc = im[(0, 0)].copy(), im[(0, 1)].copy()
    o = np.zeros(8 * 4 * 4 * 2, np.uint32)
    for z in range(4):
        for y in range(4):
            for x in range(8):
                i = (z * 4 + y) * 8 + x
                v = (i * 2654435761) & m
                a = int(u[z, y, x])
                t = (a + v) & m
                b = t
                if t == (((a + v) & m) if i % 3 == 0 else 0):
                    t = i
                u[z, y, x] = t
                o[2 * i:2 * i + 2] = [a, b]
                acc[z // 2, y // 2, x // 2] = min(int(acc[z // 2, y // 2, x // 2]),
                                                  v - ((v & 0x80000000) << 1))
    return {(0, 0): u, (0, 1): acc, (0, 2): o}


def _ref_d16(im: dict[Key, np.ndarray], bufs: dict[Key, np.ndarray]) -> dict[Key, np.ndarray]:
    """img_d16.comp in float16 / uint16 / int16 arithmetic (wrapping), widened on store."""
    a, c, e = im[(0, 0)], im[(0, 2)], im[(0, 3)]
    h, w = c.shape
    py, px = np.meshgrid(np.arange(h), np.arange(w), indexing="ij")
    b = np.clip(a[..., ::-1] * np.float16(0.25) + np.float16(0.5), 0, 1).astype(np.float64)
    w16 = (c.astype(np.uint16) * np.uint16(3) + px.astype(np.uint16)).astype(np.uint16)
    s16 = (e.astype(np.int16) - (np.int16(300) * py.astype(np.int16))).astype(np.int16)
    return {(0, 0): (a * np.float16(2.0) + np.float16(0.5)).astype(np.float16),
            (0, 1): np.rint(b * 255).astype(np.uint8).transpose(1, 0, 2),
            (0, 2): w16.astype(np.uint32), (0, 3): s16.astype(np.int32)}


CASES = [
    ImgCase("img_rgba8_swizzle", (4, 8, 1),
            lambda rng: {(0, 0): (_u8(rng, (32, 32, 4)), None),
                         (0, 1): (np.zeros((32, 32, 4), np.uint8), "rgba8")},
            _ref_swizzle),
    ImgCase("img_r32f_stencil", (3, 2, 1),
            lambda rng: {(0, 0): (_f32(rng, (16, 24)), "r32f"), (0, 1): (_f32(rng, (16, 24)), None)},
            _ref_stencil, push=np.array([24, 16], np.int32).tobytes()
            + np.array([0.25], np.float32).tobytes(), float_ulps=16),
    ImgCase("img_rgba32f_from_buffer", (2, 4, 1),
            lambda rng: {(0, 0): (_f32(rng, (8, 32, 4)), None)}, _ref_from_buffer,
            buffers=lambda rng: {(0, 1): _f32(rng, (8 * 32 * 4,))}, float_ulps=2),
    ImgCase("img_r32ui_hash", (2, 2, 1),
            lambda rng: {(0, 0): (rng.integers(0, 1 << 32, (16, 16), dtype=np.uint32), None),
                         (1, 2): (rng.integers(0, 1 << 32, (16, 16, 4), dtype=np.uint32),
                                  "rgba32ui")},
            _ref_hash),
    ImgCase("img_int_formats", (2, 1, 1),
            lambda rng: {
                (0, 0): (rng.integers(-1 << 20, 1 << 20, (4, 8), dtype=np.int32), None),
                (0, 1): (rng.integers(-1 << 20, 1 << 20, (4, 8, 4), dtype=np.int32), None),
                (0, 2): (_f32(rng, (4, 8, 2)), None),
                (0, 3): (rng.uniform(-100, 100, (4, 8, 4)).astype(np.float16), None),
                (0, 4): (_u8(rng, (4, 8)), "r8"),
                (0, 5): (rng.integers(0, 255, (4, 8, 4), dtype=np.uint8), "rgba8ui")},
            _ref_formats),
    ImgCase("tex_fetch_query", (2, 2, 1),
            lambda rng: {(0, 0): (_u8(rng, (16, 16, 4)), None),
                         (0, 1): (_f32(rng, (3, 16, 16, 4)), None),
                         (1, 0): (rng.integers(0, 1 << 24, (16, 16), dtype=np.uint32), None)},
            _ref_fetch, buffers=lambda rng: {(0, 2): np.zeros(8, np.uint32)},
            push=np.array([0], np.int32).tobytes(), float_ulps=4),
    ImgCase("img_atomics", (2, 2, 1),
            lambda rng: {
                (0, 0): (rng.integers(0, 1 << 32, (16, 16), dtype=np.uint32), None),
                (0, 1): (rng.integers(-1 << 31, 1 << 31, (16, 16), dtype=np.int32), None),
                (0, 2): (np.tile(np.array([0, m32, 0, m32, 0, 0, 0], np.uint32)[:, None],
                                 (1, 4)), None)},
            _ref_atomics, buffers=lambda rng: {(0, 3): np.zeros(16 * 16 * 8, np.uint32)}),
    ImgCase("img_atomics3d", (2, 1, 1),
            lambda rng: {
                (0, 0): (rng.integers(0, 1 << 32, (4, 4, 8), dtype=np.uint32), None),
                (0, 1): (rng.integers(-1 << 31, 1 << 31, (2, 2, 4), dtype=np.int32), None)},
            _ref_atomics3d, buffers=lambda rng: {(0, 2): np.zeros(8 * 4 * 4 * 2, np.uint32)}),
    ImgCase("img_d16", (2, 2, 1),
            lambda rng: {
                (0, 0): (rng.uniform(-8, 8, (16, 16, 4)).astype(np.float16), None),
                (0, 1): (np.zeros((16, 16, 4), np.uint8), None),
                (0, 2): (rng.integers(0, 1 << 32, (16, 16), dtype=np.uint32), None),
                (0, 3): (rng.integers(-1 << 31, 1 << 31, (16, 16), dtype=np.int32), None)},
            _ref_d16),
    ImgCase("img_no_format", (2, 2, 1),
            lambda rng: {(0, 0): (np.zeros((16, 16, 4), np.float32), "rgba32f")},
            _ref_no_format, buffers=lambda rng: {(0, 1): _f32(rng, (256,))}),
]


def _inputs(case: ImgCase) -> tuple[dict[Key, tuple[np.ndarray, str | None]],
                                    dict[Key, np.ndarray]]:
    rng = np.random.default_rng(sum(map(ord, case.name)))
    return case.images(rng), case.buffers(rng)


def _compare(case: ImgCase, what: str, got: np.ndarray, want: np.ndarray) -> None:
    assert got.shape == want.shape and got.dtype == want.dtype, \
        f"{case.name} {what}: {got.dtype}{got.shape} vs {want.dtype}{want.shape}"
    if got.dtype.kind == "f" and case.float_ulps:
        tol = case.float_ulps * np.finfo(np.float32).eps * np.maximum(1.0, np.abs(want))
        bad = np.abs(got.astype(np.float64) - want.astype(np.float64)) > tol
    else:
        bad = got.view(np.uint8).reshape(got.shape[0], -1) != \
            want.view(np.uint8).reshape(want.shape[0], -1)
    assert not bad.any(), f"{case.name} {what}: {int(bad.sum())} texels differ, first at " \
        f"{np.argwhere(bad)[0].tolist()}"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_image_case_on_lavapipe(case: ImgCase, lvp: None) -> None:
    """The shader and its NumPy reference agree on lavapipe (validates the case)."""
    images, bufs = _inputs(case)
    out = lavapipe.run_compute(_spirv(case.name), groups=case.groups, buffers=bufs,
                               push_constants=case.push, images=images)
    want = case.ref({k: a for k, (a, _) in images.items()}, bufs)
    for key, arr in want.items():
        if key in images:
            _compare(case, f"image {key} (lavapipe vs NumPy)", out[key], arr)
        else:
            assert out[key] == arr.tobytes(), f"{case.name}: buffer {key}"


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_image_case_on_radcc(case: ImgCase, wave: int, lvp: None) -> None:
    """radcc's code in the strict emulator gives lavapipe's images."""
    from radcc.driver.run import run_compute

    spirv = _spirv(case.name)
    images, bufs = _inputs(case)
    ref = lavapipe.run_compute(spirv, groups=case.groups, buffers=bufs,
                               push_constants=case.push, images=images)
    got = run_compute(spirv, groups=case.groups, buffers=bufs, push_constants=case.push,
                      images=images, wave_size=wave)
    for key in images:
        # (lavapipe converts unorm texels as byte * (1/255), one ulp from the exact
        # quotient the texture unit gives: float results compare within float_ulps)
        _compare(case, f"image {key} (radcc wave{wave} vs lavapipe)", got[key], ref[key])
    for key in bufs:
        assert got[key] == ref[key], f"{case.name}: buffer {key}"


@pytest.mark.parametrize("wave", [32, 64])
def test_mimg_encodings_match_llvm_mc(wave: int, lvp: None) -> None:
    """Every image instruction radcc emits for the cases encodes as llvm-mc-19 encodes
    it (the code object's bytes come from radcc's own assembler)."""
    from radcc.driver.compile import compile_spirv

    names = [c.name for c in CASES] + ["tex_sample", "tex_gather", "tex_shadow", "tex_d16",
                                       "tex_a16", "tex_sample_1d", "tex_cube", "tex_array",
                                       "tex_cube_grad", "tex_compare_forms",
                                       "tex_implicit_forms"]
    lines = sorted(set().union(*(
        emitted_lines(compile_spirv(_spirv(name), wave_size=wave).asm, "image_")
        for name in names)))
    assert any("image_load" in ln for ln in lines) and any("image_store" in ln for ln in lines)
    for op in ("image_gather4_lz ", "image_gather4_lz_o ", "image_gather4_c_lz ",
               "image_gather4_c_lz_o ", "image_sample_c_lz ", "image_sample_c_d ",
               "image_sample_c_lz_o ", "image_sample_c_l ", "image_sample_c_l_o ",
               "image_sample_c_d_o ", "image_sample_l_o ", "image_sample_d_o ",
               "image_sample ", "image_sample_b ", "image_sample_b_o ", "image_sample_c ",
               "image_sample_c_b ", "image_sample_c_o ", "image_gather4 "):
        assert any(ln.startswith(op) for ln in lines), op
    assert any("SQ_RSRC_IMG_1D " in ln or ln.endswith("SQ_RSRC_IMG_1D")
               for ln in lines if ln.startswith("image_sample_d "))
    for op, dim in (("image_sample_lz ", "CUBE"), ("image_sample_l ", "CUBE"),
                    ("image_gather4_lz ", "CUBE"), ("image_load ", "2D_ARRAY"),
                    ("image_sample_d ", "2D_ARRAY"), ("image_sample_lz_o ", "2D_ARRAY"),
                    ("image_sample_d ", "CUBE"),
                    ("image_gather4_c_lz ", "2D_ARRAY"), ("image_sample_lz ", "1D_ARRAY")):
        assert any(ln.startswith(op) and f"SQ_RSRC_IMG_{dim}" in ln for ln in lines), (op, dim)
    assert_gfx1100_encodings_match_llvm_mc(lines, wave)


# -- radcc run --image -----------------------------------------------------------------
def test_radcc_run_image_files(tmp_path: Path, lvp: None) -> None:
    """`radcc run --image` reads .npy files and writes DIR/S_B.npy, same shape and dtype,
    with lavapipe's contents."""
    case = next(c for c in CASES if c.name == "img_r32ui_hash")
    images, _ = _inputs(case)
    spv = tmp_path / "s.spv"
    spv.write_bytes(_spirv(case.name))
    args = ["run", str(spv), "--groups", "2,2", "--out", str(tmp_path / "out"), "--wave64"]
    for (s, b), (arr, fmt) in images.items():
        np.save(tmp_path / f"in{s}{b}.npy", arr)
        args += ["--image", f"{s}:{b}={tmp_path / f'in{s}{b}.npy'}" + (f":{fmt}" if fmt else "")]
    rc, out, err = run_radcc(*args)
    assert rc == 0, err
    ref = lavapipe.run_compute(spv.read_bytes(), groups=case.groups, buffers={}, images=images)
    for (s, b), (arr, _) in images.items():
        got = np.load(tmp_path / "out" / f"{s}_{b}.npy")
        assert got.dtype == arr.dtype and got.shape == arr.shape
        assert (got == ref[(s, b)]).all()


@pytest.mark.parametrize("extra, message", [
    ([], "missing --image for 1:2"),
    (["--image", "1:2={u32}"], "--image 1:2: the shader declares the image's format "
     "Rgba32ui, not r32ui"),
    (["--image", "1:2={u32x4}:r32f"], "--image 1:2: format r32f needs a float32 array"),
    (["--image", "1:2={u32x4}:rgba32i"], "--image 1:2: format rgba32i needs a int32 array"),
    (["--image", "1:2={u32x4}", "--image", "0:5={u32}"], "--image 0:5: the shader has no "
     "image binding 0:5"),
    (["--image", "1:2={u32x4}", "--image", "0:0={u32}", "--image", "0:0={u32}"],
     "image binding 0:0 is given twice"),
    (["--image", "1:2={f32x4}"], "--image 1:2: format rgba32f holds float texels but the "
     "shader's image has uint ones"),
    (["--image", "1:2={u32x4}", "--sampler", "0:7=cubic"], "--sampler 0:7: filter 'cubic'"),
    (["--image", "1:2={u32x4}", "--sampler", "0:7=linear,repeat,unnormalized"],
     "unnormalized coordinates need clamp or border"),
    (["--image", "1:2={u32x4}", "--image3d", "0:3={u32}"], "--image3d 0:3: the shader has no "
     "image binding"),
    (["--image", "1:2={bad}"], "--image 1:2: '"),
])
def test_radcc_run_image_errors(tmp_path: Path, extra: list[str], message: str,
                                lvp: None) -> None:
    """A wrong --image is exit status 1 with a message naming the binding, no traceback."""
    spv = tmp_path / "s.spv"
    spv.write_bytes(_spirv("img_r32ui_hash"))
    files = {"u32": np.zeros((4, 4), np.uint32), "u32x4": np.zeros((4, 4, 4), np.uint32),
             "f32x4": np.zeros((4, 4, 4), np.float32)}
    for n, a in files.items():
        np.save(tmp_path / f"{n}.npy", a)
    (tmp_path / "bad.npy").write_bytes(b"not numpy")
    subst = {n: str(tmp_path / f"{n}.npy") for n in [*files, "bad"]}
    argv = [x.format(**subst) for x in extra]
    if not any(a.startswith("0:0=") for a in argv):
        argv += ["--image", f"0:0={subst['u32']}"]
    rc, _, err = run_radcc("run", str(spv), "--groups", "1", "--out", str(tmp_path / "o"), *argv)
    assert rc == 1 and message in err and "Traceback" not in err, err


# -- refusals ----------------------------------------------------------------------------
@pytest.mark.parametrize("decl, use, message", [
    ("layout(r32ui) uniform uimageCube img;", "imageAtomicAdd(img, ivec3(0), 1u);",
     "image atomics on image dimension Cube are not supported"),
    ("layout(r64ui) uniform u64image2D img;", "imageStore(img, ivec2(0), u64vec4(0));",
     "storage image format R64ui is not supported"),
    ("layout(r32f) uniform image2D img;", "float x = imageAtomicAdd(img, ivec2(0), 1.0);",
     "OpAtomicFAddEXT on a storage image of format R32f is not supported"),
    ("uniform sampler2D img;", "vec4 v; sparseTextureLodARB(img, vec2(0), 0.0, v);",
     "unsupported capability SparseResidency"),
])
def test_unsupported_images_refused_by_name(tmp_path: Path, decl: str, use: str, message: str,
                                            lvp: None) -> None:
    assert_glsl_refused_by_name(
        tmp_path, "#version 450\n#extension GL_ARB_sparse_texture2 : enable\n"
                  "#extension GL_EXT_shader_atomic_float : enable\n"
                  "#extension GL_EXT_shader_image_int64 : enable\n"
                  "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : enable\n"
                  "layout(local_size_x = 1) in;\n"
                  f"layout(set = 0, binding = 0) {decl}\nvoid main() {{ {use} }}\n", message)


# -- samplers (slice 3) ------------------------------------------------------------------
def _np_bilinear_repeat(tex: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Exact bilinear filtering with repeat addressing (the Vulkan spec's formulas)."""
    h, w = tex.shape[:2]
    x, y = u * w - 0.5, v * h - 0.5
    i, j = np.floor(x).astype(int), np.floor(y).astype(int)
    a, b = (x - i)[..., None], (y - j)[..., None]
    t = tex.astype(np.float64)

    def at(ii: np.ndarray, jj: np.ndarray) -> np.ndarray:
        return t[jj % h, ii % w]
    return ((1 - a) * (1 - b) * at(i, j) + a * (1 - b) * at(i + 1, j)
            + (1 - a) * b * at(i, j + 1) + a * b * at(i + 1, j + 1))


@pytest.mark.parametrize("sampler", ["nearest,clamp", "nearest,repeat", "nearest,mirror",
                                     "nearest,border", "linear,clamp", "linear,repeat",
                                     "linear,mirror", "linear,border"])
def test_texture_sampling(sampler: str, lvp: None) -> None:
    """Filtering and addressing: radcc (wave32 and wave64) vs lavapipe within 1.25/255 for
    the rgba8 texture (lavapipe filters 8-bit texels in 8-bit fixed point, the texture
    unit model in float), within 1e-5 for rgba32f; the rgba32f texture (linear, repeat)
    also vs NumPy's exact bilinear."""
    from radcc.driver.run import run_compute

    spirv = _spirv("tex_sample")
    rng = np.random.default_rng(7)
    tex8 = _u8(rng, (12, 10, 4))
    texf = rng.uniform(-1, 1, (8, 16, 4)).astype(np.float32)
    outs = {(1, k): (np.zeros((16, 16, 4), np.float32), None) for k in range(4)}
    images = {(0, 0): (tex8, None), (0, 1): (texf, None), **outs}
    samplers = {(0, 0): sampler, (0, 2): "linear,repeat"}
    push = np.array([0.5], np.float32).tobytes()
    ref = lavapipe.run_compute(spirv, groups=(2, 2, 1), buffers={}, images=images,
                               samplers=samplers, push_constants=push)
    p = np.arange(16)
    uv_x = (p + np.float32(0.3)) / np.float32(9.0) - np.float32(0.4)
    uv_y = (p + np.float32(0.7)) / np.float32(9.0) - np.float32(0.4)
    u, v = np.meshgrid(uv_x * 1.5 + 0.1, uv_y * 1.5 + 0.1)
    want1 = _np_bilinear_repeat(texf, u, v)
    assert np.abs(ref[(1, 1)] - want1).max() < 1e-5, "lavapipe vs NumPy"
    for wave in (32, 64):
        got = run_compute(spirv, groups=(2, 2, 1), images=images, samplers=samplers,
                          push_constants=push, wave_size=wave)
        for k in (0, 2, 3):
            d = np.abs(got[(1, k)] - ref[(1, k)]).max()
            assert d <= 1.25 / 255 + 1e-6, f"{sampler} wave{wave} output {k}: {d * 255}/255"
        assert np.abs(got[(1, 1)] - want1).max() < 1e-5, f"{sampler} wave{wave}: rgba32f"


@pytest.mark.parametrize("sampler", ["nearest,clamp", "nearest,mirror", "linear,clamp",
                                     "linear,repeat", "linear,mirror"])
@pytest.mark.parametrize("wave", [32, 64])
def test_texture_sampling_1d(sampler: str, wave: int) -> None:
    """A 1-D image sampled (image_sample_lz, _d, _lz_o with dim 1D): radcc's strict
    emulator vs the Vulkan spec's filtering and wrapping in NumPy (lavapipe's runner
    refuses 1-D images), rgba32f texels, within 1e-5."""
    from radcc.driver.run import run_compute

    spirv = _spirv("tex_sample_1d")
    rng = np.random.default_rng(11)
    w = 13
    tex = rng.uniform(-1, 1, (w, 4)).astype(np.float32)
    outs = {(1, k): (np.zeros((64, 4), np.float32), None) for k in range(3)}
    got = run_compute(spirv, groups=(1, 1, 1), images={(0, 0): (tex, None), **outs},
                      samplers={(0, 0): sampler}, wave_size=wave)
    filt, address = sampler.split(",")
    u = (np.arange(64, dtype=np.float32) + np.float32(0.3)) / np.float32(40.0) - np.float32(0.4)
    t = tex.astype(np.float64)

    def filtered(offset: int) -> np.ndarray:
        if filt == "nearest":
            i = np.floor(u.astype(np.float64) * w).astype(int) + offset
            return t[_np_texel_index(i, w, address)]
        x = u.astype(np.float64) * w - 0.5
        i0 = np.floor(x).astype(int)
        a = (x - i0)[:, None]
        at = [t[_np_texel_index(i0 + k + offset, w, address)] for k in (0, 1)]
        return (1 - a) * at[0] + a * at[1]

    for k, offset in ((0, 0), (1, 0), (2, 2)):
        d = np.abs(got[(1, k)] - filtered(offset)).max()
        assert d < 1e-5, f"{sampler} wave{wave} output {k}: {d}"


# -- gathers and depth compare (issue 11: texsample) --------------------------------------
_ADDR_NP = {"clamp": "clamp", "repeat": "wrap", "mirror": "mirror"}


def _np_texel_index(i: np.ndarray, n: int, address: str) -> np.ndarray:
    """The Vulkan spec's texel wrapping of integer coordinates (clamp, repeat, mirror)."""
    if address == "repeat":
        return np.mod(i, n)
    if address == "mirror":
        t = np.mod(i, 2 * n)
        return np.where(t < n, t, 2 * n - 1 - t)
    return np.clip(i, 0, n - 1)


def _np_gather(tex: np.ndarray, u: np.ndarray, v: np.ndarray, comp: int, address: str,
               offset: tuple[int, int] = (0, 0)) -> np.ndarray:
    """The Vulkan spec's gather: component `comp` of texels (i0, j1), (i1, j1), (i1, j0),
    (i0, j0) of the bilinear footprint (missing channels 0, alpha 1)."""
    h, w = tex.shape[:2]
    t = tex.reshape(h, w, -1).astype(np.float64)
    if t.shape[2] < 4:
        t = np.concatenate([t, np.zeros((h, w, 3 - t.shape[2])), np.ones((h, w, 1))], axis=2)
    i0 = np.floor(u.astype(np.float64) * w - 0.5).astype(int) + offset[0]
    j0 = np.floor(v.astype(np.float64) * h - 0.5).astype(int) + offset[1]

    def at(i: np.ndarray, j: np.ndarray) -> np.ndarray:
        return t[_np_texel_index(j, h, address), _np_texel_index(i, w, address), comp]
    return np.stack([at(i0, j0 + 1), at(i0 + 1, j0 + 1), at(i0 + 1, j0), at(i0, j0)], axis=-1)


@pytest.mark.parametrize("sampler", ["nearest,clamp", "linear,repeat", "linear,mirror"])
@pytest.mark.parametrize("r8", [False, True], ids=["rgba8", "r8"])
def test_texture_gather(sampler: str, r8: bool, lvp: None) -> None:
    """textureGather[Offset] with component select (image_gather4_lz[_o], dmask = the
    component): radcc (wave32 and wave64) equals lavapipe (unorm texels within an ulp of
    byte/255, rgba32ui exactly) and the Vulkan spec's gather in NumPy; an r8 texture's
    missing G/B read 0 and alpha 1 (the T#'s dst_sel applies before the component select).
    The filter does not matter to a gather."""
    from radcc.driver.run import run_compute

    spirv = _spirv("tex_gather")
    rng = np.random.default_rng(11)
    tex8 = _u8(rng, (12, 10) if r8 else (12, 10, 4))
    texf = rng.uniform(-1, 1, (8, 16, 4)).astype(np.float32)
    texu = rng.integers(0, 1 << 32, (8, 8, 4), dtype=np.uint32)
    outs: dict[Key, tuple[np.ndarray, str | None]] = {
        (1, k): (np.zeros((16, 16, 4), np.float32), None) for k in range(4)}
    outs[(1, 4)] = (np.zeros((16, 16, 4), np.uint32), None)
    images = {(0, 0): (tex8, None), (0, 1): (texf, None), (0, 3): (texu, None), **outs}
    samplers = {(0, 0): sampler, (0, 2): "linear,repeat", (0, 3): "nearest,repeat"}
    ref = lavapipe.run_compute(spirv, groups=(2, 2, 1), buffers={}, images=images,
                               samplers=samplers)
    p = np.arange(16, dtype=np.float32)
    uv = (p + np.float32(0.3)) / np.float32(9.0) - np.float32(0.4), \
        (p + np.float32(0.7)) / np.float32(9.0) - np.float32(0.4)
    u, v = np.meshgrid(uv[0], uv[1])
    address = sampler.split(",")[1]
    t8 = tex8.astype(np.float64) / 255
    want = {(1, 0): _np_gather(t8, u, v, 0, address),
            (1, 1): _np_gather(t8, u, v, 3, address),
            (1, 2): _np_gather(texf, u * np.float32(1.5), v * np.float32(1.5), 1, "repeat",
                               (-1, 2)),
            (1, 3): _np_gather(t8, u, v, 2, address, (3, 0)),
            (1, 4): _np_gather(texu, u, v, 2, "repeat", (-4, 3))}
    for key, w in want.items():
        d = np.abs(ref[key].astype(np.float64) - w).max()
        assert d < 1e-6 * (1 if key != (1, 4) else 0) + 1e-9, f"lavapipe vs NumPy {key}: {d}"
    for wave in (32, 64):
        got = run_compute(spirv, groups=(2, 2, 1), images=images, samplers=samplers,
                          wave_size=wave)
        for key in want:
            if key == (1, 4):
                assert (got[key] == ref[key]).all(), f"wave{wave} rgba32ui gather"
            else:
                d = np.abs(got[key] - ref[key]).max()
                assert d <= 2 ** -23, f"{sampler} wave{wave} output {key}: {d}"


_NP_COMPARE = {1: np.less, 2: np.equal, 3: np.less_equal, 4: np.greater, 5: np.not_equal,
               6: np.greater_equal}


def _np_shadow(depth: np.ndarray, func: int, linear: bool) -> list[np.ndarray]:
    """tex_shadow.comp's outputs per the Vulkan spec (clamp to edge): the reference
    compared with each texel's depth (1 where `ref OP depth`), then nearest or bilinear
    filtering of the results (percentage-closer filtering); gathers of the results."""
    h, w = depth.shape
    p = np.arange(16, dtype=np.float32)
    py, px = np.meshgrid(p, p, indexing="ij")
    u = (px + np.float32(0.3)) / np.float32(13.0) - np.float32(0.1)
    v = (py + np.float32(0.7)) / np.float32(13.0) - np.float32(0.1)
    ref = (((px.astype(int) * 7 + py.astype(int) * 3) % 11) / np.float32(10.0)).astype(
        np.float32)
    x, y = u.astype(np.float64) * w, v.astype(np.float64) * h

    def cmp(i: np.ndarray, j: np.ndarray) -> np.ndarray:
        d = depth[np.clip(j, 0, h - 1), np.clip(i, 0, w - 1)]
        return _NP_COMPARE[func](ref, d).astype(np.float64)

    def sample(ox: int, oy: int) -> np.ndarray:
        if not linear:
            return cmp(np.floor(x).astype(int) + ox, np.floor(y).astype(int) + oy)
        i0, j0 = np.floor(x - .5).astype(int) + ox, np.floor(y - .5).astype(int) + oy
        a, b = x - .5 - np.floor(x - .5), y - .5 - np.floor(y - .5)
        return ((1 - a) * (1 - b) * cmp(i0, j0) + a * (1 - b) * cmp(i0 + 1, j0)
                + (1 - a) * b * cmp(i0, j0 + 1) + a * b * cmp(i0 + 1, j0 + 1))

    def gather(ox: int, oy: int) -> np.ndarray:
        i0, j0 = np.floor(x - .5).astype(int) + ox, np.floor(y - .5).astype(int) + oy
        return np.stack([cmp(i0, j0 + 1), cmp(i0 + 1, j0 + 1), cmp(i0 + 1, j0), cmp(i0, j0)],
                        axis=-1)
    return [np.stack([sample(0, 0), sample(0, 0), sample(-2, 1), ref], axis=-1),
            gather(0, 0), gather(1, -1)]


@pytest.mark.parametrize("wave", [32, 64])
def test_texture_depth_compare(wave: int) -> None:
    """Depth-compare sampling and gathers (image_sample_c_lz/_c_d/_c_lz_o,
    image_gather4_c_lz[_o]) of an r32f depth texture in the strict emulator, every compare
    function of the S# (ISA guide Table 51) with point and bilinear filters, vs NumPy
    (lavapipe's runner refuses shadow samplers; the compare function is not one of its
    --sampler options, so the S# is given through the Python API)."""
    from radcc.driver.compile import compile_spirv
    from radcc.driver.run import run_compiled
    from radcc.emu.api import Image
    from radcc.emu.texture import BILINEAR, POINT, SEL_0, SEL_1, SEL_X, SamplerDesc

    cr = compile_spirv(_spirv("tex_shadow"), wave_size=wave)
    rng = np.random.default_rng(3)
    depth = (rng.integers(0, 11, (9, 11)) / 10.0 + 0.05).astype(np.float32)
    depth[2, 3] = 0.3  # a texel equal to some references: EQUAL, LEQUAL, GEQUAL see it
    for func in range(8):
        for linear in (False, True):
            f = BILINEAR if linear else POINT
            smp = SamplerDesc(mag_filter=f, min_filter=f, compare_func=func)
            imgs = {(0, 0): Image(depth, "32_FLOAT", 2, (SEL_X, SEL_0, SEL_0, SEL_1))}
            for k in range(3):
                imgs[(1, k)] = Image(np.zeros((16, 16, 4), np.float32), "32_32_32_32_FLOAT")
            _, run = run_compiled(cr, (2, 2, 1), {}, images=imgs, samplers={(0, 0): smp})
            assert not run.violations, run.violations[:3]
            if func in _NP_COMPARE:
                want = _np_shadow(depth, func, linear)
            else:  # never / always
                const = np.float64(func == 7)
                full = _np_shadow(depth, 1, linear)
                want = [np.concatenate([np.full(full[0].shape[:2] + (3,), const),
                                        full[0][..., 3:]], axis=-1),
                        np.full(full[1].shape, const), np.full(full[2].shape, const)]
            for k in range(3):
                got = run.buffers[f"set1_binding{k}"]
                d = np.abs(got - want[k]).max()
                assert d < 1e-5, f"compare {func} linear={linear} wave{wave} output {k}: {d}"


# -- mipmaps (issue 11: texsample) ----------------------------------------------------------
def _np_sample2d(tex: np.ndarray, u: np.ndarray, v: np.ndarray, linear: np.ndarray
                 ) -> np.ndarray:
    """Nearest or bilinear (per texel of `linear`) filtering with clamp to edge, in
    float64 (the Vulkan spec's formulas)."""
    h, w = tex.shape[:2]
    t = tex.astype(np.float64)
    x, y = u * w, v * h

    def at(i: np.ndarray, j: np.ndarray) -> np.ndarray:
        return t[np.clip(j, 0, h - 1), np.clip(i, 0, w - 1)]
    near = at(np.floor(x).astype(int), np.floor(y).astype(int))
    i0, j0 = np.floor(x - 0.5).astype(int), np.floor(y - 0.5).astype(int)
    a, b = (x - 0.5 - i0)[..., None], (y - 0.5 - j0)[..., None]
    lin = ((1 - a) * (1 - b) * at(i0, j0) + a * (1 - b) * at(i0 + 1, j0)
           + (1 - a) * b * at(i0, j0 + 1) + a * b * at(i0 + 1, j0 + 1))
    return np.where(linear[..., None], lin, near)


@dataclass(frozen=True)
class _MipSampler:
    mag: int  # 0 nearest, 1 linear
    min: int
    mip: int  # 1 nearest, 2 linear
    bias: float = 0.0
    min_lod: float = 0.0
    max_lod: float = 15.0
    view: tuple[int, int] | None = None


def _np_lod_sample(levels: list[np.ndarray], s: _MipSampler, u: np.ndarray, v: np.ndarray,
                   lam: np.ndarray) -> np.ndarray:
    """The Vulkan spec's level-of-detail selection ("Level-of-Detail Operation"): lambda
    plus the bias clamped to [minLod, maxLod]; magnification where it is <= 0; level
    d' = base + clamp(lambda, 0, q); mipmap mode nearest d = ceil(d' + 0.5) - 1, linear
    the two levels around d' blended by its fraction."""
    base, last = s.view if s.view is not None else (0, len(levels) - 1)
    lam = np.clip(lam + s.bias, s.min_lod, s.max_lod)
    linear = np.where(lam <= 0, s.mag, s.min).astype(bool)
    d = base + np.clip(lam, 0, last - base)
    out = np.zeros(u.shape + (4,))
    if s.mip == 1:
        pick = [(np.minimum(np.ceil(d + 0.5) - 1, last).astype(int), np.ones(u.shape))]
    else:
        lo = np.floor(d).astype(int)
        pick = [(lo, 1 - (d - lo)), (np.minimum(lo + 1, last), d - lo)]
    for lev, wt in pick:
        for m in np.unique(lev):
            sel = lev == m
            out[sel] += (_np_sample2d(levels[m], u, v, linear) * wt[..., None])[sel]
    return out


_MIP_SAMPLERS = {
    "trilinear": _MipSampler(1, 1, 2),
    "bilinear_mip_nearest": _MipSampler(1, 1, 1),
    "nearest_mip_linear": _MipSampler(0, 0, 2),
    "mag_nearest_min_linear_bias": _MipSampler(0, 1, 2, bias=0.75, max_lod=3.5),
    "clamped_lod": _MipSampler(1, 1, 2, bias=-0.5, min_lod=0.75, max_lod=2.25),
    "view_1_4": _MipSampler(1, 1, 2, view=(1, 4)),
}


@pytest.mark.parametrize("name", list(_MIP_SAMPLERS))
@pytest.mark.parametrize("wave", [32, 64])
def test_texture_mipmaps(name: str, wave: int) -> None:
    """tex_mip.comp on a 32x16 rgba32f texture with its 6 levels in the strict emulator:
    textureLod (image_sample_l) and textureGrad (image_sample_d) under the S#'s filters,
    mip filter (point, linear: trilinear), LOD bias and min/max lod, and the T#'s
    base/last level as the view; texelFetch at a level (image_load_mip), textureSize per
    level and textureQueryLevels (image_get_resinfo) vs NumPy models of the Vulkan spec's
    LOD selection and filtering (lavapipe's runner takes one level only)."""
    from radcc.driver.compile import compile_spirv
    from radcc.driver.run import run_compiled
    from radcc.emu.api import Image
    from radcc.emu.texture import SamplerDesc

    s = _MIP_SAMPLERS[name]
    rng = np.random.default_rng(5)
    levels = [rng.uniform(-1, 1, (max(16 >> m, 1), max(32 >> m, 1), 4)).astype(np.float32)
              for m in range(6)]
    smp = SamplerDesc(mag_filter=s.mag, min_filter=s.min, mip_filter=s.mip,
                      lod_bias=round(s.bias * 256) & 0x3FFF, min_lod=round(s.min_lod * 256),
                      max_lod=round(s.max_lod * 256))
    imgs = {(0, 0): Image(levels[0], "32_32_32_32_FLOAT", mips=tuple(levels[1:]),
                          view=s.view)}
    for k in range(3):
        imgs[(1, k)] = Image(np.zeros((16, 16, 4), np.float32), "32_32_32_32_FLOAT")
    cr = compile_spirv(_spirv("tex_mip"), wave_size=wave)
    out, run = run_compiled(cr, (2, 2, 1), {(0, 1): np.zeros(32, np.int32)}, images=imgs,
                            samplers={(0, 0): smp})
    assert not run.violations, run.violations[:3]

    base, last = s.view if s.view is not None else (0, 5)
    view = levels[base:last + 1]
    p = np.arange(16, dtype=np.float32)
    py, px = np.meshgrid(p, p, indexing="ij")
    i = (py * 16 + px).astype(int)
    u = ((px + np.float32(0.3)) / np.float32(13.0) - np.float32(0.1)).astype(np.float64)
    v = ((py + np.float32(0.7)) / np.float32(13.0) - np.float32(0.1)).astype(np.float64)
    lod = ((i + np.float32(0.37)) * np.float32(0.0253) - np.float32(1.0)).astype(np.float64)
    want0 = _np_lod_sample(levels, s, u, v, lod)
    g = np.exp2((i % 37) * 0.19 - 6.1)
    h0, w0 = view[0].shape[:2]
    rho = np.maximum(np.hypot(g * w0, g * 0.25 * h0), np.hypot(g * 0.5 * w0, g * 0.75 * h0))
    want1 = _np_lod_sample(levels, s, u, v, np.log2(rho))
    want2 = np.zeros((16, 16, 4))
    for y in range(16):
        for x in range(16):
            m = (y * 16 + x) % 7
            tx, ty = (3 * x) >> m, (3 * y) >> m
            if m < len(view) and ty < view[m].shape[0] and tx < view[m].shape[1]:
                want2[y, x] = view[m][ty, tx]
    for k, want in enumerate((want0, want1, want2)):
        got = run.buffers[f"set1_binding{k}"]
        d = np.abs(got - want).max()
        assert d < 2e-5, f"{name} wave{wave} output {k}: {d}"
    q = np.frombuffer(out[(0, 1)], np.int32).reshape(8, 4)
    for m in range(len(view)):
        assert q[m].tolist() == [view[m].shape[1], view[m].shape[0], len(view), 0], q


def _np_srgb_decode(b: np.ndarray) -> np.ndarray:
    """The sRGB EOTF of the Vulkan spec's "sRGB transfer functions" (alpha is linear)."""
    c = b.astype(np.float64) / 255
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    lin[..., 3] = c[..., 3]
    return lin


@pytest.mark.parametrize("sampler", ["linear,clamp", "linear,repeat", "nearest,mirror"])
def test_texture_formats(sampler: str, lvp: None) -> None:
    """Sampling the runner's float-sampled formats (tex_formats.comp): rgba8_srgb (the
    texture unit decodes sRGB before filtering), r8, rgba16f, r16f, rg32f. radcc
    (wave32, wave64) vs lavapipe: within 0.5/255 for sRGB (lavapipe's decode is an
    approximation: up to 0.31/255 from the exact EOTF at nearest), 1.25/255 for r8
    (lavapipe's 8-bit fixed-point filter), 1e-5 for the float formats; with clamp
    addressing also vs NumPy (the exact sRGB EOTF and exact bilinear) within 1e-5."""
    from radcc.driver.run import run_compute

    spirv = _spirv("tex_formats")
    rng = np.random.default_rng(9)
    ins: dict[Key, tuple[np.ndarray, str | None]] = {
        (0, 0): (_u8(rng, (9, 12, 4)), "rgba8_srgb"), (0, 1): (_u8(rng, (7, 5)), "r8"),
        (0, 2): (rng.uniform(-2, 2, (8, 8, 4)).astype(np.float16), None),
        (0, 3): (rng.uniform(-2, 2, (6, 10)).astype(np.float16), None),
        (0, 4): (rng.uniform(-2, 2, (5, 7, 2)).astype(np.float32), None)}
    images = {**ins, **{(1, k): (np.zeros((16, 16, 4), np.float32), None) for k in range(5)}}
    samplers = {(0, k): sampler for k in range(5)}
    ref = lavapipe.run_compute(spirv, groups=(2, 2, 1), buffers={}, images=images,
                               samplers=samplers)
    tol = [0.5 / 255, 1.25 / 255, 1e-5, 1e-5, 1e-5]
    for wave in (32, 64):
        got = run_compute(spirv, groups=(2, 2, 1), images=images, samplers=samplers,
                          wave_size=wave)
        for k in range(5):
            d = np.abs(got[(1, k)] - ref[(1, k)]).max()
            assert d <= tol[k], f"{sampler} wave{wave} format {k}: {d * 255}/255"
        if sampler != "linear,clamp":
            continue
        p = np.arange(16, dtype=np.float32)
        u, v = np.meshgrid((p + np.float32(0.3)) / np.float32(11.3) - np.float32(0.21),
                           (p + np.float32(0.7)) / np.float32(11.3) - np.float32(0.21))
        u, v = u.astype(np.float64), v.astype(np.float64)

        def rgba(a: np.ndarray) -> np.ndarray:
            a = a.astype(np.float64).reshape(a.shape[0], a.shape[1], -1)
            h, w, c = a.shape
            return np.concatenate([a, np.zeros((h, w, 3 - c)), np.ones((h, w, 1))], axis=2) \
                if c < 4 else a
        texels = [_np_srgb_decode(ins[(0, 0)][0]), rgba(ins[(0, 1)][0] / 255.0),
                  rgba(ins[(0, 2)][0]), rgba(ins[(0, 3)][0]), rgba(ins[(0, 4)][0])]
        for k, t in enumerate(texels):
            want = _np_sample2d(t, u, v, np.ones(u.shape, bool))
            d = np.abs(got[(1, k)] - want).max()
            assert d < 1e-5, f"wave{wave} format {k} vs NumPy: {d}"


@pytest.mark.parametrize("wave", [32, 64])
def test_texture_d16(wave: int, lvp: None) -> None:
    """Float texel reads converted to 16 bits (tex_d16.comp) are the MIMG d16 forms
    (every image instruction of the shader has d16: two halves per VGPR) and give
    lavapipe's float16 buffer exactly (rgba16f/r16f texels are exact in half precision)
    in the strict emulator; the texelFetch output also vs NumPy."""
    from radcc.driver.compile import compile_spirv
    from radcc.driver.run import run_compute

    spirv = _spirv("tex_d16")
    lines = [ln for ln in compile_spirv(spirv, wave_size=wave).asm.splitlines()
             if ln.strip().startswith("image_")]
    assert len(lines) == 6 and all(ln.split(";")[0].rstrip().endswith(" d16")
                                   for ln in lines), lines
    rng = np.random.default_rng(2)
    t4 = rng.uniform(-8, 8, (8, 8, 4)).astype(np.float16)
    t1 = rng.uniform(-8, 8, (8, 8)).astype(np.float16)
    images = {(0, 0): (t4, None), (0, 1): (t1, None)}
    bufs = {(0, 2): np.zeros(16 * 16 * 4 * 4, np.float16)}
    samplers = {(0, 0): "nearest,repeat", (0, 1): "nearest,clamp"}
    ref = lavapipe.run_compute(spirv, groups=(2, 2, 1), buffers=bufs, images=images,
                               samplers=samplers)
    got = run_compute(spirv, groups=(2, 2, 1), buffers=bufs, images=images,
                      samplers=samplers, wave_size=wave)
    assert got[(0, 2)] == ref[(0, 2)]
    out = np.frombuffer(got[(0, 2)], np.float16).reshape(16, 16, 4, 4)
    p = np.arange(16)
    py, px = np.meshgrid(p, p, indexing="ij")
    want0 = t4[py & 7, px & 7] * np.float16(2) - t1[px & 7, py & 7][..., None]
    assert (out[:, :, 0] == want0).all()
    assert (out[:, :, 3, 3] == t1[py & 7, px & 7]).all()


@pytest.mark.parametrize("body, d16", [
    ("o[0] = f16vec4(texelFetch(t, ivec2(0), 0));", True),
    # one component also used at 32 bits: no fold
    ("vec4 v = texelFetch(t, ivec2(0), 0); o[0] = f16vec4(v); f[0] = v.y;", False),
    # an integer image: the guide does not say how the unit narrows integers
    ("o[0] = f16vec4(texelFetch(u, ivec2(0), 0));", False),
    # a depth compare's result
    ("o[0] = f16vec4(float16_t(textureLod(s, vec3(0.5), 0.0)));", False),
])
def test_d16_fold_only_when_every_use_converts(tmp_path: Path, body: str, d16: bool) -> None:
    """fold_16bit_image folds a float texel read only when every component's every use
    is a conversion to 16-bit float."""
    from radcc.driver.compile import compile_spirv

    src = tmp_path / "s.comp"
    src.write_text(
        "#version 450\n#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require\n"
        "#extension GL_EXT_shader_16bit_storage : require\nlayout(local_size_x = 1) in;\n"
        "layout(set = 0, binding = 0) uniform sampler2D t;\n"
        "layout(set = 0, binding = 1) uniform usampler2D u;\n"
        "layout(set = 0, binding = 2) uniform sampler2DShadow s;\n"
        "layout(set = 0, binding = 3) buffer B { f16vec4 o[]; };\n"
        "layout(set = 0, binding = 4) buffer F { float f[]; };\n"
        f"void main() {{ {body} }}\n")
    r = spirv_tools.compile_glsl(src, "vulkan1.2")
    assert r.ok, r.text
    lines = [ln for ln in compile_spirv(r.data).asm.splitlines()
             if ln.strip().startswith("image_")]
    assert len(lines) == 1 and lines[0].split(";")[0].rstrip().endswith(" d16") == d16, lines


@pytest.mark.parametrize("wave", [32, 64])
def test_texture_a16(wave: int, lvp: None) -> None:
    """Sampling at 16-bit float coordinates (tex_a16.comp) is the MIMG a16 forms (every
    image instruction a16, the coordinates packed two per VGPR) and equals lavapipe within
    1e-5 (an rgba32f texture, bilinear, repeat) in the strict emulator; the level-0
    sample also vs NumPy's exact bilinear."""
    from radcc.driver.compile import compile_spirv
    from radcc.driver.run import run_compute

    spirv = _spirv("tex_a16")
    lines = [ln for ln in compile_spirv(spirv, wave_size=wave).asm.splitlines()
             if ln.strip().startswith("image_")]
    assert len(lines) == 4 and all(ln.split(";")[0].rstrip().endswith(" a16")
                                   for ln in lines), lines
    rng = np.random.default_rng(4)
    tex = rng.uniform(-1, 1, (8, 16, 4)).astype(np.float32)
    uv = rng.uniform(-0.5, 1.5, (256, 4)).astype(np.float16)
    uv[:, 2] = rng.uniform(-0.5, 1.0, 256).astype(np.float16)
    bufs = {(0, 1): np.zeros(256 * 4 * 4, np.float32), (0, 2): uv}
    images = {(0, 0): (tex, None)}
    samplers = {(0, 0): "linear,repeat"}
    ref = lavapipe.run_compute(spirv, groups=(2, 2, 1), buffers=bufs, images=images,
                               samplers=samplers)
    got = run_compute(spirv, groups=(2, 2, 1), buffers=bufs, images=images,
                      samplers=samplers, wave_size=wave)
    a = np.frombuffer(got[(0, 1)], np.float32)
    b = np.frombuffer(ref[(0, 1)], np.float32)
    assert np.abs(a - b).max() < 1e-5
    want = _np_bilinear_repeat(tex, uv[:, 0].astype(np.float64), uv[:, 1].astype(np.float64))
    assert np.abs(a.reshape(256, 4, 4)[:, 0] - want).max() < 1e-5


# -- cube maps (issue 11: imgcube) --------------------------------------------------------
# the Vulkan spec's "Cube Map Face Selection" table: the major axis's face (the layer),
# sc, tc and rc of a direction (rx, ry, rz)
_VK_CUBE_FACES = (
    (0, lambda x, y, z: (-z, -y, x)), (1, lambda x, y, z: (z, -y, x)),
    (2, lambda x, y, z: (x, z, y)), (3, lambda x, y, z: (x, -z, y)),
    (4, lambda x, y, z: (x, -y, z)), (5, lambda x, y, z: (-x, -y, z)))


def _np_cube_face(d: np.ndarray) -> tuple[int, float, float]:
    """(face, s, t) of one direction (s, t in [0, 1] across the face), the Vulkan spec's
    face selection (ties: z before y before x, as AMD's V_CUBEID_F32; the tests' random
    directions have none)."""
    x, y, z = (float(v) for v in d[:3])
    ax, ay, az = abs(x), abs(y), abs(z)
    face = (4 if z >= 0 else 5) if az >= max(ax, ay) else \
        (2 if y >= 0 else 3) if ay >= ax else (0 if x >= 0 else 1)
    sc, tc, rc = _VK_CUBE_FACES[face][1](x, y, z)
    return face, 0.5 * (sc / abs(rc) + 1), 0.5 * (tc / abs(rc) + 1)


def _np_cube_texel(faces: np.ndarray, face: int, i: int, j: int) -> np.ndarray:
    """Texel (i, j) of `face`, one texel beyond an edge taken from the adjacent face
    (Vulkan's "Cube Map Edge Handling": the texel centre's direction selects the face
    again); beyond a corner the average of the three texels meeting there."""
    n = faces.shape[1]
    oi, oj = not 0 <= i < n, not 0 <= j < n
    if oi and oj:
        ci, cj = min(max(i, 0), n - 1), min(max(j, 0), n - 1)
        return (_np_cube_texel(faces, face, ci, cj) + _np_cube_texel(faces, face, i, cj)
                + _np_cube_texel(faces, face, ci, j)) / 3
    if not (oi or oj):
        return faces[face, j, i].astype(np.float64)
    sc, tc = (i + 0.5) / n * 2 - 1, (j + 0.5) / n * 2 - 1
    # the direction of face coordinates: invert the table row of `face`
    d = {0: (1, -tc, -sc), 1: (-1, -tc, sc), 2: (sc, 1, tc), 3: (sc, -1, -tc),
         4: (sc, -tc, 1), 5: (-sc, -tc, -1)}[face]
    f2, s2, t2 = _np_cube_face(np.array(d))
    i2, j2 = (min(max(int(np.floor(v * n)), 0), n - 1) for v in (s2, t2))
    return faces[f2, j2, i2].astype(np.float64)


def _np_cube_sample(faces: np.ndarray, d: np.ndarray, filt: str, gather: int | None = None
                    ) -> np.ndarray:
    face, s, t = _np_cube_face(d)
    n = faces.shape[1]
    if filt == "nearest" and gather is None:
        i, j = (min(int(np.floor(v * n)), n - 1) for v in (s, t))
        return faces[face, j, i].astype(np.float64)
    x, y = s * n - 0.5, t * n - 0.5
    i, j = int(np.floor(x)), int(np.floor(y))
    a, b = x - i, y - j
    at = {(di, dj): _np_cube_texel(faces, face, i + di, j + dj) for di in (0, 1) for dj in (0, 1)}
    if gather is not None:  # i0j1, i1j1, i1j0, i0j0
        return np.array([at[k][gather] for k in ((0, 1), (1, 1), (1, 0), (0, 0))])
    return ((1 - a) * (1 - b) * at[0, 0] + a * (1 - b) * at[1, 0] + (1 - a) * b * at[0, 1]
            + a * b * at[1, 1])


def _cube_dirs(rng: np.random.Generator) -> np.ndarray:
    """64 directions (w: a cube index -0.6..2.6): random ones, ones exactly on the +X/+Z
    edge and near face edges, and the 6 axes."""
    d = rng.uniform(-1, 1, (64, 4)).astype(np.float32)
    d[:, 3] = rng.uniform(-0.6, 2.6, 64).astype(np.float32)
    d[:6, :3] = np.eye(3, dtype=np.float32)[[0, 0, 1, 1, 2, 2]] * np.array(
        [1, -1, 1, -1, 1, -1], np.float32)[:, None]
    d[6:12, 0] = d[6:12, 2] = np.float32(0.75)  # on the +X/+Z edge
    d[6:12, 1] = np.linspace(-0.6, 0.6, 6, dtype=np.float32)
    d[12:20, 0] = np.float32(0.8)  # near the +X face's edges, inside it
    d[12:20, 2] = np.float32(0.8) * np.float32(0.9)
    return d


@pytest.mark.parametrize("filt", ["nearest", "linear"])
@pytest.mark.parametrize("wave", [32, 64])
def test_cube_maps(filt: str, wave: int) -> None:
    """Cube and cube-array sampling (textureLod, textureGather), size queries and a storage
    cube array's loads and stores in the strict emulator vs NumPy models of the Vulkan
    spec's face selection, seamless edge handling and array layers (lavapipe's runner
    refuses cube images): rgba32f, within 1e-5."""
    from radcc.driver.run import run_compute

    spirv = _spirv("tex_cube")
    rng = np.random.default_rng(5)
    n = 4
    cs = rng.uniform(-1, 1, (6, n, n, 4)).astype(np.float32)
    ca = rng.uniform(-1, 1, (12, n, n, 4)).astype(np.float32)
    ic = rng.uniform(-1, 1, (12, 4, 4, 4)).astype(np.float32)
    dirs = _cube_dirs(rng)
    got = run_compute(spirv, groups=(1, 1, 1),
                      images={(0, 0): (cs, None), (0, 1): (ca, None), (0, 2): (ic, None)},
                      samplers={(0, 0): filt, (0, 1): filt},
                      buffers={(2, 0): dirs, (2, 1): np.zeros(64 * 16 + 8, np.float32)},
                      wave_size=wave)
    out = np.frombuffer(got[(2, 1)], np.float32)
    r = out[:4 * 256].reshape(4, 64, 4)
    for p in range(64):
        d = dirs[p]
        cube = min(max(int(np.rint(d[3])), 0), 1)  # RNE, clamped to the 2 cubes
        want = [_np_cube_sample(cs, d, filt), _np_cube_sample(ca[6 * cube:6 * cube + 6], d, filt),
                _np_cube_sample(cs, d, "linear", gather=1), _np_cube_sample(cs, d, filt)]
        for k in range(4):
            assert np.abs(r[k, p] - want[k]).max() < 1e-5, (filt, wave, k, p, d, r[k, p], want[k])
    assert list(out[4 * 256:].view(np.int32)) == [n, n, n, n, 2, 4, 4, 2]
    want_ic = ic.copy()
    for p in range(64):  # (x, y, face + 6 x cube) = (p % 4, p / 4 % 4, p / 16)
        x, y, z = p % 4, p // 4 % 4, p // 16
        want_ic[z, y, x] = ic[z, y, x] * 2 + z
    assert np.array_equal(got[(0, 2)], want_ic)


# -- sampling arrayed images (issue 11: imgcube) ------------------------------------------
def _np_array_sample(tex: np.ndarray, u: np.ndarray, v: np.ndarray | None, layer: np.ndarray,
                     filt: str, address: str, offset: tuple[int, int] = (0, 0),
                     gather: int | None = None) -> np.ndarray:
    """Vulkan's filtering of layers `tex[L, (H,) W, C]`: the layer clamp(RNE(a), 0, L-1),
    then nearest/bilinear (or a gather's 4 texels' component) with the address mode."""
    nl = tex.shape[0]
    lay = np.clip(np.rint(layer.astype(np.float64)), 0, nl - 1).astype(int)
    one_d = v is None
    t = tex.astype(np.float64) if not one_d else tex.astype(np.float64)[:, None]
    h, w = t.shape[1:3]
    x = u.astype(np.float64) * w
    y = np.full_like(x, 0.5) if one_d else v.astype(np.float64) * h  # type: ignore[union-attr]

    def at(i: np.ndarray, j: np.ndarray) -> np.ndarray:
        return t[lay, _np_texel_index(j + offset[1], h, address),
                 _np_texel_index(i + offset[0], w, address)]
    if filt == "nearest" and gather is None:
        return at(np.floor(x).astype(int), np.floor(y).astype(int))
    i0, j0 = np.floor(x - 0.5).astype(int), np.floor(y - 0.5).astype(int)
    if gather is not None:
        return np.stack([at(i0, j0 + 1)[:, gather], at(i0 + 1, j0 + 1)[:, gather],
                         at(i0 + 1, j0)[:, gather], at(i0, j0)[:, gather]], axis=-1)
    a, b = (x - 0.5 - i0)[:, None], (y - 0.5 - j0)[:, None]
    if one_d:
        return (1 - a) * at(i0, j0 * 0) + a * at(i0 + 1, j0 * 0)
    return ((1 - a) * (1 - b) * at(i0, j0) + a * (1 - b) * at(i0 + 1, j0)
            + (1 - a) * b * at(i0, j0 + 1) + a * b * at(i0 + 1, j0 + 1))


@pytest.mark.parametrize("sampler", ["nearest,clamp", "linear,clamp", "linear,repeat",
                                     "nearest,mirror"])
@pytest.mark.parametrize("wave", [32, 64])
def test_texture_sampling_arrays(sampler: str, wave: int) -> None:
    """2-D and 1-D arrays sampled (textureLod/Grad/LodOffset/Gather, a depth-compare
    gather): the strict emulator vs NumPy's Vulkan filtering with the layer rounded to
    nearest even and clamped (ties 0.5, 1.5, 2.5 and layers outside the array included;
    lavapipe's runner refuses arrayed images), rgba32f/r32f within 1e-5."""
    from radcc.driver.compile import compile_spirv
    from radcc.driver.images import ADDRESSES, FILTERS
    from radcc.driver.run import run_compiled
    from radcc.emu.api import Image
    from radcc.emu.texture import SEL_0, SEL_1, SEL_X, SamplerDesc

    cr = compile_spirv(_spirv("tex_array"), wave_size=wave)
    filt, address = sampler.split(",")
    rng = np.random.default_rng(17)
    t2 = rng.uniform(-1, 1, (3, 5, 6, 4)).astype(np.float32)
    t1 = rng.uniform(-1, 1, (3, 7, 4)).astype(np.float32)
    ts = rng.uniform(0, 1, (3, 5, 6)).astype(np.float32)
    uvl = rng.uniform(-0.2, 1.2, (64, 4)).astype(np.float32)
    uvl[:, 2] = rng.uniform(-0.9, 3.4, 64).astype(np.float32)
    uvl[:8, 2] = [0.5, 1.5, 2.5, -0.5, 3.5, 1.4999, 0.50001, 7.0]
    uvl[:, 3] = rng.uniform(0, 1, 64).astype(np.float32)
    f, a = FILTERS[filt], ADDRESSES[address]
    smp = SamplerDesc(clamp=(a, a, a), mag_filter=f, min_filter=f)
    imgs = {(0, 0): Image(t2, "32_32_32_32_FLOAT", 2, arrayed=True),
            (0, 1): Image(t1, "32_32_32_32_FLOAT", 1, arrayed=True),
            (0, 2): Image(ts, "32_FLOAT", 2, (SEL_X, SEL_0, SEL_0, SEL_1), arrayed=True)}
    smps = {(0, 0): smp, (0, 1): smp, (0, 2): SamplerDesc(clamp=(a, a, a), mag_filter=f,
                                                        min_filter=f, compare_func=3)}
    _, run = run_compiled(cr, (1, 1, 1), {(2, 0): uvl, (2, 1): np.zeros((6, 64, 4), np.float32)},
                          images=imgs, samplers=smps)
    assert not run.violations, run.violations[:3]
    got = run.buffers["set2_binding1"].reshape(6, 64, 4)
    u, v, lay, ref = uvl.T
    lay_c = np.clip(np.rint(lay), 0, 2).astype(int)
    want = [_np_array_sample(t2, u, v, lay, filt, address),
            _np_array_sample(t2, u, v, lay, filt, address),
            _np_array_sample(t2, u, v, lay, filt, address, offset=(1, -2)),
            _np_array_sample(t2, u, v, lay, filt, address, gather=2),
            np.stack([_np_array_sample(  # LEQUAL: 1 where the reference <= the texel
                (ref[k] <= ts[lay_c[k]]).astype(np.float64)[None, :, :, None], u[k:k + 1],
                v[k:k + 1], np.zeros(1), filt, address, gather=0)[0] for k in range(64)]),
            _np_array_sample(t1, u, None, lay, filt, address)]
    for k in range(6):
        d = np.abs(got[k] - want[k]).max()
        assert d < 1e-5, f"{sampler} wave{wave} output {k}: {d}"


def test_radcc_run_cube_files(tmp_path: Path) -> None:
    """`radcc run --image3d` takes a cube array as (6 x cubes, H, W, C) and writes it back
    as DIR/S_B.npy with the stores applied (vs NumPy); a cube given with --image, a
    non-square face or a layer count not a multiple of 6 is exit status 1 naming the
    binding."""
    spv = tmp_path / "s.spv"
    spv.write_bytes(_spirv("tex_cube"))
    rng = np.random.default_rng(2)
    files = {"cs": rng.uniform(-1, 1, (6, 4, 4, 4)).astype(np.float32),
             "ca": rng.uniform(-1, 1, (12, 4, 4, 4)).astype(np.float32),
             "ic": rng.uniform(-1, 1, (12, 4, 4, 4)).astype(np.float32),
             "bad": np.zeros((6, 4, 5, 4), np.float32),
             "bad7": np.zeros((7, 4, 4, 4), np.float32)}
    for n, a in files.items():
        np.save(tmp_path / f"{n}.npy", a)
    (tmp_path / "dirs.bin").write_bytes(_cube_dirs(rng).tobytes())
    base = ["run", str(spv), "--groups", "1", "--buffer", f"2:0={tmp_path / 'dirs.bin'}",
            "--buffer", f"2:1=zeros:{64 * 64 + 32}", "--sampler", "0:0=linear"]
    ok = ["--image3d", f"0:0={tmp_path / 'cs.npy'}", "--image3d", f"0:1={tmp_path / 'ca.npy'}",
          "--image3d", f"0:2={tmp_path / 'ic.npy'}"]
    rc, _, err = run_radcc(*base, *ok, "--out", str(tmp_path / "out"))
    assert rc == 0, err
    got = np.load(tmp_path / "out" / "0_2.npy")
    z = np.arange(12, dtype=np.float32)[:, None, None, None]
    want = files["ic"].copy()
    want[:4] = files["ic"][:4] * 2 + z[:4]  # invocations 0..63 store faces 0..3
    assert got.dtype == np.float32 and got.shape == (12, 4, 4, 4)
    assert np.array_equal(got, want)
    for swap, message in (
            (("--image3d", "--image"), "--image 0:0: binding 0:0 is a Cube image: give it "
             "with --image3d"),
            ((f"0:1={tmp_path / 'ca.npy'}", f"0:1={tmp_path / 'bad.npy'}"),
             "--image3d 0:1: the array has shape (6, 4, 5, 4): a cube map is"),
            ((f"0:1={tmp_path / 'ca.npy'}", f"0:1={tmp_path / 'bad7.npy'}"),
             "--image3d 0:1: the array has shape (7, 4, 4, 4)")):
        argv = list(ok)
        k = argv.index(swap[0])
        argv[k] = swap[1]
        rc, _, err = run_radcc(*base, *argv, "--out", str(tmp_path / "o2"))
        assert rc == 1 and message in err and "Traceback" not in err, err


def _nsa_form(asm: str) -> tuple[str, list[str]]:
    """`asm` with every image instruction's sequential address range ``v[a:b]`` (2 to 5
    dwords) copied to scattered VGPRs (``v_mov_b32``: dword k to v200 - 3 k, descending)
    and given as the NSA list of them; `s_clause`/`s_delay_alu` (hints) dropped, the
    kernel's VGPR count raised to cover them. Returns the text and the NSA lines."""
    import re

    lines, changed = [], []
    for ln in asm.splitlines():
        if re.match(r"\s*(s_clause|s_delay_alu)\b", ln):
            continue
        ln = re.sub(r"(\.amdhsa_next_free_vgpr) \d+", r"\1 208", ln)
        ln = re.sub(r"(\.vgpr_count:\s+)\d+", r"\g<1>208", ln)
        m = re.match(r"(\s*image_\w+\s+v(?:\[\d+:\d+\]|\d+), )v\[(\d+):(\d+)\](, .*)", ln)
        if m and 2 <= int(m.group(3)) - int(m.group(2)) + 1 <= 5:
            lo, hi = int(m.group(2)), int(m.group(3))
            for k in range(hi - lo + 1):
                lines.append(f"\tv_mov_b32 v{200 - 3 * k}, v{lo + k}")
            regs = ", ".join(f"v{200 - 3 * k}" for k in range(hi - lo + 1))
            ln = f"{m.group(1)}[{regs}]{m.group(4)}"
            changed.append(ln.strip())
        lines.append(ln)
    return "\n".join(lines) + "\n", changed


def _sequential_form(asm: str) -> tuple[str, list[str]]:
    """`asm` with every image instruction's NSA address list ``[vA, vB, ...]`` (isel's
    GFX11 choice) copied to consecutive VGPRs (``v_mov_b32``: entry k to v200 + k) and given
    as that range; `s_clause`/`s_delay_alu` dropped, the VGPR count raised to cover them.
    Returns the text and the NSA lines replaced."""
    import re

    lines, changed = [], []
    for ln in asm.splitlines():
        if re.match(r"\s*(s_clause|s_delay_alu)\b", ln):
            continue
        ln = re.sub(r"(\.amdhsa_next_free_vgpr) \d+", r"\1 208", ln)
        ln = re.sub(r"(\.vgpr_count:\s+)\d+", r"\g<1>208", ln)
        m = re.match(r"(\s*image_\w+\s+v(?:\[\d+:\d+\]|\d+), )\[((?:v\d+, )*v\d+)\](, .*)", ln)
        if m:
            regs = m.group(2).split(", ")
            for k, r in enumerate(regs):
                lines.append(f"\tv_mov_b32 v{200 + k}, {r}")
            changed.append(ln.strip())
            ln = f"{m.group(1)}v[200:{199 + len(regs)}]{m.group(3)}"
        lines.append(ln)
    return "\n".join(lines) + "\n", changed


@pytest.mark.parametrize("wave", [32, 64])
def test_nsa_addresses(wave: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """NSA (non-sequential address) MIMG forms, which isel chooses on GFX11 (each address
    VGPR its own operand): tex_cube's NSA lines encode as llvm-mc-19 encodes them, and the
    code gives the same buffers and images in the strict emulator as the same code with
    every NSA list copied to one sequential range."""
    from dataclasses import replace

    import radcc.driver.run as drun
    from radcc.driver.compile import compile_spirv
    from radcc.driver.mc import write_object
    from radcc.isa.assembler import assemble
    from radcc.target import get_target

    spirv = _spirv("tex_cube")
    res = compile_spirv(spirv, wave_size=wave)
    text, changed = _sequential_form(res.asm)
    assert len(changed) >= 4, changed
    assert_gfx1100_encodings_match_llvm_mc(changed, wave)
    target = get_target("gfx1100")
    seq = replace(res, code_object=write_object(assemble(text, target, wave_size=wave),
                                                target, wave))
    assert seq.code_object != res.code_object
    rng = np.random.default_rng(9)
    images = {(0, 0): (rng.uniform(-1, 1, (6, 4, 4, 4)).astype(np.float32), None),
              (0, 1): (rng.uniform(-1, 1, (12, 4, 4, 4)).astype(np.float32), None),
              (0, 2): (rng.uniform(-1, 1, (12, 4, 4, 4)).astype(np.float32), None)}
    bufs = {(2, 0): _cube_dirs(rng), (2, 1): np.zeros(64 * 16 + 8, np.float32)}
    smp = {(0, 0): "linear", (0, 1): "nearest"}
    want = drun.run_compute(spirv, images=images, samplers=smp, buffers=bufs, wave_size=wave)
    monkeypatch.setattr(drun, "compile_spirv", lambda *a, **k: seq)
    got = drun.run_compute(spirv, images=images, samplers=smp, buffers=bufs, wave_size=wave)
    assert want.keys() == got.keys()
    for key, v in want.items():
        if isinstance(v, np.ndarray):
            assert np.array_equal(got[key], v), key
        else:
            assert got[key] == v, key
