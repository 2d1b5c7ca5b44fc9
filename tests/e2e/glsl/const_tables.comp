#version 450
// Constant lookup tables indexed at run time (ggml's iq2_xxs/iq3_s pattern, docs/mir.md
// "Constant data"): a 256-entry uvec2 table copied into shared memory by the workgroup
// (i + gl_LocalInvocationIndex), a float table read per invocation and a uint table read
// at a uniform index. radcc reads them from the code object's constant data
// (p_constaddr), never builds them in registers or scratch.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };

const uvec2 GRID[256] = {
    uvec2(0x5bd1e995u, 0x7f4a7c15u), uvec2(0xc5e69024u, 0x804a7da8u), uvec2(0x67bf1af7u, 0x834a8261u), uvec2(0x81778486u, 0x884a8a40u),
    uvec2(0x230c0f51u, 0x8f4a9545u), uvec2(0x4cc489e0u, 0x984aa370u), uvec2(0xee9d33b3u, 0xa34ab4c1u), uvec2(0x0855ba42u, 0xb04ac938u),
    uvec2(0xaa6a241du, 0xbf4ae0d5u), uvec2(0xd422aeacu, 0xd04afb98u), uvec2(0x75fb297fu, 0xe34b1981u), uvec2(0x97b3d30eu, 0xf84b3a90u),
    uvec2(0x31485dd9u, 0x0f4b5ec5u), uvec2(0x5300c468u, 0x284b8620u), uvec2(0xfcd94e3bu, 0x434bb0a1u), uvec2(0x1e91c8cau, 0x604bde48u),
    uvec2(0xb8a67285u, 0x7f4c0f15u), uvec2(0xda7efd54u, 0xa04c4308u), uvec2(0x443767e7u, 0xc34c7a21u), uvec2(0xe5cfe1b6u, 0xe84cb460u),
    uvec2(0x07846841u, 0x0f4cf1c5u), uvec2(0xa15d1210u, 0x384d3250u), uvec2(0xc3159ca3u, 0x634d7601u), uvec2(0x6d2a0772u, 0x904dbcd8u),
    uvec2(0x8ee2810du, 0xbf4e06d5u), uvec2(0x28bb0bdcu, 0xf04e53f8u), uvec2(0x4a73b26fu, 0x234ea441u), uvec2(0xf4083c3eu, 0x584ef7b0u),
    uvec2(0x15c0a6c9u, 0x8f4f4e45u), uvec2(0xb7992098u, 0xc84fa800u), uvec2(0xd151ab2bu, 0x035004e1u), uvec2(0x736655fau, 0x405064e8u),
    uvec2(0x9d3edfb5u, 0x7f50c815u), uvec2(0x3ef74644u, 0xc0512e68u), uvec2(0x588fc017u, 0x035197e1u), uvec2(0xfa444aa6u, 0x48520480u),
    uvec2(0x641cf571u, 0x8f527445u), uvec2(0x85d57f00u, 0xd852e730u), uvec2(0x27edf9d3u, 0x23535d41u), uvec2(0x41a26062u, 0x7053d678u),
    uvec2(0xe37aea3du, 0xbf5452d5u), uvec2(0x0d3394ccu, 0x1054d258u), uvec2(0xaec81e9fu, 0x63555501u), uvec2(0xc880992eu, 0xb855dad0u),
    uvec2(0x6a5903f9u, 0x0f5663c5u), uvec2(0x94118d88u, 0x6856efe0u), uvec2(0x3626345bu, 0xc3577f21u), uvec2(0x57febeeau, 0x20581188u),
    uvec2(0xf1b738a5u, 0x7f58a715u), uvec2(0x134fa374u, 0xe0593fc8u), uvec2(0xbd042d07u, 0x4359dba1u), uvec2(0xdedcd7d6u, 0xa85a7aa0u),
    uvec2(0x78955e61u, 0x0f5b1cc5u), uvec2(0x9aadd830u, 0x785bc210u), uvec2(0x046242c3u, 0xe35c6a81u), uvec2(0xa63acc92u, 0x505d1618u),
    uvec2(0xc7f3772du, 0xbf5dc4d5u), uvec2(0x618bf1fcu, 0x305e76b8u), uvec2(0x83407b8fu, 0xa35f2bc1u), uvec2(0x2d18e25eu, 0x185fe3f0u),
    uvec2(0x4ed16ce9u, 0x8f609f45u), uvec2(0xe8e616b8u, 0x08615dc0u), uvec2(0x0abe914bu, 0x83621f61u), uvec2(0xb4771b1au, 0x0062e428u),
    uvec2(0xd60f85d5u, 0x7f63ac15u), uvec2(0x77c40c64u, 0x00647728u), uvec2(0x919cb637u, 0x83654561u), uvec2(0x335530c6u, 0x086616c0u),
    uvec2(0x5d6dba91u, 0x8f66eb45u), uvec2(0xff222520u, 0x1867c2f0u), uvec2(0x18faaff3u, 0xa3689dc1u), uvec2(0xbab32982u, 0x30697bb8u),
    uvec2(0x244bd05du, 0xbf6a5cd5u), uvec2(0x46005aecu, 0x506b4118u), uvec2(0xe7d8c4bfu, 0xe36c2881u), uvec2(0x01914f4eu, 0x786d1310u),
    uvec2(0xa3a9c919u, 0x0f6e00c5u), uvec2(0xcd7e73a8u, 0xa86ef1a0u), uvec2(0x6f36fa7bu, 0x436fe5a1u), uvec2(0x88cf640au, 0xe070dcc8u),
    uvec2(0x2a87eec5u, 0x7f71d715u), uvec2(0x545c6894u, 0x2072d488u), uvec2(0xf6151327u, 0xc373d521u), uvec2(0x102d9df6u, 0x6874d8e0u),
    uvec2(0xb1e20781u, 0x0f75dfc5u), uvec2(0xd3ba8e50u, 0xb876e9d0u), uvec2(0x7d7308e3u, 0x6377f701u), uvec2(0x9f0bb2b2u, 0x10790758u),
    uvec2(0x38c03d4du, 0xbf7a1ad5u), uvec2(0x5a98a71cu, 0x707b3178u), uvec2(0xc45121afu, 0x237c4b41u), uvec2(0x6669a87eu, 0xd87d6830u),
    uvec2(0x803e5209u, 0x8f7e8845u), uvec2(0x21f6dcd8u, 0x487fab80u), uvec2(0x438f476bu, 0x0380d1e1u), uvec2(0xed47c13au, 0xc081fb68u),
    uvec2(0x0f1c4bf5u, 0x7f832815u), uvec2(0xa8d4f584u, 0x408457e8u), uvec2(0xcaed7c57u, 0x03858ae1u), uvec2(0x74a5e6e6u, 0xc886c100u),
    uvec2(0x967a60b1u, 0x8f87fa45u), uvec2(0x3032eb40u, 0x588936b0u), uvec2(0x51cb9513u, 0x238a7641u), uvec2(0xf3801fa2u, 0xf08bb8f8u),
    uvec2(0x1d58867du, 0xbf8cfed5u), uvec2(0xbf11000cu, 0x908e47d8u), uvec2(0xd9298adfu, 0x638f9401u), uvec2(0x7afe356eu, 0x3890e350u),
    uvec2(0xe4b6bf39u, 0x0f9235c5u), uvec2(0x064f39c8u, 0xe8938b60u), uvec2(0xa007a39bu, 0xc394e421u), uvec2(0xc1dc2a2au, 0xa0964008u),
    uvec2(0x6394d4e5u, 0x7f979f15u), uvec2(0x8dad5eb4u, 0x60990148u), uvec2(0x2f65d947u, 0x439a66a1u), uvec2(0x493a4316u, 0x289bcf20u),
    uvec2(0xeaf2cda1u, 0x0f9d3ac5u), uvec2(0x148b7470u, 0xf89ea990u), uvec2(0xb643fe03u, 0xe3a01b81u), uvec2(0xd01878d2u, 0xd0a19098u),
    uvec2(0x71d0e36du, 0xbfa308d5u), uvec2(0x93e96d3cu, 0xb0a48438u), uvec2(0x3dbe17cfu, 0xa3a602c1u), uvec2(0x5f76919eu, 0x98a78470u),
    uvec2(0xf90f1829u, 0x8fa90945u), uvec2(0x1ac782f8u, 0x88aa9140u), uvec2(0x849c0c8bu, 0x83ac1c61u), uvec2(0x2654b75au, 0x80adaaa8u),
    uvec2(0x406d3115u, 0x7faf3c15u), uvec2(0xe225bba4u, 0x80b0d0a8u), uvec2(0x03fa2277u, 0x83b26861u), uvec2(0xadb2ac06u, 0x88b40340u),
    uvec2(0xcf4b56d1u, 0x8fb5a145u), uvec2(0x6903d160u, 0x98b74270u), uvec2(0x8ad85b33u, 0xa3b8e6c1u), uvec2(0x3490c5c2u, 0xb0ba8e38u),
    uvec2(0x56a94f9du, 0xbfbc38d5u), uvec2(0xf061f62cu, 0xd0bde698u), uvec2(0x123670ffu, 0xe3bf9781u), uvec2(0xb3cefa8eu, 0xf8c14b90u),
    uvec2(0xdd876559u, 0x0fc302c5u), uvec2(0x7f5fefe8u, 0x28c4bd20u), uvec2(0x991469bbu, 0x43c67aa1u), uvec2(0x3b2d104au, 0x60c83b48u),
    uvec2(0xa4e59a05u, 0x7fc9ff15u), uvec2(0xc6ba04d4u, 0xa0cbc608u), uvec2(0x60728f67u, 0xc3cd9021u), uvec2(0x820b0936u, 0xe8cf5d60u),
    uvec2(0x23c3b3c1u, 0x0fd12dc5u), uvec2(0x4d983d90u, 0x38d30150u), uvec2(0xef50a423u, 0x63d4d801u), uvec2(0x09692ef2u, 0x90d6b1d8u),
    uvec2(0xab21a88du, 0xbfd88ed5u), uvec2(0xd4f6535cu, 0xf0da6ef8u), uvec2(0x768eddefu, 0x23dc5241u), uvec2(0x904747beu, 0x58de38b0u),
    uvec2(0x321fce49u, 0x8fe02245u), uvec2(0x53d44818u, 0xc8e20f00u), uvec2(0xfdecf2abu, 0x03e3fee1u), uvec2(0x1fa57d7au, 0x40e5f1e8u),
    uvec2(0xb97de735u, 0x7fe7e815u), uvec2(0xdb3261c4u, 0xc0e9e168u), uvec2(0x44caeb97u, 0x03ebdde1u), uvec2(0xe6839226u, 0x48eddd80u),
    uvec2(0x00581cf1u, 0x8fefe045u), uvec2(0xa2108680u, 0xd8f1e630u), uvec2(0xcc290153u, 0x23f3ef41u), uvec2(0x6de18be2u, 0x70f5fb78u),
    uvec2(0x8fb635bdu, 0xbff80ad5u), uvec2(0x294ebc4cu, 0x10fa1d58u), uvec2(0x4b07261fu, 0x63fc3301u), uvec2(0xf4dfa0aeu, 0xb8fe4bd0u),
    uvec2(0x16942b79u, 0x100067c5u), uvec2(0xb0acd508u, 0x690286e0u), uvec2(0xd2655fdbu, 0xc404a921u), uvec2(0x7c3dc66au, 0x2106ce88u),
    uvec2(0x9df24025u, 0x8008f715u), uvec2(0x3f8acaf4u, 0xe10b22c8u), uvec2(0x59437487u, 0x440d51a1u), uvec2(0xfb1bff56u, 0xa90f83a0u),
    uvec2(0x64d079e1u, 0x1011b8c5u), uvec2(0x86e8e3b0u, 0x7913f110u), uvec2(0x20a16a43u, 0xe4162c81u), uvec2(0x42761412u, 0x51186b18u),
    uvec2(0xec0e9eadu, 0xc01aacd5u), uvec2(0x0dc7197cu, 0x311cf1b8u), uvec2(0xaf9f830fu, 0xa41f39c1u), uvec2(0xc9540ddeu, 0x192184f0u),
    uvec2(0x6b6cb469u, 0x9023d345u), uvec2(0x95253e38u, 0x092624c0u), uvec2(0x36fdb8cbu, 0x84287961u), uvec2(0x50b2229au, 0x012ad128u),
    uvec2(0xf24aad55u, 0x802d2c15u), uvec2(0x1c0357e4u, 0x012f8a28u), uvec2(0xbddbd1b7u, 0x8431eb61u), uvec2(0xdf905846u, 0x09344fc0u),
    uvec2(0x79a8c211u, 0x9036b745u), uvec2(0x9b614ca0u, 0x193921f0u), uvec2(0x0539f773u, 0xa43b8fc1u), uvec2(0xa6ce7102u, 0x313e00b8u),
    uvec2(0xc086fbddu, 0xc04074d5u), uvec2(0x625f626cu, 0x5142ec18u), uvec2(0x8c17ec3fu, 0xe4456681u), uvec2(0x2e2c96ceu, 0x7947e410u),
    uvec2(0x4fe51099u, 0x104a64c5u), uvec2(0xe9bd9b28u, 0xa94ce8a0u), uvec2(0x0b7205fbu, 0x444f6fa1u), uvec2(0xb50a8f8au, 0xe151f9c8u),
    uvec2(0xd6c33645u, 0x80548715u), uvec2(0x709bb014u, 0x21571788u), uvec2(0x92503aa7u, 0xc459ab21u), uvec2(0x3c68a576u, 0x695c41e0u),
    uvec2(0x5e212f01u, 0x105edbc5u), uvec2(0xfff9a9d0u, 0xb96178d0u), uvec2(0x198e5063u, 0x64641901u), uvec2(0xbb46da32u, 0x1166bc58u),
    uvec2(0x251f44cdu, 0xc06962d5u), uvec2(0x46d7ce9cu, 0x716c0c78u), uvec2(0xe0ec492fu, 0x246eb941u), uvec2(0x02a4f3feu, 0xd9716930u),
    uvec2(0xac7d7d89u, 0x90741c45u), uvec2(0xce35e458u, 0x4976d280u), uvec2(0x6fca6eebu, 0x04798be1u), uvec2(0x8982e8bau, 0xc17c4868u),
    uvec2(0x2b5b9375u, 0x807f0815u), uvec2(0x55101d04u, 0x4181cae8u), uvec2(0xf72887d7u, 0x048490e1u), uvec2(0x10e10e66u, 0xc9875a00u),
    uvec2(0xb2b98831u, 0x908a2645u), uvec2(0xdc4e32c0u, 0x598cf5b0u), uvec2(0x7e06bc93u, 0x248fc841u), uvec2(0x9fdf2722u, 0xf1929df8u),
    uvec2(0x3997a1fdu, 0xc09576d5u), uvec2(0x5bac2b8cu, 0x919852d8u), uvec2(0xc564d25fu, 0x649b3201u), uvec2(0x673d5ceeu, 0x399e1450u),
    uvec2(0x80f5c6b9u, 0x10a0f9c5u), uvec2(0x228a4148u, 0xe9a3e260u), uvec2(0x4c42cb1bu, 0xc4a6ce21u), uvec2(0xee1b75aau, 0xa1a9bd08u),
    uvec2(0x0fd3fc65u, 0x80acaf15u), uvec2(0xa9e86634u, 0x61afa448u), uvec2(0xcba0e0c7u, 0x44b29ca1u), uvec2(0x75796a96u, 0x29b59820u),
    uvec2(0x970e1521u, 0x10b896c5u), uvec2(0x30c69ff0u, 0xf9bb9890u), uvec2(0x529f1983u, 0xe4be9d81u), uvec2(0xfc578052u, 0xd1c1a598u),
    uvec2(0x1e6c0aedu, 0xc0c4b0d5u), uvec2(0xb824b4bcu, 0xb1c7bf38u), uvec2(0xd9fd3f4fu, 0xa4cad0c1u), uvec2(0x7bb5b91eu, 0x99cde570u),
    uvec2(0xe54a23a9u, 0x90d0fd45u), uvec2(0x0702aa78u, 0x89d41840u), uvec2(0xa0db540bu, 0x84d73661u), uvec2(0xc293dedau, 0x81da57a8u)
};
const uint SMALL[40] = {11u, 48u, 159u, 344u, 603u, 936u, 1343u, 1824u, 2379u, 3008u, 3711u, 4488u, 5339u, 6264u, 7263u, 8336u, 9483u, 10704u, 11999u, 13368u, 14811u, 16328u, 17919u, 19584u, 21323u, 23136u, 25023u, 26984u, 29019u, 31128u, 33311u, 35568u, 37899u, 40304u, 42783u, 45336u, 47963u, 50664u, 53439u, 56288u};
const float FT[64] = {-7.5, -7.125, -6.75, -6.375, -6.0, -5.625, -5.25, -4.875, -4.5, -4.125, -3.75, -3.375, -3.0, -2.625, -2.25, -1.875, -1.5, -1.125, -0.75, -0.375, 0.0, 0.375, 0.75, 1.125, 1.5, 1.875, 2.25, 2.625, 3.0, 3.375, 3.75, 4.125, 4.5, 4.875, 5.25, 5.625, 6.0, 6.375, 6.75, 7.125, 7.5, 7.875, 8.25, 8.625, 9.0, 9.375, 9.75, 10.125, 10.5, 10.875, 11.25, 11.625, 12.0, 12.375, 12.75, 13.125, 13.5, 13.875, 14.25, 14.625, 15.0, 15.375, 15.75, 16.125};

shared uvec2 grid_sh[256];

void main() {
    uint i = gl_GlobalInvocationID.x;
    for (uint k = 0u; k < 256u; k += 64u)
        grid_sh[k + gl_LocalInvocationIndex] = GRID[k + gl_LocalInvocationIndex];
    barrier();
    uint v = a[i];
    uvec2 g = grid_sh[(v * 7u) & 255u];
    o[4u * i + 0u] = g.x ^ GRID[v >> 24].y;
    o[4u * i + 1u] = g.y;
    o[4u * i + 2u] = floatBitsToUint(FT[v & 63u] * 2.0);
    o[4u * i + 3u] = SMALL[(gl_WorkGroupID.x * 3u + 5u) % 40u] + SMALL[v % 40u];
}
