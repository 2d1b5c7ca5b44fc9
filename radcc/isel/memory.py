"""Memory, system values, barriers and atomics (docs/abi.md for the kernarg layout).

- Buffers: every binding's 64-bit base address is loaded from the kernarg
  segment once, in the entry block (``s_load_b64``). A *uniform* load from a
  read-only storage buffer, a uniform buffer or the push constants (dword
  aligned, 32/64-bit components) is an SMEM ``s_load_b32/b64/b128``; every
  other load is ``global_load_b32..b128`` with ``saddr`` = the base and a VGPR
  byte offset; stores are ``global_store_*``; atomics ``global_atomic_*`` with
  ``glc`` (they return the old value).
- Shared memory: ``ds_load_*``/``ds_store_*``/``ds_*_rtn_*`` on a VGPR byte
  address; the LDS size goes to ``program.config['lds_size']``.
- Barriers: ``p_barrier`` (lowered to the waits and ``s_barrier``).
- System values from the kernel ABI: workgroup ids in SGPRs s2-s4, local ids
  packed in v0 (x: bits 0-9, y: 10-19, z: 20-29), global id = wg id * size +
  local id, the number of workgroups from the hidden block counts.
"""

from __future__ import annotations

from radcc.frontend.mir import Instr, Value
from radcc.frontend.opt.lower_vectors import access_align
from radcc.ir.program import Operand
from radcc.ir.regclass import Temp, s1, s2, v1

from .context import Comp, Const, IselBase, IselError, unsupported
from .kernargs import ArgLayout
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
GLOBAL_OFFSET = range(-4096, 4096)


