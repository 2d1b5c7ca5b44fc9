#version 450
// per-vertex position, per-instance offset and tint; indices and instance index flat
layout(location = 0) in vec2 pos;
layout(location = 1) in vec2 offset;
layout(location = 2) in vec4 tint;
layout(location = 0) out vec4 vcol;
layout(location = 1) flat out uvec2 ids;
void main() {
    gl_Position = vec4(pos * 0.5 + offset, 0.0, 1.0);
    vcol = tint * vec4(vec3(0.5 + 0.5 * pos.x), 1.0);
    ids = uvec2(gl_VertexIndex, gl_InstanceIndex);
}
