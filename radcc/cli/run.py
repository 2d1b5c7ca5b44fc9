"""`radcc run`: run a kernel of a code object, or a shader, in the emulator (radcc.emu).

    radcc run KERNEL.o --kernel NAME --groups X[,Y,Z] --block X[,Y,Z]
              --arg NAME=VALUE ... --out DIR [--wave32|--wave64]
              [--max-instructions N] [--robust] [--no-strict] [--no-hazards] [--quiet]
    radcc run SHADER --groups X[,Y,Z] --buffer SET:BINDING[:INDEX]=VALUE ...
              [--image SET:BINDING=FILE.npy[:FORMAT] ...] [--image3d ...]
              [--sampler SET:BINDING=FILTER[,ADDRESS[,NORMALIZED]] ...]
              [--push FILE | --push-values TYPE:VALUE,...] [--spec ID=VALUE ...]
              [-DNAME=VALUE ...] [--entry NAME] [--stage STAGE] --out DIR
              [--wave32|--wave64] [--no-strict] [--max-instructions N] [--robust]
              [--no-validate] [--quiet]

The first argument chooses the form: a SHADER (``.spv``, GLSL, ``.hlsl``: what
`radcc compile` takes) is compiled, then run; anything else is a code object.

A code object's kernel: a buffer argument's VALUE is a ``.npy`` file, any other file
(raw bytes) or ``zeros:NBYTES``; a by-value argument's VALUE is a number. After the
run every buffer argument is written to ``DIR/NAME.bin``, and one given as ``.npy``
also to ``DIR/NAME.npy`` (its dtype and shape).

A shader: compiled (strict mode, `radcc.driver.run.run_compiled`), then run with every
buffer written to ``DIR/SET_BINDING.bin`` (and ``DIR/SET_BINDING.npy`` for a buffer
given as ``.npy``); a VALUE is a ``.npy`` file, a raw file or ``zeros:NBYTES``. An
element of an array of buffer descriptors is ``--buffer SET:BINDING:INDEX=VALUE``,
written back as ``DIR/SET_BINDING_INDEX.bin`` (docs/abi.md "Arrays of descriptors").
Images (`radcc.cli._images`, the lavapipe runner's interface) are written back as
``DIR/SET_BINDING.npy`` with the shape and dtype they were given. Push constants are a file's bytes (``--push``) or typed values (``--push-values
f32:2.0,u32:7``: each at the next offset aligned to its size, little-endian).

The instruction limit (``--max-instructions``, default 1,000,000) stops a runaway kernel
within seconds; raise it for long kernels. Prints a summary (``--quiet``: none, and no
progress bar) and the strict-mode violations.

Exit status: 0 success; 1 bad input (command line, files, arguments) or a compile
error; 2 an internal error; 3 strict-mode violations (missing waits, unmitigated
hazards); 4 the kernel faulted (memory fault, unsupported or trapping instruction) or
hit the instruction limit.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from radcc.abi.kernarg import KernargLayout, Role
from radcc.cli._help import ArgError, ArgParser, HelpFormatter
from radcc.cli._images import (
    add_image_options,
    parse_specs,
    shader_images,
    shader_samplers,
    write_images,
)
from radcc.cli._shader import (
    SHADER_SUFFIXES,
    ShaderParser,
    UserError,
    add_shader_options,
    compile_shader,
    print_targets_if_asked,
    read_shader,
)
from radcc.driver.run import IMAGE3D_DIMS
from radcc.emu.api import Zeros, load
from radcc.emu.errors import DEFAULT_MAX_INSTRUCTIONS, EmuError, InstructionLimit, KernelFault

# exit statuses (the module docstring; 2, an internal error, is the dispatcher's)
EXIT_OK, EXIT_BAD_INPUT, EXIT_STRICT, EXIT_FAULT = 0, 1, 3, 4


def build_parser() -> argparse.ArgumentParser:
    p = ArgParser(prog="radcc run", description="Run a kernel in the RDNA3 emulator.",
                  formatter_class=HelpFormatter)
    p.add_argument("file", metavar="KERNEL.o", help="an AMDHSA code object")
    p.add_argument("--kernel", required=True, help="the kernel to run (its symbol name)")
    p.add_argument("--groups", required=True, help="number of workgroups X[,Y,Z]")
    p.add_argument("--block", required=True, help="workgroup size X[,Y,Z]")
    p.add_argument("--arg", action="append", default=[], metavar="NAME=VALUE",
                   help="a kernel argument: a buffer's VALUE is a .npy file, a raw file or "
                        "zeros:NBYTES, a by-value argument's a number; repeatable")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="the directory the buffers are written to after the run")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--wave32", action="store_true",
                   help="run as wave32 (default: the kernel descriptor's wave size)")
    g.add_argument("--wave64", action="store_true",
                   help="run as wave64 (default: the kernel descriptor's wave size)")
    _limit_option(p)
    _robust_option(p)
    p.add_argument("--no-strict", action="store_true", help="do not check waits and hazards")
    p.add_argument("--no-hazards", action="store_true", help="check waits but not hazards")
    _quiet_option(p)
    # the shader form (run_main): radcc run SHADER --buffer S:B=VALUE ...
    p.add_argument("--buffer", action="append", default=[], help=argparse.SUPPRESS)
    return p


def _quiet_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quiet", action="store_true",
                   help="no progress bar and no summary (strict-mode violations and errors "
                        "are still printed)")


def _robust_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--robust", action="store_true",
                   help="robust buffer access (Vulkan robustBufferAccess): out-of-bounds "
                        "buffer loads read zero and out-of-bounds stores are dropped, "
                        "instead of faulting")


def _limit_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-instructions", type=_positive, default=DEFAULT_MAX_INSTRUCTIONS,
                   metavar="N",
                   help="stop with an error after N emulated instructions, counted over all "
                        "waves, and exit with status 4 (default %(default)s: a few seconds; "
                        "an instruction count, not wall time, so the limit is "
                        "reproducible)")


def _positive(text: str) -> int:
    try:
        v = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an integer") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not a positive integer")
    return v


def _out_dir(text: str) -> Path:
    """--out DIR: created if needed; an existing file is refused before anything runs."""
    out = Path(text)
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {text}: exists and is not a directory")
    return out


def _dims(text: str, what: str) -> tuple[int, ...]:
    try:
        t = tuple(int(v, 0) for v in text.split(","))
    except ValueError:
        raise EmuError(f"--{what} expects X[,Y,Z] positive integers, got '{text}'") from None
    if not 1 <= len(t) <= 3 or any(v < 1 for v in t):
        raise EmuError(f"--{what} expects 1 to 3 positive integers, got '{text}'")
    return t


def load_npy(path: Path) -> np.ndarray:
    """`np.load` of a `.npy` file; any malformation (numpy raises EOFError,
    SyntaxError, tokenize errors ... on a bad header) as ValueError."""
    try:
        return np.load(path, allow_pickle=False)
    except OSError:
        raise
    except Exception as e:
        raise ValueError(f"not a valid .npy file ({type(e).__name__}: {e})") from None


def _arg_value(name: str, text: str, kind: str) -> Any:
    if kind == "global_buffer":
        if text.startswith("zeros:"):
            try:
                n = int(text[6:], 0)
            except ValueError:
                raise EmuError(f"--arg {name}: bad byte count in '{text}'") from None
            if n < 0:
                raise EmuError(f"--arg {name}: negative byte count")
            return Zeros(n)
        path = Path(text)
        try:
            if path.suffix == ".npy":
                return load_npy(path)
            return path.read_bytes()
        except (OSError, ValueError) as e:
            raise EmuError(f"--arg {name}: cannot read '{text}': {e}") from None
    try:
        return int(text, 0)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise EmuError(f"--arg {name}: '{text}' is not a number") from None


class _Progress:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.start = time.monotonic()
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if not self.enabled or (now - self.last < 0.2 and done != total) or now - self.start < 1:
            return
        self.last = now
        width = 30
        k = width * done // total
        sys.stderr.write(f"\r[{'#' * k}{'.' * (width - k)}] {done}/{total} workgroups")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def full_help() -> str:
    """``radcc run --help``: both forms, their options and the exit statuses."""
    def options(p: argparse.ArgumentParser, title: str) -> str:
        p.description, p.usage = None, argparse.SUPPRESS
        text = p.format_help().strip("\n").replace("positional arguments:", title, 1)
        return text.replace("\n\noptions:\n", "\n", 1)

    k, sh = build_parser(), run_parser()
    usage = k.format_usage().rstrip() + "\n" + sh.format_usage().replace("usage:", "      ")
    return (usage + "\n" + (__doc__ or "").split("\n\n", 2)[2] + "\n"
            + options(k, "KERNEL.o form:") + "\n\n" + options(sh, "SHADER form:") + "\n")


def _fault(e: EmuError) -> int:
    hint = " (raise it with --max-instructions N)" if isinstance(e, InstructionLimit) else ""
    print(f"radcc run: error: {e}{hint}", file=sys.stderr)
    return EXIT_FAULT


def main(argv: list[str]) -> int:
    if any(a in ("-h", "--help") for a in argv):
        sys.stdout.write(full_help())
        return 0
    if argv and not argv[0].startswith("-") and argv[0].endswith(SHADER_SUFFIXES):
        return run_main(argv)  # a shader: compile, then run
    try:
        args = build_parser().parse_args(argv)
    except ArgError as e:
        print(f"radcc run: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        return _run(args)
    except KernelFault as e:
        return _fault(e)
    except EmuError as e:
        print(f"radcc run: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT


def _summary(kernel: str, wave: int, c: Any, dt: float, violations: list[Any],
             quiet: bool) -> int:
    """The summary (unless `quiet`) and the violations; the exit status."""
    if not quiet:
        print(f"kernel {kernel}: wave{wave}, {c.workgroups} workgroups, {c.waves} waves, "
              f"{c.instructions} instructions ({c.lane_instructions} VALU "
              f"lane-instructions) in {dt:.2f} s")
    if not quiet or violations:
        print(f"strict mode: {len(violations)} violation(s)")
    for v in violations:
        print(f"  {v}")
    return EXIT_STRICT if violations else EXIT_OK


def _write_npy(path: Path, data: bytes, like: np.ndarray) -> None:
    """`data` as a ``.npy`` of `like`'s dtype and shape."""
    np.save(path, np.frombuffer(data, dtype=like.dtype).reshape(like.shape),
            allow_pickle=False)


