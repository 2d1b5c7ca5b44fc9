#version 450
// Specialization constants: workgroup size, scalars of each kind, spec-constant operations.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z = 1) in;
layout(constant_id = 2) const int ITER = -7;
layout(constant_id = 3) const uint MASK = 0xFFu;
layout(constant_id = 4) const float SCALE = 0.25;
layout(constant_id = 5) const bool ENABLE = false;
layout(constant_id = 6) const double DSCALE = 2.5lf;
const int TWICE = ITER * 2;
const uint SHIFTED = (MASK << 4) | 3u;
const bool BOTH = ENABLE && (ITER > 0);
const ivec2 PAIR = ivec2(ITER, 5);
layout(std430, binding = 0) buffer B { float v[]; } b;
layout(std430, binding = 1) buffer C { double d; int w[]; } c;

void main() {
    uint i = gl_GlobalInvocationID.x;
    float acc = 0.0;
    for (int k = 0; k < TWICE; ++k) acc += SCALE;
    if (BOTH) acc *= 2.0;
    b.v[i & MASK] = acc + float(gl_WorkGroupSize.x * gl_WorkGroupSize.y);
    c.w[i] = PAIR.x + PAIR.y + int(SHIFTED);
    c.d = DSCALE;
}
