"""Kernel descriptors: radcc's `kernel_descriptor` against llvm-mc-19's `.amdhsa_kernel`.

Oracle: the 64 bytes llvm-mc-19 emits for NAME.kd (ET_REL: the entry offset is
a relocation, so bytes 16..24 are compared after ld.lld-19 links the object),
and llvm-objdump-19's disassembly of descriptors for the decoder.
"""

from __future__ import annotations

import re

import pytest
from codeobj_tools import assemble, kernel_source, objdump_kd_directives, write_temp
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from radcc.codeobj.amdhsa import (
    AMDHSA_FIELDS,
    KD_SIZE,
    check_field,
    decode_kernel_descriptor,
    default_fields,
    implied_user_sgpr_count,
    kernel_descriptor,
)
from radcc.codeobj.elf import read_code_object
from radcc.codeobj.errors import CodeObjectError
from radcc.target import get_target

T = get_target("gfx1100")
_SPECIAL = {"next_free_vgpr", "next_free_sgpr", "user_sgpr_count", "shared_vgpr_count",
            "wavefront_size32"}
_PLAIN = sorted(n for n in AMDHSA_FIELDS if n not in _SPECIAL)


def _check_against_mc(kernels: dict[str, dict[str, int]], mcpu: str = "gfx1100") -> None:
    target = get_target(mcpu)
    src = kernel_source(kernels, mcpu)
    obj, err = assemble(src, mcpu)
    assert obj, err
    so, err = assemble(src, mcpu, link=True)
    assert so, err
    rel = read_code_object(obj)
    dyn = read_code_object(so)
    for name, fields in kernels.items():
        mine0 = kernel_descriptor(fields, target, 0)
        theirs = rel.kernels[name].descriptor_bytes
        assert theirs[16:24] == bytes(8)  # filled by the REL64 relocation
        assert mine0 == theirs, (name, fields, mine0.hex(), theirs.hex())
        k = dyn.kernels[name]
        mine = kernel_descriptor(fields, target, k.entry_address - k.kd_address)
        assert mine == k.descriptor_bytes, (name, fields)
        assert dyn.symbols[name].value == k.entry_address


# ---------------------------------------------------------------- fixed cases

BOUNDARY_VGPRS = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 63, 64, 65,
                  127, 128, 129, 252, 253, 255, 256]


def test_defaults_match_llvm_mc():
    _check_against_mc({"k": {"next_free_vgpr": 0, "next_free_sgpr": 0}})


@pytest.mark.parametrize("wave32", [0, 1])
def test_vgpr_granule_boundaries(wave32):
    vgprs = BOUNDARY_VGPRS + ([257, 263, 264, 265, 511, 512] if wave32 else [])
    _check_against_mc({f"k{v}": {"next_free_vgpr": v, "next_free_sgpr": 3,
                                 "wavefront_size32": wave32} for v in vgprs})


def test_every_field_at_its_maximum():
    fields = {n: AMDHSA_FIELDS[n].max_value for n in _PLAIN
              if AMDHSA_FIELDS[n].max_value < (1 << 32) and n != "reserve_xnack_mask"}
    fields.update(next_free_vgpr=17, next_free_sgpr=104, wavefront_size32=0,
                  shared_vgpr_count=15, user_sgpr_count=31)
    _check_against_mc({"kmax": fields})


def test_each_field_alone():
    kernels = {}
    for i, name in enumerate(sorted(AMDHSA_FIELDS)):
        if name in ("next_free_vgpr", "next_free_sgpr"):
            continue
        spec = AMDHSA_FIELDS[name]
        value = 1 if spec.default != 1 else 0
        if name == "reserve_xnack_mask":
            value = 0  # 1 "does not match target id" on GFX11 (no XNACK)
        f = {"next_free_vgpr": 5, "next_free_sgpr": 5, name: value}
        if name == "shared_vgpr_count":
            f["wavefront_size32"] = 0
        kernels[f"k{i}"] = f
    _check_against_mc(kernels)


@pytest.mark.parametrize("mcpu", ["gfx1101", "gfx1102", "gfx1103"])
def test_other_gfx11_chips(mcpu):
    _check_against_mc({"a": {"next_free_vgpr": 9, "next_free_sgpr": 9},
                       "b": {"next_free_vgpr": 100, "next_free_sgpr": 9, "wavefront_size32": 0},
                       "c": {"next_free_vgpr": 300, "next_free_sgpr": 9,
                             "user_sgpr_kernarg_segment_ptr": 1}}, mcpu)


def test_prefixed_names_are_accepted():
    a = kernel_descriptor({".amdhsa_next_free_vgpr": 9, ".amdhsa_next_free_sgpr": 1}, T, 0)
    b = kernel_descriptor({"next_free_vgpr": 9, "next_free_sgpr": 1}, T, 0)
    assert a == b and len(a) == KD_SIZE


