"""The graphics code object (radcc.codeobj.graphics): writer and reader are inverses,
llvm-readelf-19 reads the ELF and its metadata note, llvm-objdump-19 disassembles .text."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from radcc.abi.args import ArgKind
from radcc.abi.graphics import fragment_args, vertex_args
from radcc.abi.kernarg import shader_layout
from radcc.codeobj.errors import CodeObjectError
from radcc.codeobj.graphics import (
    ComponentType,
    GraphicsShader,
    PixelInput,
    PixelOutput,
    PixelStage,
    VertexInput,
    VertexOutput,
    VertexStage,
    is_graphics_object,
    read_graphics_object,
    write_graphics_object,
)
from radcc.target import get_target

# s_mov_b32 s0, 1 ; s_endpgm (bytes from llvm-mc-19 -mcpu=gfx1100 --show-encoding)
CODE = bytes.fromhex("810080be") + bytes.fromhex("0000b0bf")


def _vertex() -> GraphicsShader:
    t = get_target("gfx1100")
    res = shader_layout([(0, 0)], 16)
    return GraphicsShader(
        stage=vertex_args(t).stage, target="gfx1100", wave_size=64, code=CODE,
        args=vertex_args(t, res), sgprs=24, vgprs=16,
        vertex=VertexStage(
            inputs=(VertexInput(0, 3, ComponentType.FLOAT), VertexInput(2, 1, ComponentType.UINT)),
            outputs=(VertexOutput(0, 4, ComponentType.FLOAT, 0),
                     VertexOutput(3, 2, ComponentType.SINT, 1)),
            pos_exports=2, writes_point_size=True, clip_distances=2, max_vertices=128,
            max_primitives=128))


def _pixel() -> GraphicsShader:
    t = get_target("gfx1100")
    args = fragment_args(t, [ArgKind.PERSP_CENTER, ArgKind.FRAG_POS_X])
    return GraphicsShader(
        stage=args.stage, target="gfx1100", wave_size=32, code=CODE, args=args,
        sgprs=8, vgprs=8,
        pixel=PixelStage(spi_ps_input_ena=0x102, spi_ps_input_addr=0x102,
                         inputs=(PixelInput(0, 4, ComponentType.FLOAT, 0),
                                 PixelInput(1, 1, ComponentType.UINT, 1, flat=True)),
                         outputs=(PixelOutput(0, 4, ComponentType.FLOAT),), col_format=4))


@pytest.mark.parametrize("make", [_vertex, _pixel])
def test_round_trip(make) -> None:
    sh = make()
    data = write_graphics_object(sh)
    assert is_graphics_object(data)
    back = read_graphics_object(data)
    assert back == sh
    assert write_graphics_object(back) == data


def test_entry_symbols() -> None:
    assert _vertex().entry_symbol == "_amdgpu_gs_main"
    assert _pixel().entry_symbol == "_amdgpu_ps_main"
    assert _vertex().vertex.param_exports == 2


def test_reader_rejects() -> None:
    data = bytearray(write_graphics_object(_vertex()))
    with pytest.raises(CodeObjectError):
        read_graphics_object(bytes(data[:100]))
    data[7] = 64  # the AMDHSA OS ABI: not a graphics object
    with pytest.raises(CodeObjectError, match="not a graphics code object"):
        read_graphics_object(bytes(data))


def test_missing_keys_take_defaults() -> None:
    """Fields added later read as their defaults from older objects."""
    from radcc.codeobj import graphics as g

    sh = _vertex()
    meta = g.to_metadata(sh)
    del meta[g.METADATA_KEY][".vertex"][".cull_distances"]
    meta[g.METADATA_KEY][".vertex"][".future_field"] = 1
    assert g.from_metadata(meta, CODE) == sh


@pytest.mark.skipif(shutil.which("llvm-readelf-19") is None, reason="llvm-readelf-19 missing")
def test_llvm_readelf_and_objdump(tmp_path) -> None:
    path = tmp_path / "vs.o"
    path.write_bytes(write_graphics_object(_vertex()))
    out = subprocess.run(["llvm-readelf-19", "-h", "-s", "--notes", str(path)],
                         capture_output=True, text=True, check=True).stdout
    assert "OS/ABI:                            AMDGPU - PAL" in out
    assert "Flags:                             0x41, gfx1100" in out
    assert "_amdgpu_gs_main" in out
    assert "radcc.graphics:" in out and ".stage:" in out and "vertex_ngg" in out
    dis = subprocess.run(["llvm-objdump-19", "-d", str(path)], capture_output=True,
                         text=True, check=True).stdout
    assert "s_mov_b32 s0, 1" in dis and "s_endpgm" in dis
