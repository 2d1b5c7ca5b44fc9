#version 450
// bilinear sampling of the runner's float-sampled formats: rgba8_srgb (decoded to
// linear before filtering), r8, rgba16f, r16f, rg32f; each result to its own image
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D t0;
layout(set = 0, binding = 1) uniform sampler2D t1;
layout(set = 0, binding = 2) uniform sampler2D t2;
layout(set = 0, binding = 3) uniform sampler2D t3;
layout(set = 0, binding = 4) uniform sampler2D t4;
layout(set = 1, binding = 0, rgba32f) uniform writeonly image2D o0;
layout(set = 1, binding = 1, rgba32f) uniform writeonly image2D o1;
layout(set = 1, binding = 2, rgba32f) uniform writeonly image2D o2;
layout(set = 1, binding = 3, rgba32f) uniform writeonly image2D o3;
layout(set = 1, binding = 4, rgba32f) uniform writeonly image2D o4;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec2 uv = (vec2(p) + vec2(0.3, 0.7)) / 11.3 - 0.21;
    imageStore(o0, p, textureLod(t0, uv, 0.0));
    imageStore(o1, p, textureLod(t1, uv, 0.0));
    imageStore(o2, p, textureLod(t2, uv, 0.0));
    imageStore(o3, p, textureLod(t3, uv, 0.0));
    imageStore(o4, p, textureLod(t4, uv, 0.0));
}
