#version 450
// Push constants: a block of uint, float, int array, vec4, uvec2 (std430 offsets 0, 4, 8,
// 32, 48); a bound on the invocations read from it.
layout(push_constant) uniform PC {
    uint n;
    float scale;
    int offs[4];
    vec4 bias;
    uvec2 mask;
} pc;
layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) buffer O { float o[]; };
layout(std430, set = 0, binding = 2) writeonly buffer U { uint u[]; };
layout(local_size_x = 64) in;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.n)
        o[i] = a[i] * pc.scale + pc.bias[i & 3u] + float(pc.offs[(i >> 2) & 3u]);
    u[i] = (i & pc.mask.x) | pc.mask.y;
}
