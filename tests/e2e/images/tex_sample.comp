#version 450
// textureLod/textureGrad/textureLodOffset through a combined image sampler (rgba8) and
// a separate texture + sampler (rgba32f); each result to its own rgba32f image
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D cs;
layout(set = 0, binding = 1) uniform texture2D t;
layout(set = 0, binding = 2) uniform sampler smp;
layout(set = 1, binding = 0, rgba32f) uniform writeonly image2D o0;
layout(set = 1, binding = 1, rgba32f) uniform writeonly image2D o1;
layout(set = 1, binding = 2, rgba32f) uniform writeonly image2D o2;
layout(set = 1, binding = 3, rgba32f) uniform writeonly image2D o3;
layout(push_constant) uniform P { float lod; } pc;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec2 uv = (vec2(p) + vec2(0.3, 0.7)) / 9.0 - 0.4;
    imageStore(o0, p, textureLod(cs, uv, 0.0));
    imageStore(o1, p, textureLod(sampler2D(t, smp), uv * 1.5 + 0.1, pc.lod));
    imageStore(o2, p, textureGrad(cs, uv, vec2(0.01, 0.0), vec2(0.0, 0.01)));
    imageStore(o3, p, textureLodOffset(cs, uv, 0.0, ivec2(1, -2)));
}
