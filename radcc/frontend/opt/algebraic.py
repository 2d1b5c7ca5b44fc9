"""algebraic: a small table of algebraic rewrites (after NIR's opt_algebraic).

Each rule is ``(search, replace)``: a search is ``(opcode, operand...)`` where an
operand is a variable name (``"a"`` matches any value; a repeated name must be
the same value), a number (a constant whose every component equals it, read in
the opcode's source type: integers as raw bits of the size, floats as floats),
``"#p"`` (any constant that is a power of two, bound as an integer), another
``"#name"`` (any constant, bound as a value), ``"name!"`` (a value that is not a constant,
bound as ``name``), or a nested search on the defining instruction. A replacement is a variable, a
number (a constant of the destination's size and type), or ``(opcode, ...)``
built with the destination's size; ``log2(p)`` and ``p-1`` stand for the
bound power of two. Commutative opcodes also match with their two sources swapped.

``INEXACT_RULES`` are NIR's ``~`` rules: they may change the sign of a zero or lose an
infinity or NaN (``x * 0.0`` is 0.0), so they apply only to an instruction that is not
``exact`` (GLSL ``precise``, SPIR-V NoContraction) and whose float size the shader does not
preserve (``MirShader.float_preserve``, SignedZeroInfNanPreserve). Division and
remainder by a constant 0 are 0 (undefined in GLSL and SPIR-V; 0 is what NIR's
constant folding and the MIR interpreter give).
"""

from __future__ import annotations

from typing import Any

from ..mir import Instr, MirShader, Value, const_of, mask, rewrite_uses
from ..mir_builder import float_bits
from ..mir_ops import ALU_OPS, COMMUTATIVE

Rule = tuple[tuple[Any, ...], Any]

RULES: list[Rule] = [
    (("iadd", "a", 0), "a"),
    (("isub", "a", 0), "a"),
    (("isub", "a", "a"), 0),
    (("imul", "a", 1), "a"),
    (("imul", "a", 0), 0),
    (("imul", "a", "#p"), ("ishl", "a", "log2(p)")),
    (("udiv", "a", 1), "a"),
    (("idiv", "a", 1), "a"),
    (("idiv", "a", -1), ("ineg", "a")),
    (("umod", "a", 1), 0),
    (("irem", "a", 1), 0),
    (("imod", "a", 1), 0),
    (("irem", "a", -1), 0),
    (("imod", "a", -1), 0),
    (("udiv", "a", 0), 0),
    (("idiv", "a", 0), 0),
    (("umod", "a", 0), 0),
    (("irem", "a", 0), 0),
    (("imod", "a", 0), 0),
    (("udiv", "a", "#p"), ("ushr", "a", "log2(p)")),
    (("umod", "a", "#p"), ("iand", "a", "p-1")),
    (("iand", "a", 0), 0),
    (("iand", "a", -1), "a"),
    (("iand", "a", "a"), "a"),
    (("ior", "a", 0), "a"),
    (("ior", "a", -1), -1),
    (("ior", "a", "a"), "a"),
    (("ixor", "a", 0), "a"),
    (("ixor", "a", "a"), 0),
    (("ishl", "a", 0), "a"),
    (("ishr", "a", 0), "a"),
    (("ushr", "a", 0), "a"),
    (("ineg", ("ineg", "a")), "a"),
    (("inot", ("inot", "a")), "a"),
    (("fneg", ("fneg", "a")), "a"),
    (("fabs", ("fabs", "a")), ("fabs", "a")),
    (("fabs", ("fneg", "a")), ("fabs", "a")),
    (("fmul", "a", 1.0), "a"),
    (("fadd", "a", -0.0), "a"),
    (("fsub", "a", 0.0), "a"),
    (("fmul", "a", -1.0), ("fneg", "a")),
    (("ffma", "a", 1.0, "b"), ("fadd", "a", "b")),
    (("ffma", 1.0, "a", "b"), ("fadd", "a", "b")),
    (("ffma", "a", -1.0, "b"), ("fsub", "b", "a")),
    (("ffma", -1.0, "a", "b"), ("fsub", "b", "a")),
    (("fmin", "a", "a"), "a"),
    (("fmax", "a", "a"), "a"),
    (("bcsel", "c", "a", "a"), "a"),
    (("bcsel", "c", "a", "c"), ("iand", "c", "a")),  # booleans: c && a
    (("bcsel", "c", "c", "a"), ("ior", "c", "a")),  # booleans: c || a
    (("bcsel", ("inot", "c"), "a", "b"), ("bcsel", "c", "b", "a")),
    (("ieq", "a", "a"), True),
    (("ine", "a", "a"), False),
    (("inot", ("ilt", "a", "b")), ("ige", "a", "b")),
    (("inot", ("ige", "a", "b")), ("ilt", "a", "b")),
    (("inot", ("ult", "a", "b")), ("uge", "a", "b")),
    (("inot", ("uge", "a", "b")), ("ult", "a", "b")),
    (("inot", ("ieq", "a", "b")), ("ine", "a", "b")),
    (("inot", ("ine", "a", "b")), ("ieq", "a", "b")),
    (("inot", ("feq", "a", "b")), ("fneu", "a", "b")),
    (("inot", ("fneu", "a", "b")), ("feq", "a", "b")),
]

