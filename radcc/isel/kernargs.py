"""The kernarg segment of a compiled compute shader (part of radcc's API, docs/abi.md).

Layout, in this order, each entry at the next offset aligned to its size:

1. one 8-byte ``global_buffer`` pointer per descriptor binding the shader uses, in
   (set, binding) order, named ``set{S}_binding{B}``;
2. one 4-byte ``by_value`` uint per binding: the buffer's size in bytes, named
   ``set{S}_binding{B}_size`` (read by ``.length()`` of a runtime array);
3. the push-constant block, when the shader has one: ``by_value`` named
   ``push_constants`` of the block's size rounded up to 4 bytes (4-byte aligned);
4. three hidden arguments ``hidden_block_count_x/y/z`` (4 bytes each: the number of
   workgroups, gl_NumWorkGroups), as code object v5 names them.

The metadata note's ``.args`` lists all of them (`ArgLayout.metadata`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Key = tuple[int, int]


@dataclass
class ArgLayout:
    """Offsets of everything the kernel reads from its kernarg segment."""

    pointers: dict[Key, int] = field(default_factory=dict)
    sizes: dict[Key, int] = field(default_factory=dict)
    push_offset: int | None = None
    push_size: int = 0
    block_count: int = 0  # offset of hidden_block_count_x (y, z follow)
    size: int = 0
    args: list[dict[str, Any]] = field(default_factory=list)

    @staticmethod
    def name(key: Key) -> str:
        return f"set{key[0]}_binding{key[1]}"

    def metadata(self) -> list[dict[str, Any]]:
        return [dict(a) for a in self.args]


def layout(bindings: list[Key], push_size: int) -> ArgLayout:
    """The kernarg layout of a shader with these bindings and push-constant bytes."""
    lay = ArgLayout()
    off = 0

    def put(name: str, size: int, align: int, **kind: Any) -> int:
        nonlocal off
        off = (off + align - 1) // align * align
        lay.args.append({".name": name, ".offset": off, ".size": size, **kind})
        at = off
        off += size
        return at

    for key in sorted(bindings):
        lay.pointers[key] = put(ArgLayout.name(key), 8, 8, **{
            ".value_kind": "global_buffer", ".address_space": "global"})
    for key in sorted(bindings):
        lay.sizes[key] = put(ArgLayout.name(key) + "_size", 4, 4, **{
            ".value_kind": "by_value", ".type_name": "uint"})
    if push_size:
        lay.push_size = (push_size + 3) // 4 * 4
        lay.push_offset = put("push_constants", lay.push_size, 4, **{
            ".value_kind": "by_value", ".type_name": "struct"})
    lay.block_count = put("", 4, 4, **{".value_kind": "hidden_block_count_x"})
    put("", 4, 4, **{".value_kind": "hidden_block_count_y"})
    put("", 4, 4, **{".value_kind": "hidden_block_count_z"})
    lay.size = (off + 7) // 8 * 8
    return lay
