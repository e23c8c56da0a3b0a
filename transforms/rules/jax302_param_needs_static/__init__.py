"""JAX302 param-needs-static: a parameter jit traces is needed as a Python value."""
