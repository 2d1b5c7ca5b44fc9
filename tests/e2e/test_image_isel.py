"""Image instruction selection (issue 11): dmask narrowing, A16 on arrays, NSA addresses.

dmask: an image read whose result components are partly used returns only those
(`radcc.frontend.opt.shrink_image_reads`, ACO's dmask from the components read): the
expected dmask of each read is derived from the GLSL source's swizzles, the MIMG lines
encode as llvm-mc-19 encodes them, and the shader's results in the strict emulator,
wave32 and wave64, equal lavapipe's.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from radcc.oracle import lavapipe
from tests.support.tools import assert_gfx1100_encodings_match_llvm_mc, glsl_file_spirv

HERE = Path(__file__).parent / "images"


def _mimg_lines(asm: str) -> list[str]:
    return [ln.split(";")[0].strip() for ln in asm.splitlines()
            if re.match(r"\s*(image_|buffer_load_format)", ln)]


# img_dmask.comp's reads: (mnemonic, dmask, destination VGPRs, d16) from its swizzles
_DMASK_WANT = sorted([
    ("image_load", 0xA, 2, False),        # x.yw (x.y again in e.y + x.y)
    ("image_load", 0x4, 1, False),        # y.z
    ("image_sample_lz", 0x1, 1, False),   # s.x
    ("image_sample_lz_o", 0x6, 2, False),  # s2.zy
    ("image_sample_lz", 0x8, 1, True),    # float16_t(... .w)
    ("image_load", 0xF, 4, False),        # f.wzyx
])


def _vgprs(operand: str) -> int:
    m = re.fullmatch(r"v\[(\d+):(\d+)\]", operand)
    return int(m.group(2)) - int(m.group(1)) + 1 if m else 1


def _dmask_inputs() -> tuple[dict, dict, dict]:
    rng = np.random.default_rng(31)
    images = {(0, 0): (rng.uniform(-4, 4, (16, 16, 4)).astype(np.float32), None),
              (0, 1): (rng.integers(0, 256, (16, 16, 4), dtype=np.uint8), "rgba8ui"),
              (0, 2): (rng.uniform(-1, 1, (16, 16, 4)).astype(np.float32), None),
              (0, 4): (rng.uniform(-4, 4, (256, 4)).astype(np.float32), None)}
    return images, {(0, 3): np.zeros(256 * 3 * 4, np.float32)}, {(0, 2): "nearest"}


@pytest.mark.parametrize("wave", [32, 64])
def test_dmask_narrowing(wave: int, lvp: None) -> None:
    from radcc.driver.compile import compile_spirv
    from radcc.driver.run import run_compute

    spirv = glsl_file_spirv(HERE / "img_dmask.comp")
    lines = _mimg_lines(compile_spirv(spirv, wave_size=wave).asm)
    got = []
    for ln in lines:
        if ln.startswith("buffer_load_format"):
            continue
        op, rest = ln.split(None, 1)
        m = re.search(r"dmask:(0x[0-9a-f]+)", rest)
        assert m, ln
        got.append((op, int(m.group(1), 16), _vgprs(rest.split(",")[0]), rest.endswith(" d16")))
    assert sorted(got) == _DMASK_WANT, lines
    # the texel buffer's .y: the components x, y (a format load returns a prefix)
    assert [ln.split()[0] for ln in lines if ln.startswith("buffer_")] == \
        ["buffer_load_format_xy"], lines
    assert_gfx1100_encodings_match_llvm_mc(lines, wave)
    images, bufs, samplers = _dmask_inputs()
    ref = lavapipe.run_compute(spirv, groups=(2, 2, 1), buffers=bufs, images=images,
                               samplers=samplers)
    out = run_compute(spirv, groups=(2, 2, 1), buffers=bufs, images=images,
                      samplers=samplers, wave_size=wave)
    a = np.frombuffer(out[(0, 3)], np.float32).reshape(256, 12)
    b = np.frombuffer(ref[(0, 3)], np.float32).reshape(256, 12)
    # float16_t(...) of a 32-bit float texel, folded into the d16 sample: the texture unit
    # truncates (ISA 9.3.1, D16: "Conversion of float32 to float16 uses truncation"), as
    # lavapipe's conversion does (OpFConvert's rounding is the implementation's): NumPy's
    # conversion toward zero of the texel exactly, and lavapipe's
    assert np.array_equal(a, b), np.argwhere(a != b)[:4].tolist()
    y, x = np.divmod(np.arange(256), 16)
    tex = images[(0, 2)][0][y // 2, x // 2, 3]  # (p + 0.5) / 32
    near = tex.astype(np.float16)
    want = np.where(np.abs(near.astype(np.float32)) > np.abs(tex),
                    np.nextafter(near, np.float16(0)), near).astype(np.float32)
    assert np.array_equal(a[:, 6], want)
    assert not np.array_equal(want, near.astype(np.float32))  # the texels tell them apart


@pytest.mark.parametrize("sampler", ["nearest,clamp", "linear,repeat"])
@pytest.mark.parametrize("wave", [32, 64])
def test_a16_arrays(sampler: str, wave: int) -> None:
    """Sampling 2-D and 1-D arrays at 16-bit float coordinates (tex_a16_array.comp): every
    image instruction is an a16 form of an array dim (the layer rounded as a 16-bit float,
    ``v_rndne_f16``) and encodes as llvm-mc-19 encodes it; the strict emulator's results
    equal NumPy's Vulkan filtering with the layer clamp(RNE(layer)) within 1e-5 (ties
    0.5, 1.5, 2.5, -0.5 and layers outside the array included; lavapipe's runner refuses
    arrayed images)."""
    from radcc.driver.compile import compile_spirv
    from radcc.driver.images import ADDRESSES, FILTERS
    from radcc.driver.run import run_compiled
    from radcc.emu.api import Image
    from radcc.emu.texture import SamplerDesc
    from tests.e2e.test_images import _np_array_sample

    cr = compile_spirv(glsl_file_spirv(HERE / "tex_a16_array.comp"), wave_size=wave)
    lines = _mimg_lines(cr.asm)
    assert len(lines) == 4 and all(ln.endswith(" a16") and "_ARRAY" in ln for ln in lines), \
        lines
    assert "v_rndne_f16" in cr.asm and "v_rndne_f32" not in cr.asm
    assert_gfx1100_encodings_match_llvm_mc(lines, wave)
    filt, address = sampler.split(",")
    rng = np.random.default_rng(23)
    t2 = rng.uniform(-1, 1, (3, 5, 6, 4)).astype(np.float32)
    t1 = rng.uniform(-1, 1, (3, 7, 4)).astype(np.float32)
    uvl = rng.uniform(-0.2, 1.2, (64, 4)).astype(np.float16)
    uvl[:, 2] = rng.uniform(-0.9, 3.4, 64).astype(np.float16)
    uvl[:8, 2] = [0.5, 1.5, 2.5, -0.5, 3.5, 1.499, 0.501, 7.0]
    uvl[:, 3] = rng.uniform(0, 2, 64).astype(np.float16)
    f, a = FILTERS[filt], ADDRESSES[address]
    smp = SamplerDesc(clamp=(a, a, a), mag_filter=f, min_filter=f)
    imgs = {(0, 0): Image(t2, "32_32_32_32_FLOAT", 2, arrayed=True),
            (0, 1): Image(t1, "32_32_32_32_FLOAT", 1, arrayed=True)}
    _, run = run_compiled(cr, (1, 1, 1), {(2, 0): uvl, (2, 1): np.zeros((4, 64, 4), np.float32)},
                          images=imgs, samplers={(0, 0): smp, (0, 1): smp})
    assert not run.violations, run.violations[:3]
    got = run.buffers["set2_binding1"].reshape(4, 64, 4)
    u, v, lay, _ = uvl.astype(np.float64).T
    want = [_np_array_sample(t2, u, v, lay, filt, address),
            _np_array_sample(t2, u, v, lay, filt, address, offset=(1, -2)),
            _np_array_sample(t1, u, None, lay, filt, address),
            _np_array_sample(t2, v, u, lay, filt, address, gather=1)]
    for k in range(4):
        d = np.abs(got[k] - want[k]).max()
        assert d < 1e-5, f"{sampler} wave{wave} output {k}: {d}"


def test_a16_not_for_cubes(tmp_path: Path) -> None:
    """A cube's 16-bit direction stays 32-bit (the face's coordinates come from 32-bit
    v_cube* arithmetic; RADV's 16-bit fold leaves cubes out): no a16, and sampling a cube
    array keeps its 32-bit layer rounding."""
    from radcc.driver.compile import compile_spirv

    src = tmp_path / "cube16.comp"
    src.write_text("""#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerCube c;
