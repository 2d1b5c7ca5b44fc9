#version 450
// seed: buffer device addresses (PhysicalStorageBuffer64, pointers in push constants and in memory)
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Node { vec4 value; Node next; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint w[]; };
layout(push_constant) uniform P { Node head; Words out_w; } pc;
void main() {
    Node n = pc.head;
    for (uint k = 0u; k < gl_GlobalInvocationID.x && uint64_t(n.next) != 0ul; ++k) n = n.next;
    n.value += vec4(1.0);
    pc.out_w.w[gl_GlobalInvocationID.x] = floatBitsToUint(n.value.x);
}
