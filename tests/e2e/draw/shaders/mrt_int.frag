#version 450
layout(location = 0) in vec4 vcol;
layout(location = 0) out ivec4 o0;
layout(location = 1) out ivec2 o1;
void main() {
    o0 = ivec4(vcol * 2000.0) - 1000;
    o1 = -ivec2(gl_FragCoord.xy);
}
