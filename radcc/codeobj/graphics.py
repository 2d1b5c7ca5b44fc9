"""The graphics code object: one graphics stage's binary and the register settings a
driver needs to run it (docs/abi.md, "The graphics code object").

A compute kernel is an AMDHSA code object (`radcc.codeobj.elf`): the kernel descriptor
holds everything the dispatcher needs. A graphics stage has no kernel descriptor; a
driver programs registers instead (RADV from its `radv_shader_info`, PAL from the
`amdpal.pipelines` metadata of its ELF). radcc's graphics code object is an ELF64
relocatable object for the PAL OS ABI (``ELFOSABI_AMDGPU_PAL``, 65) holding:

- ``.text``: the stage's machine code, entry at offset 0, named by a global function
  symbol as PAL names hardware-stage entry points (``_amdgpu_gs_main`` for the NGG
  stage a vertex shader runs on, ``_amdgpu_ps_main`` for a pixel shader);
- ``.note``: an ``NT_AMDGPU_METADATA`` note ("AMDGPU", msgpack) with one map,
  ``radcc.graphics``, that is `GraphicsShader` field by field (keys are the field
  names with a leading dot, enums by value, the stage by ACO's name, the shader
  arguments as `radcc.abi` lists them). ``llvm-readelf --notes`` prints it as YAML (for
  the PAL OS ABI LLVM does not check the map against the AMDHSA schema), and
  ``llvm-objdump -d`` disassembles ``.text`` (the chip is in ``e_flags``).

`write_graphics_object` and `read_graphics_object` convert between `GraphicsShader` and
the bytes; they are exact inverses (tested). The fields of each stage's settings
(`VertexStage`, `PixelStage`) only grow: a reader ignores keys it does not know and
takes a dataclass default for keys that are absent, so objects written before a field
was added still read.
"""

from __future__ import annotations

import enum
import struct
import types
import typing
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

from radcc.abi.args import Arg, ArgKind, ShaderArgs
from radcc.abi.kernarg import KernargEntry, KernargLayout, Role, ValueKind
from radcc.abi.stage import NAMED_STAGES, HWStage, Stage
from radcc.codeobj import elfdefs as E
from radcc.codeobj.errors import CodeObjectError
from radcc.codeobj.metadata import NOTE_NAME, NT_AMDGPU_METADATA, pack_note

__all__ = ["ELFOSABI_AMDGPU_PAL", "ENTRY_SYMBOLS", "FORMAT_VERSION", "METADATA_KEY",
           "ComponentType", "GraphicsShader", "PixelInput", "PixelOutput", "PixelStage",
           "VertexInput", "VertexOutput", "VertexStage", "is_graphics_object",
           "read_graphics_object", "write_graphics_object"]

ELFOSABI_AMDGPU_PAL = 65  # LLVM's ELF::ELFOSABI_AMDGPU_PAL
METADATA_KEY = "radcc.graphics"
FORMAT_VERSION = (1, 0)  # major changes break readers; minor ones only add fields
# the entry-point symbol per hardware stage (PAL's names, LLVM's AMDGPUPALMetadata)
ENTRY_SYMBOLS: dict[HWStage, str] = {HWStage.NGG: "_amdgpu_gs_main",
                                     HWStage.VS: "_amdgpu_vs_main",
                                     HWStage.PS: "_amdgpu_ps_main"}


class ComponentType(enum.Enum):
    """The component type of a vertex input or a stage's input/output (the draw
    matches it against the attribute data: float32, int32, uint32)."""

    FLOAT = "float"
    SINT = "int"
    UINT = "uint"


@dataclass(frozen=True)
class VertexInput:
    """A vertex shader input at `location`, read as `components` (1-4) of `type`.

    The shader fetches it with ``buffer_load_format_*`` through the vertex-buffer
    descriptor (V#) number `location` of the table at the ``vertex_buffers`` user SGPR
    (docs/abi.md "Vertex shaders"): the descriptor's format, stride and dst_sel decide
    the data, so one binary serves any attribute format. `bits`: the shader's component
    size (16: the fetched 32-bit value converted, f32 to f16 or truncated to 16 bits).
    `per_instance`: fetched at the instance index (``VK_VERTEX_INPUT_RATE_INSTANCE``,
    divisor 1), else at the vertex index: a compile-time fact, as in RADV's pipeline key."""

    location: int
    components: int
    type: ComponentType
    bits: int = 32
    per_instance: bool = False


