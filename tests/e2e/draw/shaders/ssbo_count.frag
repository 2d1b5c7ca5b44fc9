#version 450
// a storage buffer written by the fragment shader (atomics, exact mode)
layout(set = 0, binding = 1) buffer Counts { uint total; uint hist[16]; };
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() {
    atomicAdd(total, 1u);
    atomicAdd(hist[uint(vcol.x * 15.0)], 1u);
    o = vcol;
}
