"""The texture unit: image (T#) and sampler (S#) resources and the MIMG instructions.

Models the hardware as the RDNA3 ISA guide describes it (chapter 10 "Image memory
instructions" in the guide's numbering of the reflowed text: 10.2 "Image Opcodes with
No Sampler", 10.4 "VGPR Usage", 10.4.1 "Data format in VGPRs", 10.5 "Image Resource",
10.7 "Data Formats"), not any API driver:

- **T#** (`ImageDesc.decode`, Table 50): base address (bits 39:0, 256-byte units),
  max mip, format (59:52, Table 52's numbering), width-1 (75:62), height-1 (91:78),
  dst_sel x/y/z/w (107:96: 0 = 0, 1 = 1, 4..7 = R, G, B, A), base/last level, type
  (127:124: 8 1D, 9 2D, 10 3D ...), and in the upper 128 bits depth-1 (140:128; for
  1D/2D the row pitch-1 when the pitch exceeds the width, with pitch[13] at 141).
  `ImageDesc.encode` is the inverse, for runners. An all-zero T# is unbound: loads
  return zero, stores write nothing.
- **Layout**: linear (the T#'s swizzle-mode bits, which the guide's table does not
  list, must be zero): texel (x, y, z) of a level at the level's offset + ((z * height
  + y) * pitch + x) * bytes_per_texel; level 0 at the base with the T#'s pitch, the
  smaller levels after it, each 256-byte aligned with pitch = its width
  (`ImageDesc.level`: the guide does not define a linear mip chain; radcc's runner
  writes this one). The view is the T#'s base level .. last level: loads, stores and
  the level 0 of sampling are the base level's; ``image_load_mip``/``image_get_resinfo``
  levels count from it.
- **Formats** (`FORMATS`): the uniform-channel formats of Table 52 (8/16/32-bit
  UNORM, SNORM, UINT, SINT, FLOAT; 8-bit SRGB) and the packed ones Vulkan formats map
  to: 2_10_10_10 (UNORM, SNORM, UINT, SINT), 10_11_11_FLOAT, 11_11_10_FLOAT,
  5_6_5_UNORM, 1_5_5_5_UNORM, 5_5_5_1_UNORM, 4_4_4_4_UNORM and 5_9_9_9_FLOAT (three 9-bit
  mantissas, a 5-bit shared exponent). A name lists the channels from the most
  significant bits down: X occupies the least significant ones (2_10_10_10: X bits 0-9,
  Y 10-19, Z 20-29, W 30-31; 10_11_11_FLOAT: X 0-10, Y 11-21, Z 22-31). Source: Mesa's
  src/amd/common/gfx10_format_table.py, which reverses a format name's channel sizes
  ("Keep the bit sizes in little-endian order") to match them to a format's channels
  from bit 0, and maps R11G11B10_FLOAT (R in bits 0-10: Vulkan's B10G11R11_UFLOAT_PACK32)
  to 10_11_11_FLOAT and R9G9B9E5_FLOAT (E5B9G9R9_UFLOAT_PACK32) to 5_9_9_9_FLOAT; so
  A2B10G10R10_*_PACK32 is 2_10_10_10_* and B5G6R5_UNORM_PACK16 5_6_5_UNORM with the
  identity dst_sel, R5G6B5_UNORM_PACK16 5_6_5_UNORM read through dst_sel (Z, Y, X, 1).
  Packed texels are one little-endian 16- or 32-bit word, their channels converted as
  the uniform ones' of the same kind; the unsigned 10- and 11-bit floats (5-bit exponent
  biased 15, 5/6-bit mantissa, no sign; Vulkan spec "Unsigned 11-Bit Floating-Point
  Numbers") load exactly and store rounded to nearest even, negative values and -inf as
  0, finite values beyond the largest (64512 / 65024) as it, +inf as inf, NaN as a NaN;
  5_9_9_9 loads mantissa x 2^(exponent - 24) and stores by the Vulkan spec's "RGB to
  Shared Exponent Conversion" (NaN as 0). Image atomics refuse packed formats by name.
  A load expands the texel to RGBA
  (missing R, G, B read 0, missing A reads 1), converts it as 10.4.1 says (UINT/SINT
  to 32-bit integers, the others to 32-bit float: unorm v / (2^n - 1), snorm
  max(v / (2^(n-1) - 1), -1), sRGB colour channels decoded to linear), applies
  dst_sel, then returns the DMASK-selected components to consecutive VGPRs. A store
  takes the DMASK's components from consecutive VGPRs (the others 0), converts each
  memory channel back (float: round to nearest even; unorm/snorm: clamped, NaN as 0,
  times 2^n - 1 / 2^(n-1) - 1, rounded to nearest even; uint/sint: saturated to the
  channel; sRGB: encoded then unorm) and writes the whole texel.
- **Out of range** (a coordinate beyond the level's width/height/depth, a level beyond
  the view's): the load's memory channels read as zero (then dst_sel: a one-channel
  float format gives (0, 0, 0, 1)), the store is dropped.
- **Sampling** (``image_sample*``, ``image_gather4*``; S# Table 51): `_sample`'s
  docstring (LOD, filters, mip levels, gathers, depth compare).

``image_load``, ``image_load_mip``, ``image_store``, ``image_get_resinfo`` (width,
height, depth or layers of a level, the level count), the sample and gather opcodes of
`_SAMPLE_RE` and ``image_atomic_*`` on 32-bit integer texels (``image_atomic_swap`` also on
32-bit float ones) with dims 1D, 2D, 3D, 2D_ARRAY/1D_ARRAY and 2D_MSAA(_ARRAY) (samples
and gathers also CUBE: the T# type 11, its depth the
faces, 6 per cube; loads and stores address a cube's faces as a 2D_ARRAY) are executed,
loads and samples also as d16 (float formats, 32-bit float ones truncated; loads also of
integer formats of at most 16-bit channels, `_to16`), stores also as d16 (`_widen16`), loads
and stores also as a16 (16-bit uint address components, two per VGPR, `_addr_words`),
``_lz``/``_l`` samples and gathers also as a16 (16-bit float coordinates, an array's
slice and the level, two per VGPR; not cubes); addresses sequential from VADDR or NSA (`_areg`); other a16 forms, tfe/lwe
and every other MIMG opcode are refused (`UnsupportedInstruction`). Loads count on VMcnt, stores on VScnt
(strict mode).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from radcc.emu.atomics import atomic_fn
from radcc.emu.decode import Inst
from radcc.emu.errors import EmuError, UnsupportedInstruction
from radcc.emu.memory import MemFault
from radcc.emu.regs import sread
from radcc.emu.state import Wave

Handler = Callable[[Wave, Inst], None]
U64 = np.uint64


# -- formats (ISA guide Table 52) --------------------------------------------------------
_FORMAT_IDS = {
    1: "8_UNORM", 2: "8_SNORM", 5: "8_UINT", 6: "8_SINT", 7: "16_UNORM", 8: "16_SNORM",
    11: "16_UINT", 12: "16_SINT", 13: "16_FLOAT", 14: "8_8_UNORM", 15: "8_8_SNORM",
    18: "8_8_UINT", 19: "8_8_SINT", 20: "32_UINT", 21: "32_SINT", 22: "32_FLOAT",
    23: "16_16_UNORM", 24: "16_16_SNORM", 27: "16_16_UINT", 28: "16_16_SINT",
    29: "16_16_FLOAT", 42: "8_8_8_8_UNORM", 43: "8_8_8_8_SNORM", 46: "8_8_8_8_UINT",
    47: "8_8_8_8_SINT", 48: "32_32_UINT", 49: "32_32_SINT", 50: "32_32_FLOAT",
    51: "16_16_16_16_UNORM", 52: "16_16_16_16_SNORM", 55: "16_16_16_16_UINT",
    56: "16_16_16_16_SINT", 57: "16_16_16_16_FLOAT", 58: "32_32_32_UINT",
    59: "32_32_32_SINT", 60: "32_32_32_FLOAT", 61: "32_32_32_32_UINT",
    62: "32_32_32_32_SINT", 63: "32_32_32_32_FLOAT", 64: "8_SRGB", 65: "8_8_SRGB",
    66: "8_8_8_8_SRGB",
    # the packed formats Vulkan formats map to (Mesa's gfx10 format table: see the module doc)
    30: "10_11_11_FLOAT", 31: "11_11_10_FLOAT", 36: "2_10_10_10_UNORM",
    37: "2_10_10_10_SNORM", 40: "2_10_10_10_UINT", 41: "2_10_10_10_SINT",
    67: "5_9_9_9_FLOAT", 68: "5_6_5_UNORM", 69: "1_5_5_5_UNORM", 70: "5_5_5_1_UNORM",
    71: "4_4_4_4_UNORM",
}
SHARED_EXPONENT = "5_9_9_9_FLOAT"  # three 9-bit mantissas and their shared 5-bit exponent


@dataclass(frozen=True)
class TexFormat:
    """A memory format: channels of `sizes` bits each, X first from the texel's least
    significant bits (the name lists them from the most significant down, so `sizes` is
    the name's numbers reversed), numeric `kind` (``unorm``, ``snorm``, ``uint``, ``sint``,
    ``float``, ``srgb``). 5_9_9_9_FLOAT's last size is its shared exponent, not a
    channel."""

    id: int
    name: str
    sizes: tuple[int, ...]
    kind: str

    @property
    def channels(self) -> int:
        return len(self.sizes) - (self.name == SHARED_EXPONENT)

    @property
    def bits(self) -> int:
        """The widest channel's bits (a uniform-channel format's channel size)."""
        return max(self.sizes)

    @property
    def packed(self) -> bool:
        """Channels that are not all 8, 16 or 32 bits wide: read from one texel word."""
        return len(set(self.sizes)) > 1 or self.sizes[0] not in (8, 16, 32)

    @property
    def bytes(self) -> int:
        return sum(self.sizes) // 8

    @property
    def integer(self) -> bool:
        return self.kind in ("uint", "sint")


def _parse_format(fid: int, name: str) -> TexFormat:
    m = re.fullmatch(r"((?:\d+_)+)([A-Z]+)", name)
    assert m, name
    sizes = tuple(int(x) for x in reversed(m.group(1).strip("_").split("_")))
    return TexFormat(fid, name, sizes, m.group(2).lower())


FORMATS: dict[int, TexFormat] = {i: _parse_format(i, n) for i, n in _FORMAT_IDS.items()}
FORMAT_BY_NAME: dict[str, TexFormat] = {f.name: f for f in FORMATS.values()}

# T# type field (Table 50)
TYPE_1D, TYPE_2D, TYPE_3D, TYPE_CUBE, TYPE_1D_ARRAY, TYPE_2D_ARRAY = 8, 9, 10, 11, 12, 13
TYPE_2D_MSAA, TYPE_2D_MSAA_ARRAY = 14, 15
# the types whose T# bits 140:128 hold depth-1 or the last layer (not a pitch)
_LAYERED = (TYPE_3D, TYPE_1D_ARRAY, TYPE_2D_ARRAY, TYPE_CUBE, TYPE_2D_MSAA_ARRAY)
SEL_0, SEL_1, SEL_X, SEL_Y, SEL_Z, SEL_W = 0, 1, 4, 5, 6, 7
IDENTITY = (SEL_X, SEL_Y, SEL_Z, SEL_W)


def _bits(v: int, hi: int, lo: int) -> int:
    return v >> lo & ((1 << (hi - lo + 1)) - 1)


@dataclass(frozen=True)
class ImageDesc:
    """The fields of a 256-bit image resource (T#) the texture unit uses."""

    base: int  # byte address (256-aligned)
    format: int  # Table 52 id
    width: int
    height: int
    depth: int = 1  # 3D: depth; arrays: layers
    pitch: int = 0  # row pitch in texels (0: the width)
    dst_sel: tuple[int, int, int, int] = IDENTITY
    type: int = TYPE_2D
    max_mip: int = 0
    base_level: int = 0
    last_level: int = 0

    @property
    def row_pitch(self) -> int:
        return self.pitch or self.width

    @property
    def msaa(self) -> bool:
        return self.type in (TYPE_2D_MSAA, TYPE_2D_MSAA_ARRAY)

    @property
    def samples(self) -> int:
        """The samples per texel: 1 << last level for an MSAA resource (Table 50: max mip
        and last level hold log2 of the sample count there), else 1."""
        return 1 << self.last_level if self.msaa else 1

    @property
    def view_levels(self) -> int:
        """The levels of the resource view: base level .. last level (MSAA: one)."""
        return 1 if self.msaa else max(self.last_level - self.base_level, 0) + 1

    def level(self, m: int) -> tuple[int, int, int, int, int]:
        """(byte offset from the base, width, height, depth or layers, row pitch in
        texels) of the resource's mip level `m` in the runner's linear layout: levels one
        after the other from level 0, each 256-byte aligned, level m's extents
        max(1, extent >> m) (an array's layers do not shrink), rows of level 0 `row_pitch`
        texels apart and of the smaller levels their width (the guide does not define a
        linear mip chain's layout; this is what radcc's runner writes)."""
        fmt = FORMATS[self.format]
        off = 0
        for k in range(m + 1):
            w = max(self.width >> k, 1)
            h = max(self.height >> k, 1) if self.type != TYPE_1D_ARRAY else self.height
            d = max(self.depth >> k, 1) if self.type == TYPE_3D else self.depth
            pitch = self.row_pitch if k == 0 else w
            if k == m:
                return off, w, h, d, pitch
            off += -(-pitch * h * d * fmt.bytes // 256) * 256
        raise AssertionError(m)

    @staticmethod
    def decode(v: int) -> ImageDesc | None:
        """The T# in the 256-bit integer `v` (None: all zero, unbound)."""
        if v == 0:
            return None
        typ = _bits(v, 127, 124)
        width = _bits(v, 75, 62) + 1
        d = _bits(v, 140, 128) | _bits(v, 141, 141) << 13
        depth, pitch = 1, 0
        if typ in _LAYERED:
            depth = _bits(v, 140, 128) + 1
        elif d + 1 > width:
            pitch = d + 1
        return ImageDesc(
            base=_bits(v, 39, 0) << 8, format=_bits(v, 59, 52), width=width,
            height=_bits(v, 91, 78) + 1, depth=depth, pitch=pitch,
            dst_sel=(_bits(v, 98, 96), _bits(v, 101, 99), _bits(v, 104, 102),
                     _bits(v, 107, 105)),
            type=typ, max_mip=_bits(v, 51, 48), base_level=_bits(v, 111, 108),
            last_level=_bits(v, 115, 112))

    def encode(self) -> int:
        """The 256-bit T# (the inverse of `decode`)."""
        if self.base & 0xFF:
            raise ValueError(f"image base {self.base:#x} is not 256-byte aligned")
        v = (self.base >> 8) | self.max_mip << 48 | self.format << 52
        v |= (self.width - 1) << 62 | (self.height - 1) << 78
        for k, s in enumerate(self.dst_sel):
            v |= s << (96 + 3 * k)
        v |= self.base_level << 108 | self.last_level << 112 | self.type << 124
        if self.type in _LAYERED:
            v |= (self.depth - 1) << 128
        elif self.pitch > self.width:
            v |= ((self.pitch - 1) & 0x1FFF) << 128 | ((self.pitch - 1) >> 13 & 1) << 141
        return v


# -- samplers (ISA guide Table 51) ------------------------------------------------------
WRAP, MIRROR, CLAMP_LAST_TEXEL, CLAMP_BORDER = 0, 1, 2, 6
POINT, BILINEAR = 0, 1


@dataclass(frozen=True)
class SamplerDesc:
    """The fields of a 128-bit sampler resource (S#) the texture unit uses."""

    clamp: tuple[int, int, int] = (CLAMP_LAST_TEXEL,) * 3  # x, y, z address modes
    unnormalized: bool = False  # bit 15
    compare_func: int = 0  # 14:12: 0 never, 1 less, 2 equal, 3 lequal, 4 greater, 5 notequal,
    # 6 gequal, 7 always (the reference OP the texel; used by the _c opcodes only)
    lod_bias: int = 0  # 77:64, s6.8 (the raw 14-bit field)
    mag_filter: int = POINT  # 85:84
    min_filter: int = POINT  # 87:86
    mip_filter: int = 0  # 91:90 (0 none)
    min_lod: int = 0  # 43:32, u4.8
    max_lod: int = 0  # 55:44, u4.8
    border_color_type: int = 0  # 127:126: 0 transparent black, 1 opaque black, 2 white

    @property
    def bias(self) -> float:
        """The LOD bias (s6.8) as a number."""
        return ((self.lod_bias ^ 0x2000) - 0x2000) / 256.0

    @staticmethod
    def decode(v: int) -> SamplerDesc:
        return SamplerDesc((_bits(v, 2, 0), _bits(v, 5, 3), _bits(v, 8, 6)),
                           bool(_bits(v, 15, 15)), _bits(v, 14, 12), _bits(v, 77, 64),
                           _bits(v, 85, 84), _bits(v, 87, 86),
                           _bits(v, 91, 90), _bits(v, 43, 32), _bits(v, 55, 44),
                           _bits(v, 127, 126))

    def encode(self) -> int:
        v = self.clamp[0] | self.clamp[1] << 3 | self.clamp[2] << 6
        v |= int(self.unnormalized) << 15 | self.min_lod << 32 | self.max_lod << 44
        v |= self.compare_func << 12 | (self.lod_bias & 0x3FFF) << 64
        v |= self.mag_filter << 84 | self.min_filter << 86 | self.mip_filter << 90
        return v | self.border_color_type << 126


# -- conversions (ISA 10.4.1) ---------------------------------------------------------------
def _srgb_to_linear(c: np.ndarray) -> np.ndarray:
    c = c.astype(np.float64)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _linear_to_srgb(x: np.ndarray) -> np.ndarray:
    x = np.clip(np.nan_to_num(x.astype(np.float64), nan=0.0), 0.0, 1.0)
    return np.where(x <= 0.0031308, x * 12.92, 1.055 * x ** (1 / 2.4) - 0.055)


def _fields(fmt: TexFormat, raw: np.ndarray) -> list[np.ndarray]:
    """Texel bytes [n, fmt.bytes] -> each field of `fmt.sizes` as uint64 [n] (a packed
    format's fields from its little-endian texel word, X in the least significant bits)."""
    n = raw.shape[0]
    raw = np.ascontiguousarray(raw)
    if not fmt.packed:
        dt = {8: np.uint8, 16: np.uint16, 32: np.uint32}[fmt.bits]
        ch = raw.view(dt).reshape(n, fmt.channels).astype(np.uint64)
        return [ch[:, c] for c in range(fmt.channels)]
    word = raw.view({2: np.uint16, 4: np.uint32}[fmt.bytes]).reshape(n).astype(np.uint64)
    out, shift = [], 0
    for b in fmt.sizes:
        out.append(word >> U64(shift) & U64((1 << b) - 1))
        shift += b
    return out


def _join(fmt: TexFormat, fields: list[np.ndarray]) -> np.ndarray:
    """The inverse of `_fields`: one uint64 [n] per field of `fmt.sizes` -> texel bytes."""
    n = len(fields[0])
    if not fmt.packed:
        dt = {8: np.uint8, 16: np.uint16, 32: np.uint32}[fmt.bits]
        return np.stack([f.astype(dt) for f in fields], axis=1).view(np.uint8).reshape(
            n, fmt.bytes)
    word, shift = np.zeros(n, dtype=np.uint64), 0
    for b, f in zip(fmt.sizes, fields, strict=True):
        word |= (f.astype(np.uint64) & U64((1 << b) - 1)) << U64(shift)
        shift += b
    wt = {2: np.uint16, 4: np.uint32}[fmt.bytes]
    return word.astype(wt).view(np.uint8).reshape(n, fmt.bytes)


# 5_9_9_9_FLOAT (Vulkan spec, "Shared Exponent to RGB" and "RGB to Shared Exponent
# Conversion"): N mantissa bits, exponent bias B, largest exponent Emax
_SE_N, _SE_B, _SE_EMAX = 9, 15, 31


def _small_float_decode(u: np.ndarray, b: int) -> np.ndarray:
    """An unsigned 10- or 11-bit float field (5-bit exponent biased 15, b - 5 mantissa
    bits, no sign: Vulkan spec "Unsigned 11-Bit/10-Bit Floating-Point Numbers") as float32:
    float16's layout without its sign and with the mantissa's low 15 - b bits cut off."""
    return (u << U64(15 - b)).astype(np.uint16).view(np.float16).astype(np.float32)


def _small_float_encode(f: np.ndarray, b: int) -> np.ndarray:
    """float32 [n] -> the unsigned b-bit float field (Vulkan spec, the same sections):
    rounded to the nearest representable value (ties to even), negative values and -inf to
    0, finite values beyond the largest finite one to it, +inf to inf, NaN to a NaN."""
    m = b - 5
    x = f.astype(np.float64)
    nan, inf = np.isnan(x), x == np.inf
    top = (2.0 - 2.0 ** -m) * 2.0 ** 15  # the largest finite value
    x = np.clip(np.nan_to_num(x, nan=0.0, posinf=0.0, neginf=0.0), 0.0, top)
    e = np.frexp(x)[1] - 1  # x in [2^e, 2^(e+1))
    q = np.exp2((np.maximum(e, -14) - m).astype(np.float64))  # the spacing there
    x = np.minimum(np.rint(x / q) * q, top)
    v = (x.astype(np.float16).view(np.uint16) >> np.uint16(15 - b)).astype(np.uint64)
    v = np.where(inf, U64(31 << m), v)
    return np.where(nan, U64(31 << m | 1 << (m - 1)), v)


def _shared_exp_decode(fields: list[np.ndarray]) -> list[np.ndarray]:
    scale = np.exp2(fields[3].astype(np.float64) - (_SE_B + _SE_N))
    return [(fields[c].astype(np.float64) * scale).astype(np.float32) for c in range(3)]


def _shared_exp_encode(rgb: list[np.ndarray]) -> list[np.ndarray]:
    """float32 R, G, B -> the 9-bit mantissas and the shared exponent (Vulkan spec "RGB to
    Shared Exponent Conversion"; NaN as 0)."""
    top = (2 ** _SE_N - 1) / 2 ** _SE_N * 2.0 ** (_SE_EMAX - _SE_B)
    c = [np.clip(np.nan_to_num(x.astype(np.float64), nan=0.0), 0.0, top) for x in rgb]
    mx = np.maximum(np.maximum(c[0], c[1]), c[2])
    flog = np.where(mx > 0, np.frexp(mx)[1] - 1, -_SE_B - 1)  # floor(log2(max))
    e = np.maximum(-_SE_B - 1, flog) + 1 + _SE_B
    ms = np.floor(mx / np.exp2((e - _SE_B - _SE_N).astype(np.float64)) + 0.5)
    e = np.where(ms < 2 ** _SE_N, e, e + 1)
    scale = np.exp2((e - _SE_B - _SE_N).astype(np.float64))
    return [np.floor(x / scale + 0.5).astype(np.uint64) for x in c] + [e.astype(np.uint64)]


def unpack_texels(fmt: TexFormat, raw: np.ndarray) -> np.ndarray:
    """Texel bytes [n, fmt.bytes] -> RGBA as 32-bit words [n, 4] (float bits for
    float/normalized formats, integers for UINT/SINT), missing channels 0, 0, 0, 1."""
    n = raw.shape[0]
    kind = fmt.kind
    fields = _fields(fmt, raw)
    out = np.zeros((n, 4), dtype=np.uint32)
    one = np.uint32(1) if fmt.integer else np.float32(1.0).view(np.uint32)
    out[:, 3] = one
    if fmt.name == SHARED_EXPONENT:
        for c, x in enumerate(_shared_exp_decode(fields)):
            out[:, c] = x.view(np.uint32)
        return out
    for c in range(fmt.channels):
        u, b = fields[c], fmt.sizes[c]
        if kind == "uint":
            w = u.astype(np.uint32)
        elif kind == "sint":
            s = u.astype(np.int64)
            s = np.where(s >= 1 << (b - 1), s - (1 << b), s)
            w = s.astype(np.int32).view(np.uint32)
        elif kind == "float":
            if b == 32:
                w = u.astype(np.uint32)
            elif b == 16:
                w = u.astype(np.uint16).view(np.float16).astype(np.float32).view(np.uint32)
            else:
                w = _small_float_decode(u, b).view(np.uint32)
        elif kind == "unorm" or (kind == "srgb" and c == 3):
            w = (u.astype(np.float32) / np.float32((1 << b) - 1)).astype(np.float32) \
                .view(np.uint32)
        elif kind == "srgb":
            lin = _srgb_to_linear(u.astype(np.float64) / 255.0)
            w = lin.astype(np.float32).view(np.uint32)
        elif kind == "snorm":
            s = u.astype(np.int64)
            s = np.where(s >= 1 << (b - 1), s - (1 << b), s)
            f = np.maximum(s.astype(np.float32) / np.float32((1 << (b - 1)) - 1),
                           np.float32(-1.0))
            w = f.astype(np.float32).view(np.uint32)
        else:  # pragma: no cover - FORMATS has no other kinds
            raise AssertionError(kind)
        out[:, c] = w
    return out


def pack_texels(fmt: TexFormat, rgba: np.ndarray) -> np.ndarray:
    """RGBA 32-bit words [n, 4] -> texel bytes [n, fmt.bytes] (see the module doc)."""
    kind = fmt.kind
    if fmt.name == SHARED_EXPONENT:
        rgb = [rgba[:, c].astype(np.uint32).view(np.float32) for c in range(3)]
        return _join(fmt, _shared_exp_encode(rgb))
    fields = []
    for c in range(fmt.channels):
        b = fmt.sizes[c]
        maxu = (1 << b) - 1
        w = rgba[:, c].astype(np.uint32)
        if kind == "uint":
            v = np.minimum(w.astype(np.uint64), maxu)
        elif kind == "sint":
            s = np.clip(w.view(np.int32).astype(np.int64), -(1 << (b - 1)), (1 << (b - 1)) - 1)
            v = s & maxu
        elif kind == "float":
            if b == 32:
                v = w
            elif b == 16:
                v = w.view(np.float32).astype(np.float16).view(np.uint16)
            else:
                v = _small_float_encode(w.view(np.float32), b)
        else:
            f = w.view(np.float32).astype(np.float64)
            f = np.nan_to_num(f, nan=0.0)
            if kind == "snorm":
                s = np.rint(np.clip(f, -1.0, 1.0) * ((1 << (b - 1)) - 1)).astype(np.int64)
                v = s & maxu
            else:
                if kind == "srgb" and c < 3:
                    f = _linear_to_srgb(f)
                v = np.rint(np.clip(f, 0.0, 1.0) * maxu).astype(np.uint64)
        fields.append(np.asarray(v).astype(np.uint64))
    return _join(fmt, fields)


def apply_dst_sel(fmt: TexFormat, rgba: np.ndarray, sel: tuple[int, int, int, int]
                  ) -> np.ndarray:
    out = np.zeros_like(rgba)
    one = np.uint32(1) if fmt.integer else np.float32(1.0).view(np.uint32)
    for k, s in enumerate(sel):
        if s == SEL_1:
            out[:, k] = one
        elif SEL_X <= s <= SEL_W:
            out[:, k] = rgba[:, s - SEL_X]
        # 0 and the reserved selects give 0
    return out


# -- MIMG ----------------------------------------------------------------------------------
# the MIMG dim field: (name, address components of image_load/store, T# types it may use)
_DIMS = {0: ("1D", 1), 1: ("2D", 2), 2: ("3D", 3), 4: ("1D_ARRAY", 2), 5: ("2D_ARRAY", 3),
         6: ("2D_MSAA", 3), 7: ("2D_MSAA_ARRAY", 4)}


def _texel_addrs(w: Wave, i: Inst, desc: ImageDesc, fmt: TexFormat, ncoord: int,
                 lanes: np.ndarray, level: np.ndarray | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(byte addresses, in-range mask) of the lanes' texels, of the view's level `level`
    (per lane, relative to the T#'s base level; None: the base level). A multisampled
    image's address ends with the sample index (fragid); its samples lie one after the
    other within each texel (radcc's linear MSAA layout, docs/abi.md)."""
    coords = _addr_words(w, i, ncoord, lanes)
    x = coords[0]
    y = coords[1] if ncoord > 1 else np.zeros_like(x)
    z = coords[2] if ncoord > 2 else np.zeros_like(x)
    frag = np.zeros_like(x)
    dim = i.aux["dim"]
    if dim == "1D_ARRAY":
        y, z = np.zeros_like(x), coords[1]
    elif dim == "2D_MSAA":
        z, frag = np.zeros_like(x), coords[2]
    elif dim == "2D_MSAA_ARRAY":
        frag = coords[3]
    lev = np.zeros(len(lanes), np.int64) if level is None else level
    ok = (lev >= 0) & (lev < desc.view_levels)
    off, lw, lh, ld, lp = _level_table(desc, np.where(ok, lev, 0))
    ok &= (x < lw) & (y < lh) & (z < ld) & (frag < desc.samples)
    idx = ((z * lh + y) * lp + x) * desc.samples + frag
    addrs = U64(desc.base) + (off + np.where(ok, idx, 0) * fmt.bytes).astype(U64)
    return addrs, ok


def _addr_words(w: Wave, i: Inst, n: int, lanes: np.ndarray) -> list[np.ndarray]:
    """The first `n` address components of an image instruction without a sampler (uint):
    one per VGPR from VADDR, or with a16 16-bit ones two per VGPR, low half first (ISA
    10.1 "A16": 16-bit uint for image ops without a sampler)."""
    if i.f.get("a16"):
        return [(w.v[_areg(i.f, k // 2), lanes] >> (16 * (k % 2)) & 0xFFFF).astype(np.int64)
                for k in range(n)]
    return [w.v[_areg(i.f, k), lanes].astype(np.int64) for k in range(n)]


def _areg(f: dict, k: int) -> int:
    """The VGPR of address dword `k`: VADDR + k, or with NSA (ISA 10.1 "NSA": the
    instruction's ADDR1..4 fields) the k-th address field."""
    if k and f.get("nsa"):
        reg = f.get(f"vaddr{k}")
        if reg is None:
            raise EmuError(f"NSA image instruction without address field {k}")
        return int(reg)
    return (f["vaddr"] + k) & 255


def _level_table(desc: ImageDesc, lev: np.ndarray) -> tuple[np.ndarray, ...]:
    """(offset, width, height, depth, pitch) per lane of the view's levels `lev`."""
    t = np.array([desc.level(desc.base_level + k) for k in range(desc.view_levels)],
                 dtype=np.int64)
    return tuple(t[lev, k] for k in range(5))


def _desc(w: Wave, i: Inst) -> tuple[ImageDesc | None, TexFormat | None]:
    v = sread(w, i.f["srsrc"], 128 if i.f.get("r128") else 256)
    desc = ImageDesc.decode(v)
    if desc is None:
        return None, None
    fmt = FORMATS.get(desc.format)
    if fmt is None:
        raise EmuError(f"{i.where()}: image format {desc.format} of the T# is not supported "
                       f"by the emulator's texture unit")
    return desc, fmt


def _address(i: np.ndarray, n: int, mode: int) -> tuple[np.ndarray, np.ndarray]:
    """Texel indices `i` of a dimension of `n` texels under address mode `mode`:
    (index in range, in-range mask: False where ClampBorder gives the border)."""
    if mode == WRAP:
        return np.mod(i, n), np.ones(i.shape, bool)
    if mode == MIRROR:
        t = np.mod(i, 2 * n)
        return np.where(t < n, t, 2 * n - 1 - t), np.ones(i.shape, bool)
    if mode == CLAMP_LAST_TEXEL:
        return np.clip(i, 0, n - 1), np.ones(i.shape, bool)
    if mode == CLAMP_BORDER:
        ok = (i >= 0) & (i < n)
        return np.where(ok, i, 0), ok
    raise EmuError(f"sampler address mode {mode} is not supported by the texture unit")


def _fetch(w: Wave, i: Inst, desc: ImageDesc, fmt: TexFormat, idx: list[np.ndarray],
           ok: np.ndarray, lanes: np.ndarray, border: np.ndarray, geo: tuple[np.ndarray, ...]
           ) -> np.ndarray:
    """RGBA words of texels at per-lane indices `idx` (x, y[, z]) of the level `geo`
    (`_level_table`'s per-lane offset, extents, pitch); `border` where not `ok`."""
    x = idx[0]
    y = idx[1] if len(idx) > 1 else np.zeros_like(x)
    z = idx[2] if len(idx) > 2 else np.zeros_like(x)
    off = (z * geo[2] + y) * geo[4] + x
    addrs = U64(desc.base) + (geo[0] + np.where(ok, off, 0) * fmt.bytes).astype(U64)
    raw = np.zeros((len(lanes), fmt.bytes), dtype=np.uint8)
    try:
        raw[ok] = w.memory.gather(addrs[ok], fmt.bytes, lanes[ok])
    except MemFault as e:
        raise EmuError(f"{i.where()}: memory fault: {e}") from None
    out = unpack_texels(fmt, raw)
    out[~ok] = border
    return out


# the depth compare functions of the S# (reference OP texel)
_COMPARE: dict[int, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    0: lambda r, t: np.zeros(r.shape, bool), 1: np.less, 2: np.equal, 3: np.less_equal,
    4: np.greater, 5: np.not_equal, 6: np.greater_equal,
    7: lambda r, t: np.ones(r.shape, bool)}
MIP_NONE, MIP_POINT, MIP_LINEAR = 0, 1, 2


@dataclass(frozen=True)
class SampleOp:
    """What a sample or gather instruction asks of the texture unit beyond coordinates."""

    lz: bool = False  # level 0 of the view (_lz)
    offset: tuple[int, ...] = ()  # the texel offsets (_o) of these lanes
    ref: np.ndarray | None = None  # per-lane depth reference (_c)
    gather: int | None = None  # gather4: the component (DMASK's one bit)


def _border(fmt: TexFormat, smp: SamplerDesc) -> np.ndarray:
    one = 1 if fmt.integer else int(np.float32(1.0).view(np.uint32))
    border = {0: (0, 0, 0, 0), 1: (0, 0, 0, one), 2: (one,) * 4}.get(smp.border_color_type,
                                                                      (0, 0, 0, 0))
    return np.array(border, dtype=np.uint32)


def _cube_select(x: np.ndarray, y: np.ndarray, z: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(face, sc, tc, |major axis|) of directions, as ISA 16's V_CUBEID/SC/TC/MA_F32
    select them (z first, then y, then x on ties)."""
    ax, ay, az = np.abs(x), np.abs(y), np.abs(z)
    zmaj = (az >= ax) & (az >= ay)
    ymaj = ~zmaj & (ay >= ax)
    face = np.where(zmaj, np.where(z < 0, 5, 4), np.where(ymaj, np.where(y < 0, 3, 2),
                                                          np.where(x < 0, 1, 0)))
    sc = np.where(zmaj, np.where(z < 0, -x, x), np.where(ymaj, x, np.where(x < 0, z, -z)))
    tc = np.where(zmaj, -y, np.where(ymaj, np.where(y < 0, -z, z), -y))
    ma = np.where(zmaj, az, np.where(ymaj, ay, ax))
    return face, sc, tc, ma


def _cube_direction(face: np.ndarray, sc: np.ndarray, tc: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The direction (major axis component +-1) of face coordinates sc, tc (the inverse of
    `_cube_select`)."""
    one = np.ones_like(sc)
    x = np.select([face == 0, face == 1, face == 5], [one, -one, -sc], sc)
    y = np.select([face == 2, face == 3], [one, -one], -tc)
    z = np.select([face == 0, face == 1, face == 2, face == 3, face == 4],
                  [-sc, sc, tc, -tc, one], -one)
    return x, y, z


def _cube_edge(face: np.ndarray, ix: np.ndarray, iy: np.ndarray, n: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Seamless cube filtering: texel (ix, iy) of `face` (n x n per lane), at most one of them one
    texel outside the face, as the adjacent face's texel (face, x, y): the texel centre's
    direction beyond the edge, its face selected again (the Vulkan spec's "Cube Map Edge
    Handling": the texel across the edge)."""
    sc = (ix + 0.5) / n * 2 - 1
    tc = (iy + 0.5) / n * 2 - 1
    f2, s2, t2, ma = _cube_select(*_cube_direction(face, sc, tc))
    x2 = np.clip(np.floor((s2 / ma + 1) / 2 * n), 0, n - 1).astype(np.int64)
    y2 = np.clip(np.floor((t2 / ma + 1) / 2 * n), 0, n - 1).astype(np.int64)
    return f2, x2, y2


def _cube_texels(ix: np.ndarray, iy: np.ndarray, n: np.ndarray, slice_: np.ndarray,
                 face: np.ndarray, texels: Callable[[list[np.ndarray], np.ndarray], np.ndarray],
                 integer: bool) -> np.ndarray:
    """The texels (ix, iy) of the lanes' cube faces (n x n), read through `texels` (x, y,
    layer): beyond an edge the adjacent face's (`_cube_edge`), beyond a corner the average
    of the three texels meeting there (float formats; integer ones take the face's own
    corner texel)."""
    ox, oy = (ix < 0) | (ix >= n), (iy < 0) | (iy >= n)
    cx, cy = np.clip(ix, 0, n - 1), np.clip(iy, 0, n - 1)
    ok = np.ones(len(ix), bool)

    def on(f: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return texels([x, y, slice_ * 6 + f], ok)

    t = on(face, cx, cy)
    edge = ox ^ oy
    if edge.any():
        t = np.where(edge[:, None], on(*_cube_edge(face, ix, iy, n)), t)
    both = ox & oy
    if both.any() and not integer:
        a = on(*_cube_edge(face, ix, cy, n)).view(np.float32).astype(np.float64)
        b = on(*_cube_edge(face, cx, iy, n)).view(np.float32).astype(np.float64)
        avg = ((t.view(np.float32).astype(np.float64) + a + b) / 3).astype(np.float32)
        t = np.where(both[:, None], avg.view(np.uint32), t)
    return t


def _sample(w: Wave, i: Inst, lanes: np.ndarray, desc: ImageDesc, fmt: TexFormat,
            smp: SamplerDesc, coords: list[np.ndarray], lod: np.ndarray, op: SampleOp,
            layer: np.ndarray | None = None, cube: bool = False) -> np.ndarray:
    """Filtered RGBA (float words; integer formats unfiltered) of each lane, or a
    gather's 4 texels' component; with a reference, the compared texels (1.0 where the
    reference passes the S#'s compare function against the texel's R, else 0.0) instead
    of R, filtered (percentage-closer filtering).

    Level of detail (the guide names the S# fields; the selection follows the API's
    rules the hardware implements): lambda = the computed or given LOD + the S#'s bias,
    clamped to [min lod, max lod]; magnification (mag filter) where lambda <= 0, else the
    min filter. The level: the view's base level with mip filter none or _lz; point: the
    nearest, base + ceil(lambda + 0.5) - 1; linear: the two around base + lambda,
    blended by its fraction; both clamped to the view's last level.

    Arrays (`layer`: the body's slice, a float): the layer is the slice rounded to
    nearest even, clamped to the T#'s layers (Vulkan's RNE; ISA 10.1: the UNRM bit does
    not affect the slice). Cubes (`cube`; `layer` is the face id, slice x 8 + face, ISA
    10.3): s and t in [1, 2] span the face (the coordinates `v_cubesc/tc_f32` / |ma| +
    1.5 give), the slice is clamped to the T#'s cubes (its depth counts faces: 6 per
    cube); address modes do not apply: nearest clamps to the face, and the bilinear
    footprint is seamless: a texel beyond an edge is the adjacent face's
    (`_cube_edge`), one beyond a corner the average of the three texels meeting there
    (radcc's model, as OpenGL's seamless cube maps define it; integer formats, which
    are not filtered, take the face's own corner texel in a gather)."""
    nc = len(coords)
    if max(smp.mag_filter, smp.min_filter) > BILINEAR or smp.border_color_type == 3 or \
            smp.mip_filter > MIP_LINEAR:
        raise EmuError(f"{i.where()}: the S#'s anisotropic filters, mip filter 3 and "
                       "border colour pointers are not supported by the texture unit")
    bord = _border(fmt, smp)
    if op.lz:
        lam = np.zeros(len(lanes))
    else:
        lam = lod + smp.bias
    lo, hi = smp.min_lod / 256.0, smp.max_lod / 256.0
    lam = np.clip(lam, lo, max(lo, hi))
    filt = np.where(lam <= 0, smp.mag_filter, smp.min_filter)
    q = desc.view_levels - 1
    dl = np.clip(np.nan_to_num(lam, nan=0.0), 0, q)
    if op.lz or smp.mip_filter == MIP_NONE:
        levels = [(np.zeros(len(lanes), np.int64), np.ones(len(lanes)))]
    elif smp.mip_filter == MIP_POINT or op.gather is not None:
        levels = [(np.minimum(np.ceil(dl + 0.5) - 1, q).astype(np.int64), np.ones(len(lanes)))]
    else:
        d0 = np.floor(dl).astype(np.int64)
        frac = dl - d0
        levels = [(d0, 1.0 - frac), (np.minimum(d0 + 1, q), frac)]
    acc = np.zeros((len(lanes), 4), dtype=np.float64)
    out = np.zeros((len(lanes), 4), dtype=np.uint32)
    for lev, lw in levels:
        geo = _level_table(desc, lev)
        dims = list(geo[1:1 + nc])
        u = []
        for c, n in zip(coords, dims, strict=True):
            f = c.view(np.float32).astype(np.float64)
            u.append(f if smp.unnormalized else f * n)

        def texels(idx: list[np.ndarray], ok: np.ndarray) -> np.ndarray:
            t = _fetch(w, i, desc, fmt, idx, ok, lanes, bord, geo)  # noqa: B023
            if op.ref is not None:
                fn = _COMPARE[smp.compare_func]
                t = t.copy()
                t[:, 0] = np.where(fn(op.ref, t[:, 0].view(np.float32)), np.float32(1.0),
                                   np.float32(0.0)).view(np.uint32)
            return t

        slice_: np.ndarray | None = None
        face_ = np.zeros(len(lanes), np.int64)
        if cube:
            fid = np.rint(np.nan_to_num(layer, nan=0.0)).astype(np.int64)  # type: ignore[arg-type]
            slice_ = np.clip(fid >> 3, 0, max(int(geo[3][0]) // 6, 1) - 1)
            face_ = np.clip(fid & 7, 0, 5)
            u = [x - n for x, n in zip(u, dims, strict=True)]  # s, t in [1, 2]
        elif layer is not None:
            slice_ = np.clip(np.rint(np.nan_to_num(layer, nan=0.0)), 0,
                             geo[3] - 1).astype(np.int64)

        def texel_at(ints: list[np.ndarray], dims: list[np.ndarray] = dims,
                     slice_: np.ndarray | None = slice_, face_: np.ndarray = face_,
                     texels: Callable[[list[np.ndarray], np.ndarray], np.ndarray] = texels
                     ) -> np.ndarray:
            """The texels at integer coordinates `ints` (offsets added): address modes,
            the layer, a cube's faces."""
            if cube:
                assert slice_ is not None
                return _cube_texels(ints[0], ints[1], dims[0], slice_, face_, texels,
                                    fmt.integer)
            idx, ok = [], np.ones(len(lanes), bool)
            for k, t in enumerate(ints):
                a, m = _address(t, dims[k], smp.clamp[k])
                idx.append(a)
                ok &= m
            if slice_ is not None:
                idx += [np.zeros_like(slice_)] * (2 - len(idx)) + [slice_]
            return texels(idx, ok)

        near = filt == POINT
        if cube:
            u = [np.where(near, np.clip(x, 0, n * (1 - 2.0 ** -24)), x)
                 for x, n in zip(u, dims, strict=True)]
        if op.gather is not None:  # ISA 10.1: from the lower-left texel, counter-clockwise
            base = [np.floor(x - 0.5).astype(np.int64) for x in u]
            for k, (cx, cy) in enumerate(((0, 1), (1, 1), (1, 0), (0, 0))):
                ints = [base[a] + bit + (op.offset[a] if a < len(op.offset) else 0)
                        for a, bit in enumerate((cx, cy))]
                tex = apply_dst_sel(fmt, texel_at(ints), desc.dst_sel)
                out[:, k] = tex[:, op.gather]
            return out
        res = np.zeros((len(lanes), 4), dtype=np.float64)
        if fmt.integer and not near.all():
            raise EmuError(f"{i.where()}: linear filtering of an integer format")
        if near.any():
            tex = texel_at([np.floor(x).astype(np.int64) + (
                op.offset[k] if k < len(op.offset) else 0) for k, x in enumerate(u)])
            if fmt.integer:
                out[near] = tex[near]
            else:
                res[near] = tex.view(np.float32).astype(np.float64)[near]
        lin = ~near
        if lin.any():
            base = [np.floor(x - 0.5).astype(np.int64) for x in u]
            frac = [(x - 0.5) - np.floor(x - 0.5) for x in u]
            for corner in range(1 << nc):
                weight = np.ones(len(lanes))
                ints = []
                for k in range(nc):
                    bit = corner >> k & 1
                    ints.append(base[k] + bit + (op.offset[k] if k < len(op.offset) else 0))
                    weight = weight * (frac[k] if bit else 1.0 - frac[k])
                tex = texel_at(ints).view(np.float32)
                res[lin] += (tex.astype(np.float64) * weight[:, None])[lin]
        acc += res * lw[:, None]
    if not fmt.integer:
        out = acc.astype(np.float32).view(np.uint32)
    return apply_dst_sel(fmt, out, desc.dst_sel)


def bind_mimg(i: Inst) -> Handler:
    name = i.name
    f = i.f
    if _SAMPLE_RE.fullmatch(name):
        return _bind_sample(i)
    if name in _ATOMIC_OPS:
        return _bind_atomic(i)
    if name not in ("image_load", "image_load_mip", "image_store", "image_get_resinfo"):
        raise UnsupportedInstruction(f"{i.where()}: {name} is not supported by the "
                                     "emulator's texture unit")
    for flag in ("d16", "a16", "tfe", "lwe"):
        if f.get(flag) and not (flag in ("d16", "a16") and name != "image_get_resinfo"):
            raise UnsupportedInstruction(f"{i.where()}: {flag} image instructions are not "
                                         "supported")
    if f["dim"] not in _DIMS:
        raise UnsupportedInstruction(f"{i.where()}: image dimension {f['dim']} is not "
                                     "supported")
    dim, ncoord = _DIMS[f["dim"]]
    i.aux["dim"] = dim
    dmask = f["dmask"]
    comps = [k for k in range(4) if dmask >> k & 1]
    vdata = f["vdata"]
    mip = name == "image_load_mip"

    if name == "image_get_resinfo":
        def resinfo(w: Wave, i: Inst, lanes: np.ndarray) -> np.ndarray:
            desc, _ = _desc(w, i)
            vals = np.zeros((len(lanes), 4), dtype=np.uint32)
            if desc is not None:
                levels = desc.view_levels
                level = w.v[f["vaddr"], lanes].astype(np.int64)
                ok = level < levels
                _, lw, lh, ld, _ = _level_table(desc, np.where(ok, level, 0))
                vals[:, 0] = np.where(ok, lw, 0)
                vals[:, 1] = np.where(ok, lh, 0)
                vals[:, 2] = np.where(ok, ld, 0)
                vals[:, 3] = levels
            return vals
        return _returning(resinfo, vdata, comps)

    if name in ("image_load", "image_load_mip"):
        def load(w: Wave, i: Inst, lanes: np.ndarray) -> np.ndarray:
            desc, fmt = _desc(w, i)
            if desc is None or fmt is None:
                return np.zeros((len(lanes), 4), dtype=np.uint32)
            else:
                level = _addr_words(w, i, ncoord + 1, lanes)[ncoord] if mip else None
                addrs, ok = _texel_addrs(w, i, desc, fmt, ncoord, lanes, level)
                raw = np.zeros((len(lanes), fmt.bytes), dtype=np.uint8)
                try:
                    raw[ok] = w.memory.gather(addrs[ok], fmt.bytes, lanes[ok])
                except MemFault as e:
                    raise EmuError(f"{i.where()}: memory fault: {e}") from None
                return _to16(i, fmt, apply_dst_sel(fmt, unpack_texels(fmt, raw),
                                                   desc.dst_sel))
        return _returning(load, vdata, comps, bool(f.get("d16")))

    def hs(w: Wave, i: Inst) -> None:
        lanes = np.flatnonzero(w.exec_mask())
        if w.strict is not None:
            w.strict.issue(w, i, ("vs",), (), ())
        if not len(lanes):
            return
        desc, fmt = _desc(w, i)
        if desc is None or fmt is None:
            return
        rgba = np.zeros((len(lanes), 4), dtype=np.uint32)
        for k, c in enumerate(comps):
            if f.get("d16"):  # 16-bit data two per VGPR (ISA 10.4 "D16"), as the format's
                h = w.v[(vdata + k // 2) & 255, lanes] >> (16 * (k % 2)) & 0xFFFF
                rgba[:, c] = _widen16(fmt, h.astype(np.uint32))
            else:
                rgba[:, c] = w.v[(vdata + k) & 255, lanes]
        addrs, ok = _texel_addrs(w, i, desc, fmt, ncoord, lanes)
        data = pack_texels(fmt, rgba)
        try:
            w.memory.scatter(addrs[ok], data[ok], lanes[ok])
        except MemFault as e:
            raise EmuError(f"{i.where()}: memory fault: {e}") from None
    return hs


# image atomics executed: opcode -> radcc.emu.atomics stem
_ATOMIC_OPS = {"image_atomic_swap": "swap", "image_atomic_cmpswap": "cmpswap",
               "image_atomic_add": "add", "image_atomic_sub": "sub",
               "image_atomic_smin": "min_i", "image_atomic_umin": "min_u",
               "image_atomic_smax": "max_i", "image_atomic_umax": "max_u",
               "image_atomic_and": "and", "image_atomic_or": "or", "image_atomic_xor": "xor",
               "image_atomic_inc": "inc", "image_atomic_dec": "dec"}


def _bind_atomic(i: Inst) -> Handler:
    """image_atomic_* (ISA 10.2) on 32-bit integer texels (32_UINT, 32_SINT; swap also on
    32_FLOAT: the bits are exchanged) of 1-D, 2-D, 3-D and 1-D/2-D array images: DATA in
    VDATA (cmpswap: the new value, then the compare value; dmask 0x1, 0x3 for cmpswap),
    applied lane after lane in lane order; with glc the texel's old value returns to
    VDATA (VMcnt), without it the atomic counts on VScnt. Out of range coordinates (or an
    unbound T#) change nothing and return zero."""
    f = i.f
    for flag in ("d16", "a16", "tfe", "lwe"):
        if f.get(flag):
            raise UnsupportedInstruction(f"{i.where()}: {flag} image instructions are not "
                                         "supported")
    if f["dim"] not in _DIMS:
        raise UnsupportedInstruction(f"{i.where()}: image atomics of dimension {f['dim']} "
                                     "are not supported")
    dim, ncoord = _DIMS[f["dim"]]
    i.aux["dim"] = dim
    stem = _ATOMIC_OPS[i.name]
    cmp = stem == "cmpswap"
    if f["dmask"] != (0x3 if cmp else 0x1):
        raise UnsupportedInstruction(f"{i.where()}: {i.name} with dmask {f['dmask']:#x} is "
                                     "not supported (32-bit texels only)")
    fn = atomic_fn(stem, 32)
    vdata = f["vdata"]
    rtn = bool(f.get("glc"))
    dests = tuple((vdata + k) & 255 for k in range(2 if cmp else 1)) if rtn else ()

    def h(w: Wave, i: Inst) -> None:
        lanes = np.flatnonzero(w.exec_mask())
        if w.strict is not None:
            w.strict.issue(w, i, ("vm" if rtn else "vs",), dests, ())
        if not len(lanes):
            return
        data = w.v[vdata & 255, lanes].astype(np.int64)
        data2 = w.v[(vdata + 1) & 255, lanes].astype(np.int64) if cmp else None
        old = np.zeros(len(lanes), dtype=np.uint32)
        desc, fmt = _desc(w, i)
        if desc is not None and fmt is not None:
            if fmt.packed:
                raise EmuError(f"{i.where()}: {i.name} on a {fmt.name} image (a packed "
                               "format: the texture unit's atomics take 32-bit integer "
                               "texels)")
            if fmt.bytes != 4 or not (fmt.integer or stem == "swap"):
                raise EmuError(f"{i.where()}: {i.name} on a {fmt.name} image (the texture "
                               "unit's atomics take 32-bit integer texels; swap any 32-bit "
                               "texel)")
            addrs, ok = _texel_addrs(w, i, desc, fmt, ncoord, lanes)
            try:
                for k in np.flatnonzero(ok):
                    a, ln = addrs[k:k + 1], lanes[k:k + 1]
                    o = int(w.memory.gather(a, 4, ln)[0].view(np.uint32)[0])
                    new = fn(o, int(data[k]), 0 if data2 is None else int(data2[k]))
                    w.memory.scatter(a, np.array([new], dtype=np.uint32).view(np.uint8)
                                     .reshape(1, 4), ln)
                    old[k] = o
            except MemFault as e:
                raise EmuError(f"{i.where()}: memory fault: {e}") from None
        if rtn:
            w.v[vdata & 255, lanes] = old
    return h


# the sample and gather opcodes executed: image_{sample,gather4}[_c][_d|_l|_lz|_b][_o]
_SAMPLE_RE = re.compile(r"image_(sample|gather4)(_c)?(_d|_l|_lz|_b)?(_o)?")


def _bind_sample(i: Inst) -> Handler:
    """image_sample[_c][_lz|_l|_d|_b][_o] and image_gather4[_c][_lz|_l|_b][_o] (ISA 10.3,
    10.4: address { offset } { bias } { z-compare } { derivatives } { body } { lod }).
    The implicit level is a pixel quad's: the derivatives are the coordinates of the
    quad's lanes 1 and 2 minus lane 0's (whatever their EXEC: the program keeps them in
    whole-quad mode), scaled by the image's size (unless unnormalized), the level log2 of
    the longer one, plus the bias. A gather returns the DMASK component (one bit) of the
    4 texels of the bilinear footprint to 4 VGPRs (`_sample`)."""
    f = i.f
    for flag in ("tfe", "lwe"):
        if f.get(flag):
            raise UnsupportedInstruction(f"{i.where()}: {flag} image instructions are not "
                                         "supported")
    m = _SAMPLE_RE.fullmatch(i.name)
    assert m is not None
    gather, compare, kind, has_off = m.group(1) == "gather4", bool(m.group(2)), \
        (m.group(3) or "_i")[1:], bool(m.group(4))
    a16 = bool(f.get("a16"))
    if a16 and kind not in ("lz", "l"):
        raise UnsupportedInstruction(f"{i.where()}: a16 {i.name} is not supported (16-bit "
                                     "gradients, bias or implicit levels)")
    if f["dim"] not in ((1, 3, 5) if gather else (0, 1, 2, 3, 4, 5)):
        raise UnsupportedInstruction(f"{i.where()}: image dimension {f['dim']} is not "
                                     f"supported for {'gathers' if gather else 'sampling'}")
    if gather and (kind == "d" or f["dmask"] not in (1, 2, 4, 8)):
        raise UnsupportedInstruction(f"{i.where()}: {i.name} with dmask {f['dmask']:#x}")
    if a16 and f["dim"] == 3:  # (a cube's face id: the hardware's a16 rule is not known)
        raise UnsupportedInstruction(f"{i.where()}: a16 {i.name} of image dimension "
                                     f"{f['dim']} is not supported")
    cube = f["dim"] == 3
    # the body's spatial coordinates (offsets, derivatives, the level's scale), then a
    # slice (arrays) or face id (cubes)
    nc, layered = {0: (1, False), 1: (2, False), 2: (3, False), 3: (2, True),
                   4: (1, True), 5: (2, True)}[f["dim"]]
    comps = [0, 1, 2, 3] if gather else [k for k in range(4) if f["dmask"] >> k & 1]
    component = f["dmask"].bit_length() - 1 if gather else None
    vdata = f["vdata"]

    def sample(w: Wave, i: Inst, lanes: np.ndarray) -> np.ndarray:
        desc, fmt = _desc(w, i)
        if desc is None or fmt is None:
            return np.zeros((len(lanes), 4), dtype=np.uint32)
        if f.get("d16") and fmt.integer:
            raise EmuError(f"{i.where()}: d16 sampling of integer format {fmt.name} is not "
                           "supported by the texture unit")
        smp = SamplerDesc.decode(sread(w, f["ssamp"], 128))
        r = 0  # the address dword
        offset: tuple[int, ...] = ()
        if has_off:
            word = w.v[_areg(f, r), lanes]
            words = np.unique(word)
            if len(words) > 1:  # per-lane offsets (a gather's Offset): each group of lanes
                out = np.zeros((len(lanes), 4), dtype=np.uint32)
                for u in words:
                    out[word == u] = sample(w, i, lanes[word == u])
                return out
            wd = int(word[0])
            offset = tuple(((wd >> (8 * k) & 0x3F) ^ 0x20) - 0x20 for k in range(nc))
            r += 1
        lod = np.zeros(len(lanes))
        bias = np.zeros(len(lanes))
        if kind == "b":
            bias = w.v[_areg(f, r), lanes].view(np.float32).astype(np.float64)
            r += 1
        ref = None
        if compare:
            ref = w.v[_areg(f, r), lanes].view(np.float32)
            r += 1
        base = _level_table(desc, np.zeros(1, np.int64))
        dims = [int(x[0]) for x in base[1:1 + nc]]
        scale = [1 if smp.unnormalized else n for n in dims]
        if kind in ("i", "b"):
            q = lanes & ~3
            full = [w.v[_areg(f, r + k)].view(np.float32).astype(np.float64)
                    for k in range(nc)]
            sx = [(c[q + 1] - c[q]) * scale[k] for k, c in enumerate(full)]
            sy = [(c[q + 2] - c[q]) * scale[k] for k, c in enumerate(full)]
            rho = np.maximum(np.sqrt(sum(x * x for x in sx)), np.sqrt(sum(y * y for y in sy)))
            with np.errstate(divide="ignore"):
                lod = np.log2(rho) + bias
        if kind == "d":
            g = [w.v[_areg(f, r + k), lanes].view(np.float32).astype(np.float64)
                 for k in range(2 * nc)]
            sx = [g[k] * scale[k] for k in range(nc)]
            sy = [g[nc + k] * scale[k] for k in range(nc)]
            rho = np.maximum(np.sqrt(sum(x * x for x in sx)), np.sqrt(sum(y * y for y in sy)))
            with np.errstate(divide="ignore"):
                lod = np.log2(rho)
            r += 2 * nc
        if a16:  # the body's components are 16-bit floats, two per VGPR, low half first
            body = [(w.v[_areg(f, r + k // 2), lanes] >> (16 * (k % 2)) & 0xFFFF)
                    .astype(np.uint16).view(np.float16).astype(np.float32).view(np.uint32)
                    for k in range(nc + layered + (kind == "l"))]
        else:
            body = [w.v[_areg(f, r + k), lanes]
                    for k in range(nc + layered + (kind == "l"))]
        coords = body[:nc]
        layer = body[nc].view(np.float32).astype(np.float64) if layered else None
        if kind == "l":
            lod = body[nc + layered].view(np.float32).astype(np.float64)
        if cube and smp.unnormalized:
            raise EmuError(f"{i.where()}: unnormalized coordinates of a cube map")
        return _to16(i, fmt, _sample(w, i, lanes, desc, fmt, smp, coords, lod,
                                     SampleOp(kind == "lz", offset, ref, component), layer,
                                     cube))
    return _returning(sample, vdata, comps, bool(f.get("d16")))


def _returning(compute: Callable[[Wave, Inst, np.ndarray], np.ndarray], vdata: int,
               comps: list[int], d16: bool = False) -> Handler:
    """The handler of an image instruction that returns data: it issues to strict mode
    (the vm counter, VDATA's registers), asks `compute` for the active lanes' four
    components (uint32, lanes x 4; with d16 already 16-bit, `_to16`) and writes the
    dmask's components to VDATA. With d16 (ISA 10.4 "D16") two go to a VGPR, low half
    first; a last odd one writes the low half and keeps the high half."""
    nv = (len(comps) + 1) // 2 if d16 else len(comps)
    dests = tuple((vdata + k) & 255 for k in range(nv))

    def h(w: Wave, i: Inst) -> None:
        lanes = np.flatnonzero(w.exec_mask())
        if w.strict is not None:
            w.strict.issue(w, i, ("vm",), dests, ())
        if not len(lanes) or not comps:
            return
        vals = compute(w, i, lanes)
        if not d16:
            for k, c in enumerate(comps):
                w.v[(vdata + k) & 255, lanes] = vals[:, c]
            return
        for k, c in enumerate(comps):
            half = vals[:, c] & 0xFFFF
            r = (vdata + k // 2) & 255
            old = w.v[r, lanes]
            w.v[r, lanes] = (old & 0xFFFF0000) | half if k % 2 == 0 else \
                (old & 0xFFFF) | (half << 16)
    return h


def _to16(i: Inst, fmt: TexFormat, vals: np.ndarray) -> np.ndarray:
    """A read's four components (uint32 columns) as a d16 instruction returns them (ISA
    10.4.1, "If D16==1"; unchanged without d16): a float, normalized or sRGB format's as
    16-bit floats, a 32-bit float format's truncated (toward zero), the others' rounded to
    nearest even (ISA 9.3.1, the D16 variants: "Conversion of float32 to float16 uses
    truncation; conversion of other input data formats uses round-to-nearest-even"; also
    for a filtered sample of 32-bit float texels), an integer format's as 16-bit integers: its
    channels of at most 16 bits fit (the low 16 bits of the zero- or sign-extended value,
    the ``ushort or sshort`` of the guide's table); the guide does not say how a 32-bit
    integer channel narrows, so that is refused."""
    if not i.f.get("d16"):
        return vals
    if not fmt.integer:
        f = vals.view(np.float32)
        with np.errstate(over="ignore"):
            h = f.astype(np.float16)
        if fmt.kind == "float" and fmt.bits == 32:  # toward zero where RNE rounded away
            with np.errstate(invalid="ignore"):
                away = np.abs(h.astype(np.float32)) > np.abs(f)
            h = np.where(away, np.nextafter(h, np.float16(0)), h)
        return h.view(np.uint16).astype(np.uint32)
    if fmt.bits > 16:
        raise EmuError(f"{i.where()}: d16 reads of integer format {fmt.name} are not "
                       "supported by the texture unit (32-bit channels)")
    return vals & 0xFFFF


def _widen16(fmt: TexFormat, h: np.ndarray) -> np.ndarray:
    """16-bit store data as the 32-bit word the conversion to `fmt` takes: a 16-bit float
    for float, normalized and sRGB formats, else a 16-bit uint (zero-extended) or sint
    (sign-extended) as the format's numeric type (ISA 10.1 "D16": the data is treated as
    float or int by the format; the widening of integers is radcc's model)."""
    if fmt.kind == "uint":
        return h
    if fmt.kind == "sint":
        return h.astype(np.uint16).view(np.int16).astype(np.int32).view(np.uint32)
    return h.astype(np.uint16).view(np.float16).astype(np.float32).view(np.uint32)


BINDERS: dict[str, Callable[[Inst], Handler]] = {"MIMG": bind_mimg}
