"""Probe llvm-mc-19 for the GFX11 VOP1/VOP2/VOPC opcode tables.

Writes radcc/isa/data/gfx11/vop.json. For every opcode number of VOP1 (0-255),
VOP2 (0-61: 62/63 are the VOPC/VOP1 prefixes) and VOPC (0-255) it decodes
words with marker registers (vdst=v5, src0=v7, vsrc1=v9) and learns the
canonical name, printed spelling and operand order/sizes from the text; a
second decode with a literal learns whether src0 takes 16-bit literals and
whether a K literal is mandatory (fmamk/fmaak); DPP16/DPP8 words learn which
opcodes have DPP forms and their printed names. Assembling probe lines then
learns operand types (f16 vs i16 from whether 0x3800 is inlined, f64 vs i64
from whether 1.5 is accepted) and which older spellings llvm-mc accepts.

ISA reference: RDNA3 ISA guide, section 15.3 (VOP2, VOP1, VOPC encodings
and opcode tables) and 15.3.x (DPP16, DPP8).

Run: python tools/isa_probe/vop.py
"""

from __future__ import annotations

import json
import re

import valu_gen as G  # noqa: E402
from valu_gen import dec as _dec  # noqa: E402
from valu_gen import enc as _enc

from radcc.oracle import llvm_mc

LIT = 0x11223344
VDST, SRC0, VSRC1 = 5, 263, 9

# Older spellings llvm-mc may accept (checked below; only accepted ones kept).
ALIAS_CANDIDATES = {
    "v_cvt_nearest_i32_f32": ["v_cvt_rpi_i32_f32"],
    "v_cvt_floor_i32_f32": ["v_cvt_flr_i32_f32"],
    "v_clz_i32_u32": ["v_ffbh_u32"],
    "v_ctz_i32_b32": ["v_ffbl_b32"],
    "v_cls_i32": ["v_ffbh_i32"],
    "v_cvt_pk_rtz_f16_f32": ["v_cvt_pkrtz_f16_f32"],
    "v_fmac_dx9_zero_f32": ["v_fmac_legacy_f32"],
    "v_mul_dx9_zero_f32": ["v_mul_legacy_f32"],
    "v_add_nc_u32": ["v_add_u32"],
    "v_sub_nc_u32": ["v_sub_u32"],
    "v_subrev_nc_u32": ["v_subrev_u32"],
    "v_add_co_ci_u32": ["v_addc_co_u32", "v_addc_u32"],
    "v_sub_co_ci_u32": ["v_subb_co_u32", "v_subb_u32"],
    "v_subrev_co_ci_u32": ["v_subbrev_co_u32", "v_subbrev_u32"],
    "v_dot2acc_f32_f16": ["v_dot2c_f32_f16"],
}


def vop1(op: int, src0: int = SRC0, vdst: int = VDST) -> int:
    return (0x3F << 25) | (vdst << 17) | (op << 9) | src0


def vop2(op: int, src0: int = SRC0, vdst: int = VDST) -> int:
    return (op << 25) | (vdst << 17) | (VSRC1 << 9) | src0


def vopc(op: int, src0: int = SRC0, vdst: int = VDST) -> int:
    del vdst
    return (0x3E << 25) | (op << 17) | (VSRC1 << 9) | src0


def sdwa_probes(enc: str, f, op: int) -> list[tuple[str, bytes]]:
    """GFX9/GFX10 SDWA (src0 = 0xF9, ISA: "SDWA" extra dword): src0 v7 with every
    select DWORD (6); VOP1 words want the unused src1 fields zero, so both are
    tried. GFX11 has no SDWA: nothing is probed there."""
    if not G.is_gfx10():
        return []
    sel = 7 | 6 << 16
    dst = 6 << 8 if enc != "VOPC" else 0
    return [("sdwa", b(f(op, src0=0xF9), sel | dst | 6 << 24)),
            ("sdwa1", b(f(op, src0=0xF9), sel | dst))]


