#version 450
// sampling arrayed images at 16-bit float coordinates (MIMG a16 with the layer: the
// layer rounded to nearest even as a 16-bit float, v_rndne_f16, then packed with the
// other components): textureLod and textureLodOffset of a sampler2DArray, textureLod of
// a sampler1DArray at a float16 level, textureGather of a sampler2DArray
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2DArray t2;
layout(set = 0, binding = 1) uniform sampler1DArray t1;
layout(std430, set = 2, binding = 0) readonly buffer In { f16vec4 uvl[]; };
layout(std430, set = 2, binding = 1) writeonly buffer Out { vec4 r[4][64]; };
void main() {
    uint p = gl_GlobalInvocationID.x;
    f16vec4 c = uvl[p];
    r[0][p] = textureLod(t2, vec3(c.xyz), 0.0);
    r[1][p] = textureLodOffset(t2, vec3(c.xyz), 0.0, ivec2(1, -2));
    r[2][p] = textureLod(t1, vec2(c.xz), float(c.w));
    r[3][p] = textureGather(t2, vec3(c.yxz), 1);
}
