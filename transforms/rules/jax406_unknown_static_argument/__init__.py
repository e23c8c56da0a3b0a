"""JAX406 unknown-static-argument: a jit names static arguments its function does not take."""
