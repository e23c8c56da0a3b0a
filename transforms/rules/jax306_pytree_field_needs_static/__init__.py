"""JAX306 pytree-field-needs-static: a traced field of a registered dataclass is read where Python needs a concrete value."""
