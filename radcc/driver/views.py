"""Analysis views of a compiled shader (``radcc compile --livereg/--timeline/--cfg``).

Each view reads what the compiler computed, in the one place it is computed:

- `livereg_asm`: the assembly (`radcc.driver.llc.kernel_asm`), each instruction line
  annotated with the VGPRs and SGPRs live during it, as live_var_analysis
  (radcc/passes/live_var_analysis.py, `radcc.ir.analyses.Liveness`) gave them to
  register allocation: the liveness behind the ``PreVGPRs``/``PreSGPRs`` statistics
  (`CompileResult.demand`, from `compile_spirv(keep_liveness=True)`). The demand
  counts temps in dwords (ACO's register demand: the values live after the
  instruction plus its definitions). An instruction that is still in the final code
  shows its own demand; one made after allocation (copies, waits, ``s_delay_alu``)
  shows the demand of the line before it (the values live through it; at the start of
  a block, that of the pseudo instructions before its first surviving one); the demand
  of a pseudo instruction that left no instruction of its own (``p_parallelcopy``,
  ``p_phi``, ...) is added (as a maximum) to the next surviving line of its block,
  so every demand lands on a line: the peak marked equals ``PreVGPRs``/``PreSGPRs``.
- `timeline_asm`: per instruction, the cycle it issues at in radcc's block cycle
  estimator (`radcc.passes.statistics.estimate_blocks`: ACO's BlockCycleEstimator
  with `radcc.isa.cycle_model`'s numbers), the cycles it stalled for operands or
  waits and for busy resources, its result latency, and a timeline bar; per block
  its cycles and the weight the ``Latency`` statistic gives it, whose weighted sum
  is that statistic.
- `cfg_dot`: the machine CFG in Graphviz: a box per block with its instructions (as
  the assembly prints them); an edge in both the logical and the linear CFG is solid,
  a linear-only edge dashed, a logical-only edge dotted.
"""

from __future__ import annotations

from radcc.driver.compile import CompileResult, PreRADemand
from radcc.ir.analyses import RegisterDemand
from radcc.ir.program import Program

__all__ = ["livereg_asm", "timeline_asm", "cfg_dot", "line_demands"]

_COL = 56  # annotation column of the assembly views


def _with_body(res: CompileResult, body: str) -> str:
    """`kernel_asm` of the result with `body` for the instruction text."""
    from radcc.driver.llc import kernel_asm

    assert res.program is not None and res.emitted is not None
    return kernel_asm(res.program, res.emitted.showing(body), res.stats)


def _lines(res: CompileResult) -> list[tuple[str, tuple[int, int] | None]]:
    """The assembly body's lines and their instructions, with the source-line comments
    (`radcc.driver.source_lines`) when the shader has debug lines."""
    from radcc.driver.source_lines import interleave

    assert res.program is not None and res.emitted is not None
    return interleave(res.program, res.emitted, res.debug_source)


def line_demands(program: Program, demand: list[PreRADemand]
                 ) -> dict[tuple[int, int], RegisterDemand]:
    """The demand shown on each final instruction (block, index): see the module
    docstring."""
    out: dict[tuple[int, int], RegisterDemand] = {}
    for b in program.blocks:
        pre = demand[b.index] if b.index < len(demand) else PreRADemand(RegisterDemand(), [])
        final = {id(ins) for ins in b.instructions}
        own: dict[int, RegisterDemand] = {}
        pending = RegisterDemand()
        lead: RegisterDemand | None = None
        for ins, d in pre.instrs:
            if id(ins) in final:
                own[id(ins)] = d.max(pending)
                if lead is None:
                    lead = pending
                pending = RegisterDemand()
            else:
                pending = pending.max(d)
        # lines made after allocation before the block's first surviving instruction:
        # the demand of the pseudo instructions before it (p_startpgm's arguments ...)
        cur = pre.live_in.max(lead or RegisterDemand())
        last: tuple[int, int] | None = None
        for k, ins in enumerate(b.instructions):
            if ins.is_pseudo:
                continue
            d = own.get(id(ins))
            if d is not None:
                cur = d
            out[(b.index, k)] = cur
            last = (b.index, k)
        if last is not None and pending != RegisterDemand():
            out[last] = out[last].max(pending)
    return out


def livereg_asm(res: CompileResult) -> str:
    """The assembly with live-register annotations (needs ``keep_liveness``)."""
    assert res.program is not None and res.demand is not None
    dem = line_demands(res.program, res.demand)
    peak = RegisterDemand()
    for d in dem.values():
        peak = peak.max(d)
    body = [f"; live registers during each instruction (dwords): v VGPRs, s SGPRs; "
            f"peak {peak.vgpr} VGPRs, {peak.sgpr} SGPRs"]
    for text, at in _lines(res):
        d = dem.get(at) if at is not None else None
        if d is None:
            body.append(text)
            continue
        mark = [n for n, hit in (("VGPRs", d.vgpr == peak.vgpr),
                                 ("SGPRs", d.sgpr == peak.sgpr)) if hit]
        note = f"  <- peak {' '.join(mark)}" if mark else ""
        body.append(f"{text.expandtabs(8):<{_COL}} ; v:{d.vgpr:3d} s:{d.sgpr:3d}{note}")
    return _with_body(res, "\n".join(body) + "\n")