@dataclass(frozen=True)
class VertexOutput:
    """A vertex shader output (a varying) at `location`, `components` of `type`, stored
    to the attribute ring as parameter `param` (16 bytes per vertex and parameter);
    `bits` 16: each component zero-extended to its dword (RADV's unpacked 16-bit
    varyings)."""

    location: int
    components: int
    type: ComponentType
    param: int
    bits: int = 32


@dataclass(frozen=True)
class VertexStage:
    """What a driver needs to run a vertex shader on the NGG stage (GFX11).

    - `inputs`, `outputs`: the vertex inputs and the varyings (see their classes);
    - `pos_exports`: the number of ``exp pos`` the shader does (1: position only; +1 for
      point size / the misc vector; +1 per four clip/cull distances), the last with done;
    - `writes_point_size`, `clip_distances`, `cull_distances`: what the position
      exports after ``pos0`` hold (PA_CL_VS_OUT_CNTL's enables);
    - `max_vertices`, `max_primitives`: the most vertices and primitives one NGG
      subgroup (workgroup) may carry (GE_NGG_SUBGRP_CNTL, VGT_GS_ONCHIP_CNTL): the
      threads of the workgroup are one vertex and one primitive each."""

    inputs: tuple[VertexInput, ...] = ()
    outputs: tuple[VertexOutput, ...] = ()
    pos_exports: int = 1
    writes_point_size: bool = False
    clip_distances: int = 0
    cull_distances: int = 0
    max_vertices: int = 0
    max_primitives: int = 0

    @property
    def param_exports(self) -> int:
        """The attribute ring slots a vertex takes (SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT + 1)."""
        return max((o.param + 1 for o in self.outputs), default=0)


@dataclass(frozen=True)
class PixelInput:
    """A fragment shader input at `location` (its `components` of `type`), read from
    LDS parameter `attr` (``lds_param_load attrN``); `flat` inputs take the provoking
    vertex's value. The driver links `attr` N to the vertex shader's output of the same
    location (SPI_PS_INPUT_CNTL_N.OFFSET = that output's `param`). `bits` 16: the low
    half of each parameter dword (a float one is interpolated in f16:
    SPI_PS_INPUT_CNTL_N.FP16_INTERP_MODE, P10 and P20 f16 differences in the low half)."""

    location: int
    components: int
    type: ComponentType
    attr: int
    flat: bool = False
    bits: int = 32

    @property
    def fp16_interp(self) -> bool:
        """SPI_PS_INPUT_CNTL_N.FP16_INTERP_MODE: a 16-bit float input interpolated."""
        return self.bits == 16 and self.type is ComponentType.FLOAT and not self.flat


@dataclass(frozen=True)
class PixelOutput:
    """A fragment shader colour output at `location` (``exp mrt<location>``), its
    `components` of `type`."""

    location: int
    components: int
    type: ComponentType


@dataclass(frozen=True)
class PixelStage:
    """What a driver needs to run a fragment shader on the PS stage (GFX11):
    SPI_PS_INPUT_ENA/ADDR (the input VGPRs, `radcc.abi.graphics.spi_ps_input_ena`), the
    inputs and colour outputs, the export format per colour target
    (SPI_SHADER_COL_FORMAT, 4 bits per MRT) and of the depth export
    (SPI_SHADER_Z_FORMAT), and what the shader does to depth, stencil, the sample mask
    and coverage (discard)."""

    spi_ps_input_ena: int = 0
    spi_ps_input_addr: int = 0
    inputs: tuple[PixelInput, ...] = ()
    outputs: tuple[PixelOutput, ...] = ()
    col_format: int = 0
    z_format: int = 0
    writes_z: bool = False
    writes_stencil: bool = False
    writes_sample_mask: bool = False
    can_discard: bool = False


