#version 450
// GLSL.std.450 Sin, Cos, Tan, Asin, Acos, Atan, Atan2, Radians, Degrees.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };   // [-pi, pi]
layout(set = 0, binding = 1) readonly buffer B { float b[]; };   // [-1, 1]
layout(set = 0, binding = 2) readonly buffer C { vec2 c[]; };    // [-5, 5]^2
layout(set = 0, binding = 3) writeonly buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], s = b[i];
    vec2 p = c[i];
    uint k = 12 * i;
    o[k + 0] = sin(x);
    o[k + 1] = cos(x);
    o[k + 2] = tan(x * 0.4);
    o[k + 3] = asin(s);
    o[k + 4] = acos(s);
    o[k + 5] = atan(p.y / p.x);
    o[k + 6] = atan(p.y, p.x);
    o[k + 7] = radians(x * 57.0);
    o[k + 8] = degrees(x);
    vec3 v = sin(vec3(x, x * 0.5, -x)) + cos(vec3(-x, x * 0.25, x));
    o[k + 9] = v.x;
    o[k + 10] = v.y;
    o[k + 11] = v.z;
}
