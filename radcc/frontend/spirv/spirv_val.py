"""The real SPIR-V validator, ``spirv-val`` (SPIRV-Tools), run on a module before translation.

``run_spirv_val(module, data)`` runs ``spirv-val --target-env ENV`` on the module's bytes
and raises ``SpirvError`` at the word offset of the instruction it rejects; it does
nothing when ``spirv-val`` is not installed (radcc's own checks, ``validate.py``, still
run). It is run the way ``glslangValidator`` is for GLSL: an external program found on
``PATH`` (Debian package ``spirv-tools``), skipped with ``radcc compile --no-validate``.

The target environment is the one the module declares by its SPIR-V version, the lowest
Vulkan version that consumes it (``target_env``): 1.0 -> ``vulkan1.0``, 1.1-1.3 ->
``vulkan1.1``, 1.4 -> ``vulkan1.1spv1.4``, 1.5 -> ``vulkan1.2``, 1.6 -> ``vulkan1.3``.
Capabilities and extensions beyond that Vulkan version are declared by the module
itself (``OpExtension``) and spirv-val checks them against that declaration; a newer
environment would accept rules the producer did not target (e.g. Subgroup scope
barriers in a SPIR-V 1.0 module). ``--scalar-block-layout``: RDNA3's Vulkan drivers
offer the scalarBlockLayout feature and radcc lays buffers out from the module's
Offset/ArrayStride decorations, so scalar layouts (GL_EXT_scalar_block_layout) are
valid input; the std140/std430 rules are not imposed on top.

A spirv-val older than an extension the module uses cannot judge the module: Debian 12's
spirv-val (SPIRV-Tools 2023.1) predates SPV_KHR_cooperative_matrix and
SPV_VALVE_mixed_float_dot_product and rejects their capability numbers as invalid. When
the only complaint is such an unknown number of a capability radcc's grammar knows from a
newer registry entry (`NEWER_CAPABILITIES`), spirv-val is skipped for that module (radcc's own checks still run).

One rule is not enforced: SPIRV-Tools 2025 applies VUID-StandaloneSpirv-MemorySemantics-10871
(storage-class semantics bits without an Acquire/Release order), which glslang's output of
valid GLSL breaks (a relaxed ``atomicAdd`` with ``gl_StorageSemanticsBuffer``). radcc's own
validation warns about it and treats the operation as Relaxed; when spirv-val rejects a
module for that rule, it is run again on a copy whose offending semantics operands name a
new constant without the storage-class bits (`relax_storage_semantics`), so that every
other rule is still checked.

Nor is one rule of the core specification in the one case glslang breaks it: an
``OpFConvert`` whose operand already has the result type, a 16-bit float, in a module
without the Float16 capability. glslang (12 and 13.1.1 at least) emits it for
``float16_t(x)`` of a ``float16_t`` value when only GL_EXT_shader_16bit_storage is
enabled, as in llama.cpp's ``rope_*_f16`` shaders, and drivers compile it as a copy
(`storage_only_self_convert`; any other conversion to the same width stays an error). radcc's own validation warns
about it (`SAME_TYPE_CONVERT` names it) and translates it as a copy; when spirv-val rejects
a module for it, it is run again on a copy in which each such conversion is an
``OpCopyObject`` (`same_type_converts_as_copies`: the same words but the opcode).

spirv-val names an instruction by its 1-based position in the module (``error: line
N: ...``, followed by its disassembly); that position is turned into the word offset
of the same instruction here. Errors without a position are reported at word 0.
"""

from __future__ import annotations

import re
import shutil
import struct

from .binary import Instruction
from .errors import SpirvError
from .grammar import opcode
from .module import SpirvModule
from .types import TypeFloat, TypeInt, TypeVector

