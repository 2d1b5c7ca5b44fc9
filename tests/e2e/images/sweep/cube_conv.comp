#version 450
// cube-map convolution (irradiance-style): every texel of every face of a small output
// cube (a storage imageCube, addressed as its 6 faces) gathers 9 cosine-weighted
// textureLod samples of an environment samplerCube around its direction
layout(local_size_x = 4, local_size_y = 4, local_size_z = 6) in;
layout(set = 0, binding = 0) uniform samplerCube env;
layout(set = 0, binding = 1, rgba32f) uniform writeonly imageCube dst;
vec3 faceDir(uint face, vec2 st) {
    vec2 c = st * 2.0 - 1.0;
    switch (face) {
    case 0u: return vec3(1.0, -c.y, -c.x);
    case 1u: return vec3(-1.0, -c.y, c.x);
    case 2u: return vec3(c.x, 1.0, c.y);
    case 3u: return vec3(c.x, -1.0, -c.y);
    case 4u: return vec3(c.x, -c.y, 1.0);
    default: return vec3(-c.x, -c.y, -1.0);
    }
}
void main() {
    uvec3 g = gl_GlobalInvocationID;
    vec3 n = normalize(faceDir(g.z, (vec2(g.xy) + 0.5) / vec2(imageSize(dst).xy)));
    vec3 up = abs(n.y) < 0.999 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
    vec3 t = normalize(cross(up, n));
    vec3 b = cross(n, t);
    vec4 acc = vec4(0.0);
    float wsum = 0.0;
    for (int j = -1; j <= 1; ++j)
        for (int i = -1; i <= 1; ++i) {
            vec3 d = normalize(n + 0.35 * (float(i) * t + float(j) * b));
            float w = max(dot(d, n), 0.0);
            acc += textureLod(env, d, 0.0) * w;
            wsum += w;
        }
    imageStore(dst, ivec3(g), acc / wsum);
}
