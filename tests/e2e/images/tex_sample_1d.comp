#version 450
// textureLod/textureGrad/textureLodOffset of a 1-D image (image_sample_lz/_d/_lz_o with
// dim SQ_RSRC_IMG_1D); each result to its own rgba32f 1-D image
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler1D cs;
layout(set = 1, binding = 0, rgba32f) uniform writeonly image1D o0;
layout(set = 1, binding = 1, rgba32f) uniform writeonly image1D o1;
layout(set = 1, binding = 2, rgba32f) uniform writeonly image1D o2;
void main() {
    int p = int(gl_GlobalInvocationID.x);
    float u = (float(p) + 0.3) / 40.0 - 0.4;
    imageStore(o0, p, textureLod(cs, u, 0.0));
    imageStore(o1, p, textureGrad(cs, u, 0.01, 0.0));
    imageStore(o2, p, textureLodOffset(cs, u, 0.0, 2));
}
