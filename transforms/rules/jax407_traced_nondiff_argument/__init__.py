"""JAX407 traced-nondiff-argument: a custom_vjp's nondiff_argnums slot is handed a tracer."""
