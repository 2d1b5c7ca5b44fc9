#version 450
// Booleans: bool <-> int/uint/float/double conversions, &&, ||, ^^, !, bvec any/all/not,
// component-wise comparisons (lessThan, equal, ...), select on vectors, bools in buffers
// (as uint) and short-circuit evaluation with side effects.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { ivec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };   // 0/1/other (non-zero = true)
layout(set = 0, binding = 2) writeonly buffer O { uint o[]; };
layout(set = 0, binding = 3) writeonly buffer P { float p[]; };
shared uint calls[64];
bool bump(uint l, bool v) {
    calls[l] += 1u;
    return v;
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationIndex;
    calls[l] = 0u;
    ivec4 v = a[i];
    bool flag = bool(b[i]);
    bool p0 = v.x < v.y, p1 = v.z == 0, p2 = v.w > 100;
    uint k = 12 * i;
    o[k + 0] = uint(p0) + 2u * uint(p1) + 4u * uint(p2) + 8u * uint(flag);
    o[k + 1] = uint(p0 && p2) | uint(p0 || p1) << 1 | uint(p0 ^^ flag) << 2 | uint(!p2) << 3;
    bvec4 lt = lessThan(v, v.yzwx);
    bvec4 eq = equal(v & 3, ivec4(1));
    bvec4 ge = greaterThanEqual(v, ivec4(0));
    o[k + 2] = uint(any(lt)) | uint(all(lt)) << 1 | uint(any(eq)) << 2 | uint(all(ge)) << 3
               | uint(any(not(ge))) << 4 | uint(all(notEqual(v, ivec4(7)))) << 5;
    uvec4 sel = mix(uvec4(1u, 2u, 3u, 4u), uvec4(10u, 20u, 30u, 40u), lt);
    o[k + 3] = sel.x + sel.y + sel.z + sel.w;
    o[k + 4] = uint(int(flag) * -5 + int(p0));
    ivec4 bi = ivec4(lt) + ivec4(eq) * 2;
    o[k + 5] = uint(bi.x | bi.y << 2 | bi.z << 4 | bi.w << 6);
    bool sc = p0 && bump(l, p1);
    sc = sc || bump(l, flag);
    o[k + 6] = uint(sc);
    o[k + 7] = calls[l];
    o[k + 8] = uint(flag == p0) + uint(flag != p1) * 2u;
    bvec2 bv = bvec2(v.xy);
    o[k + 9] = uint(bv.x) + uint(bv.y) * 2u + uint(bool(uint(v.z) & 1u)) * 4u;
    o[k + 10] = p1 ? 77u : (p2 ? uint(v.w) : 5u);
    o[k + 11] = uint(!(flag && p0) == (!flag || !p0));
    p[2 * i + 0] = float(p0) * 1.5 + float(flag);
    p[2 * i + 1] = float(double(p2) - 0.25lf);
}
