"""Smoke test of radcc.oracle.radv: RADV's null device (the real ACO) compiles offline.

Under CI=true a missing radeon ICD (Debian's mesa-vulkan-drivers) fails the test;
locally it skips it. The ACO output is never compared with radcc's here: it is a
reference for engineers (tools/aco_compare.py), not a test expectation.
"""

from __future__ import annotations

import ctypes
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from radcc.oracle import radv
from tests.support.tools import missing

TRIVIAL = """
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { float a[]; };
void main() { uint i = gl_GlobalInvocationID.x; a[i] = a[i] * 2.0 + 1.0; }
"""

SPEC = """
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint K = 1u;
layout(set = 0, binding = 0) buffer A { uint a[]; };
void main() { a[gl_GlobalInvocationID.x] *= K; }
"""


@pytest.fixture(scope="module")
def radeon() -> None:
    if not radv.available():
        missing(f"radeon ICD {radv.RADEON_ICD} not found (Debian package mesa-vulkan-drivers)")


def test_null_device_compiles_a_trivial_shader(glsl, radeon):
    spirv = glsl(TRIVIAL)
    for wave in (64, 32):
        r = radv.compile_compute(spirv, wave_size=wave)
        assert r.asm.strip(), f"wave{wave}: empty disassembly"
        assert "s_endpgm" in r.asm
        assert r.wave_size == wave
        assert "GFX1100" in r.device_name.upper()
        lines = radv.asm_instructions(r.asm)
        assert lines[-1].startswith("s_endpgm")
        assert r.instructions == len(lines)  # ACO's statistic counts the listed instructions
        assert r.code_size > 0 and r.vgprs > 0 and r.sgprs > 0
        assert any(x.startswith("v_") for x in lines)


def test_spec_constants_reach_aco_and_a_batch_shares_one_child(glsl, radeon):
    spirv = glsl(SPEC)
    a, b, bad = radv.compile_many([(spirv, {0: 32, 1: 1}), (spirv, {0: 32, 1: 8}),
                                   (b"not a SPIR-V module", None)], wave_size=32)
    assert isinstance(a, radv.AcoResult) and isinstance(b, radv.AcoResult)
    # K = 1 needs no multiply; K = 8 is a shift by 3 somewhere in the code
    assert len(radv.asm_instructions(a.asm)) < len(radv.asm_instructions(b.asm))
    assert isinstance(bad, radv.RadvError)  # a malformed module fails alone
    assert a.pipeline_cpu_s is None  # not timed unless asked


def test_time_pipelines_measures_a_second_creation(glsl, radeon):
    """bench/bench_aco.py --time: each pipeline once more without capture flags, its CPU
    seconds kept; the statistics are the captured creation's."""
    spirv = glsl(SPEC)
    (r,) = radv.compile_many([(spirv, {0: 32, 1: 8})], wave_size=32, time_pipelines=True)
    assert isinstance(r, radv.AcoResult)
    assert r.pipeline_cpu_s is not None and 0.0 < r.pipeline_cpu_s < 30.0
    assert r.instructions > 0 and "s_endpgm" in r.asm
    # --repeat: the least of three creations' times, the same statistics
    (r3,) = radv.compile_many([(spirv, {0: 32, 1: 8})], wave_size=32, time_pipelines=True,
                              time_repeat=3)
    assert isinstance(r3, radv.AcoResult) and r3.pipeline_cpu_s is not None
    assert 0.0 < r3.pipeline_cpu_s < 30.0 and r3.stats == r.stats and r3.asm == r.asm


def test_asm_instructions_drops_labels_comments_and_padding():
    text = ("BB0:\n\ts_mov_b32 s0, s3 ; be800003\n\tv_mov_b32_e32 v1, 0 ; 7e020280\n"
            "BB1:\n\ts_endpgm ; bfb00000\n\ts_code_end ; bf9f0000\n\ts_code_end\n")
    assert radv.asm_instructions(text) == ["s_mov_b32 s0, s3", "v_mov_b32_e32 v1, 0",
                                           "s_endpgm"]


