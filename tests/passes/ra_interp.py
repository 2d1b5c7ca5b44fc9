"""A small interpreter of the pseudo/ALU subset of the machine IR, for tests.

One lane, uniform control flow (logical CFG == linear CFG). Two modes:

- ``regs=False``: values live in temps (before register allocation); fixed
  registers are ignored;
- ``regs=True``: values live in a register file indexed by register number
  (after allocation): operands read ``o.phys``, definitions write ``d.phys``,
  phis are executed on the edge (all reads, then all writes), parallel
  copies likewise.

`run(program, inputs, regs)` returns the observations: the operand values
of every ``p_unit_test`` in execution order. Semantics are chosen by hand
(u32 wrap-around arithmetic, scc = carry / comparison / non-zero result),
the same in both modes, so a wrong register almost surely changes a value.
"""

from __future__ import annotations

from radcc.ir.program import Instruction, Operand, Program

M = 0xFFFFFFFF


class InterpError(Exception):
    pass


def _alu(op: str, a: list[int], instr: Instruction) -> tuple[list[int], int | None]:
    """(result dwords, scc or None) of a hardware op on its operand values."""
    x = [v[0] if isinstance(v, tuple) else v for v in a]
    if op in ("s_mov_b32", "v_mov_b32"):
        return [x[0]], None
    if op in ("v_add_nc_u32", "v_add_u32"):
        return [(x[0] + x[1]) & M], None
    if op in ("v_sub_nc_u32",):
        return [(x[0] - x[1]) & M], None
    if op in ("v_xor_b32",):
        return [x[0] ^ x[1]], None
    if op == "v_mul_lo_u32":
        return [(x[0] * x[1]) & M], None
    if op == "s_add_u32":
        s = x[0] + x[1]
        return [s & M], int(s > M)
    if op == "s_sub_u32":
        return [(x[0] - x[1]) & M], int(x[1] > x[0])
    if op == "s_xor_b32":
        r = x[0] ^ x[1]
        return [r], int(r != 0)
    if op == "s_mul_i32":
        return [(x[0] * x[1]) & M], None
    if op == "s_cmp_lt_u32":
        return [], int(x[0] < x[1])
    if op == "s_cselect_b32":
        return [x[0] if x[2] else x[1]], None
    if op == "s_addk_i32":
        k = int(instr.fields.get("simm16", 0)) & 0xFFFF  # type: ignore[arg-type]
        k = k - 0x10000 if k & 0x8000 else k
        r = x[0] + k
        return [r & M], int(((x[0] ^ r) & (k ^ r) & 0x80000000) != 0 and False)
    if op == "v_writelane_b32":
        return [x[0] if x[1] == 0 else x[2]], None
    raise InterpError(f"interpreter: unsupported opcode {op}")


