#version 450
#extension GL_EXT_demote_to_helper_invocation : require
// demoted lanes stay as helpers: the derivatives after the demote still see them
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() {
    float f = vcol.x * vcol.y * 16.0;
    if (((int(gl_FragCoord.x) + int(gl_FragCoord.y)) % 3) == 0)
        demote;
    o = vec4(dFdxFine(f), dFdyFine(f), vcol.z, 1.0);
}
