"""What `radcc compile` and the shader form of `radcc run` share: the shader
options, reading SHADER (SPIR-V; GLSL of any stage by extension and HLSL through
``glslangValidator -V``, the stages radcc does not compile yet refused by name;
``-`` for standard input) and
compiling it with `radcc.driver.compile.compile_spirv`, its errors as `UserError`.

GLSL is a command-line convenience: the drivers take SPIR-V, and glslangValidator is
run here, not through `radcc.oracle` (the oracles are the tests' expectations and
the runtime does not import them).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

from radcc.abi.color import DEFAULT_COLOR_FORMAT, ColorFormat
from radcc.cli import debug_options, loading_modules
from radcc.cli._help import HelpFormatter
from radcc.driver.glsl import STAGE_NAMES, stage_refusal
from radcc.target import DEFAULT_MCPU

# glslangValidator's stage names (its -S values) and what a message calls them
STAGES = STAGE_NAMES
STAGE_BY_SUFFIX = {".glsl": "comp", **{f".{s}": s for s in STAGES}}
SHADER_SUFFIXES = (".spv", *STAGE_BY_SUFFIX, ".hlsl")


class UserError(Exception):
    pass


class ShaderParser(argparse.ArgumentParser):
    """Usage errors raise `UserError`; ``--help`` shows the defaults (`HelpFormatter`)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(**kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UserError(message)


def add_shader_options(p: argparse.ArgumentParser, many: bool = False) -> None:
    """SHADER (`many`: one or more) and the options `compile` and `run` share."""
    if many:
        p.add_argument("shader", metavar="SHADER", nargs="+",
                       help="the shaders: SPIR-V (.spv), GLSL (.comp, .glsl as compute; "
                            ".frag; .vert .geom .tesc .tese .mesh .task are refused so far), "
                            "HLSL (.hlsl) or - for stdin")
    else:
        p.add_argument("shader", metavar="SHADER",
                       help="the shader: SPIR-V (.spv), GLSL (.comp, .glsl), HLSL (.hlsl)")
    p.add_argument("--stage", choices=list(STAGES), default=None, metavar="STAGE",
                   help="the stage of GLSL on stdin and of HLSL (default: compute), or of a "
                        f"GLSL file instead of its extension's: {', '.join(STAGES)}")
    p.add_argument("--mcpu", default=DEFAULT_MCPU,
                   help="the target GPU ('--mcpu=help' or 'radcc targets' lists them)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--wave32", action="store_true",
                   help="compile for wave32 (the default on GFX11)")
    g.add_argument("--wave64", action="store_true",
                   help="compile for wave64 (the default on GFX10/GFX10.3, as RADV compiles "
                        "compute shaders there)")
    p.add_argument("--entry", default=None, metavar="NAME",
                   help="the entry point to compile (default: the module's first; HLSL: main)")
    p.add_argument("--spec", action="append", default=[], metavar="ID=VALUE",
                   help="set specialization constant ID to VALUE (an integer, a float, true "
                        "or false); repeatable")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE",
                   help="define a preprocessor macro for GLSL (glslangValidator -D); "
                        "repeatable")
    p.add_argument("--no-validate", action="store_true",
                   help="do not run spirv-val (SPIRV-Tools) on the SPIR-V; radcc's own checks "
                        "still run")


def print_targets_if_asked(mcpu: str) -> bool:
    """``--mcpu=help``: print the target table (`radcc targets`) and say so."""
    if mcpu != "help":
        return False
    from radcc.cli.targets import targets_table

    sys.stdout.write(targets_table())
    return True


def parse_spec(items: list[str]) -> dict[int, Any]:
    out: dict[int, Any] = {}
    for it in items:
        k, eq, v = it.partition("=")
        try:
            key = int(k, 0)
        except ValueError:
            raise UserError(f"--spec expects ID=VALUE, got '{it}'") from None
        if not eq:
            raise UserError(f"--spec expects ID=VALUE, got '{it}'")
        if v.lower() in ("true", "false"):
            out[key] = v.lower() == "true"
            continue
        try:
            out[key] = int(v, 0)
        except ValueError:
            try:
                out[key] = float(v)
            except ValueError:
                raise UserError(f"--spec {k}: '{v}' is not a number or bool") from None
    return out


def stage_of(path: str, stage: str | None) -> str:
    """The stage SHADER is compiled as: `stage` (``--stage``) if given, else its
    extension's (`STAGE_BY_SUFFIX`), compute for stdin and ``.hlsl``."""
    if stage is not None:
        return stage
    return STAGE_BY_SUFFIX.get(Path(path).suffix, "comp")


def check_stage(path: str, stage: str) -> None:
    """Refuse a stage radcc does not compile yet, by name and located."""
    why = stage_refusal(stage)
    if why is not None:
        raise UserError(f"{path}:1:1: error: {why}")


