"""The typed shader stage (radcc.abi.stage) against ACO's named pairs (aco_ir.h,
"possible settings of Program::stage") and its README's stage tables."""

from __future__ import annotations

import pytest

from radcc.abi.stage import (
    COMPUTE_CS,
    FRAGMENT_FS,
    NAMED_STAGES,
    HWStage,
    StageError,
    SWStage,
    parse_stage,
)
from radcc.ir.parser import parse_program
from radcc.ir.printer import print_program
from radcc.target import GfxLevel

# ACO's name -> (software stages, hardware stage), written from aco_ir.h and the README
ACO = {
    "compute_cs": ({"CS"}, "CS"), "fragment_fs": ({"FS"}, "PS"),
    "vertex_vs": ({"VS"}, "VS"), "tess_eval_vs": ({"TES"}, "VS"),
    "gs_copy_vs": ({"GS_COPY"}, "VS"), "task_cs": ({"TS"}, "CS"),
    "mesh_ngg": ({"MS"}, "NGG"), "vertex_ngg": ({"VS"}, "NGG"),
    "vertex_geometry_ngg": ({"VS", "GS"}, "NGG"), "tess_eval_ngg": ({"TES"}, "NGG"),
    "tess_eval_geometry_ngg": ({"TES", "GS"}, "NGG"),
    "vertex_geometry_gs": ({"VS", "GS"}, "GS"), "vertex_tess_control_hs": ({"VS", "TCS"}, "HS"),
    "tess_eval_geometry_gs": ({"TES", "GS"}, "GS"), "vertex_ls": ({"VS"}, "LS"),
    "vertex_es": ({"VS"}, "ES"), "tess_control_hs": ({"TCS"}, "HS"),
    "tess_eval_es": ({"TES"}, "ES"), "geometry_gs": ({"GS"}, "GS"),
    "raytracing_cs": ({"RT"}, "CS"),
}


def test_named_stages_are_acos_pairs():
    assert set(NAMED_STAGES) == set(ACO)
    for name, (sw, hw) in ACO.items():
        st = NAMED_STAGES[name]
        assert {m.name for m in SWStage if m and st.has(m)} == sw, name
        assert st.hw is HWStage[hw] and st.name == name
        assert st.num_sw_stages == len(sw)
        assert parse_stage(name) is st


@pytest.mark.parametrize(("gfx", "present", "absent"), [
    # GFX6-8: every SW stage on its own HW stage, legacy GS + VS
    (GfxLevel.GFX8, {"vertex_vs", "vertex_ls", "vertex_es", "tess_control_hs", "tess_eval_es",
                     "geometry_gs", "gs_copy_vs", "tess_eval_vs", "compute_cs", "fragment_fs"},
     {"vertex_tess_control_hs", "vertex_geometry_gs", "vertex_ngg", "mesh_ngg"}),
    # GFX9 merges LS+HS and ES+GS; no NGG yet
    (GfxLevel.GFX9, {"vertex_tess_control_hs", "vertex_geometry_gs", "tess_eval_geometry_gs",
                     "vertex_vs", "gs_copy_vs"},
     {"vertex_ls", "vertex_es", "tess_eval_es", "vertex_ngg"}),
    # GFX10.3: legacy and NGG both
    (GfxLevel.GFX10_3, {"vertex_vs", "vertex_geometry_gs", "vertex_ngg", "tess_eval_ngg",
                        "vertex_geometry_ngg", "mesh_ngg", "task_cs"},
     {"vertex_ls", "vertex_es"}),
    # GFX11: NGG only (no legacy GS/VS)
    (GfxLevel.GFX11, {"vertex_ngg", "vertex_tess_control_hs", "tess_eval_ngg",
                      "vertex_geometry_ngg", "tess_eval_geometry_ngg", "mesh_ngg", "task_cs",
                      "compute_cs", "fragment_fs"},
     {"vertex_vs", "tess_eval_vs", "gs_copy_vs", "vertex_geometry_gs", "geometry_gs"}),
])
def test_stages_per_generation(gfx, present, absent):
    for n in present:
        assert NAMED_STAGES[n].supported_on(gfx), n
    for n in absent:
        assert not NAMED_STAGES[n].supported_on(gfx), n


def test_ir_text_names():
    # a software stage with one hardware stage is written by its software name
    assert COMPUTE_CS.text == "compute" and FRAGMENT_FS.text == "fragment"
    assert parse_stage("compute") is COMPUTE_CS and parse_stage("fragment") is FRAGMENT_FS
    assert NAMED_STAGES["vertex_ngg"].text == "vertex_ngg"
    with pytest.raises(StageError, match="unknown shader stage 'vertex'"):
        parse_stage("vertex")  # VS runs on LS, ES, HS, GS, VS or NGG: ambiguous
    for text in ("compute_cs", "vertex_ngg", "vertex_tess_control_hs"):
        p = parse_program(f"program gfx1100 wave32 {text}\nBB0\n"
                          "/* logical preds: / linear preds: / kind: top-level, */\n"
                          "   s_endpgm\n")
        assert p.stage is parse_stage(text)
        assert print_program(p).split("\n")[0] == f"program gfx1100 wave32 {p.stage.text}"
