"""The emulator's Python API.

    from radcc.emu.api import load
    mod = load("k.o")                       # path or bytes
    res = mod.run("saxpy", groups=4, block=64,
                  args={"y": y, "x": x, "a": 2.0, "n": 256})
    res.buffers["y"]                        # NumPy array, same dtype/shape as passed
    res.violations                          # strict-mode reports (list of Violation)
    res.counters                            # instructions, lane-instructions, waves, classes

Arguments are matched by name with the kernel's metadata (`.args`): buffers
(`global_buffer`) take NumPy arrays (copied into emulator memory) or `Zeros(n)`;
by-value arguments take numbers (packed by `.size` and `.type_name`). The
hidden arguments of code object v5 (block counts, group sizes, remainders,
global offsets, grid dims) are filled in.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from radcc.emu.dispatch import Counters, Dispatcher
from radcc.emu.errors import EmuError
from radcc.emu.loader import LoadedKernel, LoadedObject
from radcc.emu.memory import Memory
from radcc.emu.strict import Violation
from radcc.emu.texture import (
    FORMAT_BY_NAME,
    IDENTITY,
    TYPE_1D,
    TYPE_1D_ARRAY,
    TYPE_2D,
    TYPE_2D_ARRAY,
    TYPE_2D_MSAA,
    TYPE_2D_MSAA_ARRAY,
    TYPE_3D,
    TYPE_CUBE,
    ImageDesc,
    SamplerDesc,
)
from radcc.emu.vmem import buffer_desc

Dim = int | tuple[int, ...] | list[int]


@dataclass(frozen=True)
class Zeros:
    """A zero-filled buffer argument of `nbytes` bytes."""

    nbytes: int


@dataclass(frozen=True)
class Image:
    """An image argument (``.value_kind: image``): the texels in C order, shaped
    `(H, W)`/`(H, W, C)` (2-D), `(D, H, W[, C])` (3-D, `dim` 3) or `(W[, C])` (1-D,
    `dim` 1); arrayed (`arrayed`): the layers first, `(L, W[, C])` (1-D) or
    `(L, H, W[, C])` (2-D), a 1D_ARRAY/2D_ARRAY T# with L layers; `format` a T# format name of
    `radcc.emu.texture.FORMATS` (``8_8_8_8_UNORM`` ...), whose texel size must be the
    array's per-texel bytes; `dst_sel` the T#'s destination swizzle. `mips`: the levels
    after level 0 (`data`), each shaped as the level's extents (max(1, extent >> m)); `view`:
    the T#'s (base level, last level), default all levels. The emulator maps the texels
    (linear, pitch = width; the levels as `radcc.emu.texture.ImageDesc.level` lays them
    out) and the 32-byte T#, and passes the T#'s address. Only level 0 comes back in
    `RunResult.buffers`. `samples` > 1: a multisampled 2-D image (array), shaped
    `([L,] H, W, S[, C])`: each texel's S samples one after the other (a 2D_MSAA or
    2D_MSAA_ARRAY T# with log2(S) as its max mip and last level; docs/abi.md)."""

    data: np.ndarray
    format: str
    dim: int = 2
    dst_sel: tuple[int, int, int, int] = IDENTITY
    mips: tuple[np.ndarray, ...] = ()
    view: tuple[int, int] | None = None
    arrayed: bool = False
    cube: bool = False  # a cube (array): arrayed 2-D, (6 x cubes, H, W[, C]) with H = W,
    # the faces of each cube in Vulkan's layer order (+X, -X, +Y, -Y, +Z, -Z), a CUBE T#
    samples: int = 1


@dataclass(frozen=True)
class TexelBuffer:
    """A texel buffer argument (a uniform or storage texel buffer binding: ``.value_kind:
    image`` whose descriptor is a buffer resource): the elements in C order, shaped `(N,)`
    or `(N, C)`; `format` a buffer format name of `radcc.emu.texture.FORMATS` (Table 52
    ids below 64) whose size must be the array's per-element bytes; `dst_sel` the V#'s
    destination swizzle. The emulator maps the elements and a 16-byte V# describing them
    (`radcc.emu.vmem.buffer_desc`), and passes the V#'s address."""

    data: np.ndarray
    format: str
    dst_sel: tuple[int, int, int, int] = IDENTITY


