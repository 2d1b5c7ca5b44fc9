"""Probe llvm-mc-19 for the GFX11 VOP3 / VOP3SD opcode space (ISA guide 15.3.4, 15.3.5).

For each of the 1024 VOP3 opcode numbers (dword 0 = 0b110101 << 26 | op << 16)
it decodes words whose src0..src2 fields hold VGPR markers, SGPR markers or 0,
in wave32 and wave64, and reads back the name, the number of sources, each
slot's size and register files, the scalar destination (VOP3SD, VOPC, readlane)
and lane-mask operands (sizes that follow the wave size). Then it assembles
probe lines to learn, per source slot, the value type (float modifiers
accepted, 16-bit literal behaviour, 64-bit literal rules) and, per opcode,
the accepted modifiers (clamp, omod, op_sel). Output:
``radcc/isa/data/gfx11/vop3.json``.

Run: ``python tools/isa_probe/vop3.py``
"""

from __future__ import annotations

import itertools
import json
import re
import sys

import valu_gen as G  # noqa: E402
from valu_gen import dec as _dec  # noqa: E402
from valu_gen import enc as _enc

from radcc.oracle import llvm_mc

ENC = 0b110101 << 26
VMARK = (257, 258, 259)  # v1 v2 v3
SMARK = (4, 8, 12)  # s4 s8 s12 (aligned for any tuple size)
TRANS = re.compile(r"^v_(rcp|rsq|sqrt|log|exp|sin|cos)_")


def _blob(op: int, srcs: tuple[int, int, int], vdst: int = 5, hi: int = 0) -> bytes:
    w0 = ENC | op << 16 | vdst | hi
    w1 = srcs[0] | srcs[1] << 9 | srcs[2] << 18
    return w0.to_bytes(4, "little") + w1.to_bytes(4, "little")


def _split(text: str) -> tuple[str, list[str]]:
    name, _, rest = text.partition(" ")
    return name, [x.strip() for x in rest.split(", ")] if rest else []


def _size(tok: str) -> int:
    m = re.search(r"\[(\d+):(\d+)\]", tok)
    return int(m.group(2)) - int(m.group(1)) + 1 if m else 1


def _file(tok: str) -> str:
    t = tok.lstrip("-|")
    if t.startswith("v"):
        return "v"
    if t.startswith(("s", "vcc", "ttmp")):
        return "s"
    return "?"


def probe_decode() -> dict[int, dict]:
    """Decode every opcode with each src pattern; keep the valid patterns."""
    pats = list(itertools.product((None, "v", "s"), repeat=3))
    keys, blobs = [], []
    for op in range(1024):
        for p in pats:
            srcs = tuple(
                0 if k is None else (VMARK[i] if k == "v" else SMARK[i]) for i, k in enumerate(p)
            )
            keys.append((op, p))
            blobs.append(_blob(op, srcs))  # type: ignore[arg-type]
    for op in range(1024):  # operand-less ops (v_nop, v_pipeflush) need VDST = 0
        keys.append((op, (None, None, None)))
        blobs.append(_blob(op, (0, 0, 0), vdst=0))
    r32 = _dec(blobs)
    r64 = _dec(blobs, wave64=True)
    ops: dict[int, dict] = {}
    for (op, p), t32, t64 in zip(keys, r32, r64, strict=True):
        if t32 is None:
            continue
        d = ops.setdefault(op, {"pats": {}, "w64": {}})
        if p in d["pats"] and d["pats"][p] != t32:
            continue
        d["pats"][p] = t32
        d["w64"][p] = t64
    return ops