# 32-bit values only (the shift amounts name a 32-bit value's bytes and halves): NIR's
# extract_i8/i16 (ACO's v_bfe_i32) of the source idiom (a << 24 - 8k) >> 24, and the
# low bits of a sign extension are the field's own (extract_u8/u16)
RULES_32: list[Rule] = [
    (("ishr", ("ishl", "a", 24), 24), ("ibfe", "a", 0, 8)),
    (("ishr", ("ishl", "a", 16), 24), ("ibfe", "a", 8, 8)),
    (("ishr", ("ishl", "a", 8), 24), ("ibfe", "a", 16, 8)),
    (("ishr", ("ishl", "a", 16), 16), ("ibfe", "a", 0, 16)),
    (("ushr", ("ishl", "a", 24), 24), ("ubfe", "a", 0, 8)),
    (("ushr", ("ishl", "a", 16), 24), ("ubfe", "a", 8, 8)),
    (("ushr", ("ishl", "a", 8), 24), ("ubfe", "a", 16, 8)),
    (("ushr", ("ishl", "a", 16), 16), ("ubfe", "a", 0, 16)),
    (("iand", ("ibfe", "a", "b", 8), 0xFF), ("ubfe", "a", "b", 8)),
    (("iand", ("ibfe", "a", "b", 16), 0xFFFF), ("ubfe", "a", "b", 16)),
    (("iand", ("ishr", "a", 24), 0xFF), ("ushr", "a", 24)),
    (("iand", ("ishr", "a", 16), 0xFFFF), ("ushr", "a", 16)),
]

# may change a zero's sign or drop an Inf/NaN: not for exact instructions (module docstring)
INEXACT_RULES: list[Rule] = [
    (("fmul", "a", 0.0), 0.0),
    (("ffma", "a", 0.0, "b"), "b"),
    (("ffma", 0.0, "a", "b"), "b"),
    (("fadd", "a", 0.0), "a"),
    # a - a (NIR's fsub is fadd + fneg): Inf - Inf and NaN - NaN are NaN, not 0
    (("fsub", "a", "a"), 0.0),
    (("fadd", "a", ("fneg", "a")), 0.0),
    # NIR's distribution: a*b + a*c rounds twice less as a*(b + c) (b, c constants fold)
    (("fadd", ("fmul", "a", "b"), ("fmul", "a", "c")), ("fmul", "a", ("fadd", "b", "c"))),
    # NIR's ~frcp(fsqrt(a)) -> frsq(a): one transcendental instead of two
    (("frcp", ("fsqrt", "a")), ("frsq", "a")),
    # NIR's exponential/logarithmic identities (lower_math makes pow(a, b) exp2(b * log2 a)
    # and exp/log exp2/log2 scaled by constants, which the reassociation below joins)
    (("fexp2", ("flog2", "a")), "a"),
    (("flog2", ("fexp2", "a")), "a"),
    (("fexp2", ("fmul", ("flog2", "a"), 2.0)), ("fmul", "a", "a")),
    (("fexp2", ("fmul", ("flog2", "a"), 4.0)), ("fmul", ("fmul", "a", "a"), ("fmul", "a", "a"))),
    (("fpow", "a", 1.0), "a"),
    (("fpow", "a", 2.0), ("fmul", "a", "a")),
    (("fpow", "a", 4.0), ("fmul", ("fmul", "a", "a"), ("fmul", "a", "a"))),
    (("fpow", 2.0, "a"), ("fexp2", "a")),
    (("frcp", ("fexp2", "a")), ("fexp2", ("fneg", "a"))),
    # NIR's constant reassociation: constants a chain's one variable separates fold together
    (("fmul", "#a", ("fmul", "b!", "#c")), ("fmul", ("fmul", "#a", "#c"), "b")),
    (("fadd", "#a", ("fadd", "b!", "#c")), ("fadd", ("fadd", "#a", "#c"), "b")),
    # the same for integer sums (exact: wrapping addition is associative), with NIR's
    # isub(b, c) = iadd(b, -c): (x - 1) + 1 is x (ncnn's deconvolution bounds)
    (("iadd", "#a", ("iadd", "b!", "#c")), ("iadd", ("iadd", "#a", "#c"), "b")),
    (("iadd", "#a", ("isub", "b!", "#c")), ("iadd", ("isub", "#a", "#c"), "b")),
    (("isub", ("iadd", "b!", "#c"), "#a"), ("iadd", "b", ("isub", "#c", "#a"))),
    (("isub", ("isub", "b!", "#c"), "#a"), ("isub", "b", ("iadd", "#c", "#a"))),
]


