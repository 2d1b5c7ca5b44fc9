"""A small MessagePack encoder/decoder for the AMDGPU metadata note.

Python values map as: dict <-> map, list/tuple <-> array, str <-> str,
bytes <-> bin, bool <-> bool, int <-> (u)int, float <-> float64, None <-> nil.
The encoder picks the smallest encoding like LLVM's `msgpack::Writer`
(fixint/uint8/16/32/64, fixstr/str8/16/32, fixarray/array16/32, fixmap/map16/32),
so a note decoded and re-encoded gives back LLVM's bytes when key order is kept.
Malformed input raises `CodeObjectError`, never anything else.
"""

from __future__ import annotations

import struct
from typing import Any

from radcc.codeobj.errors import CodeObjectError

__all__ = ["pack", "unpack", "MAX_DEPTH"]

MAX_DEPTH = 64  # nesting limit when decoding (guards against hostile input)


def pack(obj: Any, *, sort_keys: bool = False) -> bytes:
    """Encode `obj`; with `sort_keys`, string map keys are written sorted (LLVM's order)."""
    out = bytearray()
    _pack(obj, out, sort_keys, 0)
    return bytes(out)


def _pack_uint(n: int, out: bytearray) -> None:
    if n < 0x80:
        out.append(n)
    elif n <= 0xFF:
        out += b"\xcc" + struct.pack("<B", n)
    elif n <= 0xFFFF:
        out += b"\xcd" + struct.pack(">H", n)
    elif n <= 0xFFFFFFFF:
        out += b"\xce" + struct.pack(">I", n)
    elif n <= 0xFFFFFFFFFFFFFFFF:
        out += b"\xcf" + struct.pack(">Q", n)
    else:
        raise CodeObjectError(f"integer {n} does not fit in 64 bits")


def _pack_int(n: int, out: bytearray) -> None:
    if n >= 0:
        _pack_uint(n, out)
    elif n >= -32:
        out += struct.pack("b", n)
    elif n >= -0x80:
        out += b"\xd0" + struct.pack(">b", n)
    elif n >= -0x8000:
        out += b"\xd1" + struct.pack(">h", n)
    elif n >= -0x80000000:
        out += b"\xd2" + struct.pack(">i", n)
    elif n >= -0x8000000000000000:
        out += b"\xd3" + struct.pack(">q", n)
    else:
        raise CodeObjectError(f"integer {n} does not fit in 64 bits")


def _pack_len(n: int, fix_base: int, fix_max: int, codes: tuple[int, int, int],
              out: bytearray) -> None:
    """Write a length header: fix form, else 8/16/32-bit forms (codes[0] may be 0 = none)."""
    if n <= fix_max:
        out.append(fix_base | n)
    elif codes[0] and n <= 0xFF:
        out += bytes([codes[0], n])
    elif n <= 0xFFFF:
        out += bytes([codes[1]]) + struct.pack(">H", n)
    elif n <= 0xFFFFFFFF:
        out += bytes([codes[2]]) + struct.pack(">I", n)
    else:
        raise CodeObjectError("msgpack object too large")


