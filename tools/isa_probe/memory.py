"""Probe llvm-mc-19 for the GFX10/GFX11 memory encodings; write memory.json.

Covers DS (ISA guide 15.6), MUBUF / MTBUF (15.7), FLAT / GLOBAL / SCRATCH
(15.9), MIMG (15.8) and EXP (15.10). For every opcode number the script
builds words with marker register values in each field, decodes them all in
one llvm-mc batch and reads back the name, the operand order (which field
each printed operand comes from) and operand sizes (from printed register
ranges). Fields that must be zero when unused, fields llvm-mc ignores and
modifier bits it rejects are learned the same way.

Field positions that differ between generations (MUBUF/MTBUF flag and
opcode bits, FLAT segment/cache bits, the ``off`` SADDR code) come from the
`Layout` record of the probed generation.

Run: python tools/isa_probe/memory.py [--mcpu=gfx1100] [--out=PATH]
(default: gfx1100, writes radcc/isa/data/gfx11/memory.json; gfx1010 ->
data/gfx10, gfx1030 -> data/gfx10_3).
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from radcc.oracle import llvm_mc

DATA = Path(__file__).resolve().parents[2] / "radcc/isa/data"
OUT = DATA / "gfx11/memory.json"
GEN_DIRS = {"gfx1100": "gfx11", "gfx1010": "gfx10", "gfx1030": "gfx10_3"}


@dataclass(frozen=True)
class Layout:
    """Generation-specific bit positions, as (dword, bit) pairs (ISA guides:
    RDNA3 15.7/15.9, RDNA1/RDNA2 MUBUF/MTBUF/FLAT microcode formats)."""

    buf_flags: dict[str, tuple[int, int]]  # glc slc dlc tfe offen idxen
    mubuf_op: tuple[tuple[int, int, int], ...]  # (dword, bit, width) pieces, low bits first
    mtbuf_op: tuple[tuple[int, int, int], ...]
    flat_seg: int  # SEG bit position in dword 0
    flat_glc: int
    saddr_off: int  # SADDR code printed as ``off``
    sve: bool  # GFX11 scratch VADDR-enable bit [55]
    buf_lds: bool  # MUBUF LDS [16] selects a load-to-LDS form (no VDATA, ``lds``)
    flat_lds: int | None  # GLOBAL/SCRATCH LDS bit of dword 0 (GFX10 [13]: no VDST, ``lds``)
    exp_mods: tuple[str, ...]


GFX11 = Layout(
    buf_flags={"glc": (0, 14), "slc": (0, 12), "dlc": (0, 13), "tfe": (1, 21),
               "offen": (1, 22), "idxen": (1, 23)},
    mubuf_op=((0, 18, 8),), mtbuf_op=((0, 15, 4),), flat_seg=16, flat_glc=14,
    saddr_off=0x7C, sve=True, buf_lds=False, flat_lds=None, exp_mods=("done", "row_en"))
GFX10 = Layout(
    buf_flags={"glc": (0, 14), "slc": (1, 22), "dlc": (0, 15), "tfe": (1, 23),
               "offen": (0, 12), "idxen": (0, 13)},
    mubuf_op=((0, 18, 7), (0, 25, 1)), mtbuf_op=((0, 16, 3), (1, 21, 1)), flat_seg=14,
    flat_glc=16, saddr_off=0x7D, sve=False, buf_lds=True, flat_lds=13, exp_mods=("done", "compr", "vm"))
MCPU = "gfx1100"
L = GFX11


def set_mcpu(mcpu: str) -> None:
    """Probe `mcpu` (gfx1100, gfx1010 or gfx1030) from now on."""
    global MCPU, L, OUT
    MCPU = mcpu
    L = GFX11 if mcpu.startswith("gfx11") else GFX10
    OUT = DATA / GEN_DIRS[mcpu] / "memory.json"


def _place(pieces: tuple[tuple[int, int, int], ...], value: int) -> tuple[int, int]:
    """(dword0 bits, dword1 bits) of a value split over `pieces`."""
    w = [0, 0]
    for dw, bit, width in pieces:
        w[dw] |= (value & ((1 << width) - 1)) << bit
        value >>= width
    return w[0], w[1]


def _decode(blobs: list[bytes]) -> list[str | None]:
    return llvm_mc.decode(blobs, mcpu=MCPU)


def _encode(lines: list[str]) -> list[llvm_mc.McEncoding]:
    return llvm_mc.encode(lines, mcpu=MCPU)
_RANGE = re.compile(r"^v\[(\d+):(\d+)\]$")


def _b(*ws: int) -> bytes:
    return b"".join(w.to_bytes(4, "little") for w in ws)


def _split(text: str) -> tuple[str, list[str], list[str]]:
    """name, comma operands, trailing space-separated modifiers."""
    name, _, rest = text.partition(" ")
    ops: list[str] = []
    mods: list[str] = []
    parts = rest.split(", ") if rest else []
    for i, p in enumerate(parts):
        if i == len(parts) - 1 and " " in p:
            first, *more = p.split(" ")
            ops.append(first)
            mods.extend(more)
        else:
            ops.append(p)
    if len(ops) == 1 and ops[0] and ":" in ops[0] and not ops[0].startswith(("v", "s")):
        mods = ops + mods
        ops = []
    return name, ops, mods


def _vreg(tok: str) -> tuple[int, int] | None:
    m = _RANGE.match(tok)
    if m:
        return int(m.group(1)), int(m.group(2)) - int(m.group(1)) + 1
    if re.fullmatch(r"v\d+", tok):
        return int(tok[1:]), 1
    return None


def _cls_vmem(name: str) -> str:
    return "vmem"


_SAMPLES: dict[tuple[str, int], str] = {}

# old (GFX10) spellings llvm-mc still accepts: candidate rewrites, kept only
# when llvm-mc assembles the rewritten sample line to the same bytes
_ALIAS_RULES: list[tuple[str, str]] = [
    ("ds_store_", "ds_write_"), ("ds_load_", "ds_read_"), ("_2addr_stride64", "2st64"),
    ("_2addr", "2"), ("storexchg", "wrxchg"), ("cmpstore", "cmpst"),
    ("_b32", "_dword"), ("_b64", "_dwordx2"), ("_b96", "_dwordx3"), ("_b128", "_dwordx4"),
    ("_u8", "_ubyte"), ("_i8", "_sbyte"), ("_u16", "_ushort"), ("_i16", "_sshort"),
    ("_b8", "_byte"), ("_b16", "_short"), ("_d16_b16", "_short_d16"),
    ("_d16_hi_b16", "_short_d16_hi"), ("_d16_u8", "_ubyte_d16"), ("_d16_i8", "_sbyte_d16"),
    ("_d16_hi_u8", "_ubyte_d16_hi"), ("_d16_hi_i8", "_sbyte_d16_hi"),
    ("_d16_hi_b8", "_byte_d16_hi"),
    ("_b64", "_x2"), ("_u64", "_x2"), ("_i64", "_x2"), ("_u32", ""), ("_i32", ""), ("_b32", ""),
    ("min_i32", "smin"), ("max_i32", "smax"), ("min_u32", "umin"), ("max_u32", "umax"),
    ("min_i64", "smin_x2"), ("max_i64", "smax_x2"), ("min_u64", "umin_x2"),
    ("max_u64", "umax_x2"),
    ("cmpswap_f32", "fcmpswap"), ("min_f32", "fmin"), ("max_f32", "fmax"),
    ("cmpswap_f64", "fcmpswap_x2"), ("min_f64", "fmin_x2"), ("max_f64", "fmax_x2"),
    ("_addtid_b32", "_addtid_dword"),
]


def _alias_candidates(name: str) -> set[str]:
    out = {name}
    for _ in range(4):
        for a, b in _ALIAS_RULES:
            out |= {n.replace(a, b) for n in out if a in n}
    cleaned = {n.replace("__", "_").rstrip("_") for n in out}
    return cleaned - {name}


def add_aliases(entries: list[dict]) -> None:
    lines: list[str] = []
    keys: list[tuple[int, str]] = []
    for i, e in enumerate(entries):
        sample = _SAMPLES.get((e["enc"], e["opcode"]))
        if sample is None:
            continue
        rest = sample[len(e["name"]):]
        lines.append(sample)
        keys.append((i, ""))
        for c in sorted(_alias_candidates(e["name"])):
            lines.append(c + rest)
            keys.append((i, c))
    res = _encode(lines)
    ref: dict[int, bytes | None] = {}
    for (i, c), r in zip(keys, res, strict=True):
        if c == "":
            ref[i] = r.data
        elif r.data is not None and r.data == ref.get(i):
            entries[i]["mnemonics"].append(c)


# --- DS ------------------------------------------------------------------------
DS_FIELDS = {"addr": (32, 10), "data0": (40, 20), "data1": (48, 30), "vdst": (56, 40)}


def probe_ds() -> list[dict]:
    blobs: list[bytes] = []
    keys: list[tuple[int, int, tuple[str, ...]]] = []
    names = list(DS_FIELDS)
    for op in range(256):
        for gds in (0, 1, 2):  # 2: no gds, zero offsets
            for n in range(len(names) + 1):
                for sub in itertools.combinations(names, n):
                    w = (0b110110 << 26) | (op << 18) | ((gds & 1) << 17)
                    w |= 0 if gds == 2 else (1 << 8) | 2
                    hi = 0
                    for f in sub:
                        sh, v = DS_FIELDS[f]
                        hi |= v << (sh - 32)
                    blobs.append(_b(w, hi))
                    keys.append((op, gds, sub))
    res = _decode(blobs)
    by_op: dict[int, dict[tuple[int, tuple[str, ...]], str]] = {}
    for (op, gds, sub), t in zip(keys, res, strict=True):
        if t is not None:
            by_op.setdefault(op, {})[(gds, sub)] = t
    out = []
    for op, d in sorted(by_op.items()):
        best = max(d, key=lambda k: (len(k[1]), k[0] != 2, -k[0]))
        gds_used, sub = best
        text = d[best]
        name, ops, mods = _split(text)
        operands = []
        used: set[str] = set()
        for tok in ops:
            r = _vreg(tok)
            if r is None:
                raise SystemExit(f"DS {op}: unexpected operand {tok!r} in {text!r}")
            field = next(f for f, (_, v) in DS_FIELDS.items() if v == r[0])
            used.add(field)
            operands.append({"name": field, "kind": "vgpr", "bits": 32 * r[1],
                             "is_def": field == "vdst"})
        modifiers = []
        if any(m.startswith("offset0") or m.startswith("offset1") for m in mods):
            modifiers += ["offset0", "offset1"]
        elif any(m.startswith("offset:") for m in mods):
            modifiers.append("offset")
        gds_ok = {g for (g, s) in d if s == sub and g != 2}
        if gds_ok == {0, 1}:
            modifiers.append("gds")
        entry: dict = {"name": name, "enc": "DS", "opcode": op, "mnemonics": [name],
                       "operands": operands, "modifiers": modifiers, "cls": "ds"}
        _SAMPLES[("DS", op)] = text
        if gds_ok == {1}:
            entry["gds_required"] = True
        ignored = [f for f in DS_FIELDS if f not in used and (gds_used, tuple(
            x for x in names if x in used or x == f)) in d]
        if ignored:
            entry["ignored_fields"] = ignored
        if "m0" in name or name.startswith("ds_gws") or name in ("ds_append", "ds_consume"):
            entry["implicit_reads"] = ["m0"]
        out.append(entry)
    return out


# --- MUBUF / MTBUF ---------------------------------------------------------------
def _buf_words(enc: str, op: int, fmt: int = 1) -> tuple[int, int]:
    """(dword 0, dword 1 opcode bits) of a MUBUF/MTBUF word."""
    if enc == "MUBUF":
        w0, w1 = _place(L.mubuf_op, op)
        return (0b111000 << 26) | w0, w1
    w0, w1 = _place(L.mtbuf_op, op)
    return (0b111010 << 26) | w0 | (fmt << 19), w1


BUF_MODS = ("glc", "slc", "dlc", "tfe")


def _with(w0: int, w1: int, flag: str) -> tuple[int, int]:
    dw, bit = L.buf_flags[flag]
    return (w0 | (1 << bit), w1) if dw == 0 else (w0, w1 | (1 << bit))


def probe_buf(enc: str) -> list[dict]:
    nops = 256 if enc == "MUBUF" else 16
    blobs: list[bytes] = []
    keys: list[tuple[int, str]] = []
    hi = 10 | (20 << 8) | (2 << 16) | (3 << 24)
    for op in range(nops):
        w, wh = _buf_words(enc, op)
        w_off, hi_off = _with(w, hi | wh, "offen")
        blobs.append(_b(w_off, hi_off))
        keys.append((op, "base"))
        blobs.append(_b(w, wh))
        keys.append((op, "plain"))
        for m in BUF_MODS:
            blobs.append(_b(*_with(w_off, hi_off, m)))
            keys.append((op, m))
        if L.buf_lds and enc == "MUBUF":
            blobs.append(_b(w_off | (1 << 16), hi_off))
            keys.append((op, "lds"))
    res = _decode(blobs)
    got: dict[int, dict[str, str]] = {}
    for (op, k), t in zip(keys, res, strict=True):
        if t is not None:
            got.setdefault(op, {})[k] = t
    out = []
    for op, d in sorted(got.items()):
        if "base" not in d:
            if "plain" not in d:
                continue
            d["base"] = d["plain"]
        name, ops, mods = _split(d["base"])
        operands = []
        if ops:
            if len(ops) == 4:
                r = _vreg(ops[0])
                assert r is not None and r[0] == 20, d["base"]
                operands.append({"name": "vdata", "kind": "vgpr", "bits": 32 * r[1],
                                 "is_def": "load" in name})
            operands += [{"name": "vaddr", "kind": "vgpr", "bits": 32},
                         {"name": "srsrc", "kind": "sgpr", "bits": 128},
                         {"name": "soffset", "kind": "ssrc", "bits": 32, "type": "i32"}]
        modifiers = [m for m in BUF_MODS if m in d]
        lds = d.get("lds", "").endswith(" lds")
        if ops:
            modifiers = ["offen", "idxen", "offset", *modifiers]
        if enc == "MTBUF":
            modifiers.append("format")
        entry = {"name": name, "enc": enc, "opcode": op, "mnemonics": [name],
                 "operands": operands, "modifiers": modifiers, "cls": "vmem"}
        if lds:
            entry["lds_form"] = True  # "lds": load to LDS (M0 address), no VDATA
        out.append(entry)
        _SAMPLES[(enc, op)] = d["base"]
    return out


# --- FLAT / GLOBAL / SCRATCH --------------------------------------------------------
SEGS = {"FLAT": 0, "SCRATCH": 1, "GLOBAL": 2}


def probe_flat() -> list[dict]:
    blobs: list[bytes] = []
    keys: list[tuple[str, int, str]] = []
    for enc, seg in SEGS.items():
        for op in range(128):
            w = (0b110111 << 26) | (op << 18) | (seg << L.flat_seg)
            off = L.saddr_off
            variants = {
                "null": (off, 0, 0), "sgpr": (4, 0, 0), "glc": (off, 0, 1),
            }
            if L.sve:
                variants.update({"sve": (off, 1, 0), "sgpr_sve": (4, 1, 0)})
            for k, (saddr, sve, glc) in variants.items():
                blobs.append(_b(w | (glc << L.flat_glc), 10 | (20 << 8) | (saddr << 16)
                                | (sve << 23) | (40 << 24)))
                keys.append((enc, op, k))
            if L.flat_lds is not None and enc != "FLAT":
                blobs.append(_b(w | (1 << L.flat_lds), 10 | (20 << 8) | (off << 16)))
                keys.append((enc, op, "lds"))
    res = _decode(blobs)
    got: dict[tuple[str, int], dict[str, str]] = {}
    for (enc, op, k), t in zip(keys, res, strict=True):
        if t is not None:
            got.setdefault((enc, op), {})[k] = t
    out = []
    for (enc, op), d in sorted(got.items(), key=lambda x: (SEGS[x[0][0]], x[0][1])):
        base = d.get("null") or d.get("sgpr")
        if base is None:
            continue
        name, ops, _ = _split(base)
        operands = []
        vdst = vdata = None
        vaddr = False
        for tok in ops:
            r = _vreg(tok)
            if r is None:
                continue
            if r[0] == 40:
                vdst = r[1]
            elif r[0] == 20:
                vdata = r[1]
            elif r[0] == 10:
                vaddr = True
        rtn = None
        if "glc" in d:
            _, gops, _ = _split(d["glc"])
            if len(gops) > len(ops):
                r = _vreg(gops[0])
                assert r is not None and r[0] == 40
                rtn = r[1]
        if enc == "SCRATCH":
            vaddr = True  # printed as off without sve
        if enc == "GLOBAL" and "sgpr" in d:
            _, sops, _ = _split(d["sgpr"])
            vaddr = any(_vreg(t) is not None and _vreg(t)[0] == 10 for t in sops)  # type: ignore[index]
        if vdst:
            operands.append({"name": "vdst", "kind": "vgpr", "bits": 32 * vdst, "is_def": True})
        if vaddr:
            operands.append({"name": "vaddr", "kind": "vgpr", "bits": 64 if enc != "SCRATCH" else 32})
        if vdata:
            operands.append({"name": "vdata", "kind": "vgpr", "bits": 32 * vdata})
        if enc != "FLAT":
            operands.append({"name": "saddr", "kind": "sgpr", "bits": 64 if enc == "GLOBAL" else 32})
        entry: dict = {"name": name, "enc": enc, "opcode": op, "mnemonics": [name],
                       "operands": operands, "modifiers": ["offset", "glc", "slc", "dlc"],
                       "cls": "flat" if enc == "FLAT" else "vmem"}
        if rtn:
            entry["rtn_bits"] = 32 * rtn
        if d.get("lds", "").endswith(" lds"):
            entry["lds_form"] = True  # "lds": load to LDS (M0 address), no VDST
        out.append(entry)
        _SAMPLES[(enc, op)] = base
    return out


def probe_exp() -> list[dict]:
    """The one EXP entry; its modifiers checked by assembling each with llvm-mc."""
    mods = [m for m, r in zip(L.exp_mods, _encode(
        [f"exp mrt0 v1, v1, v2, v2 {m}" for m in L.exp_mods]), strict=True) if r.data]
    if mods != list(L.exp_mods):
        raise SystemExit(f"EXP modifiers {L.exp_mods} not all accepted by {MCPU}: {mods}")
    return [{"name": "exp", "enc": "EXP", "opcode": 0, "mnemonics": ["exp"],
             "operands": [{"name": "target", "kind": "exp_target"},
                          {"name": "vsrc0", "kind": "vgpr"}, {"name": "vsrc1", "kind": "vgpr"},
                          {"name": "vsrc2", "kind": "vgpr"}, {"name": "vsrc3", "kind": "vgpr"}],
             "modifiers": list(mods), "cls": "exp", "implicit_reads": ["exec"]}]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mcpu", default="gfx1100", choices=sorted(GEN_DIRS))
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    set_mcpu(args.mcpu)
    out = args.out or OUT
    llvm_mc.require()
    entries: list[dict] = []
    entries += probe_ds()
    entries += probe_buf("MUBUF")
    entries += probe_buf("MTBUF")
    entries += probe_flat()
    try:
        from tools.isa_probe import memory_mimg  # type: ignore[import-not-found]

        entries += memory_mimg.probe_mimg()
    except ImportError:
        pass
    add_aliases(entries)
    entries += probe_exp()
    blob = {"encoding": "MEMORY", "buf_formats": probe_buf_formats(), "opcodes": entries}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(blob, indent=1) + "\n")
    print(f"wrote {len(entries)} entries to {out}", file=sys.stderr)


def probe_buf_formats() -> dict[str, int]:
    """Symbolic MTBUF format names (format:[BUF_FMT_...]) by value."""
    blobs = [_b(w0, w1 | 10 | (20 << 8) | (2 << 16) | (3 << 24))
             for f in range(128) for w0, w1 in (_buf_words("MTBUF", 0, f),)]
    names: dict[str, int] = {}
    for f, t in enumerate(_decode(blobs)):
        if t and "format:[" in t:
            names[t.split("format:[")[1].split("]")[0]] = f
    # the default format (1) is never printed; learn its name by assembling
    for cand in ("BUF_FMT_8_UNORM",):
        r = _encode([f"tbuffer_load_format_x v1, off, s[0:3], 0 format:[{cand}]"])
        if r[0].data is not None and ((r[0].data[2] | r[0].data[3] << 8) >> 3) & 0x7F == 1 \
                and cand not in names:
            names[cand] = 1
    return names


if __name__ == "__main__":
    main()
