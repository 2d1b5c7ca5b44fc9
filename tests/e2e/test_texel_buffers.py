"""Texel buffers in compute shaders (issue 11): uniform texel buffers (``samplerBuffer``,
``textureBuffer`` + texelFetch) and storage texel buffers (``imageBuffer`` imageLoad/
imageStore) of several formats, compiled by radcc to ``buffer_load_format_*``/
``buffer_store_format_*`` through a V# built as RADV builds a buffer view's, run in the
strict emulator (wave32 and wave64) against lavapipe (radcc.oracle.lavapipe binds them
through VkBufferViews) and NumPy; out-of-range accesses against a NumPy model of the ISA
guide's range check (9.4.1: all or nothing, zero but dst_sel SEL_1 components, stores
dropped); `radcc run --image` with a texel buffer; the MUBUF encodings against llvm-mc-19.
Also 1-D, 1-D array and 2-D array images (loads, stores, fetches, sizes) against NumPy
(lvp_run refuses those dimensions), their MIMG encodings and `radcc run` of them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from radcc.oracle import lavapipe
from tests.support.tools import (
    assert_gfx1100_encodings_match_llvm_mc,
    assert_glsl_refused_by_name,
    emitted_lines,
    glsl_file_spirv,
    run_radcc,
)

HERE = Path(__file__).parent / "images"
ROOT = Path(__file__).resolve().parents[2]
Key = tuple[int, int]
N = 128  # elements of tb_formats' buffers (2 workgroups of 64)


def _spirv(name: str) -> bytes:
    return glsl_file_spirv(HERE / f"{name}.comp")


def _formats_inputs() -> dict[Key, tuple[np.ndarray, str | None]]:
    rng = np.random.default_rng(11)
    return {
        (0, 0): (rng.uniform(-4, 4, (N, 4)).astype(np.float32), None),  # rgba32f
        (0, 1): (rng.integers(0, 1 << 32, N, dtype=np.uint32), None),  # r32ui
        (0, 2): (rng.integers(0, 256, (N, 4), dtype=np.uint8), None),  # rgba8
        (0, 3): (rng.integers(-(1 << 31), 1 << 31, (N, 4), dtype=np.int32), None),  # rgba32i
        (0, 4): (np.zeros(N, np.float32), None),  # r32f
        (0, 5): (rng.integers(0, 256, (N, 4), dtype=np.uint8), None),  # rgba8
        (0, 6): (np.zeros((N, 4), np.uint32), None),  # rgba32ui
        (0, 7): (rng.uniform(-8, 8, (N, 4)).astype(np.float16), None),  # rgba16f
        (0, 8): (rng.integers(0, 256, N, dtype=np.uint8), None),  # r8
    }


def _formats_ref(im: dict[Key, tuple[np.ndarray, str | None]]) -> tuple[
        dict[Key, np.ndarray], np.ndarray]:
    """NumPy: the output texel buffers and the vec4s of the storage buffer (oc, oh, or8)."""
    a, b, n4, d = im[(0, 0)][0], im[(0, 1)][0], im[(0, 2)][0], im[(0, 3)][0]
    rw, h4, r8 = im[(0, 5)][0], im[(0, 7)][0], im[(0, 8)][0]
    of = (a[:, 0] + a[:, 1] * (b & 7).astype(np.float32)).astype(np.float32)
    ou = np.stack([b, d[:, 0].view(np.uint32), d[:, 3].view(np.uint32) ^ b,
                   np.full(N, N + 1000 * N, np.uint32)], axis=-1).astype(np.uint32)
    oc = n4.astype(np.float32) / 255
    oh = h4.astype(np.float32) * 2
    or8 = np.zeros((N, 4), np.float32)
    or8[:, 0] = r8.astype(np.float32) / 255
    or8[:, 3] = 1
    images = {(0, 4): of, (0, 5): rw[:, ::-1].copy(), (0, 6): ou}
    return images, np.concatenate([oc, oh, or8]).astype(np.float32)


def _close(what: str, got: np.ndarray, want: np.ndarray) -> None:
    """Float results within 4 ulps of the value (lavapipe converts unorm as byte *
    (1/255), one ulp from the exact quotient the ISA defines); the rest exactly."""
    if got.dtype.kind == "f":
        tol = 4 * np.finfo(np.float32).eps * np.maximum(np.abs(want.astype(np.float32)), 1)
        bad = np.abs(got.astype(np.float32) - want.astype(np.float32)) > tol
        assert not bad.any(), f"{what}: {np.argwhere(bad)[:4].tolist()}"
    else:
        assert np.array_equal(got, want), f"{what}: {np.argwhere(got != want)[:4].tolist()}"


def test_texel_buffer_formats_on_lavapipe(lvp: None) -> None:
    """The oracle itself: lavapipe's results equal the NumPy reference."""
    im = _formats_inputs()
    ref = lavapipe.run_compute(_spirv("tb_formats"), groups=(2, 1, 1),
                               buffers={(0, 9): 3 * N * 16}, images=im)
    want_img, want_buf = _formats_ref(im)
    for key, want in want_img.items():
        _close(f"lavapipe {key}", ref[key], want)
    _close("lavapipe buffer", np.frombuffer(ref[(0, 9)], np.float32).reshape(-1, 4), want_buf)


