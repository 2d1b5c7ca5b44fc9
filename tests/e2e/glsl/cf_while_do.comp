#version 450
// while and do-while loops with divergent exits: bounded Collatz, digit sums, a while(true)
// with break, a do-while that runs at least once.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = a[i];
    uint x = v | 1u, steps = 0u;
    while (x != 1u && steps < 300u) {
        x = (x & 1u) != 0u ? 3u * x + 1u : x >> 1;
        steps++;
    }
    uint y = v, digits = 0u;
    do {
        digits += y % 10u;
        y /= 10u;
    } while (y != 0u);
    uint z = v, n = 0u;
    while (true) {
        if (z < 1000u)
            break;
        z = z / 3u + (z & 7u);
        n++;
    }
    uint w = 0u;
    do {
        w += 7u;
    } while (w < (v & 63u));
    o[5u * i + 0u] = steps;
    o[5u * i + 1u] = digits;
    o[5u * i + 2u] = z;
    o[5u * i + 3u] = n;
    o[5u * i + 4u] = w;
}
