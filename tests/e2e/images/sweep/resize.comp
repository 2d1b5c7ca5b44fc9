#version 450
// bilinear resize of an rgba8 texture to an arbitrary output size (push constants),
// texel centres mapped with the half-texel convention, and a nearest-neighbour copy
// through a second sampler of the same texture
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform texture2D tex;
layout(set = 0, binding = 1) uniform sampler lin;
layout(set = 0, binding = 2) uniform sampler pt;
layout(set = 0, binding = 3, rgba8) uniform writeonly image2D outLin;
layout(set = 0, binding = 4, rgba8) uniform writeonly image2D outPt;
layout(push_constant) uniform P { ivec2 outSize; } pc;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= pc.outSize.x || p.y >= pc.outSize.y) return;
    vec2 uv = (vec2(p) + 0.5) / vec2(pc.outSize);
    imageStore(outLin, p, textureLod(sampler2D(tex, lin), uv, 0.0));
    imageStore(outPt, p, textureLod(sampler2D(tex, pt), uv, 0.0));
}
