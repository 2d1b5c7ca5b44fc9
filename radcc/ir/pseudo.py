"""Pseudo instructions of the machine IR (ACO's p_* opcodes), as data.

They exist until `lower_to_hw` turns them into hardware instructions (or,
for p_logical_start/end and p_unit_test, into nothing). Each entry says what
the pseudo instruction means and how its operands/definitions are shaped;
"*" counts mean "any number".
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PseudoInfo:
    name: str
    doc: str
    num_defs: int | str = "*"
    num_ops: int | str = "*"
    is_branch: bool = False
    writes_exec: bool = False
    linear: bool = False  # follows the linear CFG (SGPR-like) semantics
    # no effect besides its definitions: dead once they are unread (dead_code)
    pure: bool = False
    # its definitions are a function of its operands alone: an equal earlier one
    # can replace it (value numbering, the schedulers' reorderable data pseudos)
    value: bool = False


_ENTRIES = [
    PseudoInfo("p_startpgm", "defines the shader's input registers (all fixed)", "*", 0),
    PseudoInfo("p_parallelcopy", "copies operand i to definition i, all at once", "*", "*",
               pure=True, value=True),
    PseudoInfo("p_phi", "logical phi: one operand per logical predecessor", 1, "*", pure=True),
    PseudoInfo("p_linear_phi", "linear phi: one operand per linear predecessor", 1, "*",
               linear=True, pure=True),
    PseudoInfo("p_create_vector", "concatenates operands into one register tuple", 1, "*",
               pure=True, value=True),
    PseudoInfo("p_split_vector", "splits a register tuple into its definitions", "*", 1,
               pure=True, value=True),
    PseudoInfo("p_extract_vector", "element op1 (constant index) of vector op0", 1, 2,
               pure=True, value=True),
    PseudoInfo("p_extract", "bit field: op0 value, op1 index, op2 bits, op3 sign-extend", 1, 4,
               pure=True, value=True),
    PseudoInfo("p_insert", "op0 with field op1 (index) of op2 bits replaced by ... ", 1, 3,
               pure=True, value=True),
    PseudoInfo("p_logical_start", "start of the block's logical (VGPR) part", 0, 0),
    PseudoInfo("p_logical_end", "end of the block's logical (VGPR) part", 0, 0),
    PseudoInfo("p_branch", "unconditional branch to fields['targets'][0]", "*", 0,
               is_branch=True),
    PseudoInfo("p_cbranch_z", "branch if op0 (lane mask or scc) is zero", "*", 1,
               is_branch=True),
    PseudoInfo("p_cbranch_nz", "branch if op0 (lane mask or scc) is non-zero", "*", 1,
               is_branch=True),
    PseudoInfo("p_discard_if", "discard the lanes where op0 is set", "*", "*"),
    PseudoInfo("p_exit_early_if", "end the wave early if op0 (scc) is set", 0, "*"),
    PseudoInfo("p_exit_early_if_not", "end the wave early if op0 (scc) is clear: "
               "insert_exec_mask's exit after a discard left no lane", 0, 1),
    PseudoInfo("p_demote_to_helper", "demote the lanes where op0 is set (constant -1: all) "
               "to helper lanes; without whole-quad mode (compute) the same as "
               "p_discard_if", 0, 1),
    PseudoInfo("p_spill", "spill op0 to slot op1 (constant; an SGPR: lane op1 of the linear "
               "VGPR op2, a VGPR: scratch byte offset op1, from the SGPR op2 if present)",
               0, "*"),
    PseudoInfo("p_reload", "reload slot op0 (constant; an SGPR: lane op0 of the linear VGPR "
               "op1, a VGPR: scratch byte offset op0, from the SGPR op1 if present)", 1, "*"),
    PseudoInfo("p_constaddr", "the 64-bit address of byte op0 of the program's constant "
               "data (ACO's p_constaddr; defs: s2, scc): s_getpc_b64 + s_add_u32/s_addc_u32 "
               "of the distance emit_program lays out", 2, 1, pure=True),
    PseudoInfo("p_start_linear_vgpr", "creates a linear VGPR from the operands", 1, "*"),
    PseudoInfo("p_end_linear_vgpr", "ends a linear VGPR's live range", 0, 1),
    PseudoInfo("p_unit_test", "marker for tests: fields['id']", "*", "*"),
    PseudoInfo("p_barrier", "memory/execution barrier: fields['scope'], fields['sem']", 0, 0),
    PseudoInfo("p_reduce", "wave reduction: fields['op'], fields['cluster_size']", "*", "*",
               pure=True),
    PseudoInfo("p_inclusive_scan", "inclusive scan: fields['op']", "*", "*", pure=True),
    PseudoInfo("p_exclusive_scan", "exclusive scan: fields['op']", "*", "*", pure=True),
    PseudoInfo("p_is_helper", "the lane mask of the helper lanes (in EXEC, not in the exact "
               "mask; insert_exec_mask)", 1, 0),
    PseudoInfo("p_wqm", "marks a value that needs whole-quad mode", 1, 1, pure=True, value=True),
    PseudoInfo("p_as_uniform", "moves a uniform VGPR value to an SGPR", 1, 1,
               pure=True, value=True),
    PseudoInfo("p_bpermute", "ds_bpermute emulation for wave64 on GFX10+", "*", "*", pure=True),
    PseudoInfo("p_init_scratch", "sets up the scratch base", "*", "*"),
    PseudoInfo("p_end_with_regs", "ends the shader, leaving operands in their registers", 0,
               "*"),
]

PSEUDO: dict[str, PseudoInfo] = {e.name: e for e in _ENTRIES}
PURE_PSEUDO = frozenset(e.name for e in _ENTRIES if e.pure)
VALUE_PSEUDO = frozenset(e.name for e in _ENTRIES if e.value)


def is_pseudo(opcode: str) -> bool:
    return opcode in PSEUDO
