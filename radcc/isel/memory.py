"""Memory, barriers and atomics (docs/abi.md for the kernarg layout; the system
values are `sysval.py`).

- Buffers: every binding's 64-bit base address is loaded from the kernarg
  segment once, in the entry block (``s_load_b64``). A *uniform* load from a
  read-only storage buffer, a uniform buffer or the push constants (dword
  aligned, 32/64-bit components) is an SMEM ``s_load_b32/b64/b128``; every
  other load is ``global_load_b32..b128`` with ``saddr`` = the base and a VGPR
  byte offset; stores are ``global_store_*``; atomics ``global_atomic_*`` with
  ``glc`` (they return the old value).
- Shared memory: ``ds_load_*``/``ds_store_*``/``ds_*_rtn_*`` on a VGPR byte
  address; the LDS size goes to ``program.config.lds_size``.
- Barriers: ``p_barrier`` (lowered to the waits and ``s_barrier``); a memory scope no
  wider than the wave (subgroup/invocation, or the workgroup when it is one wave)
  gets ``sem:none``, no release wait, as ACO's perform_barrier.
"""

from __future__ import annotations

from radcc.abi.kernarg import BUFFER_STRIDE, Role
from radcc.frontend.mir import Instr, Value
from radcc.frontend.opt.lower_vectors import access_align
from radcc.ir.program import Operand
from radcc.ir.regclass import SCC, PhysReg, Temp, s1, s2, s4, v1, v4

from .context import Comp, Const, IselContext, IselError, unsupported
from .lds import ds_plan

_VEC = {1: "b32", 2: "b64", 3: "b96", 4: "b128"}
_SMEM = {1: "s_load_b32", 2: "s_load_b64", 4: "s_load_b128", 8: "s_load_b256"}
_GLOBAL_ATOMIC = {"iadd": "add_u", "imin": "min_i", "umin": "min_u", "imax": "max_i",
                  "umax": "max_u", "iand": "and_b", "ior": "or_b", "ixor": "xor_b",
                  "xchg": "swap_b", "fadd": "add_f", "fmin": "min_f", "fmax": "max_f"}
_DS_ATOMIC = {"iadd": "add_rtn_u", "imin": "min_rtn_i", "umin": "min_rtn_u",
              "imax": "max_rtn_i", "umax": "max_rtn_u", "iand": "and_rtn_b",
              "ior": "or_rtn_b", "ixor": "xor_rtn_b", "xchg": "storexchg_rtn_b",
              "fadd": "add_rtn_f", "fmin": "min_rtn_f", "fmax": "max_rtn_f"}
def global_offsets(ctx: IselContext) -> range:
    """The immediate offsets of a global/scratch instruction on the target: 13-bit signed
    on GFX11, 12-bit on GFX10 (the signed form of MirOptions' scratch range)."""
    hi = ctx.p.target.mir_options.offset_range["scratch"][1]
    return range(-(hi + 1), hi + 1)


# -- helpers -------------------------------------------------------------------
def _dwords(ctx: IselContext, v: Value) -> int:
    return v.bit_size * v.num_components // 32


def _split(ctx: IselContext, t: Temp, v: Value) -> list[Comp]:
    """A loaded register tuple as the value's components."""
    n = v.num_components
    if n == 1:
        return [t]
    rc = ctx.rc(v)
    return list(ctx.b.split_vector(t, *([rc] * n)).temps)


def _join(ctx: IselContext, v: Value, vgpr: bool) -> Temp:
    """The value's components as one register tuple (for a store)."""
    comps = ctx.get(v)
    if v.bit_size not in (32, 64):
        raise IselError(f"instruction selection: {v.bit_size}-bit stores are not "
                        f"supported yet")
    bits = v.bit_size
    regs = [ctx.vgpr(c, bits) if vgpr else ctx.sgpr(c, bits) for c in comps]
    if len(regs) == 1:
        return regs[0]
    from radcc.ir.regclass import RegClass, RegType

    rc = RegClass(RegType.VGPR if vgpr else RegType.SGPR, 4 * _dwords(ctx, v))
    return ctx.b.create_vector(rc, *regs).temp


def _address(ins: Instr) -> tuple[Value, int]:
    """The byte address of a memory intrinsic: (the address source, the constant
    ``attrs["offset"]`` fold_offsets moved out of it; docs/mir.md "Memory")."""
    k = 1 if ins.op.startswith("store_") else 0
    return ins.srcs[k], int(ins.attrs.get("offset", 0))


