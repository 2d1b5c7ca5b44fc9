"""Fragment shaders (issue 12, `radcc.isel.fragment`, whole-quad mode in
`radcc.passes.insert_exec_mask`): GLSL compiled by radcc, wave32 and wave64, with
RADCC_DEBUG's validateir/validatera, then

- the assembly (`-S`) re-assembled by llvm-mc-19 gives the code object's bytes (the
  encodings of ``lds_param_load``, ``v_interp_*``, ``exp``, DPP, ``s_wqm``);
- drawn by the emulator's draw pipeline (`radcc.emu.draw.render`, strict mode) behind a
  vertex shader written in assembly (tests/emu/draw/test_render_asm.py) and compared
  with NumPy references computed from the fixed function's interpolated values
  (`radcc.emu.draw.pipeline.interpolate`): interpolation, flat inputs, discard, demote,
  fine and coarse derivatives per quad (helper lanes included), gl_HelperInvocation,
  gl_FragCoord, gl_FrontFacing, export formats.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from radcc.abi.graphics import ColorFormat
from radcc.codeobj.elf import read_code_object
from radcc.codeobj.graphics import ComponentType, GraphicsShader, read_graphics_object
from radcc.driver.compile import compile_spirv
from radcc.emu.draw.assembly import assemble
from radcc.emu.draw.pipeline import Shaded, VertexOutputs, draw, interpolate
from radcc.emu.draw.render import render
from radcc.emu.draw.state import COLOR_FORMATS, CullMode, DrawState, Topology
from radcc.emu.memory import Memory
from radcc.passes.options import DebugOptions
from radcc.target import TARGETS

pytestmark = pytest.mark.skipif(
    shutil.which("llvm-mc-19") is None or shutil.which("glslangValidator") is None,
    reason="needs llvm-mc-19 and glslangValidator")

T = TARGETS["gfx1100"]
VALIDATE = DebugOptions.parse("validateir,validatera")


def _spirv(src: str, tmp: Path) -> bytes:
    f = tmp / "s.frag"
    f.write_text("#version 450\n" + src)
    out = tmp / "s.spv"
    subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.3", str(f), "-o",
                    str(out)], check=True, capture_output=True)
    return out.read_bytes()


def _compile(src: str, tmp: Path, wave: int, fmt: str = "rgba32f") -> GraphicsShader:
    r = compile_spirv(_spirv(src, tmp), wave_size=wave, debug_options=VALIDATE,
                      color_formats=(ColorFormat.parse(fmt),))
    g = read_graphics_object(r.code_object)
    # llvm-mc-19 assembles radcc's -S to the same bytes
    attr = "+wavefrontsize32" if wave == 32 else "+wavefrontsize64"
    obj = subprocess.run(["llvm-mc-19", "-arch=amdgcn", "-mcpu=gfx1100", f"-mattr={attr}",
                          "-filetype=obj", "-o", "-"], input=r.asm.encode(),
                         capture_output=True, check=True).stdout
    text = read_code_object(obj).sections[".text"].data
    assert g.code[:len(text)] == text
    return g


def _vs(wave: int) -> GraphicsShader:
    from tests.emu.draw.test_render_asm import _shaders
    return _shaders(wave)[0]


def _scene(seed: int, n: int = 12) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    pos = np.zeros((n, 4), np.float32)
    w = rng.uniform(0.5, 2.0, n)
    pos[:, 0] = rng.uniform(-1.1, 1.1, n) * w
    pos[:, 1] = rng.uniform(-1.1, 1.1, n) * w
    pos[:, 2] = rng.uniform(0.0, 1.0, n) * w
    pos[:, 3] = w
    col = rng.uniform(0, 1, (n, 4)).astype(np.float32)
    return pos, col


def _draw(fs: GraphicsShader, wave: int, seed: int, fmt: str = "rgba32f"
          ) -> tuple[np.ndarray, object]:
    pos, col = _scene(seed)
    state = DrawState(20, 16, topology=Topology.TRIANGLE_LIST, color=COLOR_FORMATS[fmt],
                      cull=CullMode.NONE)
    res = render(_vs(wave), fs, state, T, Memory(), count=len(pos), instances=1,
                 attrs={0: pos, 1: col}, inst_attrs={}, index=None)
    assert not res.violations, res.violations
    assert res.stats.fragments > 30
    return res.framebuffer.targets[0].data, res


def _reference(seed: int, shade_quad, fmt: str = "rgba32f") -> np.ndarray:
    """The fixed function's draw of the same scene with `shade_quad` (per quad: the
    attribute (Q, 4 lanes, 4) float32 and the covered lanes -> colours (Q, 4, 4), kept
    lanes (Q, 4)) as the pixel shader."""
    pos, col = _scene(seed)
    state = DrawState(20, 16, topology=Topology.TRIANGLE_LIST, color=COLOR_FORMATS[fmt],
                      cull=CullMode.NONE)
    flat = np.zeros(1, bool)

    def shade(prims, frags, li):
        v = interpolate(prims, frags, li.persp, flat)[:, :, 0].view(np.float32)
        out, keep = shade_quad(v, frags.covered)
        return Shaded(keep, [np.asarray(out, np.float64)])
    fb, _stats = draw(state, VertexOutputs(pos, col.view(np.uint32)[:, None, :], np.ones(len(pos))),
                      assemble(Topology.TRIANGLE_LIST, len(pos)), flat, [(True,) * 4], shade)
    return fb.targets[0].data


WAVES = [32, 64]


@pytest.mark.parametrize("wave", WAVES)
def test_interpolation(wave: int, tmp_path: Path) -> None:
    fs = _compile("layout(location=0) in vec4 c; layout(location=0) out vec4 o;\n"
                  "void main() { o = c.wzyx * 2.0; }", tmp_path, wave)
    assert fs.pixel is not None and fs.pixel.inputs[0].type is ComponentType.FLOAT
    got, _ = _draw(fs, wave, 1)
    ref = _reference(1, lambda v, cov: (v[..., ::-1] * 2, np.ones(cov.shape, bool)))
    np.testing.assert_allclose(got, ref, atol=2e-6)


def _quad_derivs(v: np.ndarray) -> tuple[np.ndarray, ...]:
    """Fine and coarse derivatives per quad of (Q, 4, ...) values (lanes 0 1 / 2 3)."""
    fx = np.stack([v[:, 1] - v[:, 0], v[:, 1] - v[:, 0], v[:, 3] - v[:, 2], v[:, 3] - v[:, 2]], 1)
    fy = np.stack([v[:, 2] - v[:, 0], v[:, 3] - v[:, 1], v[:, 2] - v[:, 0], v[:, 3] - v[:, 1]], 1)
    cx = np.repeat((v[:, 1] - v[:, 0])[:, None], 4, 1)
    cy = np.repeat((v[:, 2] - v[:, 0])[:, None], 4, 1)
    return fx, fy, cx, cy


@pytest.mark.parametrize("wave", WAVES)
def test_derivatives(wave: int, tmp_path: Path) -> None:
    fs = _compile("layout(location=0) in vec4 c; layout(location=0) out vec4 o;\n"
                  "void main() { o = vec4(dFdxFine(c.x), dFdyFine(c.y), dFdxCoarse(c.z),\n"
                  "                       dFdyCoarse(c.w)); }", tmp_path, wave)
    got, _ = _draw(fs, wave, 2)

    def shade(v: np.ndarray, cov: np.ndarray):
        fx, fy, cx, cy = _quad_derivs(v)
        return np.stack([fx[..., 0], fy[..., 1], cx[..., 2], cy[..., 3]], -1), \
            np.ones(cov.shape, bool)
    np.testing.assert_allclose(got, _reference(2, shade), atol=2e-6)


@pytest.mark.parametrize("wave", WAVES)
def test_discard_then_derivatives(wave: int, tmp_path: Path) -> None:
    """Lanes a discard kills in divergent control flow stay helper lanes of their quads
    (the derivatives of the others are whole), and write nothing."""
    fs = _compile("layout(location=0) in vec4 c; layout(location=0) out vec4 o;\n"
                  "void main() { if (c.x < 0.4) discard;\n"
                  "  o = vec4(dFdx(c.y), dFdy(c.z), fwidth(c.w), 1.0); }", tmp_path, wave)
    assert fs.pixel is not None and fs.pixel.can_discard
    got, _ = _draw(fs, wave, 3)

    def shade(v: np.ndarray, cov: np.ndarray):
        fx, fy, _cx, _cy = _quad_derivs(v)
        out = np.stack([fx[..., 1], fy[..., 2], np.abs(fx[..., 3]) + np.abs(fy[..., 3]),
                        np.ones(cov.shape)], -1)
        return out, v[..., 0] >= np.float32(0.4)
    np.testing.assert_allclose(got, _reference(3, shade), atol=2e-6)


@pytest.mark.parametrize("wave", WAVES)
def test_demote_and_helper_invocation(wave: int, tmp_path: Path) -> None:
    fs = _compile("#extension GL_EXT_demote_to_helper_invocation : require\n"
                  "layout(location=0) in vec4 c; layout(location=0) out vec4 o;\n"
                  "void main() { if (c.x < 0.5) demote;\n"
                  "  float h = helperInvocationEXT() ? 1.0 : 0.0;\n"
                  "  o = vec4(dFdxFine(c.y), dFdyFine(c.y), h, 2.0); }", tmp_path, wave)
    got, _ = _draw(fs, wave, 4)

    def shade(v: np.ndarray, cov: np.ndarray):
        fx, fy, _cx, _cy = _quad_derivs(v)
        out = np.stack([fx[..., 1], fy[..., 1], np.zeros(cov.shape), np.full(cov.shape, 2.0)],
                       -1)
        return out, v[..., 0] >= np.float32(0.5)
    np.testing.assert_allclose(got, _reference(4, shade), atol=2e-6)


@pytest.mark.parametrize("wave", WAVES)
def test_all_discarded_ends_with_the_null_export(wave: int, tmp_path: Path) -> None:
    fs = _compile("layout(location=0) in vec4 c; layout(location=0) out vec4 o;\n"
                  "void main() { if (c.x >= 0.0) discard; o = c; }", tmp_path, wave)
    got, res = _draw(fs, wave, 5)
    assert (got == 0).all()


@pytest.mark.parametrize("wave", WAVES)
def test_frag_coord_and_facing(wave: int, tmp_path: Path) -> None:
    fs = _compile("layout(location=0) in vec4 c; layout(location=0) out vec4 o;\n"
                  "void main() { o = vec4(gl_FragCoord.xy, gl_FrontFacing ? 1.0 : -1.0,\n"
                  "                       gl_FragCoord.z + 0.0 * c.x); }", tmp_path, wave)
    got, res = _draw(fs, wave, 6)
    cov = np.zeros(got.shape[:2], bool)
    for y in range(got.shape[0]):
        for x in range(got.shape[1]):
            if got[y, x, 2] != 0:
                cov[y, x] = True
                assert got[y, x, 0] == x + 0.5 and got[y, x, 1] == y + 0.5
    assert set(np.unique(got[cov][:, 2])) <= {1.0, -1.0}
    assert 0 < cov.sum() <= res.stats.pixels  # triangles overlap
    assert ((got[cov][:, 3] >= 0) & (got[cov][:, 3] <= 1)).all()


@pytest.mark.parametrize("fmt", ["rgba8", "rgba16f", "rgba32f", "r32f"])
def test_export_formats(fmt: str, tmp_path: Path) -> None:
    fs = _compile("layout(location=0) in vec4 c; layout(location=0) out vec4 o;\n"
                  "void main() { o = c; }", tmp_path, 32, fmt)
    got, _ = _draw(fs, 32, 7, fmt)
    ref = _reference(7, lambda v, cov: (v, np.ones(cov.shape, bool)), fmt)
    tol = {"rgba8": 1, "rgba16f": 1e-3, "rgba32f": 2e-6, "r32f": 2e-6}[fmt]
    np.testing.assert_allclose(got.astype(np.float64), ref.astype(np.float64), atol=tol)


@pytest.mark.parametrize("wave", WAVES)
def test_flat_and_noperspective(wave: int, tmp_path: Path) -> None:
    """A flat input is its provoking vertex's value (P0); the compiled interface says
    which inputs are flat."""
    fs = _compile("layout(location=0) flat in vec4 c; layout(location=0) out vec4 o;\n"
                  "void main() { o = c + 1.0; }", tmp_path, wave)
    assert fs.pixel is not None and fs.pixel.inputs[0].flat
    got, _ = _draw(fs, wave, 8)
    pos, col = _scene(8)
    covered = got[..., 3] != 0
    firsts = col[0::3] + 1  # the provoking vertex of each triangle
    assert covered.any()
    for px in got[covered]:
        assert np.isclose(firsts, px, atol=1e-6).all(axis=1).any()


def test_ir_shapes(tmp_path: Path) -> None:
    """What isel and insert_exec_mask produce (wave32): M0 from the primitive mask, one
    lds_param_load per component, the interpolation pair, whole-quad mode entered and
    left for the exports, the GFX11 null export of the early exit."""
    src = ("layout(location=0) in vec4 c; layout(location=0) out vec4 o;\n"
           "void main() { if (c.x < 0.0) discard; o = vec4(dFdx(c.y)); }")
    r = compile_spirv(_spirv(src, tmp_path), wave_size=32, debug_options=VALIDATE)
    asm = r.asm
    assert "s_wqm_b32 exec_lo, exec_lo" in asm
    assert "s_mov_b32 m0, s0" in asm
    assert "lds_param_load" in asm and "v_interp_p10_f32" in asm and "v_interp_p2_f32" in asm
    assert "quad_perm:[1,1,3,3]" in asm
    assert "s_and_saveexec_b32" in asm and "exp mrt0" in asm
    assert "exp mrt0 off, off, off, off done" in asm


def test_no_output_is_the_null_export(tmp_path: Path) -> None:
    r = compile_spirv(_spirv("void main() {}", tmp_path), wave_size=32)
    assert "exp mrt0 off, off, off, off done" in r.asm
    g = read_graphics_object(r.code_object)
    assert g.pixel is not None and g.pixel.col_format == 0 and not g.pixel.outputs


def test_output_type_must_match_the_format(tmp_path: Path) -> None:
    from radcc.isel import IselError
    with pytest.raises(IselError, match="location 0 is int, but its attachment format "
                                        "rgba32f takes float"):
        compile_spirv(_spirv("layout(location=0) out ivec4 o; void main() { o = ivec4(1); }",
                             tmp_path), color_formats=(ColorFormat.RGBA32F,))


@pytest.mark.parametrize("decl,use", [
    ("layout(location=0) in vec4 c[1];", "c[0]"),
    ("layout(location=0) in B { vec4 c; } blk;", "blk.c"),
    ("layout(location=0) in B { vec2 a; layout(location=0, component=2) vec2 b; } blk;",
     "vec4(blk.a, blk.b)"),
])
def test_input_arrays_and_blocks(decl: str, use: str, tmp_path: Path) -> None:
    """Aggregate inputs: one location per element or member (Location/Component on
    members), interpolated as their scalar/vector parts."""
    fs = _compile(f"{decl} layout(location=0) out vec4 o;\n"
                  f"void main() {{ o = {use} * 2.0; }}", tmp_path, 32)
    got, _ = _draw(fs, 32, 9)
    ref = _reference(9, lambda v, cov: (v * 2, np.ones(cov.shape, bool)))
    np.testing.assert_allclose(got, ref, atol=2e-6)


@pytest.mark.parametrize("wave", WAVES)
def test_16bit_inputs(wave: int, tmp_path: Path) -> None:
    """16-bit inputs (ACO's emit_interp_instr_gfx11 / emit_interp_mov_instr on v2b): a
    smooth f16 input is ``lds_param_load`` + ``v_interp_p10_f16_f32`` +
    ``v_interp_p2_f16_f32`` on the low halves (opsel 0), a flat int16 one the quad's
    lane 0 (``v_mov_b32`` DPP); the code object marks them 16-bit (FP16_INTERP_MODE for
    the interpolated one). llvm-mc-19 re-assembles the code (`_compile`); the values are
    checked by tests/e2e/test_draw_radcc.py's interp_16bit draw."""
    src = ("#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require\n"
           "#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require\n"
           "layout(location=0) in f16vec2 h; layout(location=1) flat in int16_t k;\n"
           "layout(location=0) out vec4 o;\n"
           "void main() { o = vec4(vec2(h), float(k), 1.0); }")
    fs = _compile(src, tmp_path, wave)
    assert fs.pixel is not None
    h, k = fs.pixel.inputs
    assert (h.bits, h.flat, h.fp16_interp, h.components) == (16, False, True, 2)
    assert (k.bits, k.flat, k.fp16_interp, k.type) == (16, True, False, ComponentType.SINT)
    asm = compile_spirv(_spirv(src, tmp_path), wave_size=wave).asm
    assert asm.count("v_interp_p10_f16_f32") == 2 and asm.count("v_interp_p2_f16_f32") == 2
    assert "op_sel" not in asm
    assert "v_interp_p10_f32" not in asm
