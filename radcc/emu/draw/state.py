"""The fixed-function state of one draw, as the lavapipe reference runner sets it
(docs/draw.md; the interface file lvp_draw's "exact Vulkan state"): framebuffer size,
topology, culling, facing, polygon mode, the colour attachments' format and clear value,
depth, blending. Typed values only: the CLI and the library parse strings into them.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

import numpy as np

from radcc.abi import graphics

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
    """A colour attachment format of the interface (`--color`) as the output merger
    stores it: the compiler's format (`radcc.abi.graphics.ColorFormat`: name, Vulkan
    format, export format) and, derived from its Vulkan format, the channels, the
    storage dtype and the numeric kind."""

    format: graphics.ColorFormat
    channels: int
    dtype: np.dtype
    kind: Kind

    @property
    def name(self) -> str:
        return self.format.text

    @property
    def vk(self) -> str:
        return self.format.vulkan

    @classmethod
    def of(cls, f: graphics.ColorFormat) -> ColorFormat:
        layout, numeric = f.vulkan.split("_", 1)
        bits = [int(b) for b in re.findall(r"[RGBA](\d+)", layout)]
        kind = {"UNORM": Kind.UNORM, "SFLOAT": Kind.FLOAT, "UINT": Kind.UINT,
                "SINT": Kind.SINT}[numeric]
        char = {Kind.UNORM: "u", Kind.FLOAT: "f", Kind.UINT: "u", Kind.SINT: "i"}[kind]
        return cls(f, len(bits), np.dtype(f"{char}{bits[0] // 8}"), kind)


# the interface's --color formats (the lavapipe runner's)
COLOR_FORMATS: dict[str, ColorFormat] = {
    n: ColorFormat.of(graphics.ColorFormat.parse(n))
    for n in ("rgba8", "rgba32f", "rgba16f", "rgba32ui", "rgba32i", "r32f", "r32ui")}


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