@dataclass
class RunResult:
    buffers: dict[str, np.ndarray]
    violations: list[Violation]
    counters: Counters
    kernel: str
    wave_size: int
    raw: dict[str, bytes] = field(default_factory=dict)
    # where each buffer argument was mapped (the same for the same kernel and arguments:
    # a buffer device address test reads them, then passes them in a second run)
    addresses: dict[str, int] = field(default_factory=dict)


def _dims(d: Dim, what: str) -> tuple[int, int, int]:
    t = (d,) if isinstance(d, int) else tuple(d)
    if not 1 <= len(t) <= 3 or any(not isinstance(v, int | np.integer) or v < 1 for v in t):
        raise EmuError(f"{what} must be 1 to 3 positive integers, got {d!r}")
    return tuple(int(v) for v in t) + (1,) * (3 - len(t))  # type: ignore[return-value]


_FLOAT_TYPES = {"float": "<f", "double": "<d", "half": "<e"}
# emulator resource limit (not an ISA one): bytes of kernarg segment
_MAX_KERNARG = 1 << 20


def pack_scalar(arg: dict[str, Any], value: Any) -> bytes:
    """Pack a by-value argument per its metadata size and type name."""
    size = int(arg.get(".size", 4))
    tname = str(arg.get(".type_name", "")).strip()
    name = arg.get(".name", "?")
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if tname in _FLOAT_TYPES and struct.calcsize(_FLOAT_TYPES[tname]) == size:
        if not isinstance(value, int | float | np.number):
            raise EmuError(f"argument '{name}' ({tname}) needs a number, got {value!r}")
        return struct.pack(_FLOAT_TYPES[tname], float(value))
    if isinstance(value, float | np.floating) and not float(value).is_integer():
        raise EmuError(f"argument '{name}' ({tname or 'integer'}) needs an integer, "
                       f"got {value!r}")
    if not isinstance(value, int | float | np.number):
        raise EmuError(f"argument '{name}' needs a number, got {type(value).__name__}")
    v = int(value)
    if size < 1:
        raise EmuError(f"argument '{name}': by-value argument of size {size}")
    if not -(1 << (8 * size - 1)) <= v < (1 << (8 * size)):
        raise EmuError(f"argument '{name}': {v} does not fit in {size} bytes")
    return (v & ((1 << (8 * size)) - 1)).to_bytes(size, "little")


