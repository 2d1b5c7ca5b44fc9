#version 450
// one texture2D, two separate samplers combined at the call (sampler2D(t, s)), an array
// of two textures at constant indices, and an itexture2D via a nearest sampler
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform texture2D t;
layout(set = 0, binding = 1) uniform sampler sn;
layout(set = 1, binding = 0) uniform sampler sl;
layout(set = 0, binding = 2) uniform itexture2D ti;
layout(set = 1, binding = 1) buffer O { vec4 o[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    int id = p.y * 16 + p.x;
    vec2 uv = (vec2(p) * 1.23 + 0.17) / 16.0;
    o[id * 3] = textureLod(sampler2D(t, sn), uv, 0.0);
    o[id * 3 + 1] = textureLod(sampler2D(t, sl), uv, 0.0);
    o[id * 3 + 2] = vec4(textureLod(isampler2D(ti, sn), uv, 0.0));
}
