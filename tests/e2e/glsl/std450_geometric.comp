#version 450
// GLSL.std.450 Length, Distance, Cross, Normalize, FaceForward, Reflect, Refract; dot.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { vec4 b[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec3 x = a[i].xyz, y = b[i].xyz;
    float eta = a[i].w;   // [0.5, 1.5]
    uint k = 20 * i;
    o[k + 0] = length(x);
    o[k + 1] = distance(x, y);
    o[k + 2] = dot(x, y);
    vec3 c = cross(x, y);
    vec3 n = normalize(y);
    vec3 f = faceforward(x, y, n.yzx);
    vec3 r = reflect(x, n);
    vec3 t = refract(normalize(x), n, eta);
    o[k + 3] = c.x; o[k + 4] = c.y; o[k + 5] = c.z;
    o[k + 6] = n.x; o[k + 7] = n.y; o[k + 8] = n.z;
    o[k + 9] = f.x; o[k + 10] = f.y; o[k + 11] = f.z;
    o[k + 12] = r.x; o[k + 13] = r.y; o[k + 14] = r.z;
    o[k + 15] = t.x; o[k + 16] = t.y; o[k + 17] = t.z;
    o[k + 18] = length(vec2(x.x, y.y)) + length(x.z);
    o[k + 19] = dot(vec4(x, 1.0), vec4(y, eta));
}
