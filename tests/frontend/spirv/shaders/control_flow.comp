#version 450
// Structured control flow: if/else, loops with break/continue, do/while, switch, calls.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { int v[]; } b;

int collatz(int n) {
    int steps = 0;
    while (n != 1) {
        if ((n & 1) == 0) n /= 2; else n = 3 * n + 1;
        if (++steps > 1000) break;
    }
    return steps;
}

void bump(inout int x, int by) { x += by; }

int classify(int x) {
    switch (x % 5) {
    case 0: return 10;
    case 1:
    case 2: x *= 3; break;
    case -1: x = -x; // fallthrough
    default: x += 100;
    }
    return x;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = b.v[i];
    if (x < 0) { x = -x; } else if (x == 0) { b.v[i] = 0; return; } else { x += 1; }
    int acc = 0;
    for (int k = 0; k < 16; ++k) {
        if (k == x) continue;
        if (acc > 1 << 20) break;
        acc += k * x;
    }
    int n = 0;
    do { bump(n, 3); } while (n < x);
    b.v[i] = collatz(x + 1) + classify(acc) + n;
}
