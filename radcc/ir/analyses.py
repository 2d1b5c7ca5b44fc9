"""The analyses a `Program` carries, and which of them are current.

Two analyses are kept on the program (`Program.analyses`) rather than beside it:

- liveness (`radcc.passes.live_var_analysis`): the `Liveness` result, plus what it
  writes into the program (kill flags, ``Block.register_demand`` /
  ``live_in_demand``, ``Program.max_reg_demand``);
- dominance (`radcc.ir.dominance`): ``Block.logical_idom`` / ``linear_idom``.

`Analyses` records which are current. The analysis modules set them when they
compute them and read them on demand (`get_live_vars`, `require_dominance`
compute only what is not current); whoever changes what an analysis reads
invalidates it: the pass manager after every phase that does not declare the
analysis preserved (`radcc.passes.manager.PassSpec.preserves`), and a phase that
changes the program and then reads an analysis again itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


@dataclass(frozen=True, slots=True)
class RegisterDemand:
    """Registers in use (dwords), SGPRs and VGPRs: what liveness computes."""

    sgpr: int = 0
    vgpr: int = 0

    def __add__(self, o: RegisterDemand) -> RegisterDemand:
        return RegisterDemand(self.sgpr + o.sgpr, self.vgpr + o.vgpr)

    def __sub__(self, o: RegisterDemand) -> RegisterDemand:
        return RegisterDemand(self.sgpr - o.sgpr, self.vgpr - o.vgpr)

    def max(self, o: RegisterDemand) -> RegisterDemand:
        return RegisterDemand(max(self.sgpr, o.sgpr), max(self.vgpr, o.vgpr))

    def exceeds(self, o: RegisterDemand) -> bool:
        return self.sgpr > o.sgpr or self.vgpr > o.vgpr


class Analysis(Enum):
    LIVENESS = "liveness"
    DOMINANCE = "dominance"


@dataclass
class Liveness:
    """live_var_analysis's result (see its module docstring)."""

    live_in: list[set[int]] = field(default_factory=list)
    live_out: list[set[int]] = field(default_factory=list)
    register_demand: list[list[RegisterDemand]] = field(default_factory=list)
    max_demand: RegisterDemand = RegisterDemand()
    waves_per_simd: int = 0


@dataclass(eq=False)
class Analyses:
    """The current analyses of one program: `liveness` is None when not current;
    `dominance` says whether the blocks' idom fields are."""

    liveness: Liveness | None = None
    dominance: bool = False

    def current(self) -> frozenset[Analysis]:
        out = set()
        if self.liveness is not None:
            out.add(Analysis.LIVENESS)
        if self.dominance:
            out.add(Analysis.DOMINANCE)
        return frozenset(out)

    def invalidate(self, keep: frozenset[Analysis] = frozenset()) -> None:
        """Forget every analysis not in `keep`."""
        if self.liveness is not None and Analysis.LIVENESS not in keep:
            self.liveness = None
        if self.dominance and Analysis.DOMINANCE not in keep:
            self.dominance = False
