"""The emulator runs a code object for its own chip's `Target` (the ELF e_flags machine),
not an assumed gfx1100; chips of other generations are refused by name."""

from __future__ import annotations

import pytest

from radcc.emu.errors import EmuError
from radcc.emu.loader import emulated_target


def test_target_is_the_objects_chip():
    assert emulated_target("gfx1102").name == "gfx1102"
    assert emulated_target("gfx1100").name == "gfx1100"


@pytest.mark.parametrize("chip", ["gfx1030", "gfx1010", "gfx90a", "unknown-mach-0x00"])
def test_other_chips_are_refused_by_name(chip: str):
    with pytest.raises(EmuError, match=f"code object for {chip}: the emulator runs GFX11"):
        emulated_target(chip)
