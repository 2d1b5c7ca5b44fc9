#version 450
// sampling at 16-bit float coordinates and levels (ACO's a16 MIMG forms after NIR's
// 16-bit fold): textureLod at level 0 and at a float16 level, textureLodOffset, a
// textureGather, coordinates read from a float16 buffer
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D t;
layout(set = 0, binding = 1) buffer B { vec4 o[]; };
layout(set = 0, binding = 2) readonly buffer C { f16vec4 uv[]; };
void main() {
    uint i = gl_GlobalInvocationID.y * 16 + gl_GlobalInvocationID.x;
    f16vec4 c = uv[i];
    o[i * 4] = textureLod(t, vec2(c.xy), 0.0);
    o[i * 4 + 1] = textureLod(t, vec2(c.yx), float(c.z));
    o[i * 4 + 2] = textureLodOffset(t, vec2(c.zw), 0.0, ivec2(2, -1));
    o[i * 4 + 3] = textureGather(t, vec2(c.wx), 2);
}
