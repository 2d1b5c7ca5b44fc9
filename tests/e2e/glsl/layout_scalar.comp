#version 450
#extension GL_EXT_scalar_block_layout : require
// GL_EXT_scalar_block_layout: vec3 arrays with stride 12 and a struct of vec3, float,
// vec2, uint packed without padding (stride 28).
struct P { vec3 pos; float m; vec2 uv; uint id; };
layout(scalar, set = 0, binding = 0) readonly buffer In { vec3 v[]; };
layout(scalar, set = 0, binding = 1) readonly buffer Ps { P ps[]; };
layout(scalar, set = 0, binding = 2) writeonly buffer Out { vec3 o[]; };
layout(scalar, set = 0, binding = 3) writeonly buffer Qs { P qs[]; };
layout(local_size_x = 64) in;
void main() {
    uint i = gl_GlobalInvocationID.x;
    P p = ps[i];
    o[i] = v[i] * 2.0 + p.pos;
    p.pos = p.pos.zxy;
    p.m += float(p.id);
    p.uv = v[(i + 1u) & 255u].xy;
    p.id = i * 3u;
    qs[i] = p;
}
