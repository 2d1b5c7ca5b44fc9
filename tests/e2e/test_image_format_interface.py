"""``--image`` FORMAT names, defaults and errors as lvp_run's interface
(../shared/interfaces/lvp_run.md, the table under ``--image``) defines them (issue 11):
every row of the table (each dtype and C, its default and every FORMAT name accepted for
it) and its error cases, radcc against radcc.oracle's lavapipe runner, both ways: the same
acceptance (both take it or both refuse it), and when taken the same output (the texels
a texelFetch reads, written to a buffer: exact, but unorm within 1e-6 (lavapipe's
byte-to-float conversion is an ulp off the correctly rounded byte / 255 at times) and sRGB
within 0.5/255 (lavapipe's decode is an approximation, as in `test_images`) and the
image written back with the shape and dtype it was given. The oracle does not check a
storage image's declared format (lvp_run.md's rule; radcc does), nor the sampled type:
those cases are radcc's alone.

The one difference, documented in docs/guide.md and tests/e2e/images/README.md: r8ui, rg8
and rg8ui, which lvp_run does not list, are accepted (by both here) only for a storage
image the shader declares with that format (public density and shading-rate map shaders
need them: sweep/rate_map.comp), and are then the default for their dtype and C too;
anywhere else they are unknown formats, and uint8 x2 has no default, as in lvp_run."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from radcc.oracle import lavapipe
from tests.oracle.conftest import compile_glsl

# lvp_run.md's table: (dtype, C) -> (default, FORMAT names accepted)
TABLE: dict[tuple[str, int], tuple[str, tuple[str, ...]]] = {
    ("uint8", 4): ("rgba8", ("rgba8", "rgba8_srgb", "rgba8ui")),
    ("uint8", 1): ("r8", ("r8",)),
    ("float32", 1): ("r32f", ("r32f",)),
    ("float32", 2): ("rg32f", ("rg32f",)),
    ("float32", 4): ("rgba32f", ("rgba32f",)),
    ("float16", 4): ("rgba16f", ("rgba16f",)),
    ("float16", 1): ("r16f", ("r16f",)),
    ("uint32", 1): ("r32ui", ("r32ui",)),
    ("uint32", 4): ("rgba32ui", ("rgba32ui",)),
    ("int32", 1): ("r32i", ("r32i",)),
    ("int32", 4): ("rgba32i", ("rgba32i",)),
}
# the shader's sampled type a format goes with (lvp_run.md: float/unorm <-> float, _UINT
# <-> uint, _SINT <-> int)
NUMERIC = {"rgba8ui": "u", "r32ui": "u", "rgba32ui": "u", "r32i": "i", "rgba32i": "i",
           "r8ui": "u", "rg8ui": "u"}
H, W = 4, 8


def _fetch_shader(prefix: str, three_d: bool = False) -> bytes:
    """texelFetch of every texel of the image at 0:0 to the buffer at 0:1."""
    typ = "vec4" if prefix == "" else f"{prefix}vec4"
    dim = "3D" if three_d else "2D"
    coord = "ivec3(p, 1)" if three_d else "p"
    return compile_glsl(f"""#version 450
