"""Fragment shader selection (GFX11; ACO's ``emit_interp_instr_gfx11``,
``emit_load_frag_coord``, ``export_fs_mrt_color``, ``export_fs_mrtz``,
``create_fs_null_export`` and ``emit_derivative``, written from their rules).

- **Arguments** (`fragment_shader_args`): the resource table's address when the shader
  has descriptors or push constants (docs/abi.md "Resources of graphics stages"), then
  the PS input VGPRs the shader reads, RADV's layout (`radcc.abi.graphics.fragment_args`): the barycentrics of each interpolation
  mode and location the inputs use, the position components of ``gl_FragCoord``, front
  face, ancillary (sample id). At least one barycentric pair is always enabled
  (perspective centre when the shader reads none), as the hardware requires.
- **Inputs**: ``@load_interpolated_input`` of a smooth/noperspective input is ``lds_param_load`` of the
  input's parameter (``attrN.c``, N = its position in `ps_inputs`; M0 = the primitive
  mask) then ``v_interp_p10_f32`` (P0 + I * P10) and ``v_interp_p2_f32`` (+ J * P20) with
  the mode's I/J; a flat input is the parameter's P0: ``v_mov_b32_dpp quad_perm:[0,0,0,0]``
  of the loaded VGPR (``fi``: the quad's first lane may be inactive; ``lds_param_load``
  wrote all four lanes of every quad with an active lane, ISA guide "Pixel Parameter
  Interpolation"). A 16-bit input is its parameter's low half: interpolated with
  ``v_interp_p10_f16_f32`` / ``v_interp_p2_f16_f32`` (opsel 0, ACO's v2b case), flat with
  the same DPP move. The front end reads inputs at the start of the shader, in uniform
  control flow. ``gl_FragCoord`` is the position VGPRs with ``w`` = 1 / the hardware's
  ``w`` (``v_rcp_f32``); ``gl_FrontFacing`` is ``front_face > 0`` (a float, > 0 for front
  faces), ``gl_SampleID`` bits 8-11 of the ancillary VGPR; ``gl_PointCoord`` is the
  parameter filled from the point sprite (`PsInput` location -1), interpolated at the
  centre.
- **Outputs**: ``@store_fragment_output`` records each component; `export_outputs` (at the end of
  the shader) exports the depth (``exp mrtz``, x) and each colour location with the export
  its attachment's format needs (`ExportFormat`: 32-bit channels, or pairs packed by
  ``v_cvt_pk_rtz_f16_f32``/``v_cvt_pk_norm_{u,i}16_f32``/``v_cvt_pk_{u,i}16_{u,i}32`` with
  channel mask 0x3, GFX11 having no COMPR bit); the last export has ``done`` (GFX11 has no
  ``vm`` bit: EXEC is the valid mask, so exports run on the exact lanes).
  A shader with no export gets the null export, GFX11's ``exp mrt0 off, off, off, off done``.
- **Discards**: ``@terminate`` is ``p_discard_if -1``, ``@demote`` ``p_demote_to_helper -1``;
  `radcc.passes.insert_exec_mask` gives them their exec-mask code, and ``@load_helper_
  invocation`` is ``p_is_helper`` (the lanes in EXEC but not in the exact mask).
- **Derivatives**: ``v_sub_f32`` of two DPP quad permutations (fine: each lane's row or
  column neighbour; coarse: the quad's lanes 0/1/2), the result of ``p_wqm`` (the program
  then runs in whole-quad mode: `insert_exec_mask`).
"""

from __future__ import annotations

from radcc.abi.args import ArgKind, ShaderArgs
from radcc.abi.graphics import (
    ColorFormat,
    ExportFormat,
    PsInput,
    fragment_args,
    spi_ps_input_ena,
)
from radcc.abi.kernarg import KernargLayout
from radcc.codeobj.graphics import ComponentType, PixelInput, PixelOutput, PixelStage
from radcc.frontend.mir import Instr, MirShader
from radcc.ir.program import Operand
from radcc.ir.regclass import PhysReg, Temp, v1
from radcc.isa.operands import M0
from radcc.target import Target

from .context import Comp, Const, FragmentState, IselContext, IselError, UnsupportedError

_BARY = {
    ("smooth", "center"): ArgKind.PERSP_CENTER, ("smooth", "centroid"): ArgKind.PERSP_CENTROID,
    ("smooth", "sample"): ArgKind.PERSP_SAMPLE, ("linear", "center"): ArgKind.LINEAR_CENTER,
    ("linear", "centroid"): ArgKind.LINEAR_CENTROID, ("linear", "sample"): ArgKind.LINEAR_SAMPLE,
}
_FRAG_POS = (ArgKind.FRAG_POS_X, ArgKind.FRAG_POS_Y, ArgKind.FRAG_POS_Z, ArgKind.FRAG_POS_W)
# the EXP target of colour location N is N (mrt0..7); the depth's is 8 (mrtz)
MRTZ = 8


