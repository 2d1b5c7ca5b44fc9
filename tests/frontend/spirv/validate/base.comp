#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer U { uint u[]; };
layout(set = 0, binding = 1) buffer F { float f[]; };
layout(push_constant) uniform P { uint n; float s; };
shared float tmp[64];
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint acc = 0u;
    for (uint k = 0u; k < n; k++) acc += u[k] * 3u;
    tmp[gl_LocalInvocationID.x] = f[i] + s;
    barrier();
    if (f[i] > 1.0) u[i] = acc + 1u;
    f[i] = tmp[63u - gl_LocalInvocationID.x] * 2.0;
}
