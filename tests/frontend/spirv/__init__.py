"""SPIR-V reader tests."""
