#version 450
// shadow-map filtering: 3x3 percentage-closer filtering with depth-compare samples at
// texel offsets (textureLodOffset on a sampler2DShadow), a 4-tap PCF by
// textureGather(depth, ref) (image_gather4_c), and the raw depths by textureGather
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2DShadow shadowMap;
layout(set = 0, binding = 1) uniform sampler2D depthRaw;
layout(set = 0, binding = 2) buffer Q { vec4 query[]; };
layout(set = 0, binding = 3) buffer O { vec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.y * 16u + gl_GlobalInvocationID.x;
    vec4 q = query[i];
    float s = 0.0;
    s += textureLodOffset(shadowMap, q.xyz, 0.0, ivec2(-1, -1));
    s += textureLodOffset(shadowMap, q.xyz, 0.0, ivec2(0, -1));
    s += textureLodOffset(shadowMap, q.xyz, 0.0, ivec2(1, -1));
    s += textureLodOffset(shadowMap, q.xyz, 0.0, ivec2(-1, 0));
    s += textureLod(shadowMap, q.xyz, 0.0);
    s += textureLodOffset(shadowMap, q.xyz, 0.0, ivec2(1, 0));
    s += textureLodOffset(shadowMap, q.xyz, 0.0, ivec2(-1, 1));
    s += textureLodOffset(shadowMap, q.xyz, 0.0, ivec2(0, 1));
    s += textureLodOffset(shadowMap, q.xyz, 0.0, ivec2(1, 1));
    vec4 g = textureGather(shadowMap, q.xy, q.z);
    vec4 d = textureGather(depthRaw, q.xy, 0);
    o[2u * i] = vec4(s / 9.0, dot(g, vec4(0.25)), g.x, g.w);
    o[2u * i + 1u] = d;
}
