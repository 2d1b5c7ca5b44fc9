"""The optional compiled build (issue 14): which of radcc's modules mypyc compiles to C
extensions, and which of them this process loaded compiled.

The pure-Python modules are the reference: the compiled build is the same source
compiled by mypyc (`mypy`'s compiler, from PyPI; it needs a C compiler, no C++), built
only on request (``RADCC_MYPYC=1`` for ``setup.py``/``pip install``, or
``python tools/build_compiled.py`` in a checkout; README "Compiled build"). Nothing else
in radcc knows whether a module is compiled: code in these modules only has to be
mypyc-compatible (types that hold at run time, no monkeypatching of their classes and
functions, no subclassing of their classes by interpreted code).

`MODULES` is the one list: the build reads it (without importing radcc) and
`tests/test_compiled.py` checks that a compiled build loads every one of them
compiled. Modules are chosen by cProfile over real shaders (bench/README.md "Compiled
build": what each pays)."""

from __future__ import annotations

import importlib
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

MODULES: tuple[str, ...] = (
    "radcc.frontend.mir",
    "radcc.frontend.opt.dce",
    "radcc.frontend.opt.algebraic",
    "radcc.frontend.opt.cse",
    "radcc.frontend.opt.constant_folding",
    "radcc.passes.access",
    "radcc.passes.live_var_analysis",
    "radcc.ir.regclass",
)


def is_compiled(module: str) -> bool:
    """Whether `module` (imported here if not yet) was loaded from a C extension."""
    mod = sys.modules.get(module) or importlib.import_module(module)
    return (getattr(mod, "__file__", None) or "").endswith((".so", ".pyd"))


def compiled_modules() -> list[str]:
    """The modules of `MODULES` that this process runs compiled."""
    return [m for m in MODULES if is_compiled(m)]


def extension_files(root: Path) -> list[Path]:
    """The compiled build's files in the checkout or install at `root` (the directory
    holding ``radcc/``): the extensions of `MODULES` and mypyc's shared runtime."""
    found: list[Path] = []
    for module in MODULES:
        base = root / Path(*module.split("."))
        found += [p for s in EXTENSION_SUFFIXES if (p := base.with_name(base.name + s)).exists()]
    found += [p for s in EXTENSION_SUFFIXES if (p := root / f"radcc__mypyc{s}").exists()]
    return found


def stale(root: Path) -> list[str]:
    """The modules of `MODULES` whose extension at `root` is older than their source
    (edited since the build: the extension runs the old code)."""
    out: list[str] = []
    for module in MODULES:
        base = root / Path(*module.split("."))
        src = base.with_name(base.name + ".py")
        for s in EXTENSION_SUFFIXES:
            ext = base.with_name(base.name + s)
            if ext.exists() and src.exists() and ext.stat().st_mtime < src.stat().st_mtime:
                out.append(module)
    return out
