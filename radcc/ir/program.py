"""The machine IR: Program, Block, Instruction, Operand, Definition.

Shaped after ACO's IR (ACO's README.md "Control flow", "Compilation phases"):

- A `Program` holds the blocks of one shader in a single list whose order is
  the final code layout; each block has *logical* predecessors/successors
  (the CFG of the source program, which VGPR values follow) and *linear*
  ones (the CFG the hardware executes, which SGPR values follow).
- Instructions are in SSA form until SSA elimination: every `Definition`
  defines a new `Temp`; an `Operand` reads a temp, a constant, or nothing
  (undef), and may be fixed to a `PhysReg` (precolored). After register
  allocation every temp operand/definition carries its `PhysReg`.
- `Instruction.opcode` is a canonical LLVM name from the opcode table (e.g.
  ``v_add_f32``) or a pseudo opcode (``p_parallelcopy`` …, see `pseudo.py`);
  `Instruction.format` is the encoding chosen (``VOP2``, ``VOP3``, ``SOP1``,
  ``PSEUDO`` …). Per-format fields (memory offsets and cache bits, DPP
  controls, VALU modifiers, SOPP immediates, branch targets) live in
  `Instruction.fields`, an object of the format's class in `radcc.ir.fields`
  (a dict given to the constructor is converted; a name the format does not
  have is an error).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Flag, auto

from radcc.abi.args import ShaderArgs
from radcc.abi.stage import COMPUTE_CS, Stage
from radcc.ir.analyses import Analyses, RegisterDemand
from radcc.ir.fields import BY_FORMAT as FIELDS_BY_FORMAT
from radcc.ir.fields import Fields, fields_class
from radcc.ir.regclass import PhysReg, RegClass, Temp, s1, s2
from radcc.ir.shader_config import ShaderConfig
from radcc.target import GfxLevel, Target


class Operand:
    """An instruction input: a temp, a constant, or undef; optionally fixed."""

    __slots__ = ("temp", "const", "const_bytes", "is_undef", "phys", "is_kill",
                 "is_first_kill", "is_late_kill", "rc")

    def __init__(self, temp: Temp | None = None, *, const: int | None = None,
                 const_bytes: int = 4, rc: RegClass | None = None,
                 phys: PhysReg | None = None, undef: bool = False) -> None:
        self.temp = temp
        self.const = const
        self.const_bytes = const_bytes
        self.is_undef = undef
        self.phys = phys
        self.rc = temp.rc if temp is not None else rc
        self.is_kill = False  # last use of the temp
        self.is_first_kill = False  # first of several kills of the same temp here
        self.is_late_kill = False  # its register stays occupied until after the defs

    @staticmethod
    def c32(value: int) -> Operand:
        return Operand(const=value & 0xFFFFFFFF, const_bytes=4)

    @staticmethod
    def c64(value: int) -> Operand:
        return Operand(const=value & 0xFFFFFFFFFFFFFFFF, const_bytes=8)

    @staticmethod
    def fixed(phys: PhysReg, rc: RegClass) -> Operand:
        """A read of a fixed register with no temp (e.g. exec, scc, m0)."""
        return Operand(rc=rc, phys=phys)

    @property
    def is_temp(self) -> bool:
        return self.temp is not None

    @property
    def is_constant(self) -> bool:
        return self.const is not None

    @property
    def is_fixed(self) -> bool:
        return self.phys is not None

    @property
    def temp_id(self) -> int:
        return self.temp.id if self.temp is not None else 0

    @property
    def size(self) -> int:
        """Size in dwords."""
        if self.const is not None:
            return (self.const_bytes + 3) // 4
        return self.rc.size if self.rc is not None else 1

    def __repr__(self) -> str:
        return f"Operand({self.temp or self.const or ('undef' if self.is_undef else self.phys)})"


class Definition:
    """An instruction output: a temp, optionally fixed to a register."""

    __slots__ = ("temp", "phys", "rc", "is_kill", "is_precise")

    def __init__(self, temp: Temp | None = None, *, rc: RegClass | None = None,
                 phys: PhysReg | None = None) -> None:
        self.temp = temp
        self.phys = phys
        self.rc = temp.rc if temp is not None else rc
        self.is_kill = False  # defined but never used
        self.is_precise = False

    @staticmethod
    def fixed(phys: PhysReg, rc: RegClass) -> Definition:
        return Definition(rc=rc, phys=phys)

    @property
    def is_temp(self) -> bool:
        return self.temp is not None

    @property
    def is_fixed(self) -> bool:
        return self.phys is not None

    @property
    def temp_id(self) -> int:
        return self.temp.id if self.temp is not None else 0

    @property
    def size(self) -> int:
        return self.rc.size if self.rc is not None else 1

    def __repr__(self) -> str:
        return f"Definition({self.temp or self.phys})"


# the phi opcodes (`Instruction.is_phi`; walks over many instructions test the opcode
# against this set directly)
PHI_OPCODES = frozenset({"p_phi", "p_linear_phi"})


def _no_fields() -> Fields:
    return dict.__new__(Fields)


@dataclass(eq=False)
class Instruction:
    opcode: str
    format: str
    operands: list[Operand] = field(default_factory=list)
    definitions: list[Definition] = field(default_factory=list)
    # per-format fields (radcc.ir.fields); a Mapping given here is converted (the
    # default, an empty dict, too: a dict rather than None so that the declared type
    # holds, which the compiled build checks)
    fields: Fields = field(default_factory=_no_fields)
    # the source line of the MIR instruction isel made it from (0: unknown;
    # radcc.frontend.spirv.debug_lines); no pass reads it
    line: int = field(default=0, repr=False)

    def __post_init__(self) -> None:
        f = self.fields
        cls = FIELDS_BY_FORMAT.get(self.format) or fields_class(self.format)
        if f.__class__ is not cls:
            self.fields = cls(f) if f else dict.__new__(cls)

    @property
    def is_pseudo(self) -> bool:
        return self.format == "PSEUDO"

    @property
    def is_phi(self) -> bool:
        return self.opcode in PHI_OPCODES

    def __repr__(self) -> str:
        return f"Instruction({self.opcode}, defs={self.definitions}, ops={self.operands})"


class BlockKind(Flag):
    """Block kind flags (ACO's block_kind_*)."""

    NONE = 0
    UNIFORM = auto()
    TOP_LEVEL = auto()
    LOOP_PREHEADER = auto()
    LOOP_HEADER = auto()
    LOOP_EXIT = auto()
    CONTINUE = auto()
    BREAK = auto()
    CONTINUE_OR_BREAK = auto()
    BRANCH = auto()
    MERGE = auto()
    INVERT = auto()
    DISCARD_EARLY_EXIT = auto()
    USES_DISCARD = auto()
    NEEDS_LOWERING = auto()
    EXPORT_END = auto()
    END_WITH_REGS = auto()

    def names(self) -> list[str]:
        return [k.name.lower().replace("_", "-") for k in BlockKind
                if k and k in self and k.name is not None]


@dataclass(eq=False)
class Block:
    index: int
    instructions: list[Instruction] = field(default_factory=list)
    logical_preds: list[int] = field(default_factory=list)
    logical_succs: list[int] = field(default_factory=list)
    linear_preds: list[int] = field(default_factory=list)
    linear_succs: list[int] = field(default_factory=list)
    kind: BlockKind = BlockKind.NONE
    loop_nest_depth: int = 0
    # ACO's Block::uniform_if_depth / divergent_if_logical_depth: the uniform ifs
    # (then and else) and the logical sides of divergent ifs around the block (isel sets
    # them; the Latency statistic weights a block by them)
    uniform_if_depth: int = 0
    divergent_if_logical_depth: int = 0
    register_demand: RegisterDemand = RegisterDemand()
    live_in_demand: RegisterDemand = RegisterDemand()
    logical_idom: int = -1
    linear_idom: int = -1

    def phi_end(self) -> int:
        """The index of the first instruction that is not a phi: phis lead their block
        (validate_ir), so the walk stops there rather than going through the block."""
        ins = self.instructions
        k = 0
        while k < len(ins) and ins[k].opcode in PHI_OPCODES:
            k += 1
        return k


@dataclass(eq=False)
class Program:
    target: Target
    wave_size: int = 32
    stage: Stage = COMPUTE_CS
    blocks: list[Block] = field(default_factory=list)
    temp_rc: list[RegClass | None] = field(default_factory=lambda: [None])  # index 0: no temp
    max_reg_demand: RegisterDemand = RegisterDemand()
    config: ShaderConfig = field(default_factory=ShaderConfig)  # resources it uses
    statistics: dict[str, int] = field(default_factory=dict)
    # instructions lower_to_hw made of copy pseudo instructions (parallel copies, vector
    # create/split/extract; ACO's "Copies" statistic, counted in its handle_operands)
    lowered_copies: int = 0
    name: str = "main"
    # which analyses (liveness, dominance) are current: radcc/ir/analyses.py
    analyses: Analyses = field(default_factory=Analyses)
    # the registers at entry and the kernarg layout (radcc.abi; isel sets it, lower_to_hw
    # makes it the hardware's from p_startpgm: radcc.passes.kernel_abi.program_args)
    args: ShaderArgs | None = None
    # read-only bytes placed after the code (ACO's program->constant_data), addressed by
    # p_constaddr; emit_program appends them to the code
    constant_data: bytes = b""

    @property
    def lane_mask(self) -> RegClass:
        """The class of a per-lane boolean: s1 in wave32, s2 in wave64."""
        return s1 if self.wave_size == 32 else s2

    @property
    def gfx_level(self) -> GfxLevel:
        return self.target.gfx_level

    def allocate_temp(self, rc: RegClass) -> Temp:
        self.temp_rc.append(rc)
        return Temp(len(self.temp_rc) - 1, rc)

    def allocate_id(self, rc: RegClass) -> int:
        return self.allocate_temp(rc).id

    @property
    def peek_allocation_id(self) -> int:
        return len(self.temp_rc)

    def create_block(self, kind: BlockKind = BlockKind.NONE) -> Block:
        b = Block(len(self.blocks), kind=kind)
        self.blocks.append(b)
        return b

    def instructions(self):
        for b in self.blocks:
            yield from ((b, i) for i in b.instructions)
