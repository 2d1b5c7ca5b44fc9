#version 450
// depth compare: sampler2DShadow (textureLod, textureLodOffset), shadow gathers
// (textureGather with a reference, textureGatherOffset), sampler2DArrayShadow (texture
// with grad 0 through textureGrad), samplerCubeShadow (texture via textureGrad: explicit)
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2DShadow sh;
layout(set = 0, binding = 1) uniform sampler2DArrayShadow sha;
layout(set = 0, binding = 2) buffer O { vec4 o[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    int id = p.y * 16 + p.x;
    vec2 uv = (vec2(p) + vec2(0.3, 0.7)) / 13.0 - 0.0937;
    float ref = float((p.x * 7 + p.y * 3) % 11) / 10.0;
    o[id * 4] = vec4(textureLod(sh, vec3(uv, ref), 0.0),
                     textureLodOffset(sh, vec3(uv, ref), 0.0, ivec2(1, -2)),
                     textureGrad(sha, vec4(uv, float(p.x & 1), ref), vec2(0.0), vec2(0.0)),
                     ref);
    o[id * 4 + 1] = textureGather(sh, uv, ref);
    o[id * 4 + 2] = textureGatherOffset(sh, uv, ref, ivec2(-1, 1));
    o[id * 4 + 3] = vec4(textureSize(sha, 0), 0.0);
}
