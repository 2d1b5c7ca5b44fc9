#version 450
// Texel buffer accesses out of range: loads beyond the buffer's elements and stores
// beyond it (issue 11; the hardware's range check, not lavapipe's).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32f) uniform readonly imageBuffer src;   // 40 elements
layout(set = 0, binding = 1) uniform samplerBuffer c4;                 // rgba8, 40 elements
layout(set = 0, binding = 2, r32ui) uniform writeonly uimageBuffer dst; // 24 elements
layout(set = 0, binding = 3) buffer O { vec4 a[64]; vec4 c[64]; };
void main() {
    int i = int(gl_LocalInvocationIndex);
    a[i] = imageLoad(src, i);
    c[i] = texelFetch(c4, i);
    imageStore(dst, i, uvec4(uint(i) * 3u + 1u));
}