def offset_parts(ctx: IselContext, off: Value, extra: int = 0) -> tuple[Comp | None, int]:
    """(dynamic part or None, constant part) of a byte offset plus `extra`."""
    dyn, k = _offset_parts0(ctx, off)
    return dyn, k + extra


def _offset_parts0(ctx: IselContext, off: Value) -> tuple[Comp | None, int]:
    c = ctx.comp(off, 0)
    if isinstance(c, Const):
        return None, c.value
    p = off.parent
    if p is not None and p.op == "iadd":
        for i in (0, 1):
            k = ctx.comp(p.srcs[i], 0)
            other = ctx.comp(p.srcs[1 - i], 0)
            if isinstance(k, Const) and not isinstance(other, Const) and \
                    p.srcs[1 - i].divergent == off.divergent and k.value < 4096:
                return other, k.value
    return c, 0


def _voffset(ctx: IselContext, off: Value, extra: int = 0) -> tuple[Temp, int]:
    dyn, k = offset_parts(ctx, off, extra)
    if dyn is None:
        return ctx.vgpr(Const(32, k)), 0
    if k not in global_offsets(ctx):
        return ctx.vgpr(ctx.valu("v_add_nc_u32", v1, dyn, Const(32, k),
                                 commutative=True)), 0
    return ctx.vgpr(dyn), k


# -- buffers ----------------------------------------------------------------------
def binding_base(ctx: IselContext, ins: Instr) -> Temp:
    key = tuple(ins.attrs["binding"])
    return ctx.buffer_base[key]  # type: ignore[index]


def load_base(ctx: IselContext, ins: Instr) -> Temp:
    """The 64-bit base address of a buffer load: the binding's, or for ``load_constant``
    the program's constant data (``p_constaddr 0`` next to the load, as ACO's
    visit_load_constant: a short-lived SGPR pair, not one live across the program)."""
    if ins.op == "load_constant":
        return ctx.b.pseudo("p_constaddr", [s2, (s1, PhysReg.of(SCC))],
                            [Operand.c32(0)]).temp
    return binding_base(ctx, ins)


def select_load(ctx: IselContext, ins: Instr) -> None:
    d = ins.dest
    assert d is not None
    op = ins.op
    if d.bit_size not in (32, 64):
        raise unsupported(ins, f"{d.bit_size}-bit loads are not selected yet")
    if op == "load_shared":
        ctx.set(d, _ds_load(ctx, ins, d))
        return
    if op == "load_scratch":
        ctx.set(d, _scratch_load(ctx, ins, d))
        return
    push = op == "load_push_constant"
    base = ctx.kernarg if push else load_base(ctx, ins)
    extra = ctx.push_offset() if push else 0
    off, k0 = _address(ins)
    n = _dwords(ctx, d)
    smem_ok = not d.divergent and not off.divergent
    dyn, k = offset_parts(ctx, off, k0)
    if smem_ok and k % 4 == 0 and (ins.attrs.get("align", 4) >= 4):
        ctx.set(d, _smem_load(ctx, base, dyn, k + extra, d, n))
        return
    voff, imm = _voffset(ctx, off, k0)
    imm += extra
    if imm not in global_offsets(ctx):
        voff = ctx.valu("v_add_nc_u32", v1, Const(32, imm), voff)
        imm = 0
    parts = []
    done = 0
    while done < n:
        m = min(4, n - done)
        from radcc.ir.regclass import RegClass, RegType

        rc = RegClass(RegType.VGPR, 4 * m)
        t = ctx.b.inst(f"global_load_{_VEC[m]}", [rc], [voff, base],
                       offset=imm + 4 * done).temp
        parts.append(t)
        done += m
    t = parts[0] if len(parts) == 1 else _concat(ctx, parts, True)
    if not d.divergent:
        t = ctx.b.pseudo("p_as_uniform", [sgpr_rc(n)], [t]).temp
    ctx.set(d, _split(ctx, t, d))


def _concat(ctx: IselContext, parts: list[Temp], vgpr: bool) -> Temp:
    from radcc.ir.regclass import RegClass, RegType

    n = sum(p.rc.size for p in parts)
    return ctx.b.create_vector(RegClass(RegType.VGPR if vgpr else RegType.SGPR, 4 * n),
                               *parts).temp


