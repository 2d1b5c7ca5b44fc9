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
