"""`radcc report` on a tiny hand-made pair of runs: the totals, helped/hurt counts and
geomeans below are worked out by hand from the rows, not taken from radcc's output."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

from radcc.cli import main


def _row(file: str, ok: bool, stats: dict[str, int] | None = None,
         error: str | None = None) -> str:
    return json.dumps({"file": file, "entry": "main", "stage": "compute", "compiler": "radcc",
                       "mcpu": "gfx1100", "wave_size": 32, "ok": ok, "error": error,
                       "compile_ms": 1.0 if ok else None, "stats": stats or {}}) + "\n"


def _st(hash_: int, instrs: int, vgprs: int, waves: int) -> dict[str, int]:
    return {"Hash": hash_, "Instructions": instrs, "VGPRs": vgprs, "WavesPerSIMD": waves}


def _runs(tmp_path: Path) -> tuple[Path, Path]:
    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    old.write_text(_row("s1", True, _st(1, 10, 4, 16)) + _row("s2", True, _st(2, 20, 8, 16))
                   + _row("s3", True, _st(3, 5, 2, 16)) + _row("s4", False, error="boom")
                   + _row("s5", True, _st(5, 7, 7, 16)))
    new.write_text(_row("s1", True, _st(9, 8, 4, 16)) + _row("s2", True, _st(8, 22, 6, 8))
                   + _row("s3", False, error="s3: error: refused")
                   + _row("s4", True, _st(4, 3, 3, 16)))
    return old, new


def test_totals_and_helped_hurt(tmp_path: Path, capsys) -> None:
    old, new = _runs(tmp_path)
    assert main(["report", str(old), str(new), "--csv", str(tmp_path / "d.csv")]) == 0
    out = capsys.readouterr().out
    lines = {ln.split()[0]: ln.split() for ln in out.splitlines() if ln.strip()}
    # compiled in both: s1, s2.  Instructions 10+20=30 -> 8+22=30: s1 helped, s2 hurt,
    # geomean sqrt(0.8 * 1.1)
    assert lines["Instructions"][1:8] == ["30", "30", "+0", "+0.00%", "2", "1", "1"]
    assert math.isclose(float(lines["Instructions"][8]), math.sqrt(0.8 * 1.1), abs_tol=1e-4)
    # VGPRs 4+8=12 -> 4+6=10: -2, -16.67%, s2 helped
    assert lines["VGPRs"][1:8] == ["12", "10", "-2", "-16.67%", "1", "1", "0"]
    assert math.isclose(float(lines["VGPRs"][8]), math.sqrt(0.75), abs_tol=1e-4)
    # WavesPerSIMD 32 -> 24: fewer waves is worse, so s2 is hurt
    assert lines["WavesPerSIMD"][1:8] == ["32", "24", "-8", "-25.00%", "1", "0", "1"]
    assert "Hash" not in lines  # an identity, not a measure
    assert "Failed in OLD, compiled in NEW: 1\n  s4:main\n" in out
    assert "Compiled in OLD, failed in NEW: 1\n  s3:main: s3: error: refused\n" in out
    assert "Most changed in Instructions:\n" in out
    most = out.split("Most changed in Instructions:\n")[1].splitlines()[:2]
    assert most[0].split() == ["10", "->", "8", "-20.00%", "s1:main"]  # |-20%| > |+10%|
    assert most[1].split() == ["20", "->", "22", "+10.00%", "s2:main"]
    with open(tmp_path / "d.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 2 * 3
    assert {"file": "s2", "entry": "main", "statistic": "VGPRs", "old": "8", "new": "6",
            "diff": "-2", "percent": "-25.0000"} in rows


def test_stat_choice_and_errors(tmp_path: Path, capsys) -> None:
    old, new = _runs(tmp_path)
    assert main(["report", str(old), str(new), "--stat", "VGPRs"]) == 0
    out = capsys.readouterr().out
    assert "VGPRs" in out and "Instructions" not in out
    assert main(["report", str(old), str(new), "--stat", "Bogus"]) == 1
    assert "no statistic Bogus" in capsys.readouterr().err
    other = tmp_path / "other.jsonl"
    other.write_text(_row("zz", True, _st(1, 1, 1, 1)))
    assert main(["report", str(old), str(other)]) == 1
    assert "no shader in common" in capsys.readouterr().err
    (tmp_path / "foreign.jsonl").write_text('{"a": 1}\n')
    assert main(["report", str(old), str(tmp_path / "foreign.jsonl")]) == 1
    err = capsys.readouterr().err
    assert "foreign.jsonl:1:1: error: not a 'radcc corpus' row" in err
    assert "Traceback" not in err


def test_html_page_has_the_tables_and_images(tmp_path: Path, capsys) -> None:
    old, new = _runs(tmp_path)
    page = tmp_path / "r.html"
    assert main(["report", str(old), str(new), "--html", str(page)]) == 0
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    # the totals row of VGPRs (worked out in test_totals_and_helped_hurt)
    assert ("<tr><td class='l'>VGPRs</td><td>12</td><td>10</td><td>-2</td>"
            "<td>-16.67%</td><td>1</td><td>1</td><td>0</td>") in html
    assert "<li>s4:main</li>" in html and "<li>s3:main: s3: error: refused</li>" in html
    imgs = html.count("src='data:image/png;base64,iVBORw0KGgo")  # PNG's signature
    assert imgs == 3  # one figure per statistic, embedded
    assert "src='http" not in html and "<link" not in html  # self-contained


def test_html_without_matplotlib_says_how(tmp_path: Path, monkeypatch, capsys) -> None:
    import sys

    old, new = _runs(tmp_path)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    assert main(["report", str(old), str(new), "--html", str(tmp_path / "r.html")]) == 1
    assert "--html needs matplotlib: pip install radcc[html]" in capsys.readouterr().err