class Module:
    """A loaded code object; `run` dispatches one of its kernels on fresh memory."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        LoadedObject(data, Memory())  # validate now: bad input fails at load time

    @property
    def kernels(self) -> list[str]:
        return LoadedObject(self.data, Memory()).kernel_names()

    def kernel(self, name: str) -> LoadedKernel:
        return LoadedObject(self.data, Memory()).kernel(name)

    def run(self, kernel: str, groups: Dim, block: Dim, args: dict[str, Any], *,
            wave_size: int | None = None, strict: bool = True, hazards: bool = True,
            max_instructions: int = 50_000_000, dynamic_lds: int = 0,
            progress: Callable[[int, int], None] | None = None,
            robust: bool = False) -> RunResult:
        """`robust`: robust buffer access (`Memory.robust`): every buffer is mapped with
        `memory.ISOLATION` bytes of unmapped space around it, and out-of-bounds loads
        read zero, out-of-bounds stores are dropped, instead of faulting."""
        mem = Memory(robust=robust)
        obj = LoadedObject(self.data, mem)
        k = obj.kernel(kernel)
        g, b = _dims(groups, "groups"), _dims(block, "block")
        if b[0] * b[1] * b[2] > 1024:
            raise EmuError(f"workgroup size {b} exceeds 1024 work-items")
        if wave_size is not None and wave_size != k.wave_size:
            raise EmuError(f"kernel '{kernel}' was compiled for wave{k.wave_size}, "
                           f"not wave{wave_size}")
        meta_args = k.args
        user = [a for a in meta_args if not str(a.get(".value_kind", "")).startswith("hidden_")]
        names = [str(a.get(".name", "")) for a in user]
        unknown = sorted(set(args) - set(names))
        if unknown:
            raise EmuError(f"kernel '{kernel}' has no argument named {', '.join(unknown)} "
                           f"(arguments: {', '.join(names)})")
        missing = [n for n in names if n not in args]
        if missing:
            raise EmuError(f"kernel '{kernel}': missing argument(s) {', '.join(missing)}")
        ksize = int(k.descriptor.get("kernarg_size", 0) or k.metadata.get(".kernarg_segment_size",
                                                                            0))
        if ksize > _MAX_KERNARG:  # e.g. a corrupt descriptor: no 4 GiB segment
            raise EmuError(f"kernel '{kernel}': kernarg segment of {ksize} bytes; the emulator "
                           f"takes at most {_MAX_KERNARG}")
        kernarg, buffers = build_kernarg(mem, kernel, meta_args, args, ksize, robust, g, b)
        ka = mem.map("kernarg segment", bytes(kernarg), writable=False)
        dispatch_pkt = struct.pack("<HHHHHHIIIIIQQQQ", 0, 3, b[0], b[1], b[2], 0,
                                   g[0] * b[0], g[1] * b[1], g[2] * b[2], 0, 0,
                                   k.entry, ka.base, 0, 0)
        dp = mem.map("dispatch packet", dispatch_pkt, writable=False)
        qp = mem.map("queue", bytes(256), writable=False)
        d = Dispatcher(k, obj.target, mem, g, b, ka.base, dispatch_ptr=dp.base, queue_ptr=qp.base,
                       strict=strict, hazards=hazards, max_instructions=max_instructions,
                       dynamic_lds=dynamic_lds, progress=progress)
        counters = d.run()
        out: dict[str, np.ndarray] = {}
        raws: dict[str, bytes] = {}
        for name, (base, arr, n) in buffers.items():
            data = mem.read(base, n) if n else b""
            raws[name] = data
            if arr is not None:
                out[name] = np.frombuffer(data, dtype=arr.dtype).reshape(arr.shape).copy()
            else:
                out[name] = np.frombuffer(data, dtype=np.uint8).copy()
        return RunResult(out, list(d.report.violations), counters, kernel, k.wave_size, raws,
                         {name: base for name, (base, _, _) in buffers.items()})


def _map_image(mem: Memory, name: str, img: Image) -> tuple[int, int]:
    """Map an image's texels and its T#; (texel base, T# address)."""
    fmt = FORMAT_BY_NAME.get(img.format)
    if fmt is None:
        raise EmuError(f"argument '{name}': image format {img.format!r} is not one of "
                       f"the texture unit's ({', '.join(sorted(FORMAT_BY_NAME))})")
    arr = np.ascontiguousarray(img.data)
    rank = {1: 1, 2: 2, 3: 3}.get(img.dim)
    if rank is None or (img.arrayed and img.dim == 3):
        raise EmuError(f"argument '{name}': image dimension {img.dim} (1, 2 or 3; arrays 1 "
                       "or 2)")
    rank += img.arrayed
    ms = img.samples > 1
    if ms:
        if img.dim != 2 or img.mips or img.samples not in (2, 4, 8, 16):
            raise EmuError(f"argument '{name}': {img.samples} samples (2, 4, 8 or 16, a 2-D "
                           "image of one level)")
        rank += 1  # the samples axis after W
    if arr.ndim not in (rank, rank + 1) or arr.size == 0:
        raise EmuError(f"argument '{name}': a {img.dim}-D image needs a {rank}- or "
                       f"{rank + 1}-dimensional array, got shape {arr.shape}")
    shape = arr.shape[:rank]
    if ms:
        if shape[-1] != img.samples:
            raise EmuError(f"argument '{name}': the samples axis has {shape[-1]} samples, "
                           f"not {img.samples}")
        shape = shape[:-1]
    texel = arr.nbytes // int(np.prod(shape)) // img.samples
    if texel != fmt.bytes:
        raise EmuError(f"argument '{name}': {texel}-byte texels for format {fmt.name} "
                       f"({fmt.bytes}-byte texels)")
    w = shape[-1]
    h = shape[-2] if rank >= 2 and img.dim >= 2 else 1
    d = shape[0] if rank == 3 or img.arrayed else 1
    if max(w, h) > 1 << 14 or d > 1 << 13:
        raise EmuError(f"argument '{name}': image of {w}x{h}x{d} texels exceeds the T#'s "
                       "16384x16384x8192")
    typ = ({1: TYPE_1D_ARRAY, 2: TYPE_2D_ARRAY} if img.arrayed else
           {1: TYPE_1D, 2: TYPE_2D, 3: TYPE_3D})[img.dim]
    if img.cube:
        if not img.arrayed or img.dim != 2 or d % 6 or w != h:
            raise EmuError(f"argument '{name}': a cube map is an arrayed 2-D image of 6 x "
                           f"cubes square faces, got {d} layers of {w}x{h}")
        typ = TYPE_CUBE
    if ms:
        log2 = img.samples.bit_length() - 1
        typ = TYPE_2D_MSAA_ARRAY if img.arrayed else TYPE_2D_MSAA
        desc = ImageDesc(base=0, format=fmt.id, width=w, height=h, depth=d,
                         dst_sel=img.dst_sel, type=typ, max_mip=log2, base_level=0,
                         last_level=log2)
        reg = mem.map(f"image {name}", arr.tobytes(), align=256)
        t = mem.map(f"T# {name}", replace(desc, base=reg.base).encode().to_bytes(32, "little"),
                    writable=False)
        return reg.base, t.base
    nlev = 1 + len(img.mips)
    if nlev > 16:
        raise EmuError(f"argument '{name}': {nlev} mip levels (the T# holds at most 16)")
    base, last = img.view if img.view is not None else (0, nlev - 1)
    if not 0 <= base <= last < nlev:
        raise EmuError(f"argument '{name}': view levels {base}..{last} of {nlev} levels")
    desc = ImageDesc(base=0, format=fmt.id, width=w, height=h, depth=d, dst_sel=img.dst_sel,
                     type=typ, max_mip=nlev - 1, base_level=base, last_level=last)
    blob = bytearray()
    for m, lv in enumerate((arr, *img.mips)):
        off, lw, lh, ld, _ = desc.level(m)
        want = (ld, lw) if img.arrayed and img.dim == 1 else (ld, lh, lw)[3 - rank:]
        lv = np.ascontiguousarray(lv)
        if lv.shape[:rank] != want or lv.nbytes != int(np.prod(want)) * fmt.bytes:
            raise EmuError(f"argument '{name}': mip level {m} has shape {lv.shape}, the level "
                           f"is {want} texels of {fmt.bytes} bytes")
        blob[len(blob):off] = bytes(off - len(blob))
        blob += lv.tobytes()
    reg = mem.map(f"image {name}", bytes(blob), size=max(len(blob), 1), align=256)
    desc = replace(desc, base=reg.base)
    t = mem.map(f"T# {name}", desc.encode().to_bytes(32, "little"), writable=False)
    return reg.base, t.base

