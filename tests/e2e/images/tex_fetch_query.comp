#version 450
// texelFetch on sampled images (rgba8 and r32ui textures, at level 0 and at a level
// known only at run time), a 3-D storage image, textureSize/imageSize/textureQueryLevels
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform texture2D t;
layout(set = 0, binding = 1, rgba32f) uniform image3D v;
layout(set = 0, binding = 2) buffer O { ivec4 s; int l; uint sum; } o;
layout(set = 1, binding = 0) uniform utexture2D u;
layout(push_constant) uniform P { int lod; } pc;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 a = texelFetch(t, p, 0) + texelFetch(t, p, pc.lod);
    vec4 old = imageLoad(v, ivec3(p, 2));
    imageStore(v, ivec3(p, 1), a + old);
    atomicAdd(o.sum, texelFetch(u, p.yx, pc.lod).x);
    if (p == ivec2(0)) {
        o.s = ivec4(textureSize(t, pc.lod), imageSize(v).yz);
        o.l = textureQueryLevels(t) + textureQueryLevels(u) * 10;
    }
}
