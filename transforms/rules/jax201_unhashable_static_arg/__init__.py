"""JAX201 unhashable-static-arg: a dict, list, set or namespace reaches a static parameter."""