@dataclass(frozen=True)
class GraphicsShader:
    """One compiled graphics stage (module docstring).

    - `stage`: ACO's stage (``vertex_ngg``, ``fragment_fs``); `target`: the chip
      (``gfx1100``); `wave_size`: 32 or 64; `code`: the machine code (entry at 0);
    - `args`: the registers the wave starts with (`radcc.abi`, docs/abi.md), with the
      resource table's layout as its `kernargs`;
    - `sgprs`, `vgprs`: the registers the code uses (allocation sizes, SPI_SHADER_PGM_RSRC1);
    - `lds_size`: bytes of LDS per workgroup; `scratch_bytes_per_lane`: private memory;
    - `vertex` / `pixel`: the stage's settings (the other is None)."""

    stage: Stage
    target: str
    wave_size: int
    code: bytes
    args: ShaderArgs
    sgprs: int = 0
    vgprs: int = 0
    lds_size: int = 0
    scratch_bytes_per_lane: int = 0
    vertex: VertexStage | None = None
    pixel: PixelStage | None = None
    entry_symbol: str = field(default="", compare=True)

    def __post_init__(self) -> None:
        if not self.entry_symbol:
            sym = ENTRY_SYMBOLS.get(self.stage.hw)
            if sym is None:
                raise CodeObjectError(f"no graphics code object for stage {self.stage.name}")
            object.__setattr__(self, "entry_symbol", sym)


# -- metadata map <-> dataclasses ----------------------------------------------------------

_ARG_KINDS = {k.text: k for k in ArgKind}
_ROLES = {r.value: r for r in Role}
_VALUE_KINDS = {k.value: k for k in ValueKind}


def _args_to_map(args: ShaderArgs) -> dict[str, Any]:
    out: dict[str, Any] = {
        ".registers": [{".kind": a.kind.text, ".reg": a.reg, ".index": a.index}
                       for a in args.args],
    }
    if args.kernargs is not None:
        ents = []
        for e in args.kernargs.entries:
            m: dict[str, Any] = {".name": e.name, ".offset": e.offset, ".size": e.size,
                                 ".value_kind": e.kind.value, ".role": e.role.value}
            if e.key is not None:
                m[".key"] = list(e.key)
            if e.type_name is not None:
                m[".type_name"] = e.type_name
            if e.address_space is not None:
                m[".address_space"] = e.address_space
            if e.access is not None:
                m[".access"] = e.access
            ents.append(m)
        out[".resources"] = ents
        out[".resources_size"] = args.kernargs.end
    return out


def _need(m: dict[str, Any], key: str, typ: type | tuple[type, ...], what: str) -> Any:
    v = m.get(key)
    if not isinstance(v, typ) or isinstance(v, bool) and typ is int:
        raise CodeObjectError(f"graphics metadata: {what} has no valid '{key}'")
    return v


def _args_from_map(m: Any, stage: Stage) -> ShaderArgs:
    if not isinstance(m, dict):
        raise CodeObjectError("graphics metadata: '.args' is not a map")
    regs = []
    for r in _need(m, ".registers", list, "'.args'"):
        if not isinstance(r, dict):
            raise CodeObjectError("graphics metadata: a register entry is not a map")
        kind = _ARG_KINDS.get(r.get(".kind"))  # type: ignore[arg-type]
        if kind is None:
            raise CodeObjectError(f"graphics metadata: unknown argument kind {r.get('.kind')!r}")
        regs.append(Arg(kind, _need(r, ".reg", int, kind.text),
                        _need(r, ".index", int, kind.text)))
    layout = None
    if ".resources" in m:
        layout = KernargLayout()
        for e in _need(m, ".resources", list, "'.args'"):
            if not isinstance(e, dict):
                raise CodeObjectError("graphics metadata: a resource entry is not a map")
            name = _need(e, ".name", str, "a resource")
            kind = _VALUE_KINDS.get(e.get(".value_kind"))  # type: ignore[arg-type]
            role = _ROLES.get(e.get(".role"))  # type: ignore[arg-type]
            if kind is None or role is None:
                raise CodeObjectError(f"graphics metadata: resource {name!r} has an unknown "
                                      "value kind or role")
            key = e.get(".key")
            if key is not None and not (isinstance(key, list) and len(key) == 2
                                        and all(isinstance(x, int) for x in key)):
                raise CodeObjectError(f"graphics metadata: resource {name!r} has a bad key")
            layout.entries.append(KernargEntry(
                name, _need(e, ".offset", int, name), _need(e, ".size", int, name), kind,
                role, None if key is None else (key[0], key[1]), e.get(".type_name"),
                e.get(".address_space"), e.get(".access")))
        layout.end = _need(m, ".resources_size", int, "'.args'")
    return ShaderArgs(stage, tuple(regs), layout, packed_local_ids=False)


def _value_to_msg(v: Any) -> Any:
    if isinstance(v, enum.Enum):
        return v.value
    if isinstance(v, tuple):
        return [_value_to_msg(x) for x in v]
    if is_dataclass(v) and not isinstance(v, type):
        return {"." + f.name: _value_to_msg(getattr(v, f.name)) for f in fields(v)}
    return v


