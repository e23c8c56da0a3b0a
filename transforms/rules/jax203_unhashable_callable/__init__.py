"""JAX203 unhashable-callable: a method of an equinox module holding an array, given to a JAX function that hashes it."""