def ps_inputs(shader: MirShader) -> tuple[PsInput, ...]:
    """The parameters the shader reads, in attribute order: its input locations
    ascending, then the point coordinate."""
    flat: dict[int, bool] = {}
    point = False
    for ins in shader.instrs():
        if ins.op == "load_interpolated_input":
            loc = ins.attrs["location"]
            f = ins.attrs["interp"] == "flat"
            if flat.setdefault(loc, f) != f:
                raise IselError(f"fragment input location {loc} is read both flat and "
                                "interpolated")
        elif ins.op == "load_point_coord":
            point = True
    out = [PsInput(loc, flat[loc]) for loc in sorted(flat)]
    if point:
        out.append(PsInput(-1, False))
    return tuple(out)


def fragment_shader_args(shader: MirShader, target: Target,
                         resources: KernargLayout | None) -> ShaderArgs:
    """The arguments a pixel shader reads (module docstring); `resources`: the resource
    table's layout when the shader has descriptors or push constants."""
    want: set[ArgKind] = set()
    for ins in shader.instrs():
        if ins.op == "load_interpolated_input" and ins.attrs["interp"] != "flat":
            want.add(_BARY[(ins.attrs["interp"], ins.attrs["at"])])
        elif ins.op == "load_point_coord":
            want.add(ArgKind.PERSP_CENTER)
        elif ins.op == "load_frag_coord":
            want.update(_FRAG_POS)
        elif ins.op == "load_front_face":
            want.add(ArgKind.FRONT_FACE)
        elif ins.op == "load_sample_id":
            want.add(ArgKind.ANCILLARY)
    if not want & set(_BARY.values()):
        want.add(ArgKind.PERSP_CENTER)  # the hardware needs one barycentric pair enabled
    return fragment_args(target, want, descriptor_sets=0, resources=resources)


def _fs(ctx: IselContext) -> FragmentState:
    fs = ctx.fragment
    assert fs is not None
    return fs


def _m0(ctx: IselContext) -> Operand:
    return Operand(_fs(ctx).args[ArgKind.PRIM_MASK], phys=PhysReg.of(M0))


def _param(ctx: IselContext, location: int, chan: int) -> Temp:
    idx = _fs(ctx).attr[location]
    return ctx.b.inst("lds_param_load", [v1], [_m0(ctx)], attr=idx, attr_chan=chan,
                      wait_vdst=0).temp


def _interp(ctx: IselContext, location: int, chan: int, bary: ArgKind, bits: int = 32) -> Temp:
    """P0 + I * P10 + J * P20 of the parameter's channel; 16-bit: ACO's f16 forms on the
    low halves (``v_interp_p10_f16_f32``: an f32 sum, ``v_interp_p2_f16_f32``: the f16
    result in the low half, opsel 0)."""
    p = _param(ctx, location, chan)
    ij = ctx.b.split_vector(_fs(ctx).args[bary], v1, v1).temps
    p10, p2 = (("v_interp_p10_f16_f32", "v_interp_p2_f16_f32") if bits == 16 else
               ("v_interp_p10_f32", "v_interp_p2_f32"))
    t = ctx.b.inst(p10, [v1], [p, ij[0], p], wait_exp=0).temp
    return ctx.b.inst(p2, [v1], [p, ij[1], t], wait_exp=0).temp