def analyse(op: int, d: dict) -> dict:
    pats: dict = d["pats"]
    name, _ = _split(next(iter(pats.values())))
    # number of sources: the largest count of non-None pattern entries accepted
    nsrc = 0
    for p in pats:
        n = sum(1 for k in p if k is not None)
        if p[:n] == tuple(k for k in p if k is not None):
            nsrc = max(nsrc, n)
    # allowed files per slot
    files = [set() for _ in range(nsrc)]
    for p in pats:
        for i in range(nsrc):
            if p[i] is not None:
                files[i].add(p[i])
    full = tuple(("v" if "v" in files[i] else "s") for i in range(nsrc)) + (None,) * (3 - nsrc)
    text = pats.get(full) or next(iter(pats.values()))
    t64 = d["w64"].get(full)
    _, toks = _split(text)
    _, toks64 = _split(t64) if t64 else (None, toks)
    ndef = len(toks) - nsrc
    return {"name": name, "opcode": op, "nsrc": nsrc, "files": files, "toks": toks,
            "toks64": toks64, "ndef": ndef, "text": text}


def build(ops: dict[int, dict]) -> list[dict]:
    infos = [analyse(op, d) for op, d in sorted(ops.items())]
    # assembly probes -----------------------------------------------------------
    lines: list[str] = []
    where: list[tuple[int, str, int]] = []

    def add(i: int, kind: str, slot: int, line: str) -> None:
        where.append((i, kind, slot))
        lines.append(line)

    for i, a in enumerate(infos):
        asm = a["name"]
        toks = list(a["toks"])
        base = f"{asm} " + ", ".join(toks) if toks else asm
        add(i, "base", -1, base)
        for s in range(a["nsrc"]):
            k = a["ndef"] + s
            if "v" not in a["files"][s]:
                vt = toks[k]
            else:
                vt = toks[k]

            def sub(x: str, k: int = k, toks: list[str] = toks, asm: str = asm) -> str:
                t = list(toks)
                t[k] = x
                return f"{asm} " + ", ".join(t)

            add(i, "neg", s, sub("-" + vt))
            add(i, "abs", s, sub("|" + vt + "|"))
            add(i, "sext", s, sub("sext(" + vt + ")"))
            add(i, "f1.5", s, sub("1.5"))
            add(i, "i0x12345", s, sub("0x12345"))
            add(i, "i0x1234", s, sub("0x1234"))
            add(i, "inl1", s, sub("1"))
            add(i, "fm0.5", s, sub("0xbfe00000"))
        if a["nsrc"] >= 2 and all("s" in a["files"][j] for j in (0, 1)):
            t = list(toks)
            t[a["ndef"]] = "s1" if _size(toks[a["ndef"]]) == 1 else "s[0:1]"
            t[a["ndef"] + 1] = "s2" if _size(toks[a["ndef"] + 1]) == 1 else "s[2:3]"
            add(i, "bus2", -1, f"{asm} " + ", ".join(t))
        add(i, "clamp", -1, base + " clamp")
        add(i, "omod", -1, base + " mul:2")
        for n in range(1, 5):
            add(i, f"op_sel{n}", -1, base + " op_sel:[" + ",".join(["0"] * (n - 1) + ["1"]) + "]")
            add(i, f"op_sel0_{n}", -1, base + " op_sel:[" + ",".join(["1"] + ["0"] * (n - 1)) + "]")
    res = _enc(lines)
    got: dict[tuple[int, str, int], llvm_mc.McEncoding] = {}
    for w, r in zip(where, res, strict=True):
        got[w] = r
    out = []
    for i, a in enumerate(infos):
        out.append(entry(i, a, got))
    decode_masks(infos, ops, out)
    probe_dpp(infos, ops, out)
    probe_interp(out)
    return out


_INTERP_TOK = re.compile(r"^(?:v(\d+)|attr(\d+)\.([xyzw])|invalid_param_(\d+))$")


