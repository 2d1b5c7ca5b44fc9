"""The readable text form of MIR (tests, ``--print-after``).

::

    shader main workgroup_size(64, 1, 1) shared 0 push_constants 16
      binding 0:1 storage readonly
      local v0 "a" f32[4]
    block b0:
      32x3  %0 = @load_global_invocation_id
      32    %1 = mov %0.x
      32    %2 = load_const (0x00000002 = 2)
      32    %3 = ishl %1, %2
            @store_ssbo %3, %1 (binding=0:1, align=4)
    if %5 {
      block b1:
    } else {
      block b2:
    }
    block b3:
      32    %6 = phi b1: %3, b2: %4

Each value is ``BITS[xCOMPONENTS] %INDEX``; intrinsics are spelt ``@name``;
constants show their raw bits and an integer/float reading; a swizzling mov
shows ``%v.xy``. With ``divergence=True`` each definition is marked ``div`` or
``con`` (uniform), as NIR prints after divergence analysis.
"""

from __future__ import annotations

import struct
from typing import Any

from .mir import Block, CFNode, If, Instr, Loop, MirShader, Value
from .mir_ops import ALU_OPS

_XYZW = "xyzw"


def _swz(comps: tuple[int, ...]) -> str:
    if all(c < 4 for c in comps):
        return "".join(_XYZW[c] for c in comps)
    return "[" + ",".join(str(c) for c in comps) + "]"


def _const_text(bits: int, raw: int) -> str:
    if bits == 1:
        return "true" if raw else "false"
    w = max(2, bits // 4)
    s = f"0x{raw:0{w}x}"
    signed = raw - (1 << bits) if raw >> (bits - 1) else raw
    extra = str(signed)
    if bits in (16, 32, 64) and abs(signed) > 0xFFFF:
        fmt = {16: "<e", 32: "<f", 64: "<d"}[bits]
        ifmt = {16: "<H", 32: "<I", 64: "<Q"}[bits]
        f = struct.unpack(fmt, struct.pack(ifmt, raw))[0]
        extra += f" /* {f!r} */"
    return f"{s} = {extra}"


def _attr(k: str, v: Any) -> str:
    if k == "binding" and isinstance(v, tuple):
        return f"binding={v[0]}:{v[1]}"
    if k == "var":
        return f"var=v{v.index}"
    if isinstance(v, tuple | list):
        return f"{k}=" + ",".join(str(x) for x in v)
    return f"{k}={v}"


def _def_text(v: Value | None, divergence: bool) -> str:
    if v is None:
        return " " * (14 if divergence else 10)
    size = f"{v.bit_size}" + (f"x{v.num_components}" if v.num_components > 1 else "")
    d = ("div " if v.divergent else "con ") if divergence else ""
    return f"{d}{size:<6}{'%' + str(v.index):>4} = "


def format_instr(ins: Instr, divergence: bool = False) -> str:
    head = _def_text(ins.dest, divergence)
    op = ins.op
    if op in ("break", "continue"):
        return op
    if op == "load_const":
        assert ins.dest is not None
        vals = ", ".join(_const_text(ins.dest.bit_size, x) for x in ins.attrs["value"])
        return f"{head}load_const ({vals})"
    if op == "phi":
        srcs = ", ".join(f"b{p.index}: {s}" for p, s in zip(ins.preds, ins.srcs, strict=True))
        return f"{head}phi {srcs}"
    if op == "mov" and "comps" in ins.attrs:
        return f"{head}mov {ins.srcs[0]}.{_swz(tuple(ins.attrs['comps']))}"
    name = op if op in ALU_OPS or op == "undef" else "@" + op
    parts = [name]
    if ins.srcs:
        parts.append(", ".join(str(s) for s in ins.srcs))
    text = head + " ".join(parts)
    attrs = {k: v for k, v in ins.attrs.items() if k != "comps"}
    if attrs:
        text += " (" + ", ".join(_attr(k, v) for k, v in sorted(attrs.items())) + ")"
    return text


def format_cf(cf: list[CFNode], indent: int, out: list[str], divergence: bool) -> None:
    pad = "  " * indent
    for n in cf:
        if isinstance(n, Block):
            out.append(f"{pad}block b{n.index}:")
            for ins in n.instrs:
                out.append(f"{pad}  {format_instr(ins, divergence)}")
        elif isinstance(n, If):
            out.append(f"{pad}if {n.cond} {{")
            format_cf(n.then_list, indent + 1, out, divergence)
            out.append(f"{pad}}} else {{")
            format_cf(n.else_list, indent + 1, out, divergence)
            out.append(f"{pad}}}")
        elif isinstance(n, Loop):
            out.append(f"{pad}loop {{")
            format_cf(n.body, indent + 1, out, divergence)
            if n.cont:
                out.append(f"{pad}}} continue {{")
                format_cf(n.cont, indent + 1, out, divergence)
            out.append(f"{pad}}}")


def print_shader(shader: MirShader, divergence: bool = False) -> str:
    """The whole shader as text (header lines, then the function body)."""
    wg = ", ".join(str(x) for x in shader.workgroup_size)
    out = [
        f"shader {shader.entry} workgroup_size({wg}) shared {shader.shared_size} "
        f"push_constants {shader.push_constant_size}"
    ]
    for (s, b), info in sorted(shader.bindings.items()):
        ro = " readonly" if info.readonly else ""
        out.append(f"  binding {s}:{b} {info.kind}{ro}")
    for v in shader.function.locals:
        out.append(f'  local v{v.index} "{v.name}" {v.type}')
    format_cf(shader.function.body, 0, out, divergence)
    return "\n".join(out) + "\n"
