"""Real-world compute modules (llama.cpp's and ncnn's Vulkan shaders, issue 9) run in
radcc's strict emulator and in lavapipe on the same random inputs, outputs compared.

    python tools/rw_lavapipe_check.py DIR_OR_FILE... [--wave 32,64] [--only SUBSTRING]
        [--exclude SUBSTRING] [--every N] [--offset I] [--ncnn-src NCNN_SRC] [--limit N] [--timeout S] [--out RESULTS.jsonl] [--resume]

radcc does not ship the modules: build them from the projects' sources as issue 9
describes (``/work/rw`` on the machine the issue was worked on). Every module is set up
from its own reflection, without knowing what the kernel computes, so the comparison
asks one question: does radcc's code do what lavapipe does with the same bytes?

- Push constants: every 32-bit integer member a small value (1..12, drawn per module),
  every float member 0.5 (members found from the block's ``Offset`` decorations).
  Sizes, strides and ggml's fastdiv constants are then small and mutually inconsistent,
  which keeps every index small: the kernels compute something well defined, not what
  llama.cpp or ncnn would ask of them. With ``--ncnn-src`` (Tencent/ncnn's source
  tree, a checkout or an extracted archive, or its git directory; a path that is neither is refused, exit status 2)
  an ncnn module's members are named from its ``.comp`` source and shaped as ncnn sets
  them where a random value would make the shader undefined: ``dims`` 3 (it indexes
  vectors with ``dims - 1``), ``d`` 1, ``cstep = w * h * d`` (256 without ``w``, so
  that channels do not overlap and no two invocations store to one element); the
  specialization constants ``stride`` and ``upscale_factor`` (default 0, a divisor:
  reorg, pixelshuffle) 2.
- Specialization constants: a workgroup width given by an id that the module also
  gives another constant of a different default (ggml's ``local_size_x_id = 0`` beside
  ``BLOCK_SIZE``: glslang makes the width default 1) is set to that default, as
  ggml-vulkan.cpp always sets the id (`workgroup_spec`; 775 ggml modules).
- ggml's ``matmul_*`` (mul_mm.comp, also ``matmul_id_*``): push constants by member name
  as ggml-vulkan.cpp's ggml_vk_matmul/ggml_vk_matmul_id set them for M = 48, N = 40 and
  K two blocks of A's type, workgroups (ceil(M / 64), ceil(N / 64), 1 or one per expert),
  for ``matmul_id`` an id buffer giving every token both of 2 experts, and a workgroup
  width left at glslang's default 1 (an unused ``BLOCK_SIZE`` dropped) set to 128, the
  default tile's 4 warps of 32 (`ggml_matmul_setup`, ``MM_BLOCK``);
  ``dequant_*`` a 16 x 256 matrix (`GGML_DEQUANT`).
- Buffers: every storage/uniform buffer binding 64 KiB (more if its block needs it),
  filled by the type of the block's last member's elements: float32 uniform in [-1, 1],
  float16 the same rounded, 8/16/32-bit integers in [0, 8), anything else (ggml's
  quantised blocks) 16-bit halves of float16 values in [-1, 1]. In a module named
  ``bf16`` (ggml keeps bfloat16 in ``uint16_t``) 16-bit integers are bfloat16 values in
  [-1, 1]: small integers there are float32 denormals once widened, which Vulkan lets
  an implementation flush (radcc flushes float32 denormals as RADV does, lavapipe keeps
  them).
- Both run with robust buffer access (out-of-bounds loads give zero, stores are
  dropped: ``radcc run --robust`` and lavapipe's robustBufferAccess), workgroups
  (2, 2, 2) (matmuls: above), specialization constants at their defaults (but ncnn's
  divisors and ggml's workgroup width, above), radcc in strict mode (a missing
  wait or an unmitigated hazard fails the run).
- Comparison, per binding, by the same element type: float32 ``|a - b| <= 1e-3 *
  max(1, |b|)``, float16 with 1e-2, integers and other bytes exactly; NaNs agree with
  NaNs. lavapipe's subgroup size is 8 (radcc's 32 or 64): a module using subgroup
  operations that differs is reported ``subgroup`` (its algorithm may legitimately
  depend on the size), not ``MISMATCH``; a module that agrees but wrote none of its
  buffers in lavapipe (every invocation returned early with these sizes) is
  ``ok-unwritten``.

Each module runs in a child process (a crash or a hang, ``--timeout``, is that module's
result). Modules with images, samplers, cooperative matrices or physical storage buffer
pointers are skipped (``skip``). Results: one line per module and wave on stdout, a
summary by outcome; ``--out`` writes JSON lines (``--resume`` keeps them and runs the
rest). Exit status 1 when a module mismatches or fails in radcc (refusal, emulator
error); 2 when ``--ncnn-src`` is neither a source tree nor a git directory; 0 otherwise.
ncnn modules run without ``--ncnn-src`` keep random shape members (a warning says so):
their mismatches are the setup's undefined behaviour, not radcc's (``dims`` 4 makes
``gxyz[dims - 1]`` read past an ``ivec3``: prelu_pack4_fp16 then took component x in
radcc and z in lavapipe, 13 of 32768 halves apart).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import struct
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GROUPS = (2, 2, 2)
BUFFER_BYTES = 64 << 10
F32_TOL = 1e-3
F16_TOL = 1e-2
CSTEP = 256  # an ncnn channel step without its w/h members: beyond any extent 1..12 x 4

# SPIR-V opcodes and enumerants used below (the unified SPIR-V specification)
OP_MEMBER_NAME, OP_NAME_CAPABILITY = 6, 17
OP_TYPE_INT, OP_TYPE_FLOAT, OP_TYPE_VECTOR, OP_TYPE_MATRIX = 21, 22, 23, 24
OP_TYPE_IMAGE, OP_TYPE_SAMPLER, OP_TYPE_SAMPLED_IMAGE = 25, 26, 27
OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY, OP_TYPE_STRUCT, OP_TYPE_POINTER = 28, 29, 30, 32
OP_CONSTANT, OP_VARIABLE, OP_DECORATE, OP_MEMBER_DECORATE = 43, 59, 71, 72
DEC_BINDING, DEC_DESCRIPTOR_SET, DEC_OFFSET = 33, 34, 35
DEC_SPEC_ID, DEC_BUILTIN, BUILTIN_WORKGROUP_SIZE = 1, 11, 25
OP_SPEC_CONSTANT, OP_SPEC_CONSTANT_COMPOSITE = 50, 51
SC_UNIFORM, SC_PUSH_CONSTANT, SC_STORAGE_BUFFER = 2, 9, 12
CAP_GROUP_NON_UNIFORM = 61  # GroupNonUniform*: 61..68
CAP_SUBGROUP_BALLOT_KHR = 4423
CAP_COOPERATIVE_MATRIX_KHR = 6022
CAP_PHYSICAL_STORAGE_BUFFER = 5347


@dataclass(frozen=True)
class Scalar:
    kind: str  # "int" | "uint" | "float"
    width: int  # bits


@dataclass
class ModuleShape:
    """What the setup needs from a module: push constant members (byte offset, scalar,
    components), each buffer binding's element scalar (None: a struct or other
    aggregate) and block size without its runtime array, and why it is skipped."""
    push: list[tuple[int, Scalar, int]]
    bindings: dict[tuple[int, int], tuple[Scalar | None, int]]
    subgroup: bool
    skip: str | None
    push_names: list[str] = field(default_factory=list)  # OpMemberName, when kept
    # a workgroup size given by specialization constant ids that other constants of
    # the module share with another default (`workgroup_spec`)
    spec: dict[int, int] = field(default_factory=dict)
    # the workgroup width's specialization constant (SpecId, default), when it has one
    width_spec: tuple[int, int] | None = None


def shape_of(spirv: bytes) -> ModuleShape:
    """Read `spirv`'s push constant block and buffer bindings (an independent little
    reader: the oracle's setup must not come from radcc's front end)."""
    w = struct.unpack(f"<{len(spirv) // 4}I", spirv)
    types: dict[int, tuple[int, tuple[int, ...]]] = {}
    consts: dict[int, int] = {}
    dec: dict[int, dict[int, int]] = {}
    mdec: dict[tuple[int, int], int] = {}
    variables: list[tuple[int, int, int]] = []
    caps: set[int] = set()
    member_names: dict[tuple[int, int], str] = {}
    spec_defaults: dict[int, int] = {}
    composites: dict[int, tuple[int, ...]] = {}
    i = 5
    while i < len(w):
        n, op = w[i] >> 16, w[i] & 0xFFFF
        ops = w[i + 1:i + n]
        if n == 0:
            raise ValueError("malformed SPIR-V (zero word count)")
        if op == OP_NAME_CAPABILITY:
            caps.add(ops[0])
        elif op == OP_MEMBER_NAME:
            raw = struct.pack(f"<{len(ops) - 2}I", *ops[2:])
            member_names[(ops[0], ops[1])] = raw.split(b"\0")[0].decode(errors="replace")
        elif OP_TYPE_INT <= op <= OP_TYPE_POINTER:
            types[ops[0]] = (op, tuple(ops[1:]))
        elif op == OP_CONSTANT:
            consts[ops[1]] = ops[2]
        elif op == OP_SPEC_CONSTANT:
            spec_defaults[ops[1]] = ops[2]
        elif op == OP_SPEC_CONSTANT_COMPOSITE:
            composites[ops[1]] = tuple(ops[2:])
        elif op == OP_DECORATE and len(ops) >= 3:
            dec.setdefault(ops[0], {})[ops[1]] = ops[2]
        elif op == OP_MEMBER_DECORATE and len(ops) >= 4 and ops[2] == DEC_OFFSET:
            mdec[(ops[0], ops[1])] = ops[3]
        elif op == OP_VARIABLE:
            variables.append((ops[0], ops[1], ops[2]))
        i += n

    def scalar(t: int) -> tuple[Scalar | None, int]:
        """The scalar of a scalar/vector/matrix type and its component count."""
        op, a = types[t]
        if op == OP_TYPE_INT:
            return Scalar("int" if a[1] else "uint", a[0]), 1
        if op == OP_TYPE_FLOAT:
            return Scalar("float", a[0]), 1
        if op in (OP_TYPE_VECTOR, OP_TYPE_MATRIX):
            s, c = scalar(a[0])
            return s, c * a[1]
        return None, 0

    def element(t: int) -> Scalar | None:
        op, a = types[t]
        if op in (OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY):
            return element(a[0])
        return scalar(t)[0]

    subgroup = bool(caps & ({CAP_SUBGROUP_BALLOT_KHR} | set(range(61, 69))))
    skip = None
    if CAP_COOPERATIVE_MATRIX_KHR in caps:
        skip = "cooperative matrix"
    elif CAP_PHYSICAL_STORAGE_BUFFER in caps:
        skip = "buffer device address"
    if skip:
        return ModuleShape([], {}, subgroup, skip)
    push: list[tuple[int, Scalar, int]] = []
    push_names: list[str] = []
    bindings: dict[tuple[int, int], tuple[Scalar | None, int]] = {}
    for ptr, vid, sc in variables:
        pop, pa = types.get(ptr, (0, ()))
        if pop != OP_TYPE_POINTER:
            continue
        t = pa[1]
        while types.get(t, (0,))[0] in (OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY):
            t = types[t][1][0]
        if t not in types:  # a bool or another type outside the reader's range
            continue  # (function/private variables: nothing to set up)
        op, members = types[t]
        if op in (OP_TYPE_IMAGE, OP_TYPE_SAMPLER, OP_TYPE_SAMPLED_IMAGE):
            skip = skip or "images or samplers"
            continue
        if op != OP_TYPE_STRUCT:
            continue
        if sc == SC_PUSH_CONSTANT:
            for m, mt in enumerate(members):
                s, comps = scalar(mt)
                if s is not None:
                    push.append((mdec.get((t, m), 0), s, comps))
                    push_names.append(member_names.get((t, m), ""))
        elif sc in (SC_UNIFORM, SC_STORAGE_BUFFER) and vid in dec:
            key = (dec[vid].get(DEC_DESCRIPTOR_SET, 0), dec[vid].get(DEC_BINDING, 0))
            last = len(members) - 1
            off = mdec.get((t, last), 0)
            lop, la = types[members[last]]
            fixed = off + (4 * consts.get(la[1], 1) if lop == OP_TYPE_ARRAY else 16)
            if key not in bindings:
                bindings[key] = (element(members[last]), fixed)
    width = None
    for cid, parts in composites.items():
        if dec.get(cid, {}).get(DEC_BUILTIN) == BUILTIN_WORKGROUP_SIZE and parts \
                and DEC_SPEC_ID in dec.get(parts[0], {}) and parts[0] in spec_defaults:
            width = (dec[parts[0]][DEC_SPEC_ID], spec_defaults[parts[0]])
    return ModuleShape(push, bindings, subgroup, skip, push_names,
                       workgroup_spec(dec, spec_defaults, composites), width)


def workgroup_spec(dec: dict[int, dict[int, int]], defaults: dict[int, int],
                   composites: dict[int, tuple[int, ...]]) -> dict[int, int]:
    """ggml's shaders take their workgroup width from ``local_size_x_id = 0`` and use the
    same id for a ``BLOCK_SIZE`` constant of another default (glslang makes them two
    constants: the width's default 1, the other's 64): ggml-vulkan.cpp always sets id 0,
    so both agree. Left at the defaults the kernel runs one invocation that strides its
    loops by ``BLOCK_SIZE``-derived steps of 0 (an endless loop). Give such an id the
    other constant's default."""
    ids: dict[int, set[int]] = {}
    for cid in defaults:
        if DEC_SPEC_ID in dec.get(cid, {}):
            ids.setdefault(dec[cid][DEC_SPEC_ID], set()).add(cid)
    out: dict[int, int] = {}
    for cid, parts in composites.items():
        if dec.get(cid, {}).get(DEC_BUILTIN) != BUILTIN_WORKGROUP_SIZE:
            continue
        for part in parts:
            sid = dec.get(part, {}).get(DEC_SPEC_ID)
            others = {defaults[c] for c in ids.get(sid, set()) if c != part} if sid is not None \
                else set()
            if len(others) == 1 and defaults.get(part) not in others:
                out[sid] = others.pop()  # type: ignore[index]
    return out


