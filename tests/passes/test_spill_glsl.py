"""The GLSL spilling cases (tests/e2e/glsl/cases_spill.py) really spill.

Their results are checked against the NumPy references on lavapipe and in the
strict emulator by the GLSL suite (tests/e2e/test_glsl_lavapipe.py,
test_glsl_radcc.py); here the compiled code must hold the spill instructions:
the VGPR shaders store and load scratch (with a private segment in the kernel
descriptor's stats; spill_scratch_array's slots after its 256-byte array, at
offsets >= 256; spill_scratch_far's after 4224 bytes, beyond the immediate offset: from
SGPR bases), the SGPR one writes and reads lanes of a VGPR, and both stay
within the register file (VGPRs <= 256, SGPRs <= 106).
"""

from __future__ import annotations

import re

import pytest

from radcc.driver.compile import compile_spirv
from tests.e2e.glsl.cases_spill import CASES
from tests.e2e.glsl_harness import prepare

BY_NAME = {c.name: c for c in CASES}


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_glsl_case_spills(name, wave):
    res = compile_spirv(prepare(BY_NAME[name]).spirv, wave_size=wave)
    asm = res.asm
    assert res.stats["VGPRs"] <= 256 and res.stats["SGPRs"] <= 106
    if name == "spill_vgpr":
        assert res.stats["PreVGPRs"] <= 256 and res.stats["Scratch"] > 0
        assert len(re.findall(r"scratch_store_b32 off, v\d+, off offset:", asm)) >= 64
        assert len(re.findall(r"scratch_load_b32 v\d+, off, off offset:", asm)) >= 64
    elif name == "spill_scratch_array":  # the 256-byte array first, the slots after it
        offs = [int(m) for m in re.findall(
            r"scratch_(?:store|load)_b32 (?:off, v\d+|v\d+, off), off offset:(\d+)", asm)]
        assert len(offs) >= 2 * 32 and min(offs) >= 256
        assert res.stats["Scratch"] >= 256 + 4 * 32
    elif name == "spill_scratch_far":  # slots after the 4224-byte array: SGPR bases
        far = re.findall(r"scratch_(?:store|load)_b32 (?:off, v\d+|v\d+, off), s\d+\n", asm)
        bases = [int(m, 0) for m in re.findall(r"s_mov_b32 s\d+, (0x[0-9a-f]+)", asm)]
        assert len(far) >= 2 * 32 and len([b for b in bases if b >= 4224]) >= 32
        assert not re.search(r"scratch_\w+ (?:off, v\d+|v\d+, off), off offset:", asm)
        assert res.stats["Scratch"] >= 4224 + 4 * 32
    else:
        assert len(re.findall(r"v_writelane_b32 v\d+, s\d+, \d+", asm)) >= 22
        assert len(re.findall(r"v_readlane_b32 s\d+, v\d+, \d+", asm)) >= 22
        assert "scratch_" not in asm
