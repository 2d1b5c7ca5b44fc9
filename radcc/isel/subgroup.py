"""Selection of the MIR subgroup intrinsics (votes, ballots, broadcasts, shuffles,
quad operations, reductions and scans) and the subgroup mask system values.

After ACO's isel (seeds/001 "Instruction Selection"; facts of
aco_instruction_selection.cpp's subgroup intrinsics, written anew for GFX10+):

- votes and ballots are SALU on lane masks ANDed with EXEC (``s_and``,
  ``s_and_not1``; SCC gives the uniform boolean); ``elect`` is
  ``s_ctz_i32`` of EXEC and a shift; ballot bit counts use ``s_bcnt1`` and
  ``v_mbcnt_lo/hi_u32_b32``; ``allEqual`` compares with
  ``v_readfirstlane_b32``;
- broadcasts: ``v_readfirstlane_b32`` / ``v_readlane_b32`` (uniform index);
  shuffles with a divergent index: ``ds_bpermute_b32`` (wave32), or the
  ``p_bpermute`` pseudo in wave64 (``ds_bpermute_b32`` only permutes within
  32-lane halves; `radcc.passes.lower_reductions`); constant xor masks use
  DPP ``quad_perm`` / ``row_xmask``, ``v_permlanex16_b32`` and
  ``v_permlane64_b32``; quad operations DPP ``quad_perm``;
- reductions and scans: ``p_reduce`` / ``p_inclusive_scan`` /
  ``p_exclusive_scan`` with fields ``op`` (ACO's ReduceOp, e.g. ``fadd32``)
  and ``cluster_size``, operands ``src, lvN: undef, lvN: undef`` (linear
  scratch VGPRs `reduce_assign.setup_reduce_temp` fills), definitions ``dst``
  (an SGPR for a whole-wave reduce), the EXEC save, an SGPR temporary when
  needed, scc (and vcc for 64-bit integer add/min/max). A whole-wave reduce of
  a uniform value is computed on the SALU (min/max/and/or: the value; add:
  value * active lanes; xor: value * parity); its scans count the active
  lanes below (``v_mbcnt`` of EXEC). Booleans reduce as lane masks
  (and/or/xor of the whole wave) or as 0/1 integers.
- masks (``load_subgroup_{eq,ge,gt,le,lt}_mask``): shifts of the lane id
  (``v_mbcnt``), 64-bit in wave64; words 2 and 3 (and 1 in wave32) are 0.

Entry points: `SUBGROUP_INTRINSICS` (the MIR ops handled here) and
`SubgroupMixin.select_subgroup(ins)`; see docs/isel.md "Subgroup operations".
"""

from __future__ import annotations

from radcc.frontend.mir import Instr, Value
from radcc.frontend.mir_ops import SUBGROUP_OPS
from radcc.ir.program import Operand
from radcc.ir.regclass import EXEC, SCC, VCC, PhysReg, RegClass, RegType, Temp, s1, s2, v1, v2
from radcc.passes.lower_reductions import needs_sitmp, needs_vcc, reduce_op_info

from .context import Comp, Const, IselBase, unsupported

MASK_VALUES = frozenset({"load_subgroup_eq_mask", "load_subgroup_ge_mask",
                         "load_subgroup_gt_mask", "load_subgroup_le_mask",
                         "load_subgroup_lt_mask"})
SUBGROUP_INTRINSICS = frozenset(SUBGROUP_OPS) | MASK_VALUES

_QUAD_SWAP = {"quad_swap_horizontal": 1, "quad_swap_vertical": 2, "quad_swap_diagonal": 3}
_SCAN_OPCODE = {"reduce": "p_reduce", "inclusive_scan": "p_inclusive_scan",
                "exclusive_scan": "p_exclusive_scan"}
_FEQ = {32: "v_cmp_eq_f32", 64: "v_cmp_eq_f64"}
_IEQ = {32: "v_cmp_eq_u32", 64: "v_cmp_eq_u64"}


