"""The shader-arguments object's own rules (radcc.abi.args.ShaderArgs.validate) on a
hand-built graphics instance and on broken ones, and that compiling a graphics stage
is still refused with a clear error (graphics is a later issue)."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest

from radcc.abi import amdhsa
from radcc.abi.args import AbiError, Arg, ArgKind, ShaderArgs
from radcc.abi.graphics import PS_INPUTS, fragment_args, spi_ps_input_ena
from radcc.abi.kernarg import KernargLayout, shader_layout
from radcc.abi.stage import COMPUTE_CS, FRAGMENT_FS, NAMED_STAGES
from radcc.driver.compile import CompileError, compile_spirv
from radcc.frontend.spirv.errors import SpirvError
from radcc.ir.parser import parse_program
from radcc.passes.hw_copy import LoweringError
from radcc.passes.lower_to_hw import lower_to_hw
from radcc.target import get_target

GFX11 = get_target("gfx1100")
K = ArgKind

# SPI_PS_INPUT_ENA bits (Mesa's sid.h S_0286CC_*_ENA) = the order RADV/ACO declare the
# PS input VGPRs (radv_shader_args.c declare_ps_input_vgprs), with each one's size
SPI_PS_INPUT = [("persp_sample", 2), ("persp_center", 2), ("persp_centroid", 2),
                ("pull_model", 3), ("linear_sample", 2), ("linear_center", 2),
                ("linear_centroid", 2), ("line_stipple_tex", 1), ("frag_pos_x", 1),
                ("frag_pos_y", 1), ("frag_pos_z", 1), ("frag_pos_w", 1), ("front_face", 1),
                ("ancillary", 1), ("sample_coverage", 1), ("pos_fixed_pt", 1)]


def test_ps_inputs_in_hardware_order():
    assert [(k.text, k.size) for k in PS_INPUTS] == SPI_PS_INPUT
    assert [k.rank for k in PS_INPUTS] == list(range(16))


def test_fragment_instance_is_valid():
    a = fragment_args(GFX11, [K.PERSP_CENTER, K.LINEAR_CENTROID, K.FRAG_POS_X, K.FRAG_POS_Y,
                              K.FRONT_FACE], descriptor_sets=2, push_constants=True)
    assert a.stage is FRAGMENT_FS and a.validate(GFX11) is a
    assert [x.text() for x in a.args] == [
        "descriptor_set in s0", "descriptor_set[1] in s1", "push_constants in s2",
        "prim_mask in s3", "persp_center in v[0:1]", "linear_centroid in v[2:3]",
        "frag_pos_x in v4", "frag_pos_y in v5", "front_face in v6"]
    assert (a.num_user_sgprs, a.num_sgprs, a.num_vgprs) == (3, 4, 7)
    assert spi_ps_input_ena(a) == 1 << 1 | 1 << 6 | 1 << 8 | 1 << 9 | 1 << 12
    # a hand-built one equal to it is accepted too
    ShaderArgs(FRAGMENT_FS, a.args, packed_local_ids=False).validate(GFX11)


def _ps(*args: Arg) -> ShaderArgs:
    return ShaderArgs(FRAGMENT_FS, args, packed_local_ids=False)


@pytest.mark.parametrize(("args", "msg"), [
    (_ps(Arg(K.PRIM_MASK, 0), Arg(K.FRAG_POS_Y, 0), Arg(K.FRAG_POS_X, 1)),
     "frag_pos_x in v1 out of the hardware's order"),
    (_ps(Arg(K.PRIM_MASK, 0), Arg(K.PERSP_CENTER, 0), Arg(K.FRONT_FACE, 3)),
     "front_face in v3, expected v2"),
    (_ps(Arg(K.PRIM_MASK, 0), Arg(K.DESCRIPTOR_SET, 1)),
     "user SGPR descriptor_set in s1 after a system SGPR"),
    (_ps(Arg(K.WORKGROUP_ID_X, 0)), "workgroup_id_x is not an argument of the hardware PS"),
    (_ps(Arg(K.DESCRIPTOR_SET, 0), Arg(K.DESCRIPTOR_SET, 1)), "descriptor_set given twice"),
    (_ps(*(Arg(K.INLINE_PUSH_CONSTANT, i, index=i) for i in range(33))),
     "33 user SGPRs \\(at most 32\\)"),
    (ShaderArgs(NAMED_STAGES["vertex_vs"], ()), "stage vertex_vs does not exist on gfx1100"),
    (ShaderArgs(COMPUTE_CS, (Arg(K.WORKGROUP_ID_X, 0), Arg(K.LOCAL_INVOCATION_IDS, 0)),
                shader_layout([(0, 0)], 0), local_id_dims=1),
     "a kernarg layout without the kernarg segment pointer"),
    (ShaderArgs(COMPUTE_CS, (Arg(K.LOCAL_INVOCATION_ID_X, 0),), local_id_dims=1),
     "local_invocation_id_x in v0, but the local invocation ids are packed"),
    (ShaderArgs(COMPUTE_CS, (Arg(K.WORKGROUP_ID_X, 0), Arg(K.KERNARG_SEGMENT_PTR, 1),
                             Arg(K.LOCAL_INVOCATION_IDS, 0)), local_id_dims=1),
     "user SGPR kernarg_segment_ptr in s\\[1:2\\] after a system SGPR"),
    (ShaderArgs(COMPUTE_CS, (Arg(K.KERNARG_SEGMENT_PTR, 0), Arg(K.DISPATCH_PTR, 2),
                             Arg(K.LOCAL_INVOCATION_IDS, 0)), local_id_dims=1),
     "dispatch_ptr in s\\[2:3\\] out of the hardware's order"),
    (ShaderArgs(COMPUTE_CS, (Arg(K.LOCAL_INVOCATION_IDS, 0),), local_id_dims=4),
     "4 local invocation id dimensions"),
])
def test_validation_refuses(args, msg):
    with pytest.raises(AbiError, match=msg):
        args.validate(GFX11)


def test_compute_instance_unpacked_ids_on_gfx10():
    t = get_target("gfx1030")
    a = amdhsa.kernel_args(t, workgroup_ids=(True, True, False), local_id_dims=3,
                           kernargs=shader_layout([(0, 0)], 4))
    assert [x.text() for x in a.args] == [
        "kernarg_segment_ptr in s[0:1]", "workgroup_id_x in s2", "workgroup_id_y in s3",
        "local_invocation_id_x in v0", "local_invocation_id_y in v1",
        "local_invocation_id_z in v2"]
    with pytest.raises(AbiError, match="2 local invocation id VGPRs for 3 dimensions"):
        ShaderArgs(COMPUTE_CS, a.args[:-1], packed_local_ids=False,
                   local_id_dims=3).validate(t)


def test_kernarg_layout_rules():
    lay = KernargLayout()
    assert lay.add_value("n", 4, "uint").offset == 0
    assert lay.add_buffer("p").offset == 8  # 8-aligned
    assert lay.add_value("d", 8, "double").offset == 16
    assert lay.add_value("s", 12, "struct", align=4).offset == 24
    assert (lay.end, lay.size) == (36, 40)
    bad = KernargLayout()
    bad.entries += [lay.entries[1], lay.entries[1]]
    with pytest.raises(AbiError, match="overlaps"):
        amdhsa.kernel_args(GFX11, kernargs=bad)


def test_compile_refuses_graphics():
    geom = ("#version 450\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n"
            "void main() { gl_Position = vec4(1.0); EmitVertex(); }\n")
    with tempfile.TemporaryDirectory() as d:
        src, out = Path(d, "s.geom"), Path(d, "s.spv")
        src.write_text(geom)
        subprocess.run(["glslangValidator", "-V", str(src), "-o", str(out)], check=True,
                       capture_output=True)
        spirv = out.read_bytes()
    with pytest.raises((CompileError, SpirvError), match="Geometry"):
        compile_spirv(spirv)
    # machine IR of a fragment program: graphics programs come from isel with their
    # shader arguments, the IR has none
    p = parse_program("program gfx1100 wave32 fragment\nBB0\n"
                      "/* logical preds: / linear preds: / kind: top-level, */\n"
                      "   s2: %1:s[0-1] = p_startpgm\n   s_endpgm\n")
    with pytest.raises(LoweringError, match="a fragment_fs program without its shader "
                                            "arguments"):
        lower_to_hw(p)


LOCAL_Y = """#version 450
layout(local_size_x = 4, local_size_y = 2) in;
layout(set = 0, binding = 0) buffer B { uint o[]; };
void main() { o[gl_LocalInvocationIndex] = gl_LocalInvocationID.y * 100u + gl_LocalInvocationID.x; }
"""


@pytest.mark.parametrize(("mcpu", "defs"), [
    ("gfx1100", ["s[0-1]", "s[2]", "s[3]", "s[4]", "v[0]"]),  # ids packed in v0
    ("gfx1030", ["s[0-1]", "s[2]", "s[3]", "s[4]", "v[0]", "v[1]"]),  # x in v0, y in v1
])
def test_isel_defines_the_instances_registers(mcpu, defs):
    from radcc.frontend.divergence import divergence_analysis
    from radcc.frontend.opt import lower_for_isel
    from radcc.frontend.spirv_to_mir import spirv_to_mir
    from radcc.ir.printer import instruction_text
    from radcc.isel import select_program

    with tempfile.TemporaryDirectory() as d:
        src, out = Path(d, "s.comp"), Path(d, "s.spv")
        src.write_text(LOCAL_Y)
        subprocess.run(["glslangValidator", "-V", str(src), "-o", str(out)], check=True,
                       capture_output=True)
        spirv = out.read_bytes()
    target = get_target(mcpu)
    shader = spirv_to_mir(spirv)
    lower_for_isel(shader, target.mir_options, 32)
    divergence_analysis(shader)
    res = select_program(shader, target, 32)
    p = res.program
    start = p.blocks[0].instructions[0]
    assert start.opcode == "p_startpgm" and start.fields["workitem_id"] == 1
    assert [d.phys.text(d.rc) for d in start.definitions] == defs
    assert p.args is res.args and res.args.kernargs is not None
    text = "\n".join(instruction_text(p, i) for b in p.blocks for i in b.instructions)
    # GFX11 extracts y from v0's bits 10-19; GFX10 reads v1 as it is
    assert ("v_bfe_u32" in text) == (mcpu == "gfx1100")
