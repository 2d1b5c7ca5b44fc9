"""radcc: a back-end shader compiler for AMD GCN/RDNA GPUs, after Mesa's ACO."""

__version__ = "0.1.0"
