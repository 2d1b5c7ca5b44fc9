#version 450
layout(location = 0) in vec4 vcol;
layout(location = 1) flat in uvec2 ids;
layout(location = 0) out uvec4 o;
void main() { o = uvec4(ids, uvec2(vcol.xy * 255.0)); }