@pytest.mark.parametrize("wave", [32, 64])
def test_texel_buffer_formats_on_radcc(wave: int, lvp: None) -> None:
    from radcc.driver.run import run_compute

    spv = _spirv("tb_formats")
    im = _formats_inputs()
    ref = lavapipe.run_compute(spv, groups=(2, 1, 1), buffers={(0, 9): 3 * N * 16}, images=im)
    got = run_compute(spv, groups=(2, 1, 1), buffers={(0, 9): 3 * N * 16}, images=im,
                      wave_size=wave)
    want_img, want_buf = _formats_ref(im)
    for key, (arr, _) in im.items():
        assert got[key].dtype == arr.dtype and got[key].shape == arr.shape
        _close(f"radcc w{wave} {key} vs lavapipe", got[key], ref[key])
        _close(f"radcc w{wave} {key} vs NumPy", got[key], want_img.get(key, arr))
    buf = np.frombuffer(bytes(got[(0, 9)]), np.float32).reshape(-1, 4)
    _close(f"radcc w{wave} buffer vs lavapipe", buf,
           np.frombuffer(ref[(0, 9)], np.float32).reshape(-1, 4))
    _close(f"radcc w{wave} buffer vs NumPy", buf, want_buf)


@pytest.mark.parametrize("wave", [32, 64])
def test_texel_buffer_out_of_range(wave: int, lvp: None) -> None:
    """ISA 9.4.1 with the V#'s OOB_SELECT 0 (RADV's for buffer views): an element at an
    index >= num_records loads zero in every component but those whose dst_sel is SEL_1
    (a one-channel format's alpha), and a store there is dropped."""
    from radcc.driver.run import run_compute

    src = np.arange(1, 41, dtype=np.float32) * 0.5
    c4 = np.arange(160, dtype=np.uint8).reshape(40, 4)
    dst = np.full(24, 7, np.uint32)
    im = {(0, 0): (src, None), (0, 1): (c4, None), (0, 2): (dst, None)}
    got = run_compute(_spirv("tb_oob"), groups=(1, 1, 1), buffers={(0, 3): 2 * 64 * 16},
                      images=im, wave_size=wave)
    want_a = np.zeros((64, 4), np.float32)
    want_a[:40, 0] = src
    want_a[:, 3] = 1  # r32f: dst_sel (X, 0, 0, 1): SEL_1 reads 1 in and out of range
    want_c = np.zeros((64, 4), np.float32)
    want_c[:40] = c4.astype(np.float32) / 255  # rgba8: identity dst_sel, all zero beyond
    buf = np.frombuffer(bytes(got[(0, 3)]), np.float32).reshape(2, 64, 4)
    _close("in/out of range r32f loads", buf[0], want_a)
    _close("in/out of range rgba8 loads", buf[1], want_c)
    assert np.array_equal(got[(0, 2)], np.arange(24, dtype=np.uint32) * 3 + 1)


