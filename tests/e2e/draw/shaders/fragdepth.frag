#version 450
// gl_FragDepth from the colour (exp mrtz)
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() {
    gl_FragDepth = vcol.z;
    o = vcol;
}