def probe_interp(out: list[dict]) -> None:
    """GFX10 VOP3 forms of the interpolation instructions (v_interp_*_e64,
    v_interp_p1ll_f16, ...): the src0 field holds the attribute (printed
    ``attrN.c``), the src1 field the VGPR (or, for v_interp_mov, the parameter
    p10/p20/p0) and src2 a VGPR; the printed order is vdst, src1, attr[, src2].
    Rebuild those operand lists from a decode with attr1 / v2 / v3 and learn
    whether the ``high`` modifier (upper f16 half) is accepted."""
    idx = [i for i, e in enumerate(out) if e["name"].startswith("v_interp_")]
    if not idx:
        return
    blobs = []
    for i in idx:
        for s2 in (259, 0):
            blobs.append(_blob(out[i]["opcode"], (1, 258, s2)))
            blobs.append(_blob(out[i]["opcode"], (1, 2, s2)))
    texts = _dec(blobs)
    lines = []
    for k, i in enumerate(idx):
        e = out[i]
        t = next((x for x in texts[4 * k:4 * k + 4] if x is not None), None)
        if t is None:
            raise SystemExit(f"cannot decode {e['name']}")
        _, toks = _split(t)
        ops: list[dict] = [{"name": "vdst", "kind": "vgpr", "bits": 32, "is_def": True,
                            "type": "f16" if e["name"].endswith("f16") else "f32"}]
        for tok in toks[1:]:
            m = _INTERP_TOK.match(tok)
            if m is None:
                raise SystemExit(f"unexpected interp operand {tok!r} in {t!r}")
            if m.group(2) is not None:
                ops.append({"name": "attr", "kind": "attr", "bits": 32, "type": ""})
            elif m.group(4) is not None:
                ops.append({"name": "src1", "kind": "interp_param", "bits": 32, "type": ""})
            elif m.group(1) == "2":
                ops.append({"name": "src1", "kind": "vgpr", "bits": 32, "type": "f32"})
            else:
                ops.append({"name": "src2", "kind": "vgpr", "bits": 32, "type": "f32"})
        e["operands"] = ops
        e["interp"] = True
        e["cls"] = "vinterp"
        e["implicit_reads"] = ["exec", "m0"]  # M0 holds the LDS parameter base
        e["src_mods"] = [{"neg": "neg" in e["modifiers"] and o["kind"] == "vgpr",
                          "abs": "abs" in e["modifiers"] and o["kind"] == "vgpr",
                          "sext": False, "const": False, "lit": False}
                         for o in ops[1:]]
        e.pop("probe_base_failed", None)
        t = re.sub(r"invalid_param_\d+", "p10", t)
        lines += [t + " high", t + " clamp", t + " mul:2"]
    # the generic modifier probes ran on a text built before the operand list
    # was known: learn high / clamp / omod again from the decoded text
    res = _enc(lines)
    for k, i in enumerate(idx):
        mods = {m for m in out[i]["modifiers"] if m in ("abs", "neg")}
        for name, r in zip(("high", "clamp", "omod"), res[3 * k:3 * k + 3], strict=True):
            if r.data is not None:
                mods.add(name)
        out[i]["modifiers"] = sorted(mods)


def probe_dpp(infos: list[dict], ops: dict[int, dict], out: list[dict]) -> None:
    """VOP3 DPP (src0 = DPP8 0xE9 + lane-select dword): record the _e64_dpp name."""
    blobs, idx = [], []
    for i, a in enumerate(infos):
        if not a["toks"] or "v" not in (a["files"][0] if a["files"] else set()):
            continue
        full = next((q for q, t in ops[a["opcode"]]["pats"].items() if t == a["text"]), None)
        if full is None:
            continue
        srcs = [0 if k is None else (VMARK[j] if k == "v" else SMARK[j]) for j, k in enumerate(full)]
        srcs[0] = 233
        dpp8 = 1 | 0xFAC688 << 8  # src0 v1, dpp8:[0,1,2,3,4,5,6,7]
        blobs.append(_blob(a["opcode"], tuple(srcs)) + dpp8.to_bytes(4, "little"))  # type: ignore[arg-type]
        idx.append(i)
    for i, t in zip(idx, _dec(blobs), strict=True):
        if t is not None and "_dpp" in t.split(" ")[0]:
            out[i]["dpp"] = True
            out[i]["dpp_name"] = t.split(" ")[0]
            out[i]["mnemonics"].append(t.split(" ")[0])