ENCS = (("VOP1", vop1, 256), ("VOP2", vop2, 62), ("VOPC", vopc, 256))
_REG = re.compile(r"^(v|s)(?:(\d+)|\[(\d+):(\d+)\])(\.[lh])?$")


def b(*words: int) -> bytes:
    return b"".join(w.to_bytes(4, "little") for w in words)


def split_ops(text: str) -> tuple[str, list[str]]:
    name, _, rest = text.partition(" ")
    ops = [o.strip() for o in rest.split(",")] if rest else []
    return name, ops


def reg_info(tok: str) -> tuple[str, int, int, bool] | None:
    m = _REG.match(tok)
    if not m:
        return None
    if m.group(2) is not None:
        return m.group(1), int(m.group(2)), 1, bool(m.group(5))
    lo, hi = int(m.group(3)), int(m.group(4))
    return m.group(1), lo, hi - lo + 1, bool(m.group(5))


def base_type(name: str, bits: int) -> str:
    """Type suffix of a source: the last type token of the name (the source
    type of a conversion), sized to the probed width."""
    toks = [t for t in name.split("_") if re.fullmatch(r"[fiub]\d+|ubyte\d", t)]
    t = toks[-1] if toks else "b32"
    if t.startswith("ubyte"):
        t = "u32"
    kind = t[0]
    if kind == "f":
        return f"f{bits}"
    return f"{'i' if kind == 'i' else 'u' if kind == 'u' else 'b'}{bits}"


def dst_type(name: str, bits: int) -> str:
    """Type of a result: the first type token of the name."""
    toks = [t for t in name.split("_") if re.fullmatch(r"[fiub]\d+", t)]
    t = toks[0] if toks else "b32"
    return f"{t[0]}{bits}"