ENV_BY_VERSION = {
    (1, 0): "vulkan1.0",
    (1, 1): "vulkan1.1",
    (1, 2): "vulkan1.1",
    (1, 3): "vulkan1.1",
    (1, 4): "vulkan1.1spv1.4",
    (1, 5): "vulkan1.2",
    (1, 6): "vulkan1.3",
}
_LINE = re.compile(r"^error: line (\d+): (.*)$")
# capabilities newer than the spirv-val radcc is tested with (tools/gen_spirv_grammar.py's
# SUPPLEMENTS): value -> name
NEWER_CAPABILITIES = {6022: "CooperativeMatrixKHR", 6912: "DotProductFloat16AccFloat32VALVE",
                      6913: "DotProductFloat16AccFloat16VALVE", 5116: "BFloat16TypeKHR",
                      5117: "BFloat16DotProductKHR", 5118: "BFloat16CooperativeMatrixKHR"}
_UNKNOWN_CAP = re.compile(r"Invalid capability operand: (\d+)")
TIMEOUT = 60.0  # seconds; spirv-val is linear-time, this only guards a broken install


def target_env(module: SpirvModule) -> str:
    """The ``--target-env`` for the module's SPIR-V version (module docstring)."""
    return ENV_BY_VERSION.get(module.version, "vulkan1.3")


def find_spirv_val() -> str | None:
    """The ``spirv-val`` executable, or None when spirv-tools is not installed."""
    return shutil.which("spirv-val")


def run_spirv_val(module: SpirvModule, data: bytes) -> None:
    """Raise ``SpirvError`` when spirv-val rejects the module (module docstring)."""
    exe = find_spirv_val()
    if exe is None:
        return
    env = target_env(module)
    text = _spirv_val(exe, env, data)
    if text is None:
        return
    sites = [(ins.offset, ins.opname) for ins in module.instructions]
    if any(c in text for c in SAME_TYPE_COMPLAINTS):
        copies = same_type_converts_as_copies(module, data)
        if copies is not None:
            data = copies
            text = _spirv_val(exe, env, data)
            if text is None:
                return
    if RELAXED_RULE in text:
        relaxed = relax_storage_semantics(module, data)
        if relaxed is not None:
            data, sites = relaxed
            text = _spirv_val(exe, env, data)
            if text is None:
                return
    unknown = _UNKNOWN_CAP.search(text)
    if unknown is not None and int(unknown.group(1)) in NEWER_CAPABILITIES:
        return  # this spirv-val predates the module's extension (module docstring)
    raise _located(sites, text, env)


