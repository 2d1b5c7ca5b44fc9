#version 450
// Runtime arrays after fixed members and .length() (OpArrayLength) of buffers sized by
// the host (201 vec2 elements: not a multiple of the workgroup size; 258 floats out).
layout(std430, set = 0, binding = 0) readonly buffer In { uint header; uint pad; vec2 data[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint len; uint other_len; float r[]; };
layout(local_size_x = 64) in;
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = uint(data.length());
    if (i == 0u) {
        len = n;
        other_len = uint(r.length());
    }
    if (i < n)
        r[i] = data[i].x * float(header) + data[n - 1u - i].y;
    else
        r[i] = float(int(i) - int(n));
}
