"""lavapipe as the graphics oracle: one draw call of a vertex + fragment shader.

    out = run_draw(vs, fs, size=(8, 8), count=3, attrs={0: positions})
    out.colors[0]   # (H, W, 4) uint8: colour attachment 0 after the draw
    out.write(dir)  # color0.npy ... depth.npy, SET_BINDING.bin/.npy

The interface and the Vulkan state are those of the lavapipe reference runner
`lvp_draw` (its README is the specification: `radcc draw` mirrors the same command
line and writes the same files): a Vulkan 1.3 device on lavapipe with every feature
but robustness (`radcc.oracle.lavapipe`'s device), dynamic rendering with a render
area, scissor and viewport of the whole framebuffer (depth 0..1), one sample at
the pixel centre, colour attachments cleared then stored, an optional D32_SFLOAT
depth attachment (cleared to 1.0, LESS, writes on), optional alpha blending on
attachment 0, cull mode / front face / polygon mode, per-vertex and per-instance
attributes each in its own tightly packed binding (in the order given), an
optional uint16/uint32 index buffer, primitive restart off. The shaders' interfaces
are reflected (`spirv_reflect`: inputs, outputs, descriptors, push constants) and
checked before anything runs; bad input raises `DrawInputError` (the runner's exit
status 1) with the runner's messages, and a Vulkan failure `LavapipeError` (2).

`python -m radcc.oracle.lavapipe_draw` is the runner's command line (`main`).
"""

from __future__ import annotations

import argparse
import ctypes
import shutil
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from radcc.driver.draw_iface import DrawFiles
from radcc.oracle import spirv_reflect, spirv_tools, vk
from radcc.oracle.lavapipe import (
    FENCE_TIMEOUT_S,
    BufferSpec,
    LavapipeError,
    ShaderModuleInfo,
    _as_bytes,
    _begin_commands,
    _context,
    _create_image,
    _ctxs,
    _Dispatch,
    _image_and_view,
    _image_input,
    _ImageInput,
    _ImageObj,
    _lock,
    _mapped_buffer,
    _record_download,
    _record_upload,
    _result_name,
    _sampler_info,
    binding_kinds,
    check_features,
    descriptor_sets,
)

Key = tuple[int, int]
MAX_SIZE = 16384
MAX_COLOR_ATTACHMENTS = 8


class DrawInputError(LavapipeError):
    """The draw's inputs do not fit the shaders or the interface (exit status 1)."""


@dataclass(frozen=True)
class ColorFormat:
    """A `--color` format: the Vulkan format, the `.npy` dtype and channels, and the
    shader output kind it takes ("float" covers unorm)."""

    name: str
    vk_format: int
    dtype: str
    channels: int
    kind: str  # "unorm" | "float" | "uint" | "int"

    @property
    def shader_kind(self) -> str:
        return "float" if self.kind in ("unorm", "float") else self.kind


COLOR_FORMATS: dict[str, ColorFormat] = {f.name: f for f in (
    ColorFormat("rgba8", vk.VK_FORMAT_R8G8B8A8_UNORM, "uint8", 4, "unorm"),
    ColorFormat("rgba32f", vk.VK_FORMAT_R32G32B32A32_SFLOAT, "float32", 4, "float"),
    ColorFormat("rgba16f", vk.VK_FORMAT_R16G16B16A16_SFLOAT, "float16", 4, "float"),
    ColorFormat("rgba32ui", vk.VK_FORMAT_R32G32B32A32_UINT, "uint32", 4, "uint"),
    ColorFormat("rgba32i", vk.VK_FORMAT_R32G32B32A32_SINT, "int32", 4, "int"),
    ColorFormat("r32f", vk.VK_FORMAT_R32_SFLOAT, "float32", 1, "float"),
    ColorFormat("r32ui", vk.VK_FORMAT_R32_UINT, "uint32", 1, "uint"),
)}

TOPOLOGIES: dict[str, int] = {
    "triangle-list": vk.VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
    "triangle-strip": vk.VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP,
    "triangle-fan": vk.VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN,
    "line-list": vk.VK_PRIMITIVE_TOPOLOGY_LINE_LIST,
    "line-strip": vk.VK_PRIMITIVE_TOPOLOGY_LINE_STRIP,
    "point-list": vk.VK_PRIMITIVE_TOPOLOGY_POINT_LIST,
}
CULL_MODES = {"none": vk.VK_CULL_MODE_NONE, "back": vk.VK_CULL_MODE_BACK_BIT,
              "front": vk.VK_CULL_MODE_FRONT_BIT}
FRONT_FACES = {"ccw": vk.VK_FRONT_FACE_COUNTER_CLOCKWISE, "cw": vk.VK_FRONT_FACE_CLOCKWISE}
POLYGON_MODES = {"fill": vk.VK_POLYGON_MODE_FILL, "line": vk.VK_POLYGON_MODE_LINE}
BLEND_MODES = ("alpha",)

# attribute dtype -> (component kind, VkFormat of 1..4 components)
_ATTR_FORMATS: dict[str, tuple[str, tuple[int, int, int, int]]] = {
    "float32": ("float", (vk.VK_FORMAT_R32_SFLOAT, vk.VK_FORMAT_R32G32_SFLOAT,
                          vk.VK_FORMAT_R32G32B32_SFLOAT, vk.VK_FORMAT_R32G32B32A32_SFLOAT)),
    "int32": ("int", (vk.VK_FORMAT_R32_SINT, vk.VK_FORMAT_R32G32_SINT,
                      vk.VK_FORMAT_R32G32B32_SINT, vk.VK_FORMAT_R32G32B32A32_SINT)),
    "uint32": ("uint", (vk.VK_FORMAT_R32_UINT, vk.VK_FORMAT_R32G32_UINT,
                        vk.VK_FORMAT_R32G32B32_UINT, vk.VK_FORMAT_R32G32B32A32_UINT)),
}
_KIND_DTYPE = {"float": "float32", "int": "int32", "uint": "uint32"}


