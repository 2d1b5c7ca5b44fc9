"""Instruction selection: the mid-level IR (after divergence analysis) to the
ACO-style machine IR (ACO's README.md "Instruction Selection").

    from radcc.isel import select_program
    res = select_program(shader, target, wave_size=32)   # target: radcc.target.Target
    res.program, res.args          # machine IR Program, its ShaderArgs (docs/abi.md)
"""

from .context import IselError, UnsupportedError
from .select import IselResult, select_program

__all__ = ["IselError", "IselResult", "UnsupportedError", "select_program"]
