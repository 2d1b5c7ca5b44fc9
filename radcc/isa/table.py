"""The opcode table: one per hardware generation, data not code.

The tables live in ``radcc/isa/data/<gen>/*.json`` (gfx10 for GFX10.1, probed
with llvm-mc -mcpu=gfx1010; gfx10_3 for GFX10.3, -mcpu=gfx1030; gfx11,
-mcpu=gfx1100), one file per encoding family (generated and checked against llvm-mc by the probe scripts
in ``tools/isa_probe/``), merged here into one `OpcodeTable`. Each entry is
an `OpInfo`: the generation's LLVM name, encoding, opcode number, the operands in
assembly order (definitions first), accepted mnemonic spellings, modifiers,
implicit registers and an instruction class for cost models.

Passes and encoders ask the table; nobody hard-codes opcode lists.

The instruction vocabulary (ACO's ``aco_opcode``): every instruction has one
generation-neutral *canonical name*, `OpInfo.canon`, which the machine IR,
instruction selection and the passes use. It is LLVM 19's GFX11 spelling where
GFX11 has the instruction (``s_load_b32``, ``ds_load_u16``, ``s_and_not1_b32``)
and the generation's own spelling otherwise (``v_mac_f32``, ``s_store_dword``).
The correspondence of the older spellings (``s_load_dword`` is ``s_load_b32``)
is data generated from llvm-mc by ``tools/isa_probe/vocab.py`` into
``data/vocab.json``. `OpcodeTable.by_canon` indexes a generation's entries by
canonical name, so "does this generation have the instruction" is
``canonical in table.by_canon`` (`OpcodeTable.has`) and its LLVM spelling there
is the entry's `OpInfo.name` (what the assembler, disassembler and emission
print). `by_name` / `lookup` stay keyed by the LLVM spelling (the assembler's view).
"""

from __future__ import annotations

import itertools
import marshal
import os
import sys
from dataclasses import dataclass, field, fields, replace
from functools import cache
from pathlib import Path
from typing import Any

from radcc.target import GfxLevel

_UIDS = itertools.count(1)  # `OpInfo.uid`s

DATA_DIR = Path(__file__).parent / "data"


