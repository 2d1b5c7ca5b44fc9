"""divergence_analysis(shader): uniform vs divergent for every SSA value.

A value is *uniform* when it is guaranteed to be the same for every invocation
of the subgroup (wave) that computes it, *divergent* otherwise (the seed
README's first step of instruction selection; after NIR's
nir_divergence_analysis). Sets ``value.divergent``; returns the set of
divergent values. Iterates to a fixed point (loops feed values back).

Sources of divergence:

* system values that differ per invocation: local/global invocation id and
  index, subgroup invocation id and the subgroup masks. Workgroup id, number
  of workgroups, workgroup size, subgroup size/id and number of subgroups are
  uniform;
* atomics (each invocation gets its own old value), ``elect``, scans,
  clustered reductions, inclusive/exclusive ballot bit counts and
  ``inverse_ballot``; ``load_deref`` of a variable not yet promoted;
* a storage-buffer load is uniform only when its address is uniform and the
  buffer is read-only; uniform-buffer, push-constant and shared-memory loads
  are uniform when their address is; votes, ballots, whole-subgroup reductions,
  broadcasts (with a uniform index) are uniform; shuffles and quad operations
  are as divergent as the value they move;
* ALU results are divergent when a source is.

Divergence through control flow:

* an ``If`` is divergent when its condition is; a ``Loop`` is divergent when a
  ``break``/``continue`` of it sits inside a divergent if (between the loop and
  the jump): then lanes leave or re-enter it at different iterations;
* phis after a divergent if, at the head of a divergent loop (loop-carried),
  at the start of its continue construct, and after a divergent loop are
  divergent;
* a value defined inside a divergent if or loop and used outside it is
  divergent (lanes took different paths or iteration counts to reach the use).
"""

from __future__ import annotations

from .mir import Block, CFNode, If, Instr, Loop, MirShader, Value
from .mir_ops import ALU_OPS

DIVERGENT_SYSTEM_VALUES = frozenset({
    "load_local_invocation_id", "load_local_invocation_index", "load_global_invocation_id",
    "load_subgroup_invocation", "load_subgroup_eq_mask", "load_subgroup_ge_mask",
    "load_subgroup_gt_mask", "load_subgroup_le_mask", "load_subgroup_lt_mask",
    "load_vertex_index", "load_instance_index", "load_vertex_id_zero_base",
    "load_instance_id", "load_packed_passthrough_primitive", "load_input",
    "is_subgroup_invocation_lt",
})
UNIFORM_SYSTEM_VALUES = frozenset({
    "load_workgroup_id", "load_num_workgroups", "load_workgroup_size", "load_subgroup_size",
    "load_subgroup_id", "load_num_subgroups", "get_ssbo_size", "load_base_vertex",
    "load_base_instance", "load_merged_wave_info",
    "load_gs_tg_info",
})
ALWAYS_DIVERGENT = frozenset({
    "ssbo_atomic", "ssbo_atomic_swap", "shared_atomic", "shared_atomic_swap", "elect",
    "global_atomic", "global_atomic_swap", "load_global",
    "inclusive_scan", "exclusive_scan", "ballot_bit_count_inclusive",
    "ballot_bit_count_exclusive", "inverse_ballot", "load_deref", "image_load",
    "image_load_lod", "image_size", "image_levels", "image_sample", "image_atomic",
    "image_atomic_swap",
})
ALWAYS_UNIFORM = frozenset({
    "vote_all", "vote_any", "vote_ieq", "vote_feq", "ballot", "read_first_invocation",
    "ballot_bit_count_reduce", "ballot_find_lsb", "ballot_find_msb", "load_const", "undef",
    "image_samples",
})
LIKE_FIRST_SOURCE = frozenset({
    "shuffle", "shuffle_xor", "shuffle_up", "shuffle_down", "quad_broadcast",
    "quad_swap_horizontal", "quad_swap_vertical", "quad_swap_diagonal",
})