# ---------------------------------------------------------------- hypothesis sweep

@st.composite
def kernel_fields(draw) -> dict[str, int]:
    wave32 = draw(st.sampled_from([None, 0, 1]))
    w32 = wave32 is None or wave32 == 1
    vmax = 512 if w32 else 256
    fields: dict[str, int] = {
        "next_free_vgpr": draw(st.one_of(st.integers(0, vmax),
                                         st.sampled_from([v for v in BOUNDARY_VGPRS
                                                          if v <= vmax]))),
        "next_free_sgpr": draw(st.integers(0, 120)),
    }
    if wave32 is not None:
        fields["wavefront_size32"] = wave32
    for name in draw(st.lists(st.sampled_from(_PLAIN), unique=True, max_size=len(_PLAIN))):
        hi = AMDHSA_FIELDS[name].max_value if AMDHSA_FIELDS[name].width < 32 else 0xFFFFFFFF
        fields[name] = 0 if name == "reserve_xnack_mask" else draw(st.integers(0, hi))
    if draw(st.booleans()):
        fields["user_sgpr_count"] = draw(st.integers(implied_user_sgpr_count(fields), 31))
    if wave32 != 1 and draw(st.booleans()):
        g = 4 if wave32 == 0 else 8
        blocks = (max(fields["next_free_vgpr"], 1) + g - 1) // g - 1
        fields["shared_vgpr_count"] = draw(st.integers(0, min(15, (63 - blocks) // 2)))
    return fields


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(kernel_fields(), min_size=1, max_size=12))
def test_random_descriptors_match_llvm_mc(kernels):
    _check_against_mc({f"k{i}": f for i, f in enumerate(kernels)})


# ---------------------------------------------------------------- errors

_MC_ERR = re.compile(r"error: (.*)")

BAD = [
    ({"next_free_sgpr": 1}, ".amdhsa_next_free_vgpr directive is required"),
    ({"next_free_vgpr": 1}, ".amdhsa_next_free_sgpr directive is required"),
    ({"next_free_vgpr": 513, "next_free_sgpr": 1}, "value out of range"),
    ({"next_free_vgpr": 257, "next_free_sgpr": 1, "wavefront_size32": 0}, "value out of range"),
    ({"next_free_vgpr": 1, "next_free_sgpr": 1, "reserve_vcc": 2}, "value out of range"),
    ({"next_free_vgpr": 1, "next_free_sgpr": 1, "system_vgpr_workitem_id": 4},
     "value out of range"),
    ({"next_free_vgpr": 1, "next_free_sgpr": 1, "kernarg_size": 1 << 32}, "value out of range"),
    ({"next_free_vgpr": 1, "next_free_sgpr": 1, "float_round_mode_32": -1},
     "value out of range"),
    ({"next_free_vgpr": 1, "next_free_sgpr": 1, "reserve_xnack_mask": 1},
     ".amdhsa_reserve_xnack_mask does not match target id"),
    ({"next_free_vgpr": 1, "next_free_sgpr": 1, "user_sgpr_count": 32},
     "too many user SGPRs enabled"),
    ({"next_free_vgpr": 1, "next_free_sgpr": 1, "user_sgpr_count": 1,
      "user_sgpr_dispatch_ptr": 1},
     "amdgpu_user_sgpr_count smaller than than implied by enabled user SGPRs"),
    ({"next_free_vgpr": 1, "next_free_sgpr": 1, "shared_vgpr_count": 1, "wavefront_size32": 1},
     "shared_vgpr_count directive not valid on wavefront size 32"),
    ({"next_free_vgpr": 250, "next_free_sgpr": 1, "shared_vgpr_count": 2,
      "wavefront_size32": 0},
     "shared_vgpr_count*2 + compute_pgm_rsrc1.GRANULATED_WORKITEM_VGPR_COUNT cannot exceed 63"),
    ({"next_free_vgpr": 1, "next_free_sgpr": 1, "user_sgpr_private_segment_buffer": 1},
     "directive is not supported with architected flat scratch"),
    ({"next_free_vgpr": 1, "next_free_sgpr": 1, "system_sgpr_private_segment_wavefront_offset": 0},
     "directive is not supported with architected flat scratch"),
    ({"next_free_vgpr": 1, "next_free_sgpr": 1, "accum_offset": 4}, "directive requires gfx90a+"),
    ({"next_free_vgpr": 1, "next_free_sgpr": 1, "round_robin_scheduling": 0},
     "directive requires gfx12+"),
    ({"next_free_vgpr": 1, "next_free_sgpr": 1, "inst_pref_size": 0},
     "unknown .amdhsa_kernel directive"),
    ({"next_free_vgpr": 1, "next_free_sgpr": 1, "bogus": 0}, "unknown .amdhsa_kernel directive"),
]


@pytest.mark.parametrize("fields,message", BAD)
def test_rejected_like_llvm_mc(fields, message):
    obj, err = assemble(kernel_source({"k": fields}))
    assert not obj
    assert message in _MC_ERR.search(err).group(1)
    with pytest.raises(CodeObjectError) as e:
        kernel_descriptor(fields, T, 0)
    assert message in str(e.value)


def test_field_table_is_what_llvm_mc_accepts():
    """Every AMDHSA_FIELDS directive (at its default) assembles; llvm-objdump's list fits."""
    fields = {n: (v if v is not None else 0) for n, v in default_fields(T).items()}
    fields.update(next_free_vgpr=1, next_free_sgpr=1)
    assert set(fields) == set(AMDHSA_FIELDS) - {"user_sgpr_count"}
    fields["user_sgpr_count"] = 0
    _check_against_mc({"k": fields})
    so, _ = assemble(kernel_source({"k": fields}), link=True)
    listed = objdump_kd_directives(write_temp(so))["k"]
    assert {n for n in listed if not n.startswith("raw:")} <= set(AMDHSA_FIELDS)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(AMDHSA_FIELDS) + ["user_sgpr_flat_scratch_init", "tg_split",
                                                "nonsense", "user_sgpr_kernarg_preload_length"]),
       st.one_of(st.integers(-2, 40), st.sampled_from([255, 256, 511, 512, 513, 1 << 32,
                                                        (1 << 32) - 1])))
