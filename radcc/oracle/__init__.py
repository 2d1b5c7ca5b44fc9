"""Independent oracles radcc is checked against (llvm-mc, clang, lavapipe).

They are wrappers around external tools; tests draw expectations from them,
never from radcc's own output.
"""
