#version 450
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() { o = gl_FrontFacing ? vec4(1.0, 0.0, vcol.z, 1.0) : vec4(0.0, 1.0, vcol.z, 1.0); }
