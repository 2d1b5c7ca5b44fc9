#version 450
// four float attachments of different widths (the write masks follow them)
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec2 o1;
layout(location = 2) out float o2;
layout(location = 3) out vec3 o3;
void main() {
    o0 = vcol;
    o1 = vcol.wz * 0.5;
    o2 = vcol.x * vcol.y;
    o3 = 1.0 - vcol.xyz;
}
