"""The shape of radcc's code (docs/architecture.md "What exists"), checked on its source.

`import_graph()` is radcc's module import graph, built with `ast` from every import
statement of every module under radcc/: module level, inside functions and classes,
and under ``if TYPE_CHECKING:`` alike (a type-only import is still a dependency).
``from radcc.x import y`` is an edge to ``radcc.x.y`` when that is a module, else to
``radcc.x``. The checks:

- no import cycle among radcc's modules;
- the runtime never imports the oracles (`radcc.oracle` is for the tests'
  expectations), the tests' support code, pytest or hypothesis;
- `radcc.ir` does not import `radcc.emu`, `radcc.passes`, `radcc.isel` or the drivers/CLI;
- the command line is `radcc.cli`, one module per subcommand, and nothing below it
  imports it;
- no module below the CLI reads the environment (``os.environ``, ``os.getenv``):
  options are arguments, parsed by radcc/cli/ (the oracle package is test-side and
  exempt);
- no side tables keyed by objects: no ``weakref`` / ``WeakKeyDictionary`` in radcc/,
  no dicts keyed by ``id()`` of a program or block, no module-level table indexed by
  ``id()`` of anything;
- the pass manager imports every phase it lists (no lookup by module name);
- citations name what a reader can open, not ``seeds/`` paths.

To add a check, write a test function over `modules()` (name -> `Module`: path and
parsed tree) or `import_graph()` (name -> {imported module: first line}); report what
fails with module names and line numbers.
"""

from __future__ import annotations

import ast
import functools
import importlib
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "radcc"


@dataclass(frozen=True)
class Module:
    name: str  # dotted, "radcc.ir.program"; a package is its __init__
    path: Path
    is_package: bool
    tree: ast.Module


@functools.cache
def modules() -> dict[str, Module]:
    """Every module of radcc by dotted name."""
    out: dict[str, Module] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        name = ".".join(parts)
        out[name] = Module(name, path, is_package, ast.parse(path.read_text(), str(path)))
    return out


def imported_names(mod: Module) -> list[tuple[str, int]]:
    """(dotted name, line) of everything `mod` imports, anywhere in it: ``import a.b`` gives
    ``a.b``; ``from a import b`` gives ``a.b`` (a module or a name in ``a``); relative
    imports are resolved."""
    out: list[tuple[str, int]] = []
    for node in ast.walk(mod.tree):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = mod.name if mod.is_package else mod.name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                src = f"{base}.{node.module}" if node.module else base
            else:
                src = node.module or ""
            out += [(f"{src}.{a.name}", node.lineno) for a in node.names]
    return out


@functools.cache
def import_graph() -> dict[str, dict[str, int]]:
    """radcc module -> {radcc module it imports: first line}."""
    mods = modules()
    graph: dict[str, dict[str, int]] = {}
    for name, mod in mods.items():
        edges = graph[name] = {}
        for target, line in imported_names(mod):
            while target and target not in mods:  # `from pkg import name`: pkg
                target = target.rpartition(".")[0]
            if target and target != name:
                edges.setdefault(target, line)
    return graph