class DrawResult(DrawFiles):
    """What one draw on lavapipe leaves behind (`DrawFiles`: the attachments, buffers,
    images and the warnings of the input checks)."""


# -- input checks ------------------------------------------------------------------


@dataclass
class _Attr:
    location: int
    array: np.ndarray  # (N, C) contiguous
    per_instance: bool
    vk_format: int
    binding: int = 0


def _entry(refl: spirv_reflect.Reflection, model: int, name: str | None) -> str:
    stage = spirv_reflect.STAGE_NAMES[model]
    have = ", ".join(f"{n} ({spirv_reflect.STAGE_NAMES.get(m, m)})"
                     for n, m in refl.entry_points.items()) or "no entry points"
    if name is None:
        for n, m in refl.entry_points.items():
            if m == model:
                return n
        raise DrawInputError(f"no {stage} entry point (the module has: {have})")
    if refl.entry_points.get(name) != model:
        raise DrawInputError(f"no {stage} entry point {name!r} (the module has: {have})")
    return name


def _validate(spirv: bytes, what: str) -> spirv_reflect.Reflection:
    if shutil.which("spirv-val") is None:
        raise LavapipeError("spirv-val not found (install spirv-tools)")
    r = spirv_tools.validate(spirv, "vulkan1.3")
    if not r.ok:
        raise DrawInputError(f"{what}: spirv-val rejects the module: {r.text.strip()}")
    try:
        return spirv_reflect.reflect(spirv)
    except spirv_reflect.SpirvError as e:
        raise DrawInputError(f"{what}: {e}") from e


def _attr_array(where: str, arr: Any) -> np.ndarray:
    a = np.asarray(arr)
    if a.dtype.name not in _ATTR_FORMATS:
        raise DrawInputError(f"{where}: dtype {a.dtype} (want float32, int32 or uint32)")
    if a.ndim == 1:
        a = a.reshape(-1, 1)
    if a.ndim != 2 or not 1 <= a.shape[1] <= 4:
        raise DrawInputError(f"{where}: shape {np.asarray(arr).shape} (want (N,) or (N, C), "
                             "C in 1..4)")
    return np.ascontiguousarray(a.astype(a.dtype.newbyteorder("<"), copy=False))


def _vertex_inputs(inputs: list[spirv_reflect.IOVar], attrs: Mapping[int, Any],
                   inst_attrs: Mapping[int, Any], count: int, instances: int,
                   index: np.ndarray | None, warnings: list[str]) -> list[_Attr]:
    given: list[tuple[int, Any, bool]] = [(loc, a, False) for loc, a in attrs.items()]
    given += [(loc, a, True) for loc, a in inst_attrs.items()]
    seen: set[int] = set()
    for loc, _, _inst in given:
        if loc in seen:
            raise DrawInputError(f"location {loc} is given twice")
        seen.add(loc)
    by_loc = {v.location: v for v in inputs}
    for v in inputs:
        if v.matrix or v.array or v.width != 32 or v.kind not in _KIND_DTYPE:
            raise DrawInputError(f"the vertex shader's input at location {v.location} is a "
                                 f"{v.type_name}: matrix, array, 64-bit and 16-bit inputs are "
                                 "not supported")
        if v.location not in seen:
            raise DrawInputError(f"the vertex shader reads location {v.location} "
                                 f"({v.type_name}); give it with --attr {v.location}=FILE.npy")
    max_index = None
    if index is not None and count:
        max_index = int(index[:count].max())
    out: list[_Attr] = []
    for loc, arr, inst in given:
        opt = "--inst-attr" if inst else "--attr"
        where = f"{opt} {loc}"
        a = _attr_array(where, arr)
        v = by_loc.get(loc)
        if v is None:
            warnings.append(f"{where}: the vertex shader does not read location {loc}; "
                            "ignored")
            continue
        kind, formats = _ATTR_FORMATS[a.dtype.name]
        if kind != v.kind:
            raise DrawInputError(f"{where}: dtype {a.dtype} does not match the vertex shader's "
                                 f"{v.type_name} (want {_KIND_DTYPE[v.kind]})")
        n = a.shape[0]
        if inst:
            if n < instances:
                raise DrawInputError(f"{where}: {n} elements for {instances} instances")
        elif max_index is not None:
            if n <= max_index:
                raise DrawInputError(f"{where}: {n} elements; the index buffer reads "
                                     f"vertex {max_index}")
        elif index is None and n < count:
            raise DrawInputError(f"{where}: {n} elements for a draw of {count} vertices")
        out.append(_Attr(loc, a, inst, formats[a.shape[1] - 1], len(out)))
    return out


def _check_interface(vs_out: list[spirv_reflect.IOVar],
                     fs_in: list[spirv_reflect.IOVar]) -> None:
    written: dict[int, spirv_reflect.IOVar] = {}
    for v in vs_out:
        for k in range(v.locations):
            written[v.location + k] = v
    for v in fs_in:
        for k in range(v.locations):
            w = written.get(v.location + k)
            if w is None:
                raise DrawInputError(
                    f"stage mismatch: the fragment shader reads location {v.location + k} "
                    f"({v.type_name}), which the vertex shader does not write")
            if (w.kind, w.width) != (v.kind, v.width) or w.components < v.components:
                raise DrawInputError(
                    f"stage mismatch: the fragment shader reads location {v.location + k} as "
                    f"{v.type_name}; the vertex shader writes {w.type_name}")
        if v.kind in ("int", "uint", "bool") and not v.flat:
            raise DrawInputError(f"the fragment shader's integer input at location "
                                 f"{v.location} ({v.type_name}) must be flat")


