#version 450
// GLSL.std.450 Round, RoundEven, Trunc, Floor, Ceil, Fract, FAbs, FSign, SAbs, SSign, FMod (mod).
// round() of an exact .5 rounds in an implementation-defined direction: `a` never
// has a .5 fraction; `t` holds only ties (k + 0.5) for roundEven/trunc/floor/ceil/fract.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer T { float t[]; };
layout(set = 0, binding = 2) readonly buffer I { int n[]; };
layout(set = 0, binding = 3) writeonly buffer O { float o[]; };
layout(set = 0, binding = 4) writeonly buffer P { int p[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], y = t[i];
    uint k = 16 * i;
    o[k + 0] = round(x);
    o[k + 1] = roundEven(x);
    o[k + 2] = roundEven(y);
    o[k + 3] = trunc(x);
    o[k + 4] = floor(x);
    o[k + 5] = ceil(x);
    o[k + 6] = fract(x);
    o[k + 7] = abs(x);
    o[k + 8] = sign(x);
    o[k + 9] = mod(x, 3.0);
    o[k + 10] = trunc(y);
    o[k + 11] = floor(y);
    o[k + 12] = ceil(y);
    o[k + 13] = fract(y);
    o[k + 14] = sign(y - y);
    vec4 v = floor(vec4(x, y, -x, -y)) + ceil(vec4(y, x, -y, -x));
    o[k + 15] = v.x + 2.0 * v.y + 4.0 * v.z + 8.0 * v.w;
    int m = n[i];
    p[4 * i + 0] = abs(m);
    p[4 * i + 1] = sign(m);
    ivec2 s = sign(ivec2(m, -m)) * abs(ivec2(m, 3));
    p[4 * i + 2] = s.x;
    p[4 * i + 3] = s.y;
}
