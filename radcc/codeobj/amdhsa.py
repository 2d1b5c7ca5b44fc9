"""The AMDHSA kernel descriptor (code object v5) and its `.amdhsa_*` directives.

Layout and bit positions follow LLVM's AMDGPUUsage ("Kernel Descriptor",
"compute_pgm_rsrc1/2/3" tables) and were checked against llvm-mc-19 output
(tests/codeobj/test_amdhsa_oracle.py). GFX10/10.3 and GFX11 share the
layout and defaults; GFX10 has no architected flat scratch, so it takes the
user_sgpr_private_segment_buffer (4 user SGPRs), user_sgpr_flat_scratch_init
(2), system_sgpr_private_segment_wavefront_offset and reserve_flat_scratch
directives and rejects enable_private_segment (`fields_for(target)`). Field names are the directive names
without the `.amdhsa_` prefix (the prefixed spelling is accepted too).

Descriptor (64 bytes, little endian):

    0  u32 group_segment_fixed_size      4  u32 private_segment_fixed_size
    8  u32 kernarg_size                 12  4 bytes reserved
   16  i64 kernel_code_entry_byte_offset (entry minus descriptor address)
   24  20 bytes reserved                44  u32 compute_pgm_rsrc3
   48  u32 compute_pgm_rsrc1            52  u32 compute_pgm_rsrc2
   56  u16 kernel_code_properties       58  u16 kernarg_preload
   60  4 bytes reserved
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

from radcc.codeobj.errors import CodeObjectError
from radcc.target import Feature, GfxLevel

__all__ = [
    "AMDHSA_FIELDS",
    "KD_SIZE",
    "AMDHSA_FIELDS_GFX10",
    "FieldSpec",
    "check_field",
    "fields_for",
    "decode_kernel_descriptor",
    "default_fields",
    "implied_user_sgpr_count",
    "kernel_descriptor",
]

KD_SIZE = 64
_KD_STRUCT = struct.Struct("<III4xq20xIIIHH4x")
assert _KD_STRUCT.size == KD_SIZE

RSRC1 = "compute_pgm_rsrc1"
RSRC2 = "compute_pgm_rsrc2"
RSRC3 = "compute_pgm_rsrc3"
PROPS = "kernel_code_properties"
_WORD_NAMES = (RSRC1, RSRC2, RSRC3, PROPS)

_INT64_MAX = (1 << 63) - 1


@dataclass(frozen=True)
class FieldSpec:
    """One `.amdhsa_<name>` directive.

    `word` is the descriptor word it lands in (a whole-word field such as
    `kernarg_size`, or one of compute_pgm_rsrc1/2/3 and kernel_code_properties
    with `shift`/`width`), or None for directives that only feed a computed
    field (`reserve_vcc`). `default` is llvm-mc's value when the directive is
    absent (None: required, or computed). `max_value` is the largest value the
    directive itself accepts.
    """

    name: str
    word: str | None
    shift: int
    width: int
    default: int | None
    max_value: int
    doc: str = ""

    @property
    def directive(self) -> str:
        return f".amdhsa_{self.name}"

    def default_for(self, target: Any) -> int | None:
        """The default on `target` (only wavefront_size32 depends on it)."""
        if self.name == "wavefront_size32":
            return 1 if target.default_wave_size == 32 else 0
        return self.default


def _bits(name: str, word: str, shift: int, width: int, default: int, doc: str) -> FieldSpec:
    return FieldSpec(name, word, shift, width, default, (1 << width) - 1, doc)


def _u32(name: str, doc: str) -> FieldSpec:
    return FieldSpec(name, name, 0, 32, 0, 0xFFFFFFFF, doc)


_SPECS: list[FieldSpec] = [
    _u32("group_segment_fixed_size", "LDS bytes per work-group (fixed part)"),
    _u32("private_segment_fixed_size", "scratch bytes per work-item (fixed part)"),
    _u32("kernarg_size", "kernarg segment size in bytes"),
    FieldSpec("user_sgpr_count", RSRC2, 1, 5, None, 31,
              "USER_SGPR_COUNT; default: implied by the enabled user SGPRs"),
    _bits("user_sgpr_dispatch_ptr", PROPS, 1, 1, 0, "2 user SGPRs"),
    _bits("user_sgpr_queue_ptr", PROPS, 2, 1, 0, "2 user SGPRs"),
    _bits("user_sgpr_kernarg_segment_ptr", PROPS, 3, 1, 0, "2 user SGPRs"),
    _bits("user_sgpr_dispatch_id", PROPS, 4, 1, 0, "2 user SGPRs"),
    _bits("user_sgpr_private_segment_size", PROPS, 6, 1, 0, "1 user SGPR"),
    FieldSpec("wavefront_size32", PROPS, 10, 1, None, 1,
              "ENABLE_WAVEFRONT_SIZE32; default: the target's default wave size"),
    _bits("uses_dynamic_stack", PROPS, 11, 1, 0, "USES_DYNAMIC_STACK"),
    _bits("enable_private_segment", RSRC2, 0, 1, 0, "ENABLE_PRIVATE_SEGMENT (scratch)"),
    _bits("system_sgpr_workgroup_id_x", RSRC2, 7, 1, 1, "ENABLE_SGPR_WORKGROUP_ID_X"),
    _bits("system_sgpr_workgroup_id_y", RSRC2, 8, 1, 0, "ENABLE_SGPR_WORKGROUP_ID_Y"),
    _bits("system_sgpr_workgroup_id_z", RSRC2, 9, 1, 0, "ENABLE_SGPR_WORKGROUP_ID_Z"),
    _bits("system_sgpr_workgroup_info", RSRC2, 10, 1, 0, "ENABLE_SGPR_WORKGROUP_INFO"),
    _bits("system_vgpr_workitem_id", RSRC2, 11, 2, 0,
          "ENABLE_VGPR_WORKITEM_ID: 0 X, 1 XY, 2 XYZ"),
    FieldSpec("next_free_vgpr", RSRC1, 0, 6, None, _INT64_MAX,
              "required; granulated into GRANULATED_WORKITEM_VGPR_COUNT"),
    FieldSpec("next_free_sgpr", RSRC1, 6, 4, None, _INT64_MAX,
              "required; GRANULATED_WAVEFRONT_SGPR_COUNT is 0 on GFX10+"),
    FieldSpec("reserve_vcc", None, 0, 1, 1, 1, "adds VCC to the SGPR count (pre-GFX10 only)"),
    FieldSpec("reserve_xnack_mask", None, 0, 1, 0, 1,
              "adds XNACK_MASK to the SGPR count (pre-GFX10 only)"),
    _bits("float_round_mode_32", RSRC1, 12, 2, 0, "FLOAT_ROUND_MODE_32"),
    _bits("float_round_mode_16_64", RSRC1, 14, 2, 0, "FLOAT_ROUND_MODE_16_64"),
    _bits("float_denorm_mode_32", RSRC1, 16, 2, 0, "FLOAT_DENORM_MODE_32"),
    _bits("float_denorm_mode_16_64", RSRC1, 18, 2, 3, "FLOAT_DENORM_MODE_16_64"),
    _bits("dx10_clamp", RSRC1, 21, 1, 1, "ENABLE_DX10_CLAMP (GFX6-GFX11)"),
    _bits("ieee_mode", RSRC1, 23, 1, 1, "ENABLE_IEEE_MODE (GFX6-GFX11)"),
    _bits("fp16_overflow", RSRC1, 26, 1, 0, "FP16_OVFL"),
    _bits("workgroup_processor_mode", RSRC1, 29, 1, 1, "WGP_MODE"),
    _bits("memory_ordered", RSRC1, 30, 1, 1, "MEM_ORDERED"),
    _bits("forward_progress", RSRC1, 31, 1, 0, "FWD_PROGRESS"),
    _bits("shared_vgpr_count", RSRC3, 0, 4, 0, "SHARED_VGPR_COUNT (wave64 only)"),
    _bits("exception_fp_ieee_invalid_op", RSRC2, 24, 1, 0, "trap on IEEE invalid op"),
    _bits("exception_fp_denorm_src", RSRC2, 25, 1, 0, "trap on denormal source"),
    _bits("exception_fp_ieee_div_zero", RSRC2, 26, 1, 0, "trap on FP divide by zero"),
    _bits("exception_fp_ieee_overflow", RSRC2, 27, 1, 0, "trap on FP overflow"),
    _bits("exception_fp_ieee_underflow", RSRC2, 28, 1, 0, "trap on FP underflow"),
    _bits("exception_fp_ieee_inexact", RSRC2, 29, 1, 0, "trap on FP inexact"),
    _bits("exception_int_div_zero", RSRC2, 30, 1, 0, "trap on integer divide by zero"),
]

AMDHSA_FIELDS: dict[str, FieldSpec] = {s.name: s for s in _SPECS}
"""Every `.amdhsa_*` directive llvm-mc-19 accepts for GFX11 kernels."""

# GFX10 (no architected flat scratch): RSRC2 bit 0 is the private segment wave offset.
_GFX10_SPECS: list[FieldSpec] = [
    *(s for s in _SPECS if s.name != "enable_private_segment"),
    _bits("user_sgpr_private_segment_buffer", PROPS, 0, 1, 0, "4 user SGPRs"),
    _bits("user_sgpr_flat_scratch_init", PROPS, 5, 1, 0, "2 user SGPRs"),
    _bits("system_sgpr_private_segment_wavefront_offset", RSRC2, 0, 1, 0,
          "ENABLE_PRIVATE_SEGMENT_WAVE_BYTE_OFFSET"),
    FieldSpec("reserve_flat_scratch", None, 0, 1, 1, 1,
              "adds FLAT_SCRATCH to the SGPR count (pre-GFX10 only)"),
]
AMDHSA_FIELDS_GFX10: dict[str, FieldSpec] = {s.name: s for s in _GFX10_SPECS}
"""Every `.amdhsa_*` directive llvm-mc-19 accepts for GFX10/GFX10.3 kernels."""
_REJECTED_ON_GFX10: dict[str, str] = {
    "enable_private_segment": "directive is not supported without architected flat scratch",
    "user_sgpr_kernarg_preload_length": "directive requires gfx90a+",
    "user_sgpr_kernarg_preload_offset": "directive requires gfx90a+",
    "accum_offset": "directive requires gfx90a+",
    "tg_split": "directive requires gfx90a+",
    "round_robin_scheduling": "directive requires gfx12+",
}


def fields_for(target: Any) -> dict[str, FieldSpec]:
    """The directives a target's kernels take (GFX10/10.3 or GFX11)."""
    _require_supported(target)
    return AMDHSA_FIELDS if target.gfx_level == GfxLevel.GFX11 else AMDHSA_FIELDS_GFX10

