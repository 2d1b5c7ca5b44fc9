"""Structural checks of radcc's source (issue 10): read from the code's syntax trees.

- no module below the CLI reads the environment (``os.environ``, ``os.getenv``):
  options are arguments, parsed by radcc/cli/ (the oracle package is test-side and
  exempt);
- no side tables keyed by objects: no ``weakref`` / ``WeakKeyDictionary`` in radcc/,
  no dicts keyed by ``id()`` of a program or block;
- the pass manager imports every phase it lists (no lookup by module name).
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "radcc"


def _sources(exempt: tuple[str, ...] = ()) -> list[tuple[str, ast.Module]]:
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).as_posix()
        if any(rel.startswith(e) for e in exempt):
            continue
        out.append((rel, ast.parse(path.read_text(), rel)))
    return out


def _env_reads(tree: ast.Module) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv", "environb") \
                and isinstance(node.value, ast.Name) and node.value.id == "os":
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "os" and any(
                a.name in ("environ", "getenv", "environb") for a in node.names):
            lines.append(node.lineno)
    return lines


def test_no_environment_reads_below_the_cli() -> None:
    found = [f"{rel}:{ln}" for rel, tree in _sources(("radcc/cli/", "radcc/oracle/"))
             for ln in _env_reads(tree)]
    assert not found, f"environment read below the CLI: {found}"


def test_the_environment_check_finds_a_read() -> None:
    assert _env_reads(ast.parse("import os\nx = os.environ.get('A')\n")) == [2]
    assert _env_reads(ast.parse("from os import getenv\n")) == [1]
    assert _env_reads(ast.parse("import os\nos.getpid()\n")) == []


_OBJECT_NAMES = {"program", "prog", "p", "block", "blk", "b"}


def _side_tables(tree: ast.Module) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""]
            if any(m.split(".")[0] == "weakref" for m in mods):
                out.append((node.lineno, "imports weakref"))
        elif isinstance(node, ast.Name | ast.Attribute):
            name = node.id if isinstance(node, ast.Name) else node.attr
            if name.startswith("Weak") and name.endswith(("Dictionary", "Set")):
                out.append((node.lineno, name))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == "id" and len(node.args) == 1:
            a = node.args[0]
            arg = a.id if isinstance(a, ast.Name) else a.attr if isinstance(
                a, ast.Attribute) else None
            if arg in _OBJECT_NAMES:
                out.append((node.lineno, f"id({arg})"))
    return out


def test_no_object_keyed_side_tables() -> None:
    found = [f"{rel}:{ln}: {what}" for rel, tree in _sources()
             for ln, what in _side_tables(tree)]
    assert not found, f"side tables keyed by objects: {found}"


def test_the_side_table_check_finds_them() -> None:
    src = ("import weakref\nT = weakref.WeakKeyDictionary()\n"
           "def f(program, cache):\n    cache[id(program)] = 1\n    cache[id(self.block)] = 2\n")
    assert [ln for ln, _ in _side_tables(ast.parse(src))] == [1, 2, 4, 5]
    assert _side_tables(ast.parse("seen = {id(instr): 1 for instr in xs}\n")) == []


def test_the_pass_list_imports_every_phase() -> None:
    from radcc.passes import manager

    tree = ast.parse(Path(manager.__file__).read_text())
    imported: dict[str, str] = {}
    for node in tree.body:  # top-level imports only
        if isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                imported[a.asname or a.name] = node.module
        assert not (isinstance(node, ast.Import) and any(
            a.name.startswith("importlib") for a in node.names)), "no lookups by name"
    listed = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
              and isinstance(n.func, ast.Name) and n.func.id == "PassSpec"]
    assert len(listed) == len(manager.PIPELINE)
    for call in listed:
        fn = call.args[1]
        assert isinstance(fn, ast.Name), ast.dump(call)
        assert imported.get(fn.id, "").startswith("radcc.passes."), fn.id
    for spec in manager.PIPELINE:
        module = importlib.import_module(spec.run.__module__)
        assert getattr(module, spec.run.__name__) is spec.run


@pytest.mark.parametrize("module", ["radcc.passes.manager", "radcc.passes.options",
                                    "radcc.ir.analyses"])
def test_no_module_state_in_the_pass_manager(module: str) -> None:
    # options and analyses are arguments and fields, never module-level tables
    mod = importlib.import_module(module)
    assert not [k for k, v in vars(mod).items()
                if isinstance(v, dict | list | set) and not k.startswith("_")
                and k != "__all__"], module


def _seed_citations(text: str) -> list[int]:
    """Lines citing the team's private reference copies (`seeds/...`) instead of what a
    reader can open (ACO's README.md / README-ISA.md, the RDNA3 ISA guide's sections)."""
    return [i for i, line in enumerate(text.splitlines(), 1) if "seeds/" in line]


def test_citations_name_what_a_reader_can_open() -> None:
    bad = [f"{p.relative_to(ROOT.parent)}:{n}" for p in sorted(ROOT.rglob("*.py"))
           for n in _seed_citations(p.read_text())]
    assert not bad, "cite ACO's README.md / README-ISA.md or the ISA guide, not seeds/:\n" + \
        "\n".join(bad)


def test_the_citation_check_finds_one() -> None:
    assert _seed_citations('"""x\n(seeds/001 "Register Allocation")\n"""') == [2]