PUSH_BLOCK = re.compile(r"uniform\s+parameter\s*\{([^}]*)\}")
PUSH_MEMBER = re.compile(r"\b(?:u?int|float|[iu]?vec[234])\s+(\w+)\s*;")


SPEC_INT = re.compile(r"constant_id\s*=\s*(\d+)\s*\)\s*const\s+int\s+(\w+)\s*=\s*0\s*;")
# ncnn's specialization constants that divide (or scale a division): 0, their default,
# would make the shader divide by zero (undefined); ncnn always sets them
NCNN_DIVISORS = {"stride": 2, "upscale_factor": 2}


NCNN_SHADER_DIR = "src/layer/vulkan/shader"


def ncnn_tree_kind(src: str) -> str | None:
    """How `src` holds ncnn's shaders: ``"tree"`` (a checkout or an extracted archive
    with ``src/layer/vulkan/shader/``), ``"git"`` (a git directory, bare or not), or
    None (neither: every module would silently fall back to random shape members)."""
    if (Path(src) / NCNN_SHADER_DIR).is_dir():
        return "tree"
    cp = subprocess.run(["git", "--git-dir", src, "rev-parse", "--verify", "-q", "HEAD"],
                        capture_output=True, text=True)
    return "git" if cp.returncode == 0 else None


