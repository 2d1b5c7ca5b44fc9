"""lower_vectors: scalar ALU, vector memory accesses only where the hardware has them.

After this pass (what isel receives):

* every ALU instruction, phi, constant and undef has one component, except
  ``vecN`` (scalars gathered as the data of a store or the source of a ballot
  intrinsic) and ``mov`` extracting one component of a vector intrinsic result
  (``mov %v.y``);
* ``pack_*``/``unpack_*`` of GLSL become scalar arithmetic and
  ``pack_half_2x16_split``/``unpack_half_2x16_split_x/y``, ``pack_snorm_2x16_split``/
  ``pack_unorm_2x16_split`` (GFX11's ``v_cvt_pk_norm_*``, as ACO), ``cvt_pk_u8_f32``
  (``packUnorm4x8``: ``v_cvt_pk_u8_f32`` per byte); ``bitcast`` between
  sizes becomes ``pack_64_2x32_split``/``unpack_64_2x32_split_x/y`` or shifts;
* subgroup operations on vectors run per component (``vote_ieq``/``vote_feq``:
  the components' votes and-ed);
* memory accesses (``load_ssbo/ubo/push_constant/shared/scratch``,
  ``store_ssbo/shared/scratch``) of several components are kept when the
  components are 32 or 64 bits and the access is 64, 96 or 128 bits (b64/b96/b128,
  SMEM up to b128 too); otherwise split into the largest such pieces (8/16-bit
  components: one access each, except a dword-aligned global load of 32..128 bits
  and a dword-aligned SSBO store of 16-bit components, 32..128 bits, kept whole:
  ``sub_dword_vector_load``/``sub_dword_vector_store``). Shared memory (DS) vectors need the access's
  known alignment (``align`` attribute, from the address arithmetic) to be
  at least the access size (b96: 16); else they are split further into dwords.
  Pieces address their bytes through the ``offset`` attribute.
"""

from __future__ import annotations

from ..mir import Instr, MirShader, Value
from ..mir_ops import ALU_OPS, SUBGROUP_OPS
from .lower_util import Emit, const_int, rewrite_instrs

LOADS = ("load_ssbo", "load_ubo", "load_push_constant", "load_shared", "load_scratch",
         "load_constant")
STORES = ("store_ssbo", "store_shared", "store_scratch")


def known_align(v: Value, depth: int = 0) -> int:
    """The largest power of two (up to 256) known to divide ``v``'s value."""
    c = const_int(v)
    if c is not None:
        return 256 if c == 0 else min(256, c & -c)
    p = v.parent
    if p is None or depth > 8:
        return 1
    if p.op == "iadd" or p.op == "ior":
        return min(known_align(p.srcs[0], depth + 1), known_align(p.srcs[1], depth + 1))
    if p.op == "imul":
        return min(256, known_align(p.srcs[0], depth + 1) * known_align(p.srcs[1], depth + 1))
    if p.op == "ishl":
        s = const_int(p.srcs[1])
        if s is not None:
            return min(256, known_align(p.srcs[0], depth + 1) << (s & 31))
    if p.op == "iand":
        return max(known_align(p.srcs[0], depth + 1), known_align(p.srcs[1], depth + 1))
    if p.op in ("u2u32", "i2i32", "u2u64", "i2i64", "mov"):
        return known_align(p.srcs[0], depth + 1)
    return 1


def access_align(ins: Instr) -> int:
    """Known alignment of a memory access's address (address source and offset)."""
    addr = ins.srcs[-1]
    a = known_align(addr)
    off = int(ins.attrs.get("offset", 0))
    if off:
        a = min(a, off & -off)
    return max(a, int(ins.attrs.get("align", 1)))


# loads of 8/16-bit vectors kept whole: global memory read as dwords (b32..b128)
SUB_DWORD_VECTOR_LOADS = frozenset({"load_ssbo", "load_ubo", "load_constant"})


def sub_dword_vector_load(op: str, bits: int, comps: int, align: int) -> bool:
    """Whether a load of ``comps`` components of 8/16 bits stays one access: a global
    memory load (SSBO/UBO/constant data) of whole dwords (32..128 bits) at a
    dword-aligned address (as ACO's load of a 16-bit vec4 is one ``buffer_load_b64``);
    isel extracts the components by shifting the dwords."""
    return op in SUB_DWORD_VECTOR_LOADS and bits < 32 and align >= 4 and \
        bits * comps in (32, 64, 96, 128)


