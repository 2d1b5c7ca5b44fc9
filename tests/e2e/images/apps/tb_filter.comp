#version 450
// texel buffers: r32f samplerBuffer (uniform texel buffer) smoothed into an r32f
// imageBuffer; rgba8 samplerBuffer unpacked to rgba32ui imageBuffer; sizes queried
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerBuffer sig;
layout(set = 0, binding = 1, r32f) uniform writeonly imageBuffer smooth_out;
layout(set = 0, binding = 2) uniform samplerBuffer cols;
layout(set = 0, binding = 3, rgba32ui) uniform writeonly uimageBuffer ucols;
layout(set = 0, binding = 4) buffer O { int sizes[4]; };
void main() {
    int i = int(gl_GlobalInvocationID.x);
    int n = textureSize(sig);
    if (i < n) {
        float a = texelFetch(sig, max(i - 1, 0)).r;
        float b = texelFetch(sig, i).r;
        float c = texelFetch(sig, min(i + 1, n - 1)).r;
        imageStore(smooth_out, i, vec4(0.25 * a + 0.5 * b + 0.25 * c));
    }
    if (i < textureSize(cols))
        imageStore(ucols, i, uvec4(round(texelFetch(cols, i) * 255.0)) + uvec4(i, 0, 0, 1000));
    if (i == 0) {
        sizes[0] = n; sizes[1] = textureSize(cols); sizes[2] = imageSize(smooth_out);
        sizes[3] = imageSize(ucols);
    }
}
