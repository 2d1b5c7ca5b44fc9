"""Probe llvm-mc-19 for the GFX10/GFX11 MIMG encoding (ISA guide 15.8); write mimg.json.

MIMG: NSA [0], DIM [4:2], UNRM [7], DMASK [11:8], SLC [12], DLC [13],
GLC [14], R128 [15], A16 [16], D16 [17], OP [25:18], ENCODING 0b111100;
VADDR [39:32], VDATA [47:40], SRSRC [52:48], TFE [53], LWE [54],
SSAMP [62:58]; with NSA a third dword holds ADDR1..ADDR4 (one byte each).

llvm-mc's decoder sizes VDATA from dmask/d16/tfe and VADDR from dim/a16 and
the opcode, but only when a variant with those sizes exists; otherwise it
prints the opcode's default variant. The probe records, per opcode:

- ``vdata_sizes`` (variants) and ``default`` (vdata size, vaddr size, NSA
  layout) printed when no variant fits;
- ``gather4``: vdata is 4 dwords whatever dmask says;
- ``addr``: the VADDR size printed for each ``dim*2 + a16`` (None: no variant);
- ``nsa``: the NSA address layout (VGPRs per list element) for each
  ``dim*2 + a16`` (None: no variant);
- ``flags``: modifier bits the opcode accepts; ``fixed``: bits that must
  have one value (BVH); ``dmask_ok``/``dmask_error`` and
  ``dim_ok``/``dim_error`` from assembling probe lines;
- ``nsa_sep``: the separator llvm-mc prints after the mnemonic of NSA forms.

GFX10/10.3 (RDNA1/2 MIMG): OPM [0] (opcode bit 7), NSA [2:1] (number of
NSA address dwords), DIM [5:3], DLC [7], DMASK [11:8], UNORM [12], GLC
[13], R128 [15], TFE [16], LWE [17], OP [24:18], SLC [25]; VADDR, VDATA,
SRSRC [52:48], SSAMP [57:53], A16 [62], D16 [63]. The probe tries 1-3 NSA
dwords and keeps the count llvm-mc accepts.

Run: python tools/isa_probe/memory_mimg.py [--mcpu=gfx1100] [--out=PATH]
(default gfx1100 -> radcc/isa/data/gfx11/mimg.json; gfx1010 -> data/gfx10,
gfx1030 -> data/gfx10_3)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from radcc.oracle import llvm_mc

DATA = Path(__file__).resolve().parents[2] / "radcc/isa/data"
OUT = DATA / "gfx11/mimg.json"
GEN_DIRS = {"gfx1100": "gfx11", "gfx1010": "gfx10", "gfx1030": "gfx10_3"}

FLAG_BITS_GFX11 = {"unorm": (0, 7), "glc": (0, 14), "slc": (0, 12), "dlc": (0, 13),
                   "r128": (0, 15), "a16": (0, 16), "d16": (0, 17), "tfe": (1, 21),
                   "lwe": (1, 22)}
FLAG_BITS_GFX10 = {"unorm": (0, 12), "glc": (0, 13), "slc": (0, 25), "dlc": (0, 7),
                   "r128": (0, 15), "a16": (1, 30), "d16": (1, 31), "tfe": (0, 16),
                   "lwe": (0, 17)}
FLAG_BITS = FLAG_BITS_GFX11
MCPU = "gfx1100"
GFX10 = False  # the GFX10/10.3 field layout (module docstring)
DIMS = ["1D", "2D", "3D", "CUBE", "1D_ARRAY", "2D_ARRAY", "2D_MSAA", "2D_MSAA_ARRAY"]
VADDR, VDATA, SRSRC, SSAMP = 10, 20, 2, 3
NSA_REGS = (30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140)


def set_mcpu(mcpu: str) -> None:
    """Probe `mcpu` (gfx1100, gfx1010 or gfx1030) from now on."""
    global MCPU, GFX10, FLAG_BITS, OUT
    MCPU = mcpu
    GFX10 = not mcpu.startswith("gfx11")
    FLAG_BITS = FLAG_BITS_GFX10 if GFX10 else FLAG_BITS_GFX11
    OUT = DATA / GEN_DIRS[mcpu] / "mimg.json"


def _nsa_blob(b: bytes, k: int) -> bytes:
    """A GFX10 NSA word `b` rewritten with `k` NSA address dwords."""
    w0 = (int.from_bytes(b[:4], "little") & ~6) | (k << 1)
    regs = b"".join(sum(r << (8 * i) for i, r in enumerate(NSA_REGS[4 * j:4 * j + 4]))
                    .to_bytes(4, "little") for j in range(k))
    return w0.to_bytes(4, "little") + b[4:8] + regs


def _decode(blobs: list[bytes]) -> list[str | None]:
    """llvm-mc's text of each word; a GFX10 NSA word is tried with 1-3 NSA
    dwords (llvm-mc accepts only the count the address size needs)."""
    if not GFX10:
        return llvm_mc.decode(blobs, mcpu=MCPU)
    flat: list[bytes] = []
    spans: list[tuple[int, int]] = []
    for b in blobs:
        start = len(flat)
        if b[0] & 6:
            flat += [_nsa_blob(b, k) for k in (1, 2, 3)]
        else:
            flat.append(b)
        spans.append((start, len(flat)))
    res = llvm_mc.decode(flat, mcpu=MCPU)
    out: list[str | None] = []
    for a, z in spans:
        if z - a == 1:
            out.append(res[a])
            continue
        # with too few NSA dwords llvm-mc prints a shorter (fallback) list: keep
        # the longest list whose length needs exactly the dwords given
        best: str | None = None
        for k, t in enumerate(res[a:z], 1):
            if t is not None and "[" in t:
                n = len(parse(t)[2])
                if (n + 2) // 4 == k:
                    best = t
        out.append(best)
    return out


def _encode(lines: list[str]) -> list[llvm_mc.McEncoding]:
    return llvm_mc.encode(lines, mcpu=MCPU)
SIZE_COMBOS = [(1, 0, 0), (3, 0, 0), (15, 0, 0), (1, 0, 1), (3, 1, 0), (15, 0, 1)]
_REG = re.compile(r"v\[(\d+):(\d+)\]|v(\d+)")


def word(op: int, *, dim: int = 0, dmask: int = 1, nsa: int = 0, ssamp: int = 0,
         vdata: int = VDATA, vaddr: int = VADDR, flags: dict[str, int] | None = None) -> bytes:
    if GFX10:
        w = [(op >> 7) | (nsa << 1) | dim << 3 | dmask << 8 | (op & 0x7F) << 18 | 0x3C << 26,
             vaddr | vdata << 8 | SRSRC << 16 | ssamp << 21]
    else:
        w = [nsa | dim << 2 | dmask << 8 | op << 18 | 0x3C << 26,
             vaddr | vdata << 8 | SRSRC << 16 | ssamp << 26]
    for f, v in (flags or {}).items():
        dw, bit = FLAG_BITS[f]
        w[dw] |= v << bit
    if nsa:
        w.append(sum(r << (8 * i) for i, r in enumerate(NSA_REGS[:4])))
    return b"".join(x.to_bytes(4, "little") for x in w)


def _regs(text: str) -> list[tuple[int, int]]:
    out = []
    for m in _REG.finditer(text):
        if m.group(3) is not None:
            out.append((int(m.group(3)), 1))
        else:
            out.append((int(m.group(1)), int(m.group(2)) - int(m.group(1)) + 1))
    return out


def parse(text: str) -> tuple[str, int, list[int], str]:
    """name, vdata size, vaddr layout (sizes), separator after the name."""
    name = text.split(" ", 1)[0]
    sep = " " * (len(text) - len(name) - len(text[len(name):].lstrip(" ")))
    rest = text[len(name):].strip()
    vd, _, tail = rest.partition(", ")
    vdsize = _regs(vd)[0][1]
    if tail.startswith("["):
        depth, end = 0, 0
        for i, c in enumerate(tail):
            depth += {"[": 1, "]": -1}.get(c, 0)
            if depth == 0:
                end = i
                break
        layout = [r[1] for r in _regs(tail[1:end])]
    else:
        layout = [_regs(tail.split(",", 1)[0])[0][1]]
    return name, vdsize, layout, sep


def dst_rule(dmask: int, d16: int, tfe: int, gather4: bool) -> int:
    n = 4 if gather4 else max(bin(dmask).count("1"), 1)
    if d16:
        n = (n + 1) // 2
    return n + tfe


def probe_names() -> dict[int, dict]:
    blobs, keys = [], []
    for op in range(256):
        for kind in ("plain", "samp", "bvh", "bvh_nsa"):
            if kind == "plain":
                blobs.append(word(op, dim=1))
            elif kind == "samp":
                blobs.append(word(op, dim=1, ssamp=SSAMP))
            else:
                blobs.append(word(op, dmask=15, nsa=int(kind == "bvh_nsa"),
                                  flags={"unorm": 1, "r128": 1}))
            keys.append((op, kind))
    got: dict[int, dict] = {}
    for (op, kind), t in zip(keys, _decode(blobs), strict=True):
        if t is not None:
            got.setdefault(op, {})[kind] = t
    return got


def sweep(ops: dict[int, dict]) -> dict[int, dict]:
    """Decode the size-determining field combinations of every opcode."""
    blobs, keys = [], []

    def add(key: tuple, b: bytes) -> None:
        keys.append(key)
        blobs.append(b)

    for op, d in ops.items():
        ss = SSAMP if d["sampler"] else 0
        if d["bvh"]:
            for a16 in (0, 1):
                for nsa in (0, 1):
                    add((op, "bvh", a16, nsa), word(op, dmask=15, nsa=nsa, flags={
                        "unorm": 1, "r128": 1, "a16": a16}))
            for f in FLAG_BITS:
                add((op, "flag", f), word(op, dmask=15, flags={"unorm": 1, "r128": 1, f: 1}
                                          if f not in ("unorm", "r128") else {
                                              "unorm": int(f != "unorm"), "r128": int(f != "r128")}))
            for dim in range(1, 8):
                add((op, "fixdim", dim), word(op, dim=dim, dmask=15, flags={"unorm": 1, "r128": 1}))
            add((op, "fixdmask"), word(op, dmask=1, flags={"unorm": 1, "r128": 1}))
            continue
        for dmask in range(16):
            for d16 in (0, 1):
                for tfe in (0, 1):
                    add((op, "dst", dmask, d16, tfe),
                        word(op, dim=2, dmask=dmask, ssamp=ss, flags={"d16": d16, "tfe": tfe}))
        for dmask, d16, tfe in SIZE_COMBOS:
            for dim in range(8):
                for a16 in (0, 1):
                    for nsa in (0, 1):
                        add((op, "addr", (dmask, d16, tfe), dim, a16, nsa),
                            word(op, dim=dim, dmask=dmask, nsa=nsa, ssamp=ss,
                                 flags={"a16": a16, "d16": d16, "tfe": tfe}))
        for nsa in (0, 1):
            add((op, "default", nsa), word(op, dmask=15, nsa=nsa, ssamp=ss, vdata=252,
                                          flags={"tfe": 1}))
        for f in FLAG_BITS:
            add((op, "flag", f), word(op, dim=1, dmask=1, ssamp=ss, flags={f: 1}))
    res: dict[int, dict] = {}
    for k, t in zip(keys, _decode(blobs), strict=True):
        res.setdefault(k[0], {})[k[1:]] = t
    return res


def build(op: int, d: dict, r: dict) -> dict:
    name = d["name"]
    entry: dict = {"name": name, "enc": "MIMG", "opcode": op, "mnemonics": [name], "cls": "vmem"}
    info: dict = {}
    if d["bvh"]:
        bvh = {}
        for a16 in (0, 1):
            for nsa in (0, 1):
                t = r[("bvh", a16, nsa)]
                assert t is not None, (name, a16, nsa)
                _, vds, layout, sep = parse(t)
                bvh[f"{'nsa' if nsa else 'vaddr'}{a16}"] = layout
                if nsa:
                    info["nsa_sep"] = sep
        info.update(bvh=bvh, vdata_sizes=[vds], fixed={"unorm": 1, "r128": 1, "dmask": 15,
                                                          "dim": 0})
        assert all(r[("fixdim", dim)] is None for dim in range(1, 8))
        assert r[("fixdmask",)] is None
        flags = [f for f in FLAG_BITS if f not in ("unorm", "r128") and r[("flag", f)] is not None]
        entry["operands"] = [
            {"name": "vdata", "kind": "vgpr", "bits": 32 * vds, "is_def": True},
            {"name": "vaddr", "kind": "vgpr", "bits": 32 * bvh["vaddr0"][0]},
            {"name": "srsrc", "kind": "sgpr", "bits": 128}]
        entry["modifiers"] = flags
        entry["mimg"] = info
        return entry
    # gather4: the printed size never follows popcount(dmask)
    sizes = {m: parse(r[("dst", m, 0, 0)])[1] for m in range(16)}  # type: ignore[arg-type]
    gather4 = len(set(sizes.values())) == 1 and sizes[1] == 4
    t_def = r[("default", 0)]
    assert t_def is not None, name
    _, vdef, adef, _ = parse(t_def)
    # printed vdata size per computed size; the default variant (vaddr size
    # too) shows where no variant exists (dim 3D needs another vaddr size)
    vmap: dict[int, int] = {}
    for dmask in range(16):
        for d16 in (0, 1):
            for tfe in (0, 1):
                t = r[("dst", dmask, d16, tfe)]
                if t is None:  # d16 not accepted by this opcode
                    continue
                _, vds, layout, _ = parse(t)
                dst = dst_rule(dmask, d16, tfe, gather4)
                if vds == dst or layout[0] != adef[0]:
                    assert vmap.get(dst, vds) == vds, (name, dst)
                    vmap[dst] = vds
    vsizes = set(vmap.values())
    t_ndef = r[("default", 1)]
    assert t_ndef is not None, name
    _, vdef2, ndef, sep = parse(t_ndef)
    # addresses: a fallback shows as a vdata size other than the rule's
    addr: list[int | None] = []
    nsa: list[list[int] | None] = []
    masks = [c for c in SIZE_COMBOS if dst_rule(*c, gather4) in vmap]
    for dim in range(8):
        for a16 in (0, 1):
            for is_nsa, out in ((0, addr), (1, nsa)):
                val: object = None
                for m in masks:
                    t = r[("addr", m, dim, a16, is_nsa)]
                    if t is None:  # d16 not accepted
                        continue
                    _, vds, layout, _ = parse(t)
                    if vds != vmap[dst_rule(*m, gather4)]:
                        val = None
                        break
                    val = layout if is_nsa else layout[0]
                out.append(val)  # type: ignore[arg-type]
    flags = [f for f in FLAG_BITS if r[("flag", f)] is not None]
    is_def = "store" not in name
    info.update(gather4=gather4, vdata_sizes=sorted(vsizes),
                vdata_map={str(k): v for k, v in sorted(vmap.items())},
                vaddr_sizes=sorted({a for a in addr if a is not None} | {adef[0]}),
                default={"vdata": vdef, "vaddr": adef[0], "nsa": ndef, "nsa_vdata": vdef2},
                addr=addr, nsa=nsa, nsa_sep=sep)
    entry["operands"] = [
        {"name": "vdata", "kind": "vgpr", "bits": 32 * min(vsizes), "is_def": is_def},
        {"name": "vaddr", "kind": "vgpr", "bits": 32},
        {"name": "srsrc", "kind": "sgpr", "bits": 256}]
    if d["sampler"]:
        entry["operands"].append({"name": "ssamp", "kind": "sgpr", "bits": 128})
    if "atomic" in name:
        info["atomic"] = True
        entry["operands"].insert(1, {"name": "vdata_in", "kind": "vgpr", "bits": 32 * min(vsizes)})
    entry["modifiers"] = ["dmask", "dim", *flags]
    entry["mimg"] = info
    return entry


def _asm_pass(entries: list[dict], kind: str) -> None:
    lines, keys = [], []
    for e in entries:
        m = e["mimg"]
        if "bvh" in m:
            continue
        samp = ", s[0:3]" if any(o["name"] == "ssamp" for o in e["operands"]) else ""
        mask = next(x for x in (1, 3, 15) if str(dst_rule(x, 0, 0, m["gather4"])) in m["vdata_map"]
                    and dst_rule(x, 0, 0, m["gather4"]) in m["vdata_sizes"])
        dims = [d for d in range(8) if m["addr"][d * 2] is not None]
        if kind == "dim":
            cases = [(mask, d, 0) for d in dims]
        else:
            dim = (m.get("dim_ok") or dims)[0]
            cases = [(x, dim, tfe) for x in range(16) for tfe in (0, 1)
                     if m["vdata_map"].get(str(dst_rule(x, 0, tfe, m["gather4"])))
                     == dst_rule(x, 0, tfe, m["gather4"])]
        for dmask, dim, tfe in cases:
            n = dst_rule(dmask, 0, tfe, m["gather4"])
            lines.append(f"{e['name']} {vr(0, n)}, {vr(0, m['addr'][dim * 2])}, s[0:7]{samp} "
                         f"dmask:0x{dmask:x} dim:{DIMS[dim]}{' tfe' if tfe else ''}")
            keys.append((e, dmask if kind == "dmask" else dim))
    ok: dict[str, list[int]] = {}
    errs: dict[str, set[str]] = {}
    for (e, val), res in zip(keys, _encode(lines), strict=True):
        if res.data is not None:
            ok.setdefault(e["name"], []).append(val)
        else:
            errs.setdefault(e["name"], set()).add(str(res.error))
    for e in entries:
        if e["name"] not in errs:
            continue
        m = e["mimg"]
        good = ok.get(e["name"], [])
        if kind == "dim":
            m["dim_ok"] = good
        else:  # untested values (no vdata variant) are left to the size check
            m["dmask_bad"] = [x for x in range(16) if x not in good and any(
                k[0] is e and k[1] == x for k in keys)]
        msgs = errs[e["name"]]
        assert len(msgs) == 1, (e["name"], kind, msgs)
        m[f"{kind}_error"] = msgs.pop()


def _atomic_data_pass(entries: list[dict]) -> None:
    """Atomics: the VDATA sizes and dmask values llvm-mc's assembler takes.

    Its atomic variants have data registers the decoder never prints for a
    2D address (e.g. 3 VGPRs for dmask 0x3 + tfe), so the decoded sizes
    miss some; every (size, dmask, tfe) with size = popcount(dmask) + tfe is
    assembled. ``asm_vdata_sizes`` (only when it differs from
    ``vdata_sizes``) and ``dmask_bad`` (dmask values never accepted) result."""
    lines, keys = [], []
    for e in entries:
        m = e["mimg"]
        if not m.get("atomic") or "bvh" in m:
            continue
        dim = (m.get("dim_ok") or [d for d in range(8) if m["addr"][d * 2] is not None])[0]
        for dmask in range(16):
            for tfe in (0, 1):
                n = dst_rule(dmask, 0, tfe, False)
                lines.append(f"{e['name']} {vr(0, n)}, {vr(0, m['addr'][dim * 2])}, s[0:7] "
                             f"dmask:0x{dmask:x} dim:{DIMS[dim]}{' tfe' if tfe else ''}")
                keys.append((e, n, dmask))
    ok: dict[str, set[tuple[int, int]]] = {}
    for (e, n, dmask), res in zip(keys, _encode(lines), strict=True):
        ok.setdefault(e["name"], set())
        if res.data is not None:
            ok[e["name"]].add((n, dmask))
    for e in entries:
        if e["name"] not in ok:
            continue
        m = e["mimg"]
        sizes = sorted({n for n, _ in ok[e["name"]]})
        if sizes != m["vdata_sizes"]:
            m["asm_vdata_sizes"] = sizes
        good = {d for _, d in ok[e["name"]]}
        m["dmask_bad"] = [x for x in range(16) if x not in good]


def asm_checks(entries: list[dict]) -> None:
    """Dims and dmask values llvm-mc's assembler accepts, with its messages."""
    _asm_pass(entries, "dim")
    _asm_pass(entries, "dmask")
    _atomic_data_pass(entries)


