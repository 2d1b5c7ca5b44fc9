"""The optional compiled build (`radcc.compiled`, issue 14): the modules it lists exist
as sources, and the process runs each of them compiled exactly when its extension is
built beside the source, from the current source. CI runs the suite twice: pure
Python, then with the build (`pytest --compiled`: every listed module must then load
from its ``.so``, so a failed or partial build cannot pass as the compiled run)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

import radcc
from radcc.compiled import MODULES, compiled_modules, extension_files, is_compiled, stale

ROOT = Path(radcc.__file__).resolve().parents[1]


def test_listed_modules_are_sources() -> None:
    assert len(set(MODULES)) == len(MODULES)
    for module in MODULES:
        assert module.startswith("radcc.")
        assert (ROOT / Path(*module.split("."))).with_suffix(".py").is_file(), module


def test_loaded_as_built(request: pytest.FixtureRequest) -> None:
    built = {m for m in MODULES
             if any(p.name.startswith(m.rsplit(".", 1)[1] + ".")
                    and p.parent == ROOT / Path(*m.split(".")[:-1])
                    for p in extension_files(ROOT))}
    if request.config.getoption("--compiled"):
        assert built == set(MODULES), f"not built: {sorted(set(MODULES) - built)}"
        assert any(p.name.startswith("radcc__mypyc.") for p in extension_files(ROOT))
    for module in MODULES:
        mod = importlib.import_module(module)
        assert is_compiled(module) == (module in built), module
        assert mod.__file__ is not None
        assert mod.__file__.endswith(".so") == (module in built), mod.__file__
    assert compiled_modules() == [m for m in MODULES if m in built]
    assert stale(ROOT) == [], "extensions older than their sources: python tools/build_compiled.py"