# the raw bits of a search's number by (number, source kind, bit size); zeros by their
# spelling (-0.0 == 0.0 == 0)
_RAW: dict[tuple[Any, str, int], int] = {}


def _raw(want: Any, kind: str, bits: int) -> int:
    """The raw bits of a search's number read as a source of `kind` and `bits`."""
    key = (want if want != 0 else repr(want), kind, bits)  # -0.0 == 0.0: keep apart
    raw = _RAW.get(key)
    if raw is None:
        w = int(want) if isinstance(want, bool) else want
        if kind == "float" and bits > 1:
            raw = float_bits(float(w), bits)
        else:
            raw = int(w) & mask(bits)
        _RAW[key] = raw
    return raw


def _const_matches(v: Value, want: Any, kind: str) -> bool:
    p = v.parent
    if p is None or p.op != "load_const":
        return False
    c = p.attrs["value"]
    return c.count(_raw(want, kind, v.bit_size)) == len(c)


def _match(pat: Any, v: Value, kind: str, env: dict[str, Any]) -> bool:
    if isinstance(pat, str):
        if pat == "#p":
            c = const_of(v)
            if c is None or len(set(c)) != 1 or c[0] == 0 or c[0] & (c[0] - 1) or \
                    v.bit_size == 1:
                return False
            env["p"] = c[0]
            return True
        if pat[0] == "#":
            if v.parent is None or v.parent.op != "load_const":
                return False
        elif pat[-1] == "!":
            if v.parent is not None and v.parent.op == "load_const":
                return False
            pat = pat[:-1]
        if pat in env:
            return env[pat] is v
        env[pat] = v
        return True
    if isinstance(pat, tuple):
        p = v.parent
        return p is not None and _match_instr(pat, p, env)
    return _const_matches(v, pat, kind)


def _match_instr(pat: tuple[Any, ...], ins: Instr, env: dict[str, Any]) -> bool:
    op = pat[0]
    srcs = ins.srcs
    n = len(srcs)
    if ins.op != op or len(pat) - 1 != n:
        return False
    kinds = ALU_OPS[op].srcs
    trial = dict(env)
    for k in range(n):
        if not _match(pat[1 + k], srcs[k], kinds[k], trial):
            break
    else:
        env.update(trial)  # trial holds env's names and the new ones
        return True
    if n == 2 and op in COMMUTATIVE:
        trial = dict(env)
        if _match(pat[1], srcs[1], kinds[1], trial) and _match(pat[2], srcs[0], kinds[0], trial):
            env.update(trial)
            return True
    return False


