#version 450
// seed: a vertex shader (attributes, a uniform buffer, push constants, outputs, built-ins)
layout(set = 0, binding = 0) uniform Xform { mat4 m; vec4 bias; };
layout(push_constant) uniform Push { vec4 tint; float scale; };
layout(location = 0) in vec3 pos;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 vcol;
layout(location = 1) flat out int vid;
layout(location = 2) out vec2 vuv;
void main() {
    gl_Position = m * vec4(pos * scale, 1.0);
    vcol = clamp(tint + bias * pos.x, 0.0, 1.0);
    vid = gl_VertexIndex + gl_InstanceIndex;
    vuv = uv;
}
