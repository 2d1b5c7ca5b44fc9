"""What `radcc compile` and the shader form of `radcc run` share: the shader
options, reading SHADER (SPIR-V, or GLSL through ``glslangValidator -V``) and
compiling it with `radcc.driver.compile.compile_spirv`, its errors as `UserError`.

GLSL is a command-line convenience: the drivers take SPIR-V, and glslangValidator is
run here, not through `radcc.oracle` (the oracles are the tests' expectations and
the runtime does not import them).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from radcc.cli import debug_options
from radcc.cli._help import HelpFormatter

SHADER_SUFFIXES = (".spv", ".comp", ".glsl")


class UserError(Exception):
    pass


class ShaderParser(argparse.ArgumentParser):
    """Usage errors raise `UserError`; ``--help`` shows the defaults (`HelpFormatter`)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(**kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UserError(message)


def add_shader_options(p: argparse.ArgumentParser) -> None:
    """SHADER and the options `compile` and `run` share."""
    p.add_argument("shader", metavar="SHADER",
                   help="the shader: SPIR-V (.spv) or GLSL (.comp, .glsl), compute only")
    p.add_argument("--mcpu", default="gfx1100",
                   help="the target GPU ('--mcpu=help' or 'radcc targets' lists them)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--wave32", action="store_true",
                   help="compile for wave32 (the default on GFX11)")
    g.add_argument("--wave64", action="store_true",
                   help="compile for wave64 (the default on GFX10/GFX10.3, as RADV compiles "
                        "compute shaders there)")
    p.add_argument("--entry", default=None, metavar="NAME",
                   help="the entry point to compile (default: the module's first)")
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


def read_shader(path: str, defines: list[str]) -> bytes:
    """SPIR-V bytes of SHADER (GLSL through glslangValidator)."""
    p = Path(path)
    if p.suffix not in SHADER_SUFFIXES:
        raise UserError(f"{path}: unknown shader type (expected {', '.join(SHADER_SUFFIXES)})")
    if p.suffix == ".spv":
        try:
            return p.read_bytes()
        except OSError as e:
            raise UserError(f"cannot read {path}: {e.strerror}") from None
    try:
        head = p.read_bytes()[:4096]
    except OSError as e:
        raise UserError(f"cannot read {path}: {e.strerror}") from None
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in head:
        enc = "UTF-16" if head.startswith((b"\xff\xfe", b"\xfe\xff")) or \
            head.count(b"\x00") * 3 >= len(head) else "binary (NUL bytes)"
        raise UserError(f"{path}:1:1: error: the source is {enc}, not UTF-8 text: GLSL sources "
                        f"must be UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)")
    from radcc.driver.glsl import GlslError, glsl_to_spirv

    try:
        return glsl_to_spirv(p, "comp", defines)
    except GlslError as e:
        raise UserError(str(e)) from None


def compile_shader(args: argparse.Namespace, spirv: bytes, print_after: list[str] | None = None,
             ) -> Any:
    from radcc.driver.compile import CompileError, compile_spirv
    from radcc.frontend.spirv import SpirvError
    from radcc.isel import IselError

    wave = 64 if args.wave64 else 32 if args.wave32 else None  # None: the chip's default
    try:
        return compile_spirv(spirv, mcpu=args.mcpu, wave_size=wave, entry=args.entry,
                             spec=parse_spec(args.spec), print_after=set(print_after or ()),
                             spirv_val=not args.no_validate, debug_options=debug_options(),
                             keep_liveness=bool(getattr(args, "livereg", False)))
    except SpirvError as e:
        raise UserError(f"{args.shader}: {e}") from None
    except (IselError, CompileError) as e:
        raise UserError(f"{args.shader}: error: {e}") from None
    except Exception as e:
        if type(e).__name__ in ("RegisterAllocationError", "LoweringError", "EmitError",
                                "ABIError", "ValidationError", "CodeObjectError"):
            raise UserError(f"{args.shader}: error: {e}") from None
        raise


