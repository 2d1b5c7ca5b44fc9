"""Targets: numbers checked against the ISA guide and LLVM's code objects."""

import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from radcc.target import TARGETS, Feature, GfxLevel, Hazard, get_target


def test_known_chips():
    assert set(TARGETS) >= {"gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1010", "gfx1030"}
    for t in TARGETS.values():
        assert t.gfx_level in (GfxLevel.GFX10, GfxLevel.GFX10_3, GfxLevel.GFX11)
        assert t.name.startswith("gfx11") == (t.gfx_level == GfxLevel.GFX11)
        assert t.name.startswith("gfx103") == (t.gfx_level == GfxLevel.GFX10_3)
        assert t.wave_sizes == (32, 64)
        assert t.lds_size == 64 * 1024  # ISA guide: 64 KB of LDS per workgroup


def test_unknown_chip_message():
    with pytest.raises(ValueError, match="unknown GPU 'gfx9999'"):
        get_target("gfx9999")


def test_ordering_of_levels():
    assert GfxLevel.GFX10_3 > GfxLevel.GFX10 and GfxLevel.GFX11 > GfxLevel.GFX10_3


def test_features_and_hazards_are_enum_members():
    """A misspelt feature or hazard fails where it is written, not as "absent"."""
    t = get_target("gfx1100")
    assert t.has(Feature.VOPD) and t.has(Feature.DelayAlu) and not t.has(Feature.XNACK)
    assert t.has_hazard(Hazard.VALUTransUseHazard)
    assert not t.has_hazard(Hazard.VMEMtoScalarWriteHazard)
    assert get_target("gfx1010").has_hazard(Hazard.VMEMtoScalarWriteHazard)
    assert not get_target("gfx1010").has(Feature.VOPD)
    with pytest.raises(AttributeError):
        _ = Feature.Xnack  # not a member: fails where it is spelt
    with pytest.raises(AttributeError):
        _ = Hazard.VALUTransUseHazzard
    # the old string spelling is refused, not read as absent
    with pytest.raises(TypeError, match="takes a Feature"):
        t.has("xnack")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes a Hazard"):
        t.has_hazard("VALUTransUseHazard")  # type: ignore[arg-type]
    for tgt in TARGETS.values():
        assert all(isinstance(f, Feature) for f in tgt.features)
        assert all(isinstance(h, Hazard) for h in tgt.hazards)


SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"


@pytest.mark.skipif(not SEEDS.is_dir(), reason="shared/seeds is not beside the checkout")
def test_hazards_from_seed():
    """Every GFX11 hazard we model is one the seeds' "RDNA3 / GFX11 hazards" list."""
    text = (SEEDS.glob("001_*").__next__()).read_text()
    section = text[text.index("RDNA3 / GFX11 hazards"):]
    end = re.search(r"\n\d*## ", section)
    section = section[: end.start()] if end else section
    named = set(re.findall(r"### (\w+Hazard)", section))
    assert {h.name for h in get_target("gfx1100").hazards} == named


@pytest.mark.skipif(not SEEDS.is_dir(), reason="shared/seeds is not beside the checkout")
def test_gfx10_hazards_from_seed():
    """GFX10.1 has every hazard and bug of the seeds' "RDNA / GFX10 hazards" list."""
    text = (SEEDS.glob("001_*").__next__()).read_text()
    section = text[text.index("RDNA / GFX10 hazards"):text.index("RDNA3 / GFX11 hazards")]
    named = set(re.findall(r"### (\w+(?:Hazard|Bug|MaxSize5))", section))
    named.add("SMEMStoreLoadHazard")  # the section's first, unnamed item
    assert "SMEM store followed by a load" in section
    assert {h.name for h in get_target("gfx1010").hazards} == named
    assert {h.name for h in get_target("gfx1030").hazards} <= named


def _clang_occupancy(vgprs: int, wave64: bool) -> int:
    """Occupancy clang reports for a kernel needing `vgprs` VGPRs."""
    src = (
        "kernel void k(global int *p) {\n"
        f'  __asm__ volatile("" ::: {", ".join(chr(34) + f"v{i}" + chr(34) for i in range(vgprs))});\n'
        "}\n"
    )
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "k.cl").write_text(src)
        flags = ["-mwavefrontsize64"] if wave64 else []
        out = subprocess.run(
            ["clang-19", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
             "-mcpu=gfx1100", "-nogpulib", "-O1", "-S", *flags, "k.cl", "-o", "-"],
            cwd=d, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("; Occupancy:"):
            return int(line.split(":")[1])
    raise AssertionError("clang printed no occupancy")


@pytest.mark.parametrize("vgprs", [8, 24, 25, 48, 96, 97, 128, 200, 256])
@pytest.mark.parametrize("wave64", [False, True])
def test_waves_per_simd_matches_clang(vgprs, wave64):
    t = get_target("gfx1100")
    expect = _clang_occupancy(vgprs, wave64)
    assert t.waves_per_simd(vgprs, 0, 64 if wave64 else 32) == expect