# Directives llvm-mc-19 knows but rejects on GFX11, with its message.
_ARCH_FLAT_SCRATCH = "directive is not supported with architected flat scratch"
_REJECTED_ON_GFX11: dict[str, str] = {
    "user_sgpr_private_segment_buffer": _ARCH_FLAT_SCRATCH,
    "user_sgpr_flat_scratch_init": _ARCH_FLAT_SCRATCH,
    "system_sgpr_private_segment_wavefront_offset": _ARCH_FLAT_SCRATCH,
    "reserve_flat_scratch": _ARCH_FLAT_SCRATCH,
    "user_sgpr_kernarg_preload_length": "directive requires gfx90a+",
    "user_sgpr_kernarg_preload_offset": "directive requires gfx90a+",
    "accum_offset": "directive requires gfx90a+",
    "tg_split": "directive requires gfx90a+",
    "round_robin_scheduling": "directive requires gfx12+",
}

# User SGPRs each enable implies (AMDGPUUsage "Initial Kernel Execution State").
_USER_SGPR_SIZES = {
    "user_sgpr_dispatch_ptr": 2,
    "user_sgpr_queue_ptr": 2,
    "user_sgpr_kernarg_segment_ptr": 2,
    "user_sgpr_dispatch_id": 2,
    "user_sgpr_private_segment_size": 1,
    "user_sgpr_private_segment_buffer": 4,  # GFX10 only
    "user_sgpr_flat_scratch_init": 2,  # GFX10 only
}


