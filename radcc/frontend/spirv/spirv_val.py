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

spirv-val names an instruction by its 1-based position in the module (``error: line
N: ...``, followed by its disassembly); that position is turned into the word offset
of the same instruction here. Errors without a position are reported at word 0.
"""

from __future__ import annotations

import re
import shutil
import subprocess

from .errors import SpirvError
from .module import SpirvModule

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
    try:
        p = subprocess.run([exe, "--target-env", env, "--scalar-block-layout", "-"], input=data,
                           capture_output=True, timeout=TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SpirvError(f"spirv-val could not be run ({e}); --no-validate skips it", 0) from None
    if p.returncode == 0:
        return
    text = (p.stdout + p.stderr).decode("utf-8", "replace")
    unknown = _UNKNOWN_CAP.search(text)
    if unknown is not None and int(unknown.group(1)) in NEWER_CAPABILITIES:
        return  # this spirv-val predates the module's extension (module docstring)
    raise _located(module, text, env)


def _located(module: SpirvModule, text: str, env: str) -> SpirvError:
    lines = [ln.rstrip() for ln in text.splitlines() if ln.strip()]
    for i, ln in enumerate(lines):
        m = _LINE.match(ln)
        if m is None:
            continue
        n, msg = int(m.group(1)), m.group(2)
        rest = " ".join(x.strip() for x in lines[i + 1:])
        detail = f"{msg} [{rest}]" if rest else msg
        detail = f"spirv-val ({env}): {detail}"
        if 1 <= n <= len(module.instructions):
            ins = module.instructions[n - 1]
            return SpirvError(detail, ins.offset, ins.opname)
        return SpirvError(detail, 0)
    msg = " ".join(lines) or "no message"
    return SpirvError(f"spirv-val ({env}): {msg.removeprefix('error: ')}", 0)
