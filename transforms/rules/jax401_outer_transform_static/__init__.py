"""JAX401 outer-transform-static: an outer transform traces a static argument."""
