"""Running graphics waves: a program's code in the emulator's memory, one wave at a time
with the registers the draw pipeline sets up (NGG vertex waves, pixel waves).

The compute dispatcher (`radcc.emu.dispatch.Dispatcher`) runs the waves: its
block executor, strict mode and counters serve every stage; only the initial state
differs, and the draw pipeline provides it as a function of the wave (`WaveSetup`:
SGPRs, VGPRs, EXEC, LDS contents). Each wave is a workgroup of its own (a VS-only NGG
threadgroup and a pixel wave need nothing from other waves); what a wave leaves behind
(its exports, `Wave.exports`; its stores, in the shared `Memory`) is the pipeline's to
read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from radcc.emu.dispatch import Counters, Dispatcher
from radcc.emu.loader import LoadedKernel
from radcc.emu.memory import Memory
from radcc.emu.state import Wave, Workgroup
from radcc.emu.strict import Strict, Violation
from radcc.target import Target

__all__ = ["GraphicsProgram", "WaveRunner", "WaveSetup"]

WaveSetup = Callable[[Wave], None]


@dataclass(frozen=True)
class GraphicsProgram:
    """What the emulator needs of a compiled graphics stage: its code (the entry at
    `entry`, a byte offset), wave size, scratch bytes per lane and MODE fields (the
    kernel-descriptor spelling: float_round_mode_32, float_denorm_mode_32 ...)."""

    name: str
    code: bytes
    wave_size: int
    entry: int = 0
    scratch_bytes: int = 0
    mode: tuple[tuple[str, int], ...] = ()


class WaveRunner:
    """Runs waves of one program on `memory` (the program's code is mapped there)."""

    def __init__(self, program: GraphicsProgram, target: Target, memory: Memory, *,
                 strict: bool = True, max_instructions: int = 50_000_000,
                 ) -> None:
        code = memory.map(f"{program.name} code", program.code, size=len(program.code) + 64)
        base = code.base
        desc = dict(program.mode)
        desc["wavefront_size32"] = int(program.wave_size == 32)
        desc["private_segment_fixed_size"] = program.scratch_bytes
        kernel = LoadedKernel(program.name, base + program.entry, desc, {})
        self.d = Dispatcher(kernel, target, memory, (1, 1, 1), (program.wave_size, 1, 1), 0,
                            strict=strict, max_instructions=max_instructions)
        self.program = program
        self.waves = 0

    def run(self, setup: WaveSetup, lds: np.ndarray | None = None) -> Wave:
        """Run one wave to its end: `setup` sets its registers (EXEC defaults to all
        lanes); `lds` the workgroup's LDS contents (bytes, at most 64 KiB)."""
        d = self.d
        size = 0 if lds is None else len(lds)
        wg = Workgroup((self.waves, 0, 0), size, 1)
        if lds is not None:
            wg.lds[:size] = np.frombuffer(lds.tobytes(), np.uint8)
        w = Wave(d.wave_size, wg, 0, d.scratch)
        w.memory = d.memory
        w.mode = d.mode
        w.exec = w.full
        setup(w)
        if d.strict:
            w.strict = Strict(d.report, f"{self.program.name} wave {self.waves}", w.size,
                              d.hazards, d.target, d.wgp_mode)
            w.strict.w = w
        wg.waves = [w]
        d._run_workgroup(wg)
        self.waves += 1
        d.counters.waves += 1
        return w

    def report(self, w: Wave, kind: str, message: str) -> None:
        """A violation of the graphics rules by wave `w` (after it ended)."""
        name = f"{self.program.name} wave {self.waves - 1}"
        self.d.report.add((kind, name, message), Violation(kind, message, w.pc, name))

    @property
    def violations(self) -> list[Violation]:
        return list(self.d.report.violations)

    def counters(self) -> Counters:
        self.d._collect()
        return self.d.counters
