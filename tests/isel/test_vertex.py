"""Vertex shaders on NGG (radcc/isel/vertex.py, radcc/frontend/spirv_to_mir/stage_io.py):
real-style vertex shaders compile in wave32 and wave64 under validateir/validatera into
graphics code objects with the right settings; the NGG instructions are where ACO puts
them; the assembly assembles with llvm-mc-19 to the same bytes; and the code runs in the
strict emulator with the registers of docs/abi.md "Vertex shaders", its attribute ring
stores and exports matching NumPy."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from radcc.abi.graphics import ADDRESS32_HI, ATTR_RING_DESC_OFFSET
from radcc.codeobj.elf import read_code_object
from radcc.codeobj.graphics import ComponentType, read_graphics_object
from radcc.driver.compile import CompileError, compile_spirv
from radcc.driver.glsl import glsl_to_spirv
from radcc.frontend.spirv import SpirvError
from radcc.passes.options import DebugOptions

pytestmark = pytest.mark.skipif(shutil.which("glslangValidator") is None,
                                reason="needs glslangValidator")

F = ComponentType.FLOAT

SHADERS = {
    # position and colour in, a varying and a point size out, both system indices
    "tri": """#version 450
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_color;
layout(location = 2) out vec2 v_uv;
void main() {
    gl_Position = vec4(pos, 1.0);
    v_color = color;
    v_uv = pos.xy * 0.5 + 0.5 + float(gl_VertexIndex) + 100.0 * float(gl_InstanceIndex);
    gl_PointSize = 2.0;
}""",
    # a uniform buffer's matrix and push constants (the resource table)
    "mvp": """#version 450
layout(set = 0, binding = 0) uniform UBO { mat4 mvp; vec4 tint; } ubo;
layout(push_constant) uniform PC { vec4 offset; } pc;
layout(location = 0) in vec4 pos;
layout(location = 1) in vec3 normal;
layout(location = 0) out vec3 v_normal;
layout(location = 1) out vec4 v_tint;
void main() {
    gl_Position = ubo.mvp * pos + pc.offset;
    v_normal = normalize(normal);
    v_tint = ubo.tint;
}""",
    # no inputs: a full-screen triangle from gl_VertexIndex
    "fullscreen": """#version 450
layout(location = 0) out vec2 uv;
void main() {
    uv = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    gl_Position = vec4(uv * 2.0 - 1.0, 0.0, 1.0);
}""",
    # clip and cull distances, an integer flat output, a per-instance input
    "clip": """#version 450
layout(location = 0) in vec2 pos;
layout(location = 3) in uint inst_id;
layout(location = 1) flat out uint v_id;
out float gl_ClipDistance[2];
out float gl_CullDistance[1];
void main() {
    gl_Position = vec4(pos, 0.5, 1.0);
    gl_ClipDistance[0] = pos.x;
    gl_ClipDistance[1] = pos.y;
    gl_CullDistance[0] = 1.0 - pos.x;
    v_id = inst_id * 10u + uint(gl_VertexIndex);
}""",
    # a storage buffer written per vertex (the position export must wait for it)
    "ssbo": """#version 450
layout(set = 0, binding = 1) buffer Out { uint seen[]; } o;
layout(location = 0) in vec4 pos;
void main() {
    o.seen[gl_VertexIndex] = uint(gl_VertexIndex) + 1u;
    gl_Position = pos;
}""",
    # control flow and a loop in the vertex shader
    "loop": """#version 450
