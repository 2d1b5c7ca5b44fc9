#version 450
// colour grading: rgba8 LUT (17^3 would be usual; here 5x6x7 odd sizes) trilinear,
// input through a combined sampler (nearest) at texel centres, output rgba16f; 64x1 groups
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D img;
layout(set = 0, binding = 1) uniform sampler3D lut;
layout(set = 0, binding = 2, rgba16f) uniform writeonly image2D dst;
void main() {
    ivec2 s = textureSize(img, 0);
    int i = int(gl_GlobalInvocationID.x);
    ivec2 p = ivec2(i % s.x, i / s.x);
    if (p.y >= s.y) return;
    vec4 c = textureLod(img, (vec2(p) + 0.5) / vec2(s), 0.0);
    vec3 n = vec3(textureSize(lut, 0));
    vec3 uvw = c.rgb * ((n - 1.0) / n) + 0.5 / n;
    imageStore(dst, p, vec4(textureLod(lut, uvw, 0.0).rgb, c.a));
}
