"""JAX402 static-arithmetic: jnp arithmetic on static ints where a concrete int is needed."""
