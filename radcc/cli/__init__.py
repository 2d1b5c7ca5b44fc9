"""The `radcc` command: an argparse parser whose subparsers are the subcommands, one
module of `radcc.cli` each (`compile`, `run`, `mc`, `llc`, `targets`: ``main(argv) -> int``).

The dispatcher only chooses the subcommand; the subcommand's module, imported when
chosen (so that ``radcc mc`` does not load the compiler), parses the rest of the
command line itself and calls its driver (`radcc.driver`).

Every user error prints ``file:line:col: error: …`` (or a plain
``radcc: error: …``) and exits with status 1; no traceback reaches users (an
internal error exits with status 2).

The environment is read here and nowhere below: ``RADCC_DEBUG`` (`debug_options`,
the back end's `DebugOptions`, which the subcommands hand to their drivers) and
``RADCC_TRACEBACK`` (an internal error raises instead of printing one line).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from radcc.driver import dataclass_code  # noqa: F401  (first: radcc's dataclasses compile from its cache)
from radcc.passes.options import DebugOptions

# name: (module, one-line help). The modules are imported on demand.
COMMANDS: dict[str, tuple[str, str]] = {
    "compile": ("radcc.cli.compile", "compile a SPIR-V/GLSL compute shader for AMD GPUs"),
    "mc": ("radcc.cli.mc", "llvm-mc for AMDGPU: assemble, disassemble, write code objects"),
    "llc": ("radcc.cli.llc", "compile machine IR text to GFX11 assembly or a code object"),
    "run": ("radcc.cli.run", "run a kernel of a code object, or a shader, in the emulator "
                             "(radcc.emu)"),
    "draw": ("radcc.cli.draw", "compile a vertex and a fragment shader and run one draw call "
                               "in the emulator (the lavapipe draw runner's interface)"),
    "objdump": ("radcc.cli.objdump", "list a code object's instructions as llvm-objdump -d"),
    "compare": ("radcc.cli.compare", "radcc's code and statistics beside the real ACO's "
                "(RADV null device)"),
    "corpus": ("radcc.cli.corpus", "compile a corpus of shaders on every core, one JSON line "
               "per shader"),
    "report": ("radcc.cli.report", "compare two 'radcc corpus' runs as fossil-db's report.py"),
    "targets": ("radcc.cli.targets", "list the GPUs radcc knows and what works for each"),
}


def debug_options() -> DebugOptions:
    """The back end's debug options from ``RADCC_DEBUG`` (radcc/passes/options.py)."""
    return DebugOptions.parse(os.environ.get("RADCC_DEBUG"))


@contextmanager
def loading_modules() -> Iterator[None]:
    """Imports of a command's modules (start-up, issue 14): Python's cyclic collector is
    off inside, and what the imports created (functions, classes, tables: alive until
    the process ends) is then moved out of its reach (``gc.freeze``), so neither the
    collections the allocations would trigger (~8-11 ms of CPU for a compile's ~200
    modules) nor the later collections, the one at exit included, scan it again. For
    commands, which run once per process (library code does not freeze the heap), and
    only when the block loaded a module: a process that calls `main` again (tests) does
    not freeze the garbage of its earlier commands each time."""
    was_enabled = gc.isenabled()
    loaded = len(sys.modules)
    gc.disable()
    try:
        yield
    finally:
        if len(sys.modules) > loaded:
            gc.freeze()
        if was_enabled:
            gc.enable()


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    """The command's parser: ``-h``, ``--version`` and a subparser per subcommand (whose
    options its module parses)."""
    p = _Parser(prog="radcc", usage="radcc COMMAND [options]", add_help=False,
                epilog="'radcc COMMAND --help' lists a command's options.")
    p.add_argument("-h", "--help", action="store_true", help="show this help")
    p.add_argument("--version", action="store_true", help="print radcc's version")
    sub = p.add_subparsers(dest="command", title="commands", metavar="COMMAND")
    for name, (_mod, help_) in COMMANDS.items():
        sub.add_parser(name, help=help_, add_help=False)
    return p


def _usage(parser: argparse.ArgumentParser) -> str:
    """The command's help text, formatted only when printed (formatting loads textwrap
    and measures every line: time every other run of radcc would spend for nothing)."""
    return parser.format_help().rstrip("\n")


def main(argv: list[str] | None = None) -> int:
    """Run the command `argv` (default: ``sys.argv[1:]``); its exit status. Output cut
    short by its reader (``radcc targets | head -1``) ends the command quietly, status 0."""
    try:
        return _main(argv)
    except BrokenPipeError:
        # the reader is gone: what is left in stdout's buffer must not fail again when
        # Python flushes it at exit (an "Exception ignored" message)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 0


def _main(argv: list[str] | None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args or args[0] in ("-h", "--help"):
        print(_usage(parser))
        return 0 if args else 1
    if args[0] == "--version":
        from radcc import __version__

        print(f"radcc {__version__}")
        return 0
    try:
        cmd = parser.parse_args(args[:1]).command
    except _UsageError:
        cmd = None
    if cmd is None:
        print(f"radcc: error: unknown command '{args[0]}'\n{_usage(parser)}", file=sys.stderr)
        return 1
    with loading_modules():
        mod = importlib.import_module(COMMANDS[cmd][0])
    try:
        return int(mod.main(args[1:]) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        raise
    except Exception as e:  # internal error: say so without a traceback
        if os.environ.get("RADCC_TRACEBACK"):
            raise
        print(f"radcc {cmd}: internal error: {type(e).__name__}: {e} "
              "(set RADCC_TRACEBACK=1 for details)", file=sys.stderr)
        return 2
