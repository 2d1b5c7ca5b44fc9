#version 450
layout(location = 0) in vec4 vcol;
layout(location = 1) flat in uvec2 ids;
layout(location = 0) out vec4 o;
void main() { o = vcol + vec4(0.0, 0.0, float(ids.y) * 0.25, 0.0); }
