#version 450
// texelFetch of a uniform texel buffer (a V#: buffer_load_format_xyzw) of any format
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerBuffer src;
layout(set = 0, binding = 1, std430) writeonly buffer Out { vec4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = texelFetch(src, int(i));
}
