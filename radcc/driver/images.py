"""Image arguments of a compiled shader: the formats ``radcc run --image`` accepts
(those of lvp_run, the lavapipe reference runner, named as there, with its defaults and
checks; and `DECLARED_ONLY`, three formats lvp_run does not have that public density
and shading-rate map shaders declare, accepted only for a storage image declared with
that format),
how an array and a format name become an emulator image (`radcc.emu.api.Image`, or
`radcc.emu.api.TexelBuffer` for a texel buffer binding, given as a `(N,)`/`(N, C)` array: the
texture unit's format and the T#'s destination swizzle, as a Vulkan driver sets it for
the VkFormat), and the checks that name the binding when an image does not fit the
shader (shape, dtype, format, the shader's sampled type and declared format).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from radcc.emu.api import Image, TexelBuffer
from radcc.emu.texture import (
    BILINEAR,
    CLAMP_BORDER,
    CLAMP_LAST_TEXEL,
    MIRROR,
    POINT,
    SEL_0,
    SEL_1,
    SEL_W,
    SEL_X,
    SEL_Y,
    SEL_Z,
    WRAP,
    SamplerDesc,
)
from radcc.frontend.mir import ImageBinding

Key = tuple[int, int]


class ImageArgError(ValueError):
    """An image that does not fit its binding (the message names the binding)."""


@dataclass(frozen=True)
class ImageFormat:
    name: str  # lvp_run's FORMAT name
    dtype: str  # the NumPy dtype of the array
    channels: int  # its last axis (1: the axis may be absent)
    tsharp: str  # the texture unit's format (radcc.emu.texture.FORMAT_BY_NAME)
    numeric: str  # the shader's sampled type it goes with: float, uint, int
    spirv: str | None  # the SPIR-V storage image format of the same VkFormat


FORMATS: dict[str, ImageFormat] = {f.name: f for f in (
    ImageFormat("rgba8", "uint8", 4, "8_8_8_8_UNORM", "float", "Rgba8"),
    ImageFormat("rgba8_srgb", "uint8", 4, "8_8_8_8_SRGB", "float", None),
    ImageFormat("rgba8ui", "uint8", 4, "8_8_8_8_UINT", "uint", "Rgba8ui"),
    ImageFormat("r8", "uint8", 1, "8_UNORM", "float", "R8"),
    ImageFormat("r8ui", "uint8", 1, "8_UINT", "uint", "R8ui"),
    ImageFormat("rg8", "uint8", 2, "8_8_UNORM", "float", "Rg8"),
    ImageFormat("rg8ui", "uint8", 2, "8_8_UINT", "uint", "Rg8ui"),
    ImageFormat("r32f", "float32", 1, "32_FLOAT", "float", "R32f"),
    ImageFormat("rg32f", "float32", 2, "32_32_FLOAT", "float", "Rg32f"),
    ImageFormat("rgba32f", "float32", 4, "32_32_32_32_FLOAT", "float", "Rgba32f"),
    ImageFormat("rgba16f", "float16", 4, "16_16_16_16_FLOAT", "float", "Rgba16f"),
    ImageFormat("r16f", "float16", 1, "16_FLOAT", "float", "R16f"),
    ImageFormat("r32ui", "uint32", 1, "32_UINT", "uint", "R32ui"),
    ImageFormat("rgba32ui", "uint32", 4, "32_32_32_32_UINT", "uint", "Rgba32ui"),
    ImageFormat("r32i", "int32", 1, "32_SINT", "int", "R32i"),
    ImageFormat("rgba32i", "int32", 4, "32_32_32_32_SINT", "int", "Rgba32i"),
)}
# formats lvp_run does not list: only for a storage image the shader declares with the
# format (KhronosGroup/Vulkan-Samples' fragment density and shading-rate map shaders:
# tests/e2e/images/README.md), then also its default for the array's dtype and C
DECLARED_ONLY = frozenset({"r8ui", "rg8", "rg8ui"})
# (dtype, channels) -> the default format (lvp_run's)
DEFAULTS: dict[tuple[str, int], str] = {
    ("uint8", 4): "rgba8", ("uint8", 1): "r8", ("float32", 1): "r32f",
    ("float32", 2): "rg32f", ("float32", 4): "rgba32f", ("float16", 4): "rgba16f",
    ("float16", 1): "r16f", ("uint32", 1): "r32ui", ("uint32", 4): "rgba32ui",
    ("int32", 1): "r32i", ("int32", 4): "rgba32i",
}
# the destination swizzle of a format with this many channels (missing: 0, alpha 1)
_DST_SEL = {1: (SEL_X, SEL_0, SEL_0, SEL_1), 2: (SEL_X, SEL_Y, SEL_0, SEL_1),
            4: (SEL_X, SEL_Y, SEL_Z, SEL_W)}


def image_format(arr: np.ndarray, fmt: str | None, dims: int, where: str,
                 declared: str | None = None) -> ImageFormat:
    """The format of `arr` as a `dims`-D image: `fmt` (checked against the array) or the
    default for its dtype and channel count. `where` names the binding (``--image 0:1``);
    `declared` is the SPIR-V format a storage image binding declares (a `DECLARED_ONLY`
    format is accepted, and the default, only for its own declaration)."""
    if arr.ndim not in (dims, dims + 1):
        shape = {1: "(N,) or (N, C)", 2: "(H, W) or (H, W, C)",
                 4: "(L, H, W, S) or (L, H, W, S, C)"}.get(
            dims, "(D, H, W) or (D, H, W, C) (multisampled: (H, W, S[, C]))")
        what = "a texel buffer" if dims == 1 else f"a {dims}-axis image"
        raise ImageArgError(f"{where}: the array has shape {arr.shape}: {what} is {shape}")
    if min(arr.shape, default=0) < 1:
        raise ImageArgError(f"{where}: the array has shape {arr.shape}: empty")
    c = arr.shape[-1] if arr.ndim == dims + 1 else 1
    dt = arr.dtype.newbyteorder("=").name if arr.dtype.byteorder in "<=|" else ""
    own = next((f for f in FORMATS.values() if f.name in DECLARED_ONLY and
                f.spirv == declared), None)
    if fmt is None:
        if own is not None and (own.dtype, own.channels) == (dt, c):
            return own
        name = DEFAULTS.get((dt, c))
        if name is None:
            raise ImageArgError(f"{where}: no image format for {arr.dtype} arrays with {c} "
                                f"channel(s) (formats: " + ", ".join(
                                    f"{d}x{n}" for d, n in DEFAULTS) + ")")
        return FORMATS[name]
    f = FORMATS.get(fmt)
    if f is None or (f.name in DECLARED_ONLY and f is not own):
        extra = (f" ({fmt} only for a storage image the shader declares {f.spirv})"
                 if f is not None else "")
        raise ImageArgError(f"{where}: unknown image format '{fmt}' (formats: "
                            f"{', '.join(n for n in FORMATS if n not in DECLARED_ONLY)})"
                            + extra)
    if f.dtype != dt or f.channels != c:
        raise ImageArgError(f"{where}: format {fmt} needs a {f.dtype} array with "
                            f"{f.channels} channel(s), got {arr.dtype} with {c}")
    return f


def check_binding(f: ImageFormat, img: ImageBinding, where: str) -> None:
    """The format must suit the shader's image: its sampled type, and a storage image's
    declared format qualifier."""
    if f.numeric != img.sampled_type:
        raise ImageArgError(f"{where}: format {f.name} holds {f.numeric} texels but the "
                            f"shader's image has {img.sampled_type} ones")
    if img.storage and img.format != "Unknown" and f.spirv != img.format:
        raise ImageArgError(f"{where}: the shader declares the image's format {img.format}, "
                            f"not {f.name}")


def emu_image(arr: np.ndarray, f: ImageFormat, dim: str, where: str = "image"
              ) -> Image | TexelBuffer:
    """The emulator's image argument for `arr` in format `f` as the binding's MIR dim
    `dim` (``2D``, ``2DArray`` ...) takes it: a texel buffer (``Buffer``) of `(N,)` or
    `(N, C)` elements, its V# as RADV builds a buffer view's; arrays with the layers
    first; a cube (array) as the 2-D array of its faces, `(6 x cubes, H, W[, C])`,
    +X, -X, +Y, -Y, +Z, -Z per cube (Vulkan's layer order); a multisampled image
    (``2DMS``, ``2DMSArray``) `([L,] H, W, S[, C])` with S samples."""
    a = np.ascontiguousarray(arr)
    if dim == "Buffer":
        return TexelBuffer(a, f.tsharp, _DST_SEL[f.channels])
    if dim.startswith("2DMS"):  # ([L,] H, W, S[, C]): a texel's samples one after another
        ms_arrayed = dim.endswith("Array")
        return Image(a, f.tsharp, 2, _DST_SEL[f.channels], arrayed=ms_arrayed,
                     samples=a.shape[3 if ms_arrayed else 2])
    arrayed = dim.endswith("Array") or dim == "Cube"
    base = dim.removesuffix("Array")
    if base == "Cube" and (a.shape[0] % 6 or a.shape[1] != a.shape[2]):
        raise ImageArgError(f"{where}: the array has shape {a.shape}: a cube map is (6 x "
                            "cubes, H, W) or (6 x cubes, H, W, C) with H = W")
    n = {"1D": 1, "2D": 2, "3D": 3, "Cube": 2}[base]
    return Image(a, f.tsharp, n, _DST_SEL[f.channels], arrayed=arrayed, cube=base == "Cube")


# --sampler FILTER[,ADDRESS[,NORMALIZED]] (lvp_run's): min = mag filter, U = V = W
# address mode, mipmap mode nearest, minLod = maxLod = 0, border transparent black
FILTERS = {"nearest": POINT, "linear": BILINEAR}
ADDRESSES = {"repeat": WRAP, "mirror": MIRROR, "clamp": CLAMP_LAST_TEXEL,
             "border": CLAMP_BORDER}
DEFAULT_SAMPLER = SamplerDesc()  # nearest, clamp to edge, normalized


def sampler_desc(text: str, where: str) -> SamplerDesc:
    """The S# of ``FILTER[,ADDRESS[,NORMALIZED]]`` (ImageArgError naming `where`)."""
    parts = text.split(",")
    if not 1 <= len(parts) <= 3:
        raise ImageArgError(f"{where}: '{text}' is not FILTER[,ADDRESS[,NORMALIZED]]")
    filt = FILTERS.get(parts[0])
    if filt is None:
        raise ImageArgError(f"{where}: filter '{parts[0]}' (nearest or linear)")
    address = parts[1] if len(parts) > 1 else "clamp"
    mode = ADDRESSES.get(address)
    if mode is None:
        raise ImageArgError(f"{where}: address mode '{address}' (repeat, clamp, mirror or "
                            "border)")
    norm = parts[2] if len(parts) > 2 else "normalized"
    if norm not in ("normalized", "unnormalized"):
        raise ImageArgError(f"{where}: '{norm}' (normalized or unnormalized)")
    if norm == "unnormalized" and address not in ("clamp", "border"):
        raise ImageArgError(f"{where}: unnormalized coordinates need clamp or border "
                            "addressing")
    return SamplerDesc(clamp=(mode,) * 3, unnormalized=norm == "unnormalized",
                       mag_filter=filt, min_filter=filt)
