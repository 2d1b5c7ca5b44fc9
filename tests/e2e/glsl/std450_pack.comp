#version 450
// GLSL.std.450 Pack/Unpack{Snorm4x8, Unorm4x8, Snorm2x16, Unorm2x16, Half2x16, Double2x32}.
// Packing rounds with round() (ties implementation-defined) and packHalf2x16 rounds to
// nearest even on lavapipe but toward zero on AMD: the reference masks values whose
// scaled value is within 1e-3 of a tie, and the half inputs are exact in half precision.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };   // [-1.2, 1.2]
layout(set = 0, binding = 1) readonly buffer H { vec2 h[]; };   // exact halves
layout(set = 0, binding = 2) readonly buffer U { uvec2 u[]; };  // any bits
layout(set = 0, binding = 3) readonly buffer D { double d[]; };
layout(set = 0, binding = 4) writeonly buffer P { uint p[]; };
layout(set = 0, binding = 5) writeonly buffer O { float o[]; };
layout(set = 0, binding = 6) writeonly buffer Q { double q[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = a[i];
    uvec2 w = u[i];
    p[8 * i + 0] = packSnorm4x8(v);
    p[8 * i + 1] = packUnorm4x8(v);
    p[8 * i + 2] = packSnorm2x16(v.xy);
    p[8 * i + 3] = packUnorm2x16(v.zw);
    p[8 * i + 4] = packHalf2x16(h[i]);
    uvec2 dd = unpackDouble2x32(d[i]);
    p[8 * i + 5] = dd.x;
    p[8 * i + 6] = dd.y;
    p[8 * i + 7] = packHalf2x16(unpackHalf2x16(w.x));
    vec4 s8 = unpackSnorm4x8(w.x);
    vec4 u8 = unpackUnorm4x8(w.y);
    vec2 s16 = unpackSnorm2x16(w.x);
    vec2 u16 = unpackUnorm2x16(w.y);
    vec2 hh = unpackHalf2x16(w.y & 0x7bff7bffu);  // no infinities/NaNs
    uint k = 14 * i;
    o[k + 0] = s8.x; o[k + 1] = s8.y; o[k + 2] = s8.z; o[k + 3] = s8.w;
    o[k + 4] = u8.x; o[k + 5] = u8.y; o[k + 6] = u8.z; o[k + 7] = u8.w;
    o[k + 8] = s16.x; o[k + 9] = s16.y;
    o[k + 10] = u16.x; o[k + 11] = u16.y;
    o[k + 12] = hh.x; o[k + 13] = hh.y;
    q[i] = packDouble2x32(w);
}
