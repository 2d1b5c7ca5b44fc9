#version 450
// imageLoad then imageStore of a storage image declared with a packed format
// (FMT: rgb10_a2, rgb10_a2ui, r11f_g11f_b10f; IMAGE, VEC4 to match)
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, FMT) uniform IMAGE img;
layout(set = 0, binding = 1, std430) writeonly buffer Out { VEC4 o[]; };
layout(set = 0, binding = 2, std430) readonly buffer In { VEC4 v[]; };

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint i = gl_GlobalInvocationID.y * 8u + gl_GlobalInvocationID.x;
    o[i] = imageLoad(img, p);
    imageStore(img, p, v[i]);
}