layout(local_size_x = {W}, local_size_y = {H}) in;
layout(set = 0, binding = 0) uniform {prefix}sampler{dim} t;
layout(set = 0, binding = 1) buffer B {{ {typ} o[]; }};
void main() {{
    ivec2 p = ivec2(gl_LocalInvocationID.xy);
    o[p.y * {W} + p.x] = texelFetch(t, {coord}, 0);
}}
""")


def _array(dtype: str, c: int, rng: np.random.Generator, three_d: bool = False
           ) -> np.ndarray:
    shape = ((2,) if three_d else ()) + (H, W) + ((c,) if c > 1 else ())
    if dtype.startswith("float"):
        return rng.uniform(-4, 4, shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -1000), min(info.max, 1 << 20) + 1, shape, dtype=dtype)


def _both(spirv: bytes, image: np.ndarray, fmt: str | None, wave: int = 32,
          three_d: bool = False) -> tuple[object, object]:
    """(radcc's result or its error, the oracle's result or its error)."""
    from radcc.driver.images import ImageArgError
    from radcc.driver.run import run_compute

    bufs = {(0, 1): np.zeros(H * W * 4, np.uint32)}
    images = {(0, 0): (image, fmt)}
    try:
        got: object = run_compute(spirv, groups=(1, 1, 1), buffers=bufs, images=images,
                                  wave_size=wave)
    except ImageArgError as e:
        got = e
    try:
        ref: object = lavapipe.run_compute(spirv, groups=(1, 1, 1), buffers=bufs,
                                           images=images)
    except lavapipe.LavapipeError as e:
        ref = e
    return got, ref


def _same_output(got: dict, ref: dict, image: np.ndarray, tol: float) -> None:
    for out in (got, ref):
        back = out[(0, 0)]
        assert back.shape == image.shape and back.dtype == image.dtype
        assert np.array_equal(back, image)
    a, b = (np.frombuffer(bytes(x[(0, 1)]), np.float32) for x in (got, ref))
    if tol:
        assert np.abs(a - b).max() < tol
    else:
        assert bytes(got[(0, 1)]) == bytes(ref[(0, 1)])


ROWS = [(dt, c, name) for (dt, c), (default, names) in TABLE.items()
        for name in (None, *names)]


@pytest.mark.parametrize(("dtype", "c", "fmt"), ROWS)
def test_every_table_row_accepted_alike(dtype: str, c: int, fmt: str | None,
                                        lvp: None) -> None:
    """Each row's default (FORMAT omitted) and every name it lists: both runners take it,
    read the same texels and write the image back unchanged with its shape and dtype."""
    name = fmt or TABLE[(dtype, c)][0]
    rng = np.random.default_rng(len(ROWS) + c)
    image = _array(dtype, c, rng)
    spirv = _fetch_shader(NUMERIC.get(name, ""))
    got, ref = _both(spirv, image, fmt)
    assert isinstance(got, dict), got
    assert isinstance(ref, dict), ref
    _same_output(got, ref, image, {"rgba8": 1e-6, "r8": 1e-6, "rgba8_srgb": 0.5 / 255}.get(
        name, 0.0))


@pytest.mark.parametrize("fmt", ["rgba8", "r32f", "rgba32ui"])
def test_image3d_rows(fmt: str, lvp: None) -> None:
    """--image3d takes the same formats, (D, H, W[, C])."""
    (dtype, c), = [k for k, v in TABLE.items() if v[0] == fmt]
    image = _array(dtype, c, np.random.default_rng(1), three_d=True)
    got, ref = _both(_fetch_shader(NUMERIC.get(fmt, ""), three_d=True), image, None,
                     three_d=True)
    assert isinstance(got, dict) and isinstance(ref, dict), (got, ref)
    _same_output(got, ref, image, 1e-6 if fmt == "rgba8" else 0.0)


# (dtype, C, FORMAT, the shader's sampled type): inputs lvp_run refuses
REFUSED = [
    ("uint8", 2, None, ""), ("uint8", 3, None, ""), ("float64", 1, None, ""),
    ("int16", 1, None, "i"), ("uint32", 2, None, "u"), ("int8", 4, None, "i"),
    ("uint8", 4, "r8", ""), ("uint8", 1, "rgba8", ""), ("float32", 4, "rgba16f", ""),
    ("float16", 4, "rgba32f", ""), ("int32", 1, "r32ui", "u"), ("uint32", 4, "rgba32i", "i"),
    ("uint8", 4, "bgra8", ""), ("uint8", 4, "RGBA8", ""),
    # lvp_run does not list these: refused but for a storage image declared with them
    ("uint8", 1, "r8ui", "u"), ("uint8", 2, "rg8", ""), ("uint8", 2, "rg8ui", "u"),
]


@pytest.mark.parametrize(("dtype", "c", "fmt", "prefix"), REFUSED)
def test_refused_alike(dtype: str, c: int, fmt: str | None, prefix: str, lvp: None) -> None:
    image = _array(dtype, c, np.random.default_rng(2))
    got, ref = _both(_fetch_shader(prefix), image, fmt)
    assert isinstance(got, Exception), got
    assert isinstance(ref, Exception), ref
    assert "--image 0:0" in str(got)


@pytest.mark.parametrize(("fmt", "prefix", "why"), [
    ("r32f", "u", "format r32f holds float texels but the shader's image has uint ones"),
    ("rgba32ui", "", "format rgba32ui holds uint texels but the shader's image has float"),
    ("rgba8", "i", "format rgba8 holds float texels but the shader's image has int ones"),
])
def test_sampled_type_must_match(fmt: str, prefix: str, why: str) -> None:
    """lvp_run.md: the format's numeric type must match the shader's sampled type (the
    oracle leaves this to the Vulkan validation lavapipe does not do: radcc alone)."""
    from radcc.driver.images import ImageArgError
    from radcc.driver.run import run_compute

    (dtype, c), = [k for k, v in TABLE.items() if fmt in v[1]][:1]
    with pytest.raises(ImageArgError, match=why):
        run_compute(_fetch_shader(prefix), groups=(1, 1, 1),
                    buffers={(0, 1): np.zeros(H * W * 4, np.uint32)},
                    images={(0, 0): (_array(dtype, c, np.random.default_rng(3)), fmt)})


STORE = """#version 450
layout(local_size_x = 8, local_size_y = 4) in;
layout(set = 0, binding = 0, FMT) uniform writeonly TYPE img;
void main() { imageStore(img, ivec2(gl_LocalInvocationID.xy), VAL); }
"""


@pytest.mark.parametrize(("decl", "typ", "val", "dtype", "c", "fmt", "ok"), [
    ("rgba8", "image2D", "vec4(0.5)", "uint8", 4, None, True),
    ("rgba8", "image2D", "vec4(0.5)", "float32", 4, None, False),  # declared rgba8
    ("rgba8", "image2D", "vec4(0.5)", "uint8", 4, "rgba8_srgb", False),
    ("r8ui", "uimage2D", "uvec4(7u)", "uint8", 1, None, True),  # declared: its default
    ("r8ui", "uimage2D", "uvec4(7u)", "uint8", 1, "r8ui", True),
    ("rg8", "image2D", "vec4(0.2, 0.4, 0, 1)", "uint8", 2, None, True),
    ("rg8ui", "uimage2D", "uvec4(3u, 4u, 0u, 1u)", "uint8", 2, "rg8ui", True),
    ("rg8ui", "uimage2D", "uvec4(3u, 4u, 0u, 1u)", "uint8", 2, "rg8", False),
])
def test_storage_declared_formats(decl: str, typ: str, val: str, dtype: str, c: int,
                                  fmt: str | None, ok: bool, lvp: None) -> None:
    """A storage image declared with a format gets that format (lvp_run.md); the
    declared-only formats r8ui, rg8, rg8ui there, by name or as the default. Same
    acceptance and the same written-back image in both runners."""
    from radcc.driver.images import ImageArgError
    from radcc.driver.run import run_compute

    spirv = compile_glsl(STORE.replace("FMT", decl).replace("TYPE", typ).replace("VAL", val))
    image = _array(dtype, c, np.random.default_rng(4))
    images = {(0, 0): (image, fmt)}
    try:
        got: object = run_compute(spirv, groups=(1, 1, 1), buffers={}, images=images)
    except ImageArgError as e:
        got = e
    try:
        ref: object = lavapipe.run_compute(spirv, groups=(1, 1, 1), buffers={}, images=images)
    except lavapipe.LavapipeError as e:
        ref = e
    if not ok:
        assert isinstance(got, Exception), got
        if decl == "rgba8" or decl == "rg8ui" and fmt == "rg8":
            return  # (the oracle does not check declarations: radcc alone)
        assert isinstance(ref, Exception), ref
        return
    assert isinstance(got, dict) and isinstance(ref, dict), (got, ref)
    for out in (got, ref):
        assert out[(0, 0)].shape == image.shape and out[(0, 0)].dtype == image.dtype
    assert np.array_equal(got[(0, 0)], ref[(0, 0)])


def test_cli_errors_name_the_binding(tmp_path) -> None:
    """`radcc run --image` refuses a format lvp_run does not list, and an array with no
    default format, with exit status 1 and a message naming the option and binding."""
    spv = tmp_path / "f.spv"
    spv.write_bytes(_fetch_shader(""))
    npy = tmp_path / "a.npy"
    np.save(npy, np.zeros((H, W, 2), np.uint8))
    base = [sys.executable, "-m", "radcc", "run", str(spv), "--groups", "1",
            "--buffer", f"0:1=zeros:{H * W * 16}", "--out", str(tmp_path / "out")]
    for arg, want in ((f"0:0={npy}", "--image 0:0: no image format for uint8 arrays with 2 "
                                     "channel(s)"),
                      (f"0:0={npy}:rg8", "--image 0:0: unknown image format 'rg8' (formats: "
                                         "rgba8, rgba8_srgb, rgba8ui, r8, r32f")):
        p = subprocess.run([*base, "--image", arg], capture_output=True, text=True)
        assert p.returncode == 1 and want in p.stderr, p.stderr
        assert "Traceback" not in p.stderr
