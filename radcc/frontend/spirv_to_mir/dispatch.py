"""The opcode table: `OPS` maps each SPIR-V opcode with its own handler to the
function of its family module; `translate` looks an instruction up (then the
one-to-one ALU opcodes, atomics and subgroup operations by name), as Mesa's
``vtn_handle_body_instruction`` switch.
"""

from __future__ import annotations

from collections.abc import Callable

from ..spirv.binary import Instruction
from ..spirv.debug_lines import LINE_OPS, source_line
from ..spirv.types import TypePointer
from . import (
    alu,
    bfloat16,
    cfg,
    composites,
    coopmat,
    fragment_io,
    glsl450,
    images,
    types_consts,
    variables,
)
from .alu import SIMPLE, emit_alu
from .atomics import ATOMICS, translate_atomic
from .context import MemPtr, TranslationContext, err
from .subgroup import translate_group
from .types_consts import get_value

IGNORED = frozenset({"OpLine", "OpNoLine", "OpNop", "OpSelectionMerge", "OpLoopMerge",
                     "OpName", "OpMemberName", "OpSource", "OpString"})

# the opcodes with a handler of their own
def _op_bitcast(ctx: TranslationContext, ins: Instruction) -> None:
    """OpBitcast; to or from a PhysicalStorageBuffer pointer it converts an address."""
    assert ins.result_type is not None
    if isinstance(ctx.ty(ins.result_type), TypePointer):
        variables.op_convert_u_to_ptr(ctx, ins)
    elif isinstance(types_consts.get_tv(ctx, ins.id(0)), MemPtr):
        variables.op_convert_ptr_to_u(ctx, ins)
    else:
        alu.op_bitcast(ctx, ins)


