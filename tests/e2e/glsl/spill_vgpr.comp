#version 450
// More values live at once than there are VGPRs (spilling, docs/spill.md): 320
// per-invocation values x[0..319] (a private array indexed only with constants, so
// promoted to SSA values) are all computed before any is used, folded in reverse order
// on one side of a divergent if and forward on the other, then every 5th of them again
// after the merge and in a loop with a run-time trip count: all 320 stay live through the
// if, about 64 through the loop.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
layout(push_constant) uniform P { uint rounds; } pc;

#define H(n) ((v ^ (uint(n) * 0x01000193u)) * (uint(n) * 0x9E3779B1u | 1u) + (v >> (uint(n) & 15u)))
#define D(n) x[n] = H(n);
#define D4(n) D(n) D(n + 1) D(n + 2) D(n + 3)
#define D16(n) D4(n) D4(n + 4) D4(n + 8) D4(n + 12)
#define D64(n) D16(n) D16(n + 16) D16(n + 32) D16(n + 48)
#define F(n) acc = (acc ^ x[n]) * 0x01000193u + (acc >> 13);
#define F4(n) F(n) F(n + 1) F(n + 2) F(n + 3)
#define F16(n) F4(n) F4(n + 4) F4(n + 8) F4(n + 12)
#define F64(n) F16(n) F16(n + 16) F16(n + 32) F16(n + 48)
#define R(n) acc = (acc + x[n]) * 33u ^ (acc >> 7);
#define R4(n) R(n + 3) R(n + 2) R(n + 1) R(n)
#define R16(n) R4(n + 12) R4(n + 8) R4(n + 4) R4(n)
#define R64(n) R16(n + 48) R16(n + 32) R16(n + 16) R16(n)
#define E(n) acc = acc * 7u + x[(n) * 5];
#define E4(n) E(n) E(n + 1) E(n + 2) E(n + 3)
#define E16(n) E4(n) E4(n + 4) E4(n + 8) E4(n + 12)
#define L(n) t += x[(n) * 5] ^ (t << 1);
#define L4(n) L(n) L(n + 1) L(n + 2) L(n + 3)
#define L16(n) L4(n) L4(n + 4) L4(n + 8) L4(n + 12)

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = a[i];
    uint x[320];
    D64(0) D64(64) D64(128) D64(192) D64(256)
    uint acc = v;
    if ((v & 1u) != 0u) {
        R64(256) R64(192) R64(128) R64(64) R64(0)
    } else {
        F64(0) F64(64) F64(128) F64(192) F64(256)
    }
    uint first = acc;
    E16(0) E16(16) E16(32) E16(48)
    uint t = 0u;
    for (uint r = 0u; r < pc.rounds; r++) {
        t = t * 3u + r;
        L16(0) L16(16) L16(32) L16(48)
    }
    o[3u * i + 0u] = first;
    o[3u * i + 1u] = acc;
    o[3u * i + 2u] = t;
}
