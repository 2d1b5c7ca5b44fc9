#version 450
// r32i, rgba32i, rg32f, rgba16f, r8, rgba8ui: loads and stores of each
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, r32i) uniform iimage2D si;
layout(set = 0, binding = 1, rgba32i) uniform iimage2D si4;
layout(set = 0, binding = 2, rg32f) uniform image2D f2;
layout(set = 0, binding = 3, rgba16f) uniform image2D h4;
layout(set = 0, binding = 4, r8) uniform image2D u8;
layout(set = 0, binding = 5, rgba8ui) uniform uimage2D u8x4;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    int s = imageLoad(si, p).x;
    ivec4 s4 = imageLoad(si4, p);
    imageStore(si, p, ivec4(-s + s4.y));
    imageStore(si4, p, ivec4(s4.w, s, s4.x - s4.z, -7));
    vec2 f = imageLoad(f2, p).xy;
    imageStore(f2, p, vec4(f.y, f.x * 0.5, 0.0, 0.0));
    vec4 h = imageLoad(h4, p);
    imageStore(h4, p, vec4(h.w, h.z, h.y, h.x) * 2.0);
    float r = imageLoad(u8, p).x;
    imageStore(u8, p, vec4(1.0 - r));
    uvec4 u = imageLoad(u8x4, p);
    imageStore(u8x4, p, uvec4(u.y, u.x, u.w + 1u, 255u));
}
