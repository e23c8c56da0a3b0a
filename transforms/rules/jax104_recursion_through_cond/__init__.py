"""JAX104 recursion-through-cond: a function recurses through a lax.cond or lax.switch branch."""
