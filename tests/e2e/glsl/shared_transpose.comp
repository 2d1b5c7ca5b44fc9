#version 450
// 2D workgroups (8x8) transposing a 32x32 matrix through a shared tile, once with a
// padded [8][9] tile and once with a flat tile indexed by gl_LocalInvocationIndex.
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer T { float t[]; };
layout(std430, set = 0, binding = 2) writeonly buffer U { uint u[]; };
shared float tile[8][9];
shared uint flat_[64];
void main() {
    uvec2 l = gl_LocalInvocationID.xy, g = gl_WorkGroupID.xy;
    uint x = g.x * 8u + l.x, y = g.y * 8u + l.y;
    tile[l.y][l.x] = a[y * 32u + x];
    flat_[gl_LocalInvocationIndex] = y * 32u + x;
    barrier();
    t[(g.x * 8u + l.y) * 32u + g.y * 8u + l.x] = tile[l.x][l.y];
    u[y * 32u + x] = flat_[l.x * 8u + l.y];
}
