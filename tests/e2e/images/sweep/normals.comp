#version 450
// normal map from a height map: central differences by texelFetchOffset on an r32f
// texture (clamped at the border by the caller's 1-texel margin), the normal packed
// into an rgba8 image (n * 0.5 + 0.5) and its ambient occlusion-like cavity term into a
// float buffer
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D height;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D nrm;
layout(set = 0, binding = 2) buffer O { float cav[]; };
layout(push_constant) uniform P { float scale; } pc;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy) + 1;
    float l = texelFetchOffset(height, p, 0, ivec2(-1, 0)).r;
    float r = texelFetchOffset(height, p, 0, ivec2(1, 0)).r;
    float d = texelFetchOffset(height, p, 0, ivec2(0, -1)).r;
    float u = texelFetchOffset(height, p, 0, ivec2(0, 1)).r;
    float c = texelFetch(height, p, 0).r;
    vec3 n = normalize(vec3((l - r) * pc.scale, (d - u) * pc.scale, 2.0));
    imageStore(nrm, p - 1, vec4(n * 0.5 + 0.5, 1.0));
    cav[gl_GlobalInvocationID.y * 16u + gl_GlobalInvocationID.x] = (l + r + d + u) * 0.25 - c;
}
