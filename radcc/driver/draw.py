"""`radcc draw`'s library function: compile a vertex and a fragment shader with radcc and
run one draw call in the emulator (`radcc.emu.draw`), with the command line of the
lavapipe reference runner as keyword arguments (docs/draw.md; the oracle's
`radcc.oracle.lavapipe_draw.run_draw` takes the same ones).

    out = run_draw(vs_spirv, fs_spirv, size=(64, 64), count=3, attrs={0: positions},
                   wave_size=32)
    out.colors[0]      # (H, W, 4) uint8
    out.write(dir)     # color0.npy ... depth.npy, SET_BINDING.bin/.npy

The inputs are checked against the shaders' interfaces first, with the runner's
messages (`DrawInputError`); a shader radcc cannot compile raises the compiler's error.
Strict-mode violations do not raise: they are `DrawOutput.violations` (the CLI's exit
status 3; `radcc.draw` raises them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from radcc.driver.draw_iface import DrawFiles, DrawInputError, IoVar, entry_point, stage_io
from radcc.emu.draw.state import (
    COLOR_FORMATS,
    MAX_SIZE,
    CullMode,
    DrawError,
    DrawState,
    FrontFace,
    Kind,
    PolygonMode,
    Topology,
)
from radcc.emu.strict import Violation
from radcc.passes.options import DebugOptions
from radcc.target import DEFAULT_MCPU

__all__ = ["DrawInputError", "DrawOutput", "run_draw"]

Key = tuple[int, int]
_DTYPE_OF = {"float": "float32", "int": "int32", "uint": "uint32"}
_KIND_OF = {Kind.UNORM: "float", Kind.FLOAT: "float", Kind.UINT: "uint", Kind.SINT: "int"}


@dataclass
class DrawOutput(DrawFiles):
    """The draw's files (`DrawFiles`: attachments, buffers, images, the warnings of the
    checks), strict-mode violations and what the draw took."""

    violations: list[Violation] = field(default_factory=list)
    vertex_waves: int = 0
    pixel_waves: int = 0
    primitives: int = 0
    pixels: int = 0
    fragments: int = 0
    instructions: int = 0


def _enum(cls: Any, opt: str, val: str) -> Any:
    try:
        return cls(val)
    except ValueError:
        raise DrawInputError(f"{opt} {val}: want one of "
                             f"{', '.join(m.value for m in cls)}") from None


def draw_state(size: tuple[int, int], topology: str, color: str, clear: Sequence[float],
               depth: bool, blend: str | None, cull: str, front_face: str, polygon: str,
               samples: int) -> DrawState:
    """The fixed-function state of the runner's options (errors as the runner's)."""
    w, h = size
    if not (1 <= w <= MAX_SIZE and 1 <= h <= MAX_SIZE):
        raise DrawInputError(f"--size {w},{h}: width and height must be in 1..{MAX_SIZE}")
    fmt = COLOR_FORMATS.get(color)
    if fmt is None:
        raise DrawInputError(f"--color {color}: want one of {', '.join(COLOR_FORMATS)}")
    if samples != 1:
        raise DrawInputError(f"--samples {samples}: only 1 is supported")
    if blend is not None:
        if blend != "alpha":
            raise DrawInputError(f"--blend {blend}: want one of alpha")
        if not fmt.kind.is_float:
            raise DrawInputError(f"--blend {blend} needs a float or unorm --color, "
                                 f"not {fmt.name}")
    if len(clear) != 4:
        raise DrawInputError(f"--clear wants 4 values R,G,B,A, got {len(clear)}")
    if not fmt.kind.is_float:
        lo, hi = (0, 2**32 - 1) if fmt.kind is Kind.UINT else (-(2**31), 2**31 - 1)
        for x in clear:
            if float(x) != int(x) or not lo <= int(x) <= hi:
                raise DrawInputError(f"--clear {x} is not a {_KIND_OF[fmt.kind]}32 value "
                                     f"for {fmt.name}")
    try:
        return DrawState(w, h, _enum(Topology, "--topology", topology), fmt,
                         tuple(float(c) for c in clear),  # type: ignore[arg-type]
                         depth, blend is not None, _enum(CullMode, "--cull", cull),
                         _enum(FrontFace, "--front-face", front_face),
                         _enum(PolygonMode, "--polygon", polygon))
    except DrawError as e:
        raise DrawInputError(str(e)) from None


def _check_attrs(vs_in: tuple[IoVar, ...], attrs: Mapping[int, np.ndarray],
                 inst_attrs: Mapping[int, np.ndarray], count: int, instances: int,
                 index: np.ndarray | None, warnings: list[str]
                 ) -> tuple[dict[int, np.ndarray], dict[int, np.ndarray]]:
    both = set(attrs) & set(inst_attrs)
    if both:
        raise DrawInputError(f"location {min(both)} is given with --attr and --inst-attr")
    used = {v.location: v for v in vs_in}
    out: list[dict[int, np.ndarray]] = [{}, {}]
    for k, (opt, given) in enumerate((("--attr", attrs), ("--inst-attr", inst_attrs))):
        for loc, arr in given.items():
            v = used.get(loc)
            if v is None:
                warnings.append(f"{opt} {loc}: the vertex shader does not read location "
                                f"{loc}; ignored")
                continue
            a = np.asarray(arr)
            if a.ndim not in (1, 2) or (a.ndim == 2 and not 1 <= a.shape[1] <= 4):
                raise DrawInputError(f"{opt} {loc}: shape {a.shape}; want (N,) or (N, C) "
                                     "with C in 1..4")
            want = _DTYPE_OF.get(v.type)
            if a.dtype.name != want:
                raise DrawInputError(f"{opt} {loc}: dtype {a.dtype.name}, but the vertex "
                                     f"shader reads location {loc} as {v.glsl} (give "
                                     f"{want})")
            out[k][loc] = np.ascontiguousarray(a.astype(a.dtype.newbyteorder("=")))
    for v in vs_in:
        if v.refused or v.bits != 32:
            raise DrawInputError(f"the vertex shader's input at location {v.location} is "
                                 f"{v.refused or f'{v.bits}-bit'}: only 32-bit scalars "
                                 "and vectors are supported")
        if v.location not in out[0] and v.location not in out[1]:
            raise DrawInputError(f"the vertex shader reads location {v.location} "
                                 f"({v.glsl}); give it with --attr {v.location}=FILE.npy")
    if index is not None:
        if index.ndim != 1 or index.dtype.name not in ("uint16", "uint32"):
            raise DrawInputError(f"--index: a 1-D uint16 or uint32 array, got "
                                 f"{index.dtype.name}{index.shape}")
        if len(index) < count:
            raise DrawInputError(f"--index has {len(index)} indices, the draw needs {count}")
    need = count if index is None else (int(index[:count].max()) + 1 if count else 0)
    for loc, a in out[0].items():
        if len(a) < need:
            raise DrawInputError(f"--attr {loc}: {len(a)} vertices, the draw reads {need}")
    for loc, a in out[1].items():
        if len(a) < instances:
            raise DrawInputError(f"--inst-attr {loc}: {len(a)} instances, the draw has "
                                 f"{instances}")
    return out[0], out[1]


def _check_link(vs_out: tuple[IoVar, ...], fs_in: tuple[IoVar, ...],
                fs_out: tuple[IoVar, ...], kind: Kind, color: str) -> None:
    outs = {v.location: v for v in vs_out}
    for v in fs_in:
        o = outs.get(v.location)
        if o is None or (o.type, o.bits) != (v.type, v.bits) or o.components < v.components:
            wrote = f"writes {o.glsl}" if o is not None else "does not write it"
            raise DrawInputError(f"stage mismatch: the fragment shader reads location "
                                 f"{v.location} as {v.glsl}; the vertex shader {wrote}")
        if (v.type != "float" or v.bits == 64) and not v.flat:
            what = "64-bit" if v.bits == 64 else "integer"
            raise DrawInputError(f"the fragment shader's {what} input at location "
                                 f"{v.location} must be flat")
    for v in fs_out:
        if v.refused or v.bits != 32 or v.index is not None or v.location >= 8:
            what = v.refused or (f"{v.bits}-bit" if v.bits != 32 else
                                 "dual-source (Index)" if v.index is not None
                                 else f"at location {v.location} (at most 7)")
            raise DrawInputError(f"the fragment shader's output at location {v.location} "
                                 f"is {what}: outputs must be 32-bit scalars or vectors at "
                                 "locations below 8")
        if v.type != _KIND_OF[kind]:
            need = {"float": "rgba8, rgba16f, rgba32f or r32f", "int": "rgba32i",
                    "uint": "rgba32ui or r32ui"}[v.type]
            raise DrawInputError(f"the fragment shader writes a {v.glsl} to location "
                                 f"{v.location}; --color {color} does not take it "
                                 f"(use {need})")


def run_draw(vert: bytes, frag: bytes, *, size: tuple[int, int], count: int,
             instances: int = 1, attrs: Mapping[int, np.ndarray] | None = None,
             inst_attrs: Mapping[int, np.ndarray] | None = None,
             index: np.ndarray | None = None, topology: str = "triangle-list",
             buffers: Mapping[Key, Any] | None = None,
             images: Mapping[Key, tuple[np.ndarray, str | None]] | None = None,
             samplers: Mapping[Key, str] | None = None, push_constants: bytes = b"",
             color: str = "rgba8", clear: Sequence[float] = (0, 0, 0, 0),
             depth: bool = False, blend: str | None = None, cull: str = "none",
             front_face: str = "ccw", polygon: str = "fill", samples: int = 1,
             entry_vert: str | None = None, entry_frag: str | None = None,
             wave_size: int | None = None, mcpu: str = DEFAULT_MCPU, strict: bool = True,
             max_instructions: int = 50_000_000,
             debug_options: DebugOptions | None = None) -> DrawOutput:
    """One draw (module docstring): the runner's options, plus the wave size (None: the
    target's default), the chip, strict mode and the instruction limit."""
    from radcc.driver.compile import compile_spirv
    from radcc.frontend.spirv.errors import SpirvError
    from radcc.frontend.spirv.reader import read_spirv

    warnings: list[str] = []
    if count < 0 or instances < 0:
        raise DrawInputError(f"--draw {count},{instances}: counts must not be negative")
    state = draw_state(size, topology, color, clear, depth, blend, cull, front_face, polygon,
                       samples)
    mods = []
    for opt, data, stage, name in (("--vert", vert, "vertex", entry_vert),
                                   ("--frag", frag, "fragment", entry_frag)):
        try:
            m = read_spirv(bytes(data))
        except SpirvError as e:
            raise DrawInputError(f"{opt}: {e}") from None
        try:
            ep = entry_point(m, stage, name)
        except DrawInputError as e:
            raise DrawInputError(f"{opt}: {e}") from None
        mods.append((m, ep))
    vs_io = stage_io(*mods[0])
    fs_io = stage_io(*mods[1])
    va, ia = _check_attrs(vs_io.inputs, dict(attrs or {}), dict(inst_attrs or {}), count,
                          instances, None if index is None else np.asarray(index), warnings)
    _check_link(vs_io.outputs, fs_io.inputs, fs_io.outputs, state.color.kind, color)
    vs_res = compile_spirv(bytes(vert), mcpu=mcpu, wave_size=wave_size,
                           entry=mods[0][1].name, debug_options=debug_options,
                           instance_inputs=frozenset(ia))
    fs_res = compile_spirv(bytes(frag), mcpu=mcpu, wave_size=wave_size,
                           entry=mods[1][1].name, debug_options=debug_options,
                           **_color_option(state, fs_io.outputs))
    warnings += [f"{opt}: {w}" for opt, r in (("--vert", vs_res), ("--frag", fs_res))
                 for w in r.warnings]
    return _execute(vs_res, fs_res, state, count, instances, va, ia, index, buffers or {},
                    images or {}, samplers or {}, push_constants, strict, max_instructions,
                    warnings)


