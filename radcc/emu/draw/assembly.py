"""Primitive assembly: which vertices of a draw make each primitive, in Vulkan's order
(the Vulkan specification, "Primitive Topologies"), primitive restart off.

`assemble(topology, count)` returns an int64 array ``(P, n)`` of positions in the draw's
vertex sequence (0..count-1; indices into the index buffer for an indexed draw), `n` the
topology's vertices per primitive, the provoking vertex first
(VK_PROVOKING_VERTEX_MODE_FIRST_VERTEX): triangle strip i is (i, i+1+i%2, i+2-i%2),
triangle fan i is (i+1, i+2, 0), line strip i is (i, i+1). Incomplete primitives at the
end are dropped.
"""

from __future__ import annotations

import numpy as np

from radcc.emu.draw.state import Topology

__all__ = ["assemble"]


def assemble(topology: Topology, count: int) -> np.ndarray:
    i: np.ndarray
    if topology is Topology.TRIANGLE_LIST:
        return np.arange(count // 3 * 3, dtype=np.int64).reshape(-1, 3)
    if topology is Topology.TRIANGLE_STRIP:
        i = np.arange(max(count - 2, 0), dtype=np.int64)
        return np.stack([i, i + 1 + i % 2, i + 2 - i % 2], axis=1)
    if topology is Topology.TRIANGLE_FAN:
        i = np.arange(max(count - 2, 0), dtype=np.int64)
        return np.stack([i + 1, i + 2, np.zeros_like(i)], axis=1)
    if topology is Topology.LINE_LIST:
        return np.arange(count // 2 * 2, dtype=np.int64).reshape(-1, 2)
    if topology is Topology.LINE_STRIP:
        i = np.arange(max(count - 1, 0), dtype=np.int64)
        return np.stack([i, i + 1], axis=1)
    return np.arange(count, dtype=np.int64).reshape(-1, 1)
