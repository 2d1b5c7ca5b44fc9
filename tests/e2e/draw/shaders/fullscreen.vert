#version 450
// no vertex inputs: one triangle over the framebuffer from gl_VertexIndex
layout(location = 0) out vec2 uv;
void main() {
    uv = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    gl_Position = vec4(uv * 2.0 - 1.0, 0.5, 1.0);
}
