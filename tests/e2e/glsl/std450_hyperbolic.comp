#version 450
// GLSL.std.450 Sinh, Cosh, Tanh, Asinh, Acosh, Atanh.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };   // [-4, 4]
layout(set = 0, binding = 1) readonly buffer B { float b[]; };   // [-0.9, 0.9]
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], t = b[i];
    uint k = 8 * i;
    o[k + 0] = sinh(x);
    o[k + 1] = cosh(x);
    o[k + 2] = tanh(x);
    o[k + 3] = asinh(x);
    o[k + 4] = acosh(abs(x) + 1.0);
    o[k + 5] = atanh(t);
    vec2 h = tanh(vec2(x, t)) + sinh(vec2(t, -t));
    o[k + 6] = h.x;
    o[k + 7] = h.y;
}
