"""Code the tests (and tools/, bench/) share that is not part of radcc: the random IR
program generator (`randprog`), the machine-IR interpreter (`ir_interp`, with
`ir_interp_ops` and `ir_interp_state`) and the MIR interpreter (`mir_interp`)."""
