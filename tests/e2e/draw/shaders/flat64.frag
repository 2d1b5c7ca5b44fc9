#version 450
// 64-bit flat varyings: a dvec3 (locations 0-1) and a double, read back as floats
layout(location = 0) flat in dvec3 d;
layout(location = 2) flat in double e;
layout(location = 0) out vec4 o;
void main() { o = vec4(vec3(d), float(e * 1000.0lf)); }
