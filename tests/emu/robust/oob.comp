#version 450
// Out-of-bounds loads and stores (radcc run --robust vs lavapipe with robustBufferAccess):
// src has 64 uints, dst 64 uints, but 128 invocations run and some index far past the end.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Src { uint src[]; };
layout(set = 0, binding = 1) buffer Dst { uint dst[]; };
layout(push_constant) uniform P { uint far; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint a = src[i];                 // i >= 64: out of bounds, reads 0
    uint b = src[i + far];           // far past the end for every i when far is large
    if (i < 64u) {
        dst[i] = a + 1000u * b + 7u;
    } else {
        dst[i + far] = 0xdeadbeefu;  // out of bounds: dropped
        dst[i] = 0xdeadbeefu;        // i >= 64: out of bounds: dropped
    }
}
