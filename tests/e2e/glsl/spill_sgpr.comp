#version 450
// More uniform values live at once than there are SGPRs (spilling to lanes of a linear
// VGPR, docs/spill.md): 128 values s[0..127] of the workgroup id and a push constant
// (uniform: SALU in SGPRs), all computed before any is used, folded in reverse order,
// then every 4th again in a uniform loop with a run-time trip count, with 24
// per-invocation values live beside them.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
layout(push_constant) uniform P { uint seed; uint rounds; } pc;

#define H(n) ((w ^ (uint(n) * 0x01000193u)) * (uint(n) * 0x9E3779B1u | 1u) + (w >> (uint(n) & 15u)))
#define D(n) s[n] = H(n);
#define D4(n) D(n) D(n + 1) D(n + 2) D(n + 3)
#define D16(n) D4(n) D4(n + 4) D4(n + 8) D4(n + 12)
#define D64(n) D16(n) D16(n + 16) D16(n + 32) D16(n + 48)
#define R(n) acc = (acc + s[n]) * 33u ^ (acc >> 7);
#define R4(n) R(n + 3) R(n + 2) R(n + 1) R(n)
#define R16(n) R4(n + 12) R4(n + 8) R4(n + 4) R4(n)
#define R64(n) R16(n + 48) R16(n + 32) R16(n + 16) R16(n)
#define V(n) y[n] = v * (uint(n) * 2u + 3u) + uint(n);
#define V4(n) V(n) V(n + 1) V(n + 2) V(n + 3)
#define G(n) per = (per ^ y[n]) * 0x01000193u;
#define G4(n) G(n) G(n + 1) G(n + 2) G(n + 3)
#define L(n) t = (t ^ s[(n) * 4]) + (t << 3);
#define L4(n) L(n) L(n + 1) L(n + 2) L(n + 3)
#define L16(n) L4(n) L4(n + 4) L4(n + 8) L4(n + 12)

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = a[i];
    uint w = gl_WorkGroupID.x * 0x10001u ^ pc.seed;
    uint s[128];
    uint y[24];
    D64(0) D64(64)
    V4(0) V4(4) V4(8) V4(12) V4(16) V4(20)
    uint acc = pc.seed;
    R64(64) R64(0)
    uint t = acc;
    for (uint r = 0u; r < pc.rounds; r++) {
        t += r;
        L16(0) L16(16)
    }
    uint per = v;
    G4(0) G4(4) G4(8) G4(12) G4(16) G4(20)
    o[3u * i + 0u] = acc;
    o[3u * i + 1u] = t;
    o[3u * i + 2u] = per + s[5] + s[127];
}
