"""Compile a SPIR-V compute shader with radcc and run it in radcc.emu.

    from radcc.driver.run import run_compute
    out = run_compute(spirv, groups=(4, 1, 1), buffers={(0, 0): arr, (0, 1): 4096},
                      push_constants=b"...", spec_constants={0: 64}, wave_size=32)
    out[(0, 1)]   # bytes of every buffer after the dispatch

The signature of the lavapipe oracle's `run_compute` (docs/oracle-lavapipe.md) plus
`wave_size` and `debug_options` (the pass manager's): buffers are NumPy arrays, bytes, or an
int (that many zero bytes);
the kernarg segment is filled as docs/abi.md lays it out (`radcc.abi.kernarg.shader_layout`).
Strict mode is on: a violation raises `StrictModeError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from radcc.abi.kernarg import KernargEntry, KernargLayout, Role, binding_name
from radcc.driver.compile import CompileResult, compile_spirv
from radcc.driver.images import (
    DEFAULT_SAMPLER,
    ImageArgError,
    check_binding,
    emu_image,
    image_format,
    sampler_desc,
)
from radcc.emu.api import Image, RunResult, TexelBuffer, Zeros, load
from radcc.emu.texture import SamplerDesc
from radcc.passes.options import DebugOptions
from radcc.target import DEFAULT_MCPU

Key = tuple[int, int]
# an image or sampler argument: (set, binding), or (set, binding, index) for an element
# of an array of descriptors (docs/abi.md "Arrays of descriptors")
DescKey = tuple[int, ...]


def desc_name(key: DescKey) -> str:
    """The run's name of an image given at `key` (``set0_binding1``, ``set0_binding1[2]``)."""
    name = binding_name((key[0], key[1]))
    return name if len(key) == 2 else f"{name}[{key[2]}]"


class StrictModeError(RuntimeError):
    """radcc.emu found missing waits or unmitigated hazards."""


def _buffer_arg(val: Any) -> tuple[Any, int]:
    """A buffer given to the run (an int: that many zero bytes) as the emulator takes it,
    and its size in bytes."""
    if isinstance(val, int):
        return Zeros(val), val
    if isinstance(val, np.ndarray):
        data = np.ascontiguousarray(val)
        return data, data.nbytes
    return bytes(val), len(bytes(val))


def array_count(e: KernargEntry, *given: Mapping[DescKey, Any]) -> int:
    """The element count of the array of descriptors of argument `e`: its size, or for a
    runtime-sized array (count 0 in the metadata) the highest index given at its binding
    (keys (set, binding, index) of `given`) + 1."""
    if e.count or e.key is None:
        return e.count
    return 1 + max((k[2] for g in given for k in g if len(k) == 3 and k[:2] == e.key),
                   default=-1)


def kernel_args(layout: KernargLayout, buffers: Mapping[DescKey, Any],
                push: bytes, images: Mapping[DescKey, Image | TexelBuffer] | None = None,
                samplers: Mapping[DescKey, SamplerDesc] | None = None) -> dict[str, Any]:
    """The emulator's named arguments for a dispatch (docs/abi.md layout); a sampler
    binding not in `samplers` gets the default sampler (nearest, clamp to edge). An array
    of descriptors takes its elements at (set, binding, index): an image element not
    given is a null descriptor, a sampler the default."""
    args: dict[str, Any] = {}
    smps, imgs = samplers or {}, images or {}
    for e in layout.entries:
        if e.role not in (Role.SAMPLER, Role.IMAGE) or e.key is None:
            continue
        key = e.key
        n = array_count(e, imgs, smps)
        if e.role is Role.SAMPLER:
            args[e.name] = [smps.get((*key, i), DEFAULT_SAMPLER) for i in range(n)] \
                if e.stride else smps.get(key, DEFAULT_SAMPLER)
        elif e.stride:
            if key in imgs:
                raise KeyError(f"binding {key[0]}:{key[1]} is an array of {e.count or 'runtime'}"
                               f" descriptors: give its elements as {key[0]}:{key[1]}:INDEX")
            args[e.name] = [imgs.get((*key, i)) for i in range(n)]
        else:
            if key not in imgs:
                raise KeyError(f"no image for binding {key[0]}:{key[1]}")
            args[e.name] = imgs[key]
    for e in layout.entries:
        if e.role is not Role.BUFFER_ADDRESS or e.key is None:
            continue
        key = e.key
        if e.stride:  # an array of buffer descriptors: its elements at (set, binding, index)
            if key in buffers:
                raise KeyError(f"binding {key[0]}:{key[1]} is an array of {e.count or 'runtime'}"
                               f" buffer descriptors: give its elements as {key[0]}:{key[1]}:INDEX")
            args[e.name] = [None if (*key, i) not in buffers else _buffer_arg(
                buffers[(*key, i)])[0] for i in range(array_count(e, buffers))]
            continue
        data, size = _buffer_arg(buffers.get(key, 0))
        args[binding_name(key)] = data
        args[binding_name(key) + "_size"] = size
    pc = layout.push_constants
    if pc is not None:
        raw = bytes(push)[:pc.size].ljust(pc.size, b"\0")
        args[pc.name] = int.from_bytes(raw, "little")
    return args


