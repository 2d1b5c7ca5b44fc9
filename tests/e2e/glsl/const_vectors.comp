#version 450
// Constant vectors stored whole (a zero vec4 on one side of a branch, ivec4/uvec4
// literals: lower_to_hw writes 64-bit inline pairs with one v_lshrrev_b64 in wave64)
// and push constants read across a gap (isel/kernarg_loads.py merges them into one
// load whose unread middle is a dead p_split_vector piece).
layout(push_constant) uniform PC {
    uint n;
    float unused_a;
    float unused_b;
    uint m;
} pc;
layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Z { vec4 z[]; };
layout(std430, set = 0, binding = 2) writeonly buffer K { ivec4 k[]; };
layout(std430, set = 0, binding = 3) writeonly buffer P { uvec4 p[]; };
layout(std430, set = 0, binding = 4) writeonly buffer U { uint u[]; };
layout(local_size_x = 64) in;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (a[i] < 0.0)
        z[i] = vec4(0.0);
    else
        z[i] = vec4(a[i], 1.0, a[i], 0.0);
    k[i] = ivec4(-1, -1, 64, 0);
    p[i] = uvec4(0u, 5u, 65u, 0u);
    u[i] = i < pc.n ? pc.m : 7u;
}
