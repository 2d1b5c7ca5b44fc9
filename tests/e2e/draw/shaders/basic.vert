#version 450
// position (clip space, w may differ from 1) and a colour, passed through
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 vcol;
void main() {
    gl_Position = pos;
    vcol = col;
}
