#version 450
// Nested structs and arrays in std430 (Inner stride 12, Outer stride 48): whole-struct
// copies, swaps of array elements with dynamic indices, members of members.
struct Inner { uint a; float b[2]; };
struct Outer { Inner in_[3]; uvec2 tag; };
layout(std430, set = 0, binding = 0) readonly buffer Src { Outer src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Dst { Outer dst[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Dst2 { Outer dst2[]; };
layout(local_size_x = 64) in;
void main() {
    uint i = gl_GlobalInvocationID.x;
    Outer x = src[i];
    uint j = i % 3u, k = (i + 1u) % 3u;
    Inner t = x.in_[j];
    x.in_[j] = x.in_[k];
    x.in_[k] = t;
    x.tag = x.tag.yx + uvec2(x.in_[0].a, floatBitsToUint(x.in_[2].b[1]));
    dst[i] = x;
    dst2[i] = src[255u - i];
}
