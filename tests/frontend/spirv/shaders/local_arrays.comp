#version 450
// Local arrays with dynamic indexing, constant arrays, structs and null initialisers.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint idx[]; } b;
layout(std430, binding = 1) buffer O { float o[]; } ob;
struct S { float a; ivec2 b; float arr[2]; };
const float table[8] = float[8](0.0, 1.0, -1.0, 0.5, 2.0, -0.25, 1e10, -1e-10);
const S cs = S(1.0, ivec2(2, -3), float[2](4.0, 5.0));

void main() {
    uint i = gl_GlobalInvocationID.x;
    float local[16];
    for (int k = 0; k < 16; ++k) local[k] = float(k) * table[k & 7];
    S s = cs;
    s.arr[b.idx[i] & 1u] += local[b.idx[i] & 15u];
    mat3 m = mat3(0.0);
    m[b.idx[i] % 3u] = vec3(s.a, float(s.b.y), s.arr[1]);
    ob.o[i] = local[(b.idx[i] + 1u) & 15u] + table[b.idx[i] & 7u] + m[1][1] + m[2].z;
}
