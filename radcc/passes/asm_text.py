"""One hardware instruction of the machine IR as LLVM AMDGPU assembly text.

Used by `emit_program`. The spelling comes from the opcode table (`OpInfo.
asm_name`, which selects the encoding: ``v_add_f32_e32`` / ``_e64``),
operands are printed in the table's operand order from the IR operands,
definitions and `Instruction.fields`:

- register slots: the IR operand/definition's `PhysReg` and register class
  (``s4``, ``s[4:5]``, ``v[2:3]``, ``vcc_lo``/``vcc``, ``exec``, ``m0``,
  ``null``); constants with `radcc.isa.operands.print_imm` for the slot's
  type; an absent or undef ``saddr`` of GLOBAL/SCRATCH (or ``vaddr`` of SCRATCH)
  prints ``off``;
- 'special' slots (the implicit ``vcc_lo`` of VOP2 carries and VOPC) print
  the IR operand's register (``vcc`` in wave64);
- other slots (``simm16`` immediates, ``waitcnt``, ``delay``, ``hwreg``,
  ``sendmsg``) print ``fields[slot name]`` as a raw integer, which llvm-mc
  accepts for all of them; ``label`` slots print the label of
  ``fields['targets'][0]``;
- VOP3/VOP3SD source modifiers ``fields['neg']``/``['abs']`` (lists per
  source) print as ``-x`` / ``|x|`` / ``-|x|``, a negated constant as
  ``neg(c)`` (``-c`` would be llvm-mc's negative number, without the neg bit);
  a non-inline f64 constant as its high dword (``0x40080000``), or under
  neg/abs as a float (``neg(3.0)``), the spellings llvm-mc-19 accepts; ``omod`` (1, 2, 3) as ``mul:2``,
  ``mul:4``, ``div:2``; every other field as ``key``, ``key:N`` or
  ``key:[a,b]`` (fields named in `INTERNAL_FIELDS` are compiler notes);
  DPP controls (`radcc.ir.fields.DPP_CONTROLS`: ``quad_perm``, ``row_shr`` ... with
  ``row_mask``/``bank_mask``/``bound_ctrl``) select the ``_dpp`` spelling.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Container

from radcc.ir.fields import DPP_CONTROLS
from radcc.ir.opinfo import (
    REG_KINDS,
    mimg_address_operands,
    mimg_atomic,
    mimg_atomic_returns,
    op_info,
)
from radcc.ir.program import Definition, Instruction, Operand
from radcc.ir.regclass import VGPR_BASE
from radcc.isa.formats.mem_exp import exp_target_name
from radcc.isa.formats.vop import lo128_slots
from radcc.isa.operands import Modifier, Reg, print_imm, reg_name, reg_of
from radcc.isa.operands import Operand as AsmOperand
from radcc.isa.syntax import ParsedInst
from radcc.isa.table import OpcodeTable, OperandSpec, OpInfo

INTERNAL_FIELDS = frozenset({"targets", "scratch_sgpr", "wg_one_wave", "scope", "sem", "id",
                             "constaddr"})
_F64_INV_2PI = 0x3FC45F306DC9C882  # ISA guide 4.1: 1/(2*pi) as a double
_OMOD = {1: "mul:2", 2: "mul:4", 3: "div:2"}
_SRC_MOD_FORMATS = ("VOP3", "VOP3SD", "VINTERP")


class EmitError(Exception):
    """An instruction the emitter cannot print."""


# (register code, dwords) -> its spelling and the `Reg` the parser reads from it: the
# same few hundred registers are printed for every instruction (a memo of two pure
# functions, `reg_name` and `reg_of`)
_REGS: dict[tuple[int, int], tuple[str, Reg]] = {}


def _reg(reg: int, size: int) -> tuple[str, Reg]:
    got = _REGS.get((reg, size))
    if got is None:
        got = _REGS[reg, size] = (reg_name(reg, size), reg_of(reg, size))
    return got


def reg_text(x: Operand | Definition, spec: OperandSpec | None = None) -> str:
    assert x.phys is not None
    size = x.rc.size if x.rc is not None else (spec.dwords if spec else 1)
    return _reg(x.phys.reg, size)[0]


def _reg_operand(x: Operand | Definition, spec: OperandSpec | None = None) -> AsmOperand:
    """The typed operand of a register slot (what the parser reads from `reg_text`)."""
    assert x.phys is not None
    size = x.rc.size if x.rc is not None else (spec.dwords if spec else 1)
    return AsmOperand("reg", 0, _reg(x.phys.reg, size)[1])


def _mimg_address(ops: list[Operand]) -> tuple[str, int | None]:
    """The text of a MIMG address given as several operands (NSA in the IR) and its
    dwords when it is one range: their registers in order as one range when they happen
    to be consecutive (the sequential form, as ACO's assembler chooses), else the NSA list
    ``[v1, v[4:5], ...]`` (dwords None; ISA 10.1 "NSA": the address VGPRs need not be
    contiguous)."""
    regs = []
    for o in ops:
        if o.phys is None or o.rc is None:
            raise EmitError("operand 'vaddr' has no register")
        regs.append((o.phys.reg, o.rc.size))
    if all(regs[k][0] == regs[k - 1][0] + regs[k - 1][1] for k in range(1, len(regs))):
        n = sum(n for _, n in regs)
        return reg_name(regs[0][0], n), n
    return "[" + ", ".join(reg_name(r, n) for r, n in regs) + "]", None


def _f64_literal_text(value: int, modified: bool) -> str:
    """A non-inline f64 constant: GFX11 encodes only its high dword (ISA guide 4.1:
    "the 32-bit literal is the most-significant bits, and the LSBs are zero").
    llvm-mc-19 takes that dword as hex without modifiers but rejects integer
    literals under neg/abs on an f64 operand; there it needs the value as a
    floating-point number (``neg(3.0)``)."""
    if value & 0xFFFFFFFF:
        raise EmitError(f"f64 constant 0x{value:016x} is neither inline nor a 32-bit literal "
                        "(its low dword is not zero)")
    if not modified:
        return f"0x{value >> 32:x}"
    f = struct.unpack("<d", value.to_bytes(8, "little"))[0]
    if not math.isfinite(f):
        raise EmitError(f"f64 literal 0x{value:016x} (inf/NaN) with neg/abs has no llvm-mc "
                        "spelling")
    return repr(f)


def _operand_text(o: Operand, spec: OperandSpec, fmt: str, modified: bool = False) -> str:
    if o.const is not None:
        optype = spec.type or ("b64" if o.const_bytes == 8 else "b32")
        text = print_imm(o.const, optype)
        if optype == "f64":
            value = o.const & 0xFFFFFFFFFFFFFFFF
            if value == _F64_INV_2PI:
                # inline constant 248; llvm-mc reads print_imm's "0.15915494" as a
                # double that is not 1/(2*pi) (a literal), but matches the exact bits
                return f"0x{value:x}"
            if text.startswith("0x"):
                return _f64_literal_text(value, modified)
        return text
    if o.phys is None:
        if (spec.name == "saddr" and fmt in ("GLOBAL", "SCRATCH", "FLAT")
                or spec.name == "vaddr" and fmt == "SCRATCH"
                or fmt == "EXP" and o.is_undef):
            return "off"
        raise EmitError(f"operand '{spec.name}' has no register")
    return reg_text(o, spec)


def _typed(text: str, o: Operand, spec: OperandSpec) -> AsmOperand:
    """The typed operand of `_operand_text`'s `text` for `o`: a register, ``off``, or
    a constant as the number its spelling denotes (an integer, or a float for
    llvm-mc's inline float spellings and f64 values under modifiers)."""
    if o.const is None:
        if o.phys is None:
            return AsmOperand("ident", 0, text=text, sym=text)
        return _reg_operand(o, spec)
    if text.startswith("0x"):
        return AsmOperand("int", 0, value=int(text, 16), text=text)
    if "." in text or "e" in text:
        return AsmOperand("float", 0, value=float(text), text=text)
    return AsmOperand("int", 0, value=int(text), text=text)


def _with_modifiers(text: str, o: Operand, neg: bool, abs_: bool) -> str:
    """``|x|``, ``-|x|``; a negated register ``-x``, a negated constant ``neg(x)``:
    llvm-mc reads ``-0x40400000`` / ``-2.0`` as a negative number (no neg bit) and
    rejects ``--2``."""
    if abs_:
        text = f"|{text}|"
    if neg:
        text = f"-{text}" if o.const is None or abs_ else f"neg({text})"
    return text


# How `instruction_parsed` treats a table entry's operand slot (`_plan`)
_SRC = 0  # a source slot ``src*`` that takes VOP3 neg/abs modifiers
_REG = 1  # another register (or constant) source slot
_NAMED = 2  # ``vdata_in``, ``saddr``, ``vaddr``: sources with their own rules
_DEF = 3  # a register definition slot
_LABEL = 4
_EXP_TARGET = 5
_FIELD = 6  # printed from `Instruction.fields`
_V128 = VGPR_BASE + 128


class _Plan:
    """What `instruction_parsed` reads of a table entry, derived once per entry: each
    operand slot with its treatment (`_SRC` ...) and whether it is a `lo128_slots`
    slot; whether a returning atomic's vdst precedes the slots (``rtn_bits``), the entry
    is MIMG, an image atomic, or may omit its immediate."""

    __slots__ = ("slots", "rtn_bits", "mimg", "mimg_atomic", "imm_skip")

    def __init__(self, info: OpInfo) -> None:
        lo128 = lo128_slots(info)
        slots: list[tuple[OperandSpec, int, bool]] = []
        for spec in info.operands:
            if spec.kind in REG_KINDS:
                if spec.is_def:
                    code = _DEF
                elif spec.name in ("vdata_in", "saddr", "vaddr"):
                    code = _NAMED
                elif spec.name.startswith("src") and spec.kind != "special":
                    code = _SRC
                else:
                    code = _REG
            elif spec.kind == "label":
                code = _LABEL
            elif spec.kind == "exp_target":
                code = _EXP_TARGET
            else:
                code = _FIELD
            slots.append((spec, code, spec.name in lo128))
        self.slots = tuple(slots)
        self.rtn_bits = bool(info.extra.get("rtn_bits"))
        self.mimg = info.enc == "MIMG"
        self.mimg_atomic = mimg_atomic(info)
        self.imm_skip = bool(info.extra.get("imm_optional") or info.extra.get("imm_zero"))


# `_Plan` by table entry (`OpInfo.uid`)
_PLANS: dict[int, _Plan] = {}


def instruction_asm(instr: Instruction, table: OpcodeTable,
                    label: Callable[[int], str]) -> str:
    """The assembly line of a hardware instruction (no label, no newline): the line of
    `instruction_parsed` without building its typed statement (the emitter's lines
    that the assembler has encoded before are looked up by their text)."""
    return _instruction(instr, table, label, False)[0]


def instruction_parsed(instr: Instruction, table: OpcodeTable,
                       label: Callable[[int], str]) -> tuple[str, ParsedInst | None]:
    """The assembly line of a hardware instruction and the same statement as typed
    operands and modifiers (`radcc.isa.syntax.ParsedInst`, what the assembler's
    parser makes of the line), for the assembler's encoders to encode without
    reading text (a VOPD pair: its X half with the Y half as `second`). The second is
    None for LDSDIR and EXP (their statements are encoded from the line)."""
    return _instruction(instr, table, label, True, None)


def instruction_line(instr: Instruction, table: OpcodeTable, label: Callable[[int], str],
                     known: Container[str]) -> tuple[str, ParsedInst | None]:
    """`instruction_parsed` in one walk of the instruction, the typed statement built only
    when `known` (the lines the assembler has encoded before: `encoded_lines`) lacks the
    line (else the second is None, as for LDSDIR and EXP)."""
    return _instruction(instr, table, label, True, known)


def _instruction(instr: Instruction, table: OpcodeTable, label: Callable[[int], str],
                 want: bool, known: Container[str] | None = None
                 ) -> tuple[str, ParsedInst | None]:
    """`instruction_parsed`; with `want` False the line alone (the second None, the
    typed operands of register, constant, label and field slots not built); with
    `known`, the second is None as well when `known` has the line (register slots are
    kept as their `Reg` until the line is known: the typed operands of the others are
    few)."""
    info = op_info(table, instr.opcode, instr.format)
    if info is None:
        raise EmitError(f"'{instr.opcode}' has no {instr.format} encoding on "
                        f"{table.gfx.name}")
    if instr.format.startswith("VOPD"):
        return _vopd_asm(instr, table, info, want, known)
    if instr.format == "LDSDIR":
        return _ldsdir_asm(instr), None
    plan = _PLANS.get(info.uid)
    if plan is None:
        plan = _PLANS[info.uid] = _Plan(info)
    defs = iter(instr.definitions)
    ops = iter(instr.operands)
    fields = instr.fields
    used: set[str] = set()  # fields printed as operands (besides INTERNAL_FIELDS)
    fmt = instr.format
    if fmt in _SRC_MOD_FORMATS:
        neg = list(fields.get("neg", ()))  # type: ignore[call-overload]
        abs_ = list(fields.get("abs", ()))  # type: ignore[call-overload]
        used.add("neg")
        used.add("abs")
        mods_here = bool(neg) or bool(abs_)
    else:
        neg = []
        abs_ = []
        mods_here = False
    texts: list[str] = []
    typed: list[_Typed] = []
    src_i = 0
    high_vgpr = False  # a 16-bit slot of a GFX11 short form holds v128+: print the bare name
    n_addr = mimg_address_operands(info, instr) if plan.mimg else 1
    if plan.rtn_bits and instr.definitions and fields.get("glc"):
        # a FLAT/GLOBAL atomic that returns: vdst is not a table slot
        d = next(defs)
        if d.phys is None:
            raise EmitError("definition 'vdst' has no register")
        texts.append(reg_text(d))
        typed.append(_reg_operand(d))
    regs = _REGS
    for spec, code, lo in plan.slots:
        if code == _DEF:
            if plan.mimg_atomic and not instr.definitions:
                continue  # no return: the data operand (vdata_in) is printed
            dn = next(defs, None)
            if dn is None or (phys := dn.phys) is None:
                raise EmitError(f"definition '{spec.name}' has no register")
            r = phys.reg
            rc = dn.rc
            size = rc.size if rc is not None else spec.dwords
            got = regs.get((r, size))
            if got is None:
                got = _reg(r, size)
            texts.append(got[0])
            if want:
                typed.append(got[1])
            if lo and r >= _V128:
                high_vgpr = True
            continue
        if code <= _NAMED:
            o = next(ops, None)
            if code == _NAMED:
                if spec.name == "vdata_in" and mimg_atomic_returns(info, instr):
                    continue  # the same registers as the printed vdata (tied)
                if o is None:
                    if spec.name == "saddr":
                        texts.append("off")
                        typed.append(AsmOperand("ident", 0, text="off", sym="off"))
                        continue
                    raise EmitError(f"missing operand '{spec.name}'")
                if spec.name == "vaddr" and n_addr > 1:
                    t, dwords = _mimg_address([o, *(next(ops) for _ in range(n_addr - 1))])
                    texts.append(t)
                    if dwords is None:  # the encoder reads the NSA list from the line's tokens
                        typed.append(AsmOperand("ident", 0, text=t, sym=t))
                    else:
                        assert o.phys is not None
                        typed.append(AsmOperand("reg", 0, reg_of(o.phys.reg, dwords)))
                    continue
            elif o is None:
                raise EmitError(f"missing operand '{spec.name}'")
            phys = o.phys
            if code == _SRC and mods_here:
                a = src_i < len(abs_) and bool(abs_[src_i])
                n = src_i < len(neg) and bool(neg[src_i])
                if o.const is None and phys is not None:
                    t = reg_text(o, spec)
                else:
                    t = _operand_text(o, spec, fmt, a or n)
                if want:
                    typed.append((t, o, spec, n, a))
                texts.append(_with_modifiers(t, o, n, a))
                src_i += 1
            elif o.const is None and phys is not None:
                r = phys.reg
                rc = o.rc
                size = rc.size if rc is not None else spec.dwords
                got = regs.get((r, size))
                if got is None:
                    got = _reg(r, size)
                texts.append(got[0])
                if want:
                    typed.append(got[1])
                if lo and r >= _V128:
                    high_vgpr = True
                if code == _SRC:
                    src_i += 1
                continue
            else:
                t = _operand_text(o, spec, fmt)
                if code == _SRC:
                    src_i += 1
                texts.append(t)
                if want:
                    typed.append((t, o, spec, False, False))
            if lo and phys is not None and phys.reg >= _V128:
                high_vgpr = True
        elif code == _LABEL:
            targets = fields.get("targets")
            if not targets:
                raise EmitError("branch without a target")
            name = label(targets[0])  # type: ignore[index]
            texts.append(name)
            if want:
                typed.append(AsmOperand("ident", 0, text=name, sym=name))
        elif code == _EXP_TARGET:
            used.add(spec.name)
            used.add("en")  # the sources printed as ``off`` say it
            texts.append(exp_target_name(int(fields.get("target") or 0), table.gfx))
        else:
            used.add(spec.name)
            v = fields.get(spec.name)
            if v is None:
                if plan.imm_skip:
                    continue
                v = 0
            iv = int(v)  # type: ignore[call-overload]
            texts.append(str(iv))
            if want:
                typed.append(iv)
    mods = []
    typed_mods: list[tuple[str, object]] = []  # (name, value) of each `Modifier`
    for k, v in fields.items():
        if v is False or v is None or k in INTERNAL_FIELDS or k in used:
            continue
        if k == "omod":
            if v:
                m = _OMOD[int(v)]  # type: ignore[call-overload]
                mods.append(m)
                if want:
                    typed_mods.append((m[:3], int(m[4:])))
        elif v is True:
            mods.append(k)
            if want:
                typed_mods.append((k, None))
        elif isinstance(v, list | tuple):
            vals = [int(x) for x in v]
            mods.append(f"{k}:[{','.join(str(x) for x in vals)}]")
            if want:
                typed_mods.append((k, vals))
        else:
            mods.append(f"{k}:{v}")
            if want:
                typed_mods.append((k, v))
    line = info.printed_name
    if not DPP_CONTROLS.isdisjoint(fields):
        line = info.name + ("_e64_dpp" if instr.format in ("VOP3", "VOP3SD", "VOP3P") else "_dpp")
    if high_vgpr:
        # GFX11 true16 short forms read bit 7 of a 16-bit VGPR field as the high half
        # (ISA "16-bit VGPR naming"): v128+ needs the VOP3 form, which the assembler picks
        # for the bare mnemonic as llvm-mc does (ACO's assembler converts such to VOP3 too)
        line = info.name
    mnemonic = line
    if instr.format == "EXP" and texts:  # ``exp pos0 v1, v2, v3, v4``: no comma after the target
        line += " " + texts[0] + " " + ", ".join(texts[1:])
    elif texts:
        line += " " + ", ".join(texts)
    if mods:
        line += " " + " ".join(mods)
    if instr.format == "EXP" or not want or known is not None and line in known:
        return line, None
    # columns: distinct and increasing, as a parse of the line gives (they only place
    # diagnostics, and the line is valid)
    col = len(mnemonic) + 2
    operands = _operands(typed, col)
    col += 4 * len(operands)
    modifiers: list[Modifier] = []
    for name, value in typed_mods:
        modifiers.append(Modifier(name, col, value))
        col += 4
    parsed = ParsedInst(mnemonic, 1, operands, modifiers, tokens=None)
    parsed._tokens = None
    parsed._line = line  # the tokens of a format with its own syntax, made on demand
    parsed._negflags = False  # no "no<flag>" modifier is ever printed
    return line, parsed


# An operand slot as `_instruction` keeps it until it knows whether the typed statement
# is wanted (`_operands` makes the `AsmOperand`): a register slot's `Reg`, a field
# slot's integer, a source's (text without modifiers, operand, slot, neg, abs), or the
# operand itself (the rarer slots)
_Typed = Reg | int | tuple[str, Operand, OperandSpec, bool, bool] | AsmOperand


def _operands(typed: list[_Typed], col: int) -> list[AsmOperand]:
    """The typed operands of `typed`, at columns `col`, `col + 4`, ... (distinct and
    increasing, as a parse of the line gives: they only place diagnostics)."""
    out: list[AsmOperand] = []
    for x in typed:
        if isinstance(x, Reg):
            op = AsmOperand("reg", col, x)
        elif isinstance(x, int):
            op = AsmOperand("int", col, value=x, text=str(x))
        elif isinstance(x, tuple):
            t, o, spec, n, a = x
            op = _reg_operand(o, spec) if o.const is None and o.phys is not None \
                else _typed(t, o, spec)
            op.col = col
            if a:
                op.abs = True
            if n:
                op.neg = True
                op.neg_fn = o.const is not None and not a
        else:
            op = x
            op.col = col
        out.append(op)
        col += 4
    return out


def _vopd_asm(instr: Instruction, table: OpcodeTable, xinfo: OpInfo, want: bool,
              known: Container[str] | None) -> tuple[str, ParsedInst | None]:
    """``v_dual_X dst, src0, vsrc1 :: v_dual_Y ...`` (operand layout of docs/ir.md
    "Formats": X's operands then Y's, each half's fmac/dot2acc accumulator after
    its slots, a trailing implicit vcc; the shared K literal in ``simm32``) and, with
    `want` (and `known` lacking the line), the statement as typed operands: the X half
    with the Y half as its `second`, as the parser reads the line (else None)."""
    yinfo = op_info(table, str(instr.fields.get("opy")), "VOPDY")
    if yinfo is None:
        raise EmitError("VOPD without a VOPDY opcode in field 'opy'")
    defs = iter(instr.definitions)
    ops = iter(instr.operands)
    halves: list[str] = []
    halves_typed: list[list[_Typed]] = []
    for info in (xinfo, yinfo):
        texts: list[str] = []
        typed: list[_Typed] = []
        for spec in info.operands:
            if spec.kind == "imm":
                k = instr.fields.get("simm32")
                if k is None:
                    raise EmitError("VOPD fmaak/fmamk without field 'simm32'")
                kv = int(k) & 0xFFFFFFFF  # type: ignore[call-overload]
                t = f"0x{kv:x}"
                texts.append(t)
                if want:
                    typed.append(AsmOperand("int", 0, value=kv, text=t))
                continue
            if spec.is_def:
                d = next(defs, None)
                if d is None or (phys := d.phys) is None:
                    raise EmitError(f"VOPD definition '{spec.name}' has no register")
                rc = d.rc
            else:
                o = next(ops, None)
                if o is None:
                    raise EmitError(f"VOPD operand '{spec.name}' missing")
                if o.const is not None or (phys := o.phys) is None:
                    t = _operand_text(o, spec, instr.format)
                    texts.append(t)
                    if want:
                        typed.append((t, o, spec, False, False))
                    continue
                rc = o.rc
            t, reg = _reg(phys.reg, rc.size if rc is not None else spec.dwords)
            texts.append(t)
            if want:
                typed.append(reg)
        if info.extra.get("acc"):
            next(ops, None)
        halves.append(f"{info.name} {', '.join(texts)}")
        halves_typed.append(typed)
    line = " :: ".join(halves)
    if not want or known is not None and line in known:
        return line, None
    parsed: list[ParsedInst] = []
    col = 1
    for info, half, typed in zip((xinfo, yinfo), halves, halves_typed, strict=True):
        inst = ParsedInst(info.name, col, _operands(typed, col + len(info.name) + 1), [],
                          tokens=None)
        col += len(info.name) + 1 + 4 * len(typed) + 4
        inst._tokens = None
        inst._line = half
        inst._negflags = False
        parsed.append(inst)
    parsed[0].second = parsed[1]
    return line, parsed[0]


def _ldsdir_asm(instr: Instruction) -> str:
    """``lds_param_load vN, attrA.c wait_vdst:W`` / ``lds_direct_load vN wait_vdst:W``
    (ISA guide 15.5.1); M0 is an implicit operand."""
    d = instr.definitions[0]
    if d.phys is None or d.rc is None:
        raise EmitError("definition 'vdst' has no register")
    f = instr.fields
    text = f"{instr.opcode} {reg_text(d)}"
    if instr.opcode == "lds_param_load":
        chan = "xyzw"[int(f.get("attr_chan") or 0)]  # type: ignore[call-overload]
        text += f", attr{int(f.get('attr') or 0)}.{chan}"  # type: ignore[call-overload]
    return text + f" wait_vdst:{int(f.get('wait_vdst') or 0)}"  # type: ignore[call-overload]
