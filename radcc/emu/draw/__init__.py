"""The emulator's graphics pipeline: one draw call, as `radcc draw` runs it (docs/draw.md).

- `state`: the fixed-function state (framebuffer, topology, formats, depth, blend, cull);
- `assembly`: primitives from the vertex sequence in Vulkan's order;
- `clip`: clipping, perspective divide, viewport, sub-pixel snapping;
- `raster`: coverage by the top-left rule in 2x2 quads, barycentrics, facing;
- `output`: export formats, format conversion, blending, depth;
- `pipeline`: the fixed function end to end with the pixel shader as a callback.
"""
