"""The texture unit's packed formats (issue 11: "packed formats the format table lists"):
2_10_10_10 UNORM/SNORM/UINT/SINT, 10_11_11_FLOAT, 11_11_10_FLOAT, 5_6_5_UNORM,
1_5_5_5_UNORM, 5_5_5_1_UNORM, 4_4_4_4_UNORM and 5_9_9_9_FLOAT, given through the Python
API's images, in the strict emulator, wave32 and wave64, against NumPy references written
here from the Vulkan spec's format definitions (the channels' bit positions of the
VkFormat each maps to, unorm/snorm conversions, the unsigned 10/11-bit floats and the
shared exponent), not from radcc's code:

- texelFetch of random texel words (every bit pattern: NaN and infinity too) and
  imageStore of values beyond the formats' ranges (clamped) to a formatless image
  (images/packed/fetch_store.comp);
- storage images declared rgb10_a2, rgb10_a2ui and r11f_g11f_b10f (accepted now):
  imageLoad, imageStore, and the stored texels loaded again (round trip;
  images/packed/declared.comp);
- bilinear sampling and gathers (images/packed/sample.comp);
- formats whose VkFormat lists the channels the other way round, read through the T#'s
  destination swizzle (R5G6B5, R4G4B4A4, R5G5B5A1, A1R5G5B5);
- texel buffers of the packed buffer formats (2_10_10_10, 10_11_11, 11_11_10);
- image atomics on a packed format: refused by name (the compiler for a declared format,
  the emulator for a formatless image's descriptor).
"""

from __future__ import annotations

import functools
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from radcc.oracle import spirv_tools
from tests.support.tools import glsl_file_spirv

HERE = Path(__file__).parent / "images" / "packed"
N = 8  # the images are N x N, one 8x8 workgroup


@dataclass(frozen=True)
class Fmt:
    """A texture unit format and the VkFormat whose channels (R, G, B[, A]) lie in its X, Y,
    Z[, W] order: each channel's (first bit, bits) as the Vulkan spec defines the VkFormat;
    ``exp`` the shared exponent's field (E5B9G9R9)."""

    name: str  # the texture unit's (T#) format
    vk: str
    kind: str  # unorm, snorm, uint, sint, ufloat, sharedexp
    fields: tuple[tuple[int, int], ...]
    word: int = 32  # texel bits
    exp: tuple[int, int] | None = None


FORMATS = [
    Fmt("2_10_10_10_UNORM", "A2B10G10R10_UNORM_PACK32", "unorm",
        ((0, 10), (10, 10), (20, 10), (30, 2))),
    Fmt("2_10_10_10_SNORM", "A2B10G10R10_SNORM_PACK32", "snorm",
        ((0, 10), (10, 10), (20, 10), (30, 2))),
    Fmt("2_10_10_10_UINT", "A2B10G10R10_UINT_PACK32", "uint",
        ((0, 10), (10, 10), (20, 10), (30, 2))),
    Fmt("2_10_10_10_SINT", "A2B10G10R10_SINT_PACK32", "sint",
        ((0, 10), (10, 10), (20, 10), (30, 2))),
    Fmt("10_11_11_FLOAT", "B10G11R11_UFLOAT_PACK32", "ufloat", ((0, 11), (11, 11), (22, 10))),
    # no VkFormat: the AMD name's order (X in the least significant bits)
    Fmt("11_11_10_FLOAT", "-", "ufloat", ((0, 10), (10, 11), (21, 11))),
    Fmt("5_6_5_UNORM", "B5G6R5_UNORM_PACK16", "unorm", ((0, 5), (5, 6), (11, 5)), 16),
    Fmt("1_5_5_5_UNORM", "A1B5G5R5_UNORM_PACK16_KHR", "unorm",
        ((0, 5), (5, 5), (10, 5), (15, 1)), 16),
    # no VkFormat in this order: the AMD name's
    Fmt("5_5_5_1_UNORM", "-", "unorm", ((0, 1), (1, 5), (6, 5), (11, 5)), 16),
    Fmt("4_4_4_4_UNORM", "A4B4G4R4_UNORM_PACK16", "unorm",
        ((0, 4), (4, 4), (8, 4), (12, 4)), 16),
    Fmt("5_9_9_9_FLOAT", "E5B9G9R9_UFLOAT_PACK32", "sharedexp", ((0, 9), (9, 9), (18, 9)),
        exp=(27, 5)),
]
BY_NAME = {f.name: f for f in FORMATS}
INTEGER = {"uint", "sint"}


