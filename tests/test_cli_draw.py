"""`radcc draw`'s command line: its errors (exit status 1, a message, no traceback) and
the PNG it writes beside each colour attachment (read back with Pillow)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from radcc.cli import main
from radcc.cli.draw import save_png

ROOT = Path(__file__).resolve().parents[1]
SAXPY = ROOT / "examples" / "saxpy.spv"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    rc = main(["draw", *argv])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return rc, err


def test_bad_command_lines(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    base = ["--vert", str(SAXPY), "--frag", str(SAXPY), "--out", str(tmp_path / "o")]
    for extra, want in (([], "required"),
                        (["--size", "8", "--draw", "3"], "--size"),
                        (["--size", "8,8", "--draw", "x"], "--draw"),
                        (["--size", "8,8", "--draw", "3", "--clear", "1,2"], "--clear"),
                        (["--size", "8,8", "--draw", "3", "--attr", "a=b.npy"], "--attr"),
                        (["--size", "8,8", "--draw", "3", "--attr", "0=/nonexistent.npy"],
                         "cannot read"),
                        (["--size", "8,8", "--draw", "3"], "no vertex entry point"),
                        (["--size", "0,8", "--draw", "3"], "1..16384"),
                        (["--size", "8,8", "--draw", "3", "--samples", "4"], "only 1"),
                        (["--size", "8,8", "--draw", "3", "--color", "rgb9"], "--color"),
                        (["--size", "8,8", "--draw", "3", "--color", "rgba32ui",
                          "--blend", "alpha"], "float or unorm")):
        argv = (base if extra else base[:4]) + extra
        rc, err = _run(capsys, *argv)
        assert rc == 1, (extra, err)
        assert "error" in err and want in err, (extra, err)


def test_png_of_each_format(tmp_path: Path) -> None:
    rgba8 = np.arange(4 * 3 * 4, dtype=np.uint8).reshape(4, 3, 4) * 5
    save_png(tmp_path / "a.png", rgba8)
    assert (np.asarray(Image.open(tmp_path / "a.png")) == rgba8).all()
    f = np.array([[[0.0, 0.5, 1.5, -1.0]]], np.float32)
    save_png(tmp_path / "b.png", f)
    assert np.asarray(Image.open(tmp_path / "b.png")).tolist() == [[[0, 128, 255, 0]]]
    r = np.array([[[0.25]], [[1.0]]], np.float32)
    save_png(tmp_path / "c.png", r)
    img = Image.open(tmp_path / "c.png")
    assert img.mode == "L" and np.asarray(img).tolist() == [[64], [255]]


DRAW = ROOT / "tests" / "e2e" / "draw" / "shaders"


def _spv(tmp_path: Path, name: str) -> str:
    from tests.e2e.draw.harness import compile_stage

    out = tmp_path / (name + ".spv")
    out.write_bytes(compile_stage(name))
    return str(out)


def test_inputs_that_do_not_fit_the_shaders(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    """The interface's errors: a missing attribute (named with its type), a wrong dtype,
    an attribute too short, a fragment output the colour format does not take, a stage
    mismatch, no entry point of the stage; an unused attribute is a warning."""
    vs, fs, mrt_int = (_spv(tmp_path, n) for n in ("basic.vert", "color.frag",
                                                  "mrt_int.frag"))
    ids = _spv(tmp_path, "ids.frag")
    pos = tmp_path / "pos.npy"
    np.save(pos, np.zeros((3, 4), np.float32))
    col_i = tmp_path / "coli.npy"
    np.save(col_i, np.zeros((3, 4), np.int32))
    short = tmp_path / "short.npy"
    np.save(short, np.zeros((2, 4), np.float32))
    out = str(tmp_path / "o")
    base = ["--size", "8,8", "--draw", "3", "--out", out]
    for args, want in (
            (["--vert", vs, "--frag", fs, "--attr", f"0={pos}"],
             "the vertex shader reads location 1 (vec4); give it with --attr 1=FILE.npy"),
            (["--vert", vs, "--frag", fs, "--attr", f"0={pos}", "--attr", f"1={col_i}"],
             "dtype int32"),
            (["--vert", vs, "--frag", fs, "--attr", f"0={pos}", "--attr", f"1={short}"],
             "2 vertices, the draw reads 3"),
            (["--vert", vs, "--frag", mrt_int, "--attr", f"0={pos}", "--attr", f"1={pos}"],
             "--color rgba8 does not take it"),
            (["--vert", vs, "--frag", ids, "--attr", f"0={pos}", "--attr", f"1={pos}",
              "--color", "rgba32ui"], "stage mismatch"),
            (["--vert", vs, "--frag", vs, "--attr", f"0={pos}", "--attr", f"1={pos}"],
             "no fragment entry point (the module has: main (vertex))")):
        rc, err = _run(capsys, *args, *base)
        assert rc == 1 and want in err, (args, err)
    rc, err = _run(capsys, "--vert", vs, "--frag", fs, "--attr", f"0={pos}", "--attr",
                   f"1={pos}", "--attr", f"5={pos}", *base)
    assert rc == 0, err
    assert "warning: --attr 5: the vertex shader does not read location 5" in err
    for f in ("color0.npy", "color0.png"):
        assert (Path(out) / f).exists()


def test_python_api_draw() -> None:
    """radcc.draw: GLSL text in, the attachments out (a triangle covering the lower-left
    half of an 8x8 framebuffer through pixel corners: by the top-left rule, the pixels
    strictly below the diagonal); bad input raises CompileError."""
    import radcc

    vs = ("#version 450\nlayout(location=0) in vec2 p;\n"
          "void main() { gl_Position = vec4(p, 0.5, 1.0); }\n")
    fs = ("#version 450\nlayout(location=0) out vec4 o;\n"
          "void main() { o = vec4(1.0, 0.5, 0.25, 1.0); }\n")
    pos = np.array([[-1, -1], [1, 1], [-1, 1]], np.float32)
    out = radcc.draw(vs, fs, size=(8, 8), count=3, attrs={0: pos}, wave_size=32)
    img = out.colors[0]
    assert img.shape == (8, 8, 4) and img.dtype == np.uint8
    lit = (img[..., 3] == 255)
    # (-1,-1) -> (0,0), (1,1) -> (8,8), (-1,1) -> (0,8): the triangle below the diagonal;
    # centres on the diagonal are on an edge whose inward normal points left and down
    # (neither a left nor a top edge): not covered
    want = np.array([[x < y for x in range(8)] for y in range(8)])
    assert (lit == want).all()
    assert (img[lit] == [255, 128, 64, 255]).all()
    with pytest.raises(radcc.CompileError, match="give it with --attr 0"):
        radcc.draw(vs, fs, size=(8, 8), count=3)
