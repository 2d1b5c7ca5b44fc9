"""Image compute shaders run as cases against lavapipe (tests/e2e/test_image_sweep.py,
tests/e2e/test_image_apps.py): a case names its shader, its images, samplers, buffers and
push constants, and how closely radcc's strict-emulator run must equal lavapipe's.

`check_vs_lavapipe` runs a case both ways and compares: images and buffers exactly
unless the case gives a tolerance (absolute, in the array's units: 8-bit steps for
uint8 images; plus a relative one), a buffer with a tolerance compared as float32 (as
float16 when its array is one), NaN where lavapipe has NaN.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from radcc.oracle import lavapipe
from tests.support.tools import glsl_file_spirv

Key = tuple[int, int] | tuple[int, int, int]
Images = dict[Key, tuple[np.ndarray, str | None]]


@dataclass
class ImageCase:
    name: str  # the shader: NAME.comp in the test's directory
    groups: tuple[int, int, int]
    images: Callable[[np.random.Generator], Images]
    samplers: dict[Key, str] = field(default_factory=dict)
    buffers: Callable[[np.random.Generator], dict[Key, np.ndarray]] = lambda rng: {}
    push: bytes = b""
    # output -> allowed absolute difference (8-bit steps for uint8 images; a buffer listed
    # is compared as float32); missing: exact
    tol: dict[Key, float] = field(default_factory=dict)
    rel: dict[Key, float] = field(default_factory=dict)  # relative tolerance (f16 stores)
    sampler_id: str = ""  # a test id suffix for cases sharing a shader


def u8(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.integers(0, 256, shape, dtype=np.uint8)


def f32(rng: np.random.Generator, lo: float, hi: float, *shape: int) -> np.ndarray:
    return rng.uniform(lo, hi, shape).astype(np.float32)


def push(*vals: float | int) -> bytes:
    """Push-constant bytes: ints as int32, floats as float32."""
    return b"".join(np.array([v], np.int32 if isinstance(v, int) else np.float32).tobytes()
                    for v in vals)


def inputs(case: ImageCase) -> tuple[Images, dict[Key, np.ndarray]]:
    """The case's images and buffers (random data seeded by its name)."""
    rng = np.random.default_rng(sum(map(ord, case.name)))
    return case.images(rng), case.buffers(rng)


def compare(case: ImageCase, key: Key, got: np.ndarray, ref: np.ndarray, what: str) -> None:
    assert got.shape == ref.shape and got.dtype == ref.dtype, (case.name, key, what)
    g, r = got.astype(np.float64), ref.astype(np.float64)
    with np.errstate(invalid="ignore"):
        d = np.where(g == r, 0.0, np.abs(g - r))
    tol = case.tol.get(key, 0.0) + case.rel.get(key, 0.0) * np.abs(r)
    bad = (d > tol) | (np.isnan(g) != np.isnan(r))
    assert not bad.any(), f"{case.name} {what} {key}: {int(bad.sum())} of {bad.size} " \
        f"differ (max {np.nanmax(d):.3g}), first at {np.argwhere(bad)[0].tolist()}"


def check_vs_lavapipe(case: ImageCase, here: Path, wave: int) -> None:
    """Run `case` (its shader in `here`) in the strict emulator and on lavapipe with the
    same inputs and compare every image and buffer; the case must write something (an
    output differs from its input on lavapipe)."""
    from radcc.driver.run import run_compute

    spirv = glsl_file_spirv(here / f"{case.name}.comp")
    images, bufs = inputs(case)
    ref = lavapipe.run_compute(spirv, groups=case.groups, buffers=bufs,
                               push_constants=case.push, images=images,  # type: ignore[arg-type]
                               samplers=case.samplers)  # type: ignore[arg-type]
    got = run_compute(spirv, groups=case.groups, buffers=bufs, push_constants=case.push,
                      images=images, samplers=case.samplers, wave_size=wave)
    assert any(not np.array_equal(ref[k], a) for k, (a, _) in images.items()) or \
        any(ref[k] != b.tobytes() for k, b in bufs.items()), case.name
    for key in images:
        compare(case, key, got[key], ref[key], f"wave{wave} image")  # type: ignore[arg-type]
    for key, b in bufs.items():
        if key in case.tol or b.dtype == np.float16:
            dt = b.dtype if b.dtype == np.float16 else np.float32
            compare(case, key, np.frombuffer(got[key], dt),  # type: ignore[arg-type]
                    np.frombuffer(ref[key], dt), f"wave{wave} buffer")  # type: ignore[arg-type]
        else:
            assert got[key] == ref[key], (case.name, key, wave)
