#version 450
// Local arrays with dynamic indexing: reads and writes at data-dependent indices, an
// insertion sort of 16 values, a 2D array, vec4 array elements, a constant lookup table.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
const uint TAB[8] = uint[8](3u, 1u, 4u, 1u, 5u, 9u, 2u, 6u);
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint base = (i / 16u) * 16u;
    uint arr[16];
    for (uint j = 0u; j < 16u; j++)
        arr[j] = a[base + ((j + i) & 15u)];
    arr[a[i] & 15u] += 1000u;
    uint picked = arr[(a[i] >> 4) & 15u];
    for (uint j = 1u; j < 16u; j++) {
        uint x = arr[j];
        int k = int(j) - 1;
        while (k >= 0 && arr[k] > x) {
            arr[k + 1] = arr[k];
            k--;
        }
        arr[k + 1] = x;
    }
    uint grid[4][4];
    for (uint y = 0u; y < 4u; y++)
        for (uint x = 0u; x < 4u; x++)
            grid[y][x] = y * 4u + x + a[i];
    uint gy = a[i] & 3u, gx = (a[i] >> 2) & 3u;
    grid[gx][gy] = 0u;
    vec4 vs[3];
    vs[0] = vec4(1.0, 2.0, 3.0, 4.0);
    vs[1] = vec4(float(a[i] & 255u));
    vs[2] = vs[0] * 2.0;
    vs[a[i] % 3u][(a[i] >> 3) & 3u] = -1.0;
    vec4 vsum = vs[0] + vs[1] + vs[2];
    for (uint j = 0u; j < 16u; j++)
        o[24u * i + j] = arr[j];
    o[24u * i + 16u] = picked;
    o[24u * i + 17u] = grid[gy][gx] + grid[gx][gy] * 2u + grid[3][3];
    o[24u * i + 18u] = uint(vsum.x + vsum.y * 10.0 + vsum.z * 100.0 + vsum.w * 1000.0 + 4000.0);
    o[24u * i + 19u] = TAB[a[i] & 7u] + TAB[(a[i] >> 3) & 7u] * 10u;
    o[24u * i + 20u] = 0u;
    o[24u * i + 21u] = 0u;
    o[24u * i + 22u] = 0u;
    o[24u * i + 23u] = 0u;
}
