"""JAX309: `not`, `and`, `or` of a traced boolean, used as a value."""