@example("user_sgpr_flat_scratch_init", -1)  # found by Hypothesis: the value is read first
@example("nonsense", -1)
def test_check_field_agrees_with_llvm_mc(name, value):
    fields = {"next_free_vgpr": 1, "next_free_sgpr": 1, "wavefront_size32": 1}
    fields[name] = value
    if name == "shared_vgpr_count":
        fields["wavefront_size32"] = 0
    obj, err = assemble(kernel_source({"k": fields}))
    mine = check_field(name, value, T)
    if name == "user_sgpr_count" and value >= 1 << 32:
        # llvm-mc-19 truncates an explicit count to 32 bits first; radcc rejects it
        assert mine == "too many user SGPRs enabled"
    elif obj:
        assert mine is None
    else:
        theirs = _MC_ERR.search(err).group(1)
        if mine is None:  # cross-field errors: kernel_descriptor must reject
            with pytest.raises(CodeObjectError):
                kernel_descriptor(fields, T, 0)
        else:
            assert mine in theirs


# ---------------------------------------------------------------- decoder

def test_decoder_matches_llvm_objdump():
    kernels = {
        "a": {"next_free_vgpr": 9, "next_free_sgpr": 10},
        "b": {"next_free_vgpr": 130, "next_free_sgpr": 3, "wavefront_size32": 0,
              "shared_vgpr_count": 5, "float_denorm_mode_32": 2, "ieee_mode": 0,
              "system_vgpr_workitem_id": 2, "user_sgpr_kernarg_segment_ptr": 1,
              "user_sgpr_dispatch_ptr": 1, "enable_private_segment": 1,
              "private_segment_fixed_size": 96, "group_segment_fixed_size": 4096,
              "kernarg_size": 280, "exception_int_div_zero": 1, "forward_progress": 1,
              "uses_dynamic_stack": 1, "user_sgpr_count": 8},
        "c": {"next_free_vgpr": 512, "next_free_sgpr": 100, "workgroup_processor_mode": 0,
              "memory_ordered": 0, "fp16_overflow": 1, "float_round_mode_16_64": 3},
    }
    so, err = assemble(kernel_source(kernels), link=True)
    assert so, err
    dumped = objdump_kd_directives(write_temp(so))
    co = read_code_object(so)
    for name in kernels:
        mine = decode_kernel_descriptor(co.kernels[name].descriptor_bytes, T)
        for directive, value in dumped[name].items():
            key = directive.removeprefix("raw:")
            if key in ("reserve_vcc", "reserve_xnack_mask"):
                continue  # not recoverable; llvm-objdump prints 0
            assert mine[key] == value, (name, directive)
        assert mine["kernel_code_entry_byte_offset"] == (
            co.kernels[name].entry_address - co.kernels[name].kd_address)


def test_decode_then_encode_round_trips():
    kd = kernel_descriptor({"next_free_vgpr": 24, "next_free_sgpr": 1, "kernarg_size": 8,
                            "user_sgpr_kernarg_segment_ptr": 1}, T, 0x1234)
    d = decode_kernel_descriptor(kd, T)
    fields = {k: v for k, v in d.items() if k in AMDHSA_FIELDS}
    assert kernel_descriptor(fields, T, d["kernel_code_entry_byte_offset"]) == kd


def test_decode_rejects_wrong_size():
    with pytest.raises(CodeObjectError):
        decode_kernel_descriptor(b"\0" * 63)
