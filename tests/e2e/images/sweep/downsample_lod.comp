#version 450
// texture-space operations at explicit levels: textureLod with a bias-free level 0 and
// a fractional level on a single-level texture (clamped to level 0), textureSize and
// textureQueryLevels, texelFetch of an integer texture, writing a float buffer
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform usampler2D ids;
layout(set = 0, binding = 2) buffer O { vec4 o[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint i = uint(p.y * 16 + p.x);
    vec2 uv = (vec2(p) + vec2(0.25, 0.75)) / 16.0;
    vec4 a = textureLod(tex, uv, 0.0);
    vec4 b = textureLod(tex, uv * 1.5 - 0.2, 2.5);
    uvec4 id = texelFetch(ids, p & 7, 0);
    ivec2 sz = textureSize(tex, 0);
    o[3u * i] = a;
    o[3u * i + 1u] = b;
    o[3u * i + 2u] = vec4(float(id.x & 1023u), float(sz.x * 100 + sz.y), float(textureQueryLevels(tex)), float(id.x >> 20));
}