def main() -> None:
    out = G.parse_args("vop.json")
    blobs: list[bytes] = []
    keys: list[tuple[str, int, str]] = []
    dpp16 = 0xFF000000 | (0x101 << 8) | (SRC0 - 256)
    dpp8 = 0x00FAC688 << 8 | (SRC0 - 256)
    for enc, f, n in ENCS:
        for op in range(n):
            w = f(op)
            for kind, blob in (
                ("w", b(w)),
                ("zero", b(f(op, src0=0, vdst=0))),
                ("lit", b(f(op, src0=255), LIT)),
                ("k", b(w, LIT)),
                ("dpp", b(f(op, src0=0xFA), dpp16)),
                ("dppk", b(f(op, src0=0xFA), dpp16, LIT)),
                ("dpp8", b(f(op, src0=0xE9), dpp8)),
                ("dpp8k", b(f(op, src0=0xE9), dpp8, LIT)),
                *sdwa_probes(enc, f, op),
            ):
                blobs.append(blob)
                keys.append((enc, op, kind))
    res32 = _dec(blobs)
    res64 = _dec(blobs, wave64=True)
    got: dict[tuple[str, int], dict[str, str]] = {}
    for (enc, op, kind), r, r64 in zip(keys, res32, res64, strict=True):
        if r:
            got.setdefault((enc, op), {})[kind] = r
        if r64:
            got.setdefault((enc, op), {})[kind + "64"] = r64

    entries: list[dict] = []
    for (enc, op), d in sorted(got.items(), key=lambda kv: (("VOP1", "VOP2", "VOPC").index(kv[0][0]), kv[0][1])):
        text = d.get("w") or d.get("k") or d.get("zero")
        if text is None:
            continue
        if enc == "VOP2" and op >= 62:
            continue
        asm_name, ops = split_ops(text)
        name = asm_name.removesuffix("_e32")
        if text == d.get("zero") and not ops:
            ops = []
        operands: list[dict] = []
        t16 = False
        for tok in ops:
            ri = reg_info(tok)
            if tok == "vcc_lo":
                is_def = not operands or all(o.get("is_def") for o in operands)
                operands.append({"name": "sdst" if is_def else "carry_in", "kind": "special",
                                 "bits": 32, "fixed": "vcc_lo", "is_def": is_def})
            elif tok == f"0x{LIT:x}":
                operands.append({"name": "k", "kind": "imm", "bits": 32})
            elif ri and ri[0] == "s" and ri[1] == VDST:
                operands.append({"name": "sdst", "kind": "sgpr", "bits": 32, "is_def": True})
            elif ri and ri[1] == VDST:
                t16 |= ri[3]
                operands.append({"name": "vdst", "kind": "vgpr", "bits": 32 * ri[2] if not ri[3] else 16,
                                 "is_def": True})
            elif ri and ri[1] == SRC0 - 256:
                t16 |= ri[3]
                operands.append({"name": "src0", "kind": "vsrc", "bits": 32 * ri[2] if not ri[3] else 16})
            elif ri and ri[1] == VSRC1:
                operands.append({"name": "vsrc1", "kind": "vgpr", "bits": 32 * ri[2]})
            else:
                raise SystemExit(f"unrecognized operand {tok!r} in {text!r}")
        lit = d.get("lit")
        if lit is not None:
            _, lops = split_ops(lit)
            src_idx = [i for i, o in enumerate(operands) if o["name"] == "src0"][0]
            if len(lops[src_idx]) <= 6 and lops[src_idx].startswith("0x"):
                operands[src_idx]["bits"] = 16
        if enc == "VOPC" and "cmpx" not in name:
            pass
        # swap writes both operands
        if name in ("v_swap_b32", "v_swaprel_b32"):
            operands[1]["kind"] = "vgpr"
            operands[1]["is_def"] = True
            operands[1]["name"] = "vdst2"
        entry: dict = {"name": name, "enc": enc, "opcode": op}
        if asm_name != name:
            entry["asm_name"] = asm_name
        entry["mnemonics"] = [name] + ([asm_name] if asm_name != name else [])
        entry["operands"] = operands
        mods: list[str] = []
        dtext = d.get("dpp") or d.get("dppk")
        if dtext:
            mods.append("dpp")
            entry["dpp_name"] = dtext.split(" ")[0]
        if d.get("dpp8") or d.get("dpp8k"):
            mods.append("dpp8")
        stext = d.get("sdwa") or d.get("sdwa1")
        if stext:
            mods.append("sdwa")
            entry["sdwa_name"] = stext.split(" ")[0]
        if t16:
            entry["t16"] = True
        entry["modifiers"] = mods
        if any(o["name"] == "k" for o in operands):
            entry["k_literal"] = True
        reads = ["exec"]
        writes: list[str] = []
        if any(o.get("fixed") == "vcc_lo" and not o.get("is_def") for o in operands):
            reads.append("vcc")
        if any(o.get("fixed") == "vcc_lo" and o.get("is_def") for o in operands):
            writes.append("vcc")
        if "cmpx" in name:
            writes.append("exec")
        if name.startswith("v_movrel") or name == "v_swaprel_b32":
            reads.append("m0")
        entry["implicit_reads"] = reads
        entry["implicit_writes"] = writes
        is64 = any(o.get("bits") == 64 for o in operands)
        trans = re.match(r"v_(exp|log|rcp|rsq|sqrt|sin|cos)(_iflag)?_f(16|32)$", name)
        entry["cls"] = "trans" if trans else "valu64" if is64 else "nop" if name == "v_nop" else "valu"
        entries.append(entry)

    # --- types and accepted literals, learned by assembling ---------------------
    lines: list[str] = []
    where: list[tuple[int, str]] = []
    for i, e in enumerate(entries):
        ops = e["operands"]
        if not any(o["name"] == "src0" for o in ops):
            continue
        for probe in ("0x3800", "1.5"):
            lines.append(probe_line(e, probe))
            where.append((i, probe))
    encs = _enc(lines)
    inl: dict[tuple[int, str], McResult] = {}
    for (i, probe), r in zip(where, encs, strict=True):
        inl[(i, probe)] = r
    for i, e in enumerate(entries):
        for o in e["operands"]:
            if o["kind"] in ("vsrc", "vgpr", "imm") and not o.get("is_def"):
                bits = o["bits"]
                t = base_type(e["name"], bits)
                if o["name"] == "src0" and bits == 16:
                    r = inl.get((i, "0x3800"))
                    t = "f16" if r is not None and r.data is not None and len(r.data) == 4 else "i16"
                if o["name"] == "src0" and bits == 64:
                    r = inl.get((i, "1.5"))
                    t = "f64" if r is not None and r.data is not None else "i64"
                if re.match(r"v_pk_|v_dot2", e["name"]) and bits == 32 and o["kind"] != "imm":
                    t = "v2f16"
                if o["name"] == "k":
                    t = "f16" if e["name"].endswith("f16") else "f32"
                if o["name"] == "vsrc1" and e["name"].startswith("v_ldexp"):
                    t = "i16"
                if o["name"] == "vsrc1" and "class" in e["name"]:
                    t = "i32" if bits == 32 else t
                o["type"] = t
            elif o["kind"] == "vgpr" and o.get("is_def"):
                o["type"] = dst_type(e["name"], o["bits"])

    # --- aliases ------------------------------------------------------------------
    by_name = {e["name"]: e for e in entries}
    alines: list[str] = []
    awhere: list[tuple[str, str]] = []
    for group_canon, group_alts in ALIAS_CANDIDATES.items():
        # whichever member of the group the generation names canonically
        group = [group_canon, *group_alts]
        canon = next((n for n in group if n in by_name), None)
        if canon is None:
            continue
        e = by_name[canon]
        for a in [n for n in group if n != canon]:
            for spelling in (a, a + "_e32"):
                alines.append(probe_line(e, "v1").replace(canon, spelling, 1))
                awhere.append((canon, spelling))
    for (canon, spelling), r in zip(awhere, _enc(alines), strict=True):
        if r.data is not None:
            by_name[canon].setdefault("aliases", []).append(spelling)

    # --- src0 restricted to VGPRs (readfirstlane, movrel*, permlane64) ------------
    vl = [probe_line(e, "s[2:3]" if any(o["name"] == "src0" and o["bits"] == 64
                                        for o in e["operands"]) else "s1")
          for e in entries if any(o["name"] == "src0" for o in e["operands"])]
    ve = [e for e in entries if any(o["name"] == "src0" for o in e["operands"])]
    for e, r in zip(ve, _enc(vl), strict=True):
        if r.data is None and not e.get("t16"):
            e["src0_vgpr_only"] = True

    # --- DPP16 source modifiers: neg/abs (float) or sext (integer) per source ----
    mlines: list[str] = []
    mwhere: list[tuple[dict, str, str]] = []
    for e in entries:
        if "dpp" not in e["modifiers"]:
            continue
        for slot in ("src0", "vsrc1"):
            if not any(o["name"] == slot for o in e["operands"]):
                continue
            for kind, fmt in (("fp", "-{}"), ("int", "sext({})")):
                parts = []
                for o in e["operands"]:
                    r = "v1.l" if e.get("t16") else "v1"
                    if o["kind"] == "special":
                        r = "vcc_lo"
                    elif o.get("is_def"):
                        r = "v0.l" if e.get("t16") else "v0" if o["bits"] <= 32 else "v[2:3]"
                    if o["name"] == slot:
                        r = fmt.format(r)
                    parts.append(r)
                mlines.append(f"{e['name']}_dpp " + ", ".join(parts) + " row_shl:1")
                mwhere.append((e, slot, kind))
    for (e, slot, kind), r in zip(mwhere, _enc(mlines), strict=True):
        if r.data is not None:
            e.setdefault("dpp_mods", {})[slot] = kind

    probe_sdwa_mods(entries)
    probe_lo128(entries)

    # --- spellings with _e32 / _dpp suffixes llvm-mc accepts ----------------------
    slines: list[str] = []
    swhere: list[tuple[dict, str]] = []
    for e in entries:
        for base in [e["name"], *[a for a in e.get("aliases", []) if not a.endswith("_e32")]]:
            line = probe_line(e, "v1")
            slines.append(line.replace(e["name"], base + "_e32", 1))
            swhere.append((e, base + "_e32"))
            if "dpp" in e["modifiers"] or "dpp8" in e["modifiers"]:
                ctl = " row_shl:1" if "dpp" in e["modifiers"] else " dpp8:[0,1,2,3,4,5,6,7]"
                slines.append(line.replace(e["name"], base + "_dpp", 1) + ctl)
                swhere.append((e, base + "_dpp"))
            if "sdwa" in e["modifiers"]:
                slines.append(line.replace(e["name"], base + "_sdwa", 1))
                swhere.append((e, base + "_sdwa"))
    for (e, spelling), r in zip(swhere, _enc(slines), strict=True):
        if r.data is None:
            continue
        key = "mnemonics" if spelling.removesuffix("_e32").removesuffix("_dpp") \
            .removesuffix("_sdwa") == e["name"] \
            else "aliases"
        if spelling not in e.setdefault(key, []):
            e[key].append(spelling)

    entries.extend(probe_vintrp())
    out.write_text(json.dumps({"encoding": "VOP", "opcodes": entries}, indent=1) + "\n")
    print(f"wrote {len(entries)} entries to {out}")


