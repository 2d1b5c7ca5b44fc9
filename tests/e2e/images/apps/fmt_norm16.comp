#version 450
// storage formats beyond lvp_run's table (the Python API's images): r16ui, rg16 (unorm),
// rg16_snorm, rgba8_snorm, rg16f, rg32i, r8i; loads returned, stores converted back
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r16ui) uniform uimage2D a;
layout(set = 0, binding = 1, rg16) uniform image2D b;
layout(set = 0, binding = 2, rg16_snorm) uniform image2D c;
layout(set = 0, binding = 3, rgba8_snorm) uniform image2D d;
layout(set = 0, binding = 4, rg16f) uniform image2D e;
layout(set = 0, binding = 5, rg32i) uniform iimage2D f;
layout(set = 0, binding = 6, r8i) uniform iimage2D g;
layout(set = 0, binding = 7) buffer O { vec4 o[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    int id = p.y * 8 + p.x;
    uint x = imageLoad(a, p).x;
    vec4 y = imageLoad(b, p), z = imageLoad(c, p), w = imageLoad(d, p), v = imageLoad(e, p);
    ivec4 k = imageLoad(f, p), m = imageLoad(g, p);
    imageStore(a, p, uvec4(x ^ 0x5A5Au));
    imageStore(b, p, vec4(y.yx * 0.75 + 0.1, 0.0, 0.0));
    imageStore(c, p, vec4(-z.x, z.y * 2.0 - 0.5, 0.0, 0.0));
    imageStore(d, p, w.wzyx * 1.5);
    imageStore(e, p, vec4(v.yx * 2.0, 0.0, 0.0));
    imageStore(f, p, k.yxzw - 7);
    imageStore(g, p, ivec4(m.x / 2 - 3));
    o[id * 5] = vec4(float(x), y.xy, y.w);
    o[id * 5 + 1] = z;
    o[id * 5 + 2] = w;
    o[id * 5 + 3] = v;
    o[id * 5 + 4] = vec4(k.xy, m.x, m.w);
}
