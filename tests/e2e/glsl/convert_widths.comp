#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
// Integer width conversions (sign/zero extension, truncation, signedness casts) and float
// width conversions (f16 <-> f32 <-> f64). Narrowing float conversions only of values
// exact in the narrower type (rounding modes of OpFConvert are not compared).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { int8_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { int16_t b[]; };
layout(set = 0, binding = 2) readonly buffer C { int64_t c[]; };
layout(set = 0, binding = 3) readonly buffer F { float f[]; };      // exact halves
layout(set = 0, binding = 4) readonly buffer D { double d[]; };     // exact floats
layout(set = 0, binding = 5) writeonly buffer O { int64_t o[]; };
layout(set = 0, binding = 6) writeonly buffer P { uint8_t p[]; };
layout(set = 0, binding = 7) writeonly buffer Q { float16_t q[]; };
layout(set = 0, binding = 8) writeonly buffer R { float r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int8_t x = a[i];
    int16_t y = b[i];
    int64_t z = c[i];
    uint k = 14 * i;
    o[k + 0] = int64_t(int(x));
    o[k + 1] = int64_t(uint(uint8_t(x)));
    o[k + 2] = int64_t(y);
    o[k + 3] = int64_t(uint64_t(uint16_t(y)));
    o[k + 4] = int64_t(int8_t(z));
    o[k + 5] = int64_t(uint16_t(z));
    o[k + 6] = int64_t(int(z));
    o[k + 7] = int64_t(uint(z));
    o[k + 8] = int64_t(int16_t(x));
    o[k + 9] = int64_t(uint16_t(x));
    o[k + 10] = int64_t(int8_t(y));
    o[k + 11] = int64_t(uint64_t(uint(int(y))));
    o[k + 12] = int64_t(uint8_t(int16_t(x) * int16_t(3)));
    o[k + 13] = int64_t(int16_t(uint16_t(y) + uint16_t(40000)));
    p[4 * i + 0] = uint8_t(y);
    p[4 * i + 1] = uint8_t(z >> 8);
    p[4 * i + 2] = uint8_t(x) + uint8_t(200);
    p[4 * i + 3] = uint8_t(int(x) * -1);
    float v = f[i];
    double w = d[i];
    q[2 * i + 0] = float16_t(v);
    q[2 * i + 1] = float16_t(double(v) * 0.5lf);
    r[3 * i + 0] = float(w);
    r[3 * i + 1] = float(float16_t(v));
    r[3 * i + 2] = float(double(v) + w);
}