# -- the NumPy reference (Vulkan spec) -----------------------------------------------------
def _field(words: np.ndarray, lo: int, bits: int) -> np.ndarray:
    return (words.astype(np.int64) >> lo) & ((1 << bits) - 1)


def _ufloat(code: np.ndarray, bits: int) -> np.ndarray:
    """Unsigned 11- and 10-bit floats (Vulkan spec, "Unsigned 11-Bit Floating-Point
    Numbers", "Unsigned 10-Bit ..."): 5-bit exponent E, bits - 5 mantissa bits M."""
    m = bits - 5
    e, man = code >> m, code & ((1 << m) - 1)
    val = np.where(e == 0, 2.0 ** -14 * (man / 2.0 ** m),
                   2.0 ** (e.astype(np.float64) - 15) * (1 + man / 2.0 ** m))
    return np.where(e == 31, np.where(man == 0, np.inf, np.nan), val)


def decode(f: Fmt, words: np.ndarray) -> np.ndarray:
    """Texel words [n] -> RGBA [n, 4] (float64; integer formats as integers), missing
    channels 0 and alpha 1."""
    out = np.zeros((len(words), 4))
    out[:, 3] = 1
    for c, (lo, b) in enumerate(f.fields):
        v = _field(words, lo, b)
        if f.kind == "unorm":
            out[:, c] = v / (2 ** b - 1)
        elif f.kind == "snorm":
            s = np.where(v >= 2 ** (b - 1), v - 2 ** b, v)
            out[:, c] = np.maximum(s / (2 ** (b - 1) - 1), -1)
        elif f.kind == "uint":
            out[:, c] = v
        elif f.kind == "sint":
            out[:, c] = np.where(v >= 2 ** (b - 1), v - 2 ** b, v)
        elif f.kind == "ufloat":
            out[:, c] = _ufloat(v, b)
        else:  # shared exponent: mantissa * 2^(E - B - N), B 15, N 9
            assert f.exp is not None
            out[:, c] = v * 2.0 ** (_field(words, *f.exp) - 15 - 9)
    return out


def _nearest_ufloat(x: float, bits: int) -> int:
    """The code of the representable unsigned float nearest `x` (ties: the even code),
    found among all codes; negative and -inf to 0, beyond the largest finite value to it,
    +inf to infinity, NaN a NaN (the spec's rules)."""
    m = bits - 5
    if np.isnan(x):
        return 31 << m | 1
    if x == np.inf:
        return 31 << m
    codes = np.arange(31 << m)  # the finite ones, increasing
    vals = _ufloat(codes, bits)
    x = min(max(x, 0.0), float(vals[-1]))
    d = np.abs(vals - x)
    best = np.flatnonzero(d == d.min())
    return int(best[0] if len(best) == 1 or best[0] % 2 == 0 else best[1])


def encode(f: Fmt, rgba: np.ndarray) -> np.ndarray:
    """Store data [n, 4] (float32 or int32/uint32 values as float64) -> texel words [n]."""
    words = np.zeros(len(rgba), np.int64)
    if f.kind == "sharedexp":  # Vulkan spec, "RGB to Shared Exponent Conversion"
        n_, b_, emax = 9, 15, 31
        top = (2 ** n_ - 1) / 2 ** n_ * 2.0 ** (emax - b_)
        for k, px in enumerate(rgba):
            c = [0.0 if np.isnan(x) else min(max(float(x), 0.0), top) for x in px[:3]]
            mx = max(c)
            ep = max(-b_ - 1, int(np.floor(np.log2(mx))) if mx > 0 else -b_ - 1) + 1 + b_
            ms = np.floor(mx / 2.0 ** (ep - b_ - n_) + 0.5)
            e = ep if 0 <= ms < 2 ** n_ else ep + 1
            s = [int(np.floor(x / 2.0 ** (e - b_ - n_) + 0.5)) for x in c]
            words[k] = s[0] | s[1] << 9 | s[2] << 18 | e << 27
        return words
    for c, (lo, b) in enumerate(f.fields):
        x = rgba[:, c]
        if f.kind == "unorm":
            v = np.rint(np.clip(np.nan_to_num(x, nan=0.0), 0, 1) * (2 ** b - 1))
        elif f.kind == "snorm":
            v = np.rint(np.clip(np.nan_to_num(x, nan=0.0), -1, 1) * (2 ** (b - 1) - 1))
        elif f.kind == "uint":
            v = np.minimum(x, 2 ** b - 1)
        elif f.kind == "sint":
            v = np.clip(x, -(2 ** (b - 1)), 2 ** (b - 1) - 1)
        else:
            v = np.array([_nearest_ufloat(float(t), b) for t in x])
        words |= (v.astype(np.int64) & ((1 << b) - 1)) << lo
    return words