def _color_outputs(fs_out: list[spirv_reflect.IOVar], fmt: ColorFormat
                   ) -> list[spirv_reflect.IOVar | None]:
    """The fragment shader's output per attachment location (None: none there)."""
    n = 0
    for v in fs_out:
        if v.array or v.matrix or v.width != 32 or v.kind not in _KIND_DTYPE:
            raise DrawInputError(f"the fragment shader's output at location {v.location} is a "
                                 f"{v.type_name}: outputs must be 32-bit scalars or vectors")
        if v.index is not None:
            raise DrawInputError(f"the fragment shader's output at location {v.location} has "
                                 "Index (dual-source blending): not supported")
        if v.location >= MAX_COLOR_ATTACHMENTS:
            raise DrawInputError(f"the fragment shader's output at location {v.location}: "
                                 f"locations must be < {MAX_COLOR_ATTACHMENTS}")
        if v.kind != fmt.shader_kind:
            need = {"float": "rgba8, rgba16f, rgba32f or r32f", "int": "rgba32i",
                    "uint": "rgba32ui or r32ui"}[v.kind]
            raise DrawInputError(f"the fragment shader writes a {v.type_name} to location "
                                 f"{v.location}; --color {fmt.name} does not take it "
                                 f"(use {need})")
        n = max(n, v.location + 1)
    per_loc: list[spirv_reflect.IOVar | None] = [None] * n
    for v in fs_out:
        per_loc[v.location] = v
    return per_loc


def _clear_value(fmt: ColorFormat, clear: Sequence[float | int]) -> Any:
    if len(clear) != 4:
        raise DrawInputError(f"--clear wants 4 values R,G,B,A, got {len(clear)}")
    cv = vk.VkClearColorValue()
    if fmt.kind in ("unorm", "float"):
        for i, x in enumerate(clear):
            cv.float32[i] = float(x)
        return cv
    lo, hi = (0, 2**32 - 1) if fmt.kind == "uint" else (-(2**31), 2**31 - 1)
    for i, x in enumerate(clear):
        if float(x) != int(x) or not lo <= int(x) <= hi:
            raise DrawInputError(f"--clear {x} is not a {fmt.kind}32 value for {fmt.name}")
        if fmt.kind == "uint":
            cv.uint32[i] = int(x)
        else:
            cv.int32[i] = int(x)
    return cv


def _merged_bindings(vs: spirv_reflect.Reflection, fs: spirv_reflect.Reflection
                     ) -> dict[Key, spirv_reflect.Binding]:
    out = dict(vs.bindings)
    for key, b in fs.bindings.items():
        a = out.get(key)
        if a is None:
            out[key] = b
        elif (a.kind, a.count, a.image_dim) != (b.kind, b.count, b.image_dim):
            raise DrawInputError(f"binding {key[0]}:{key[1]} is a {a.kind} in the vertex "
                                 f"shader and a {b.kind} in the fragment shader")
        elif b.min_size > a.min_size:
            out[key] = b
    return out


# -- the draw ---------------------------------------------------------------------------


def run_draw(
    vert: bytes,
    frag: bytes,
    *,
    size: tuple[int, int],
    count: int,
    instances: int = 1,
    attrs: Mapping[int, np.ndarray] | None = None,
    inst_attrs: Mapping[int, np.ndarray] | None = None,
    index: np.ndarray | None = None,
    topology: str = "triangle-list",
    buffers: Mapping[Key, BufferSpec] | None = None,
    images: Mapping[Key, tuple[np.ndarray, str | None]] | None = None,
    samplers: Mapping[Key, str] | None = None,
    push_constants: bytes = b"",
    color: str = "rgba8",
    clear: Sequence[float | int] = (0, 0, 0, 0),
    depth: bool = False,
    blend: str | None = None,
    cull: str = "none",
    front_face: str = "ccw",
    polygon: str = "fill",
    samples: int = 1,
    entry_vert: str | None = None,
    entry_frag: str | None = None,
    timeout_s: float = FENCE_TIMEOUT_S,
) -> DrawResult:
    """One draw on lavapipe, the runner's options as keyword arguments.

    size: (W, H). count, instances: `vkCmdDraw(count, instances, 0, 0)`, or with `index`
    (a 1-D uint16/uint32 array) `vkCmdDrawIndexed(count, instances, 0, 0, 0)`.
    attrs / inst_attrs: location -> `(N,)` or `(N, C)` float32/int32/uint32 array, input
    rate vertex / instance; binding k is the k-th one the shader reads, attrs first then
    inst_attrs, each in the mapping's order. buffers, images, samplers, push_constants:
    as `radcc.oracle.lavapipe.run_compute` takes them (`--buffer`, `--image`/`--image3d`,
    `--sampler`, `--push`), bound for every graphics stage. color: a `COLOR_FORMATS` name
    for every attachment (one per fragment output location up to the highest); clear:
    its clear colour (floats, or integers for integer formats). depth: a D32_SFLOAT
    attachment, LESS, writes on. blend: None or "alpha" (attachment 0). cull, front_face,
    polygon: `CULL_MODES`, `FRONT_FACES`, `POLYGON_MODES` names. samples: 1 only.
    entry_vert / entry_frag: the entry points (default: the module's first of the stage).
    """
    warnings: list[str] = []
    w, h = size
    if not (1 <= w <= MAX_SIZE and 1 <= h <= MAX_SIZE):
        raise DrawInputError(f"--size {w},{h}: width and height must be in 1..{MAX_SIZE}")
    if count < 0 or instances < 0:
        raise DrawInputError(f"--draw {count},{instances}: counts must not be negative")
    if topology not in TOPOLOGIES:
        raise DrawInputError(f"--topology {topology}: want one of {', '.join(TOPOLOGIES)}")
    if color not in COLOR_FORMATS:
        raise DrawInputError(f"--color {color}: want one of {', '.join(COLOR_FORMATS)}")
    fmt = COLOR_FORMATS[color]
    if samples != 1:
        raise DrawInputError(f"--samples {samples}: only 1 is supported")
    for opt, val, names in (("--cull", cull, CULL_MODES), ("--front-face", front_face,
                            FRONT_FACES), ("--polygon", polygon, POLYGON_MODES)):
        if val not in names:
            raise DrawInputError(f"{opt} {val}: want one of {', '.join(names)}")
    if blend is not None:
        if blend not in BLEND_MODES:
            raise DrawInputError(f"--blend {blend}: want one of {', '.join(BLEND_MODES)}")
        if fmt.shader_kind != "float":
            raise DrawInputError(f"--blend {blend} needs a float or unorm --color, "
                                 f"not {fmt.name}")
    clear_value = _clear_value(fmt, clear)

    vert, frag = bytes(vert), bytes(frag)
    vs_refl = _validate(vert, "--vert")
    fs_refl = _validate(frag, "--frag")
    check_features(vs_refl, "--vert")
    check_features(fs_refl, "--frag")
    ev = _entry(vs_refl, spirv_reflect.EXEC_MODEL_VERTEX, entry_vert)
    ef = _entry(fs_refl, spirv_reflect.EXEC_MODEL_FRAGMENT, entry_frag)

    idx: np.ndarray | None = None
    if index is not None:
        idx = np.asarray(index)
        if idx.ndim != 1 or idx.dtype.name not in ("uint16", "uint32"):
            raise DrawInputError(f"--index: a 1-D uint16 or uint32 array, got {idx.dtype} "
                                 f"{idx.shape}")
        if idx.shape[0] < count:
            raise DrawInputError(f"--index: {idx.shape[0]} indices for a draw of {count}")
        idx = np.ascontiguousarray(idx.astype(idx.dtype.newbyteorder("<"), copy=False))
    vattrs = _vertex_inputs(vs_refl.inputs[ev], attrs or {}, inst_attrs or {}, count,
                            instances, idx, warnings)
    _check_interface(vs_refl.outputs[ev], fs_refl.inputs[ef])
    outputs = _color_outputs(fs_refl.outputs[ef], fmt)

    bindings = _merged_bindings(vs_refl, fs_refl)
    data = {key: _as_bytes(spec) for key, spec in (buffers or {}).items()}
    try:
        imgs = {key: _image_input(key, arr, f, bindings.get(key))
                for key, (arr, f) in (images or {}).items()}
        smps = {key: _sampler_info(key, text) for key, text in (samplers or {}).items()}
        kinds = binding_kinds(bindings, data, imgs, smps)
    except LavapipeError as e:
        raise DrawInputError(str(e)) from e
    push_size = (max(len(push_constants), vs_refl.push_constant_size,
                     fs_refl.push_constant_size) + 3) & ~3
    push = bytes(push_constants).ljust(push_size, b"\0")

    with _lock:
        ctx = _context()
        if push_size > ctx.info.max_push_constants_size:
            raise DrawInputError(f"push constants of {push_size} bytes exceed "
                                 f"maxPushConstantsSize {ctx.info.max_push_constants_size}")
        d = _Dispatch(ctx)
        try:
            return _draw(d, _Pipeline(vert, frag, ev, ef, vattrs, idx, topology, fmt,
                                      clear_value, outputs, depth, blend, cull, front_face,
                                      polygon, (w, h), count, instances, push),
                         data, kinds, imgs, smps, timeout_s, warnings)
        finally:
            d.close()


