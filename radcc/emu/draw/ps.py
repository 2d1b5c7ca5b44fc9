"""Pixel shading (GFX11 `fragment_fs`): the rasteriser's quads in pixel waves, each
started as the hardware starts one (docs/draw.md), and what the waves export read back
as colour, depth and coverage.

A wave takes up to ``wave_size / 4`` quads in order; lane ``4q + k`` is lane k of quad q
(`radcc.emu.draw.raster`'s order). Per wave:

- LDS holds the parameters of the wave's primitives from offset 0 as `lds_param_load`
  reads them (ISA guide 12.2.1; `radcc.emu.graphics`): for input attribute a and the
  wave's primitive p, 12 dwords at ``(a * prims + p) * 12``: P0 (the provoking vertex's
  value), P10 = P1 - P0 and P20 = P2 - P0 (float32), as x, y, z, w each; a flat input's
  P10 and P20 are 0; a 16-bit float input interpolated (`PixelInput.fp16_interp`,
  FP16_INTERP_MODE, unpacked: ISA guide 12.2.1.1) has them as f16 differences of the
  dwords' low halves, in the low halves. Attribute a is the pixel shader's input `attr` a, linked to the
  vertex shader's output of the same location.
- ``prim_mask`` (M0 for `lds_param_load`): ``new_prim_mask[15:1] << 16``, bit q set when
  quad q starts a primitive (quad 0 always does), parameter offset 0.
- the input VGPRs the shader's arguments list: I and J (the weights of the primitive's
  second and third vertex) for the perspective and linear modes (sample and centroid
  equal centre: one sample at the centre), the fragment position x + 0.5, y + 0.5, zf
  and w (``1 / interpolated 1/w``; the shader takes its reciprocal for
  ``gl_FragCoord.w``), front face (1.0 front, 0.0 back), ancillary (0: sample 0),
  sample coverage (1), the fixed-point position (x | y << 16);
- EXEC: the covered lanes; the other lanes of each quad are helper lanes (their inputs
  are set too).

After the wave: the export with DONE names the lanes that write; colour target N's
export (``exp mrtN``), decoded by the target's export format (SPI_SHADER_COL_FORMAT
field N, `radcc.emu.draw.output.decode_export`), gives their colour, ``exp mrtz`` (x)
their depth when the shader writes it. Strict mode: a wave must end with an export
with DONE (the STATUS register's MUST_EXPORT, ISA guide 3.x).
"""

from __future__ import annotations

import numpy as np

from radcc.abi.args import ArgKind, RegFile
from radcc.abi.graphics import ExportFormat
from radcc.codeobj.graphics import GraphicsShader
from radcc.emu.draw.clip import Primitives
from radcc.emu.draw.output import decode_export
from radcc.emu.draw.pipeline import LaneInputs, Shaded
from radcc.emu.draw.raster import Fragments
from radcc.emu.draw.state import Kind
from radcc.emu.draw.waves import GraphicsProgram, WaveRunner
from radcc.emu.graphics import TARGET_MRTZ
from radcc.emu.memory import Memory
from radcc.emu.state import Wave
from radcc.target import Target

__all__ = ["PixelStageRunner", "lds_parameters"]

_BARY = {ArgKind.PERSP_SAMPLE: "persp", ArgKind.PERSP_CENTER: "persp",
         ArgKind.PERSP_CENTROID: "persp", ArgKind.LINEAR_SAMPLE: "linear",
         ArgKind.LINEAR_CENTER: "linear", ArgKind.LINEAR_CENTROID: "linear"}


def lds_parameters(attrs: np.ndarray, flat: np.ndarray,
                   fp16: np.ndarray | None = None) -> np.ndarray:
    """The LDS parameter block of primitives `attrs` (p, n, A, 4) uint32: (A, p, 12) uint32
    words (module docstring); `fp16` (A,) bool: the attributes interpolated as f16."""
    p, n, A, _ = attrs.shape
    out = np.zeros((A, p, 3, 4), np.uint32)
    f = attrs.view(np.float32)
    with np.errstate(invalid="ignore", over="ignore"):  # 32-bit data read as halves
        h = (attrs & 0xFFFF).astype(np.uint16).view(np.float16).astype(np.float64)
    half = np.zeros(A, bool) if fp16 is None else np.asarray(fp16, bool)
    out[:, :, 0] = attrs[:, 0].transpose(1, 0, 2)
    for k in range(1, min(n, 3)):
        d = (f[:, k] - f[:, 0]).astype(np.float32).view(np.uint32)
        # the exact f16 difference (it fits a double) rounded once to f16
        with np.errstate(invalid="ignore", over="ignore"):
            d16 = (h[:, k] - h[:, 0]).astype(np.float16).view(np.uint16).astype(np.uint32)
        d = np.where(half[None, :, None], d16, d)
        out[:, :, k] = d.transpose(1, 0, 2)
    out[np.asarray(flat, bool), :, 1:] = 0
    return out.reshape(A, p, 12)