def sub_dword_vector_store(op: str, bits: int, comps: int, align: int) -> bool:
    """Whether a store of ``comps`` 16-bit components stays one access: an SSBO store
    of whole dwords (32..128 bits) at a dword-aligned address (as ACO stores an
    ``f16vec4`` with one ``buffer_store_b64``); isel packs the components two per
    dword. 8-bit vectors stay one store per component (packing four bytes takes as
    many instructions as the stores it saves)."""
    return op == "store_ssbo" and bits == 16 and align >= 4 and \
        bits * comps in (32, 64, 96, 128)


def _pieces(ins: Instr, bits: int, comps: int) -> list[tuple[int, int]]:
    """(first component, count) of each access a memory instruction becomes."""
    if comps == 1:
        return [(0, 1)]
    if bits < 32:
        al = access_align(ins)
        if sub_dword_vector_load(ins.op, bits, comps, al) or \
                sub_dword_vector_store(ins.op, bits, comps, al):
            return [(0, comps)]
        return [(k, 1) for k in range(comps)]
    per = 128 // bits
    out: list[tuple[int, int]] = []
    k = 0
    while k < comps:
        n = min(per, comps - k)
        out.append((k, n))
        k += n
    if ins.op.endswith("_shared"):
        al = access_align(ins)
        fine: list[tuple[int, int]] = []
        for k, n in out:
            size = n * bits // 8
            need = 16 if size == 12 else size
            if al >= need or n == 1:
                fine.append((k, n))
            else:
                step = max(1, min(al, 8) * 8 // bits)
                for j in range(k, k + n, step):
                    fine.append((j, min(step, k + n - j)))
        out = fine
    return out


class _Vectors:
    def __init__(self, shader: MirShader) -> None:
        self.shader = shader
        self.comps: dict[Value, list[Value]] = {}

    def chans(self, v: Value, e: Emit) -> list[Value]:
        """The scalar components of ``v`` (extracted here when ``v`` was not lowered)."""
        if v.num_components == 1:
            return [v]
        if v in self.comps:
            return self.comps[v]
        return [e.alu("mov", v.bit_size, v, comps=(k,)) for k in range(v.num_components)]

    def rule(self, ins: Instr, e: Emit) -> Value | list[Value] | None:
        op = ins.op
        d = ins.dest
        if op in LOADS or op in STORES:
            return self.memory(ins, e)
        if op in SUBGROUP_OPS and d is not None and ins.srcs and \
                ins.srcs[0].num_components > 1 and op not in _MASK_SOURCE:
            return self.subgroup(ins, e)
        if d is None:
            return None
        n = d.num_components
        if op == "load_const" and n > 1:
            return [e.const(d.bit_size, x) for x in ins.attrs["value"]]
        if op == "undef" and n > 1:
            out = [e.instr("undef", d.bit_size, 1, []) for _ in range(n)]
            return [x for x in out if x is not None]
        if op not in ALU_OPS:
            return None
        if op == "mov":
            src = ins.srcs[0]
            comps = tuple(ins.attrs.get("comps", range(n)))
            if src.num_components == 1:
                return [src] * n if n > 1 else src
            if src in self.comps:
                sel = [self.comps[src][k] for k in comps]
                return sel if n > 1 else sel[0]
            if n == 1:
                return None  # an extract of an intrinsic's vector result: isel's form
            return [e.alu("mov", d.bit_size, src, comps=(k,)) for k in comps]
        if op.startswith("vec"):
            self.comps[d] = list(ins.srcs)
            return None
        if op == "bitcast":
            return self.bitcast(ins, e)
        if not ALU_OPS[op].per_component:
            return self.pack(ins, e)
        if n == 1:
            return None
        srcs = [self.chans(s, e) if s.num_components > 1 else [s] * n for s in ins.srcs]
        res: list[Value] = []
        for k in range(n):
            v = e.instr(op, d.bit_size, 1, [s[k] for s in srcs], **ins.attrs)
            assert v is not None
            res.append(v)
        return res

    # ----- memory -----
    def memory(self, ins: Instr, e: Emit) -> list[Value] | None:
        store = ins.op in STORES
        v = ins.srcs[0] if store else ins.dest
        assert v is not None
        al = min(access_align(ins), 16)
        ins.attrs["align"] = al
        pieces = _pieces(ins, v.bit_size, v.num_components)
        if len(pieces) == 1:
            return None
        nb = v.bit_size // 8
        base = int(ins.attrs.get("offset", 0))
        chans = self.chans(v, e) if store else []
        out: list[Value] = []
        for k, n in pieces:
            attrs = dict(ins.attrs)
            attrs["offset"] = base + k * nb
            attrs["align"] = min(al, (k * nb) & -(k * nb)) if k else al
            if store:
                data = chans[k] if n == 1 else e.instr(f"vec{n}", v.bit_size, n,
                                                        chans[k:k + n])
                assert data is not None
                e.instr(ins.op, None, 1, [data, ins.srcs[1]], **attrs)
            else:
                r = e.instr(ins.op, v.bit_size, n, list(ins.srcs), **attrs)
                assert r is not None
                out += [r] if n == 1 else [e.alu("mov", v.bit_size, r, comps=(j,))
                                           for j in range(n)]
        return out

    # ----- subgroups -----
    def subgroup(self, ins: Instr, e: Emit) -> list[Value] | Value:
        d = ins.dest
        assert d is not None
        src = self.chans(ins.srcs[0], e)
        if ins.op in ("vote_ieq", "vote_feq"):
            votes = [e.instr(ins.op, 1, 1, [s, *ins.srcs[1:]], **ins.attrs) for s in src]
            acc = votes[0]
            assert acc is not None
            for x in votes[1:]:
                assert x is not None
                acc = e.alu("iand", 1, acc, x)
            return acc
        out = []
        for s in src:
            r = e.instr(ins.op, d.bit_size, 1, [s, *ins.srcs[1:]], **ins.attrs)
            assert r is not None
            out.append(r)
        return out

    # ----- bitcast and packing -----
    def bitcast(self, ins: Instr, e: Emit) -> list[Value] | Value | None:
        d = ins.dest
        assert d is not None
        s = ins.srcs[0]
        if s.bit_size == d.bit_size:
            if d.num_components == 1:
                return s
            return self.chans(s, e)
        words = self.to_words(s, e)
        return self.from_words(words, d.bit_size, d.num_components, e)

    def to_words(self, v: Value, e: Emit) -> list[Value]:
        """The value as 32-bit words (little-endian)."""
        ch = self.chans(v, e)
        b = v.bit_size
        if b == 32:
            return ch
        if b == 64:
            out = []
            for c in ch:
                out += [e.lo(c), e.hi(c)]
            return out
        per = 32 // b
        words = []
        for w in range(0, len(ch), per):
            acc = e.alu("u2u32", 32, ch[w])
            for j in range(1, per):
                if w + j < len(ch):
                    part = e.alu("u2u32", 32, ch[w + j])
                    acc = e.alu("ior", 32, acc, e.alu("ishl", 32, part, e.const(32, j * b)))
            words.append(acc)
        return words

    def from_words(self, words: list[Value], bits: int, comps: int, e: Emit) -> list[Value]:
        if bits == 32:
            return words[:comps]
        if bits == 64:
            return [e.pack(words[2 * k], words[2 * k + 1]) for k in range(comps)]
        per = 32 // bits
        out = []
        for k in range(comps):
            w = words[k // per]
            sh = (k % per) * bits
            x = e.alu("ushr", 32, w, e.const(32, sh)) if sh else w
            out.append(e.alu(f"u2u{bits}", bits, x))
        return out

    def pack(self, ins: Instr, e: Emit) -> Value | list[Value]:
        d = ins.dest
        assert d is not None
        op = ins.op
        src = self.chans(ins.srcs[0], e)
        if op == "pack_half_2x16":
            return e.alu("pack_half_2x16_split", 32, src[0], src[1])
        if op == "unpack_half_2x16":
            return [e.alu("unpack_half_2x16_split_x", 32, src[0]),
                    e.alu("unpack_half_2x16_split_y", 32, src[0])]
        if op in ("pack_snorm_2x16", "pack_unorm_2x16"):  # v_cvt_pk_norm_{i16,u16}_f32
            return e.alu(f"{op}_split", 32, src[0], src[1])
        bits = 16 if "2x16" in op else 8
        n = 32 // bits
        snorm = "snorm" in op
        scale = float((1 << (bits - 1)) - 1 if snorm else (1 << bits) - 1)
        if op == "pack_unorm_4x8":  # v_cvt_pk_u8_f32 inserts each byte (exact integers)
            word = e.const(32, 0)
            for k in range(n):
                x = e.alu("fsat", 32, src[k])
                x = e.alu("fround_even", 32, e.alu("fmul", 32, x, e.fconst(32, scale)))
                word = e.alu("cvt_pk_u8_f32", 32, x, e.const(32, k), word)
            return word
        if op.startswith("pack_"):
            acc: Value | None = None
            for k in range(n):
                x = src[k]
                if snorm:
                    x = e.alu("fmin", 32, e.alu("fmax", 32, x, e.fconst(32, -1.0)),
                              e.fconst(32, 1.0))
                else:
                    x = e.alu("fsat", 32, x)
                x = e.alu("fround_even", 32, e.alu("fmul", 32, x, e.fconst(32, scale)))
                q = e.alu("f2i32" if snorm else "f2u32", 32, x)
                if k < n - 1:  # the top field's high bits are shifted out
                    q = e.alu("iand", 32, q, e.const(32, (1 << bits) - 1))
                if k:
                    q = e.alu("ishl", 32, q, e.const(32, k * bits))
                acc = q if acc is None else e.alu("ior", 32, acc, q)
            assert acc is not None
            return acc
        out = []
        for k in range(n):
            f = e.alu("ibfe" if snorm else "ubfe", 32, src[0], e.const(32, k * bits),
                      e.const(32, bits))
            x = e.alu("fdiv", 32, e.alu("i2f32" if snorm else "u2f32", 32, f),
                      e.fconst(32, scale))
            if snorm:
                x = e.alu("fmax", 32, x, e.fconst(32, -1.0))
            out.append(x)
        return out


# ballot values (uvec4 lane masks) stay vectors
_MASK_SOURCE = frozenset({"inverse_ballot", "ballot_bitfield_extract", "ballot_bit_count_reduce",
                          "ballot_bit_count_inclusive", "ballot_bit_count_exclusive",
                          "ballot_find_lsb", "ballot_find_msb"})


def lower_vectors(shader: MirShader) -> bool:
    lv = _Vectors(shader)
    changed = rewrite_instrs(shader, lv.rule, lv.comps)
    changed |= _split_phis(shader, lv)
    return changed


def _split_phis(shader: MirShader, lv: _Vectors) -> bool:
    from ..mir import rewrite_uses

    changed = False
    mapping: dict[Value, Value] = {}
    for b in shader.structure()[0]:
        for phi in list(b.phis):
            d = phi.dest
            assert d is not None
            if d.num_components == 1:
                continue
            changed = True
            n = d.num_components
            parts: list[list[Value]] = [[] for _ in range(n)]
            for p, s in zip(phi.preds, phi.srcs, strict=True):
                e = Emit(shader)
                ch = lv.chans(s, e)
                pos = len(p.instrs) - (1 if p.jump is not None else 0)
                for j, x in enumerate(e.out):
                    p.insert(pos + j, x)
                for k in range(n):
                    parts[k].append(ch[k])
            new_phis = []
            for k in range(n):
                v = shader.new_value(d.bit_size, 1)
                x = Instr("phi", v, parts[k])
                x.preds = list(phi.preds)
                new_phis.append(x)
            pos = b.instrs.index(phi)
            b.instrs.remove(phi)
            for j, x in enumerate(new_phis):
                b.insert(pos + j, x)
            vec = shader.new_value(d.bit_size, n)
            vi = Instr(f"vec{n}", vec, [x.dest for x in new_phis if x.dest is not None])
            b.insert(len(b.phis), vi)
            lv.comps[d] = [x.dest for x in new_phis if x.dest is not None]
            mapping[d] = vec
    rewrite_uses(shader, mapping)
    if changed:
        # uses of the rebuilt vectors by ALU ops: scalarize again
        rewrite_instrs(shader, lv.rule, lv.comps)
    return changed
