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


GFX10_CHIPS = ("gfx1010", "gfx1011", "gfx1012", "gfx1013", "gfx1030", "gfx1031", "gfx1032",
               "gfx1033", "gfx1034", "gfx1035", "gfx1036")


def _mc(chip: str, src: str, *attrs: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={chip}", *attrs,
                           "-o", "/dev/null"], input=src, capture_output=True, text=True)


# An instruction only the chips with a feature assemble (llvm-mc-19's processor table)
FEATURE_PROBES = {
    Feature.DotInsts: "v_dot2_f32_f16 v0, v1, v2, v3",
    Feature.GFX10_AEncoding: "image_bvh_intersect_ray v[4:7], v[9:19], s[4:7]",
    Feature.GFX10_3Insts: "v_fmac_legacy_f32 v0, v1, v2",
    Feature.ScalarStores: "s_store_dword s1, s[2:3], 0x0",
    Feature.FlatScratchSTMode: "scratch_store_dword off, v1, off",
    Feature.VOPD: "v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v4",
    Feature.WMMA: "v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]",
}


@pytest.mark.parametrize("chip", GFX10_CHIPS + ("gfx1100", "gfx1103"))
def test_chip_features_agree_with_llvm_mc(chip: str):
    """llvm-mc-19 knows the chip, takes both wave sizes, and assembles a feature's
    instruction exactly when the Target lists the feature; XNACK_ANY in e_flags exactly
    for the chips with the XNACK feature."""
    t = get_target(chip)
    for wave in t.wave_sizes:
        r = _mc(chip, "s_nop 0\n", f"-mattr=+wavefrontsize{wave}")
        assert r.returncode == 0 and not r.stderr, r.stderr
    for feature, line in FEATURE_PROBES.items():
        r = _mc(chip, line + "\n")
        assert (r.returncode == 0) == t.has(feature), (feature, r.stderr)
    with tempfile.TemporaryDirectory() as d:
        obj = Path(d) / "k.o"
        subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={chip}",
                        "-filetype=obj", "-o", str(obj)], input="s_nop 0\n", text=True,
                       check=True)
        flags = subprocess.run(["llvm-readelf-19", "-h", str(obj)], capture_output=True,
                               text=True, check=True).stdout
    line = next(ln for ln in flags.splitlines() if "Flags:" in ln)
    assert line.rstrip().endswith(", xnack") == t.has(Feature.XNACK), line
    assert f", {chip}" in line


def test_feature_spellings_are_llvm_features():
    """Each Feature's value is an LLVM -mattr name (llvm-mc-19 warns on an unknown one);
    DotInsts stands for LLVM's dot1-insts ... dot10-insts; DelayAlu, WMMA, VOP3DPP and
    FlatScratchSTMode for what LLVM derives from the generation (GCNSubtarget::hasDelayAlu,
    the GFX11 instructions, hasVOP3DPP, hasFlatScratchSTMode)."""
    derived = {Feature.DotInsts, Feature.DelayAlu, Feature.WMMA, Feature.VOP3DPP,
               Feature.FlatScratchSTMode}
    for f in Feature:
        if f in derived:
            continue
        r = _mc("gfx1100", "s_nop 0\n", f"-mattr=+{f.value}")
        assert "not a recognized feature" not in r.stderr, (f, r.stderr)


def test_gfx10_1_bugs_on_every_gfx101x_chip():
    """LLVM's FeatureISAVersion10_1_Common gives every gfx101x chip the same bugs; no
    gfx103x chip has one (FeatureISAVersion10_3_0)."""
    ref = get_target("gfx1010").hazards
    for chip in GFX10_CHIPS:
        t = get_target(chip)
        assert t.hazards == (ref if chip.startswith("gfx101") else frozenset())
        assert t.compute_wave_size == 64 and t.default_wave_size == 32
    assert get_target("gfx1100").compute_wave_size == 32


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
    """GFX11 models every hazard of the seeds' "RDNA3 / GFX11 hazards" list, and the one more it
    models (WMMAHazard) is the ISA guide's own rule (section 7.9: back-to-back dependent WMMAs need
    one V_NOP or independent VALU between them)."""
    text = (SEEDS.glob("001_*").__next__()).read_text()
    section = text[text.index("RDNA3 / GFX11 hazards"):]
    end = re.search(r"\n\d*## ", section)
    section = section[: end.start()] if end else section
    named = set(re.findall(r"### (\w+Hazard)", section))
    modelled = {h.name for h in get_target("gfx1100").hazards}
    assert named <= modelled
    assert modelled - named == {"WMMAHazard"}
    isa = (SEEDS / "rdna3-isa.reflowed.txt").read_text()
    assert "Back-to-back dependent WMMA instructions require one V_NOP" in isa


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


def _clang_occupancy(vgprs: int, wave64: bool, chip: str = "gfx1100") -> int:
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
             f"-mcpu={chip}", "-nogpulib", "-O1", "-S", *flags, "k.cl", "-o", "-"],
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


@pytest.mark.parametrize("chip", ["gfx1010", "gfx1013", "gfx1033", "gfx1036"])
@pytest.mark.parametrize("vgprs", [24, 48, 97, 200])
@pytest.mark.parametrize("wave64", [False, True])
def test_gfx10_waves_per_simd_matches_clang(chip, vgprs, wave64):
    t = get_target(chip)
    expect = _clang_occupancy(vgprs, wave64, chip)
    assert t.waves_per_simd(vgprs, 0, 64 if wave64 else 32) == expect
