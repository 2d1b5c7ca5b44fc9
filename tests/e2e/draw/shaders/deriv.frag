#version 450
// derivatives of a function that is not linear in screen space (fine and coarse differ)
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
void main() {
    float f = vcol.x * vcol.y * 8.0 + gl_FragCoord.x * gl_FragCoord.y * 0.01;
    o0 = vec4(dFdx(f), dFdy(f), fwidth(f), f);
    o1 = vec4(dFdxCoarse(f), dFdyCoarse(f), dFdxFine(f), dFdyFine(f));
}
