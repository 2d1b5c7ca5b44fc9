#version 450
// a uniform buffer (matrix) and push constants read by the vertex shader
layout(set = 0, binding = 0) uniform Xform { mat4 m; vec4 bias; };
layout(push_constant) uniform Push { vec4 tint; float scale; };
layout(location = 0) in vec3 pos;
layout(location = 0) out vec4 vcol;
void main() {
    gl_Position = m * vec4(pos * scale, 1.0);
    vcol = clamp(tint + bias * pos.x, 0.0, 1.0);
}