def _strip(name: str) -> str:
    return name[len(".amdhsa_"):] if name.startswith(".amdhsa_") else name


_SUPPORTED = (GfxLevel.GFX10, GfxLevel.GFX10_3, GfxLevel.GFX11)


def _require_supported(target: Any) -> None:
    if target.gfx_level not in _SUPPORTED:
        raise CodeObjectError(
            f"kernel descriptors for {target.name} are not supported (GFX10 and GFX11 only)")


def check_field(name: str, value: int, target: Any) -> str | None:
    """Check one `.amdhsa_<name> value`; None if llvm-mc would accept it, else the message.

    Checks that depend on other fields (the VGPR granule depends on the wave
    size; user_sgpr_count against the enabled user SGPRs; shared_vgpr_count)
    are done by `kernel_descriptor`; here next_free_vgpr is held to the widest
    granule the target has.
    """
    key = _strip(name)
    if target.gfx_level not in _SUPPORTED:
        return f"kernel descriptors for {target.name} are not supported (GFX10 and GFX11 only)"
    gfx11 = target.gfx_level == GfxLevel.GFX11
    # llvm-mc-19 reads the value before it looks the directive up: a negative value is
    # out of range even for a directive it does not know or refuses on the target
    if isinstance(value, bool) or not isinstance(value, int):
        return "expected an integer value"
    if value < 0:
        return "value out of range"
    spec = (AMDHSA_FIELDS if gfx11 else AMDHSA_FIELDS_GFX10).get(key)
    if spec is None:
        rejected = _REJECTED_ON_GFX11 if gfx11 else _REJECTED_ON_GFX10
        return rejected.get(key, "unknown .amdhsa_kernel directive")
    if key == "user_sgpr_count" and value > spec.max_value:
        return "too many user SGPRs enabled"
    if value > spec.max_value:
        return "value out of range"
    if key == "reserve_xnack_mask" and value and not target.has(Feature.XNACK):
        return ".amdhsa_reserve_xnack_mask does not match target id"
    if key == "next_free_vgpr":
        granule = max(rf.vgpr_encoding_granule for rf in target.register_files.values())
        if _vgpr_blocks(value, granule) > 63:
            return "value out of range"
    return None


