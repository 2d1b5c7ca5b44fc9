#version 450
// out-of-range image reads and writes: imageLoad outside the image (0 on AMD hardware),
// imageStore outside (dropped), texelFetch outside a samplerBuffer
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba32f) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba32f) uniform writeonly image2D dst;
layout(set = 0, binding = 2, r32ui) uniform readonly uimageBuffer tb;
layout(set = 0, binding = 3) buffer O { vec4 o[]; };
layout(set = 0, binding = 4) buffer U { uint u[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    int id = p.y * 16 + p.x;
    o[id] = imageLoad(src, p - 4);
    imageStore(dst, p * 2 - 3, vec4(p, id, 1.0));
    u[id] = imageLoad(tb, id - 20).x;
}