McResult = llvm_mc.McEncoding

_VINTRP_TOK = re.compile(r"^(?:v(\d+)|attr(\d+)\.([xyzw])|invalid_param_(\d+))$")


def probe_vintrp() -> list[dict]:
    """GFX10 VINTRP (ISA: [31:26] = 0b110010, [25:18] vdst, [17:16] op,
    [15:10] attr, [9:8] attrchan, [7:0] vsrc): the 32-bit interpolation
    encoding. Kept in this (32-bit VALU) table so the assembler tries it
    before the VOP3 forms, as llvm-mc does. GFX11 has none (it has VINTERP)."""
    if not G.is_gfx10():
        return []
    words = [b((0b110010 << 26) | VDST << 18 | op << 16 | 3 << 10 | 1 << 8 | 7)
             for op in range(4)]
    entries = []
    for op, t in enumerate(_dec(words)):
        if t is None:
            continue
        asm_name, toks = split_ops(t)
        name = asm_name.removesuffix("_e32")
        ops: list[dict] = [{"name": "vdst", "kind": "vgpr", "bits": 32, "is_def": True,
                            "type": "f32"}]
        for tok in toks[1:]:
            m = _VINTRP_TOK.match(tok)
            if m is None:
                raise SystemExit(f"unexpected VINTRP operand {tok!r} in {t!r}")
            if m.group(2) is not None:
                ops.append({"name": "attr", "kind": "attr", "bits": 32, "type": ""})
            elif m.group(4) is not None:
                ops.append({"name": "src0", "kind": "interp_param", "bits": 32, "type": ""})
            else:
                ops.append({"name": "src0", "kind": "vgpr", "bits": 32, "type": "f32"})
        entries.append({"name": name, "enc": "VINTRP", "opcode": op, "asm_name": asm_name,
                        "mnemonics": [name, asm_name], "operands": ops, "modifiers": [],
                        "implicit_reads": ["exec", "m0"], "implicit_writes": [],
                        "cls": "vinterp"})
    return entries