def test_cli_prints_disassembly_and_statistics(glsl, radeon, tmp_path):
    spv = tmp_path / "t.spv"
    spv.write_bytes(glsl(TRIVIAL))
    p = subprocess.run([sys.executable, "-m", "radcc.oracle.radv", str(spv), "--wave", "32"],
                       capture_output=True, text=True,
                       cwd=Path(__file__).resolve().parents[2])
    assert p.returncode == 0, p.stderr
    assert "s_endpgm" in p.stdout and "; Instructions: " in p.stdout


HEADER = Path("/usr/include/vulkan/vulkan_core.h")


def test_hand_written_structs_match_vulkan_core_h(tmp_path):
    """The VK_KHR_pipeline_executable_properties layouts radv.py declares by hand."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None or not HEADER.exists():
        pytest.skip("needs a C compiler and vulkan_core.h (libvulkan-dev)")
    structs = {
        "VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR":
            radv.VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR,
        "VkPipelineInfoKHR": radv.VkPipelineInfoKHR,
        "VkPipelineExecutablePropertiesKHR": radv.VkPipelineExecutablePropertiesKHR,
        "VkPipelineExecutableInfoKHR": radv.VkPipelineExecutableInfoKHR,
        "VkPipelineExecutableStatisticKHR": radv.VkPipelineExecutableStatisticKHR,
        "VkPipelineExecutableInternalRepresentationKHR":
            radv.VkPipelineExecutableInternalRepresentationKHR,
    }
    lines = ['#include <stdio.h>', '#include <stddef.h>', f'#include "{HEADER}"',
             "int main(void) {"]
    expect = []
    for name, s in structs.items():
        lines.append(f'printf("%zu\\n", sizeof({name}));')
        expect.append(ctypes.sizeof(s))
        for f, _ in s._fields_:
            lines.append(f'printf("%zu\\n", offsetof({name}, {f}));')
            expect.append(getattr(s, f).offset)
    consts = {
        "VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR": radv.VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR,
        "VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR":
            radv.VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR,
        "VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR":
            radv.VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR,
        "VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR":
            radv.VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR,
        "VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR":
            radv.VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR,
        "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR":
            radv.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
        "VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR":
            radv.VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR,
        "VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR":
            radv.VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR,
    }
    for name, val in consts.items():
        lines.append(f'printf("%lld\\n", (long long){name});')
        expect.append(val)
    lines += ["return 0;", "}"]
    src = tmp_path / "layout.c"
    src.write_text("\n".join(lines) + "\n")
    exe = tmp_path / "layout"
    subprocess.run([cc, str(src), "-o", str(exe)], check=True, capture_output=True)
    got = [int(x) for x in subprocess.run([str(exe)], capture_output=True, text=True,
                                          check=True).stdout.split()]
    assert got == expect


@pytest.mark.parametrize("mcpu,family", [("gfx1030", "navi21"), ("gfx1033", "vangogh")])
def test_aco_compare_reports_gfx10_3(mcpu: str, family: str, radeon,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """tools/aco_compare.py --mcpu gfx1030/gfx1033: ACO on RADV's null device forced to
    the chip's family (the device RADV reports names it) against radcc for that chip."""
    import importlib.util

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("aco_compare", root / "tools/aco_compare.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = tool  # its dataclasses look their module up
    try:
        spec.loader.exec_module(tool)
    finally:
        del sys.modules[spec.name]
    assert tool.radv_family(mcpu) == family and tool.radv_family("gfx1100") == "gfx1100"
    rows, errors = tool.run(tool.load_cases(["arith_i32"]), [64], family, None,
                            progress=False, mcpu=mcpu)
    assert not errors and [r.name for r in rows] == ["arith_i32"]
    aco, ours = rows[0].aco, rows[0].radcc
    assert not aco.error and not ours.error, (aco.error, ours.error)
    assert family.upper() in aco.extra["device"].upper().replace(" ", "")
    assert ours.instructions > 0 and aco.instructions > 0
    # radcc's side is gfx1030-family code: GFX10 spellings, no GFX11-only instructions
    assert "global_load_dword" in ours.asm and "s_delay_alu" not in ours.asm


VS_GFX = """
#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in vec3 col;
layout(location = 0) out vec3 vcol;
layout(location = 1) flat out int k;
void main() { gl_Position = vec4(pos, 0.0, 1.0); vcol = col; k = gl_VertexIndex; }
"""
FS_GFX = """
#version 450
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec3 vcol;
layout(location = 1) flat in int k;
layout(location = 0) out vec4 o;
layout(location = 1) out ivec4 oi;
void main() { o = texture(tex, vcol.xy) * vcol.z; oi = ivec4(k); if (k < 0) discard; }
"""


@pytest.mark.parametrize("wave", [64, 32])
def test_graphics_pipeline_has_both_stages(glsl, radeon, wave):
    """A VS + FS pair on the null device: the vertex shader as NGG (primitive and position
    exports, the attribute ring's buffer stores on GFX11), the fragment shader with the
    interpolation and MRT exports the issue names (rgba8: fp16 compressed, ivec4: 32-bit)."""
    vs = glsl(VS_GFX, "vulkan1.3", "vert")
    fs = glsl(FS_GFX, "vulkan1.3", "frag")
    g = radv.compile_graphics(vs, fs, wave_size=wave)
    assert set(g.stages) == {"vertex", "fragment"}
    v, f = g.stages["vertex"], g.stages["fragment"]
    assert v.wave_size == wave and f.wave_size == wave
    vasm, fasm = radv.asm_instructions(v.asm), radv.asm_instructions(f.asm)
    assert any(x.startswith("exp prim") for x in vasm)
    assert any(x.startswith("exp pos0") for x in vasm)
    assert any(x.startswith("buffer_store") for x in vasm)  # the attribute ring
    assert any(x.startswith("lds_param_load") for x in fasm)
    assert any(x.startswith("v_interp_p10_f32") for x in fasm)
    assert any(x.startswith("v_cvt_pk_rtz_f16_f32") for x in fasm)  # rgba8 export
    assert any(x.startswith("exp mrt0") and "done" not in x for x in fasm)
    assert any(x.startswith("exp mrt1") for x in fasm)
    assert v.instructions > 0 and f.code_size > 0 and f.vgprs > 0
    # rgba32f outputs are exported as 32-bit values, depth adds nothing to the exports
    g32 = radv.compile_graphics(vs, fs, wave_size=wave, color="rgba32f", depth=True)
    assert not any(x.startswith("v_cvt_pk_rtz_f16_f32")
                   for x in radv.asm_instructions(g32.stages["fragment"].asm))


def test_graphics_cli_json(glsl, radeon, tmp_path):
    (tmp_path / "v.spv").write_bytes(glsl(VS_GFX, "vulkan1.3", "vert"))
    (tmp_path / "f.spv").write_bytes(glsl(FS_GFX, "vulkan1.3", "frag"))
    p = subprocess.run([sys.executable, "-m", "radcc.oracle.radv", str(tmp_path / "v.spv"),
                        "--frag", str(tmp_path / "f.spv"), "--json", "--wave", "32"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert set(out["stages"]) == {"vertex", "fragment"}
    assert out["stages"]["fragment"]["wave_size"] == 32
    assert "s_endpgm" in out["stages"]["vertex"]["asm"]
    # a fragment module given as the vertex shader is refused by name
    p = subprocess.run([sys.executable, "-m", "radcc.oracle.radv", str(tmp_path / "f.spv"),
                        "--frag", str(tmp_path / "f.spv")], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 1 and "no vertex entry point 'main'" in p.stderr


def test_aco_compare_draw_rows_per_stage(radeon, tmp_path: Path) -> None:
    """tools/aco_compare.py --draw: two rows per VS+FS pair of tests/e2e/draw (ACO's side
    from one RADV pipeline in the case's colour format), radcc's per stage as it compiles
    them (or its reason), the listings dumped per stage."""
    root = Path(__file__).resolve().parents[2]
    p = subprocess.run([sys.executable, str(root / "tools/aco_compare.py"), "--draw",
                        "--wave", "64", "--only", "mrt_uint_rgba32ui", "--only", "mrt_float_rgba8",
                        "--json", str(tmp_path / "rows.json"), "--dump", str(tmp_path / "d")],
                       capture_output=True, text=True, timeout=600, cwd=root)
    assert p.returncode == 0, p.stderr
    rows = {r["name"]: r for r in json.loads((tmp_path / "rows.json").read_text())}
    assert set(rows) == {"mrt_uint_rgba32ui.vert", "mrt_uint_rgba32ui.frag",
                         "mrt_float_rgba8.vert", "mrt_float_rgba8.frag"}
    assert all(not r["aco_error"] and r["aco_instructions"] > 0 for r in rows.values())
    assert all(r["radcc_error"] or r["radcc_instructions"] > 0 for r in rows.values())
    fs8 = (tmp_path / "d" / "mrt_float_rgba8.frag.w64.aco.s").read_text()
    fs32 = (tmp_path / "d" / "mrt_uint_rgba32ui.frag.w64.aco.s").read_text()
    assert "v_cvt_pk_rtz_f16_f32" in fs8 and "v_cvt_pk_rtz_f16_f32" not in fs32
    assert "exp pos0" in (tmp_path / "d" / "mrt_float_rgba8.vert.w64.aco.s").read_text()


def test_graphics_debug_shaders_prints_both_stages(glsl, radeon):
    g = radv.compile_graphics(glsl(VS_GFX, "vulkan1.3", "vert"),
                              glsl(FS_GFX, "vulkan1.3", "frag"), debug_shaders=True)
    assert "Pixel Shader" in g.printed and "Vertex Shader" in g.printed
    assert g.printed.count("disasm:") == 2
    assert "lds_param_load" in g.printed and "exp prim" in g.printed


def test_unbindable_descriptor_is_refused_by_name(radeon, tmp_path: Path):
    """A binding the oracle cannot lay out (an acceleration structure) is a clear error,
    not a reflection crash."""
    src = """
    #version 460
    #extension GL_EXT_ray_query : require
    layout(set = 0, binding = 1) uniform accelerationStructureEXT tlas;
    layout(location = 0) out vec4 o;
    void main() {
        rayQueryEXT q;
        rayQueryInitializeEXT(q, tlas, 0u, 0xFFu, vec3(0.0), 0.0, vec3(0.0, 0.0, 1.0), 1.0);
        o = vec4(rayQueryProceedEXT(q) ? 1.0 : 0.0);
    }
    """
    (tmp_path / "q.frag").write_text(src)
    spv = tmp_path / "q.spv"
    subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.3",
                    str(tmp_path / "q.frag"), "-o", str(spv)], check=True, capture_output=True)
    vs = tmp_path / "v.vert"
    vs.write_text("#version 450\nvoid main() { gl_Position = vec4(0.0); }\n")
    subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.3", str(vs), "-o",
                    str(tmp_path / "v.spv")], check=True, capture_output=True)
    with pytest.raises(radv.RadvError, match="binding 0:1 is 'other': not supported"):
        radv.compile_graphics((tmp_path / "v.spv").read_bytes(), spv.read_bytes())


def test_compute_compile_refuses_a_graphics_module(glsl, radeon):
    with pytest.raises(radv.RadvError, match="'main' is a vertex entry point, not a compute"):
        radv.compile_compute(glsl(VS_GFX, "vulkan1.3", "vert"))
