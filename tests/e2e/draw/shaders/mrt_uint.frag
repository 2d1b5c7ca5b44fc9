#version 450
layout(location = 0) in vec4 vcol;
layout(location = 0) out uvec4 o0;
layout(location = 1) out uint o1;
void main() {
    o0 = uvec4(vcol * 1000.0) + uvec4(gl_FragCoord.xyxy);
    o1 = uint(gl_FragCoord.x) * 65536u + uint(gl_FragCoord.y);
}