def _map_texel_buffer(mem: Memory, name: str, tb: TexelBuffer) -> tuple[int, int]:
    """Map a texel buffer's elements and its V#; (element base, V# address)."""
    fmt = FORMAT_BY_NAME.get(tb.format)
    if fmt is None or fmt.id >= 64:
        raise EmuError(f"argument '{name}': buffer format {tb.format!r} is not one of the "
                       "texture unit's buffer formats")
    arr = np.ascontiguousarray(tb.data)
    if arr.ndim not in (1, 2) or arr.size == 0:
        raise EmuError(f"argument '{name}': a texel buffer needs a 1- or 2-dimensional "
                       f"array, got shape {arr.shape}")
    n = arr.shape[0]
    if arr.nbytes // n != fmt.bytes:
        raise EmuError(f"argument '{name}': {arr.nbytes // n}-byte elements for format "
                       f"{fmt.name} ({fmt.bytes}-byte elements)")
    reg = mem.map(f"texel buffer {name}", arr.tobytes(), size=max(arr.nbytes, 1), align=256)
    desc = buffer_desc(reg.base, fmt.bytes, n, fmt.id, tb.dst_sel)
    v = mem.map(f"V# {name}", desc.to_bytes(16, "little"), writable=False)
    return reg.base, v.base