def _value_from_msg(tp: Any, v: Any, what: str) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        opts = [a for a in typing.get_args(tp) if a is not type(None)]
        if v is None:
            return None
        return _value_from_msg(opts[0], v, what)
    if origin is tuple:
        if not isinstance(v, list):
            raise CodeObjectError(f"graphics metadata: {what} is not a list")
        (item, _ellipsis) = typing.get_args(tp)
        return tuple(_value_from_msg(item, x, what) for x in v)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        try:
            return tp(v)
        except ValueError:
            raise CodeObjectError(f"graphics metadata: {what}: unknown value {v!r}") from None
    if isinstance(tp, type) and is_dataclass(tp):
        if not isinstance(v, dict):
            raise CodeObjectError(f"graphics metadata: {what} is not a map")
        hints = typing.get_type_hints(tp)
        kw = {f.name: _value_from_msg(hints[f.name], v["." + f.name], f"{what}.{f.name}")
              for f in fields(tp) if "." + f.name in v}
        try:
            return tp(**kw)
        except TypeError as e:
            raise CodeObjectError(f"graphics metadata: {what}: {e}") from None
    if tp is bool:
        if not isinstance(v, bool):
            raise CodeObjectError(f"graphics metadata: {what} is not a boolean")
        return v
    if tp is int:
        if not isinstance(v, int) or isinstance(v, bool):
            raise CodeObjectError(f"graphics metadata: {what} is not an integer")
        return v
    if tp is str:
        if not isinstance(v, str):
            raise CodeObjectError(f"graphics metadata: {what} is not a string")
        return v
    raise AssertionError(f"no metadata conversion for {tp}")


def to_metadata(shader: GraphicsShader) -> dict[str, Any]:
    """The note's map for `shader` (module docstring)."""
    m: dict[str, Any] = {
        ".version": list(FORMAT_VERSION),
        ".stage": shader.stage.name,
        ".target": shader.target,
        ".wave_size": shader.wave_size,
        ".entry_symbol": shader.entry_symbol,
        ".code_size": len(shader.code),
        ".args": _args_to_map(shader.args),
        ".sgprs": shader.sgprs,
        ".vgprs": shader.vgprs,
        ".lds_size": shader.lds_size,
        ".scratch_bytes_per_lane": shader.scratch_bytes_per_lane,
    }
    if shader.vertex is not None:
        m[".vertex"] = _value_to_msg(shader.vertex)
    if shader.pixel is not None:
        m[".pixel"] = _value_to_msg(shader.pixel)
    return {METADATA_KEY: m}


def from_metadata(meta: dict[str, Any], code: bytes) -> GraphicsShader:
    m = meta.get(METADATA_KEY)
    if not isinstance(m, dict):
        raise CodeObjectError(f"not a radcc graphics code object (no '{METADATA_KEY}' "
                              "metadata)")
    ver = m.get(".version")
    if not (isinstance(ver, list) and len(ver) == 2 and ver[0] == FORMAT_VERSION[0]):
        raise CodeObjectError(f"graphics code object version {ver!r} (this radcc reads "
                              f"{FORMAT_VERSION[0]}.x)")
    stage = NAMED_STAGES.get(_need(m, ".stage", str, "the shader"))
    if stage is None or stage.hw not in ENTRY_SYMBOLS:
        raise CodeObjectError(f"graphics metadata: unknown graphics stage {m.get('.stage')!r}")
    hints = typing.get_type_hints(GraphicsShader)
    return GraphicsShader(
        stage=stage, target=_need(m, ".target", str, "the shader"),
        wave_size=_need(m, ".wave_size", int, "the shader"), code=code,
        args=_args_from_map(m.get(".args"), stage),
        sgprs=_need(m, ".sgprs", int, "the shader"), vgprs=_need(m, ".vgprs", int, "the shader"),
        lds_size=_need(m, ".lds_size", int, "the shader"),
        scratch_bytes_per_lane=_need(m, ".scratch_bytes_per_lane", int, "the shader"),
        vertex=_value_from_msg(hints["vertex"], m.get(".vertex"), "vertex"),
        pixel=_value_from_msg(hints["pixel"], m.get(".pixel"), "pixel"),
        entry_symbol=_need(m, ".entry_symbol", str, "the shader"))


# -- ELF -------------------------------------------------------------------------------------

