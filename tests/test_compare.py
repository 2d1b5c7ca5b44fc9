"""`radcc compare` (radcc/cli/compare.py, radcc/driver/compare.py): radcc's statistics are
`radcc compile --stats`'s, ACO's are the RADV null device's (`python -m radcc.oracle.radv`),
the differences are theirs, both listings appear whole and in order; without the radeon
ICD a one-line message and exit status 1."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from radcc.driver.compare import asm_instructions, side_by_side

ROOT = Path(__file__).resolve().parents[1]
GLSL = ROOT / "tests" / "e2e" / "glsl"
ICD = "/usr/share/vulkan/icd.d/radeon_icd.x86_64.json"


def radcc(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "radcc", *args], capture_output=True,
                          text=True, cwd=ROOT, env=env)


@pytest.mark.parametrize("shader,wave", [("cf_for_loops", 32), ("shared_reduce", 64)])
def test_compare_against_its_sources(tmp_path: Path, shader: str, wave: int) -> None:
    if not os.path.exists(ICD):
        pytest.fail("RADV is required (Debian package mesa-vulkan-drivers)")
    src = GLSL / f"{shader}.comp"
    r = radcc("compare", str(src), f"--wave{wave}", "--width", "70")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    c = radcc("compile", str(src), f"--wave{wave}", "-S", "-o", str(tmp_path / "k.s"))
    assert c.returncode == 0, c.stderr
    ours = {m[1]: int(m[2]) for m in
            re.finditer(r"^\t; (\w+): (\d+)$", (tmp_path / "k.s").read_text(), re.M)}
    assert len(ours) >= 20
    spv = tmp_path / "k.spv"
    subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.3", str(src), "-o",
                    str(spv)], check=True, capture_output=True)
    a = subprocess.run([sys.executable, "-m", "radcc.oracle.radv", str(spv), "--json",
                        "--wave", str(wave)], capture_output=True, text=True, check=True,
                       cwd=ROOT)
    aco = json.loads(a.stdout)
    rows = {m[1]: (m[2], m[3], m[4]) for m in
            re.finditer(r"^  (\w+) +(\d+) +(\S+)(?: +([+-]\d+))?",
                        out.split("comparable")[0], re.M)}
    checked = 0
    for name, value in ours.items():
        got = rows[name]
        assert int(got[0]) == value
        aco_name = {"InvThroughput": "Inverse Throughput", "VClause": "VMEM Clause",
                    "SClause": "SMEM Clause", "PreSGPRs": "Pre-Sched SGPRs",
                    "PreVGPRs": "Pre-Sched VGPRs", "CodeSize": "Code size"}.get(name, name)
        if aco_name in aco["stats"] and name != "Hash":
            assert int(got[1]) == aco["stats"][aco_name]
            assert int(got[2]) == value - aco["stats"][aco_name]
            checked += 1
    assert checked >= 10
    listing = out.split("-" * 143 + "\n", 1)[1].splitlines()
    left = [ln[:70].rstrip() for ln in listing if ln[:70].strip()]
    right = [ln[73:] for ln in listing if len(ln) > 73]
    assert left == [x if len(x) <= 70 else x[:69] + "…"
                    for x in asm_instructions((tmp_path / "k.s").read_text())]
    assert right == [x if len(x) <= 70 else x[:69] + "…" for x in asm_instructions(aco["asm"])]


def test_side_by_side_aligns_mnemonics() -> None:
    rows = side_by_side(["s_load_b64 s[0:1]", "v_add_f32 v0, v1, v2", "s_endpgm"],
                        ["s_load_b128 s[0:3]", "v_mul_f32 v3, v1, v2", "v_add_f32 v0, v3, v2",
                         "s_endpgm"], 24)
    assert rows == ["s_load_b64 s[0:1]        | s_load_b128 s[0:3]",
                    "                         > v_mul_f32 v3, v1, v2",
                    "v_add_f32 v0, v1, v2       v_add_f32 v0, v3, v2",
                    "s_endpgm                   s_endpgm"]


def test_without_radv() -> None:
    env = dict(os.environ, RADCC_RADEON_ICD="/nonexistent/radeon_icd.json")
    r = radcc("compare", str(GLSL / "cf_for_loops.comp"), env=env)
    assert r.returncode == 1
    assert r.stderr.startswith("radcc compare: error: ACO is not available: ")
    assert "mesa-vulkan-drivers" in r.stderr and len(r.stderr.splitlines()) == 1
    assert r.stdout == ""


@pytest.mark.parametrize("width,msg", [("abc", "expected an integer"), ("5", "20 to 400")])
def test_bad_width(width: str, msg: str) -> None:
    r = radcc("compare", str(GLSL / "cf_for_loops.comp"), "--width", width)
    assert r.returncode == 1 and msg in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.splitlines()) == 1


def test_compare_gfx1030_uses_navi21_and_the_default_wave() -> None:
    if not os.path.exists(ICD):
        pytest.fail("RADV is required (Debian package mesa-vulkan-drivers)")
    r = radcc("compare", str(GLSL / "cf_for_loops.comp"), "--mcpu=gfx1030")
    assert r.returncode == 0, r.stderr
    head = r.stdout.splitlines()[0]
    assert "gfx1030 wave64" in head and "NAVI21" in head and "(wave64)" in head


DRAW = ROOT / "tests" / "e2e" / "draw" / "shaders"


@pytest.mark.parametrize("wave", [32, 64])
def test_compare_graphics_pipeline_reports_both_stages(wave: int) -> None:
    """radcc compare VS FS: one section per stage, ACO's VS on NGG and FS exports; a stage
    radcc refuses shows radcc's error and ACO's side alone (exit 1), a stage it compiles the
    statistics table and both listings."""
    if not os.path.exists(ICD):
        pytest.fail("RADV is required (Debian package mesa-vulkan-drivers)")
    r = radcc("compare", str(DRAW / "interp.vert"), str(DRAW / "interp.frag"), f"--wave{wave}",
              "--color", "rgba32f", "--width", "50")
    assert "Traceback" not in r.stderr, r.stderr
    head, _, rest = r.stdout.partition("== vertex shader (")
    assert f"wave{wave}" in head and "rgba32f attachments" in head, head
    vs, _, fs = rest.partition("== fragment shader (")
    assert f"ACO: Vertex Shader, wave{wave}" in vs
    assert f"ACO: Fragment Shader, wave{wave}" in fs
    refused = 0
    for text, marks in ((vs, ("exp prim", "exp pos0")), (fs, ("lds_param_load", "exp mrt2"))):
        for m in marks:
            assert m in text, f"{m} not in ACO's listing:\n{text}"
        if "\nradcc: " in text:
            refused += 1
            assert "ACO's statistics:" in text and "Instructions" in text
        else:
            assert "statistics (ACO's names" in text and "comparable" in text
    assert r.returncode == (1 if refused else 0), r.stderr


def test_compare_graphics_wants_a_vertex_and_a_fragment_shader() -> None:
    r = radcc("compare", str(GLSL / "cf_for_loops.comp"), str(DRAW / "color.frag"))
    assert r.returncode == 1
    assert "vertex shader must be .vert GLSL or .spv" in r.stderr and "Traceback" not in r.stderr
    r = radcc("compare", str(DRAW / "basic.vert"))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "a graphics stage compares as part of a pipeline" in r.stderr
