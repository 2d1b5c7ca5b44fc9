"""Program.config is a typed ShaderConfig: a misspelt field fails, it is not read as 0."""

import pytest

from radcc.abi.kernarg import KernargLayout, ValueKind
from radcc.ir.parser import parse_program
from radcc.ir.program import Program
from radcc.ir.shader_config import ShaderConfig
from radcc.passes.kernel_abi import kernel_fields, program_args
from radcc.target import get_target


def test_misspelt_field_is_an_error():
    c = ShaderConfig()
    with pytest.raises(AttributeError):
        _ = c.scratch_size  # type: ignore[attr-defined]  # the old dict key
    with pytest.raises(AttributeError):
        c.spills_vgpr = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        _ = Program(get_target("gfx1100")).config["lds_size"]  # type: ignore[index]


def test_defaults_are_nothing_used():
    c = Program(get_target("gfx1100")).config
    assert c.num_sgprs is None and c.num_vgprs is None
    assert (c.scratch_bytes_per_lane, c.lds_size) == (0, 0)
    assert not c.fp_contract
    assert (c.spilled_sgprs, c.spilled_vgprs, c.spilled_phis, c.rematerialized) == (0, 0, 0, 0)


def test_kernel_descriptor_reads_the_config():
    p = parse_program("program gfx1100 wave32 compute\nBB0\n  s_endpgm\n")
    p.config.lds_size = 1024
    p.config.scratch_bytes_per_lane = 16
    layout = KernargLayout()
    layout.add("ptr", 8, ValueKind.GLOBAL_BUFFER)
    layout.add("n", 4, ValueKind.BY_VALUE)  # ends at 12: the segment is 16 (8-byte multiple)
    p.args = program_args(p).with_kernargs(layout)
    f = kernel_fields(p, 8, 4, False)
    assert f["group_segment_fixed_size"] == 1024
    assert f["private_segment_fixed_size"] == 16 and f["enable_private_segment"] == 1
    assert f["kernarg_size"] == 16
