#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Specialization constants of each type (int, uint, float, bool, double, int64), spec
// constant operations (OpSpecConstantOp: arithmetic, comparison, select, conversion), an
// array sized by a spec constant, a branch on a bool spec constant.
layout(local_size_x = 64) in;
layout(constant_id = 0) const int A = 7;
layout(constant_id = 1) const uint B = 3u;
layout(constant_id = 2) const float C = 1.5;
layout(constant_id = 3) const bool D = true;
layout(constant_id = 4) const double E = 0.25lf;
layout(constant_id = 5) const int64_t F = 1000000000000l;
const int AB = A * 2 + int(B);
const uint SIZE = B + 2u;
const bool BIG = A > 5;
const int PICK = D ? A : -A;
const uint SHIFTED = (B << 4) | 1u;
layout(std430, set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { int o[]; };
layout(std430, set = 0, binding = 2) writeonly buffer P { double p[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint arr[SIZE];
    for (uint j = 0u; j < SIZE; j++)
        arr[j] = a[i] + j * B;
    uint k = 8u * i;
    o[k + 0u] = A;
    o[k + 1u] = int(B);
    o[k + 2u] = AB;
    o[k + 3u] = int(arr[a[i] % SIZE]);
    o[k + 4u] = int(arr.length());
    o[k + 5u] = BIG ? 1 : 0;
    o[k + 6u] = PICK + int(SHIFTED);
    if (D)
        o[k + 7u] = int(float(a[i] & 255u) * C);
    else
        o[k + 7u] = -1;
    p[2u * i + 0u] = double(a[i]) * E + double(C);
    p[2u * i + 1u] = double(F + int64_t(i));
}
