"""The output merger: colour attachments (clear, export formats, conversion, blending,
write masks) and the depth attachment (test LESS, write), per the interface's state.

A pixel shader exports four dwords per colour target in the export format the driver
programmed for it (AMD's SPI_SHADER_COL_FORMAT: `radcc.abi.graphics.ExportFormat`); `decode_export` turns
them into channel values, `Framebuffer.merge` converts them to the attachment's format
and writes them in lane order (a pixel covered twice in one batch is written twice, in
order):

- unorm8: ``round(clamp(x, 0, 1) * 255)``, the product in float32 rounded to nearest
  even (NaN as 0);
- float16: round to nearest even from the value (exact from an FP16 export);
- float32 and 32-bit integers: the exported bits;
- blending (``--blend alpha``, attachment 0 only): ``src * src.a + dst * (1 - src.a)``
  on every channel, in float for float formats, in 8-bit fixed point for unorm8 as
  lavapipe does (`_blend_unorm8`; within 1 of the float equation);
- a channel outside the attachment's write mask (the shader's output has fewer
  components) keeps its value.

Depth: D32_SFLOAT cleared to 1.0; a fragment passes when its depth (float32) is less
than the stored value, and then writes it; a failing fragment writes no colour.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from radcc.abi.graphics import ExportFormat
from radcc.emu.draw.state import ColorFormat, DrawState, Kind

__all__ = ["Framebuffer", "decode_export"]


def decode_export(fmt: ExportFormat, data: np.ndarray, kind: Kind) -> np.ndarray:
    """The channel values of exported dwords `data` (n, 4) uint32: float64 (n, 4) for a
    float/unorm attachment `kind`, int64 for an integer one (channels the format does not
    carry read 0, alpha 1)."""
    n = data.shape[0]
    d = data.astype(np.uint32)
    integer = not kind.is_float
    out = np.zeros((n, 4), np.int64 if integer else np.float64)
    if not integer:
        out[:, 3] = 1.0
    else:
        out[:, 3] = 1

    def raw32(col: np.ndarray) -> np.ndarray:
        if kind is Kind.UINT:
            return col.astype(np.int64)
        if kind is Kind.SINT:
            return col.view(np.int32).astype(np.int64)
        return col.view(np.float32).astype(np.float64)

    if fmt is ExportFormat.ZERO:
        out[:] = 0
    elif fmt in (ExportFormat.R32, ExportFormat.GR32, ExportFormat.AR32,
                 ExportFormat.ABGR32):
        chans = {ExportFormat.R32: (0,), ExportFormat.GR32: (0, 1),
                 ExportFormat.AR32: (0, 3), ExportFormat.ABGR32: (0, 1, 2, 3)}[fmt]
        for k, c in enumerate(chans):
            out[:, c] = raw32(np.ascontiguousarray(d[:, k]))
    else:
        halves = np.stack([d[:, 0] & 0xFFFF, d[:, 0] >> 16, d[:, 1] & 0xFFFF, d[:, 1] >> 16],
                          axis=1).astype(np.uint16)
        if fmt is ExportFormat.FP16_ABGR:
            out[:] = halves.view(np.float16).astype(np.float64)
        elif fmt is ExportFormat.UNORM16_ABGR:
            out[:] = halves / 65535.0
        elif fmt is ExportFormat.SNORM16_ABGR:
            out[:] = np.maximum(halves.view(np.int16) / 32767.0, -1.0)
        elif fmt is ExportFormat.UINT16_ABGR:
            out[:] = halves.astype(np.int64)
        else:
            out[:] = halves.view(np.int16).astype(np.int64)
    return out


def _unorm8(v: np.ndarray) -> np.ndarray:
    """``round(clamp(x, 0, 1) * 255)``: the product in float32, rounded to nearest even
    (as lavapipe converts: a clear of 0.3 is 76, float32(0.3) * 255 being 76.5)."""
    v = np.clip(np.nan_to_num(v, nan=0.0), 0.0, 1.0).astype(np.float32)
    return np.rint(v * np.float32(255.0)).astype(np.uint8)


def _mul_norm(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a * b / 255`` of two unorm8 values, rounded (t + 128 + (t + 128) / 256) / 256."""
    t = a * b + 128
    return (t + (t >> 8)) >> 8