def select_fragment(ctx: IselContext, ins: Instr) -> None:
    op = ins.op
    d = ins.dest
    if op in _DERIV:  # (also a compute shader's with derivative groups)
        assert d is not None
        ctx.set(d, [_derivative(ctx, ctx.comp(ins.srcs[0], 0), op)])
        return
    fs = _fs(ctx)
    if op == "load_interpolated_input":
        assert d is not None
        a = ins.attrs
        if a["interp"] == "flat":
            p = _param(ctx, a["location"], a["component"])
            r = ctx.b.inst("v_mov_b32", [v1], [p], "VOP1", quad_perm=[0, 0, 0, 0], row_mask=0xF,
                           bank_mask=0xF, fi=1).temp
        else:
            r = _interp(ctx, a["location"], a["component"], _BARY[(a["interp"], a["at"])],
                        d.bit_size)
        ctx.set(d, [r])
    elif op == "load_point_coord":
        assert d is not None
        ctx.set(d, [_interp(ctx, -1, c, ArgKind.PERSP_CENTER) for c in range(2)])
    elif op == "load_frag_coord":
        assert d is not None
        xyz: list[Comp] = [fs.args[k] for k in _FRAG_POS[:3]]
        w = ctx.valu("v_rcp_f32", v1, fs.args[ArgKind.FRAG_POS_W])
        ctx.set(d, [*xyz, w])
    elif op == "load_front_face":
        assert d is not None
        ctx.set(d, [ctx.new_lane_mask(ctx.valu("v_cmp_lt_f32", ctx.lm, Const(32, 0),
                                                fs.args[ArgKind.FRONT_FACE]))])
    elif op == "load_sample_id":
        assert d is not None
        ctx.set(d, [ctx.valu("v_bfe_u32", v1, fs.args[ArgKind.ANCILLARY], Const(32, 8),
                             Const(32, 4))])
    elif op == "load_helper_invocation":
        assert d is not None
        ctx.set(d, [ctx.new_lane_mask(ctx.b.pseudo("p_is_helper", [ctx.lm], []).temp)])
    elif op == "store_fragment_output":
        a = ins.attrs
        fs.outputs[(a["location"], a["component"])] = ctx.comp(ins.srcs[0], 0)
        fs.output_base[a["location"]] = a["base"]
    elif op == "terminate":
        ctx.b.pseudo("p_discard_if", [], [Operand.c32(-1)])
    elif op == "demote":
        ctx.b.pseudo("p_demote_to_helper", [], [Operand.c32(-1)])
    else:
        raise UnsupportedError(f"instruction selection: unsupported MIR op '{op}'")


# (lanes subtracted from, lanes subtracted) per derivative (quad lanes: 0 1 / 2 3)
_DERIV: dict[str, tuple[list[int], list[int]]] = {
    "ddx": ([1, 1, 3, 3], [0, 0, 2, 2]), "ddx_fine": ([1, 1, 3, 3], [0, 0, 2, 2]),
    "ddy": ([2, 3, 2, 3], [0, 1, 0, 1]), "ddy_fine": ([2, 3, 2, 3], [0, 1, 0, 1]),
    "ddx_coarse": ([1, 1, 1, 1], [0, 0, 0, 0]), "ddy_coarse": ([2, 2, 2, 2], [0, 0, 0, 0]),
}
FRAGMENT_OPS = frozenset({"load_interpolated_input", "load_point_coord", "load_frag_coord",
                          "load_front_face", "load_sample_id", "load_helper_invocation",
                          "store_fragment_output", "terminate", "demote", *_DERIV})


def _derivative(ctx: IselContext, x: Comp, op: str) -> Temp:
    """``tl = dpp(x, a) ; d = dpp(x, b) - tl`` (ACO's emit_derivative: ``v_mov_b32_dpp`` then
    ``v_sub_f32_dpp``), in WQM."""
    hi, lo = _DERIV[op]
    src = ctx.vgpr(x)
    tl = ctx.b.inst("v_mov_b32", [v1], [src], "VOP1", quad_perm=lo, row_mask=0xF,
                    bank_mask=0xF).temp
    diff = ctx.b.inst("v_sub_f32", [v1], [src, tl], "VOP2", quad_perm=hi, row_mask=0xF,
                      bank_mask=0xF).temp
    return ctx.b.pseudo("p_wqm", [v1], [diff]).temp


# -- exports ----------------------------------------------------------------------------------
def _pack(ctx: IselContext, op: str, a: Comp | None, b: Comp | None) -> Temp:
    z = Const(32, 0)
    return ctx.valu(op, v1, a if a is not None else z, b if b is not None else z)


def _color_export(ctx: IselContext, loc: int, fmt: ColorFormat) -> tuple[list[Temp | None], int]:
    fs = _fs(ctx)
    comps: list[Comp | None] = [fs.outputs.get((loc, c)) for c in range(4)]
    base = fs.output_base.get(loc, "float")
    if base != fmt.base:
        raise IselError(f"fragment output location {loc} is {base}, but its attachment "
                        f"format {fmt.text} takes {fmt.base} values")
    e = fmt.export
    if e in (ExportFormat.ABGR32, ExportFormat.R32, ExportFormat.GR32, ExportFormat.AR32):
        keep = {ExportFormat.ABGR32: (0, 1, 2, 3), ExportFormat.R32: (0,),
                ExportFormat.GR32: (0, 1), ExportFormat.AR32: (0, 3)}[e]
        vals: list[Temp | None] = [ctx.vgpr(c) if c is not None and i in keep else None
                                   for i, c in enumerate(comps)]
        if e is ExportFormat.AR32:  # GFX10+: alpha goes in the second channel
            vals = [vals[0], vals[3], None, None]
        en = sum(1 << i for i, v in enumerate(vals) if v is not None)
        return vals, en
    op = {ExportFormat.FP16_ABGR: "v_cvt_pk_rtz_f16_f32",
          ExportFormat.UNORM16_ABGR: "v_cvt_pk_norm_u16_f32",
          ExportFormat.SNORM16_ABGR: "v_cvt_pk_norm_i16_f32",
          ExportFormat.UINT16_ABGR: "v_cvt_pk_u16_u32",
          ExportFormat.SINT16_ABGR: "v_cvt_pk_i16_i32"}[e]
    return [_pack(ctx, op, comps[0], comps[1]), _pack(ctx, op, comps[2], comps[3]),
            None, None], 0x3