def _build(rep: Any, ins: Instr, env: dict[str, Any], out: list[Instr],
           shader: MirShader) -> Value:
    d = ins.dest
    assert d is not None
    if isinstance(rep, str) and rep in env:
        v = env[rep]
        assert isinstance(v, Value)
        return v
    if isinstance(rep, str):
        p = env["p"]
        val = p.bit_length() - 1 if rep == "log2(p)" else p - 1
        bits = 32 if rep == "log2(p)" else d.bit_size
        c = shader.new_value(bits, d.num_components)
        out.append(Instr("load_const", c, [], {"value": (val,) * d.num_components}))
        return c
    if isinstance(rep, tuple):
        srcs = [_build(r, ins, env, out, shader) for r in rep[1:]]
        bits = 1 if ALU_OPS[rep[0]].dest == "bool" else d.bit_size
        v = shader.new_value(bits, d.num_components)
        out.append(Instr(rep[0], v, srcs))
        return v
    kind = ALU_OPS[ins.op].dest
    if kind == "float" and d.bit_size > 1:
        raw = float_bits(float(rep), d.bit_size)
    else:
        raw = int(rep) & mask(d.bit_size)
    c = shader.new_value(d.bit_size, d.num_components)
    out.append(Instr("load_const", c, [], {"value": (raw,) * d.num_components}))
    return c


def _shape(search: tuple[Any, ...]) -> tuple[str | None, ...]:
    """What each source's defining instruction must be for `search` to match it in
    this order: None (anything: a variable), ``load_const`` (a number or ``#p``) or a
    nested search's opcode. A necessary condition only, checked before `_match_instr`."""
    return tuple(None if isinstance(x, str) and x[0] != "#"
                 else x[0] if isinstance(x, tuple) else "load_const" for x in search[1:])


def _shape_fits(shape: tuple[str | None, ...], parents: tuple[str | None, ...],
                commutative: bool) -> bool:
    for w, p in zip(shape, parents, strict=True):
        if w is not None and w != p:
            break
    else:
        return True
    return commutative and len(shape) == 2 and \
        (shape[0] is None or shape[0] == parents[1]) and \
        (shape[1] is None or shape[1] == parents[0])


def _numbers(search: tuple[Any, ...]) -> tuple[tuple[int, Any], ...]:
    """The (source position, number) of each number among a search's own operands."""
    return tuple((k, x) for k, x in enumerate(search[1:]) if not isinstance(x, (str, tuple)))


def _repeats(search: tuple[Any, ...]) -> tuple[tuple[int, int], ...]:
    """The (first, later) source positions of each variable a search's own operands
    name twice: `_match_instr` binds them to the same value (``fmax a a``)."""
    out: list[tuple[int, int]] = []
    first: dict[str, int] = {}
    for k, x in enumerate(search[1:]):
        if isinstance(x, str) and x[0] != "#":
            name = x[:-1] if x[-1] == "!" else x
            if name in first:
                out.append((first[name], k))
            else:
                first[name] = k
    return tuple(out)


def _numbers_fit(numbers: tuple[tuple[int, int, int], ...], uniform: list[int | None],
                 commutative: bool) -> bool:
    """Whether an instruction's sources hold a search's numbers (as raw bits at their
    positions: in order, then swapped for a commutative opcode of two sources);
    `uniform`: each source's raw bits if it is a constant of one number in every
    component, else None. Necessary for `_match_instr`, whose number tests depend on
    nothing bound."""
    for k, raw, _ in numbers:
        if uniform[k] != raw:
            break
    else:
        return True
    if not commutative:
        return False
    for k, _, raw in numbers:
        if uniform[1 - k] != raw:
            return False
    return True


# the rules by the opcode their search starts with, in RULES', RULES_32's then
# INEXACT_RULES' order, each with whether it is inexact, the one size it takes (0: any),
# its shape (`_shape`), its numbers (`_numbers`) and repeated variables (`_repeats`)
_BY_OP: dict[str, list[tuple[tuple[Any, ...], Any, bool, int, tuple[str | None, ...],
                             tuple[tuple[int, Any], ...], tuple[tuple[int, int], ...]]]] = {}
for _rules, _inexact, _size in ((RULES, False, 0), (RULES_32, False, 32),
                                (INEXACT_RULES, True, 0)):
    for _search, _rep in _rules:
        _BY_OP.setdefault(_search[0], []).append(
            (_search, _rep, _inexact, _size, _shape(_search), _numbers(_search),
             _repeats(_search)))

# A rule as `algebraic` tries it on an instruction: search, replacement, inexact, size,
# its numbers as (position, raw bits there, raw bits at the swapped position) for the
# sources' sizes, its repeated variables' positions, whether it nests operations
_Fit = tuple[tuple[Any, ...], Any, bool, int, tuple[tuple[int, int, int], ...],
             tuple[tuple[int, int], ...], bool]


