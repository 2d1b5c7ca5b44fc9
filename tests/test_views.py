"""`radcc compile --livereg/--timeline/--cfg` (radcc.driver.views).

- livereg: the marked peak and the largest per-line figures equal the PreVGPRs /
  PreSGPRs statistics (the liveness register allocation received), wave32 and wave64;
- timeline: the blocks' cycles times their weights sum to the Latency statistic; a
  dependent VALU chain against llvm-mca-19 -mcpu=gfx1100 (total cycles within 10%);
- cfg: Graphviz's dot parses the file (-Tjson), one node per block, the edges and their
  styles are the program's logical/linear successors;
- bad values: one located line, exit status 1, no traceback.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GLSL = ROOT / "tests" / "e2e" / "glsl"
SHADERS = ["cf_for_loops", "builtins_subgroup", "atomic_buffer", "cf_switch", "arith_f64",
           "shared_reduce", "cf_nested_divergent"]


def radcc(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "radcc", *args], capture_output=True,
                          text=True, cwd=ROOT)


def stats_of(asm: str) -> dict[str, int]:
    return {m[1]: int(m[2]) for m in re.finditer(r"^\t; (\w+): (\d+)$", asm, re.M)}


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("shader", SHADERS)
def test_livereg_peak_is_pre_sched_demand(shader: str, wave: int) -> None:
    r = radcc("compile", str(GLSL / f"{shader}.comp"), f"--wave{wave}", "-S", "-o", "-",
              "--livereg")
    assert r.returncode == 0, r.stderr
    st = stats_of(r.stdout)
    lines = re.findall(r"; v:\s*(\d+) s:\s*(\d+)(  <- peak.*)?$", r.stdout, re.M)
    assert len(lines) >= st["Instructions"]
    assert max(int(v) for v, _s, _p in lines) == st["PreVGPRs"]
    assert max(int(s) for _v, s, _p in lines) == st["PreSGPRs"]
    head = re.search(r"peak (\d+) VGPRs, (\d+) SGPRs", r.stdout)
    assert head and (int(head[1]), int(head[2])) == (st["PreVGPRs"], st["PreSGPRs"])
    for v, s, mark in lines:
        assert ("VGPRs" in mark) == (int(v) == st["PreVGPRs"])
        assert ("SGPRs" in mark) == (int(s) == st["PreSGPRs"])
    # the annotations are comments: the file still assembles to the same code
    plain = radcc("compile", str(GLSL / f"{shader}.comp"), f"--wave{wave}", "-S", "-o", "-")
    strip = re.sub(r" *; v:.*$", "", r.stdout, flags=re.M)
    strip = "\n".join(ln for ln in strip.split("\n") if not ln.startswith("; live"))
    assert strip.replace(" " * 8, "\t") == plain.stdout.replace(" " * 8, "\t")


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("shader", SHADERS)
def test_timeline_sums_to_latency(shader: str, wave: int) -> None:
    r = radcc("compile", str(GLSL / f"{shader}.comp"), f"--wave{wave}", "-S", "-o", "-",
              "--timeline")
    assert r.returncode == 0, r.stderr
    st = stats_of(r.stdout)
    blocks = re.findall(r"^; BB\d+: (\d+) cycles(?: x ([\d.]+))?$", r.stdout, re.M)
    assert blocks
    total = sum(int(c) * float(w or 1) for c, w in blocks)
    assert round(total) == st["Latency"]
    issues = re.findall(r"; @(\d+)\s+stall\s+(\d+)\+(\d+)\s+lat\s+(\d+) \|", r.stdout)
    assert len(issues) == st["Instructions"]


def test_timeline_against_llvm_mca(tmp_path: Path) -> None:
    """A chain of 20 dependent v_add_f32 then s_endpgm: radcc's estimator and llvm-mca-19's
    gfx1100 model (Write32Bit latency 5) agree on the total within 10%."""
    if shutil.which("llvm-mca-19") is None:
        pytest.fail("llvm-mca-19 is required (Debian package llvm-19)")
    from radcc.ir.parser import parse_program
    from radcc.passes.statistics import estimate_blocks

    ir = ["program gfx1100 wave32 compute name:chain", "BB0",
          "/* logical preds: / linear preds: / kind: top-level, */",
          "   v1: %1:v[0], v1: %2:v[1] = p_startpgm"]
    prev = 2
    for i in range(20):
        ir.append(f"   v1: %{10 + i}:v[1] = v_add_f32 %{prev}:v[1], %1:v[0]")
        prev = 10 + i
    ir.append("   s_endpgm")
    est = estimate_blocks(parse_program("\n".join(ir) + "\n", "chain.ir"), None, trace=True)
    ours = est[0].cycles
    src = tmp_path / "chain.s"
    src.write_text("v_add_f32_e32 v1, v1, v0\n" * 20)
    mca = subprocess.run(["llvm-mca-19", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100",
                          "-iterations=1", str(src)], capture_output=True, text=True, check=True)
    theirs = int(re.search(r"Total Cycles:\s+(\d+)", mca.stdout)[1])  # type: ignore[index]
    assert abs(ours - theirs) <= 0.1 * theirs, (ours, theirs)
    assert [t.issue for t in est[0].trace[:20]] == [5 * i for i in range(20)]


def test_cfg_parsed_by_graphviz(tmp_path: Path) -> None:
    if shutil.which("dot") is None:
        pytest.fail("dot is required (Debian package graphviz)")
    from radcc.cli._shader import read_shader
    from radcc.driver.compile import compile_spirv

    src = GLSL / "cf_nested_divergent.comp"
    dot = tmp_path / "k.dot"
    r = radcc("compile", str(src), "--cfg", str(dot), "-o", str(tmp_path / "k.o"))
    assert r.returncode == 0, r.stderr
    j = json.loads(subprocess.run(["dot", "-Tjson", str(dot)], capture_output=True, text=True,
                                  check=True).stdout)
    program = compile_spirv(read_shader(str(src), [])).program
    assert program is not None
    names = {o["_gvid"]: o["name"] for o in j["objects"]}
    assert sorted(names.values()) == sorted(f"BB{b.index}" for b in program.blocks)
    got = {(names[e["tail"]], names[e["head"]]): e["style"] for e in j["edges"]}
    want = {}
    for b in program.blocks:
        for s in set(b.linear_succs) | set(b.logical_succs):
            both = s in b.linear_succs and s in b.logical_succs
            want[(f"BB{b.index}", f"BB{s}")] = (
                "solid" if both else "dashed" if s in b.linear_succs else "dotted")
    assert got == want
    assert "dashed" in got.values()  # a divergent branch has linear-only edges
    labels = " ".join(o["label"] for o in j["objects"])
    assert "s_endpgm" in labels and "v_cmp" in labels


@pytest.mark.parametrize("args,msg", [
    (["--cfg", "/nonexistent/dir/k.dot"], "--cfg '/nonexistent/dir/k.dot': directory"),
    (["--cfg", "/tmp/"], "--cfg '/tmp/': expected a file name"),
    (["--livereg", "--timeline"], "--livereg and --timeline"),
])
def test_bad_view_options(args: list[str], msg: str) -> None:
    r = radcc("compile", str(GLSL / "cf_for_loops.comp"), "-S", "-o", "-", *args)
    assert r.returncode == 1
    assert r.stderr.startswith("radcc compile: error: ") and msg in r.stderr
    assert len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr
