"""`radcc corpus`: a small corpus made here (GLSL compiled by glslangValidator, an
invalid file, a refused geometry shader); its rows against `radcc compile --stats-file`,
--resume, a timeout and a worker crash confined to their shaders."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from radcc.cli import main

_A = """#version 450
layout(local_size_x=64) in;
layout(std430, binding=0) buffer B { float d[]; };
void main() { uint i = gl_GlobalInvocationID.x; d[i] = d[i] * 2.0 + 1.0; }
"""
_B = """#version 450
layout(local_size_x=64) in;
layout(std430, binding=0) buffer B { uint d[]; };
void main() { uint i = gl_GlobalInvocationID.x; if (d[i] > 3u) d[i] = d[i] * d[i]; }
"""


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    d = tmp_path / "c"
    (d / "sub").mkdir(parents=True)
    (tmp_path / "a.comp").write_text(_A)
    subprocess.run(["glslangValidator", "-V", str(tmp_path / "a.comp"), "-o",
                    str(d / "a.spv")], check=True, capture_output=True)
    (d / "sub" / "b.comp").write_text(_B)
    (d / "bad.comp").write_text("#version 450\nvoid main( {\n")
    (d / "g.geom").write_text("#version 450\nlayout(points) in;\n"
                              "layout(points, max_vertices = 1) out;\n"
                              "void main() { EmitVertex(); }\n")
    (d / "notes.txt").write_text("not a shader\n")
    return d


def _rows(path: Path) -> list[dict]:
    return [json.loads(ln) for ln in path.read_text().splitlines()]


def _by_key(rows: list[dict]) -> dict[tuple[str, str], dict]:
    return {(r["file"], r["entry"]): r for r in rows}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_rows_equal_stats_file(corpus: Path, tmp_path: Path, capsys, jobs: str) -> None:
    """One worker compiling every job in turn (--jobs 1: the failing ones among them)
    or two: the rows of the compiled shaders are those of a compile in its own process."""
    out = tmp_path / "out.jsonl"
    assert main(["corpus", str(corpus), "-o", str(out), "--jobs", jobs]) == 1  # two fail
    rows = _by_key(_rows(out))
    a, b = str(corpus / "a.spv"), str(corpus / "sub" / "b.comp")
    assert set(rows) == {(a, "main"), (b, "main"), (str(corpus / "bad.comp"), "main"),
                         (str(corpus / "g.geom"), "main")}
    for r in rows.values():
        assert list(r) == ["file", "entry", "stage", "compiler", "mcpu", "wave_size", "ok",
                           "error", "compile_ms", "stats"]
        assert r["compiler"] == "radcc" and r["mcpu"] == "gfx1100" and r["wave_size"] == 32
    # the compiled ones: the rows of radcc compile --stats-file but compile_ms
    wants = []
    for f in (a, b):  # each in a fresh process
        sf = tmp_path / f"stats-{Path(f).stem}.jsonl"
        subprocess.run([sys.executable, "-c", "import sys; from radcc.cli import main; "
                        "sys.exit(main(sys.argv[1:]))", "compile", f, "-o",
                        str(tmp_path / "objs"), "--stats-file", str(sf)], check=True,
                       capture_output=True)
        wants += _rows(sf)
    assert len(wants) == 2
    for want in wants:
        got = rows[(want["file"], want["entry"])]
        assert got["ok"] is True and got["error"] is None and got["compile_ms"] > 0
        assert {k: got[k] for k in want if k != "compile_ms"} == \
            {k: v for k, v in want.items() if k != "compile_ms"}
        assert got["stats"]["Instructions"] > 0
    # the failing ones: one-line errors, no statistics
    bad, geom = rows[(str(corpus / "bad.comp"), "main")], rows[(str(corpus / "g.geom"), "main")]
    for r in (bad, geom):
        assert r["ok"] is False and r["stats"] == {} and r["compile_ms"] is None
        assert r["error"] and "\n" not in r["error"]
    assert geom["stage"] == "geometry" and "geometry shaders are not supported" in geom["error"]
    assert "ERROR" in bad["error"]


def test_resume_recompiles_nothing(corpus: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    out = tmp_path / "out.jsonl"
    (corpus / "bad.comp").unlink()
    (corpus / "g.geom").unlink()
    assert main(["corpus", str(corpus), "-o", str(out), "--jobs", "2"]) == 0
    before = out.read_text()
    assert len(before.splitlines()) == 2

    import radcc.cli._shader as shader

    def boom(*a, **k):  # a recompile would make an error row
        raise RuntimeError("recompiled")

    monkeypatch.setattr(shader, "compile_shader", boom)
    assert main(["corpus", str(corpus), "-o", str(out), "--resume"]) == 0
    assert out.read_text() == before
    assert "0 compiled" in capsys.readouterr().err
    # a new shader is compiled (here: with the patched compiler, so an error row), the
    # others kept
    (corpus / "c.comp").write_text(_A)
    assert main(["corpus", str(corpus), "-o", str(out), "--resume"]) == 1
    rows = _rows(out)
    assert out.read_text().startswith(before) and len(rows) == 3
    assert rows[2]["file"] == str(corpus / "c.comp") and "recompiled" in rows[2]["error"]


def test_resume_refuses_a_foreign_out(corpus: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text('{"file": "x"}\n')
    assert main(["corpus", str(corpus), "-o", str(out), "--resume"]) == 1
    err = capsys.readouterr().err
    assert f"{out}:1:1: error: not a 'radcc corpus' row" in err and "Traceback" not in err
    out.write_text("garbage\n")
    assert main(["corpus", str(corpus), "-o", str(out), "--resume"]) == 1
    assert f"{out}:1:1: error: not JSON" in capsys.readouterr().err
    assert out.read_text() == "garbage\n"


def test_timeout_and_crash_stay_confined(corpus: Path, tmp_path: Path, monkeypatch,
                                         capsys) -> None:
    (corpus / "bad.comp").unlink()
    (corpus / "g.geom").unlink()
    out = tmp_path / "out.jsonl"
    assert main(["corpus", str(corpus), "-o", str(out), "--timeout", "0.001"]) == 1
    rows = _rows(out)
    assert len(rows) == 2
    assert all(not r["ok"] and r["error"] == "timed out after 0.001 s" for r in rows)

    import radcc.cli._shader as shader

    real = shader.compile_shader

    def crash_on_b(args, spirv, *a, **k):
        if args.shader.endswith("b.comp"):
            os._exit(7)  # a worker dying without a word
        return real(args, spirv, *a, **k)

    monkeypatch.setattr(shader, "compile_shader", crash_on_b)
    assert main(["corpus", str(corpus), "-o", str(out), "--jobs", "2"]) == 1
    rows = _by_key(_rows(out))
    assert rows[(str(corpus / "a.spv"), "main")]["ok"] is True
    b = rows[(str(corpus / "sub" / "b.comp"), "main")]
    assert b["ok"] is False and b["error"] == "the worker crashed (exit status 7)"


@pytest.mark.parametrize("failure", ["crash", "timeout", "memory"])
def test_one_worker_goes_on_after_a_failure(corpus: Path, tmp_path: Path, monkeypatch,
                                            capsys, failure: str) -> None:
    """--jobs 1: the shader after one whose worker crashed, timed out or ran out of
    memory compiles in a fresh worker, and the one before it is unharmed."""
    (corpus / "bad.comp").unlink()
    (corpus / "g.geom").unlink()
    (corpus / "z.comp").write_text(_A)  # sorted after sub/b.comp
    out = tmp_path / "out.jsonl"
    import time

    import radcc.cli._shader as shader

    real = shader.compile_shader

    def fail_on_b(args, spirv, *a, **k):
        if args.shader.endswith("b.comp"):
            if failure == "crash":
                os._exit(7)
            if failure == "timeout":
                time.sleep(60)
            return bytearray(16 << 30)  # 16 GB
        return real(args, spirv, *a, **k)

    monkeypatch.setattr(shader, "compile_shader", fail_on_b)
    assert main(["corpus", str(corpus), "-o", str(out), "--jobs", "1", "--timeout", "8",
                 "--max-memory", "6144"]) == 1
    rows = _rows(out)
    assert [Path(r["file"]).name for r in rows] == ["a.spv", "b.comp", "z.comp"]
    assert rows[0]["ok"] is True and rows[2]["ok"] is True
    assert rows[2]["stats"]["Instructions"] > 0
    want = {"crash": "the worker crashed (exit status 7)", "timeout": "timed out after 8 s",
            "memory": "out of memory (--max-memory 6144 MB)"}[failure]
    assert rows[1]["ok"] is False and rows[1]["error"] == want


def test_memory_blowup_stays_confined(corpus: Path, tmp_path: Path, monkeypatch,
                                      capsys) -> None:
    """A shader that allocates past --max-memory fails alone, with its one-line row."""
    (corpus / "bad.comp").unlink()
    (corpus / "g.geom").unlink()
    out = tmp_path / "out.jsonl"
    import radcc.cli._shader as shader

    real = shader.compile_shader

    def blow_up_on_b(args, spirv, *a, **k):
        if args.shader.endswith("b.comp"):
            return bytearray(16 << 30)  # 16 GB
        return real(args, spirv, *a, **k)

    monkeypatch.setattr(shader, "compile_shader", blow_up_on_b)
    assert main(["corpus", str(corpus), "-o", str(out), "--max-memory", "6144"]) == 1
    rows = _by_key(_rows(out))
    assert rows[(str(corpus / "a.spv"), "main")]["ok"] is True
    b = rows[(str(corpus / "sub" / "b.comp"), "main")]
    assert b["ok"] is False and b["error"] == "out of memory (--max-memory 6144 MB)"
    assert main(["corpus", str(corpus), "-o", str(out), "--max-memory", "12"]) == 1
    assert "is not a size in megabytes" in capsys.readouterr().err


def test_progress_bar_on_a_terminal(corpus: Path, tmp_path: Path, monkeypatch) -> None:
    """On a terminal the run shows tqdm's bar: done of total, failed, rate."""
    import io

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Tty()
    monkeypatch.setattr(sys, "stderr", err)
    out = tmp_path / "out.jsonl"
    assert main(["corpus", str(corpus), "-o", str(out), "--jobs", "2"]) == 1
    lines = err.getvalue().replace("\r", "\n").strip().splitlines()
    final = next(ln for ln in reversed(lines) if "shader/s" in ln)  # the bar's last state
    n = len(_rows(out))
    assert re.search(rf"\b{n}/{n}\b", final), final
    assert "shader/s" in final and re.search(r"failed=[1-9]", final), final