def _note(desc: bytes) -> bytes:
    name = NOTE_NAME + b"\0"
    pad = lambda b: b + b"\0" * (-len(b) % 4)  # noqa: E731
    return struct.pack("<III", len(name), len(desc), NT_AMDGPU_METADATA) + pad(name) + pad(desc)


def write_graphics_object(shader: GraphicsShader) -> bytes:
    """The ELF bytes of `shader` (module docstring)."""
    from radcc.target import get_target

    try:
        target = get_target(shader.target)
    except ValueError as e:
        raise CodeObjectError(str(e)) from None
    note = _note(pack_note(to_metadata(shader)))
    names = [".text", ".note", ".symtab", ".strtab", ".shstrtab"]
    idx = {n: i + 1 for i, n in enumerate(names)}
    strtab = b"\0" + shader.entry_symbol.encode() + b"\0"
    symtab = (E.SYM.pack(0, 0, 0, 0, 0, 0)
              + E.SYM.pack(1, (E.STB_GLOBAL << 4) | E.STT_FUNC, E.STV_DEFAULT, idx[".text"],
                           0, len(shader.code)))
    shstr = bytearray(b"\0")
    shname: dict[str, int] = {}
    for n in names:
        shname[n] = len(shstr)
        shstr += n.encode() + b"\0"
    out = bytearray(E.EHDR.size)
    hdrs: list[bytes] = [E.SHDR.pack(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)]

    def place(name: str, data: bytes, typ: int, flags: int, align: int, link: int = 0,
              info: int = 0, entsize: int = 0) -> None:
        off = E.align_up(len(out), align)
        out.extend(b"\0" * (off - len(out)) + data)
        hdrs.append(E.SHDR.pack(shname[name], typ, flags, 0, off, len(data), link, info, align,
                                entsize))

    place(".text", shader.code, E.SHT_PROGBITS, E.SHF_ALLOC | E.SHF_EXECINSTR, 256)
    place(".note", note, E.SHT_NOTE, 0, 4)
    place(".symtab", symtab, E.SHT_SYMTAB, 0, 8, link=idx[".strtab"], info=1,
          entsize=E.SYM.size)
    place(".strtab", strtab, E.SHT_STRTAB, 0, 1)
    place(".shstrtab", bytes(shstr), E.SHT_STRTAB, 0, 1)
    shoff = E.align_up(len(out), 8)
    out.extend(b"\0" * (shoff - len(out)) + b"".join(hdrs))
    ident = b"\x7fELF" + bytes([2, 1, 1, ELFOSABI_AMDGPU_PAL, 0]) + b"\0" * 7
    out[:E.EHDR.size] = E.EHDR.pack(ident, E.ET_REL, E.EM_AMDGPU, 1, 0, 0, shoff,
                                    E.e_flags(target), E.EHDR.size, 0, 0, E.SHDR.size,
                                    len(hdrs), idx[".shstrtab"])
    return bytes(out)


def is_graphics_object(data: bytes) -> bool:
    """Does `data` look like a graphics code object (an AMDGPU ELF of the PAL OS ABI)?"""
    return (len(data) >= E.EHDR.size and data[:4] == b"\x7fELF"
            and data[7] == ELFOSABI_AMDGPU_PAL)


def read_graphics_object(data: bytes) -> GraphicsShader:
    """Parse a graphics code object; `CodeObjectError` on anything malformed."""
    from radcc.codeobj.elfread import read_code_object  # (a compile writes, never reads)

    co = read_code_object(data)
    if co.os_abi != ELFOSABI_AMDGPU_PAL:
        raise CodeObjectError(f"not a graphics code object (ELF OS ABI {co.os_abi}, expected "
                              f"{ELFOSABI_AMDGPU_PAL}: AMDGPU PAL)")
    text = co.sections.get(".text")
    if text is None or co.metadata is None:
        raise CodeObjectError("graphics code object without .text or metadata note")
    try:
        sh = from_metadata(co.metadata, text.data)
    except CodeObjectError:
        raise
    except (TypeError, ValueError, KeyError) as e:
        raise CodeObjectError(f"graphics metadata: {e}") from None
    if sh.target != co.target_name:
        raise CodeObjectError(f"graphics code object: metadata target {sh.target} but ELF "
                              f"e_flags name {co.target_name}")
    sym = co.symbols.get(sh.entry_symbol)
    if sym is None or sym.section != ".text" or sym.value != 0:
        raise CodeObjectError(f"graphics code object: no entry symbol {sh.entry_symbol} at "
                              ".text+0")
    return sh
