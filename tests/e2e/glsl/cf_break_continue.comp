#version 450
// break and continue: continue on a divergent condition, break out of an inner loop only,
// break out of the outer loop through a flag, continue in a do-while, loops with both.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = a[i];
    uint s = 0u;
    for (uint j = 0u; j < 40u; j++) {
        if ((j + v) % 3u == 0u)
            continue;
        if (j * j > v % 900u)
            break;
        s += j;
    }
    uint t = 0u;
    bool done = false;
    for (uint j = 0u; j < 10u && !done; j++) {
        for (uint k = 0u; k < 10u; k++) {
            if (k > (v >> (j + 2u) & 7u))
                break;
            t += j * 10u + k;
            if (t > (v & 1023u)) {
                done = true;
                break;
            }
        }
    }
    uint u = 0u, j = 0u;
    do {
        j++;
        if ((v >> j & 1u) == 0u)
            continue;
        u += j;
    } while (j < 20u);
    o[3u * i + 0u] = s;
    o[3u * i + 1u] = t;
    o[3u * i + 2u] = u;
}