@pytest.mark.parametrize("wave", [32, 64])
def test_mubuf_format_encodings_match_llvm_mc(wave: int, lvp: None) -> None:
    """The buffer_load_format/buffer_store_format instructions radcc emits encode as
    llvm-mc-19 encodes them."""
    from radcc.driver.compile import compile_spirv

    lines = sorted(set().union(*(
        emitted_lines(compile_spirv(_spirv(name), wave_size=wave).asm, "buffer_")
        for name in ("tb_formats", "tb_oob"))))
    assert any("buffer_load_format_xyzw" in ln for ln in lines)
    assert any("buffer_store_format_x " in ln for ln in lines)
    assert_gfx1100_encodings_match_llvm_mc(lines, wave)


def test_radcc_run_texel_buffer_files(tmp_path: Path, lvp: None) -> None:
    """`radcc run --image S:B=FILE.npy` on a texel buffer binding: an (N,) or (N, C)
    array in, DIR/S_B.npy out with its shape and dtype and lavapipe's contents; a wrong
    shape names the binding."""
    im = _formats_inputs()
    spv = tmp_path / "s.spv"
    spv.write_bytes(_spirv("tb_formats"))
    args = ["run", str(spv), "--groups", "2", "--out", str(tmp_path / "out"),
            "--buffer", f"0:9=zeros:{3 * N * 16}"]
    for (s, b), (arr, _) in im.items():
        np.save(tmp_path / f"in{s}{b}.npy", arr)
        args += ["--image", f"{s}:{b}={tmp_path / f'in{s}{b}.npy'}"]
    rc, _, err = run_radcc(*args)
    assert rc == 0, err
    ref = lavapipe.run_compute(spv.read_bytes(), groups=(2, 1, 1),
                               buffers={(0, 9): 3 * N * 16}, images=im)
    for (s, b), (arr, _) in im.items():
        got = np.load(tmp_path / "out" / f"{s}_{b}.npy")
        assert got.dtype == arr.dtype and got.shape == arr.shape
        _close(f"{s}_{b}.npy", got, ref[(s, b)])
    np.save(tmp_path / "bad.npy", np.zeros((4, 4, 4), np.float32))
    bad = [a if not a.startswith("0:0=") else f"0:0={tmp_path / 'bad.npy'}" for a in args]
    rc, _, err = run_radcc(*bad)
    assert rc == 1 and "--image 0:0: the array has shape (4, 4, 4): a texel buffer is " \
        "(N,) or (N, C)" in err and "Traceback" not in err, err


@pytest.mark.parametrize("decl, use, message", [
    ("layout(r32f) uniform imageBuffer img;", "imageAtomicExchange(img, 0, 1.0); "
     "float x = imageAtomicAdd(img, 0, 1.0);",
     "OpAtomicFAddEXT on a storage image of format R32f is not supported"),
])
def test_texel_buffer_refusals(tmp_path: Path, decl: str, use: str, message: str,
                               lvp: None) -> None:
    assert_glsl_refused_by_name(
        tmp_path, "#version 450\n#extension GL_EXT_shader_atomic_float : enable\n"
                  "layout(local_size_x = 1) in;\n"
                  f"layout(set = 0, binding = 0) {decl}\nvoid main() {{ {use} }}\n", message)


