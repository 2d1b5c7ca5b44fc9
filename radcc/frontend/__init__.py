"""radcc's front end: the SPIR-V reader (``spirv/``), and later the mid-level IR,
its optimisations and divergence analysis."""
