"""`radcc compile` inputs and reports (issue 15 items 1 and 2): every GLSL stage by
extension (the non-compute ones refused by name), HLSL, standard input, several shaders
with ``-o DIR``, ``--stats-file`` as JSON Lines and CSV with the values ``--stats`` prints."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from radcc.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAXPY = ROOT / "examples" / "saxpy.comp"
SAXPY_SPV = ROOT / "examples" / "saxpy.spv"
ADD_SPV = ROOT / "tests" / "fuzz" / "corpus" / "seeds" / "add.spv"
SWITCH = ROOT / "tests" / "e2e" / "glsl" / "cf_switch.comp"
HLSL = """RWStructuredBuffer<float> b : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) { b[id.x] = b[id.x] * 2.0 + 1.0; }
"""
pytestmark = pytest.mark.skipif(shutil.which("glslangValidator") is None,
                                reason="needs glslangValidator (glslang-tools)")


def radcc(*args: str, input: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "radcc", *args], input=input,
                          capture_output=True, cwd=ROOT)


@pytest.mark.parametrize("ext,name", [
    ("geom", "geometry"), ("tesc", "tessellation control"),
    ("tese", "tessellation evaluation"), ("mesh", "mesh"), ("task", "task"),
    ("rgen", "ray generation"), ("rint", "intersection"), ("rahit", "any-hit"),
    ("rchit", "closest-hit"), ("rmiss", "miss"), ("rcall", "callable")])
def test_graphics_stages_refused_by_name(ext: str, name: str, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / f"s.{ext}"
    src.write_text("#version 450\nvoid main() {}\n")
    assert main(["compile", str(src)]) == 1
    err = capsys.readouterr().err
    rt = " (ray tracing)" if ext.startswith("r") else ""
    assert err == (f"{src}:1:1: error: {name} shaders{rt} are not supported yet; "
                   "radcc compiles compute, vertex, fragment shaders\n")


_OTHER_STAGES = {
    "tesc": ("layout(vertices = 3) out;\nvoid main() { gl_TessLevelOuter[0] = 1.0; }",
             "Tessellation: tessellation shaders are not supported yet"),
    "tese": ("layout(triangles) in;\nvoid main() { gl_Position = vec4(gl_TessCoord, 1.0); }",
             "Tessellation: tessellation shaders are not supported yet"),
    "geom": ("layout(points) in;\nlayout(points, max_vertices = 1) out;\n"
             "void main() { EmitVertex(); }", "Geometry: geometry shaders are not supported yet"),
    "mesh": ("#extension GL_EXT_mesh_shader : require\nlayout(local_size_x = 1) in;\n"
             "layout(triangles, max_vertices = 3, max_primitives = 1) out;\n"
             "void main() { SetMeshOutputsEXT(0, 0); }",
             "MeshShadingEXT: mesh and task shaders are not supported yet"),
    "task": ("#extension GL_EXT_mesh_shader : require\nlayout(local_size_x = 1) in;\n"
             "void main() { EmitMeshTasksEXT(1, 1, 1); }", "MeshShadingEXT: mesh and task shaders are not supported yet"),
    "rgen": ("#extension GL_EXT_ray_tracing : require\nvoid main() {}",
             "RayTracingKHR: ray tracing is not supported"),
    "rchit": ("#extension GL_EXT_ray_tracing : require\nvoid main() {}",
              "RayTracingKHR: ray tracing is not supported"),
}


@pytest.mark.parametrize("ext", sorted(_OTHER_STAGES))
def test_other_stages_from_spirv_refused_by_name(ext: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The same stages as SPIR-V (glslangValidator's modules): refused at the capability
    that declares the stage, named, with its word offset."""
    body, what = _OTHER_STAGES[ext]
    src = tmp_path / f"s.{ext}"
    src.write_text("#version 460\n" + body + "\n")
    spv = tmp_path / "s.spv"
    subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.3", str(src), "-o",
                    str(spv)], check=True, capture_output=True)
    assert main(["compile", str(spv)]) == 1
    err = capsys.readouterr().err
    assert f"{spv}: word 5: OpCapability: unsupported capability {what}\n" in err, err


def test_glsl_extension_is_compute(tmp_path: Path) -> None:
    shutil.copy(SAXPY, tmp_path / "s.glsl")
    assert main(["compile", str(tmp_path / "s.glsl"), "-o", str(tmp_path / "a.o")]) == 0
    assert main(["compile", str(SAXPY), "-o", str(tmp_path / "b.o")]) == 0
    assert (tmp_path / "a.o").read_bytes() == (tmp_path / "b.o").read_bytes()