class _Structure:
    """Where each block sits: enclosing constructs, the node before it, loop heads."""

    def __init__(self, shader: MirShader) -> None:
        self.anc: dict[Block, tuple[If | Loop, ...]] = {}
        self.prev: dict[Block, If | Loop | None] = {}
        self.head_of: dict[Block, Loop] = {}  # first block of a loop body or continue list
        self.before_if: dict[int, Block] = {}  # id(If) -> block evaluating its condition
        self.loop_jumps: dict[int, list[tuple[If, ...]]] = {}  # id(Loop) -> ifs of each jump
        self.loops: list[Loop] = []
        self.ifs: list[If] = []
        self._walk(shader.function.body, ())

    def _walk(self, cf: list[CFNode], anc: tuple[If | Loop, ...]) -> None:
        for i, n in enumerate(cf):
            if isinstance(n, Block):
                self.anc[n] = anc
                p = cf[i - 1] if i > 0 else None
                self.prev[n] = p if isinstance(p, If | Loop) else None
                j = n.jump
                if j is not None:
                    loop_pos = max(k for k, a in enumerate(anc) if isinstance(a, Loop))
                    loop = anc[loop_pos]
                    ifs = tuple(a for a in anc[loop_pos + 1:] if isinstance(a, If))
                    self.loop_jumps.setdefault(id(loop), []).append(ifs)
            elif isinstance(n, If):
                self.ifs.append(n)
                prev = cf[i - 1]
                assert isinstance(prev, Block)
                self.before_if[id(n)] = prev
                self._walk(n.then_list, anc + (n,))
                self._walk(n.else_list, anc + (n,))
            elif isinstance(n, Loop):
                self.loops.append(n)
                for lst in (n.body, n.cont):
                    if lst:
                        head = lst[0]
                        assert isinstance(head, Block)
                        self.head_of[head] = n
                        self._walk(lst, anc + (n,))


def divergence_analysis(shader: MirShader) -> set[Value]:
    st = _Structure(shader)
    div: set[Value] = set()
    div_if: set[int] = set()
    div_loop: set[int] = set()
    uses: list[tuple[Value, Block]] = []  # (value, block where it is used)
    instrs: list[Instr] = []
    for b in shader.blocks():
        for ins in b.instrs:
            instrs.append(ins)
            if ins.op == "phi":
                for p, s in zip(ins.preds, ins.srcs, strict=True):
                    uses.append((s, p))
            else:
                for s in ins.srcs:
                    uses.append((s, b))
    for n in st.ifs:
        uses.append((n.cond, st.before_if[id(n)]))

    def divergent_construct(c: If | Loop) -> bool:
        return id(c) in (div_if if isinstance(c, If) else div_loop)

    changed = True
    while changed:
        changed = False
        for n in st.ifs:
            if id(n) not in div_if and n.cond in div:
                div_if.add(id(n))
                changed = True
        for lp in st.loops:
            if id(lp) in div_loop:
                continue
            if any(any(id(i) in div_if for i in ifs) for ifs in st.loop_jumps.get(id(lp), [])):
                div_loop.add(id(lp))
                changed = True
        for ins in instrs:
            d = ins.dest
            if d is None or d in div:
                continue
            if _is_divergent(ins, div, st, divergent_construct):
                div.add(d)
                changed = True
        for v, ub in uses:
            if v in div or v.parent is None or v.parent.block is None:
                continue
            # the constructs around the definition but not around the use: both are
            # paths from the root, so those after their common start
            inner = st.anc.get(v.parent.block, ())
            if not inner:
                continue
            outer = st.anc.get(ub, ())
            k = 0
            while k < len(inner) and k < len(outer) and inner[k] is outer[k]:
                k += 1
            if any(divergent_construct(c) for c in inner[k:]):
                div.add(v)
                changed = True
    for ins in instrs:
        if ins.dest is not None:
            ins.dest.divergent = ins.dest in div
    return div


def _is_divergent(ins: Instr, div: set[Value], st: _Structure, dc: object) -> bool:
    op = ins.op
    srcs_div = any(s in div for s in ins.srcs)
    if op in ALU_OPS:
        return srcs_div
    if op == "phi":
        if srcs_div:
            return True
        b = ins.block
        assert b is not None
        construct = st.head_of.get(b)
        if construct is not None and dc(construct):  # type: ignore[operator]
            return True
        prev = st.prev.get(b)
        return prev is not None and dc(prev)  # type: ignore[operator]
    if op in DIVERGENT_SYSTEM_VALUES or op in ALWAYS_DIVERGENT:
        return True
    if op in UNIFORM_SYSTEM_VALUES or op in ALWAYS_UNIFORM:
        return False
    if op == "load_ssbo":
        return srcs_div or ins.attrs.get("access") != "readonly"
    if op in ("load_ubo", "load_push_constant", "load_constant", "load_shared", "read_invocation",
              "load_buffer_descriptor",
              "ballot_bitfield_extract") or op.startswith("deref_"):
        return srcs_div
    if op in LIKE_FIRST_SOURCE:
        return ins.srcs[0] in div
    if op == "reduce":
        return bool(ins.attrs.get("cluster_size", 0)) or False
    return True
