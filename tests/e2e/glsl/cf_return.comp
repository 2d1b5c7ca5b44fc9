#version 450
// Early returns: a divergent return from main before some stores, returns inside loops of
// called functions, several return points.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) buffer O { uint o[]; };
uint find_first(uint v, uint bit) {
    for (uint j = 0u; j < 32u; j++)
        if ((v >> j & 1u) == bit)
            return j;
    return 99u;
}
uint classify(uint v) {
    if (v < 100u)
        return 1u;
    if ((v & 1u) == 0u) {
        if (v % 3u == 0u)
            return 2u;
        return 3u;
    }
    return v % 7u == 0u ? 4u : 5u;
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = a[i];
    o[4u * i + 0u] = find_first(v, 1u);
    o[4u * i + 1u] = find_first(v, 0u);
    if ((v & 3u) == 0u)
        return;
    o[4u * i + 2u] = classify(v >> (v & 15u));
    if (v % 5u == 0u)
        return;
    o[4u * i + 3u] = 7u;
}
