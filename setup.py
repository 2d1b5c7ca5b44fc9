"""Build script: the plain package is pyproject.toml's (pure Python). With RADCC_MYPYC=1
the modules listed in radcc/compiled.py are compiled by mypyc (README "Compiled build"):

    python -m pip install mypy setuptools
    RADCC_MYPYC=1 python -m pip install --no-build-isolation .
"""

import ast
import os
from pathlib import Path

from setuptools import setup


def _compiled_modules() -> list[str]:
    # radcc/compiled.py's MODULES, read without importing radcc
    tree = ast.parse((Path(__file__).parent / "radcc" / "compiled.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "MODULES":
            return list(ast.literal_eval(node.value))
    raise SystemExit("setup.py: radcc/compiled.py has no MODULES")


ext_modules = []
if os.environ.get("RADCC_MYPYC", "") not in ("", "0"):
    from mypyc.build import mypycify

    paths = [m.replace(".", "/") + ".py" for m in _compiled_modules()]
    ext_modules = mypycify(["--config-file", "mypyc.ini", *paths],
                           opt_level=os.environ.get("RADCC_MYPYC_OPT", "3"),
                           # a C file per module, so `build_ext -j N` compiles them in
                           # parallel (one file of the whole build is ~30 MB of C)
                           multi_file=True, group_name="radcc")

setup(ext_modules=ext_modules)
