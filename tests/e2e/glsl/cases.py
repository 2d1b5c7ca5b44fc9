"""The GLSL compute-shader suite: every case, by category.

Each module holds the cases of one category; a case names its shader
(tests/e2e/glsl/NAME.comp), its dispatch, buffers (seeded random inputs), push
constants, specialization constants and NumPy reference (see
tests/e2e/glsl_harness.py).

lavapipe quirks the suite avoids (docs/oracle-lavapipe.md, TOOL-NOTES.md):

- signed `%` with a negative operand is undefined in GLSL (lavapipe: -10 % 7 = -3):
  only non-negative operands;
- packHalf2x16 rounds to nearest even on lavapipe, toward zero on AMD: only
  values exactly representable in half precision are packed;
- `a*b+c` may be contracted into an fma: such results get a tolerance of an ulp
  of a*b, and no comparison sits on a rounding boundary;
- an invocation's loops stop after 65,535 iterations in total: every loop here is
  far below that;
- glslang 12 converts inexact float16_t literals by truncation (float16_t(0.004) is
  0x1c18, not the nearest 0x1c19): f16 literals here are exact;
- radcc.oracle.lavapipe rounds buffer sizes up to 16 bytes and binds VK_WHOLE_SIZE,
  so .length() counts that padding: buffers whose runtime arrays are measured are
  sized in multiples of 16 bytes;
- clustered subgroup operations are not supported by lavapipe (not advertised):
  it computes whole-subgroup results whatever the cluster size. The clustered
  case checks lavapipe against a model of that defect (`lavapipe_ref`) and
  radcc against the true reference.
"""

from __future__ import annotations

from tests.e2e.glsl import (
    cases_arith,
    cases_bits,
    cases_control,
    cases_memory,
    cases_spill,
    cases_std450,
    cases_subgroup,
)
from tests.e2e.glsl_harness import Case

CASES: list[Case] = [
    *cases_arith.CASES,
    *cases_std450.CASES,
    *cases_bits.CASES,
    *cases_memory.CASES,
    *cases_control.CASES,
    *cases_subgroup.CASES,
    *cases_spill.CASES,
]