def _source_bytes(path: str, stdin: bytes | None) -> bytes:
    if stdin is not None:
        return stdin
    try:
        return Path(path).read_bytes()
    except OSError as e:
        raise UserError(f"cannot read {path}: {e.strerror}") from None


def is_spirv(data: bytes) -> bool:
    """Does `data` start with the SPIR-V magic number (either byte order)?"""
    return data[:4] in (b"\x03\x02\x23\x07", b"\x07\x23\x02\x03")


def read_shader(path: str, defines: list[str], *, stage: str | None = None,
                entry: str | None = None) -> bytes:
    """SPIR-V bytes of SHADER: ``.spv`` as it is; GLSL of any stage (by extension or
    `stage`) and ``.hlsl`` (entry `entry`, default ``main``) through glslangValidator,
    non-compute stages refused by name; ``-``: standard input, SPIR-V if it starts with
    the magic number, else GLSL of `stage` (compute by default)."""
    p = Path(path)
    stdin = sys.stdin.buffer.read() if path == "-" else None
    name = "<stdin>" if stdin is not None else path
    if stdin is None and p.suffix not in SHADER_SUFFIXES:
        raise UserError(f"{path}: unknown shader type (expected {', '.join(SHADER_SUFFIXES)}, "
                        f"or - for stdin)")
    if stdin is not None and is_spirv(stdin):
        return stdin
    if p.suffix == ".spv":
        return _source_bytes(path, None)
    st = stage_of(path, stage)
    check_stage(name, st)
    src = _source_bytes(path, stdin)
    head = src[:4096]
    lang = "HLSL" if p.suffix == ".hlsl" else "GLSL"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in head:
        enc = "UTF-16" if head.startswith((b"\xff\xfe", b"\xfe\xff")) or \
            head.count(b"\x00") * 3 >= len(head) else "binary (NUL bytes)"
        raise UserError(f"{name}:1:1: error: the source is {enc}, not UTF-8 text: {lang} "
                        f"sources must be UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)")
    from radcc.driver.glsl import GlslError, glsl_to_spirv

    try:
        if stdin is None:
            return glsl_to_spirv(p, st, defines, entry=entry, hlsl=p.suffix == ".hlsl")
        with tempfile.TemporaryDirectory() as d:
            src = Path(d) / f"stdin.{st}"
            src.write_bytes(stdin)
            return glsl_to_spirv(src, st, defines, shown_as=name)
    except GlslError as e:
        raise UserError(str(e)) from None


def parse_color_formats(text: str | None) -> tuple[ColorFormat, ...]:
    """``--color-format FMT[,FMT...]``: the colour attachment formats by location (the
    last applies to higher locations); None: the default (rgba8)."""
    if text is None:
        return (DEFAULT_COLOR_FORMAT,)
    try:
        return tuple(ColorFormat.parse(t.strip()) for t in text.split(","))
    except ValueError as e:
        raise UserError(f"--color-format: {e}") from None


def parse_instance_inputs(text: str | None) -> frozenset[int]:
    """``--instance-inputs LOC[,LOC...]``: the vertex input locations fetched per
    instance (None: none)."""
    if text is None:
        return frozenset()
    try:
        locs = frozenset(int(t) for t in text.split(","))
    except ValueError:
        raise UserError(f"--instance-inputs: '{text}' is not a list of locations") from None
    if any(x < 0 for x in locs):
        raise UserError(f"--instance-inputs: '{text}': locations are not negative")
    return locs


def compile_shader(args: argparse.Namespace, spirv: bytes, print_after: list[str] | None = None,
             ) -> Any:
    with loading_modules():  # the first shader: the compiler's modules
        from radcc.driver.compile import CompileError, compile_spirv
    from radcc.frontend.spirv import SpirvError
    from radcc.isel import IselError

    wave = 64 if args.wave64 else 32 if args.wave32 else None  # None: the chip's default
    where = "<stdin>" if args.shader == "-" else args.shader
    try:
        res = compile_spirv(spirv, mcpu=args.mcpu, wave_size=wave, entry=args.entry,
                             spec=parse_spec(args.spec), print_after=set(print_after or ()),
                             spirv_val=not args.no_validate, debug_options=debug_options(),
                             keep_liveness=bool(getattr(args, "livereg", False)),
                             color_formats=parse_color_formats(
                                 getattr(args, "color_format", None)),
                             instance_inputs=parse_instance_inputs(
                                 getattr(args, "instance_inputs", None)))
    except SpirvError as e:
        raise UserError(f"{where}: {e}") from None
    except (IselError, CompileError) as e:
        raise UserError(f"{where}: error: {e}") from None
    except Exception as e:
        if type(e).__name__ in ("RegisterAllocationError", "LoweringError", "EmitError",
                                "ABIError", "ValidationError", "CodeObjectError"):
            raise UserError(f"{where}: error: {e}") from None
        raise
    for w in res.warnings:  # rules the module breaks that radcc tolerates
        print(w.render(where), file=sys.stderr)
    return res


