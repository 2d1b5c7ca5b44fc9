#version 450
// gathers: each component, textureGatherOffset, textureGatherOffsets (constant offsets),
// on an rgba32f texture with a repeat sampler, odd size
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) buffer O { vec4 o[]; };
const ivec2 offs[4] = ivec2[](ivec2(0, 0), ivec2(1, -1), ivec2(-2, 3), ivec2(7, -8));
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    int id = p.y * 16 + p.x;
    vec2 uv = (vec2(p) * 1.37 - 3.1) / vec2(textureSize(tex, 0));
    o[id * 6 + 0] = textureGather(tex, uv, 0);
    o[id * 6 + 1] = textureGather(tex, uv, 1);
    o[id * 6 + 2] = textureGather(tex, uv, 3);
    o[id * 6 + 3] = textureGatherOffset(tex, uv, ivec2(-1, 2), 2);
    o[id * 6 + 4] = textureGatherOffsets(tex, uv, offs, 0);
    o[id * 6 + 5] = textureGatherOffset(tex, uv, ivec2(3, -3));
}
