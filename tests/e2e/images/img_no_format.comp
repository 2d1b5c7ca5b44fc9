#version 450
// a storage image without a format qualifier (the format comes from the descriptor)
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform writeonly image2D dst;
layout(set = 0, binding = 1) readonly buffer In { float v[]; } inp;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStore(dst, p, vec4(inp.v[p.y * 16 + p.x], float(p.x), float(p.y), 1.0));
}