def _descriptor_list(name: str, vals: Any, n: int, what: str) -> list[Any] | tuple[Any, ...]:
    """The elements given for the array-of-descriptors argument `name` of `n` elements
    (0: runtime-sized, as many as given, at least one); `what` names the descriptors in
    the error ("buffer ")."""
    if n == 0 and isinstance(vals, list | tuple):
        n = len(vals)
        if not n:
            raise EmuError(f"argument '{name}' is a runtime-sized array of descriptors: "
                           "pass a list of at least one")
    if not isinstance(vals, list | tuple) or len(vals) != n:
        raise EmuError(f"argument '{name}' is an array of {n} {what}descriptors: pass a "
                       f"list of {n} (None for a null descriptor)")
    return vals


def _map_descriptor_array(mem: Memory, meta: dict[str, Any], args: dict[str, Any],
                          buffers: dict[str, tuple[int, np.ndarray | None, int]],
                          combined: dict[str, int]) -> int:
    """Map an array of descriptors (docs/abi.md "Arrays of descriptors": `.radcc_descriptor
    _count` elements `.radcc_descriptor_stride` bytes apart, RADV's layout) and what its
    elements describe; the address of its first element. An image array's argument is a
    sequence of `Image`/`TexelBuffer` or None (a null descriptor, all zero: loads give 0,
    stores are dropped), a sampler array's of `SamplerDesc` or None (the default sampler).
    A combined image sampler's elements (stride 96) hold the T# at 0 and the S# at 64: the
    sampler argument ``NAME_sampler`` points 64 bytes into the image argument's array."""
    name, kind = str(meta.get(".name", "")), str(meta.get(".value_kind"))
    n, stride = meta[".radcc_descriptor_count"], meta.get(".radcc_descriptor_stride")
    if not isinstance(n, int) or not isinstance(stride, int) or n < 0 or stride not in (
            16, 32, 64, 96):
        raise EmuError(f"argument '{name}': descriptor count {n!r} and stride {stride!r} "
                       "(a count, 0 for a runtime-sized array; stride 16, 32, 64 or 96)")
    if kind == "sampler" and stride == 96:  # in the combined image sampler's array
        image = name.removesuffix("_sampler")
        if image not in combined:
            raise EmuError(f"argument '{name}': a combined image sampler array without its "
                           f"image argument '{image}'")
        return combined[image] + 64
    vals = _descriptor_list(name, args[name], n, "")
    n = len(vals)
    blob = bytearray(n * stride)
    smps = args.get(name + "_sampler") if stride == 96 else None
    for i, val in enumerate(vals):
        at = i * stride
        if kind == "sampler" or smps is not None:
            sd = (smps if smps is not None else vals)[i]
            sd = SamplerDesc() if sd is None else sd
            if not isinstance(sd, SamplerDesc):
                raise EmuError(f"argument '{name}'[{i}]: pass an emu.texture.SamplerDesc")
            so = at + (64 if smps is not None else 0)
            blob[so:so + 16] = sd.encode().to_bytes(16, "little")
            if kind == "sampler":
                continue
        if val is None:
            continue
        el = f"{name}[{i}]"
        if isinstance(val, TexelBuffer):
            base, daddr = _map_texel_buffer(mem, el, val)
            blob[at:at + 16] = mem.read(daddr, 16)
        elif isinstance(val, Image):
            base, daddr = _map_image(mem, el, val)
            blob[at:at + 32] = mem.read(daddr, 32)
        else:
            raise EmuError(f"argument '{el}' is an image: pass an emu.api.Image, "
                           f"TexelBuffer or None, not {type(val).__name__}")
        buffers[el] = (base, val.data, val.data.nbytes)
    reg = mem.map(f"descriptors {name}", bytes(blob), writable=False)
    if stride == 96:
        combined[name] = reg.base
    return reg.base