def ncnn_source(src: str, module: str) -> str:
    """ncnn's shader source of `module` (``NAME_fp32``/``_fp16``) from `src` (a source
    tree or a git directory, `ncnn_tree_kind`), comments removed ("" when there is
    none)."""
    name = re.sub(r"_fp(32|16)$", "", module)
    if ncnn_tree_kind(src) == "tree":
        f = Path(src) / NCNN_SHADER_DIR / f"{name}.comp"
        text = f.read_text() if f.is_file() else ""
    else:
        cp = subprocess.run(["git", "--git-dir", src, "show",
                             f"HEAD:{NCNN_SHADER_DIR}/{name}.comp"],
                            capture_output=True, text=True)
        text = cp.stdout if cp.returncode == 0 else ""
    return re.sub(r"//[^\n]*", "", text)


def ncnn_member_names(source: str) -> list[str] | None:
    """The push constant members of an ncnn shader (None: no block)."""
    m = PUSH_BLOCK.search(source)
    return PUSH_MEMBER.findall(m.group(1)) if m else None


def ncnn_spec(source: str) -> dict[int, int]:
    """Specialization constants for ncnn's divisors left at 0 (`NCNN_DIVISORS`)."""
    return {int(i): NCNN_DIVISORS[n] for i, n in SPEC_INT.findall(source)
            if n in NCNN_DIVISORS}


