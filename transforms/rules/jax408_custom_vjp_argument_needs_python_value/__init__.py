"""JAX408 custom-vjp-argument-needs-python-value: a custom_vjp needs an ordinary argument as a Python value."""
