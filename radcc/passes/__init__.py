"""The ACO phases, one module per phase (named as in seeds/001), each a plain
function ``pass_name(program) -> None``; `radcc.pipeline` runs them in order."""
