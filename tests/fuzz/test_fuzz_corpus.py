"""Every input a fuzz campaign found (``corpus/<reader>/``) stays fixed: the
reader rejects it (status 1) with a diagnostic in its format, no traceback.

Findings are invalid inputs (mutations that broke the seed) except files named
``*.ok.*``, valid inputs that once crashed (they only keep the contract); each
file's reader is its directory's name in `fuzzlib.READERS`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fuzzlib import CORPUS, READERS

CASES = sorted(p for p in CORPUS.glob("*/*") if p.parent.name in READERS)


def test_corpus_has_findings() -> None:
    assert CASES


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_case(path: Path, tmp_path: Path) -> None:
    r = READERS[path.parent.name]
    must_fail = ".ok." not in path.name
    assert r.check(path.read_bytes(), tmp_path, must_fail=must_fail) is None


SPIRV_FINDINGS = [p for p in CASES if p.parent.name == "spirv" and ".ok." not in p.name]


@pytest.mark.parametrize("path", SPIRV_FINDINGS, ids=lambda p: p.name)
def test_spirv_finding_without_spirv_val(path: Path, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """radcc's own checks (radcc.frontend.spirv.validate) reject every SPIR-V finding
    where spirv-tools is not installed: test_corpus_case runs with the spirv-val on PATH,
    which rejects most of them first."""
    from radcc.frontend.spirv import spirv_val

    monkeypatch.setattr(spirv_val, "find_spirv_val", lambda: None)
    assert READERS["spirv"].check(path.read_bytes(), tmp_path, must_fail=True) is None
