#version 450
// 1-D, 1-D array and 2-D array storage images and a sampler1DArray: load, store, sizes
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, rgba32f) uniform readonly image1D a;
layout(set = 0, binding = 1, r32ui) uniform uimage1DArray b;
layout(set = 0, binding = 2, rgba8) uniform image2DArray c;
layout(set = 0, binding = 3) uniform sampler1DArray s;
layout(set = 0, binding = 4) buffer O { vec4 o[]; };
void main() {
    int i = int(gl_GlobalInvocationID.x);
    int w = imageSize(a);
    o[i * 2] = imageLoad(a, w - 1 - i % w);
    ivec2 bs = imageSize(b);
    ivec2 q = ivec2(i % bs.x, (i / bs.x) % bs.y);
    if (i < bs.x * bs.y) imageStore(b, q, imageLoad(b, q) * 3u + uvec4(i));
    ivec3 cs = imageSize(c);
    ivec3 r = ivec3(i % cs.x, (i / cs.x) % cs.y, (i / 7) % cs.z);
    if (i < cs.x * cs.y)
        imageStore(c, ivec3(r.xy, cs.z - 1), imageLoad(c, ivec3(r.xy, 0)).bgra);
    o[i * 2 + 1] = textureLod(s, vec2((float(i) + 0.5) / float(textureSize(s, 0).x), float(i % 3)), 0.0);
}
