"""Source lines as assembly comments (radcc/frontend/spirv/debug_lines.py,
radcc/driver/source_lines.py): glslangValidator -g (OpLine) and -gVS
(NonSemantic.Shader.DebugInfo.100 DebugLine) give ``; FILE:LINE: TEXT`` comments whose
text is that line of the source; debug information changes no code; the commented file
still assembles to the same code object."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHADERS = [ROOT / "examples" / "saxpy.comp", ROOT / "tests" / "e2e" / "glsl" / "cf_for_loops.comp",
           ROOT / "tests" / "e2e" / "glsl" / "shared_reduce.comp"]


def radcc(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "radcc", *args], capture_output=True,
                          text=True, cwd=ROOT)


def spirv(src: Path, out: Path, *flags: str, env: str = "vulkan1.3") -> Path:
    subprocess.run(["glslangValidator", "-V", "--target-env", env, *flags, str(src),
                    "-o", str(out)], check=True, capture_output=True)
    return out


@pytest.mark.parametrize("flag,env", [("-g", "vulkan1.3"), ("-gVS", "vulkan1.3"),
                                      ("-g", "vulkan1.0")])
@pytest.mark.parametrize("src", SHADERS, ids=[s.stem for s in SHADERS])
def test_source_comments(tmp_path: Path, src: Path, flag: str, env: str) -> None:
    """(vulkan1.0: glslang puts OpModuleProcessed lines and #line 1 before the text)"""
    dbg = spirv(src, tmp_path / "g.spv", flag, env=env)
    plain = spirv(src, tmp_path / "p.spv", env=env)
    r = radcc("compile", str(dbg), "-S", "-o", "-")
    assert r.returncode == 0, r.stderr
    text = src.read_text().split("\n")
    comments = re.findall(rf"^; {re.escape(src.name)}:(\d+): (.*)$", r.stdout, re.M)
    assert len(comments) >= 3
    for line, shown in comments:
        assert shown == text[int(line) - 1].strip()
    # the body of main is there
    body = [k for k, t in enumerate(text, 1) if "main()" in t][0]
    assert any(int(n) > body for n, _ in comments)
    p = radcc("compile", str(plain), "-S", "-o", "-")
    assert "; " + src.name not in p.stdout
    assert re.sub(r"^; .*\n", "", r.stdout, flags=re.M) == re.sub(r"^; .*\n", "", p.stdout,
                                                                   flags=re.M)
    a, b = tmp_path / "a.o", tmp_path / "b.o"
    assert radcc("compile", str(dbg), "-o", str(a)).returncode == 0
    assert radcc("compile", str(plain), "-o", str(b)).returncode == 0
    assert a.read_bytes() == b.read_bytes()
    s = tmp_path / "k.s"
    s.write_text(r.stdout)
    c = tmp_path / "c.o"
    m = radcc("mc", "--filetype=obj", str(s), "-o", str(c))
    assert m.returncode == 0, m.stderr
    assert c.read_bytes() == b.read_bytes()
