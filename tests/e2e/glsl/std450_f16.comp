#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
// GLSL.std.450 on float16_t: rounding, abs/sign, min/max/clamp/mix/step, sqrt, inversesqrt,
// exp2, log2, sin, cos, fma, mod, and f16vec2 forms.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float16_t a[]; };   // [-8, 8], k/64 + 1/256
layout(set = 0, binding = 1) readonly buffer B { float16_t b[]; };   // (0.25, 16)
layout(set = 0, binding = 2) writeonly buffer O { float16_t o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float16_t x = a[i], y = b[i];
    uint k = 20 * i;
    o[k + 0] = floor(x);
    o[k + 1] = ceil(x);
    o[k + 2] = trunc(x);
    o[k + 3] = fract(x);
    o[k + 4] = abs(x);
    o[k + 5] = sign(x);
    o[k + 6] = min(x, y);
    o[k + 7] = max(x, y);
    o[k + 8] = clamp(x, float16_t(-1.5), float16_t(2.25));
    o[k + 9] = step(y, x);
    o[k + 10] = mix(x, y, float16_t(0.25));
    o[k + 11] = sqrt(y);
    o[k + 12] = inversesqrt(y);
    o[k + 13] = exp2(x);
    o[k + 14] = log2(y);
    o[k + 15] = sin(x);
    o[k + 16] = cos(x);
    o[k + 17] = fma(x, y, float16_t(1.0));
    o[k + 18] = roundEven(x);
    f16vec2 v = abs(f16vec2(x, y)) + floor(f16vec2(y, x));
    o[k + 19] = v.x - v.y;
}