def _same(got: np.ndarray, want: np.ndarray) -> bool:
    return np.array_equal(got, want, equal_nan=True)


def _as(p: str, x: np.ndarray) -> np.ndarray:
    """The reference as the shader's 32-bit type holds it (float32 rounding), in float64."""
    return _f64(_f64(x).astype(_NP[p]))


def _f64(x: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):  # a signalling NaN's cast
        return x.astype(np.float64)


def _same_texels(f: Fmt, got: np.ndarray, want: np.ndarray) -> bool:
    """Texel words equal, but a NaN channel only as a NaN (the spec leaves its payload
    open)."""
    dg, dw = decode(f, got), decode(f, want)
    nan = np.isnan(dw).any(axis=1)
    return _same(dg, dw) and np.array_equal(got[~nan], want[~nan])


# -- running -----------------------------------------------------------------------------
_TYPES = {"unorm": "", "snorm": "", "ufloat": "", "sharedexp": "", "uint": "u", "sint": "i"}
_NP = {"": np.float32, "u": np.uint32, "i": np.int32}


@functools.cache
def _compiled(shader: str, prefix: str, wave: int, fmt: str = "") -> object:
    from radcc.driver.compile import compile_spirv

    defs = [f"-DSAMPLER={prefix}sampler2D", f"-DIMAGE={prefix}image2D", f"-DVEC4={prefix}vec4"]
    if fmt:
        defs.append(f"-DFMT={fmt}")
    r = spirv_tools.compile_glsl(HERE / f"{shader}.comp", "vulkan1.2", *defs)
    assert r.ok, r.text
    return compile_spirv(r.data, wave_size=wave)


def _image(f: Fmt, words: np.ndarray, sel: tuple[int, int, int, int] | None = None) -> object:
    from radcc.emu.api import Image
    from radcc.emu.texture import IDENTITY

    dt = np.uint16 if f.word == 16 else np.uint32
    return Image(words.astype(dt).reshape(N, N), f.name, 2, sel or IDENTITY)


def _texels(f: Fmt, raw: np.ndarray) -> np.ndarray:
    return np.asarray(raw).reshape(-1).view(np.uint16 if f.word == 16 else np.uint32) \
        .astype(np.int64)


def _store_data(f: Fmt, rng: np.random.Generator) -> np.ndarray:
    """Store values [64, 4], about a quarter beyond the format's range (clamped)."""
    n = N * N
    if f.kind == "uint":
        return rng.integers(0, 2500, (n, 4)).astype(np.float64)
    if f.kind == "sint":
        return rng.integers(-1200, 1200, (n, 4)).astype(np.float64)
    if f.kind in ("unorm", "snorm"):
        lo = 0.0 if f.kind == "unorm" else -1.0
        v = rng.uniform(lo - 0.25, 1.25, (n, 4))
    else:
        v = np.exp2(rng.uniform(-22, 17, (n, 4))) * rng.choice([1, 1, 1, -1], (n, 4))
        v[:4, 0] = [np.inf, -np.inf, np.nan, 70000.0]  # inf, 0, NaN, the largest finite
        v[4:8, 1] = [0.0, 65500.0, 1e-9, 64600.0]
        v[8:10, :3] = [[1023.9, 3.0, 0.001], [0.9995, 0.5, 0.25]]  # the largest mantissa
        # rounds up to 2^9 (a shared exponent one higher)
    return v.astype(np.float32).astype(np.float64)


