"""Probe llvm-mc-19 for the VOP3P, VOPD, VINTERP and LDSDIR opcode tables.

Writes ``radcc/isa/data/gfx11/vop3p.json``. ISA guide sections 15.3.6
(VOP3P), 15.3.7 (VOPD), 15.4.1 (VINTERP), 15.5.1 (LDSDIR); opcode tables in
16.10, 16.11, 16.13, 16.14.

Method: for every opcode number of each format, build words with marker
register fields, decode them all in one llvm-mc batch, and read back names,
operand order and register sizes (wave32 and wave64). Then assemble probe
lines to learn which sources take SGPRs/constants/literals, how a float
literal is encoded per slot (the operand type), and which modifiers each
instruction accepts.

    python tools/isa_probe/vop3p.py [--out PATH]
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import valu_gen as G  # noqa: E402
from valu_gen import dec as _dec  # noqa: E402
from valu_gen import enc as _enc

from radcc.oracle import llvm_mc

ROOT = Path(__file__).resolve().parents[2]

_RANGE = re.compile(r"^v\[(\d+):(\d+)\]$|^v(\d+)$")

# marker registers of the VOP3P / VINTERP probes: vdst, src0, src1, src2
MARK = {8: "vdst", 16: "src0", 32: "src1", 48: "src2"}


def _reg(tok: str) -> tuple[int, int] | None:
    m = _RANGE.match(tok.strip().lstrip("-|").rstrip("|"))
    if not m:
        return None
    if m.group(3) is not None:
        return int(m.group(3)), 1
    a, b = int(m.group(1)), int(m.group(2))
    return a, b - a + 1


def _split(text: str) -> tuple[str, list[str]]:
    """Mnemonic and operand texts of a printed instruction (modifiers dropped)."""
    name, _, rest = text.partition(" ")
    ops: list[str] = []
    for tok in rest.split(" "):
        if not tok:
            continue
        ops.append(tok.rstrip(","))
        if not tok.endswith(","):
            break
    return name, ops


def _le(words: list[int]) -> bytes:
    return b"".join(w.to_bytes(4, "little") for w in words)


# --- VOP3P ------------------------------------------------------------------


def _vop3p_words(op: int, src2: int = 256 + 48) -> bytes:
    lo = 0xCC000000 | op << 16 | 1 << 14 | 8
    hi = (256 + 16) | (256 + 32) << 9 | src2 << 18 | 3 << 27
    return _le([lo, hi])


def _operands_from(ops: list[str]) -> list[tuple[str, int]] | None:
    out = []
    for o in ops:
        r = _reg(o)
        if r is None or r[0] not in MARK:
            return None
        out.append((MARK[r[0]], r[1] * 32))
    return out


def probe_vop3p() -> list[dict]:
    ops = list(range(128))
    # a two-source opcode decodes only with a zero src2 field
    w32 = [a or b for a, b in zip(_dec([_vop3p_words(o) for o in ops]),
                                  _dec([_vop3p_words(o, 0) for o in ops]),
                                  strict=True)]
    w64 = [a or b for a, b in zip(
        _dec([_vop3p_words(o) for o in ops], wave64=True),
        _dec([_vop3p_words(o, 0) for o in ops], wave64=True), strict=True)]
    entries = []
    for o, t32, t64 in zip(ops, w32, w64, strict=True):
        if t32 is None:
            continue
        name, o32 = _split(t32)
        sizes32 = _operands_from(o32)
        sizes64 = _operands_from(_split(t64)[1]) if t64 else None
        assert sizes32 is not None, t32
        e = {"name": name, "enc": "VOP3P", "opcode": o, "mnemonics": [name],
             "_ops": sizes32, "_ops64": sizes64 or sizes32}
        entries.append(e)
    _vop3p_details(entries)
    return entries


def _line(name: str, ops: list[str], mods: str = "") -> str:
    return f"{name} {', '.join(ops)}" + (f" {mods}" if mods else "")


def _regtext(base: int, bits: int, file: str = "v") -> str:
    n = max(1, bits // 32)
    return f"{file}{base}" if n == 1 else f"{file}[{base}:{base + n - 1}]"


def _vop3p_details(entries: list[dict]) -> None:
    """Operand kinds/types and accepted modifiers of each VOP3P entry."""
    lines: list[str] = []
    index: list[tuple[int, str, object]] = []

    def add(i: int, what: str, key: object, line: str) -> None:
        index.append((i, what, key))
        lines.append(line)

    for i, e in enumerate(entries):
        ops = e["_ops"]
        base = [_regtext(b, bits) for b, (_, bits) in zip((8, 16, 32, 48), ops, strict=False)]
        nsrc = len(ops) - 1
        for s in range(1, len(ops)):
            bits = ops[s][1]
            for kind, val in (("sgpr", _regtext(2 if bits <= 64 else 4, bits, "s")),
                              ("inline", "1.0"), ("f15", "1.5"), ("i3800", "0x3800"),
                              ("i3f00", "0x3f00"), ("big", "0x12345678")):
                o = list(base)
                o[s] = val
                add(i, "src", (s, kind), _line(e["name"], o))
        add(i, "base", None, _line(e["name"], base))
        zeros = ",".join("0" * 1 for _ in range(nsrc))
        one = ",".join(["1"] + ["0"] * (nsrc - 1))
        ones = ",".join(["1"] * nsrc)
        for mod in (f"op_sel:[{one}]", f"op_sel:[{','.join(['0'] * nsrc)},1]",
                    f"op_sel_hi:[{zeros}]", f"op_sel_hi:[{ones}]",
                    f"neg_lo:[{one}]", f"neg_hi:[{one}]", "clamp",
                    "quad_perm:[1,0,0,0]", "dpp8:[7,6,5,4,3,2,1,0]"):
            add(i, "mod", mod.split(":")[0] if ":[" not in mod or "op_sel" not in mod else mod,
                _line(e["name"], base, mod))
        for smod, txt in (("neg", "-" + base[1]), ("abs", "|" + base[1] + "|")):
            o = list(base)
            o[1] = txt
            add(i, "smod", smod, _line(e["name"], o))
    res = _enc(lines)
    for (i, what, key), r in zip(index, res, strict=True):
        e = entries[i]
        ok = r.data is not None
        if what == "base":
            assert ok, r
            e["_base"] = r.data.hex()
            e["_base_text"] = r.text
        elif what == "src":
            e.setdefault("_src", {})[f"{key[0]}:{key[1]}"] = (
                None if not ok else r.data[8:].hex() if len(r.data) > 8 else
                f"inline:{(int.from_bytes(r.data[4:8], 'little') >> (9 * (key[0] - 1))) & 511}")
        else:
            e.setdefault("_mods", {})[str(key)] = (r.data.hex() if ok else None, r.text)
    for e in entries:
        _finish_vop3p(e)


def _type_of(src: dict[str, str | None], s: int, mix: bool) -> str:
    f15 = src.get(f"{s}:f15")
    i3800 = src.get(f"{s}:i3800")
    i3f00 = src.get(f"{s}:i3f00")
    if f15 is None:
        # no literal accepted: decide from inline encodings
        if i3800 == "inline:240":
            return "f16" if mix else "v2f16"
        if i3f00 == "inline:240":
            return "v2bf16"
        return "f32"
    lit = int.from_bytes(bytes.fromhex(f15), "little")
    if lit == 0x3E00:
        return "f16" if mix else "v2f16"
    if lit == 0x3FC0:
        return "v2bf16"
    assert lit == 0x3FC00000, lit
    if i3800 == "inline:240":
        return "f16"
    return "i32" if src.get(f"{s}:big") is not None else "f32"


def _finish_vop3p(e: dict) -> None:
    name = e["name"]
    mix = name.startswith("v_fma_mix")
    wmma = name.startswith("v_wmma")
    ops = e.pop("_ops")
    ops64 = e.pop("_ops64")
    src = e.pop("_src")
    mods = e.pop("_mods")
    base = bytes.fromhex(e.pop("_base"))
    e.pop("_base_text")
    base_hi = int.from_bytes(base[0:4], "little") >> 14 & 1 | (
        int.from_bytes(base[4:8], "little") >> 27 & 3) << 1
    operands = []
    for k, ((role, bits), (_, bits64)) in enumerate(zip(ops, ops64, strict=True)):
        if k == 0:
            operands.append({"name": "vdst", "kind": "vgpr", "bits": bits,
                             "type": _dst_type(name, bits), "is_def": True})
            continue
        sg = src.get(f"{k}:sgpr") is not None
        inl = src.get(f"{k}:inline") is not None
        lit = src.get(f"{k}:big") is not None or src.get(f"{k}:f15") is not None
        kind = "vsrc" if sg and lit else "vcsrc" if sg else "vinl" if inl else "vgpr"
        t = _type_of(src, k, mix)
        if t in ("i32", "f32"):
            # a 32-bit slot: llvm-mc encodes f32 and i32 constants alike; name it
            t = "v2i16" if name.startswith("v_pk_") else (
                "f32" if "_f32_" in name or name.startswith("v_wmma_f32") else "i32")
        if wmma and k < 3:
            t = "v2bf16" if name.endswith("bf16") else "v2f16" if name.endswith("f16") else "i32"
        spec = {"name": role, "kind": kind, "bits": bits, "type": t}
        operands.append(spec)
        if bits64 != bits:
            e.setdefault("wave64_bits", {})[role] = bits64
    if ops64 != ops:
        e.setdefault("wave64_bits", {})["vdst"] = ops64[0][1]
    e["operands"] = operands
    nsrc = len(operands) - 1
    accepted = []
    for key, (data, _text) in mods.items():
        if data is None:
            continue
        if key.startswith("op_sel:["):
            if key.count(",") == nsrc - 1:
                accepted.append("op_sel")
            else:
                e["opsel_dst"] = True
        elif key.startswith("op_sel_hi"):
            accepted.append("op_sel_hi")
        elif key == "quad_perm":
            accepted.append("dpp")
            e["dpp_name"] = _text.split(" ")[0]
        elif key == "dpp8":
            accepted.append("dpp8")
        else:
            accepted.append(key)
    e["modifiers"] = sorted(set(accepted))
    if "dpp_name" in e:
        e["mnemonics"].append(e["dpp_name"])
    e["opsel_hi_default"] = base_hi & ((1 << nsrc) - 1) if nsrc else 0
    e["opsel_hi_default"] = 0 if mix else (1 << nsrc) - 1
    e["mix"] = mix
    e["cls"] = "wmma" if wmma else "dot" if name.startswith("v_dot") else "valu"
    e["implicit_reads"] = ["exec"]
    e["implicit_writes"] = []


def _dst_type(name: str, bits: int) -> str:
    if name.startswith("v_pk_"):
        return "v2f16" if name.endswith("f16") else "v2i16"
    if name.startswith("v_fma_mix"):
        return "f32" if name.endswith("f32") else "f16"
    return "f32" if "_f32" in name else "i32" if "_i32" in name else "u32" if "u32" in name \
        else "f16" if bits <= 128 and "f16" in name else "b32"


# --- VINTERP ----------------------------------------------------------------


def probe_vinterp() -> list[dict]:
    ops = list(range(128))
    words = [_le([0xCD000000 | o << 16 | 8, (256 + 16) | (256 + 32) << 9 | (256 + 48) << 18])
             for o in ops]
    texts = _dec(words)
    entries = []
    for o, t in zip(ops, texts, strict=True):
        if t is None:
            continue
        name, o32 = _split(t)
        sizes = _operands_from(o32)
        assert sizes is not None, t
        entries.append({"name": name, "enc": "VINTERP", "opcode": o, "mnemonics": [name],
                        "_ops": sizes})
    lines, index = [], []
    for i, e in enumerate(entries):
        base = ["v8", "v16", "v32", "v48"]
        for mod in ("op_sel:[1,0,0,0]", "op_sel:[0,0,0,1]", "clamp", "wait_exp:7"):
            index.append((i, mod.split(":")[0] + ("_dst" if mod.endswith(",1]") else "")))
            lines.append(_line(e["name"], base, mod))
        for smod, txt in (("neg", "-v16"), ("abs", "|v16|")):
            index.append((i, smod))
            lines.append(_line(e["name"], ["v8", txt, "v32", "v48"]))
        for s in (1, 2, 3):
            for kind, val in (("sgpr", "s2"), ("inline", "1.0")):
                o = list(base)
                o[s] = val
                index.append((i, f"{kind}{s}"))
                lines.append(_line(e["name"], o))
    res = _enc(lines)
    acc: dict[int, set[str]] = {}
    for (i, key), r in zip(index, res, strict=True):
        if r.data is not None:
            acc.setdefault(i, set()).add(key)
    for i, e in enumerate(entries):
        a = acc.get(i, set())
        ops = e.pop("_ops")
        f16 = "f16" in e["name"]
        e["operands"] = [{"name": "vdst", "kind": "vgpr", "bits": 32,
                          "type": "f16" if "p2_f16" in e["name"] or "p2_rtz" in e["name"]
                          else "f32", "is_def": True}]
        for k, (role, bits) in enumerate(ops[1:], 1):
            kind = "vsrc" if f"sgpr{k}" in a else "vinl" if f"inline{k}" in a else "vgpr"
            t = "f16" if f16 and (k == 1 or k == 3 and "p2" not in e["name"]) else "f32"
            if f16 and k == 3 and "p2" in e["name"]:
                t = "f32"
            e["operands"].append({"name": role, "kind": kind, "bits": bits, "type": t})
        mods = {m for m in a if m in ("op_sel", "clamp", "wait_exp", "neg", "abs")}
        if "op_sel_dst" in a:
            mods.add("op_sel")
        e["modifiers"] = sorted(mods)
        e["cls"] = "vinterp"
        e["implicit_reads"] = ["exec"]
        e["implicit_writes"] = []
    return entries


# --- LDSDIR -------------------------------------------------------------------


def probe_ldsdir() -> list[dict]:
    ops = list(range(4))
    words = [_le([0xCE000000 | o << 20 | 8]) for o in ops]
    texts = _dec(words)
    entries = []
    for o, t in zip(ops, texts, strict=True):
        if t is None:
            continue
        name, o32 = _split(t)
        operands = [{"name": "vdst", "kind": "vgpr", "bits": 32, "type": "b32", "is_def": True}]
        if len(o32) > 1:
            operands.append({"name": "attr", "kind": "attr", "bits": 32})
        entries.append({"name": name, "enc": "LDSDIR", "opcode": o, "mnemonics": [name],
                        "operands": operands, "modifiers": ["wait_vdst"], "cls": "ldsdir",
                        "implicit_reads": ["exec", "m0"], "implicit_writes": []})
    return entries


# --- VOPD ----------------------------------------------------------------------

# marker fields: vdstx v20, srcx0 v21, vsrcx1 v22, vdsty v31, srcy0 v33, vsrcy1 v34
_VOPD_ROLES_X = {20: "vdst", 21: "src0", 22: "vsrc1"}
_VOPD_ROLES_Y = {31: "vdst", 33: "src0", 34: "vsrc1"}
MOV = 8


def _vopd_words(opx: int, opy: int, lit: bool, vx1: int = 22, vy1: int = 34) -> bytes:
    lo = 0xC8000000 | opx << 22 | opy << 17 | vx1 << 9 | (256 + 21)
    hi = (256 + 33) | vy1 << 9 | 15 << 17 | 20 << 24
    return _le([lo, hi] + ([0x1234] if lit else []))


def _vopd_half(text: str, roles: dict[int, str]) -> tuple[str, list[dict]]:
    name, ops = _split(text.strip())
    out = []
    for o in ops:
        r = _reg(o)
        if r is not None and r[0] in roles:
            role = roles[r[0]]
            out.append({"name": role, "kind": "vgpr" if role != "src0" else "vsrc",
                        "bits": 32, "type": "", **({"is_def": True} if role == "vdst" else {})})
        elif o == "0x1234":
            out.append({"name": "simm32", "kind": "imm", "bits": 32, "type": ""})
        elif o == "vcc_lo":
            out.append({"name": "vcc", "kind": "special", "bits": 32, "fixed": "vcc_lo"})
        else:
            raise AssertionError(f"unexpected VOPD operand {o!r} in {text!r}")
    return name, out


def probe_vopd() -> list[dict]:
    cand: list[tuple[str, int, bool]] = []
    blobs = []
    # unused fields must be zero for llvm-mc to decode: try both
    for x in range(16):
        for lit in (False, True):
            for vx1 in (22, 0):
                cand.append(("X", x, lit))
                blobs.append(_vopd_words(x, MOV, lit, vx1, 0))
    for y in range(32):
        for lit in (False, True):
            for vy1 in (34, 0):
                cand.append(("Y", y, lit))
                blobs.append(_vopd_words(MOV, y, lit, 0, vy1))
    texts = _dec(blobs)
    found: dict[tuple[str, int], tuple[str, list[dict], bool]] = {}
    for (half, op, lit), t in zip(cand, texts, strict=True):
        if t is None or "::" not in t or (half, op) in found:
            continue
        tx, ty = t.split("::")
        if half == "X":
            found[("X", op)] = (*_vopd_half(tx, _VOPD_ROLES_X), lit)
        else:
            found[("Y", op)] = (*_vopd_half(ty, _VOPD_ROLES_Y), lit)
    entries = []
    for (half, op), (name, ops, lit) in sorted(found.items()):
        for o in ops:
            if o["name"] != "vcc":
                o["type"] = "f32" if name.endswith("f32") else "v2f16" if "f32_f16" in name \
                    and o["name"] != "vdst" else "b32" if name.endswith("b32") else "i32"
            if "dot2acc" in name and o["name"] in ("src0", "vsrc1"):
                o["type"] = "v2bf16" if name.endswith("bf16") else "v2f16"
            if "dot2acc" in name and o["name"] == "vdst":
                o["type"] = "f32"
        e = {"name": name, "enc": "VOPD" if half == "X" else "VOPDY", "opcode": op,
             "mnemonics": [name], "operands": ops, "modifiers": [],
             "cls": "valu", "implicit_reads": ["exec"] + (["vcc"] if "cndmask" in name else []),
             "implicit_writes": [], "literal": lit}
        if any(o["name"] == "vsrc1" for o in ops) and name.split("_")[2] in ("fmac", "dot2acc"):
            e["acc"] = True  # vdst is also read (src2)
        entries.append(e)
    return entries


def main() -> None:
    out = G.parse_args("vop3p.json")
    llvm_mc.require()
    entries = probe_vop3p() + probe_vopd() + probe_vinterp() + probe_ldsdir()
    blob = {"encoding": "VOP3P",
            "comment": "generated by tools/isa_probe/vop3p.py from llvm-mc-19; do not edit",
            "opcodes": entries}
    out.write_text(json.dumps(blob, indent=1) + "\n")
    print(f"wrote {len(entries)} entries to {out}")


if __name__ == "__main__":
    main()
