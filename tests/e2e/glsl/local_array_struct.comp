#version 450
// A local array of structs (with a vector and an array member), dynamically indexed;
// whole elements copied between dynamic indices; the array passed to a function by value.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uvec4 a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
struct E { uint key; uvec2 v; uint hist[3]; };
uint total(E es[6]) {
    uint t = 0u;
    for (int j = 0; j < 6; j++)
        t += es[j].key * (es[j].v.x + es[j].v.y) + es[j].hist[j % 3];
    return t;
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 x = a[i];
    E es[6];
    for (uint j = 0u; j < 6u; j++) {
        es[j].key = x[j & 3u] + j;
        es[j].v = uvec2(j, x.w >> j);
        es[j].hist[0] = 0u;
        es[j].hist[1] = j * j;
        es[j].hist[2] = x.x & 255u;
    }
    uint s = x.y % 6u, d = x.z % 6u;
    es[d] = es[s];
    es[x.w % 6u].hist[x.x % 3u] += 500u;
    es[s].v.y ^= 0xffu;
    o[3u * i + 0u] = total(es);
    o[3u * i + 1u] = es[d].key + es[d].v.y;
    o[3u * i + 2u] = es[(s + 1u) % 6u].hist[2] + es[x.w % 6u].hist[x.x % 3u];
}
