#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
// 32-bit float texels read as 16-bit floats: the conversion folds into the read (MIMG
// d16), where the texture unit truncates (ISA 9.3.1); an rgba8 texture's values round
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D f32tex;
layout(set = 0, binding = 1, rgba32f) uniform readonly image2D f32img;
layout(set = 0, binding = 2) uniform sampler2D u8tex;
layout(set = 0, binding = 3) buffer O { f16vec4 h[]; };
void main() {
    int i = int(gl_GlobalInvocationID.x);
    ivec2 p = ivec2(i % 8, i / 8);
    h[i * 3] = f16vec4(texelFetch(f32tex, p, 0));
    h[i * 3 + 1] = f16vec4(imageLoad(f32img, p));
    h[i * 3 + 2] = f16vec4(texelFetch(u8tex, p, 0));
}
