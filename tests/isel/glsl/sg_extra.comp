#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
// Subgroup operations under a random EXEC (lanes with a[i] & 3 != 0), for the paths the
// suite's shaders do not reach: clusters of 16 and 32, uniform values, booleans, divergent
// shuffle indices across wave64 halves, constant xor masks of 4..63, 64-bit values.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { uint a[]; };
layout(std430, binding = 1) writeonly buffer O { uint o[]; };
layout(std430, binding = 2) writeonly buffer Q { uint64_t q[]; };
layout(std430, binding = 3) writeonly buffer D { double d[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = a[i];
    uint n = gl_SubgroupSize;
    uint id = gl_SubgroupInvocationID;
    uint k = 24u * i;
    if ((v & 3u) != 0u) {
        bool p = (v & 4u) != 0u;
        uvec4 b = subgroupBallot(p);
        uint64_t w = uint64_t(v) * 0x100000001ul + uint64_t(id);
        o[k + 0u] = subgroupClusteredAdd(v, 16u);
        o[k + 1u] = subgroupClusteredMax(v, 32u);
        o[k + 2u] = subgroupClusteredMin(v >> 3, 16u);
        o[k + 3u] = subgroupAdd(7u);
        o[k + 4u] = subgroupXor(5u);
        o[k + 5u] = subgroupMin(9u) + subgroupMax(11u);
        o[k + 6u] = subgroupShuffle(v, (v >> 8) & (n - 1u));
        o[k + 7u] = subgroupShuffleXor(v, 4u);
        o[k + 8u] = subgroupShuffleXor(v, 16u & (n - 1u));
        o[k + 9u] = subgroupShuffleXor(v, 37u & (n - 1u));
        o[k + 10u] = uint(subgroupAllEqual(p)) | uint(subgroupAll(p)) << 1
                   | uint(subgroupAny(p)) << 2 | uint(subgroupAllEqual(v & 1u)) << 3
                   | uint(subgroupAllEqual(bvec2(p, (v & 8u) != 0u))) << 4
                   | uint(subgroupAllEqual(uvec2(v & 16u, 3u))) << 5;
        o[k + 11u] = uint(subgroupBallotBitExtract(b, (v >> 4) & (n - 1u)));
        o[k + 12u] = subgroupBallotFindMSB(b) | subgroupBallotFindLSB(b) << 8;
        o[k + 13u] = subgroupBallotInclusiveBitCount(b) | subgroupBallotBitCount(b) << 8
                   | subgroupBallotExclusiveBitCount(b) << 16;
        o[k + 14u] = uint(subgroupInclusiveOr(p)) | uint(subgroupExclusiveAnd(p)) << 1
                   | uint(subgroupXor(p)) << 2 | uint(subgroupOr(p)) << 3
                   | uint(subgroupAnd(p)) << 4;
        o[k + 15u] = uint(subgroupBroadcastFirst(p)) | uint(subgroupShuffle(p, id ^ 1u)) << 1;
        o[k + 16u] = subgroupExclusiveMul(v | 1u);
        o[k + 17u] = subgroupInclusiveMax(v >> 5);
        o[k + 18u] = subgroupBroadcast(v, 5u);
        o[k + 19u] = uint(subgroupClusteredXor(p, 8u));
        o[k + 20u] = subgroupQuadBroadcast(v, 2u);
        o[k + 21u] = subgroupClusteredAdd(v, 4u);
        o[k + 22u] = subgroupInclusiveAdd(7u) | subgroupExclusiveAdd(3u) << 16;
        o[k + 23u] = subgroupExclusiveMax(9u) | subgroupInclusiveXor(5u) << 8
                   | (subgroupExclusiveMin(6u) & 0xffu) << 16 | subgroupInclusiveOr(2u) << 24;
        q[6u * i + 0u] = subgroupAdd(w);
        q[6u * i + 1u] = uint64_t(subgroupMin(int64_t(w)));
        q[6u * i + 2u] = subgroupShuffle(w, (v >> 8) & (n - 1u));
        q[6u * i + 3u] = subgroupExclusiveAdd(w) ^ subgroupInclusiveMax(w);
        q[6u * i + 4u] = subgroupMul(w | 1ul);
        q[6u * i + 5u] = subgroupInclusiveMul(w) ^ subgroupClusteredMul(w, 4u);
        double x = double(int(v & 0xfffu) - 2048) * 0.5lf;
        d[2u * i + 0u] = subgroupInclusiveAdd(x);
        d[2u * i + 1u] = subgroupClusteredMin(x, 8u);
    }
}
