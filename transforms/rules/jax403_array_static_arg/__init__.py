"""JAX403 array-static-arg: an array in a static slot."""
