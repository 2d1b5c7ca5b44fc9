#version 450
// rgba32f written from a buffer, divergent: only some texels, others keep their contents
layout(local_size_x = 16, local_size_y = 2) in;
layout(set = 0, binding = 0, rgba32f) uniform image2D img;
layout(set = 0, binding = 1) readonly buffer In { vec4 v[]; } inp;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint i = gl_GlobalInvocationID.y * 32u + gl_GlobalInvocationID.x;
    if ((p.x + 2 * p.y) % 3 != 0) {
        vec4 old = imageLoad(img, p);
        imageStore(img, p, inp.v[i] * 2.0 + old);
    }
}
