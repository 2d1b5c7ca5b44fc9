#version 450
// Loop accumulators that all start at zero (ncnn's convolution_packed shape): after
// value numbering they share one zero, and each loop phi's copy in the preheader
// writes the constant (lower_to_cssa), paired into v_lshrrev_b64 in wave64.
layout(std430, set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(std430, set = 0, binding = 1) readonly buffer C { uint cnt[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { vec4 o[]; };
layout(local_size_x = 64) in;
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 s0 = vec4(0.0), s1 = vec4(0.0), s2 = vec4(0.0);
    ivec4 m = ivec4(0);
    for (uint k = 0u; k < cnt[i]; k++) {
        vec4 x = a[(i + k) & 255u];
        s0 += x;
        s1 += x * x;
        s2 = max(s2, x);
        m += ivec4(greaterThan(x, vec4(0.0)));
    }
    o[i * 4u] = s0;
    o[i * 4u + 1u] = s1;
    o[i * 4u + 2u] = s2;
    o[i * 4u + 3u] = vec4(m);
}
