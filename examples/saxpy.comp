#version 450
// y[i] = a * x[i] + y[i] over a runtime-sized buffer pair.
// Bindings: set 0 binding 0 = x (read-only), set 0 binding 1 = y; push constant: a.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform P { float a; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < y.length())
        y[i] = a * x[i] + y[i];
}
