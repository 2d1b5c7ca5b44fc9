"""SPIR-V (a checked ``SpirvModule``) to MIR.

``spirv_to_mir(module_or_bytes, entry=None, spec=None) -> MirShader``

What it does, in the order data meets it:

* **Constants** become ``load_const`` in the entry block (raw bits; bools are
  1-bit); specialization constants take ``spec[SpecId]`` else their default;
  ``OpSpecConstantOp`` is translated as ordinary instructions on constants (the
  constant folder folds them). The workgroup size comes from the
  ``WorkgroupSize`` builtin constant, ``LocalSizeId`` or ``LocalSize``, folded.
* **Interface variables**: BuiltIn inputs load system values
  (``@load_global_invocation_id`` ...); StorageBuffer/Uniform blocks are
  (set, binding) buffers addressed in bytes from the Offset/ArrayStride/
  MatrixStride decorations (std430/std140 as the SPIR-V says; RowMajor
  matrices load/store their contiguous rows and transpose, and a column of one
  is a vector with strided components);
  PushConstant blocks likewise; Workgroup variables get a shared-memory layout
  (natural std430-like alignment, or the explicit decorations when present).
  Access chains become byte-offset arithmetic (``@load_ssbo``, ``@store_shared``
  ...); ``OpArrayLength`` divides ``@get_ssbo_size`` minus the runtime array's
  offset by its stride. Booleans in memory are 32-bit.
* **Function variables** become ``LocalVar``s with deref chains (promoted by
  ``opt.vars_to_ssa``); aggregate loads/stores are split into leaves, so MIR
  values are only scalars and vectors. A load of a whole scalar/vector variable
  whose value translation knows reads it with no ``load_deref`` (as vars_to_ssa
  would rename it): the value last stored to it or loaded from it in a block that
  dominates the load, unless a loop was entered since (a variable stored once
  excepted: `context.KnownValue`); a variable stored once whose every load read
  its store goes, with that store. ``OpPhi`` becomes a local variable
  stored at the end of each predecessor and loaded at the phi (what
  vars_to_ssa turns back into phis of the structured CFG).
* **Structured control flow**: OpSelectionMerge headers become ``If`` nodes,
  OpLoopMerge headers ``Loop`` nodes (the continue construct in ``Loop.cont``),
  a switch becomes a one-iteration ``Loop`` holding an if chain with a
  fall-through flag (case breaks are loop breaks), and a jump that leaves more
  than the innermost MIR loop (``return`` inside a loop, ``continue`` inside a
  switch ...) sets a flag, breaks, and is re-issued after that loop. Each
  function body sits in a one-iteration loop for early returns; loops that
  turn out to have no early exit are dissolved again.
* **Calls** are inlined (recursion is an error).

Anything else raises ``SpirvError`` naming the instruction and its word offset.

Modules, as Mesa splits spirv_to_nir (src/compiler/spirv/): `context` (the
translation context, Mesa's ``vtn_builder``), `types_consts` (types, constants,
specialization constants), `layout` (explicit and natural memory layouts),
`variables` (variables, access chains, loads and stores, barriers), `cfg`
(control flow and functions), `alu`, `composites`, `glsl450`, `subgroup`,
`atomics`, `coopmat` (cooperative matrices on WMMA: the invocation's elements as
an aggregate, ``cmat_muladd_amd``); `dispatch` is the opcode table, `driver` the
entry point.
"""

from .driver import spirv_to_mir

__all__ = ["spirv_to_mir"]