@dataclass
class _Pipeline:
    vert: bytes
    frag: bytes
    entry_vert: str
    entry_frag: str
    attrs: list[_Attr]
    index: np.ndarray | None
    topology: str
    fmt: ColorFormat
    clear: Any  # VkClearColorValue
    outputs: list[spirv_reflect.IOVar | None]
    depth: bool
    blend: str | None
    cull: str
    front_face: str
    polygon: str
    size: tuple[int, int]
    count: int
    instances: int
    push: bytes


_GRAPHICS_STAGES = (vk.VK_PIPELINE_STAGE_VERTEX_SHADER_BIT
                    | vk.VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT)
_COLOR_MASKS = (vk.VK_COLOR_COMPONENT_R_BIT, vk.VK_COLOR_COMPONENT_G_BIT,
                vk.VK_COLOR_COMPONENT_B_BIT, vk.VK_COLOR_COMPONENT_A_BIT)


def _attachment(d: _Dispatch, vk_format: int, w: int, h: int, usage: int, aspect: int,
                texel_bytes: int) -> tuple[Any, Any, Any, int]:
    """An optimal-tiling 2-D image and view for rendering, and a staging buffer for its
    texels: (image, view, staging buffer, staging address)."""
    image, view = _image_and_view(d, vk_format, (w, h, 1), False,
                                  usage | vk.VK_IMAGE_USAGE_TRANSFER_SRC_BIT, aspect,
                                  "an attachment")
    buf, ptr = _mapped_buffer(d, max(16, w * h * texel_bytes),
                              vk.VK_BUFFER_USAGE_TRANSFER_DST_BIT, "an attachment's read-back")
    return image, view, buf, ptr


def _layout_barrier(v: Any, cmd: Any, image: Any, aspect: int, old: int, new: int,
                    src_access: int, dst_access: int, src_stage: int, dst_stage: int) -> None:
    b = vk.VkImageMemoryBarrier(
        sType=vk.VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, srcAccessMask=src_access,
        dstAccessMask=dst_access, oldLayout=old, newLayout=new,
        srcQueueFamilyIndex=vk.VK_QUEUE_FAMILY_IGNORED,
        dstQueueFamilyIndex=vk.VK_QUEUE_FAMILY_IGNORED, image=image.value,
        subresourceRange=vk.VkImageSubresourceRange(aspect, 0, 1, 0, 1))
    v.void("vkCmdPipelineBarrier", cmd, src_stage, dst_stage, 0, 0, None, 0, None, 1,
           ctypes.byref(b))


def _readback(v: Any, cmd: Any, image: Any, buf: Any, aspect: int, w: int, h: int) -> None:
    region = vk.VkBufferImageCopy(
        bufferOffset=0, bufferRowLength=0, bufferImageHeight=0,
        imageSubresource=vk.VkImageSubresourceLayers(aspect, 0, 0, 1),
        imageOffset=vk.VkOffset3D(0, 0, 0), imageExtent=vk.VkExtent3D(w, h, 1))
    v.void("vkCmdCopyImageToBuffer", cmd, image, vk.VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buf,
           1, ctypes.byref(region))


