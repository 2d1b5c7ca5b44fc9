#version 450
// r32f: a 3x3 box filter with clamped neighbours, read-write in one shader (two images)
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32f) uniform readonly image2D src;
layout(set = 0, binding = 1, r32f) uniform image2D dst;
layout(push_constant) uniform P { ivec2 size; float scale; } pc;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    float s = 0.0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            s += imageLoad(src, clamp(p + ivec2(dx, dy), ivec2(0), pc.size - 1)).x;
    float old = imageLoad(dst, p).x;
    imageStore(dst, p, vec4(old + s * pc.scale));
}
