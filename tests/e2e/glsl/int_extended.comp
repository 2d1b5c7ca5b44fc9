#version 450
// Extended integer arithmetic: umulExtended, imulExtended (OpUMulExtended/OpSMulExtended),
// uaddCarry (OpIAddCarry), usubBorrow (OpISubBorrow), scalar and uvec2.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uvec2 a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i].x, y = a[i].y;
    uint hi, lo, carry, borrow;
    umulExtended(x, y, hi, lo);
    o[12 * i + 0] = hi;
    o[12 * i + 1] = lo;
    int shi, slo;
    imulExtended(int(x), int(y), shi, slo);
    o[12 * i + 2] = uint(shi);
    o[12 * i + 3] = uint(slo);
    o[12 * i + 4] = uaddCarry(x, y, carry);
    o[12 * i + 5] = carry;
    o[12 * i + 6] = usubBorrow(x, y, borrow);
    o[12 * i + 7] = borrow;
    uvec2 vh, vl, vc;
    umulExtended(uvec2(x, y), uvec2(y, 0xffffffffu), vh, vl);
    o[12 * i + 8] = vh.x ^ vh.y;
    o[12 * i + 9] = vl.x + vl.y;
    uvec2 s = uaddCarry(uvec2(x, y), uvec2(x, 1u), vc);
    o[12 * i + 10] = s.x + s.y;
    o[12 * i + 11] = vc.x * 2u + vc.y;
}
