"""radcc's Python API: compile a shader, run it in the emulator, get NumPy arrays back.

    import numpy as np
    import radcc

    k = radcc.compile('''
        #version 450
        layout(local_size_x = 64) in;
        layout(set = 0, binding = 0) buffer B { float x[]; };
        void main() { x[gl_GlobalInvocationID.x] *= 2.0; }
    ''')
    print(k.asm)                    # assembly (llvm-mc syntax, statistics as comments)
    print(k.stats["VGPRs"])         # ACO's statistics and radcc's, by name
    open("k.o", "wb").write(k.code_object)   # an AMDHSA code object
    out = radcc.run(k, groups=4, buffers={(0, 0): np.arange(256, dtype=np.float32)})
    out[(0, 0)]                     # array([0., 2., 4., ...], dtype=float32)

`compile(source, *, stage=None, mcpu=DEFAULT_MCPU, wave_size=None, entry=None, spec=None,
defines=())` (DEFAULT_MCPU: ``"gfx1100"``, `radcc.target`) (wave_size None: the chip's default for compute, `Target.compute_wave_size`): `source` is GLSL text, a path (``.spv``, GLSL by its extension:
``.comp``/``.glsl`` as compute; ``.hlsl`` with `stage` and `entry`) or SPIR-V bytes;
`stage` a glslangValidator stage name for text (default ``comp``); `spec` maps
specialization-constant ids to values. Returns a `Kernel`. Errors raise `CompileError`
(with the located message the command line prints).

`run(kernel_or_source, *, groups=(1, 1, 1), buffers=None, push_constants=b"",
images=None, samplers=None, strict=True, max_instructions=None, **compile_options)`
(max_instructions None: `radcc.emu.errors.DEFAULT_MAX_INSTRUCTIONS`, as `radcc run`):
runs the compute kernel
in radcc.emu (RDNA3, `radcc.driver.run.run_compiled`). `buffers` maps ``(set,
binding)`` (or a binding number, set 0) to a NumPy array (its bytes are the buffer) or
an int (that many zero bytes); `push_constants` is bytes, a NumPy array or a sequence
of numbers (packed as their NumPy dtype: floats as float32, ints as int32). Returns
``{(set, binding): array}``: every buffer after the dispatch, with the dtype and shape
it was given (a uint8 array for an int). `images` maps a binding to an array or an
``(array, FORMAT)`` pair, FORMAT as ``radcc run --image`` takes it (default from the
dtype and channels); `samplers` maps a binding to ``FILTER[,ADDRESS[,NORMALIZED]]`` as
``radcc run --sampler``; every image comes back too, with its shape and dtype. An image
that does not fit its binding raises ValueError naming the binding. A strict-mode violation (a missing wait or an
unmitigated hazard) raises `StrictModeError`; a fault or the instruction limit raises
`RunError`.

`draw(vert, frag, *, size, count, **options)`: one draw call of a vertex and a fragment
shader in radcc.emu, the options of ``radcc draw`` (docs/draw.md); returns the
attachments (``colors``, ``depth``), buffers and images.

Nothing here is imported by ``import radcc`` until first used (`radcc.__getattr__`).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from radcc.driver.glsl import STAGES
from radcc.target import DEFAULT_MCPU

__all__ = ["Kernel", "CompileError", "RunError", "StrictModeError", "compile", "draw", "run"]

SPIRV_MAGIC = b"\x03\x02\x23\x07"
_GLSL_SUFFIXES = {".glsl": "comp", **{f".{s}": s for s in STAGES}}


class CompileError(Exception):
    """The shader did not compile (the message is the command line's)."""


class RunError(Exception):
    """The kernel faulted, hit the instruction limit or could not be dispatched."""


class StrictModeError(RunError):
    """radcc.emu found missing waits or unmitigated hazards in the code."""


@dataclass
class Kernel:
    """A compiled compute shader."""

    code_object: bytes  # AMDHSA code object v5 (what `radcc compile` writes)
    asm: str  # assembly, statistics as comments (what `radcc compile -S` writes)
    stats: dict[str, int]  # ACO's statistics by their names, and radcc's
    name: str  # the kernel's symbol
    mcpu: str
    wave_size: int
    workgroup_size: tuple[int, int, int]
    result: Any = field(default=None, repr=False)  # radcc.driver.compile.CompileResult


def _spirv_of(source: str | bytes | os.PathLike[str], stage: str | None, entry: str | None,
              defines: Sequence[str]) -> bytes:
    from radcc.driver.glsl import GlslError, glsl_to_spirv, stage_refusal

    try:
        if isinstance(source, bytes | bytearray | memoryview):
            data = bytes(source)
            if not data.startswith(SPIRV_MAGIC):
                raise CompileError("bytes given are not SPIR-V (no magic number 0x07230203); "
                                   "pass GLSL as str")
            return data
        if isinstance(source, os.PathLike) or ("\n" not in source and Path(source).is_file()):
            p = Path(source)
            suffix = p.suffix.lower()
            if suffix == ".spv":
                return p.read_bytes()
            if suffix == ".hlsl":
                if stage is None:
                    raise CompileError(f"{p}: HLSL needs stage= (comp, vert, frag, ...)")
                return glsl_to_spirv(p, stage, defines, entry=entry, hlsl=True)
            if suffix not in _GLSL_SUFFIXES:
                raise CompileError(f"{p}: unknown shader type (.spv, .hlsl, "
                                   f"{', '.join(_GLSL_SUFFIXES)})")
            st = stage or _GLSL_SUFFIXES[suffix]
            why = stage_refusal(st) if st in _GLSL_SUFFIXES.values() else None
            if why is not None:
                raise CompileError(f"{p}:1:1: error: {why}")
            return glsl_to_spirv(p, st, defines)
        with tempfile.TemporaryDirectory() as d:
            p = Path(d) / f"source.{stage or 'comp'}"
            p.write_text(source, encoding="utf-8")
            return glsl_to_spirv(p, stage or "comp", defines, shown_as="<source>")
    except GlslError as e:
        raise CompileError(str(e)) from None
    except OSError as e:
        raise CompileError(f"cannot read {source}: {e.strerror}") from None


def compile(source: str | bytes | os.PathLike[str], *, stage: str | None = None,  # noqa: A001
            mcpu: str = DEFAULT_MCPU, wave_size: int | None = None, entry: str | None = None,
            spec: Mapping[int, Any] | None = None, defines: Sequence[str] = ()) -> Kernel:
    """Compile a compute shader (see the module docstring)."""
    from radcc.driver.compile import CompileError as DriverError
    from radcc.driver.compile import compile_spirv
    from radcc.frontend.spirv import SpirvError
    from radcc.isel import IselError

    if wave_size not in (None, 32, 64):
        raise CompileError(f"wave_size must be 32, 64 or None (the chip's default), not "
                           f"{wave_size!r}")
    spirv = _spirv_of(source, stage, entry, defines)
    try:
        res = compile_spirv(spirv, mcpu=mcpu, wave_size=wave_size,
                            entry=entry if not _is_hlsl(source) else None,
                            spec=dict(spec or {}))
    except (SpirvError, IselError, DriverError) as e:
        raise CompileError(str(e)) from None
    except Exception as e:
        if type(e).__name__ in ("RegisterAllocationError", "LoweringError", "EmitError",
                                "ABIError", "ValidationError", "CodeObjectError", "SpillError"):
            raise CompileError(str(e)) from None
        raise
    wg = tuple(res.workgroup_size)
    return Kernel(res.code_object, res.asm, dict(res.stats), res.kernel_name, mcpu,
                  res.wave_size, (wg[0], wg[1], wg[2]), res)


def _is_hlsl(source: object) -> bool:
    return isinstance(source, str | os.PathLike) and str(source).lower().endswith(".hlsl") \
        and "\n" not in str(source)


def _push_bytes(push: Any) -> bytes:
    import numpy as np

    if isinstance(push, bytes | bytearray | memoryview):
        return bytes(push)
    if isinstance(push, np.ndarray):
        return np.ascontiguousarray(push).tobytes()
    out = b""
    for v in push:
        if isinstance(v, np.generic):
            out += v.tobytes()
        elif isinstance(v, bool | int):
            out += np.int32(v).tobytes() if v < 2**31 else np.uint32(v).tobytes()
        elif isinstance(v, float):
            out += np.float32(v).tobytes()
        else:
            raise RunError(f"push constant {v!r}: expected a number")
    return out


def _dims(groups: int | Sequence[int]) -> tuple[int, ...]:
    g = (groups,) if isinstance(groups, int) else tuple(int(x) for x in groups)
    if not 1 <= len(g) <= 3 or any(x < 1 for x in g):
        raise RunError(f"groups must be 1 to 3 positive integers, got {groups!r}")
    return g + (1,) * (3 - len(g))


def run(kernel: Kernel | str | bytes | os.PathLike[str], *, groups: int | Sequence[int] = 1,
        buffers: Mapping[Any, Any] | None = None, push_constants: Any = b"",
        images: Mapping[Any, Any] | None = None, samplers: Mapping[Any, str] | None = None,
        strict: bool = True, max_instructions: int | None = None,
        **compile_options: Any) -> dict[tuple[int, int], Any]:
    """Run a compute kernel in radcc.emu (see the module docstring)."""
    import numpy as np

    from radcc.driver.images import sampler_desc
    from radcc.driver.run import image_arg, image_dims, image_outputs, run_compiled
    from radcc.emu.errors import DEFAULT_MAX_INSTRUCTIONS, EmuError

    k = kernel if isinstance(kernel, Kernel) else compile(kernel, **compile_options)
    bufs: dict[tuple[int, int], Any] = {}
    for key, val in (buffers or {}).items():
        if not isinstance(val, int | np.ndarray | bytes | bytearray):
            val = np.asarray(val)
        bufs[_key(key)] = val
    emu_images = {}
    for key, val in (images or {}).items():
        kk = _key(key)
        arr, fmt = val if isinstance(val, tuple) else (val, None)
        emu_images[kk] = image_arg(k.result, kk, np.asarray(arr), fmt, image_dims(k.result, kk))
    smps = {_key(key): sampler_desc(text, f"sampler {_key(key)[0]}:{_key(key)[1]}")
            for key, text in (samplers or {}).items()}
    limit = DEFAULT_MAX_INSTRUCTIONS if max_instructions is None else max_instructions
    try:
        out, res = run_compiled(k.result, _dims(groups), bufs, _push_bytes(push_constants),
                                strict=strict, max_instructions=limit, images=emu_images,
                                samplers=smps)
    except EmuError as e:
        raise RunError(str(e)) from None
    if res.violations:
        raise StrictModeError("strict mode: " + "; ".join(str(v) for v in res.violations[:5]))
    arrays: dict[tuple[int, int], Any] = {}
    for key, raw in out.items():
        given = bufs.get(key)
        if isinstance(given, np.ndarray):
            arrays[key] = np.frombuffer(bytearray(raw[:given.nbytes]),
                                        dtype=given.dtype).reshape(given.shape)
        else:
            arrays[key] = np.frombuffer(bytearray(raw), dtype=np.uint8)
    arrays.update(image_outputs(k.result, res, emu_images))
    return arrays


def _key(key: Any) -> tuple[int, int]:
    """A binding number (set 0) or a (set, binding) pair."""
    return (0, key) if isinstance(key, int) else (int(key[0]), int(key[1]))


def draw(vert: str | bytes | os.PathLike[str], frag: str | bytes | os.PathLike[str], *,
         size: tuple[int, int], count: int, strict: bool = True,
         max_instructions: int | None = None, wave_size: int | None = None,
         mcpu: str = DEFAULT_MCPU, defines: Sequence[str] = (), **options: Any) -> Any:
    """One draw call of a vertex and a fragment shader in radcc.emu (`radcc draw`;
    docs/draw.md): `vert`/`frag` GLSL text, paths or SPIR-V bytes; `options` the lavapipe
    runner's (`radcc.driver.draw.run_draw`: instances, attrs, inst_attrs, index,
    topology, buffers, images, samplers, push_constants, color, clear, depth, blend,
    cull, front_face, polygon, entry_vert, entry_frag). Returns the
    `radcc.driver.draw.DrawOutput` (``colors``, ``depth``, ``buffers``, ``images``).
    Bad inputs and shaders that do not compile raise `CompileError`, strict-mode
    violations `StrictModeError`, a fault or the instruction limit `RunError`."""
    from radcc.driver.compile import CompileError as DriverError
    from radcc.driver.draw import DrawInputError, run_draw
    from radcc.emu.errors import DEFAULT_MAX_INSTRUCTIONS, EmuError
    from radcc.frontend.spirv import SpirvError
    from radcc.isel import IselError

    vs = _spirv_of(vert, "vert", None, defines)
    fs = _spirv_of(frag, "frag", None, defines)
    limit = DEFAULT_MAX_INSTRUCTIONS if max_instructions is None else max_instructions
    if "push_constants" in options:
        options["push_constants"] = _push_bytes(options["push_constants"])
    try:
        out = run_draw(vs, fs, size=size, count=count, strict=strict, max_instructions=limit,
                       wave_size=wave_size, mcpu=mcpu, **options)
    except (DrawInputError, SpirvError, IselError, DriverError) as e:
        raise CompileError(str(e)) from None
    except EmuError as e:
        raise RunError(str(e)) from None
    if out.violations:
        raise StrictModeError("strict mode: " + "; ".join(str(v) for v in out.violations[:5]))
    return out
