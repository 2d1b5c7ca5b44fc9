#version 450
// samplerCubeShadow: textureGrad with zero gradients (glslang 12 lacks GL_EXT_texture_shadow_lod)
// of an omnidirectional shadow map, and of a sampler2DArrayShadow
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerCubeShadow cs;
layout(set = 0, binding = 1) uniform sampler2DArrayShadow as2;
layout(set = 0, binding = 2) buffer D { vec4 dirs[]; };
layout(set = 0, binding = 3) buffer O { vec4 o[]; };
void main() {
    int i = int(gl_GlobalInvocationID.x);
    vec4 d = dirs[i];
    o[i] = vec4(textureGrad(cs, d, vec3(0.0), vec3(0.0)),
                textureGrad(cs, vec4(d.xyz * 3.0, d.w), vec3(0.0), vec3(0.0)),
                textureGrad(as2, vec4(fract(d.xy * 7.1), float(i & 1), d.w), vec2(0.0), vec2(0.0)),
                0.0);
}