class MemoryMixin(IselBase):
    """Selection of memory intrinsics and system values."""

    args: ArgLayout
    kernarg: Temp
    wg_ids: list[Temp]
    local_ids: Temp
    buffer_base: dict[tuple[int, int], Temp]
    workgroup_size: tuple[int, int, int]

    # -- helpers -------------------------------------------------------------------
    def _dwords(self, v: Value) -> int:
        return v.bit_size * v.num_components // 32

    def _split(self, t: Temp, v: Value) -> list[Comp]:
        """A loaded register tuple as the value's components."""
        n = v.num_components
        if n == 1:
            return [t]
        rc = self.rc(v)
        return list(self.b.split_vector(t, *([rc] * n)).temps)

    def _join(self, v: Value, vgpr: bool) -> Temp:
        """The value's components as one register tuple (for a store)."""
        comps = self.get(v)
        if v.bit_size not in (32, 64):
            raise IselError(f"instruction selection: {v.bit_size}-bit stores are not "
                            f"supported yet")
        bits = v.bit_size
        regs = [self.vgpr(c, bits) if vgpr else self.sgpr(c, bits) for c in comps]
        if len(regs) == 1:
            return regs[0]
        from radcc.ir.regclass import RegClass, RegType

        rc = RegClass(RegType.VGPR if vgpr else RegType.SGPR, 4 * self._dwords(v))
        return self.b.create_vector(rc, *regs).temp

    @staticmethod
    def _address(ins: Instr) -> tuple[Value, int]:
        """The byte address of a memory intrinsic: (the address source, the constant
        ``attrs["offset"]`` fold_offsets moved out of it; docs/mir.md "Memory")."""
        k = 1 if ins.op.startswith("store_") else 0
        return ins.srcs[k], int(ins.attrs.get("offset", 0))

    def _offset_parts(self, off: Value, extra: int = 0) -> tuple[Comp | None, int]:
        """(dynamic part or None, constant part) of a byte offset plus `extra`."""
        dyn, k = self._offset_parts0(off)
        return dyn, k + extra

    def _offset_parts0(self, off: Value) -> tuple[Comp | None, int]:
        c = self.comp(off, 0)
        if isinstance(c, Const):
            return None, c.value
        p = off.parent
        if p is not None and p.op == "iadd":
            for i in (0, 1):
                k = self.comp(p.srcs[i], 0)
                other = self.comp(p.srcs[1 - i], 0)
                if isinstance(k, Const) and not isinstance(other, Const) and \
                        p.srcs[1 - i].divergent == off.divergent and k.value < 4096:
                    return other, k.value
        return c, 0

    def _voffset(self, off: Value, extra: int = 0) -> tuple[Temp, int]:
        dyn, k = self._offset_parts(off, extra)
        if dyn is None:
            return self.vgpr(Const(32, k)), 0
        if k not in GLOBAL_OFFSET:
            return self.vgpr(self.valu("v_add_nc_u32", v1, dyn, Const(32, k),
                                       commutative=True)), 0
        return self.vgpr(dyn), k

    # -- buffers ----------------------------------------------------------------------
    def _base(self, ins: Instr) -> Temp:
        key = tuple(ins.attrs["binding"])
        return self.buffer_base[key]  # type: ignore[index]

    def select_load(self, ins: Instr) -> None:
        d = ins.dest
        assert d is not None
        op = ins.op
        if d.bit_size not in (32, 64):
            raise unsupported(ins, f"{d.bit_size}-bit loads are not selected yet")
        if op == "load_shared":
            self.set(d, self._ds_load(ins, d))
            return
        if op == "load_scratch":
            self.set(d, self._scratch_load(ins, d))
            return
        push = op == "load_push_constant"
        base = self.kernarg if push else self._base(ins)
        extra = (self.args.push_offset or 0) if push else 0
        off, k0 = self._address(ins)
        n = self._dwords(d)
        smem_ok = not d.divergent and not off.divergent
        dyn, k = self._offset_parts(off, k0)
        if smem_ok and k % 4 == 0 and (ins.attrs.get("align", 4) >= 4):
            self.set(d, self._smem_load(base, dyn, k + extra, d, n))
            return
        voff, imm = self._voffset(off, k0)
        imm += extra
        if imm not in GLOBAL_OFFSET:
            voff = self.valu("v_add_nc_u32", v1, Const(32, imm), voff)
            imm = 0
        parts = []
        done = 0
        while done < n:
            m = min(4, n - done)
            from radcc.ir.regclass import RegClass, RegType

            rc = RegClass(RegType.VGPR, 4 * m)
            t = self.b.inst(f"global_load_{_VEC[m]}", [rc], [voff, base],
                            offset=imm + 4 * done).temp
            parts.append(t)
            done += m
        t = parts[0] if len(parts) == 1 else self._concat(parts, True)
        if not d.divergent:
            t = self.b.pseudo("p_as_uniform", [_sgpr_rc(n)], [t]).temp
        self.set(d, self._split(t, d))

    def _concat(self, parts: list[Temp], vgpr: bool) -> Temp:
        from radcc.ir.regclass import RegClass, RegType

        n = sum(p.rc.size for p in parts)
        return self.b.create_vector(RegClass(RegType.VGPR if vgpr else RegType.SGPR, 4 * n),
                                    *parts).temp

    def _smem_load(self, base: Temp, dyn: Comp | None, k: int, d: Value, n: int) -> list[Comp]:
        soff: Operand | Temp
        if dyn is None:
            soff = Operand.c32(k)
        else:
            soff = self.salu("s_add_u32", s1, dyn, Const(32, k)) if k else self.sgpr(dyn)
        parts: list[Temp] = []
        done = 0
        while done < n:
            m = 4 if n - done >= 4 else 2 if n - done >= 2 else 1
            o: Operand | Temp
            if isinstance(soff, Operand):
                o = Operand.c32(soff.const + 4 * done)  # type: ignore[operator]
            elif done:
                o = self.salu("s_add_u32", s1, soff, Const(32, 4 * done))
            else:
                o = soff
            parts.append(self.b.inst(_SMEM[m], [_sgpr_rc(m)], [base, o]).temp)
            done += m
        t = parts[0] if len(parts) == 1 else self._concat(parts, False)
        return self._split(t, d)

    def select_store(self, ins: Instr) -> None:
        val = ins.srcs[0]
        off, k0 = self._address(ins)
        if val.bit_size not in (32, 64):
            raise unsupported(ins, f"{val.bit_size}-bit stores are not selected yet")
        if ins.op == "store_shared":
            self._ds_store(val, off, k0, self._ds_align(ins, val))
            return
        if ins.op == "store_scratch":
            self._scratch_store(val, off, k0)
            return
        base = self._base(ins)
        voff, imm = self._voffset(off, k0)
        data = self._join(val, True)
        n = self._dwords(val)
        if n <= 4:
            self.b.inst(f"global_store_{_VEC[n]}", [], [voff, data, base], offset=imm)
            return
        regs = self.b.split_vector(data, *([v1] * n)).temps
        for i in range(0, n, 4):
            m = min(4, n - i)
            from radcc.ir.regclass import RegClass, RegType

            chunk = regs[i] if m == 1 else self.b.create_vector(
                RegClass(RegType.VGPR, 4 * m), *regs[i:i + m]).temp
            self.b.inst(f"global_store_{_VEC[m]}", [], [voff, chunk, base], offset=imm + 4 * i)

    def select_ssbo_size(self, ins: Instr) -> None:
        d = ins.dest
        assert d is not None
        key = tuple(ins.attrs["binding"])
        t = self.b.inst("s_load_b32", [s1], [self.kernarg,
                                            Operand.c32(self.args.sizes[key])]).temp  # type: ignore
        self.set(d, [self.to_class(t, self.rc(d))])

    # -- scratch (private memory) --------------------------------------------------------
    # ``scratch_*`` with a VGPR byte offset and saddr ``off``: with the private segment
    # enabled (config['scratch_size'] -> enable_private_segment, docs/abi.md) GFX11's
    # architected flat scratch adds the wave's scratch base itself.
    def _scratch_addr(self, off: Value, extra: int) -> tuple[Temp, int]:
        return self._voffset(off, extra)

    def _scratch_load(self, ins: Instr, d: Value) -> list[Comp]:
        voff, imm = self._scratch_addr(*self._address(ins))
        n = self._dwords(d)
        parts: list[Temp] = []
        done = 0
        while done < n:
            m = min(4, n - done)
            parts.append(self.b.inst(f"scratch_load_{_VEC[m]}", [_vgpr_rc(m)],
                                     [voff, _no_saddr()], offset=imm + 4 * done).temp)
            done += m
        t = parts[0] if len(parts) == 1 else self._concat(parts, True)
        if not d.divergent:
            t = self.b.pseudo("p_as_uniform", [_sgpr_rc(n)], [t]).temp
        return self._split(t, d)

    def _scratch_store(self, val: Value, off: Value, extra: int) -> None:
        voff, imm = self._scratch_addr(off, extra)
        data = self._join(val, True)
        n = self._dwords(val)
        regs = [data] if n <= 4 else list(self.b.split_vector(data, *([v1] * n)).temps)
        for i in range(0, n, 4):
            m = min(4, n - i)
            chunk = data if n <= 4 else regs[i] if m == 1 else self.b.create_vector(
                _vgpr_rc(m), *regs[i:i + m]).temp
            self.b.inst(f"scratch_store_{_VEC[m]}", [], [voff, chunk, _no_saddr()],
                        offset=imm + 4 * i)

    # -- shared memory -------------------------------------------------------------------
    def _ds_addr(self, off: Value, extra: int = 0) -> tuple[Temp, int]:
        dyn, k = self._offset_parts(off, extra)
        if dyn is None:
            return self.vgpr(Const(32, k)), 0
        if not 0 <= k < 65536:
            return self.valu("v_add_nc_u32", v1, dyn, Const(32, k), commutative=True), 0
        return self.vgpr(dyn), k

    def _ds_load(self, ins: Instr, d: Value) -> list[Comp]:
        addr, k = self._ds_addr(*self._address(ins))
        n = self._dwords(d)
        parts: list[Temp] = []
        for form, _first, m, fields in ds_plan(n, self._ds_align(ins, d), k):
            parts.append(self.b.inst(f"ds_load_{form}", [_vgpr_rc(m)], [addr],
                                     **fields).temp)  # type: ignore[arg-type]
        t = parts[0] if len(parts) == 1 else self._concat(parts, True)
        if not d.divergent:
            t = self.b.pseudo("p_as_uniform", [_sgpr_rc(n)], [t]).temp
        return self._split(t, d)

    @staticmethod
    def _ds_align(ins: Instr, v: Value) -> int:
        """Known alignment of a DS access's address: from the address expression and
        attrs['align'] (lower_vectors.access_align), at least the component size
        (radcc lays shared variables out naturally aligned)."""
        return max(access_align(ins), v.bit_size // 8)

    def _ds_store(self, val: Value, off: Value, extra: int = 0, align: int = 4) -> None:
        addr, k = self._ds_addr(off, extra)
        data = self._join(val, True)
        n = self._dwords(val)
        plan = ds_plan(n, align, k)
        regs = [data] if len(plan) == 1 else list(
            self.b.split_vector(data, *([v1] * n)).temps)

        def chunk(first: int, m: int) -> Temp:
            if len(plan) == 1:
                return data
            return regs[first] if m == 1 else self.b.create_vector(
                _vgpr_rc(m), *regs[first:first + m]).temp

        for form, first, m, fields in plan:
            if form.startswith("2addr"):
                h = m // 2
                ops = [addr, chunk(first, h), chunk(first + h, h)]
            else:
                ops = [addr, chunk(first, m)]
            self.b.inst(f"ds_store_{form}", [], ops, **fields)  # type: ignore[arg-type]

    # -- atomics ---------------------------------------------------------------------------
    def select_atomic(self, ins: Instr) -> None:
        d = ins.dest
        assert d is not None
        bits = d.bit_size
        if bits not in (32, 64):
            raise unsupported(ins, f"{bits}-bit atomics")
        aop = ins.attrs["atomic_op"]
        shared = ins.op.startswith("shared")
        w = "64" if bits == 64 else "32"
        if shared:
            addr, k = self._ds_addr(*self._address(ins))
            if aop == "cmpxchg":
                cmp_, new = (self.vgpr(self.comp(s, 0), bits) for s in ins.srcs[1:])
                opc = f"ds_cmpstore_rtn_b{w}"
                t = self.b.inst(opc, [_vgpr_rc(bits // 32)], [addr, new, cmp_], offset=k).temp
            else:
                if aop not in _DS_ATOMIC:
                    raise unsupported(ins, f"atomic {aop}")
                data = self.vgpr(self.comp(ins.srcs[1], 0), bits)
                t = self.b.inst(f"ds_{_DS_ATOMIC[aop]}{w}", [_vgpr_rc(bits // 32)],
                                [addr, data], offset=k).temp
        else:
            base = self._base(ins)
            voff, imm = self._voffset(*self._address(ins))
            if aop == "cmpxchg":
                cmp_, new = (self.vgpr(self.comp(s, 0), bits) for s in ins.srcs[1:])
                data = self.b.create_vector(_vgpr_rc(2 * bits // 32), new, cmp_).temp
                opc = f"global_atomic_cmpswap_b{w}"
            else:
                if aop not in _GLOBAL_ATOMIC:
                    raise unsupported(ins, f"atomic {aop}")
                data = self.vgpr(self.comp(ins.srcs[1], 0), bits)
                opc = f"global_atomic_{_GLOBAL_ATOMIC[aop]}{w}"
            if opc not in self.b.table.by_name:
                raise unsupported(ins, f"no {opc} on this target")
            t = self.b.inst(opc, [_vgpr_rc(bits // 32)], [voff, data, base], offset=imm,
                            glc=True).temp
        self.set(d, [self.uniform_result(t, not d.divergent)])

    def select_barrier(self, ins: Instr) -> None:
        ex = ins.attrs.get("execution_scope")
        sem = int(ins.attrs.get("semantics") or 0)
        scope = "workgroup" if ex == "Workgroup" else "subgroup" if ex in (
            "Subgroup", "Invocation") else "invocation" if ex in (None, "None") else "workgroup"
        one_wave = self.workgroup_size[0] * self.workgroup_size[1] * \
            self.workgroup_size[2] <= self.wave
        self.b.pseudo("p_barrier", scope=scope, sem="acqrel" if sem else "none",
                      wg_one_wave=one_wave)

    # -- system values -----------------------------------------------------------------------
    def select_system_value(self, ins: Instr) -> None:
        d = ins.dest
        assert d is not None
        op = ins.op
        ws = self.workgroup_size
        if op == "load_workgroup_id":
            self.set(d, list(self.wg_ids))
        elif op == "load_workgroup_size":
            self.set(d, [Const(32, x) for x in ws])
        elif op == "load_local_invocation_id":
            self.set(d, self._local_ids())
        elif op == "load_global_invocation_id":
            loc = self._local_ids()
            out: list[Comp] = []
            for i in range(3):
                if ws[i] == 1 and isinstance(loc[i], Const):
                    out.append(self.vgpr(self.wg_ids[i]))
                else:
                    out.append(self.valu("v_mad_u32_u24", v1, self.wg_ids[i],
                                         Const(32, ws[i]), loc[i]))
            self.set(d, out)
        elif op == "load_local_invocation_index":
            self.set(d, [self._local_index()])
        elif op == "load_num_workgroups":
            t = self.b.inst("s_load_b128", [_sgpr_rc(4)],
                            [self.kernarg, Operand.c32(self.args.block_count)]).temp
            parts = self.b.split_vector(t, s1, s1, s1, s1).temps
            self.set(d, [self.to_class(x, self.rc(d)) for x in parts[:3]])
        elif op == "load_subgroup_size":
            self.set(d, [Const(32, self.wave)])
        elif op == "load_num_subgroups":
            n = ws[0] * ws[1] * ws[2]
            self.set(d, [Const(32, -(-n // self.wave))])
        elif op == "load_subgroup_invocation":
            self.set(d, [self._mbcnt()])
        elif op == "load_subgroup_id":
            idx = self._local_index()
            sh = self.valu("v_lshrrev_b32", v1, Const(32, self.wave.bit_length() - 1),
                           self.vgpr(idx))
            self.set(d, [self.uniform_result(sh, not d.divergent)])
        else:
            raise unsupported(ins)

    def _local_ids(self) -> list[Comp]:
        ws = self.workgroup_size
        v0 = self.local_ids
        out: list[Comp] = [self.valu("v_and_b32", v1, Const(32, 0x3FF), v0) if ws[0] > 1
                           else Const(32, 0)]
        for i in (1, 2):
            out.append(self.valu("v_bfe_u32", v1, v0, Const(32, 10 * i), Const(32, 10))
                       if ws[i] > 1 else Const(32, 0))
        return out

    def _local_index(self) -> Comp:
        ws = self.workgroup_size
        x, y, z = self._local_ids()
        idx = x
        if ws[1] > 1:
            idx = self.valu("v_mad_u32_u24", v1, y, Const(32, ws[0]), idx)
        if ws[2] > 1:
            idx = self.valu("v_mad_u32_u24", v1, z, Const(32, ws[0] * ws[1]), idx)
        return idx

    def _mbcnt(self) -> Temp:
        t = self.valu("v_mbcnt_lo_u32_b32", v1, Const(32, 0xFFFFFFFF), Const(32, 0))
        if self.wave == 64:
            t = self.valu("v_mbcnt_hi_u32_b32", v1, Const(32, 0xFFFFFFFF), t)
        return t


def _no_saddr() -> Operand:
    """saddr ``off``: an undef SGPR operand."""
    return Operand(rc=s1, undef=True)


def _sgpr_rc(n: int):  # type: ignore[no-untyped-def]
    from radcc.ir.regclass import RegClass, RegType

    return RegClass(RegType.SGPR, 4 * n)


def _vgpr_rc(n: int):  # type: ignore[no-untyped-def]
    from radcc.ir.regclass import RegClass, RegType

    return RegClass(RegType.VGPR, 4 * n)


_ = s2