def _words(f: Fmt, rng: np.random.Generator, finite: bool = False) -> np.ndarray:
    w = rng.integers(0, 1 << f.word, N * N, dtype=np.int64)
    if finite and f.kind == "ufloat":  # no exponent 31 (infinity, NaN) in a filter
        for lo, b in f.fields:
            top = (w >> (lo + b - 5)) & 31
            w = np.where(top == 31, w & ~(1 << (lo + b - 1)), w)
    return w


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", [f.name for f in FORMATS])
def test_fetch_and_store(name: str, wave: int) -> None:
    """texelFetch of random texel words == the Vulkan definition of the format's texel;
    imageStore of values in and beyond range == the spec's conversion (unorm/snorm clamped
    and rounded to nearest, integers saturated, unsigned floats rounded to nearest with
    negatives 0, NaN a NaN, shared exponent by the spec's formula)."""
    from radcc.driver.run import run_compiled

    f = BY_NAME[name]
    p = _TYPES[f.kind]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    words = _words(f, rng)
    data = _store_data(f, rng)
    cr = _compiled("fetch_store", p, wave)
    _, run = run_compiled(cr, (1, 1, 1), {(0, 2): np.zeros(4 * N * N, _NP[p]),
                                          (0, 3): data.astype(_NP[p])},
                          images={(0, 0): _image(f, words), (0, 1): _image(f, words * 0)})
    assert not run.violations, run.violations[:3]
    got = np.asarray(run.buffers["set0_binding2"]).reshape(-1).view(_NP[p]).reshape(-1, 4)
    want = decode(f, words)
    assert _same(_f64(got), _as(p, want)), (name, wave)
    stored = _texels(f, run.buffers["set0_binding1"])
    assert _same_texels(f, stored, encode(f, data)), (name, wave)


DECLARED = [("rgb10_a2", "2_10_10_10_UNORM"), ("rgb10_a2ui", "2_10_10_10_UINT"),
            ("r11f_g11f_b10f", "10_11_11_FLOAT")]


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("decl, name", DECLARED)
def test_declared_storage_formats_round_trip(decl: str, name: str, wave: int) -> None:
    """Storage images declared rgb10_a2, rgb10_a2ui, r11f_g11f_b10f (refused by name
    before): imageLoad == the spec's decode, imageStore == its encode (values beyond the
    range clamp), and loading the stored texels gives the decode of the encode."""
    from radcc.driver.run import run_compiled

    f = BY_NAME[name]
    p = _TYPES[f.kind]
    rng = np.random.default_rng(len(decl) * 1000 + wave)
    words = _words(f, rng)
    data = _store_data(f, rng)
    cr = _compiled("declared", p, wave, decl)

    def run(texels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        _, r = run_compiled(cr, (1, 1, 1), {(0, 1): np.zeros(4 * N * N, _NP[p]),
                                            (0, 2): data.astype(_NP[p])},
                            images={(0, 0): _image(f, texels)})
        assert not r.violations, r.violations[:3]
        loaded = np.asarray(r.buffers["set0_binding1"]).reshape(-1).view(_NP[p])
        return _f64(loaded.reshape(-1, 4)), _texels(f, r.buffers["set0_binding0"])

    loaded, stored = run(words)
    assert _same(loaded, _as(p, decode(f, words))), (name, wave)
    assert _same_texels(f, stored, encode(f, data)), (name, wave)
    again, _ = run(stored)
    want = _as(p, decode(f, encode(f, data)))
    assert _same(again, want), (name, wave)
    if f.kind == "unorm":  # the clamp: out-of-range values read back as 0 or 1
        assert (again[data < 0] == 0).all() and (again[data > 1] == 1).all()


def _bilinear_and_gathers(t: np.ndarray) -> np.ndarray:
    """[64, 3, 4]: sample.comp's textureLod (bilinear, clamp to edge) and gathers of
    components 0 and 2 of the decoded texels t [N, N, 4] (Vulkan's texel filtering:
    i0 = floor(u - 0.5), the weights the fractions; a gather's texels (i0, j1), (i1, j1),
    (i1, j0), (i0, j0))."""
    out = np.zeros((N * N, 3, 4))
    for y in range(N):
        for x in range(N):
            u = np.float32((np.float32(x) * np.float32(1.13) + np.float32(0.21)) / 8) * N
            v = np.float32((np.float32(y) * np.float32(0.87) + np.float32(0.62)) / 8) * N
            i0, j0 = int(np.floor(u - 0.5)), int(np.floor(v - 0.5))
            a, b = float(u) - 0.5 - i0, float(v) - 0.5 - j0

            def tx(i: int, j: int) -> np.ndarray:
                return t[min(max(j, 0), N - 1), min(max(i, 0), N - 1)]
            k = y * N + x
            out[k, 0] = ((1 - a) * (1 - b) * tx(i0, j0) + a * (1 - b) * tx(i0 + 1, j0)
                         + (1 - a) * b * tx(i0, j0 + 1) + a * b * tx(i0 + 1, j0 + 1))
            quad = [tx(i0, j0 + 1), tx(i0 + 1, j0 + 1), tx(i0 + 1, j0), tx(i0, j0)]
            out[k, 1] = [q[0] for q in quad]
            out[k, 2] = [q[2] for q in quad]
    return out


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", [f.name for f in FORMATS if f.kind not in INTEGER])
def test_bilinear_and_gathers(name: str, wave: int) -> None:
    """Bilinear sampling (float64 reference, relative 1e-6) and gathers (exact) of the
    formats read as floats, random finite texels."""
    from radcc.driver.run import run_compiled
    from radcc.emu.texture import BILINEAR, SamplerDesc

    f = BY_NAME[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()) + 1)
    words = _words(f, rng, finite=True)
    cr = _compiled("sample", "", wave)
    smp = SamplerDesc(mag_filter=BILINEAR, min_filter=BILINEAR)
    _, run = run_compiled(cr, (1, 1, 1), {(0, 1): np.zeros(12 * N * N, np.float32)},
                          images={(0, 0): _image(f, words)}, samplers={(0, 0): smp})
    assert not run.violations, run.violations[:3]
    got = np.asarray(run.buffers["set0_binding1"]).reshape(-1).view(np.float32) \
        .reshape(N * N, 3, 4).astype(np.float64)
    texels = decode(f, words).reshape(N, N, 4)
    want = _bilinear_and_gathers(texels)
    scale = np.abs(texels).max()
    assert np.abs(got[:, 0] - want[:, 0]).max() <= 1e-6 * scale, (name, wave)
    assert np.array_equal(got[:, 1:], want[:, 1:].astype(np.float32)), (name, wave)


