"""The kernel-argument (kernarg) segment: one layout builder for every producer.

A compute kernel's arguments live in the kernarg segment, whose address the hardware
puts in two user SGPRs (`ArgKind.KERNARG_SEGMENT_PTR`). `KernargLayout` lays them out
(each argument at the next offset aligned to its alignment, by default its size, as
AMDGPUUsage's "Kernel Argument" layout) and writes the code object's metadata
``.args`` entries (`KernargLayout.metadata`). The compiled-shader layout (`shader_layout`), ``radcc llc --arg``
and the IR test interpreter's arguments are all built here (docs/abi.md).

Each entry says what it holds (`Role`): a descriptor binding's buffer address or size,
the push-constant block, a hidden argument, or a plain value; image and sampler
descriptors are further roles (`Role.IMAGE`, `Role.SAMPLER`: pointers to the T# and S#).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["KernargEntry", "KernargError", "KernargLayout", "Role",
           "ValueKind", "binding_name", "shader_layout"]

Key = tuple[int, int]  # (descriptor set, binding)


class KernargError(ValueError):
    """A kernel argument that does not fit the layout rules."""


class ValueKind(enum.Enum):
    """Code object v5 ``.value_kind`` of an argument (AMDGPUUsage, "Code Object V3
    Metadata", ``.args``): the ones radcc writes."""

    BY_VALUE = "by_value"
    GLOBAL_BUFFER = "global_buffer"
    IMAGE = "image"
    SAMPLER = "sampler"
    HIDDEN_BLOCK_COUNT_X = "hidden_block_count_x"
    HIDDEN_BLOCK_COUNT_Y = "hidden_block_count_y"
    HIDDEN_BLOCK_COUNT_Z = "hidden_block_count_z"

    @property
    def hidden(self) -> bool:
        return self.value.startswith("hidden_")


class Role(enum.Enum):
    """What a kernarg entry is for, as the compiler and the runner see it."""

    VALUE = "value"  # a user argument (``radcc llc --arg``, test kernels)
    BUFFER_ADDRESS = "buffer address"  # the base address of descriptor binding `key`
    BUFFER_SIZE = "buffer size"  # its size in bytes (``.length()``)
    IMAGE = "image"  # the address of descriptor binding `key`'s image descriptor (T#)
    SAMPLER = "sampler"  # the address of descriptor binding `key`'s sampler (S#)
    PUSH_CONSTANTS = "push constants"  # the push-constant block, inline
    HIDDEN = "hidden"  # filled by the runtime (block counts ...)


@dataclass(frozen=True)
class KernargEntry:
    name: str
    offset: int
    size: int
    kind: ValueKind
    role: Role = Role.VALUE
    key: Key | None = None  # the descriptor binding of a BUFFER_ADDRESS/BUFFER_SIZE entry
    type_name: str | None = None  # by-value arguments: OpenCL's type name (uint, float ...)
    address_space: str | None = None  # pointers: "global"
    access: str | None = None  # images: "read_only", "write_only", "read_write"
    # an array of descriptors (buffers, images, samplers): its element count (0:
    # runtime-sized) and the bytes from one element to the next (RADV's descriptor
    # sizes, `descriptor_stride`); stride 0: not an array
    count: int = 0
    stride: int = 0

    def metadata(self) -> dict[str, Any]:
        """The ``.args`` map of this entry (keys in the order radcc writes them)."""
        out: dict[str, Any] = {".name": self.name, ".offset": self.offset, ".size": self.size,
                               ".value_kind": self.kind.value}
        if self.address_space is not None:
            out[".address_space"] = self.address_space
        if self.type_name is not None:
            out[".type_name"] = self.type_name
        if self.access is not None:
            out[".access"] = self.access
        if self.stride:  # radcc's keys (docs/abi.md "Arrays of descriptors"; count 0:
            # a runtime-sized array)
            out[".radcc_descriptor_count"] = self.count
            out[".radcc_descriptor_stride"] = self.stride
        return out


# RADV's descriptor sizes (radv_descriptor_set.c, radv_CreateDescriptorSetLayout): the
# stride of an array of descriptors of each type; a combined image sampler's S# is at
# byte COMBINED_SAMPLER_OFFSET of its element (radv_nir_apply_pipeline_layout.c)
STORAGE_IMAGE_STRIDE = 32
SAMPLED_IMAGE_STRIDE = 64  # the T#, then the FMASK descriptor
COMBINED_IMAGE_SAMPLER_STRIDE = 96
TEXEL_BUFFER_STRIDE = 16
BUFFER_STRIDE = 16  # a storage or uniform buffer's V#
SAMPLER_STRIDE = 16
COMBINED_SAMPLER_OFFSET = 64


def descriptor_stride(*, texel_buffer: bool = False, storage: bool = False,
                      combined: bool = False, sampler: bool = False,
                      buffer: bool = False) -> int:
    """The stride of an array of descriptors of a binding of this kind: a storage or
    uniform buffer, texel buffer, storage image, combined image sampler (its image or its
    sampler), sampled image or (separate) sampler."""
    if buffer:
        return BUFFER_STRIDE
    if texel_buffer:
        return TEXEL_BUFFER_STRIDE
    if combined:
        return COMBINED_IMAGE_SAMPLER_STRIDE
    if sampler:
        return SAMPLER_STRIDE
    return STORAGE_IMAGE_STRIDE if storage else SAMPLED_IMAGE_STRIDE


def binding_name(key: Key) -> str:
    """The argument name of descriptor binding `key`: ``set{S}_binding{B}``."""
    return f"set{key[0]}_binding{key[1]}"


@dataclass
class KernargLayout:
    """The kernarg segment: its entries in offset order and its size (a multiple of 8)."""

    entries: list[KernargEntry] = field(default_factory=list)
    end: int = 0  # one past the last entry's bytes

    @property
    def size(self) -> int:
        """The segment size the descriptor's ``kernarg_size`` and the metadata's
        ``.kernarg_segment_size`` state: `end` rounded up to 8 bytes."""
        return (self.end + 7) & ~7

    # -- building ----------------------------------------------------------------------
    def add(self, name: str, size: int, kind: ValueKind, *, align: int | None = None,
            role: Role = Role.VALUE, key: Key | None = None, type_name: str | None = None,
            address_space: str | None = None, access: str | None = None,
            count: int = 0, stride: int = 0) -> KernargEntry:
        """Append an argument at the next offset aligned to `align` (default: its size)."""
        if size <= 0:
            raise KernargError(f"argument '{name}': size {size} (must be positive)")
        a = align if align is not None else size
        if a <= 0 or a & (a - 1):
            raise KernargError(f"argument '{name}': alignment {a} is not a power of two")
        off = (self.end + a - 1) // a * a
        e = KernargEntry(name, off, size, kind, role, key, type_name, address_space, access,
                         count, stride)
        self.entries.append(e)
        self.end = off + size
        return e

    def add_buffer(self, name: str, *, role: Role = Role.VALUE,
                   key: Key | None = None, array: tuple[int, int] = (0, 0)) -> KernargEntry:
        """A 64-bit global buffer address (8 bytes, 8-aligned); for an array of buffer
        descriptors (`array` = (count, stride)) the address of its first V#."""
        return self.add(name, 8, ValueKind.GLOBAL_BUFFER, role=role, key=key,
                        address_space="global", count=array[0], stride=array[1])

    def add_image(self, name: str, key: Key, access: str,
                  array: tuple[int, int] = (0, 0)) -> KernargEntry:
        """The 64-bit address of an image descriptor (AMDGPUUsage ``image``: a global
        pointer to the T#; 8 bytes, 8-aligned); of the first of `array` = (count, stride)
        for an array of descriptors."""
        return self.add(name, 8, ValueKind.IMAGE, role=Role.IMAGE, key=key,
                        address_space="global", access=access, count=array[0],
                        stride=array[1])

    def add_sampler(self, name: str, key: Key, array: tuple[int, int] = (0, 0)
                    ) -> KernargEntry:
        """The 64-bit address of a sampler descriptor (AMDGPUUsage ``sampler``: a global
        pointer to the 16-byte S#); of the first of `array` for an array."""
        return self.add(name, 8, ValueKind.SAMPLER, role=Role.SAMPLER, key=key,
                        address_space="global", count=array[0], stride=array[1])

    def add_value(self, name: str, size: int, type_name: str, *, align: int | None = None,
                  role: Role = Role.VALUE, key: Key | None = None) -> KernargEntry:
        """A by-value argument of `size` bytes (OpenCL type name `type_name`)."""
        return self.add(name, size, ValueKind.BY_VALUE, align=align, role=role, key=key,
                        type_name=type_name)

    def add_hidden(self, kind: ValueKind, size: int = 4) -> KernargEntry:
        """A hidden argument (unnamed; the runtime fills it)."""
        if not kind.hidden:
            raise KernargError(f"{kind.value} is not a hidden argument")
        return self.add("", size, kind, role=Role.HIDDEN)

    # -- reading -------------------------------------------------------------------------
    def find(self, role: Role, key: Key | None = None) -> KernargEntry | None:
        for e in self.entries:
            if e.role is role and e.key == key:
                return e
        return None

    def offset(self, role: Role, key: Key | None = None) -> int:
        e = self.find(role, key)
        if e is None:
            raise KeyError(f"no kernarg entry for {role.value} {key}")
        return e.offset

    def kind_offset(self, kind: ValueKind) -> int:
        """The offset of the (first) entry of `kind` (a hidden argument)."""
        for e in self.entries:
            if e.kind is kind:
                return e.offset
        raise KeyError(f"no kernarg entry of kind {kind.value}")

    @property
    def push_constants(self) -> KernargEntry | None:
        return self.find(Role.PUSH_CONSTANTS)

    def keys(self, role: Role = Role.BUFFER_ADDRESS) -> list[Key]:
        return [e.key for e in self.entries if e.role is role and e.key is not None]

    def metadata(self) -> list[dict[str, Any]]:
        """The code object's ``.args`` list."""
        return [e.metadata() for e in self.entries]


def shader_layout(bindings: Iterable[Key], push_size: int,
                  images: Mapping[Key, str] | None = None,
                  samplers: Iterable[Key] = (),
                  arrays: Mapping[tuple[Role, Key], tuple[int, int]] | None = None
                  ) -> KernargLayout:
    """The kernarg segment of a compute shader compiled from SPIR-V (docs/abi.md):

    1. one 8-byte ``global_buffer`` address per descriptor binding, in (set, binding)
       order, named ``set{S}_binding{B}``;
    2. one 4-byte ``by_value`` uint per binding, its size in bytes, ``..._size``;
    2b. one 8-byte ``image`` per image binding (`images`: key -> access), in (set,
       binding) order, named ``set{S}_binding{B}``: the address of its 32-byte image
       descriptor (T#, the ISA guide's "Image Resource");
    2c. one 8-byte ``sampler`` per sampler binding (separate, or the sampler half of a
       combined image sampler), (set, binding) order, ``set{S}_binding{B}_sampler``: the
       address of its 16-byte S# (the guide's "Sampler Resource");
    A buffer, image or sampler binding that is an array of descriptors (`arrays`: (role,
    key) -> (count, stride)) gets the address of its first element (a buffer array: of
    its first 16-byte V#, and no ``..._size``); its metadata names the count and stride
    (``.radcc_descriptor_count``, ``.radcc_descriptor_stride``).
    3. the push-constant block, if any: ``by_value`` ``push_constants`` of its size
       rounded up to 4 bytes, 4-aligned;
    4. ``hidden_block_count_x/y/z`` (4 bytes each: the number of workgroups).
    """
    keys = sorted(bindings)
    lay = KernargLayout()
    arr = arrays or {}
    for k in keys:
        lay.add_buffer(binding_name(k), role=Role.BUFFER_ADDRESS, key=k,
                       array=arr.get((Role.BUFFER_ADDRESS, k), (0, 0)))
    for k in keys:
        if (Role.BUFFER_ADDRESS, k) not in arr:  # an array's sizes are in its V#s
            lay.add_value(binding_name(k) + "_size", 4, "uint", role=Role.BUFFER_SIZE, key=k)
    for k, access in sorted((images or {}).items()):
        lay.add_image(binding_name(k), k, access, arr.get((Role.IMAGE, k), (0, 0)))
    for k in sorted(samplers):
        lay.add_sampler(binding_name(k) + "_sampler", k, arr.get((Role.SAMPLER, k), (0, 0)))
    if push_size:
        lay.add_value("push_constants", (push_size + 3) // 4 * 4, "struct", align=4,
                      role=Role.PUSH_CONSTANTS)
    for kind in (ValueKind.HIDDEN_BLOCK_COUNT_X, ValueKind.HIDDEN_BLOCK_COUNT_Y,
                 ValueKind.HIDDEN_BLOCK_COUNT_Z):
        lay.add_hidden(kind)
    return lay