class SubgroupMixin(IselBase):
    """Selection of `SUBGROUP_INTRINSICS` (module docstring)."""

    def select_subgroup(self, ins: Instr) -> None:
        op = ins.op
        d = ins.dest
        assert d is not None
        if op in MASK_VALUES:
            self.set(d, self._sg_mask(op[len("load_subgroup_"):-len("_mask")]))
            return
        for s in ins.srcs:
            if s.bit_size not in (1, 32, 64):
                raise unsupported(ins, "8/16-bit subgroup operations are not selected yet")
        if d.bit_size not in (1, 32, 64):
            raise unsupported(ins, "8/16-bit subgroup operations are not selected yet")
        handler = getattr(self, "_sg_" + op, None)
        if handler is None:
            if op in _QUAD_SWAP:
                self.set(d, self._sg_lanes(ins, "xor", Const(32, _QUAD_SWAP[op])))
                return
            if op in _SCAN_OPCODE:
                self.set(d, self._sg_reduce(ins))
                return
            raise unsupported(ins)
        self.set(d, handler(ins))

    # -- helpers ------------------------------------------------------------------------
    def _sgx_exec(self) -> Operand:
        return Operand.fixed(PhysReg.of(EXEC), self.lm)

    def _sgx_lm_name(self, stem: str) -> str:
        return f"{stem}_b64" if self.wave == 64 else f"{stem}_b32"

    def _sgx_bool_from_scc(self, d: Value, scc: Temp, if_set: bool = True) -> Comp:
        t, f = (1, 0) if if_set else (0, 1)
        if d.divergent:
            ones = self.lm_all()
            a, b = (ones, self.lm_zero()) if if_set else (self.lm_zero(), ones)
            return self.new_lane_mask(self.b.sop2(self._sgx_lm_name("s_cselect"), self.lm, a, b,
                                                  self.scc_op(scc), scc=False).temp)
        return self.b.sop2("s_cselect_b32", s1, Operand.c32(t), Operand.c32(f),
                           self.scc_op(scc), scc=False).temp

    def _sgx_and_exec(self, mask: Temp) -> tuple[Temp, Temp]:
        """(mask & exec, scc = result != 0)."""
        r = self.b.sop2(self._sgx_lm_name("s_and"), self.lm, mask, self._sgx_exec())
        return r.temp, r[1]

    def _sgx_lane_id(self) -> Temp:
        t = self.valu("v_mbcnt_lo_u32_b32", v1, Const(32, 0xFFFFFFFF), Const(32, 0))
        if self.wave == 64:
            t = self.valu("v_mbcnt_hi_u32_b32", v1, Const(32, 0xFFFFFFFF), t)
        return t

    def _sgx_dwords(self, x: Comp, bits: int) -> list[Comp]:
        if bits == 64:
            return list(self.halves(x))
        return [x]

    def _sgx_join_dwords(self, parts: list[Temp], bits: int) -> Temp:
        if bits == 64:
            rc = s2 if all(p.rc.is_sgpr for p in parts) else v2
            if rc is v2:
                parts = [self.vgpr(p) for p in parts]
            return self.b.create_vector(rc, *parts).temp
        return parts[0]

    def _sgx_bool_to_vgpr(self, x: Comp) -> Temp:
        """A boolean as 0/1 in a VGPR."""
        mask = self.lanemask(x)
        return self.b.vop3("v_cndmask_b32", v1, Operand.c32(0), Operand.c32(1), mask).temp

    def _sgx_vgpr_to_bool(self, d: Value, x: Temp) -> Comp:
        if x.rc.is_sgpr:
            scc = self.salu("s_cmp_lg_u32", None, x, Const(32, 0))
            return self._sgx_bool_from_scc(d, scc)
        m = self.new_lane_mask(self.valu("v_cmp_ne_u32", self.lm, Const(32, 0), x))
        return m if d.divergent else self.ubool(m)

    def _sgx_out(self, d: Value, x: Comp) -> Comp:
        """`x` in the class the MIR destination wants (non-boolean)."""
        if isinstance(x, Const):
            return x
        rc = self.rc(d)
        if rc.is_vgpr and x.rc.is_sgpr:
            return self.vgpr(x, d.bit_size)
        return x

    def _sgx_uniform(self, x: Comp) -> bool:
        return isinstance(x, Const) or (x.rc.is_sgpr and not self.is_lane_mask(x))

    # -- votes, elect -------------------------------------------------------------------
    def _sg_elect(self, ins: Instr) -> list[Comp]:
        first = self.b.sop1(self._sgx_lm_name("s_ctz_i32"), s1, self._sgx_exec(), scc=False).temp
        one = Operand.c64(1) if self.wave == 64 else Operand.c32(1)
        m = self.new_lane_mask(self.b.sop2(self._sgx_lm_name("s_lshl"), self.lm, one, first).temp)
        assert ins.dest is not None
        return [m if ins.dest.divergent else self.ubool(m)]

    def _sg_vote_any(self, ins: Instr) -> list[Comp]:
        return [self._sgx_vote(ins, self.comp(ins.srcs[0], 0), any_=True)]

    def _sg_vote_all(self, ins: Instr) -> list[Comp]:
        return [self._sgx_vote(ins, self.comp(ins.srcs[0], 0), any_=False)]

    def _sgx_vote(self, ins: Instr, x: Comp, any_: bool) -> Comp:
        d = ins.dest
        assert d is not None
        if self._sgx_uniform(x):  # the same in every lane: the value itself
            return self.lanemask(x) if d.divergent else x
        if any_:
            _, scc = self._sgx_and_exec(x)
            return self._sgx_bool_from_scc(d, scc)
        r = self.b.sop2(self.lm_op("andn2"), self.lm, self._sgx_exec(), x)
        return self._sgx_bool_from_scc(d, r[1], if_set=False)

    def _sg_vote_ieq(self, ins: Instr) -> list[Comp]:
        return [self._sgx_vote_eq(ins, _IEQ)]

    def _sg_vote_feq(self, ins: Instr) -> list[Comp]:
        return [self._sgx_vote_eq(ins, _FEQ)]

    def _sgx_vote_eq(self, ins: Instr, cmp: dict[int, str]) -> Comp:
        d = ins.dest
        assert d is not None
        src = ins.srcs[0]
        acc: Temp | None = None  # lanes equal to the first active lane (all components)
        oks: list[Temp] = []  # per boolean component: 1 if all active lanes agree
        for c in self.get(src):
            if self._sgx_uniform(c):
                continue
            if src.bit_size == 1:  # a lane mask: all active lanes set, or none
                some = self._sgx_scc01(self._sgx_and_exec(c)[1])
                not_all = self._sgx_scc01(self.b.sop2(self.lm_op("andn2"), self.lm,
                                                      self._sgx_exec(), c)[1])
                mixed = self.b.sop2("s_and_b32", s1, some, not_all).temp
                oks.append(self.b.sop2("s_xor_b32", s1, mixed, Operand.c32(1)).temp)
                continue
            first = self.b.pseudo("p_as_uniform", [s2 if src.bit_size == 64 else s1], [c]).temp
            cmpm = self.valu(cmp[src.bit_size], self.lm, first, c,
                             wide=(src.bit_size == 64,) * 2)
            acc = cmpm if acc is None else self.b.sop2(self.lm_op("and"), self.lm, acc,
                                                        cmpm).temp
        if acc is not None:
            r = self.b.sop2(self.lm_op("andn2"), self.lm, self._sgx_exec(), acc)
            oks.append(self.b.sop2("s_cselect_b32", s1, Operand.c32(0), Operand.c32(1),
                                   self.scc_op(r[1]), scc=False).temp)
        if not oks:
            return self.lanemask(Const(1, 1)) if d.divergent else Const(1, 1)
        ok = oks[0]
        for o in oks[1:]:
            ok = self.b.sop2("s_and_b32", s1, ok, o).temp
        return self.lanemask(ok) if d.divergent else ok

    def _sgx_scc01(self, scc: Temp) -> Temp:
        return self.b.sop2("s_cselect_b32", s1, Operand.c32(1), Operand.c32(0),
                           self.scc_op(scc), scc=False).temp

    # -- ballots ------------------------------------------------------------------------
    def _sg_ballot(self, ins: Instr) -> list[Comp]:
        d = ins.dest
        assert d is not None
        x = self.comp(ins.srcs[0], 0)
        if isinstance(x, Const) and not x.value:
            words: list[Comp] = [Const(32, 0)] * (self.wave // 32)
        else:
            m, _ = self._sgx_and_exec(self.lanemask(x))
            words = [m] if self.wave == 32 else list(self.b.split_vector(m, s1, s1).temps)
        words += [Const(32, 0)] * (4 - len(words))
        return [self._sgx_out(d, w) for w in words][:d.num_components]

    def _sgx_ballot_mask(self, v: Value) -> Temp:
        """The first wave-size bits of a ballot value as a uniform lane-mask-sized SGPR."""
        words = [self.sgpr(self.comp(v, k)) for k in range(self.wave // 32)]
        if self.wave == 64:
            return self.b.create_vector(s2, *words).temp
        return self.b.copy(s1, words[0]).temp

    def _sg_inverse_ballot(self, ins: Instr) -> list[Comp]:
        d = ins.dest
        assert d is not None
        m = self.new_lane_mask(self._sgx_ballot_mask(ins.srcs[0]))
        return [m if d.divergent else self.ubool(m)]

    def _sg_ballot_bitfield_extract(self, ins: Instr) -> list[Comp]:
        d = ins.dest
        assert d is not None
        v, idx = ins.srcs
        i = self.comp(idx, 0)
        words = self.get(v)
        if isinstance(i, Const):
            w = words[min((i.value >> 5) & 3, len(words) - 1)]
            if isinstance(w, Const):
                bit = (w.value >> (i.value & 31)) & 1
                return [self.lanemask(Const(1, bit)) if d.divergent else Const(1, bit)]
            if w.rc.is_sgpr:
                scc = self.salu("s_bitcmp1_b32", None, w, Const(32, i.value & 31))
                return [self._sgx_bool_from_scc(d, scc)]
        iv = self.vgpr(i)
        sel = self.valu("v_lshrrev_b32", v1, Const(32, 5), iv)
        acc: Comp = Const(32, 0)
        for k, w in enumerate(words[:4]):
            if isinstance(w, Const) and not w.value:
                continue
            sh = self.valu("v_lshrrev_b32", v1, iv, w)
            hit = self.valu("v_cmp_eq_u32", self.lm, Const(32, k), sel)
            acc = self.b.vop3("v_cndmask_b32", v1, self.operand(acc), sh, hit).temp
        if isinstance(acc, Const):
            return [self.lanemask(Const(1, 0)) if d.divergent else Const(1, 0)]
        bit = self.valu("v_and_b32", v1, Const(32, 1), acc)
        return [self._sgx_vgpr_to_bool(d, bit)]

    def _sg_ballot_bit_count_reduce(self, ins: Instr) -> list[Comp]:
        d = ins.dest
        assert d is not None
        words = [self.comp(ins.srcs[0], k) for k in range(self.wave // 32)]
        if all(self._sgx_uniform(w) for w in words):
            cnt: Comp = Const(32, 0)
            for w in words:
                c = self.salu("s_bcnt1_i32_b32", s1, w)
                cnt = c if isinstance(cnt, Const) else self.salu("s_add_u32", s1, cnt, c)
            return [self._sgx_out(d, cnt)]
        acc: Comp = Const(32, 0)
        for w in words:
            acc = self.valu("v_bcnt_u32_b32", v1, w, acc)
        return [self._sgx_out(d, acc)]

    def _sgx_mbcnt(self, words: list[Comp], acc: Comp) -> Temp:
        t = self.valu("v_mbcnt_lo_u32_b32", v1, words[0], acc)
        if self.wave == 64:
            t = self.valu("v_mbcnt_hi_u32_b32", v1, words[1], t)
        return t

    def _sg_ballot_bit_count_exclusive(self, ins: Instr) -> list[Comp]:
        words = [self.comp(ins.srcs[0], k) for k in range(self.wave // 32)]
        return [self._sgx_mbcnt(words, Const(32, 0))]

    def _sg_ballot_bit_count_inclusive(self, ins: Instr) -> list[Comp]:
        words = [self.comp(ins.srcs[0], k) for k in range(self.wave // 32)]
        if all(self._sgx_uniform(w) for w in words):
            own = self.b.vop3("v_cndmask_b32", v1, Operand.c32(0), Operand.c32(1),
                              self._sgx_ballot_mask(ins.srcs[0])).temp
        else:
            lane = self._sgx_lane_id()
            sh = [self.valu("v_lshrrev_b32", v1, lane, w) for w in words]
            word = sh[0] if self.wave == 32 else self.b.vop3(
                "v_cndmask_b32", v1, sh[0], sh[1],
                self.valu("v_cmp_le_u32", self.lm, Const(32, 32), lane)).temp
            own = self.valu("v_and_b32", v1, Const(32, 1), word)
        return [self._sgx_mbcnt(words, own)]

    def _sg_ballot_find_lsb(self, ins: Instr) -> list[Comp]:
        return [self._sgx_find(ins, msb=False)]

    def _sg_ballot_find_msb(self, ins: Instr) -> list[Comp]:
        return [self._sgx_find(ins, msb=True)]

    def _sgx_find(self, ins: Instr, msb: bool) -> Comp:
        d = ins.dest
        assert d is not None
        words = [self.comp(ins.srcs[0], k) for k in range(self.wave // 32)]
        if all(self._sgx_uniform(w) for w in words):
            m = self._sgx_ballot_mask(ins.srcs[0])
            if msb:
                n = self.salu("s_clz_i32_u64" if self.wave == 64 else "s_clz_i32_u32", s1, m)
                r = self.salu("s_sub_u32", s1, Const(32, self.wave - 1), n)
            else:
                r = self.salu(self._sgx_lm_name("s_ctz_i32"), s1, m)
            return self._sgx_out(d, r)
        if msb:
            n = [self.valu("v_clz_i32_u32", v1, w) for w in words]
            r = [self.valu("v_sub_nc_u32", v1, Const(32, 31 + 32 * k), x)
                 for k, x in enumerate(n)]
            if self.wave == 64:
                hi_set = self.valu("v_cmp_ne_u32", self.lm, Const(32, 0), words[1])
                return self.b.vop3("v_cndmask_b32", v1, r[0], r[1], hi_set).temp
            return r[0]
        z = [self.valu("v_ctz_i32_b32", v1, w) for w in words]
        if self.wave == 64:
            hi = self.valu("v_or_b32", v1, Const(32, 32), z[1])
            return self.valu("v_min_u32", v1, z[0], hi)
        return z[0]

    # -- broadcasts and shuffles -------------------------------------------------------
    def _sg_read_first_invocation(self, ins: Instr) -> list[Comp]:
        d = ins.dest
        assert d is not None
        src = ins.srcs[0]
        out: list[Comp] = []
        for c in self.get(src):
            if self._sgx_uniform(c):
                if src.bit_size == 1:
                    out.append(self.lanemask(c) if d.divergent else c)
                else:
                    out.append(self._sgx_out(d, c))
                continue
            if src.bit_size == 1:
                r = self.b.pseudo("p_as_uniform", [s1], [self._sgx_bool_to_vgpr(c)]).temp
                out.append(self._sgx_vgpr_to_bool(d, r))
                continue
            r = self.b.pseudo("p_as_uniform", [s2 if src.bit_size == 64 else s1], [c]).temp
            out.append(self._sgx_out(d, r))
        return out

    def _sg_read_invocation(self, ins: Instr) -> list[Comp]:
        return self._sg_lanes(ins, "index", self.comp(ins.srcs[1], 0))

    def _sg_shuffle(self, ins: Instr) -> list[Comp]:
        return self._sg_lanes(ins, "index", self.comp(ins.srcs[1], 0))

    def _sg_shuffle_xor(self, ins: Instr) -> list[Comp]:
        return self._sg_lanes(ins, "xor", self.comp(ins.srcs[1], 0))

    def _sg_shuffle_up(self, ins: Instr) -> list[Comp]:
        return self._sg_lanes(ins, "up", self.comp(ins.srcs[1], 0))

    def _sg_shuffle_down(self, ins: Instr) -> list[Comp]:
        return self._sg_lanes(ins, "down", self.comp(ins.srcs[1], 0))

    def _sg_quad_broadcast(self, ins: Instr) -> list[Comp]:
        return self._sg_lanes(ins, "quad", self.comp(ins.srcs[1], 0))

    def _sg_lanes(self, ins: Instr, how: str, arg: Comp) -> list[Comp]:
        """Each lane reads srcs[0] of another lane (`how`: index xor up down quad)."""
        d = ins.dest
        assert d is not None
        src = ins.srcs[0]
        out: list[Comp] = []
        for c in self.get(src):
            if self._sgx_uniform(c):
                out.append((self.lanemask(c) if d.divergent else c) if src.bit_size == 1
                           else self._sgx_out(d, c))
                continue
            x = self._sgx_bool_to_vgpr(c) if src.bit_size == 1 else c
            parts = [self.vgpr(p) for p in self._sgx_dwords(x, src.bit_size if src.bit_size != 1
                                                        else 32)]
            moved = [self._sgx_move_lanes(p, how, arg) for p in parts]
            r = self._sgx_join_dwords(moved, src.bit_size if src.bit_size != 1 else 32)
            if src.bit_size == 1:
                out.append(self._sgx_vgpr_to_bool(d, r))
            elif d.divergent:
                out.append(self.vgpr(r, src.bit_size))
            else:
                out.append(self.sgpr(r, src.bit_size))
        return out

    def _sgx_move_lanes(self, x: Temp, how: str, arg: Comp) -> Temp:
        """One dword moved between lanes; an SGPR result when the source lane is uniform."""
        if how == "index" and self._sgx_uniform(arg):
            return self.b.vop3("v_readlane_b32", s1, x, self.operand(arg)).temp
        if isinstance(arg, Const):
            m = arg.value & (self.wave - 1)
            # one lane move only: a second one (v_permlane64 and a DPP/permlanex16 step)
            # would read the first one's result in lanes EXEC left unwritten
            if how == "xor" and not (m & 32 and m & 31):
                return self._sgx_xor_lanes(x, m)
            if how == "quad":
                k = arg.value & 3
                return self._sgx_dpp_mov(x, {"quad_perm": [k, k, k, k]})
        lane = self._sgx_lane_id()
        if how == "index":
            idx: Comp = arg
        elif how == "xor":
            idx = self.valu("v_xor_b32", v1, lane, arg)
        elif how == "up":
            idx = self.valu("v_sub_nc_u32", v1, lane, arg)
        elif how == "down":
            idx = self.valu("v_add_nc_u32", v1, lane, arg)
        else:  # quad with a uniform index
            base = self.valu("v_and_b32", v1, Const(32, ~3 & 0xFFFFFFFF), lane)
            idx = self.valu("v_add_nc_u32", v1, base, arg)
        return self._sgx_bpermute(x, idx, lane)

    def _sgx_dpp_mov(self, x: Temp, ctrl: dict[str, object]) -> Temp:
        return self.b.inst("v_mov_b32", [v1], [x], "VOP1", **ctrl, row_mask=0xF,
                           bank_mask=0xF).temp

    def _sgx_xor_lanes(self, x: Temp, mask: int) -> Temp:
        if mask & 32:
            x = self.b.inst("v_permlane64_b32", [v1], [x], "VOP1").temp
            mask &= 31
        if not mask:
            return x
        if mask < 4:
            return self._sgx_dpp_mov(x, {"quad_perm": [k ^ mask for k in range(4)]})
        if mask < 16:
            return self._sgx_dpp_mov(x, {"row_xmask": mask})
        sel = [k ^ (mask & 15) for k in range(16)]
        lo = sum(s << (4 * k) for k, s in enumerate(sel[:8]))
        hi = sum(s << (4 * k) for k, s in enumerate(sel[8:]))
        return self.b.vop3("v_permlanex16_b32", v1, x, self.sgpr(Const(32, lo)),
                           self.sgpr(Const(32, hi))).temp

    def _sgx_bpermute(self, x: Temp, idx: Comp, lane: Temp) -> Temp:
        addr = self.valu("v_lshlrev_b32", v1, Const(32, 2), self.vgpr(idx))
        if self.wave == 32:
            return self.b.inst("ds_bpermute_b32", [v1], [addr, x]).temp
        other = self.valu("v_xor_b32", v1, self.vgpr(idx), lane)
        half = self.valu("v_and_b32", v1, Const(32, 32), other)
        same = self.valu("v_cmp_eq_u32", self.lm, Const(32, 0), half)
        lv = v1.as_linear()
        r = self.b.pseudo("p_bpermute", [v1, s2, (s1, PhysReg.of(SCC))],
                          [addr, x, same, Operand(rc=lv, undef=True),
                           Operand(rc=lv, undef=True)])
        for o in r.instr.operands[:3]:
            o.is_late_kill = True
        return r.temp

    # -- reductions and scans -----------------------------------------------------------
    def _sg_reduce(self, ins: Instr) -> list[Comp]:
        d = ins.dest
        assert d is not None
        kind = ins.op
        op = str(ins.attrs["reduction_op"])
        cluster = int(ins.attrs.get("cluster_size") or 0) or self.wave
        cluster = min(cluster, self.wave)
        src = ins.srcs[0]
        out: list[Comp] = []
        for c in self.get(src):
            if src.bit_size == 1:
                out.append(self._sgx_reduce_bool(d, kind, op, cluster, c))
                continue
            r = self._sgx_reduce_uniform(kind, op, cluster, src.bit_size, c)
            if r is None:
                r = self._sgx_reduce_vgpr(ins, kind, op, cluster, src.bit_size, self.vgpr(
                    c, src.bit_size))
            out.append(self.vgpr(r, src.bit_size) if d.divergent and not isinstance(r, Const)
                       else r)
        return out

    def _sgx_reduce_uniform(self, kind: str, op: str, cluster: int, bits: int,
                            x: Comp) -> Comp | None:
        if cluster != self.wave or not self._sgx_uniform(x) or bits != 32:
            return None
        if kind != "reduce":
            return self._sgx_scan_uniform(kind, op, x)
        if op in ("imin", "umin", "imax", "umax", "fmin", "fmax", "iand", "ior"):
            return x
        if op in ("iadd", "ixor"):
            n = self.salu(self._sgx_lm_name("s_bcnt1_i32"), s1, self._sgx_exec())
            if op == "ixor":
                n = self.salu("s_and_b32", s1, n, Const(32, 1))
            return self.salu("s_mul_i32", s1, x, n)
        return None

    def _sgx_scan_uniform(self, kind: str, op: str, x: Comp) -> Comp | None:
        """A scan of a value the same in every lane (ACO's uniform scans): counts of the
        active lanes below (``v_mbcnt`` of EXEC) instead of DPP."""
        if op not in ("iadd", "ixor", "imin", "umin", "imax", "umax", "iand", "ior"):
            return None
        exec_lo = Operand.fixed(PhysReg.of(EXEC), s1)
        below = self.valu("v_mbcnt_lo_u32_b32", v1, exec_lo, Const(32, 0))
        if self.wave == 64:
            below = self.valu("v_mbcnt_hi_u32_b32", v1, Operand.fixed(PhysReg.of(EXEC + 1), s1),
                              below)
        n = below if kind == "exclusive_scan" else self.valu(
            "v_add_nc_u32", v1, Const(32, 1), below)
        if op == "iadd":
            return self.valu("v_mul_lo_u32", v1, n, x)
        if op == "ixor":
            odd = self.valu("v_and_b32", v1, Const(32, 1), n)
            return self.valu("v_mul_lo_u32", v1, odd, x)
        if kind == "inclusive_scan":
            return x
        ident = reduce_op_info(op + "32").identity
        first = self.valu("v_cmp_eq_u32", self.lm, Const(32, 0), below)
        return self.b.vop3("v_cndmask_b32", v1, self.operand(x) if isinstance(x, Const)
                           else Operand(self.vgpr(x)), Operand.c32(ident), first).temp

    def _sgx_reduce_vgpr(self, ins: Instr, kind: str, op: str, cluster: int, bits: int,
                     x: Temp) -> Temp:
        name = f"{op}{bits}"
        try:
            info = reduce_op_info(name)
        except KeyError:
            raise unsupported(ins, f"reduction op {name}") from None
        opcode = _SCAN_OPCODE[kind]
        n = bits // 32
        full = opcode == "p_reduce" and cluster == self.wave
        dst_rc = RegClass(RegType.SGPR if full else RegType.VGPR, 4 * n)
        defs: list = [dst_rc, self.lm]
        if needs_sitmp(opcode, cluster, self.wave):
            defs.append(RegClass(RegType.SGPR, 4 * n))
        defs.append((s1, PhysReg.of(SCC)))
        if needs_vcc(info):
            defs.append((self.lm, PhysReg.of(VCC)))
        lv = RegClass(RegType.VGPR, 4 * n, linear=True)
        return self.b.pseudo(opcode, defs, [x, Operand(rc=lv, undef=True),
                                            Operand(rc=lv, undef=True)],
                             op=name, cluster_size=cluster).temp

    def _sgx_reduce_bool(self, d: Value, kind: str, op: str, cluster: int, x: Comp) -> Comp:
        if kind == "reduce" and cluster == self.wave and op in ("iand", "ior", "ixor"):
            if op == "ixor":
                m, _ = self._sgx_and_exec(self.lanemask(x))
                n = self.salu(self._sgx_lm_name("s_bcnt1_i32"), s1, m)
                scc = self.salu("s_bitcmp1_b32", None, n, Const(32, 0))
                return self._sgx_bool_from_scc(d, scc)
            return self._sgx_vote(_FakeIns(d), x, any_=op == "ior")
        if op not in ("iand", "ior", "ixor", "imin", "imax", "umin", "umax"):
            raise unsupported(None, f"boolean reduction {op}")
        iop = {"imin": "iand", "umin": "iand", "imax": "ior", "umax": "ior"}.get(op, op)
        v = self._sgx_bool_to_vgpr(x)
        r = self._sgx_reduce_vgpr(_FakeIns(d), kind, iop, cluster, 32, v)
        return self._sgx_vgpr_to_bool(d, self.vgpr(r))

    # -- masks --------------------------------------------------------------------------
    def _sg_mask(self, kind: str) -> list[Comp]:
        lane = self._sgx_lane_id()
        base = {"eq": 1, "ge": -1, "gt": -2, "lt": -1, "le": -2}[kind]
        invert = kind in ("lt", "le")  # lt = ~ge, le = ~gt
        if self.wave == 32:
            m = self.valu("v_lshlrev_b32", v1, lane, Const(32, base & 0xFFFFFFFF))
            if invert:
                m = self.valu("v_not_b32", v1, m)
            return [m, Const(32, 0), Const(32, 0), Const(32, 0)]
        m64 = self.valu("v_lshlrev_b64", v2, lane, Const(64, base & 0xFFFFFFFFFFFFFFFF),
                        wide=(False, True))
        lo, hi = self.b.split_vector(m64, v1, v1).temps
        if invert:
            lo, hi = self.valu("v_not_b32", v1, lo), self.valu("v_not_b32", v1, hi)
        return [lo, hi, Const(32, 0), Const(32, 0)]


class _FakeIns:
    """The parts of an `Instr` the helpers read (for synthesized sub-operations)."""

    def __init__(self, dest: Value) -> None:
        self.dest = dest
        self.op = "reduce"
