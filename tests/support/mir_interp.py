"""An interpreter of MIR: runs a dispatch on NumPy buffers.

``run(shader, groups, buffers, push_constants=b"", subgroup_size=8) ->
{(set, binding): bytes}`` executes every workgroup in turn. The invocations of
one workgroup run in lock-step as NumPy lanes with an execution mask, the way
the structured control flow of MIR executes on a SIMD machine: both sides of a
divergent if, loops until every lane has left, phis choosing per lane by the
block the lane came from. A ``barrier`` is then trivially satisfied (all lanes
reach it together), subgroup operations see the active lanes of each group of
``subgroup_size`` consecutive invocations (LocalInvocationIndex order), and
atomics are applied lane by lane in index order.

Values are held as raw bits (shape ``(components, lanes)``) and every ALU
opcode is evaluated by ``mir_eval.eval_alu``, the same code the constant folder
uses. Memory accesses out of a buffer's bounds read 0 and are not written (like
robust buffer access); loops stop with ``InterpError`` after ``max_iterations``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from radcc.frontend.mir import (
    ArrayType,
    Block,
    CFNode,
    If,
    Instr,
    LocalVar,
    Loop,
    MirShader,
    StructType,
    Value,
    leaf_count,
    member_leaf_offset,
)
from radcc.frontend.mir_eval import FLT, SIG, UNS, eval_alu, raw_dtype
from radcc.frontend.mir_ops import ALU_OPS

Arr = np.ndarray


class InterpError(RuntimeError):
    pass


@dataclass
class _Frame:
    brk: Arr
    cont: Arr


_IDENTITY = {
    "iadd": lambda b: 0, "imul": lambda b: 1, "ior": lambda b: 0, "ixor": lambda b: 0,
    "iand": lambda b: (1 << b) - 1, "umax": lambda b: 0, "umin": lambda b: (1 << b) - 1,
    "imin": lambda b: (1 << (b - 1)) - 1, "imax": lambda b: 1 << (b - 1),
}
_F_IDENTITY = {"fadd": 0.0, "fmul": 1.0, "fmin": float("inf"), "fmax": float("-inf")}


def _to_bytes(x: Any) -> np.ndarray:
    if isinstance(x, int):
        return np.zeros(x, np.uint8)
    if isinstance(x, np.ndarray):
        return np.frombuffer(np.ascontiguousarray(x).tobytes(), np.uint8).copy()
    return np.frombuffer(bytes(x), np.uint8).copy()


def run(
    shader: MirShader,
    groups: tuple[int, int, int],
    buffers: Mapping[tuple[int, int], Any],
    push_constants: bytes = b"",
    subgroup_size: int = 8,
    max_iterations: int = 100000,
) -> dict[tuple[int, int], bytes]:
    """Dispatch ``groups`` workgroups; returns the bytes of every buffer afterwards."""
    mem = {k: _to_bytes(v) for k, v in buffers.items()}
    for key in shader.bindings:
        if key not in mem:
            raise InterpError(f"the shader uses binding {key}; no buffer given")
    push = np.frombuffer(bytes(push_constants).ljust(max(shader.push_constant_size,
                                                        len(push_constants)), b"\0"), np.uint8)
    for gz in range(groups[2]):
        for gy in range(groups[1]):
            for gx in range(groups[0]):
                _Workgroup(shader, (gx, gy, gz), groups, mem, push, subgroup_size,
                           max_iterations).run()
    return {k: v.tobytes() for k, v in mem.items()}


class _Workgroup:
    def __init__(self, shader: MirShader, wg: tuple[int, int, int], groups: tuple[int, int, int],
                 mem: dict[tuple[int, int], np.ndarray], push: np.ndarray, sg: int,
                 max_iter: int) -> None:
        self.s = shader
        self.wg = wg
        self.groups = groups
        self.mem = mem
        self.push = push
        self.sg = sg
        self.max_iter = max_iter
        x, y, z = shader.workgroup_size
        self.n = n = x * y * z
        idx = np.arange(n, dtype=np.uint32)
        self.local_id = np.stack([idx % x, (idx // x) % y, idx // (x * y)]).astype(np.uint32)
        self.local_index = idx
        self.inv = (idx % sg).astype(np.uint32)
        self.sgid = (idx // sg).astype(np.uint32)
        self.shared = np.zeros(max(shader.shared_size, 1), np.uint8)
        self.scratch = np.zeros((n, max(shader.scratch_size, 1)), np.uint8)
        self.vals: dict[Value, Arr] = {}
        self.locals: dict[LocalVar, Arr] = {}
        self.last = np.full(n, -1, np.int64)
        self.frames: list[_Frame] = []

    def run(self) -> None:
        self.exec_list(self.s.function.body, np.ones(self.n, bool))

    # ----- values -----
    def get(self, v: Value) -> Arr:
        a = self.vals.get(v)
        if a is None:
            a = np.zeros((v.num_components, self.n), raw_dtype(v.bit_size))
            self.vals[v] = a
        return a

    def put(self, v: Value, new: Arr, mask: Arr) -> None:
        new = np.asarray(new)
        if new.ndim == 1:
            new = new.reshape(v.num_components, -1)
        if new.shape[1] == 1 and self.n != 1:
            new = np.broadcast_to(new, (new.shape[0], self.n))
        a = self.get(v)
        a[:, mask] = new.astype(a.dtype, copy=False)[:, mask]

    # ----- control flow -----
    def exec_list(self, cf: list[CFNode], mask: Arr) -> Arr:
        for node in cf:
            if not mask.any():
                return mask
            if isinstance(node, Block):
                mask = self.exec_block(node, mask)
            elif isinstance(node, If):
                c = self.get(node.cond)[0].astype(bool)
                m1 = self.exec_list(node.then_list, mask & c)
                m2 = self.exec_list(node.else_list, mask & ~c)
                mask = m1 | m2
            else:
                mask = self.exec_loop(node, mask)
        return mask

    def exec_loop(self, loop: Loop, mask: Arr) -> Arr:
        f = _Frame(np.zeros(self.n, bool), np.zeros(self.n, bool))
        self.frames.append(f)
        active = mask
        it = 0
        while active.any():
            it += 1
            if it > self.max_iter:
                raise InterpError(f"loop ran more than {self.max_iter} iterations")
            f.cont = np.zeros(self.n, bool)
            fall = self.exec_list(loop.body, active)
            nxt = fall | f.cont
            if loop.cont:
                nxt = self.exec_list(loop.cont, nxt)
            active = nxt
        self.frames.pop()
        return f.brk

    def exec_block(self, blk: Block, mask: Arr) -> Arr:
        phis = blk.phis
        if phis:
            results = []
            for phi in phis:
                assert phi.dest is not None
                out = self.get(phi.dest).copy()
                for pred, src in zip(phi.preds, phi.srcs, strict=True):
                    sel = mask & (self.last == pred.index)
                    if sel.any():
                        out[:, sel] = self.get(src)[:, sel]
                results.append((phi.dest, out))
            for d, out in results:
                self.put(d, out, mask)
        self.last[mask] = blk.index
        for ins in blk.instrs[len(phis):]:
            if ins.op == "break":
                self.frames[-1].brk |= mask
                return np.zeros(self.n, bool)
            if ins.op == "continue":
                self.frames[-1].cont |= mask
                return np.zeros(self.n, bool)
            self.exec_instr(ins, mask)
        return mask

    # ----- instructions -----
    def exec_instr(self, ins: Instr, mask: Arr) -> None:
        op = ins.op
        d = ins.dest
        if op in ALU_OPS:
            assert d is not None
            srcs = [self.get(s) for s in ins.srcs]
            r = eval_alu(op, d.bit_size, d.num_components, srcs, [s.bit_size for s in ins.srcs],
                         ins.attrs)
            self.put(d, r, mask)
            return
        if op == "load_const":
            assert d is not None
            c = np.array(ins.attrs["value"], dtype=np.uint64).astype(raw_dtype(d.bit_size))
            self.put(d, c.reshape(-1, 1), mask)
            return
        if op == "undef":
            return
        h = getattr(self, "i_" + op, None)
        if h is None:
            if op.startswith("load_subgroup_") and op.endswith("_mask"):
                self.put_mask(ins, mask)
                return
            raise InterpError(f"cannot interpret {op}")
        h(ins, mask)

    # system values
    def _sv(self, ins: Instr, mask: Arr, value: Any) -> None:
        assert ins.dest is not None
        v = np.asarray(value, dtype=np.uint32)
        if v.ndim == 1 and v.shape[0] != self.n:
            v = v.reshape(-1, 1)
        elif v.ndim == 1:
            v = v.reshape(1, -1)
        elif v.ndim == 0:
            v = v.reshape(1, 1)
        self.put(ins.dest, v, mask)

    def i_load_local_invocation_id(self, ins: Instr, mask: Arr) -> None:
        self._sv(ins, mask, self.local_id)

    def i_load_local_invocation_index(self, ins: Instr, mask: Arr) -> None:
        self._sv(ins, mask, self.local_index)

    def i_load_workgroup_id(self, ins: Instr, mask: Arr) -> None:
        self._sv(ins, mask, list(self.wg))

    def i_load_num_workgroups(self, ins: Instr, mask: Arr) -> None:
        self._sv(ins, mask, list(self.groups))

    def i_load_workgroup_size(self, ins: Instr, mask: Arr) -> None:
        self._sv(ins, mask, list(self.s.workgroup_size))

    def i_load_global_invocation_id(self, ins: Instr, mask: Arr) -> None:
        size = np.array(self.s.workgroup_size, np.uint32).reshape(3, 1)
        wg = np.array(self.wg, np.uint32).reshape(3, 1)
        self._sv(ins, mask, wg * size + self.local_id)

    def i_load_subgroup_size(self, ins: Instr, mask: Arr) -> None:
        self._sv(ins, mask, self.sg)

    def i_load_subgroup_invocation(self, ins: Instr, mask: Arr) -> None:
        self._sv(ins, mask, self.inv)

    def i_load_subgroup_id(self, ins: Instr, mask: Arr) -> None:
        self._sv(ins, mask, self.sgid)

    def i_load_num_subgroups(self, ins: Instr, mask: Arr) -> None:
        self._sv(ins, mask, (self.n + self.sg - 1) // self.sg)

    def put_mask(self, ins: Instr, mask: Arr) -> None:
        kind = ins.op[len("load_subgroup_"):-len("_mask")]
        j = np.arange(128).reshape(1, -1)
        i = self.inv.astype(np.int64).reshape(-1, 1)
        bits = {"eq": j == i, "ge": j >= i, "gt": j > i, "le": j <= i, "lt": j < i}[kind]
        bits &= j < self.sg
        self._sv(ins, mask, _bits_to_uvec4(bits))

    # memory
    def _space(self, ins: Instr) -> np.ndarray:
        op = ins.op
        if "shared" in op:
            return self.shared
        if op == "load_push_constant":
            return self.push
        if op == "load_constant":
            return np.frombuffer(self.s.constant_data, np.uint8)
        return self.mem[ins.attrs["binding"]]

    def _load(self, ins: Instr, mask: Arr, buf: np.ndarray, off: Arr) -> None:
        d = ins.dest
        assert d is not None
        off = off.astype(np.int64) + int(ins.attrs.get("offset", 0))
        nb = d.bit_size // 8
        out = np.zeros((d.num_components, self.n), UNS[d.bit_size])
        for c in range(d.num_components):
            addr = off.astype(np.int64) + c * nb
            ok = mask & (addr >= 0) & (addr + nb <= len(buf))
            if ok.any():
                idx = addr[ok].reshape(-1, 1) + np.arange(nb)
                out[c, ok] = buf[idx].copy().view(UNS[d.bit_size]).reshape(-1)
        self.put(d, out, mask)

    def _store(self, mask: Arr, buf: np.ndarray, val: Value, off: Arr) -> None:
        nb = val.bit_size // 8
        data = self.get(val)
        for c in range(val.num_components):
            addr = off.astype(np.int64) + c * nb
            ok = mask & (addr >= 0) & (addr + nb <= len(buf))
            for lane in np.nonzero(ok)[0]:
                a = int(addr[lane])
                buf[a:a + nb] = np.frombuffer(data[c, lane].tobytes(), np.uint8)

    def i_load_ssbo(self, ins: Instr, mask: Arr) -> None:
        self._load(ins, mask, self._space(ins), self.get(ins.srcs[0])[0])

    i_load_ubo = i_load_ssbo
    i_load_push_constant = i_load_ssbo
    i_load_shared = i_load_ssbo
    i_load_constant = i_load_ssbo

    def i_store_ssbo(self, ins: Instr, mask: Arr) -> None:
        off = self.get(ins.srcs[1])[0].astype(np.int64) + int(ins.attrs.get("offset", 0))
        self._store(mask, self._space(ins), ins.srcs[0], off)

    def _scratch_lanes(self, ins: Instr, mask: Arr, store: bool) -> None:
        """Private memory: lane l's accesses go to row l (out of bounds: read 0, no write)."""
        addr = self.get(ins.srcs[-1])[0].astype(np.int64) + int(ins.attrs.get("offset", 0))
        v = ins.srcs[0] if store else ins.dest
        assert v is not None
        nb = v.bit_size // 8
        size = self.scratch.shape[1]
        out = np.zeros((v.num_components, self.n), UNS[v.bit_size])
        data = self.get(v) if store else None
        for lane in np.nonzero(mask)[0]:
            row = self.scratch[lane]
            for c in range(v.num_components):
                a = int(addr[lane]) + c * nb
                if a < 0 or a + nb > size:
                    continue
                if data is not None:
                    row[a:a + nb] = np.frombuffer(data[c, lane].tobytes(), np.uint8)
                else:
                    out[c, lane] = row[a:a + nb].copy().view(UNS[v.bit_size])[0]
        if not store:
            self.put(v, out, mask)

    def i_load_scratch(self, ins: Instr, mask: Arr) -> None:
        self._scratch_lanes(ins, mask, False)

    def i_store_scratch(self, ins: Instr, mask: Arr) -> None:
        self._scratch_lanes(ins, mask, True)

    i_store_shared = i_store_ssbo

    def i_get_ssbo_size(self, ins: Instr, mask: Arr) -> None:
        self._sv(ins, mask, len(self.mem[ins.attrs["binding"]]))

    def _atomic(self, ins: Instr, mask: Arr) -> None:
        d = ins.dest
        assert d is not None
        buf = self._space(ins)
        bits = d.bit_size
        nb = bits // 8
        off = self.get(ins.srcs[0])[0].astype(np.int64) + int(ins.attrs.get("offset", 0))
        aop = ins.attrs["atomic_op"]
        data = [self.get(s) for s in ins.srcs[1:]]
        out = np.zeros((1, self.n), UNS[bits])
        for lane in np.nonzero(mask)[0]:
            a = int(off[lane])
            if a < 0 or a + nb > len(buf):
                continue
            old = buf[a:a + nb].copy().view(UNS[bits]).reshape(1, 1)
            out[0, lane] = old[0, 0]
            args = [x[:, lane:lane + 1] for x in data]
            if aop == "cmpxchg":
                new = args[1] if old[0, 0] == args[0][0, 0] else old
            elif aop == "xchg":
                new = args[0]
            else:
                new = eval_alu(aop, bits, 1, [old, args[0]], [bits, bits], {})
            buf[a:a + nb] = np.frombuffer(np.asarray(new, UNS[bits]).tobytes(), np.uint8)
        self.put(d, out, mask)

    i_ssbo_atomic = _atomic
    i_shared_atomic = _atomic
    i_ssbo_atomic_swap = _atomic
    i_shared_atomic_swap = _atomic

    def i_barrier(self, ins: Instr, mask: Arr) -> None:
        pass

    # local variables
    def _leaf(self, v: Value) -> Arr:
        return self.get(v)[0].astype(np.int64)

    def i_deref_var(self, ins: Instr, mask: Arr) -> None:
        assert ins.dest is not None
        self.put(ins.dest, np.zeros((1, 1), np.uint32), mask)

    def i_deref_struct(self, ins: Instr, mask: Arr) -> None:
        assert ins.dest is not None
        parent = ins.srcs[0].parent
        assert parent is not None
        st = parent.attrs["type"]
        assert isinstance(st, StructType)
        base = self._leaf(ins.srcs[0])
        self.put(ins.dest, (base + member_leaf_offset(st, ins.attrs["index"])).reshape(1, -1),
                 mask)

    def i_deref_array(self, ins: Instr, mask: Arr) -> None:
        assert ins.dest is not None
        parent = ins.srcs[0].parent
        assert parent is not None
        at = parent.attrs["type"]
        assert isinstance(at, ArrayType)
        idx = self.get(ins.srcs[1])[0]
        idx = idx.view(SIG[ins.srcs[1].bit_size]).astype(np.int64)
        idx = np.clip(idx, 0, at.length - 1)
        base = self._leaf(ins.srcs[0])
        self.put(ins.dest, (base + idx * leaf_count(at.element)).reshape(1, -1), mask)

    def _storage(self, var: LocalVar) -> Arr:
        st = self.locals.get(var)
        if st is None:
            st = np.zeros((leaf_count(var.type), 4, self.n), np.uint64)
            self.locals[var] = st
        return st

    def i_load_deref(self, ins: Instr, mask: Arr) -> None:
        d = ins.dest
        assert d is not None
        p = ins.srcs[0].parent
        assert p is not None
        st = self._storage(p.attrs["var"])
        leaf = self._leaf(ins.srcs[0])
        lanes = np.arange(self.n)
        out = st[leaf, :d.num_components, lanes].T.astype(raw_dtype(d.bit_size))
        self.put(d, out, mask)

    def i_store_deref(self, ins: Instr, mask: Arr) -> None:
        p = ins.srcs[0].parent
        assert p is not None
        st = self._storage(p.attrs["var"])
        leaf = self._leaf(ins.srcs[0])
        v = ins.srcs[1]
        data = self.get(v).astype(np.uint64)
        lanes = np.nonzero(mask)[0]
        for c in range(v.num_components):
            st[leaf[lanes], c, lanes] = data[c, lanes]

    # ----- subgroups -----
    def _groups(self, mask: Arr) -> list[np.ndarray]:
        """Active lanes of each subgroup (lists of lane indices)."""
        out = []
        for g in range(0, self.n, self.sg):
            lanes = np.arange(g, min(g + self.sg, self.n))
            out.append(lanes[mask[lanes]])
        return out

    def _bcast(self, ins: Instr, mask: Arr, fn: Any) -> None:
        """Per subgroup: fn(active lanes) -> array (comps,) given to every active lane."""
        d = ins.dest
        assert d is not None
        out = np.zeros((d.num_components, self.n), raw_dtype(d.bit_size))
        for lanes in self._groups(mask):
            if len(lanes):
                out[:, lanes] = np.asarray(fn(lanes)).reshape(-1, 1)
        self.put(d, out, mask)

    def i_elect(self, ins: Instr, mask: Arr) -> None:
        assert ins.dest is not None
        out = np.zeros((1, self.n), bool)
        for lanes in self._groups(mask):
            if len(lanes):
                out[0, lanes[0]] = True
        self.put(ins.dest, out, mask)

    def i_vote_all(self, ins: Instr, mask: Arr) -> None:
        v = self.get(ins.srcs[0])[0]
        self._bcast(ins, mask, lambda ls: [bool(v[ls].all())])

    def i_vote_any(self, ins: Instr, mask: Arr) -> None:
        v = self.get(ins.srcs[0])[0]
        self._bcast(ins, mask, lambda ls: [bool(v[ls].any())])

    def i_vote_ieq(self, ins: Instr, mask: Arr) -> None:
        v = self.get(ins.srcs[0])
        self._bcast(ins, mask, lambda ls: [bool((v[:, ls] == v[:, ls[:1]]).all())])

    def i_vote_feq(self, ins: Instr, mask: Arr) -> None:
        s = ins.srcs[0]
        v = self.get(s).view(FLT[s.bit_size])
        self._bcast(ins, mask, lambda ls: [bool((v[:, ls] == v[:, ls[:1]]).all())])

    def _ballot_bits(self, pred: Arr, lanes: np.ndarray) -> int:
        m = 0
        for lane in lanes:
            if pred[lane]:
                m |= 1 << int(self.inv[lane])
        return m

    def i_ballot(self, ins: Instr, mask: Arr) -> None:
        p = self.get(ins.srcs[0])[0].astype(bool)
        self._bcast(ins, mask, lambda ls: _int_to_uvec4(self._ballot_bits(p, ls)))

    def _ballot_value(self, v: Value) -> list[int]:
        a = self.get(v).astype(np.uint64)
        return [sum(int(a[k, lane]) << (32 * k) for k in range(a.shape[0]))
                for lane in range(self.n)]

    def _per_lane(self, ins: Instr, mask: Arr, fn: Any) -> None:
        d = ins.dest
        assert d is not None
        out = np.zeros((d.num_components, self.n), raw_dtype(d.bit_size))
        for lane in np.nonzero(mask)[0]:
            out[:, lane] = fn(int(lane))
        self.put(d, out, mask)

    def i_inverse_ballot(self, ins: Instr, mask: Arr) -> None:
        b = self._ballot_value(ins.srcs[0])
        self._per_lane(ins, mask, lambda ln: [(b[ln] >> int(self.inv[ln])) & 1])

    def i_ballot_bitfield_extract(self, ins: Instr, mask: Arr) -> None:
        b = self._ballot_value(ins.srcs[0])
        idx = self.get(ins.srcs[1])[0]
        self._per_lane(ins, mask, lambda ln: [(b[ln] >> int(idx[ln])) & 1])

    def _sgmask(self) -> int:
        return (1 << self.sg) - 1

    def i_ballot_bit_count_reduce(self, ins: Instr, mask: Arr) -> None:
        b = self._ballot_value(ins.srcs[0])
        self._per_lane(ins, mask, lambda ln: [bin(b[ln] & self._sgmask()).count("1")])

    def i_ballot_bit_count_inclusive(self, ins: Instr, mask: Arr) -> None:
        b = self._ballot_value(ins.srcs[0])
        self._per_lane(ins, mask, lambda ln: [
            bin(b[ln] & ((2 << int(self.inv[ln])) - 1)).count("1")])

    def i_ballot_bit_count_exclusive(self, ins: Instr, mask: Arr) -> None:
        b = self._ballot_value(ins.srcs[0])
        self._per_lane(ins, mask, lambda ln: [
            bin(b[ln] & ((1 << int(self.inv[ln])) - 1)).count("1")])

    def i_ballot_find_lsb(self, ins: Instr, mask: Arr) -> None:
        b = self._ballot_value(ins.srcs[0])
        self._per_lane(ins, mask, lambda ln: [
            ((b[ln] & -b[ln]).bit_length() - 1) & 0xFFFFFFFF])

    def i_ballot_find_msb(self, ins: Instr, mask: Arr) -> None:
        b = self._ballot_value(ins.srcs[0])
        self._per_lane(ins, mask, lambda ln: [(b[ln].bit_length() - 1) & 0xFFFFFFFF])

    def _from_lane(self, ins: Instr, mask: Arr, src_lane: Any) -> None:
        """Each active lane reads srcs[0] of lane src_lane(lane) (its own when out of range)."""
        v = self.get(ins.srcs[0])
        d = ins.dest
        assert d is not None
        out = v.copy()
        for lane in np.nonzero(mask)[0]:
            base = int(lane) - int(self.inv[lane])
            k = src_lane(int(lane))
            if 0 <= k < self.sg and base + k < self.n:
                out[:, lane] = v[:, base + k]
        self.put(d, out, mask)

    def i_read_invocation(self, ins: Instr, mask: Arr) -> None:
        idx = self.get(ins.srcs[1])[0]
        self._from_lane(ins, mask, lambda ln: int(idx[ln]))

    i_shuffle = i_read_invocation

    def i_read_first_invocation(self, ins: Instr, mask: Arr) -> None:
        v = self.get(ins.srcs[0])
        self._bcast(ins, mask, lambda ls: v[:, ls[0]])

    def i_shuffle_xor(self, ins: Instr, mask: Arr) -> None:
        m = self.get(ins.srcs[1])[0]
        self._from_lane(ins, mask, lambda ln: int(self.inv[ln]) ^ int(m[ln]))

    def i_shuffle_up(self, ins: Instr, mask: Arr) -> None:
        m = self.get(ins.srcs[1])[0]
        self._from_lane(ins, mask, lambda ln: int(self.inv[ln]) - int(m[ln]))

    def i_shuffle_down(self, ins: Instr, mask: Arr) -> None:
        m = self.get(ins.srcs[1])[0]
        self._from_lane(ins, mask, lambda ln: int(self.inv[ln]) + int(m[ln]))

    def i_quad_broadcast(self, ins: Instr, mask: Arr) -> None:
        m = self.get(ins.srcs[1])[0]
        self._from_lane(ins, mask, lambda ln: (int(self.inv[ln]) & ~3) + int(m[ln]))

    def i_quad_swap_horizontal(self, ins: Instr, mask: Arr) -> None:
        self._from_lane(ins, mask, lambda ln: int(self.inv[ln]) ^ 1)

    def i_quad_swap_vertical(self, ins: Instr, mask: Arr) -> None:
        self._from_lane(ins, mask, lambda ln: int(self.inv[ln]) ^ 2)

    def i_quad_swap_diagonal(self, ins: Instr, mask: Arr) -> None:
        self._from_lane(ins, mask, lambda ln: int(self.inv[ln]) ^ 3)

    def _identity(self, op: str, v: Value) -> Arr:
        if op in _F_IDENTITY:
            x = np.full((v.num_components, 1), _F_IDENTITY[op], FLT[v.bit_size])
            return x.view(UNS[v.bit_size])
        if v.bit_size == 1:
            return np.full((v.num_components, 1), op == "iand", bool)
        return np.full((v.num_components, 1), _IDENTITY[op](v.bit_size),
                       np.uint64).astype(UNS[v.bit_size])

    def _scan(self, ins: Instr, mask: Arr, kind: str) -> None:
        v = ins.srcs[0]
        d = ins.dest
        assert d is not None
        op = ins.attrs["reduction_op"]
        cluster = ins.attrs.get("cluster_size", 0) or self.sg
        data = self.get(v)
        out = np.zeros((d.num_components, self.n), raw_dtype(d.bit_size))
        bits = [v.bit_size, v.bit_size]
        for lanes in self._groups(mask):
            for c0 in range(0, self.sg, cluster):
                cl = [ln for ln in lanes if c0 <= int(self.inv[ln]) < c0 + cluster]
                acc = self._identity(op, v)
                for ln in cl:
                    x = data[:, ln:ln + 1]
                    if kind == "exclusive":
                        out[:, ln] = acc[:, 0]
                    acc = eval_alu(op, v.bit_size, v.num_components, [acc, x], bits, {})
                    if kind == "inclusive":
                        out[:, ln] = acc[:, 0]
                if kind == "reduce":
                    for ln in cl:
                        out[:, ln] = acc[:, 0]
        self.put(d, out, mask)

    def i_reduce(self, ins: Instr, mask: Arr) -> None:
        self._scan(ins, mask, "reduce")

    def i_inclusive_scan(self, ins: Instr, mask: Arr) -> None:
        self._scan(ins, mask, "inclusive")

    def i_exclusive_scan(self, ins: Instr, mask: Arr) -> None:
        self._scan(ins, mask, "exclusive")


def _int_to_uvec4(m: int) -> list[int]:
    return [(m >> (32 * k)) & 0xFFFFFFFF for k in range(4)]


def _bits_to_uvec4(bits: Arr) -> Arr:
    """(lanes, 128) booleans -> (4, lanes) uint32."""
    out = np.zeros((4, bits.shape[0]), np.uint64)
    for j in range(128):
        out[j // 32] |= bits[:, j].astype(np.uint64) << np.uint64(j % 32)
    return out.astype(np.uint32)
