"""The stage interfaces a draw checks before it runs (the reference runner's rules,
docs/draw.md): a module's entry points by stage, the vertex shader's inputs, the
fragment shader's inputs and outputs, the vertex shader's outputs, each with its
location, component count and component type, read from the SPIR-V (built-ins left
out). Errors are `DrawInputError` with the runner's messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from radcc.frontend.spirv.module import SpirvModule
from radcc.frontend.spirv.types import (
    EntryPoint,
    Type,
    TypeArray,
    TypeFloat,
    TypeInt,
    TypeMatrix,
    TypePointer,
    TypeStruct,
    TypeVector,
)

__all__ = ["DrawFiles", "DrawInputError", "IoVar", "StageIo", "entry_point", "stage_io"]

STAGE_OF_MODEL = {"Vertex": "vertex", "Fragment": "fragment", "GLCompute": "compute",
                  "Geometry": "geometry", "TessellationControl": "tessellation control",
                  "TessellationEvaluation": "tessellation evaluation",
                  "MeshEXT": "mesh", "TaskEXT": "task", "MeshNV": "mesh", "TaskNV": "task"}


class DrawInputError(Exception):
    """A draw whose inputs do not fit its shaders (the message says what to give)."""


@dataclass(frozen=True)
class IoVar:
    """One user input or output: `type` is ``float``, ``int`` or ``uint`` (or a refused
    kind's description in `refused`), `components` 1-4 of `bits` (32, 16 or 64:
    only varyings may be 16- or 64-bit; `refused` is set for other sizes)."""

    location: int
    components: int
    type: str
    flat: bool = False
    index: int | None = None  # the Index decoration (dual-source blending)
    refused: str = ""  # why the type cannot be an attribute / output ("" if it can)
    bits: int = 32

    @property
    def glsl(self) -> str:
        """The GLSL spelling of the type (``vec4``, ``int``, ``uvec2``; 16-bit:
        ``float16_t``, ``f16vec2``, ``uint16_t``, ``i16vec4``)."""
        if self.refused:
            return self.refused
        if self.bits == 64:
            if self.components == 1:
                return {"float": "double", "int": "int64_t", "uint": "uint64_t"}[self.type]
            return {"float": "d", "int": "i64", "uint": "u64"}[self.type] + \
                f"vec{self.components}"
        if self.bits == 16:
            if self.components == 1:
                return {"float": "float16_t", "int": "int16_t", "uint": "uint16_t"}[self.type]
            return {"float": "f16", "int": "i16", "uint": "u16"}[self.type] + \
                f"vec{self.components}"
        if self.components == 1:
            return self.type
        return {"float": "", "int": "i", "uint": "u"}[self.type] + f"vec{self.components}"


@dataclass(frozen=True)
class StageIo:
    inputs: tuple[IoVar, ...]
    outputs: tuple[IoVar, ...]


def entry_point(m: SpirvModule, stage: str, name: str | None) -> EntryPoint:
    """The entry point of `stage` (``vertex``/``fragment``) called `name` (None: the
    module's first of that stage)."""
    for ep in m.entry_points:
        if STAGE_OF_MODEL.get(ep.execution_model) == stage and (name is None
                                                                 or ep.name == name):
            return ep
    has = ", ".join(f"{ep.name} ({STAGE_OF_MODEL.get(ep.execution_model, ep.execution_model)})"
                    for ep in m.entry_points) or "none"
    what = f"{stage} entry point" + (f" '{name}'" if name is not None else "")
    raise DrawInputError(f"no {what} (the module has: {has})")


def _scalar(m: SpirvModule, t: Type) -> tuple[str, int] | None:
    if isinstance(t, TypeFloat):
        return "float", t.width
    if isinstance(t, TypeInt):
        return ("int" if t.signed else "uint"), t.width
    return None


def _describe(m: SpirvModule, t: Type) -> tuple[int, str, str, int]:
    """(components, component type, refusal, bits) of an interface variable's type."""
    if isinstance(t, TypeArray):
        return 0, "", "an array", 32
    if isinstance(t, TypeMatrix):
        return 0, "", "a matrix", 32
    if isinstance(t, TypeStruct):
        return 0, "", "a struct", 32
    n = 1
    if isinstance(t, TypeVector):
        n = t.count
        t = m.type(t.component)
    s = _scalar(m, t)
    if s is None:
        return 0, "", "not a number", 32
    if s[1] not in (32, 16, 64):
        return n, s[0], f"{s[1]}-bit", s[1]
    return n, s[0], "", s[1]


def stage_io(m: SpirvModule, ep: EntryPoint) -> StageIo:
    """The entry point's user inputs and outputs (variables with a Location)."""
    ins: list[IoVar] = []
    outs: list[IoVar] = []
    for vid in ep.interface:
        var = m.global_variables.get(vid)
        if var is None or var.storage_class not in ("Input", "Output"):
            continue
        if m.builtin(vid) is not None:
            continue
        pt = m.type(var.type)
        assert isinstance(pt, TypePointer)
        t = m.type(pt.pointee)
        if isinstance(t, TypeStruct) and m.builtin(t.id, 0) is not None:
            continue  # gl_PerVertex
        loc = m.decoration(vid, "Location")
        if loc is None:
            continue
        n, ty, refused, bits = _describe(m, t)
        idx = m.decoration(vid, "Index")
        v = IoVar(int(loc[0]), n, ty, m.has_decoration(vid, "Flat"),
                  int(idx[0]) if idx else None, refused, bits)
        (ins if var.storage_class == "Input" else outs).append(v)
    return StageIo(tuple(sorted(ins, key=lambda v: v.location)),
                   tuple(sorted(outs, key=lambda v: v.location)))


@dataclass
class DrawFiles:
    """What a draw leaves behind, as the reference runner writes it (the interface's
    output files): the colour attachments `(H, W, C)` in the format's dtype (row 0 is
    framebuffer y = 0), the depth attachment `(H, W) float32` with `--depth`, every
    buffer's bytes and every image (the shape and dtype it was given), and the warnings
    of the input checks. `radcc draw` and the lavapipe oracle both return one."""

    colors: list[np.ndarray]
    depth: np.ndarray | None
    buffers: dict[tuple[int, int], bytes] = field(default_factory=dict)
    images: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def files(self) -> dict[str, np.ndarray | bytes]:
        """The output files by name, as the runner writes them into its --out DIR."""
        out: dict[str, np.ndarray | bytes] = {
            f"color{i}.npy": c for i, c in enumerate(self.colors)}
        if self.depth is not None:
            out["depth.npy"] = self.depth
        for (s, b), raw in sorted(self.buffers.items()):
            out[f"{s}_{b}.bin"] = raw
        for (s, b), arr in sorted(self.images.items()):
            out[f"{s}_{b}.npy"] = arr
        return out

    def write(self, directory: str | Path) -> list[Path]:
        """Write `files()` into `directory` (created if needed); the paths written."""
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        paths = []
        for name, content in self.files().items():
            path = d / name
            if isinstance(content, np.ndarray):
                np.save(path, content, allow_pickle=False)
            else:
                path.write_bytes(content)
            paths.append(path)
        return paths