def _smem_load(ctx: IselContext, base: Temp, dyn: Comp | None, k: int, d: Value,
               n: int) -> list[Comp]:
    soff: Operand | Temp
    if dyn is None:
        soff = Operand.c32(k)
    else:
        soff = ctx.salu("s_add_u32", s1, dyn, Const(32, k)) if k else ctx.sgpr(dyn)
    parts: list[Temp] = []
    done = 0
    while done < n:
        m = 4 if n - done >= 4 else 2 if n - done >= 2 else 1
        o: Operand | Temp
        if isinstance(soff, Operand):
            o = Operand.c32(soff.const + 4 * done)  # type: ignore[operator]
        elif done:
            o = ctx.salu("s_add_u32", s1, soff, Const(32, 4 * done))
        else:
            o = soff
        parts.append(ctx.b.inst(_SMEM[m], [sgpr_rc(m)], [base, o]).temp)
        done += m
    t = parts[0] if len(parts) == 1 else _concat(ctx, parts, False)
    return _split(ctx, t, d)


def select_store(ctx: IselContext, ins: Instr) -> None:
    val = ins.srcs[0]
    off, k0 = _address(ins)
    if val.bit_size not in (32, 64):
        raise unsupported(ins, f"{val.bit_size}-bit stores are not selected yet")
    if ins.op == "store_shared":
        _ds_store(ctx, val, off, k0, _ds_align(ins, val))
        return
    if ins.op == "store_scratch":
        _scratch_store(ctx, val, off, k0)
        return
    base = binding_base(ctx, ins)
    voff, imm = _voffset(ctx, off, k0)
    data = _join(ctx, val, True)
    n = _dwords(ctx, val)
    if n <= 4:
        ctx.b.inst(f"global_store_{_VEC[n]}", [], [voff, data, base], offset=imm)
        return
    regs = ctx.b.split_vector(data, *([v1] * n)).temps
    for i in range(0, n, 4):
        m = min(4, n - i)
        from radcc.ir.regclass import RegClass, RegType

        chunk = regs[i] if m == 1 else ctx.b.create_vector(
            RegClass(RegType.VGPR, 4 * m), *regs[i:i + m]).temp
        ctx.b.inst(f"global_store_{_VEC[m]}", [], [voff, chunk, base], offset=imm + 4 * i)


def select_ssbo_size(ctx: IselContext, ins: Instr) -> None:
    d = ins.dest
    assert d is not None
    key = tuple(ins.attrs["binding"])
    t = ctx.b.inst("s_load_b32", [s1], [ctx.kernarg, Operand.c32(
        ctx.kernargs.offset(Role.BUFFER_SIZE, key))]).temp  # type: ignore[arg-type]
    ctx.set(d, [ctx.to_class(t, ctx.rc(d))])


def select_buffer_descriptor(ctx: IselContext, ins: Instr) -> None:
    """``load_buffer_descriptor``: the V# of an element of an array of buffer descriptors
    (docs/abi.md "Arrays of descriptors"), ``s_load_b128`` at the array's address + index
    x 16 for a uniform index; a divergent one reads each invocation's V# with
    ``global_load_b128`` (the accesses through it take per-invocation addresses)."""
    d = ins.dest
    assert d is not None
    base = ctx.buffer_array[tuple(ins.attrs["binding"])]  # type: ignore[index]
    k = ctx.comp(ins.srcs[0], 0)
    if isinstance(k, Const):
        t = ctx.b.inst("s_load_b128", [s4], [base, Operand.c32(k.value * BUFFER_STRIDE)]).temp
    elif not ins.srcs[0].divergent:
        off = ctx.salu("s_mul_i32", s1, ctx.sgpr(k), Const(32, BUFFER_STRIDE), scc=False)
        t = ctx.b.inst("s_load_b128", [s4], [base, Operand(off)]).temp
    else:
        voff = ctx.valu("v_lshlrev_b32", v1, Const(32, 4), k)
        t = ctx.b.inst("global_load_b128", [v4], [voff, base], offset=0).temp
    rc = ctx.rc(d)
    parts = ctx.b.split_vector(t, *([v1 if t.rc.is_vgpr else s1] * 4)).temps
    ctx.set(d, [ctx.to_class(x, rc) for x in parts])


# -- scratch (private memory) --------------------------------------------------------
# ``scratch_*`` with a VGPR byte offset and saddr ``off``: with the private segment
# enabled (config.scratch_bytes_per_lane -> enable_private_segment, docs/abi.md) GFX11's
# architected flat scratch adds the wave's scratch base itself.
def _scratch_addr(ctx: IselContext, off: Value, extra: int) -> tuple[Temp, int]:
    return _voffset(ctx, off, extra)


