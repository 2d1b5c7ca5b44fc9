"""Instruction selection driver: a divergence-analysed MirShader -> machine IR Program.

ACO's three steps (seeds/001 "Instruction Selection"): the divergence analysis
has run (``value.divergent``); register classes follow from it
(`IselBase.rc`); then each MIR instruction is selected in program order
(`CfMixin` for control flow, `AluMixin`, `MemoryMixin`, `SubgroupMixin`).

The entry block defines the ABI registers (docs/abi.md) with ``p_startpgm``
and loads every binding's base address from the kernarg segment.
"""

from __future__ import annotations

from dataclasses import dataclass

from radcc.frontend.mir import Instr, MirShader
from radcc.frontend.mir_ops import ALU_OPS, SYSTEM_VALUES
from radcc.ir.program import BlockKind, Operand, Program
from radcc.ir.regclass import PhysReg, s1, s2, v1
from radcc.passes.dead_code import dead_code
from radcc.target import Target

from .alu import AluMixin
from .alu16 import SMALL, Alu16Mixin
from .cf import CfMixin
from .context import Const, IselError, unsupported
from .kernargs import ArgLayout, layout
from .mem16 import Mem16Mixin
from .memory import MemoryMixin
from .subgroup import SUBGROUP_INTRINSICS, SubgroupMixin
from .subgroup16 import Subgroup16Mixin

_SYSTEM = frozenset(SYSTEM_VALUES.split())
_LOADS = frozenset({"load_ssbo", "load_ubo", "load_push_constant", "load_shared",
                    "load_scratch"})
_STORES = frozenset({"store_ssbo", "store_shared", "store_scratch"})
_ATOMICS = frozenset({"ssbo_atomic", "ssbo_atomic_swap", "shared_atomic",
                      "shared_atomic_swap"})


@dataclass
class IselResult:
    program: Program
    args: ArgLayout


class Selector(Subgroup16Mixin, SubgroupMixin, CfMixin, Alu16Mixin, AluMixin, Mem16Mixin,
               MemoryMixin):
    def __init__(self, shader: MirShader, target: Target, wave_size: int, name: str) -> None:
        self.shader = shader
        self.init_base(Program(target, wave_size=wave_size, name=name))
        self.init_cf()
        self.lane_masks = set()
        self.workgroup_size = shader.workgroup_size
        self.args = layout(list(shader.bindings), shader.push_constant_size)

    def run(self) -> Program:
        p = self.p
        entry = self.insert(self.new(BlockKind.TOP_LEVEL))
        self.goto(entry)
        ws = self.workgroup_size
        wid = 2 if ws[2] > 1 else 1 if ws[1] > 1 else 0
        start = self.b.startpgm((s2, PhysReg.of(0)), (s1, PhysReg.of(2)), (s1, PhysReg.of(3)),
                                (s1, PhysReg.of(4)), (v1, PhysReg.of(256)))
        start.instr.fields["workitem_id"] = wid
        self.kernarg, wx, wy, wz, self.local_ids = start.temps
        self.wg_ids = [wx, wy, wz]
        self.b.logical_start()
        self.buffer_base = {}
        for key in sorted(self.shader.bindings):
            self.buffer_base[key] = self.b.inst(
                "s_load_b64", [s2], [self.kernarg, Operand.c32(self.args.pointers[key])]).temp
        self.analyze_structure(self.shader.function.body)
        self.stmts(self.shader.function.body)
        self.logical_end(self.cur)
        self.b.sopp("s_endpgm")
        self.finish_cfg()
        p.config["lds_size"] = self.shader.shared_size
        p.config["kernarg_size"] = self.args.size
        p.config["fp_contract"] = 1  # NoContraction reaches the IR as is_precise
        if self.shader.scratch_size:
            p.config["scratch_size"] = -(-self.shader.scratch_size // 4) * 4
        return p

    def select_instr(self, ins: Instr) -> None:  # type: ignore[override]
        op = ins.op
        d = ins.dest
        if op == "load_const":
            assert d is not None
            bits = d.bit_size
            if bits not in (1, 8, 16, 32, 64):
                raise unsupported(ins, f"{bits}-bit constants are not selected yet")
            m = (1 << bits) - 1 if bits in SMALL else -1
            self.set(d, [Const(bits, int(x) & m) for x in ins.attrs["value"]])
        elif op == "undef":
            assert d is not None
            if d.bit_size not in (1, 8, 16, 32, 64):
                raise unsupported(ins)
            self.set(d, [Const(d.bit_size, 0)] * d.num_components)
        elif op in ALU_OPS and ins.attrs.get("exact"):
            # SPIR-V NoContraction: the machine definitions are precise (no fma fusion)
            blk = self.b.block
            assert blk is not None
            old = {id(x) for x in blk.instructions}
            self.select_alu(ins)
            for x in self.b.block.instructions if self.b.block is not None else ():
                if id(x) not in old:
                    for dd in x.definitions:
                        dd.is_precise = True
        elif op in ALU_OPS:
            self.select_alu(ins)
        elif op in SUBGROUP_INTRINSICS:
            self.select_subgroup(ins)
        elif op in _SYSTEM:
            self.select_system_value(ins)
        elif op in _LOADS:
            self.select_load(ins)
        elif op in _STORES:
            self.select_store(ins)
        elif op in _ATOMICS:
            self.select_atomic(ins)
        elif op == "get_ssbo_size":
            self.select_ssbo_size(ins)
        elif op == "barrier":
            self.select_barrier(ins)
        else:
            raise unsupported(ins)


def select_program(shader: MirShader, target: Target, wave_size: int = 32,
                   name: str = "main") -> IselResult:
    """Select machine IR for `shader` (divergence analysis must have run)."""
    if wave_size not in (32, 64):
        raise IselError(f"wave size {wave_size} (32 or 64)")
    sel = Selector(shader, target, wave_size, name)
    program = sel.run()
    dead_code(program)  # values isel made that nothing reads (radcc.passes.dead_code)
    return IselResult(program, sel.args)
