#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_subgroup_extended_types_int8 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
// Subgroup operations on every type: double, int64/uint64, uint8, int16, float16 (the
// extended types) and vectors: reductions, a scan, broadcast and shuffle.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Ids { uvec4 ids[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { uint64_t o[]; };
layout(std430, set = 0, binding = 3) writeonly buffer D { double d[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ids[i] = uvec4(gl_SubgroupSize, gl_SubgroupInvocationID, gl_SubgroupID, gl_NumSubgroups);
    uint v = a[i];
    uint64_t w = uint64_t(v) * 0x100000001ul;
    int64_t sw = int64_t(w) - 0x4000000000000000l;
    uint8_t b = uint8_t(v);
    int16_t h = int16_t(v >> 8);
    float16_t f = float16_t(float(v & 63u));
    uint k = 10u * i;
    o[k + 0u] = subgroupAdd(w);
    o[k + 1u] = uint64_t(subgroupMin(sw));
    o[k + 2u] = subgroupInclusiveAdd(w >> 3);
    o[k + 3u] = subgroupShuffleXor(w, 1u);
    o[k + 4u] = uint64_t(subgroupMax(b));
    o[k + 5u] = uint64_t(subgroupAdd(b));
    o[k + 6u] = uint64_t(int64_t(subgroupMin(h)));
    o[k + 7u] = uint64_t(int64_t(subgroupAdd(h)));
    o[k + 8u] = uint64_t(float(subgroupMax(f)) * 4.0);
    u16vec2 pv = subgroupBroadcast(u16vec2(uint16_t(v), uint16_t(v >> 16)), 1u);
    o[k + 9u] = uint64_t(pv.x) | uint64_t(pv.y) << 16;
    double x = double(int(v & 0xfffu) - 2048) * 0.5lf;
    d[3u * i + 0u] = subgroupAdd(x);
    d[3u * i + 1u] = subgroupMax(x);
    dvec2 m = subgroupMin(dvec2(x, -x));
    d[3u * i + 2u] = m.x + m.y;
}
