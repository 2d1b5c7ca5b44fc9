#version 450
// for loops: nested with divergent trip counts, a constant trip count (unrollable), a
// counting-down loop, loop-carried values (a Fibonacci pair) and a uniform bound from a
// push constant.
layout(local_size_x = 64) in;
layout(push_constant) uniform PC { uint rounds; } pc;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = a[i];
    uint n = v % 17u, m = (v >> 8) % 9u;
    uint acc = 0u;
    for (uint j = 0u; j < n; j++)
        for (uint k = 0u; k <= m; k++)
            acc += j * 31u + k * v;
    uint c = 0u;
    for (int j = 0; j < 8; j++)
        c = c * 3u + (v >> (j * 4) & 15u);
    uint d = v;
    for (int j = int(n); j > 0; j -= 2)
        d ^= d << 3 | uint(j);
    uint f0 = 0u, f1 = 1u;
    for (uint j = 0u; j < n + 5u; j++) {
        uint t = f0 + f1;
        f0 = f1;
        f1 = t;
    }
    uint u = 0u;
    for (uint j = 0u; j < pc.rounds; j++)
        u += (v >> j) & 1u;
    o[5u * i + 0u] = acc;
    o[5u * i + 1u] = c;
    o[5u * i + 2u] = d;
    o[5u * i + 3u] = f0;
    o[5u * i + 4u] = u;
}