def _scratch_load(ctx: IselContext, ins: Instr, d: Value) -> list[Comp]:
    voff, imm = _scratch_addr(ctx, *_address(ins))
    n = _dwords(ctx, d)
    parts: list[Temp] = []
    done = 0
    while done < n:
        m = min(4, n - done)
        parts.append(ctx.b.inst(f"scratch_load_{_VEC[m]}", [_vgpr_rc(m)],
                                [voff, no_saddr()], offset=imm + 4 * done).temp)
        done += m
    t = parts[0] if len(parts) == 1 else _concat(ctx, parts, True)
    if not d.divergent:
        t = ctx.b.pseudo("p_as_uniform", [sgpr_rc(n)], [t]).temp
    return _split(ctx, t, d)


def _scratch_store(ctx: IselContext, val: Value, off: Value, extra: int) -> None:
    voff, imm = _scratch_addr(ctx, off, extra)
    data = _join(ctx, val, True)
    n = _dwords(ctx, val)
    regs = [data] if n <= 4 else list(ctx.b.split_vector(data, *([v1] * n)).temps)
    for i in range(0, n, 4):
        m = min(4, n - i)
        chunk = data if n <= 4 else regs[i] if m == 1 else ctx.b.create_vector(
            _vgpr_rc(m), *regs[i:i + m]).temp
        ctx.b.inst(f"scratch_store_{_VEC[m]}", [], [voff, chunk, no_saddr()],
                   offset=imm + 4 * i)


# -- shared memory -------------------------------------------------------------------
def _ds_addr(ctx: IselContext, off: Value, extra: int = 0) -> tuple[Temp, int]:
    dyn, k = offset_parts(ctx, off, extra)
    if dyn is None:
        return ctx.vgpr(Const(32, k)), 0
    if not 0 <= k < 65536:
        return ctx.valu("v_add_nc_u32", v1, dyn, Const(32, k), commutative=True), 0
    return ctx.vgpr(dyn), k


def _ds_load(ctx: IselContext, ins: Instr, d: Value) -> list[Comp]:
    addr, k = _ds_addr(ctx, *_address(ins))
    n = _dwords(ctx, d)
    parts: list[Temp] = []
    for form, _first, m, fields in ds_plan(n, _ds_align(ins, d), k):
        parts.append(ctx.b.inst(f"ds_load_{form}", [_vgpr_rc(m)], [addr],
                                **fields).temp)  # type: ignore[arg-type]
    t = parts[0] if len(parts) == 1 else _concat(ctx, parts, True)
    if not d.divergent:
        t = ctx.b.pseudo("p_as_uniform", [sgpr_rc(n)], [t]).temp
    return _split(ctx, t, d)


