#version 450
// morphology on an integer label image: 3x3 dilation (max) and erosion (min) of an
// r32ui image, a label-change count by imageAtomicAdd, written to r32ui / rgba32i images
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32ui) uniform readonly uimage2D labels;
layout(set = 0, binding = 1, rgba32i) uniform writeonly iimage2D outp;
layout(set = 0, binding = 2, r32ui) uniform uimage2D counter;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 s = imageSize(labels);
    uint mx = 0u, mn = 0xFFFFFFFFu;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            ivec2 q = p + ivec2(dx, dy);
            if (any(lessThan(q, ivec2(0))) || any(greaterThanEqual(q, s))) continue;
            uint v = imageLoad(labels, q).x;
            mx = max(mx, v);
            mn = min(mn, v);
        }
    uint c = imageLoad(labels, p).x;
    imageStore(outp, p, ivec4(int(mx), int(mn), int(mx) - int(c), int(c) - int(mn)));
    if (mx != c)
        imageAtomicAdd(counter, ivec2(0, 0), 1u);
}
