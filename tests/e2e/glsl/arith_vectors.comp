#version 450
// Vector arithmetic: ivec4/uvec4/vec4 operators, vector-scalar forms, swizzles (reads and
// writes), component insertion/extraction with dynamic index, constructors, dot on vec4,
// vector integer division and comparisons.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { ivec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { uvec4 b[]; };
layout(set = 0, binding = 2) readonly buffer C { vec4 c[]; };
layout(set = 0, binding = 3) writeonly buffer O { ivec4 o[]; };
layout(set = 0, binding = 4) writeonly buffer P { uvec4 p[]; };
layout(set = 0, binding = 5) writeonly buffer Q { vec4 q[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 x = a[i];
    uvec4 u = b[i];
    vec4 f = c[i];
    o[4 * i + 0] = x + x.wzyx * 3 - 7;
    o[4 * i + 1] = x / ivec4(3, -5, 7, 1) + abs(x) % ivec4(1, 2, 4, 8);
    ivec4 t = x;
    t.yw = x.xz * 2;
    t[int(u.x & 3u)] = 99;
    t.zx += ivec2(1, 2);
    o[4 * i + 2] = t;
    o[4 * i + 3] = ivec4(x.xy, ivec2(u.zw)) * ivec4(lessThanEqual(x, x.yzwx)) + ivec4(x[u.y & 3u]);
    p[3 * i + 0] = u * 5u + (u >> 3) - uvec4(x);
    p[3 * i + 1] = u / uvec4(3u, 10u, 1000u, 65537u) + u % uvec4(7u);
    p[3 * i + 2] = uvec4(uvec2(u.xy & u.zw), uvec3(u.wzy | 1u).zy) ^ 0xff00ff00u;
    q[3 * i + 0] = f * 2.0 + f.yzwx * f - vec4(1.0, 2.0, 3.0, 4.0);
    vec4 g = f;
    g.zw = -f.xy;
    g[int(u.z & 3u)] = dot(f, f.wzyx);
    q[3 * i + 1] = g;
    q[3 * i + 2] = vec4(f.xy * 0.5, vec2(x.zw)) / vec4(2.0, 4.0, 8.0, 16.0);
}