# modifier bits probed one at a time: dword 0 ABS/OPSEL/CLMP, dword 1 OMOD/NEG
_W0_BITS = [8, 9, 10, 11, 12, 13, 14, 15]
_W1_BITS = [27, 28, 29, 30, 31]


def decode_masks(infos: list[dict], ops: dict[int, dict], out: list[dict]) -> None:
    """Per opcode: which modifier bits llvm-mc rejects when decoding and which
    it accepts but does not print (stored as dec_reject / dec_ignore)."""
    blobs, keys = [], []
    for i, a in enumerate(infos):
        if out[i]["enc"] != "VOP3" or not a["toks"]:
            continue
        p = next(iter(ops[a["opcode"]]["pats"]))
        full = next((q for q, t in ops[a["opcode"]]["pats"].items() if t == a["text"]), p)
        srcs = tuple(
            0 if k is None else (VMARK[j] if k == "v" else SMARK[j]) for j, k in enumerate(full)
        )
        base = _blob(a["opcode"], srcs)  # type: ignore[arg-type]
        w0 = int.from_bytes(base[:4], "little")
        w1 = int.from_bytes(base[4:], "little")
        for b in _W0_BITS:
            keys.append((i, 0, b))
            blobs.append((w0 | 1 << b).to_bytes(4, "little") + base[4:])
        for b in _W1_BITS:
            keys.append((i, 1, b))
            blobs.append(base[:4] + (w1 | 1 << b).to_bytes(4, "little"))
    res = _dec(blobs)
    for (i, w, b), t in zip(keys, res, strict=True):
        e = out[i]
        rej = e.setdefault("dec_reject", [0, 0])
        ign = e.setdefault("dec_ignore", [0, 0])
        if t is None:
            rej[w] |= 1 << b
        elif t == infos[i]["text"]:
            ign[w] |= 1 << b
        elif w == 0 and b == 11 and "op_sel:[" in t:
            e["op_sel_print"] = t.split("op_sel:[")[1].split("]")[0].count(",") + 1


def _lit(r: llvm_mc.McEncoding) -> int | None:
    if r.data is None or len(r.data) != 12:
        return None
    return int.from_bytes(r.data[8:12], "little")


