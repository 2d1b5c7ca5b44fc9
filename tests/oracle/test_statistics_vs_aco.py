"""radcc's statistics named after ACO's mean what ACO's mean: on a shader both
compile to (nearly) the same instructions, radcc's Latency and InvThroughput are
ACO's own figures (RADV's null device reports them through
VK_KHR_pipeline_executable_properties) within a few percent, in wave32 and
wave64. (Before the statistics followed aco_statistics.cpp, radcc's Latency was
several times ACO's on such shaders.)

Under CI=true a missing radeon ICD fails the test; locally it skips it.
"""

from __future__ import annotations

import os

import pytest

from radcc.driver.compile import compile_spirv
from radcc.oracle import radv

# one load, one fma, one store: ACO and radcc differ by one scalar instruction
SHADER = """
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { float a[]; };
void main() { uint i = gl_GlobalInvocationID.x; a[i] = a[i] * 2.0 + 1.0; }
"""


@pytest.fixture(scope="module")
def radeon() -> None:
    if not radv.available():
        msg = f"radeon ICD {radv.RADEON_ICD} not found (Debian package mesa-vulkan-drivers)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(msg)
        pytest.skip(msg)


@pytest.mark.parametrize("wave", [32, 64])
def test_latency_and_inverse_throughput_agree_with_aco(glsl, radeon, wave):
    spirv = glsl(SHADER)
    aco = radv.compile_compute(spirv, wave_size=wave)
    ours = compile_spirv(spirv, wave_size=wave).stats
    n_aco, n_ours = aco.stat("Instructions"), ours["Instructions"]
    assert abs(n_aco - n_ours) <= 2, (n_aco, n_ours)  # the premise: the same code
    for ours_name, aco_name in (("Latency", "Latency"),
                                ("InvThroughput", "Inverse Throughput")):
        a, r = aco.stat(aco_name), ours[ours_name]
        assert a > 0, aco.stats
        assert abs(r - a) <= 0.05 * a, f"wave{wave} {ours_name}: radcc {r}, ACO {a}"
    assert ours["VClause"] == aco.stat("VMEM Clause")
    assert ours["SClause"] == aco.stat("SMEM Clause")
    assert ours["Branches"] == aco.stat("Branches")


# a uniform if (push constant) and a divergent if (per-lane value): ACO weights the
# blocks of an if's sides by 1/2 (uniform) and 3/4 (divergent, logical side) and the
# linear-only sides by 1/4; radcc's Latency was 23% above ACO's here before it did too
IFS = """
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer A { float a[]; };
layout(push_constant) uniform P { float s; uint k; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = a[i];
  if (k > 3) { x = sqrt(x) * s; }
  if (x > 1.0) { x = exp(x) + s; a[i + 64] = x; }
  a[i] = x;
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_latency_weights_ifs_as_aco(glsl, radeon, wave):
    spirv = glsl(IFS)
    aco = radv.compile_compute(spirv, wave_size=wave)
    ours = compile_spirv(spirv, wave_size=wave).stats
    assert ours["Branches"] == aco.stat("Branches") == 2  # the same two ifs
    for ours_name, aco_name in (("Latency", "Latency"),
                                ("InvThroughput", "Inverse Throughput")):
        a, r = aco.stat(aco_name), ours[ours_name]
        assert abs(r - a) <= 0.06 * a, f"wave{wave} {ours_name}: radcc {r}, ACO {a}"


VS = """
#version 450
layout(location = 0) in vec4 p;
layout(location = 0) out vec4 c;
void main() { gl_Position = p; c = p * 2.0; }
"""
FS = """
#version 450
layout(location = 0) in vec4 c;
layout(location = 0) out vec4 o;
void main() { o = c; }
"""


@pytest.mark.parametrize("wave", [64])
def test_vertex_shader_throughput_has_no_workgroup(glsl, radeon, wave):
    """A vertex shader's waves have no workgroup size: its InvThroughput is ACO's within the
    few instructions the two differ by (radcc divided by a workgroup of 1 before, ~60x).
    Wave32 is not compared yet: radcc's is twice ACO's there (83 vs 40 on this shader, with
    Latency 678 vs 646), a resource of the NGG code that the estimator charges per wave64."""
    vs = glsl(VS, "vulkan1.3", "vert")
    aco = radv.compile_graphics(vs, glsl(FS, "vulkan1.3", "frag"), wave_size=wave)
    a = aco.stages["vertex"].stat("Inverse Throughput")
    r = compile_spirv(vs, wave_size=wave).stats["InvThroughput"]
    assert a > 0 and abs(r - a) <= 0.25 * a, f"wave{wave}: radcc {r}, ACO {a}"
