"""JAX305 python-if-on-traced-value: a Python if on a value vmap or pmap maps."""
