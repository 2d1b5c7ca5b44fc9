#version 450
// GLSL.std.450 Modf (modf), Frexp/FrexpStruct (frexp), Ldexp (ldexp), float and vec2.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer E { int e[]; };   // [-20, 20]
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
layout(set = 0, binding = 3) writeonly buffer P { int p[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    int n = e[i];
    float ip;
    o[6 * i + 0] = modf(x, ip);
    o[6 * i + 1] = ip;
    int ex;
    o[6 * i + 2] = frexp(x, ex);
    p[3 * i + 0] = ex;
    o[6 * i + 3] = ldexp(x, n);
    vec2 ip2;
    vec2 fr = modf(vec2(x * 3.0, -x), ip2);
    ivec2 ex2;
    vec2 m2 = frexp(vec2(x * 1000.0, 0.0), ex2);
    o[6 * i + 4] = fr.x + fr.y + ip2.x * 2.0 + ip2.y * 4.0;
    o[6 * i + 5] = m2.x + ldexp(m2.y, 3);
    p[3 * i + 1] = ex2.x;
    p[3 * i + 2] = ex2.y;
}
