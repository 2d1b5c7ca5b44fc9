#version 450
// switch: fallthrough, default in the middle, negative case labels, divergent selectors, a
// switch inside a loop (break leaves the switch only, continue the loop), nested switch.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { int a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { int o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int v = a[i];
    int r = 0;
    switch (v >> 28) {
    case 0:
        r += 1;
    case 1:
        r += 10;
        break;
    case -3:
    case -2:
        r = -100;
        break;
    default:
        r = 1000;
    case 5:
        r += 5;
        break;
    case 6: {
        int t = v * 2;
        r = t;
        break;
    }
    }
    int s = 0;
    for (int j = 0; j < 12; j++) {
        switch ((v + j) & 3) {
        case 0:
            s += j;
            break;
        case 1:
            continue;
        case 2:
            switch (j % 3) {
            case 0: s -= 1; break;
            default: s += 100;
            }
            break;
        default:
            s *= 2;
        }
        s += 1;
    }
    uint u = uint(v) & 0xffu;
    int w;
    switch (u >> 5) {
    case 0u: w = 11; break;
    case 3u: w = 33; break;
    case 7u: w = 77; break;
    default: w = int(u);
    }
    o[3u * i + 0u] = r;
    o[3u * i + 1u] = s;
    o[3u * i + 2u] = w;
}
