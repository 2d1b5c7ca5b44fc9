#version 450
// Bindings spread over descriptor sets 0..2 with sparse binding numbers, a uniform and
// storage buffers mixed.
layout(std140, set = 0, binding = 0) uniform Params { uint mul; uint add; };
layout(std430, set = 1, binding = 3) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 5) readonly buffer B { uint b[]; };
layout(std430, set = 2, binding = 1) writeonly buffer O { uint o[]; };
layout(std430, set = 2, binding = 0) writeonly buffer P { uint p[]; };
layout(local_size_x = 64) in;
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = a[i] * mul + b[i];
    p[i] = b[255u - i] + add;
}
