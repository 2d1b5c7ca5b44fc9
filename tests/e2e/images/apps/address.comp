#version 450
// addressing with coordinates well outside [0, 1] on a 13x7 image: the sampler's mode
// decides; nearest and linear through two combined samplers of the same texture data
layout(local_size_x = 16, local_size_y = 4) in;
layout(set = 0, binding = 0) uniform sampler2D tn;
layout(set = 0, binding = 1) uniform sampler2D tl;
layout(set = 0, binding = 2) buffer O { vec4 o[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    int id = p.y * 48 + p.x;
    vec2 uv = vec2(float(p.x) * 0.0731 - 1.63, float(p.y) * 0.173 - 1.21);
    o[id * 2] = textureLod(tn, uv, 0.0);
    o[id * 2 + 1] = textureLod(tl, uv, 0.0);
}