@dataclass(frozen=True, slots=True)
class OperandSpec:
    """One operand slot of an instruction.

    name: the ISA field/role (vdst, sdst, src0, src1, src2, vsrc1, ssrc0,
      simm16, sbase, sdata, soffset, vaddr, vdata, saddr, srsrc, ssamp,
      addr, data0, data1, label, ...)
    kind: what the slot accepts: 'vgpr', 'sgpr' (SGPR-only field), 'ssrc'
      (scalar source: SGPR/special/constant/literal), 'vsrc' (VGPR or any
      scalar source), 'vcsrc' (like vsrc without literal), 'imm', 'label',
      'special' (a fixed register printed in the syntax, see `fixed`), or a
      format-specific word such as 'hwreg', 'sendmsg', 'waitcnt', 'delay'.
    bits: operand width in bits (16, 32, 64, 96, 128, 160, 256, 512 ...).
    type: value type for constants: f16 f32 f64 bf16 i16 i32 i64 b16 b32
      b64 v2f16 v2i16 ... ('' where meaningless).
    is_def: written by the instruction.
    fixed: the register name for 'special' slots (e.g. 'vcc_lo').
    """

    name: str
    kind: str
    bits: int = 32
    type: str = ""
    is_def: bool = False
    fixed: str = ""
    # size in dwords, max(1, ceil(bits / 32)); a field (not a property): encoders ask often
    dwords: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "dwords", max(1, (self.bits + 31) // 32))


@dataclass(frozen=True, slots=True)
class OpInfo:
    """One (instruction, encoding) pair of the table."""

    name: str  # this generation's LLVM name, e.g. "v_add_f32" (see `canon`)
    enc: str  # encoding: SOP1 SOP2 SOPK SOPC SOPP SMEM VOP1 VOP2 VOPC VOP3 VOP3SD VOP3P VOPD ...
    opcode: int
    operands: tuple[OperandSpec, ...] = ()
    mnemonics: tuple[str, ...] = ()  # every spelling the assembler accepts for this entry
    asm_name: str = ""  # spelling llvm-mc prints (e.g. "v_add_f32_e32"); defaults to name
    modifiers: frozenset[str] = frozenset()  # clamp omod neg abs op_sel dpp dpp8 glc slc dlc ...
    implicit_reads: tuple[str, ...] = ()  # 'scc' 'vcc' 'exec' 'm0'
    implicit_writes: tuple[str, ...] = ()
    cls: str = ""  # instruction class for cost models: salu valu trans valu64 smem vmem ds ...
    aliases: tuple[str, ...] = ()  # older/alternative names (gfx10 spellings)
    extra: dict[str, object] = field(default_factory=dict, hash=False, compare=False)
    # the canonical (generation-neutral) name of the vocabulary; defaults to `name`
    canon: str = ""
    # `operands` split into definitions and sources, in order (derived, not arguments)
    defs: tuple[OperandSpec, ...] = field(init=False, repr=False, compare=False)
    srcs: tuple[OperandSpec, ...] = field(init=False, repr=False, compare=False)

    # a number no other entry has in this process (tables of every generation, entries
    # made outside them): what the passes key their memos of an entry's derived facts
    # by (per-entry plans, cost classes), never the object's id()
    uid: int = field(init=False, repr=False, compare=False, default=0)
    # the slots of `extra['lo128']` as a tuple (derived once: the encoders, the decoder
    # and the emitter ask per instruction; `radcc.isa.formats.vop.lo128_slots`)
    lo128: tuple[str, ...] = field(init=False, repr=False, compare=False, default=())

    def __post_init__(self) -> None:
        if not self.canon:
            object.__setattr__(self, "canon", self.name)
        object.__setattr__(self, "defs", tuple(o for o in self.operands if o.is_def))
        object.__setattr__(self, "srcs", tuple(o for o in self.operands if not o.is_def))
        object.__setattr__(self, "uid", next(_UIDS))
        lo = self.extra.get("lo128") if self.extra else None
        if isinstance(lo, list | tuple):
            object.__setattr__(self, "lo128", tuple(str(x) for x in lo))

    @property
    def printed_name(self) -> str:
        return self.asm_name or self.name

    def operand(self, name: str) -> OperandSpec | None:
        for o in self.operands:
            if o.name == name:
                return o
        return None

    def has_mod(self, m: str) -> bool:
        return m in self.modifiers


def _opinfo_from_json(enc: str, d: dict) -> OpInfo:
    ops = tuple(
        OperandSpec(
            name=o["name"],
            kind=o["kind"],
            bits=o.get("bits", 32),
            type=o.get("type", ""),
            is_def=o.get("is_def", False),
            fixed=o.get("fixed", ""),
        )
        for o in d.get("operands", ())
    )
    name = d["name"]
    known = {
        "name", "enc", "opcode", "operands", "mnemonics", "asm_name", "modifiers",
        "implicit_reads", "implicit_writes", "cls", "aliases",
    }
    return OpInfo(
        name=name,
        enc=d.get("enc", enc),
        opcode=d["opcode"],
        operands=ops,
        mnemonics=tuple(d.get("mnemonics", (name,))),
        asm_name=d.get("asm_name", ""),
        modifiers=frozenset(d.get("modifiers", ())),
        implicit_reads=tuple(d.get("implicit_reads", ())),
        implicit_writes=tuple(d.get("implicit_writes", ())),
        cls=d.get("cls", ""),
        aliases=tuple(d.get("aliases", ())),
        extra={k: v for k, v in d.items() if k not in known},
    )


# The encodings llvm-mc's SIInstrFlags::VOP3 marks: those an `_e64` suffix selects
# (`_e32` selects every other but a VOPD line's Y half).
VOP3_CLASS_ENCODINGS = frozenset(("VOP3", "VOP3P", "VOP3SD", "VINTERP"))
# LLVM defines these as VOP2 instructions that GFX10+ encodes only as VOP3: an `_e32`
# suffix selects them, `_e64` does not (llvm-mc-19: "e64 variant ... not supported").
_VOP2_ENCODED_AS_VOP3 = frozenset(("v_readlane_b32", "v_writelane_b32"))


def _forced_size_class(e: OpInfo) -> bool | None:
    """True if an `_e64` suffix selects this entry, False if `_e32` does, None if
    neither does."""
    if e.enc == "VOPDY":  # (a VOPD line's X half takes `_e32`, its Y half does not)
        return None
    return e.enc in VOP3_CLASS_ENCODINGS and e.name not in _VOP2_ENCODED_AS_VOP3


def _suffix_base(mnemonic: str) -> str | None:
    """The mnemonic without its `_e32`/`_e64` suffix (None if it has none; one
    suffix only, as llvm-mc strips one)."""
    suffix = mnemonic[-4:]
    if suffix != "_e32" and suffix != "_e64":
        return None
    base = mnemonic[:-4]
    return None if base[-4:] in ("_e32", "_e64") else base


class OpcodeTable:
    """All instructions of one generation, indexed by encoding, by LLVM name and by
    canonical name (module docstring)."""

    def __init__(self, gfx: GfxLevel, entries: list[OpInfo]) -> None:
        self.gfx = gfx
        self.entries = entries
        self.by_enc: dict[str, dict[int, OpInfo]] = {}
        self.by_mnemonic: dict[str, list[OpInfo]] = {}
        self.by_name: dict[str, list[OpInfo]] = {}
        self.by_canon: dict[str, list[OpInfo]] = {}
        for e in entries:
            self.by_enc.setdefault(e.enc, {})[e.opcode] = e
            self.by_name.setdefault(e.name, []).append(e)
            self.by_canon.setdefault(e.canon, []).append(e)
            for m in (*e.mnemonics, *e.aliases):
                lst = self.by_mnemonic.setdefault(m, [])
                if e not in lst:
                    lst.append(e)

    def decode(self, enc: str, opcode: int) -> OpInfo | None:
        return self.by_enc.get(enc, {}).get(opcode)

    def candidates(self, mnemonic: str) -> list[OpInfo]:
        """Entries that accept this spelling, in the order to try them.

        As llvm-mc's AMDGPU parser does, a spelling the table lacks that ends in
        `_e32` or `_e64` names its base mnemonic's entries of that encoding size:
        `_e64` the VOP3-class ones (VOP3, VOP3P, VOP3SD, VINTERP: `v_fma_f32_e64`),
        `_e32` every other (`s_mov_b32_e32`, `ds_store_b32_e32`)."""
        es = self.by_mnemonic.get(mnemonic)
        if es is not None:
            return es
        base = _suffix_base(mnemonic)
        if base is None:
            return []
        vop3 = mnemonic.endswith("_e64")
        found = [e for e in self.by_mnemonic.get(base, ()) if _forced_size_class(e) is vop3]
        if not found and vop3:  # an alias of the VOP1/VOP2 form (v_add_u32 = v_add_nc_u32)
            for e in self.by_mnemonic.get(base, ()):
                found += [x for x in self.by_canon.get(e.canon, ())
                          if _forced_size_class(x) and x not in found]
        return found

    def forced_size_error(self, mnemonic: str) -> str | None:
        """llvm-mc's message for `_e32`/`_e64` on a mnemonic without that encoding
        size (None if the base mnemonic is unknown too)."""
        base = _suffix_base(mnemonic)
        if base is not None and base in self.by_mnemonic:
            return f"{mnemonic[-3:]} variant of this instruction is not supported"
        return None

    def lookup(self, name: str, enc: str | None = None) -> OpInfo:
        """The entry of an LLVM name (and encoding); KeyError if none."""
        for e in self.by_name.get(name, ()):
            if enc is None or e.enc == enc:
                return e
        raise KeyError(f"{name} ({enc or 'any encoding'})")

    def encodings(self) -> list[str]:
        return sorted(self.by_enc)

    def has(self, canon: str) -> bool:
        """Whether this generation has the instruction of canonical name `canon`."""
        return canon in self.by_canon

    def spelling(self, canon: str) -> str:
        """This generation's LLVM name of the instruction `canon` (KeyError if absent)."""
        es = self.by_canon.get(canon)
        if not es:
            raise KeyError(f"{canon} does not exist on {self.gfx.name}")
        return es[0].name


_GEN_DIRS = {GfxLevel.GFX10: "gfx10", GfxLevel.GFX10_3: "gfx10_3", GfxLevel.GFX11: "gfx11"}
# The family files every generation's table is made of (one per tools/isa_probe
# script); a directory missing one would silently lack whole encodings.
FAMILY_FILES = ("scalar.json", "vop.json", "vop3.json", "vop3p.json", "memory.json", "mimg.json")


class TableError(ValueError):
    """A generation's opcode table is missing or incomplete (its message names
    the directory, the missing family files and how to regenerate them)."""


@cache
def get_table(gfx: GfxLevel) -> OpcodeTable:
    """The opcode table of a generation (loaded once).

    Parsed JSON is cached (marshal, in ``__pycache__`` next to the JSON,
    keyed by the JSON files' names, sizes and mtimes and the Python version):
    loading it is a few times faster than parsing ~1 MB of JSON at start-up.
    """
    try:
        d = DATA_DIR / _GEN_DIRS[gfx]
    except KeyError:
        raise TableError(f"no opcode table for {gfx.name} yet") from None
    return _load_table(gfx, d)


def _load_table(gfx: GfxLevel, d: Path) -> OpcodeTable:
    """The table in directory `d`; TableError if it or a family file is missing."""
    if not d.is_dir():
        raise TableError(f"opcode table for {gfx.name}: directory {d} does not exist "
                         "(generate it with the tools/isa_probe scripts)")
    missing = [f for f in FAMILY_FILES if not (d / f).is_file()]
    if missing:
        raise TableError(f"opcode table for {gfx.name} in {d} lacks the family files "
                         f"{', '.join(missing)} (generate them with the tools/isa_probe scripts)")
    paths = [*sorted(d.glob("*.json")), VOCAB_FILE]  # the canonical names are in the cache too
    key = [(p.name, st.st_size, st.st_mtime_ns) for p in paths for st in (p.stat(),)]
    cache_path = d / "__pycache__" / f"table.{sys.implementation.cache_tag}.marshal"
    entries = _load_cached(cache_path, key)
    if entries is None:
        import json  # the JSON files are read only when the cache is stale (start-up)

        entries = []
        for path in paths[:-1]:
            blob = json.loads(path.read_text())
            enc = blob.get("encoding", path.stem.upper())
            entries.extend(_opinfo_from_json(enc, x) for x in blob["opcodes"])
        canon = canonical_names(d.name)
        if canon:
            entries = [replace(e, canon=canon[e.name]) if e.name in canon else e
                       for e in entries]
        _store_cached(cache_path, key, entries)
    return OpcodeTable(gfx, entries)


VOCAB_FILE = DATA_DIR / "vocab.json"


@cache
def _vocab() -> dict[str, dict]:
    import json

    return json.loads(VOCAB_FILE.read_text())


def canonical_names(gen_dir: str) -> dict[str, str]:
    """LLVM spelling -> canonical name, for the spellings of table directory `gen_dir`
    (``gfx10``, ``gfx10_3``) that differ from their canonical name (data/vocab.json:
    llvm-mc's aliases, and the spellings that name a different GFX11 instruction)."""
    v = _vocab().get(gen_dir)
    if v is None:
        return {}
    return {**v["llvm_mc"], **v["distinct"]}


# The cache holds every entry as it is built from the JSON files (canonical names
# applied): the `OpInfo` fields in slot order, operand specs as indices into one list,
# equal strings and tuples stored once (marshal then writes references: a smaller file,
# unmarshalled in about half the time). Loading restores each entry's slots directly
# (`_restore`), as unpickling does, instead of calling `OpInfo.__init__` and
# `__post_init__` again on values they already produced: 1,478 GFX11 entries in
# ~4 ms instead of ~12 ms (issue 14, start-up).
_CACHE_VERSION = 3  # 3: OpInfo.lo128
# init=False ones too, in order; not `uid` (each restored entry gets a new one)
_OPINFO_SLOTS = tuple(f.name for f in fields(OpInfo) if f.name != "uid")
_SPEC_SLOTS = frozenset(("operands", "defs", "srcs"))


def _restore(values: list[list[Any]]) -> list[OpInfo]:
    """`OpInfo`s whose slots hold `values` (rows in `_OPINFO_SLOTS` order, as
    `_store_cached` wrote them after construction), without running ``__init__``."""
    setters = [OpInfo.__dict__[name].__set__ for name in _OPINFO_SLOTS]
    set_uid = OpInfo.__dict__["uid"].__set__
    new = object.__new__
    out = []
    for row in values:
        e = new(OpInfo)
        for set_slot, v in zip(setters, row, strict=True):
            set_slot(e, v)
        set_uid(e, next(_UIDS))
        out.append(e)
    return out


def _load_cached(path: Path, key: list[tuple[str, int, int]]) -> list[OpInfo] | None:
    try:
        ver, k, specs, rows = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if ver != _CACHE_VERSION or k != key:
        return None
    sp = [OperandSpec(*x) for x in specs]
    spec_cols = [i for i, name in enumerate(_OPINFO_SLOTS) if name in _SPEC_SLOTS]
    mods = _OPINFO_SLOTS.index("modifiers")
    built: dict[tuple, object] = {}  # equal index tuples (and modifier tuples) built once
    values: list[list[Any]] = []
    for r in rows:
        row = list(r)
        for i in spec_cols:
            idx = row[i]
            ops = built.get(idx)
            if ops is None:
                ops = built[idx] = tuple([sp[j] for j in idx])
            row[i] = ops
        m = ("mods", row[mods])
        ms = built.get(m)
        if ms is None:
            ms = built[m] = frozenset(row[mods])
        row[mods] = ms
        values.append(row)
    return _restore(values)


def _shared(v: object, memo: dict) -> object:
    """`v` with equal strings and tuples (recursively, in tuples, lists and dicts)
    replaced by one object each, so that marshal writes them once."""
    if isinstance(v, tuple):
        v = tuple(_shared(x, memo) for x in v)
    elif isinstance(v, list):
        return [_shared(x, memo) for x in v]
    elif isinstance(v, dict):
        return {_shared(k, memo): _shared(x, memo) for k, x in v.items()}
    elif not isinstance(v, str):
        return v
    try:
        return memo.setdefault((type(v), v), v)
    except TypeError:  # a tuple holding a dict
        return v


def _store_cached(path: Path, key: list[tuple[str, int, int]], entries: list[OpInfo]) -> None:
    specs: dict[tuple, int] = {}
    rows = []
    for e in entries:
        row: list[object] = []
        for name in _OPINFO_SLOTS:
            v = getattr(e, name)
            if name in _SPEC_SLOTS:
                v = tuple(specs.setdefault((o.name, o.kind, o.bits, o.type, o.is_def, o.fixed),
                                           len(specs)) for o in v)
            elif name == "modifiers":
                v = tuple(sorted(v))
            row.append(v)
        rows.append(tuple(row))
    try:
        blob = marshal.dumps(_shared((_CACHE_VERSION, key, list(specs), rows), {}))  # type: ignore[arg-type]
        path.parent.mkdir(exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(blob)
        os.replace(tmp, path)
    except (OSError, ValueError):
        pass  # read-only install or unmarshallable extra data: parse JSON every time