def _cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """One cycle through each strongly connected component of more than one module
    (Tarjan, iteratively), as [a, b, ..., a]."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, {})))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on_stack.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    components.append(sorted(comp))
    cycles = []
    for comp in components:
        members = set(comp)
        start = comp[0]
        # shortest path from start back to start inside the component (BFS)
        prev: dict[str, str] = {}
        frontier = [start]
        found = None
        while frontier and found is None:
            nxt = []
            for v in frontier:
                for w in sorted(graph[v]):
                    if w not in members:
                        continue
                    if w == start:
                        found = v
                        break
                    if w not in prev:
                        prev[w] = v
                        nxt.append(w)
                if found is not None:
                    break
            frontier = nxt
        assert found is not None
        path = [start, found]
        while path[-1] != start:
            path.append(prev.get(path[-1], start))
        cycles.append(path[::-1])
    return cycles


def _format_cycle(cycle: list[str]) -> str:
    graph = import_graph()
    steps = [f"{a} (line {graph[a][b]}) -> {b}" for a, b in zip(cycle, cycle[1:], strict=False)]
    return "  " + "\n  ".join(steps)


def test_no_import_cycles() -> None:
    cycles = _cycles(import_graph())
    assert not cycles, "import cycles in radcc:\n" + "\n".join(map(_format_cycle, cycles))


def test_cycle_finder_finds_a_cycle() -> None:
    """The check above can fail: a three-module cycle (and only it) is reported."""
    graph = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3, "d": 4}, "d": {}}
    assert _cycles(graph) == [["a", "b", "c", "a"]]
    assert _cycles({"a": {"b": 1}, "b": {}}) == []


def _under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_runtime_does_not_import_oracles_or_test_code() -> None:
    bad = []
    for name, mod in modules().items():
        if _under(name, "radcc.oracle"):
            continue
        for target, line in imported_names(mod):
            if any(_under(target, p) for p in ("radcc.oracle", "tests", "pytest", "hypothesis")):
                bad.append(f"{mod.path.relative_to(ROOT)}:{line}: imports {target}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("above", ["radcc.emu", "radcc.passes", "radcc.isel", "radcc.driver",
                                   "radcc.cli"])
def test_ir_does_not_import_what_is_built_on_it(above: str) -> None:
    """The machine IR sits below the emulator, the phases, isel and the drivers."""
    bad = [f"{a} (line {line}) -> {b}" for a, edges in import_graph().items()
           if _under(a, "radcc.ir") for b, line in edges.items() if _under(b, above)]
    assert not bad, "\n".join(bad)


def test_cli_is_one_module_per_subcommand() -> None:
    from radcc.cli import COMMANDS

    mods = modules()
    for cmd, (module, _help) in COMMANDS.items():
        assert module == f"radcc.cli.{cmd}", (cmd, module)
        tree = mods[module].tree
        assert any(isinstance(n, ast.FunctionDef) and n.name == "main" for n in tree.body), \
            f"{module} has no main(argv)"
    cli_files = {p.stem for p in (PACKAGE / "cli").glob("*.py")}
    extra = {f for f in cli_files - set(COMMANDS) - {"__init__"} if not f.startswith("_")}
    assert not extra, f"radcc/cli/ modules that are no subcommand: {sorted(extra)} (a helper " \
                      f"module shared by subcommands is private: _name.py)"


def test_nothing_below_the_cli_imports_it() -> None:
    bad = [f"{a} (line {line}) -> {b}" for a, edges in import_graph().items()
           if not _under(a, "radcc.cli") and a != "radcc.__main__"
           for b, line in edges.items() if _under(b, "radcc.cli")]
    assert not bad, "\n".join(bad)


def test_top_level_modules() -> None:
    """radcc/*.py: the package, ``python -m radcc``, the target descriptions and the
    package's compiled-build list (`radcc.compiled`, read by setup.py); drivers are in
    radcc/driver/, command lines in radcc/cli/, the pass list in radcc/passes/."""
    allowed = {"__init__", "__main__", "target", "compiled"}
    top = {p.stem for p in PACKAGE.glob("*.py")}
    assert top <= allowed, f"unexpected top-level modules: {sorted(top - allowed)}"


def _sources(exempt: tuple[str, ...] = ()) -> list[tuple[str, ast.Module]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
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
        elif _is_id_call(node):
            a = node.args[0]  # type: ignore[attr-defined]
            arg = a.id if isinstance(a, ast.Name) else a.attr if isinstance(
                a, ast.Attribute) else None
            if arg in _OBJECT_NAMES:
                out.append((node.lineno, f"id({arg})"))
    # a module-level table indexed by id(...) of anything: state that outlives a call
    module_names = {t.id for n in tree.body if isinstance(n, ast.Assign | ast.AnnAssign)
                    for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                    if isinstance(t, ast.Name)}
    id_names = _id_key_names(tree)
    for node in ast.walk(tree):
        table, key = None, None
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            table, key = node.value.id, node.slice
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                isinstance(node.func.value, ast.Name) and node.args and \
                node.func.attr in ("get", "setdefault", "pop", "__contains__"):
            table, key = node.func.value.id, node.args[0]
        elif isinstance(node, ast.Compare) and len(node.comparators) == 1 and \
                isinstance(node.ops[0], ast.In | ast.NotIn) and \
                isinstance(node.comparators[0], ast.Name):
            table, key = node.comparators[0].id, node.left
        if table in module_names and key is not None and _has_id_key(key, id_names):
            out.append((node.lineno, f"module-level {table}[id(...)]"))
    return out


def _has_id_key(key: ast.AST, id_names: set[str]) -> bool:
    """Is `key` id(...), a tuple holding one, or a name assigned from either?"""
    if isinstance(key, ast.Name):
        return key.id in id_names
    return _is_id_call(key) or isinstance(key, ast.Tuple) and any(
        _is_id_call(x) for x in key.elts)


def _id_key_names(tree: ast.Module) -> set[str]:
    """Names assigned an id(...) or a tuple holding one (``key = (id(info), w)``)."""
    return {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign)
            and _has_id_key(n.value, set()) for t in n.targets if isinstance(t, ast.Name)}


def _is_id_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
        node.func.id == "id" and len(node.args) == 1


def test_no_object_keyed_side_tables() -> None:
    found = [f"{rel}:{ln}: {what}" for rel, tree in _sources()
             for ln, what in _side_tables(tree)]
    assert not found, f"side tables keyed by objects: {found}"


def test_the_side_table_check_finds_them() -> None:
    src = ("import weakref\nT = weakref.WeakKeyDictionary()\n"
           "def f(program, cache):\n    cache[id(program)] = 1\n    cache[id(self.block)] = 2\n")
    assert [ln for ln, _ in _side_tables(ast.parse(src))] == [1, 2, 4, 5]
    assert _side_tables(ast.parse("seen = {id(instr): 1 for instr in xs}\n")) == []
    cache = ("_C: dict[int, int] = {}\ndef f(info):\n    e = _C.get(id(info))\n"
             "    _C[id(info)] = 1\n    return id(info) in _C\n"
             "def g(info, local):\n    return local[id(info)]\n")
    assert sorted(ln for ln, _ in _side_tables(ast.parse(cache))) == [3, 4, 5]
    keyed = ("_C: dict = {}\ndef f(info, w):\n    key = (id(info), w)\n"
             "    return _C.get(key) or _C.setdefault((id(info), 0), 1)\n"
             "def g(info, local):\n    k = (id(info), 1)\n    return local[k]\n")
    assert sorted(ln for ln, _ in _side_tables(ast.parse(keyed))) == [4, 4]


def test_the_pass_list_imports_every_phase() -> None:
    from radcc.passes import manager

    # the source (in the compiled build `__file__` is the extension beside it)
    tree = ast.parse((Path(manager.__file__).parent / "manager.py").read_text())
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
        assert imported.get(fn.id, "").startswith(("radcc.passes.", "radcc.ir.dominance")), fn.id
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
    bad = [f"{p.relative_to(ROOT)}:{n}" for p in sorted(PACKAGE.rglob("*.py"))
           for n in _seed_citations(p.read_text())]
    assert not bad, "cite ACO's README.md / README-ISA.md or the ISA guide, not seeds/:\n" + \
        "\n".join(bad)


def test_the_citation_check_finds_one() -> None:
    assert _seed_citations('"""x\n(seeds/001 "Register Allocation")\n"""') == [2]


def _register_code_definitions(tree: ast.Module, names: set[str]) -> list[tuple[int, str]]:
    """Module-level ``NAME = <code>`` (an int 0-511, or a tuple of them) for a name
    radcc.isa.operands defines as a source-operand code (``INV_2PI = 0x3E22F983``, a
    value, is not one)."""
    out = []
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = node.value
            for t in targets:
                pairs = list(zip(t.elts, value.elts, strict=False)) if isinstance(
                    t, ast.Tuple) and isinstance(value, ast.Tuple) else [(t, value)]
                for n, v in pairs:
                    name = n.id.lstrip("_") if isinstance(n, ast.Name) else ""
                    if name in names and isinstance(v, ast.Constant) and \
                            isinstance(v.value, int) and 0 <= v.value <= 511:
                        out.append((node.lineno, name))
    return out


def test_register_codes_are_defined_once() -> None:
    """The source-operand codes (SGPR/VGPR bases, VCC, EXEC, M0, NULL, SCC, the literal,
    inline constants, ...) are numbers in radcc/isa/operands.py only; other modules
    import them (radcc/ir/regclass.py's VCC/EXEC/VGPR_BASE are aliases)."""
    from radcc.isa import operands

    names = {k for k, v in vars(operands).items() if k.isupper() and isinstance(v, int)
             and 0 <= v <= 511} | {"VCC", "EXEC", "VGPR_BASE"}
    found = [f"{rel}:{ln}: {name}" for rel, tree in _sources()
             if rel != "radcc/isa/operands.py"
             for ln, name in _register_code_definitions(tree, names)]
    assert not found, "register codes written outside radcc/isa/operands.py:\n" + \
        "\n".join(found)


def test_the_register_code_check_finds_them() -> None:
    src = "VCC_LO, NULL = 106, 124\n_NULL = 124\nM0: int = 125\nX = 3\nSCC = other.SCC\n"
    assert _register_code_definitions(ast.parse(src), {"VCC_LO", "NULL", "M0", "SCC"}) == [
        (1, "VCC_LO"), (1, "NULL"), (2, "NULL"), (3, "M0")]