def _fitting(op: str, parents: tuple[str | None, ...], bits: tuple[int, ...]
             ) -> tuple[bool, list[_Fit]]:
    """Whether `op` with these sources swaps them (commutative, two sources), and the
    rules whose shape fits sources defined by `parents` (opcodes; None: no instruction)
    of sizes `bits`, their numbers' raw bits read at those sizes."""
    commutative = len(parents) == 2 and op in COMMUTATIVE
    kinds = ALU_OPS[op].srcs
    out: list[_Fit] = []
    for search, rep, inexact, size, shape, numbers, repeats in _BY_OP.get(op, []):
        if len(shape) != len(parents) or not _shape_fits(shape, parents, op in COMMUTATIVE):
            continue
        raws = tuple((k, _raw(want, kinds[k], bits[k]),
                      _raw(want, kinds[1 - k], bits[1 - k]) if commutative else -1)
                     for k, want in numbers)
        nested = any(isinstance(x, tuple) for x in search[1:])
        out.append((search, rep, inexact, size, raws, repeats, nested))
    return commutative, out


def _exact_operand(ins: Instr) -> bool:
    """Whether an operand of `ins` is ``exact``: a search with nested operations may
    match it (an inexact rule rewrites every operation it matches)."""
    return any(s.parent is not None and bool(s.parent.attrs.get("exact")) for s in ins.srcs)


# `_fitting` by the opcodes of an instruction and its sources' parents and the sizes of
# its sources (the rules are constant)
_FITTING: dict[tuple[str | int | None, ...], tuple[bool, list[_Fit]]] = {}


def algebraic(shader: MirShader) -> bool:
    """Apply the first matching rule (in RULES' order) to each ALU instruction.
    Only the rules whose search starts with the instruction's opcode are tried."""
    mapping: dict[Value, Value] = {}
    by_op = _BY_OP
    fitting = _FITTING
    preserve = shader.float_preserve
    for b in shader.blocks():
        new_list: list[Instr] = []
        for ins in b.instrs:
            op = ins.op
            if op in by_op and ins.dest is not None and ins.dest not in mapping:
                srcs = ins.srcs
                if len(srcs) == 2:  # (most: no list built for the key)
                    s0 = srcs[0]
                    s1 = srcs[1]
                    p0 = s0.parent
                    p1 = s1.parent
                    key: tuple[str | int | None, ...] = (
                        op, None if p0 is None else p0.op, None if p1 is None else p1.op,
                        s0.bit_size, s1.bit_size)
                else:
                    key = (op, *[None if s.parent is None else s.parent.op for s in srcs],
                           *[s.bit_size for s in srcs])
                fit = fitting.get(key)
                if fit is None:
                    fit = fitting[key] = _fitting(
                        op, tuple(None if s.parent is None else s.parent.op for s in srcs),
                        tuple(s.bit_size for s in srcs))
                commutative, fits = fit
                # the raw bits every component of a constant source holds (None: not
                # a constant, or not one number), read for the first rule with numbers
                uniform: list[int | None] | None = None
                for search, rep, inexact, size, numbers, repeats, nested in fits:
                    if size and ins.dest.bit_size != size:
                        continue
                    if numbers:
                        if uniform is None:
                            uniform = []
                            for s in srcs:
                                u: int | None = None
                                p = s.parent
                                if p is not None and p.op == "load_const":
                                    c = p.attrs["value"]
                                    if c.count(c[0]) == len(c):
                                        u = c[0]
                                uniform.append(u)
                        if not _numbers_fit(numbers, uniform, commutative):
                            continue
                    if repeats and any(srcs[i] is not srcs[j] for i, j in repeats):
                        continue
                    if inexact and (ins.attrs.get("exact")
                                    or ins.dest.bit_size in preserve
                                    or (nested and _exact_operand(ins))):
                        continue
                    env: dict[str, Any] = {}
                    if _match_instr(search, ins, env):
                        extra: list[Instr] = []
                        v = _build(rep, ins, env, extra, shader)
                        if (v.bit_size, v.num_components) != (ins.dest.bit_size,
                                                              ins.dest.num_components):
                            continue
                        for e in extra:
                            e.block = b
                        new_list.extend(extra)
                        mapping[ins.dest] = v
                        break
            new_list.append(ins)
        b.instrs = new_list
    rewrite_uses(shader, mapping)
    return bool(mapping)
