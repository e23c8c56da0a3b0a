"""JAX310 numpy-on-traced-value: NumPy, or a Python sequence, handed a tracer."""