class _Machine:
    def __init__(self, program: Program, regs: bool) -> None:
        self.p = program
        self.regs_mode = regs
        self.env: dict[int, tuple[int, ...]] = {}
        self.rf: dict[int, int] = {}
        self.obs: list[tuple[int, ...]] = []

    def read(self, o: Operand) -> tuple[int, ...]:
        if o.const is not None:
            n = (o.const_bytes + 3) // 4
            return tuple((o.const >> (32 * i)) & M for i in range(n))
        if o.is_undef:
            return (0,) * o.size
        if self.regs_mode:
            if o.phys is None:
                raise InterpError(f"operand {o!r} has no register")
            return tuple(self.rf.get(o.phys.reg + i, 0xDEAD0000 + o.phys.reg + i)
                         for i in range(o.size))
        if o.temp is None:
            return (0,) * o.size
        if o.temp.id not in self.env:
            raise InterpError(f"%{o.temp.id} read before it is written")
        return self.env[o.temp.id]

    def write(self, d, value: tuple[int, ...]) -> None:  # noqa: ANN001
        if self.regs_mode:
            if d.phys is None:
                raise InterpError(f"definition {d!r} has no register")
            for i, v in enumerate(value):
                self.rf[d.phys.reg + i] = v
        elif d.temp is not None:
            self.env[d.temp.id] = tuple(value)

    def parallel(self, defs, vals) -> None:  # noqa: ANN001
        for d, v in zip(defs, vals, strict=True):
            self.write(d, v)

    def edge(self, frm: int, to: int) -> None:
        b = self.p.blocks[to]
        defs, vals = [], []
        for phi in b.instructions:
            if not phi.is_phi:
                break
            preds = b.logical_preds if phi.opcode == "p_phi" else b.linear_preds
            k = preds.index(frm)
            defs.append(phi.definitions[0])
            vals.append(self.read(phi.operands[k]))
        self.parallel(defs, vals)

    def run(self, inputs: list[tuple[int, ...]], max_steps: int = 200_000) -> list:
        bi = 0
        steps = 0
        while True:
            b = self.p.blocks[bi]
            nxt: int | None = None
            done = False
            for instr in b.instructions:
                steps += 1
                if steps > max_steps:
                    raise InterpError("step limit")
                op = instr.opcode
                if instr.is_phi or op in ("p_logical_start", "p_logical_end"):
                    continue
                if op == "p_startpgm":
                    for d, v in zip(instr.definitions, inputs, strict=True):
                        self.write(d, v)
                elif op == "p_parallelcopy":
                    self.parallel(instr.definitions, [self.read(o) for o in instr.operands])
                elif op == "p_create_vector":
                    v: list[int] = []
                    for o in instr.operands:
                        v.extend(self.read(o))
                    self.write(instr.definitions[0], tuple(v))
                elif op == "p_split_vector":
                    v = list(self.read(instr.operands[0]))
                    vals = []
                    for d in instr.definitions:
                        vals.append(tuple(v[:d.size]))
                        v = v[d.size:]
                    self.parallel(instr.definitions, vals)
                elif op == "p_extract_vector":
                    v = list(self.read(instr.operands[0]))
                    d = instr.definitions[0]
                    idx = instr.operands[1].const or 0
                    self.write(d, tuple(v[idx * d.size:(idx + 1) * d.size]))
                elif op == "p_unit_test":
                    self.obs.append(tuple(x for o in instr.operands for x in self.read(o)))
                    for d in instr.definitions:
                        self.write(d, (len(self.obs),) * d.size)
                elif op == "p_branch":
                    nxt = instr.fields["targets"][0]  # type: ignore[index]
                elif op in ("p_cbranch_z", "p_cbranch_nz"):
                    c = self.read(instr.operands[0])[0]
                    t = instr.fields["targets"]
                    taken = (c == 0) == (op == "p_cbranch_z")
                    if taken:
                        nxt = t[0]  # type: ignore[index]
                    elif len(t) > 1:  # type: ignore[arg-type]
                        nxt = t[1]  # type: ignore[index]
                    else:
                        nxt = [s for s in b.linear_succs if s != t[0]][0]  # type: ignore[index]
                elif op == "s_endpgm":
                    done = True
                else:
                    vals_in = [self.read(o) for o in instr.operands]
                    res, scc = _alu(op, vals_in, instr)  # type: ignore[arg-type]
                    outs = []
                    for d in instr.definitions:
                        if d.phys is not None and d.phys.reg == 253 or (
                                d.rc is not None and d.rc.size == 1 and not res):
                            outs.append((scc if scc is not None else 0,))
                        else:
                            outs.append(tuple(res))
                    self.parallel(instr.definitions, outs)
            if done:
                return self.obs
            if nxt is None:
                nxt = bi + 1
                if nxt >= len(self.p.blocks):
                    return self.obs
            self.edge(bi, nxt)
            bi = nxt


def run(program: Program, inputs: list[tuple[int, ...]], regs: bool) -> list:
    return _Machine(program, regs).run(inputs)
