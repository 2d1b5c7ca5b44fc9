"""The NT_AMDGPU_METADATA note of code object v5 (msgpack) and its YAML form.

`pack_note`/`unpack_note` convert between a metadata dict and the note's
descriptor bytes (msgpack, keys sorted as LLVM's std::map orders them, so
re-packing an unpacked LLVM note gives LLVM's bytes back). `parse_yaml` and
`to_yaml` read and print the `.amdgpu_metadata` block form.
`default_metadata` builds a sensible v5 map for kernels that come without one.
"""

from __future__ import annotations

from typing import Any

from radcc.codeobj import msgpack
from radcc.codeobj.errors import CodeObjectError
from radcc.codeobj.yaml import parse_yaml, to_yaml

__all__ = [
    "NOTE_NAME",
    "NT_AMDGPU_METADATA",
    "CODE_OBJECT_V5_VERSION",
    "default_kernel_metadata",
    "default_metadata",
    "pack_note",
    "parse_yaml",
    "to_yaml",
    "unpack_note",
]

NOTE_NAME = b"AMDGPU"
NT_AMDGPU_METADATA = 32
CODE_OBJECT_V5_VERSION = [1, 2]  # amdhsa.version of code object v5


def pack_note(meta: dict[Any, Any]) -> bytes:
    """Encode metadata as the note descriptor (msgpack map, keys sorted)."""
    if not isinstance(meta, dict):
        raise CodeObjectError("AMDGPU metadata must be a map")
    return msgpack.pack(meta, sort_keys=True)


def unpack_note(desc: bytes) -> dict[Any, Any]:
    """Decode a note descriptor; raises CodeObjectError unless it is one msgpack map."""
    meta = msgpack.unpack(desc)
    if not isinstance(meta, dict):
        raise CodeObjectError("AMDGPU metadata note is not a msgpack map")
    return meta


def default_kernel_metadata(name: str, fields: dict[str, int]) -> dict[str, Any]:
    """One `amdhsa.kernels` entry derived from a kernel's decoded descriptor fields.

    `fields` uses `amdhsa.decode_kernel_descriptor` names. The SGPR count adds
    VCC (2) as LLVM does; max_flat_workgroup_size is the hardware maximum 1024
    so any dispatch is accepted. No `.args` are known: pass your own metadata
    to describe arguments.
    """
    wave32 = bool(fields.get("wavefront_size32", 1))
    return {
        ".args": [],
        ".group_segment_fixed_size": fields.get("group_segment_fixed_size", 0),
        ".kernarg_segment_align": 8,
        ".kernarg_segment_size": fields.get("kernarg_size", 0),
        ".max_flat_workgroup_size": 1024,
        ".name": name,
        ".private_segment_fixed_size": fields.get("private_segment_fixed_size", 0),
        ".sgpr_count": fields.get("next_free_sgpr", 0) + 2 * fields.get("reserve_vcc", 1),
        ".sgpr_spill_count": 0,
        ".symbol": name + ".kd",
        ".uses_dynamic_stack": bool(fields.get("uses_dynamic_stack", 0)),
        ".vgpr_count": fields.get("next_free_vgpr", 0),
        ".vgpr_spill_count": 0,
        ".wavefront_size": 32 if wave32 else 64,
        ".workgroup_processor_mode": fields.get("workgroup_processor_mode", 1),
    }


def default_metadata(target_id: str, kernels: list[dict[str, Any]]) -> dict[str, Any]:
    """The top-level v5 map: amdhsa.kernels, amdhsa.target, amdhsa.version."""
    return {
        "amdhsa.kernels": kernels,
        "amdhsa.target": target_id,
        "amdhsa.version": list(CODE_OBJECT_V5_VERSION),
    }
