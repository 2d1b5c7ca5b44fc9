"""Shader stages: the software stage(s) a program implements and the hardware stage it
runs on, as ACO's `Stage` (src/amd/compiler/aco_ir.h: a `SWStage` bit set paired with
an `ac_hw_stage`).

Hardware stages do not match the API's software stages one to one: which software
stage runs on which hardware stage depends on the pipeline and the generation (ACO's
README, "Supported shader stages"). GFX9+ merges LS+HS and ES+GS into one program
each, so a `Stage` may hold two software stages (``vertex_tess_control_hs`` is VS and
TCS on the hardware HS); GFX10+ NGG replaces the legacy hardware GS and VS.

The named stages are the pairs ACO uses (`NAMED_STAGES`): ``compute_cs``, ``fragment_fs``,
``vertex_vs``, ``tess_eval_vs``, ``gs_copy_vs``, ``task_cs``, ``mesh_ngg``, ``vertex_ngg``,
``vertex_geometry_ngg``, ``tess_eval_ngg``, ``tess_eval_geometry_ngg``,
``vertex_geometry_gs``, ``vertex_tess_control_hs``, ``tess_eval_geometry_gs``,
``vertex_ls``, ``vertex_es``, ``tess_control_hs``, ``tess_eval_es``, ``geometry_gs``,
``raytracing_cs``; `Stage.supported_on` says which generations have the hardware stage.

In machine IR text (docs/ir.md) a stage is written by its name, or, when its software
stage runs on one hardware stage on every generation (CS, FS, task, mesh, ray tracing),
by the software stage's name alone: ``compute`` is ``compute_cs``, ``fragment`` is
``fragment_fs`` (`Stage.text`, `parse_stage`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from radcc.target import GfxLevel

__all__ = ["COMPUTE_CS", "FRAGMENT_FS", "NAMED_STAGES", "VERTEX_NGG", "HWStage", "SWStage",
           "Stage", "StageError", "parse_stage"]


class StageError(ValueError):
    """An unknown stage name."""


class SWStage(enum.IntFlag):
    """Shader stages as the API defines them (ACO's `SWStage`); a program may merge several."""

    NONE = 0
    VS = 1 << 0  # vertex
    GS = 1 << 1  # geometry
    TCS = 1 << 2  # tessellation control (D3D hull)
    TES = 1 << 3  # tessellation evaluation (D3D domain)
    FS = 1 << 4  # fragment (D3D pixel)
    CS = 1 << 5  # compute
    TS = 1 << 6  # task
    MS = 1 << 7  # mesh
    RT = 1 << 8  # ray tracing
    GS_COPY = 1 << 9  # the legacy "GS copy" shader on the hardware VS (no API stage)


class HWStage(enum.Enum):
    """Stages as the hardware runs them (Mesa's `ac_hw_stage`, src/amd/common/ac_hw_stage.h).

    `first` and `last` bound the generations that have the stage (ACO's README tables:
    LS and ES only before GFX9, legacy GS/VS until GFX10.3, NGG from GFX10)."""

    LS = ("ls", GfxLevel.GFX6, GfxLevel.GFX8)  # local shader: VS before tessellation
    HS = ("hs", GfxLevel.GFX6, GfxLevel.GFX12)  # hull shader (merged LS+HS on GFX9+)
    ES = ("es", GfxLevel.GFX6, GfxLevel.GFX8)  # export shader: the stage before a GS
    GS = ("gs", GfxLevel.GFX6, GfxLevel.GFX10_3)  # legacy geometry (merged ES+GS on GFX9+)
    VS = ("vs", GfxLevel.GFX6, GfxLevel.GFX10_3)  # legacy hardware VS: the last before PS
    NGG = ("ngg", GfxLevel.GFX10, GfxLevel.GFX12)  # next-generation geometry
    PS = ("ps", GfxLevel.GFX6, GfxLevel.GFX12)  # pixel shader
    CS = ("cs", GfxLevel.GFX6, GfxLevel.GFX12)  # compute shader

    def __init__(self, short: str, first: GfxLevel, last: GfxLevel) -> None:
        self.short = short
        self.first = first
        self.last = last

    def __repr__(self) -> str:
        return f"HWStage.{self.name}"


@dataclass(frozen=True)
class Stage:
    """The software stage(s) a program implements and the hardware stage it runs on."""

    sw: SWStage
    hw: HWStage

    def has(self, sw: SWStage) -> bool:
        """Does the program include software stage `sw`?"""
        return bool(self.sw & sw)

    @property
    def num_sw_stages(self) -> int:
        return self.sw.bit_count()

    @property
    def is_compute(self) -> bool:
        """Runs on the hardware compute stage (compute, task, ray tracing)."""
        return self.hw is HWStage.CS

    @property
    def name(self) -> str:
        """ACO's name of the pair (``compute_cs``, ``vertex_ngg`` ...)."""
        return _NAMES[self]

    @property
    def text(self) -> str:
        """The machine IR spelling (module docstring)."""
        return _SHORT.get(self, self.name)

    def supported_on(self, gfx: GfxLevel) -> bool:
        """Does generation `gfx` have the hardware stage (and, for the merged stages, the
        merge: GFX9+ for LS+HS and ES+GS)?"""
        if not self.hw.first <= gfx <= self.hw.last:
            return False
        merged = self.num_sw_stages > 1 and self.hw in (HWStage.HS, HWStage.GS)
        return not merged or gfx >= GfxLevel.GFX9

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Stage({self.name})"


def _s(sw: SWStage, hw: HWStage) -> Stage:
    return Stage(sw, hw)


# the pairs ACO names (aco_ir.h, "possible settings of Program::stage")
NAMED_STAGES: dict[str, Stage] = {
    "vertex_vs": _s(SWStage.VS, HWStage.VS),
    "fragment_fs": _s(SWStage.FS, HWStage.PS),
    "compute_cs": _s(SWStage.CS, HWStage.CS),
    "tess_eval_vs": _s(SWStage.TES, HWStage.VS),
    "gs_copy_vs": _s(SWStage.GS_COPY, HWStage.VS),
    # mesh shading
    "task_cs": _s(SWStage.TS, HWStage.CS),
    "mesh_ngg": _s(SWStage.MS, HWStage.NGG),
    # GFX10+ NGG
    "vertex_ngg": _s(SWStage.VS, HWStage.NGG),
    "vertex_geometry_ngg": _s(SWStage.VS | SWStage.GS, HWStage.NGG),
    "tess_eval_ngg": _s(SWStage.TES, HWStage.NGG),
    "tess_eval_geometry_ngg": _s(SWStage.TES | SWStage.GS, HWStage.NGG),
    # GFX9+ merged (and GFX10 without NGG)
    "vertex_geometry_gs": _s(SWStage.VS | SWStage.GS, HWStage.GS),
    "vertex_tess_control_hs": _s(SWStage.VS | SWStage.TCS, HWStage.HS),
    "tess_eval_geometry_gs": _s(SWStage.TES | SWStage.GS, HWStage.GS),
    # GFX6-8
    "vertex_ls": _s(SWStage.VS, HWStage.LS),
    "vertex_es": _s(SWStage.VS, HWStage.ES),
    "tess_control_hs": _s(SWStage.TCS, HWStage.HS),
    "tess_eval_es": _s(SWStage.TES, HWStage.ES),
    "geometry_gs": _s(SWStage.GS, HWStage.GS),
    # ray tracing
    "raytracing_cs": _s(SWStage.RT, HWStage.CS),
}
_NAMES = {st: n for n, st in NAMED_STAGES.items()}
# software stages that run on one hardware stage whatever the pipeline or generation
_SW_NAMES = {SWStage.CS: "compute", SWStage.FS: "fragment", SWStage.TS: "task",
             SWStage.MS: "mesh", SWStage.RT: "raytracing"}
_SHORT = {st: _SW_NAMES[st.sw] for st in NAMED_STAGES.values() if st.sw in _SW_NAMES}
_BY_TEXT = {**NAMED_STAGES, **{t: st for st, t in _SHORT.items()}}

COMPUTE_CS = NAMED_STAGES["compute_cs"]
FRAGMENT_FS = NAMED_STAGES["fragment_fs"]
VERTEX_NGG = NAMED_STAGES["vertex_ngg"]  # a vertex shader on NGG (radcc.abi.graphics)


def parse_stage(text: str) -> Stage:
    """The stage named `text` (`Stage.name` or `Stage.text`); `StageError` if none."""
    st = _BY_TEXT.get(text)
    if st is None:
        raise StageError(f"unknown shader stage '{text}' (one of "
                         f"{', '.join(sorted(_BY_TEXT))})")
    return st
