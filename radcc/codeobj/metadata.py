"""The NT_AMDGPU_METADATA note of code object v5 (msgpack) and its YAML form.

`pack_note`/`unpack_note` convert between a metadata dict and the note's
descriptor bytes (msgpack, keys sorted as LLVM's std::map orders them, so
re-packing an unpacked LLVM note gives LLVM's bytes back). `parse_yaml` and
`to_yaml` read and print the `.amdgpu_metadata` block form.
`default_metadata` builds a sensible v5 map for kernels that come without one.
`verify_metadata` checks the value types of the keys code object v3+ defines, as
LLVM's `AMDGPU::HSAMD::V3::MetadataVerifier` does in its non-strict mode (what
llvm-mc 19 applies to an `.amdgpu_metadata` block: "invalid HSA metadata").
"""

from __future__ import annotations

from typing import Any

from radcc.codeobj import msgpack
from radcc.codeobj.errors import CodeObjectError
from radcc.codeobj.yaml import parse_yaml, scalar_from_plain, to_yaml

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
    "verify_metadata",
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


# --- type checks (LLVM's MetadataVerifier, llvm/lib/BinaryFormat/AMDGPUMetadataVerifier.cpp,
# as llvm-mc 19 applies it; checked against llvm-mc-19 in tests/codeobj/test_metadata_verify.py)

_VALUE_KINDS = frozenset({
    "by_value", "global_buffer", "dynamic_shared_pointer", "sampler", "image", "pipe", "queue",
    "hidden_block_count_x", "hidden_block_count_y", "hidden_block_count_z",
    "hidden_group_size_x", "hidden_group_size_y", "hidden_group_size_z",
    "hidden_remainder_x", "hidden_remainder_y", "hidden_remainder_z",
    "hidden_global_offset_x", "hidden_global_offset_y", "hidden_global_offset_z",
    "hidden_grid_dims", "hidden_none", "hidden_printf_buffer", "hidden_hostcall_buffer",
    "hidden_heap_v1", "hidden_default_queue", "hidden_completion_action",
    "hidden_multigrid_sync_arg", "hidden_dynamic_lds_size", "hidden_private_base",
    "hidden_shared_base", "hidden_queue_ptr"})
_ADDRESS_SPACES = frozenset({"private", "global", "constant", "local", "generic", "region"})
_ACCESS = frozenset({"read_only", "write_only", "read_write"})
_LANGUAGES = frozenset({"OpenCL C", "OpenCL C++", "HCC", "HIP", "OpenMP", "Assembler"})


def _coerced(v: Any) -> Any:
    """Non-strict mode: a string value is re-typed as an untagged scalar would be."""
    return scalar_from_plain(v) if isinstance(v, str) else v


def _is_int(v: Any) -> bool:
    v = _coerced(v)
    return isinstance(v, int) and not isinstance(v, bool)


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


def _is_bool(v: Any) -> bool:
    return isinstance(_coerced(v), bool)


def _one_of(names: frozenset[str]) -> Any:
    return lambda v: isinstance(v, str) and v in names


def _int_list(n: int | None) -> Any:
    return lambda v: isinstance(v, list) and (n is None or len(v) == n) and \
        all(_is_int(x) for x in v)


_INT = (_is_int, "an integer")
_STR = (_is_str, "a string")
_BOOL = (_is_bool, "a boolean")
# key -> (required, check, what it must be)
_ARG_KEYS: dict[str, tuple[bool, Any, str]] = {
    ".name": (False, *_STR), ".type_name": (False, *_STR),
    ".size": (True, *_INT), ".offset": (True, *_INT),
    ".value_kind": (True, _one_of(_VALUE_KINDS), "a known value kind"),
    ".pointee_align": (False, *_INT),
    ".address_space": (False, _one_of(_ADDRESS_SPACES), "an address space name"),
    ".access": (False, _one_of(_ACCESS), "read_only, write_only or read_write"),
    ".actual_access": (False, _one_of(_ACCESS), "read_only, write_only or read_write"),
    ".is_const": (False, *_BOOL), ".is_restrict": (False, *_BOOL),
    ".is_volatile": (False, *_BOOL), ".is_pipe": (False, *_BOOL),
}
_KERNEL_KEYS: dict[str, tuple[bool, Any, str]] = {
    ".name": (True, *_STR), ".symbol": (True, *_STR),
    ".language": (False, _one_of(_LANGUAGES), "a known language"),
    ".language_version": (False, _int_list(2), "a list of 2 integers"),
    ".reqd_workgroup_size": (False, _int_list(3), "a list of 3 integers"),
    ".workgroup_size_hint": (False, _int_list(3), "a list of 3 integers"),
    ".vec_type_hint": (False, *_STR), ".device_enqueue_symbol": (False, *_STR),
    ".kernarg_segment_size": (True, *_INT), ".group_segment_fixed_size": (True, *_INT),
    ".private_segment_fixed_size": (True, *_INT), ".uses_dynamic_stack": (False, *_BOOL),
    ".workgroup_processor_mode": (False, *_INT), ".kernarg_segment_align": (True, *_INT),
    ".wavefront_size": (True, *_INT), ".sgpr_count": (True, *_INT),
    ".vgpr_count": (True, *_INT), ".max_flat_workgroup_size": (True, *_INT),
    ".sgpr_spill_count": (False, *_INT), ".vgpr_spill_count": (False, *_INT),
    ".uniform_work_group_size": (False, *_INT),
}


def _show(v: Any) -> str:
    r = repr(v)
    return r if len(r) <= 60 else r[:57] + "..."


def _check_map(d: Any, keys: dict[str, tuple[bool, Any, str]], where: str) -> str | None:
    if not isinstance(d, dict):
        return f"{where} is not a map"
    for key, (required, ok, what) in keys.items():
        if key not in d:
            if required:
                return f"{where} has no {key}"
        elif not ok(d[key]):
            return f"{where}: {key} must be {what}, not {_show(d[key])}"
    return None


def verify_metadata(meta: Any) -> str | None:
    """The first value of the wrong type or missing key, described; None if valid.

    The keys and types are those of LLVM 19's verifier (non-strict: a string is
    re-typed as an untagged scalar, so `!str 8` is an integer); keys it does not
    know are not checked.
    """
    if not isinstance(meta, dict):
        return "the metadata is not a map"
    if "amdhsa.version" not in meta:
        return "no amdhsa.version"
    if not _int_list(2)(meta["amdhsa.version"]):
        return f"amdhsa.version must be a list of 2 integers, not {_show(meta['amdhsa.version'])}"
    printf = meta.get("amdhsa.printf", [])
    if not isinstance(printf, list) or not all(isinstance(x, str) for x in printf):
        return f"amdhsa.printf must be a list of strings, not {_show(printf)}"
    kernels = meta.get("amdhsa.kernels")
    if not isinstance(kernels, list):
        return "amdhsa.kernels must be a list" if "amdhsa.kernels" in meta \
            else "no amdhsa.kernels"
    for i, k in enumerate(kernels):
        where = f"amdhsa.kernels[{i}]"
        msg = _check_map(k, _KERNEL_KEYS, where)
        if msg:
            return msg
        args = k.get(".args", [])
        if not isinstance(args, list):
            return f"{where}: .args must be a list"
        for j, a in enumerate(args):
            msg = _check_map(a, _ARG_KEYS, f"{where}.args[{j}]")
            if msg:
                return msg
    return None