def _sdwa_regs(e: dict) -> list[str]:
    out = []
    for o in e["operands"]:
        if o["kind"] == "special":
            out.append("vcc_lo")
        elif o.get("is_def"):
            out.append("v0")
        else:
            out.append("v1")
    return out


def probe_sdwa_mods(entries: list[dict]) -> None:
    """SDWA per-source modifiers (neg/abs -> "fp", sext -> "int": ``sdwa_mods``)
    and the accepted output modifiers (``sdwa_out``: clamp, omod) (GFX10 only)."""
    lines: list[str] = []
    where: list[tuple[dict, str, str]] = []
    for e in entries:
        if "sdwa" not in e["modifiers"]:
            continue
        base = _sdwa_regs(e)
        for i, o in enumerate(e["operands"]):
            if o["name"] not in ("src0", "vsrc1"):
                continue
            for kind, fmt in (("fp", "-{}"), ("int", "sext({})")):
                parts = list(base)
                parts[i] = fmt.format(parts[i])
                lines.append(f"{e['sdwa_name']} " + ", ".join(parts))
                where.append((e, o["name"], kind))
        for out_mod, text in (("clamp", " clamp"), ("omod", " mul:2")):
            lines.append(f"{e['sdwa_name']} " + ", ".join(base) + text)
            where.append((e, "", out_mod))
    for (e, slot, kind), r in zip(where, _enc(lines), strict=True):
        if r.data is None:
            continue
        if slot:
            e.setdefault("sdwa_mods", {})[slot] = kind
        else:
            e.setdefault("sdwa_out", []).append(kind)


