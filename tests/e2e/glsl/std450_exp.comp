#version 450
// GLSL.std.450 Pow, Exp, Log, Exp2, Log2, Sqrt, InverseSqrt (float and vec4).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };   // (0.01, 20)
layout(set = 0, binding = 1) readonly buffer B { float b[]; };   // (-4, 4)
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], y = b[i];
    uint k = 12 * i;
    o[k + 0] = pow(x, y);
    o[k + 1] = exp(y);
    o[k + 2] = log(x);
    o[k + 3] = exp2(y);
    o[k + 4] = log2(x);
    o[k + 5] = sqrt(x);
    o[k + 6] = inversesqrt(x);
    vec4 v = vec4(x, x + 1.0, x * 2.0, 0.5);
    vec4 e = exp2(vec4(y)) * sqrt(v) + log2(v);
    o[k + 7] = e.x;
    o[k + 8] = e.y;
    o[k + 9] = e.z;
    o[k + 10] = e.w;
    o[k + 11] = pow(2.0, y) - exp(y * 0.6931471805599453);
}
