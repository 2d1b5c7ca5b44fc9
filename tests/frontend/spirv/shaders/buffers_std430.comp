#version 450
// Storage buffers: std430 arrays of structs, runtime arrays and .length(), access qualifiers.
layout(local_size_x = 32, local_size_y = 2) in;
struct Particle { vec3 pos; float mass; vec4 vel; int flags[3]; };
layout(std430, set = 0, binding = 0) readonly buffer In { uint count; Particle p[]; } src;
layout(std430, set = 0, binding = 1) writeonly buffer Out { Particle q[]; } dst;
layout(std430, set = 1, binding = 3) restrict coherent buffer Counters { uint hits; uint sizes[4]; } counters;
layout(std430, set = 2, binding = 0) volatile buffer Vol { float v[]; } vol;

void main() {
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * 64u;
    if (i >= src.count) return;
    Particle p = src.p[i];
    p.pos += p.vel.xyz * p.mass;
    p.flags[i % 3u] = int(src.p.length());
    dst.q[i] = p;
    counters.sizes[i & 3u] = uint(vol.v.length());
    vol.v[i] = p.mass;
}