def test_shards_partition_the_files(corpus: Path, tmp_path: Path, capsys) -> None:
    """--shard K/N: every N-th file of the sorted list from the K-th; the shards together
    are the whole corpus, each file once."""
    (corpus / "bad.comp").unlink()
    (corpus / "g.geom").unlink()
    (corpus / "c.comp").write_text(_A)
    files = [str(corpus / "a.spv"), str(corpus / "c.comp"), str(corpus / "sub" / "b.comp")]
    got = []
    for k in range(2):
        out = tmp_path / f"s{k}.jsonl"
        assert main(["corpus", str(corpus), "-o", str(out), "--shard", f"{k}/2"]) == 0
        got.append([r["file"] for r in _rows(out)])
    assert got == [files[0::2], files[1::2]]
    for bad in ("2/2", "x", "1/0", "1/-2"):
        assert main(["corpus", str(corpus), "-o", str(tmp_path / "o.jsonl"),
                     "--shard", bad]) == 1
        assert "is not a shard K/N" in capsys.readouterr().err


def test_missing_input_is_an_error(tmp_path: Path, capsys) -> None:
    assert main(["corpus", str(tmp_path / "nope"), "-o", str(tmp_path / "o.jsonl")]) == 1
    assert "no such file or directory" in capsys.readouterr().err


