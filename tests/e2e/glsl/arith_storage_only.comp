#version 450
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
// 8/16-bit storage without 8/16-bit arithmetic (StorageBuffer8BitAccess/16BitAccess only):
// narrow loads converted to 32 bits, 32-bit math, narrow stores; f16 in storage.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint8_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { int8_t b[]; };
layout(set = 0, binding = 2) readonly buffer C { uint16_t c[]; };
layout(set = 0, binding = 3) readonly buffer D { int16_t d[]; };
layout(set = 0, binding = 4) readonly buffer E { float16_t e[]; };
layout(set = 0, binding = 5) writeonly buffer O { uint16_t o[]; };
layout(set = 0, binding = 6) writeonly buffer P { int8_t p[]; };
layout(set = 0, binding = 7) writeonly buffer Q { float16_t q[]; };
layout(set = 0, binding = 8) writeonly buffer R { int r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = uint(a[i]);
    int y = int(b[i]);
    uint z = uint(c[i]);
    int w = int(d[i]);
    float h = float(e[i]);
    o[2 * i + 0] = uint16_t(x * z + 3u);
    o[2 * i + 1] = uint16_t(uint(y + w) >> 1);
    p[2 * i + 0] = int8_t(y * 3 - int(x));
    p[2 * i + 1] = int8_t(w >> 4);
    q[i] = float16_t(h * 0.5);
    r[3 * i + 0] = int(x) + y + int(z) + w;
    r[3 * i + 1] = int(h * 4.0);
    r[3 * i + 2] = int(a[i ^ 1u]) - int(b[(i + 5u) & 255u]);
}
