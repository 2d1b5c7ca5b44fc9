"""`radcc draw`: compile a vertex and a fragment shader and run one draw call in the
emulator, with the command line and output files of the lavapipe reference runner
(docs/draw.md):

    radcc draw --vert VS.spv --frag FS.spv --size W,H --draw COUNT[,INSTANCES] --out DIR
               [--attr LOC=FILE.npy ...] [--inst-attr LOC=FILE.npy ...] [--index FILE.npy]
               [--topology T] [--buffer S:B=VALUE ...] [--image S:B=FILE.npy[:FORMAT] ...]
               [--image3d ...] [--sampler S:B=FILTER[,ADDRESS[,NORMALIZED]] ...]
               [--push FILE] [--color FORMAT] [--clear R,G,B,A] [--depth] [--blend alpha]
               [--cull none|back|front] [--front-face ccw|cw] [--polygon fill|line]
               [--samples 1] [--entry-vert NAME] [--entry-frag NAME]
               [--wave32|--wave64] [--mcpu CHIP] [--no-strict] [--max-instructions N]
               [--quiet]

Writes ``DIR/colorN.npy`` (H, W, C) per colour attachment, ``DIR/depth.npy`` with
``--depth``, every buffer as ``DIR/SET_BINDING.bin`` and image as
``DIR/SET_BINDING.npy``, and each colour attachment as ``DIR/colorN.png`` for a person
to look at (Pillow; float channels clamped to [0, 1], integer ones to 0..255, one
channel as greyscale). Prints the waves, primitives, fragments and pixels the draw took
(``--quiet``: only warnings and violations).

Exit status: 0 success; 1 bad input (command line, files, inputs that do not match the
shaders' interfaces, a shader radcc cannot compile); 2 an internal error; 3 strict-mode
violations (the outputs are still written); 4 a wave faulted or hit the instruction
limit.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from radcc.cli._help import HelpFormatter
from radcc.cli._images import add_image_options, parse_specs
from radcc.cli._shader import ShaderParser, UserError
from radcc.emu.errors import DEFAULT_MAX_INSTRUCTIONS, EmuError, KernelFault
from radcc.target import DEFAULT_MCPU

EXIT_OK, EXIT_BAD_INPUT, EXIT_STRICT, EXIT_FAULT = 0, 1, 3, 4


def build_parser() -> argparse.ArgumentParser:
    p = ShaderParser(prog="radcc draw", formatter_class=HelpFormatter,
                     description="Compile a vertex and a fragment shader and run one draw "
                                 "call in the emulator (the lavapipe runner's interface; "
                                 "docs/draw.md).",
                     epilog="exit status: 0 success; 1 bad input (command line, files, "
                            "inputs that do not fit the shaders, a shader radcc cannot "
                            "compile); 2 internal error; 3 strict-mode violations (the "
                            "outputs are written); 4 a wave faulted or hit the instruction "
                            "limit")
    p.add_argument("--vert", required=True, metavar="VS.spv", help="the vertex shader")
    p.add_argument("--frag", required=True, metavar="FS.spv", help="the fragment shader")
    p.add_argument("--size", required=True, metavar="W,H", help="framebuffer size")
    p.add_argument("--draw", required=True, metavar="COUNT[,INSTANCES]",
                   help="vkCmdDraw(COUNT, INSTANCES) (vkCmdDrawIndexed with --index)")
    p.add_argument("--out", required=True, metavar="DIR", help="output directory")
    p.add_argument("--attr", action="append", default=[], metavar="LOC=FILE.npy",
                   help="a per-vertex attribute (N,) or (N, C) float32/int32/uint32")
    p.add_argument("--inst-attr", action="append", default=[], metavar="LOC=FILE.npy",
                   help="a per-instance attribute")
    p.add_argument("--index", metavar="FILE.npy", help="a 1-D uint16/uint32 index buffer")
    p.add_argument("--topology", default="triangle-list",
                   choices=["triangle-list", "triangle-strip", "triangle-fan", "line-list",
                            "line-strip", "point-list"],
                   help="the primitive topology (primitive restart off)")
    p.add_argument("--buffer", action="append", default=[], metavar="SET:BINDING=VALUE",
                   help="a buffer: a .npy file, a raw file or zeros:NBYTES")
    add_image_options(p)
    p.add_argument("--push", metavar="FILE", help="the push constants' bytes")
    p.add_argument("--color", default="rgba8",
                   help="the colour attachments' format: rgba8, rgba32f, rgba16f, rgba32ui, "
                        "rgba32i, r32f, r32ui")
    p.add_argument("--clear", default="0,0,0,0", metavar="R,G,B,A", help="clear colour")
    p.add_argument("--depth", action="store_true",
                   help="a D32_SFLOAT depth attachment (cleared to 1.0, test LESS, writes)")
    p.add_argument("--blend", metavar="alpha", help="alpha blending on attachment 0")
    p.add_argument("--cull", default="none", metavar="none|back|front", help="culling")
    p.add_argument("--front-face", default="ccw", metavar="ccw|cw",
                   help="the winding of front faces (as seen on the image, row 0 on top)")
    p.add_argument("--polygon", default="fill", metavar="fill|line", help="polygon mode")
    p.add_argument("--samples", type=int, default=1, help="samples (only 1)")
    p.add_argument("--entry-vert", metavar="NAME", help="the vertex entry point")
    p.add_argument("--entry-frag", metavar="NAME", help="the fragment entry point")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--wave32", action="store_true", help="compile and run as wave32")
    g.add_argument("--wave64", action="store_true", help="compile and run as wave64")
    p.add_argument("--mcpu", default=DEFAULT_MCPU, help="the chip")
    p.add_argument("--no-strict", action="store_true", help="do not check waits and hazards")
    p.add_argument("--max-instructions", type=int, default=DEFAULT_MAX_INSTRUCTIONS,
                   metavar="N", help="stop after N emulated instructions (exit status 4)")
    p.add_argument("--quiet", action="store_true", help="no summary")
    return p


def _pair(text: str, opt: str, n: int | None = None) -> list[str]:
    parts = text.split(",")
    if n is not None and len(parts) != n:
        raise UserError(f"{opt} '{text}': expected {n} comma-separated values")
    return parts


def _ints(text: str, opt: str, lo: int, hi: int) -> tuple[int, ...]:
    try:
        vals = tuple(int(v, 0) for v in text.split(","))
    except ValueError:
        raise UserError(f"{opt} '{text}': not integers") from None
    if not lo <= len(vals) <= hi:
        raise UserError(f"{opt} '{text}': expected {lo if lo == hi else f'{lo} or {hi}'} "
                        "values")
    return vals


def _npy(path: str, opt: str) -> np.ndarray:
    try:
        return np.load(Path(path), allow_pickle=False)
    except OSError as e:
        raise UserError(f"{opt}: cannot read '{path}': {e.strerror or e}") from None
    except Exception as e:
        raise UserError(f"{opt}: '{path}' is not a valid .npy file ({type(e).__name__}: "
                        f"{e})") from None


def _attrs(specs: list[str], opt: str) -> dict[int, np.ndarray]:
    out: dict[int, np.ndarray] = {}
    for spec in specs:
        loc, eq, path = spec.partition("=")
        try:
            k = int(loc, 0)
        except ValueError:
            k = -1
        if not eq or k < 0 or not path:
            raise UserError(f"{opt} expects LOC=FILE.npy, got '{spec}'")
        if k in out:
            raise UserError(f"{opt} {k} is given twice")
        out[k] = _npy(path, f"{opt} {k}")
    return out


def _buffers(specs: list[str]) -> dict[tuple[int, int], Any]:
    from radcc.cli.run import _buffer_value

    out: dict[tuple[int, int], Any] = {}
    for spec in specs:
        key, val = _buffer_value(spec)
        if key in out:
            raise UserError(f"--buffer {key[0]}:{key[1]} is given twice")
        out[key] = val
    return out


def save_png(path: Path, img: np.ndarray) -> None:
    """A colour attachment as a PNG (module docstring) through Pillow."""
    from PIL import Image

    if img.dtype.kind == "f":
        v = np.floor(np.clip(np.nan_to_num(img.astype(np.float64)), 0, 1) * 255 + 0.5)
    else:
        v = np.clip(img.astype(np.int64), 0, 255)
    v = v.astype(np.uint8)
    if v.shape[-1] == 1:
        Image.fromarray(v[..., 0], mode="L").save(path)
    else:
        Image.fromarray(v, mode="RGBA").save(path)


def main(argv: list[str]) -> int:
    from radcc.driver.compile import CompileError
    from radcc.driver.draw import DrawInputError, run_draw
    from radcc.frontend.spirv import SpirvError
    from radcc.isel import IselError

    t0 = time.monotonic()
    try:
        args = build_parser().parse_args(argv)
        w, h = _ints(args.size, "--size", 2, 2)
        draw = _ints(args.draw, "--draw", 1, 2)
        count, instances = draw[0], (draw[1] if len(draw) > 1 else 1)
        try:
            clear = [float(x) for x in _pair(args.clear, "--clear", 4)]
        except ValueError:
            raise UserError(f"--clear '{args.clear}': not numbers") from None
        attrs = _attrs(args.attr, "--attr")
        inst = _attrs(args.inst_attr, "--inst-attr")
        index = _npy(args.index, "--index") if args.index else None
        buffers = _buffers(args.buffer)
        image_specs, sampler_specs = parse_specs(args)
        images = {x.key: (_npy(x.path, f"{x.option} {x.key[0]}:{x.key[1]}"), x.format)
                  for x in image_specs}
        samplers = {s.key: f"{s.filter},{s.address},"
                           f"{'normalized' if s.normalized else 'unnormalized'}"
                    for s in sampler_specs}
        push = b""
        if args.push:
            try:
                push = Path(args.push).read_bytes()
            except OSError as e:
                raise UserError(f"--push: cannot read {args.push}: {e.strerror}") from None
        spv = []
        for opt, path in (("--vert", args.vert), ("--frag", args.frag)):
            try:
                spv.append(Path(path).read_bytes())
            except OSError as e:
                raise UserError(f"{opt}: cannot read '{path}': {e.strerror}") from None
        out = Path(args.out)
        if out.exists() and not out.is_dir():
            raise UserError(f"--out {args.out}: exists and is not a directory")
        from radcc.cli import debug_options

        res = run_draw(spv[0], spv[1], size=(w, h), count=count, instances=instances,
                       attrs=attrs, inst_attrs=inst, index=index, topology=args.topology,
                       buffers=buffers, images=images, samplers=samplers,
                       push_constants=push, color=args.color, clear=clear, depth=args.depth,
                       blend=args.blend, cull=args.cull, front_face=args.front_face,
                       polygon=args.polygon, samples=args.samples,
                       entry_vert=args.entry_vert, entry_frag=args.entry_frag,
                       wave_size=64 if args.wave64 else 32 if args.wave32 else None,
                       mcpu=args.mcpu, strict=not args.no_strict,
                       max_instructions=args.max_instructions,
                       debug_options=debug_options())
        try:
            res.write(out)
            for i, c in enumerate(res.colors):
                save_png(out / f"color{i}.png", c)
        except OSError as e:
            raise UserError(f"cannot write to {out}: {e.strerror}") from None
    except KernelFault as e:
        print(f"radcc draw: error: {e}", file=sys.stderr)
        return EXIT_FAULT
    except (CompileError, SpirvError, IselError) as e:
        msg = str(e)
        print(msg if ": error" in msg else f"radcc draw: error: {msg}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (UserError, DrawInputError, EmuError, ValueError) as e:
        print(f"radcc draw: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for wmsg in res.warnings:
        print(f"radcc draw: warning: {wmsg}", file=sys.stderr)
    if not args.quiet:
        print(f"draw: {res.vertex_waves} vertex waves, {res.pixel_waves} pixel waves, "
              f"{res.primitives} primitives, {res.fragments} fragments, {res.pixels} pixels "
              f"written, {res.instructions} instructions in {time.monotonic() - t0:.2f} s")
    if not args.quiet or res.violations:
        print(f"strict mode: {len(res.violations)} violation(s)")
    for v in res.violations:
        print(f"  {v}")
    return EXIT_STRICT if res.violations else EXIT_OK
