#version 450
// unnormalized coordinates (the sampler's): texel-space coordinates with textureLod
// and an r32f and an rgba8 texture; 8x8 groups
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D depth;
layout(set = 0, binding = 1) uniform sampler2D col;
layout(set = 0, binding = 2) buffer O { vec4 o[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    int id = p.y * 16 + p.x;
    vec2 xy = vec2(p) * 0.83 - 1.4;
    o[id * 2] = textureLod(depth, xy, 0.0);
    o[id * 2 + 1] = textureLod(col, xy + vec2(0.25, 0.5), 0.0);
}
