#version 450
// integer texels read as 16-bit values (ACO's MIMG d16 loads of a narrow integer format:
// every use of the rgba8ui texel is a conversion to uint16_t/int16_t), 16-bit arithmetic
// that wraps, results widened into an r32ui image, an rgba8ui image (d16 store) and a
// buffer
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8ui) uniform readonly uimage2D a;
layout(set = 0, binding = 1, r32ui) uniform writeonly uimage2D b;
layout(set = 0, binding = 2, rgba8ui) uniform writeonly uimage2D c;
layout(set = 0, binding = 3) buffer O { uint o[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    u16vec4 v = u16vec4(imageLoad(a, p));
    i16vec2 s = i16vec2(imageLoad(a, p.yx).zw);
    uint16_t m = v.x * v.y * uint16_t(7) + v.z - v.w * uint16_t(300);
    imageStore(b, p, uvec4(m));
    imageStore(c, p, uvec4(v.wzyx ^ u16vec4(uint16_t(p.x))) & 255u);
    o[p.y * 16 + p.x] = uint(int(s.x - s.y * int16_t(129)));
}
