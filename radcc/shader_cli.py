"""`radcc compile` and the shader form of `radcc run`.

    radcc compile SHADER --mcpu=gfx1100 [--wave32|--wave64] [-S] [-o OUT] [--stats]
                  [--entry NAME] [--spec ID=VALUE ...] [-DNAME=VALUE ...]
                  [--print-after PASS] [--time-passes]
    radcc run SHADER --groups X[,Y,Z] --buffer SET:BINDING=VALUE ... [--push FILE]
              [--spec ID=VALUE ...] [-DNAME=VALUE ...] --out DIR [--wave32|--wave64]

SHADER is SPIR-V (``.spv``) or GLSL (``.comp``, ``.glsl``: compiled by
``glslangValidator -V`` with the ``-D`` defines; its errors are passed through).
``compile`` writes an AMDHSA code object (default ``SHADER.o``), or assembly with
``-S`` (statistics as comments); ``--print-after`` takes a MIR pass, ``divergence``,
``isel`` or a back-end phase (``all``). ``run`` compiles, executes in radcc.emu
(strict mode) and writes every buffer to ``DIR/SET_BINDING.bin``; a VALUE is a
``.npy`` file, a raw file or ``zeros:NBYTES``; exit 1 on strict-mode violations.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SHADER_SUFFIXES = (".spv", ".comp", ".glsl")


class UserError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UserError(message)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("shader", metavar="SHADER")
    p.add_argument("--mcpu", default="gfx1100")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--wave32", action="store_true")
    g.add_argument("--wave64", action="store_true")
    p.add_argument("--entry", default=None)
    p.add_argument("--spec", action="append", default=[], metavar="ID=VALUE")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE")


def compile_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="radcc compile", description="compile a compute shader for AMD GPUs")
    _common(p)
    p.add_argument("-S", dest="asm", action="store_true", help="write assembly")
    p.add_argument("-o", dest="output")
    p.add_argument("--stats", action="store_true")
    p.add_argument("--print-after", action="append", default=[], metavar="PASS")
    p.add_argument("--time-passes", action="store_true")
    return p


def run_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="radcc run", description="compile a compute shader and run it in "
                                              "radcc.emu")
    _common(p)
    p.add_argument("--groups", required=True)
    p.add_argument("--buffer", action="append", default=[], metavar="SET:BINDING=VALUE")
    p.add_argument("--push", metavar="FILE")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--no-strict", action="store_true")
    return p


def _spec(items: list[str]) -> dict[int, Any]:
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
    exe = shutil.which("glslangValidator")
    if exe is None:
        raise UserError(f"{path}: compiling GLSL needs glslangValidator (Debian package "
                        f"glslang-tools); or pass SPIR-V")
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "out.spv"
        cmd = [exe, "-V", "--target-env", "vulkan1.3", "-S", "comp",
               *[f"-D{x}" for x in defines], str(p), "-o", str(out)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0 or not out.exists():
            lines = [ln for ln in (r.stdout + r.stderr).splitlines()
                     if ln.strip() and ln.strip() != str(p)]
            raise UserError("\n".join(lines) or f"{path}: glslangValidator failed")
        return out.read_bytes()


def _compile(args: argparse.Namespace, spirv: bytes, print_after: list[str] | None = None,
             ) -> Any:
    from radcc.compile import CompileError, compile_spirv
    from radcc.frontend.spirv import SpirvError
    from radcc.isel import IselError

    wave = 64 if args.wave64 else 32
    try:
        return compile_spirv(spirv, mcpu=args.mcpu, wave_size=wave, entry=args.entry,
                             spec=_spec(args.spec), print_after=set(print_after or ()))
    except SpirvError as e:
        raise UserError(f"{args.shader}: {e}") from None
    except (IselError, CompileError) as e:
        raise UserError(f"{args.shader}: error: {e}") from None
    except Exception as e:
        if type(e).__name__ in ("RegisterAllocationError", "LoweringError", "EmitError",
                                "ABIError", "ValidationError", "CodeObjectError"):
            raise UserError(f"{args.shader}: error: {e}") from None
        raise


def check_pass_names(names: list[str]) -> None:
    """Refuse a ``--print-after`` name that is no MIR pass, ``divergence``, ``isel``,
    back-end phase or ``all`` (it would print nothing, silently)."""
    from radcc.frontend.opt import PASSES
    from radcc.pipeline import available_passes

    known = {"all", "divergence", "isel", *PASSES, *(s.name for s, _ in available_passes())}
    for n in names:
        if n not in known:
            raise UserError(f"--print-after '{n}': no such pass (MIR passes, divergence, isel, "
                            f"back-end phases, all)")


def compile_main(argv: list[str]) -> int:
    try:
        args = compile_parser().parse_args(argv)
        check_pass_names(args.print_after)
        t0 = time.perf_counter()
        spirv = read_shader(args.shader, args.defines)
        t_glsl = time.perf_counter() - t0
        res = _compile(args, spirv, args.print_after)
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
    try:
        if args.asm:
            if dest in (None, "-"):
                sys.stdout.write(res.asm)
            else:
                Path(dest).write_text(res.asm)
            return 0
        dest = dest or str(Path(args.shader).with_suffix(".o"))
        if dest == "-":
            sys.stdout.buffer.write(res.code_object)
        else:
            Path(dest).write_bytes(res.code_object)
    except OSError as e:
        print(f"radcc compile: error: cannot write {dest}: {e.strerror}", file=sys.stderr)
        return 1
    return 0


def _buffer_value(spec: str) -> tuple[tuple[int, int], Any]:
    key, eq, text = spec.partition("=")
    s, colon, b = key.partition(":")
    try:
        k = (int(s, 0), int(b, 0))
    except ValueError:
        raise UserError(f"--buffer expects SET:BINDING=VALUE, got '{spec}'") from None
    if not eq or not colon:
        raise UserError(f"--buffer expects SET:BINDING=VALUE, got '{spec}'")
    if text.startswith("zeros:"):
        try:
            return k, int(text[6:], 0)
        except ValueError:
            raise UserError(f"--buffer {key}: bad byte count in '{text}'") from None
    path = Path(text)
    try:
        if path.suffix == ".npy":
            from radcc.run import load_npy

            return k, load_npy(path)
        return k, path.read_bytes()
    except (OSError, ValueError) as e:
        raise UserError(f"--buffer {key}: cannot read '{text}': {e}") from None


def run_main(argv: list[str]) -> int:
    from radcc.compute import run_compiled
    from radcc.emu.decode import EmuError

    try:
        args = run_parser().parse_args(argv)
        groups = tuple(int(x, 0) for x in args.groups.split(","))
        if not 1 <= len(groups) <= 3 or min(groups) < 1:
            raise UserError(f"--groups expects 1 to 3 positive integers, got '{args.groups}'")
        buffers = dict(_buffer_value(b) for b in args.buffer)
        push = b""
        if args.push:
            try:
                push = Path(args.push).read_bytes()
            except OSError as e:
                raise UserError(f"cannot read {args.push}: {e.strerror}") from None
        res = _compile(args, read_shader(args.shader, args.defines))
        missing = [k for k in res.arg_layout.pointers if k not in buffers]
        if missing:
            raise UserError("missing --buffer for " + ", ".join(f"{s}:{b}" for s, b in missing))
        t0 = time.monotonic()
        out, run = run_compiled(res, groups, buffers, push, strict=not args.no_strict)
        dt = time.monotonic() - t0
        odir = Path(args.out)
        odir.mkdir(parents=True, exist_ok=True)
        for (s, b), data in out.items():
            (odir / f"{s}_{b}.bin").write_bytes(data)
    except ValueError as e:
        print(f"radcc run: error: {e}", file=sys.stderr)
        return 1
    except (UserError, EmuError, OSError) as e:
        msg = str(e)
        print(msg if ": error" in msg else f"radcc run: error: {msg}", file=sys.stderr)
        return 1
    c = run.counters
    print(f"kernel {run.kernel}: wave{run.wave_size}, {c.workgroups} workgroups, {c.waves} "
          f"waves, {c.instructions} instructions in {dt:.2f} s")
    print(f"strict mode: {len(run.violations)} violation(s)")
    for v in run.violations:
        print(f"  {v}")
    return 1 if run.violations else 0


main = compile_main