def export_outputs(ctx: IselContext) -> None:
    """The exports at the end of the shader (module docstring)."""
    fs = _fs(ctx)
    exports: list[tuple[int, list[Temp | None], int]] = []
    depth = fs.outputs.get((-1, 0))
    if depth is not None:
        exports.append((MRTZ, [ctx.vgpr(depth), None, None, None], 0x1))
    for loc in sorted({loc for loc, _c in fs.outputs if loc >= 0}):
        fmt = fs.format_of(loc)
        if fmt.export is ExportFormat.ZERO:
            continue
        vals, en = _color_export(ctx, loc, fmt)
        exports.append((loc, vals, en))
    if not exports:  # GFX11 has no null target: an empty mrt0 export
        ctx.b.inst("exp", [], [Operand(rc=v1, undef=True)] * 4, target=0, en=0, done=True)
        return
    for i, (target, vals, en) in enumerate(exports):
        last = i == len(exports) - 1
        ops = [Operand(v) if v is not None else Operand(rc=v1, undef=True) for v in vals]
        ctx.b.inst("exp", [], ops, target=target, en=en, done=last)


__all__ = ["FRAGMENT_OPS", "export_outputs", "fragment_shader_args", "pixel_stage",
           "ps_inputs", "select_fragment"]


# -- what a driver needs (the graphics code object's PixelStage) -----------------------------
_COMPONENT_TYPES = {"float": ComponentType.FLOAT, "int": ComponentType.SINT,
                    "uint": ComponentType.UINT}
Z_FORMAT_32_R = 1  # SPI_SHADER_Z_FORMAT: the depth in the export's x channel


def pixel_stage(shader: MirShader, args: ShaderArgs,
                color_formats: tuple[ColorFormat, ...]) -> PixelStage:
    """The pixel shader's register settings and interface (`PixelStage`): the input VGPR
    enables, each parameter's location, component count, type and flatness, each colour
    output's components and type, SPI_SHADER_COL_FORMAT (4 bits per MRT, ZERO where
    nothing is exported), the Z format, whether it writes depth or discards."""
    comps: dict[int, int] = {}
    base: dict[int, str] = {}
    bits: dict[int, int] = {}
    outs: dict[int, int] = {}
    out_base: dict[int, str] = {}
    discard = False
    for ins in shader.instrs():
        a = ins.attrs
        if ins.op == "load_interpolated_input":
            loc = a["location"]
            comps[loc] = max(comps.get(loc, 0), a["component"] + 1)
            base[loc] = a["base"]
            assert ins.dest is not None
            bits[loc] = ins.dest.bit_size
        elif ins.op == "load_point_coord":
            comps[-1] = 2
            base[-1] = "float"
        elif ins.op == "store_fragment_output":
            loc = a["location"]
            outs[loc] = max(outs.get(loc, 0), a["component"] + 1)
            out_base[loc] = a["base"]
        elif ins.op in ("terminate", "demote"):
            discard = True
    inputs = tuple(PixelInput(p.location, comps[p.location],
                              _COMPONENT_TYPES[base[p.location]], attr, p.flat,
                              bits.get(p.location, 32))
                   for attr, p in enumerate(ps_inputs(shader)))
    col = 0
    outputs: list[PixelOutput] = []
    for loc in sorted(k for k in outs if k >= 0):
        outputs.append(PixelOutput(loc, outs[loc], _COMPONENT_TYPES[out_base[loc]]))
        fmt = color_formats[min(loc, len(color_formats) - 1)] if color_formats else \
            ColorFormat.RGBA8
        col |= int(fmt.export) << (4 * loc)
    ena = spi_ps_input_ena(args)
    writes_z = -1 in outs
    return PixelStage(spi_ps_input_ena=ena, spi_ps_input_addr=ena, inputs=inputs,
                      outputs=tuple(outputs), col_format=col,
                      z_format=Z_FORMAT_32_R if writes_z else 0, writes_z=writes_z,
                      can_discard=discard)
