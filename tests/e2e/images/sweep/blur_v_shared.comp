#version 450
// separable box blur, vertical pass through shared memory: a column tile with an apron
// loaded by imageLoad (clamped at the edges), a barrier, then 7 taps summed
layout(local_size_x = 4, local_size_y = 16) in;
layout(set = 0, binding = 0, rgba32f) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba32f) uniform writeonly image2D dst;
const int R = 3;
shared vec4 tile[4][16 + 2 * R];
void main() {
    ivec2 size = imageSize(src);
    ivec2 l = ivec2(gl_LocalInvocationID.xy);
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    for (int y = l.y; y < 16 + 2 * R; y += 16) {
        int sy = clamp(int(gl_WorkGroupID.y) * 16 + y - R, 0, size.y - 1);
        tile[l.x][y] = imageLoad(src, ivec2(p.x, sy));
    }
    barrier();
    vec4 s = vec4(0.0);
    for (int k = 0; k <= 2 * R; ++k)
        s += tile[l.x][l.y + k];
    imageStore(dst, p, s / float(2 * R + 1));
}
