"""check_isel_form(shader): the MIR contract instruction selection relies on.

What differs by generation comes from the shader's `MirOptions` (``shader.options``,
the target's `radcc.target.Target.mir_options`, set by ``lower_for_isel``).

``lower_for_isel`` guarantees it; isel may assert it (docs/mir.md, "What isel
receives", says the same in prose). Raises ``MirValidationError`` listing every
violation. Items:

* no continue constructs (``Loop.cont`` empty); no ``If`` on a constant;
* no local variables or deref instructions (arrays are in registers or scratch);
* scalar ALU: every ALU result has one component except ``vecN`` (whose only
  uses are the data of a store, the lane-mask source of a ballot intrinsic or a
  source of a packed operation or phi) and the 16x2 results of ``vectorize_alu16``'s
  packed 16-bit operations (``PACKED_OPS``, whose sources are ``vec2``s); every
  ``mov`` extracts one component of a vector intrinsic, packed operation or phi's
  result; phis are scalar but ``vectorize_alu16``'s 16x2 loop-carried ones (sources
  ``vec2``s);
* none of the options' ``lowered_ops`` (integer and float division, the GLSL.std.450
  operations without an instruction, GLSL bitfield/pack forms, system values known at
  compile time); 64-bit integers only in ``INT64_OPS``; ``bitcast`` only between equal
  sizes;
* memory: a vector access has 32/64-bit components and 64, 96 or 128 bits; its
  ``offset`` attribute (bytes, default 0) lies in the options' ``offset_range`` of its
  space.
"""

from __future__ import annotations

from radcc.target import MirOptions

from ..mir import If, Instr, Loop, MirShader, Value, const_of, iter_nodes
from ..mir_ops import ALU_OPS, CONVERSION
from ..mir_validate import MirValidationError
from .lower_vectors import access_align, sub_dword_vector_load, sub_dword_vector_store
from .vectorize_alu16 import PACKED_OPS

# operations isel must handle on 64-bit integer operands or results
INT64_OPS = frozenset(
    "iadd isub iand ior ixor inot ishl ishr ushr ieq ine ilt ige ult uge bcsel mov "
    "pack_64_2x32_split unpack_64_2x32_split_x unpack_64_2x32_split_y bitcast "
    "i2i32 u2u32 i2i16 u2u16 i2i8 u2u8 f2f64 f2f32 f2f16 i2f32 u2f32".split()
)

MEMORY = {
    "load_ssbo": "ssbo", "store_ssbo": "ssbo", "ssbo_atomic": "ssbo", "ssbo_atomic_swap": "ssbo",
    "load_ubo": "ubo", "load_push_constant": "push_constant", "load_constant": "constant",
    "load_shared": "shared", "store_shared": "shared", "shared_atomic": "shared",
    "shared_atomic_swap": "shared", "load_scratch": "scratch", "store_scratch": "scratch",
}
_STORE_DATA = ("store_ssbo", "store_shared", "store_scratch")
_MASK_SOURCE = ("inverse_ballot", "ballot_bitfield_extract", "ballot_bit_count_reduce",
                "ballot_bit_count_inclusive", "ballot_bit_count_exclusive", "ballot_find_lsb",
                "ballot_find_msb")


def options_of(shader: MirShader) -> MirOptions:
    """The shader's isel options; an error when no target set them."""
    if shader.options is None:
        raise MirValidationError("the shader has no isel options (lower_for_isel sets the "
                                 "target's Target.mir_options)")
    return shader.options


