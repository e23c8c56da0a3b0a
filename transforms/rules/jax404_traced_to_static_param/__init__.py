"""JAX404 traced-to-static-param: a traced value handed to a static parameter."""
