"""JAX308 traced-boolean-mask: a boolean mask computed from a tracer, used as an index."""