def check_isel_form(shader: MirShader) -> None:
    errors: list[str] = []
    opts = options_of(shader)

    def err(msg: str) -> None:
        errors.append(msg)

    if shader.function.locals:
        err(f"local variables remain: {[v.name for v in shader.function.locals]}")
    for n in iter_nodes(shader.function.body):
        if isinstance(n, Loop) and n.cont:
            err("a loop has a continue construct")
        if isinstance(n, If) and const_of(n.cond) is not None:
            err(f"if on the constant {n.cond}")
    vec_ok: set[Value] = set()
    for ins in shader.instrs():
        if ins.op in _STORE_DATA:
            vec_ok.add(ins.srcs[0])
        if ins.op in _MASK_SOURCE:
            vec_ok.add(ins.srcs[0])
        if _packed(ins) or _packed_phi(ins):
            vec_ok.update(ins.srcs)
    for ins in shader.instrs():
        op = ins.op
        d = ins.dest
        if op in opts.lowered_ops:
            err(f"{op} must be lowered: {ins!r}")
            continue
        if op in ("ssbo_atomic", "global_atomic", "shared_atomic") and d is not None and \
                (op.split("_")[0], ins.attrs.get("atomic_op"), d.bit_size) in opts.cas_atomics:
            err(f"atomic with no instruction (lower_atomics): {ins!r}")
            continue
        if op in ALU_OPS and d is not None:
            if op.startswith("vec"):
                if d not in vec_ok:
                    err(f"vector built for an ALU use: {ins!r}")
            elif op == "mov":
                if d.num_components != 1 or ins.srcs[0].num_components == 1:
                    err(f"mov is not a one-component extract: {ins!r}")
            elif d.num_components != 1 and not _packed(ins):
                err(f"vector ALU result: {ins!r}")
            if op == "bitcast" and ins.srcs[0].bit_size != d.bit_size:
                err(f"bitcast between sizes: {ins!r}")
            if op not in INT64_OPS and _int64(ins.op, d.bit_size, ins.srcs):
                err(f"64-bit integer {op}: {ins!r}")
        elif op in ("phi", "undef") and d is not None and d.num_components != 1 \
                and not _packed_phi(ins):
            err(f"vector {op}: {ins!r}")
        elif op == "load_const" and d is not None and d.num_components != 1 and d not in vec_ok:
            err(f"vector constant for an ALU use: {ins!r}")
        space = MEMORY.get(op)
        if space is not None:
            v = ins.srcs[0] if op in _STORE_DATA else d
            if v is not None and v.num_components > 1:
                total = v.bit_size * v.num_components
                al = access_align(ins)
                if v.bit_size < 32 and (
                        (v is d and sub_dword_vector_load(op, v.bit_size, v.num_components, al))
                        or (v is not d and
                            sub_dword_vector_store(op, v.bit_size, v.num_components, al))):
                    pass
                elif v.bit_size < 32 or total not in (64, 96, 128):
                    err(f"vector memory access of {v.num_components}x{v.bit_size}: {ins!r}")
            lo, hi = opts.offset_range[space]
            off = int(ins.attrs.get("offset", 0))
            if not lo <= off <= hi:
                err(f"offset {off} outside {lo}..{hi}: {ins!r}")
    if errors:
        raise MirValidationError("not in isel form:\n" + "\n".join(errors[:30]))


def _packed(ins: Instr) -> bool:
    """A packed 16-bit operation of ``vectorize_alu16``: 16x2, its sources ``vec2``s."""
    d = ins.dest
    return ins.op in PACKED_OPS and d is not None and (d.bit_size, d.num_components) == (
        16, 2) and all(s.parent is not None and s.parent.op == "vec2" for s in ins.srcs)


def _packed_phi(ins: Instr) -> bool:
    """A loop-carried 16x2 phi of ``vectorize_alu16`` (``pair_loop_phis``): its sources
    ``vec2``s."""
    d = ins.dest
    return ins.op == "phi" and d is not None and (d.bit_size, d.num_components) == (
        16, 2) and all(s.parent is not None and s.parent.op == "vec2" for s in ins.srcs)


def _int64(op: str, dbits: int, srcs: list[Value]) -> bool:
    """Whether ``op`` reads or writes a 64-bit integer."""
    m = CONVERSION.match(op)
    if m:
        return (m.group(1) in "iu" and srcs[0].bit_size == 64) or (
            m.group(2) in "iu" and dbits == 64)
    info = ALU_OPS[op]
    if info.dest in ("int", "uint") and dbits == 64:
        return True
    return any(k in ("int", "uint") and s.bit_size == 64
               for k, s in zip(info.srcs, srcs, strict=False))
