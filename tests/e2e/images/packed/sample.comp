#version 450
// bilinear sampling and gathers (components 0 and 2) of an 8x8 float-read image
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D src;
layout(set = 0, binding = 1, std430) writeonly buffer Out { vec4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.y * 8u + gl_GlobalInvocationID.x;
    vec2 uv = (vec2(gl_GlobalInvocationID.xy) * vec2(1.13, 0.87) + vec2(0.21, 0.62)) / 8.0;
    o[3u * i] = textureLod(src, uv, 0.0);
    o[3u * i + 1u] = textureGather(src, uv, 0);
    o[3u * i + 2u] = textureGather(src, uv, 2);
}
