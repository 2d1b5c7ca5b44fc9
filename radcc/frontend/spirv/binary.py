"""SPIR-V binary decoding: header and instruction stream, operands by grammar kind.

``decode(data)`` splits a module into its header and instructions and decodes
every operand by the kind the grammar gives it. Literal numbers whose width
depends on a type (OpConstant, OpSpecConstant, OpSwitch) are sized from the
integer and float types seen so far, as SPIRV-Tools' binary parser does.
Any malformed word raises ``SpirvError`` at the instruction's word offset.
"""

from __future__ import annotations

import struct
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from . import grammar
from .errors import SpirvError
from .grammar import OperandSpec

MAX_MINOR = 6  # SPIR-V 1.0 .. 1.6


@dataclass(frozen=True)
class Header:
    version: tuple[int, int]
    generator: int
    bound: int
    schema: int
    big_endian: bool = False


Value = int | float | str


@dataclass(unsafe_hash=True, slots=True)
class Operand:
    """One decoded operand.

    ``kind`` is the grammar's operand kind (``IdRef``, ``LiteralInteger``,
    ``StorageClass``...). ``value`` is the id, the integer (unsigned unless a
    context-dependent literal of a signed type), the float, the string, the
    enumerant value or the bit-mask. ``params`` holds the operands that an
    enumerant or the set bits of a mask carry (``Aligned 4``, ``LocalSize 8 1 1``).

    Immutable by convention: never changed after decoding (instructions share them,
    hashed by value as a frozen dataclass would be). Not frozen because a frozen
    dataclass's ``__init__`` sets each field through ``object.__setattr__``, about 4x
    the cost of a plain one's, and a module makes about one per instruction (one per
    distinct id use).
    """

    kind: str
    value: Value
    params: tuple[Operand, ...] = ()
    words: int = 1  # how many words the value itself took (literals: 1 or 2)
    bits: int = 0  # raw bits of a context-dependent number (exact for floats and -0.0)
    width: int = 0  # bit width of a context-dependent number (8, 16, 32 or 64)

    @property
    def is_id(self) -> bool:
        return self.kind in grammar.ID_KINDS

    @property
    def name(self) -> str:
        """Enumerant spelling (or mask spellings joined by ``|``); str(value) otherwise."""
        cat = grammar.category(self.kind)
        if cat == "ValueEnum":
            assert isinstance(self.value, int)
            return grammar.enum_name(self.kind, self.value)
        if cat == "BitEnum":
            assert isinstance(self.value, int)
            return mask_name(self.kind, self.value)
        return str(self.value)


def mask_name(kind: str, value: int) -> str:
    names = [grammar.enum_name(kind, 1 << b) for b in range(32) if value >> b & 1]
    return "|".join(names) if names else grammar.enum_name(kind, 0)


@dataclass(slots=True)
class Instruction:
    opcode: int
    opname: str
    result_type: int | None
    result_id: int | None
    operands: tuple[Operand, ...]  # after the result type and result id
    offset: int  # word offset of the first word in the module
    word_count: int = 0
    # `ids()` computed once (the decoder sets it where it reads the ids directly); the
    # operands are not changed after decoding
    id_list: tuple[int, ...] | None = field(default=None, repr=False, compare=False)

    def ids(self) -> list[int]:
        """Every id the operands reference (parameters included), in order."""
        c = self.id_list
        return list(c) if c is not None else list(self.id_tuple())

    def id_tuple(self) -> tuple[int, ...]:
        """`ids()` as the tuple kept on the instruction (not a copy)."""
        c = self.id_list
        if c is None:
            out: list[int] = []
            _ids_into(self.operands, out)
            c = self.id_list = tuple(out)
        return c

    def id(self, index: int) -> int:
        v = self.operands[index].value
        assert isinstance(v, int)
        return v

    def literal(self, index: int) -> Value:
        return self.operands[index].value


def _ids_into(operands: tuple[Operand, ...], out: list[int]) -> None:
    """Append the ids of `operands` and their parameters, depth first, in order."""
    for op in operands:
        if _is_id_kind(op.kind):
            assert isinstance(op.value, int)
            out.append(op.value)
        if op.params:
            _ids_into(op.params, out)


_ID_KINDS: dict[str, bool] = {}


def _is_id_kind(kind: str) -> bool:
    r = _ID_KINDS.get(kind)
    if r is None:
        r = _ID_KINDS[kind] = grammar.category(kind) == "Id"
    return r


