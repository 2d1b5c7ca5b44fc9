#version 450
// min-env: vulkan1.2
// Buffer device addresses: PhysicalStorageBuffer64 addressing, forward pointers.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Node { vec4 value; Node next; };
layout(push_constant) uniform P { Node head; uint64_t raw; } pc;

void main() {
    Node n = pc.head;
    for (uint k = 0u; k < gl_GlobalInvocationID.x && uint64_t(n.next) != 0ul; ++k) n = n.next;
    n.value += vec4(1.0);
}
