#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() { o = vec4(uv, fract(uv.x * 4.0) * fract(uv.y * 3.0), 1.0); }
