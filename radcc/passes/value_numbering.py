"""The value numbering phase (ACO's README.md "Value Numbering").

`value_numbering(program)`: dominator-tree value numbering of side-effect-free
instructions, keyed on the EXEC context for lane-dependent results and on the
memory generation for loads. The guarantees are listed in `radcc.passes.vn_impl`
(the implementation); the pipeline runs it after `dominance` unless ``novn``.
"""

from __future__ import annotations

from radcc.passes.vn_impl import value_numbering

__all__ = ["value_numbering"]
