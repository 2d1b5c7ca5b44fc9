"""`radcc compile`: a SPIR-V/GLSL compute shader to a code object or assembly.

    radcc compile SHADER --mcpu=gfx1100 [--wave32|--wave64] [-S] [-o OUT] [--stats]
                  [--entry NAME] [--spec ID=VALUE ...] [-DNAME=VALUE ...]
                  [--print-after PASS] [--time-passes]

SHADER is SPIR-V (``.spv``) or GLSL (``.comp``, ``.glsl``: compiled by
``glslangValidator -V`` with the ``-D`` defines; its errors are passed through).
Writes an AMDHSA code object (default ``SHADER.o``), or assembly with ``-S``
(statistics as comments); ``--print-after`` takes a MIR pass, ``divergence``,
``isel`` or a back-end phase (``all``). Compiles with
`radcc.driver.compile.compile_spirv`, with the pass manager's debug options from
``RADCC_DEBUG`` (radcc/passes/options.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from radcc.cli._shader import (
    ShaderParser,
    UserError,
    add_shader_options,
    compile_shader,
    print_targets_if_asked,
    read_shader,
)
from radcc.cli._views import ViewError, add_view_options, check_view_options, view_asm, write_cfg


def compile_parser() -> argparse.ArgumentParser:
    p = ShaderParser(prog="radcc compile", description=__doc__)
    add_shader_options(p)
    p.add_argument("-S", dest="asm", action="store_true",
                   help="write assembly (re-assemblable by 'radcc mc --filetype=obj', "
                        "statistics as comments) instead of a code object")
    p.add_argument("-o", dest="output", metavar="OUT",
                   help="the output file, '-' for stdout (default: SHADER.o; with -S: "
                        "stdout)")
    p.add_argument("--stats", action="store_true",
                   help="print the statistics (ACO's names) to stderr")
    p.add_argument("--print-after", action="append", default=[], metavar="PASS",
                   help="print the IR after PASS (a MIR pass, divergence, isel, a back-end "
                        "phase, or all); repeatable")
    p.add_argument("--time-passes", action="store_true",
                   help="print each stage's time to stderr")
    add_view_options(p)
    return p


def check_pass_names(names: list[str]) -> None:
    """Refuse a ``--print-after`` name that is no MIR pass, ``divergence``, ``isel``,
    back-end phase or ``all`` (it would print nothing, silently)."""
    from radcc.frontend.opt import PASSES
    from radcc.passes.manager import UnknownPassError
    from radcc.passes.manager import check_pass_names as check

    try:
        check(names, "--print-after", extra=["divergence", "isel", *PASSES])
    except UnknownPassError as e:
        raise UserError(str(e)) from None


def main(argv: list[str]) -> int:
    try:
        args = compile_parser().parse_args(argv)
        if print_targets_if_asked(args.mcpu):
            return 0
        check_pass_names(args.print_after)
        check_view_options(args)
        t0 = time.perf_counter()
        spirv = read_shader(args.shader, args.defines)
        t_glsl = time.perf_counter() - t0
        res = compile_shader(args, spirv, args.print_after)
        write_cfg(args, res)
    except ViewError as e:
        print(f"radcc compile: error: {e}", file=sys.stderr)
        return 1
    except UserError as e:
        msg = str(e)
        print(msg if ": error" in msg or msg.startswith("ERROR") else
              f"radcc compile: error: {msg}", file=sys.stderr)
        return 1
    if args.time_passes:
        if Path(args.shader).suffix != ".spv":
            print(f"radcc: {'glslang':<22} {t_glsl * 1000:9.3f} ms", file=sys.stderr)
        for k, v in res.timings.items():
            print(f"radcc: {k:<22} {v * 1000:9.3f} ms", file=sys.stderr)
    if args.stats and not args.asm:
        for k, v in res.stats.items():
            print(f"{k}: {v}", file=sys.stderr)
    dest = args.output
    view = view_asm(args, res)
    try:
        if args.asm:
            asm = view if view is not None else res.asm
            if dest in (None, "-"):
                sys.stdout.write(asm)
            else:
                Path(dest).write_text(asm)
            return 0
        if view is not None:
            sys.stdout.write(view)
        dest = dest or str(Path(args.shader).with_suffix(".o"))
        if dest == "-":
            sys.stdout.buffer.write(res.code_object)
        else:
            Path(dest).write_bytes(res.code_object)
    except OSError as e:
        print(f"radcc compile: error: cannot write {dest}: {e.strerror}", file=sys.stderr)
        return 1
    return 0
