#version 450
// Matrix layouts in std430: row_major mat4, column_major mat4, row_major mat2x3 (rows of
// vec2, stride 24 per matrix); matrix-vector products.
layout(std430, row_major, set = 0, binding = 0) readonly buffer R { mat4 r[]; };
layout(std430, set = 0, binding = 1) readonly buffer C { layout(column_major) mat4 c[]; };
layout(std430, set = 0, binding = 2) readonly buffer R23 { layout(row_major) mat2x3 r23[]; };
layout(std430, set = 0, binding = 3) readonly buffer X { vec4 x[]; };
layout(std430, set = 0, binding = 4) writeonly buffer O { vec4 o[]; };
layout(local_size_x = 64) in;
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = x[i];
    o[3u * i + 0u] = r[i] * v;
    o[3u * i + 1u] = c[i] * v;
    o[3u * i + 2u] = vec4(r23[i] * v.xy, r[i][1][2] + c[i][1][2]);
}
