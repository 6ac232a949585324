"""The simulator: its Python reference step and the compiled one."""
