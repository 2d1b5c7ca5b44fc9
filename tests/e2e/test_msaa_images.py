"""Multisampled images (issue 11): ``texture2DMS``/``itexture2DMSArray`` read with
texelFetch and a sample index, ``image2DMS`` loads, stores and atomics with a sample
index, textureSamples/imageSamples and sizes, compiled by radcc to MIMG with dims
SQ_RSRC_IMG_2D_MSAA(_ARRAY) (the sample index the address's last component, ISA 10.2)
and run in the strict emulator, wave32 and wave64, against NumPy on radcc's linear MSAA
layout (a texel's samples one after the other: the `([L,] H, W, S[, C])` arrays `radcc
run --image` takes). Vulkan cannot copy a buffer into a multisampled image, so neither
lvp_run nor the lavapipe oracle can feed one: NumPy is the reference. Also the MIMG
encodings against llvm-mc-19 and `radcc run` with MS arrays.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from tests.support.tools import (
    assert_gfx1100_encodings_match_llvm_mc,
    emitted_lines,
    glsl_file_spirv,
    run_radcc,
)

HERE = Path(__file__).parent / "images"
Key = tuple[int, int]


def _spirv() -> bytes:
    return glsl_file_spirv(HERE / "img_msaa.comp")


def _inputs() -> dict[Key, tuple[np.ndarray, str | None]]:
    rng = np.random.default_rng(8)
    return {
        (0, 0): (rng.random((4, 8, 4, 4), dtype=np.float32), None),  # H W S C, 4 samples
        (0, 1): (rng.integers(-100, 100, (2, 4, 8, 2, 4), dtype=np.int32), None),  # L H W S C
        (0, 2): (rng.random((4, 8, 4, 4), dtype=np.float32), None),
        (0, 3): (np.zeros((4, 8, 4, 4), np.float32), None),
        (0, 4): (rng.integers(0, 50, (4, 8, 2), dtype=np.uint32), None),  # r32ui, 2 samples
    }


def _reference(im: dict[Key, tuple[np.ndarray, str | None]], s: int
               ) -> tuple[np.ndarray, dict[Key, np.ndarray]]:
    tex, texa, src, _, cnt = (im[(0, k)][0] for k in range(5))
    i = np.arange(32)
    x, y = i % 8, i // 8
    o = np.zeros((32, 3, 4), np.float32)
    o[:, 0] = tex[y, x, i % 4]
    o[:, 1] = texa[i & 1, y, x, s]
    c = src[y, x, 3 - (i & 3)]
    dst = np.zeros_like(src)
    dst[y, x] = np.stack([c * (k + 1) for k in range(4)], axis=1)
    o[:, 2, 0] = cnt[y, x, i & 1]
    o[:, 2, 1] = 4 * 100 + 2 * 10 + 2  # textureSamples(tex), imageSamples(cnt), (texa)
    o[:, 2, 2] = 16 * 1000 + 8  # textureSize(tex) + imageSize(src): (8, 4) + (8, 4)
    o[:, 2, 3] = 8 * 100 + 4 * 10 + 2  # textureSize(texa): 8, 4, 2 layers
    wc = cnt.copy()
    wc[y, x, i & 1] += (i + 1).astype(np.uint32)
    return o, {(0, 3): dst, (0, 4): wc}


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("sample", [0, 1])
def test_msaa_images(wave: int, sample: int) -> None:
    from radcc.driver.run import run_compute

    im = _inputs()
    got = run_compute(_spirv(), groups=(1, 1, 1), images=im, buffers={(0, 5): 32 * 48},
                      push_constants=struct.pack("<i", sample), wave_size=wave)
    want, imgs = _reference(im, sample)
    assert np.array_equal(np.frombuffer(bytes(got[(0, 5)]), np.float32).reshape(32, 3, 4),
                          want)
    for key, arr in imgs.items():
        assert got[key].dtype == arr.dtype and np.array_equal(got[key], arr), key


def test_msaa_out_of_range_sample() -> None:
    """A sample index past the T#'s sample count is out of range: the texel unit returns
    zero for it (as for coordinates outside the image; ISA 10.2 addresses only the
    samples the resource has) and drops a store."""
    from radcc.driver.run import run_compute

    im = _inputs()
    got = run_compute(_spirv(), groups=(1, 1, 1), images=im, buffers={(0, 5): 32 * 48},
                      push_constants=struct.pack("<i", 2), wave_size=32)  # texa: 2 samples
    o = np.frombuffer(bytes(got[(0, 5)]), np.float32).reshape(32, 3, 4)
    assert not o[:, 1].any()


@pytest.mark.parametrize("wave", [32, 64])
def test_msaa_encodings_match_llvm_mc(wave: int) -> None:
    from radcc.driver.compile import compile_spirv

    res = compile_spirv(_spirv(), wave_size=wave)
    lines = sorted(emitted_lines(res.asm, "image_") | emitted_lines(res.asm, "s_bfe_u32"))
    assert any("image_load " in ln and "dim:SQ_RSRC_IMG_2D_MSAA " in ln for ln in lines)
    assert any("image_load " in ln and "dim:SQ_RSRC_IMG_2D_MSAA_ARRAY" in ln for ln in lines)
    assert any("image_store " in ln and "SQ_RSRC_IMG_2D_MSAA" in ln for ln in lines)
    assert any("image_atomic_add" in ln and "SQ_RSRC_IMG_2D_MSAA" in ln for ln in lines)
    assert_gfx1100_encodings_match_llvm_mc(lines, wave)


def test_radcc_run_msaa_files(tmp_path: Path) -> None:
    """`radcc run --image` takes a multisampled image as (H, W, S[, C]) and an MS array
    with --image3d as (L, H, W, S[, C]); they come back with their shape and dtype; a
    samples axis of 3 and an MS array given with --image are errors naming the binding."""
    im = _inputs()
    spv = tmp_path / "s.spv"
    spv.write_bytes(_spirv())
    (tmp_path / "pc.bin").write_bytes(struct.pack("<i", 1))
    args = ["run", str(spv), "--groups", "1", "--quiet", "--out", str(tmp_path / "out"),
            "--buffer", "0:5=zeros:1536", "--push", str(tmp_path / "pc.bin")]
    for (s, b), (arr, _) in im.items():
        np.save(tmp_path / f"in{b}.npy", arr)
        args += ["--image3d" if b == 1 else "--image", f"{s}:{b}={tmp_path / f'in{b}.npy'}"]
    rc, _, err = run_radcc(*args)
    assert rc == 0, err
    want, imgs = _reference(im, 1)
    o = np.frombuffer((tmp_path / "out" / "0_5.bin").read_bytes(), np.float32)
    assert np.array_equal(o.reshape(32, 3, 4), want)
    for (s, b), arr in imgs.items():
        got = np.load(tmp_path / "out" / f"{s}_{b}.npy")
        assert got.dtype == arr.dtype and np.array_equal(got, arr)
    np.save(tmp_path / "bad.npy", np.zeros((4, 8, 3, 4), np.float32))
    bad = [a.replace(str(tmp_path / "in0.npy"), str(tmp_path / "bad.npy")) for a in args]
    rc, _, err = run_radcc(*bad)
    assert rc == 1 and "--image 0:0: a multisampled image has 2, 4, 8 or 16 samples" in err \
        and "Traceback" not in err, err
    bad = [a.replace("--image3d", "--image") for a in args]
    rc, _, err = run_radcc(*bad)
    assert rc == 1 and "give it with --image3d" in err and "Traceback" not in err, err
