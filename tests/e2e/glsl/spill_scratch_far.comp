#version 450
// Spill slots beyond the 4 KiB the scratch immediate offset reaches (docs/spill.md): a
// 1056-entry local array indexed at run time takes the first 4224 bytes of the private
// segment, so the slots of the 288 values x[0..287] spilled after it need an SGPR base
// (s_mov_b32 + saddr); the array is read again after the spills.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };

#define H(n) ((v ^ (uint(n) * 0x01000193u)) * (uint(n) * 0x9E3779B1u | 1u) + (v >> (uint(n) & 15u)))
#define D(n) x[n] = H(n);
#define D4(n) D(n) D(n + 1) D(n + 2) D(n + 3)
#define D16(n) D4(n) D4(n + 4) D4(n + 8) D4(n + 12)
#define D32(n) D16(n) D16(n + 16)
#define R(n) acc = (acc + x[n]) * 33u ^ (acc >> 7);
#define R4(n) R(n + 3) R(n + 2) R(n + 1) R(n)
#define R16(n) R4(n + 12) R4(n + 8) R4(n + 4) R4(n)
#define R32(n) R16(n + 16) R16(n)

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = a[i];
    uint tab[1056];
    for (uint j = 0u; j < 1056u; j++)
        tab[j] = v * j + (j ^ 0x5au);
    uint x[288];
    D32(0) D32(32) D32(64) D32(96) D32(128) D32(160) D32(192) D32(224) D32(256)
    uint acc = tab[v % 1056u];
    R32(256) R32(224) R32(192) R32(160) R32(128) R32(96) R32(64) R32(32) R32(0)
    o[2u * i + 0u] = acc;
    o[2u * i + 1u] = acc ^ tab[acc % 1056u];
}
