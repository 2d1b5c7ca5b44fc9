#version 450
// fine derivatives of a function that is not linear in screen space (helper pixels of
// the quad included), and the unqualified and coarse forms of a separable one, f(x) +
// g(y), whose derivatives are the same wherever in the quad they are taken (Vulkan lets
// an implementation pick: lavapipe's coarse is its fine, AMD's is the quad's corner)
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
void main() {
    float f = vcol.x * vcol.y * 8.0 + gl_FragCoord.x * gl_FragCoord.y * 0.01;
    o0 = vec4(dFdxFine(f), dFdyFine(f), fwidthFine(f), f);
    float g = gl_FragCoord.x * gl_FragCoord.x * 0.03 + sqrt(gl_FragCoord.y) * 0.7;
    o1 = vec4(dFdx(g), dFdy(g), dFdxCoarse(g) + fwidth(g), dFdyCoarse(g) - fwidthCoarse(g));
}