def test_stdin_glsl_and_spirv(tmp_path: Path) -> None:
    want = tmp_path / "want.o"
    assert main(["compile", str(SAXPY), "-o", str(want)]) == 0
    for src in (SAXPY, SAXPY_SPV):
        r = radcc("compile", "-", "-o", "-", input=src.read_bytes())
        assert r.returncode == 0, r.stderr
        assert r.stdout == want.read_bytes(), src
    r = radcc("compile", "-", "--stage", "geom", input=b"#version 450\nvoid main(){}\n")
    assert r.returncode == 1
    assert r.stderr.decode() .startswith("<stdin>:1:1: error: geometry shaders are not")
    r = radcc("compile", "-", input=b"#version 450\nlayout(local_size_x=1) in;\n"
              b"void main(){ x = 1; }\n")
    assert r.returncode == 1 and b"<stdin>:3:" in r.stderr and b"Traceback" not in r.stderr
    r = radcc("compile", "-", "-", input=b"")
    assert r.returncode == 1 and b"more than once" in r.stderr


def test_hlsl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "k.hlsl"
    src.write_text(HLSL)
    assert main(["compile", str(src), "--entry", "CSMain", "-o", str(tmp_path / "k.o")]) == 0
    assert main(["compile", str(src), "-o", str(tmp_path / "k.o")]) == 1
    assert "no HLSL entry point 'main'" in capsys.readouterr().err


def test_several_shaders_into_a_directory(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    bad = tmp_path / "bad.comp"
    bad.write_text("#version 450\nvoid main() { x; }\n")
    assert main(["compile", str(SAXPY), str(bad), str(SWITCH), "-o", str(out)]) == 1
    assert "bad.comp" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["cf_switch.o", "saxpy.o"]
    for src in (SAXPY, SWITCH):
        assert main(["compile", str(src), "-o", str(tmp_path / "one.o")]) == 0
        assert (out / f"{src.stem}.o").read_bytes() == (tmp_path / "one.o").read_bytes()
    assert main(["compile", str(SAXPY), str(SWITCH), "-S", "-o", str(out)]) == 0
    assert ".amdgpu_metadata" in (out / "saxpy.s").read_text()
    # refused before compiling
    assert main(["compile", str(SAXPY), str(SAXPY), "-o", str(out)]) == 1
    assert "both be written to" in capsys.readouterr().err
    assert main(["compile", str(SAXPY), str(SWITCH), "-o", "-"]) == 1
    (tmp_path / "file").write_text("")
    assert main(["compile", str(SAXPY), str(SWITCH), "-o", str(tmp_path / "file")]) == 1
    assert "need a directory" in capsys.readouterr().err


def _printed_stats(src: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path,
                   *extra: str) -> dict[str, int]:
    capsys.readouterr()
    assert main(["compile", str(src), "--stats", "-o", str(tmp_path / "x.o"), *extra]) == 0
    lines = capsys.readouterr().err.strip().splitlines()
    return {k: int(v) for k, v in (ln.split(": ") for ln in lines)}


@pytest.mark.parametrize("suffix", [".json", ".jsonl", ".csv"])
def test_stats_file_matches_stats(suffix: str, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / f"r{suffix}"
    assert main(["compile", str(SAXPY), str(SWITCH), str(ADD_SPV), "--wave64",
                 "-o", str(tmp_path / "o"), "--stats-file", str(report)]) == 0
    if suffix == ".csv":
        with open(report, newline="") as f:
            recs = list(csv.DictReader(f))
        head = report.read_text().splitlines()[0].split(",")
        assert head[:5] == ["file", "entry", "stage", "mcpu", "wave_size"]
        assert head[-1] == "compile_ms"
    else:
        recs = [json.loads(ln) for ln in report.read_text().splitlines()]
    assert [r["file"] for r in recs] == [str(SAXPY), str(SWITCH), str(ADD_SPV)]
    for r, src in zip(recs, (SAXPY, SWITCH, ADD_SPV), strict=True):
        want = _printed_stats(src, capsys, tmp_path, "--wave64")
        stats = r["stats"] if suffix != ".csv" else {k: int(r[k]) for k in want}
        assert stats == want
        assert str(r["entry"]) == "main" and r["stage"] == "compute"
        assert r["mcpu"] == "gfx1100" and int(r["wave_size"]) == 64
        assert float(r["compile_ms"]) > 0


@pytest.mark.parametrize("bad,msg", [("r.txt", "expected a file name ending in"),
                                     ("nodir/r.json", "does not exist"), (".", "")])
def test_stats_file_bad_values(bad: str, msg: str, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / bad)
    assert main(["compile", str(SAXPY), "--stats-file", path, "-o", str(tmp_path / "x.o")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"radcc compile: error: --stats-file '{path}'") and msg in err
    assert len(err.splitlines()) == 1 and not (tmp_path / "x.o").exists()
