#version 450
// 64-bit floats and integers: arithmetic, conversions, large and special constants.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { double d[64]; int64_t l[64]; uint64_t u[64]; dvec2 dv; } b;

void main() {
    uint i = gl_GlobalInvocationID.x & 63u;
    double x = b.d[i] * 0.1lf + 1e300lf - 4.9e-324lf;
    int64_t a = b.l[i] * -9223372036854775807l + 0x123456789l;
    uint64_t u = b.u[i] + 18446744073709551615ul;
    b.d[i] = fma(x, 2.0lf, sqrt(abs(x))) + double(a) + double(u);
    b.l[i] = a >> 3;
    b.u[i] = u / 10ul;
    b.dv = dvec2(x, -0.0lf) + b.dv;
    b.u[i] += packUint2x32(uvec2(i, 7u));
}
