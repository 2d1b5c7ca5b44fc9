"""Running the draw cases (cases.py) and comparing two renderings of one.

    ref = reference(case)                  # lavapipe's rendering (the oracle, now)
    vs, fs = spirv(case)                   # the case's modules (glslangValidator -V)
    assert_same_draw(case, ref, got)       # got: anything with .colors / .depth /
                                           # .buffers / .images like DrawResult

The comparison is the issue's: rgba8 within 1 per channel, float formats within the
case's tolerance, integers and depth-test outcomes exact, exact pixel coverage of
colour attachment 0 (pixels differing from the clear colour), depth within 1e-6,
buffers and images written by the shaders equal.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from tests.e2e.draw.cases import SHADERS, DrawCase

GLSLANG = "glslangValidator"
_spirv: dict[str, bytes] = {}


def compile_stage(name: str) -> bytes:
    """shaders/NAME compiled by glslangValidator -V --target-env vulkan1.3 (cached)."""
    if name not in _spirv:
        if shutil.which(GLSLANG) is None:
            raise RuntimeError(f"{GLSLANG} not installed (Debian package glslang-tools)")
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / "out.spv"
            p = subprocess.run([GLSLANG, "-V", "--target-env", "vulkan1.3",
                                str(SHADERS / name), "-o", str(out)],
                               capture_output=True, text=True)
            if p.returncode:
                raise AssertionError(f"glslangValidator {name}:\n{p.stdout}{p.stderr}")
            _spirv[name] = out.read_bytes()
    return _spirv[name]


def spirv(case: DrawCase) -> tuple[bytes, bytes]:
    return compile_stage(case.vert), compile_stage(case.frag)


def reference(case: DrawCase) -> Any:
    """lavapipe's rendering of the case (radcc.oracle.lavapipe_draw.DrawResult)."""
    from radcc.oracle.lavapipe_draw import run_draw

    if case.reference_shaders is not None:
        vs, fs = (compile_stage(n) for n in case.reference_shaders)
    else:
        vs, fs = spirv(case)
    return run_draw(vs, fs, **case.kwargs())


def clear_texel(case: DrawCase, channels: int, dtype: np.dtype) -> np.ndarray:
    """The clear colour as the attachment stores it."""
    c = np.asarray(case.clear[:channels], np.float64)
    if dtype == np.uint8:
        return np.round(np.clip(c, 0, 1) * 255).astype(np.uint8)
    return c.astype(dtype)


def covered(case: DrawCase, img: np.ndarray) -> np.ndarray:
    """(H, W) bool: the pixels of a colour attachment that differ from the clear colour."""
    return (img != clear_texel(case, img.shape[-1], img.dtype)).any(axis=-1)


def assert_same_draw(case: DrawCase, ref: Any, got: Any) -> None:
    assert len(got.colors) == len(ref.colors), \
        f"{case.name}: {len(got.colors)} colour attachments, lavapipe has {len(ref.colors)}"
    for i, (r, g) in enumerate(zip(ref.colors, got.colors, strict=True)):
        what = f"{case.name}: color{i}"
        assert g.shape == r.shape and g.dtype == r.dtype, \
            f"{what}: {g.dtype}{g.shape}, lavapipe {r.dtype}{r.shape}"
        if i == 0 and case.coverage_from_color:
            rc, gc = covered(case, r), covered(case, g)
            bad = np.argwhere(rc != gc)
            assert not len(bad), (f"{what}: coverage differs at {len(bad)} pixels, first "
                                  f"(y, x) {bad[:8].tolist()} (lavapipe covers "
                                  f"{int(rc.sum())}, got {int(gc.sum())})")
        if r.dtype == np.uint8:
            d = np.abs(r.astype(int) - g.astype(int))
            assert d.max(initial=0) <= 1, \
                f"{what}: off by {d.max()} at {np.argwhere(d > 1)[:8].tolist()}"
        elif r.dtype.kind == "f":
            np.testing.assert_allclose(g.astype(np.float64), r.astype(np.float64),
                                       atol=case.atol, rtol=case.rtol, err_msg=what)
        else:
            np.testing.assert_array_equal(g, r, err_msg=what)
    if ref.depth is not None:
        assert got.depth is not None, f"{case.name}: no depth attachment"
        np.testing.assert_allclose(got.depth, ref.depth, atol=1e-6, rtol=0,
                                   err_msg=f"{case.name}: depth")
    for key, raw in ref.buffers.items():
        assert got.buffers[key] == raw, f"{case.name}: buffer {key}"
    for key, arr in ref.images.items():
        np.testing.assert_array_equal(got.images[key], arr, err_msg=f"{case.name}: image {key}")
