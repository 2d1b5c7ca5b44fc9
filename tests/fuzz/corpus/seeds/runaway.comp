#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer U { uint u[]; };
layout(push_constant) uniform P { uint n; };
void main() {
    uint acc = 0u;
    for (uint k = 0u; k != n; k++) acc += k * 3u;
    u[gl_GlobalInvocationID.x] = acc;
}
