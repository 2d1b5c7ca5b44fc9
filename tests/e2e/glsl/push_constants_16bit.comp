#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
// 8- and 16-bit push constants (StoragePushConstant8/16): members at offsets 0, 1, 2, 4,
// 6, 8.
layout(push_constant) uniform PC {
    uint8_t a;
    int8_t b;
    uint16_t c;
    float16_t h;
    int16_t d;
    uint k;
} pc;
layout(std430, set = 0, binding = 0) writeonly buffer O { int o[]; };
layout(std430, set = 0, binding = 1) writeonly buffer F { float f[]; };
layout(local_size_x = 64) in;
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = int(pc.a) * int(i) + int(pc.b) + int(pc.c) - int(pc.d) + int(pc.k);
    f[i] = float(pc.h) * float(i) + float(pc.b);
}
