#version 450
// GLSL.std.450 Determinant, MatrixInverse; transpose, matrix products, outerProduct,
// matrixCompMult (mat2, mat3, mat4). Matrices are diagonally dominant (well conditioned).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { mat4 a[]; };
layout(set = 0, binding = 1) readonly buffer V { vec4 v[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    mat4 m = a[i];
    vec4 x = v[i];
    uint k = 64 * i;
    mat4 inv = inverse(m);
    mat3 m3 = mat3(m);
    mat2 m2 = mat2(m);
    mat3 inv3 = inverse(m3);
    mat2 inv2 = inverse(m2);
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            o[k + c * 4 + r] = inv[c][r];
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            o[k + 16 + c * 3 + r] = inv3[c][r];
    o[k + 25] = inv2[0][0]; o[k + 26] = inv2[0][1]; o[k + 27] = inv2[1][0]; o[k + 28] = inv2[1][1];
    o[k + 29] = determinant(m);
    o[k + 30] = determinant(m3);
    o[k + 31] = determinant(m2);
    vec4 mv = m * x;
    vec4 vm = x * m;
    mat4 tm = transpose(m);
    mat4 pm = m * tm;
    mat4 op = outerProduct(x, x.wzyx);
    mat4 cm = matrixCompMult(m, op);
    o[k + 32] = mv.x; o[k + 33] = mv.y; o[k + 34] = mv.z; o[k + 35] = mv.w;
    o[k + 36] = vm.x; o[k + 37] = vm.y; o[k + 38] = vm.z; o[k + 39] = vm.w;
    for (int c = 0; c < 4; c++) {
        o[k + 40 + c] = pm[c][c] + tm[c][(c + 1) & 3];
        o[k + 44 + c] = op[c][3 - c];
        o[k + 48 + c] = cm[c][c];
    }
    mat2x3 r23 = mat2x3(m[0].xyz, m[1].xyz);
    mat3x2 r32 = transpose(r23);
    mat2 p22 = r32 * r23;
    o[k + 52] = p22[0][0]; o[k + 53] = p22[0][1]; o[k + 54] = p22[1][0]; o[k + 55] = p22[1][1];
    for (int c = 56; c < 64; c++)
        o[k + c] = 0.0;
}
