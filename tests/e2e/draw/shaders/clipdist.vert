#version 450
// two clip distances and a cull distance (the emulator clips and culls as Vulkan does)
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 v;
out float gl_ClipDistance[2];
out float gl_CullDistance[1];
void main() {
    gl_Position = pos;
    v = col;
    gl_ClipDistance[0] = pos.x / pos.w + 0.3;
    gl_ClipDistance[1] = 0.6 - pos.y / pos.w;
    gl_CullDistance[0] = col.x - 0.6;
}