def entry(i: int, a: dict, got: dict) -> dict:
    name: str = a["name"]
    base_name = name[:-4] if name.endswith("_e64") else name
    promoted = name.endswith("_e64")
    if not a["toks"]:  # v_nop / v_pipeflush: printed without _e64, spelled with it
        return {"name": name, "enc": "VOP3", "opcode": a["opcode"], "asm_name": name,
                "mnemonics": [name + "_e64"], "operands": [], "modifiers": [],
                "implicit_reads": [], "implicit_writes": [], "cls": "valu", "src_mods": []}
    ok = got[(i, "base", -1)].data is not None
    is_sd = False
    operands: list[dict] = []
    toks, toks64 = a["toks"], a["toks64"]
    # destinations
    for k in range(a["ndef"]):
        t, t64 = toks[k], toks64[k]
        sz, sz64 = _size(t), _size(t64)
        if _file(t) == "v":
            operands.append({"name": "vdst", "kind": "vgpr", "bits": 32 * sz, "is_def": True})
        elif sz != sz64:
            nm = "sdst"
            if k == 1:
                is_sd = True
            operands.append({"name": nm, "kind": "sreg_wave", "bits": 32, "is_def": True})
        else:
            operands.append({"name": "sdst", "kind": "sgpr", "bits": 32 * sz, "is_def": True})
    if k_has_sd(a):
        is_sd = True
    mods: set[str] = set()
    src_extra: list[dict] = []
    for s in range(a["nsrc"]):
        k = a["ndef"] + s
        t, t64 = toks[k], toks64[k]
        sz, sz64 = _size(t), _size(t64)
        files = a["files"][s]
        neg = got[(i, "neg", s)].data is not None
        abs_ = got[(i, "abs", s)].data is not None
        sext = got[(i, "sext", s)].data is not None
        r15 = got[(i, "f1.5", s)]
        big = got[(i, "i0x12345", s)].data is not None
        small = got[(i, "i0x1234", s)].data is not None
        inl = got[(i, "inl1", s)].data is not None
        lit15 = _lit(r15)
        if sz != sz64:
            kind = "sreg_wave"
        elif files == {"v"}:
            kind = "vgpr"
        elif files == {"s"}:
            kind = "ssrc"
        else:
            kind = "vsrc"
        bits = 32 * sz
        if bits == 32 and small and not big:
            bits = 16
        flt = neg or abs_
        if bits == 16:
            typ = {0x3E00: "f16", 0x3FC0: "bf16"}.get(lit15 or 0, "i16")
        elif bits == 64:
            typ = "f64" if lit15 == 0x3FF80000 else "i64"
        elif bits > 64:
            typ = f"b{bits}"
        else:
            typ = "f32" if flt else "i32"
        if neg:
            mods.add("neg")
        if abs_:
            mods.add("abs")
        operands.append({"name": f"src{s}", "kind": kind, "bits": bits if kind != "sreg_wave" else 32,
                         "type": typ})
        src_extra.append({"neg": neg, "abs": abs_, "sext": sext, "const": inl, "lit": small or big or lit15 is not None})
    bus = got.get((i, "bus2", -1))
    lane_masks = any(o["kind"] == "sreg_wave" for o in operands if not o.get("is_def"))
    if (bus is not None and bus.error and "constant bus" in bus.error and not lane_masks
            and not name.startswith("v_div_fmas")):
        d_bus = 1
    else:
        d_bus = 2
    if got[(i, "clamp", -1)].data is not None:
        mods.add("clamp")
    if got[(i, "omod", -1)].data is not None:
        mods.add("omod")
    opsel_len = 0
    for n in range(1, 5):
        if got[(i, f"op_sel{n}", -1)].data is not None or got[(i, f"op_sel0_{n}", -1)].data is not None:
            opsel_len = n
            mods.add("op_sel")
    d: dict = {
        "name": base_name,
        "enc": "VOP3SD" if is_sd else "VOP3",
        "opcode": a["opcode"],
        "asm_name": name,
        "mnemonics": [base_name, name] if promoted else [name],
        "operands": operands,
        "modifiers": sorted(mods),
        "implicit_reads": ["exec"] + (["vcc"] if name.startswith("v_div_fmas") else []),
        "implicit_writes": ["exec"] if name.startswith("v_cmpx") else [],
        "cls": cls_of(base_name, operands),
        "src_mods": src_extra,
    }
    if opsel_len:
        d["op_sel_len"] = opsel_len
    if d_bus != 2:
        d["bus_limit"] = d_bus
    if name.startswith("v_cmpx"):
        d["vdst_fixed"] = 126  # VOPCX e64 writes EXEC: VDST field holds EXEC_LO
    if not ok:
        d["probe_base_failed"] = True
    return d


def k_has_sd(a: dict) -> bool:
    return a["ndef"] == 2


def cls_of(name: str, operands: list[dict]) -> str:
    if TRANS.match(name):
        return "trans"
    if "_f64" in name or any(o.get("type") in ("i64", "f64") for o in operands):
        return "valu64"
    return "valu"


def main() -> int:
    out = G.parse_args("vop3.json")
    llvm_mc.require()
    ops = probe_decode()
    entries = build(ops)
    out.parent.mkdir(parents=True, exist_ok=True)
    blob = {"encoding": "VOP3", "opcodes": entries}
    out.write_text(json.dumps(blob, indent=1) + "\n")
    print(f"wrote {len(entries)} entries to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
