"""JAX202 array-in-static-field: a static field of a pytree dataclass is given an array."""
