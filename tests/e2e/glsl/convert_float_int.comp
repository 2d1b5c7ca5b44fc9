#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
// Float <-> integer conversions at 16/32/64 bits (OpConvertFToS/FToU/SToF/UToF).
// Float -> int only of values in range (undefined otherwise); truncation toward zero.
// float16_t literals are exact (glslang 12 truncates inexact ones: float16_t(0.004) is
// 0x1c18, not the nearest 0x1c19).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer F { float f[]; };      // (-2e9, 2e9)
layout(set = 0, binding = 1) readonly buffer D { double d[]; };     // (-9e18, 9e18)
layout(set = 0, binding = 2) readonly buffer I { int n[]; };
layout(set = 0, binding = 3) readonly buffer L { int64_t l[]; };
layout(set = 0, binding = 4) readonly buffer H { float16_t h[]; };  // (-30000, 30000)
layout(set = 0, binding = 5) writeonly buffer OI { int64_t oi[]; };
layout(set = 0, binding = 6) writeonly buffer OF { double of[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = f[i];
    double y = d[i];
    int m = n[i];
    int64_t q = l[i];
    float16_t z = h[i];
    uint k = 12 * i;
    oi[k + 0] = int64_t(int(x));
    oi[k + 1] = int64_t(uint(abs(x) * 2.0));
    oi[k + 2] = int64_t(y);
    oi[k + 3] = int64_t(uint64_t(abs(y)));
    oi[k + 4] = int64_t(int(y * 1e-9lf));
    oi[k + 5] = int64_t(uint(abs(y) * 1e-10lf));
    oi[k + 6] = int64_t(int16_t(z));
    oi[k + 7] = int64_t(uint16_t(abs(z) * float16_t(2.0)));
    oi[k + 8] = int64_t(int8_t(z * float16_t(0.00390625)));
    oi[k + 9] = int64_t(uint8_t(abs(x) * 1e-7));
    oi[k + 10] = int64_t(x * 1e9);
    oi[k + 11] = int64_t(uint64_t(abs(x)) * 3ul);
    of[k + 0] = double(float(m));
    of[k + 1] = double(float(uint(m)));
    of[k + 2] = double(m);
    of[k + 3] = double(uint(m));
    of[k + 4] = double(q);
    of[k + 5] = double(uint64_t(q));
    of[k + 6] = double(float(q));
    of[k + 7] = double(float(uint64_t(q)));
    of[k + 8] = double(float16_t(int16_t(m)));
    of[k + 9] = double(float16_t(uint16_t(m) >> uint16_t(5)));
    of[k + 10] = double(float16_t(int8_t(m)));
    of[k + 11] = double(float(uint8_t(m)));
}
