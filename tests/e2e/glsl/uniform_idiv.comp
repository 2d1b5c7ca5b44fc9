#version 450
// Signed 32-bit division with uniform operands (SGPR sequences: one s_cmp feeding
// both correction selects, the quotient's sign from n ^ d) beside a divergent one,
// and the remainder of non-negative uniform operands.
layout(std430, set = 0, binding = 0) readonly buffer A { int a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { int b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { int o[]; };
layout(local_size_x = 64) in;
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint g = gl_WorkGroupID.x * 8u;
    for (uint j = 0u; j < 8u; j++) {
        int x = a[g + j];
        int y = b[g + j];
        o[i * 3u * 8u + j * 3u] = x / y;
        o[i * 3u * 8u + j * 3u + 1u] = x / (int(i) - 300);
        o[i * 3u * 8u + j * 3u + 2u] = (x & 0x7fffffff) % (y & 0x7fffffff);
    }
}
