"""The project around a module: its other modules, what they export and jit, who imports whom."""
