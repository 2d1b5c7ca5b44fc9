"""Structure-aware mutation operators for the readers other than SPIR-V.

`fuzzlib.mutants` draws one of these for half of a reader's mutants (the other half
stay byte- and token-level); each takes the seed's bytes and a `random.Random` and
returns ``(label, bytes)``, the label naming the operator and where it applied:

- `ir_mutant` (``radcc llc`` machine-IR text): instruction lines swapped, moved into
  another block or duplicated; blocks deleted, duplicated (a label twice) or moved;
  terminators deleted or duplicated; junk tokens after an instruction; an operand
  replaced by another kind (temporary, constant, block, fixed register, huge
  literal); an opcode replaced by an unknown one, a pseudo or another of the file's;
  a definition's register class changed; the header's chip, wave size and stage;
  everything after the header dropped; very long operand lists.
- `asm_mutant` (``radcc mc`` assembly, ``--filetype=obj`` too): operand modifiers
  (neg/abs/sext, clamp, omod, op_sel, DPP and memory modifiers, encoding suffixes);
  huge, negative and malformed immediates; ``.amdhsa_*`` fields changed, duplicated,
  removed, unknown or out of range; other directives inserted (data, alignment,
  sections, symbols, conditionals, macros); operands nested thousands deep; labels
  duplicated or undefined; ``.amdgpu_metadata`` YAML values, keys and nesting.
- `dis_mutant` (``radcc mc --disassemble``): instruction words of every encoding
  format (a random first byte, or a seed instruction's format bits with the rest
  random), DPP/DPP8/SDWA/literal source fields, lengths cut or extended, the byte
  list's syntax.
- `elf_mutant` (code objects run by ``radcc run``): fields of the ELF header, of
  section and program headers and of symbol-table entries; note headers; values of
  the msgpack metadata (another type, huge, negative, a deep nesting); kernel
  descriptor fields; string-table bytes.
- `glsl_mutant` (GLSL through glslangValidator): ``#version``/``#include``/
  ``#pragma``/``#line``/``#extension``/``#define`` lines; UTF-16 (with and without
  a BOM), UTF-32, a UTF-8 BOM, Latin-1 and NUL bytes, CR/CRLF line ends; huge
  sources (thousands of statements, long identifiers, deep nesting).
- `npy_mutant` (``.npy`` files of ``radcc run``): the header dictionary's dtype,
  shape and order, the header length and format version, data cut or extended.

Labels are short and stable, so a campaign's finding names its operator.
"""

from __future__ import annotations

import random
import re
import struct
from collections.abc import Callable

# ------------------------------------------------------------------ shared values

HUGE_NUMBERS = ("0", "-1", "1", "4294967295", "4294967296", "-4294967297", "0x7fffffff",
                "0x80000000", "-0x80000000", "0xffffffff", "0x100000000", "0xffffffffffffffff",
                "0x10000000000000000", "99999999999999999999", "-99999999999999999999",
                "1e40", "-1e40", "1.0e-45", "nan", "inf", "-0.0", "0.5", "0b1010", "0x", "1e",
                "0o17", "017", "08", "1_000", "'a'", "1/0", "1%0", "(1<<64)", "-(-(-1))")


def _choice(rng: random.Random, seq: list | tuple):  # type: ignore[no-untyped-def]
    return seq[rng.randrange(len(seq))]


def _nest(rng: random.Random, atom: str = "1") -> tuple[str, str]:
    depth = _choice(rng, (10, 200, 1000, 5000, 100_000))
    form = rng.randrange(4)
    if form == 0:
        return f"paren{depth}", "(" * depth + atom + ")" * depth
    if form == 1:
        return f"neg{depth}", "-" * depth + atom
    if form == 2:
        return f"not{depth}", "~" * depth + atom
    return f"sum{depth}", "1+" * depth + atom


# ------------------------------------------------------------------ machine IR

IR_JUNK = ("clamp", "BB99", "%10", "0", ",", "s[0:1]", "v1:", "=", "glc", "offset:4", "junk",
           "%1:v[0]", "BB0,", "/*", "*/", "//x", "-", "1.5", "%", ":", "p_branch", "\"x\"")
IR_OPERANDS = ("%1", "%99999", "%0", "%-1", "0", "-1", "64", "1.0", "0x100000000",
               "99999999999999999999", "BB0", "BB99", "BB-1", "s[0:1]", "%3:v[0]", "%2:s[2]",
               "%9:v[255]", "%9:s[105]", "%9:v[0:300]", "%9:vcc", "%9:exec", "%9:m0",
               "%9:scc", "%9:s[3:1]", "v[0]", "exec", "vcc", "scc", "undef", "%1:s[0-1]", "",
               "lit(1)", "-%1", "|%1|")
IR_CLASSES = ("s1", "s2", "s3", "s4", "s8", "s16", "s0", "s99", "v1", "v2", "v3", "v4", "v8",
              "v0", "v99", "v1b", "v2b", "v3b", "v6b", "lv1", "lv2", "v1h", "x1", "s1b")
IR_OPCODES = ("v_bogus_b32", "s_bogus", "p_bogus", "p_phi", "p_linear_phi", "p_parallelcopy",
              "p_split_vector", "p_create_vector", "p_startpgm", "p_logical_start",
              "p_logical_end", "p_branch", "p_cbranch_z", "p_cbranch_nz", "s_endpgm",
              "p_unit_test", "p_extract_vector", "p_as_uniform", "p_wqm", "p_demote_to_helper",
              "v_mov_b32", "s_mov_b32", "v_add_f32", "s_add_u32", "global_load_b32",
              "ds_read_b32", "buffer_load_dword", "s_load_dword", "v_dual_mul_f32",
              "v_wmma_f32_16x16x16_f16", "s_waitcnt", "s_delay_alu", "v_cmp_eq_u32",
              "v_cndmask_b32", "s_cbranch_scc0", "image_sample", "exp", "v_readlane_b32")
IR_HEADER = ("program gfx1030 wave32 compute name:x", "program gfx1010 wave64 compute",
             "program gfx9999 wave32 compute", "program gfx1100 wave16 compute",
             "program gfx1100 wave64 fragment", "program gfx1100 wave32 vertex",
             "program gfx1100 wave32 bogus", "program", "program gfx1100 wave32 compute name:",
             "program gfx1100 wave32 compute name:a b", "")