def _require_runnable_object(path: str) -> None:
    """Refuse a code object built for a chip the emulator does not run (its ELF e_flags
    machine; `radcc.target.SUPPORT`)."""
    from radcc.codeobj.elfdefs import EF_AMDGPU_MACH, NAME_BY_MACH
    from radcc.target import TARGETS, Tool

    try:
        with open(path, "rb") as f:
            head = f.read(64)
    except OSError:
        return  # `load` reports unreadable files
    if len(head) < 52 or head[:4] != b"\x7fELF" or head[4] != 2:
        return  # `load` reports malformed objects
    chip = NAME_BY_MACH.get(int.from_bytes(head[48:52], "little") & EF_AMDGPU_MACH)
    target = TARGETS.get(chip or "")
    if chip is not None and (target is None or not target.supports(Tool.RUN)):
        runs = ", ".join(n for n, t in TARGETS.items() if t.supports(Tool.RUN))
        raise EmuError(f"{path}: code object for {chip}: the emulator does not run its code "
                       f"(it runs {runs}; 'radcc targets' lists what works where)")


def _run(args: argparse.Namespace) -> int:
    groups, block = _dims(args.groups, "groups"), _dims(args.block, "block")
    _require_runnable_object(args.file)
    mod = load(args.file)
    k = mod.kernel(args.kernel)
    kinds = {str(a.get(".name", "")): str(a.get(".value_kind", "")) for a in k.args}
    values: dict[str, Any] = {}
    for spec in args.arg:
        name, eq, text = spec.partition("=")
        if not eq or not name:
            raise EmuError(f"--arg expects NAME=VALUE, got '{spec}'")
        if name not in kinds or kinds[name].startswith("hidden_"):
            user = [n for n, kd in kinds.items() if not kd.startswith("hidden_")]
            raise EmuError(f"kernel '{args.kernel}' has no argument '{name}' "
                           f"(arguments: {', '.join(user)})")
        values[name] = _arg_value(name, text, kinds[name])
    wave = 32 if args.wave32 else 64 if args.wave64 else None
    try:
        out = _out_dir(args.out)
    except UserError as e:
        raise EmuError(str(e)) from None
    t0 = time.monotonic()
    res = mod.run(args.kernel, groups, block, values, wave_size=wave,
                  strict=not args.no_strict, hazards=not args.no_hazards,
                  max_instructions=args.max_instructions, progress=_Progress(not args.quiet),
                  robust=args.robust)
    dt = time.monotonic() - t0
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, data in res.raw.items():
            (out / f"{name}.bin").write_bytes(data)
            if isinstance(values.get(name), np.ndarray):
                _write_npy(out / f"{name}.npy", data, values[name])
    except OSError as e:
        raise EmuError(f"cannot write to {out}: {e.strerror}") from None
    return _summary(res.kernel, res.wave_size, res.counters, dt, res.violations, args.quiet)