OPS: dict[str, Callable[[TranslationContext, Instruction], None]] = {
    "OpVariable": variables.op_variable,
    "OpLoad": variables.op_load,
    "OpStore": variables.op_store,
    "OpCopyMemory": variables.op_copy_memory,
    "OpAccessChain": variables.op_access_chain,
    "OpInBoundsAccessChain": variables.op_access_chain,
    "OpPtrAccessChain": variables.op_ptr_access_chain,
    "OpInBoundsPtrAccessChain": variables.op_ptr_access_chain,
    "OpArrayLength": variables.op_array_length,
    "OpFunctionCall": cfg.op_function_call,
    "OpUndef": types_consts.op_undef,
    "OpExtInst": glsl450.op_ext_inst,
    "OpCompositeConstruct": composites.op_composite_construct,
    "OpCooperativeMatrixLoadKHR": coopmat.op_load,
    "OpCooperativeMatrixStoreKHR": coopmat.op_store,
    "OpCooperativeMatrixMulAddKHR": coopmat.op_muladd,
    "OpCooperativeMatrixLengthKHR": coopmat.op_length,
    "OpCompositeExtract": composites.op_composite_extract,
    "OpCompositeInsert": composites.op_composite_insert,
    "OpCopyObject": composites.op_copy_object,
    "OpCopyLogical": composites.op_copy_object,
    "OpVectorShuffle": composites.op_vector_shuffle,
    "OpVectorExtractDynamic": composites.op_vector_extract_dynamic,
    "OpVectorInsertDynamic": composites.op_vector_insert_dynamic,
    "OpSelect": alu.op_select,
    "OpConvertFToU": alu.op_convert_f_to_u,
    "OpConvertFToS": alu.op_convert_f_to_s,
    "OpConvertSToF": alu.op_convert_s_to_f,
    "OpConvertUToF": alu.op_convert_u_to_f,
    "OpUConvert": alu.op_u_convert,
    "OpSConvert": alu.op_s_convert,
    "OpFConvert": alu.op_f_convert,
    "OpQuantizeToF16": alu.op_quantize_to_f16,
    "OpBitcast": _op_bitcast,
    "OpConvertUToPtr": variables.op_convert_u_to_ptr,
    "OpConvertPtrToU": variables.op_convert_ptr_to_u,
    "OpIsNan": alu.op_is_nan,
    "OpAny": alu.op_any,
    "OpAll": alu.op_all,
    "OpDot": alu.op_dot,
    "OpSDot": alu.op_int_dot,
    "OpUDot": alu.op_int_dot,
    "OpSUDot": alu.op_int_dot,
    "OpSDotAccSat": alu.op_int_dot,
    "OpUDotAccSat": alu.op_int_dot,
    "OpSUDotAccSat": alu.op_int_dot,
    "OpFDot2MixAcc32VALVE": alu.op_fdot2_mix,
    "OpFDot2MixAcc16VALVE": alu.op_fdot2_mix,
    "OpVectorTimesScalar": alu.op_vector_times_scalar,
    "OpMatrixTimesScalar": alu.op_matrix_times_scalar,
    "OpMatrixTimesVector": alu.op_matrix_times_vector,
    "OpVectorTimesMatrix": alu.op_vector_times_matrix,
    "OpMatrixTimesMatrix": alu.op_matrix_times_matrix,
    "OpTranspose": alu.op_transpose,
    "OpOuterProduct": alu.op_outer_product,
    "OpIAddCarry": alu.op_i_add_carry,
    "OpISubBorrow": alu.op_i_sub_borrow,
    "OpUMulExtended": alu.op_u_mul_extended,
    "OpSMulExtended": alu.op_s_mul_extended,
    "OpImageRead": images.op_image_read,
    "OpImageWrite": images.op_image_write,
    "OpImageTexelPointer": images.op_image_texel_pointer,
    "OpImageFetch": images.op_image_fetch,
    "OpSampledImage": images.op_sampled_image,
    "OpImage": images.op_image,
    "OpImageSampleExplicitLod": images.op_image_sample,
    "OpImageSampleImplicitLod": images.op_image_sample,
    "OpImageSampleDrefExplicitLod": images.op_image_sample,
    "OpImageSampleDrefImplicitLod": images.op_image_sample,
    "OpImageGather": images.op_image_sample,
    "OpImageDrefGather": images.op_image_sample,
    "OpImageQuerySize": images.op_image_query,
    "OpImageQuerySizeLod": images.op_image_query,
    "OpImageQueryLevels": images.op_image_query,
    "OpImageQuerySamples": images.op_image_query,
    "OpControlBarrier": variables.op_control_barrier,
    "OpMemoryBarrier": variables.op_memory_barrier,
    **fragment_io.OPS,
}


def translate(ctx: TranslationContext, ins: Instruction) -> None:
    """Translate one instruction; the MIR it emits gets the source line in effect
    (`debug_lines.source_line`)."""
    ctx.ins = ins
    op = ins.opname
    if op in LINE_OPS:  # (`source_line` is None for the others)
        line = source_line(ctx.m, ins)
        if line is not None:
            ctx.line = line
    ctx.b.line = ctx.line
    if op in IGNORED:
        return
    if ctx.has_bf16:
        bfloat16.check_arithmetic(ctx, ins)
    if ctx.has_cmat and op in coopmat.ELEMENTWISE and coopmat.is_cmat(ctx, ins.result_type):
        coopmat.op_elementwise(ctx, ins)
        return
    h = OPS.get(op)
    if h is not None:
        h(ctx, ins)
        return
    simple = SIMPLE.get(op)
    if simple is not None:
        mop, swap = simple
        srcs = [get_value(ctx, x) for x in ins.id_tuple()]
        if swap:
            srcs.reverse()
        r = emit_alu(ctx, mop, ins.result_type, srcs)
        if ins.result_id in ctx.no_contraction and mop in ("fadd", "fsub", "fmul") and \
                r.parent is not None:
            r.parent.attrs["exact"] = True  # GLSL precise: never fused into an fma
        ctx.set(ins, r)
        return
    if op in ATOMICS or op.startswith("OpAtomic"):
        translate_atomic(ctx, ins)
        return
    if op.startswith("OpGroupNonUniform"):
        translate_group(ctx, ins)
        return
    raise err("unsupported instruction", ins)