class PixelStageRunner:
    """Runs a fragment shader's waves over a draw's quads."""

    def __init__(self, fs: GraphicsShader, target: Target, memory: Memory, kind: Kind,
                 resource_table: int, *, strict: bool = True,
                 max_instructions: int = 50_000_000) -> None:
        assert fs.pixel is not None
        self.fs = fs
        self.kind = kind
        self.table = resource_table
        self.runner = WaveRunner(GraphicsProgram("fragment shader", fs.code, fs.wave_size,
                                                 scratch_bytes=fs.scratch_bytes_per_lane),
                                 target, memory, strict=strict,
                                 max_instructions=max_instructions)
        ins = sorted(fs.pixel.inputs, key=lambda i: i.attr)
        self.flat = np.array([i.flat for i in ins], bool)
        self.fp16 = np.array([i.fp16_interp for i in ins], bool)
        # gl_PointCoord's parameter (location -1): P0 (0, 0), P10 (1, 0), P20 (0, 1) on
        # points, whose lanes' I and J are the coordinate (radcc.emu.draw.raster)
        self.point_coord = [a for a, i in enumerate(ins) if i.location < 0]

    def __call__(self, prims: Primitives, frags: Fragments, li: LaneInputs) -> Shaded:
        fs = self.fs
        px = fs.pixel
        assert px is not None
        ws = fs.wave_size
        qpw = ws // 4
        Q = frags.count
        outs = {o.location for o in px.outputs}
        colors: list[np.ndarray | None] = [
            np.zeros((Q, 4, 4), np.int64 if not self.kind.is_float else np.float64)
            if loc in outs else None for loc in range(max(outs, default=-1) + 1)]
        alive = np.zeros((Q, 4), bool)
        z = np.zeros((Q, 4), np.float64) if px.writes_z else None
        for q0 in range(0, Q, qpw):
            sel = slice(q0, min(Q, q0 + qpw))
            self._wave(prims, frags, li, sel, colors, alive, z)
        return Shaded(alive, colors, z)

    def _wave(self, prims: Primitives, frags: Fragments, li: LaneInputs, sel: slice,
              colors: list[np.ndarray | None], alive: np.ndarray, z: np.ndarray | None
              ) -> None:
        fs = self.fs
        px = fs.pixel
        assert px is not None
        ws = fs.wave_size
        qp = frags.prim[sel]
        nq = len(qp)
        new = np.r_[True, qp[1:] != qp[:-1]]
        wave_prims = qp[new]
        attrs = prims.attrs[wave_prims]  # (p, n, A, 4)
        lds = (lds_parameters(attrs, self.flat, self.fp16) if attrs.shape[2]
               else np.zeros(0, np.uint32))
        if attrs.shape[1] == 1:
            one = np.float32(1.0).view(np.uint32)
            for a in self.point_coord:
                lds[a, :, :] = 0
                lds[a, :, 4] = one  # P10.x
                lds[a, :, 9] = one  # P20.y
        mask = 0
        for q in range(1, nq):
            if new[q]:
                mask |= 1 << q
        lane = np.zeros(ws, bool)
        lane[:4 * nq] = frags.covered[sel].reshape(-1)

        def lanes(v: np.ndarray) -> np.ndarray:
            out = np.zeros(ws, v.dtype)
            out[:4 * nq] = v[sel].reshape(-1)
            return out

        xs, ys = lanes(li.x), lanes(li.y)
        f32 = {"persp": (lanes(li.persp[..., 1]), lanes(li.persp[..., 2])),
               "linear": (lanes(li.linear[..., 1]), lanes(li.linear[..., 2]))}
        with np.errstate(divide="ignore"):
            wpos = lanes(1.0 / li.inv_w)
        front = np.zeros(ws, np.float32)
        front[:4 * nq] = np.repeat(li.front[sel], 4).astype(np.float32)
        vg: dict[ArgKind, list[np.ndarray]] = {
            ArgKind.FRAG_POS_X: [(xs + 0.5).astype(np.float32)],
            ArgKind.FRAG_POS_Y: [(ys + 0.5).astype(np.float32)],
            ArgKind.FRAG_POS_Z: [lanes(li.z).astype(np.float32)],
            ArgKind.FRAG_POS_W: [wpos.astype(np.float32)],
            ArgKind.FRONT_FACE: [front],
            ArgKind.SAMPLE_COVERAGE: [np.ones(ws, np.uint32)],
            ArgKind.POS_FIXED_PT: [(xs.astype(np.uint32) | ys.astype(np.uint32) << 16)],
        }
        for k, mode in _BARY.items():
            i, j = f32[mode]
            vg[k] = [i.astype(np.float32), j.astype(np.float32)]
        sg = {ArgKind.PRIM_MASK: mask >> 1 << 16, ArgKind.KERNARG_SEGMENT_PTR: self.table}

        def setup(w: Wave) -> None:
            for a in fs.args.of_file(RegFile.SGPR):
                val = sg.get(a.kind, 0)
                for k in range(a.size):
                    w.s[a.reg + k] = val >> (32 * k) & 0xFFFFFFFF
            for a in fs.args.of_file(RegFile.VGPR):
                for k, row in enumerate(vg.get(a.kind, ())):
                    w.v[a.reg + k] = row.view(np.uint32)
            w.exec = Wave.bools_to_mask(lane)
        w = self.runner.run(setup, lds.reshape(-1).view(np.uint8) if lds.size else None)
        done = [e for e in w.exports if e.done]
        n4 = 4 * nq
        if not done:
            self.runner.report(w, "export", "the pixel wave ended without an export with "
                               "done (STATUS.MUST_EXPORT: the hardware would hang)")
        else:
            alive[sel] = done[-1].lanes[:n4].reshape(nq, 4)
        for e in w.exports:
            if e.target < 8 and e.target < len(colors) and colors[e.target] is not None:
                fmt = ExportFormat(px.col_format >> (4 * e.target) & 0xF)
                vals = decode_export(fmt, e.data[:, :n4].T, self.kind)
                c = colors[e.target]
                assert c is not None
                c[sel] = vals.reshape(nq, 4, 4)
            elif e.target == TARGET_MRTZ and z is not None:
                z[sel] = e.data[0, :n4].copy().view(np.float32).reshape(nq, 4)
