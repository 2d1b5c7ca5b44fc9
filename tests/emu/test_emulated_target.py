"""The emulator runs a code object for its own chip's `Target` (the ELF e_flags machine),
not an assumed gfx1100: GFX11, GFX10.3 and GFX10.1 chips; chips of other generations
are refused by name."""

from __future__ import annotations

import pytest

from radcc.emu.errors import EmuError
from radcc.emu.loader import emulated_target
from radcc.target import GfxLevel


@pytest.mark.parametrize("chip, level", [("gfx1100", GfxLevel.GFX11),
                                         ("gfx1102", GfxLevel.GFX11),
                                         ("gfx1030", GfxLevel.GFX10_3),
                                         ("gfx1032", GfxLevel.GFX10_3),
                                         ("gfx1033", GfxLevel.GFX10_3),
                                         ("gfx1036", GfxLevel.GFX10_3),
                                         ("gfx1013", GfxLevel.GFX10),
                                         ("gfx1010", GfxLevel.GFX10),
                                         ("gfx1012", GfxLevel.GFX10)])
def test_target_is_the_objects_chip(chip: str, level: GfxLevel):
    t = emulated_target(chip)
    assert t.name == chip and t.gfx_level == level


@pytest.mark.parametrize("chip", ["gfx90a", "gfx906", "gfx1200", "unknown-mach-0x00"])
def test_other_chips_are_refused_by_name(chip: str):
    with pytest.raises(EmuError, match=f"code object for {chip}: the emulator does not run its code"):
        emulated_target(chip)
