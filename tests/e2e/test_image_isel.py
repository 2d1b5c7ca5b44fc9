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
    # float16_t(...): the texture unit rounds to nearest even (ISA 10.4.1 "D16"),
    # lavapipe toward zero (OpFConvert's rounding is the implementation's): NumPy's
    # nearest-even conversion of the texel exactly, lavapipe within one half ulp
    h = np.delete(np.arange(12), 6)
    assert np.array_equal(a[:, h], b[:, h]), np.argwhere(a[:, h] != b[:, h])[:4].tolist()
    y, x = np.divmod(np.arange(256), 16)
    tex = images[(0, 2)][0]
    want = tex[y // 2, x // 2, 3].astype(np.float16).astype(np.float32)  # (p + 0.5) / 32
    assert np.array_equal(a[:, 6], want)
    ulp = np.abs(np.spacing(want.astype(np.float16))).astype(np.float32)
    assert (np.abs(a[:, 6] - b[:, 6]) <= ulp).all()
