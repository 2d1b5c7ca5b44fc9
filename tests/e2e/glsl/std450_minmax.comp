#version 450
// GLSL.std.450 FMin, FMax, FClamp, UMin, UMax, UClamp, SMin, SMax, SClamp, FMix, Step,
// SmoothStep, Fma, and mix() with a bool selector (OpSelect).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { uvec4 b[]; };
layout(set = 0, binding = 2) readonly buffer C { ivec4 c[]; };
layout(set = 0, binding = 3) writeonly buffer O { float o[]; };
layout(set = 0, binding = 4) writeonly buffer P { uint p[]; };
layout(set = 0, binding = 5) writeonly buffer Q { int q[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 f = a[i];
    uvec4 u = b[i];
    ivec4 s = c[i];
    uint k = 12 * i;
    o[k + 0] = min(f.x, f.y);
    o[k + 1] = max(f.x, f.y);
    o[k + 2] = clamp(f.x, f.y, f.y + 2.0);
    o[k + 3] = mix(f.x, f.y, f.z * 0.1 + 0.5);
    o[k + 4] = step(f.y, f.x);
    o[k + 5] = smoothstep(-3.0, 4.0, f.z);
    o[k + 6] = fma(f.x, f.y, f.z);
    o[k + 7] = mix(f.x, f.y, f.z > f.w);
    vec4 m = clamp(f, vec4(-1.0), vec4(2.0)) + step(vec4(0.5), f);
    o[k + 8] = m.x + m.y + m.z + m.w;
    o[k + 9] = mix(f, f.wzyx, bvec4(f.x > 0.0, true, false, f.y > f.w)).x;
    o[k + 10] = smoothstep(vec2(0.0, -1.0), vec2(1.0, 5.0), f.xy).y;
    o[k + 11] = max(min(f.x, f.w), min(f.y, f.z));
    uint j = 6 * i;
    p[j + 0] = min(u.x, u.y);
    p[j + 1] = max(u.x, u.y);
    p[j + 2] = clamp(u.z, 1000u, 3000000000u);
    p[j + 3] = clamp(u.w, u.x >> 1, (u.x >> 1) + 12345u);
    p[j + 4] = mix(u.x, u.y, u.z < u.w);
    uvec2 mm = min(u.xy, u.zw) ^ max(u.yx, u.wz);
    p[j + 5] = mm.x + mm.y;
    q[j + 0] = min(s.x, s.y);
    q[j + 1] = max(s.x, s.y);
    q[j + 2] = clamp(s.z, -1000, 1000);
    q[j + 3] = clamp(s.w, s.x >> 1, (s.x >> 1) + 777);
    q[j + 4] = mix(s.x, s.y, s.z < s.w);
    ivec2 nn = min(s.xy, s.zw) ^ max(s.yx, s.wz);
    q[j + 5] = nn.x + nn.y;
}