layout(location = 0) in vec4 pos;
layout(location = 1) in int n;
layout(location = 0) out float acc;
void main() {
    float s = 0.0;
    for (int i = 0; i < n; i++) s += float(i) * pos.x;
    if (pos.y > 0.5) s = -s;
    acc = s;
    gl_Position = pos;
}""",
}

SHADERS["blocks"] = """#version 450
layout(location = 0) in vec3 pos;
layout(location = 1) out VS_OUT { vec3 normal; vec2 uv; } vs_out;
layout(location = 4) out mat2 m;
layout(location = 6) out float arr[2];
layout(location = 8) out Blk2 { layout(location = 9) vec4 a; layout(location = 8) int b; } o2;
void main() {
    vs_out.normal = pos; vs_out.uv = pos.xy; m = mat2(pos.x, pos.y, pos.z, 1.0);
    arr[0] = 1.0; arr[1] = pos.z; o2.a = vec4(pos, 2.0); o2.b = gl_VertexIndex;
    gl_Position = vec4(pos, 1.0);
}"""  # output blocks, a matrix and an array at consecutive locations

SHADERS["io16"] = """#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
layout(location = 0) in vec4 pos;
layout(location = 1) in f16vec3 h;
layout(location = 2) in uint16_t u;
layout(location = 0) out f16vec3 oh;
layout(location = 1) flat out u16vec2 ou;
layout(location = 2) out vec2 o32;
void main() {
    gl_Position = pos;
    oh = h * float16_t(2.0) - float16_t(0.25);
    ou = u16vec2(u, u * uint16_t(3));
    o32 = pos.yx;
}"""  # 16-bit inputs (converted from 32-bit attributes) and 16-bit varyings

SHADERS["io64"] = """#version 450
layout(location = 0) in vec4 pos;
layout(location = 1) in dvec3 d;
layout(location = 3) in double e;
layout(location = 0) flat out dvec3 od;
layout(location = 2) flat out double oe;
void main() {
    gl_Position = pos;
    od = d * 2.0lf + 1.0lf;
    oe = (d.x - d.z) * e;
}"""  # 64-bit inputs (a dvec3 over locations 1-2) and 64-bit varyings

OPTS = DebugOptions.parse("validateir,validatera")


def _spirv(name: str, tmp_path: Path) -> bytes:
    src = tmp_path / f"{name}.vert"
    src.write_text(SHADERS[name])
    return glsl_to_spirv(src, "vert")


@pytest.fixture(scope="module")
def spirv(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    d = tmp_path_factory.mktemp("vs")
    return {n: _spirv(n, d) for n in SHADERS}


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", sorted(SHADERS))
def test_compiles_validated(spirv: dict[str, bytes], name: str, wave: int) -> None:
    res = compile_spirv(spirv[name], wave_size=wave, debug_options=OPTS, spirv_val=True)
    sh = read_graphics_object(res.code_object)
    assert sh == res.graphics
    assert sh.stage.name == "vertex_ngg" and sh.wave_size == wave
    assert sh.entry_symbol == "_amdgpu_gs_main"
    vs = sh.vertex
    assert vs is not None
    asm = res.asm
    assert "_amdgpu_gs_main:\nBB0:\n\ts_setprio 3\n" in asm  # as ACO's NGG shaders start
    # GS_ALLOC_REQ (M0 = prims << 12 | verts) before any export, one primitive export
    alloc = asm.index("s_sendmsg sendmsg(MSG_GS_ALLOC_REQ)")
    assert re.search(r"s_or_b32 m0, s\d+, s\d+\n\ts_sendmsg", asm)
    assert alloc < asm.index("exp ")
    assert asm.count("exp prim v") == 1 and re.search(r"exp prim v\d+, off, off, off done",
                                                      asm)
    pos = re.findall(r"exp pos(\d) .*", asm)
    assert [int(p) for p in pos] == list(range(vs.pos_exports))
    assert re.findall(r"exp pos\d .*", asm)[-1].endswith(" done")
    # one attribute ring store per parameter, 16 bytes apart
    stores = re.findall(r"buffer_store_b128 v\[\d+:\d+\], v\d+, s\[\d+:\d+\], s\d+ idxen"
                        r"(?: offset:(\d+))?", asm)
    assert sorted(int(x or 0) for x in stores) == [16 * p for p in range(len(vs.outputs))]
    if "global_store" in asm:  # README-ISA "RDNA early rasterization"
        assert "s_waitcnt_vscnt null, 0x0\n" in asm[:asm.index("exp pos0")]
    if stores:  # the ring stores after the position exports, as ACO orders them
        assert asm.index("buffer_store_b128") > asm.rindex("exp pos")


def _settings(spirv: dict[str, bytes], name: str):
    return read_graphics_object(compile_spirv(spirv[name]).code_object).vertex


def test_vertex_settings(spirv: dict[str, bytes]) -> None:
    U, S = ComponentType.UINT, ComponentType.SINT
    tri = _settings(spirv, "tri")
    assert [(i.location, i.components, i.type) for i in tri.inputs] == [(0, 3, F), (1, 4, F)]
    assert [(o.location, o.components, o.type, o.param) for o in tri.outputs] == \
        [(0, 4, F, 0), (2, 2, F, 1)]
    assert (tri.pos_exports, tri.writes_point_size, tri.clip_distances) == (2, True, 0)
    clip = _settings(spirv, "clip")
    assert [(i.location, i.type) for i in clip.inputs] == [(0, F), (3, U)]
    assert [(o.location, o.type, o.param) for o in clip.outputs] == [(1, U, 0)]
    assert (clip.pos_exports, clip.writes_point_size) == (2, False)
    assert (clip.clip_distances, clip.cull_distances) == (2, 1)
    full = _settings(spirv, "fullscreen")
    assert full.inputs == () and full.pos_exports == 1 and len(full.outputs) == 1
    assert _settings(spirv, "loop").inputs[1].type is S
    assert all(i.bits == 32 for i in tri.inputs) and all(o.bits == 32 for o in tri.outputs)
    blocks = _settings(spirv, "blocks")
    assert [(o.location, o.components, o.type, o.param) for o in blocks.outputs] == [
        (1, 3, F, 0), (2, 2, F, 1), (4, 2, F, 2), (5, 2, F, 3), (6, 1, F, 4), (7, 1, F, 5),
        (8, 1, S, 6), (9, 4, F, 7)]


@pytest.mark.skipif(shutil.which("llvm-mc-19") is None, reason="needs llvm-mc-19")
@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", ["tri", "clip", "ssbo"])
def test_assembly_matches_llvm_mc(spirv: dict[str, bytes], name: str, wave: int,
                                  tmp_path: Path) -> None:
    """llvm-mc-19 assembles radcc's -S output to the code object's .text (exp, sendmsg,
    buffer loads and stores encoded as LLVM encodes them)."""
    res = compile_spirv(spirv[name], wave_size=wave)
    s = tmp_path / "vs.s"
    s.write_text(res.asm)
    attr = "+wavefrontsize32" if wave == 32 else "+wavefrontsize64"
    obj = subprocess.run(["llvm-mc-19", "-arch=amdgcn", "-mcpu=gfx1100", f"-mattr={attr}",
                          "-filetype=obj", str(s), "-o", "-"], capture_output=True,
                         check=True).stdout
    assert read_code_object(obj).sections[".text"].data == \
        read_graphics_object(res.code_object).code


def test_other_stages_refused_by_name(tmp_path: Path) -> None:
    src = tmp_path / "g.geom"
    src.write_text("#version 450\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n"
                   "void main() { EmitVertex(); }\n")
    with pytest.raises((CompileError, SpirvError), match="Geometry: geometry shaders are not "
                       "supported yet"):
        compile_spirv(glsl_to_spirv(src, "geom"))


# -- running the vertex shader in the strict emulator ------------------------------------

def _vsharp(base: int, stride: int, records: int, comps: int, fmt: int,
            sel: tuple[int, int, int, int]) -> bytes:
    """A buffer resource (ISA guide Table 47): base, stride, num_records, dst_sel, format."""
    w = base | stride << 48 | records << 64
    for k, s in enumerate(sel):
        w |= s << (96 + 3 * k)
    w |= fmt << 108
    return w.to_bytes(16, "little")


_FMT = {1: 22, 2: 50, 3: 60, 4: 63}  # 32[_32...]_FLOAT (Table 52)
_FMT_U = {1: 20, 2: 48, 3: 58, 4: 61}


def _run_vs(code: bytes, wave: int, attrs: dict[int, np.ndarray], nverts: int, nprims: int,
            nparams: int, *, instance: int = 0, base_vertex: int = 0,
            start_instance: int = 0, wave_index: int = 0):
    from radcc.emu.draw.waves import GraphicsProgram, WaveRunner
    from radcc.emu.memory import Memory
    from radcc.target import TARGETS

    mem = Memory()
    r = WaveRunner(GraphicsProgram("vs", code, wave), TARGETS["gfx1100"], mem)
    table = bytearray(16 * 8)
    for loc, a in attrs.items():
        a2 = a.reshape(len(a), -1)
        c = a2.shape[1]
        buf = mem.map(f"attr{loc}", a2.astype(a2.dtype).tobytes())
        sel = tuple(4 + k if k < c else (1 if k == 3 else 0) for k in range(4))
        fmt = (_FMT if a2.dtype == np.float32 else _FMT_U)[c]
        table[16 * loc:16 * loc + 16] = _vsharp(buf.base, 4 * c, len(a2), c, fmt, sel)
    # a 32-bit address: the table lies in [ADDRESS32_HI << 32, + 4 GiB)
    vb = mem.map("vertex buffers", bytes(table), base=ADDRESS32_HI << 32 | 0xF000_0000)
    assert vb.base >> 32 == ADDRESS32_HI
    ring = mem.map("attribute ring", bytes(16 * max(nparams, 1) * 256))  # 256 threads
    rtab = mem.map("rings", bytes(ATTR_RING_DESC_OFFSET)
                   + _vsharp(ring.base, 0, 256, 4, 0, (4, 5, 6, 7)))

    def setup(w):
        w.s[0], w.s[1] = rtab.base & 0xFFFFFFFF, rtab.base >> 32
        w.s[2] = nverts << 12 | nprims << 22
        w.s[3] = nverts | nprims << 8 | wave_index << 24
        w.s[5] = 0
        w.s[8] = vb.base & 0xFFFFFFFF
        w.s[9], w.s[10] = base_vertex, start_instance
        lane = np.arange(w.size, dtype=np.uint32)
        w.v[0] = (3 * lane) | (3 * lane + 1) << 10 | (3 * lane + 2) << 20
        w.v[5] = lane
        w.v[8] = instance
    w = r.run(setup)
    assert not r.violations, r.violations
    out = np.frombuffer(mem.read(ring.base, 16 * max(nparams, 1) * 256), np.float32)
    return w, out.reshape(256, max(nparams, 1), 4)


@pytest.mark.parametrize("full", [False, True])
@pytest.mark.parametrize("wave", [32, 64])
def test_runs_tri(spirv: dict[str, bytes], wave: int, full: bool) -> None:
    res = compile_spirv(spirv["tri"], wave_size=wave)
    n, bv = wave - (0 if full else 5), 2  # vertices in the wave (all lanes: s_bfm wraps)
    rng = np.random.default_rng(1)
    pos = rng.standard_normal((n + bv, 3)).astype(np.float32)
    color = rng.standard_normal((n + bv, 2)).astype(np.float32)  # vec4 from 2 channels
    w, ring = _run_vs(res.graphics.code, wave, {0: pos, 1: color}, n, n // 3, 2,
                      instance=3, base_vertex=bv, start_instance=1)
    prim, pos0, pos1 = w.exports
    assert prim.target == 20 and prim.done and prim.lanes.sum() == n // 3
    lanes = np.arange(n // 3)
    assert (prim.data[0][lanes] == 3 * lanes | (3 * lanes + 1) << 10 | (3 * lanes + 2) << 20).all()
    # the fetch index is gl_VertexIndex = vertex_id + base_vertex
    got = pos0.data[:, :n].T.view(np.float32)
    assert np.array_equal(got, np.c_[pos[bv:], np.ones(n, np.float32)])
    assert pos1.done and pos1.en == 1 and (pos1.data[0, :n].view(np.float32) == 2.0).all()
    assert not pos0.done and pos0.lanes.sum() == n
    # parameter 0: the colour with (z, w) = (0, 1) from the V#'s dst_sel
    want = np.c_[color[bv:], np.zeros(n), np.ones(n)].astype(np.float32)
    assert np.array_equal(ring[:n, 0], want)
    vidx = (np.arange(n) + bv).astype(np.float32)
    uv = pos[bv:, :2] * np.float32(0.5) + np.float32(0.5) + vidx[:, None] + np.float32(400)
    assert np.allclose(ring[:n, 1, :2], uv, rtol=1e-6)
    assert (ring[n:, :] == 0).all()
    assert "s_bfm_b64" in res.asm  # the vertex and primitive lanes as ACO selects them


@pytest.mark.parametrize("wave", [32, 64])
def test_runs_16bit_inputs_and_outputs(spirv: dict[str, bytes], wave: int) -> None:
    """16-bit vertex inputs are the 32-bit fetch converted (f32 -> f16 rounding to
    nearest even, integers truncated to 16 bits); 16-bit varyings reach the attribute
    ring zero-extended to their dwords (ac_nir's 32-bit slots), the rest of the ring
    parameter 0; the code object says which are 16-bit. NumPy computes the ring."""
    res = compile_spirv(spirv["io16"], wave_size=wave, debug_options=OPTS)
    vs = res.graphics.vertex
    assert [(i.location, i.bits) for i in vs.inputs] == [(0, 32), (1, 16), (2, 16)]
    assert [(o.location, o.components, o.bits) for o in vs.outputs] == \
        [(0, 3, 16), (1, 2, 16), (2, 2, 32)]
    n = wave - 3
    rng = np.random.default_rng(16)
    pos = rng.standard_normal((n, 4)).astype(np.float32)
    h = rng.uniform(-300, 300, (n, 3)).astype(np.float32)
    u = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    w, ring = _run_vs(res.graphics.code, wave, {0: pos, 1: h, 2: u}, n, n // 3, 3)
    raw = ring.view(np.uint32)
    h16 = h.astype(np.float16)
    want_h = (h16 * np.float16(2.0) - np.float16(0.25)).view(np.uint16).astype(np.uint32)
    assert np.array_equal(raw[:n, 0, :3], want_h)
    u16 = (u & 0xFFFF).astype(np.uint16)
    assert np.array_equal(raw[:n, 1, :2], np.c_[u16, u16 * np.uint16(3)].astype(np.uint32))
    assert (raw[:n, 0, 3] == 0).all() and (raw[:n, 1, 2:] == 0).all()
    assert np.array_equal(ring[:n, 2, :2], pos[:, [1, 0]])


@pytest.mark.parametrize("wave", [32, 64])
def test_runs_64bit_inputs_and_outputs(spirv: dict[str, bytes], wave: int) -> None:
    """64-bit inputs are fetched as dwords, four per location (the dvec3's V# 1 gives
    dwords 0-3, V# 2 dwords 4-5, 32-bit UINT formats: the draw interface cannot feed
    doubles, so the V#s are set here), paired; 64-bit varyings reach the attribute ring
    as their dwords, four per location (od: parameters 0 and 1, oe: 2). NumPy computes
    the doubles."""
    res = compile_spirv(spirv["io64"], wave_size=wave, debug_options=OPTS)
    vs = res.graphics.vertex
    assert [(i.location, i.components, i.bits) for i in vs.inputs] == \
        [(0, 4, 32), (1, 3, 64), (3, 1, 64)]
    assert [(o.location, o.components, o.bits, o.param) for o in vs.outputs] == \
        [(0, 2, 64, 0), (1, 1, 64, 1), (2, 1, 64, 2)]
    n = wave - 2
    rng = np.random.default_rng(64)
    pos = rng.standard_normal((n, 4)).astype(np.float32)
    d = rng.standard_normal((n, 3)) * 1e5
    e = rng.standard_normal((n, 1))
    du = d.view(np.uint32)  # (n, 6)
    w, ring = _run_vs(res.graphics.code, wave, {0: pos, 1: du[:, :4].copy(),
                                                2: du[:, 4:].copy(), 3: e.view(np.uint32)},
                      n, n // 3, 3)
    raw = ring.view(np.uint32)[:n]
    od = np.c_[raw[:, 0, :4], raw[:, 1, :2]].copy().view(np.float64)
    np.testing.assert_array_equal(od, d * 2.0 + 1.0)
    np.testing.assert_array_equal(raw[:, 2, :2].copy().view(np.float64)[:, 0],
                                  (d[:, 0] - d[:, 2]) * e[:, 0])
    assert (raw[:, 1, 2:] == 0).all() and (raw[:, 2, 2:] == 0).all()


@pytest.mark.parametrize("wave", [32, 64])
def test_runs_clip_instanced(spirv: dict[str, bytes], wave: int) -> None:
    """Location 3 compiled per instance (the pipeline's input rate, a compile-time fact
    as in RADV): fetched at gl_InstanceIndex, with no run-time rate selection."""
    res = compile_spirv(spirv["clip"], wave_size=wave, instance_inputs=frozenset({3}))
    assert [(i.location, i.per_instance) for i in res.graphics.vertex.inputs] == \
        [(0, False), (3, True)]
    assert "v_cndmask" not in res.asm
    n = 9
    pos = np.linspace(-1, 1, 2 * n, dtype=np.float32).reshape(n, 2)
    inst = np.array([5, 6], dtype=np.uint32)
    w, ring = _run_vs(res.graphics.code, wave, {0: pos, 3: inst}, n, 3, 1, instance=1)
    prim, pos0, cc = w.exports
    assert cc.target == 13 and cc.done and cc.en == 0x7  # clip 0, 1, cull 0
    got = cc.data[:3, :n].T.view(np.float32)
    assert np.array_equal(got, np.c_[pos[:, 0], pos[:, 1], 1 - pos[:, 0]])
    ids = ring[:n, 0, 0].view(np.uint32)
    assert (ids == 6 * 10 + np.arange(n)).all()  # per-instance location 3: instance 1


def test_cli_compile_and_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from radcc.cli import main

    src = tmp_path / "tri.vert"
    src.write_text(SHADERS["tri"])
    assert main(["compile", str(src), "-o", str(tmp_path / "tri.o")]) == 0
    assert read_graphics_object((tmp_path / "tri.o").read_bytes()).vertex.pos_exports == 2
    assert main(["compile", str(src), "-S", "--wave64", "-o", str(tmp_path / "tri.s")]) == 0
    text = (tmp_path / "tri.s").read_text()
    assert "_amdgpu_gs_main:" in text and ";   .stage:          vertex_ngg" in text
    capsys.readouterr()
    assert main(["run", str(src), "--groups", "1", "--out", str(tmp_path / "o")]) == 1
    assert "radcc run runs compute shaders (radcc draw runs vertex and fragment" in \
        capsys.readouterr().err


def test_mir_structure(spirv: dict[str, bytes]) -> None:
    """The NGG structure around the entry function (docs/mir.md "Vertex shaders")."""
    from radcc.frontend.mir import If
    from radcc.frontend.spirv_to_mir import spirv_to_mir

    sh = spirv_to_mir(spirv["tri"])
    assert sh.stage.name == "vertex_ngg"
    ifs = [n for n in sh.function.body if isinstance(n, If)]
    assert len(ifs) == 3

    def ops(cf) -> list[str]:
        out: list[str] = []
        for n in cf:
            if isinstance(n, If):
                out += ops(n.then_list) + ops(n.else_list)
            elif hasattr(n, "instrs"):
                out += [i.op for i in n.instrs]
            else:
                out += ops(n.body) + ops(n.cont)
        return out
    assert "sendmsg_gs_alloc_req" in ops(ifs[0].then_list)
    assert ops(ifs[1].then_list)[-1] == "export_primitive"
    body = ops(ifs[2].then_list)
    assert body[-1] == "export_vertex" and body.count("store_output") == 6
    assert body.count("load_input") == 2
    assert [(v.location, v.components) for v in sh.inputs] == [(0, 3), (1, 4)]
    assert [(v.location, v.components) for v in sh.outputs] == [(0, 4), (2, 2)]


@pytest.mark.parametrize("wave", [32, 64])
def test_second_wave_of_a_workgroup(spirv: dict[str, bytes], wave: int) -> None:
    """Wave 1 of a workgroup stores its vertices' parameters at threads wave..2*wave-1."""
    res = compile_spirv(spirv["clip"], wave_size=wave)
    n = 5
    pos = np.linspace(-1, 1, 2 * n, dtype=np.float32).reshape(n, 2)
    w, ring = _run_vs(res.graphics.code, wave, {0: pos, 3: np.arange(n, dtype=np.uint32)},
                      n, 1, 1, wave_index=1)
    ids = ring[:, 0, 0].view(np.uint32)
    assert (ids[wave:wave + n] == 11 * np.arange(n)).all()  # location 3 per vertex here
    assert (ring[:wave] == 0).all() and (ring[wave + n:] == 0).all()
