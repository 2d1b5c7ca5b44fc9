"""Probe llvm-mc-19 for the scalar encodings and write radcc/isa/data/gfx11/scalar.json.

ISA guide chapter 15.1 (SOP2, SOPK, SOP1, SOPC, SOPP) and 15.2 (SMEM). For
every opcode number of each format it decodes words with marker operand
values (sdst=s20, ssrc0=s4, ssrc1=s12, SMEM soffset=s12 / offset=0x1234)
and reads back the name, operand order and register sizes; decoding a few
immediates tells how the 16-bit immediate prints (``hex``: always hex,
``dec_hex``: 0..64 decimal else hex, ``dec``: decimal) and which symbolic
form it takes (hwreg, sendmsg, waitcnt, depctr, delay_alu, s_version);
assembling probe lines tells which ops take labels and SMEM cache bits.

Run: python tools/isa_probe/scalar.py [--mcpu gfx1100] [--out PATH]
(``--mcpu gfx1010`` writes data/gfx10/scalar.json, ``gfx1030`` data/gfx10_3;
the default gfx1100 writes data/gfx11). The opcodes of the probes that need a
particular instruction (s_getreg_b32 for hwreg names, s_sendmsg, s_version)
are taken from the decoded table, so one script serves every generation.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from radcc.oracle import llvm_mc  # noqa: E402

DATA = ROOT / "radcc" / "isa" / "data"
# data directory per --mcpu (one chip stands for its generation's table)
GEN_DIR = {"gfx1010": "gfx10", "gfx1030": "gfx10_3", "gfx1100": "gfx11"}
MCPU = "gfx1100"


def _decode(blobs: list[bytes]) -> list[str | None]:
    return llvm_mc.decode(blobs, MCPU)


def _encode(lines: list[str]) -> list[llvm_mc.McEncoding]:
    return llvm_mc.encode(lines, MCPU)

SOP2 = 0b10 << 30
SOPK = 0b1011 << 28
SOP1 = 0b101111101 << 23
SOPC = 0b101111110 << 23
SOPP = 0b101111111 << 23
SMEM = 0b111101 << 26

_RANGE = re.compile(r"^s\[(\d+):(\d+)\]$")

# Genuine irregularities (documented, not derivable from decoding):
# SOPK ops whose SDST field is read, not written.
_SOPK_READS_SDST = ("s_cmpk_", "s_setreg_b32", "s_waitcnt_", "s_subvector_loop_")
# SOPK ops that write SCC (ISA guide 16.2: the compares, and s_addk_i32's
# signed overflow); the other SOPK ops leave it alone.
_SOPK_WRITES_SCC = ("s_cmpk_", "s_addk_i32")
# ops that read the old value of their (written) SDST: D = D op simm16, and
# the conditional moves, which keep D when SCC is 0 (ISA guide 16.2, 16.3).
# Recorded as "tied_def": the definition slot whose old value is read.
_READS_OLD_SDST = ("s_addk_i32", "s_mulk_i32", "s_cmovk_i32", "s_cmov_b32", "s_cmov_b64")
# ops without SCC side effects among SOP1/SOP2 (everything else writes SCC),
# following the ISA guide's per-instruction descriptions (chapter 16).
_NO_SCC = re.compile(
    r"^s_(mov|cmov|brev|ctz|clz|cls|sext|bitset[01]|bitreplicate|movrel|getpc|setpc|swappc"
    r"|rfe|sendmsg_rtn|pack_|mul_i32|mul_hi|bfm|cselect|movk|version"
    r"|getreg|setreg|call|waitcnt|movrelsd)"
)


def _size(tok: str) -> tuple[int, int]:
    m = _RANGE.match(tok)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        return lo, 32 * (hi - lo + 1)
    return int(tok[1:]), 32


def _ops_text(text: str) -> tuple[str, list[str]]:
    name, _, rest = text.partition(" ")
    ops = [o.strip() for o in re.split(r",(?![^()]*\))", rest) if o.strip()] if rest else []
    return name, ops


def _implicit(name: str, enc: str) -> tuple[list[str], list[str]]:
    reads: list[str] = []
    writes: list[str] = []
    if enc == "SOPC" or enc == "SOPK" and name.startswith(_SOPK_WRITES_SCC):
        writes.append("scc")
    elif enc in ("SOP1", "SOP2") and not _NO_SCC.match(name):
        writes.append("scc")
    if name.startswith(("s_addc", "s_subb", "s_cselect", "s_cmov")):
        reads.append("scc")
    if "exec" in name and enc == "SOP1":
        reads.append("exec")
        writes.append("exec")
    if name.startswith("s_movrel"):
        reads.append("m0")
    if name in ("s_cbranch_scc0", "s_cbranch_scc1"):
        reads.append("scc")
    if name in ("s_cbranch_vccz", "s_cbranch_vccnz"):
        reads.append("vcc")
    if name in ("s_cbranch_execz", "s_cbranch_execnz"):
        reads.append("exec")
    if name.startswith("s_sendmsg") and enc == "SOPP":
        reads.append("m0")
    return reads, writes


def _tied(name: str) -> dict:
    return {"tied_def": "sdst"} if name in _READS_OLD_SDST else {}


def _cls(name: str, enc: str, bits64: bool) -> str:
    if enc == "SMEM":
        return "smem"
    if "branch" in name or name.startswith(("s_call", "s_setpc", "s_swappc", "s_getpc", "s_rfe")):
        return "branch"
    if name.startswith("s_sendmsg"):
        return "message"
    if name.startswith("s_waitcnt") or name in ("s_delay_alu", "s_wait_idle", "s_wait_event"):
        return "waitcnt"
    if name in ("s_nop", "s_code_end", "s_clause", "s_set_inst_prefetch_distance",
                "s_inst_prefetch"):
        return "nop"
    return "salu64" if bits64 else "salu"


def probe_sop() -> list[dict]:
    entries: list[dict] = []
    # --- SOP2 / SOP1 / SOPC: register operands ------------------------------
    words: list[tuple[str, int, bytes]] = []
    for op in range(96):
        words.append(("SOP2", op, (SOP2 | op << 23 | 20 << 16 | 12 << 8 | 4).to_bytes(4, "little")))
    for op in range(256):
        words.append(("SOP1", op, (SOP1 | 20 << 16 | op << 8 | 4).to_bytes(4, "little")))
    for op in range(128):
        words.append(("SOPC", op, (SOPC | op << 16 | 12 << 8 | 4).to_bytes(4, "little")))
    texts = _decode([w for _e, _o, w in words])
    for (enc, op, _w), text in zip(words, texts, strict=True):
        if text is None:
            continue
        _SAMPLES[(enc, op)] = text.strip()
        name, ops = _ops_text(text)
        operands: list[dict] = []
        bits64 = False
        for tok in ops:
            if tok.startswith("sendmsg("):
                operands.append({"name": "ssrc0", "kind": "sendmsg_rtn", "bits": 8})
                continue
            idx, bits = _size(tok)
            bits64 |= bits == 64
            role = {20: "sdst", 4: "ssrc0", 12: "ssrc1"}[idx]
            d = {"name": role, "kind": "sgpr" if role == "sdst" else "ssrc", "bits": bits,
                 "type": f"b{bits}"}
            if role == "sdst":
                d["is_def"] = True
            operands.append(d)
        reads, writes = _implicit(name, enc)
        entries.append({"name": name, "enc": enc, "opcode": op, "operands": operands,
                        "implicit_reads": reads, "implicit_writes": writes,
                        "cls": _cls(name, enc, bits64), **_tied(name)})
    # --- SOPK / SOPP: immediates ---------------------------------------------
    vals = (0, 1, 65, 0x1234)
    words = []
    for op in range(29):  # 29..31: llvm-mc 19 decodes junk (gfx11 29 as s_mov_b32)
        base = SOPK | op << 23 | 20 << 16
        for v in vals:
            words.append(("SOPK", op, v, (base | v).to_bytes(4, "little")))
            words.append(("SOPK", op, v, (base | v).to_bytes(4, "little") + b"\x78\x56\x34\x12"))
    for op in range(128):
        for v in vals:
            words.append(("SOPP", op, v, (SOPP | op << 16 | v).to_bytes(4, "little")))
    texts = _decode([w[3] for w in words])
    seen: dict[tuple[str, int], dict[tuple[int, int], str]] = {}
    for (enc, op, v, w), text in zip(words, texts, strict=True):
        if text is not None:
            seen.setdefault((enc, op), {})[(v, len(w))] = text
            if v == 1 or (enc, op) not in _SAMPLES:
                _SAMPLES[(enc, op)] = text.strip()
    for (enc, op), res in sorted(seen.items()):
        entries.append(_imm_entry(enc, op, res))
    _probe_labels(entries)
    _probe_unsigned(entries)
    _probe_reg_only(entries)
    return entries


def _imm_entry(enc: str, op: int, res: dict[tuple[int, int], str]) -> dict:
    literal = all(k[1] == 8 for k in res)
    size = 8 if literal else 4
    t0 = res.get((0, size))
    t1 = res.get((1, size))
    t65 = res.get((65, size))
    tbig = res.get((0x1234, size))
    any_text = next(iter(res.values()))
    name, ops = _ops_text(any_text)
    extra: dict = {}
    operands: list[dict] = []
    style = ""
    if t1 is not None and t65 is not None:
        a, b = _ops_text(t1)[1][-1], _ops_text(t65)[1][-1]
        style = "hex" if a == "0x1" else ("dec" if b == "65" else "dec_hex")
    no_imm = t0 is not None and t1 is None and not _ops_text(t0)[1]
    for tok in ops:
        if tok in ("s20", "s[20:21]"):
            bits = 64 if tok.startswith("s[") else 32
            d = {"name": "sdst", "kind": "sgpr", "bits": bits, "type": f"b{bits}"}
            if not name.startswith(_SOPK_READS_SDST):
                d["is_def"] = True
            operands.append(d)
        elif tok.startswith("hwreg("):
            operands.append({"name": "simm16", "kind": "hwreg", "bits": 16})
        elif tok == "0x12345678":
            operands.append({"name": "imm32", "kind": "literal", "bits": 32, "type": "b32"})
        elif tok.startswith("sendmsg(") or name.startswith("s_sendmsg"):
            operands.append({"name": "simm16", "kind": "sendmsg", "bits": 16})
        elif name == "s_waitcnt":
            operands.append({"name": "simm16", "kind": "waitcnt", "bits": 16})
        elif name == "s_waitcnt_depctr":
            operands.append({"name": "simm16", "kind": "depctr", "bits": 16})
        elif name == "s_delay_alu":
            operands.append({"name": "simm16", "kind": "delay", "bits": 16})
        elif name == "s_version":
            operands.append({"name": "simm16", "kind": "version", "bits": 16})
        else:
            operands.append({"name": "simm16", "kind": "imm", "bits": 16})
    # s_endpgm prints no operand when 0 but accepts one
    if t0 is not None and t1 is not None and not _ops_text(t0)[1] and _ops_text(t1)[1]:
        extra["imm_optional"] = True
        operands.append({"name": "simm16", "kind": "imm", "bits": 16})
    if no_imm:
        extra["imm_zero"] = True
    # keep sdst first (definitions first), the printed order in `asm_order`
    order = [o["name"] for o in operands]
    if operands and operands[0]["name"] != "sdst" and any(o.get("is_def") for o in operands):
        extra["asm_order"] = order
    if style and any(o["kind"] == "imm" for o in operands):
        extra["imm_style"] = style
    if tbig is None and not no_imm and not literal:
        extra["imm_checked"] = True  # only some values decode (symbolic fields)
    reads, writes = _implicit(name, enc)
    e = {"name": name, "enc": enc, "opcode": op, "operands": operands,
         "implicit_reads": reads, "implicit_writes": writes, "cls": _cls(name, enc, False),
         **_tied(name)}
    e.update(extra)
    return e


def _probe_labels(entries: list[dict]) -> None:
    """Ops that accept a label (branches, s_call_b64, s_subvector_loop_*)."""
    cands = [e for e in entries if e["enc"] in ("SOPK", "SOPP")
             and any(o["kind"] == "imm" for o in e["operands"])]
    lines = []
    for e in cands:
        regs = ", ".join(
            ("s[0:1]" if o["bits"] == 64 else "s0") for o in e["operands"] if o["kind"] == "sgpr")
        lines.append(f"{e['name']} {regs + ', ' if regs else ''}target")
    res = _encode(lines)
    for e, r in zip(cands, res, strict=True):
        if r.error is None and r.data is None:
            for o in e["operands"]:
                if o["kind"] == "imm":
                    o["kind"] = "label"
            e["imm_style"] = "dec"


def _probe_unsigned(entries: list[dict]) -> None:
    """SOPK ops whose 16-bit immediate rejects negative values."""
    cands = [e for e in entries if e["enc"] == "SOPK"
             and any(o["kind"] == "imm" for o in e["operands"])]
    lines = []
    for e in cands:
        reg = "null" if e["name"].startswith("s_waitcnt_") else "s0"
        lines.append(f"{e['name']} {reg}, -1")
    for e, r in zip(cands, _encode(lines), strict=True):
        if r.error is not None:
            e["imm_unsigned"] = True


def _probe_reg_only(entries: list[dict]) -> None:
    """SSRC slots that reject constants (s_movrels*, s_rfe_b64, ...)."""
    cands = []
    lines = []
    for e in entries:
        if e["enc"] not in ("SOP1", "SOP2", "SOPC"):
            continue
        for o in e["operands"]:
            if o["kind"] != "ssrc":
                continue
            vals = []
            for p in e["operands"]:
                if p is o:
                    vals.append("1")
                elif p["kind"] == "sendmsg_rtn":
                    vals.append("sendmsg(MSG_INTERRUPT)")
                else:
                    vals.append("s[2:3]" if p["bits"] == 64 else "s2")
            cands.append(o)
            lines.append(f"{e['name']} {', '.join(vals)}")
    for o, r in zip(cands, _encode(lines), strict=True):
        if r.error is not None:
            o["kind"] = "sreg"


def _smem_line(e: dict, offset: str, mods: str = "") -> str:
    """A sample line for an SMEM entry with the given offset operand text."""
    parts = []
    for o in e["operands"]:
        if o["name"] == "sdata":
            nd = o["bits"] // 32
            parts.append("7" if o["kind"] == "imm" else ("s0" if nd == 1 else f"s[0:{nd - 1}]"))
        elif o["name"] == "sbase":
            parts.append("s[4:7]" if o["bits"] == 128 else "s[4:5]")
        else:
            parts.append(offset)
    return f"{e['name']} {', '.join(parts)}{mods}".rstrip()


def probe_smem() -> list[dict]:
    """SMEM entries. Operand roles: sdata (written by loads, s_memtime-like
    single-operand ops; read by stores and atomics, which also write it back
    with glc: recorded as ``"atomic": true``), sbase, soffset. GFX10's
    s_dcache_discard* take only sbase and the offset."""
    words = []
    for op in range(256):
        w = SMEM | op << 18 | 20 << 6 | 2
        words.append((op, w.to_bytes(4, "little") + (12 << 25 | 0x1234).to_bytes(4, "little")))
    texts = _decode([w for _o, w in words])
    entries = []
    for (op, _w), text in zip(words, texts, strict=True):
        if text is None:
            continue
        _SAMPLES[("SMEM", op)] = text.strip()
        name, ops = _ops_text(text)
        operands: list[dict] = []
        extra: dict = {}
        if ops and not name.startswith("s_dcache_discard"):
            first = ops[0]
            if first == "20":
                operands.append({"name": "sdata", "kind": "imm", "bits": 7})
            else:
                _i, bits = _size(first)
                d = {"name": "sdata", "kind": "sgpr", "bits": bits, "type": f"b{bits}",
                     "is_def": True}
                if "_store" in name or "_atomic_" in name:
                    del d["is_def"]
                if "_atomic_" in name:
                    extra["atomic"] = True
                operands.append(d)
            ops = ops[1:]
        if ops:
            _i, bits = _size(ops[0])
            operands.append({"name": "sbase", "kind": "sgpr", "bits": bits})
            operands.append({"name": "soffset", "kind": "smem_offset", "bits": 32})
        entries.append({"name": name, "enc": "SMEM", "opcode": op, "operands": operands,
                        "modifiers": [], "implicit_reads": [], "implicit_writes": [],
                        "cls": "smem", **extra})
    lines = []
    for e in entries:
        lines += [_smem_line(e, "0x10", f" {m}") for m in ("glc", "dlc")]
    res = _encode(lines)
    for i, e in enumerate(entries):
        for k, m in enumerate(("glc", "dlc")):
            r = res[2 * i + k]
            if r.error is None:
                e["modifiers"].append(m)
    # negative immediate offsets (buffer loads want 20-bit unsigned ones)
    cands = [e for e in entries if any(o["name"] == "soffset" for o in e["operands"])]
    lines = [_smem_line(e, "-0x10") for e in cands]
    for e, r in zip(cands, _encode(lines), strict=True):
        if r.error is not None:
            e["offset_unsigned"] = True
    return entries


def probe_symbols(entries: list[dict]) -> dict:
    """Symbolic names llvm-mc prints: hwreg ids, message ids, s_version codes."""
    opc = {e["name"]: e["opcode"] for e in entries if e["enc"] in ("SOPK", "SOPP")}
    getreg, sendmsg, version = opc["s_getreg_b32"], opc["s_sendmsg"], opc["s_version"]
    hw = [(SOPK | getreg << 23 | 20 << 16 | 31 << 11 | i).to_bytes(4, "little") for i in range(64)]
    msg = [(SOPP | sendmsg << 16 | i).to_bytes(4, "little") for i in range(256)]
    ver = [(SOPK | version << 23 | i).to_bytes(4, "little") for i in range(256)]
    texts = _decode(hw + msg + ver)
    out: dict[str, dict[str, int]] = {"hwreg": {}, "sendmsg": {}, "version": {}}
    for i, t in enumerate(texts[:64]):
        m = re.search(r"hwreg\((HW_REG_\w+)\)", t or "")
        if m:
            out["hwreg"][m.group(1)] = i
    # the lowest value naming a message is its id (GFX10 ignores bit 7 when printing names)
    for i, t in enumerate(texts[64:320]):
        m = re.search(r"sendmsg\((MSG_\w+)([,)])", t or "")
        if m:
            # a message printed with an operation: the id is the low 4 bits (GFX10 layout,
            # id [3:0] op [6:4]); GFX11's MSG_SYSMSG is set from encodings below
            out["sendmsg"].setdefault(m.group(1), i & 0xF if m.group(2) == "," else i)
    # GFX10: MSG_GS / MSG_GS_DONE take a GS operation in bits [6:4]
    gs_done = out["sendmsg"].get("MSG_GS_DONE")
    if gs_done is not None:
        ops = [(SOPP | sendmsg << 16 | gs_done | k << 4).to_bytes(4, "little") for k in range(8)]
        for k, t in enumerate(_decode(ops)):
            m = re.search(r"sendmsg\(MSG_GS_DONE, (GS_OP_\w+)", t or "")
            if m:
                out.setdefault("gs_op", {})[m.group(1)] = k
    for i, t in enumerate(texts[320:]):
        m = re.search(r"s_version (UC_VERSION_\w+)$", t or "")
        if m:
            out["version"][m.group(1)] = i
    # flag bits of s_version (printed as NAME|FLAG)
    flags = [(SOPK | version << 23 | b).to_bytes(4, "little") for b in (0x2000, 0x4000, 0x8000)]
    for b, t in zip((0x2000, 0x4000, 0x8000), _decode(flags), strict=True):
        m = re.search(r"\|(UC_VERSION_\w+)$", t or "")
        if m:
            out.setdefault("version_flags", {})[m.group(1)] = b
    # MSG_SYSMSG needs an operation; llvm-mc prints it numerically (no op 0).
    res = _encode([f"s_sendmsg sendmsg(MSG_SYSMSG, {op})" for op in
                          ("SYSMSG_OP_ECC_ERR_INTERRUPT", "SYSMSG_OP_REG_RD",
                           "SYSMSG_OP_HOST_TRAP_ACK", "SYSMSG_OP_TTRACE_PC")])
    for r in res:
        if r.data is not None:
            out["sendmsg"]["MSG_SYSMSG"] = r.data[0] & 0xF
            op = r.line.split(", ")[1].rstrip(")")
            out.setdefault("sysmsg_op", {})[op] = r.data[0] >> 4
    return out


# Older (GFX10) spellings llvm-mc still accepts: candidate rewrites of each
# name, kept only when llvm-mc assembles the rewritten sample line (a decoded
# marker word) to the same bytes as the GFX11 name.
_SAMPLES: dict[tuple[str, int], str] = {}
_ALIAS_RULES: list[tuple[str, str]] = [
    ("_not1_", "n2_"), ("_not0_", "n1_"),
    ("_b32", "_dword"), ("_b64", "_dwordx2"), ("_b96", "_dwordx3"), ("_b128", "_dwordx4"),
    ("_b256", "_dwordx8"), ("_b512", "_dwordx16"),
    ("s_set_inst_prefetch_distance", "s_inst_prefetch"),
]


def _alias_candidates(name: str) -> set[str]:
    out = {name}
    for _ in range(3):
        for a, b in _ALIAS_RULES:
            out |= {n.replace(a, b) for n in out if a in n}
    return out - {name}


def add_aliases(entries: list[dict]) -> None:
    lines: list[str] = []
    keys: list[tuple[int, str]] = []
    for i, e in enumerate(entries):
        sample = _SAMPLES.get((e["enc"], e["opcode"]))
        if sample is None or not sample.startswith(e["name"]):
            continue
        rest = sample[len(e["name"]):]
        lines.append(sample)
        keys.append((i, ""))
        for c in sorted(_alias_candidates(e["name"])):
            lines.append(c + rest)
            keys.append((i, c))
    ref: dict[int, bytes | None] = {}
    for (i, c), r in zip(keys, _encode(lines), strict=True):
        if c == "":
            ref[i] = r.data
        elif r.data is not None and r.data == ref.get(i):
            entries[i].setdefault("aliases", []).append(c)


def main() -> None:
    global MCPU
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mcpu", default="gfx1100", help="llvm-mc -mcpu (default gfx1100)")
    ap.add_argument("--out", type=Path, help="output JSON (default: data/<gen>/scalar.json)")
    args = ap.parse_args()
    MCPU = args.mcpu
    out = args.out or DATA / GEN_DIR.get(MCPU, MCPU) / "scalar.json"
    entries = probe_sop() + probe_smem()
    for e in entries:
        e["mnemonics"] = [e["name"]]
    add_aliases(entries)
    order = {"SOP2": 0, "SOPK": 1, "SOP1": 2, "SOPC": 3, "SOPP": 4, "SMEM": 5}
    entries.sort(key=lambda e: (order[e["enc"]], e["opcode"]))
    blob = {"encoding": "SCALAR", "symbols": probe_symbols(entries), "opcodes": entries}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(blob, indent=1) + "\n")
    print(f"wrote {out} ({len(entries)} opcodes)")


if __name__ == "__main__":
    main()
