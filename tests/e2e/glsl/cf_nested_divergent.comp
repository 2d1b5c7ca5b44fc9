#version 450
// Deeply nested divergent control flow: ifs in loops in ifs, values merged at every level,
// a branch uniform per workgroup (on gl_WorkGroupID) around divergent ones, and a loop whose
// exit depends on a value changed in a nested branch.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = a[i];
    uint r = 0u;
    if ((gl_WorkGroupID.x & 1u) == 0u) {
        if ((v & 1u) != 0u) {
            for (uint j = 0u; j < (v & 7u); j++) {
                if ((j & 1u) != 0u)
                    r += j * 3u;
                else if (j > 2u)
                    r ^= v >> j;
                else
                    r += 1u;
            }
        } else {
            r = v >> 4;
            if (r > 1000u)
                r -= 1000u;
        }
    } else {
        uint x = v;
        while (x > 16u) {
            if ((x & 3u) == 0u) {
                x >>= 2;
                r += 2u;
            } else if ((x & 3u) == 1u) {
                x -= 1u;
                r += 1u;
            } else {
                x = x / 2u - 1u;
                if (x % 5u == 0u)
                    break;
                r += 5u;
            }
        }
        r += x << 16;
    }
    uint q = 0u;
    for (uint j = 0u; j < 4u; j++) {
        if (((v >> (j * 4u)) & 15u) > 7u) {
            if (((v >> (j * 4u + 16u)) & 1u) != 0u)
                q += 1u << j;
            else
                q += 16u << j;
        }
    }
    o[2u * i + 0u] = r;
    o[2u * i + 1u] = q;
}