def _vgpr_blocks(next_free_vgpr: int, granule: int) -> int:
    n = max(next_free_vgpr, 1)
    return (n + granule - 1) // granule - 1


def implied_user_sgpr_count(fields: dict[str, int]) -> int:
    """User SGPRs implied by the `user_sgpr_*` enables in `fields`."""
    return sum(size for name, size in _USER_SGPR_SIZES.items() if fields.get(name, 0))


def default_fields(target: Any) -> dict[str, int]:
    """llvm-mc's defaults for every directive that has one on `target`."""
    out: dict[str, int] = {}
    for spec in fields_for(target).values():
        d = spec.default_for(target)
        if d is not None:
            out[spec.name] = d
    return out


def kernel_descriptor(fields: dict[str, int], target: Any,
                      kernel_code_entry_byte_offset: int) -> bytes:
    """Build the 64-byte descriptor the way llvm-mc-19 does for `.amdhsa_kernel`.

    `fields` maps directive names (with or without `.amdhsa_`) to values;
    absent ones take llvm-mc's defaults. Raises CodeObjectError with an
    llvm-mc-like message for bad input.
    """
    specs = fields_for(target).values()
    given: dict[str, int] = {}
    for raw_name, value in fields.items():
        name = _strip(raw_name)
        msg = check_field(name, value, target)
        if msg is not None:
            raise CodeObjectError(f".amdhsa_{name} {value}: {msg}")
        given[name] = int(value)
    for required in ("next_free_vgpr", "next_free_sgpr"):
        if required not in given:
            raise CodeObjectError(f".amdhsa_{required} directive is required")
    vals = default_fields(target)
    vals.update(given)

    words = dict.fromkeys(_WORD_NAMES, 0)
    for spec in specs:
        if spec.word in words and spec.name not in ("next_free_vgpr", "next_free_sgpr",
                                                    "user_sgpr_count"):
            words[spec.word] |= (vals[spec.name] & spec.max_value) << spec.shift

    wave32 = bool(vals["wavefront_size32"])
    granule = target.regfile(32 if wave32 else 64).vgpr_encoding_granule
    vgpr_blocks = _vgpr_blocks(vals["next_free_vgpr"], granule)
    if vgpr_blocks > 63:
        raise CodeObjectError(
            f".amdhsa_next_free_vgpr {vals['next_free_vgpr']}: value out of range")
    words[RSRC1] |= vgpr_blocks  # GRANULATED_WAVEFRONT_SGPR_COUNT stays 0 on GFX10+

    implied = implied_user_sgpr_count(vals)
    user_sgprs = vals.get("user_sgpr_count", implied)
    if user_sgprs < implied:
        raise CodeObjectError(
            "amdgpu_user_sgpr_count smaller than than implied by enabled user SGPRs")
    words[RSRC2] |= user_sgprs << 1

    shared = vals["shared_vgpr_count"]
    if shared and given.get("wavefront_size32") == 1:  # llvm-mc checks only an explicit one
        raise CodeObjectError("shared_vgpr_count directive not valid on wavefront size 32")
    if shared * 2 + vgpr_blocks > 63:
        raise CodeObjectError("shared_vgpr_count*2 + "
                              "compute_pgm_rsrc1.GRANULATED_WORKITEM_VGPR_COUNT cannot exceed 63")

    if not -(1 << 63) <= kernel_code_entry_byte_offset < (1 << 63):
        raise CodeObjectError("kernel_code_entry_byte_offset does not fit in 64 bits")
    return _KD_STRUCT.pack(
        vals["group_segment_fixed_size"], vals["private_segment_fixed_size"],
        vals["kernarg_size"], kernel_code_entry_byte_offset,
        words[RSRC3], words[RSRC1], words[RSRC2], words[PROPS], 0)


