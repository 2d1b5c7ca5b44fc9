#version 450
// cube maps (issue 11): textureLod of a samplerCube and a samplerCubeArray (image_sample_lz
// / _l with dim SQ_RSRC_IMG_CUBE after v_cubesc/tc/ma/id_f32), textureGather of the cube,
// the size queries, and imageLoad/imageStore/imageSize of a storage imageCubeArray (the
// 2-D array of its faces)
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerCube cs;
layout(set = 0, binding = 1) uniform samplerCubeArray ca;
layout(set = 0, binding = 2, rgba32f) uniform imageCubeArray ic;
layout(std430, set = 2, binding = 0) readonly buffer In { vec4 dirs[]; };
layout(std430, set = 2, binding = 1) writeonly buffer Out {
    vec4 r0[64]; vec4 r1[64]; vec4 r2[64]; vec4 r3[64]; ivec4 sz[2];
};
void main() {
    uint p = gl_GlobalInvocationID.x;
    vec4 d = dirs[p];
    r0[p] = textureLod(cs, d.xyz, 0.0);
    r1[p] = textureLod(ca, d, 0.0);
    r2[p] = textureGather(cs, d.xyz, 1);
    r3[p] = textureLod(cs, d.xyz, d.w * 0.0 + 0.25);
    ivec3 c = ivec3(int(p) % 4, int(p) / 4 % 4, int(p) / 16 % 12);
    vec4 t = imageLoad(ic, c);
    imageStore(ic, c, t * 2.0 + vec4(float(c.z)));
    if (p == 0u) {
        sz[0] = ivec4(textureSize(cs, 0), textureSize(ca, 0).xy);
        sz[1] = ivec4(textureSize(ca, 0).z, imageSize(ic));
    }
}
