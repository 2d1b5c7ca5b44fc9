#version 450
// Function calls: in/out/inout parameters, struct return values, array parameters (by
// value), call chains, calls inside divergent branches and loops.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
struct Pair { uint lo; uint hi; };
Pair split(uint v) { return Pair(v & 0xffffu, v >> 16); }
uint join(Pair p) { return p.hi << 16 | p.lo; }
void minmax(uint x, uint y, out uint mn, out uint mx) {
    mn = min(x, y);
    mx = max(x, y);
}
void bump(inout uint x, uint by) { x += by; }
uint sum4(uint arr[4]) { return arr[0] + arr[1] + arr[2] + arr[3]; }
uint mix3(uint x) {
    Pair p = split(x * 2654435761u);
    uint t = p.lo;
    p.lo = p.hi;
    p.hi = t;
    return join(p);
}
uint rec_like(uint x, uint depth) {
    uint r = x;
    for (uint d = 0u; d < depth; d++)
        r = mix3(r) ^ d;
    return r;
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = a[i];
    uint mn, mx;
    minmax(v & 0xffffu, v >> 16, mn, mx);
    uint acc = mn;
    bump(acc, mx);
    uint arr[4] = uint[4](v, v >> 8, mn, mx);
    uint s = sum4(arr);
    uint r = (v & 1u) != 0u ? rec_like(v, v % 5u) : mix3(v);
    Pair p = split(v);
    if (p.lo > p.hi)
        bump(p.lo, 1u);
    o[5u * i + 0u] = acc;
    o[5u * i + 1u] = s;
    o[5u * i + 2u] = r;
    o[5u * i + 3u] = join(p);
    o[5u * i + 4u] = mx - mn;
}
