"""Probe llvm-mc-19 for the instruction vocabulary and write radcc/isa/data/vocab.json.

radcc names every instruction once, generation-neutrally (as ACO's
``aco_opcode``): the *canonical name* is LLVM 19's GFX11 spelling where GFX11
has the instruction (``s_load_b32``, ``ds_load_u16``, ``s_and_not1_b32``), and
otherwise the newest generation's spelling that has it (``v_mac_f32``,
``s_store_dword``). Each generation's opcode table keeps its own LLVM spelling;
this file records which canonical name each older-generation spelling stands
for, so that the table (`radcc.isa.table.OpInfo.canon`) can be indexed by it.

The correspondence comes from llvm-mc, not from typing: for every instruction
of the GFX10 (gfx1010) and GFX10.3 (gfx1030) tables a sample line (operands
made from the table's operand specs, checked to assemble for that chip) is
assembled with ``-mcpu=gfx1100``. llvm-mc-19 accepts most GFX10 names as
aliases on GFX11 and prints the GFX11 name, which is then the canonical name,
provided the two generations' lines encode the same instruction: the line must
also be accepted when the printed GFX11 name replaces the old one (checked).
The reverse direction (every GFX11 name assembled for gfx1030) finds the
aliases LLVM keeps the other way round.

llvm-mc-19 aliases every rename between GFX10 and GFX11 that is the same
operation; what it leaves ('unmapped' in the output) was checked by hand against
AMD's RDNA2 and RDNA3 ISA guides (chapter "Instructions"): removed instructions
(``v_mac_f32``, ``s_store_dword``, the ``ds_*_src2_*``, ``v_interp_p1_f32``,
``s_memtime`` ...), GFX10.3 dot products GFX11 replaced by mixed-sign ones
(``v_dot4_i32_i8`` vs ``v_dot4_i32_iu8``), and ``ds_cmpst_*``, which GFX11's
``ds_cmpstore_*`` is not: the compare and store data operands are swapped (RDNA3 ISA
guide, DS_CMPSTORE_B32), so the two are distinct instructions. These keep their own
name, absent from the GFX11 table. Image, ``tbuffer`` and GWS entries the sample
builder has no line for keep their name when GFX11 has the same LLVM name in the same
encoding (LLVM names one instruction one way on both). One spelling names different
instructions on the two generations (``v_interp_p2_f32``: GFX10 VINTRP, GFX11
VINTERP); the older one is made distinct ('distinct': ``v_interp_p2_f32_vintrp``).

Run: python tools/isa_probe/vocab.py [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from radcc.isa.table import OperandSpec, OpInfo, _load_table  # noqa: E402
from radcc.oracle import llvm_mc  # noqa: E402
from radcc.target import GfxLevel  # noqa: E402

DATA = ROOT / "radcc" / "isa" / "data"
NEW = ("gfx1100", "gfx11", GfxLevel.GFX11)
OLD = (("gfx1010", "gfx10", GfxLevel.GFX10), ("gfx1030", "gfx10_3", GfxLevel.GFX10_3))

_SUFFIX = re.compile(r"_e(32|64)$|_sdwa$|_dpp$")


def _reg(prefix: str, bits: int, base: int) -> str:
    n = max(1, (bits + 31) // 32)
    if n == 1:
        return f"{prefix}{base}"
    align = 4 if n >= 4 and prefix == "s" else (2 if prefix == "s" else 1)
    base = (base + align - 1) // align * align
    return f"{prefix}[{base}:{base + n - 1}]"


def _operand(o: OperandSpec, i: int) -> str | None:
    k = o.kind
    if k in ("vgpr", "vsrc", "vcsrc", "vinl"):
        return _reg("v", o.bits, 10 + 10 * i)
    if k in ("sgpr", "ssrc", "sreg"):
        return _reg("s", o.bits, 20 + 8 * i)
    if k == "sreg_wave":
        return _reg("s", 32, 20 + 8 * i)
    if k == "special":
        return o.fixed
    if k == "smem_offset":
        return "0x10"
    if k in ("imm", "label", "waitcnt", "depctr", "version", "literal", "delay"):
        return "0"
    if k == "hwreg":
        return "hwreg(HW_REG_MODE)"
    if k == "sendmsg":
        return "sendmsg(MSG_INTERRUPT)"
    if k == "attr":
        return "attr0.x"
    if k == "interp_param":
        return "p10"
    if k == "exp_target":
        return "mrt0"
    return None


def samples(e: OpInfo) -> list[str]:
    """Candidate assembly lines for one table entry (the first that assembles is used)."""
    ops = [_operand(o, i) for i, o in enumerate(e.operands)]
    if any(x is None for x in ops):
        return []
    name = e.printed_name
    head = f"{name} {', '.join(ops)}".rstrip() if ops else name  # type: ignore[arg-type]
    out = [head]
    if e.enc in ("MUBUF", "MTBUF"):
        fmt = " format:[BUF_FMT_32_FLOAT]" if e.enc == "MTBUF" else ""
        out = [head + " offen" + fmt, head + " idxen" + fmt, head + fmt]
    elif e.enc in ("GLOBAL", "SCRATCH"):
        # saddr off
        off = [x for x, o in zip(ops, e.operands, strict=True) if o.name != "saddr"]
        out = [head, f"{name} {', '.join(off)}, off"]  # type: ignore[arg-type]
        vaddr = next((o for o in e.operands if o.name == "vaddr"), None)
        if vaddr is not None and e.enc == "GLOBAL":
            v32 = [("v2" if o.name == "vaddr" else x) for x, o in zip(ops, e.operands, strict=True)]
            out.append(f"{name} {', '.join(v32)}")  # type: ignore[arg-type]
    elif e.enc == "MIMG":
        out = [head + " dmask:0x1 dim:SQ_RSRC_IMG_1D", head + " dmask:0x1",
               head.replace(", s[", ", s[", 1) + ", s[40:43] dmask:0x1 dim:SQ_RSRC_IMG_1D",
               head + ", s[40:43] dmask:0x1"]
    elif e.enc == "EXP":
        out = [head + " done"]
    return out


def _mnemonic(text: str) -> str:
    return text.split(None, 1)[0]


def _table_name(table: object, printed: str) -> str | None:
    """The table entry name of a printed mnemonic (``v_add_f32_e32`` -> ``v_add_f32``)."""
    for cand in (printed, _SUFFIX.sub("", printed)):
        es = table.candidates(cand)  # type: ignore[attr-defined]
        if es:
            return es[0].name
    return None


def sample_lines(table: object, mcpu: str) -> dict[str, str]:
    """name -> a line llvm-mc accepts for `mcpu` (names no sample works for are left out)."""
    entries: list[OpInfo] = table.entries  # type: ignore[attr-defined]
    cands: list[tuple[str, str]] = []
    for e in entries:
        for s in samples(e):
            cands.append((e.name, s))
    res = llvm_mc.encode([s for _, s in cands], mcpu)
    out: dict[str, str] = {}
    for (n, s), r in zip(cands, res, strict=True):
        if n not in out and r.text is not None and _table_name(table, _mnemonic(r.text)) == n:
            out[n] = s
    return out


def probe_pair(old_mcpu: str, old_table: object, new_table: object) -> tuple[dict, list[str]]:
    """(old name -> GFX11 name where they differ, old names with no GFX11 acceptance)."""
    lines = sample_lines(old_table, old_mcpu)
    names = sorted(lines)
    res = llvm_mc.encode([lines[n] for n in names], NEW[0])
    mapping: dict[str, str] = {}
    unmapped: list[str] = []
    check: list[tuple[str, str, str]] = []
    for n, r in zip(names, res, strict=True):
        if r.text is None:
            unmapped.append(n)
            continue
        new = _table_name(new_table, _mnemonic(r.text))
        if new is None:
            unmapped.append(n)
            continue
        if new != n:
            # the printed name must itself assemble the same line
            old_printed = _mnemonic(lines[n])
            check.append((n, new, lines[n].replace(old_printed, _mnemonic(r.text), 1)))
    ok = llvm_mc.encode([c[2] for c in check], NEW[0])
    for (n, new, _), r in zip(check, ok, strict=True):
        if r.text is not None:
            mapping[n] = new
        else:
            unmapped.append(n)
    # names the old generation lacks entirely are not in `lines`
    missing = sorted(set(old_table.by_name) - set(lines))  # type: ignore[attr-defined]
    return mapping, sorted(unmapped) + [f"{m} (no sample)" for m in missing]


def probe_reverse(old_mcpu: str, old_table: object, new_table: object) -> dict[str, str]:
    """GFX11 names llvm-mc accepts for the old chip and prints as another name there."""
    lines = sample_lines(new_table, NEW[0])
    names = sorted(lines)
    res = llvm_mc.encode([lines[n] for n in names], old_mcpu)
    out: dict[str, str] = {}
    for n, r in zip(names, res, strict=True):
        if r.text is None:
            continue
        old = _table_name(old_table, _mnemonic(r.text))
        if old is not None and old != n:
            out[old] = n
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DATA / "vocab.json")
    args = ap.parse_args()
    llvm_mc.require()
    new_table = _load_table(NEW[2], DATA / NEW[1])
    blob: dict[str, object] = {
        "comment": "generated by tools/isa_probe/vocab.py: per generation, the LLVM spellings "
                   "whose canonical (GFX11) name differs ('llvm_mc': llvm-mc-19 assembles the old "
                   "spelling for gfx1100 as that name; 'distinct': the same spelling names another instruction on "
                   "GFX11); 'unmapped': spellings llvm-mc-19 does not accept for gfx1100 "
                   "(absent on GFX11 unless the GFX11 table has the same name)",
        "canonical": NEW[1],
    }
    for mcpu, d, gfx in OLD:
        old_table = _load_table(gfx, DATA / d)
        mapping, unmapped = probe_pair(mcpu, old_table, new_table)
        rev = probe_reverse(mcpu, old_table, new_table)
        for old, new in rev.items():
            if mapping.get(old, new) != new:
                raise SystemExit(f"{d}: {old} -> {mapping[old]} but {new} prints as {old}")
            mapping.setdefault(old, new)
        canon_of = dict(mapping)
        # Same spelling, no oracle evidence, disjoint encodings: a different instruction
        # (GFX10's VINTRP v_interp_p2_f32 vs GFX11's VINTERP one); the older one's
        # canonical name gets its encoding as a suffix.
        distinct = {}
        for n, es in old_table.by_name.items():  # type: ignore[attr-defined]
            if n in canon_of or n not in new_table.by_name:
                continue
            old_encs = {e.enc for e in es}
            if not old_encs & {e.enc for e in new_table.by_name[n]}:
                distinct[n] = f"{n}_{es[0].enc.lower()}"
        canon_of.update(distinct)
        # a canonical name must not also be another instruction's spelling of this generation
        for old, new in canon_of.items():
            if new in old_table.by_name and canon_of.get(new, new) == new:
                raise SystemExit(f"{d}: {old} -> {new}, but {new} is another {d} instruction")
        inv: dict[str, str] = {}
        for old, new in canon_of.items():
            if new in inv:
                raise SystemExit(f"{d}: {inv[new]} and {old} both mean {new}")
            inv[new] = old
        blob[d] = {"llvm_mc": dict(sorted(mapping.items())), "distinct": distinct,
                   "unmapped": unmapped}
        print(f"{d}: {len(mapping)} renamed by llvm-mc, {len(distinct)} distinct, "
              f"{len(unmapped)} not accepted for gfx1100")
    args.out.write_text(json.dumps(blob, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