def run_parser() -> argparse.ArgumentParser:
    p = ShaderParser(prog="radcc run", description="compile a compute shader and run it in "
                                              "radcc.emu")
    add_shader_options(p)
    p.add_argument("--groups", required=True, help="number of workgroups X[,Y,Z]")
    p.add_argument("--buffer", action="append", default=[],
                   metavar="SET:BINDING[:INDEX]=VALUE",
                   help="the buffer at SET:BINDING (SET:BINDING:INDEX: an element of an "
                        "array of buffer descriptors, written back as DIR/SET_BINDING_INDEX)"
                        ": a .npy file, a raw file or zeros:NBYTES; repeatable")
    add_image_options(p)
    push = p.add_mutually_exclusive_group()
    push.add_argument("--push", metavar="FILE",
                      help="the push constants' bytes (default: zeros)")
    push.add_argument("--push-values", metavar="TYPE:VALUE,...", type=_push_values,
                      help="the push constants as typed values, e.g. f32:2.0,u32:7 (TYPE: "
                           f"{' '.join(_PUSH_TYPES)}; each at the next offset aligned to its "
                           "size)")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="the directory the buffers are written to after the run")
    p.add_argument("--no-strict", action="store_true", help="do not check waits and hazards")
    _limit_option(p)
    _robust_option(p)
    _quiet_option(p)
    return p


