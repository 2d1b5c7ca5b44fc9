#version 450
// 1-D, 1-D array and 2-D array images (issue 11): imageLoad/imageStore/texelFetch and
// imageSize/textureSize on each dimension.
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 8, local_size_y = 4) in;
layout(set = 0, binding = 0, rgba32f) uniform readonly image1D a1;        // (32, 4)
layout(set = 0, binding = 1, r32ui) uniform uimage1DArray a1l;            // (3, 32)
layout(set = 0, binding = 2, rgba8) uniform image2DArray a2l;             // (3, 4, 8, 4)
layout(set = 0, binding = 3) uniform texture2DArray t2l;                  // (3, 4, 8) r32f
layout(set = 0, binding = 4) uniform texture1D t1;                        // (32,) r32ui...
layout(set = 0, binding = 5) buffer O { vec4 o[32]; ivec4 sizes[4]; };
void main() {
    ivec2 p = ivec2(gl_LocalInvocationID.xy);
    int i = p.y * 8 + p.x;
    vec4 v = imageLoad(a1, i);
    for (int l = 0; l < 3; l++) {
        uint u = imageLoad(a1l, ivec2(i, l)).x;
        imageStore(a1l, ivec2(i, l), uvec4(u * 3u + uint(l)));
        vec4 c = imageLoad(a2l, ivec3(p, l));
        imageStore(a2l, ivec3(p, l), c.yzwx);
        v += texelFetch(t2l, ivec3(p, l), 0).xxxx * float(l + 1);
    }
    o[i] = v + vec4(texelFetch(t1, i, 0).x);
    if (i == 0) {
        sizes[0] = ivec4(imageSize(a1), imageSize(a1l), 0);
        sizes[1] = ivec4(imageSize(a2l), 0);
        sizes[2] = ivec4(textureSize(t2l, 0), textureSize(t1, 0));
        sizes[3] = ivec4(textureQueryLevels(t1), textureQueryLevels(t2l), 0, 0);
    }
}
