#version 450
// an image atomic on an r32ui storage image (run with a packed format's descriptor)
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D img;

void main() {
    imageAtomicAdd(img, ivec2(gl_GlobalInvocationID.xy), 1u);
}
