#version 450
// std430 arrays of structs: vec3 followed by a float in its padding, ivec2, uint, double
// (stride 48); a second struct with a float array member indexed dynamically (stride 32),
// read-modify-write in place. Whole-struct loads and stores.
struct S { vec3 p; float w; ivec2 q; uint flags; double d; };
struct T { float a[3]; vec2 b; uint c; };
layout(std430, set = 0, binding = 0) readonly buffer In { S s[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { S o[]; };
layout(std430, set = 0, binding = 2) buffer Ts { T t[]; };
layout(local_size_x = 64) in;
void main() {
    uint i = gl_GlobalInvocationID.x;
    S v = s[i];
    v.p = v.p * v.w + vec3(v.q, 1.0);
    v.q = v.q.yx * 2;
    v.flags ^= i;
    v.d = v.d * 2.0lf + double(v.w);
    o[i] = v;
    T u = t[i];
    u.a[i % 3u] += 1.0;
    u.b = u.b.yx;
    u.c = uint(u.a[0]) + u.c;
    t[i] = u;
}
