"""The image options of ``radcc run SHADER`` (the interface of lvp_run, the lavapipe
reference runner: the same spellings, formats, defaults and output files):

    --image SET:BINDING=FILE.npy[:FORMAT]     a 2-D image, (H, W) or (H, W, C); a texel
                                              buffer binding (radcc's extension: lvp_run
                                              refuses texel buffers), (N,) or (N, C)
    --image3d SET:BINDING=FILE.npy[:FORMAT]   a 3-D image, (D, H, W) or (D, H, W, C)
    --sampler SET:BINDING=FILTER[,ADDRESS[,NORMALIZED]]
radcc's extensions (lvp_run refuses these bindings): a 1-D image is given with --image as
(W,) or (W, C), a 1-D array with --image as (L, W[, C]), a 2-D array with --image3d as
(L, H, W[, C]) (the layers first), a cube or cube array with --image3d as (6 x cubes, H,
W[, C]) with H = W (the faces +X, -X, +Y, -Y, +Z, -Z of each cube); a multisampled image
(``texture2DMS``, ``image2DMS``) with --image as (H, W, S[, C]), a multisampled array with
--image3d as (L, H, W, S[, C]) (S = 2, 4, 8 or 16 samples, a texel's samples one after the
other). An element of an array of descriptors (``image2D
img[4]``, ``sampler2D tex[2]``, ``sampler s[3]``) is given as ``SET:BINDING:INDEX``
(``--image 0:1:2=FILE.npy``, ``--sampler 0:3:0=linear``) and written back as
``DIR/SET_BINDING_INDEX.npy``; elements not given are null descriptors (images: loads give
zero, stores are dropped) or the default sampler.

FORMAT names and defaults are `radcc.driver.images.FORMATS`/`DEFAULTS` (lvp_run's, plus
`DECLARED_ONLY`'s r8ui, rg8, rg8ui for storage images declared so); every image
given is written back after the run as ``DIR/SET_BINDING.npy`` with its shape and
dtype. Errors name the option and binding.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from radcc.abi.kernarg import Role
from radcc.cli._shader import UserError
from radcc.driver.compile import CompileResult
from radcc.driver.images import ImageArgError, sampler_desc
from radcc.driver.run import IMAGE3D_DIMS, image_arg, image_dims
from radcc.emu.api import Image, TexelBuffer
from radcc.emu.texture import SamplerDesc

Key = tuple[int, ...]  # (set, binding) or (set, binding, index) of an array element
FILTERS = ("nearest", "linear")
ADDRESSES = ("repeat", "clamp", "mirror", "border")
NORMALIZATION = ("normalized", "unnormalized")


@dataclass(frozen=True)
class ImageSpec:
    key: Key
    path: str
    format: str | None
    dims: int  # 2 (--image) or 3 (--image3d)

    @property
    def option(self) -> str:
        return "--image" if self.dims == 2 else "--image3d"

    @property
    def where(self) -> str:
        return f"{self.option} {_name(self.key)}"


def _name(key: Key) -> str:
    return ":".join(str(k) for k in key)


@dataclass(frozen=True)
class SamplerSpec:
    key: Key
    filter: str
    address: str = "clamp"
    normalized: bool = True


def add_image_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--image", action="append", default=[],
                   metavar="SET:BINDING=FILE.npy[:FORMAT]",
                   help="the 2-D image at SET:BINDING, (H, W) or (H, W, C); FORMAT: rgba8, "
                        "rgba8_srgb, rgba8ui, r8, r32f, rg32f, rgba32f, rgba16f, r16f, r32ui, "
                        "rgba32ui, r32i, rgba32i (default: from the dtype and C), and r8ui, "
                        "rg8, rg8ui for a storage image declared so; a texel "
                        "buffer binding takes (N,) or (N, C) elements; written "
                        "back to DIR/SET_BINDING.npy; SET:BINDING:INDEX for an element of "
                        "an array of descriptors (DIR/SET_BINDING_INDEX.npy); repeatable")
    p.add_argument("--image3d", action="append", default=[],
                   metavar="SET:BINDING=FILE.npy[:FORMAT]",
                   help="a 3-D image, (D, H, W) or (D, H, W, C); a 2-D array (L, H, W[, C]); "
                        "a cube (array): (6 x cubes, H, W[, C]), faces +X -X +Y -Y +Z -Z; "
                        "repeatable")
    p.add_argument("--sampler", action="append", default=[],
                   metavar="SET:BINDING=FILTER[,ADDRESS[,NORMALIZED]]",
                   help="the sampler at SET:BINDING (SET:BINDING:INDEX in an array): "
                        "nearest|linear, "
                        "repeat|clamp|mirror|border, normalized|unnormalized")


def _key(opt: str, spec: str, form: str) -> tuple[Key, str]:
    """SET:BINDING or SET:BINDING:INDEX (an element of an array of descriptors)."""
    key, eq, text = spec.partition("=")
    parts = key.split(":")
    try:
        k = tuple(int(x, 0) for x in parts)
    except ValueError:
        raise UserError(f"{opt} expects {form}, got '{spec}'") from None
    if not eq or len(k) not in (2, 3) or not text or min(k) < 0:
        raise UserError(f"{opt} expects {form}, got '{spec}'")
    return k, text


def parse_image(spec: str, dims: int) -> ImageSpec:
    opt = "--image" if dims == 2 else "--image3d"
    k, text = _key(opt, spec, "SET:BINDING=FILE.npy[:FORMAT]")
    path, fmt = text, None
    if not text.endswith(".npy"):
        head, colon, tail = text.rpartition(":")
        if colon and head.endswith(".npy"):
            path, fmt = head, tail
    if not path.endswith(".npy"):
        raise UserError(f"{opt} {_name(k)}: '{text}' is not a .npy file")
    return ImageSpec(k, path, fmt, dims)


def parse_sampler(spec: str) -> SamplerSpec:
    k, text = _key("--sampler", spec, "SET:BINDING=FILTER[,ADDRESS[,NORMALIZED]]")
    parts = text.split(",")
    where = f"--sampler {_name(k)}"
    if len(parts) > 3:
        raise UserError(f"{where}: '{text}' has more than FILTER,ADDRESS,NORMALIZED")
    if parts[0] not in FILTERS:
        raise UserError(f"{where}: filter '{parts[0]}' (nearest or linear)")
    address = parts[1] if len(parts) > 1 else "clamp"
    if address not in ADDRESSES:
        raise UserError(f"{where}: address mode '{address}' (repeat, clamp, mirror or border)")
    norm = parts[2] if len(parts) > 2 else "normalized"
    if norm not in NORMALIZATION:
        raise UserError(f"{where}: '{norm}' (normalized or unnormalized)")
    if norm == "unnormalized" and address not in ("clamp", "border"):
        raise UserError(f"{where}: unnormalized coordinates need clamp or border addressing")
    return SamplerSpec(k, parts[0], address, norm == "normalized")


def parse_specs(args: argparse.Namespace) -> tuple[list[ImageSpec], list[SamplerSpec]]:
    """The --image/--image3d/--sampler options (syntax only), duplicates refused."""
    images = [parse_image(s, 2) for s in args.image] + [parse_image(s, 3) for s in args.image3d]
    samplers = [parse_sampler(s) for s in args.sampler]
    seen: set[Key] = set()
    for x in images:
        if x.key in seen:
            raise UserError(f"image binding {_name(x.key)} is given twice")
        seen.add(x.key)
    seen = set()
    for sm in samplers:
        if sm.key in seen:
            raise UserError(f"--sampler {_name(sm.key)} is given twice")
        seen.add(sm.key)
    return images, samplers


def shader_samplers(res: CompileResult, samplers: list[SamplerSpec]) -> dict[Key, SamplerDesc]:
    """The S# of every --sampler (a binding the shader has a sampler at); the others get
    the default (nearest, clamp)."""
    out: dict[Key, SamplerDesc] = {}
    for sm in samplers:
        s, b = sm.key[:2]
        where = f"--sampler {_name(sm.key)}"
        if (s, b) not in res.samplers:
            declared = ", ".join(f"{a}:{c}" for a, c in sorted(res.samplers)) or "none"
            raise UserError(f"{where}: the shader has no sampler binding {s}:{b} "
                            f"(its samplers: {declared})")
        _check_element(res, Role.SAMPLER, sm.key, where)
        text = f"{sm.filter},{sm.address},{'normalized' if sm.normalized else 'unnormalized'}"
        out[sm.key] = sampler_desc(text, where)
    return out


def _check_element(res: CompileResult, role: Role, key: Key, where: str) -> None:
    """An element index exactly for an array of descriptors, within its count."""
    e = res.arg_layout.find(role, (key[0], key[1]))
    array = e is not None and e.stride > 0
    n = e.count if e is not None else 0  # 0 in an array: runtime-sized
    if array and len(key) == 2:
        raise UserError(f"{where}: binding {key[0]}:{key[1]} is an array of {n or 'runtime'} "
                        f"descriptors: give its elements as {key[0]}:{key[1]}:INDEX")
    if len(key) == 3 and not array:
        raise UserError(f"{where}: binding {key[0]}:{key[1]} is not an array of descriptors")
    if len(key) == 3 and n and key[2] >= n:
        raise UserError(f"{where}: index {key[2]} outside the array of {n} descriptors")


def shader_images(res: CompileResult, images: list[ImageSpec], buffers: set[Key]
                  ) -> dict[Key, Image | TexelBuffer]:
    """The emulator's images for the compiled shader: every image binding it declares
    given once, each array fitting its binding (shape, dtype, format)."""
    out: dict[Key, Image | TexelBuffer] = {}
    for x in images:
        s, b = x.key[:2]
        where = x.where
        if (s, b) in buffers:
            raise UserError(f"{where}: binding {s}:{b} is given as a --buffer too")
        img = res.images.get((s, b))
        if img is None:
            declared = ", ".join(f"{a}:{c}" for a, c in sorted(res.images)) or "none"
            raise UserError(f"{where}: the shader has no image binding {s}:{b} (its images: "
                            f"{declared})")
        _check_element(res, Role.IMAGE, x.key, where)
        want = 3 if img.dim in IMAGE3D_DIMS else 2  # 3-D images, 2-D arrays, cubes
        if x.dims != want:
            raise UserError(f"{where}: binding {s}:{b} is a {img.dim} image: give it with "
                            f"{'--image3d' if want == 3 else '--image'}")
        try:
            arr = np.load(Path(x.path), allow_pickle=False)
        except OSError as e:
            raise UserError(f"{where}: cannot read '{x.path}': {e.strerror or e}") from None
        except Exception as e:
            raise UserError(f"{where}: '{x.path}' is not a valid .npy file "
                            f"({type(e).__name__}: {e})") from None
        try:
            out[x.key] = image_arg(res, x.key, arr, x.format, image_dims(res, x.key))
        except ImageArgError as e:
            raise UserError(str(e)) from None
    given = {k[:2] for k in out}
    missing = [k for k in sorted(res.images) if k not in given]
    if missing:
        raise UserError("missing --image for " + ", ".join(f"{s}:{b}" for s, b in missing))
    return out


def write_images(odir: Path, images: dict[Key, np.ndarray]) -> None:
    for key, arr in images.items():
        np.save(odir / ("_".join(str(k) for k in key) + ".npy"), arr, allow_pickle=False)