# Bits that no GFX11 directive sets, reported raw by the decoder.
_RAW_BITS: tuple[tuple[str, str, int, int], ...] = (
    ("granulated_workitem_vgpr_count", RSRC1, 0, 6),
    ("granulated_wavefront_sgpr_count", RSRC1, 6, 4),
    ("priority", RSRC1, 10, 2),
    ("priv", RSRC1, 20, 1),
    ("debug_mode", RSRC1, 22, 1),
    ("bulky", RSRC1, 24, 1),
    ("cdbg_user", RSRC1, 25, 1),
    ("enable_trap_handler", RSRC2, 6, 1),
    ("enable_exception_address_watch", RSRC2, 13, 1),
    ("enable_exception_memory", RSRC2, 14, 1),
    ("granulated_lds_size", RSRC2, 15, 9),
    ("inst_pref_size", RSRC3, 4, 6),
    ("trap_on_start", RSRC3, 10, 1),
    ("trap_on_end", RSRC3, 11, 1),
    ("image_op", RSRC3, 31, 1),
    ("user_sgpr_private_segment_buffer", PROPS, 0, 1),
    ("user_sgpr_flat_scratch_init", PROPS, 5, 1),
)


def decode_kernel_descriptor(data: bytes, target: Any = None) -> dict[str, int]:
    """Decode a 64-byte descriptor into directive values, as far as recoverable.

    next_free_vgpr is the top of the granulated count ((blocks + 1) * granule,
    as llvm-objdump prints it) and next_free_sgpr likewise with granule 8.
    Also returned: the raw words (compute_pgm_rsrc1/2/3, kernel_code_properties,
    kernarg_preload), kernel_code_entry_byte_offset, and the bits no directive
    sets (see `_RAW_BITS`). Raises CodeObjectError if `data` is not 64 bytes.
    """
    if len(data) != KD_SIZE:
        raise CodeObjectError(f"kernel descriptor must be {KD_SIZE} bytes, got {len(data)}")
    (group, private, kernarg, entry, rsrc3, rsrc1, rsrc2, props,
     preload) = _KD_STRUCT.unpack(bytes(data))
    words = {RSRC1: rsrc1, RSRC2: rsrc2, RSRC3: rsrc3, PROPS: props}
    out: dict[str, int] = {
        "group_segment_fixed_size": group,
        "private_segment_fixed_size": private,
        "kernarg_size": kernarg,
    }
    for spec in _SPECS:
        if spec.word in words:
            out[spec.name] = (words[spec.word] >> spec.shift) & ((1 << spec.width) - 1)
    wave32 = bool(out["wavefront_size32"])
    if target is not None and (32 if wave32 else 64) in target.register_files:
        granule = target.regfile(32 if wave32 else 64).vgpr_encoding_granule
    else:
        granule = 8 if wave32 else 4  # GFX10+ encoding granules
    out["next_free_vgpr"] = (out["next_free_vgpr"] + 1) * granule
    out["next_free_sgpr"] = (out["next_free_sgpr"] + 1) * 8
    for name, word, shift, width in _RAW_BITS:
        out[name] = (words[word] >> shift) & ((1 << width) - 1)
    out.update(words)
    out["kernarg_preload"] = preload
    out["kernel_code_entry_byte_offset"] = entry
    return out
