#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
// Bit casts (OpBitcast): floatBitsToInt/Uint, intBitsToFloat, uintBitsToFloat,
// doubleBitsToInt64/Uint64, int64BitsToDouble, float16BitsToInt16/Uint16,
// int16BitsToFloat16, packFloat2x16, vector <-> wider scalar casts.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };      // no NaN patterns
layout(set = 0, binding = 1) readonly buffer F { float f[]; };
layout(set = 0, binding = 2) readonly buffer D { double d[]; };
layout(set = 0, binding = 3) writeonly buffer O { uint o[]; };
layout(set = 0, binding = 4) writeonly buffer P { float p[]; };
layout(set = 0, binding = 5) writeonly buffer Q { uint64_t q[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint u = a[i];
    float x = f[i];
    double y = d[i];
    o[6 * i + 0] = uint(floatBitsToInt(x));
    o[6 * i + 1] = floatBitsToUint(x * 2.0);
    o[6 * i + 2] = uint(float16BitsToInt16(float16_t(x)));
    o[6 * i + 3] = uint(float16BitsToUint16(float16_t(-x)));
    f16vec2 hv = unpackFloat2x16(u & 0x7bff7bffu);
    o[6 * i + 4] = packFloat2x16(hv.yx);
    o[6 * i + 5] = uint(int16BitsToFloat16(int16_t(u & 0x3bffu)) * float16_t(4.0));
    p[3 * i + 0] = intBitsToFloat(int(u));
    p[3 * i + 1] = uintBitsToFloat(u ^ 0x80000000u);
    p[3 * i + 2] = float(uint16BitsToFloat16(uint16_t(u & 0x3bffu)));
    q[3 * i + 0] = doubleBitsToUint64(y);
    q[3 * i + 1] = uint64_t(doubleBitsToInt64(-y));
    q[3 * i + 2] = doubleBitsToUint64(int64BitsToDouble(int64_t(u) << 30) * 2.0lf);
}
