"""radcc.emu: the functional emulator of GCN/RDNA machine code."""