def test_aco_rows_and_a_report_between_compilers(corpus: Path, tmp_path: Path,
                                                 capsys) -> None:
    """--compiler aco: ACO's statistics (RADV null device) under radcc's names, in rows
    `radcc report` compares with radcc's."""
    from radcc.oracle import radv

    if not radv.available():
        pytest.skip("RADV (mesa-vulkan-drivers) is not installed")
    (corpus / "bad.comp").unlink()
    ours, aco = tmp_path / "radcc.jsonl", tmp_path / "aco.jsonl"
    assert main(["corpus", str(corpus), "-o", str(ours), "--jobs", "2"]) == 1  # g.geom
    assert main(["corpus", str(corpus), "-o", str(aco), "--jobs", "2",
                 "--compiler", "aco"]) == 1
    rows = _by_key(_rows(aco))
    a = rows[(str(corpus / "a.spv"), "main")]
    assert a["ok"] and a["compiler"] == "aco" and a["wave_size"] == 32
    radcc_a = _by_key(_rows(ours))[(str(corpus / "a.spv"), "main")]
    assert set(a["stats"]) <= set(radcc_a["stats"])
    assert {"Instructions", "VGPRs", "SGPRs", "CodeSize"} <= set(a["stats"])
    assert a["stats"]["Instructions"] > 0
    assert not rows[(str(corpus / "g.geom"), "main")]["ok"]
    # --resume refuses to mix compilers in one OUT
    assert main(["corpus", str(corpus), "-o", str(aco), "--resume"]) == 1
    assert "holds rows of compiler 'aco', not 'radcc'" in capsys.readouterr().err
    assert main(["report", str(ours), str(aco), "--stat", "Instructions"]) == 0
    assert "Instructions" in capsys.readouterr().out


def test_local_ray_gives_the_pools_rows(corpus: Path, tmp_path: Path, capsys) -> None:
    pool, ray_out = tmp_path / "pool.jsonl", tmp_path / "ray.jsonl"
    assert main(["corpus", str(corpus), "-o", str(pool), "--jobs", "2"]) == 1
    assert main(["corpus", str(corpus), "-o", str(ray_out), "--jobs", "2", "--ray"]) == 1

    def strip(rows: list[dict]) -> dict:
        return {k: {n: v for n, v in r.items() if n != "compile_ms"}
                for k, r in _by_key(rows).items()}

    assert strip(_rows(ray_out)) == strip(_rows(pool))
    assert len(_rows(ray_out)) == 4


def test_ray_missing_says_how(corpus: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # import fails
    out = tmp_path / "o.jsonl"
    assert main(["corpus", str(corpus), "-o", str(out), "--ray"]) == 1
    assert "--ray needs Ray: pip install radcc[ray]" in capsys.readouterr().err
    assert not out.exists()