def ncnn_values(names: list[str], rng: np.random.Generator) -> dict[str, int]:
    """Integer push constants for ncnn's shape members: ``dims`` (and ``outdims``...)
    3, ``d`` 1, each ``cstep`` (``outcstep``, ``outcstep_native``) its ``w * h * d``
    or `CSTEP` where the block has no such ``w`` (channels must not overlap: two
    invocations storing to one element would race), every other integer 1..12."""
    v: dict[str, int] = {}
    for n in names:
        if n.endswith("dims"):
            v[n] = 3
        elif n.endswith("d") and n.removesuffix("d") in ("", "out", "a", "b", "in", "src"):
            v[n] = 1
        elif "cstep" not in n:
            v[n] = int(rng.integers(1, 13))
    for n in names:
        if "cstep" in n:
            pre = n.split("cstep")[0]
            v[n] = v[pre + "w"] * v.get(pre + "h", 1) * v.get(pre + "d", 1) \
                if pre + "w" in v else CSTEP
    return v


# ggml's mul_mm.comp (``matmul_*``) set up as ggml-vulkan.cpp dispatches it
# (ggml_vk_matmul / ggml_vk_matmul_id): one M x N output of K-long dot products,
# A M rows of K (quantised in blocks of QK), B N rows of K, D N rows of M; workgroups
# (ceil(M / BM), ceil(N / BN), batches), BM = BN = 64 the modules' defaults. M and N are
# not multiples of the tile (the bounds checks run), K is two blocks of A's type.
MM_M, MM_N, MM_TILE = 48, 40, 64
MM_EXPERTS, MM_USED = 2, 2  # matmul_id: experts, experts each token uses (nei0)
# the workgroup width (``BLOCK_SIZE``, local_size_x_id 0) that mul_mm.comp's default tile
# needs: warps of WARP 32 invocations, one per WM x WN = 32 x 32 piece of the BM x BN =
# 64 x 64 tile, 4 warps. glslang drops an unused BLOCK_SIZE, leaving the width's default
# 1 (which `workgroup_spec` cannot see): one invocation strides its tile loads by
# 1 * 2 / BK = 0, an endless loop (the "too slow" matmuls of the first runs)
MM_BLOCK = 128
# mul_mm.comp's BK for a quantised A is specialization constant 3, default 16 but
# "assumed to be 32 if working with a quant" (ggml-vulkan.cpp's *_warptile_mmq set 32;
# f32/f16 A have BK 32 as a #define): at 16 the quant loads fill a 32-wide row, threads
# overwrite each other's shared memory and the result depends on the schedule
MM_BK_ID, MM_BK_QUANT = 3, 32
GGML_QK256 = ("q2_k", "q3_k", "q4_k", "q5_k", "q6_k", "iq1_s", "iq1_m", "iq2_xxs", "iq2_xs",
              "iq2_s", "iq3_xxs", "iq3_s", "iq4_xs")


