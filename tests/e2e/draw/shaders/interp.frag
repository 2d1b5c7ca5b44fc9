#version 450
layout(location = 0) in vec4 smooth_v;
layout(location = 1) flat in vec4 flat_v;
layout(location = 2) noperspective in vec2 linear_v;
layout(location = 3) in float scalar_v;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
void main() {
    o0 = smooth_v;
    o1 = flat_v;
    o2 = vec4(linear_v, scalar_v, 1.0);
}