def _color_option(state: DrawState, outputs: tuple[IoVar, ...]) -> dict[str, Any]:
    """The fragment shader's compile option for the attachments' formats (one per output
    location up to the highest: every attachment has the draw's format; with blending on
    an rgba8 attachment 0, location 0 exports 32-bit floats)."""
    n = max((v.location for v in outputs), default=-1) + 1
    formats = [state.color.format] * max(n, 1)
    if state.blend and state.color.kind is Kind.UNORM:
        # blending an 8-bit unorm attachment: the colour exported as 32-bit floats
        # (32_ABGR, a driver's choice of export format), so that the output merger blends
        # the shader's exact value as lavapipe does, not one truncated to FP16
        formats[0] = COLOR_FORMATS["rgba32f"].format
    return {"color_formats": tuple(formats)}


def _execute(vs_res: Any, fs_res: Any, state: DrawState, count: int, instances: int,
             va: dict[int, np.ndarray], ia: dict[int, np.ndarray], index: Any,
             buffers: Mapping[Key, Any], images: Mapping[Key, tuple[np.ndarray, str | None]],
             samplers: Mapping[Key, str], push: bytes, strict: bool, max_instructions: int,
             warnings: list[str]) -> DrawOutput:
    from radcc.abi.kernarg import Role, binding_name
    from radcc.driver.images import sampler_desc
    from radcc.driver.run import image_arg, image_dims, kernel_args
    from radcc.emu.api import build_kernarg
    from radcc.emu.draw.render import render
    from radcc.emu.loader import emulated_target
    from radcc.emu.memory import Memory

    vs, fs = vs_res.graphics, fs_res.graphics
    if vs is None or fs is None:
        raise DrawInputError("the shaders did not compile to graphics code objects")
    target = emulated_target(vs.target)
    mem = Memory()
    smps = {k: sampler_desc(t, f"--sampler {k[0]}:{k[1]}") for k, t in samplers.items()}
    tables = []
    mapped: dict[Key, tuple[int, np.ndarray | None, int]] = {}
    for res, sh in ((vs_res, vs), (fs_res, fs)):
        layout = sh.args.kernargs
        if layout is None or not layout.entries:
            tables.append(0)
            continue
        emu_images = {k: image_arg(res, k, a, f, image_dims(res, k))
                      for k, (a, f) in images.items() if k in res.images}
        args = kernel_args(layout, buffers, push, emu_images, smps)
        kern, maps = build_kernarg(mem, res.kernel_name, layout.metadata(), args, layout.end,
                                   False, (1, 1, 1), (1, 1, 1))
        tables.append(mem.map("resource table", bytes(kern), writable=False).base)
        for key in layout.keys(Role.BUFFER_ADDRESS) + layout.keys(Role.IMAGE):
            mapped[key] = maps[binding_name(key)]
    try:
        r = render(vs, fs, state, target, mem, count=count, instances=instances, attrs=va,
                   inst_attrs=ia, index=None if index is None else np.asarray(index),
                   vs_table=tables[0], fs_table=tables[1], strict=strict,
                   max_instructions=max_instructions)
    except DrawError as e:
        raise DrawInputError(str(e)) from None
    out_buffers: dict[Key, bytes] = {}
    for key, val in buffers.items():
        if key in mapped:
            base, _arr, n = mapped[key]
            out_buffers[key] = mem.read(base, n) if n else b""
        else:
            out_buffers[key] = bytes(val) if isinstance(val, int) else (
                np.ascontiguousarray(val).tobytes() if isinstance(val, np.ndarray)
                else bytes(val))
    out_images: dict[Key, np.ndarray] = {}
    for key, (arr, _fmt) in images.items():
        if key in mapped:
            base, _a, n = mapped[key]
            out_images[key] = np.frombuffer(mem.read(base, n), arr.dtype).reshape(
                arr.shape).copy()
        else:
            out_images[key] = np.array(arr)
    fb = r.framebuffer
    return DrawOutput([t.data for t in fb.targets], fb.depth, out_buffers, out_images,
                      warnings, r.violations, r.vertex_waves, r.pixel_waves,
                      r.stats.primitives, r.stats.pixels, r.stats.fragments, r.instructions)