def _graphics_pipeline(d: _Dispatch, p: _Pipeline, playout: Any) -> Any:
    v, dev = d.v, d.dev
    w, h = p.size
    keep: list[Any] = []  # the structs the create info points to, alive until the call
    stages = (vk.VkPipelineShaderStageCreateInfo * 2)()
    for i, (code, entry, bit) in enumerate(((p.vert, p.entry_vert, vk.VK_SHADER_STAGE_VERTEX_BIT),
                                            (p.frag, p.entry_frag,
                                             vk.VK_SHADER_STAGE_FRAGMENT_BIT))):
        smci = ShaderModuleInfo(code)
        module = d.create("vkCreateShaderModule", smci.info, vk.VkShaderModule(),
                          "vkDestroyShaderModule")
        name = entry.encode()
        keep += [smci, name]
        stages[i] = vk.VkPipelineShaderStageCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, stage=bit,
            module=module.value, pName=name)

    n = len(p.attrs)
    vbind = (vk.VkVertexInputBindingDescription * max(1, n))()
    vattr = (vk.VkVertexInputAttributeDescription * max(1, n))()
    for i, a in enumerate(p.attrs):
        vbind[i] = vk.VkVertexInputBindingDescription(
            binding=a.binding, stride=4 * a.array.shape[1],
            inputRate=vk.VK_VERTEX_INPUT_RATE_INSTANCE if a.per_instance
            else vk.VK_VERTEX_INPUT_RATE_VERTEX)
        vattr[i] = vk.VkVertexInputAttributeDescription(location=a.location, binding=a.binding,
                                                        format=a.vk_format, offset=0)
    vis = vk.VkPipelineVertexInputStateCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
        vertexBindingDescriptionCount=n, pVertexBindingDescriptions=vbind,
        vertexAttributeDescriptionCount=n, pVertexAttributeDescriptions=vattr)
    ias = vk.VkPipelineInputAssemblyStateCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        topology=TOPOLOGIES[p.topology], primitiveRestartEnable=0)
    viewport = vk.VkViewport(x=0.0, y=0.0, width=float(w), height=float(h), minDepth=0.0,
                             maxDepth=1.0)
    scissor = vk.VkRect2D(offset=vk.VkOffset2D(0, 0), extent=vk.VkExtent2D(w, h))
    vps = vk.VkPipelineViewportStateCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, viewportCount=1,
        pViewports=ctypes.pointer(viewport), scissorCount=1, pScissors=ctypes.pointer(scissor))
    rs = vk.VkPipelineRasterizationStateCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        depthClampEnable=0, rasterizerDiscardEnable=0, polygonMode=POLYGON_MODES[p.polygon],
        cullMode=CULL_MODES[p.cull], frontFace=FRONT_FACES[p.front_face], depthBiasEnable=0,
        lineWidth=1.0)
    ms = vk.VkPipelineMultisampleStateCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        rasterizationSamples=vk.VK_SAMPLE_COUNT_1_BIT, sampleShadingEnable=0,
        alphaToCoverageEnable=0, alphaToOneEnable=0)
    ds = vk.VkPipelineDepthStencilStateCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
        depthTestEnable=1 if p.depth else 0, depthWriteEnable=1 if p.depth else 0,
        depthCompareOp=vk.VK_COMPARE_OP_LESS, depthBoundsTestEnable=0, stencilTestEnable=0,
        minDepthBounds=0.0, maxDepthBounds=1.0)
    na = len(p.outputs)
    blends = (vk.VkPipelineColorBlendAttachmentState * max(1, na))()
    for i, out in enumerate(p.outputs):
        mask = 0
        if out is not None:
            for c in range(out.component, min(4, out.component + out.components)):
                mask |= _COLOR_MASKS[c]
        on = p.blend == "alpha" and i == 0
        blends[i] = vk.VkPipelineColorBlendAttachmentState(
            blendEnable=1 if on else 0,
            srcColorBlendFactor=vk.VK_BLEND_FACTOR_SRC_ALPHA,
            dstColorBlendFactor=vk.VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
            colorBlendOp=vk.VK_BLEND_OP_ADD,
            srcAlphaBlendFactor=vk.VK_BLEND_FACTOR_SRC_ALPHA,
            dstAlphaBlendFactor=vk.VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
            alphaBlendOp=vk.VK_BLEND_OP_ADD, colorWriteMask=mask)
    cbs = vk.VkPipelineColorBlendStateCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO, logicOpEnable=0,
        attachmentCount=na, pAttachments=blends)
    formats = (vk.VkFormat * max(1, na))(*([p.fmt.vk_format] * na))
    rci = vk.VkPipelineRenderingCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, viewMask=0,
        colorAttachmentCount=na, pColorAttachmentFormats=formats,
        depthAttachmentFormat=vk.VK_FORMAT_D32_SFLOAT if p.depth else vk.VK_FORMAT_UNDEFINED,
        stencilAttachmentFormat=vk.VK_FORMAT_UNDEFINED)
    gpci = vk.VkGraphicsPipelineCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        pNext=ctypes.addressof(rci), stageCount=2, pStages=stages,
        pVertexInputState=ctypes.pointer(vis), pInputAssemblyState=ctypes.pointer(ias),
        pViewportState=ctypes.pointer(vps), pRasterizationState=ctypes.pointer(rs),
        pMultisampleState=ctypes.pointer(ms), pDepthStencilState=ctypes.pointer(ds),
        pColorBlendState=ctypes.pointer(cbs), layout=playout.value, basePipelineIndex=-1)
    pipeline = vk.VkPipeline()
    v("vkCreateGraphicsPipelines", dev, 0, 1, ctypes.byref(gpci), None, ctypes.byref(pipeline))
    d.undo.append(("vkDestroyPipeline", pipeline))
    del keep
    return pipeline


