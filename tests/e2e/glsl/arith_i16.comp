#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
// int16_t arithmetic: every operator, min/max/clamp/abs, division by a constant.
// Signed % only with non-negative operands (undefined otherwise in GLSL;
// lavapipe's -10 % 7 is -3); no division by 0 or MIN / -1.
#define T int16_t
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { T a[]; };
layout(set = 0, binding = 1) readonly buffer B { T b[]; };
layout(set = 0, binding = 2) writeonly buffer O { T o[]; };
const uint K = 21;

void main() {
    uint i = gl_GlobalInvocationID.x;
    T x = a[i], y = b[i];
    uint k = K * i;
    T s = y & T(15);
    o[k + 0] = x + y;
    o[k + 1] = x - y;
    o[k + 2] = x * y;
    o[k + 3] = (y == T(0) || (x == int16_t(-32768) && y == T(-1))) ? T(0) : x / y;
    o[k + 4] = (x >= T(0) && y > T(0)) ? x % y : T(0);
    o[k + 5] = -x;
    o[k + 6] = min(x, y);
    o[k + 7] = max(x, y);
    o[k + 8] = x << s;
    o[k + 9] = x >> s;
    o[k + 10] = x & y;
    o[k + 11] = x | y;
    o[k + 12] = x ^ y;
    o[k + 13] = ~x;
    o[k + 14] = T((x < y ? 1 : 0) | (x <= y ? 2 : 0) | (x == y ? 4 : 0) | (x != y ? 8 : 0)
                  | (x > y ? 16 : 0) | (x >= y ? 32 : 0));
    o[k + 15] = clamp(x, T(-20), T(20));
    o[k + 16] = abs(x);
    o[k + 17] = x / T(7);
    o[k + 18] = x * T(-3);
    T t = x;
    t += y;
    t *= T(3);
    t -= x;
    t ^= T(0x55);
    o[k + 19] = t;
    o[k + 20] = sign(x);
}
