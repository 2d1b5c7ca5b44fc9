#version 450
// stores that convert: rgba8 and r8 unorm of values outside [0, 1] and halves of a
// step (infinities too), rgba16f/r16f of values that round (the rounding of 32-bit floats
// to 16-bit memory is the implementation's: within one 16-bit step)
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D a;
layout(set = 0, binding = 1, r8) uniform writeonly image2D b;
layout(set = 0, binding = 2, rgba16f) uniform writeonly image2D c;
layout(set = 0, binding = 3, r16f) uniform writeonly image2D d;
layout(set = 0, binding = 4) buffer I { float vals[]; };
void main() {
    int i = int(gl_GlobalInvocationID.x);
    ivec2 p = ivec2(i % 8, i / 8);
    float x = vals[i];
    imageStore(a, p, vec4(x, -x, x * 0.5 + 0.5, (float(i) + 0.5) / 255.0));
    imageStore(b, p, vec4(x * 3.0 - 1.0));
    imageStore(c, p, vec4(x * 30000.0, x / 3.0, -x * 1e-6, x + 1.0 / 4096.0));
    imageStore(d, p, vec4(x * 1000.0 + 0.1));
}