# -- 1-D, 1-D array and 2-D array images ----------------------------------------------------
# (lvp_run and the lavapipe oracle refuse these dimensions: NumPy models of the shader on
# the ISA guide's texture unit, which addresses layer l of an array as the slice after
# l whole layers, and whose image_get_resinfo returns width, height, layers, levels)
def _dims_inputs() -> dict[Key, tuple[np.ndarray, str | None]]:
    rng = np.random.default_rng(5)
    return {
        (0, 0): (rng.uniform(-4, 4, (32, 4)).astype(np.float32), None),  # 1D rgba32f
        (0, 1): (rng.integers(0, 1 << 30, (3, 32), dtype=np.uint32), None),  # 1D array r32ui
        (0, 2): (rng.integers(0, 256, (3, 4, 8, 4), dtype=np.uint8), None),  # 2D array rgba8
        (0, 3): (rng.uniform(-2, 2, (3, 4, 8)).astype(np.float32), None),  # 2D array r32f
        (0, 4): (rng.uniform(-2, 2, 32).astype(np.float32), None),  # 1D r32f
    }


def _dims_ref(im: dict[Key, tuple[np.ndarray, str | None]]) -> tuple[
        dict[Key, np.ndarray], np.ndarray, np.ndarray]:
    a1, a1l, a2l, t2l, t1 = (im[(0, k)][0] for k in range(5))
    o = a1.astype(np.float64)
    for layer in range(3):
        o += (t2l[layer].reshape(32).astype(np.float64) * (layer + 1))[:, None]
    o += t1.astype(np.float64)[:, None]
    sizes = np.array([[32, 32, 3, 0], [8, 4, 3, 0], [8, 4, 3, 32], [1, 1, 0, 0]], np.int32)
    images = {(0, 1): (a1l * 3 + np.arange(3, dtype=np.uint32)[:, None]).astype(np.uint32),
              (0, 2): a2l[..., [1, 2, 3, 0]]}
    return images, o.astype(np.float32), sizes


@pytest.mark.parametrize("wave", [32, 64])
def test_image_dims_1d_and_arrays(wave: int, lvp: None) -> None:
    from radcc.driver.run import run_compute

    im = _dims_inputs()
    got = run_compute(_spirv("img_dims"), groups=(1, 1, 1), buffers={(0, 5): 32 * 16 + 64},
                      images=im, wave_size=wave)
    want_img, want_o, want_sizes = _dims_ref(im)
    for key, (arr, _) in im.items():
        assert got[key].dtype == arr.dtype and got[key].shape == arr.shape
        _close(f"w{wave} image {key}", got[key], want_img.get(key, arr))
    raw = bytes(got[(0, 5)])
    o = np.frombuffer(raw[:512], np.float32).reshape(32, 4)
    tol = 1e-5 * np.maximum(np.abs(want_o), 1)
    assert (np.abs(o - want_o) <= tol).all(), f"w{wave} o"
    sizes = np.frombuffer(raw[512:], np.int32).reshape(4, 4)
    assert np.array_equal(sizes, want_sizes), sizes


@pytest.mark.parametrize("wave", [32, 64])
def test_image_dims_encodings_match_llvm_mc(wave: int, lvp: None) -> None:
    from radcc.driver.compile import compile_spirv

    lines = sorted(emitted_lines(compile_spirv(_spirv("img_dims"), wave_size=wave).asm,
                                 "image_"))
    for dim in ("SQ_RSRC_IMG_1D ", "SQ_RSRC_IMG_1D_ARRAY", "SQ_RSRC_IMG_2D_ARRAY"):
        assert any(dim in ln for ln in lines), dim
    assert any("image_get_resinfo" in ln and "dmask:0x5" in ln for ln in lines)
    assert_gfx1100_encodings_match_llvm_mc(lines, wave)


