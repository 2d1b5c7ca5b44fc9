#version 450
// rgba8 load and store: channels reordered and inverted (exact round trips of byte/255)
layout(local_size_x = 8, local_size_y = 4) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 c = imageLoad(src, p);
    imageStore(dst, p, vec4(c.b, 1.0 - c.r, c.a, c.g));
}
