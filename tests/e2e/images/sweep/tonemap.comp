#version 450
// tone mapping: an HDR rgba16f image, exposure from a push constant, ACES-style filmic
// curve, linear -> sRGB encoded by hand into an rgba8 image; a second output samples
// an sRGB texture (decoded to linear by the texture unit) and re-encodes it
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba16f) uniform readonly image2D hdr;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D ldr;
layout(set = 0, binding = 2) uniform sampler2D srgbTex;
layout(set = 0, binding = 3, rgba32f) uniform writeonly image2D lin;
layout(push_constant) uniform P { float exposure; } pc;
vec3 aces(vec3 x) {
    return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
}
vec3 toSrgb(vec3 c) {
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, greaterThan(c, vec3(0.0031308)));
}
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 h = imageLoad(hdr, p);
    vec3 c = aces(max(h.rgb, vec3(0.0)) * pc.exposure);
    imageStore(ldr, p, vec4(toSrgb(c), clamp(h.a, 0.0, 1.0)));
    vec2 uv = (vec2(p) + 0.5) / vec2(imageSize(hdr));
    vec4 s = textureLod(srgbTex, uv, 0.0);
    imageStore(lin, p, vec4(s.rgb * 2.0, s.a));
}
