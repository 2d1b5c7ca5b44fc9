#version 450
// mipmaps: textureLod at levels from -1 to 5.5, textureGrad with anisotropic gradients
// (the level from the longer one), texelFetch at a level (out-of-range levels and
// texels read 0), textureSize per level and textureQueryLevels
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D cs;
layout(set = 1, binding = 0, rgba32f) uniform writeonly image2D o0;
layout(set = 1, binding = 1, rgba32f) uniform writeonly image2D o1;
layout(set = 1, binding = 2, rgba32f) uniform writeonly image2D o2;
layout(set = 0, binding = 1) buffer Q { ivec4 q[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    int i = p.y * 16 + p.x;
    vec2 uv = (vec2(p) + vec2(0.3, 0.7)) / 13.0 - 0.1;
    float lod = (float(i) + 0.37) * 0.0253 - 1.0;
    imageStore(o0, p, textureLod(cs, uv, lod));
    float g = exp2(float(i % 37) * 0.19 - 6.1);
    imageStore(o1, p, textureGrad(cs, uv, vec2(g, g * 0.25), vec2(-g * 0.5, g * 0.75)));
    int level = i % 7;
    imageStore(o2, p, texelFetch(cs, (p * 3) >> level, level));
    if (i < 8) {
        q[i] = ivec4(textureSize(cs, i), textureQueryLevels(cs), 0);
    }
}
