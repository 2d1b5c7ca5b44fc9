#version 450
// A broad sample of GLSL.std.450 extended instructions.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { vec4 v[]; } b;
layout(std430, binding = 1) buffer I { ivec4 iv[]; } ib;

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 x = b.v[i];
    ivec4 n = ib.iv[i];
    vec4 r = sin(x) + cos(x) + tan(x) + asin(x) + acos(x) + atan(x, x + 1.0) + sinh(x) + cosh(x)
        + tanh(x) + asinh(x) + acosh(x) + atanh(x) + radians(x) + degrees(x);
    r += pow(x, vec4(2.0)) + exp(x) + log(x) + exp2(x) + log2(x) + sqrt(x) + inversesqrt(x);
    r += abs(x) + sign(x) + floor(x) + ceil(x) + fract(x) + trunc(x) + round(x) + roundEven(x);
    r += min(x, 1.0) + max(x, 0.0) + clamp(x, -1.0, 1.0) + mix(x, r, 0.5) + step(0.5, x)
        + smoothstep(0.0, 1.0, x) + fma(x, x, x);
    vec4 ip;
    r += modf(x, ip) + ip;
    ivec4 e;
    r += frexp(x, e) + ldexp(x, e);
    r.xyz += cross(x.xyz, r.xyz) + normalize(x.xyz) + reflect(x.xyz, r.xyz)
        + refract(x.xyz, r.xyz, 0.5) + faceforward(x.xyz, r.xyz, x.xyz);
    r.x += length(x) + distance(x, r) + determinant(mat2(x.xy, x.zw)) + inverse(mat2(x))[0].x;
    n = abs(n) + sign(n) + min(n, ivec4(3)) + max(n, ivec4(-3)) + clamp(n, -5, 5) + findMSB(n)
        + findLSB(n) + ivec4(findMSB(uvec4(n)));
    uint p = packUnorm4x8(x) ^ packSnorm2x16(x.xy) ^ packHalf2x16(x.zw);
    r += unpackUnorm4x8(p) + unpackSnorm4x8(p);
    r.xy += unpackHalf2x16(p) + unpackUnorm2x16(p);
    b.v[i] = r + vec4(isnan(x)) + vec4(isinf(x)) + vec4(uvec4(n) * 3u);
    uvec4 hi, lo;
    umulExtended(uvec4(n), uvec4(3u), hi, lo);
    ib.iv[i] = n + ivec4(e) + ivec4(hi ^ lo);
}