def run_compiled(res: CompileResult, groups: tuple[int, ...], buffers: Mapping[DescKey, Any],
                 push_constants: bytes = b"", *, strict: bool = True,
                 max_instructions: int = 50_000_000, robust: bool = False,
                 images: Mapping[DescKey, Image | TexelBuffer] | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 samplers: Mapping[DescKey, SamplerDesc] | None = None,
                 ) -> tuple[dict[DescKey, bytes], RunResult]:
    """Run a compiled shader; the buffers' bytes after the run (every binding given), and
    the run (``run.buffers[binding_name(key)]``: an image's texels after the run)."""
    mod = load(res.code_object)
    args = kernel_args(res.arg_layout, buffers, push_constants, images, samplers)
    run = mod.run(res.kernel_name, groups, res.workgroup_size, args,
                  wave_size=res.wave_size, strict=strict, max_instructions=max_instructions,
                  robust=robust, progress=progress)
    out: dict[DescKey, bytes] = {}
    for e in res.arg_layout.entries:
        if e.role is not Role.BUFFER_ADDRESS or e.key is None:
            continue
        if e.stride:  # an array's elements given
            for i in range(array_count(e, buffers)):
                if f"{e.name}[{i}]" in run.raw:
                    out[(*e.key, i)] = run.raw[f"{e.name}[{i}]"]
        else:
            out[e.key] = run.raw[e.name]
    for key, val in buffers.items():
        if key not in out:  # a binding the shader does not use
            out[key] = bytes(val) if not isinstance(val, int | np.ndarray) else (
                bytes(val) if isinstance(val, int) else np.ascontiguousarray(val).tobytes())
    return out, run


def run_compute(spirv: bytes, *, groups: tuple[int, ...] = (1, 1, 1),
                buffers: Mapping[DescKey, Any] | None = None, push_constants: bytes = b"",
                spec_constants: Mapping[int, Any] | None = None, wave_size: int | None = None,
                mcpu: str = DEFAULT_MCPU, entry: str | None = None,
                debug_options: DebugOptions | None = None,
                images: Mapping[DescKey, tuple[np.ndarray, str | None]] | None = None,
                samplers: Mapping[DescKey, str] | None = None,
                ) -> dict[DescKey, Any]:
    """`images`: (set, binding) -> (array, format name or None: the default), 2-D or 3-D
    as the shader's image is, as ``radcc run --image``/``--image3d`` take them (`radcc.driver.images`); they come back as arrays
    of the same shape and dtype, beside the buffers' bytes. `samplers`: (set, binding) ->
    ``FILTER[,ADDRESS[,NORMALIZED]]`` as ``radcc run --sampler`` takes it. An element of
    an array of descriptors is keyed (set, binding, index)."""
    res = compile_spirv(spirv, mcpu=mcpu, wave_size=wave_size, entry=entry,
                        spec=dict(spec_constants or {}), debug_options=debug_options)
    emu_images = {key: image_arg(res, key, arr, fmt, image_dims(res, key))
                  for key, (arr, fmt) in (images or {}).items()}
    smps = {key: sampler_desc(text, "sampler " + ":".join(map(str, key)))
            for key, text in (samplers or {}).items()}
    out, run = run_compiled(res, tuple(groups), dict(buffers or {}), push_constants,
                            images=emu_images, samplers=smps)
    if run.violations:
        raise StrictModeError("strict mode: " + "; ".join(str(v) for v in run.violations[:5]))
    result: dict[DescKey, Any] = dict(out)
    result.update(image_outputs(res, run, emu_images))
    return result


# the MIR image dim of a binding -> the texel axes of its array (`radcc.driver.images`)
ARRAY_AXES = {"Buffer": 1, "1D": 1, "1DArray": 2, "2D": 2, "2DArray": 3, "3D": 3,
              "Cube": 3, "CubeArray": 3, "2DMS": 3, "2DMSArray": 4}
# the dims given with --image3d (the others with --image)
IMAGE3D_DIMS = frozenset({"3D", "2DArray", "Cube", "CubeArray", "2DMSArray"})


def image_dims(res: CompileResult, key: DescKey) -> int:
    """The texel axes of the array for the shader's image at `key` (2 if it has none
    there): 1 for a texel buffer (`(N,)` or `(N, C)`) or a 1-D image, 2 for 2-D images
    and 1-D arrays (layers first), 3 for 3-D images, 2-D arrays and cubes (the faces
    first, 6 per cube)."""
    img = res.images.get((key[0], key[1]))
    return 2 if img is None else ARRAY_AXES.get(img.dim, 2)


def image_arg(res: CompileResult, key: DescKey, arr: np.ndarray, fmt: str | None,
              dims: int) -> Image | TexelBuffer:
    """The emulator image for binding `key` (ImageArgError naming it if it does not fit)."""
    img3 = res.images.get((key[0], key[1]))
    three = img3.dim in IMAGE3D_DIMS if img3 is not None else dims == 3
    where = ("--image3d " if three else "--image ") + ":".join(map(str, key))
    img = res.images.get((key[0], key[1]))
    f = image_format(arr, fmt, dims, where, img.format if img is not None and img.storage
                     else None)
    if img is not None:
        check_binding(f, img, where)
        if img.dim.startswith("2DMS"):
            n = arr.shape[3 if img.dim.endswith("Array") else 2]
            if n not in (2, 4, 8, 16):
                raise ImageArgError(f"{where}: a multisampled image has 2, 4, 8 or 16 "
                                    f"samples (the axis after W), not {n}")
    return emu_image(arr, f, img.dim if img is not None else {3: "3D"}.get(dims, "2D"), where)


def image_outputs(res: CompileResult, run: RunResult,
                  images: Mapping[DescKey, Image | TexelBuffer]
                  ) -> dict[DescKey, np.ndarray]:
    """Every image given, after the run, with the shape and dtype it was given (an image
    the shader does not use comes back unchanged)."""
    out: dict[DescKey, np.ndarray] = {}
    for key, img in images.items():
        got = run.buffers.get(desc_name(key)) if (key[0], key[1]) in res.images else None
        out[key] = np.array(img.data if got is None else got, dtype=img.data.dtype).reshape(
            img.data.shape)
    return out