def _blend_unorm8(src: np.ndarray, alpha: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Alpha blending of unorm8 channels in 8-bit fixed point, as lavapipe blends
    (the interface: src (1, 0.5, 0, 0.25) over dst (0, 0, 1, 1) gives (64, 32, 191, 207)):
    the source and its alpha converted to unorm8 first, then
    ``src * a / 255 + dst * (255 - a) / 255``, each product rounded, saturated."""
    s = src.astype(np.int64)[:, :dst.shape[1]]
    a = alpha.astype(np.int64)
    return np.minimum(_mul_norm(s, a) + _mul_norm(dst, 255 - a), 255).astype(np.uint8)


def _to_format(fmt: ColorFormat, v: np.ndarray) -> np.ndarray:
    """Channel values (n, 4) in the attachment's dtype, its channels only."""
    v = v[:, :fmt.channels]
    if fmt.kind is Kind.UNORM:
        return _unorm8(v)
    if fmt.kind is Kind.FLOAT:
        return v.astype(fmt.dtype)
    if fmt.kind is Kind.UINT:
        return (v & 0xFFFFFFFF).astype(np.uint32)
    return (((v + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)).astype(np.int32)


def clear_value(fmt: ColorFormat, clear: tuple[float, float, float, float]) -> np.ndarray:
    """The clear colour in the attachment's dtype: unorm as ``round(clamp(x,0,1)*255)``."""
    if fmt.kind.is_float:
        return _to_format(fmt, np.array([clear], np.float64))[0]
    return _to_format(fmt, np.array([[int(c) for c in clear]], np.int64))[0]


@dataclass
class Target:
    """One colour attachment's data and the channels the shader writes."""

    fmt: ColorFormat
    data: np.ndarray  # (H, W, C)
    mask: tuple[bool, ...]  # per channel of the attachment


class Framebuffer:
    """The attachments of a draw."""

    def __init__(self, state: DrawState, masks: list[tuple[bool, ...] | None]) -> None:
        """`masks[loc]`: the channels location `loc`'s output writes (None: no output
        there, the attachment keeps its clear colour)."""
        self.state = state
        h, w, fmt = state.height, state.width, state.color
        clear = clear_value(fmt, state.clear)
        self.targets = [Target(fmt, np.broadcast_to(clear, (h, w, fmt.channels)).copy(),
                               tuple((m or ())[:fmt.channels]) + (False,) * (
                                   fmt.channels - len((m or ())[:fmt.channels])))
                        for m in masks]
        self.depth = np.ones((h, w), np.float32) if state.depth else None

    def merge(self, x: np.ndarray, y: np.ndarray, z: np.ndarray | None,
              colors: list[np.ndarray | None]) -> int:
        """Write fragments at (x, y) (n,) in order: `z` (n,) their depth (for the test),
        `colors[loc]` (n, 4) channel values of `decode_export` (None: not exported).
        Returns how many fragments passed the depth test."""
        n = len(x)
        if n == 0:
            return 0
        key = y.astype(np.int64) * self.state.width + x
        # rank of each fragment among earlier ones at the same pixel: ranks are written in
        # increasing order, so a pixel's fragments land in lane order
        order = np.argsort(key, kind="stable")
        sk = key[order]
        start = np.r_[0, np.flatnonzero(sk[1:] != sk[:-1]) + 1]
        run = np.repeat(start, np.diff(np.r_[start, n]))
        rank = np.empty(n, np.int64)
        rank[order] = np.arange(n) - run
        passed = 0
        for r in range(int(rank.max()) + 1):
            sel = np.flatnonzero(rank == r)
            passed += self._merge_unique(x[sel], y[sel], None if z is None else z[sel],
                                         [None if c is None else c[sel] for c in colors])
        return passed

    def _merge_unique(self, x: np.ndarray, y: np.ndarray, z: np.ndarray | None,
                      colors: list[np.ndarray | None]) -> int:
        ok = np.ones(len(x), bool)
        if self.depth is not None and z is not None:
            zz = z.astype(np.float32)
            ok = zz < self.depth[y, x]
            self.depth[y[ok], x[ok]] = zz[ok]
        x, y = x[ok], y[ok]
        for loc, (t, c) in enumerate(zip(self.targets, colors, strict=False)):
            if c is None or not any(t.mask):
                continue
            c = c[ok]
            if loc == 0 and self.state.blend and t.fmt.kind is Kind.UNORM:
                vals = _blend_unorm8(_unorm8(c), _unorm8(c[:, 3:4]),
                                     t.data[y, x].astype(np.int64))
            elif loc == 0 and self.state.blend:
                dst = t.data[y, x].astype(np.float64)
                src = c[:, :t.fmt.channels]
                a = c[:, 3:4]
                vals = _to_format(t.fmt, np.concatenate([src * a + dst * (1.0 - a),
                                                         c[:, t.fmt.channels:]], axis=1))
            else:
                vals = _to_format(t.fmt, c)
            for ch, on in enumerate(t.mask):
                if on:
                    t.data[y, x, ch] = vals[:, ch]
        return int(ok.sum())
