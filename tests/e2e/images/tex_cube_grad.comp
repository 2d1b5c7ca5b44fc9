#version 450
// textureGrad of a samplerCube and a samplerCubeArray (image_sample_d dim CUBE: the
// direction's derivatives transformed to the face's s, t), the gradients from a buffer
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerCube cs;
layout(set = 0, binding = 1) uniform samplerCubeArray ca;
layout(std430, set = 1, binding = 0) readonly buffer In { vec4 q[]; };
layout(std430, set = 1, binding = 1) writeonly buffer Out { vec4 r0[64]; vec4 r1[64]; };
void main() {
    uint p = gl_GlobalInvocationID.x;
    vec4 d = q[3u * p], gx = q[3u * p + 1u], gy = q[3u * p + 2u];
    r0[p] = textureGrad(cs, d.xyz, gx.xyz, gy.xyz);
    r1[p] = textureGrad(ca, d, gx.xyz, gy.xyz);
}
