"""How a dword-sized LDS access is split into DS instructions (ACO's LDS
load/store selection, written from its rules and the RDNA3 ISA guide).

`ds_plan(dwords, align, offset)` returns the pieces of an access of `dwords`
dwords whose byte address ``base + offset`` is known to be a multiple of
`align` (a power of two). Each piece is ``(form, first dword, dwords,
fields)``. The guarantee: every piece is legal with LDS in the DWORD alignment
mode (ISA guide 12.7 "Alignment and Errors": "automatic alignment to multiple
of element size", i.e. a misaligned address would be silently rounded down):

- ``b128`` (4 dwords) and ``b96`` (3 dwords) only at a 16-byte aligned address
  (ACO asks 16 for both);
- ``b64`` at an 8-byte aligned address;
- ``2addr_b64`` (two 8-byte elements, 4 dwords) at an 8-byte aligned address
  when ``offset`` is a multiple of 8 and both 8-bit element offsets
  (``offset0``, ``offset1 = offset0 + 1``, in units of 8 bytes, ISA guide
  16.12 DS_STORE_2ADDR_B64) fit; ``2addr_b32`` (two dwords) likewise with
  4-byte elements;
- ``b32`` otherwise (every LDS address of a dword access is 4-aligned in radcc).

Preference, as ACO: b128, 2addr_b64, b96, b64, 2addr_b32, b32 (the largest
piece the alignment allows). A single-address piece keeps its byte offset in
``fields['offset']`` (16 bits, the caller keeps ``offset`` in 0..65535).
"""

from __future__ import annotations

DsPiece = tuple[str, int, int, dict[str, int]]


def _pow2_of(x: int) -> int:
    return x & -x if x else 1 << 30


def ds_plan(dwords: int, align: int, offset: int) -> list[DsPiece]:
    """The DS pieces of an access (module docstring)."""
    out: list[DsPiece] = []
    i = 0
    while i < dwords:
        left = dwords - i
        k = offset + 4 * i
        al = align if i == 0 else min(align, _pow2_of(4 * i))
        if left >= 4 and al >= 16:
            out.append(("b128", i, 4, {"offset": k}))
            i += 4
        elif left >= 4 and al >= 8 and k % 8 == 0 and k // 8 + 1 <= 255:
            out.append(("2addr_b64", i, 4, {"offset0": k // 8, "offset1": k // 8 + 1}))
            i += 4
        elif left >= 3 and al >= 16:
            out.append(("b96", i, 3, {"offset": k}))
            i += 3
        elif left >= 2 and al >= 8:
            out.append(("b64", i, 2, {"offset": k}))
            i += 2
        elif left >= 2 and k % 4 == 0 and k // 4 + 1 <= 255:
            out.append(("2addr_b32", i, 2, {"offset0": k // 4, "offset1": k // 4 + 1}))
            i += 2
        else:
            out.append(("b32", i, 1, {"offset": k}))
            i += 1
    return out
