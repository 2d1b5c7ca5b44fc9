"""`radcc compile`: shaders to code objects or assembly.

    radcc compile SHADER... --mcpu=gfx1100 [--wave32|--wave64] [-S] [-o OUT|DIR] [--stats]
                  [--stats-file FILE.json|FILE.csv] [--entry NAME] [--stage STAGE]
                  [--spec ID=VALUE ...] [-DNAME=VALUE ...] [--print-after PASS]
                  [--time-passes]

SHADER is SPIR-V (``.spv``), GLSL (``.comp``, ``.glsl`` as compute, ``.vert``, ``.frag``;
``.geom .tesc .tese .mesh .task`` are refused by name: radcc compiles compute, vertex and
fragment shaders so far), HLSL (``.hlsl``: ``--entry``, ``--stage``, default compute) or ``-`` for
standard input (SPIR-V by its magic number, else GLSL of ``--stage``, compute by
default). GLSL and HLSL are compiled by ``glslangValidator -V`` with the ``-D`` defines;
its errors are passed through. Writes an AMDHSA code object for a compute shader, a
graphics code object for a vertex or fragment shader (docs/abi.md "Graphics stages"; default
``SHADER.o``), or assembly with ``-S`` (statistics as comments; ``radcc mc
--filetype=obj`` of a compute shader's gives the same code object; a graphics stage's
assembles to the same ``.text`` and shows the metadata as comments).
Several shaders: ``-o`` names a directory (created if needed) that receives
``STEM.o``/``STEM.s`` for each; without ``-o`` each goes beside its shader; a shader that
fails is reported and the others are still compiled (exit status 1).
``--stats-file`` writes every compiled shader's statistics (`radcc.driver.report`): JSON
Lines for ``.json``/``.jsonl``, CSV for ``.csv``. ``--print-after`` takes a MIR pass,
``divergence``, ``isel`` or a back-end phase (``all``). Compiles with
`radcc.driver.compile.compile_spirv`, with the pass manager's debug options from
``RADCC_DEBUG`` (radcc/passes/options.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from radcc.abi.color import DEFAULT_COLOR_FORMAT, ColorFormat
from radcc.cli._shader import (
    STAGES,
    ShaderParser,
    UserError,
    add_shader_options,
    compile_shader,
    print_targets_if_asked,
    read_shader,
    stage_of,
)
from radcc.cli._views import ViewError, add_view_options, check_view_options, view_asm, write_cfg


def compile_parser() -> argparse.ArgumentParser:
    p = ShaderParser(prog="radcc compile", description=__doc__)
    add_shader_options(p, many=True)
    p.add_argument("-S", dest="asm", action="store_true",
                   help="write assembly (re-assemblable by 'radcc mc --filetype=obj', "
                        "statistics as comments) instead of a code object")
    p.add_argument("-o", dest="output", metavar="OUT",
                   help="the output file, '-' for stdout; with several shaders a directory "
                        "(default: SHADER.o beside the shader; with -S: stdout, or SHADER.s "
                        "beside each of several)")
    p.add_argument("--color-format", metavar="FMT[,FMT...]", default=None,
                   help="a fragment shader's colour attachment formats by location (the last "
                        "one applies to higher locations): " + ", ".join(
                            f.text for f in ColorFormat) + f" (default: "
                        f"{DEFAULT_COLOR_FORMAT.text}); they choose each output's export "
                        "format (docs/abi.md)")
    p.add_argument("--instance-inputs", metavar="LOC[,LOC...]", default=None,
                   help="a vertex shader's input locations fetched per instance "
                        "(VK_VERTEX_INPUT_RATE_INSTANCE, divisor 1; compiled in, as RADV's "
                        "pipeline key; default: every input per vertex)")
    p.add_argument("--stats", action="store_true",
                   help="print the statistics (ACO's names) to stderr")
    p.add_argument("--stats-file", metavar="FILE", default=None,
                   help="write every compiled shader's file, entry, stage, mcpu, wave_size, "
                        "statistics and compile_ms to FILE: JSON Lines (.json, .jsonl) or "
                        "CSV (.csv) (default: none)")
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
    if not names:  # the compiler's modules are loaded with the compiler (`compile_shader`)
        return
    from radcc.frontend.opt import PASSES
    from radcc.passes.manager import UnknownPassError
    from radcc.passes.manager import check_pass_names as check

    try:
        check(names, "--print-after", extra=["divergence", "isel", *PASSES])
    except UnknownPassError as e:
        raise UserError(str(e)) from None


def _plan(args: argparse.Namespace) -> list[tuple[str, str | None]]:
    """(shader, output) for each SHADER (output None: assembly to stdout); refuses what
    cannot work before anything is compiled."""
    shaders: list[str] = args.shader
    if shaders.count("-") > 1:
        raise UserError("'-' (standard input) is given more than once")
    for sh in shaders:  # '', '.', '/', 'dir/..': no file name to read or to derive -o from
        if sh != "-" and Path(sh).name in ("", ".."):
            raise UserError(f"{sh!r} names no file")
    suffix = ".s" if args.asm else ".o"
    if len(shaders) == 1:
        sh, dest = shaders[0], args.output
        if dest is None and not args.asm:
            dest = "out.o" if sh == "-" else str(Path(sh).with_suffix(".o"))
        return [(sh, None if dest == "-" and args.asm else dest)]
    if args.cfg is not None:
        raise UserError("--cfg writes one graph: give one SHADER with it")
    if args.output == "-":
        raise UserError("-o -: several shaders cannot share standard output (-o DIR)")
    out_dir = Path(args.output) if args.output is not None else None
    if out_dir is not None and out_dir.exists() and not out_dir.is_dir():
        raise UserError(f"-o {args.output}: several shaders need a directory, and this is "
                        "a file")
    plan: list[tuple[str, str | None]] = []
    seen: dict[str, str] = {}
    for sh in shaders:
        stem = "stdin" if sh == "-" else Path(sh).stem
        dest = str(out_dir / (stem + suffix)) if out_dir is not None else \
            ("stdin" + suffix if sh == "-" else str(Path(sh).with_suffix(suffix)))
        if dest in seen:
            raise UserError(f"{seen[dest]} and {sh} would both be written to {dest}")
        seen[dest] = sh
        plan.append((sh, dest))
    if out_dir is not None:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise UserError(f"-o {args.output}: cannot create the directory: "
                            f"{e.strerror}") from None
    return plan


def _report_target(args: argparse.Namespace) -> tuple[str, str] | None:
    """``--stats-file``: (path, format), checked before compiling."""
    path = args.stats_file
    if path is None:
        return None
    from radcc.driver.report import report_format
    try:
        fmt = report_format(path)
    except ValueError as e:
        raise UserError(f"--stats-file '{path}': {e}") from None
    parent = Path(path).parent
    if Path(path).is_dir() or not parent.is_dir():
        raise UserError(f"--stats-file '{path}': "
                        + ("is a directory" if Path(path).is_dir() else
                           f"directory '{parent}' does not exist"))
    return path, fmt


def _print_error(e: Exception) -> None:
    msg = str(e)
    print(msg if ": error" in msg or msg.startswith("ERROR") else
          f"radcc compile: error: {msg}", file=sys.stderr)


def main(argv: list[str]) -> int:
    try:
        args = compile_parser().parse_args(argv)
        if print_targets_if_asked(args.mcpu):
            return 0
        check_pass_names(args.print_after)
        check_view_options(args)
        plan = _plan(args)
        report = _report_target(args)
    except ViewError as e:
        print(f"radcc compile: error: {e}", file=sys.stderr)
        return 1
    except UserError as e:
        _print_error(e)
        return 1
    rows: list[Any] = []
    status = 0
    for shader, dest in plan:
        one = argparse.Namespace(**{**vars(args), "shader": shader})
        status = max(status, _compile_one(one, dest, rows, len(plan) > 1))
    if report is not None:
        from radcc.driver.report import write_report

        path, fmt = report
        try:
            with open(path, "w", newline="") as f:
                write_report(rows, f, fmt)
        except OSError as e:
            print(f"radcc compile: error: cannot write {path}: {e.strerror}", file=sys.stderr)
            return 1
    return status


def _compile_one(args: argparse.Namespace, dest: str | None, rows: list[Any],
                 several: bool) -> int:
    """Compile one shader to `dest` (None: assembly to stdout); its report row is
    appended to `rows`. Returns the exit status."""
    name = "<stdin>" if args.shader == "-" else args.shader
    try:
        t0 = time.perf_counter()
        spirv = read_shader(args.shader, args.defines, stage=args.stage, entry=args.entry)
        t_glsl = time.perf_counter() - t0
        t0 = time.perf_counter()
        res = compile_shader(args, spirv, args.print_after)
        compile_ms = (time.perf_counter() - t0) * 1000
        write_cfg(args, res)
    except ViewError as e:
        print(f"radcc compile: error: {e}", file=sys.stderr)
        return 1
    except UserError as e:
        _print_error(e)
        return 1
    if args.stats_file is not None:
        from radcc.driver.report import stats_row

        is_spirv = args.shader != "-" and Path(args.shader).suffix == ".spv"
        stage = STAGES[stage_of(args.shader, None if is_spirv else args.stage)]
        rows.append(stats_row(name, res, mcpu=args.mcpu, stage=stage, compile_ms=compile_ms))
    head = f"{name}:" if several else None
    if args.time_passes:
        if head:
            print(head, file=sys.stderr)
        if args.shader == "-" or Path(args.shader).suffix != ".spv":
            print(f"radcc: {'glslang':<22} {t_glsl * 1000:9.3f} ms", file=sys.stderr)
        for k, v in res.timings.items():
            print(f"radcc: {k:<22} {v * 1000:9.3f} ms", file=sys.stderr)
    if args.stats and not args.asm:
        if head:
            print(head, file=sys.stderr)
        for k, v in res.stats.items():
            print(f"{k}: {v}", file=sys.stderr)
    view = view_asm(args, res)
    try:
        if args.asm:
            asm = view if view is not None else res.asm
            if dest is None:
                sys.stdout.write(asm)
            else:
                Path(dest).write_text(asm)
            return 0
        if view is not None:
            sys.stdout.write(view)
        if dest == "-":
            sys.stdout.buffer.write(res.code_object)
        else:
            assert dest is not None
            Path(dest).write_bytes(res.code_object)
    except OSError as e:
        print(f"radcc compile: error: cannot write {dest}: {e.strerror}", file=sys.stderr)
        return 1
    return 0