@dataclass
class MatmulSetup:
    push: bytes
    groups: tuple[int, int, int]
    buffers: dict[tuple[int, int], bytes]  # the id and expert-count buffers (matmul_id)
    spec: dict[int, int]  # the workgroup width, when the module leaves it at 1


# ggml's dequant_* (dequant_head.glsl's push block): a 16 x 256 matrix, 4096 elements
# (``nel``, the count the kernels bound their blocks by: random values of 1..12 left
# every invocation returning early, ``ok-unwritten``)
GGML_DEQUANT = {"M": 16, "K": 256, "stride_a": 256, "stride_b": 256, "nel": 4096}


def ggml_named_push(name: str, shape: ModuleShape) -> bytes | None:
    """Push constants of a ggml ``dequant_*`` module by member name (None: not one)."""
    if not name.startswith("dequant_") or shape.push_names != list(GGML_DEQUANT):
        return None
    return struct.pack(f"<{len(GGML_DEQUANT)}I", *GGML_DEQUANT.values())


def ggml_matmul_setup(name: str, shape: ModuleShape) -> MatmulSetup | None:
    """Push constants, workgroups and index buffers of a ggml ``matmul_*`` module (None:
    not one, or its push block is not the one described above)."""
    if not name.startswith("matmul_"):
        return None
    qk = 256 if any(f"_{q}_" in name for q in GGML_QK256) else 32
    k = 2 * qk
    m, n = MM_M, MM_N
    v = {"M": m, "N": n, "K": k, "stride_a": k, "stride_b": k, "stride_d": m,
         "batch_stride_a": m * k, "batch_stride_b": n * k, "batch_stride_d": m * n,
         "base_work_group_z": 0, "num_batches": 1, "k_split": k, "ne02": 1, "ne12": 1,
         "broadcast2": 1, "broadcast3": 1, "padded_n": n}
    groups = (-(-m // MM_TILE), -(-n // MM_TILE), 1)
    extra: dict[tuple[int, int], bytes] = {}
    if "nei0" in shape.push_names:
        # n tokens, each using both experts (ids row t: (t % 2, 1 - t % 2)), B one row
        # per token (ne11 = 1), D a row of M per token and slot
        ids = np.array([[t % 2, 1 - t % 2] for t in range(n)], np.int32)
        v |= {"nei0": MM_USED, "nei1": n, "nbi1": MM_USED, "ne11": 1,
              "batch_stride_b": k, "batch_stride_d": m * MM_USED}
        groups = (-(-m // MM_TILE), -(-n // MM_TILE), MM_EXPERTS)
        extra = {(0, 3): ids.tobytes(),
                 (0, 4): np.full(MM_EXPERTS, n, np.int32).tobytes()}
    if set(shape.push_names) - set(v) or any(c != 1 or sc.width != 32
                                             for _, sc, c in shape.push):
        return None
    buf = bytearray(max(off + 4 for off, _, _ in shape.push))
    for (off, _, _), nm in zip(shape.push, shape.push_names, strict=True):
        struct.pack_into("<I", buf, off, v[nm])
    spec = {shape.width_spec[0]: MM_BLOCK} if shape.width_spec and shape.width_spec[1] == 1 \
        else {}
    a_type = name.removeprefix("matmul_").removeprefix("id_").removeprefix("subgroup_")
    if a_type.split("_")[0] not in ("f32", "f16", "bf16"):
        spec[MM_BK_ID] = MM_BK_QUANT
    return MatmulSetup(bytes(buf), groups, extra, spec)


def push_bytes(shape: ModuleShape, rng: np.random.Generator,
               names: list[str] | None = None) -> bytes:
    size = max((off + 4 * c for off, _, c in shape.push), default=0)
    buf = bytearray(size)
    named = ncnn_values(names, rng) if names and len(names) == len(shape.push) else {}
    for m, (off, s, comps) in enumerate(shape.push):
        if named and s.kind != "float" and comps == 1:
            struct.pack_into("<I", buf, off, named[names[m]])  # type: ignore[index]
            continue
        for c in range(comps):
            o = off + c * s.width // 8
            if s.kind == "float":
                if s.width == 32:
                    struct.pack_into("<f", buf, o, 0.5)
                elif s.width == 16:
                    struct.pack_into("<e", buf, o, 0.5)
            elif s.width == 32:
                struct.pack_into("<I", buf, o, int(rng.integers(1, 13)))
    return bytes(buf)


def fill(elem: Scalar | None, nbytes: int, rng: np.random.Generator,
         bf16: bool = False) -> bytes:
    if bf16 and elem is not None and elem.kind != "float" and elem.width == 16:
        x = rng.uniform(-1, 1, nbytes // 2).astype(np.float32).view(np.uint32)
        return (x >> 16).astype(np.uint16).tobytes()
    if elem is not None and elem.kind == "float" and elem.width == 32:
        return rng.uniform(-1, 1, nbytes // 4).astype(np.float32).tobytes()
    if elem is not None and elem.kind in ("int", "uint"):
        dt = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[elem.width]
        return rng.integers(0, 8, nbytes * 8 // elem.width).astype(dt).tobytes()
    return rng.uniform(-1, 1, nbytes // 2).astype(np.float16).tobytes()


def compare(elem: Scalar | None, got: bytes, want: bytes) -> str | None:
    """None when `got` (radcc) agrees with `want` (lavapipe), else where it does not."""
    if got == want:
        return None
    if len(got) != len(want):
        return f"sizes {len(got)} vs {len(want)}"
    if elem is not None and elem.kind == "float" and elem.width in (16, 32):
        dt, tol = (np.float32, F32_TOL) if elem.width == 32 else (np.float16, F16_TOL)
        a = np.frombuffer(got, dt).astype(np.float64)
        b = np.frombuffer(want, dt).astype(np.float64)
        bad = ~((np.abs(a - b) <= tol * np.maximum(1.0, np.abs(b))) | (np.isnan(a) & np.isnan(b))
                | (a == b))
        if not bad.any():
            return None
        j = int(np.flatnonzero(bad)[0])
        return f"{int(bad.sum())} of {a.size} elements differ (first [{j}]: {a[j]} vs {b[j]})"
    a8, b8 = np.frombuffer(got, np.uint8), np.frombuffer(want, np.uint8)
    bad = a8 != b8
    j = int(np.flatnonzero(bad)[0])
    return f"{int(bad.sum())} of {a8.size} bytes differ (first at byte {j})"


def run_one(path: str, waves: list[int], ncnn_src: str | None) -> list[dict[str, Any]]:
    """Run one module (in the child process); a result row per wave."""
    from radcc.driver.compile import compile_spirv
    from radcc.driver.run import run_compiled
    from radcc.oracle import lavapipe
    from radcc.passes.options import DebugOptions

    spirv = Path(path).read_bytes()
    base = {"file": path}
    try:
        shape = shape_of(spirv)
    except (ValueError, KeyError, struct.error) as e:
        return [base | {"wave": w, "result": "skip", "detail": f"cannot read: {e}"}
                for w in waves]
    if shape.skip:
        return [base | {"wave": w, "result": "skip", "detail": shape.skip} for w in waves]
    rng = np.random.default_rng(sum(path.encode()) * 7919 + len(spirv))
    source = ncnn_source(ncnn_src, Path(path).stem) if ncnn_src and "ncnn" in path else ""
    names = ncnn_member_names(source)
    spec = ncnn_spec(source) | shape.spec
    push = push_bytes(shape, rng, names)
    bf16 = "bf16" in Path(path).name
    buffers = {k: fill(e, max(BUFFER_BYTES, 4 * math.ceil(size / 4)), rng, bf16)
               for k, (e, size) in sorted(shape.bindings.items())}
    groups = GROUPS
    mm = ggml_matmul_setup(Path(path).stem, shape) if "ggml" in path else None
    if mm is not None:
        push, groups = mm.push, mm.groups
        buffers |= mm.buffers
        spec |= mm.spec
    named = ggml_named_push(Path(path).stem, shape) if "ggml" in path else None
    if named is not None:
        push = named
    t0 = time.perf_counter()
    try:
        want = lavapipe.run_compute(spirv, groups=groups, buffers=buffers, push_constants=push,
                                    spec_constants=spec,
                                    robust=True)
    except lavapipe.LavapipeError as e:
        return [base | {"wave": w, "result": "lavapipe-error", "detail": str(e)[:300]}
                for w in waves]
    lvp_s = time.perf_counter() - t0
    rows = []
    for w in waves:
        row = base | {"wave": w, "lavapipe_s": round(lvp_s, 2)}
        t0 = time.perf_counter()
        try:
            res = compile_spirv(spirv, wave_size=w, spec=dict(spec),
                                debug_options=DebugOptions.parse("validateir,validatera"))
        except Exception as e:  # a refusal or an internal error: this module's result
            rows.append(row | {"result": "radcc-error", "detail": f"{type(e).__name__}: "
                               f"{str(e).splitlines()[0][:300] if str(e) else ''}"})
            continue
        try:
            got, run = run_compiled(res, groups, buffers, push, robust=True)
        except Exception as e:
            rows.append(row | {"result": "emu-error", "detail": f"{type(e).__name__}: "
                               f"{str(e)[:300]}"})
            continue
        row["radcc_s"] = round(time.perf_counter() - t0, 2)
        if run.violations:
            rows.append(row | {"result": "strict", "detail": "; ".join(
                str(v) for v in run.violations[:3])[:300]})
            continue
        diffs = {f"{k[0]}:{k[1]}": d for k in buffers
                 if (d := compare(shape.bindings[k][0], got[k], want[k])) is not None}
        written = sum(want[k] != buffers[k] for k in buffers)
        if not diffs:
            rows.append(row | {"result": "ok" if written else "ok-unwritten"})
        else:
            rows.append(row | {"result": "subgroup" if shape.subgroup else "MISMATCH",
                               "detail": "; ".join(f"{k}: {d}" for k, d in diffs.items())})
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="*")
    ap.add_argument("--wave", default="64,32")
    ap.add_argument("--only", default="", help="the modules whose name contains this")
    ap.add_argument("--exclude", default="", help="not the modules whose name contains this")
    ap.add_argument("--every", type=int, default=1, help="every N-th module")
    ap.add_argument("--offset", type=int, default=0, help="starting at this one (--every)")
    ap.add_argument("--limit", type=int, default=0, help="at most N modules")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per module")
    ap.add_argument("--out", help="JSON lines of the results")
    ap.add_argument("--resume", action="store_true", help="keep --out's rows, run the rest")
    ap.add_argument("--ncnn-src", help="ncnn's source tree or git directory: shape push "
                    "constants by name")
    ap.add_argument("--one", help=argparse.SUPPRESS)  # the child process's module
    a = ap.parse_args()
    waves = [int(x) for x in a.wave.split(",")]
    if a.one:
        print(json.dumps(run_one(a.one, waves, a.ncnn_src)))
        return 0
    if a.ncnn_src and ncnn_tree_kind(a.ncnn_src) is None:
        print(f"rw_lavapipe_check: error: --ncnn-src {a.ncnn_src}: neither a directory with "
              f"{NCNN_SHADER_DIR}/ nor a git directory", file=sys.stderr)
        return 2
    files: list[str] = []
    for inp in a.inputs:
        p = Path(inp)
        files += sorted(str(f) for f in p.rglob("*.spv")) if p.is_dir() else [inp]
    files = [f for f in files if a.only in Path(f).name
             and not (a.exclude and a.exclude in Path(f).name)][a.offset::a.every]
    if a.limit:
        files = files[:a.limit]
    if not a.ncnn_src and any("ncnn" in f for f in files):
        print("rw_lavapipe_check: warning: ncnn modules without --ncnn-src get random shape "
              "members (dims above 3 index a vector out of range, channels overlap): "
              "their mismatches are the setup's undefined behaviour", file=sys.stderr)
    done: set[str] = set()
    if a.out and a.resume and Path(a.out).exists():
        done = {json.loads(ln)["file"] for ln in Path(a.out).read_text().splitlines() if ln}
    counts: Counter[str] = Counter()
    out = open(a.out, "a" if a.resume else "w") if a.out else None  # noqa: SIM115
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for f in files:
        if f in done:
            continue
        try:
            cp = subprocess.run([sys.executable, __file__, "--one", f, "--wave", a.wave]
                                + (["--ncnn-src", a.ncnn_src] if a.ncnn_src else []),
                                capture_output=True, text=True, timeout=a.timeout, env=env)
            rows = json.loads(cp.stdout.strip().splitlines()[-1]) if cp.returncode == 0 \
                else [{"file": f, "wave": w, "result": "crash",
                       "detail": (cp.stderr.strip().splitlines()
                                  or [f"exit status {cp.returncode}"])[-1][:300]}
                      for w in waves]
        except subprocess.TimeoutExpired:
            rows = [{"file": f, "wave": w, "result": "timeout"} for w in waves]
        for r in rows:
            counts[r["result"]] += 1
            print(f"{Path(f).name:48} wave{r['wave']} {r['result']:14} {r.get('detail', '')}",
                  flush=True)
            if out:
                out.write(json.dumps(r) + "\n")
                out.flush()
    if out:
        out.close()
    print("summary: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
    return 1 if counts["MISMATCH"] or counts["radcc-error"] or counts["emu-error"] or \
        counts["strict"] or counts["crash"] else 0


if __name__ == "__main__":
    sys.exit(main())