def test_radcc_run_image_arrays(tmp_path: Path, lvp: None) -> None:
    """`radcc run`: 1-D images and arrays with --image, 2-D arrays with --image3d (layers
    first), written back with their shapes; a 2-D array given with --image is an error
    naming the binding."""
    im = _dims_inputs()
    spv = tmp_path / "s.spv"
    spv.write_bytes(_spirv("img_dims"))
    args = ["run", str(spv), "--groups", "1", "--out", str(tmp_path / "out"),
            "--buffer", f"0:5=zeros:{32 * 16 + 64}"]
    for (s, b), (arr, _) in im.items():
        np.save(tmp_path / f"in{s}{b}.npy", arr)
        opt = "--image3d" if arr.ndim - (arr.dtype == np.uint8) == 3 else "--image"
        args += [opt, f"{s}:{b}={tmp_path / f'in{s}{b}.npy'}"]
    rc, _, err = run_radcc(*args)
    assert rc == 0, err
    want_img, _, _ = _dims_ref(im)
    for (s, b), (arr, _) in im.items():
        got = np.load(tmp_path / "out" / f"{s}_{b}.npy")
        assert got.dtype == arr.dtype and got.shape == arr.shape
        _close(f"{s}_{b}.npy", got, want_img.get((s, b), arr))
    bad = [a.replace("--image3d", "--image") for a in args]
    rc, _, err = run_radcc(*bad)
    assert rc == 1 and "is a 2DArray image: give it with --image3d" in err, err


# -- atomics on texel buffers, R32f exchange, 1-D and arrayed images ------------------------
def _tb_atomics_inputs() -> dict[Key, tuple[np.ndarray, str | None]]:
    rng = np.random.default_rng(4)
    tb = rng.integers(0, 300, 256, dtype=np.uint32)
    tb[128:192] = np.where(np.arange(64) % 2 == 0, np.arange(64), 5)  # half compare equal
    return {(0, 0): (tb, None), (0, 1): (rng.random(64, dtype=np.float32), None),
            (0, 2): (rng.random((8, 8), dtype=np.float32), None)}


def _tb_atomics_ref(im: dict[Key, tuple[np.ndarray, str | None]]
                    ) -> tuple[dict[Key, np.ndarray], np.ndarray]:
    """NumPy: the images after the dispatch and the old values (5 per invocation)."""
    tb, fb, fimg = (im[(0, k)][0] for k in range(3))
    i = np.arange(64, dtype=np.uint32)
    want = tb.copy()
    want[:64] += 7
    want[64:128] = np.maximum(tb[64:128], i * 3)
    want[128:192] = np.where(tb[128:192] == i, 99, tb[128:192])
    want[192:] ^= 0x55
    old = np.stack([tb[:64], tb[64:128], tb[128:192], fb.view(np.uint32),
                    fimg.reshape(-1).view(np.uint32)], axis=-1)
    imgs = {(0, 0): want, (0, 1): (i * 0.5).astype(np.float32),
            (0, 2): (1.0 - i.astype(np.float32)).reshape(8, 8)}
    return imgs, old


@pytest.mark.parametrize("wave", [32, 64])
def test_texel_buffer_and_r32f_atomics(wave: int, lvp: None) -> None:
    """imageAtomic* on storage texel buffers (``buffer_atomic_* idxen``, glc when the old
    value is used) and imageAtomicExchange on r32f (texel buffer and 2-D image) against
    lavapipe and NumPy."""
    from radcc.driver.run import run_compute

    spv = _spirv("tb_atomics")
    im = _tb_atomics_inputs()
    ref = lavapipe.run_compute(spv, groups=(1, 1, 1), buffers={(0, 3): 64 * 20}, images=im)
    got = run_compute(spv, groups=(1, 1, 1), buffers={(0, 3): 64 * 20}, images=im,
                      wave_size=wave)
    want_img, want_old = _tb_atomics_ref(im)
    for key, want in want_img.items():
        assert np.array_equal(ref[key], want), f"lavapipe {key}"
        assert got[key].dtype == want.dtype and np.array_equal(got[key], want), key
    assert got[(0, 3)] == ref[(0, 3)]
    assert np.array_equal(np.frombuffer(bytes(got[(0, 3)]), np.uint32).reshape(64, 5),
                          want_old)


