#version 450
// colour grading through a 3-D lookup table: an rgba8 image's colour (scaled to the
// texel centres of a 8^3 LUT) sampled trilinearly from an rgba32f sampler3D, blended
// with the original by a strength push constant
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform image2D img;
layout(set = 0, binding = 1) uniform sampler3D lut;
layout(push_constant) uniform P { float strength; } pc;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 c = imageLoad(img, p);
    float n = float(textureSize(lut, 0).x);
    vec3 uvw = c.rgb * ((n - 1.0) / n) + 0.5 / n;
    vec3 g = textureLod(lut, uvw, 0.0).rgb;
    imageStore(img, p, vec4(mix(c.rgb, g, pc.strength), c.a));
}
