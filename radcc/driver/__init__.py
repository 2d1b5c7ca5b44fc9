"""The library drivers: what the `radcc` subcommands (`radcc.cli`) do, callable from Python.

- `radcc.driver.compile`: `compile_spirv`, a SPIR-V compute shader to a code object
  (the whole pipeline, timed stages).
- `radcc.driver.run`: `run_compute`/`run_compiled`, compile and run in `radcc.emu`.
- `radcc.driver.llc`: `compile_file`, machine IR text to assembly or a code object.
- `radcc.driver.mc`: `write_object`, an assembled file to a code object.

The drivers take bytes, text and typed arguments, raise exceptions and print nothing
(but what ``print_after`` asks for); reading files, argument parsing, messages and exit
statuses belong to `radcc.cli`. They take SPIR-V: GLSL is compiled by the CLI
(`radcc.cli._shader.read_shader`, through glslangValidator).

The package installs `radcc.driver.dataclass_code`'s cache of the methods `dataclasses`
compiles for radcc's classes (start-up, issue 14) when first imported; `radcc.cli`
imports it first.
"""

from radcc.driver import dataclass_code

dataclass_code.install()
