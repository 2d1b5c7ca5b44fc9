"""The ACO phases, one module per phase (named as ACO's), each a plain function
``pass_name(program, **options) -> None``; the pass manager (`radcc.passes.manager`)
runs them in order with the debug options of `radcc.passes.options`."""
