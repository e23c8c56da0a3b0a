"""JAX201 unhashable-static-arg: a dict, list or set reaches a static parameter."""
