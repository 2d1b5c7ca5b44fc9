"""The kernarg segment of a compiled compute shader (part of radcc's API, docs/abi.md).

The layout is `radcc.abi.kernarg.shader_layout` (buffer addresses, buffer sizes, push
constants, hidden block counts); `ArgLayout` is isel's view of it (offsets by binding).
The metadata note's ``.args`` lists all of them (`ArgLayout.metadata`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from radcc.abi.kernarg import KernargLayout, Role, binding_name, shader_layout

Key = tuple[int, int]


@dataclass
class ArgLayout:
    """Offsets of everything the kernel reads from its kernarg segment."""

    kernargs: KernargLayout = field(default_factory=KernargLayout)

    @staticmethod
    def name(key: Key) -> str:
        return binding_name(key)

    @property
    def pointers(self) -> dict[Key, int]:
        return {e.key: e.offset for e in self.kernargs.entries
                if e.role is Role.BUFFER_ADDRESS and e.key is not None}

    @property
    def sizes(self) -> dict[Key, int]:
        return {e.key: e.offset for e in self.kernargs.entries
                if e.role is Role.BUFFER_SIZE and e.key is not None}

    @property
    def push_offset(self) -> int | None:
        e = self.kernargs.find(Role.PUSH_CONSTANTS)
        return None if e is None else e.offset

    @property
    def push_size(self) -> int:
        e = self.kernargs.find(Role.PUSH_CONSTANTS)
        return 0 if e is None else e.size

    @property
    def block_count(self) -> int:
        """Offset of hidden_block_count_x (y, z follow)."""
        return next(e.offset for e in self.kernargs.entries if e.role is Role.HIDDEN)

    @property
    def size(self) -> int:
        return self.kernargs.size

    def metadata(self) -> list[dict[str, Any]]:
        return self.kernargs.metadata()


def layout(bindings: list[Key], push_size: int) -> ArgLayout:
    """The kernarg layout of a shader with these bindings and push-constant bytes."""
    return ArgLayout(shader_layout(bindings, push_size))
