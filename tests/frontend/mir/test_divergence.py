"""Divergence analysis: each result is stored to its own binding; the stored
value's divergence must be what the seed README / NIR's rules say."""

from __future__ import annotations

from radcc.frontend.divergence import divergence_analysis
from radcc.frontend.mir_print import print_shader
from radcc.frontend.opt import optimize
from radcc.frontend.spirv_to_mir import spirv_to_mir

from .conftest import glsl_to_spirv

SRC = """
#version 450
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(set=0, binding=0) readonly buffer RO { uint ro[]; };
layout(set=0, binding=1) buffer RW { uint rw[]; };
layout(set=1, binding=0) buffer O0 { uint o0; };   // local id: divergent
layout(set=1, binding=1) buffer O1 { uint o1; };   // workgroup id: uniform
layout(set=1, binding=2) buffer O2 { uint o2; };   // read-only load, uniform address
layout(set=1, binding=3) buffer O3 { uint o3; };   // read-only load, divergent address
layout(set=1, binding=4) buffer O4 { uint o4; };   // writable buffer load: divergent
layout(set=1, binding=5) buffer O5 { uint o5; };   // phi after a uniform if
layout(set=1, binding=6) buffer O6 { uint o6; };   // phi after a divergent if
layout(set=1, binding=7) buffer O7 { uint o7; };   // loop-carried, uniform loop
layout(set=1, binding=8) buffer O8 { uint o8; };   // loop-carried, divergent break
layout(set=1, binding=9) buffer O9 { uint o9; };   // subgroup reduction: uniform
layout(set=1, binding=10) buffer O10 { uint o10; }; // atomic: divergent
layout(set=1, binding=11) buffer O11 { uint o11; }; // push constant arithmetic: uniform
layout(push_constant) uniform P { uint n; } pc;
void main() {
    uint l = gl_LocalInvocationID.x;
    uint w = gl_WorkGroupID.x;
    o0 = l * 3u;
    o1 = w + gl_NumWorkGroups.x;
    o2 = ro[w];
    o3 = ro[l];
    o4 = rw[w];
    uint a = 0u;
    if (w > 2u) a = ro[0] + 1u; else a = 5u;
    o5 = a;
    uint b = 0u;
    if (l > 2u) b = 7u; else b = 9u;
    o6 = b;
    uint s = 0u;
    for (uint i = 0u; i < pc.n; i++) s += ro[i];
    o7 = s;
    uint t = 0u;
    for (uint i = 0u; i < 100u; i++) { t += 2u; if (ro[i] == l) break; }
    o8 = t;
    o9 = subgroupAdd(l);
    o10 = atomicAdd(rw[0], 1u);
    o11 = pc.n * 4u + 1u;
}
"""

EXPECT = {0: True, 1: False, 2: False, 3: True, 4: True, 5: False, 6: True, 7: False, 8: True,
          9: False, 10: True, 11: False}


def test_divergence_of_stored_values() -> None:
    shader = spirv_to_mir(glsl_to_spirv(SRC))
    optimize(shader, validate_each=True)
    divergence_analysis(shader)
    got = {}
    for ins in shader.instrs():
        if ins.op == "store_ssbo" and ins.attrs["binding"][0] == 1:
            got[ins.attrs["binding"][1]] = ins.srcs[0].divergent
    assert got == EXPECT, print_shader(shader, divergence=True)


def test_divergence_printed() -> None:
    shader = spirv_to_mir(glsl_to_spirv(SRC))
    optimize(shader)
    divergence_analysis(shader)
    text = print_shader(shader, divergence=True)
    assert "div 32x3" in text and "@load_local_invocation_id" in text
    assert any(line.strip().startswith("con 32x3") and "@load_workgroup_id" in line
               for line in text.splitlines())
