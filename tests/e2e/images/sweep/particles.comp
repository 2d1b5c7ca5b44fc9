#version 450
// particle update with texel buffers: positions and velocities read from a uniform
// texel buffer (samplerBuffer, rgba32f), a velocity field sampled bilinearly from a
// 2-D texture, the new state written to a storage texel buffer (imageBuffer, rgba32f)
// and a particle-count grid updated with imageAtomicAdd
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerBuffer state;
layout(set = 0, binding = 1, rgba32f) uniform writeonly imageBuffer outState;
layout(set = 0, binding = 2) uniform sampler2D field;
layout(set = 0, binding = 3, r32ui) uniform uimage2D grid;
layout(push_constant) uniform P { float dt; int n; } pc;
void main() {
    int i = int(gl_GlobalInvocationID.x);
    if (i >= pc.n) return;
    vec4 pos = texelFetch(state, 2 * i);
    vec4 vel = texelFetch(state, 2 * i + 1);
    vec2 f = textureLod(field, pos.xy, 0.0).xy * 2.0 - 1.0;
    vel.xy = vel.xy * 0.98 + f * pc.dt;
    pos.xy = fract(pos.xy + vel.xy * pc.dt);
    pos.w += pc.dt;
    imageStore(outState, 2 * i, pos);
    imageStore(outState, 2 * i + 1, vel);
    ivec2 cell = ivec2(pos.xy * 8.0);
    imageAtomicAdd(grid, cell, 1u);
}
