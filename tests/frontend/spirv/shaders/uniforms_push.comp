#version 450
// Uniform buffers (std140: matrices, arrays with strides) and push constants.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std140, set = 0, binding = 0) uniform Params {
    mat4 transform;
    vec4 colors[4];
    float weights[8];
    ivec2 dims;
    dmat2 unused_d;
} params;
layout(push_constant) uniform Push { uint offset; float scale; vec2 bias; } pc;
layout(std430, set = 0, binding = 1) buffer Out { vec4 o[]; } outb;

void main() {
    uvec2 g = gl_GlobalInvocationID.xy;
    if (any(greaterThanEqual(ivec2(g), params.dims))) return;
    vec4 c = params.colors[g.x & 3u] * params.weights[g.y & 7u];
    c = params.transform * c;
    outb.o[pc.offset + g.y * uint(params.dims.x) + g.x] = c * pc.scale + vec4(pc.bias, 0.0, 1.0);
}
