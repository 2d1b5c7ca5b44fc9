#version 450
// Scalars, vectors and matrices of int/uint/float/bool; conversions and bit operations.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Data {
    ivec4 iv;
    uvec3 uv;
    vec2 fv;
    mat4 m;
    mat2x3 m23;
    bvec2 pad_b;  // bool in a block becomes uint in SPIR-V
    float f[];
} data;

void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 a = data.iv * ivec4(1, -2, 3, -4) + (data.iv >> 2) ^ (data.iv << 1);
    uvec3 b = (data.uv | uvec3(0xF0F0F0F0u)) & ~uvec3(7u) % uvec3(3u, 5u, 7u);
    vec2 c = data.fv / vec2(0.5, -0.25) - vec2(float(i));
    bool z = any(lessThan(c, vec2(0.0))) && !all(equal(a.xy, ivec2(0)));
    vec4 mv = data.m * vec4(c, 1.0, 0.0);
    vec3 m3 = data.m23 * c;
    data.iv = a + ivec4(bitCount(a.x), findLSB(b.y), bitfieldReverse(a.z), int(bitfieldExtract(b.z, 2, 5)));
    data.uv = b;
    data.fv = z ? c : -c;
    data.f[i] = mv.x + mv.w + m3.y + float(uint(a.w)) + float(int(c.x));
}
