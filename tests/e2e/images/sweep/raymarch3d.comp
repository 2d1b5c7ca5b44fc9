#version 450
// volume ray marching: rays from a virtual camera through a trilinearly sampled
// density volume (sampler3D, r32f... an rgba8 volume's alpha), front-to-back emission
// and absorption with early termination, the colour from the volume's rgb
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler3D vol;
layout(set = 0, binding = 1, rgba32f) uniform writeonly image2D dst;
layout(push_constant) uniform P { int steps; float density; } pc;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec2 ndc = (vec2(p) + 0.5) / vec2(imageSize(dst)) * 2.0 - 1.0;
    vec3 ro = vec3(0.5, 0.5, -0.6);
    vec3 rd = normalize(vec3(ndc * 0.55, 1.0));
    float t0 = (0.0 - ro.z) / rd.z, t1 = (1.0 - ro.z) / rd.z;
    float dt = (t1 - t0) / float(pc.steps);
    vec3 col = vec3(0.0);
    float trans = 1.0;
    for (int k = 0; k < pc.steps; ++k) {
        vec3 pos = ro + rd * (t0 + (float(k) + 0.5) * dt);
        vec4 s = textureLod(vol, pos, 0.0);
        float a = 1.0 - exp(-s.a * pc.density * dt);
        col += trans * a * s.rgb;
        trans *= 1.0 - a;
        if (trans < 0.02) break;
    }
    imageStore(dst, p, vec4(col, 1.0 - trans));
}