def _ds_align(ins: Instr, v: Value) -> int:
    """Known alignment of a DS access's address: from the address expression and
    attrs['align'] (lower_vectors.access_align), at least the component size
    (radcc lays shared variables out naturally aligned)."""
    return max(access_align(ins), v.bit_size // 8)


def _ds_store(ctx: IselContext, val: Value, off: Value, extra: int = 0, align: int = 4) -> None:
    addr, k = _ds_addr(ctx, off, extra)
    data = _join(ctx, val, True)
    n = _dwords(ctx, val)
    plan = ds_plan(n, align, k)
    regs = [data] if len(plan) == 1 else list(
        ctx.b.split_vector(data, *([v1] * n)).temps)

    def chunk(first: int, m: int) -> Temp:
        if len(plan) == 1:
            return data
        return regs[first] if m == 1 else ctx.b.create_vector(
            _vgpr_rc(m), *regs[first:first + m]).temp

    for form, first, m, fields in plan:
        if form.startswith("2addr"):
            h = m // 2
            ops = [addr, chunk(first, h), chunk(first + h, h)]
        else:
            ops = [addr, chunk(first, m)]
        ctx.b.inst(f"ds_store_{form}", [], ops, **fields)  # type: ignore[arg-type]


# -- atomics ---------------------------------------------------------------------------
def select_atomic(ctx: IselContext, ins: Instr) -> None:
    d = ins.dest
    assert d is not None
    bits = d.bit_size
    if bits not in (32, 64):
        raise unsupported(ins, f"{bits}-bit atomics")
    aop = ins.attrs["atomic_op"]
    shared = ins.op.startswith("shared")
    w = "64" if bits == 64 else "32"
    if shared:
        addr, k = _ds_addr(ctx, *_address(ins))
        if aop == "cmpxchg":
            cmp_, new = (ctx.vgpr(ctx.comp(s, 0), bits) for s in ins.srcs[1:])
            opc = f"ds_cmpstore_rtn_b{w}"
            data = [new, cmp_]
            if not ctx.b.table.has(opc):
                # before GFX11: ds_cmpst_rtn takes the compare value first (RDNA2 ISA guide,
                # DS_CMPST_RTN_B32: cmp = DATA, src = DATA2; RDNA3 DS_CMPSTORE_RTN_B32 swaps them)
                opc, data = f"ds_cmpst_rtn_b{w}", [cmp_, new]
            t = ctx.b.inst(opc, [_vgpr_rc(bits // 32)], [addr, *data], offset=k).temp
        else:
            if aop not in _DS_ATOMIC:
                raise unsupported(ins, f"atomic {aop}")
            val = ctx.vgpr(ctx.comp(ins.srcs[1], 0), bits)
            t = ctx.b.inst(f"ds_{_DS_ATOMIC[aop]}{w}", [_vgpr_rc(bits // 32)],
                           [addr, val], offset=k).temp
    else:
        base = binding_base(ctx, ins)
        voff, imm = _voffset(ctx, *_address(ins))
        opc, val = atomic_opcode(ctx, ins, bits)
        t = ctx.b.inst(opc, [_vgpr_rc(bits // 32)], [voff, val, base], offset=imm,
                       glc=True).temp
    ctx.set(d, [ctx.uniform_result(t, not d.divergent)])


def atomic_opcode(ctx: IselContext, ins: Instr, bits: int) -> tuple[str, Temp]:
    """The ``global_atomic_*`` opcode of a buffer atomic (``srcs[0]`` its address) and
    its data operand (compare-exchange: new value and compare value in one vector)."""
    aop = ins.attrs["atomic_op"]
    w = "64" if bits == 64 else "32"
    if aop == "cmpxchg":
        cmp_, new = (ctx.vgpr(ctx.comp(s, 0), bits) for s in ins.srcs[1:])
        data = ctx.b.create_vector(_vgpr_rc(2 * bits // 32), new, cmp_).temp
        opc = f"global_atomic_cmpswap_b{w}"
    else:
        if aop not in _GLOBAL_ATOMIC:
            raise unsupported(ins, f"atomic {aop}")
        data = ctx.vgpr(ctx.comp(ins.srcs[1], 0), bits)
        opc = f"global_atomic_{_GLOBAL_ATOMIC[aop]}{w}"
    if not ctx.b.table.has(opc):
        t = ctx.p.target
        raise unsupported(ins, f"{opc} does not exist on {t.name} ({t.gfx_level.name})")
    return opc, data


def select_barrier(ctx: IselContext, ins: Instr) -> None:
    ex = ins.attrs.get("execution_scope")
    sem = int(ins.attrs.get("semantics") or 0)
    scope = "workgroup" if ex == "Workgroup" else "subgroup" if ex in (
        "Subgroup", "Invocation") else "invocation" if ex in (None, "None") else "workgroup"
    one_wave = ctx.workgroup_size[0] * ctx.workgroup_size[1] * \
        ctx.workgroup_size[2] <= ctx.wave
    # A release/acquire no wider than the wave itself orders nothing another wave sees: a
    # workgroup of one wave, or a subgroup/invocation memory scope (ACO's perform_barrier,
    # aco_insert_waitcnt.cpp: no wait unless the scope exceeds the "subgroup scope", which
    # is the workgroup when it fits in one wave); a wave's own accesses stay in order.
    mem = ins.attrs.get("memory_scope")
    narrow = mem in ("Subgroup", "Invocation") or (mem == "Workgroup" and one_wave)
    ctx.b.pseudo("p_barrier", scope=scope, sem="acqrel" if sem and not narrow else "none",
                 wg_one_wave=one_wave)


def no_saddr() -> Operand:
    """saddr ``off``: an undef SGPR operand."""
    return Operand(rc=s1, undef=True)


def sgpr_rc(n: int):  # type: ignore[no-untyped-def]
    from radcc.ir.regclass import RegClass, RegType

    return RegClass(RegType.SGPR, 4 * n)


def _vgpr_rc(n: int):  # type: ignore[no-untyped-def]
    from radcc.ir.regclass import RegClass, RegType

    return RegClass(RegType.VGPR, 4 * n)


_ = s2
