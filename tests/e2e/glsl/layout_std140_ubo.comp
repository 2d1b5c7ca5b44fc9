#version 450
// A std140 uniform block: float array (stride 16), vec3 + int in its padding, mat4,
// ivec2 array (stride 16); constant and dynamic indexing; results to std430.
layout(std140, set = 0, binding = 0) uniform U {
    float f[8];
    vec3 v;
    int k;
    mat4 m;
    ivec2 iv[3];
} u;
layout(std430, set = 0, binding = 1) writeonly buffer O { float o[]; };
layout(std430, set = 0, binding = 2) writeonly buffer P { vec4 p[]; };
layout(local_size_x = 64) in;
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = u.f[i % 8u] * u.v[i % 3u] + float(u.k) + u.m[i % 4u][(i / 4u) % 4u]
           + float(u.iv[i % 3u].y);
    if (i < 4u)
        p[i] = u.m * vec4(u.f[0], u.f[1], u.f[2], u.f[3]) + vec4(u.iv[i % 3u], u.v.xy);
}