layout(set = 0, binding = 1) uniform samplerCubeArray ca;
layout(std430, set = 2, binding = 0) readonly buffer In { f16vec4 d[]; };
layout(std430, set = 2, binding = 1) writeonly buffer Out { vec4 r[]; };
void main() {
    uint p = gl_GlobalInvocationID.x;
    r[p] = textureLod(c, vec3(d[p].xyz), 0.0) + textureLod(ca, vec4(d[p]), 0.0);
}
""")
    lines = _mimg_lines(compile_spirv(glsl_file_spirv(src)).asm)
    assert len(lines) == 2 and all("CUBE" in ln and " a16" not in ln for ln in lines), lines


_NSA_SHADERS = ("tex_cube", "tex_sample", "tex_array", "tex_cube_grad", "img_dims", "tex_mip",
                "tex_shadow", "tex_a16_array", "img_msaa")


@pytest.mark.parametrize("wave", [32, 64])
def test_nsa_addresses_from_isel(wave: int) -> None:
    """GFX11: a MIMG address of 2 to 5 dwords is one operand per VGPR (NSA), placed by the
    register allocator: printed as one range where the registers happen to be consecutive,
    else as the NSA list of at most 5 entries (ISA
    15.8: ADDR0, then ADDR1..4 in the third dword); every line encodes as llvm-mc-19's.
    GFX10.3 keeps one register range (radcc chooses NSA on GFX11 only)."""
    from radcc.driver.compile import compile_spirv

    lines: set[str] = set()
    for name in _NSA_SHADERS:
        asm = compile_spirv(glsl_file_spirv(HERE / f"{name}.comp"), wave_size=wave).asm
        lines |= set(_mimg_lines(asm))
    nsa = [ln for ln in lines if re.search(r", \[v", ln)]
    assert len(nsa) >= 4, sorted(lines)
    for ln in nsa:
        m = re.search(r", \[(.*?)\], s\[", ln)
        assert m, ln
        items = re.findall(r"v\[\d+:\d+\]|v\d+", m.group(1))
        assert 2 <= len(items) <= 5, ln
    assert_gfx1100_encodings_match_llvm_mc(sorted(lines), wave)
    for name in ("tex_cube", "tex_array"):
        asm = compile_spirv(glsl_file_spirv(HERE / f"{name}.comp"), mcpu="gfx1030",
                            wave_size=wave).asm
        assert not any(re.search(r", \[v", ln) for ln in _mimg_lines(asm)), name
