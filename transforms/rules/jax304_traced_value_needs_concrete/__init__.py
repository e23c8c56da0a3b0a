"""JAX304 traced-value-needs-concrete: a value JAX computes while tracing, where Python needs a concrete one."""
