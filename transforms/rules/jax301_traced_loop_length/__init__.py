"""JAX301 traced-loop-length: a loop count computed from a traced value."""
