"""JAX307 chained-comparison-on-traced-value: ``lo < x < hi`` on a traced value, used as a value."""
