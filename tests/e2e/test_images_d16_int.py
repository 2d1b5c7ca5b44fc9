"""Integer d16 image loads (issue 11): texels of an integer storage format whose channels
have at most 16 bits, read and converted to 16-bit integers, are the MIMG ``d16`` loads
(radcc.frontend.opt.fold_16bit_image), and give lavapipe's and NumPy's results in the
strict emulator, wave32 and wave64. A 32-bit format's loads are not folded."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from radcc.oracle import lavapipe, spirv_tools
from tests.support.tools import assert_gfx1100_encodings_match_llvm_mc, glsl_file_spirv

HERE = Path(__file__).parent / "images"


def _image_lines(asm: str) -> list[str]:
    return [ln.split(";")[0].strip() for ln in asm.splitlines()
            if ln.strip().startswith("image_")]


def _ref(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """img_d16_int.comp in NumPy's wrapping 16-bit arithmetic."""
    h, w, _ = a.shape
    v = a.astype(np.uint16)
    py, px = np.meshgrid(np.arange(h), np.arange(w), indexing="ij")
    m = (v[..., 0] * v[..., 1] * np.uint16(7) + v[..., 2] - v[..., 3] * np.uint16(300))
    c = (v[..., ::-1] ^ px.astype(np.uint16)[..., None]) & np.uint16(255)
    s = a.transpose(1, 0, 2)[..., 2:].astype(np.int16)
    o = (s[..., 0] - s[..., 1] * np.int16(129)).astype(np.int16)
    return m.astype(np.uint32), c.astype(np.uint8), o.astype(np.int32).view(np.uint32)


@pytest.mark.parametrize("wave", [32, 64])
def test_integer_d16_loads(wave: int, lvp: None) -> None:
    from radcc.driver.compile import compile_spirv
    from radcc.driver.run import run_compute

    spirv = glsl_file_spirv(HERE / "img_d16_int.comp")
    lines = _image_lines(compile_spirv(spirv, wave_size=wave).asm)
    loads = [ln for ln in lines if ln.startswith("image_load ")]
    assert len(loads) == 2 and all(ln.endswith(" d16") for ln in loads), lines
    assert_gfx1100_encodings_match_llvm_mc(lines, wave)
    rng = np.random.default_rng(11)
    a = rng.integers(0, 256, (16, 16, 4), dtype=np.uint8)
    images = {(0, 0): (a, "rgba8ui"), (0, 1): (np.zeros((16, 16), np.uint32), None),
              (0, 2): (np.zeros((16, 16, 4), np.uint8), "rgba8ui")}
    bufs = {(0, 3): np.zeros(256, np.uint32)}
    ref = lavapipe.run_compute(spirv, groups=(2, 2, 1), buffers=bufs, images=images)
    got = run_compute(spirv, groups=(2, 2, 1), buffers=bufs, images=images, wave_size=wave)
    m, c, o = _ref(a)
    assert (ref[(0, 1)] == m).all() and (ref[(0, 2)] == c).all()
    assert ref[(0, 3)] == o.tobytes()
    for key in ((0, 1), (0, 2)):
        assert (got[key] == ref[key]).all(), key
    assert got[(0, 3)] == ref[(0, 3)]


@pytest.mark.parametrize("fmt, typ, conv, d16", [
    ("r16ui", "uimage2D", "uint16_t(imageLoad(t, ivec2(0)).x)", True),
    ("r16i", "iimage2D", "uint16_t(imageLoad(t, ivec2(0)).x)", True),
    ("rgba16ui", "uimage2D", "uint16_t(imageLoad(t, ivec2(0)).y)", True),
    ("rgba16i", "iimage2D", "uint16_t(int16_t(imageLoad(t, ivec2(0)).w))", True),
    # 32-bit channels: the guide does not say how the unit narrows them
    ("r32ui", "uimage2D", "uint16_t(imageLoad(t, ivec2(0)).x)", False),
    ("r32i", "iimage2D", "uint16_t(imageLoad(t, ivec2(0)).x)", False),
    # a use at 32 bits
    ("r16ui", "uimage2D", "uint16_t(imageLoad(t, ivec2(0)).x + 1u)", False),
])
def test_integer_d16_fold_only_for_narrow_formats(tmp_path: Path, fmt: str, typ: str,
                                                  conv: str, d16: bool) -> None:
    from radcc.driver.compile import compile_spirv

    src = tmp_path / "s.comp"
    src.write_text(
        "#version 450\n#extension GL_EXT_shader_explicit_arithmetic_types : require\n"
        "layout(local_size_x = 1) in;\n"
        f"layout(set = 0, binding = 0, {fmt}) uniform readonly {typ} t;\n"
        "layout(set = 0, binding = 1) buffer B { uint16_t o[]; };\n"
        f"void main() {{ o[0] = {conv}; }}\n")
    r = spirv_tools.compile_glsl(src, "vulkan1.2")
    assert r.ok, r.text
    lines = _image_lines(compile_spirv(r.data).asm)
    assert len(lines) == 1 and lines[0].endswith(" d16") == d16, lines
