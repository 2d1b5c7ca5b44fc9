"""8/16-bit loads and stores (docs/isel.md "8/16-bit values").

A sub-dword component is one access: ``global_load_u8/i8/u16/i16`` (the value
zero- or sign-extended into a full VGPR, so a loaded value's high bits happen
to be clean; nothing relies on it), ``ds_load_u8/u16``, ``scratch_load_u8/u16``;
stores ``global_store_b8/b16``, ``ds_store_b8/b16``, ``scratch_store_b8/b16``
write the low bits of a VGPR. SMEM has no sub-dword loads: a uniform 8/16-bit
push constant at a constant offset is the ``s_load_b32`` of its dword shifted down
(``s_lshr_b32``; the push-constant block is padded to whole dwords); any other
uniform 8/16-bit load from a buffer or the push constants is a VMEM load (its
address is in SGPRs, the saddr form with a constant/uniform VGPR offset), read back
with ``p_as_uniform`` (a buffer's size need not be a multiple of 4). A vector of n 8/16-bit components is n accesses.

8/16-bit atomics do not exist on GFX11 and are reported unsupported.
"""

from __future__ import annotations

from radcc.frontend.mir import Instr, Value
from radcc.ir.program import Operand
from radcc.ir.regclass import Temp, s1, v1

from .context import Comp, Const, unsupported
from .memory import GLOBAL_OFFSET, MemoryMixin


class Mem16Mixin(MemoryMixin):
    """Loads and stores of 8/16-bit values; everything else goes to `MemoryMixin`."""

    def select_load(self, ins: Instr) -> None:
        d = ins.dest
        assert d is not None
        if d.bit_size not in (8, 16):
            super().select_load(ins)
            return
        bits = d.bit_size
        nb = bits // 8
        off, k0 = _address(ins)
        if ins.op == "load_push_constant" and not d.divergent and not off.divergent:
            dyn, k = self._offset_parts(off, k0)
            if dyn is None:
                self.set(d, [self._push_smem(k + c * nb) for c in range(d.num_components)])
                return
        out: list[Comp] = []
        for c in range(d.num_components):
            k = k0 + c * nb
            if ins.op == "load_shared":
                addr, imm = self._sub_ds_addr(off, k)
                t = self.b.inst(f"ds_load_u{bits}", [v1], [addr], offset=imm).temp
            elif ins.op == "load_scratch":
                voff, imm = self._sub_voffset(off, k)
                t = self.b.inst(f"scratch_load_u{bits}", [v1], [voff, _no_saddr()],
                                offset=imm).temp
            elif ins.op in ("load_ssbo", "load_ubo", "load_push_constant"):
                push = ins.op == "load_push_constant"
                base = self.kernarg if push else self._base(ins)
                voff, imm = self._sub_voffset(off, k)
                if push:
                    imm += self.args.push_offset or 0
                if imm not in GLOBAL_OFFSET:
                    voff = self.valu("v_add_nc_u32", v1, Const(32, imm), voff)
                    imm = 0
                t = self.b.inst(f"global_load_u{bits}", [v1], [voff, base], offset=imm).temp
            else:
                raise unsupported(ins)
            out.append(t if d.divergent else
                       self.b.pseudo("p_as_uniform", [s1], [t]).temp)
        self.set(d, out)

    def _push_smem(self, k: int) -> Temp:
        """A uniform 8/16-bit push constant at constant byte offset `k` of the block: the
        dword holding it (``s_load_b32``; the block is padded to whole dwords, so the read
        stays inside the kernarg segment) shifted down by its byte position (the bits
        above its size are undefined, docs/isel.md)."""
        kk = k + (self.args.push_offset or 0)
        t = self.b.inst("s_load_b32", [s1], [self.kernarg, Operand.c32(kk & ~3)]).temp
        if kk & 3:
            t = self.salu("s_lshr_b32", s1, t, Const(32, 8 * (kk & 3)))
        return t

    def select_store(self, ins: Instr) -> None:
        val = ins.srcs[0]
        if val.bit_size not in (8, 16):
            super().select_store(ins)
            return
        bits = val.bit_size
        nb = bits // 8
        off, k0 = _address(ins)
        for c in range(val.num_components):
            data = self.vgpr(self._store_comp(self.comp(val, c), bits))
            k = k0 + c * nb
            if ins.op == "store_shared":
                addr, imm = self._sub_ds_addr(off, k)
                self.b.inst(f"ds_store_b{bits}", [], [addr, data], offset=imm)
            elif ins.op == "store_scratch":
                voff, imm = self._sub_voffset(off, k)
                self.b.inst(f"scratch_store_b{bits}", [], [voff, data, _no_saddr()],
                            offset=imm)
            elif ins.op == "store_ssbo":
                voff, imm = self._sub_voffset(off, k)
                self.b.inst(f"global_store_b{bits}", [], [voff, data, self._base(ins)],
                            offset=imm)
            else:
                raise unsupported(ins)

    def _sub_voffset(self, off: Value, extra: int) -> tuple[Temp, int]:
        """A VGPR byte offset and an immediate in the FLAT range for `off` + `extra`."""
        dyn, k = self._offset_parts(off)
        k += extra
        if dyn is None:
            return self.vgpr(Const(32, k)), 0
        if k not in GLOBAL_OFFSET:
            return self.valu("v_add_nc_u32", v1, dyn, Const(32, k), commutative=True), 0
        return self.vgpr(dyn), k

    def _sub_ds_addr(self, off: Value, extra: int) -> tuple[Temp, int]:
        """A VGPR LDS address and a 16-bit offset for `off` + `extra`."""
        dyn, k = self._offset_parts(off)
        k += extra
        if dyn is None:
            return self.vgpr(Const(32, k)), 0
        if not 0 <= k < 65536:
            return self.valu("v_add_nc_u32", v1, dyn, Const(32, k), commutative=True), 0
        return self.vgpr(dyn), k

    @staticmethod
    def _store_comp(x: Comp, bits: int) -> Comp:
        return Const(32, x.value & ((1 << bits) - 1)) if isinstance(x, Const) else x

    def select_atomic(self, ins: Instr) -> None:
        d = ins.dest
        if d is not None and d.bit_size in (8, 16):
            raise unsupported(ins, f"{d.bit_size}-bit atomics (GFX11 has none; not lowered "
                                   "to 32-bit compare-and-swap loops yet)")
        super().select_atomic(ins)


def _address(ins: Instr) -> tuple[Value, int]:
    """(the address source, the constant ``attrs["offset"]``) of a memory intrinsic."""
    k = 1 if ins.op.startswith("store_") else 0
    return ins.srcs[k], int(ins.attrs.get("offset", 0))


def _no_saddr() -> object:
    from . import memory

    f = getattr(memory, "_NO_SADDR", None)
    if f is None:
        raise unsupported(None, "scratch accesses")
    return f()

