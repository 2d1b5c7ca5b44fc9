#version 450
// one value per interpolation mode, from the same attribute
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 smooth_v;
layout(location = 1) flat out vec4 flat_v;
layout(location = 2) noperspective out vec2 linear_v;
layout(location = 3) out float scalar_v;
void main() {
    gl_Position = pos;
    smooth_v = col;
    flat_v = col * 2.0 + float(gl_VertexIndex);
    linear_v = col.yx;
    scalar_v = col.z - col.w;
}