def _spirv_val(exe: str, env: str, data: bytes) -> str | None:
    """spirv-val's output for a module it rejects, None when it accepts it."""
    import subprocess  # only when spirv-val runs (start-up: --no-validate does not load it)

    try:
        p = subprocess.run([exe, "--target-env", env, "--scalar-block-layout", "-"], input=data,
                           capture_output=True, timeout=TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SpirvError(f"spirv-val could not be run ({e}); --no-validate skips it", 0) from None
    return None if p.returncode == 0 else (p.stdout + p.stderr).decode("utf-8", "replace")


# an OpFConvert to its operand's own type (module docstring): the phrase radcc's warning
# holds, spirv-val's complaints (SPIRV-Tools 2023.1, 2025.5) and the opcodes
SAME_TYPE_CONVERT = "converts to its operand's own type"
SAME_TYPE_COMPLAINTS = ("different bit width from Result Type: FConvert",
                         "different from component type of Result Type: FConvert")


def storage_only_self_convert(module: SpirvModule, ins: Instruction) -> bool:
    """Is `ins` glslang's defect (module docstring): an OpFConvert whose operand has its
    result type, a 16-bit float scalar or vector, in a module without the Float16
    capability (16-bit floats only in storage)? Any other conversion to the same width
    stays an error."""
    if ins.opname != "OpFConvert" or not ins.operands or "Float16" in module.capabilities:
        return False
    src = module.defs.get(int(ins.operands[0].value))
    if src is None or src.result_type != ins.result_type:
        return False
    t = module.types.get(ins.result_type or 0)
    if isinstance(t, TypeVector):
        t = module.types.get(t.component)
    return isinstance(t, TypeFloat) and t.width == 16 and not t.bfloat16


def same_type_converts_as_copies(module: SpirvModule, data: bytes) -> bytes | None:
    """A copy of the module in which every OpFConvert of glslang's defect
    (`storage_only_self_convert`) is an OpCopyObject (same operands, so every instruction
    keeps its words and position); None when there is none."""
    fmt = ">" if module.header.big_endian else "<"
    words = list(struct.unpack(f"{fmt}{len(data) // 4}I", data[:len(data) // 4 * 4]))
    convert, copy = opcode("OpFConvert"), opcode("OpCopyObject")
    changed = False
    for ins in module.instructions:
        if storage_only_self_convert(module, ins) and words[ins.offset] & 0xFFFF == convert:
            words[ins.offset] = words[ins.offset] & 0xFFFF0000 | copy
            changed = True
    if not changed:
        return None
    return struct.pack(f"{fmt}{len(words)}I", *words) + data[len(data) // 4 * 4:]


# the rule radcc warns about instead of enforcing (module docstring)
RELAXED_RULE = "VUID-StandaloneSpirv-MemorySemantics-10871"
_STORAGE_BITS = 0x40 | 0x100 | 0x800 | 0x1000  # Uniform/Workgroup/Image/OutputMemory
_ORDER_BITS = 0x2 | 0x4 | 0x8 | 0x10
_OP_CONSTANT = 43


def relax_storage_semantics(module: SpirvModule,
                            data: bytes) -> tuple[bytes, list[tuple[int, str]]] | None:
    """A copy of the module in which every memory-semantics operand with storage-class
    bits and no order names a new constant without those bits (inserted after the
    original constant, the id bound raised), and the (word offset, opname) in the
    original module of each of the copy's instructions (an inserted constant: its
    original's); None when no operand breaks the rule."""
    fmt = ">" if module.header.big_endian else "<"
    words = list(struct.unpack(f"{fmt}{len(data) // 4}I", data[:len(data) // 4 * 4]))
    new_id: dict[int, int] = {}  # offending constant -> its relaxed copy
    bound = module.header.bound
    for ins in module.instructions:
        pos = ins.offset + 1 + (ins.result_type is not None) + (ins.result_id is not None)
        for o in ins.operands:
            if o.params:
                break  # later operands' positions are not plain (no semantics follow)
            c = module.constants.get(int(o.value)) if o.kind == "IdMemorySemantics" else None
            v = c.value if c is not None else None
            if isinstance(v, int) and not isinstance(v, bool) and v & _STORAGE_BITS \
                    and not v & _ORDER_BITS:
                assert c is not None
                t = module.types.get(c.type)
                if not isinstance(t, TypeInt) or t.width != 32:
                    continue  # spirv-val reports the type
                if c.id not in new_id:
                    new_id[c.id] = bound
                    bound += 1
                words[pos] = new_id[c.id]
            pos += o.words
    if not new_id:
        return None
    words[3] = bound
    out, sites = words[:5], []
    for ins in module.instructions:
        n = words[ins.offset] >> 16
        out += words[ins.offset:ins.offset + n]
        sites.append((ins.offset, ins.opname))
        if ins.result_id in new_id:
            c = module.constants[ins.result_id]
            assert isinstance(c.value, int)
            out += [4 << 16 | _OP_CONSTANT, c.type, new_id[ins.result_id],
                    c.value & ~_STORAGE_BITS & 0xFFFFFFFF]
            sites.append((ins.offset, ins.opname))
    return struct.pack(f"{fmt}{len(out)}I", *out), sites


def _located(sites: list[tuple[int, str]], text: str, env: str) -> SpirvError:
    """spirv-val's first error at the word offset of the instruction it names (`sites`:
    each line's instruction)."""
    lines = [ln.rstrip() for ln in text.splitlines() if ln.strip()]
    for i, ln in enumerate(lines):
        m = _LINE.match(ln)
        if m is None:
            continue
        n, msg = int(m.group(1)), m.group(2)
        rest = " ".join(x.strip() for x in lines[i + 1:])
        detail = f"{msg} [{rest}]" if rest else msg
        detail = f"spirv-val ({env}): {detail}"
        if 1 <= n <= len(sites):
            offset, opname = sites[n - 1]
            return SpirvError(detail, offset, opname)
        return SpirvError(detail, 0)
    msg = " ".join(lines) or "no message"
    return SpirvError(f"spirv-val ({env}): {msg.removeprefix('error: ')}", 0)