def _pack(obj: Any, out: bytearray, sort_keys: bool, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise CodeObjectError("msgpack nesting too deep")
    if obj is None:
        out.append(0xC0)
    elif obj is True:
        out.append(0xC3)
    elif obj is False:
        out.append(0xC2)
    elif isinstance(obj, int):
        _pack_int(int(obj), out)
    elif isinstance(obj, float):
        out += b"\xcb" + struct.pack(">d", obj)
    elif isinstance(obj, str):
        data = obj.encode("utf-8")
        _pack_len(len(data), 0xA0, 31, (0xD9, 0xDA, 0xDB), out)
        out += data
    elif isinstance(obj, bytes | bytearray | memoryview):
        data = bytes(obj)
        if len(data) <= 0xFF:
            out += bytes([0xC4, len(data)])
        else:
            _pack_len(len(data), 0, -1, (0, 0xC5, 0xC6), out)
        out += data
    elif isinstance(obj, list | tuple):
        _pack_len(len(obj), 0x90, 15, (0, 0xDC, 0xDD), out)
        for item in obj:
            _pack(item, out, sort_keys, depth + 1)
    elif isinstance(obj, dict):
        _pack_len(len(obj), 0x80, 15, (0, 0xDE, 0xDF), out)
        items = list(obj.items())
        if sort_keys:
            items.sort(key=lambda kv: _sort_key(kv[0]))
        for k, v in items:
            _pack(k, out, sort_keys, depth + 1)
            _pack(v, out, sort_keys, depth + 1)
    else:
        raise CodeObjectError(f"cannot encode {type(obj).__name__} as msgpack")


def _sort_key(key: Any) -> tuple[int, Any]:
    if isinstance(key, str):
        return (1, key.encode("utf-8"))
    if isinstance(key, bool):
        return (0, int(key))
    if isinstance(key, int):
        return (0, key)
    return (2, repr(key))


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, n: int) -> bytes:
        end = self.pos + n
        if end > len(self.data):
            raise CodeObjectError("truncated msgpack data")
        chunk = self.data[self.pos:end]
        self.pos = end
        return chunk

    def fmt(self, f: str) -> Any:
        return struct.unpack(f, self.take(struct.calcsize(f)))[0]


def unpack(data: bytes, *, allow_trailing: bool = False) -> Any:
    """Decode one msgpack object; raises CodeObjectError on malformed data."""
    r = _Reader(bytes(data))
    obj = _unpack(r, 0)
    if not allow_trailing and r.pos != len(r.data):
        raise CodeObjectError(f"{len(r.data) - r.pos} trailing bytes after msgpack object")
    return obj


_FIXED = {
    0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q",
    0xD0: ">b", 0xD1: ">h", 0xD2: ">i", 0xD3: ">q",
    0xCA: ">f", 0xCB: ">d",
}
_STR_LEN = {0xD9: ">B", 0xDA: ">H", 0xDB: ">I"}
_BIN_LEN = {0xC4: ">B", 0xC5: ">H", 0xC6: ">I"}
_ARR_LEN = {0xDC: ">H", 0xDD: ">I"}
_MAP_LEN = {0xDE: ">H", 0xDF: ">I"}


def _decode_str(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CodeObjectError("msgpack string is not valid UTF-8") from None


def _unpack(r: _Reader, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise CodeObjectError("msgpack nesting too deep")
    b = r.take(1)[0]
    if b <= 0x7F:
        return b
    if b >= 0xE0:
        return b - 0x100
    if 0xA0 <= b <= 0xBF:
        return _decode_str(r.take(b & 0x1F))
    if 0x90 <= b <= 0x9F:
        return [_unpack(r, depth + 1) for _ in range(b & 0x0F)]
    if 0x80 <= b <= 0x8F:
        return _unpack_map(r, b & 0x0F, depth)
    if b == 0xC0:
        return None
    if b == 0xC2:
        return False
    if b == 0xC3:
        return True
    if b in _FIXED:
        return r.fmt(_FIXED[b])
    if b in _STR_LEN:
        return _decode_str(r.take(r.fmt(_STR_LEN[b])))
    if b in _BIN_LEN:
        return r.take(r.fmt(_BIN_LEN[b]))
    if b in _ARR_LEN:
        n = r.fmt(_ARR_LEN[b])
        _check_count(r, n)
        return [_unpack(r, depth + 1) for _ in range(n)]
    if b in _MAP_LEN:
        n = r.fmt(_MAP_LEN[b])
        _check_count(r, 2 * n)
        return _unpack_map(r, n, depth)
    raise CodeObjectError(f"unsupported msgpack type byte 0x{b:02x}")


def _check_count(r: _Reader, n: int) -> None:
    # every element takes at least one byte: reject absurd counts before looping
    if n > len(r.data) - r.pos:
        raise CodeObjectError("truncated msgpack data")


def _unpack_map(r: _Reader, n: int, depth: int) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    for _ in range(n):
        key = _unpack(r, depth + 1)
        if isinstance(key, dict | list):
            raise CodeObjectError("msgpack map key is not a scalar")
        if isinstance(key, float) and key != key:
            raise CodeObjectError("msgpack map key is NaN")
        out[key] = _unpack(r, depth + 1)
    return out
