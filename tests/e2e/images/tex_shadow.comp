#version 450
// depth-compare sampling and gathers through a combined shadow sampler (r32f depth):
// textureLod (level 0), textureGrad, textureLodOffset, textureGather, textureGatherOffset
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2DShadow sh;
layout(set = 1, binding = 0, rgba32f) uniform writeonly image2D o0;
layout(set = 1, binding = 1, rgba32f) uniform writeonly image2D o1;
layout(set = 1, binding = 2, rgba32f) uniform writeonly image2D o2;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec2 uv = (vec2(p) + vec2(0.3, 0.7)) / 13.0 - 0.1;
    float ref = float((p.x * 7 + p.y * 3) % 11) / 10.0;
    vec3 c = vec3(uv, ref);
    imageStore(o0, p, vec4(textureLod(sh, c, 0.0), textureGrad(sh, c, vec2(0.02, 0.0), vec2(0.0, 0.02)),
                           textureLodOffset(sh, c, 0.0, ivec2(-2, 1)), ref));
    imageStore(o1, p, textureGather(sh, uv, ref));
    imageStore(o2, p, textureGatherOffset(sh, uv, ref, ivec2(1, -1)));
}
