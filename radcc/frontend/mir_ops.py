"""The MIR opcode table.

``ALU_OPS[name]`` gives the number of sources and the type each source and the
result are read as ("int", "uint", "float", "bool"; "any" when the bits are
moved unchanged). ``INTRINSICS[name]`` gives the sources, whether there is a
result, and whether the intrinsic may be removed when unused (``eliminable``)
or merged with an identical one (``reorderable``, for CSE). What each ALU opcode
computes is ``mir_eval.eval_alu`` (NumPy, imported by the compile only when it
folds a constant).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class AluInfo:
    srcs: tuple[str, ...]  # type each source is read as
    dest: str
    per_component: bool = True  # sources have the destination's component count


ALU_OPS: dict[str, AluInfo] = {}


def _def(names: str, srcs: tuple[str, ...], dest: str, per_component: bool = True) -> None:
    for n in names.split():
        ALU_OPS[n] = AluInfo(srcs, dest, per_component)


I2, U2, F1, F2, F3 = ("int", "int"), ("uint", "uint"), ("float",), ("float",) * 2, ("float",) * 3
_def("iadd isub imul imul_high idiv irem imod imin imax", I2, "int")
_def("umul_high udiv umod umin umax uadd_carry usub_borrow", U2, "uint")
_def("ishl ishr ushr", ("int", "uint"), "int")
_def("iand ior ixor", U2, "uint")
_def("inot ineg iabs isign bitfield_reverse bit_count ufind_msb ifind_msb find_lsb", ("int",), "int")
_def("bitfield_insert", ("uint", "uint", "uint", "uint"), "uint")
_def("ibitfield_extract", ("int", "uint", "uint"), "int")
_def("ubitfield_extract", ("uint", "uint", "uint"), "uint")
_def("fadd fsub fmul fdiv fmin fmax fpow fmod frem fatan2 fstep", F2, "float")
_def("ffma flrp", F3, "float")
_def(
    "fneg fabs fsign ffloor fceil ftrunc fround_even ffract fsqrt frsq frcp fexp2 flog2 "
    "fsin fcos ftan fasin facos fatan fsinh fcosh ftanh fasinh facosh fatanh fsat",
    F1,
    "float",
)
_def("fldexp", ("float", "int"), "float")
_def("ffrexp_sig", F1, "float")
_def("ffrexp_exp", F1, "int")
_def("ieq ine ilt ige", I2, "bool")
_def("ult uge", U2, "bool")
_def("feq fneu flt fge fequ fneo fltu fgeu", F2, "bool")
_def("fisinf", F1, "bool")
_def("bcsel", ("bool", "any", "any"), "any")
_def("mov", ("any",), "any", per_component=False)
for _n in (2, 3, 4, 8, 16):
    _def(f"vec{_n}", ("any",) * _n, "any", per_component=False)
_def("bitcast", ("any",), "any", per_component=False)
_def("pack_half_2x16 pack_unorm_2x16 pack_snorm_2x16", ("float",), "uint", per_component=False)
_def("pack_unorm_4x8 pack_snorm_4x8", ("float",), "uint", per_component=False)
_def("unpack_half_2x16 unpack_unorm_2x16 unpack_snorm_2x16", ("uint",), "float", False)
_def("unpack_unorm_4x8 unpack_snorm_4x8", ("uint",), "float", per_component=False)
for _b in (8, 16, 32, 64):
    _def(f"i2i{_b} u2u{_b} f2i{_b} f2u{_b} b2i{_b}", ("any",), "int")
for _b in (16, 32, 64):
    _def(f"i2f{_b} u2f{_b} f2f{_b} b2f{_b}", ("any",), "float")

# machine-level operations the isel lowering (opt/lower_*) produces; hardware semantics
_def("pack_64_2x32_split", U2, "uint")  # lo, hi -> 64-bit
_def("unpack_64_2x32_split_x unpack_64_2x32_split_y", ("uint",), "uint")  # low / high half
_def("ubfe", U2 + ("uint",), "uint")  # v_bfe_u32: offset and count modulo 32
_def("ibfe", ("int", "uint", "uint"), "int")  # v_bfe_i32
_def("bfm", U2, "uint")  # v_bfm_b32: ((1 << (count & 31)) - 1) << (offset & 31)
_def("bfi", U2 + ("uint",), "uint")  # v_bfi_b32: (s0 & s1) | (~s0 & s2)
_def("fsin_amd fcos_amd", F1, "float")  # v_sin/v_cos: the argument in revolutions
_def("pack_half_2x16_split", F2, "uint")  # f32 x, y -> f16 bits (round to nearest even)
_def("unpack_half_2x16_split_x unpack_half_2x16_split_y", ("uint",), "float")
# v_cvt_pk_norm_i16_f32 / _u16_f32: each f32 clamped to [-1, 1] / [0, 1], scaled by
# 32767 / 65535, rounded to nearest even (NaN -> 0); x in bits 0-15, y in 16-31
_def("pack_snorm_2x16_split pack_unorm_2x16_split", F2, "uint")
# v_cvt_pk_u8_f32 x, k, acc: byte k (mod 4) of acc replaced by x rounded to nearest even
# and saturated to [0, 255] (isel's use: x already an integer in range)
_def("cvt_pk_u8_f32", ("float", "uint", "uint"), "uint")
# integer dot products of the four bytes of a and b plus c, wrapping to 32 bits (NIR's
# sdot_4x8_iadd: both signed, udot_4x8_uadd: both unsigned, sudot_4x8_iadd: a signed, b
# unsigned); lowered to bytes where the target has no instruction (MirOptions.lowered_ops)
DOT_4X8 = {"sdot_4x8_iadd": (True, True), "udot_4x8_uadd": (False, False),
           "sudot_4x8_iadd": (True, False)}
_def(" ".join(DOT_4X8), U2 + ("uint",), "uint")

CONVERSION = re.compile(r"^([iufb])2([iuf])(\d+)$")
COMMUTATIVE = frozenset(
    "iadd imul imul_high umul_high imin imax umin umax iand ior ixor fadd fmul fmin fmax "
    "ieq ine feq fneu fequ fneo uadd_carry".split()
)


@dataclass(frozen=True)
class IntrinsicInfo:
    srcs: int  # -1: variable
    dest: bool
    eliminable: bool = True  # no side effect: removable when unused
    reorderable: bool = False  # a pure function of its sources (CSE)


INTRINSICS: dict[str, IntrinsicInfo] = {}


def _intr(names: str, srcs: int, dest: bool, elim: bool = True, reorder: bool = False) -> None:
    for n in names.split():
        INTRINSICS[n] = IntrinsicInfo(srcs, dest, elim, reorder)


SYSTEM_VALUES = (
    "load_global_invocation_id load_local_invocation_id load_local_invocation_index "
    "load_workgroup_id load_num_workgroups load_workgroup_size load_subgroup_size "
    "load_subgroup_invocation load_subgroup_id load_num_subgroups load_subgroup_eq_mask "
    "load_subgroup_ge_mask load_subgroup_gt_mask load_subgroup_le_mask load_subgroup_lt_mask"
)
_intr(SYSTEM_VALUES, 0, True, reorder=True)
# vertex shaders on NGG (docs/mir.md "Vertex shaders"): system values, the vertex fetch
# (index -> the input's components; attrs: location), the outputs (value; attrs: slot,
# location) and the NGG work (isel: radcc/isel/vertex.py)
VERTEX_SYSTEM_VALUES = (
    "load_vertex_index load_instance_index load_base_vertex load_base_instance "
    "load_vertex_id_zero_base load_instance_id "
    "load_merged_wave_info load_gs_tg_info load_packed_passthrough_primitive"
)
_intr(VERTEX_SYSTEM_VALUES, 0, True, reorder=True)
_intr("load_input", 1, True, reorder=True)
# lane < (src & 127), src uniform (a count up to the wave size in its low 7 bits, the rest
# ignored): ACO's is_subgroup_invocation_lt_amd (s_bfm of the count)
_intr("is_subgroup_invocation_lt", 1, True, reorder=True)
_intr("store_output", 1, False, elim=False)
_intr("sendmsg_gs_alloc_req", 2, False, elim=False)
_intr("export_primitive", 1, False, elim=False)
_intr("export_vertex", 0, False, elim=False)
_intr("load_ubo load_push_constant", 1, True, reorder=True)
# byte address in the shader's constant data (opt.lower_local_arrays; ACO's p_constaddr)
_intr("load_constant", 1, True, reorder=True)
_intr("get_ssbo_size", 0, True, reorder=True)
# an element of an array of buffer descriptors (attrs: binding): index -> its 4-dword
# buffer resource (V#: base address in dwords 0-1 [47:0], size in bytes in dword 2)
_intr("load_buffer_descriptor", 1, True, reorder=True)
_intr("load_ssbo load_shared", 1, True)  # reorderable when attrs["access"] has "readonly"
_intr("store_ssbo store_shared", 2, False, elim=False)
_intr("ssbo_atomic shared_atomic", 2, True, elim=False)
_intr("ssbo_atomic_swap shared_atomic_swap", 3, True, elim=False)
# buffer device address (docs/mir.md "Memory"): one component at a 64-bit address
# (load: address; store: value, address; atomics: address, data[, new])
_intr("load_global", 1, True)
_intr("store_global", 2, False, elim=False)
_intr("global_atomic", 2, True, elim=False)
_intr("global_atomic_swap", 3, True, elim=False)
# images (attrs: binding, dim): image_load coord -> texel (the texel's components);
# image_store coord, texel; sizes and level counts (docs/mir.md "Images")
_intr("image_load", 1, True)
_intr("image_load_lod", 2, True)  # coord, level
_intr("image_store", 2, False, elim=False)
# atomics on a texel of an R32ui/R32i storage image: coord, data (swap: coord, compare,
# new); attrs atomic_op as the buffer atomics'; the result is the texel's old value
_intr("image_atomic", 2, True, elim=False)
_intr("image_atomic_swap", 3, True, elim=False)
_intr("image_size", 1, True, reorder=True)  # level -> width[, height[, depth]]
_intr("image_levels", 0, True, reorder=True)
_intr("image_samples", 0, True, reorder=True)  # a multisampled image's sample count
# coord, lod | coord, ddx, ddy (attrs: sampler binding, grad, constant texel offset)
_intr("image_sample", -1, True)
_intr("barrier", 0, False, elim=False)
_intr("load_scratch", 1, True)  # per-invocation private memory (opt.lower_local_arrays)
_intr("store_scratch", 2, False, elim=False)
_intr("deref_var", 0, True, reorder=True)
_intr("deref_array", 2, True, reorder=True)
_intr("deref_struct", 1, True, reorder=True)
_intr("load_deref", 1, True)
_intr("store_deref", 2, False, elim=False)
_intr("elect", 0, True)
_intr("vote_all vote_any vote_ieq vote_feq ballot inverse_ballot read_first_invocation", 1, True)
_intr("ballot_bit_count_reduce ballot_bit_count_inclusive ballot_bit_count_exclusive", 1, True)
_intr("ballot_find_lsb ballot_find_msb", 1, True)
_intr("ballot_bitfield_extract read_invocation shuffle shuffle_xor shuffle_up shuffle_down", 2, True)
_intr("quad_broadcast", 2, True)
_intr("quad_swap_horizontal quad_swap_vertical quad_swap_diagonal", 1, True)
_intr("reduce inclusive_scan exclusive_scan", 1, True)
# D = A x B + C on GFX11 WMMA (spirv_to_mir/coopmat.py): the invocation's elements of A,
# B and C as sources, D's as the result vector (attrs ab, cd, a_signed, b_signed,
# saturate)
_intr("cmat_muladd_amd", -1, True, reorder=True)
# fragment shaders (docs/mir.md "Fragment shaders"): inputs (attrs location, component,
# interp, at, base), built-in inputs, outputs (attrs location (-1: depth), component,
# base), discards and derivatives (not movable across control flow: helper lanes and
# quads)
_intr("load_interpolated_input load_frag_coord load_front_face load_point_coord "
      "load_sample_id", 0, True, reorder=True)
_intr("load_helper_invocation", 0, True)
_intr("store_fragment_output", 1, False, elim=False)
_intr("terminate demote", 0, False, elim=False)
_intr("ddx ddy ddx_fine ddy_fine ddx_coarse ddy_coarse", 1, True)

# subgroup operations: their result depends on which lanes are active (not movable
# across control flow, not merged across blocks by CSE)
SUBGROUP_OPS = frozenset(
    n for n in INTRINSICS if n.startswith(("vote_", "ballot", "read_", "shuffle", "quad_"))
) | {"elect", "reduce", "inclusive_scan", "exclusive_scan", "inverse_ballot"}

ATOMIC_OPS = ("iadd", "imin", "umin", "imax", "umax", "iand", "ior", "ixor", "xchg", "fadd",
              "fmin", "fmax", "cmpxchg")
REDUCTION_OPS = ("iadd", "imul", "fadd", "fmul", "imin", "umin", "fmin", "imax", "umax",
                 "fmax", "iand", "ior", "ixor")


def is_alu(op: str) -> bool:
    return op in ALU_OPS
