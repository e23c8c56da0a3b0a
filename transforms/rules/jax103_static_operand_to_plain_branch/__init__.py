"""JAX103 static-operand-to-plain-branch: a plain branch needs as a Python value an operand cond/switch traces."""