_FIELD_SHIFT = {"vdst": 17, "src0": 0, "vsrc1": 9}


def probe_lo128(entries: list[dict]) -> None:
    """GFX11 true16 short forms: a 16-bit operand of VOP1/VOP2/VOPC (and their
    DPP forms) names a VGPR half in 8 bits (ISA guide 7.x "16-bit VGPR naming":
    SRC/DST[6:0] = VGPR, SRC/DST[7] = hi half), so llvm-mc-19 (fake16) takes
    only v0-v127 there and uses the VOP3 form otherwise. Learned per slot by
    decoding the marker word with v137 in the slot: llvm-mc rejects (vdst) or
    flags as 'Invalid register' (sources) what the slot cannot hold. The
    restricted slots go to the entry's ``lo128`` list, those whose v137 makes
    llvm-mc reject the whole word (every vdst; vsrc1 of v_ldexp_f16 and the
    fmamk/fmaak forms) also to ``lo128_reject``."""
    builders = {"VOP1": vop1, "VOP2": vop2, "VOPC": vopc}
    blobs: list[bytes] = []
    where: list[tuple[dict, str]] = []
    for e in entries:
        f = builders.get(e["enc"])
        if f is None or e.get("t16"):
            continue
        tail = (LIT,) if e.get("k_literal") else ()
        w = f(e["opcode"])
        for o in e["operands"]:
            n = o["name"]
            if n not in _FIELD_SHIFT or o["kind"] not in ("vgpr", "vsrc"):
                continue
            reg = 138 if o["bits"] == 64 else 137
            sh = _FIELD_SHIFT[n]
            mask = (0x1FF if n == "src0" else 0xFF) << sh
            val = (256 + reg if n == "src0" else reg) << sh
            blobs += [b(w, *tail), b((w & ~mask) | val, *tail)]
            where.append((e, n))
    res = llvm_mc.decode(blobs, mcpu=G.MCPU, keep_invalid=True)
    for i, (e, n) in enumerate(where):
        base, hi = res[2 * i], res[2 * i + 1]
        if base is None or (hi is not None and "Invalid register" not in hi):
            continue
        e.setdefault("lo128", []).append(n)
        if hi is None:
            e.setdefault("lo128_reject", []).append(n)


def probe_line(e: dict, src0: str) -> str:
    parts = []
    for o in e["operands"]:
        if o["kind"] == "special":
            parts.append("vcc_lo")
        elif o["name"] == "src0":
            if src0 == "v1" and e.get("t16"):
                parts.append("v1.l")
            else:
                parts.append(src0 if o["bits"] != 64 or src0 != "v1" else "v[2:3]")
        elif o["name"] == "k":
            parts.append(src0 if src0.startswith("0x") else "0x1234")
        elif o["kind"] == "sgpr":
            parts.append("s0")
        else:
            n = o["bits"] // 32
            if e.get("t16"):
                parts.append("v0.l")
            else:
                parts.append("v0" if n <= 1 else f"v[2:{1 + n}]")
    return f"{e['name']} " + ", ".join(parts)


if __name__ == "__main__":
    main()
