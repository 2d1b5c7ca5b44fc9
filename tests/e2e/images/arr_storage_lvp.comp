#version 450
// Arrays of storage images indexed by a constant and a push constant: compared with
// lavapipe (tests/e2e/test_buffer_arrays.py).
layout(local_size_x = 4) in;
layout(set = 0, binding = 0, r32f) uniform readonly image2D src[3];
layout(set = 0, binding = 1) buffer Out { float o[]; };
layout(push_constant) uniform P { uint k; } pc;
void main() {
    uint i = gl_LocalInvocationIndex;
    o[i] = imageLoad(src[pc.k], ivec2(i, 0)).x + imageLoad(src[1], ivec2(i, 0)).x * 100.0;
}
