#version 450
// seed: a fragment shader (interpolated and flat inputs, discard, derivatives, an SSBO atomic)
layout(set = 0, binding = 0) buffer Count { uint n; };
layout(location = 0) in vec4 vcol;
layout(location = 1) flat in int vid;
layout(location = 2) noperspective in vec2 vuv;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
void main() {
    if (vcol.a < 0.01) discard;
    vec2 d = vec2(dFdx(vuv.x), dFdy(vuv.y));
    o0 = vec4(vcol.rgb * (gl_FrontFacing ? 1.0 : 0.5), d.x + d.y + gl_FragCoord.z);
    o1 = vec4(float(atomicAdd(n, 1u)), float(vid), 0.0, 1.0);
}
