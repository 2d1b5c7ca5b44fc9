#version 450
// sampling arrayed images (issue 11): textureLod / textureGrad / textureLodOffset /
// textureGather of a sampler2DArray, textureGather with a depth reference of a
// sampler2DArrayShadow and textureLod of a sampler1DArray (image_sample_lz/_d/_lz_o,
// image_gather4_lz, image_gather4_c_lz with dims SQ_RSRC_IMG_2D_ARRAY/1D_ARRAY; the layer
// rounded to nearest even by v_rndne_f32)
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2DArray t2;
layout(set = 0, binding = 1) uniform sampler1DArray t1;
layout(set = 0, binding = 2) uniform sampler2DArrayShadow ts;
layout(std430, set = 2, binding = 0) readonly buffer In { vec4 uvl[]; };
layout(std430, set = 2, binding = 1) writeonly buffer Out { vec4 r[6][64]; };
void main() {
    uint p = gl_GlobalInvocationID.x;
    vec4 c = uvl[p];
    r[0][p] = textureLod(t2, c.xyz, 0.0);
    r[1][p] = textureGrad(t2, c.xyz, vec2(0.01, 0.0), vec2(0.0, 0.01));
    r[2][p] = textureLodOffset(t2, c.xyz, 0.0, ivec2(1, -2));
    r[3][p] = textureGather(t2, c.xyz, 2);
    r[4][p] = textureGather(ts, c.xyz, c.w);
    r[5][p] = textureLod(t1, c.xz, 0.0);
}
