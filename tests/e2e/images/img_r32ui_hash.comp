#version 450
// r32ui and rgba32ui: integer texels, exact
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32ui) uniform readonly uimage2D a;
layout(set = 1, binding = 2, rgba32ui) uniform uimage2D b;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint x = imageLoad(a, p).x;
    uvec4 y = imageLoad(b, p);
    imageStore(b, p, uvec4(x ^ y.w, y.x * 3u + x, y.y >> 3, x + uint(p.x * 16 + p.y)));
}
