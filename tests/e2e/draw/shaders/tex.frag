#version 450
// texture() with an implicit LOD (derivatives of the coordinates, whole-quad mode)
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() { o = texture(tex, vcol.xy) * vec4(1.0, 1.0, 1.0, vcol.w); }
