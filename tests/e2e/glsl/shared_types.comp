#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
// Shared memory of every width: uint8, uint16, float16, double, int64, vec3 and a struct
// with a double; written by one invocation, read by others after a barrier.
layout(local_size_x = 64) in;
struct P { uint a; double b; uint8_t c; };
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint64_t o[]; };
layout(std430, set = 0, binding = 2) writeonly buffer F { double f[]; };
shared uint8_t s8[64];
shared uint16_t s16[64];
shared float16_t sh[64];
shared double sd[64];
shared int64_t sl[64];
shared vec3 sv[64];
shared P sp[64];
void main() {
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex;
    uint v = a[i];
    s8[l] = uint8_t(v);
    s16[l] = uint16_t(v >> 8);
    sh[l] = float16_t(float(v & 1023u) * 0.25);
    sd[l] = double(v) * 0.5lf;
    sl[l] = int64_t(v) * -3l;
    sv[l] = vec3(float(v & 255u), float(l), 0.5);
    sp[l] = P(v ^ 0xffffu, double(l) + 0.25lf, uint8_t(l * 3u));
    barrier();
    uint r = 63u - l, n = (l + 1u) & 63u;
    o[4u * i + 0u] = uint64_t(s8[r]) | uint64_t(s16[n]) << 8;
    o[4u * i + 1u] = uint64_t(sl[r] + sl[n]);
    o[4u * i + 2u] = uint64_t(sp[r].a) | uint64_t(sp[n].c) << 32;
    o[4u * i + 3u] = uint64_t(sv[r].x) + uint64_t(sv[n].y) * 1000ul;
    f[2u * i + 0u] = sd[r] + double(sh[n]);
    f[2u * i + 1u] = sp[n].b + double(sv[r].z);
}