# the VkFormats whose channels lie the other way round: (format, VkFormat's R, G, B, A
# fields, the T#'s dst_sel that reads them as R, G, B, A)
SWIZZLED = [
    ("5_6_5_UNORM", "R5G6B5_UNORM_PACK16", ((11, 5), (5, 6), (0, 5)), "ZYX1"),
    ("4_4_4_4_UNORM", "R4G4B4A4_UNORM_PACK16", ((12, 4), (8, 4), (4, 4), (0, 4)), "WZYX"),
    ("5_5_5_1_UNORM", "R5G5B5A1_UNORM_PACK16", ((11, 5), (6, 5), (1, 5), (0, 1)), "WZYX"),
    ("1_5_5_5_UNORM", "A1R5G5B5_UNORM_PACK16", ((10, 5), (5, 5), (0, 5), (15, 1)), "ZYXW"),
]


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name, vk, fields, sel", SWIZZLED)
def test_swizzled_vulkan_formats(name: str, vk: str, fields: tuple[tuple[int, int], ...],
                                 sel: str, wave: int) -> None:
    """texelFetch through the T#'s destination swizzle == the VkFormat's R, G, B, A as
    the Vulkan spec places them in the texel (e.g. R5G6B5: R in bits 11..15)."""
    from radcc.driver.run import run_compiled
    from radcc.emu.texture import SEL_0, SEL_1, SEL_W, SEL_X, SEL_Y, SEL_Z

    codes = {"X": SEL_X, "Y": SEL_Y, "Z": SEL_Z, "W": SEL_W, "0": SEL_0, "1": SEL_1}
    f = BY_NAME[name]
    rng = np.random.default_rng(len(vk) + wave)
    words = _words(f, rng)
    dst = tuple(codes[c] for c in sel)
    cr = _compiled("fetch_store", "", wave)
    _, run = run_compiled(cr, (1, 1, 1), {(0, 2): np.zeros(4 * N * N, np.float32),
                                          (0, 3): np.zeros(4 * N * N, np.float32)},
                          images={(0, 0): _image(f, words, dst),  # type: ignore[arg-type]
                                  (0, 1): _image(f, words * 0)})
    assert not run.violations, run.violations[:3]
    got = np.asarray(run.buffers["set0_binding2"]).reshape(-1).view(np.float32).reshape(-1, 4)
    want = decode(Fmt(name, vk, "unorm", fields, 16), words)
    assert np.array_equal(got, want.astype(np.float32)), (name, wave)


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", ["2_10_10_10_UNORM", "2_10_10_10_SNORM", "10_11_11_FLOAT",
                                  "11_11_10_FLOAT"])