# --push-values types: struct format, size
_PUSH_TYPES = {"f16": "e", "f32": "f", "f64": "d", "i8": "b", "i16": "h", "i32": "i",
               "i64": "q", "u8": "B", "u16": "H", "u32": "I", "u64": "Q"}


def _push_values(text: str) -> bytes:
    """``TYPE:VALUE,...`` packed little-endian, each value at the next offset aligned to
    its size (std430/scalar layout of a push-constant block of scalars)."""
    import struct

    out = bytearray()
    for item in text.split(","):
        ty, colon, val = item.strip().partition(":")
        fmt = _PUSH_TYPES.get(ty)
        if not colon or fmt is None:
            raise argparse.ArgumentTypeError(
                f"'{item}': expected TYPE:VALUE with TYPE one of {' '.join(_PUSH_TYPES)}")
        try:
            v: float | int = float(val) if ty[0] == "f" else int(val, 0)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{item}': '{val}' is not "
                                             f"{'a number' if ty[0] == 'f' else 'an integer'}"
                                             ) from None
        size = struct.calcsize(fmt)
        out += bytes(-len(out) % size)
        try:
            out += struct.pack("<" + fmt, v)
        except (struct.error, OverflowError):
            raise argparse.ArgumentTypeError(f"'{item}': {val} does not fit in {ty}") from None
    return bytes(out)


def _buffer_value(spec: str) -> tuple[tuple[int, ...], Any]:
    """SET:BINDING=VALUE, or SET:BINDING:INDEX=VALUE for an element of an array of buffer
    descriptors."""
    key, eq, text = spec.partition("=")
    parts = key.split(":")
    try:
        k = tuple(int(x, 0) for x in parts)
    except ValueError:
        raise UserError(f"--buffer expects SET:BINDING[:INDEX]=VALUE, got '{spec}'") from None
    if not eq or len(k) not in (2, 3) or min(k) < 0:
        raise UserError(f"--buffer expects SET:BINDING[:INDEX]=VALUE, got '{spec}'")
    if text.startswith("zeros:"):
        try:
            return k, int(text[6:], 0)
        except ValueError:
            raise UserError(f"--buffer {key}: bad byte count in '{text}'") from None
    path = Path(text)
    try:
        if path.suffix == ".npy":
            return k, load_npy(path)
        return k, path.read_bytes()
    except (OSError, ValueError) as e:
        raise UserError(f"--buffer {key}: cannot read '{text}': {e}") from None


def _check_buffer_keys(layout: KernargLayout, buffers: dict[tuple[int, ...], Any]) -> None:
    """Every buffer binding the kernel takes is given; an array of buffer descriptors
    (docs/abi.md "Arrays of descriptors") by its elements SET:BINDING:INDEX (at least
    one, each below its count), any other binding without an index."""
    missing = []
    for e in layout.entries:
        if e.role is not Role.BUFFER_ADDRESS or e.key is None:
            continue
        s, b = e.key
        if e.stride:
            if (s, b) in buffers:
                raise UserError(f"--buffer {s}:{b}: binding {s}:{b} is an array of "
                                f"{e.count or 'runtime'} buffer descriptors: give its elements "
                                f"as {s}:{b}:INDEX")
            given = [k[2] for k in buffers if len(k) == 3 and k[:2] == (s, b)]
            bad = [i for i in given if e.count and i >= e.count]
            if bad:
                raise UserError(f"--buffer {s}:{b}:{bad[0]}: index {bad[0]} outside the "
                                f"array of {e.count} buffer descriptors")
            if not given:
                missing.append(f"{s}:{b}:INDEX (an array of {e.count or 'runtime'})")
        elif (s, b) not in buffers:
            if any(len(k) == 3 and k[:2] == (s, b) for k in buffers):
                raise UserError(f"--buffer {s}:{b}: binding {s}:{b} is not an array of "
                                "descriptors (no INDEX)")
            missing.append(f"{s}:{b}")
        elif any(len(k) == 3 and k[:2] == (s, b) for k in buffers):
            raise UserError(f"--buffer {s}:{b}: binding {s}:{b} is not an array of "
                            "descriptors (no INDEX)")
    if missing:
        raise UserError("missing --buffer for " + ", ".join(missing))


