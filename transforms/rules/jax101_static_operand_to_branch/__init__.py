"""JAX101 static-operand-to-branch: a jitted branch's static parameter receives a primitive's operand."""