def test_texel_buffer(name: str, wave: int) -> None:
    """The packed formats of Table 52's buffer formats (ids below 64) through a uniform
    texel buffer's V# (typed buffer loads): texelFetch == the spec's decode."""
    from radcc.driver.compile import compile_spirv
    from radcc.driver.run import run_compiled
    from radcc.emu.api import TexelBuffer

    f = BY_NAME[name]
    words = _words(f, np.random.default_rng(zlib.crc32(name.encode()) + 2))
    cr = compile_spirv(glsl_file_spirv(HERE / "texel_buffer.comp"), wave_size=wave)
    _, run = run_compiled(cr, (1, 1, 1), {(0, 1): np.zeros(4 * N * N, np.float32)},
                          images={(0, 0): TexelBuffer(words.astype(np.uint32), f.name)})
    assert not run.violations, run.violations[:3]
    got = np.asarray(run.buffers["set0_binding1"]).reshape(-1).view(np.float32).reshape(-1, 4)
    assert _same(_f64(got), _as("", decode(f, words))), (name, wave)


# -- refusals ------------------------------------------------------------------------------
def test_atomic_on_declared_packed_format_refused(tmp_path: Path) -> None:
    """imageAtomicAdd on a storage image declared rgb10_a2ui (glslang refuses the GLSL:
    the SPIR-V of an r32ui one with the format changed; spirv-val refuses it too, as
    Vulkan allows OpImageTexelPointer only on R32/R64 formats): with --no-validate, radcc
    refuses it by name at its word offset."""
    from tests.support.tools import run_radcc

    src = tmp_path / "a.comp"
    src.write_text("#version 450\nlayout(local_size_x = 1) in;\n"
                   "layout(set = 0, binding = 0, r32ui) uniform uimage2D img;\n"
                   "void main() { imageAtomicAdd(img, ivec2(0), 1u); }\n")
    r = spirv_tools.compile_glsl(src, "vulkan1.2")
    assert r.ok, r.text
    text = spirv_tools.disassemble(r.data).text.replace(" R32ui", " Rgb10a2ui").replace(
        "OpCapability Shader", "OpCapability Shader\nOpCapability StorageImageExtendedFormats")
    data = spirv_tools.assemble(text, "vulkan1.2")
    assert "OpImageTexelPointer" in spirv_tools.validate(data, "vulkan1.2").text
    spv = tmp_path / "a.spv"
    spv.write_bytes(data)
    rc, _, err = run_radcc("compile", str(spv), "-o", str(tmp_path / "a.o"), "--no-validate")
    assert rc == 1 and "OpImageTexelPointer: image atomics on storage image format " \
        "Rgb10a2ui are not supported" in err and "word " in err and "Traceback" not in err, err


def test_atomic_on_packed_descriptor_refused() -> None:
    """An image atomic of a shader declaring r32ui, run with a 2_10_10_10_UINT image (the
    descriptor's format, 32-bit texels of integers): the emulator refuses it by name."""
    from radcc.driver.compile import compile_spirv
    from radcc.driver.run import run_compiled
    from radcc.emu.errors import EmuError

    cr = compile_spirv(glsl_file_spirv(HERE / "atomic.comp"), wave_size=32)
    words = np.arange(N * N, dtype=np.int64)
    with pytest.raises(EmuError, match="image_atomic_add on a 2_10_10_10_UINT image "
                                       r"\(a packed format"):
        run_compiled(cr, (1, 1, 1), {}, images={(0, 0): _image(BY_NAME["2_10_10_10_UINT"],
                                                                 words)})
