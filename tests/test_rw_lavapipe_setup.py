"""tools/rw_lavapipe_check.py's module setup (issue 9), on shaders of our own shaped
as ggml's: a workgroup width from ``local_size_x_id = 0`` beside a ``constant_id = 0``
``BLOCK_SIZE`` of another default (glslang gives the width the default 1; ggml-vulkan.cpp
always sets the id, so the tool must give both the same value), and the push
constants of a ``matmul_*`` module by member name."""

from __future__ import annotations

import importlib.util
import struct
import sys
from pathlib import Path

from tests.frontend.mir.conftest import glsl_to_spirv

_PATH = Path(__file__).resolve().parent.parent / "tools" / "rw_lavapipe_check.py"
_spec = importlib.util.spec_from_file_location("rw_lavapipe_check", _PATH)
assert _spec is not None and _spec.loader is not None
tool = importlib.util.module_from_spec(_spec)
sys.modules["rw_lavapipe_check"] = tool
_spec.loader.exec_module(tool)

WIDTH_ID = """#version 450
layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 0) const uint BLOCK_SIZE = 64;
layout(binding = 0) buffer D { float d[]; };
layout(push_constant) uniform parameter { uint M; uint N; uint K; uint stride_a; } p;
void main() {
    for (uint i = gl_LocalInvocationID.x; i < p.M; i += gl_WorkGroupSize.x * BLOCK_SIZE / 64)
        d[i] = float(p.K);
}
"""


def test_workgroup_width_id_takes_the_other_constants_default() -> None:
    shape = tool.shape_of(glsl_to_spirv(WIDTH_ID))
    assert shape.spec == {0: 64}
    assert shape.push_names == ["M", "N", "K", "stride_a"]


def test_no_width_override_without_a_second_constant() -> None:
    src = WIDTH_ID.replace("layout(constant_id = 0) const uint BLOCK_SIZE = 64;",
                           "const uint BLOCK_SIZE = 64;")
    assert tool.shape_of(glsl_to_spirv(src)).spec == {}


def test_matmul_push_constants_by_name() -> None:
    shape = tool.shape_of(glsl_to_spirv(WIDTH_ID))
    mm = tool.ggml_matmul_setup("matmul_q4_k_f32", shape)
    assert mm is not None
    m, n, k, stride_a = struct.unpack("<4I", mm.push)
    assert (m, n, k, stride_a) == (tool.MM_M, tool.MM_N, 512, 512)  # two 256-blocks
    assert mm.groups == (1, 1, 1)
    assert tool.ggml_matmul_setup("matmul_f32_f32", shape).push[8:12] == struct.pack("<I", 64)
    assert tool.ggml_matmul_setup("soft_max_f32", shape) is None


def test_matmul_width_when_block_size_is_dropped() -> None:
    """mul_mm.comp's BLOCK_SIZE unused: glslang drops it, leaving the width's default 1
    (one invocation whose tile-load stride is 0, an endless loop); the matmul setup gives
    the width MM_BLOCK (mul_mm.comp's default tile: 4 warps of 32; also over a kept
    BLOCK_SIZE's 64, which would leave half the tile's warps without invocations), and
    a module whose width default is not 1 is left alone."""
    src = WIDTH_ID.replace("layout(constant_id = 0) const uint BLOCK_SIZE = 64;", "") \
        .replace(" * BLOCK_SIZE / 64", " * 2 / 16")
    shape = tool.shape_of(glsl_to_spirv(src))
    assert shape.spec == {} and shape.width_spec == (0, 1)
    mm = tool.ggml_matmul_setup("matmul_f32_f32", shape)
    assert mm is not None and mm.spec == {0: tool.MM_BLOCK} and tool.MM_BLOCK == 128
    kept = tool.ggml_matmul_setup("matmul_f32_f32", tool.shape_of(glsl_to_spirv(WIDTH_ID)))
    assert kept is not None and kept.spec == {0: tool.MM_BLOCK}
    fixed = src.replace("local_size_x_id = 0", "local_size_x = 128")
    wide = tool.ggml_matmul_setup("matmul_f32_f32", tool.shape_of(glsl_to_spirv(fixed)))
    assert wide is not None and wide.spec == {}


def test_matmul_bk_for_quantised_a() -> None:
    """A quantised A's BK (id 3, default 16) is set to 32 as ggml-vulkan.cpp's mmq
    warptiles set it; f32/f16/bf16 A keep theirs."""
    shape = tool.shape_of(glsl_to_spirv(WIDTH_ID))
    for name, bk in (("matmul_q4_0_f32", 32), ("matmul_id_iq2_xs_f16", 32),
                     ("matmul_id_subgroup_q8_0_f32", 32), ("matmul_f32_f32", None),
                     ("matmul_id_f16_f32", None), ("matmul_bf16", None)):
        mm = tool.ggml_matmul_setup(name, shape)
        assert mm is not None and mm.spec.get(tool.MM_BK_ID) == bk, name


DEQUANT = """#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer D { float d[]; };
layout(push_constant) uniform parameter { uint M; uint K; uint stride_a; uint stride_b;
                                          uint nel; } p;
void main() { if (gl_GlobalInvocationID.x < p.nel / 32u) d[gl_GlobalInvocationID.x] = 1.0; }
"""


def test_dequant_push_constants_by_name() -> None:
    shape = tool.shape_of(glsl_to_spirv(DEQUANT))
    push = tool.ggml_named_push("dequant_q8_0", shape)
    assert push is not None and struct.unpack("<5I", push)[4] == 4096
    assert tool.ggml_named_push("dequant_q8_0", tool.shape_of(glsl_to_spirv(WIDTH_ID))) is None


PRELU_LIKE = """#version 450
layout(push_constant) uniform parameter
{
    int dims; // the vector index below is dims - 1
    int w;
    int cstep;
} p;
void main() {}
"""


def test_ncnn_source_from_a_source_tree(tmp_path: Path) -> None:
    """An extracted ncnn tree (no .git) is read as such: before, only a git directory
    was, and any other path silently left ``dims`` random (undefined vector index)."""
    shader_dir = tmp_path / "src" / "layer" / "vulkan" / "shader"
    shader_dir.mkdir(parents=True)
    (shader_dir / "prelu_pack4.comp").write_text(PRELU_LIKE)
    assert tool.ncnn_tree_kind(str(tmp_path)) == "tree"
    src = tool.ncnn_source(str(tmp_path), "prelu_pack4_fp16")
    assert tool.ncnn_member_names(src) == ["dims", "w", "cstep"]
    assert "//" not in src
    v = tool.ncnn_values(["dims", "w", "cstep"], __import__("numpy").random.default_rng(1))
    assert v["dims"] == 3 and v["cstep"] == v["w"]
    assert tool.ncnn_source(str(tmp_path), "absent_fp16") == ""


def test_ncnn_src_neither_tree_nor_git_is_refused(tmp_path: Path) -> None:
    import subprocess
    cp = subprocess.run([sys.executable, str(_PATH), str(tmp_path), "--ncnn-src",
                         str(tmp_path)], capture_output=True, text=True)
    assert cp.returncode == 2
    assert "neither a directory with src/layer/vulkan/shader/" in cp.stderr
    assert tool.ncnn_tree_kind(str(tmp_path)) is None
