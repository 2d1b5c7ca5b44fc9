#version 450
// textureGatherOffset with offsets that are not constant (per invocation, in -8..7),
// colour and depth-style r32f texture, mirror sampler
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) buffer O { vec4 o[]; };
void main() {
    int i = int(gl_GlobalInvocationID.x);
    vec2 uv = (vec2(i % 8, i / 8) * 1.7 + 0.2) / vec2(textureSize(tex, 0));
    ivec2 off = ivec2(i % 16 - 8, 7 - i % 13);
    o[i * 2] = textureGatherOffset(tex, uv, off, 1);
    o[i * 2 + 1] = textureGatherOffset(tex, uv, -off);
}