_BAR = 64  # timeline bar width (cycles)


def _bar(prev: int, ready: int, issue: int, latency: int) -> str:
    """From the cycle the previous instruction left the issue slot: ``-`` waiting for
    operands/waits, ``=`` for a busy resource, ``I`` the issue cycle, ``e`` until the
    result is ready; clipped to `_BAR` columns (``>`` beyond)."""
    cells = ["-"] * (ready - prev) + ["="] * (issue - ready)
    cells += ["I"] + ["e"] * max(latency - 1, 0)
    if len(cells) > _BAR:
        cells = cells[:_BAR - 1] + [">"]
    return "".join(cells)


def timeline_asm(res: CompileResult, workgroup_size: int | None = None) -> str:
    """The assembly with the cycle model's issue cycles and stalls per instruction."""
    from radcc.passes.statistics import estimate_blocks

    program = res.program
    assert program is not None
    wg = workgroup_size
    if wg is None:
        x, y, z = res.workgroup_size
        wg = x * y * z
    ests = estimate_blocks(program, wg, trace=True)
    issue = {}
    for b, be in zip(program.blocks, ests, strict=True):
        for k, t in zip(be.instrs, be.trace, strict=True):
            issue[(b.index, k)] = t
    total = sum(be.cycles * be.iterations for be in ests)
    body = ["; cycle model timeline (radcc.isa.cycle_model, ACO's block cycle estimator):",
            "; @C issue cycle from the block's start, stall D+R cycles waiting for operands or",
            "; waits (D) and busy resources (R), lat result latency; bar: - operands/waits,",
            "; = resources, I issue, e until the result is ready (from the previous issue)",
            f"; Latency = sum of block cycles x weight = {round(total)}"]
    seen: set[tuple[int, int]] = set()
    for text, at in _lines(res):
        if at is None:
            body.append(text)
            if text.endswith(":") and text[2:-1].isdigit():
                be = ests[int(text[2:-1])]
                w = f" x {be.iterations:g}" if be.iterations != 1 else ""
                body.append(f"; {text[:-1]}: {be.cycles} cycles{w}")
            continue
        t = issue.get(at)
        if t is None or at in seen:  # a pseudo's line or a long jump's further lines
            body.append(text)
            continue
        seen.add(at)
        note = (f"; @{t.issue:<5d} stall {t.ready - t.prev:3d}+{t.issue - t.ready:<3d} "
                f"lat {t.latency:3d} |{_bar(t.prev, t.ready, t.issue, t.latency)}")
        body.append(f"{text.expandtabs(8):<{_COL}} {note}")
    return _with_body(res, "\n".join(body) + "\n")


def _dot_escape(s: str) -> str:
    return (s.replace("\\", "\\\\").replace('"', '\\"').replace("{", "\\{")
            .replace("}", "\\}").replace("<", "\\<").replace(">", "\\>").replace("|", "\\|"))


def cfg_dot(res: CompileResult) -> str:
    """The machine CFG as a Graphviz digraph (see the module docstring)."""
    program = res.program
    assert program is not None
    texts: dict[int, list[str]] = {b.index: [] for b in program.blocks}
    for text, at in _lines(res):
        if at is not None:
            texts[at[0]].append(text.strip())
    out = [f'digraph "{_dot_escape(program.name)}" {{',
           '  node [shape=box, fontname="monospace", fontsize=10];',
           '  // edges: solid = logical and linear, dashed = linear only, '
           'dotted = logical only']
    for b in program.blocks:
        kind = str(b.kind).removeprefix("BlockKind.") if b.kind else ""
        head = f"BB{b.index}" + (f"  [{kind.lower()}]" if kind else "")
        if b.loop_nest_depth:
            head += f"  loop depth {b.loop_nest_depth}"
        label = "\\l".join(_dot_escape(x) for x in [head, *texts[b.index]]) + "\\l"
        out.append(f'  BB{b.index} [label="{label}"];')
    for b in program.blocks:
        lin, log = set(b.linear_succs), set(b.logical_succs)
        for s in sorted(lin | log):
            if s in lin and s in log:
                style = 'style=solid, tooltip="logical and linear"'
            elif s in lin:
                style = 'style=dashed, tooltip="linear only"'
            else:
                style = 'style=dotted, color=blue, tooltip="logical only"'
            out.append(f"  BB{b.index} -> BB{s} [{style}];")
    out.append("}")
    return "\n".join(out) + "\n"
