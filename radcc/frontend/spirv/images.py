"""Image types (``OpTypeImage``) as radcc reads them, and which of them it supports.

`image_type` decodes the operands the reader keeps for ``OpTypeImage`` (a `TypeOther`):
sampled type, Dim, Depth, Arrayed, MS, Sampled (1: used with a sampler, 2: a storage
image) and the image format, plus the access qualifier. `unsupported` names what radcc
does not handle yet (the validator refuses it with the type's word offset): every
dimension but 2D and 3D, arrayed and multisampled images, and storage image formats
outside `STORAGE_FORMATS` (the formats the emulator's texture unit and ``radcc run
--image`` both know). Sampled images (``texture2D``, Sampled 1; depth images too: their
Dref sampling and gathers compare with the sampler's compare function) are supported
for fetches, queries, sampling and gathers.
"""

from __future__ import annotations

from dataclasses import dataclass

from .types import TypeOther

# the SPIR-V image formats radcc accepts on a storage image ("Unknown": no format
# qualifier, the format comes from the descriptor)
STORAGE_FORMATS = frozenset({
    "Unknown", "Rgba32f", "Rg32f", "R32f", "Rgba16f", "R16f", "Rgba8", "R8", "Rgba8ui",
    "Rgba32ui", "R32ui", "Rgba32i", "R32i",
})
SUPPORTED_DIMS = frozenset({"2D", "3D"})


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
    def dim_name(self) -> str:
        """The dimension as error messages name it: ``2D``, ``Cube arrayed`` ..."""
        return self.dim + (" arrayed" if self.arrayed else "") + (
            " multisampled" if self.multisampled else "")


def image_type(t: TypeOther) -> ImageType:
    """The fields of an ``OpTypeImage`` the reader kept as a `TypeOther`."""
    ops = t.operands
    access = ops[7].name if len(ops) > 7 else None
    return ImageType(int(ops[0].value), ops[1].name, int(ops[2].value), bool(ops[3].value),
                     bool(ops[4].value), int(ops[5].value), ops[6].name, access)


def unsupported(img: ImageType) -> str | None:
    """Why radcc cannot compile an image of this type (None: it can)."""
    if img.dim not in SUPPORTED_DIMS or img.arrayed or img.multisampled:
        return f"image dimension {img.dim_name} is not supported"
    if img.sampled != 2:
        return None  # a sampled image (texture2D ...): its format is the descriptor's
    if img.format not in STORAGE_FORMATS:
        return f"storage image format {img.format} is not supported"
    return None
