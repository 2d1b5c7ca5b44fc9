"""The AMDHSA compute instance of the shader arguments (radcc.abi.amdhsa) against
clang-19: for OpenCL kernels reading each system value, the kernel descriptor's
enables and the metadata's explicit kernel arguments radcc derives from the same
usage equal what clang-19 writes; and the emulator starts a clang kernel's waves with the registers its
descriptor implies (a kernel storing every one of them)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "codeobj"))
from codeobj_tools import clang_compile  # noqa: E402

from radcc.abi import amdhsa  # noqa: E402
from radcc.abi.args import Arg, ArgKind, RegFile  # noqa: E402
from radcc.abi.kernarg import KernargLayout, shader_layout  # noqa: E402
from radcc.codeobj.elf import read_code_object  # noqa: E402
from radcc.emu.api import load  # noqa: E402
from radcc.target import get_target  # noqa: E402

WG = ("__builtin_amdgcn_workgroup_id_x()", "__builtin_amdgcn_workgroup_id_y()",
      "__builtin_amdgcn_workgroup_id_z()")
LID = ("__builtin_amdgcn_workitem_id_x()", "__builtin_amdgcn_workitem_id_y()",
       "__builtin_amdgcn_workitem_id_z()")

# name -> (kernel body reading values, workgroup ids used, local id dimensions)
SYSTEM_VALUES = {
    "none": ("out[0] = 1;", (True, False, False), 1),
    "wg_x": (f"out[0] = {WG[0]};", (True, False, False), 1),
    "wg_y": (f"out[0] = {WG[1]};", (True, True, False), 1),
    "wg_z": (f"out[0] = {WG[2]};", (True, False, True), 1),
    "wg_xyz": (f"out[0] = {WG[0]} + {WG[1]} + {WG[2]};", (True, True, True), 1),
    "lid_x": (f"out[{LID[0]}] = 1;", (True, False, False), 1),
    "lid_y": (f"out[{LID[1]}] = 1;", (True, False, False), 2),
    "lid_z": (f"out[{LID[2]}] = 1;", (True, False, False), 3),
    "all": (f"out[{LID[0]} + {LID[1]} + {LID[2]}] = {WG[0]} + {WG[1]} + {WG[2]};",
            (True, True, True), 3),
}
ENABLES = ("user_sgpr_dispatch_ptr", "user_sgpr_queue_ptr", "user_sgpr_kernarg_segment_ptr",
           "user_sgpr_dispatch_id", "user_sgpr_private_segment_size",
           "system_sgpr_workgroup_id_x", "system_sgpr_workgroup_id_y",
           "system_sgpr_workgroup_id_z", "system_sgpr_workgroup_info",
           "system_vgpr_workitem_id")


@pytest.fixture(scope="module", params=["gfx1100", "gfx1030"])
def clang_system_values(request):
    """{kernel: {descriptor field: value}} of clang-19's kernels, decoded from its bytes
    (radcc's descriptor reader, checked against llvm-objdump-19 in tests/codeobj;
    llvm-objdump-19 refuses some of clang-19's GFX10+ descriptors: nonzero
    GRANULATED_WAVEFRONT_SGPR_COUNT)."""
    mcpu = request.param
    src = "\n".join(f"__kernel void {n}(__global uint *out) {{ {body} }}"
                    for n, (body, _w, _d) in SYSTEM_VALUES.items())
    co = read_code_object(clang_compile(src, mcpu=mcpu))
    return mcpu, {n: k.descriptor for n, k in co.kernels.items()}


# the user SGPRs clang-19 gives a kernel with buffer arguments and no scratch: the
# kernarg segment pointer, and on GFX10 (without LLVM's enable-flat-scratch) the private
# segment buffer too
CLANG_USER = {"gfx1100": [ArgKind.KERNARG_SEGMENT_PTR],
              "gfx1030": [ArgKind.PRIVATE_SEGMENT_BUFFER, ArgKind.KERNARG_SEGMENT_PTR]}


@pytest.mark.parametrize("name", list(SYSTEM_VALUES))
def test_descriptor_enables_equal_clangs(clang_system_values, name):
    mcpu, kds = clang_system_values
    target = get_target(mcpu)
    _body, wg, dims = SYSTEM_VALUES[name]
    args = amdhsa.kernel_args(target, user=CLANG_USER[mcpu], workgroup_ids=wg,
                              local_id_dims=dims)
    ours = amdhsa.descriptor_fields(args)
    theirs = kds[name]
    for f in (*ENABLES, "user_sgpr_private_segment_buffer"):
        assert ours.get(f, 0) == theirs.get(f, 0), (name, f)
    count = ours["user_sgpr_count"]
    assert count == args.num_user_sgprs
    if mcpu == "gfx1100":
        # LLVM pads the user SGPRs of a GFX11 wave32 kernel so that user + system SGPRs
        # are at least 16 (its UserSGPRInit16Bug workaround); radcc does not (docs/abi.md)
        count = max(count, 16 - (args.num_sgprs - args.num_user_sgprs))
    assert theirs["user_sgpr_count"] == count
    # the descriptor read back gives the same registers (the emulator's reading), the
    # padding as reserved user SGPRs before the system ones
    back = amdhsa.from_descriptor(theirs, target)
    reserved = [a for a in back.args if a.kind is ArgKind.RESERVED_USER_SGPR]
    assert len(reserved) == count - args.num_user_sgprs
    assert [a for a in back.args if a not in reserved] == [
        a if a.kind.user else Arg(a.kind, a.reg + len(reserved)) if a.file is RegFile.SGPR
        else a for a in args.args]


def _explicit(meta_args):
    return [(a[".offset"], a[".size"], a[".value_kind"], a.get(".address_space"))
            for a in meta_args if not str(a[".value_kind"]).startswith("hidden_")]


# kernel signature -> the layout radcc builds for the same arguments
PC = "typedef struct { uint a; uint b; uint c; } PC;"  # a 12-byte push-constant block


@pytest.mark.parametrize(("sig", "ours"), [
    ("__global uint *set0_binding0, uint set0_binding0_size",
     lambda: shader_layout([(0, 0)], 0)),
    ("__global uint *a, __global uint *b, uint as, uint bs",
     lambda: shader_layout([(0, 0), (1, 3)], 0)),
    ("__global uint *a, uint as, PC push_constants",
     lambda: shader_layout([(0, 0)], 12)),
    ("__global uint *a, __global uint *b, uint as, uint bs, PC push_constants",
     lambda: shader_layout([(0, 0), (0, 1)], 10)),
    ("__global uint *out, uint n, __global float *x, float y",  # radcc llc --arg / tests
     lambda: _values([("out", "b"), ("n", "uint"), ("x", "b"), ("y", "float")])),
])
def test_explicit_kernel_arguments_equal_clangs(sig, ours):
    body = "out_[0] = 0;"
    src = f"{PC}\n__kernel void k({sig}, __global uint *out_) {{ {body} }}"
    co = read_code_object(clang_compile(src))
    theirs = _explicit(co.kernels["k"].metadata[".args"])[:-1]  # without out_
    lay: KernargLayout = ours()
    assert _explicit(lay.metadata()) == theirs


def _values(spec) -> KernargLayout:
    lay = KernargLayout()
    for name, kind in spec:
        if kind == "b":
            lay.add_buffer(name)
        else:
            lay.add_value(name, 4, kind)
    return lay


def test_hidden_block_counts_follow_the_explicit_arguments():
    # clang starts the implicit arguments at an 8-byte boundary; radcc's layout puts the
    # block counts 4-aligned right after the explicit ones (docs/abi.md): equal when
    # the explicit arguments end 8-aligned
    src = ("__kernel void k(__global uint *a, __global uint *b, uint as, uint bs) {"
           "a[0] = ((__constant uint *)__builtin_amdgcn_implicitarg_ptr())[2]; }")
    theirs = {a[".value_kind"]: a[".offset"]
              for a in read_code_object(clang_compile(src)).kernels["k"].metadata[".args"]}
    lay = shader_layout([(0, 0), (0, 1)], 0)
    ours = {e.kind.value: e.offset for e in lay.entries}
    for axis in "xyz":
        k = f"hidden_block_count_{axis}"
        assert ours[k] == theirs[k]


REGS = r"""
__kernel void regs(__global ulong *out) {
  uint lx = __builtin_amdgcn_workitem_id_x(), ly = __builtin_amdgcn_workitem_id_y(),
       lz = __builtin_amdgcn_workitem_id_z();
  uint gx = __builtin_amdgcn_workgroup_id_x(), gy = __builtin_amdgcn_workgroup_id_y(),
       gz = __builtin_amdgcn_workgroup_id_z();
  __global ulong *o = out + ((gx + 3 * (gy + 2 * gz)) * 16 + lx + 4 * (ly + 2 * lz)) * 8;
  __constant ushort *dp = (__constant ushort *)__builtin_amdgcn_dispatch_ptr();
  o[0] = gx; o[1] = gy; o[2] = gz;
  o[3] = lx | ly << 8 | lz << 16;
  o[4] = dp[2] | (ulong)dp[3] << 16 | (ulong)dp[4] << 32;  /* the packet's workgroup size */
  o[5] = ((__constant uint *)__builtin_amdgcn_dispatch_ptr())[3];  /* grid size x */
  o[6] = 1;
  o[7] = 0x5eed;
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_emulator_sets_every_register_from_the_descriptor(wave):
    obj = clang_compile(REGS, wave64=wave == 64)
    k = read_code_object(obj).kernels["regs"]
    args = amdhsa.from_descriptor(k.descriptor, get_target("gfx1100"))
    pad = 9 if wave == 32 else 0  # clang's UserSGPRInit16Bug padding (wave32) to s16
    # clang asked for these, in AMDGPUUsage's order
    assert [(a.kind, a.reg) for a in args.args] == [
        (ArgKind.DISPATCH_PTR, 0), (ArgKind.KERNARG_SEGMENT_PTR, 2),
        *[(ArgKind.RESERVED_USER_SGPR, r) for r in range(4, 4 + pad)],
        (ArgKind.WORKGROUP_ID_X, 4 + pad), (ArgKind.WORKGROUP_ID_Y, 5 + pad),
        (ArgKind.WORKGROUP_ID_Z, 6 + pad), (ArgKind.LOCAL_INVOCATION_IDS, 0)]
    groups, block = (3, 2, 2), (4, 2, 2)
    n = 12 * 16 * 8
    res = load(obj).run("regs", groups, block, {"out": np.zeros(n, np.uint64)})
    assert not res.violations
    o = res.buffers["out"].reshape(12, 16, 8)
    for gz in range(2):
        for gy in range(2):
            for gx in range(3):
                g = o[gx + 3 * (gy + 2 * gz)]
                for lz in range(2):
                    for ly in range(2):
                        for lx in range(4):
                            r = g[lx + 4 * (ly + 2 * lz)]
                            assert list(r) == [gx, gy, gz, lx | ly << 8 | lz << 16,
                                               4 | 2 << 16 | 2 << 32, 12, 1, 0x5eed]
