"""`radcc llc`: machine IR text in, GFX10/GFX11 assembly or a code object out.

    radcc llc FILE.ir [--mcpu=gfx1100] [-S] [-o FILE] [--print-after PASS|all]
                      [--print-before PASS|all] [--stats] [--wave64]
                      [--arg NAME:KIND ...]

Compiles with `radcc.driver.llc.compile_file`. ``-S`` writes assembly (``--stats``
adds the statistics as ``;`` comments); otherwise an AMDHSA code object is written
(default ``FILE.o``; ``--stats`` prints the statistics to stderr; ``--arg`` describes
the kernel's arguments in its metadata, laid out as docs/abi.md says).
``--mcpu``/``--wave64`` override the IR header. ``RADCC_DEBUG`` (radcc/passes/options.py)
gives the pass manager's debug options.

Errors: IR syntax errors as ``file:line:col: error: message``; a register
demand beyond the target's register file, and any pass's refusal, as
``file: error: message``; exit status 1, no traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from radcc.cli import debug_options
from radcc.cli._help import HelpFormatter
from radcc.codeobj.errors import CodeObjectError
from radcc.driver.llc import LlcError, compile_file
from radcc.ir.parser import IRParseError
from radcc.ir.validate import ValidationError
from radcc.passes.asm_text import EmitError
from radcc.passes.hw_copy import LoweringError
from radcc.passes.insert_exec_mask import ExecMaskError
from radcc.passes.kernel_abi import ABIError
from radcc.passes.spill import SpillError


class _ArgParser(argparse.ArgumentParser):
    """Usage errors exit with status 1 like every radcc error (argparse's is 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(1)


def build_parser() -> argparse.ArgumentParser:
    ap = _ArgParser(prog="radcc llc", description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("input", help="machine IR text file ('-' for stdin)")
    ap.add_argument("--mcpu",
                    help="target GPU ('--mcpu=help' or 'radcc targets' lists them; default: "
                         "the IR header's)")
    ap.add_argument("-S", dest="asm", action="store_true", help="write assembly")
    ap.add_argument("-o", dest="output", metavar="OUT",
                    help="output file, '-' for stdout (default: FILE.o; with -S: stdout)")
    ap.add_argument("--print-after", action="append", default=[], metavar="PASS",
                    help="print the IR after back-end phase PASS (or all); "
                         "repeatable")
    ap.add_argument("--print-before", action="append", default=[], metavar="PASS",
                    help="print the IR before back-end phase PASS (or all); "
                         "repeatable")
    ap.add_argument("--stats", action="store_true", help="print the statistics (ACO's names): to stderr, or with -S as comments")
    ap.add_argument("--wave64", action="store_true", help="compile for wave64")
    ap.add_argument("--arg", action="append", default=[], metavar="NAME:KIND",
                    help="a kernel argument for the metadata, in kernarg order; KIND is "
                         "buffer (a global pointer) or i32 u32 f32 i64 u64 f64")
    return ap


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if args.mcpu == "help":
        from radcc.cli.targets import targets_table

        sys.stdout.write(targets_table())
        return 0
    path = args.input
    try:
        raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        # undecodable bytes reach the IR lexer, which reports their line:col
        text = raw.decode("utf-8", "surrogateescape")
    except OSError as e:
        print(f"radcc llc: error: cannot read {path}: {e.strerror}", file=sys.stderr)
        return 1
    fname = "<stdin>" if path == "-" else path
    try:
        out, stats = compile_file(fname, text, mcpu=args.mcpu, wave64=args.wave64,
                                  asm=args.asm, stats=args.stats, args=args.arg,
                                  print_after=args.print_after,
                                  print_before=args.print_before,
                                  debug_options=debug_options())
    except IRParseError as e:
        print(str(e), file=sys.stderr)
        return 1
    except (LlcError, LoweringError, EmitError, ABIError, CodeObjectError, ExecMaskError,
            SpillError, ValidationError) as e:
        print(f"{fname}: error: {e}", file=sys.stderr)
        return 1
    except Exception as e:
        # the allocator's refusals (demand beyond the register file ...) are user errors
        if type(e).__name__ == "RegisterAllocationError":
            print(f"{fname}: error: {e}", file=sys.stderr)
            return 1
        raise
    if args.stats and not args.asm:
        for k, v in stats.items():
            print(f"{k}: {v}", file=sys.stderr)
    dest = args.output
    if dest is None:
        dest = "-" if args.asm else str(Path(path if path != "-" else "out").with_suffix(".o"))
    try:
        if isinstance(out, str):
            if dest == "-":
                sys.stdout.write(out)
            else:
                Path(dest).write_text(out)
        else:
            if dest == "-":
                sys.stdout.buffer.write(out)
            else:
                Path(dest).write_bytes(out)
    except OSError as e:
        print(f"radcc llc: error: cannot write {dest}: {e.strerror}", file=sys.stderr)
        return 1
    return 0
