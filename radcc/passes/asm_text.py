"""One hardware instruction of the machine IR as LLVM AMDGPU assembly text.

Used by `emit_program`. The spelling comes from the opcode table (`OpInfo.
asm_name`, which selects the encoding: ``v_add_f32_e32`` / ``_e64``),
operands are printed in the table's operand order from the IR operands,
definitions and `Instruction.fields`:

- register slots: the IR operand/definition's `PhysReg` and register class
  (``s4``, ``s[4:5]``, ``v[2:3]``, ``vcc_lo``/``vcc``, ``exec``, ``m0``,
  ``null``); constants with `radcc.isa.operands.print_imm` for the slot's
  type; an absent or undef ``saddr`` of GLOBAL/SCRATCH prints ``off``;
- 'special' slots (the implicit ``vcc_lo`` of VOP2 carries and VOPC) print
  the IR operand's register (``vcc`` in wave64);
- other slots (``simm16`` immediates, ``waitcnt``, ``delay``, ``hwreg``,
  ``sendmsg``) print ``fields[slot name]`` as a raw integer, which llvm-mc
  accepts for all of them; ``label`` slots print the label of
  ``fields['targets'][0]``;
- VOP3/VOP3SD source modifiers ``fields['neg']``/``['abs']`` (lists per
  source) print as ``-x`` / ``|x|``; ``omod`` (1, 2, 3) as ``mul:2``,
  ``mul:4``, ``div:2``; every other field as ``key``, ``key:N`` or
  ``key:[a,b]`` (fields named in `INTERNAL_FIELDS` are compiler notes);
  DPP controls (`DPP_FIELDS`: ``quad_perm``, ``row_shr`` ... with
  ``row_mask``/``bank_mask``/``bound_ctrl``) select the ``_dpp`` spelling.
"""

from __future__ import annotations

from collections.abc import Callable

from radcc.ir.opinfo import REG_KINDS, op_info
from radcc.ir.program import Definition, Instruction, Operand
from radcc.isa.operands import print_imm, reg_name
from radcc.isa.table import OpcodeTable, OperandSpec

INTERNAL_FIELDS = frozenset({"targets", "scratch_sgpr", "wg_one_wave", "scope", "sem", "id"})
_OMOD = {1: "mul:2", 2: "mul:4", 3: "div:2"}
_SRC_MOD_FORMATS = ("VOP3", "VOP3SD", "VINTERP")
# DPP controls among the fields make the mnemonic the `_dpp` / `_e64_dpp` one
DPP_FIELDS = frozenset({"quad_perm", "row_shl", "row_shr", "row_ror", "row_mirror",
                        "row_half_mirror", "row_share", "row_xmask", "dpp8"})


class EmitError(Exception):
    """An instruction the emitter cannot print."""


def reg_text(x: Operand | Definition, spec: OperandSpec | None = None) -> str:
    assert x.phys is not None
    size = x.rc.size if x.rc is not None else (spec.dwords if spec else 1)
    return reg_name(x.phys.reg, size)


def _operand_text(o: Operand, spec: OperandSpec, fmt: str) -> str:
    if o.const is not None:
        return print_imm(o.const, spec.type or ("b64" if o.const_bytes == 8 else "b32"))
    if o.phys is None:
        if spec.name == "saddr" and fmt in ("GLOBAL", "SCRATCH", "FLAT"):
            return "off"
        raise EmitError(f"operand '{spec.name}' has no register")
    return reg_text(o, spec)


def instruction_asm(instr: Instruction, table: OpcodeTable,
                    label: Callable[[int], str]) -> str:
    """The assembly line of a hardware instruction (no label, no newline)."""
    info = op_info(table, instr.opcode, instr.format)
    if info is None:
        raise EmitError(f"'{instr.opcode}' has no {instr.format} encoding on "
                        f"{table.gfx.name}")
    if instr.format.startswith("VOPD"):
        raise EmitError("VOPD instructions are not emitted yet")
    defs = iter(instr.definitions)
    ops = iter(instr.operands)
    fields = instr.fields
    used = set(INTERNAL_FIELDS)
    neg = list(fields.get("neg", ())) if instr.format in _SRC_MOD_FORMATS else []  # type: ignore[call-overload]
    abs_ = list(fields.get("abs", ())) if instr.format in _SRC_MOD_FORMATS else []  # type: ignore[call-overload]
    if instr.format in _SRC_MOD_FORMATS:
        used |= {"neg", "abs"}
    texts: list[str] = []
    src_i = 0
    if info.extra.get("rtn_bits") and instr.definitions and fields.get("glc"):
        # a FLAT/GLOBAL atomic that returns: vdst is not a table slot
        d = next(defs)
        if d.phys is None:
            raise EmitError("definition 'vdst' has no register")
        texts.append(reg_text(d))
    for spec in info.operands:
        if spec.kind in REG_KINDS:
            if spec.is_def:
                d = next(defs, None)
                if d is None or d.phys is None:
                    raise EmitError(f"definition '{spec.name}' has no register")
                texts.append(reg_text(d, spec))
                continue
            o = next(ops, None)
            if o is None:
                if spec.name == "saddr":
                    texts.append("off")
                    continue
                raise EmitError(f"missing operand '{spec.name}'")
            t = _operand_text(o, spec, instr.format)
            if spec.name.startswith("src") and spec.kind != "special":
                if src_i < len(abs_) and abs_[src_i]:
                    t = f"|{t}|"
                if src_i < len(neg) and neg[src_i]:
                    t = f"-{t}"
                src_i += 1
            texts.append(t)
        elif spec.kind == "label":
            targets = fields.get("targets")
            if not targets:
                raise EmitError("branch without a target")
            texts.append(label(targets[0]))  # type: ignore[index]
        else:
            used.add(spec.name)
            v = fields.get(spec.name)
            if v is None:
                if info.extra.get("imm_optional") or info.extra.get("imm_zero"):
                    continue
                v = 0
            texts.append(str(int(v)))  # type: ignore[call-overload]
    mods = []
    for k, v in fields.items():
        if k in used or v is False or v is None:
            continue
        if k == "omod":
            if v:
                mods.append(_OMOD[int(v)])  # type: ignore[call-overload]
        elif v is True:
            mods.append(k)
        elif isinstance(v, list | tuple):
            mods.append(f"{k}:[{','.join(str(int(x)) for x in v)}]")
        else:
            mods.append(f"{k}:{v}")
    line = info.printed_name
    if not DPP_FIELDS.isdisjoint(fields):
        line = info.name + ("_e64_dpp" if instr.format in ("VOP3", "VOP3SD", "VOP3P") else "_dpp")
    if texts:
        line += " " + ", ".join(texts)
    if mods:
        line += " " + " ".join(mods)
    return line