def _draw(d: _Dispatch, p: _Pipeline, data: dict[Key, bytes], kinds: dict[Key, str],
          imgs: dict[Key, _ImageInput], smps: dict[Key, Any], timeout_s: float,
          warnings: list[str]) -> DrawResult:
    v, dev, ctx = d.v, d.dev, d.ctx
    w, h = p.size
    usage = (vk.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | vk.VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT
             | vk.VK_BUFFER_USAGE_TRANSFER_SRC_BIT | vk.VK_BUFFER_USAGE_TRANSFER_DST_BIT)
    handles: dict[Key, tuple[Any, int, int]] = {}
    for key, raw in data.items():
        size = max(16, (len(raw) + 15) & ~15)
        buf, ptr = _mapped_buffer(d, size, usage, f"buffer {key}")
        ctypes.memset(ptr, 0, size)
        ctypes.memmove(ptr, raw, len(raw))
        handles[key] = (buf, ptr, size)
    image_objs: dict[Key, _ImageObj] = {
        key: _create_image(d, im, kinds[key]) for key, im in imgs.items()}
    sampler_objs = {key: d.create("vkCreateSampler", info, vk.VkSampler(), "vkDestroySampler")
                    for key, info in smps.items() if kinds.get(key) in ("sampler", "combined")}
    playout, dsets, nsets = descriptor_sets(d, kinds, data, handles, image_objs, sampler_objs,
                                            vk.VK_SHADER_STAGE_ALL_GRAPHICS, len(p.push))

    vbufs = []
    for a in p.attrs:
        raw = a.array.tobytes()
        buf, ptr = _mapped_buffer(d, max(16, len(raw)), vk.VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                                  f"the attribute at location {a.location}")
        ctypes.memmove(ptr, raw, len(raw))
        vbufs.append(buf)
    ibuf = None
    if p.index is not None:
        raw = p.index.tobytes()
        ibuf, ptr = _mapped_buffer(d, max(16, len(raw)), vk.VK_BUFFER_USAGE_INDEX_BUFFER_BIT,
                                   "the index buffer")
        ctypes.memmove(ptr, raw, len(raw))

    texel = np.dtype(p.fmt.dtype).itemsize * p.fmt.channels
    colors = [_attachment(d, p.fmt.vk_format, w, h, vk.VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                          vk.VK_IMAGE_ASPECT_COLOR_BIT, texel) for _ in p.outputs]
    depth_att = (_attachment(d, vk.VK_FORMAT_D32_SFLOAT, w, h,
                             vk.VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                             vk.VK_IMAGE_ASPECT_DEPTH_BIT, 4) if p.depth else None)
    pipeline = _graphics_pipeline(d, p, playout)

    cmd = _begin_commands(d)
    for obj in image_objs.values():
        _record_upload(v, cmd, obj, _GRAPHICS_STAGES)
    color_stage = vk.VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT
    depth_stages = (vk.VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT
                    | vk.VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT)
    for image, _, _, _ in colors:
        _layout_barrier(v, cmd, image, vk.VK_IMAGE_ASPECT_COLOR_BIT,
                        vk.VK_IMAGE_LAYOUT_UNDEFINED, vk.VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                        0, vk.VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT
                        | vk.VK_ACCESS_COLOR_ATTACHMENT_READ_BIT,
                        vk.VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, color_stage)
    if depth_att is not None:
        _layout_barrier(v, cmd, depth_att[0], vk.VK_IMAGE_ASPECT_DEPTH_BIT,
                        vk.VK_IMAGE_LAYOUT_UNDEFINED,
                        vk.VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, 0,
                        vk.VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT
                        | vk.VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT,
                        vk.VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, depth_stages)

    catts = (vk.VkRenderingAttachmentInfo * max(1, len(colors)))()
    for i, (_, view, _, _) in enumerate(colors):
        cv = vk.VkClearValue()
        cv.color = p.clear
        catts[i] = vk.VkRenderingAttachmentInfo(
            sType=vk.VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO, imageView=view.value,
            imageLayout=vk.VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            resolveMode=vk.VK_RESOLVE_MODE_NONE, loadOp=vk.VK_ATTACHMENT_LOAD_OP_CLEAR,
            storeOp=vk.VK_ATTACHMENT_STORE_OP_STORE, clearValue=cv)
    datt = None
    if depth_att is not None:
        dv = vk.VkClearValue()
        dv.depthStencil = vk.VkClearDepthStencilValue(1.0, 0)
        datt = vk.VkRenderingAttachmentInfo(
            sType=vk.VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO, imageView=depth_att[1].value,
            imageLayout=vk.VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
            resolveMode=vk.VK_RESOLVE_MODE_NONE, loadOp=vk.VK_ATTACHMENT_LOAD_OP_CLEAR,
            storeOp=vk.VK_ATTACHMENT_STORE_OP_STORE, clearValue=dv)
    ri = vk.VkRenderingInfo(
        sType=vk.VK_STRUCTURE_TYPE_RENDERING_INFO,
        renderArea=vk.VkRect2D(offset=vk.VkOffset2D(0, 0), extent=vk.VkExtent2D(w, h)),
        layerCount=1, viewMask=0, colorAttachmentCount=len(colors), pColorAttachments=catts,
        pDepthAttachment=ctypes.pointer(datt) if datt is not None else None)
    v.void("vkCmdBeginRendering", cmd, ctypes.byref(ri))
    v.void("vkCmdBindPipeline", cmd, vk.VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline)
    if nsets:
        v.void("vkCmdBindDescriptorSets", cmd, vk.VK_PIPELINE_BIND_POINT_GRAPHICS, playout, 0,
               nsets, dsets, 0, None)
    if p.push:
        v.void("vkCmdPushConstants", cmd, playout, vk.VK_SHADER_STAGE_ALL_GRAPHICS, 0,
               len(p.push), p.push)
    if vbufs:
        arr = (vk.VkBuffer * len(vbufs))(*[b.value for b in vbufs])
        offs = (ctypes.c_uint64 * len(vbufs))()
        v.void("vkCmdBindVertexBuffers", cmd, 0, len(vbufs), arr, offs)
    if ibuf is not None and p.index is not None:
        itype = (vk.VK_INDEX_TYPE_UINT16 if p.index.dtype.itemsize == 2
                 else vk.VK_INDEX_TYPE_UINT32)
        v.void("vkCmdBindIndexBuffer", cmd, ibuf, 0, itype)
        v.void("vkCmdDrawIndexed", cmd, p.count, p.instances, 0, 0, 0)
    else:
        v.void("vkCmdDraw", cmd, p.count, p.instances, 0, 0)
    v.void("vkCmdEndRendering", cmd)

    for image, _, buf, _ in colors:
        _layout_barrier(v, cmd, image, vk.VK_IMAGE_ASPECT_COLOR_BIT,
                        vk.VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                        vk.VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                        vk.VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, vk.VK_ACCESS_TRANSFER_READ_BIT,
                        color_stage, vk.VK_PIPELINE_STAGE_TRANSFER_BIT)
        _readback(v, cmd, image, buf, vk.VK_IMAGE_ASPECT_COLOR_BIT, w, h)
    if depth_att is not None:
        _layout_barrier(v, cmd, depth_att[0], vk.VK_IMAGE_ASPECT_DEPTH_BIT,
                        vk.VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                        vk.VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                        vk.VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                        vk.VK_ACCESS_TRANSFER_READ_BIT, depth_stages,
                        vk.VK_PIPELINE_STAGE_TRANSFER_BIT)
        _readback(v, cmd, depth_att[0], depth_att[2], vk.VK_IMAGE_ASPECT_DEPTH_BIT, w, h)
    for obj in image_objs.values():
        _record_download(v, cmd, obj, _GRAPHICS_STAGES)
    barrier = vk.VkMemoryBarrier(sType=vk.VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                 srcAccessMask=vk.VK_ACCESS_SHADER_WRITE_BIT
                                 | vk.VK_ACCESS_TRANSFER_WRITE_BIT,
                                 dstAccessMask=vk.VK_ACCESS_HOST_READ_BIT)
    v.void("vkCmdPipelineBarrier", cmd, _GRAPHICS_STAGES | vk.VK_PIPELINE_STAGE_TRANSFER_BIT,
           vk.VK_PIPELINE_STAGE_HOST_BIT, 0, 1, ctypes.byref(barrier), 0, None, 0, None)
    v("vkEndCommandBuffer", cmd)

    fci = vk.VkFenceCreateInfo(sType=vk.VK_STRUCTURE_TYPE_FENCE_CREATE_INFO)
    fence = d.create("vkCreateFence", fci, vk.VkFence(), "vkDestroyFence")
    submit = vk.VkSubmitInfo(sType=vk.VK_STRUCTURE_TYPE_SUBMIT_INFO, commandBufferCount=1,
                             pCommandBuffers=ctypes.pointer(cmd))
    v("vkQueueSubmit", ctx.queue, 1, ctypes.byref(submit), fence)
    res = v("vkWaitForFences", dev, 1, ctypes.byref(fence), 1, int(timeout_s * 1e9))
    if res != vk.VK_SUCCESS:
        d.undo.clear()  # the draw still runs: its objects cannot be freed; drop the device
        _ctxs.pop(ctx.robust, None)
        raise LavapipeError(f"vkWaitForFences: {_result_name(res)} after {timeout_s} s")

    def texels(ptr: int, dtype: str, channels: int) -> np.ndarray:
        raw = ctypes.string_at(ptr, w * h * np.dtype(dtype).itemsize * channels)
        a = np.frombuffer(raw, dtype=dtype).reshape(h, w, channels)
        return a.copy()

    out_colors = [texels(ptr, p.fmt.dtype, p.fmt.channels) for _, _, _, ptr in colors]
    out_depth = (texels(depth_att[3], "float32", 1).reshape(h, w)
                 if depth_att is not None else None)
    out_bufs = {key: ctypes.string_at(handles[key][1], len(data[key])) for key in data}
    out_imgs: dict[Key, np.ndarray] = {}
    for key, obj in image_objs.items():
        raw = ctypes.string_at(obj.staging_ptr, obj.input.array.nbytes)
        out_imgs[key] = np.frombuffer(raw, dtype=obj.input.array.dtype).reshape(
            obj.input.array.shape).copy()
    return DrawResult(out_colors, out_depth, out_bufs, out_imgs, warnings)