def _buffer_bytes(name: str, val: Any) -> tuple[np.ndarray | None, bytes]:
    """A buffer argument's array (None if given as bytes or `Zeros`) and bytes."""
    if isinstance(val, Zeros):
        return None, bytes(val.nbytes)
    if isinstance(val, np.ndarray):
        return val, np.ascontiguousarray(val).tobytes()
    if isinstance(val, bytes | bytearray):
        return None, bytes(val)
    raise EmuError(f"argument '{name}' is a buffer: pass a NumPy array, bytes or Zeros(n), "
                   f"not {type(val).__name__}")


# the dword 3 of a storage/uniform buffer's V# as RADV writes it on GFX11
# (radv_write_buffer_descriptor): dst_sel x, y, z, w, format 32_FLOAT, OOB_SELECT raw (3)
_RAW_BUFFER_SEL = (4, 5, 6, 7)
_FORMAT_32_FLOAT = 22
_OOB_SELECT_RAW = 3 << 124


def _map_buffer_array(mem: Memory, meta: dict[str, Any], args: dict[str, Any],
                      buffers: dict[str, tuple[int, np.ndarray | None, int]],
                      robust: bool) -> int:
    """Map an array of storage/uniform buffer descriptors (docs/abi.md "Arrays of
    descriptors": `.radcc_descriptor_count` 16-byte V#s, each with its buffer's base
    address and size in bytes, as RADV's); the address of the first V#. The argument is
    a sequence of buffers (NumPy arrays, bytes, `Zeros`) or None (a null descriptor: all
    zero); element i is mapped as ``NAME[i]``."""
    name = str(meta.get(".name", ""))
    n, stride = meta[".radcc_descriptor_count"], meta.get(".radcc_descriptor_stride")
    if not isinstance(n, int) or n < 0 or stride != 16:
        raise EmuError(f"argument '{name}': descriptor count {n!r} and stride {stride!r} "
                       "(an array of buffer descriptors: a count, stride 16)")
    vals = _descriptor_list(name, args[name], n, "buffer ")
    n = len(vals)
    blob = bytearray(16 * n)
    for i, val in enumerate(vals):
        if val is None:
            continue
        el = f"{name}[{i}]"
        arr, raw = _buffer_bytes(el, val)
        reg = mem.map(f"buffer {el}", raw, size=max(len(raw), 1), isolate=robust)
        buffers[el] = (reg.base, arr, len(raw))
        desc = buffer_desc(reg.base, 0, len(raw), _FORMAT_32_FLOAT, _RAW_BUFFER_SEL)
        blob[16 * i:16 * i + 16] = (desc | _OOB_SELECT_RAW).to_bytes(16, "little")
    return mem.map(f"descriptors {name}", bytes(blob), writable=False).base


def _hidden(kind: str, size: int, g: tuple[int, int, int], b: tuple[int, int, int]) -> bytes:
    axis = {"x": 0, "y": 1, "z": 2}.get(kind[-1], 0)
    if kind.startswith("hidden_block_count_"):
        v = g[axis]
    elif kind.startswith("hidden_group_size_"):
        v = b[axis]
    elif kind.startswith("hidden_remainder_"):
        v = 0
    elif kind == "hidden_grid_dims":
        v = 3 if g[2] * b[2] > 1 else 2 if g[1] * b[1] > 1 else 1
    else:
        v = 0  # global offsets, printf buffer, queue pointers... absent
    return (v & ((1 << (8 * size)) - 1)).to_bytes(size, "little")


