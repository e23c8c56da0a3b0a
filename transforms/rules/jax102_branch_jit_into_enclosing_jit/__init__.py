"""JAX102 branch-jit-into-enclosing-jit: the static value is a traced parameter of the enclosing jit."""
