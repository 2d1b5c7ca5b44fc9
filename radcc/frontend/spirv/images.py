"""Image types (``OpTypeImage``) as radcc reads them, and which of them it supports.

`image_type` decodes the operands the reader keeps for ``OpTypeImage`` (a `TypeOther`):
sampled type, Dim, Depth, Arrayed, MS, Sampled (1: used with a sampler, 2: a storage
image) and the image format, plus the access qualifier. `unsupported` names what radcc
does not handle yet (the validator refuses it with the type's word offset): every
dimension but 1D, 2D, 3D, Cube and Buffer (texel buffers), arrayed images but 1D, 2D and
Cube ones, multisampled images but 2-D ones (arrayed or not), and
storage image formats outside `STORAGE_FORMATS` (the formats the emulator's texture
unit knows: the uniform-channel ones of ``radcc run --image`` and, through the Python
API's images, the other uniform-channel ones and the packed `PACKED_FORMATS` Rgb10A2,
Rgb10a2ui and R11fG11fB10f, on which image atomics are refused). Sampled images (``texture2D``, Sampled 1; depth
images too: their Dref sampling and gathers compare with the sampler's compare function)
are supported for fetches, queries, sampling and gathers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .types import TypeOther

# the packed storage formats (Vulkan's A2B10G10R10 unorm/uint and B10G11R11 ufloat: the
# texture unit's 2_10_10_10_UNORM/UINT and 10_11_11_FLOAT; through the Python API's images
# only): no image atomics on them
PACKED_FORMATS = frozenset({"Rgb10A2", "Rgb10a2ui", "R11fG11fB10f"})
# the SPIR-V image formats radcc accepts on a storage image ("Unknown": no format
# qualifier, the format comes from the descriptor)
STORAGE_FORMATS = frozenset({
    "Unknown", "Rgba32f", "Rg32f", "R32f", "Rgba16f", "R16f", "Rgba8", "R8", "Rgba8ui",
    "Rgba32ui", "R32ui", "Rgba32i", "R32i", "R16ui", "R16i", "Rgba16ui", "Rgba16i",
    "Rg8", "Rg8ui", "R8ui",
    # the other uniform-channel formats of the texture unit (ISA Table 52): through the
    # Python API's images (`radcc.emu.api.Image`); lvp_run's FORMAT names lack them
    "Rgba16", "Rg16", "R16", "Rgba16Snorm", "Rg16Snorm", "R16Snorm", "Rgba8Snorm",
    "Rg8Snorm", "R8Snorm", "Rg16f", "Rg16ui", "Rg16i", "Rg32ui", "Rg32i", "Rgba8i", "Rg8i",
    "R8i",
    *PACKED_FORMATS,
})
SUPPORTED_DIMS = frozenset({"1D", "2D", "3D", "Cube", "Buffer"})
ARRAYED_DIMS = frozenset({"1D", "2D", "Cube"})  # the dimensions supported arrayed
# a texel offset as the MIMG ``_o`` forms take it in their first address VGPR (ISA guide
# 10.4): 6 bits of each of x, y[, z], two's complement, at bits 0, 8[, 16]; built from
# constants by `radcc.isel.image` and at run time by `radcc.frontend.spirv_to_mir.images`
TEXEL_OFFSET_MASK = 0x3F
TEXEL_OFFSET_STRIDE = 8


def packed_texel_offset(offset: tuple[int, ...] | list[int]) -> int:
    """The offset word of constant component offsets (each wrapped to 6 bits)."""
    word = 0
    for k, o in enumerate(offset):
        word |= (int(o) & TEXEL_OFFSET_MASK) << (TEXEL_OFFSET_STRIDE * k)
    return word


@dataclass(frozen=True)
class ImageType:
    sampled_type: int  # type id of the texel components (float, int, uint)
    dim: str  # "1D", "2D", "3D", "Cube", "Rect", "Buffer", "SubpassData"
    depth: int  # 0 not a depth image, 1 depth, 2 unknown
    arrayed: bool
    multisampled: bool
    sampled: int  # 0 unknown, 1 used with a sampler, 2 storage image
    format: str  # "Rgba8", "R32f" ... or "Unknown"
    access: str | None = None  # kernel access qualifier (not used by Vulkan)

    @property
    def storage(self) -> bool:
        return self.sampled == 2

    @property
    def texel_buffer(self) -> bool:
        """A uniform (Sampled 1) or storage (Sampled 2) texel buffer: its descriptor is a
        buffer resource (V#), not an image's T#."""
        return self.dim == "Buffer"

    @property
    def mir_dim(self) -> str:
        """The dimension as the MIR's image ops and `ImageBinding` name it: the Dim, with
        ``MS`` appended for a multisampled image and ``Array`` for an arrayed one
        (``2DArray``, ``2DMS``, ``2DMSArray``)."""
        return self.dim + ("MS" if self.multisampled else "") + (
            "Array" if self.arrayed else "")

    @property
    def coordinate_dims(self) -> int:
        """Components of an address in the image, without the array layer: a cube's is a
        3-D direction (the gradients and offsets have as many; SPIR-V spec 3.14)."""
        return {"1D": 1, "2D": 2, "3D": 3, "Cube": 3, "Rect": 2, "Buffer": 1}.get(self.dim, 2)

    @property
    def dim_name(self) -> str:
        """The dimension as error messages name it: ``2D``, ``Cube arrayed`` ..."""
        return self.dim + (" arrayed" if self.arrayed else "") + (
            " multisampled" if self.multisampled else "")


def format_channels(fmt: str) -> int | None:
    """The channels of a SPIR-V image format (``R32f`` 1, ``Rg16`` 2, ``Rgba8`` 4 ...);
    None for ``Unknown`` (the descriptor's format decides)."""
    m = re.match(r"(R|Rg|Rgb|Rgba)(?=\d)", fmt)
    if m is None:
        return None
    rest = fmt[m.end():]  # R11fG11fB10f, Rgb10A2: the later channels are capitals
    return len(m.group(1)) + sum(rest.count(c) for c in "GBA")


def image_type(t: TypeOther) -> ImageType:
    """The fields of an ``OpTypeImage`` the reader kept as a `TypeOther`."""
    ops = t.operands
    access = ops[7].name if len(ops) > 7 else None
    return ImageType(int(ops[0].value), ops[1].name, int(ops[2].value), bool(ops[3].value),
                     bool(ops[4].value), int(ops[5].value), ops[6].name, access)


def unsupported(img: ImageType) -> str | None:
    """Why radcc cannot compile an image of this type (None: it can)."""
    if img.dim not in SUPPORTED_DIMS or (img.multisampled and img.dim != "2D") or (
            img.arrayed and img.dim not in ARRAYED_DIMS):
        return f"image dimension {img.dim_name} is not supported"
    if img.sampled != 2:
        return None  # a sampled image (texture2D ...): its format is the descriptor's
    if img.format not in STORAGE_FORMATS:
        return f"storage image format {img.format} is not supported"
    return None