def build_kernarg(mem: Memory, kernel: str, meta_args: list[dict[str, Any]],
                  args: dict[str, Any], ksize: int, robust: bool,
                  g: tuple[int, int, int], b: tuple[int, int, int]
                  ) -> tuple[bytearray, dict[str, tuple[int, np.ndarray | None, int]]]:
    """The kernarg segment of arguments `args` laid out by `meta_args` (the metadata's
    `.args`), every buffer, image and sampler mapped in `mem`; and the buffers and images
    mapped, by name: (base, array given or None, bytes). Graphics stages use it for their
    resource table (docs/abi.md)."""
    kernarg = bytearray(max(ksize, 256))
    buffers: dict[str, tuple[int, np.ndarray | None, int]] = {}
    combined: dict[str, int] = {}  # combined image sampler arrays: image name -> address
    for a in meta_args:
        kind = str(a.get(".value_kind", ""))
        name = str(a.get(".name", ""))
        off, size = a.get(".offset", 0), a.get(".size", 0)
        if not isinstance(off, int) or not isinstance(size, int) or off < 0 or size < 0:
            raise EmuError(f"kernel '{kernel}': metadata of argument '{name}': .offset and "
                           f".size must be non-negative integers")
        if off + size > len(kernarg):
            raise EmuError(f"argument '{name}' lies outside the kernarg segment")
        if kind == "global_buffer" and ".radcc_descriptor_count" in a:
            kernarg[off:off + 8] = _map_buffer_array(mem, a, args, buffers,
                                                     robust).to_bytes(8, "little")
        elif kind == "global_buffer":
            arr, raw = _buffer_bytes(name, args[name])
            reg = mem.map(f"buffer {name}", raw, size=max(len(raw), 1), isolate=robust)
            buffers[name] = (reg.base, arr, len(raw))
            kernarg[off:off + 8] = reg.base.to_bytes(8, "little")
        elif kind in ("image", "sampler") and ".radcc_descriptor_count" in a:
            kernarg[off:off + 8] = _map_descriptor_array(
                mem, a, args, buffers, combined).to_bytes(8, "little")
        elif kind == "image":
            val = args[name]
            if isinstance(val, TexelBuffer):
                base, tsharp = _map_texel_buffer(mem, name, val)
            elif isinstance(val, Image):
                base, tsharp = _map_image(mem, name, val)
            else:
                raise EmuError(f"argument '{name}' is an image: pass an emu.api.Image or "
                               f"TexelBuffer, not {type(val).__name__}")
            buffers[name] = (base, val.data, val.data.nbytes)
            kernarg[off:off + 8] = tsharp.to_bytes(8, "little")
        elif kind == "sampler":
            val = args[name]
            if not isinstance(val, SamplerDesc):
                raise EmuError(f"argument '{name}' is a sampler: pass an "
                               f"emu.texture.SamplerDesc, not {type(val).__name__}")
            sd = mem.map(f"S# {name}", val.encode().to_bytes(16, "little"), writable=False)
            kernarg[off:off + 8] = sd.base.to_bytes(8, "little")
        elif kind == "by_value":
            kernarg[off:off + size] = pack_scalar(a, args[name])
        elif kind.startswith("hidden_"):
            kernarg[off:off + size] = _hidden(kind, size, g, b)
        elif kind == "dynamic_shared_pointer":
            raise EmuError(f"argument '{name}': dynamic LDS pointers are not supported")
        else:
            raise EmuError(f"argument '{name}': value kind '{kind}' is not supported")
    return kernarg, buffers

def load(src: str | Path | bytes) -> Module:
    """Load a code object from a path or bytes (EmuError if malformed)."""
    if isinstance(src, bytes | bytearray):
        return Module(bytes(src))
    try:
        data = Path(src).read_bytes()
    except OSError as e:
        raise EmuError(f"cannot read {src}: {e.strerror}") from None
    return Module(data)


__all__ = ["EmuError", "Image", "Module", "RunResult", "TexelBuffer", "Zeros", "load",
           "pack_scalar"]
