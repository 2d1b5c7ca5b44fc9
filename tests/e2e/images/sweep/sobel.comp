#version 450
// Sobel edge detection on the luminance of an rgba8 texture: texelFetch of the 3x3
// neighbourhood (clamped), gradient magnitude and direction to an rg32f image, a
// thresholded edge mask to an r8 image
layout(local_size_x = 16, local_size_y = 4) in;
layout(set = 0, binding = 0) uniform sampler2D src;
layout(set = 0, binding = 1, rg32f) uniform writeonly image2D grad;
layout(set = 0, binding = 2, r8) uniform writeonly image2D edges;
float lum(ivec2 q) {
    ivec2 s = textureSize(src, 0);
    vec3 c = texelFetch(src, clamp(q, ivec2(0), s - 1), 0).rgb;
    return dot(c, vec3(0.2126, 0.7152, 0.0722));
}
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    float t[9];
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i)
            t[j * 3 + i] = lum(p + ivec2(i - 1, j - 1));
    float gx = (t[2] + 2.0 * t[5] + t[8]) - (t[0] + 2.0 * t[3] + t[6]);
    float gy = (t[6] + 2.0 * t[7] + t[8]) - (t[0] + 2.0 * t[1] + t[2]);
    float m = sqrt(gx * gx + gy * gy);
    imageStore(grad, p, vec4(m, gx - gy, 0.0, 0.0));
    imageStore(edges, p, vec4(m > 0.5 ? 1.0 : 0.0));
}