_BLOCK = re.compile(r"^BB\d+\s*$")
_INSTR = re.compile(r"^\s+\S")
_TERMINATORS = ("p_branch", "p_cbranch", "s_endpgm", "s_branch", "s_cbranch", "p_return",
                "s_setpc", "p_jump")


def _ir_blocks(lines: list[str]) -> list[tuple[int, int]]:
    """(first, end) line ranges of each block: its BB line to the next block's."""
    starts = [i for i, ln in enumerate(lines) if _BLOCK.match(ln)]
    return [(s, starts[k + 1] if k + 1 < len(starts) else len(lines))
            for k, s in enumerate(starts)]


def _ir_instrs(lines: list[str]) -> list[int]:
    return [i for i, ln in enumerate(lines) if _INSTR.match(ln) and not ln.strip().startswith("/*")]


def _is_terminator(line: str) -> bool:
    return any(tok in _TERMINATORS or tok.startswith(_TERMINATORS) for tok in line.split()[:1])


def ir_mutant(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One structure-aware edit of a machine-IR program (see the module docstring)."""
    text = data.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    blocks = _ir_blocks(lines)
    ins = _ir_instrs(lines)
    k = rng.randrange(16)
    label = ""
    if k == 0 and len(ins) > 1:  # two instructions swapped (anywhere)
        i, j = rng.sample(ins, 2)
        lines[i], lines[j] = lines[j], lines[i]
        label = f"swap{i},{j}"
    elif k == 1 and ins and len(blocks) > 1:  # an instruction moved into another block
        i = _choice(rng, ins)
        ln = lines.pop(i)
        blocks = _ir_blocks(lines)
        s, e = _choice(rng, blocks)
        p = _choice(rng, (s + 1, e, rng.randrange(s + 1, e + 1)))
        lines.insert(p, ln)
        label = f"move{i}->{p}"
    elif k == 2 and ins:  # an instruction duplicated
        i = _choice(rng, ins)
        p = _choice(rng, (i, i + 1, rng.randrange(len(lines) + 1)))
        lines.insert(p, lines[i])
        label = f"dup{i}->{p}"
    elif k == 3 and blocks:  # a block deleted, duplicated or moved
        b = rng.randrange(len(blocks))
        s, e = blocks[b]
        chunk = lines[s:e]
        how = rng.randrange(3)
        if how == 0:
            del lines[s:e]
        elif how == 1:
            p = _choice(rng, [x for x, _ in blocks] + [len(lines)])
            lines[p:p] = chunk
        else:
            del lines[s:e]
            rest = _ir_blocks(lines)
            p = _choice(rng, [x for x, _ in rest] + [len(lines)])
            lines[p:p] = chunk
        label = f"block{('del', 'dup', 'move')[how]}{b}"
    elif k == 4 and blocks:  # a block's terminator deleted or duplicated
        s, e = _choice(rng, blocks)
        body = [i for i in range(s + 1, e) if i in set(ins)]
        if body:
            t = body[-1]
            if rng.random() < 0.5:
                del lines[t]
                label = f"term-del{t}"
            else:
                lines.insert(_choice(rng, (t, t + 1, body[0])), lines[t])
                label = f"term-dup{t}"
    elif k in (5, 6) and ins:  # junk after an instruction
        i = _choice(rng, ins)
        junk = " ".join(_choice(rng, IR_JUNK) for _ in range(rng.randrange(1, 3)))
        lines[i] = lines[i].rstrip() + _choice(rng, (" ", ", ", "")) + junk
        label = f"junk{i}"
    elif k in (7, 8) and ins:  # an operand replaced by another kind
        i = _choice(rng, ins)
        head, eq, tail = lines[i].rpartition(" = ")
        ops = tail.split()
        if len(ops) > 1:
            p = rng.randrange(1, len(ops))
            comma = "," if ops[p].endswith(",") else ""
            ops[p] = _choice(rng, IR_OPERANDS) + comma
            lines[i] = head + eq + " ".join(ops)
            if not eq:
                lines[i] = "   " + lines[i].lstrip()
            label = f"operand{i}.{p}"
    elif k == 9 and ins:  # an opcode replaced
        i = _choice(rng, ins)
        head, eq, tail = lines[i].rpartition(" = ")
        ops = tail.split(maxsplit=1)
        if ops:
            other = [lines[x].rpartition(" = ")[2].split()[0] for x in ins
                     if lines[x].rpartition(" = ")[2].split()]
            ops[0] = _choice(rng, IR_OPCODES) if rng.random() < 0.7 else _choice(rng, other)
            lines[i] = (head + eq if eq else "   ") + " ".join(ops)
            label = f"opcode{i}={ops[0]}"
    elif k == 10 and ins:  # a definition's register class changed
        defs = [i for i in ins if re.search(r"\b[svl]\w*:\s*%", lines[i])]
        if defs:
            i = _choice(rng, defs)
            lines[i] = re.sub(r"\b[svl]\w*(?=:\s*%)", lambda _m: _choice(rng, IR_CLASSES),
                              lines[i], count=1)
            label = f"regclass{i}"
    elif k == 11:  # the header changed
        h = next((i for i, ln in enumerate(lines) if ln.startswith("program")), None)
        if h is not None:
            lines[h] = _choice(rng, IR_HEADER)
            label = "header"
    elif k == 12:  # nothing after the header, or the header alone and one block label
        h = next((i for i, ln in enumerate(lines) if ln.startswith("program")), 0)
        lines = lines[:h + 1] + (["BB0"] if rng.random() < 0.5 else [])
        label = "no-blocks"
    elif k == 13 and ins:  # a very long operand list
        i = _choice(rng, ins)
        n = _choice(rng, (100, 1000, 20_000))
        lines[i] = lines[i].rstrip() + ", " + ", ".join(["%1"] * n)
        label = f"long{n}@{i}"
    elif k == 14 and blocks:  # a block label renamed (references left dangling or doubled)
        s, _ = _choice(rng, blocks)
        lines[s] = _choice(rng, ("BB0", "BB99", "BB-1", "BB", "BB1 BB2", "bb1", "BB00"))
        label = f"label{s}"
    elif k == 15 and blocks:  # a comment or edge list damaged
        s, _ = _choice(rng, blocks)
        lines.insert(s + 1, _choice(rng, ("/* unterminated", "*/", "/* a */ /* b",
                                          "/* logical preds: BB99, / linear preds: BB-1, */",
                                          "// x", "   /* kind: bogus, */")))
        label = f"comment{s}"
    if not label:
        i = rng.randrange(len(lines))
        del lines[i]
        label = f"line-del{i}"
    return label, "\n".join(lines).encode("utf-8", "surrogateescape")


# ------------------------------------------------------------------ assembly

ASM_OPERAND_MODS = ("-{}", "|{}|", "-|{}|", "abs({})", "neg({})", "sext({})", "--{}",
                    "|-{}|", "||{}||", "lit({})", "lit64({})", "{}.h", "{}.l")
ASM_INSTR_MODS = ("clamp", "mul:2", "mul:4", "div:2", "mul:3", "op_sel:[1,0]",
                  "op_sel:[1,1,1,1]", "op_sel:[0,0,0,0,0]", "op_sel_hi:[0,0]",
                  "neg_lo:[1,0,1]", "neg_hi:[1]", "row_shr:1", "row_shr:16",
                  "quad_perm:[0,1,2,3]", "quad_perm:[4,0,0,0]", "row_mask:0xf",
                  "bank_mask:0x10", "bound_ctrl:1", "bound_ctrl:0", "fi:1",
                  "dpp8:[0,1,2,3,4,5,6,7]", "dpp8:[8]", "glc", "slc", "dlc", "glc glc",
                  "offset:0xfffff", "offset:-4097", "offset:-1", "offset:4096",
                  "offset:0x100000000", "offen", "idxen", "offen idxen", "lds", "tfe", "nv",
                  "format:[BUF_FMT_32_FLOAT]", "format:99", "dmask:0xf", "dmask:0x10",
                  "dim:SQ_RSRC_IMG_2D", "unorm", "a16", "d16", "row_xmask:1", "sdwa",
                  "dst_sel:BYTE_0", "wait_exp:7", "wait_vdst:16", "high", "compr", "done",
                  "vm", "sc0 sc1 nt", "offset0:256", "offset1:-1", "gds", "th:TH_LOAD_NT",
                  "scope:SCOPE_SYS", "byte_sel:1")
ASM_SUFFIXES = ("_e32", "_e64", "_dpp", "_sdwa", "_e64_dpp", "_e32_e64", "_x2", "_b")
AMDHSA_FIELDS = (
    ".amdhsa_next_free_vgpr", ".amdhsa_next_free_sgpr", ".amdhsa_user_sgpr_count",
    ".amdhsa_user_sgpr_kernarg_segment_ptr", ".amdhsa_user_sgpr_dispatch_ptr",
    ".amdhsa_user_sgpr_queue_ptr", ".amdhsa_user_sgpr_dispatch_id",
    ".amdhsa_user_sgpr_private_segment_size", ".amdhsa_wavefront_size32",
    ".amdhsa_group_segment_fixed_size", ".amdhsa_private_segment_fixed_size",
    ".amdhsa_kernarg_size", ".amdhsa_uses_dynamic_stack", ".amdhsa_enable_private_segment",
    ".amdhsa_system_sgpr_workgroup_id_x", ".amdhsa_system_sgpr_workgroup_id_y",
    ".amdhsa_system_sgpr_workgroup_id_z", ".amdhsa_system_sgpr_workgroup_info",
    ".amdhsa_system_vgpr_workitem_id", ".amdhsa_reserve_vcc", ".amdhsa_reserve_xnack_mask",
    ".amdhsa_float_round_mode_32", ".amdhsa_float_round_mode_16_64",
    ".amdhsa_float_denorm_mode_32", ".amdhsa_float_denorm_mode_16_64", ".amdhsa_dx10_clamp",
    ".amdhsa_ieee_mode", ".amdhsa_fp16_overflow", ".amdhsa_workgroup_processor_mode",
    ".amdhsa_memory_ordered", ".amdhsa_forward_progress", ".amdhsa_shared_vgpr_count",
    ".amdhsa_inst_pref_size", ".amdhsa_accum_offset", ".amdhsa_tg_split",
    ".amdhsa_exception_fp_ieee_invalid_op", ".amdhsa_exception_int_div_zero",
    ".amdhsa_round_robin_scheduling", ".amdhsa_user_sgpr_kernarg_preload_length",
    ".amdhsa_bogus", ".amdhsa_", ".amdhsa_next_free_vgpr_x")
AMDHSA_VALUES = ("0", "1", "2", "3", "7", "8", "15", "16", "31", "32", "63", "64", "65", "105",
                 "106", "107", "255", "256", "257", "1024", "65535", "65536", "0xffffffff",
                 "0x100000000", "-1", "-0x80000000", "1+1", "x", "", "1.5", "(2", ".Lend-k",
                 "k", "99999999999999999999")
ASM_DIRECTIVES = (
    ".byte 1, 2, 300", ".byte -129", ".short 65536", ".long 0x100000000", ".quad -1",
    ".quad 0x10000000000000000", ".p2align 40", ".p2align -1", ".p2align 3, 0x1ff",
    ".align 3", ".balign 3", ".fill 3, 4, 0x12", ".fill -1, 4, 0", ".fill 100000, 8, 1",
    ".space 100000", ".space -1", ".zero 16", ".set x, 1", ".set x, x+1", ".set k, 5",
    ".equ y, 2", ".globl", ".globl k", ".type k,@object", ".type k,@bogus", ".size k, 99",
    ".size nosuch, 4", ".section .foo", ".section", ".text", ".data", ".bss", ".rodata",
    ".ascii \"x\"", ".asciz \"unterminated", ".string \"\\x\"", ".amdgcn_target \"x\"",
    ".amdgcn_target \"amdgcn-amd-amdhsa--gfx1100\"", ".amdhsa_code_object_version 4",
    ".amdhsa_code_object_version 99", ".if 1", ".endif", ".else", ".macro m", ".endm",
    ".rept 3", ".endr", ".include \"nosuch.s\"", ".err", ".warning \"w\"", ".amdhsa_kernel k",
    ".end_amdhsa_kernel", ".amdgpu_metadata", ".end_amdgpu_metadata", ".amdgpu_hsa_kernel k",
    ".amd_kernel_code_t", ".end_amd_kernel_code_t", ".weak k", ".local k", ".comm c, 4",
    ".bogus", ".", ".p2alignl 6, 0xbf800000", ".amdgpu_lds x, 4, 4", ".reloc 0, R_X, k")
YAML_VALUES = ("0", "-1", "4294967296", "0x10", "1e40", "~", "null", "true", "yes", "''",
               "'x", "\"x", "[]", "{}", "[1, [2, [3]]]", "{a: 1}", "&a 1", "*a", "!!binary AA==",
               "!!str 1", "|", ">", "- x", "a: b: c", "'\\xff'", "9" * 40, "- [", "global",
               "by_value", "private", "k", "k.kd")


def _asm_instr_lines(lines: list[str]) -> list[int]:
    return [i for i, ln in enumerate(lines) if re.match(r"^\s+[a-z]\w*(\s|$)", ln)
            and not ln.strip().startswith(".")]


def asm_mutant(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One structure-aware edit of an assembly file (see the module docstring)."""
    text = data.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    ins = _asm_instr_lines(lines)
    fields = [i for i, ln in enumerate(lines) if ln.strip().startswith(".amdhsa_")
              and not ln.strip().startswith(".amdhsa_kernel")]
    meta = [i for i, ln in enumerate(lines) if re.match(r"^\s*-?\s*[.\w]+:\s*\S", ln)]
    k = rng.randrange(14)
    label = ""
    if k in (0, 1) and ins:  # an operand modifier
        i = _choice(rng, ins)
        mnem, _, ops = lines[i].strip().partition(" ")
        parts = [p.strip() for p in ops.split(",")] if ops else []
        if parts and rng.random() < 0.6:
            p = rng.randrange(len(parts))
            parts[p] = _choice(rng, ASM_OPERAND_MODS).format(parts[p].split()[0]
                                                             if parts[p] else "v1")
        lines[i] = "\t" + mnem + " " + ", ".join(parts)
        label = f"opmod{i}"
    elif k == 2 and ins:  # an instruction modifier (or two)
        i = _choice(rng, ins)
        lines[i] += " " + " ".join(_choice(rng, ASM_INSTR_MODS)
                                   for _ in range(rng.randrange(1, 3)))
        label = f"instmod{i}"
    elif k == 3 and ins:  # an encoding suffix on the mnemonic
        i = _choice(rng, ins)
        mnem, sp, rest = lines[i].strip().partition(" ")
        mnem = re.sub(r"_(e32|e64|dpp|sdwa)$", "", mnem) + _choice(rng, ASM_SUFFIXES)
        lines[i] = "\t" + mnem + sp + rest
        label = f"suffix{i}"
    elif k in (4, 5):  # a number replaced by a huge, negative or malformed one
        nums = [(i, m) for i in range(len(lines))
                for m in re.finditer(r"(?<![\w.])-?(0x[0-9a-fA-F]+|\d+(\.\d+)?)", lines[i])]
        if nums:
            i, m = _choice(rng, nums)
            lines[i] = lines[i][:m.start()] + _choice(rng, HUGE_NUMBERS) + lines[i][m.end():]
            label = f"imm{i}"
    elif k == 6 and fields:  # an .amdhsa_* field's value changed
        i = _choice(rng, fields)
        name = lines[i].split()[0]
        lines[i] = f"\t\t{name} {_choice(rng, AMDHSA_VALUES)}"
        label = f"amdhsa-value{i}"
    elif k == 7 and fields:  # an .amdhsa_* field duplicated, removed or added
        i = _choice(rng, fields)
        how = rng.randrange(3)
        if how == 0:
            lines.insert(i, lines[i])
        elif how == 1:
            del lines[i]
        else:
            lines.insert(i, f"\t\t{_choice(rng, AMDHSA_FIELDS)} {_choice(rng, AMDHSA_VALUES)}")
        label = f"amdhsa-{('dup', 'del', 'add')[how]}{i}"
    elif k in (8, 9):  # another directive inserted
        p = rng.randrange(len(lines) + 1)
        lines.insert(p, "\t" + _choice(rng, ASM_DIRECTIVES))
        label = f"directive@{p}"
    elif k == 10 and ins:  # an operand nested deep
        i = _choice(rng, ins)
        how, expr = _nest(rng)
        mnem, _, ops = lines[i].strip().partition(" ")
        parts = [p.strip() for p in ops.split(",")] if ops else []
        if parts:
            parts[rng.randrange(len(parts))] = expr
            lines[i] = "\t" + mnem + " " + ", ".join(parts)
        else:
            lines[i] = "\t" + mnem + " " + expr
        label = f"nest-{how}@{i}"
    elif k == 11:  # labels duplicated, removed or a branch retargeted
        labs = [i for i, ln in enumerate(lines) if re.match(r"^[.\w]+:\s*$", ln)]
        if labs:
            i = _choice(rng, labs)
            how = rng.randrange(3)
            if how == 0:
                lines.insert(rng.randrange(len(lines) + 1), lines[i])
            elif how == 1:
                del lines[i]
            else:
                lines.insert(i, "\ts_branch " + _choice(rng, (".Lnosuch", "k", ".Lend", "0",
                                                              "k+0x40000", ".Lend-k", "-1")))
            label = f"label-{('dup', 'del', 'br')[how]}{i}"
    elif k == 12 and meta:  # a metadata YAML value, key or nesting
        i = _choice(rng, meta)
        how = rng.randrange(4)
        if how == 0:
            key, _, _ = lines[i].partition(":")
            lines[i] = f"{key}: {_choice(rng, YAML_VALUES)}"
        elif how == 1:
            del lines[i]
        elif how == 2:
            lines.insert(i, lines[i])
        else:
            key, _, _ = lines[i].partition(":")
            d = _choice(rng, (50, 1000, 100_000))
            lines[i] = f"{key}: " + "[" * d + "1" + "]" * d
        label = f"yaml-{('value', 'del', 'dup', 'nest')[how]}{i}"
    elif k == 13 and ins:  # an instruction duplicated or moved past the end/into data
        i = _choice(rng, ins)
        ln = lines.pop(i) if rng.random() < 0.5 else lines[i]
        p = rng.randrange(len(lines) + 1)
        lines.insert(p, ln)
        label = f"ins-move{i}->{p}"
    if not label:
        p = rng.randrange(len(lines) + 1)
        lines.insert(p, "\t" + _choice(rng, ASM_DIRECTIVES))
        label = f"directive@{p}"
    return label, "\n".join(lines).encode("utf-8", "surrogateescape")


# ------------------------------------------------------------------ disassembly

_SRC_SPECIAL = (0xFA, 0xE9, 0xF9, 0xFF, 0xFD, 0xFE, 0x7C, 0x7D, 0x7E, 0x7F, 0xF0, 0xF8)


def _hex_line(b: bytes) -> str:
    return " ".join(f"0x{x:02x}" for x in b)


def dis_mutant(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One encoding-aware edit of a disassembler input (lines of ``0x..`` bytes, one
    instruction each in the seeds)."""
    text = data.decode("utf-8", "surrogateescape")
    lines = [ln for ln in text.split("\n")]
    code = [i for i, ln in enumerate(lines) if ln.strip().startswith("0x")]

    def parse(i: int) -> bytearray:
        try:
            return bytearray(int(t, 16) & 0xFF for t in lines[i].split() if t.startswith("0x"))
        except ValueError:
            return bytearray()

    k = rng.randrange(8)
    label = ""
    if k in (0, 1):  # a new instruction of a random format: the first dword's top byte
        top = rng.randrange(256)
        n = _choice(rng, (4, 8, 8, 12, 16, 20))
        b = bytearray(rng.getrandbits(8) for _ in range(n))
        b[3] = top
        p = rng.randrange(len(lines) + 1)
        lines.insert(p, _hex_line(bytes(b)))
        label = f"format{top:#04x}x{n}@{p}"
    elif k in (2, 3) and code:  # a seed instruction: its format bits kept, the rest random
        i = _choice(rng, code)
        b = parse(i)
        if len(b) >= 4:
            keep = rng.randrange(5, 10)
            w = struct.unpack_from("<I", b)[0]
            mask = (0xFFFFFFFF << (32 - keep)) & 0xFFFFFFFF
            w = (w & mask) | (rng.getrandbits(32) & ~mask & 0xFFFFFFFF)
            struct.pack_into("<I", b, 0, w)
            for j in range(4, len(b)):
                if rng.random() < 0.5:
                    b[j] = rng.getrandbits(8)
            lines[i] = _hex_line(bytes(b))
            label = f"fields{i}/{keep}"
    elif k == 4 and code:  # a VALU source field set to DPP/DPP8/SDWA/literal/special
        i = _choice(rng, code)
        b = parse(i)
        if b:
            b[0] = _choice(rng, _SRC_SPECIAL)
            if rng.random() < 0.5:
                b += bytes(rng.getrandbits(8) for _ in range(_choice(rng, (0, 4, 8))))
            lines[i] = _hex_line(bytes(b))
            label = f"src{b[0]:#x}@{i}"
    elif k == 5 and code:  # an instruction cut or extended
        i = _choice(rng, code)
        b = parse(i)
        cut = rng.randrange(len(b) + 1) if b else 0
        b = b[:cut] if rng.random() < 0.5 else b + bytes(rng.getrandbits(8)
                                                          for _ in range(rng.randrange(1, 9)))
        lines[i] = _hex_line(bytes(b))
        label = f"length{i}"
    elif k == 6 and code:  # instructions swapped, or every seed line joined
        if rng.random() < 0.5 and len(code) > 1:
            i, j = rng.sample(code, 2)
            lines[i], lines[j] = lines[j], lines[i]
            label = f"swap{i},{j}"
        else:
            lines = [" ".join(lines[i] for i in code)]
            label = "one-line"
    elif k == 7 and code:  # the byte list's syntax
        i = _choice(rng, code)
        lines[i] = _choice(rng, (
            lines[i].replace(" ", ","), "[" + lines[i] + "]", lines[i] + " # c",
            lines[i].replace("0x", "", 1), lines[i] + " 0x100", lines[i] + " 0x", "0x" +
            lines[i].replace(" 0x", ""), " ".join(str(int(t, 16)) for t in lines[i].split()
                                                   if re.fullmatch(r"0x[0-9a-f]+", t)),
            lines[i] + " ;", lines[i].upper(), "0b1 " + lines[i], lines[i] + " -0x1"))
        label = f"syntax{i}"
    if not label:
        b = bytes(rng.getrandbits(8) for _ in range(4))
        lines.append(_hex_line(b))
        label = "append"
    return label, "\n".join(lines).encode("utf-8", "surrogateescape")


# ------------------------------------------------------------------ ELF code objects

_EHDR = {"e_type": (16, "H"), "e_machine": (18, "H"), "e_version": (20, "I"),
         "e_entry": (24, "Q"), "e_phoff": (32, "Q"), "e_shoff": (40, "Q"), "e_flags": (48, "I"),
         "e_ehsize": (52, "H"), "e_phentsize": (54, "H"), "e_phnum": (56, "H"),
         "e_shentsize": (58, "H"), "e_shnum": (60, "H"), "e_shstrndx": (62, "H"),
         "ei_class": (4, "B"), "ei_data": (5, "B"), "ei_osabi": (7, "B"),
         "ei_abiversion": (8, "B")}
_SHDR = {"sh_name": (0, "I"), "sh_type": (4, "I"), "sh_flags": (8, "Q"), "sh_addr": (16, "Q"),
         "sh_offset": (24, "Q"), "sh_size": (32, "Q"), "sh_link": (40, "I"),
         "sh_info": (44, "I"), "sh_addralign": (48, "Q"), "sh_entsize": (56, "Q")}
_PHDR = {"p_type": (0, "I"), "p_flags": (4, "I"), "p_offset": (8, "Q"), "p_vaddr": (16, "Q"),
         "p_filesz": (32, "Q"), "p_memsz": (40, "Q"), "p_align": (48, "Q")}
_SYM = {"st_name": (0, "I"), "st_info": (4, "B"), "st_other": (5, "B"), "st_shndx": (6, "H"),
        "st_value": (8, "Q"), "st_size": (16, "Q")}
# the kernel descriptor (AMDGPU's amdhsa::kernel_descriptor_t)
_KD = {"group_segment_fixed_size": (0, "I"), "private_segment_fixed_size": (4, "I"),
       "kernarg_size": (8, "I"), "kernel_code_entry_byte_offset": (16, "q"),
       "compute_pgm_rsrc3": (44, "I"), "compute_pgm_rsrc1": (48, "I"),
       "compute_pgm_rsrc2": (52, "I"), "kernel_code_properties": (56, "H"),
       "kernarg_preload": (58, "H"), "reserved0": (12, "I"), "reserved1": (24, "I"),
       "reserved2": (60, "I")}
_MAX = {"B": 0xFF, "H": 0xFFFF, "I": 0xFFFFFFFF, "Q": 0xFFFFFFFFFFFFFFFF,
        "q": 0xFFFFFFFFFFFFFFFF}


def _field_value(rng: random.Random, old: int, fmt: str, size: int) -> int:
    top = _MAX[fmt]
    v = _choice(rng, (0, 1, 2, 3, 4, 8, 0x40, 0x100, top, top - 1, top >> 1, (top >> 1) + 1,
                      old + 1, old - 1, old * 2, old ^ (1 << rng.randrange(8 * struct.calcsize(
                          fmt))), size, size + 1, size - 1, rng.getrandbits(8 * struct.calcsize(
                              fmt))))
    return v & top


def _set(b: bytearray, off: int, fmt: str, v: int) -> bool:
    n = struct.calcsize(fmt)
    if off < 0 or off + n > len(b):
        return False
    struct.pack_into("<" + fmt.upper() if fmt != "q" else "<Q", b, off, v & _MAX[fmt])
    return True


def _get(b: bytes, off: int, fmt: str) -> int:
    f = "<Q" if fmt == "q" else "<" + fmt
    return struct.unpack_from(f, b, off)[0] if 0 <= off <= len(b) - struct.calcsize(f) else 0


def _sections(b: bytes) -> list[tuple[int, dict[str, int]]]:
    """(header offset, fields) of each section header, [] if the table is out of range."""
    if len(b) < 64:
        return []
    shoff, shnum = _get(b, 40, "Q"), _get(b, 60, "H")
    out = []
    for i in range(shnum):
        o = shoff + 64 * i
        if o + 64 > len(b):
            return out
        out.append((o, {k: _get(b, o + off, f) for k, (off, f) in _SHDR.items()}))
    return out


def _msgpack_values(b: bytes, start: int, end: int) -> list[tuple[int, int]]:
    """(offset, length) of every msgpack object in b[start:end] (maps, arrays and
    scalars, nested), [] where the bytes are no msgpack."""
    out: list[tuple[int, int]] = []

    def walk(p: int, depth: int) -> int:
        if p >= end or depth > 64:
            raise ValueError
        c = b[p]
        n, q = 0, p + 1
        if c <= 0x7F or c >= 0xE0 or c in (0xC0, 0xC2, 0xC3):
            q = p + 1
        elif 0xA0 <= c <= 0xBF:
            q = p + 1 + (c & 0x1F)
        elif c in (0xD9, 0xDA, 0xDB, 0xC4, 0xC5, 0xC6):
            w = {0xD9: 1, 0xDA: 2, 0xDB: 4, 0xC4: 1, 0xC5: 2, 0xC6: 4}[c]
            q = p + 1 + w + int.from_bytes(b[p + 1:p + 1 + w], "big")
        elif c in (0xCC, 0xD0):
            q = p + 2
        elif c in (0xCD, 0xD1):
            q = p + 3
        elif c in (0xCE, 0xD2, 0xCA):
            q = p + 5
        elif c in (0xCF, 0xD3, 0xCB):
            q = p + 9
        elif 0x80 <= c <= 0x8F or 0x90 <= c <= 0x9F or c in (0xDC, 0xDD, 0xDE, 0xDF):
            if c <= 0x8F:
                n = 2 * (c & 0xF)
            elif c <= 0x9F:
                n = c & 0xF
            else:
                w = 2 if c in (0xDC, 0xDE) else 4
                n = int.from_bytes(b[p + 1:p + 1 + w], "big") * (2 if c >= 0xDE else 1)
                q = p + 1 + w
            for _ in range(n):
                q = walk(q, depth + 1)
        else:
            raise ValueError
        out.append((p, q - p))
        return q

    try:
        walk(start, 0)
    except (ValueError, IndexError, RecursionError):
        return []
    return out


_MSGPACK_REPLACEMENTS = (
    b"\xc0", b"\xc2", b"\xc3", b"\x00", b"\xff", b"\xcf" + b"\xff" * 8, b"\xd3" + b"\x80" +
    b"\x00" * 7, b"\xcb" + struct.pack(">d", 1e300), b"\xca" + struct.pack(">f", float("nan")),
    b"\xa0", b"\xa1x", b"\xa3\xff\xfe\xfd", b"\xd9\xff" + b"x" * 10, b"\xdb\xff\xff\xff\xff",
    b"\x90", b"\x80", b"\x91\x91\x91\x91\x01", b"\x81\xa1a\x01", b"\x82\xa1a\x01\xa1a\x02",
    b"\xc4\x02ab", b"\xc1", b"\xd4\x01\x02", b"\xdd\xff\xff\xff\xff",
    b"\xde\xff\xff" + b"\xc0" * 4, b"\x91" * 2000 + b"\x01", b"\x81" * 3000,
    b"\xa4saxp", b"\xa8saxpy.kd", b"\xa6global", b"\xa8by_value", b"\xce\x00\x01\x00\x00")


def elf_mutant(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One field-aware edit of an ELF64 code object (see the module docstring)."""
    b = bytearray(data)
    secs = _sections(data)
    k = rng.randrange(10)
    label = ""
    if k == 0:  # an ELF header field
        name = _choice(rng, list(_EHDR))
        off, fmt = _EHDR[name]
        if _set(b, off, fmt, _field_value(rng, _get(data, off, fmt), fmt, len(data))):
            label = name
    elif k in (1, 2) and secs:  # a section header field
        i = rng.randrange(len(secs))
        name = _choice(rng, list(_SHDR))
        off, fmt = _SHDR[name]
        o = secs[i][0] + off
        if name == "sh_offset" and rng.random() < 0.3:  # another section's contents
            v = _choice(rng, secs)[1]["sh_offset"]
        else:
            v = _field_value(rng, _get(data, o, fmt), fmt, len(data))
        if _set(b, o, fmt, v):
            label = f"{name}[{i}]"
    elif k == 3 and len(data) >= 64:  # a program header field
        phoff, phnum = _get(data, 32, "Q"), _get(data, 56, "H")
        if phnum:
            i = rng.randrange(phnum)
            name = _choice(rng, list(_PHDR))
            off, fmt = _PHDR[name]
            o = phoff + 56 * i + off
            if _set(b, o, fmt, _field_value(rng, _get(data, o, fmt), fmt, len(data))):
                label = f"{name}[{i}]"
    elif k == 4:  # a symbol-table entry's field (.symtab or .dynsym)
        tabs = [s for _, s in secs if s["sh_type"] in (2, 11) and s["sh_size"] >= 24]
        if tabs:
            t = _choice(rng, tabs)
            i = rng.randrange(t["sh_size"] // 24)
            name = _choice(rng, list(_SYM))
            off, fmt = _SYM[name]
            o = t["sh_offset"] + 24 * i + off
            if _set(b, o, fmt, _field_value(rng, _get(data, o, fmt), fmt, len(data))):
                label = f"{name}[{i}]"
    elif k == 5:  # a note header field
        notes = [s for _, s in secs if s["sh_type"] == 7 and s["sh_size"] >= 12]
        if notes:
            s = _choice(rng, notes)
            o = s["sh_offset"] + 4 * rng.randrange(3)
            if _set(b, o, "I", _field_value(rng, _get(data, o, "I"), "I", s["sh_size"])):
                label = f"note-header+{o - s['sh_offset']}"
    elif k in (6, 7):  # a msgpack metadata value replaced
        for _, s in secs:
            if s["sh_type"] != 7 or s["sh_size"] < 12:
                continue
            o = s["sh_offset"]
            namesz, descsz = _get(data, o, "I"), _get(data, o + 4, "I")
            start = o + 12 + (namesz + 3) // 4 * 4
            vals = _msgpack_values(data, start, min(start + descsz, len(data)))
            if vals:
                p, n = _choice(rng, vals)
                new = _choice(rng, _MSGPACK_REPLACEMENTS)
                b[p:p + n] = new
                if rng.random() < 0.7:  # keep the note's size consistent
                    _set(b, o + 4, "I", descsz - n + len(new))
                label = f"msgpack@{p - start}"
                break
    elif k == 8:  # a kernel descriptor field (the symbol NAME.kd)
        kd = _kd_offset(data, secs)
        if kd is not None:
            name = _choice(rng, list(_KD))
            off, fmt = _KD[name]
            old = _get(data, kd + off, fmt)
            v = (old ^ (1 << rng.randrange(8 * struct.calcsize(fmt))) if rng.random() < 0.5
                 else _field_value(rng, old, fmt, len(data)))
            if _set(b, kd + off, fmt, v):
                label = f"kd.{name}"
    elif k == 9:  # a string-table byte (section or symbol names)
        strs = [s for _, s in secs if s["sh_type"] == 3 and s["sh_size"]]
        if strs:
            s = _choice(rng, strs)
            o = s["sh_offset"] + rng.randrange(s["sh_size"])
            if o < len(b):
                b[o] = _choice(rng, (0, 0x2E, 0x41, 0xFF, b[o] ^ 0x20))
                label = f"strtab@{o}"
    if not label:  # a header byte
        i = rng.randrange(min(64, len(b))) if b else 0
        if b:
            b[i] ^= 1 << rng.randrange(8)
        label = f"ehdr-bit@{i}"
    return label, bytes(b)


def _kd_offset(data: bytes, secs: list[tuple[int, dict[str, int]]]) -> int | None:
    """File offset of the first ``*.kd`` symbol's descriptor."""
    for _, t in secs:
        if t["sh_type"] not in (2, 11) or not 0 <= t["sh_link"] < len(secs):
            continue
        strtab = secs[t["sh_link"]][1]
        for i in range(t["sh_size"] // 24):
            o = t["sh_offset"] + 24 * i
            name_off = _get(data, o, "I")
            a = strtab["sh_offset"] + name_off
            name = data[a:data.find(b"\0", a)] if 0 <= a < len(data) else b""
            shndx = _get(data, o + 6, "H")
            if name.endswith(b".kd") and shndx < len(secs):
                sec = secs[shndx][1]
                return sec["sh_offset"] + _get(data, o + 8, "Q") - sec["sh_addr"]
    return None


# ------------------------------------------------------------------ GLSL

GLSL_LINES = (
    "#include \"missing.h\"", "#include <missing.h>", "#include \"/etc/passwd\"",
    "#extension GL_GOOGLE_include_directive : require", "#version 999", "#version 450 es",
    "#version 100", "#version 460 core", "#version 450", "#version", "#pragma optimize(off)",
    "#pragma debug(on)", "#pragma STDGL invariant(all)", "#pragma x y z", "#pragma",
    "#line 0", "#line 4294967296", "#line 2 99999", "#line -1", "#define A A",
    "#define F(x) F(F(x))", "#if 1", "#endif", "#else", "#elif", "#error boom", "#undef __LINE__",
    "#define __VERSION__ 1", "#extension all : enable", "#extension GL_EXT_debug_printf : enable",
    "#extension GL_EXT_bogus : require", "#", "##", "#ifdef", "#define X(", "??=",
    "void f() { debugPrintfEXT(\"%d\", 1); }", "layout(local_size_x = 0) in;",
    "layout(local_size_x = 100000) in;", "layout(set = 99999, binding = -1) buffer Z { uint z[]; };",
    "layout(push_constant) uniform Q { uint q; } qq;", "shared uint big[1000000];",
    "int main;", "}", "{", "void main() {}")
_GLSL_BODY = ("uint t = 1u;", "{ }", ";", "float q = sin(1.0);", "barrier();")


def glsl_mutant(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One preprocessor-, encoding- or size-aware edit of a GLSL source."""
    text = data.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    k = rng.randrange(8)
    if k in (0, 1, 2):  # a preprocessor (or declaration) line inserted or replacing one
        p = rng.randrange(len(lines) + 1)
        new = _choice(rng, GLSL_LINES)
        if rng.random() < 0.3 and p < len(lines):
            lines[p] = new
        else:
            lines.insert(p, new)
        return f"line@{p}", "\n".join(lines).encode("utf-8", "surrogateescape")
    if k == 3:  # the #version line moved, duplicated or removed
        v = next((i for i, ln in enumerate(lines) if ln.startswith("#version")), 0)
        ln = lines.pop(v)
        how = rng.randrange(3)
        if how == 0:
            lines.insert(rng.randrange(len(lines) + 1), ln)
        elif how == 1:
            lines.insert(v, ln)
            lines.insert(v, ln)
        return f"version-{('move', 'dup', 'del')[how]}", "\n".join(lines).encode(
            "utf-8", "surrogateescape")
    if k == 4:  # another encoding
        enc = _choice(rng, ("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig",
                            "latin-1", "bom16le", "nul", "cr", "crlf", "no-newline"))
        s = text.encode("utf-8", "surrogateescape")
        if enc in ("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig"):
            out = text.encode(enc, "surrogatepass")
        elif enc == "latin-1":
            out = s.replace(b"main", b"ma\xefn", 1)
        elif enc == "bom16le":  # a UTF-16 BOM before UTF-8 text
            out = b"\xff\xfe" + s
        elif enc == "nul":
            p = rng.randrange(len(s) + 1)
            out = s[:p] + b"\0" + s[p:]
        elif enc == "cr":
            out = s.replace(b"\n", b"\r")
        elif enc == "crlf":
            out = s.replace(b"\n", b"\r\n")
        else:
            out = s.rstrip(b"\n")
        return f"encoding-{enc}", out
    if k == 5:  # a huge body: thousands of statements
        n = _choice(rng, (1000, 10_000, 50_000))
        stmt = _choice(rng, _GLSL_BODY)
        m = next((i for i in range(len(lines) - 1, -1, -1) if lines[i].strip() == "}"), None)
        if m is None:
            return "huge-none", text.encode("utf-8", "surrogateescape")
        lines.insert(m, " ".join([stmt] * n))
        return f"huge{n}", "\n".join(lines).encode("utf-8", "surrogateescape")
    if k == 6:  # a long identifier or literal
        n = _choice(rng, (1024, 100_000))
        what = _choice(rng, ("ident", "number", "comment", "line"))
        if what == "ident":
            ins = f"uint {'a' * n} = 1u;"
        elif what == "number":
            ins = f"uint zz = {'9' * n}u;"
        elif what == "comment":
            ins = "/*" + "*" * n
        else:
            ins = "#define L " + "x" * n
        p = next((i for i, ln in enumerate(lines) if "void main" in ln), len(lines))
        lines.insert(p if what != "ident" else p, ins if what != "ident"
                     else f"const {ins}")
        return f"long-{what}{n}", "\n".join(lines).encode("utf-8", "surrogateescape")
    # deep nesting: parentheses or blocks in main's body
    how = rng.choice(("paren", "block", "if"))
    # (spirv-val needs ~35 s of CPU for 1,000 nested ifs, past the harness's limit; radcc
    # refuses more than 128 nested constructs: test_fuzz_regressions)
    d = _choice(rng, (50, 200) if how == "if" else (100, 1000, 10_000, 100_000))
    if how == "paren":
        stmt = "uint nn = " + "(" * d + "1u" + ")" * d + ";"
    elif how == "block":
        stmt = "{" * d + "}" * d
    else:
        stmt = "if (true) " * d + ";"
    m = next((i for i in range(len(lines) - 1, -1, -1) if lines[i].strip() == "}"), len(lines))
    lines.insert(m, stmt)
    return f"nest-{how}{d}", "\n".join(lines).encode("utf-8", "surrogateescape")


# ------------------------------------------------------------------ .npy

NPY_DESCRS = ("'<f4'", "'>f4'", "'|u1'", "'<f8'", "'<c8'", "'|O'", "'|b1'", "'<U4'", "'|V8'",
              "'<M8[s]'", "'<m8'", "'f2'", "'<i16'", "[('a', '<f4')]", "'x'", "''", "None",
              "'<f4'*2", "'S0'", "'<f4', 'x': 1", "'V0'", "[('a', '<f4', (2,))]", "'|i1'")
NPY_SHAPES = ("()", "(0,)", "(-1,)", "(2**40,)", "(1099511627776,)", "(64, 1)", "(8, 8)",
              "(1,) * 40", "(" + "1, " * 40 + ")", "(64.0,)", "[64]", "(65,)", "(63,)", "64",
              "(100000000000000000000,)", "(0, 0)", "('a',)", "(4, 4, 4)", "None")


def npy_mutant(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One header-aware edit of a ``.npy`` file (format versions 1.0/2.0/3.0)."""
    if not data.startswith(b"\x93NUMPY") or len(data) < 10:
        return "not-npy", data
    major = data[6]
    hl_size = 2 if major == 1 else 4
    hl = int.from_bytes(data[8:8 + hl_size], "little")
    head_end = 8 + hl_size + hl
    header = data[8 + hl_size:head_end].decode("latin-1")
    body = data[head_end:]
    k = rng.randrange(7)
    label = ""
    if k == 0:
        header = re.sub(r"'descr': [^,]*(?=, 'fortran)", "'descr': " + _choice(rng, NPY_DESCRS),
                        header)
        label = "descr"
    elif k == 1:
        header = re.sub(r"'shape': \([^)]*\)", "'shape': " + _choice(rng, NPY_SHAPES), header)
        label = "shape"
    elif k == 2:
        header = header.replace("'fortran_order': False", "'fortran_order': " + _choice(
            rng, ("True", "1", "'x'", "None", "False, 'extra': 1")))
        label = "order"
    elif k == 3:
        header = _choice(rng, ("[]", "{", "{}", "{'descr': '<f4'}", "not python", "{" * 1000,
                               "{'descr': '<f4', 'fortran_order': False, 'shape': (64,), "
                               "'descr': '|O'}", "\xff\xfe", "(" * 200 + ")" * 200))
        label = "header"
    elif k == 4:  # the header length field
        new = _choice(rng, (0, 1, hl - 1, hl + 1, hl + 16, 0xFFFF, 0xFFFFFFFF & (
            (1 << (8 * hl_size)) - 1))) & ((1 << (8 * hl_size)) - 1)  # in the field's range
        return f"hlen={new}", (data[:8] + new.to_bytes(hl_size, "little") + data[8 + hl_size:])
    elif k == 5:  # the version
        v = _choice(rng, ((2, 0), (3, 0), (9, 9), (1, 1), (0, 0)))
        return f"version{v}", data[:6] + bytes(v) + data[8:]
    else:  # the data cut or extended
        cut = rng.randrange(len(body) + 1)
        body = body[:cut] if rng.random() < 0.5 else body + body[:cut]
        label = f"data{cut}"
    hb = header.encode("latin-1", "replace")
    out = data[:8] + len(hb).to_bytes(hl_size, "little") + hb + body
    return label, out


# which operator a reader's structured draws use (by the reader name's first part)
STRUCTURED: dict[str, Callable[[bytes, random.Random], tuple[str, bytes]]] = {
    "ir": ir_mutant, "asm": asm_mutant, "obj": asm_mutant, "dis": dis_mutant, "elf": elf_mutant,
    "glsl": glsl_mutant, "npy": npy_mutant,
}


def structured_mutant(reader: str, data: bytes,
                      rng: random.Random) -> tuple[str, bytes] | None:
    """A structure-aware mutant for reader `reader` (None: the reader has no operators)."""
    op = STRUCTURED.get(reader.partition("-")[0])
    return None if op is None else op(data, rng)