def _declared_bindings(spirv: bytes) -> set[tuple[int, int]]:
    """(set, binding) of every buffer variable the module declares (used or not)."""
    from radcc.frontend.spirv import read_spirv

    m = read_spirv(spirv)
    out = set()
    for vid, var in m.global_variables.items():
        b = m.binding(vid)
        if b is not None and var.storage_class in ("StorageBuffer", "Uniform"):
            out.add(b)
    return out


def run_main(argv: list[str]) -> int:
    from radcc.driver.run import image_outputs, run_compiled

    try:
        args = run_parser().parse_args(argv)
        if print_targets_if_asked(args.mcpu):
            return 0
        groups = tuple(int(x, 0) for x in args.groups.split(","))
        if not 1 <= len(groups) <= 3 or min(groups) < 1:
            raise UserError(f"--groups expects 1 to 3 positive integers, got '{args.groups}'")
        buffers: dict[tuple[int, ...], Any] = {}
        for spec in args.buffer:
            key, val = _buffer_value(spec)
            if key in buffers:
                raise UserError(f"--buffer {':'.join(map(str, key))} is given twice")
            buffers[key] = val
        image_specs, sampler_specs = parse_specs(args)
        odir = _out_dir(args.out)
        push = args.push_values or b""
        if args.push:
            try:
                push = Path(args.push).read_bytes()
            except OSError as e:
                raise UserError(f"cannot read {args.push}: {e.strerror}") from None
        spirv = read_shader(args.shader, args.defines, stage=args.stage, entry=args.entry)
        res = compile_shader(args, spirv)
        if res.graphics is not None:
            raise UserError(f"{args.shader}: a {res.graphics.stage.name} shader: radcc run "
                            "runs compute shaders (radcc draw runs vertex and fragment "
                            "shaders)")
        declared = _declared_bindings(spirv)
        for x in image_specs:  # an image option for a buffer binding, a buffer for an image
            if x.key[:2] in declared and x.key[:2] not in res.images:
                raise UserError(f"{x.where}: binding {x.key[0]}:{x.key[1]} is a buffer: "
                                "give it with --buffer")
        unknown = sorted({k[:2] for k in buffers if k[:2] not in declared})
        for s, b in unknown:
            if (s, b) in res.images:
                opt = "--image3d" if res.images[s, b].dim in IMAGE3D_DIMS else "--image"
                raise UserError(f"--buffer {s}:{b}: binding {s}:{b} is an image: give it "
                                f"with {opt}")
        if unknown:
            raise UserError("--buffer for a binding the shader does not declare: "
                            + ", ".join(f"{s}:{b}" for s, b in unknown) + " (it declares "
                            + (", ".join(f"{s}:{b}" for s, b in sorted(declared)) or "none")
                            + ")")
        _check_buffer_keys(res.arg_layout, buffers)
        images = shader_images(res, image_specs, {k[:2] for k in buffers})
        samplers = shader_samplers(res, sampler_specs)
        t0 = time.monotonic()
        out, run = run_compiled(res, groups, buffers, push, strict=not args.no_strict,
                                max_instructions=args.max_instructions, robust=args.robust,
                                images=images, samplers=samplers,
                                progress=_Progress(not args.quiet))
        dt = time.monotonic() - t0
        odir.mkdir(parents=True, exist_ok=True)
        for key, data in out.items():
            stem = "_".join(map(str, key))
            (odir / f"{stem}.bin").write_bytes(data)
            if isinstance(buffers[key], np.ndarray):
                _write_npy(odir / f"{stem}.npy", data, buffers[key])
        write_images(odir, image_outputs(res, run, images))
    except KernelFault as e:
        return _fault(e)
    except ValueError as e:
        print(f"radcc run: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (UserError, EmuError, OSError) as e:
        msg = str(e)
        print(msg if ": error" in msg else f"radcc run: error: {msg}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return _summary(run.kernel, run.wave_size, run.counters, dt, run.violations, args.quiet)
