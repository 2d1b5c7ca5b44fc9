"""A pixel shader's colour attachment formats and their exports (`ColorFormat`,
`ExportFormat`): what ``radcc compile --color``, ``radcc draw`` and `radcc.compile`
take and what isel's fragment exports and the graphics code object record. Kept apart
from `radcc.abi.graphics` (which re-exports them) so that a compute compile, whose
command line and entry points name the default format, does not load the graphics ABI
(issue 14, start-up).
"""

from __future__ import annotations

import enum

__all__ = ["DEFAULT_COLOR_FORMAT", "ColorFormat", "ExportFormat"]


class ExportFormat(enum.IntEnum):
    """How a pixel shader exports one colour target (SPI_SHADER_COL_FORMAT's 4-bit fields,
    AMD's register reference; the register holds one per MRT). ACO's
    ``export_fs_mrt_color`` (aco_instruction_selection.cpp) selects the export per format."""

    ZERO = 0  # nothing exported
    R32 = 1  # 32_R: red, 32 bits
    GR32 = 2  # 32_GR: red and green
    AR32 = 3  # 32_AR: red and alpha
    FP16_ABGR = 4  # four halves packed in two VGPRs (v_cvt_pk_rtz_f16_f32)
    UNORM16_ABGR = 5  # v_cvt_pk_norm_u16_f32
    SNORM16_ABGR = 6  # v_cvt_pk_norm_i16_f32
    UINT16_ABGR = 7  # v_cvt_pk_u16_u32
    SINT16_ABGR = 8  # v_cvt_pk_i16_i32
    ABGR32 = 9  # 32_ABGR: four 32-bit channels


class ColorFormat(enum.Enum):
    """A colour attachment's format (the names of the graphics reference runner's
    ``--color``, plus the 16-bit normalised/integer ones): the Vulkan format, its
    component type (what the shader's output must be) and the export format RADV
    chooses for it (``ac_choose_spi_color_formats``, the "normal" choice: 8-bit unorm
    and 16-bit float as FP16_ABGR, 16-bit unorm/snorm/int as the packed 16-bit forms,
    32-bit as many 32-bit channels as the format has)."""

    RGBA8 = ("rgba8", "R8G8B8A8_UNORM", "float", ExportFormat.FP16_ABGR)
    RGBA16F = ("rgba16f", "R16G16B16A16_SFLOAT", "float", ExportFormat.FP16_ABGR)
    RGBA16 = ("rgba16", "R16G16B16A16_UNORM", "float", ExportFormat.UNORM16_ABGR)
    RGBA16_SNORM = ("rgba16_snorm", "R16G16B16A16_SNORM", "float", ExportFormat.SNORM16_ABGR)
    RGBA16UI = ("rgba16ui", "R16G16B16A16_UINT", "uint", ExportFormat.UINT16_ABGR)
    RGBA16I = ("rgba16i", "R16G16B16A16_SINT", "int", ExportFormat.SINT16_ABGR)
    RGBA32F = ("rgba32f", "R32G32B32A32_SFLOAT", "float", ExportFormat.ABGR32)
    RGBA32UI = ("rgba32ui", "R32G32B32A32_UINT", "uint", ExportFormat.ABGR32)
    RGBA32I = ("rgba32i", "R32G32B32A32_SINT", "int", ExportFormat.ABGR32)
    RG32F = ("rg32f", "R32G32_SFLOAT", "float", ExportFormat.GR32)
    R32F = ("r32f", "R32_SFLOAT", "float", ExportFormat.R32)
    R32UI = ("r32ui", "R32_UINT", "uint", ExportFormat.R32)
    R32I = ("r32i", "R32_SINT", "int", ExportFormat.R32)

    def __init__(self, text: str, vulkan: str, base: str, export: ExportFormat) -> None:
        self.text = text
        self.vulkan = vulkan
        self.base = base
        self.export = export

    @classmethod
    def parse(cls, text: str) -> ColorFormat:
        for f in cls:
            if f.text == text:
                return f
        raise ValueError(f"unknown colour format {text!r} (one of "
                         f"{', '.join(f.text for f in cls)})")


DEFAULT_COLOR_FORMAT = ColorFormat.RGBA8