# -- command line -------------------------------------------------------------------------


def _key_value(opt: str, text: str) -> tuple[str, str]:
    if "=" not in text:
        raise DrawInputError(f"{opt} {text!r}: want KEY=VALUE")
    k, val = text.split("=", 1)
    return k, val


def _set_binding(opt: str, text: str) -> Key:
    try:
        s, b = text.split(":")
        return int(s), int(b)
    except ValueError:
        raise DrawInputError(f"{opt} {text!r}: want SET:BINDING") from None


def _load_npy(opt: str, path: str) -> np.ndarray:
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError) as e:
        raise DrawInputError(f"{opt}: cannot read {path}: {e}") from e


def _ints(opt: str, text: str, n: tuple[int, ...]) -> list[int]:
    try:
        vals = [int(x) for x in text.split(",")]
    except ValueError:
        raise DrawInputError(f"{opt} {text!r}: want integers") from None
    if len(vals) not in n:
        raise DrawInputError(f"{opt} {text!r}: want {' or '.join(map(str, n))} values")
    return vals


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m radcc.oracle.lavapipe_draw",
        description="Run one draw call of a vertex and a fragment shader on lavapipe and write "
                    "the attachments (the lvp_draw runner's interface).")
    ap.add_argument("--vert", required=True, metavar="VS.spv")
    ap.add_argument("--frag", required=True, metavar="FS.spv")
    ap.add_argument("--size", required=True, metavar="W,H")
    ap.add_argument("--draw", required=True, metavar="COUNT[,INSTANCES]")
    ap.add_argument("--out", required=True, metavar="DIR")
    ap.add_argument("--attr", action="append", default=[], metavar="LOC=FILE.npy")
    ap.add_argument("--inst-attr", action="append", default=[], metavar="LOC=FILE.npy")
    ap.add_argument("--index", metavar="FILE.npy")
    ap.add_argument("--topology", default="triangle-list", choices=list(TOPOLOGIES))
    ap.add_argument("--buffer", action="append", default=[],
                    metavar="SET:BINDING=FILE.npy|FILE|zeros:N")
    ap.add_argument("--image", action="append", default=[],
                    metavar="SET:BINDING=FILE.npy[:FORMAT]")
    ap.add_argument("--image3d", action="append", default=[],
                    metavar="SET:BINDING=FILE.npy[:FORMAT]")
    ap.add_argument("--sampler", action="append", default=[],
                    metavar="SET:BINDING=FILTER[,ADDRESS[,NORMALIZED]]")
    ap.add_argument("--push", metavar="FILE")
    ap.add_argument("--color", default="rgba8", choices=list(COLOR_FORMATS))
    ap.add_argument("--clear", default="0,0,0,0", metavar="R,G,B,A")
    ap.add_argument("--depth", action="store_true")
    ap.add_argument("--blend", choices=list(BLEND_MODES))
    ap.add_argument("--cull", default="none", choices=list(CULL_MODES))
    ap.add_argument("--front-face", default="ccw", choices=list(FRONT_FACES))
    ap.add_argument("--polygon", default="fill", choices=list(POLYGON_MODES))
    ap.add_argument("--samples", type=int, default=1)
    ap.add_argument("--entry-vert", metavar="NAME")
    ap.add_argument("--entry-frag", metavar="NAME")
    ap.add_argument("--timeout", type=float, default=FENCE_TIMEOUT_S, metavar="S")
    return ap


