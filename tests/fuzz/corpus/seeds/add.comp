#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
layout(push_constant) uniform P { uint k; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if ((a[i] & 1u) != 0u) b[i] = a[i] * 3u + pc.k; else b[i] = a[i] >> 1;
}
