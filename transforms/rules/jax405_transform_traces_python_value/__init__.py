"""JAX405 transform-traces-python-value: a transform other than jit traces a Python value the function needs."""