@dataclass
class NumberType:
    width: int
    kind: str  # "int", "uint", "float" or "bfloat" (bfloat16, SPV_KHR_bfloat16)


@dataclass
class _Context:
    bound: int
    # the instructions decoded so far (`decode`'s output)
    decoded: list[Instruction] = field(default_factory=list)
    number_types: dict[int, NumberType] = field(default_factory=dict)
    # result id -> result type of `decoded`'s first `typed` instructions: only an OpSwitch
    # reads it (`_selector_type` brings it up to date), so no instruction pays for it
    result_types: dict[int, int] = field(default_factory=dict)
    typed: int = 0
    ext_sets: dict[int, str] = field(default_factory=dict)
    # the id operands decoded so far by kind and id: operands are immutable, so
    # instructions naming the same id share one
    id_operands: dict[str, dict[int, Operand]] = field(default_factory=dict)


def to_words(data: bytes | bytearray | Sequence[int]) -> tuple[list[int], bool]:
    """The module as little-endian-interpreted words and whether it was big-endian."""
    if isinstance(data, bytes | bytearray):
        if len(data) % 4:
            raise SpirvError(
                f"module size {len(data)} is not a multiple of 4 bytes", len(data) // 4
            )
        if len(data) < 20:
            raise SpirvError("module is shorter than the 5-word header", len(data) // 4)
        head = int.from_bytes(data[:4], "little")
        big = head != grammar.MAGIC and int.from_bytes(data[:4], "big") == grammar.MAGIC
        fmt = (">" if big else "<") + f"{len(data) // 4}I"
        return list(struct.unpack(fmt, data)), big
    words = list(data)
    if any(not 0 <= w <= 0xFFFFFFFF for w in words):
        raise SpirvError("word out of 32-bit range", 0)
    if len(words) < 5:
        raise SpirvError("module is shorter than the 5-word header", len(words))
    big = words[0] != grammar.MAGIC and words[0] == _bswap(grammar.MAGIC)
    if big:
        words = [_bswap(w) for w in words]
    return words, big


def _bswap(w: int) -> int:
    return int.from_bytes(w.to_bytes(4, "little"), "big")


def decode_header(words: Sequence[int], big_endian: bool = False) -> Header:
    if words[0] != grammar.MAGIC:
        raise SpirvError(f"bad magic number 0x{words[0]:08x} (expected 0x07230203)", 0)
    v = words[1]
    major, minor = v >> 16 & 0xFF, v >> 8 & 0xFF
    if v & 0xFF0000FF or major != 1 or minor > MAX_MINOR:
        raise SpirvError(f"unsupported SPIR-V version word 0x{v:08x} (1.0 to 1.6 accepted)", 1)
    if words[3] == 0:
        raise SpirvError("id bound is 0", 3)
    if words[4] != 0:
        raise SpirvError(f"schema is {words[4]}, must be 0", 4)
    return Header((major, minor), words[2], words[3], words[4], big_endian)


def decode(data: bytes | bytearray | Sequence[int]) -> tuple[Header, list[Instruction]]:
    words, big = to_words(data)
    header = decode_header(words, big)
    ctx = _Context(header.bound)
    out = ctx.decoded
    append = out.append
    bound = header.bound
    nwords = len(words)
    plans = _PLANS
    known = ctx.id_operands
    id_refs = known["IdRef"] = {}
    pos = 5
    while pos < nwords:
        first = words[pos]
        count, op = first >> 16, first & 0xFFFF
        plan = plans.get(op)
        if plan is None:
            plan = _plan(op)
        # an instruction of a word plan whose word count fits it (`_WordPlan`): decoded
        # here unless a word is out of its plan (an id out of range, an enumerant with
        # parameters or none); anything else (errors included) takes `_decode_instruction`
        if plan.min_words <= count <= plan.max_words and pos + count <= nwords:
            vals = words[pos + 1:pos + count]
            skip = plan.skip
            rest: list[int] | None  # None: a word out of the plan
            rest = vals[skip:] if skip else vals
            operands: Sequence[Operand] = []
            ins_ids: tuple[int, ...] | None = None
            if plan.all_ids or count == plan.id_words:
                if vals and (0 in vals or max(vals) >= bound):
                    rest = None
                elif plan.id_refs:  # (every operand an IdRef: one table, no kind per word)
                    refs: list[Operand] = []
                    for v in rest:
                        o = id_refs.get(v)
                        if o is None:
                            o = id_refs[v] = Operand("IdRef", v)
                        refs.append(o)
                    operands = refs
                    ins_ids = tuple(rest)
                else:
                    kinds = plan.kinds
                    nk = len(kinds)
                    k = 0
                    id_ops: list[Operand] = []
                    for v in rest:
                        kind = kinds[k] if k < nk else plan.tail
                        k += 1
                        by_kind = known.get(kind)
                        if by_kind is None:
                            by_kind = known[kind] = {}
                        o = by_kind.get(v)
                        if o is None:
                            o = by_kind[v] = Operand(kind, v)
                        id_ops.append(o)
                    operands = id_ops
                    ins_ids = tuple(rest)
            else:
                mixed = _decode_mixed(plan, vals, bound, known)
                if mixed is None:
                    rest = None
                else:
                    operands, ins_ids = mixed
            if rest is not None:
                rt_at, rid_at = plan.rt_at, plan.rid_at
                rt = vals[rt_at] if rt_at >= 0 else None
                rid = vals[rid_at] if rid_at >= 0 else None
                append(Instruction(op, plan.opname, rt, rid, tuple(operands), pos, count,
                                   ins_ids))
                pos += count
                continue
        info = plan.info
        name = info.opname if info else f"Op<{op}>"
        if count == 0:
            raise SpirvError("word count is 0", pos, name)
        if pos + count > nwords:
            raise SpirvError(
                f"word count {count} runs past the end of the module ({nwords - pos} left)",
                pos,
                name,
            )
        if info is None:
            raise SpirvError(f"unknown opcode {op}", pos, name)
        ins: Instruction | None = None
        if op == _OP_CONSTANT or op == _OP_SPEC_CONSTANT:
            ins = _decode_constant(info, words, pos, count, ctx)
        elif op == _OP_EXT_INST:
            ins = _decode_ext_inst(info, words, pos, count, ctx)
        elif op == _OP_SPEC_CONSTANT_OP:
            ins = _decode_spec_op(info, words, pos, count, ctx)
        append(ins or _decode_instruction(info, words, pos, count, ctx))
        pos += count
    return header, out


_OP_CONSTANT = grammar.opcode("OpConstant")
_OP_SPEC_CONSTANT = grammar.opcode("OpSpecConstant")


def _decode_constant(info: grammar.InstructionInfo, words: Sequence[int], pos: int,
                     count: int, ctx: _Context) -> Instruction | None:
    """`_decode_instruction` of an OpConstant or OpSpecConstant (with OpSpecConstantOp,
    most of a module's general-path instructions) without the walk over its grammar
    entry: None unless its result type
    and id are in range, the type is a declared number type and the words are the
    value's (then the general decoder says what is wrong); the value's own checks are
    `_number`'s."""
    rt, rid = words[pos + 1], words[pos + 2]
    bound = ctx.bound
    t = ctx.number_types.get(rt)
    if not (0 < rt < bound and 0 < rid < bound) or t is None or \
            count != (5 if t.width == 64 else 4):
        return None
    r = _Reader(words, pos + 1, pos + count, info)  # (errors at the general path's offset)
    r.pos = pos + 3
    value = _number(r, t, "value")
    return Instruction(info.opcode, info.opname, rt, rid, (value,), pos, count)


_OP_EXT_INST = grammar.opcode("OpExtInst")
# (extended instruction set, instruction number) -> how many operands it takes when they
# are all ids, one each (every GLSL.std.450 instruction); None: other operands
_EXT_ID_COUNTS: dict[tuple[str, int], int | None] = {}


def _ext_id_count(set_name: str, number: int) -> int | None:
    """`_EXT_ID_COUNTS` of an instruction (computed once per instruction)."""
    key = (set_name, number)
    if key in _EXT_ID_COUNTS:
        return _EXT_ID_COUNTS[key]
    row = grammar.ext_instruction(set_name, number) if grammar.known_ext_set(set_name) \
        else None
    n = None if row is None or any(s.kind != "IdRef" or s.quantifier for s in row[1]) \
        else len(row[1])
    _EXT_ID_COUNTS[key] = n
    return n


def _decode_ext_inst(info: grammar.InstructionInfo, words: Sequence[int], pos: int,
                     count: int, ctx: _Context) -> Instruction | None:
    """`_decode_instruction` of an OpExtInst whose instruction takes ids alone (a known
    set's), without the walk over the two grammars: None unless every id is in range,
    the set is a previous OpExtInstImport and the words are the instruction's (then the
    general decoder says what is wrong). Its operands: the set, the instruction number
    and the ids, shared as `decode` shares one-word operands (`_shared`)."""
    if count < 5:
        return None
    rt, rid, set_id, number = words[pos + 1], words[pos + 2], words[pos + 3], words[pos + 4]
    set_name = ctx.ext_sets.get(set_id)
    if set_name is None:
        return None
    n = _ext_id_count(set_name, number)
    if n is None or count != 5 + n:
        return None
    ids = tuple(words[pos + 5:pos + count])
    bound = ctx.bound
    if min(rt, rid, set_id) == 0 or max(rt, rid, set_id) >= bound or (
            ids and (0 in ids or max(ids) >= bound)):
        return None
    known = ctx.id_operands
    operands = [_shared(known, "IdRef", set_id), _shared(known, "LiteralExtInstInteger", number)]
    operands += [_shared(known, "IdRef", v) for v in ids]
    return Instruction(info.opcode, info.opname, rt, rid, tuple(operands), pos, count,
                       (set_id,) + ids)


_OP_SPEC_CONSTANT_OP = grammar.opcode("OpSpecConstantOp")
# operation (an opcode) -> how many operands it takes in an OpSpecConstantOp when they
# are all IdRefs, one each (OpIAdd, OpIMul, OpSelect...); None: other operands, or no
# operation with a result
_SPEC_OP_ID_COUNTS: dict[int, int | None] = {}


def _spec_op_id_count(number: int) -> int | None:
    """`_SPEC_OP_ID_COUNTS` of an operation (computed once per operation)."""
    if number in _SPEC_OP_ID_COUNTS:
        return _SPEC_OP_ID_COUNTS[number]
    inner = grammar.instruction(number)
    n: int | None = None
    if inner is not None and inner.has_result_type:
        specs = [s for s in inner.operands if s.kind not in ("IdResultType", "IdResult")]
        if all(s.kind == "IdRef" and not s.quantifier for s in specs):
            n = len(specs)
    _SPEC_OP_ID_COUNTS[number] = n
    return n


def _decode_spec_op(info: grammar.InstructionInfo, words: Sequence[int], pos: int,
                    count: int, ctx: _Context) -> Instruction | None:
    """`_decode_instruction` of an OpSpecConstantOp whose operation takes ids alone,
    without the walk over the two grammar entries: None unless the result type, the
    result id and every id are in range and the words are the operation's (then the
    general decoder says what is wrong). Its operands: the operation and the ids,
    shared as `decode` shares one-word operands (`_shared`)."""
    if count < 4:
        return None
    rt, rid, number = words[pos + 1], words[pos + 2], words[pos + 3]
    n = _spec_op_id_count(number)
    if n is None or count != 4 + n:
        return None
    ids = tuple(words[pos + 4:pos + count])
    bound = ctx.bound
    if not (0 < rt < bound and 0 < rid < bound) or (ids and (0 in ids or max(ids) >= bound)):
        return None
    known = ctx.id_operands
    operands = [_shared(known, "LiteralSpecConstantOpInteger", number)]
    operands += [_shared(known, "IdRef", v) for v in ids]
    return Instruction(info.opcode, info.opname, rt, rid, tuple(operands), pos, count, ids)


def _decode_mixed(plan: _WordPlan, vals: list[int], bound: int,
                  known: dict[str, dict[int, Operand]]
                  ) -> tuple[tuple[Operand, ...], tuple[int, ...]] | None:
    """`decode` of an instruction of a word plan with operands other than ids: its
    operands and ids, or None when a word is not what the plan accepts (the general
    decoder then says what is wrong)."""
    skip = plan.skip
    for v in vals[:skip]:
        if v == 0 or v >= bound:
            return None
    rest = vals[skip:]
    kinds, codes = plan.kinds, plan.codes
    nk = len(kinds)
    last = plan.last
    one = rest[:nk - 1] if last == _STRING else rest[:nk] if last == _PARAMS else rest
    operands: list[Operand] = []
    ids: list[int] = []
    k = 0
    for v in one:
        if k < nk:
            kind, code = kinds[k], codes[k]
        else:
            kind, code = plan.tail, plan.tail_code
        k += 1
        if code == _ID:
            if v == 0 or v >= bound:
                return None
            ids.append(v)
        elif code == _VALUE_ENUM:
            if v not in _PLAIN_VALUES[kind]:
                if last != _PARAMS or k != nk:
                    return None
                # the last operand, an enumerant with one-word parameters (Offset 16)
                pspecs = _ENUM_PARAMS[kind].get(v)
                if pspecs is None or len(rest) - nk != len(pspecs):
                    return None
                params: list[Operand] = []
                for (pkind, pcode), w in zip(pspecs, rest[nk:], strict=True):
                    if pcode == _ID:
                        if w == 0 or w >= bound:
                            return None
                        ids.append(w)
                    elif pcode == _VALUE_ENUM and w not in _PLAIN_VALUES[pkind]:
                        return None
                    params.append(_shared(known, pkind, w))
                operands.append(Operand(kind, v, tuple(params)))
                return tuple(operands), tuple(ids)
        elif code == _BIT_ENUM and v & _PLAIN_BITS[kind] != v:
            return None
        operands.append(_shared(known, kind, v))
    if last == _PARAMS:
        if len(rest) != nk:  # (a parameterless enumerant with words after it)
            return None
    elif last == _STRING:
        # the last operand, a string: its words hold one nul, in the last word
        swords = rest[nk - 1:]
        raw = struct.pack(f"<{len(swords)}I", *swords)
        z = raw.find(0)
        if z < len(raw) - 4:
            return None
        try:
            text = raw[:z].decode("utf-8")
        except UnicodeDecodeError:
            return None
        operands.append(Operand("LiteralString", text, words=len(swords)))
    return tuple(operands), tuple(ids)


def _shared(known: dict[str, dict[int, Operand]], kind: str, v: int) -> Operand:
    """The one-word operand (`kind`, `v`) of a module: operands are immutable, so
    instructions naming the same one share it."""
    by_kind = known.get(kind)
    if by_kind is None:
        by_kind = known[kind] = {}
    o = by_kind.get(v)
    if o is None:
        o = by_kind[v] = Operand(kind, v)
    return o


class _Reader:
    def __init__(self, words: Sequence[int], pos: int, end: int, info: grammar.InstructionInfo):
        self.words, self.pos, self.end, self.info, self.start = words, pos, end, info, pos

    def fail(self, msg: str) -> SpirvError:
        return SpirvError(msg, self.start, self.info.opname)

    def left(self) -> int:
        return self.end - self.pos

    def word(self, what: str) -> int:
        if self.pos >= self.end:
            raise self.fail(f"missing operand: {what}")
        w = self.words[self.pos]
        self.pos += 1
        return w


# `_WordPlan.codes`: how an operand word is checked: an id (in range), a one-word literal
# (any value; `_ONE_WORD`, not LITERAL: that is radcc.isa.operands' source-operand code), a
# value enumerant without parameters (`_PLAIN_VALUES`), a mask of bits without parameters
# (`_PLAIN_BITS`)
_ID, _ONE_WORD, _VALUE_ENUM, _BIT_ENUM = 0, 1, 2, 3
_CODES = {"Id": _ID, "ValueEnum": _VALUE_ENUM, "BitEnum": _BIT_ENUM}
_PLAIN_VALUES: dict[str, frozenset[int]] = {}
_PLAIN_BITS: dict[str, int] = {}
# per value enum kind: the enumerants whose parameters each take one word -> their kinds
# and `_code`s
_ENUM_PARAMS: dict[str, dict[int, tuple[tuple[str, int], ...]]] = {}
# `_WordPlan.last`: the last operand is a string, or a value enumerant that may carry
# one-word parameters
_STRING, _PARAMS = 1, 2


def _code(kind: str) -> int | None:
    """`_WordPlan.codes` of an operand of `kind` (None: one word is not the whole
    operand, or its meaning depends on other operands)."""
    if kind == "LiteralInteger":
        return _ONE_WORD
    code = _CODES.get(grammar.category(kind))
    if code == _VALUE_ENUM and kind not in _PLAIN_VALUES:
        _PLAIN_VALUES[kind] = frozenset(e.value for e in grammar.enumerants(kind)
                                        if not e.parameters)
        _ENUM_PARAMS[kind] = {}
        for e in grammar.enumerants(kind):
            pcodes = [_code(p) for p in e.parameters]
            if e.parameters and all(c in (_ID, _ONE_WORD) or c == _VALUE_ENUM and p != kind
                                    for c, p in zip(pcodes, e.parameters, strict=True)):
                _ENUM_PARAMS[kind][e.value] = tuple(
                    (p, c or 0) for p, c in zip(e.parameters, pcodes, strict=True))
    elif code == _BIT_ENUM and kind not in _PLAIN_BITS:
        _PLAIN_BITS[kind] = sum(e.value for e in grammar.enumerants(kind)
                                if not e.parameters and e.value and not e.value & e.value - 1)
    return code


class _WordPlan:
    """What `decode` needs of an opcode, from its grammar entry (constant): computed once
    per opcode (`_plan`), not per instruction.

    An instruction whose operands each take one word (ids, one-word literals, enumerants
    and masks), with at most its last one optional or repeated (most of a shader's
    instructions), is decoded directly from its words when its word count is in
    [`min_words`, `max_words`] and every word is what its `codes` entry accepts: the
    result type and result id lead (at `rt_at`, `rid_at` of the words after the first;
    -1: none; `skip` of them), then the operands of `kinds` and any number of `tail`
    (`tail_code`); `all_ids` when they are all ids (`id_refs` when all IdRefs, looked
    up in one table), `id_words` the word count at which
    they are (without its optional or repeated operand: an OpLoad of no memory
    operands; 0: none). Other opcodes (and unknown ones:
    `info` None) get an empty word range."""

    __slots__ = ("info", "opname", "min_words", "max_words", "skip", "rt_at", "rid_at",
                 "kinds", "codes", "tail", "tail_code", "all_ids", "id_words", "last",
                 "id_refs")

    def __init__(self, opcode: int) -> None:
        info = self.info = grammar.instruction(opcode)
        self.opname = info.opname if info else f"Op<{opcode}>"
        self.min_words, self.max_words = 1, 0
        self.skip = 0
        self.rt_at = self.rid_at = -1
        self.kinds: tuple[str, ...] = ()
        self.codes: tuple[int, ...] = ()
        self.tail = ""
        self.tail_code = _ID
        self.all_ids = False
        self.id_words = 0
        self.last = 0
        self.id_refs = False
        # what later operands need is remembered of these (`_track`)
        if info is None or info.opname in ("OpTypeInt", "OpTypeFloat", "OpExtInstImport"):
            return
        specs = info.operands
        tail = [s for s in specs if s.quantifier]
        if len(tail) > 1 or (tail and tail[0] is not specs[-1]):
            return
        codes = [_code(s.kind) for s in specs]
        if not tail and specs and specs[-1].kind == "LiteralString":
            self.last = _STRING
            codes[-1] = _ONE_WORD
        elif not tail and codes and codes[-1] == _VALUE_ENUM:
            self.last = _PARAMS
        if None in codes:
            return
        fixed = tuple(s.kind for s in specs if not s.quantifier)
        # the result type and result id: first, as the grammar puts them
        skip = 0
        for k, kind in enumerate(fixed):
            if kind == "IdResultType" and k == skip and self.rid_at < 0:
                self.rt_at = k
            elif kind == "IdResult" and k == skip:
                self.rid_at = k
            else:
                break
            skip += 1
        if any(kind in ("IdResultType", "IdResult") for kind in fixed[skip:]) or (
                tail and tail[0].kind in ("IdResultType", "IdResult")):
            self.rt_at = self.rid_at = -1
            return
        self.skip = skip
        self.kinds = fixed[skip:]
        self.codes = tuple(codes[len(specs) - len(self.kinds) - bool(tail):len(specs)  # type: ignore[arg-type]
                                 - bool(tail)])  # (no None: returned above)
        if tail:
            self.tail = tail[0].kind
            self.tail_code = _code(self.tail) or 0
        self.all_ids = all(c == _ID for c in self.codes) and self.tail_code == _ID
        quant = tail[0].quantifier if tail else ""
        self.min_words = 1 + len(fixed)
        self.max_words = (1 << 16 if quant == "*" or self.last == _STRING
                          else self.min_words + 1 if quant == "?"
                          else self.min_words + 4 if self.last == _PARAMS
                          else self.min_words)
        if tail and not self.all_ids and all(c == _ID for c in self.codes):
            self.id_words = self.min_words  # (the operands before the tail are ids)
        # every operand an IdRef (an `id_words` instruction's tail aside: not there)
        self.id_refs = all(k == "IdRef" for k in self.kinds) and (
            self.tail in ("", "IdRef") if self.all_ids else self.id_words > 0)


_PLANS: dict[int, _WordPlan] = {}


def _plan(opcode: int) -> _WordPlan:
    p = _PLANS.get(opcode)
    if p is None:
        p = _PLANS[opcode] = _WordPlan(opcode)
    return p


def _decode_instruction(
    info: grammar.InstructionInfo, words: Sequence[int], pos: int, count: int, ctx: _Context
) -> Instruction:
    r = _Reader(words, pos + 1, pos + count, info)
    result_type: int | None = None
    result_id: int | None = None
    operands: list[Operand] = []
    specs = list(info.operands)
    i = 0
    while i < len(specs):
        spec = specs[i]
        i += 1
        if spec.quantifier and r.left() == 0:
            continue
        if spec.kind == "IdResultType":
            result_type = _id(r, "result type", ctx)
            continue
        if spec.kind == "IdResult":
            result_id = _id(r, "result id", ctx)
            continue
        while True:
            op = _operand(r, spec.kind, ctx, info, operands, result_type)
            operands.append(op)
            if op.kind == "LiteralSpecConstantOpInteger":  # the rest follows the operation
                specs[i:] = _spec_op_operands(r, op)
            elif op.kind == "LiteralExtInstInteger":  # the rest follows the ext grammar
                specs[i:] = _ext_inst_operands(r, operands, op, ctx)
            if spec.quantifier != "*" or r.left() == 0:
                break
    if r.left():
        raise r.fail(f"{r.left()} word(s) left over after the last operand")
    ins = Instruction(info.opcode, info.opname, result_type, result_id, tuple(operands), pos, count)
    _track(ins, ctx)
    return ins


def _track(ins: Instruction, ctx: _Context) -> None:
    """Remember what later context-dependent literals need."""
    if ins.result_id is None:
        return
    if ins.opname == "OpTypeInt":
        signed = ins.literal(1)
        ctx.number_types[ins.result_id] = NumberType(
            int(ins.literal(0)), "int" if signed else "uint"
        )
    elif ins.opname == "OpTypeFloat":  # a second operand: FPEncoding BFloat16KHR
        ctx.number_types[ins.result_id] = NumberType(
            int(ins.literal(0)), "bfloat" if len(ins.operands) > 1 else "float")
    elif ins.opname == "OpExtInstImport":
        ctx.ext_sets[ins.result_id] = str(ins.literal(0))


def _id(r: _Reader, what: str, ctx: _Context) -> int:
    v = r.word(what)
    if v == 0 or v >= ctx.bound:
        raise r.fail(f"{what} id {v} is out of range (bound {ctx.bound})")
    return v


def _operand(
    r: _Reader,
    kind: str,
    ctx: _Context,
    info: grammar.InstructionInfo,
    prev: list[Operand],
    result_type: int | None,
) -> Operand:
    cat = grammar.category(kind)
    if cat == "Id":
        return Operand(kind, _id(r, kind, ctx))
    if cat == "Composite":
        b0, b1 = grammar.bases(kind)
        if info.opname == "OpSwitch" and b0 == "LiteralInteger":
            first = _number(r, _selector_type(r, prev, ctx), "case literal")
        else:
            first = _operand(r, b0, ctx, info, prev, result_type)
        second = _operand(r, b1, ctx, info, prev, result_type)
        return Operand(kind, 0, (first, second))
    if kind == "LiteralString":
        return _string(r)
    if kind == "LiteralContextDependentNumber":
        if result_type is None or result_type not in ctx.number_types:
            raise r.fail(f"result type %{result_type} is not a previously declared int or float")
        return _number(r, ctx.number_types[result_type], "value")
    if cat == "Literal":
        return Operand(kind, r.word(kind))
    if cat == "ValueEnum":
        v = r.word(kind)
        e = grammar.enumerant(kind, v)
        if e is None:
            raise r.fail(f"invalid {kind} value {v}")
        params = tuple(_operand(r, p, ctx, info, prev, result_type) for p in e.parameters)
        return Operand(kind, v, params)
    if cat == "BitEnum":
        v = r.word(kind)
        params_l: list[Operand] = []
        for b in range(32):
            if v >> b & 1:
                e = grammar.enumerant(kind, 1 << b)
                if e is None:
                    raise r.fail(f"invalid {kind} mask bit 0x{1 << b:x} in 0x{v:x}")
                params_l += [_operand(r, p, ctx, info, prev, result_type) for p in e.parameters]
        return Operand(kind, v, tuple(params_l))
    raise r.fail(f"operand kind {kind} is not supported")  # pragma: no cover


def _selector_type(r: _Reader, prev: list[Operand], ctx: _Context) -> NumberType:
    sel = prev[0].value
    assert isinstance(sel, int)
    types, decoded = ctx.result_types, ctx.decoded
    for ins in decoded[ctx.typed:]:
        if ins.result_id is not None and ins.result_type is not None:
            types[ins.result_id] = ins.result_type
    ctx.typed = len(decoded)
    t = types.get(sel)
    if t is None or t not in ctx.number_types or ctx.number_types[t].kind in ("float", "bfloat"):
        raise r.fail(f"selector %{sel} is not a previously defined integer value")
    return ctx.number_types[t]


def _number(r: _Reader, t: NumberType, what: str) -> Operand:
    kind = "LiteralContextDependentNumber"
    if t.width not in (8, 16, 32, 64) or (t.kind != "int" and t.kind != "uint" and t.width == 8) \
            or (t.kind == "bfloat" and t.width != 16):  # BFloat16KHR is 16-bit only
        raise r.fail(f"{t.kind}{t.width} literals are not supported")
    lo = r.word(what)
    if t.width == 64:
        bits = lo | r.word(what) << 32
    else:
        bits = lo
        if t.width < 32:
            high = bits >> t.width
            negative = t.kind == "int" and bits >> (t.width - 1) & 1
            if high != ((1 << (32 - t.width)) - 1 if negative else 0):
                raise r.fail(f"{what} 0x{bits:x} has high-order bits set beyond {t.width} bits")
            bits &= (1 << t.width) - 1
    n = 2 if t.width == 64 else 1
    if t.kind == "bfloat":  # the high half of a float32
        return Operand(kind, bits_to_float(bits << 16, 32), words=n, bits=bits, width=t.width)
    if t.kind == "float":
        return Operand(kind, bits_to_float(bits, t.width), words=n, bits=bits, width=t.width)
    if t.kind == "int" and bits >> (t.width - 1):
        return Operand(kind, bits - (1 << t.width), words=n, bits=bits, width=t.width)
    return Operand(kind, bits, words=n, bits=bits, width=t.width)


def bits_to_float(bits: int, width: int) -> float:
    return float(_FLOATS[width].unpack(bits.to_bytes(width // 8, "little"))[0])


# the IEEE binary formats by width, compiled once (not a format string parsed per value)
_FLOATS = {16: struct.Struct("<e"), 32: struct.Struct("<f"), 64: struct.Struct("<d")}


def _string(r: _Reader) -> Operand:
    raw = bytearray()
    n = 0
    while True:
        w = r.word("string")
        n += 1
        b = w.to_bytes(4, "little")
        if 0 in b:
            raw += b[: b.index(0)]
            break
        raw += b
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise r.fail(f"string is not valid UTF-8 ({e.reason})") from None
    return Operand("LiteralString", text, words=n)


def _spec_op_operands(r: _Reader, op: Operand) -> list[OperandSpec]:
    assert isinstance(op.value, int)
    inner = grammar.instruction(op.value)
    if inner is None or not inner.has_result_type:
        raise r.fail(f"opcode {op.value} cannot be used in OpSpecConstantOp")
    return [s for s in inner.operands if s.kind not in ("IdResultType", "IdResult")]


def _ext_inst_operands(
    r: _Reader, operands: list[Operand], op: Operand, ctx: _Context
) -> list[OperandSpec]:
    set_id = operands[0].value
    assert isinstance(set_id, int) and isinstance(op.value, int)
    set_name = ctx.ext_sets.get(set_id)
    if set_name is None:
        raise r.fail(f"%{set_id} is not a previous OpExtInstImport")
    if not grammar.known_ext_set(set_name):
        return [OperandSpec("IdRef", "*")]
    row = grammar.ext_instruction(set_name, op.value)
    if row is None:
        raise r.fail(f"unknown {set_name} instruction {op.value}")
    return list(row[1])


if sys.byteorder != "little":  # pragma: no cover
    raise ImportError("radcc's SPIR-V reader assumes a little-endian host")
