#version 450
// GLSL.std.450 on double: Floor, Ceil, Trunc, Round, RoundEven, Fract, FAbs, FSign, FMin,
// FMax, FClamp, FMix, Step, SmoothStep, Sqrt, InverseSqrt, Fma, Modf, Frexp, Ldexp, FMod,
// Determinant, MatrixInverse. `x` never has a .5 fraction (round() ties are undefined).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { double a[]; };   // k/64 + 1/256
layout(set = 0, binding = 1) readonly buffer B { double b[]; };   // (0.01, 1000)
layout(set = 0, binding = 2) readonly buffer E { int e[]; };
layout(set = 0, binding = 3) writeonly buffer O { double o[]; };
layout(set = 0, binding = 4) writeonly buffer P { int p[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    double x = a[i], y = b[i];
    uint k = 28 * i;
    o[k + 0] = floor(x);
    o[k + 1] = ceil(x);
    o[k + 2] = trunc(x);
    o[k + 3] = round(x);
    o[k + 4] = roundEven(x + 0.5lf - 1.0lf / 256.0lf);
    o[k + 5] = fract(x);
    o[k + 6] = abs(x);
    o[k + 7] = sign(x);
    o[k + 8] = min(x, y);
    o[k + 9] = max(x, y);
    o[k + 10] = clamp(x, -2.5lf, 3.5lf);
    o[k + 11] = mix(x, y, 0.25lf);
    o[k + 12] = step(y, x);
    o[k + 13] = smoothstep(-10.0lf, 10.0lf, x);
    o[k + 14] = sqrt(y);
    o[k + 15] = inversesqrt(y);
    o[k + 16] = fma(x, y, x);
    double ip;
    o[k + 17] = modf(x, ip);
    o[k + 18] = ip;
    int ex;
    o[k + 19] = frexp(y, ex);
    p[2 * i] = ex;
    o[k + 20] = ldexp(x, e[i]);
    o[k + 21] = mod(x, 3.0lf);
    dmat3 m = dmat3(x, 1.0lf, 2.0lf, y, 5.0lf, 1.0lf, 0.5lf, -1.0lf, 4.0lf);
    o[k + 22] = determinant(m);
    dmat2 m2 = inverse(dmat2(y + 4.0lf, x, 1.0lf, 3.0lf));
    o[k + 23] = m2[0][0];
    o[k + 24] = m2[0][1];
    o[k + 25] = m2[1][0];
    o[k + 26] = m2[1][1];
    o[k + 27] = x / y;
    p[2 * i + 1] = int(x * 100.0lf);
}
