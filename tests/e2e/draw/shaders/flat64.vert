#version 450
// 64-bit flat varyings: a dvec3 (two locations) and a double
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) flat out dvec3 d;
layout(location = 2) flat out double e;
void main() { gl_Position = pos; d = dvec3(col.xyz) * 3.0lf + double(gl_VertexIndex); e = double(col.w) / 7.0lf; }
