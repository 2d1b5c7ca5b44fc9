#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
// double arithmetic: operators, comparisons, min/max/clamp/abs/sign, a*b+c.
// Inputs stay away from denormals and overflow.
#define T double
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { T a[]; };
layout(set = 0, binding = 1) readonly buffer B { T b[]; };
layout(set = 0, binding = 2) readonly buffer C { T c[]; };
layout(set = 0, binding = 3) writeonly buffer O { T o[]; };
const uint K = 16;

void main() {
    uint i = gl_GlobalInvocationID.x;
    T x = a[i], y = b[i], z = c[i];
    uint k = K * i;
    o[k + 0] = x + y;
    o[k + 1] = x - y;
    o[k + 2] = x * y;
    o[k + 3] = x / y;
    o[k + 4] = -x;
    o[k + 5] = min(x, y);
    o[k + 6] = max(x, y);
    o[k + 7] = T((x < y ? 1 : 0) | (x <= y ? 2 : 0) | (x == y ? 4 : 0) | (x != y ? 8 : 0)
                 | (x > y ? 16 : 0) | (x >= y ? 32 : 0));
    o[k + 8] = clamp(x, T(-2.5), T(3.25));
    o[k + 9] = abs(x);
    o[k + 10] = sign(x);
    o[k + 11] = x * y + z;
    o[k + 12] = x * T(0.5) - T(1.0);
    o[k + 13] = T(1.0) / y;
    T t = x;
    t += z;
    t *= T(2.0);
    t -= y;
    o[k + 14] = t;
    o[k + 15] = x == y ? z : (x < z ? x : y);
}