def vr(i: int, n: int) -> str:
    return f"v{i}" if n == 1 else f"v[{i}:{i + n - 1}]"


def probe() -> list[dict]:
    names = probe_names()
    ops: dict[int, dict] = {}
    for op, d in sorted(names.items()):
        if "plain" in d or "samp" in d:
            t = d.get("plain") or d["samp"]
            sampler = "samp" in d and f"s[{SSAMP * 4}:{SSAMP * 4 + 3}]" in d["samp"]
            ops[op] = {"name": t.split()[0], "sampler": sampler, "bvh": False}
        else:
            t = d.get("bvh") or d["bvh_nsa"]
            ops[op] = {"name": t.split()[0], "sampler": False, "bvh": True}
    res = sweep(ops)
    entries = [build(op, ops[op], res[op]) for op in sorted(ops)]
    asm_checks(entries)
    return entries


def probe_mimg() -> list[dict]:
    """Hook of tools/isa_probe/memory.py: MIMG entries live in mimg.json
    (written by this script), so the memory table gets none."""
    return []


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mcpu", default="gfx1100", choices=sorted(GEN_DIRS))
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    set_mcpu(args.mcpu)
    out = args.out or OUT
    llvm_mc.require()
    entries = probe()
    blob = {"encoding": "MIMG", "dims": DIMS, "opcodes": entries}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(blob, indent=1) + "\n")
    print(f"wrote {len(entries)} entries to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
