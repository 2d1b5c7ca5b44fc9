#version 450
// a checkerboard of killed fragments (no colour, no depth where killed)
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    if (((p.x ^ p.y) & 1) != 0 || vcol.x > 0.9)
        discard;
    o = vcol;
}