def _buffer_value(opt: str, text: str) -> BufferSpec:
    if text.startswith("zeros:"):
        try:
            return int(text[6:], 0)
        except ValueError:
            raise DrawInputError(f"{opt}: bad size {text!r}") from None
    if text.endswith(".npy"):
        return np.ascontiguousarray(_load_npy(opt, text))
    try:
        return Path(text).read_bytes()
    except OSError as e:
        raise DrawInputError(f"{opt}: cannot read {text}: {e}") from e


def _image_value(opt: str, text: str) -> tuple[np.ndarray, str | None]:
    path, _, fmt = text.partition(".npy:")
    if fmt:
        path += ".npy"
    return _load_npy(opt, path), fmt or None


def draw_from_args(a: argparse.Namespace) -> DrawResult:
    """run_draw of the runner's parsed command line (DrawInputError for bad values)."""
    w, h = _ints("--size", a.size, (2,))
    counts = _ints("--draw", a.draw, (1, 2))
    try:
        clear = [float(x) for x in a.clear.split(",")]
    except ValueError:
        raise DrawInputError(f"--clear {a.clear!r}: want 4 numbers R,G,B,A") from None
    attrs: dict[int, np.ndarray] = {}
    inst: dict[int, np.ndarray] = {}
    for opt, items, into in (("--attr", a.attr, attrs), ("--inst-attr", a.inst_attr, inst)):
        for text in items:
            k, path = _key_value(opt, text)
            try:
                loc = int(k)
            except ValueError:
                raise DrawInputError(f"{opt} {text!r}: LOC must be an integer") from None
            if loc in attrs or loc in inst:
                raise DrawInputError(f"location {loc} is given twice")
            into[loc] = _load_npy(opt, path)
    buffers = {}
    for text in a.buffer:
        k, val = _key_value("--buffer", text)
        buffers[_set_binding("--buffer", k)] = _buffer_value("--buffer", val)
    images = {}
    for opt, items in (("--image", a.image), ("--image3d", a.image3d)):
        for text in items:
            k, val = _key_value(opt, text)
            images[_set_binding(opt, k)] = _image_value(opt, val)
    samplers = {}
    for text in a.sampler:
        k, val = _key_value("--sampler", text)
        samplers[_set_binding("--sampler", k)] = val
    try:
        vert = Path(a.vert).read_bytes()
        frag = Path(a.frag).read_bytes()
        push = Path(a.push).read_bytes() if a.push else b""
    except OSError as e:
        raise DrawInputError(str(e)) from e
    return run_draw(
        vert, frag, size=(w, h), count=counts[0], instances=counts[1] if len(counts) > 1 else 1,
        attrs=attrs, inst_attrs=inst,
        index=_load_npy("--index", a.index) if a.index else None, topology=a.topology,
        buffers=buffers, images=images, samplers=samplers, push_constants=push,
        color=a.color, clear=clear, depth=a.depth, blend=a.blend, cull=a.cull,
        front_face=a.front_face, polygon=a.polygon, samples=a.samples,
        entry_vert=a.entry_vert, entry_frag=a.entry_frag, timeout_s=a.timeout)


def main(argv: list[str] | None = None) -> int:
    """Exit 0, 1 for bad input, 2 when lavapipe fails."""
    a = build_parser().parse_args(argv)
    t0 = time.perf_counter()
    try:
        out = draw_from_args(a)
        paths = out.write(a.out)
    except DrawInputError as e:
        print(f"lavapipe_draw: error: {e}", file=sys.stderr)
        return 1
    except LavapipeError as e:
        print(f"lavapipe_draw: error: {e}", file=sys.stderr)
        return 2
    for msg in out.warnings:
        print(f"lavapipe_draw: warning: {msg}", file=sys.stderr)
    for path in paths:
        print(path)
    print(f"draw: {(time.perf_counter() - t0) * 1e3:.1f} ms", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
