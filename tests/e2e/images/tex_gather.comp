#version 450
// textureGather / textureGatherOffset (component select) through a combined image sampler
// (rgba8 or r8), a separate texture + sampler (rgba32f) and an integer texture (rgba32ui);
// each result to its own image
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D cs;
layout(set = 0, binding = 1) uniform texture2D t;
layout(set = 0, binding = 2) uniform sampler smp;
layout(set = 0, binding = 3) uniform usampler2D us;
layout(set = 1, binding = 0, rgba32f) uniform writeonly image2D o0;
layout(set = 1, binding = 1, rgba32f) uniform writeonly image2D o1;
layout(set = 1, binding = 2, rgba32f) uniform writeonly image2D o2;
layout(set = 1, binding = 3, rgba32f) uniform writeonly image2D o3;
layout(set = 1, binding = 4, rgba32ui) uniform writeonly uimage2D o4;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec2 uv = (vec2(p) + vec2(0.3, 0.7)) / 9.0 - 0.4;
    imageStore(o0, p, textureGather(cs, uv));
    imageStore(o1, p, textureGather(cs, uv, 3));
    imageStore(o2, p, textureGatherOffset(sampler2D(t, smp), uv * 1.5, ivec2(-1, 2), 1));
    imageStore(o3, p, textureGatherOffset(cs, uv, ivec2(3, 0), 2));
    imageStore(o4, p, textureGatherOffset(us, uv, ivec2(-4, 3), 2));
}
