"""The fixed-function state of one draw, as the lavapipe reference runner sets it
(docs/draw.md; the interface file lvp_draw's "exact Vulkan state"): framebuffer size,
topology, culling, facing, polygon mode, the colour attachments' format and clear value,
depth, blending. Typed values only: the CLI and the library parse strings into them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

__all__ = ["ColorFormat", "CullMode", "DrawError", "DrawState", "FrontFace", "PolygonMode",
           "Topology", "COLOR_FORMATS", "MAX_SIZE"]

MAX_SIZE = 16384  # framebuffer width/height limit (lavapipe's maxFramebufferWidth/Height)


class DrawError(Exception):
    """A draw the pipeline cannot run as asked (bad state, inputs that do not match)."""


class Topology(enum.Enum):
    TRIANGLE_LIST = "triangle-list"
    TRIANGLE_STRIP = "triangle-strip"
    TRIANGLE_FAN = "triangle-fan"
    LINE_LIST = "line-list"
    LINE_STRIP = "line-strip"
    POINT_LIST = "point-list"

    @property
    def vertices(self) -> int:
        """Vertices per primitive."""
        return {"triangle": 3, "line": 2, "point": 1}[self.value.split("-")[0]]


class CullMode(enum.Enum):
    NONE = "none"
    BACK = "back"
    FRONT = "front"


class FrontFace(enum.Enum):
    CCW = "ccw"
    CW = "cw"


class PolygonMode(enum.Enum):
    FILL = "fill"
    LINE = "line"


class Kind(enum.Enum):
    UNORM = "unorm"
    FLOAT = "float"
    UINT = "uint"
    SINT = "sint"

    @property
    def is_float(self) -> bool:
        """Takes float fragment outputs (float and unorm formats)."""
        return self in (Kind.UNORM, Kind.FLOAT)


@dataclass(frozen=True)
class ColorFormat:
    """A colour attachment format of the interface (`--color`)."""

    name: str
    vk: str  # the Vulkan format
    channels: int
    dtype: np.dtype
    kind: Kind


COLOR_FORMATS: dict[str, ColorFormat] = {f.name: f for f in (
    ColorFormat("rgba8", "R8G8B8A8_UNORM", 4, np.dtype(np.uint8), Kind.UNORM),
    ColorFormat("rgba32f", "R32G32B32A32_SFLOAT", 4, np.dtype(np.float32), Kind.FLOAT),
    ColorFormat("rgba16f", "R16G16B16A16_SFLOAT", 4, np.dtype(np.float16), Kind.FLOAT),
    ColorFormat("rgba32ui", "R32G32B32A32_UINT", 4, np.dtype(np.uint32), Kind.UINT),
    ColorFormat("rgba32i", "R32G32B32A32_SINT", 4, np.dtype(np.int32), Kind.SINT),
    ColorFormat("r32f", "R32_SFLOAT", 1, np.dtype(np.float32), Kind.FLOAT),
    ColorFormat("r32ui", "R32_UINT", 1, np.dtype(np.uint32), Kind.UINT),
)}


@dataclass(frozen=True)
class DrawState:
    """Everything fixed-function about a draw. The clear colour is four numbers: floats
    for float/unorm formats, integers for integer formats."""

    width: int
    height: int
    topology: Topology = Topology.TRIANGLE_LIST
    color: ColorFormat = COLOR_FORMATS["rgba8"]
    clear: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    depth: bool = False
    blend: bool = False
    cull: CullMode = CullMode.NONE
    front_face: FrontFace = FrontFace.CCW
    polygon: PolygonMode = PolygonMode.FILL

    def __post_init__(self) -> None:
        for what, v in (("width", self.width), ("height", self.height)):
            if not 1 <= v <= MAX_SIZE:
                raise DrawError(f"framebuffer {what} {v} is not in 1..{MAX_SIZE}")
        if self.blend and not self.color.kind.is_float:
            raise DrawError(f"blending needs a float or unorm colour format, not "
                            f"{self.color.name}")