@pytest.mark.parametrize("wave", [32, 64])
def test_image_atomics_1d_and_arrays(wave: int, lvp: None) -> None:
    """Atomics on a 1-D image, a 2-D array's layers, a 1-D array (the layer the last
    address component, as loads) and r32f exchange on a 2-D image, against NumPy (the
    lavapipe oracle refuses 1-D and arrayed images)."""
    from radcc.driver.run import run_compute

    rng = np.random.default_rng(6)
    fimg = rng.random((8, 8), dtype=np.float32)
    line = rng.integers(-50, 50, 64, dtype=np.int32)
    layers = rng.integers(0, 4, (2, 8, 8), dtype=np.uint32)
    rows = rng.integers(0, 1 << 20, (4, 8), dtype=np.uint32)
    im = {(0, 0): (fimg, None), (0, 1): (line, None), (0, 2): (layers, None),
          (0, 3): (rows, None)}
    got = run_compute(_spirv("img_atomics_more"), groups=(1, 1, 1), buffers={(0, 4): 64 * 20},
                      images=im, wave_size=wave)
    o = np.frombuffer(bytes(got[(0, 4)]), np.uint32).reshape(64, 5)
    i = np.arange(64)
    assert np.array_equal(o[:, 0].view(np.float32), fimg.reshape(-1))
    assert np.array_equal(got[(0, 0)].reshape(-1), (i - 20.5).astype(np.float32))
    assert np.array_equal(o[:, 1].view(np.int32), line)
    assert np.array_equal(got[(0, 1)], np.minimum(line, 10 - i))
    assert np.array_equal(o[:, 2], layers[1].reshape(-1))
    assert np.array_equal(o[:, 3], layers[0].reshape(-1))
    want = layers.copy()
    want[1] += (i + 3).reshape(8, 8).astype(np.uint32)
    want[0] = np.where(layers[0] == (i & 3).reshape(8, 8), 1000 + i.reshape(8, 8), layers[0])
    assert np.array_equal(got[(0, 2)], want)
    # rows: texel (y & 3, x) gets bit y >> 2 from rows y and y + 4 (two invocations: the
    # old value is the original with or without the other one's bit)
    x, y = i % 8, i // 8
    bit = (1 << (y >> 2)).astype(np.uint32)
    assert np.array_equal(got[(0, 3)], rows | 3)
    orig = rows[y & 3, x]
    other = (1 << (1 - (y >> 2))).astype(np.uint32)
    assert np.all((o[:, 4] == orig) | (o[:, 4] == orig | other)), o[:, 4]
    assert not np.any(o[:, 4] & bit & ~orig)


@pytest.mark.parametrize("wave", [32, 64])
def test_image_atomic_encodings_match_llvm_mc(wave: int, lvp: None) -> None:
    """The buffer_atomic_* (returning and not) and image_atomic_* instructions of the
    atomics shaders encode as llvm-mc-19 encodes them."""
    from radcc.driver.compile import compile_spirv

    lines = sorted(set().union(*(
        emitted_lines(compile_spirv(_spirv(name), wave_size=wave).asm, prefix)
        for name in ("tb_atomics", "img_atomics_more") for prefix in ("buffer_", "image_"))))
    assert any(ln.startswith("buffer_atomic_cmpswap_b32") and ln.endswith("idxen glc")
               for ln in lines), lines
    assert any(ln.startswith("buffer_atomic_xor_b32") and ln.endswith("idxen")
               for ln in lines), lines
    assert any("image_atomic_swap" in ln for ln in lines), lines
    assert any("SQ_RSRC_IMG_2D_ARRAY" in ln and "image_atomic_cmpswap" in ln
               for ln in lines), lines
    assert_gfx1100_encodings_match_llvm_mc(lines, wave)
