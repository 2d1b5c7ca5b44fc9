#version 450
// Arrays of descriptors (issue 11): storage images, texel buffers, sampled images with
// separate samplers and combined image samplers, indexed by constants, a push constant
// and a value loaded from a buffer (dynamically uniform), plus imageSize and an atomic on
// an element.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba32f) uniform readonly image2D src[3];
layout(set = 0, binding = 1, r32ui) uniform uimage2D dst[2];
layout(set = 0, binding = 2) uniform samplerBuffer tb[2];
layout(set = 0, binding = 3) uniform texture2D tex[2];
layout(set = 0, binding = 4) uniform sampler smp[2];
layout(set = 0, binding = 5) uniform sampler2D cs[3];
layout(set = 0, binding = 6) buffer Out { vec4 o[]; };
layout(set = 0, binding = 7) readonly buffer Sel { uint sel[4]; };
layout(push_constant) uniform P { uint which; uint w2; } pc;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint i = gl_LocalInvocationIndex;
    vec4 a = imageLoad(src[1], p) + 2.0 * imageLoad(src[pc.which], p);
    vec4 t = texelFetch(tb[sel[0]], int(i)) + texelFetch(tb[0], int(i) + 1);
    vec2 uv = (vec2(p) + 0.5) / 8.0;
    vec4 s = textureLod(sampler2D(tex[sel[1]], smp[sel[2]]), uv, 0.0)
           + textureLod(sampler2D(tex[0], smp[1]), uv, 0.0);
    vec4 c = textureLod(cs[sel[3]], uv, 0.0) + texelFetch(cs[2], p, 0);
    ivec2 sz = imageSize(src[pc.which]) + textureSize(cs[sel[3]], 0);
    imageStore(dst[pc.w2], p, uvec4(i * 3u + 1u));
    uint old = imageAtomicAdd(dst[1 - pc.w2], p, i + 5u);
    o[4u * i + 0u] = a;
    o[4u * i + 1u] = t;
    o[4u * i + 2u] = s + c;
    o[4u * i + 3u] = vec4(sz, float(old), float(textureSize(tb[sel[0]])));
}
